#!/usr/bin/env python3
"""The Markdown report of a 10 MB generated pair stays under GitHub's
65,536-character comment limit, with the default --top and with the
largest one, and with an image link.

The pair is generated at test time into the build directory by the
project's own bench/gen-pair.py (fixed seed, so always the same pair).

Usage: size.py DIFFFOLD SOURCE_ROOT BUILD_DIR
"""
import os
import subprocess
import sys

LIMIT = 65536


def main():
    exe, root, build = sys.argv[1], sys.argv[2], sys.argv[3]
    gen = os.path.join(root, "bench", "gen-pair.py")
    base = os.path.join(build, "report-size-base.folded")
    head = os.path.join(build, "report-size-head.folded")
    # Kept in the build directory between runs; made again when the
    # generator changes.
    if not all(os.path.exists(p) and os.path.getmtime(p) >= os.path.getmtime(gen)
               for p in (base, head)):
        subprocess.run([sys.executable, gen, "--size-mb", "10", "--seed", "1",
                        "--out-base", base, "--out-head", head], check=True)
    failed = False
    for extra in ([], ["--top", "1000"], ["--top", "1000", "--normalize",
                  "--image-url", "https://example.com/" + "x" * 900 + ".png"]):
        p = subprocess.run([exe, base, head, "-f", "md"] + extra, capture_output=True,
                           timeout=300)
        text = p.stdout.decode("utf-8")
        ok = p.returncode == 0 and 0 < len(text) < LIMIT and "| Function |" in text
        print(f"{'ok  ' if ok else 'FAIL'} {' '.join(a[:40] for a in extra) or 'defaults'}: "
              f"{len(text)} characters, {len(p.stdout)} bytes, exit {p.returncode}")
        failed |= not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
