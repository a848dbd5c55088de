#!/usr/bin/env python3
"""Whether two difffold builds write the same bytes on generated profile pairs.

    bench/identity.py OLD NEW [--sizes 1,10] [--seeds 1,2,3] [--gen PATH]
                      [--cache DIR]

Runs both binaries on folded pairs from the generator (bench/gen-pair.py,
or another with the same command line, --gen PATH) with each seed and size,
under a set of option variants that reach the tests of sampled counts: the
default picture with every text output beside it (SVG, JSON tree and
summary, Markdown and terminal reports), colour by total, gates, another
significance, exact counts, and two runs a side (--runs). It compares each
output file byte for byte, the exit status and the messages, and prints one
line a case; it exits 1 on the first difference it reports, with the file
and the first differing byte. PNG and PDF are left out: they are drawn from
the same layout as the SVG.

A change meant to keep every result (a faster path to the same tests) is
checked by running the build before it as OLD and after it as NEW; the
golden suites compare the same outputs with the stored ones. Only the
Python 3 standard library is used.
"""

import argparse
import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

OUTPUTS = ["out.svg", "out.json", "out.md", "out.txt"]

# Each variant: its name, the options before the files, and whether the
# files are given as two runs a side.
VARIANTS = [
    ("default", [], False),
    ("color-by-total", ["--color-by", "total"], False),
    (
        "gates",
        ["--fail-on-regression", "2", "--fail-on-function-regression", "10",
         "--fail-on", "*:self:+20", "--gate-min-share", "0.001"],
        False,
    ),
    ("significance-0.01", ["--significance", "0.01"], False),
    ("inverted-union", ["-i", "--widths", "union", "--min-width", "0.05"], False),
    ("exact", ["--counts", "exact"], False),
    ("runs", ["--runs"], True),
]


def make_pair(gen, size, seed, cache):
    base = os.path.join(cache, "b%s-%d.folded" % (size, seed))
    head = os.path.join(cache, "h%s-%d.folded" % (size, seed))
    if not (os.path.exists(base) and os.path.exists(head)):
        subprocess.run(
            [sys.executable, gen, "--size-mb", str(size), "--seed", str(seed),
             "--out-base", base, "--out-head", head],
            check=True)
    return base, head


def run(binary, opts, files, outdir):
    os.makedirs(outdir, exist_ok=True)
    args = [binary] + opts
    for name in OUTPUTS:
        args += ["-o", os.path.join(outdir, name)]
    args += files
    p = subprocess.run(args, capture_output=True)
    # The messages name the output files: compare them without the folder.
    return p.returncode, p.stderr.replace(outdir.encode(), b"OUT")


def read_or_none(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def first_difference(a, b):
    x, y = read_or_none(a), read_or_none(b)
    if x is None or y is None:
        return None if x is y else "only one build wrote it"
    if x == y:
        return None
    n = next((i for i in range(min(len(x), len(y))) if x[i] != y[i]), min(len(x), len(y)))
    return "byte %d: %r against %r" % (n, x[n:n + 60], y[n:n + 60])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--sizes", default="1,10")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--gen", default=os.path.join(REPO, "bench", "gen-pair.py"))
    ap.add_argument("--cache", help="folder for the pairs (default: a temporary one)")
    a = ap.parse_args()
    cache = a.cache or tempfile.mkdtemp(prefix="difffold-identity-")
    os.makedirs(cache, exist_ok=True)
    work = tempfile.mkdtemp(prefix="difffold-identity-out-")
    cases = same = 0
    for size in a.sizes.split(","):
        for seed in [int(s) for s in a.seeds.split(",")]:
            base, head = make_pair(a.gen, size, seed, cache)
            for name, opts, two_runs in VARIANTS:
                files = [base, head]
                if two_runs:
                    files = ["--base", base, "--base", base, "--head", head, "--head", base]
                results = []
                for which, binary in (("old", a.old), ("new", a.new)):
                    outdir = os.path.join(work, which)
                    for out in OUTPUTS:
                        if os.path.exists(os.path.join(outdir, out)):
                            os.unlink(os.path.join(outdir, out))
                    results.append((run(binary, opts, files, outdir), outdir))
                cases += 1
                (old_status, old_msg), old_dir = results[0]
                (new_status, new_msg), new_dir = results[1]
                problems = []
                if old_status != new_status:
                    problems.append("exit %d against %d" % (old_status, new_status))
                if old_msg != new_msg:
                    problems.append("messages differ: %r against %r" % (old_msg[:200], new_msg[:200]))
                for out in OUTPUTS:
                    d = first_difference(os.path.join(old_dir, out), os.path.join(new_dir, out))
                    if d:
                        problems.append("%s differs at %s" % (out, d))
                label = "%s MB seed %d %s (exit %d)" % (size, seed, name, old_status)
                if problems:
                    print("DIFFERENT", label)
                    for pr in problems:
                        print("   ", pr)
                    sys.exit(1)
                same += 1
                print("same     ", label)
    print("%d of %d cases byte-identical (%s)" % (same, cases, ", ".join(OUTPUTS)))


if __name__ == "__main__":
    main()
