#!/usr/bin/env python3
"""Flame graph SVGs as input: inferno's SVGs read back into the stacks they
were drawn from.

usage: conformance_svg_input.py DIFFFOLD CONFORMANCE_DIR

For each inferno SVG of the fixtures and the folded file it was drawn from,
`difffold -f folded SVG` must give back the input's stacks down to what
inferno drops when it draws:

- a frame narrower than its minimum width is not drawn, so its samples stay
  its caller's own: every frame difffold reads back must exist in the input
  with the same total, every input frame missing from it must be narrower
  than every frame read (one threshold prunes them all), and the totals
  must agree once the pruned top frames are counted;
- inferno leaves perf's annotation suffixes (_[k], _[j], _[i], _[w]) and
  the spaces around a name out of its titles, and a stack ending in ';' has
  no empty leaf in difffold.

The model of the input is written here from the folded format, not from
difffold. inferno's differential SVGs must be refused (they hold one side's
counts). Fixtures are read in place; a missing one fails the test.
"""
import collections
import os
import re
import subprocess
import sys

FLAME = "inferno/flamegraph"
CASES = [
    ("narrow-blocks/narrow-blocks.svg", "narrow-blocks/narrow-blocks.txt"),
    ("grey-frames/grey-frames.svg", "grey-frames/grey-frames.txt"),
    ("austin/flame.svg", "austin/flames.txt"),
    ("perf-vertx-stacks/perf-vertx-stacks-01-collapsed-all.svg",
     "unsorted-input/perf-vertx-stacks-01-collapsed-all-unsorted.txt"),
]
REFUSED = ["differential/diff.svg", "differential/diff-negated.svg"]
ANNOTATION = re.compile(r"_\[[kjiw]\]$")


def totals(lines, strip):
    """{path tuple: total} of folded lines `stack count`."""
    tree = collections.Counter()
    for line in lines:
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        stack, _, count = line.rpartition(" ")
        frames = [f.strip() for f in stack.split(";")]
        while frames and frames[-1] == "":
            frames.pop()
        if strip:
            frames = [ANNOTATION.sub("", f) for f in frames]
        n = float(count)
        for depth in range(1, len(frames) + 1):
            tree[tuple(frames[:depth])] += n
        tree[()] += n
    return tree


def check(exe, base, svg, folded):
    with open(os.path.join(base, folded), encoding="utf-8", errors="surrogateescape") as f:
        want = totals(f, True)
    run = subprocess.run([exe, "-f", "folded", os.path.join(base, svg)], capture_output=True,
                         text=True, errors="surrogateescape")
    if run.returncode != 0:
        return [f"{svg}: exit {run.returncode}: {run.stderr.strip()}"]
    got = totals(run.stdout.splitlines(), False)
    errors = []
    for path, n in got.items():
        if path and want.get(path) != n:
            errors.append(f"{svg}: {';'.join(path)} read back as {n}, input has {want.get(path)}")
    drawn = [n for path, n in got.items() if path]
    missing = [(path, n) for path, n in want.items()
               if path and path not in got and path[:-1] in got]
    if missing and drawn and max(n for _, n in missing) >= min(drawn):
        errors.append(f"{svg}: a frame as wide as a drawn one is missing: {max(missing, key=lambda m: m[1])}")
    pruned_top = sum(n for path, n in missing if len(path) == 1)
    if abs(got[()] + pruned_top - want[()]) > 1e-6:
        errors.append(f"{svg}: total {got[()]} (+{pruned_top} pruned) != input {want[()]}")
    if not drawn:
        errors.append(f"{svg}: nothing read back")
    print(f"{'FAIL' if errors else 'ok  '} {svg}: {len(drawn)} frames read back, "
          f"{len(missing)} pruned subtrees, total {got[()]:g}")
    return errors


def main():
    exe, base = sys.argv[1], os.path.join(sys.argv[2], FLAME)
    errors = []
    for svg, folded in CASES:
        errors += check(exe, base, svg, folded)
    # Two of them as a pair, as a user diffs the graphs they have.
    pair = [os.path.join(base, CASES[0][0]), os.path.join(base, CASES[1][0])]
    run = subprocess.run([exe] + pair + ["-f", "json"], capture_output=True, text=True)
    ok = run.returncode == 0 and '"differential":true' in run.stdout
    print(f"{'ok  ' if ok else 'FAIL'} a pair of inferno SVGs drawn as a differential graph")
    if not ok:
        errors.append(f"pair: exit {run.returncode}: {run.stderr.strip()}")
    for svg in REFUSED:
        run = subprocess.run([exe, "-f", "folded", os.path.join(base, svg)], capture_output=True,
                             text=True)
        ok = run.returncode == 1 and "differential flame graph" in run.stderr and not run.stdout
        print(f"{'ok  ' if ok else 'FAIL'} {svg}: refused")
        if not ok:
            errors.append(f"{svg}: not refused (exit {run.returncode}): {run.stderr.strip()}")
    for e in errors:
        print("FAIL " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
