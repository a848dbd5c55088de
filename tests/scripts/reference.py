#!/usr/bin/env python3
"""Property test: difffold -f folded against an independent model in Python.

Usage: reference.py DIFFFOLD [ROUNDS] [SEED]

Each round writes random base/head profiles in a temporary folder. The frame
names are tricky: spaces, `0x` literals, annotations, `#`, empty frames,
control characters, UTF-8. The counts are integers, decimals past nine
places, and bad ones. Lines end in CRLF or LF and use mixed separators. The
inputs are given as two files, as several --base/--head files, or as one
3-column file. The model here parses the documented rules on its own and
predicts the set of output lines (or the error exit); any difference fails.

Every good round then checks two more properties (issue 21):
- round trip: the -f folded output, read back as one positional file, gives
  byte-identical -f folded and -f json output (names ending in a number,
  with dots, tabs, a byte-order mark; zero-count stacks; a root frame
  starting with `#` gets a space). With --reverse a frame name that folded
  text cannot hold (an empty leaf, which reads back as no frame) is left
  out of this check, and counted. A leaf ending in a space or tab is written with a ';' after
  it, which the reader drops, so it reads back.
- --json-layout flat carries the same nodes and numbers as the nested form.
Before the rounds, a 10,000-deep stack in the flat form must load with
Python's json module.
"""
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from decimal import Decimal, ROUND_DOWN

NAMES = ["a", "b", "b.x", "c", "0x1f", "f 0xabc", "g+0xG", "a_[k]", "", " sp", "\u00e9",
         "x\x01y", "#h", "0x", "ab", "<&>", "q\"'", "n 7", "7", "1.5", "x\t2", "v 1.",
         "\t", "d .5", "\ufeffb", "w 0 3"]


def rnd_stack(rng):
    return ";".join(rng.choice(NAMES) for _ in range(rng.randint(1, 5)))


def rnd_count(rng):
    r = rng.random()
    if r < 0.6:
        return str(rng.randint(0, 50))
    if r < 0.85:
        digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(0, 12)))
        return "%d.%s" % (rng.randint(0, 5), digits)
    return rng.choice(["-1", "1e3", "x", "", "nan", "12.", "+3", "0x10", ".5"])


def parse_count(s):
    if not re.fullmatch(r"[0-9]+(\.[0-9]*)?", s):
        return None
    if "." in s:
        whole, frac = s.split(".")
        return Decimal(whole) + Decimal((frac + "0" * 9)[:9]) / Decimal(10 ** 9)
    return Decimal(s)


def fmt(d):
    s = format(d.quantize(Decimal("0.000000001"), rounding=ROUND_DOWN), "f")
    return s.rstrip("0").rstrip(".") if "." in s else s


def split_line(ln):
    """(stack, [counts...]) of one line by the documented rules, or None."""
    ln = ln[:-1] if ln.endswith("\r") else ln
    ln = ln.rstrip(" \t")
    if ln.strip(" \t") == "" or ln.startswith("#"):
        return "skip"
    m = re.match(r"^(.*?)[ \t]+([^ \t]*)$", ln)
    return (m.group(1), m.group(2)) if m else None


def make_lines(rng, three):
    lines = []
    for _ in range(rng.randint(1, 10)):
        counts = [rnd_count(rng) for _ in range(2 if three else 1)]
        sep = rng.choice([" ", "\t", "  ", " \t "])
        lines.append(rnd_stack(rng) + sep + sep.join(counts) + rng.choice(["\n", "\r\n"]))
    if rng.random() < 0.2:
        lines.insert(rng.randint(0, len(lines)), rng.choice(["# comment 1 2\n", "\n", "\r\n"]))
    return lines


def text_lines(lines):
    """The lines of a file as the reader sees them: a leading BOM dropped."""
    text = "".join(lines)
    return (text[1:] if text.startswith("\ufeff") else text).split("\n")


def model_side(lines, side, sums, opts):
    """Valid lines, and whether the file is read: no more bad lines than valid."""
    valid = bad = 0
    staged = {}
    for ln in text_lines(lines):
        if ln == "":
            continue
        r = split_line(ln)
        if r == "skip":
            continue
        stack, c = (r[0].rstrip(";"), parse_count(r[1])) if r else ("", None)
        if c is None or stack == "":
            bad += 1
            continue
        valid += 1
        add(staged, stack, side, c, opts)
    for k, v in staged.items():
        sums.setdefault(k, [Decimal(0), Decimal(0)])[side] += v[side]
    return valid, valid > 0 and bad <= valid


def add(sums, stack, side, c, opts):
    frames = stack.split(";")
    if "--strip-hex" in opts:
        frames = [re.sub(r"0x[0-9a-fA-F]+", "0x...", f) for f in frames]
    if "--reverse" in opts:
        frames.reverse()
    if frames[0].startswith("#"):
        # A root frame starting with '#' gets a space (a comment line else).
        frames[0] = " " + frames[0]
    sums.setdefault(";".join(frames), [Decimal(0), Decimal(0)])[side] += c


def model_three(lines, sums, opts):
    """A single 3-column file; returns (valid lines, is three-column)."""
    valid, bad, decided, three = 0, 0, False, False
    for ln in text_lines(lines):
        r = split_line(ln) if ln else "skip"
        if r == "skip":
            continue
        head = parse_count(r[1]) if r else None
        if head is None:
            bad += 1
            continue
        m = re.match(r"^(.*?)[ \t]+([^ \t]*)$", r[0])
        base = parse_count(m.group(2)) if m else None
        if not decided:
            decided, three = True, base is not None and m.group(1) != ""
        if three:
            stack = m.group(1).rstrip(";") if base is not None else ""
            if stack == "":
                bad += 1
                continue
            valid += 1
            add(sums, stack, 0, base, opts)
            add(sums, stack, 1, head, opts)
        elif r[0].rstrip(";") != "":
            valid += 1
            add(sums, r[0].rstrip(";"), 1, head, opts)
        else:
            bad += 1
    return valid > 0 and bad <= valid, three


def as_written(stack):
    """A stack as -f folded writes it: a leaf ending in white space gets a ';'."""
    return stack + ";" if stack[-1:] in (" ", "\t") else stack


def write(path, lines):
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write("".join(lines))


def one_round(exe, rng, tmp):
    opts = [o for o in ("--reverse", "--strip-hex") if rng.random() < 0.3]
    shape = rng.choice(["pair", "split", "three"])
    sums, args = {}, []
    if shape == "three":
        # Two-column lines too: one profile given alone, read in auto mode.
        lines = make_lines(rng, rng.random() < 0.5)
        write(os.path.join(tmp, "d.folded"), lines)
        ok, three = model_three(lines, sums, opts)
        args = ["d.folded"]
    else:
        ok = True
        for side, flag in ((0, "--base"), (1, "--head")):
            parts = 1 if shape == "pair" else rng.randint(1, 3)
            valid = 0
            for k in range(parts):
                lines = make_lines(rng, False)
                name = "s%d_%d.folded" % (side, k)
                write(os.path.join(tmp, name), lines)
                # Each file must hold a valid line of its own, and more
                # valid lines than malformed ones.
                _, read = model_side(lines, side, sums, opts)
                ok = ok and read
                args += [flag, name] if shape == "split" else [name]
        three = True
    # The model is of the merge rules: matching across builds is tested on its own.
    p = subprocess.run([exe, "-f", "folded", "--no-match"] + opts + args, cwd=tmp,
                       capture_output=True)
    if not ok:
        return p.returncode == 1, "expected exit 1, got %d" % p.returncode
    # A stack gets a line when it has samples, or is a leaf (zero counts too).
    def written(k, v):
        return v[0] or v[1] or not any(o.startswith(k + ";") for o in sums)
    if shape == "three" and not three:
        want = sorted("%s %s" % (as_written(k), fmt(v[1])) for k, v in sums.items()
                      if written(k, v))
        mark = ends_in_count(min((k for k, v in sums.items() if written(k, v)), key=preorder))
    else:
        want = sorted("%s %s %s" % (as_written(k), fmt(v[0]), fmt(v[1]))
                      for k, v in sums.items() if written(k, v))
        mark = False
    mark = mark or min(sums, key=preorder).startswith("\ufeff")
    STATS["column marks"] += mark
    got = sorted(p.stdout.decode("utf-8").splitlines())
    if mark:
        want = sorted(want + ["# difffold: %d columns" % (2 if shape == "three" and not three else 3)])
    if p.returncode != 0 or got != want:
        return False, "args %s exit %d\nstderr %r\nwant %r\ngot  %r" % (
            opts + args, p.returncode, p.stderr, want, got)
    if "--reverse" in opts and any(k[-1] == ";" for k in sums):
        STATS["round trip left out"] += 1
    else:
        ok, why = round_trip(exe, tmp, opts + args, p.stdout)
        if not ok:
            return False, why
    return check_layouts(exe, tmp, opts + args)


STATS = {"round trip left out": 0, "column marks": 0}


def preorder(stack):
    """Sort key of the output's order: frames compared as bytes, parents first."""
    return [f.encode() for f in stack.split(";")]


def ends_in_count(stack):
    """The reader's test: the stack's last blank-separated field is a count."""
    m = re.match(r"^(.*?)[ \t]+([^ \t]*)$", stack.rstrip(" \t"))
    return bool(m) and m.group(1) != "" and parse_count(m.group(2)) is not None


def run(exe, tmp, args):
    return subprocess.run([exe, "--no-match"] + args, cwd=tmp, capture_output=True)


def round_trip(exe, tmp, args, folded):
    """difffold reads its own -f folded output back as the same profile."""
    with open(os.path.join(tmp, "back.folded"), "wb") as f:
        f.write(folded)
    again = run(exe, tmp, ["-f", "folded", "back.folded"])
    if again.returncode != 0 or again.stdout != folded:
        return False, "round trip of %s: exit %d\nstderr %r\nfirst  %r\nsecond %r" % (
            args, again.returncode, again.stderr, folded, again.stdout)
    first = run(exe, tmp, ["-f", "json"] + args)
    second = run(exe, tmp, ["-f", "json", "back.folded"])
    if first.stdout != second.stdout:
        return False, "round trip of %s: -f json differs\n%r\n%r" % (
            args, first.stdout, second.stdout)
    return True, ""


def nested_preorder(root):
    """The nested form's nodes in pre-order with depth and parent position."""
    out, todo = [], [(root, 0, None)]
    while todo:
        node, depth, parent = todo.pop()
        pos = len(out)
        out.append((node, depth, parent))
        for child in reversed(node["children"]):
            todo.append((child, depth + 1, pos))
    return out


def check_layouts(exe, tmp, args):
    """--json-layout flat: the nested form's nodes, numbers and summary."""
    nested = json.loads(run(exe, tmp, ["-f", "json"] + args).stdout)
    flat_run = run(exe, tmp, ["-f", "json", "--json-layout", "flat"] + args)
    flat = json.loads(flat_run.stdout)
    want = nested_preorder(nested.pop("root"))
    nodes = flat.pop("nodes")
    if flat != nested or len(nodes) != len(want):
        return False, "flat and nested differ outside the nodes for %s" % args
    for i, (node, (n, depth, parent)) in enumerate(zip(nodes, want)):
        same = {k: v for k, v in n.items() if k != "children"}
        same.update(id=i, parent=parent, depth=depth)
        if node != same:
            return False, "flat node %d of %s: %r, nested %r" % (i, args, node, same)
    return True, ""


def deep_flat(exe):
    """A 10,000-deep stack in the flat form loads with Python's json."""
    depth = 10000
    with tempfile.TemporaryDirectory(prefix="difffold-ref-") as tmp:
        stack = ";".join("f%d 1" % i for i in range(depth))
        write(os.path.join(tmp, "base.folded"), [stack + " 2\n"])
        write(os.path.join(tmp, "head.folded"), [stack + " 3\n", "f0 1 4\n"])
        p = run(exe, tmp, ["-f", "json", "--json-layout", "flat", "base.folded", "head.folded"])
        doc = json.loads(p.stdout)
    nodes = doc["nodes"]
    ok = p.returncode == 0 and len(nodes) == depth + 1 and doc["head_total"] == 7
    for i, n in enumerate(nodes):
        ok = ok and n["id"] == i and n["depth"] == i and n["parent"] == (i - 1 if i else None)
        ok = ok and n["base"] == 2 and n["head"] == (7 if i < 2 else 3)
        ok = ok and n["name"] == ("all" if i == 0 else "f%d 1" % (i - 1))
    print("%s - a %d-deep stack in --json-layout flat loads with Python's json" % (
        "ok" if ok else "not ok", depth))
    return ok


def main(argv):
    exe = os.path.abspath(argv[1])
    deep_ok = deep_flat(exe)
    rounds = int(argv[2]) if len(argv) > 2 else 400
    rng = random.Random(int(argv[3]) if len(argv) > 3 else 2)
    failed = 0
    for i in range(rounds):
        with tempfile.TemporaryDirectory(prefix="difffold-ref-") as tmp:
            ok, why = one_round(exe, rng, tmp)
            if not ok:
                failed += 1
                if failed <= 3:
                    print("round %d: %s" % (i, why))
                    for n in sorted(os.listdir(tmp)):
                        print("--- %s: %r" % (n, open(os.path.join(tmp, n), "rb").read()))
    print("%d rounds, %d failed; %d outputs with a column mark; round trip left out "
          "(--reverse, a name folded text cannot hold) in %d" % (
              rounds, failed, STATS["column marks"], STATS["round trip left out"]))
    return 1 if failed or not deep_ok else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
