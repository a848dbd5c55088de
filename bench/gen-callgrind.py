#!/usr/bin/env python3
"""Writes a base/head pair of callgrind profiles of about N MB each.

usage: gen-callgrind.py --size-mb N --seed S --out-base F --out-head G

The files look like what valgrind --tool=callgrind writes: a header, then
per function an fl=/fn= block of cost lines with relative line numbers and
three events (Ir Dr Dw), and calls= lines with their inclusive costs; names
compressed as valgrind does ("(id) name" the first time, "(id)" after).
The call graph is a random DAG whose call costs are consistent (each
function's inclusive cost is the sum of the calls to it), so difffold's
expansion and callgrind_annotate agree. Head differs from base by a few
functions made slower or faster. Deterministic: its own PRNG.
"""
import argparse
import sys

MASK = (1 << 64) - 1


class Rng:
    """splitmix64: the same numbers on every Python and machine."""

    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n):
        return self.next() % n

    def heavy(self, scale):
        """A heavy-tailed count: most small, a few large."""
        u = (self.next() >> 11) / float(1 << 53)
        return int(scale / (1.0 - u * 0.999) ** 1.5)


WORDS = ["parse", "emit", "hash", "lookup", "alloc", "free", "copy", "scan", "sort",
         "merge", "read", "write", "encode", "decode", "visit", "resolve", "flush",
         "insert", "remove", "grow", "match", "compile", "render", "layout"]
NOUNS = ["node", "table", "buffer", "token", "frame", "string", "entry", "block",
         "page", "tree", "symbol", "record", "chunk", "path", "glyph", "header"]


def make_graph(rng, nfuncs):
    """Functions 0..n-1; calls go from lower to higher ids (a DAG)."""
    names, files = [], []
    for i in range(nfuncs):
        kind = rng.below(4)
        base = "%s_%s" % (WORDS[rng.below(len(WORDS))], NOUNS[rng.below(len(NOUNS))])
        if kind == 0:
            name = "ns%d::%s<int>(unsigned long)" % (rng.below(40), base)
        elif kind == 1:
            name = "%s::h%016x" % (base, rng.next())
        else:
            name = "%s_%d" % (base, i)
        names.append(name)
        files.append("src/mod%d/%s.c" % (rng.below(50), NOUNS[rng.below(len(NOUNS))]))
    # A call tree of fan-out about 6 (depth grows with the log of the size,
    # as in programs), and the last tenth of the functions are utilities
    # (allocation, copying, hashing) called from many places.
    callees = [[] for _ in range(nfuncs)]
    utilities = max(1, nfuncs // 10)
    tree = nfuncs - utilities
    for g in range(1, tree):
        callees[(g - 1) // (2 + rng.below(9))].append(g)
    for g in range(tree, nfuncs):
        for _ in range(1 + rng.below(6)):
            callees[rng.below(tree)].append(g)
    return names, files, callees


def costs(rng, callees, nfuncs, slow):
    """Self costs, and inclusive costs per call edge, consistent bottom-up."""
    selfc = [rng.heavy(40) * slow.get(f, 1) for f in range(nfuncs)]
    callers = [[] for _ in range(nfuncs)]
    for f in range(nfuncs):
        for g in callees[f]:
            callers[g].append(f)
    incl = [0] * nfuncs
    edge = {}
    for g in range(nfuncs - 1, -1, -1):
        incl[g] = selfc[g] + sum(edge[(g, h)] for h in set(callees[g]))
        cs = sorted(set(callers[g]))
        if not cs:
            continue
        weights = [1 + rng.below(9) for _ in cs]
        left, wsum = incl[g], sum(weights)
        for k, f in enumerate(cs):
            part = left if k == len(cs) - 1 else incl[g] * weights[k] // wsum
            part = min(part, left)
            edge[(f, g)] = edge.get((f, g), 0) + part
            left -= part
    return selfc, edge


class Writer:
    def __init__(self, out):
        self.out = out
        self.seen = {}
        self.bytes = 0

    def put(self, s):
        self.out.write(s)
        self.bytes += len(s)

    def name(self, key, text):
        """valgrind's compression: the text once, the id after."""
        if key in self.seen:
            return "(%d)" % self.seen[key]
        self.seen[key] = len(self.seen) + 1
        return "(%d) %s" % (self.seen[key], text)


def split(rng, total, parts):
    """total as `parts` non-negative integers."""
    if parts <= 1:
        return [total]
    cuts = sorted(rng.below(total + 1) for _ in range(parts - 1))
    return [b - a for a, b in zip([0] + cuts, cuts + [total])]


def write_profile(path, rng, graph, nfuncs, slow, lines_per_fn):
    names, files, callees = graph
    selfc, edge = costs(rng, callees, nfuncs, slow)
    total = sum(selfc)
    with open(path, "w") as out:
        w = Writer(out)
        w.put("# callgrind format\nversion: 1\ncreator: gen-callgrind\npid: 1\n"
              "cmd: ./bench\npart: 1\n\npositions: line\nevents: Ir Dr Dw\n"
              "summary: %d %d %d\n\nob=(1) /usr/bin/bench\n" % (total, total // 3, total // 7))
        for f in range(nfuncs):
            w.put("fl=%s\nfn=%s\n" % (w.name(("fl", files[f]), files[f]),
                                      w.name(("fn", f), names[f])))
            line = 10 + rng.below(2000)
            w.put("%d %d\n" % (line, 0))
            for part in split(rng, selfc[f], 1 + rng.below(lines_per_fn)):
                step = rng.below(12) - 3
                w.put("%+d %d %d %d\n" % (step, part, part // 3, part // 7)
                      if step else "* %d %d %d\n" % (part, part // 3, part // 7))
            for g in sorted(set(callees[f])):
                c = edge[(f, g)]
                w.put("cfi=%s\ncfn=%s\ncalls=%d %d\n+1 %d %d %d\n" % (
                    w.name(("fl", files[g]), files[g]), w.name(("fn", g), names[g]),
                    1 + rng.below(1000), 10 + rng.below(2000), c, c // 3, c // 7))
        w.put("totals: %d %d %d\n" % (total, total // 3, total // 7))
        return w.bytes


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-mb", type=float, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out-base", required=True)
    ap.add_argument("--out-head", required=True)
    a = ap.parse_args()
    lines_per_fn = 24
    # About 240 bytes a function at up to 24 cost lines (measured: 4.24 MB for 17,857).
    nfuncs = max(50, int(a.size_mb * 1e6 / 240))
    graph = make_graph(Rng(a.seed), nfuncs)
    pick = Rng(a.seed * 7 + 3)
    slow = {pick.below(nfuncs): 3 for _ in range(max(1, nfuncs // 500))}
    slow.update({pick.below(nfuncs): 0 for _ in range(max(1, nfuncs // 1000))})
    for path, s, seed in ((a.out_base, {}, a.seed * 2), (a.out_head, slow, a.seed * 2)):
        n = write_profile(path, Rng(seed), graph, nfuncs, s, lines_per_fn)
        print("%s: %.1f MB, %d functions" % (path, n / 1e6, nfuncs), file=sys.stderr)


if __name__ == "__main__":
    main()
