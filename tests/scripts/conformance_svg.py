#!/usr/bin/env python3
"""SVG conformance with inferno on a real profile.

usage: conformance_svg.py DIFFFOLD CONFORMANCE_DIR

Renders the perf-vertx profile at 1200 px with a 0.01 % minimum width and
checks that every frame inferno draws (its <g><title>name (N samples,
P%)</title>) appears in ours, at the same place in the tree (the path of
names from the root, rebuilt from each picture's geometry) and with the same
sample count; and that the totals agree. inferno leaves perf's annotation
suffixes (_[k], _[j], ...) out of its titles; ours keep the full name, so
they are stripped before comparing.

Two inputs are checked. inferno's own copy of the profile (shipped in its
unsorted-input fixture) is what its SVG was drawn from: every frame must
match exactly. flamegraph-pl's copy lacks one of its 200 stacks (285
samples instead of 286); there inferno's counts are first reduced by the
stacks the two files differ in, then must match exactly too. The fixtures
are read in place; a missing fixture fails the test.

One difference is by design: a stack that ends in ';' gets no empty leaf
frame in difffold (its samples stay the parent's own), where inferno draws
a frame with an empty name. Those empty-named leaves of inferno's are left
out before comparing; their parents' counts, which hold the samples, are
compared as usual.
"""
import collections
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
FG = "{http://github.com/jonhoo/inferno}"
PROFILE = "flamegraph-pl/results/perf-vertx-stacks-01-collapsed-all.txt"
INFERNO_INPUT = "inferno/flamegraph/unsorted-input/perf-vertx-stacks-01-collapsed-all-unsorted.txt"
INFERNO = "inferno/flamegraph/perf-vertx-stacks/perf-vertx-stacks-01-collapsed-all.svg"
ANNOTATION = re.compile(r"_\[[kjiw]\]$")
TITLE = re.compile(r"^(.*) \(([\d,]+) samples?, [\d.]+%\)$", re.S)


def inferno_frames(path):
    """Counter of (path tuple, samples) for every frame inferno draws."""
    root = ET.parse(path).getroot()
    boxes = []
    for g in root.iter(SVG + "g"):
        title, rect = g.find(SVG + "title"), g.find(SVG + "rect")
        if title is None or rect is None:
            continue
        m = TITLE.match(title.text or "")
        if not m:
            raise SystemExit("unexpected inferno title: %r" % title.text)
        boxes.append({
            "name": m.group(1),
            "count": int(m.group(2).replace(",", "")),
            "y": float(rect.get("y")),
            "x": int(rect.get(FG + "x")),
            "w": int(rect.get(FG + "w")),
        })
    # Rows: the largest y is the root (inferno draws the root at the bottom).
    rows = sorted({b["y"] for b in boxes}, reverse=True)
    depth_of = {y: d for d, y in enumerate(rows)}
    by_depth = collections.defaultdict(list)
    for b in boxes:
        b["depth"] = depth_of[b["y"]]
        by_depth[b["depth"]].append(b)
    for d in sorted(by_depth):
        for b in by_depth[d]:
            if d == 0:
                b["path"] = (b["name"],)
                continue
            parents = [p for p in by_depth[d - 1] if p["x"] <= b["x"] < p["x"] + p["w"]]
            if len(parents) != 1:
                raise SystemExit("cannot place inferno frame %r" % b["name"])
            b["path"] = parents[0]["path"] + (b["name"],)
    return collections.Counter((b["path"], b["count"]) for b in boxes)


def our_frames(svg_bytes):
    """Counter of (path tuple, head samples) from our pre-order frames."""
    root = ET.fromstring(svg_bytes)
    frames = [g for g in root.iter(SVG + "g") if g.get("class") == "frame"]
    y0 = float(frames[0].find(SVG + "rect").get("y"))
    fh = float(root.get("data-frame-height"))
    stack, out = [], collections.Counter()
    for g in frames:
        name = ANNOTATION.sub("", g.find(SVG + "title").text.split("\n", 1)[0])
        depth = round(abs(float(g.find(SVG + "rect").get("y")) - y0) / fh)
        del stack[depth:]
        stack.append(name)
        head = g.get("data-head")
        out[(tuple(stack), int(head) if head.isdigit() else float(head))] += 1
    return out


def stacks(path):
    """Counter of stack -> samples of a folded file."""
    out = collections.Counter()
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            line = line.rstrip("\n")
            if line:
                stack, _, n = line.rpartition(" ")
                out[stack] += int(n)
    return out


def adjust(frames, removed):
    """inferno's frames minus the samples of stacks our input lacks."""
    by_path = {}
    for (path, count), n in frames.items():
        by_path[path] = count
    for stack, n in removed.items():
        parts = tuple(ANNOTATION.sub("", p) for p in stack.split(";"))
        for depth in range(len(parts) + 1):
            path = ("all",) + parts[:depth]
            if path in by_path:
                by_path[path] -= n
    return collections.Counter((p, c) for p, c in by_path.items() if c > 0)


def compare(exe, profile, theirs, label):
    r = subprocess.run([exe, profile, "--width", "1200", "--min-width", "0.01%"],
                       capture_output=True)
    if r.returncode != 0:
        print("not ok - %s: difffold exited %d: %s" % (label, r.returncode, r.stderr.decode()))
        return False
    ours = our_frames(r.stdout)
    theirs = collections.Counter({k: n for k, n in theirs.items() if k[0][-1] != ""})
    missing = theirs - ours
    root_theirs = [c for (p, c) in theirs if len(p) == 1]
    root_ours = [c for (p, c) in ours if len(p) == 1]
    ok = True
    if missing:
        ok = False
        print("not ok - %s: %d of %d inferno frames missing or with another count:"
              % (label, sum(missing.values()), sum(theirs.values())))
        for (path, count), n in sorted(missing.items())[:20]:
            print("  %s (%s samples) x%d" % (";".join(path), count, n))
    if root_theirs != root_ours:
        ok = False
        print("not ok - %s: totals differ: inferno %s, difffold %s"
              % (label, root_theirs, root_ours))
    if ok:
        print("ok - %s: all %d inferno frames present with their counts, total %s "
              "(difffold draws %d)" % (label, sum(theirs.values()), root_ours[0],
                                       sum(ours.values())))
    return ok


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    exe, conf = argv[1], argv[2]
    profile, reference, original = (os.path.join(conf, p) for p in (PROFILE, INFERNO, INFERNO_INPUT))
    for p in (profile, reference, original):
        if not os.path.isfile(p):
            print("not ok - fixture missing: %s" % p)
            return 1
    theirs = inferno_frames(reference)
    ok = compare(exe, original, theirs, "inferno's input")
    removed = stacks(original) - stacks(profile)
    if stacks(profile) - stacks(original):
        print("not ok - flamegraph-pl's profile has stacks inferno's lacks")
        return 1
    ok = compare(exe, profile, adjust(theirs, removed), "flamegraph-pl's input") and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
