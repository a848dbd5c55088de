#!/usr/bin/env python3
"""A base/head folded pair that differ by known refactorings, and the truth.

    bench/gen-refactor.py --stacks N --seed S --out-base F --out-head G --truth T

The base is a random call tree: a few threads, call paths 4..30 frames deep
over a vocabulary of C++, Rust, Go and Java names in which a function shows
up under several callers. The head is the base after, each on about 1% of
the names or edges (--rate):

* renames: a function takes another name everywhere (half of the Rust ones
  only change their legacy hash `::h<16 hex>`, as a rebuild does);
* inserted wrappers: every call a -> b becomes a -> w -> b;
* removed wrappers: a function is inlined away (its callees called by its
  caller), where it is not a leaf;
* moves: the whole subtree of a function under one caller goes under
  another caller that did not call it;

and, as distractors that must not match, real changes: new leaf functions,
removed leaf functions, stacks slower and faster, and Poisson noise on
every count. --truth writes JSON: {"renames": [[old, new]...],
"wrappers_added": [[wrapper, child]...], "wrappers_removed": [name...],
"moves": [[name, old_caller, new_caller]...], "new_functions": [name...],
"new_samples": N}: the last two are the really new code, the leaf
functions the head added as real changes and their head samples (a
renamed, wrapped or moved frame is no new code). bench/match-score.py
reads it. The same arguments give the same bytes. Only the standard library.
"""

import argparse
import json
import math
import random


def names(rng, n):
    words = ("request buffer stream channel queue task worker pool lock event timer socket "
             "session packet frame block page cache entry index table batch chunk parser token "
             "node tree graph visitor builder registry context scope state config value key "
             "map list vector slice message header codec encoder decoder arena heap future "
             "stage pipeline filter router service client server proxy cursor span query").split()
    verbs = ("get set put insert remove find lookup update apply process handle run execute "
             "dispatch poll wait send recv read write flush open close init parse encode decode "
             "validate check compute visit walk scan merge split sort grow alloc free").split()
    out, seen = [], set()
    while len(out) < n:
        w, v, k = rng.choice(words), rng.choice(verbs), rng.random()
        if k < 0.3:
            s = "%s::%s%s::%s_%s(int)" % (rng.choice(["app", "db", "net", "core"]),
                                         w.title(), rng.choice(words).title(), v, w)
        elif k < 0.6:
            s = "%s::%s::%s_%s::h%016x" % (rng.choice(["tokio", "hyper", "my_service", "serde"]),
                                          w, v, rng.choice(words), rng.getrandbits(64))
        elif k < 0.8:
            s = "github.com/acme/%s.(*%s).%s%s" % (w, rng.choice(words).title(), v.title(),
                                                  rng.choice(words).title())
        else:
            s = "com/acme/%s/%s%s.%s%s" % (w, rng.choice(words).title(), w.title(), v,
                                          rng.choice(words).title())
        if s not in seen:
            seen.add(s)
            out.append(s)
    return out


def base_stacks(rng, vocab, count):
    """Stacks as tuples of names, with counts: a tree grown path by path."""
    threads = ["worker-%d" % i for i in range(4)]
    callees = {}
    stacks = {}
    for _ in range(count):
        path = [rng.choice(threads)]
        depth = rng.randint(4, 30)
        while len(path) < depth:
            options = callees.setdefault(path[-1], [])
            if not options or (len(options) < 6 and rng.random() < 0.15):
                options.append(vocab[min(len(vocab) - 1, int(rng.paretovariate(0.6)) - 1
                                         if rng.random() < 0.2 else rng.randrange(len(vocab)))])
            nxt = options[min(len(options) - 1, int(rng.expovariate(0.8)))]
            if nxt in path:
                break
            path.append(nxt)
        key = tuple(path)
        stacks[key] = stacks.get(key, 0) + max(1, int(rng.paretovariate(1.1) * 3))
    return stacks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stacks", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rate", type=float, default=0.01)
    ap.add_argument("--out-base", required=True)
    ap.add_argument("--out-head", required=True)
    ap.add_argument("--truth", required=True)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    vocab = names(rng, max(200, a.stacks // 4))
    base = base_stacks(rng, vocab, a.stacks)
    used, edges, inner, parents, anchor = {}, set(), set(), {}, {}
    for p in base:
        for i, f in enumerate(p):
            anchor.setdefault(f, p[:i + 1])
        for i, f in enumerate(p[1:], 1):
            used[f] = True
            edges.add((p[i - 1], f))
            parents.setdefault(f, set()).add(p[i - 1])
            if i < len(p) - 1:
                inner.add(f)
    pool = sorted(used)
    rng.shuffle(pool)
    k = max(3, int(len(pool) * a.rate))
    fresh = iter(names(random.Random(a.seed ^ 0x5EED), len(vocab) + 8 * k)[len(vocab):])
    fresh = (f for f in fresh if f not in used)
    taken = set()

    def pick(cands, n):
        out = []
        for f in cands:
            if len(out) >= n:
                break
            if f not in taken:
                taken.add(f)
                out.append(f)
        return out

    renames = {}
    for f in pick(pool, k):
        if "::h" in f and rng.random() < 0.5:
            renames[f] = f[:-16] + "%016x" % rng.getrandbits(64)
        else:
            renames[f] = next(fresh)
    removed = set(pick([f for f in pool if f in inner], k))
    wrappers = {}
    for e in sorted(edges):
        if len(wrappers) >= k:
            break
        if rng.random() < 4.0 * k / len(edges) and e[0] not in taken and e[1] not in taken \
                and not e[0].startswith("worker"):
            wrappers[e] = next(fresh)
            taken.update(e)
    # a move: the subtree of f under one caller goes under another caller
    moves = {}
    for f in pick([f for f in pool if f in inner and len(parents[f]) == 1], k):
        old = next(iter(parents[f]))
        new = rng.choice(pool)
        if new in (f, old) or new in taken or (new, f) in edges or f in anchor[new]:
            continue
        moves[f] = (old, new)
        taken.add(new)
    gone = set(pick([f for f in pool if f not in inner], k))
    head, really_new = {}, {}
    for p, c in base.items():
        out = [p[0]]
        for i, f in enumerate(p[1:], 1):
            if f in moves and p[i - 1] == moves[f][0]:
                # the new caller's own path: the first stack through it
                out = [renames.get(x, x) for x in anchor[moves[f][1]] if x not in removed]
            if f in removed and i < len(p) - 1:
                continue
            w = wrappers.get((p[i - 1], f))
            if w:
                out.append(w)
            out.append(renames.get(f, f))
        if p[-1] in gone:
            continue
        lam = c * math.exp(rng.gauss(0, 0.1)) * (1.5 if rng.random() < 0.02 else 1.0)
        added = None
        if rng.random() < 0.01:
            added = next(fresh)
            out.append(added)
        n = poisson(rng, lam)
        head[tuple(out)] = head.get(tuple(out), 0) + n
        if added and n > 0:
            really_new[added] = really_new.get(added, 0) + n
    for path, fname in ((a.out_base, base), (a.out_head, head)):
        with open(path, "w") as fh:
            for p in sorted(fname):
                if fname[p] > 0:
                    fh.write("%s %d\n" % (";".join(p), fname[p]))
    truth = {"renames": sorted([o, n] for o, n in renames.items()),
             "wrappers_added": sorted([w, e[1]] for e, w in wrappers.items()),
             "wrappers_removed": sorted(removed),
             "moves": sorted([f, o, n] for f, (o, n) in moves.items()),
             "new_functions": sorted(really_new),
             "new_samples": sum(really_new.values())}
    with open(a.truth, "w") as fh:
        json.dump(truth, fh, indent=1, sort_keys=True)


def poisson(rng, lam):
    if lam > 30:
        return max(0, int(round(rng.gauss(lam, math.sqrt(lam)))))
    lim, n, p = math.exp(-lam), 0, 1.0
    while True:
        p *= rng.random()
        if p <= lim:
            return n
        n += 1


if __name__ == "__main__":
    main()
