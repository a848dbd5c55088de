#!/usr/bin/env python3
"""The text report's colours on a terminal follow NO_COLOR as no-color.org
says: set and not empty turns them off; unset or empty keeps them.

Usage: no_color.py DIFFFOLD   (prints TAP-like lines, exits 1 on failure)
"""
import os
import pty
import subprocess
import sys
import tempfile

# A pair with a slower and a faster function: both colours in the tables.
BASE = b"main;parse 10\nmain;render 30\n"
HEAD = b"main;parse 25\nmain;render 12\n"

ANSI = b"\x1b["


def run(exe, base, head, no_color):
    """Standard output of `difffold -f text` written to a terminal."""
    env = dict(os.environ, LC_ALL="C")
    env.pop("NO_COLOR", None)
    if no_color is not None:
        env["NO_COLOR"] = no_color
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen([exe, "-f", "text", base, head], stdout=slave,
                                stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env)
        os.close(slave)
        slave = -1
        out = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            out += chunk
        proc.wait(timeout=60)
        return proc.returncode, out
    finally:
        os.close(master)
        if slave >= 0:
            os.close(slave)


def main():
    exe = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="difffold-no-color-")
    base, head = os.path.join(tmp, "base.folded"), os.path.join(tmp, "head.folded")
    for path, data in ((base, BASE), (head, HEAD)):
        with open(path, "wb") as f:
            f.write(data)
    cases = [(None, True), ("", True), ("1", False), ("0", False)]
    failed = 0
    for value, want_colour in cases:
        code, out = run(exe, base, head, value)
        name = "NO_COLOR unset" if value is None else "NO_COLOR=%r" % value
        has_colour = ANSI in out
        if code != 0 or has_colour != want_colour:
            failed += 1
            print("not ok - %s: exit %d, colour %s, want %s" % (name, code, has_colour, want_colour))
        else:
            print("ok - %s" % name)
    for path in (base, head):
        os.unlink(path)
    os.rmdir(tmp)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
