#!/usr/bin/env python3
"""The Markdown report of a 10 MB generated pair stays under GitHub's
65,536-character comment limit, with the default --top and with the
largest one, with an image link, and with two dozen gates all tripping;
the sections of issue 19 are there.

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
    # The last one with every section full: two dozen gates, all tripping.
    many_gates = ["--fail-on-function-regression", "0", "--gate-min-share", "0"]
    for i in range(12):
        many_gates += ["--fail-on", f"*{i}*:+0%", "--fail-on", f"*{i}*:total:+0%"]
    for extra in ([], ["--top", "1000"], ["--top", "1000", "--normalize",
                  "--image-url", "https://example.com/" + "x" * 900 + ".png"],
                  ["--top", "1000"] + many_gates):
        p = subprocess.run([exe, base, head, "-f", "md"] + extra, capture_output=True,
                           timeout=300)
        text = p.stdout.decode("utf-8")
        sections = ["#### Hot-path changes", "#### Most expensive functions (self)",
                    "#### Signals", "| Function |"]
        sections.append("#### What to investigate")
        ok = (p.returncode in (0, 3) and 0 < len(text) < LIMIT
              and all(x in text for x in sections))
        print(f"{'ok  ' if ok else 'FAIL'} {' '.join(a[:40] for a in extra) or 'defaults'}: "
              f"{len(text)} characters, {len(p.stdout)} bytes, exit {p.returncode}")
        failed |= not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
