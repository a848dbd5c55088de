#!/usr/bin/env python3
"""Wall and CPU time of difffold builds on one pair, run in turns.

    bench/interleave.py [--rounds 15] [--variant ARGS]... BASE HEAD BINARY...

Each round runs every binary once with every variant (default: the
default run and --no-match), so that a busy spell of a shared machine
falls on all of them alike; then prints, per binary and variant, the
median and range of the wall time, of the CPU time (user + sys, from
wait4) and the median peak RSS. The SVG goes to a temporary folder. A
build that refuses a variant (an option it predates) is left out of that
variant's rows.
"""

import argparse
import os
import shlex
import statistics
import subprocess
import tempfile
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--variant", action="append",
                    help="options for one variant, as one string ('' for none)")
    ap.add_argument("base")
    ap.add_argument("head")
    ap.add_argument("binaries", nargs="+")
    a = ap.parse_args()
    variants = a.variant if a.variant is not None else ["", "--no-match"]
    got = {}
    with tempfile.TemporaryDirectory(prefix="difffold-interleave-") as tmp:
        out = os.path.join(tmp, "out.svg")
        for _ in range(a.rounds):
            for binary in a.binaries:
                for v in variants:
                    args = [binary, *shlex.split(v), a.base, a.head, "-o", out]
                    t0 = time.perf_counter()
                    p = subprocess.Popen(args, stderr=subprocess.DEVNULL)
                    _, status, ru = os.wait4(p.pid, 0)
                    wall = time.perf_counter() - t0
                    if status != 0:
                        got.setdefault((binary, v), None)
                        continue
                    if got.get((binary, v), []) is None:
                        continue
                    got.setdefault((binary, v), []).append(
                        (wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024))
    for (binary, v), runs in got.items():
        if runs is None:
            print("%s [%s] failed" % (binary, v))
            continue
        wall, cpu, rss = ([r[i] for r in runs] for i in range(3))
        print("%s [%s] n=%d wall %.3f s (%.3f-%.3f) cpu %.3f s (%.3f-%.3f) rss %.1f MB" % (
            binary, v, len(runs), statistics.median(wall), min(wall), max(wall),
            statistics.median(cpu), min(cpu), max(cpu), statistics.median(rss)))


if __name__ == "__main__":
    main()
