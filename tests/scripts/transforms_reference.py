#!/usr/bin/env python3
"""Property test: --replace, --hide, --focus, --focus-root, --exclude,
--skip-frames and --collapse-recursion against a model in Python.

Usage: transforms_reference.py DIFFFOLD [ROUNDS] [SEED]

Each round writes a random base/head pair of folded profiles (sorted or not,
so the reuse of the stack before is exercised both ways), picks random
transforms from patterns on which Python's re and PCRE2 agree, gives them in
a random order on the command line, and compares difffold's -f folded output
with the model's: the documented order of the steps (every --replace in the
order given, then hide, focus, exclude, skip, collapse), a stack left empty
dropped. Every other round reads base and head on two threads.
"""
import os
import random
import re
import subprocess
import sys
import tempfile

NAMES = ["main", "base", "head", "run", "f_0x1a", "f_0xff", "g", "gc", "idle", "lambda#1",
         "lambda#2", "parse", "\u00e9t\u00e9", "x y", "w-7", "w-12", "std::vec", "a", "aa"]

# (PCRE2 pattern, PCRE2 replacement, Python replacement)
REPLACES = [("0x[0-9a-f]+", "0x", "0x"), ("^(base|head)$", "app", "app"),
            ("^w-(\\d+)$", "w$1", "w\\1"), ("#\\d+$", "", ""), ("a", "A", "A"),
            ("^(\\w)(\\w*)$", "\\2\\1", "\\2\\1"), ("^(?<p>g)c$", "${p}C", "\\g<p>C")]
HIDES = ["^gc$", "idle", "^app$", "^x ", "^A+$"]
FOCUSES = ["^parse$", "^run$", "lambda", "^main$"]
EXCLUDES = ["^idle$", "std::", "^g$"]


def pick(rng):
    """Random transforms: (args in a random order, the model's settings)."""
    t = {"replace": rng.sample(REPLACES, rng.randint(0, 3)),
         "hide": rng.sample(HIDES, rng.randint(0, 2)),
         "focus": rng.sample(FOCUSES, rng.randint(0, 1) if rng.random() < 0.7 else 2),
         "exclude": rng.sample(EXCLUDES, rng.randint(0, 1)),
         "skip": rng.choice([0, 0, 1, 2, 5]),
         "collapse": rng.random() < 0.5}
    t["focus_root"] = bool(t["focus"]) and rng.random() < 0.5
    opts = [["--hide", p] for p in t["hide"]] + [["--focus", p] for p in t["focus"]] + \
        [["--exclude", p] for p in t["exclude"]]
    if t["skip"]:
        opts.append(["--skip-frames", str(t["skip"])])
    if t["collapse"]:
        opts.append(["--collapse-recursion"])
    if t["focus_root"]:
        opts.append(["--focus-root"])
    rng.shuffle(opts)
    # The replaces keep their order among themselves; the rest goes anywhere.
    reps = [["--replace", pat + "=" + repl] for pat, repl, _ in t["replace"]]
    at = sorted(rng.sample(range(len(opts) + len(reps)), len(reps)))
    for pos, rep in zip(at, reps):
        opts.insert(pos, rep)
    return [a for o in opts for a in o], t


def model_stack(frames, t):
    for pat, _, repl in t["replace"]:
        pat = pat.replace("(?<", "(?P<")  # Python spells a named group so
        frames = [re.sub(pat, repl, f) for f in frames]
    frames = [f for f in frames if not any(re.search(p, f) for p in t["hide"])]
    if t["focus"]:
        hit = [i for i, f in enumerate(frames) if any(re.search(p, f) for p in t["focus"])]
        if not hit:
            return None
        if t["focus_root"]:
            frames = frames[hit[0]:]
    if any(re.search(p, f) for p in t["exclude"] for f in frames):
        return None
    frames = frames[t["skip"]:]
    if not frames:
        return None
    if t["collapse"]:
        frames = [f for i, f in enumerate(frames) if i == 0 or f != frames[i - 1]]
    return ";".join(frames)


def round_(exe, rng, tmp, threads):
    sides = []
    for name in ("base.folded", "head.folded"):
        lines = []
        for _ in range(rng.randint(1, 30)):
            stack = [rng.choice(NAMES) for _ in range(rng.randint(1, 7))]
            if rng.random() < 0.3:  # recursion, for --collapse-recursion
                stack[1:1] = [stack[0]] * rng.randint(1, 3)
            lines.append((stack, rng.randint(1, 100)))
        if rng.random() < 0.5:
            lines.sort()
        with open(os.path.join(tmp, name), "w", encoding="utf-8") as f:
            f.writelines("%s %d\n" % (";".join(s), c) for s, c in lines)
        sides.append(lines)
    args, t = pick(rng)
    sums = {}
    for side, lines in enumerate(sides):
        for stack, count in lines:
            key = model_stack(stack, t)
            if key is not None:
                sums.setdefault(key, [0, 0])[side] += count
    want = sorted("%s %d %d" % (k, v[0], v[1]) for k, v in sums.items())
    env = dict(os.environ, DIFFFOLD_READ_THREADS="2" if threads else "1")
    # The model is of the transforms: matching across builds is tested on its own.
    p = subprocess.run([exe, "-f", "folded", "--no-match"] + args + ["base.folded", "head.folded"],
                       cwd=tmp,
                       capture_output=True, env=env)
    got = sorted(p.stdout.decode("utf-8").splitlines())
    if p.returncode != 0 or got != want:
        print("FAIL: difffold -f folded %s base.folded head.folded (exit %d)\n%s" %
              (" ".join(repr(a) for a in args), p.returncode, p.stderr.decode()))
        print("want:\n  " + "\n  ".join(want) + "\ngot:\n  " + "\n  ".join(got))
        return False
    return True


def main():
    exe = os.path.abspath(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 17)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(rounds):
            failed += not round_(exe, rng, tmp, i % 2 == 1)
            if failed >= 3:
                break
    print("%d rounds, %d failed" % (rounds, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
