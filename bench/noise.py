#!/usr/bin/env python3
"""False positives and power of difffold's verdict and gates on sampled counts.

    bench/noise.py [--difffold build/src/difffold] [--pairs 40] [--changed 10]
                   [--seed 1] [--quick] [--table] [--check]

Simulates profiles whose truth is known and runs the built difffold on them:

- a workload of about 300 functions on about 900 stacks, heavy-tailed shares,
  with one function, `app::hot::target`, holding about 2 % of the samples;
- one profile a side: each stack's count Poisson around its expected count
  (the same workload profiled twice); the change scenario makes the target
  50 % slower (its expected counts times 1.5);
- several runs a side (--runs): each run also drifts, its whole workload by
  a factor exp(N(0, 0.05)) and each function by exp(N(0, 0.03)) of its own,
  before the Poisson draw; the change scenario makes the target 40 % slower.

For each scenario it prints how many pairs tripped each gate or got a
regression or improvement verdict. Null scenarios (no change) give the false
positives, change scenarios the power. The gates are
`--fail-on-function-regression 10` (any function) and, with runs,
`--fail-on 'app::hot::target:+10'` (a gate naming one function).

--check exits 1 when one of issue 31's figures is missed (one run a side,
28k samples: at most 5 of 40 null pairs trip the any-function gate or get a
regression or improvement verdict, at least 9 of 10 +50 % pairs trip it;
3 runs a side with drift: at most 5 of 40 null pairs trip either gate or
get such a verdict, at least 9 of 10 +40 % pairs trip the named gate).
--table adds 3, 5 and 10 runs and 888k samples. Standard library only; the
generator is its own, so nothing outside the repository is needed.
"""

import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile

TARGET = "app::hot::target"
TARGET_SHARE = 0.02


def workload(rng):
    """Stacks (frames, expected share, function of the leaf)."""
    modules = ["net", "db", "json", "http", "cache", "auth", "fs", "log", "sched", "alloc"]
    functions = []
    for m in modules:
        for k in range(30):
            functions.append("app::%s::f%02d" % (m, k))
    # Heavy-tailed shares, like real profiles: a few functions hold most samples.
    weights = [1.0 / (i + 1) ** 1.1 for i in range(len(functions))]
    rng.shuffle(weights)
    stacks = []
    for fn, w in zip(functions, weights):
        parts = rng.randint(1, 5)
        cut = sorted(rng.random() for _ in range(parts - 1))
        edges = [0.0] + cut + [1.0]
        mod = fn.split("::")[1]
        for p in range(parts):
            caller = "app::%s::caller%d" % (mod, rng.randint(0, 3))
            frames = ["main", "app::run", caller]
            if rng.random() < 0.5:
                frames.append("app::%s::mid%d" % (mod, rng.randint(0, 2)))
            frames.append(fn)
            stacks.append([";".join(frames), w * (edges[p + 1] - edges[p]), fn])
    total = sum(s[1] for s in stacks)
    for s in stacks:
        s[1] *= (1 - TARGET_SHARE) / total
    # The target: two call sites, 2 % of the samples between them.
    stacks.append(["main;app::run;app::hot::caller0;" + TARGET, TARGET_SHARE * 0.7, TARGET])
    stacks.append(["main;app::run;app::hot::caller1;" + TARGET, TARGET_SHARE * 0.3, TARGET])
    return stacks


def poisson(rng, lam):
    if lam <= 0:
        return 0
    if lam < 30:
        limit, k, p = math.exp(-lam), 0, rng.random()
        while p > limit:
            k += 1
            p *= rng.random()
        return k
    # Normal approximation with a continuity correction: counts of 30 and more.
    return max(0, int(math.floor(rng.gauss(lam, math.sqrt(lam)) + 0.5)))


def draw(rng, stacks, samples, factor, drift):
    """One profile: Poisson counts around the expected ones."""
    overall = math.exp(rng.gauss(0, 0.05)) if drift else 1.0
    per_fn = {}
    lines = []
    for frames, share, fn in stacks:
        if drift and fn not in per_fn:
            per_fn[fn] = math.exp(rng.gauss(0, 0.03))
        lam = samples * share * overall * per_fn.get(fn, 1.0)
        if fn == TARGET:
            lam *= factor
        c = poisson(rng, lam)
        if c > 0:
            lines.append("%s %d\n" % (frames, c))
    return "".join(lines)


def run_pair(args, rng, stacks, samples, runs, factor, tmp):
    drift = runs > 1
    files = {"base": [], "head": []}
    for side in ("base", "head"):
        for k in range(runs):
            path = os.path.join(tmp, "%s%d.folded" % (side, k))
            with open(path, "w") as f:
                f.write(draw(rng, stacks, samples, factor if side == "head" else 1.0, drift))
            files[side].append(path)
    cmd = [args.difffold, "-f", "json", "--fail-on-function-regression", "10"]
    if runs > 1:
        cmd += ["--runs", "--fail-on", TARGET + ":+10"]
        for side in ("base", "head"):
            for path in files[side]:
                cmd += ["--" + side, path]
    else:
        cmd += [files["base"][0], files["head"][0]]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 3):
        sys.exit("difffold failed (%d): %s" % (p.returncode, p.stderr))
    summary = json.loads(p.stdout)["summary"]
    failed = {g["gate"]: g["failed"] for g in summary["gates"]}
    return {
        "any": failed.get("fail-on-function-regression", False),
        "named": failed.get("fail-on", False),
        "verdict": summary["verdict"] in ("regression", "improvement"),
    }


def scenario(args, rng, stacks, samples, runs, factor, pairs):
    counts = {"any": 0, "named": 0, "verdict": 0, "either": 0}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(pairs):
            r = run_pair(args, rng, stacks, samples, runs, factor, tmp)
            for k in ("any", "named", "verdict"):
                counts[k] += r[k]
            counts["either"] += r["any"] or r["named"] or r["verdict"]
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--difffold", default="build/src/difffold")
    ap.add_argument("--pairs", type=int, default=40, help="null pairs a scenario")
    ap.add_argument("--changed", type=int, default=10, help="changed pairs a scenario")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--table", action="store_true", help="3, 5, 10 runs, 28k and 888k")
    ap.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    stacks = workload(rng)
    rows = [(1, 28000, 1.5), (3, 28000, 1.4)]
    if args.table:
        rows = [(1, 28000, 1.5), (1, 888000, 1.5)] + [
            (n, s, 1.4) for s in (28000, 888000) for n in (3, 5, 10)]
    print("| runs a side | samples a run | null pairs | any-function gate | named gate "
          "| verdict | any of these | change | changed pairs | tripped |")
    print("|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    missed = []
    for runs, samples, factor in rows:
        null = scenario(args, rng, stacks, samples, runs, 1.0, args.pairs)
        change = scenario(args, rng, stacks, samples, runs, factor, args.changed)
        gate = "any" if runs == 1 else "named"
        named = "-" if runs == 1 else str(null["named"])
        print("| %d | %s | %d | %d | %s | %d | **%d** | +%d%% | %d | **%d** (%s gate) |" % (
            runs, "{:,}".format(samples), args.pairs, null["any"], named, null["verdict"],
            null["either"], round((factor - 1) * 100), args.changed, change[gate],
            "any-function" if gate == "any" else "named"))
        sys.stdout.flush()
        if samples == 28000 and runs in (1, 3):
            if null["either"] * 40 > 5 * args.pairs:
                missed.append("%d run(s): %d of %d null pairs flagged" % (
                    runs, null["either"], args.pairs))
            if change[gate] * 10 < 9 * args.changed:
                missed.append("%d run(s): %d of %d changed pairs tripped" % (
                    runs, change[gate], args.changed))
    for m in missed:
        print("missed: " + m)
    if args.check and missed:
        sys.exit(1)


if __name__ == "__main__":
    main()
