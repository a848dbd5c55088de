#!/usr/bin/env python3
"""Inputs big enough for difffold to read on two threads (64 MiB together,
padded with a comment) give the same output and the same messages, in the
same order, as the same stacks without the padding, which are read on one.
DIFFFOLD_READ_THREADS (1 or 2) forces either way at any size, with the same
result; files of many chunks (shared prefixes, lines longer than a chunk or
deeper than the frames hashed ahead, errors late in the file) check the
two-thread pipeline against the one-thread reader.

    tests/scripts/threads.py DIFFFOLD
"""

import gzip
import os
import random
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
        chunks(difffold, tmp)
    print("ok")


def many_lines(path, seed, bad_at=None):
    """Some MB of stacks: sorted runs sharing prefixes, shuffled ones, a few
    lines longer than a chunk or deeper than 512 frames."""
    rnd = random.Random(seed)
    names = ["main", "run", "a;", "x" * 300, "std::vec<T>::push", "0x7f00", ""]
    lines = []
    for i in range(25000):
        depth = rnd.randint(1, 30)
        stack = ";".join(rnd.choice(names) + str(rnd.randint(0, 40)) for _ in range(depth))
        lines.append("%s %d" % (stack, rnd.randint(1, 1000)))
    lines[100:2000] = sorted(lines[100:2000])
    lines.insert(3000, ";".join("deep%d" % i for i in range(700)) + " 5")
    lines.insert(5000, ";".join("wide" * 10000 + str(i) for i in range(3)) + " 7")
    if bad_at is not None:
        lines.insert(bad_at, "no count here")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def chunks(difffold, tmp):
    base = os.path.join(tmp, "many-base.folded")
    head = os.path.join(tmp, "many-head.folded")
    bad = os.path.join(tmp, "many-bad.folded")
    many_lines(base, 1)
    many_lines(head, 2)
    many_lines(bad, 3, bad_at=20000)
    with open(head, "rb") as f, open(os.path.join(tmp, "many-head.gz"), "wb") as g:
        g.write(gzip.compress(f.read()))
    cases = [(base, head), (base, os.path.join(tmp, "many-head.gz")),
             ("--strict", base, bad), (base, bad), ("--max-frames", "100000", base, head),
             ("--reverse", base, head), ("--strip-hex", base, head),
             ("--replace", "main(.*)=m$1", base, head), (bad,)]
    for args in cases:
        one = run(difffold, *args, threads="1")
        two = run(difffold, *args, threads="2")
        check("pipeline %s" % " ".join(args), two, one)
    if run(difffold, "--max-frames", "100000", base, head, threads="2")[0] != 1:
        sys.exit("--max-frames 100000 did not fail")


if __name__ == "__main__":
    main()
