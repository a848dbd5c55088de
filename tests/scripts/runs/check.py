#!/usr/bin/env python3
"""--runs on generated runs (tests/scripts/runs/gen-runs.py) with known noise and one
known real change (parse_input +30%), at several noise levels: the change is
found (listed, coloured, gated) and no noisy function is; without the change
nothing is found and no gate trips.

check.py DIFFFOLD SOURCE_ROOT BUILD_DIR"""
import json
import os
import subprocess
import sys
import tempfile

DIFFFOLD, ROOT = sys.argv[1], sys.argv[2]
GEN = os.path.join(ROOT, "tests", "scripts", "runs", "gen-runs.py")
# (run-to-run noise, runs a side): more runs where the noise is larger, as
# a user would need. The seed is fixed, as for every generated input here.
LEVELS = [(0.02, 3), (0.08, 6), (0.15, 16)]
REAL = "parse_input"
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(args):
    return subprocess.run([DIFFFOLD] + args, capture_output=True, text=True)


def inputs(d, n):
    a = []
    for side in ("base", "head"):
        for i in range(1, n + 1):
            a += ["--" + side, os.path.join(d, f"{side}-{i}.folded")]
    return a


def flagged(summary):
    names = set()
    for kind in ("regressions", "improvements"):
        for measure in ("self", "total"):
            names |= {r["name"] for r in summary[kind][measure]}
    return names


def one(tmp, noise, n, change):
    d = os.path.join(tmp, f"n{noise}-c{change}")
    subprocess.run([sys.executable, GEN, "--noise", str(noise), "--runs", str(n),
                    "--change", str(change), "--seed", "1", "--out", d], check=True)
    tag = f"noise {noise:.0%}, {n} runs a side, change {change:+.0%}"
    r = run(["--runs", "-f", "json"] + inputs(d, n))
    check(r.returncode == 0, f"{tag}: json exit 0 ({r.stderr.strip()})")
    s = json.loads(r.stdout)["summary"]
    want = {REAL} if change else set()
    got = flagged(s)
    check(got == want, f"{tag}: flagged {sorted(got)}, want {sorted(want)}")
    # Without --runs the summed counts flag noise too (why --runs exists).
    if noise >= 0.08:
        plain = flagged(json.loads(run(["-f", "json"] + inputs(d, n)).stdout)["summary"])
        check(len(plain - {REAL}) > 0, f"{tag}: without --runs noise is flagged {sorted(plain)}")
    g = run(["--runs", "--fail-on-function-regression", "10", "-o", os.path.join(d, "r.md")]
            + inputs(d, n))
    check(g.returncode == (3 if change else 0),
          f"{tag}: gate exit {g.returncode} ({g.stderr.strip()})")
    if change:
        check(REAL in g.stderr and g.stderr.count("regression:") == 1,
              f"{tag}: only {REAL} trips the gate")
    svg = run(["--runs", "-f", "svg"] + inputs(d, n)).stdout
    frames = [l for l in svg.split("<g class=\"frame\"")[1:]]
    changed = [f.split("<title>")[1].split("\n")[0] for f in frames
               if 'data-status="same"' not in f.split(">")[0]]
    check(changed == ([REAL] if change else []), f"{tag}: coloured frames {changed}")
    check(all("data-interval=" in f.split(">")[0] for f in frames),
          f"{tag}: every frame has data-interval")
    # The interval of the change in share (pp) lies above 0 for the real change.
    for f in frames:
        name = f.split("<title>")[1].split("\n")[0]
        lo, hi, p = map(float, f.split('data-interval="')[1].split('"')[0].split())
        if name == REAL:
            check((lo > 0 and p < 0.05) if change else lo <= 0 <= hi,
                  f"{tag}: {REAL}'s interval [{lo}, {hi}] pp, p {p}")
    check("runs a side, changes not significant at p&lt;0.05 drawn as unchanged" in svg,
          f"{tag}: the header says how many runs")


with tempfile.TemporaryDirectory() as tmp:
    for noise, n in LEVELS:
        one(tmp, noise, n, 0.3)
        one(tmp, noise, n, 0.0)
sys.exit(1 if failures else 0)
