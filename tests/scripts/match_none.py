#!/usr/bin/env python3
"""Matching across builds leaves pairs without refactorings alone.

    match_none.py DIFFFOLD BASE HEAD [BASE HEAD...]

For each pair: the JSON summary has no "matches" member, no frame carries
a "match", and every output format is byte for byte the one --no-match
gives. Exits 1 with the first difference.
"""

import subprocess
import sys


def run(exe, *args):
    return subprocess.run([exe, *args], check=True, stdout=subprocess.PIPE).stdout


def main():
    exe, files = sys.argv[1], sys.argv[2:]
    if not files or len(files) % 2:
        sys.exit(__doc__)
    for base, head in zip(files[::2], files[1::2]):
        doc = run(exe, base, head, "-f", "json")
        if b'"matches":' in doc or b'"match":' in doc:
            sys.exit("FAIL: %s %s: something matched" % (base, head))
        for fmt in ("json", "md", "text", "folded", "svg"):
            on = run(exe, base, head, "-f", fmt)
            off = run(exe, base, head, "-f", fmt, "--no-match")
            if on != off:
                sys.exit("FAIL: %s %s: -f %s differs with --no-match" % (base, head, fmt))
    print("ok: %d pairs" % (len(files) // 2))


if __name__ == "__main__":
    main()
