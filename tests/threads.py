#!/usr/bin/env python3
"""Inputs big enough for difffold to read base and head on two threads
(64 MiB together, padded with a comment) give the same output and the same
messages, in the same order, as the same stacks without the padding, which
are read one file after the other. DIFFFOLD_READ_THREADS (1 or 2) forces
either way at any size, with the same result.

    tests/threads.py DIFFFOLD
"""

import os
import subprocess
import sys
import tempfile

PAD = 65 << 20  # bytes of comment in front of the big base file

BASE = """main;a;b 5
main;a;c 3
not a stack line
main;d 7
main;a;b 1
"""
HEAD = """main;a;b 9
main;e;f 2
main;a;c x
main;d 1
"""


def run(difffold, *args, threads=None):
    env = dict(os.environ)
    env.pop("DIFFFOLD_READ_THREADS", None)
    if threads:
        env["DIFFFOLD_READ_THREADS"] = threads
    p = subprocess.run([difffold, "-f", "folded", *args], capture_output=True, env=env)
    return p.returncode, p.stdout, p.stderr


def write(path, text, pad):
    with open(path, "w") as f:
        # The same number of comment lines either way, so that line numbers
        # agree; lines stay under difffold's 16 MiB cap.
        line = "#" + "x" * ((1 << 20) - 2 if pad else 1) + "\n"
        f.write(line * (PAD >> 20))
        f.write(text)


def check(name, got, want):
    if got != want:
        sys.exit("%s: threaded run differs:\n got  %r\n want %r" % (name, got, want))


def main():
    difffold = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="difffold-threads-") as tmp:
        small_base = os.path.join(tmp, "small-base.folded")
        big_base = os.path.join(tmp, "big-base.folded")
        head = os.path.join(tmp, "head.folded")
        write(small_base, BASE, 0)
        write(big_base, BASE, PAD)
        write(head, HEAD, 0)
        missing = os.path.join(tmp, "missing.folded")

        # Both sides fine (with a malformed line each): same dump, same warnings.
        code, out, err = run(difffold, big_base, head)
        code0, out0, err0 = run(difffold, small_base, head)
        check("stdout", out, out0)
        check("stderr", err.replace(b"big-base", b"small-base"), err0)
        check("exit", code, code0)
        if code != 0 or b"main;a;b 6 9" not in out or err.count(b"warning") != 2:
            sys.exit("unexpected result: %d %r %r" % (code, out, err))
        if err.index(b"big-base") > err.index(b"head.folded"):
            sys.exit("base messages must come first: %r" % err)

        # Forced either way: two threads for the small pair, one for the big.
        for args, threads, want in (((small_base, head), "2", (code0, out0, err0)),
                                    ((big_base, head), "1", (code, out, err)),
                                    (("--strict", small_base, head), "2",
                                     run(difffold, "--strict", small_base, head))):
            check("DIFFFOLD_READ_THREADS=%s %s" % (threads, " ".join(args)),
                  run(difffold, *args, threads=threads), want)

        # Head missing: base's warning, then the error; exit 1.
        code, out, err = run(difffold, big_base, missing)
        code0, out0, err0 = run(difffold, small_base, missing)
        check("missing head stderr", err.replace(b"big-base", b"small-base"), err0)
        check("missing head exit", code, code0)
        if code != 1 or out:
            sys.exit("missing head: %d %r" % (code, out))

        # Strict: the base fails, and the head's messages are not shown.
        code, out, err = run(difffold, "--strict", big_base, head)
        code0, out0, err0 = run(difffold, "--strict", small_base, head)
        check("strict stderr", err.replace(b"big-base", b"small-base"), err0)
        check("strict exit", code, code0)
        if code != 1 or b"head.folded" in err:
            sys.exit("strict: %d %r" % (code, err))
    print("ok")


if __name__ == "__main__":
    main()
