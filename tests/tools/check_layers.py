#!/usr/bin/env python3
"""The wings of src/ depend on each other one way, and no files in a circle.

    check_layers.py SRC_DIR [EXCEPTIONS_FILE]

A node is a module: a .c file and the .h of the same name beside it count as
one (src/base/xalloc.c and src/base/xalloc.h are "base/xalloc"), since a .c
never includes another .c and a circle through a header pair is the real
thing. A module split into files that share a private header is one node:
with report/report_private.h, report/report_md.c belongs to "report/report". An edge A -> B means that A needs B, for one of two reasons:

- include: a file of A includes "B.h" (quoted includes only; a name that is
  no file under SRC_DIR, such as a generated header, is left out);
- use: a file of A names a function that B alone defines (a definition not
  marked static, found in one .c file only); calling it and taking its
  address both count.

A module's wing is its folder: base < model < read, draw, report < top
(main.c, options.c/.h, at the top of SRC_DIR). read, draw and report are
siblings: none of them may need another. It prints every edge that runs from
a lower wing to a higher one or between siblings, and every strongly
connected group of modules (a circle) with one shortest circle through it,
then exits 1 if it printed anything that EXCEPTIONS_FILE does not excuse.

EXCEPTIONS_FILE lists known edges, one a line, `FROM -> TO: reason`; an
excused edge is dropped before the check, so it neither counts as going up
nor closes a circle. An exception that matches no edge is itself an error,
so the list only shrinks.

Limits, as a scan and not a compiler: comments, strings and character
literals are blanked and preprocessor lines are skipped (includes are read
from the raw text, commented out or not),
so a call hidden in a macro body or under #if counts only where the macro is
used (as its own name) or not at all; a definition is an identifier
followed by a parenthesised list and then `{` at brace depth zero; names
defined in several .c files (the static helpers of the same name, say) are
nobody's; calls through function pointers are not seen, which is the point
of a hook.
"""
import os
import re
import sys
from collections import deque

WINGS = {"base": 0, "model": 1, "read": 2, "draw": 2, "report": 2, "": 3}


def module_of(rel, src=None):
    """"base/xalloc" for base/xalloc.c or base/xalloc.h; "report/report" for
    report/report_md.c when report/report_private.h exists."""
    stem = os.path.splitext(rel)[0]
    if src:
        folder, name = os.path.split(stem)
        parts = name.split("_")
        for i in range(len(parts) - 1, 0, -1):
            group = "_".join(parts[:i])
            if os.path.exists(os.path.join(src, folder, group + "_private.h")):
                return os.path.join(folder, group)
    return stem


def wing_of(module):
    return module.split("/")[0] if "/" in module else ""


def blank(text):
    """The text with comments, strings and char literals replaced by spaces
    (newlines kept), and preprocessor lines emptied."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
        else:
            out.append(c)
            i += 1
    lines = []
    for line in "".join(out).split("\n"):
        s = line.lstrip()
        lines.append("" if s.startswith("#") else line)
    return "\n".join(lines)


IDENT = re.compile(r"[A-Za-z_]\w*")
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "do", "else", "case",
            "_Alignof", "_Static_assert", "defined"}


def definitions(text):
    """Names of functions defined (not static) in blanked C text."""
    names, depth, i, n = [], 0, 0, len(text)
    stmt_start = 0
    while i < n:
        c = text[i]
        if c == "{":
            if depth == 0:
                head = text[stmt_start:i]
                m = re.search(r"([A-Za-z_]\w*)\s*\((?:[^()]|\([^()]*\))*\)\s*$", head)
                if m and m.group(1) not in KEYWORDS and not re.search(
                        r"\bstatic\b", head) and "=" not in head:
                    names.append(m.group(1))
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                stmt_start = i + 1
        elif c == ";" and depth == 0:
            stmt_start = i + 1
        elif c == "\n" and depth == 0 and text[stmt_start:i].lstrip().startswith("#"):
            stmt_start = i + 1
        i += 1
    return names


def scan(src):
    """{module: {"includes": set of rel paths, "idents": set, "defs": set}}."""
    mods = {}
    for root, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, src)
            with open(path, encoding="utf-8", errors="replace") as f:
                raw = f.read()
            text = blank(raw)
            m = mods.setdefault(module_of(rel, src), {"includes": set(), "idents": set(),
                                                 "defs": set(), "files": []})
            m["files"].append(rel)
            for inc in re.findall(r'^\s*#include\s+"([^"]+)"', raw, re.M):
                m["includes"].add(inc)
            m["idents"].update(IDENT.findall(text))
            if name.endswith(".c"):
                m["defs"].update(definitions(text))
    return mods


def edges(src, mods):
    """{(a, b): reason} over modules, a needs b."""
    by_base = {}
    for mod, m in mods.items():
        for rel in m["files"]:
            if rel.endswith(".h"):
                by_base.setdefault(os.path.basename(rel), []).append(mod)
    owner = {}
    for mod, m in mods.items():
        for d in m["defs"]:
            owner.setdefault(d, set()).add(mod)
    out = {}
    for mod, m in mods.items():
        for inc in sorted(m["includes"]):
            # The build puts every wing on the include path: a bare name
            # means the one header of that name, wherever it lives.
            direct = os.path.normpath(os.path.join(os.path.dirname(m["files"][0]), inc))
            if os.path.exists(os.path.join(src, direct)):
                targets = [module_of(direct, src)]
            else:
                targets = by_base.get(os.path.basename(inc), [])
            for t in targets:
                if t != mod:
                    out.setdefault((mod, t), "includes " + inc)
        for ident in sorted(m["idents"]):
            owners = owner.get(ident, set())
            if len(owners) == 1:
                t = next(iter(owners))
                if t != mod and (mod, t) not in out:
                    out[(mod, t)] = "uses " + ident + "()"
    return out


def read_exceptions(path):
    """{(a, b): reason} from the exceptions file."""
    excused = {}
    if not path:
        return excused
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            m = re.match(r"^(\S+)\s*->\s*(\S+)\s*:\s*(\S.*)$", line)
            if not m:
                sys.exit("%s:%d: expected `FROM -> TO: reason`" % (path, number))
            excused[(m.group(1), m.group(2))] = m.group(3)
    return excused


def upward(a, b):
    wa, wb = wing_of(a), wing_of(b)
    if wa == wb:
        return False
    return WINGS[wa] < WINGS[wb] or WINGS[wa] == WINGS[wb]


def components(nodes, graph):
    """Strongly connected groups of more than one node (Tarjan, iterative)."""
    index, low, on, stack, groups = {}, {}, set(), [], []
    counter = [0]
    for start in sorted(nodes):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                group = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    group.append(w)
                    if w == v:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return groups


def shortest_circle(group, graph):
    """One shortest circle through the group's first node, as a node list."""
    start = group[0]
    members = set(group)
    prev = {start: None}
    queue = deque([start])
    while queue:
        v = queue.popleft()
        for w in sorted(graph.get(v, ())):
            if w not in members:
                continue
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return group


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.split("\n\n")[1])
    src = sys.argv[1]
    excused = read_exceptions(sys.argv[2] if len(sys.argv) == 3 else None)
    mods = scan(src)
    all_edges = edges(src, mods)
    failures = 0
    for key in sorted(excused):
        if key not in all_edges:
            print("stale exception (no such edge): %s -> %s" % key)
            failures += 1
    graph = {}
    for (a, b), why in sorted(all_edges.items()):
        if (a, b) in excused:
            print("excused: %s -> %s (%s): %s" % (a, b, why, excused[(a, b)]))
            continue
        graph.setdefault(a, set()).add(b)
        if upward(a, b):
            print("upward: %s -> %s (%s)" % (a, b, why))
            failures += 1
    for group in components(mods.keys(), graph):
        circle = shortest_circle(group, graph)
        steps = ", ".join("%s -> %s (%s)" % (x, y, all_edges[(x, y)])
                          for x, y in zip(circle, circle[1:]))
        print("circle of %d: %s; e.g. %s" % (len(group), " ".join(group), steps))
        failures += 1
    print("%d modules, %d edges, %d excused, %d problems" % (
        len(mods), len(all_edges), len(excused), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
