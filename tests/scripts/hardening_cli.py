#!/usr/bin/env python3
"""Issue 34 (hardening round 3) through the command line: options that
cannot be misread, bounded output, a bounded regular-expression budget and
output files under /dev. Every hostile file is built here, at test time.

Usage: hardening_cli.py DIFFFOLD   (prints TAP-like lines, exits 1 on failure)
"""
import gzip
import os
import subprocess
import sys
import tempfile

RESULTS = []


def run(exe, *args, timeout=120):
    return subprocess.run([exe, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, timeout=timeout)


def record(name, why):
    RESULTS.append((name, why))


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)
    return path


def leftovers(folder):
    return [n for n in os.listdir(folder) if n.startswith(".difffold-")]


def options(exe, tmp):
    """Item 7: numbers are decimal; --normalize refuses a zero side; the
    documented -o /dev/stdout -o archive.json works."""
    a = write(os.path.join(tmp, "a.folded"), b"main;work 5\n")
    z = write(os.path.join(tmp, "z.folded"), b"main;work 0\n")
    for opt, value in (("--fail-on-regression", "0x10"), ("--min-delta", "0x0.1p0"),
                       ("--width", " 1200"), ("--max-frames", "0X100")):
        p = run(exe, opt, value, "-f", "text", a, a)
        why = None
        if p.returncode != 2 or b"invalid value" not in p.stderr:
            why = "exit %d, %r" % (p.returncode, p.stderr)
        record("%s %r is a usage error" % (opt, value), why)
    p = run(exe, "--fail-on-regression", "10", "-f", "text", a, a)
    record("--fail-on-regression 10 still reads", None if p.returncode == 0 else p.stderr)
    for base, head, side in ((a, z, "head"), (z, a, "base")):
        p = run(exe, "--normalize", "-f", "text", base, head)
        msg = ("--normalize: the %s's total is 0" % side).encode()
        record("--normalize with a zero %s is refused" % side,
               None if p.returncode == 1 and msg in p.stderr and not p.stdout
               else "exit %d, %r" % (p.returncode, p.stderr))
    archive = os.path.join(tmp, "archive.json")
    p = run(exe, "-o", "/dev/stdout", "-o", archive, a, a)
    ok = p.returncode == 0 and p.stdout.startswith(b"<?xml") and os.path.exists(archive)
    record("-o /dev/stdout -o archive.json (formats.md) works",
           None if ok else "exit %d, %r" % (p.returncode, p.stderr))


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="difffold-hardening-") as tmp:
        for section in (options,):
            section(exe, tmp)
    failed = 0
    for i, (name, why) in enumerate(RESULTS, 1):
        print("%s %d - %s%s" % ("not ok" if why else "ok", i, name, ": %s" % why if why else ""))
        failed += why is not None
    print("1..%d" % len(RESULTS))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
