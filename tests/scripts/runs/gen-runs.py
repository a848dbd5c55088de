#!/usr/bin/env python3
"""Repeated runs with known noise and a known real change, for --runs.

gen-runs.py --noise 0.08 --runs 5 --change 0.3 --seed 1 --out DIR

writes DIR/base-1.folded ... DIR/base-N.folded and DIR/head-1... : the same
workload run N times a side. Each function's cost varies from run to run
by a factor 1 + noise * g (g standard normal, clipped to +-3), and each
sample count is then drawn around it (Poisson-like, normal approximation):
real run-to-run noise. In the head, `parse_input` (about 4% of the samples)
costs 1 + change times as much: the one real change. The same arguments
always write the same bytes: each file draws from its own
random.Random("SEED-SIDE-I"), so a run does not depend on how many runs
were made before it."""
import argparse
import os
import random

# (stack, weight): functions under two callers, one recursive.
STACKS = [
    ("main;server;handle;parse_input", 40),
    ("main;server;handle;route", 90),
    ("main;server;handle;render_page", 160),
    ("main;server;handle;render_page;escape_html", 70),
    ("main;server;handle;db_query", 150),
    ("main;server;handle;db_query;read", 60),
    ("main;worker;compress", 120),
    ("main;worker;compress;malloc", 30),
    ("main;worker;walk;walk;walk", 80),
    ("main;worker;hash_block", 100),
    ("main;gc;sweep", 50),
    ("main;gc;mark", 50),
]
REAL = "parse_input"
SAMPLES = 200000  # per run


def one_run(rng, noise, change):
    total_w = sum(w for _, w in STACKS)
    lines = []
    for stack, w in STACKS:
        factor = 1 + noise * max(-3.0, min(3.0, rng.gauss(0, 1)))
        if change and stack.endswith(REAL):
            factor *= 1 + change
        mean = SAMPLES * w / total_w * max(factor, 0.05)
        count = max(0, int(round(rng.gauss(mean, mean ** 0.5))))
        lines.append(f"{stack} {count}\n")
    return "".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--noise", type=float, required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--change", type=float, default=0.3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for side, change in (("base", 0.0), ("head", a.change)):
        for i in range(1, a.runs + 1):
            rng = random.Random(f"{a.seed}-{side}-{i}")
            with open(os.path.join(a.out, f"{side}-{i}.folded"), "w") as f:
                f.write(one_run(rng, a.noise, change))


if __name__ == "__main__":
    main()
