#!/usr/bin/env python3
"""How well difffold matches refactorings across builds, against the truth.

    bench/match-score.py DIFFFOLD BASE HEAD [TRUTH]

Runs `DIFFFOLD BASE HEAD -f json` with matching on and with --no-match and
prints, from the summary's "matches" member (docs/matching.md):

* with TRUTH (bench/gen-refactor.py --truth): per class (renames, inserted
  wrappers, removed wrappers, moves) how many of the true ones were
  matched (recall), and how many matches are wrong: a match the truth does
  not hold (a rename, a wrapper or a move of names it does not list); for
  moves also the recall over the functions sampled on both sides (a move
  of a function with no samples on a side cannot be seen in the profiles);
* always: the matches by kind, and the head samples drawn as new (self
  counts of frames only in the head) with matching off and on, and of
  those with matching on, how many are under a frame marked as moved in;
* with TRUTH, also per class how many matches are right (precision), and
  the samples really new by the truth ("new_samples", "new_functions":
  the leaves the generator added as real changes) against those drawn as
  new: how many of the really new are drawn as new (recall) and how many
  of those drawn as new are really new (precision).

Only the Python 3 standard library is used. Nothing here asserts.
"""

import json
import subprocess
import sys


def run(binary, base, head, *extra):
    out = subprocess.run([binary, base, head, "-f", "json", *extra], check=True,
                         stdout=subprocess.PIPE).stdout
    return json.loads(out)


def new_samples(doc, really=()):
    """Head samples drawn as new; of those the ones under a moved_in frame
    (drawn in the new colour, but outlined as moved), and the ones in
    frames of the names in really."""
    total, moved, hit, stack = 0, 0, 0, [(doc["root"], False)]
    while stack:
        n, under = stack.pop()
        under = under or n.get("match", {}).get("kind") == "moved_in"
        if n["base"] == 0:
            total += n["head_self"]
            moved += n["head_self"] if under else 0
            hit += n["head_self"] if n["name"] in really else 0
        stack.extend((c, under) for c in n.get("children", []))
    return total, moved, hit


def pct(a, b):
    return 100.0 * a / b if b else 100.0


def parent_of(path):
    parts = path.split(";")
    return parts[-2] if len(parts) > 1 else ""


def sides_seen(doc):
    """Per frame name, whether the base and the head have samples in a
    frame of that name (a total above 0)."""
    seen, stack = {}, [doc["root"]]
    while stack:
        n = stack.pop()
        b, h = seen.get(n["name"], (False, False))
        seen[n["name"]] = (b or n["base"] > 0, h or n["head"] > 0)
        stack.extend(n.get("children", []))
    return seen


def score(matches, truth, sampled):
    renames = {tuple(x) for x in truth["renames"]}
    wadded = {tuple(x) for x in truth["wrappers_added"]}
    wremoved = set(truth["wrappers_removed"])
    moves = {x[0]: (x[1], x[2]) for x in truth["moves"]}
    seen = {"renames": set(), "wrappers_added": set(), "wrappers_removed": set(), "moves": set()}
    wrong, total, made = [], 0, {}
    for m in matches:
        k = m["kind"]
        if k in ("name", "renamed"):
            key, ok = (m["from"], m["name"]), (m["from"], m["name"]) in renames
            cls = "renames"
        elif k == "wrapper_added":
            key, ok = (m["name"], m["wraps"]), (m["name"], m["wraps"]) in wadded
            cls = "wrappers_added"
        elif k == "wrapper_removed":
            key, ok = m["wrapper"], m["wrapper"] in wremoved
            cls = "wrappers_removed"
        elif k == "moved_in":
            key, ok = m["name"], m["name"] in moves
            cls = "moves"
        else:
            continue  # moved_out: the other end of a moved_in
        total += 1
        made[cls] = made.get(cls, 0) + 1
        if ok:
            seen[cls].add(key)
        else:
            wrong.append((k, key, cls))
    want = {"renames": renames, "wrappers_added": wadded, "wrappers_removed": wremoved,
            "moves": set(moves)}
    for cls in want:
        n, right = len(want[cls]), made.get(cls, 0) - sum(1 for k in wrong if k[2] == cls)
        print("%-17s %4d of %4d matched (recall %.1f%%); %4d of %4d frames matched right"
              " (precision %.1f%%)" % (cls, len(seen[cls]), n, pct(len(seen[cls]), n), right,
                                       made.get(cls, 0), pct(right, made.get(cls, 0))))
    # A move of a function with no samples on a side leaves nothing to see
    # there: no profile can tell that it moved.
    visible = {f for f in moves if sampled.get(f) == (True, True)}
    hit = visible & seen["moves"]
    print("  moves of functions sampled on both sides: %d of %d matched (recall %.1f%%)" % (
        len(hit), len(visible), pct(len(hit), len(visible))))
    print("wrong matches     %4d of %4d frames matched (%.2f%%)" % (
        len(wrong), total, 100.0 * len(wrong) / total if total else 0.0))
    inserted = {w for w, _ in wadded}
    explained = 0
    for m in matches:
        if m["kind"] != "moved_in" or m["name"] in moves:
            continue
        a, b = m["from_path"].split(";"), m["path"].split(";")
        if any(a[:i] + a[i + 1:] == b and a[i] in wremoved for i in range(len(a))) or \
                any(b[:i] + b[i + 1:] == a and b[i] in inserted for i in range(len(b))):
            explained += 1
    print("  of which moves explained by a true wrapper (one frame apart): %d" % explained)
    for k, key, _ in wrong[:10]:
        print("  wrong: %s %r" % (k, key))


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    binary, base, head = sys.argv[1:4]
    on = run(binary, base, head)
    off = run(binary, base, head, "--no-match")
    m = on["summary"].get("matches", {"list": []})
    kinds = {}
    for e in m["list"]:
        kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
    print("matches by kind   %s; names matched by the rules: %d" % (
        ", ".join("%s %d" % kv for kv in sorted(kinds.items())) or "none",
        m.get("names_matched", 0)))
    truth = None
    if len(sys.argv) == 5:
        with open(sys.argv[4]) as fh:
            truth = json.load(fh)
    really = set(truth.get("new_functions", [])) if truth else set()
    new_on, moved_on, hit = new_samples(on, really)
    print("drawn as new      %d head samples with --no-match, %d with matching"
          " (of which %d under a frame outlined as moved)" % (new_samples(off)[0], new_on,
                                                              moved_on))
    if truth is None:
        return
    if "new_samples" in truth:
        real = truth["new_samples"]
        print("really new        %d head samples by the truth; drawn as new with matching:"
              " %d of them (recall %.1f%%), %d of %d drawn as new are really new"
              " (precision %.1f%%)" % (real, hit, pct(hit, real), hit, new_on, pct(hit, new_on)))
    score(m["list"], truth, sides_seen(off))


if __name__ == "__main__":
    main()
