#!/usr/bin/env python3
"""pprof CPU profiles are tested on their samples, not on their nanoseconds.

Usage: pprof_samples.py DIFFFOLD   (prints TAP-like lines, exits 1 on failure)

Go writes a CPU profile with two sample types, `samples` (count) and `cpu`
(nanoseconds), and difffold draws the nanoseconds. The test of sampling
noise must count samples: here each stack's nanoseconds are its samples
times 10 ms plus a few nanoseconds of measured time, so that no period
divides them all and the largest unit they share is 1 ns. Weighed by that
unit, 30 samples against 42 (p about 0.5 on these totals) looked like 300
million nanosecond "samples" against 420 million, a certain change; on the
profile's own sample counts it is noise, drawn unchanged. The same pair
with 30 against 200 samples is a change either way.
"""
import json
import os
import subprocess
import sys
import tempfile


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "profilers", "pprof"))
from gen import Profile  # noqa: E402  (the tests' own pprof encoder)


def profile(stacks):
    """stacks: [(function names root first, samples, nanoseconds)]."""
    p = Profile()
    p.sample_type("samples", "count")
    p.sample_type("cpu", "nanoseconds")
    ids = {}
    for frames, samples, nanos in stacks:
        for name in frames:
            if name not in ids:
                ids[name] = len(ids) + 1
                p.function(ids[name], name)
                p.location(ids[name], [ids[name]])
        p.sample([ids[n] for n in reversed(frames)], [samples, nanos])  # leaf first
    return p.encode()


def status_of(tree, name):
    stack = [tree["root"]]
    while stack:
        n = stack.pop()
        if n["name"] == name:
            return n["status"]
        stack.extend(n.get("children", []))
    return None


def main():
    exe = sys.argv[1]
    failures = 0
    with tempfile.TemporaryDirectory() as d:
        cases = [
            ("30 against 42 samples: noise", 42, "same"),
            ("30 against 200 samples: a change", 200, "slower"),
        ]
        for label, head_f, want in cases:
            base = [(["main", "f"], 30, 30 * 10_000_000 + 7), (["main", "g"], 30, 30 * 10_000_000 + 3)]
            head = [(["main", "f"], head_f, head_f * 10_000_000 + 5),
                    (["main", "g"], 30, 30 * 10_000_000 + 11)]
            paths = []
            for side, stacks in (("base", base), ("head", head)):
                path = os.path.join(d, side + ".pb")
                with open(path, "wb") as f:
                    f.write(profile(stacks))
                paths.append(path)
            p = subprocess.run([exe, "-f", "json"] + paths, capture_output=True)
            if p.returncode != 0:
                print("not ok - %s: exit %d, %s" % (label, p.returncode, p.stderr.decode()))
                failures += 1
                continue
            got = status_of(json.loads(p.stdout), "f")
            if got == want:
                print("ok - %s: f is %s" % (label, got))
            else:
                print("not ok - %s: f is %s, want %s" % (label, got, want))
                failures += 1
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
