#!/usr/bin/env python3
"""Real massif files made during the test run, read by difffold.

usage: run.py DIFFFOLD

Compiles a small C program, runs it under `valgrind --tool=massif` (with
the default options, with --depth=3 so that stacks end above main, with
--threshold=20 so that "below massif's threshold" lines appear, and with
--pages-as-heap=yes, whose tree holds every mapped page), and
checks difffold against ms_print on the same file:
  - the peak snapshot is read by default: the total of `-f folded` equals
    ms_print's useful-heap(B) of the snapshot it marks (peak);
  - `--snapshot N` for every detailed snapshot: the same, row N;
  - each allocation site ms_print lists at the top of the peak's tree holds
    the bytes ms_print gives it (the stacks whose leaf is that function);
  - the count name is bytes, the header names the snapshot;
  - hand-written files: no snapshot with a heap tree, a snapshot without
    one, a tree cut short: exit 1 with the reason, nothing drawn.
valgrind must be installed (.ci/setup installs it): without it the test
FAILS, it never skips.
"""
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

PROGRAM = r"""
#include <stdlib.h>
#include <string.h>
static void *keep[256];
static int kept;
__attribute__((noinline)) static void *grow(size_t n) { void *p = malloc(n); memset(p, 1, n); return p; }
__attribute__((noinline)) static void store(size_t n) { keep[kept++] = grow(n); }
__attribute__((noinline)) static void deep(int d, size_t n) { if (d) deep(d - 1, n); else store(n); }
__attribute__((noinline)) static void left(int i) { store(4000 + (size_t)i * 100); }
__attribute__((noinline)) static void right(int i) { deep(4, 2000); }
__attribute__((noinline)) static void tiny(void) { keep[kept++] = malloc(24); }
int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 30;
	for (int i = 0; i < rounds; i++) {
		left(i);
		right(i);
		tiny();
	}
	while (kept > 0) {
		free(keep[--kept]);
	}
	return 0;
}
"""

passed, failures = [], []


def check(ok, what):
    (passed if ok else failures).append(what)
    print(("ok - " if ok else "FAIL - ") + what)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, timeout=300, **kw)


def folded(difffold, *args):
    r = run([difffold, "-f", "folded", *args])
    stacks = collections.Counter()
    for line in r.stdout.decode().splitlines():
        path, count = line.rsplit(" ", 1)
        stacks[path] += int(count)
    return r, stacks


def ms_print(path):
    """The detailed snapshots, the peak, useful-heap per snapshot and the
    peak tree's top-level sites, as ms_print prints them."""
    text = run(["ms_print", path], check=True).stdout.decode()
    listed = re.search(r"Detailed snapshots: \[([^\]]*)\]", text).group(1)
    detailed = [int(x.split()[0]) for x in listed.split(",")]
    peak = int(re.search(r"(\d+) \(peak\)", listed).group(1))
    useful = {}
    for m in re.finditer(r"^ *(\d+) +[\d,]+ +[\d,]+ +([\d,]+) +[\d,]+ +[\d,]+$", text, re.M):
        useful[int(m.group(1))] = int(m.group(2).replace(",", ""))
    # The peak's tree: after its table row, up to the next rule.
    at = re.search(r"^ *%d +[\d,]+ .*$" % peak, text, re.M).end()
    tree = text[at:text.index("-" * 20, at)]
    sites = collections.Counter()
    for m in re.finditer(r"^->[\d.]+% \(([\d,]+)B\) 0x[0-9A-F]+: (\S+) ", tree, re.M):
        sites[m.group(2)] += int(m.group(1).replace(",", ""))
    return detailed, peak, useful, sites


def real_files(difffold, tmp, prog):
    for label, opts in [("default", []), ("depth3", ["--depth=3"]),
                        ("threshold", ["--threshold=20"]),
                        ("pages", ["--pages-as-heap=yes"])]:
        out = os.path.join(tmp, "massif.%s" % label)
        run(["valgrind", "--tool=massif", "--massif-out-file=" + out, *opts, prog], check=True)
        detailed, peak, useful, sites = ms_print(out)
        r, stacks = folded(difffold, out)
        check(r.returncode == 0 and sum(stacks.values()) == useful[peak],
              "%s: the peak's total is ms_print's useful heap (%d, %d)"
              % (label, sum(stacks.values()), useful[peak]))
        leaves = collections.Counter()
        for path, n in stacks.items():
            leaves[path.rsplit(";", 1)[-1]] += n
        check((sites or label == "pages") and all(leaves[f] == n for f, n in sites.items()),
              "%s: each allocation site's bytes are ms_print's %s" % (label, dict(sites)))
        bad = [n for n in detailed
               if sum(folded(difffold, "--snapshot", str(n), out)[1].values()) != useful[n]]
        check(not bad, "%s: --snapshot N for every detailed snapshot %s (wrong: %s)"
              % (label, detailed, bad))
        if label == "depth3":
            check(all(p.count(";") <= 2 for p in stacks), "depth3: no stack deeper than 3")
        if label == "threshold":
            check(any(p.startswith("[below massif's threshold]") or ";[below" in p
                      for p in stacks), "threshold: a below-threshold frame")
        else:
            check(any(p.startswith("main;") and p.endswith(";grow") for p in stacks)
                  or label in ("depth3", "pages"),
                  "%s: stacks from main to the allocating function" % label)
    out = os.path.join(tmp, "massif.default")
    r = run([difffold, "-f", "text", out])
    check(r.returncode == 0 and b"bytes" in r.stdout, "the count name is bytes")
    r = run([difffold, out])
    check(b"massif: the heap at its peak snapshot" in r.stdout, "the SVG's header says the peak")
    head = os.path.join(tmp, "massif.head")
    run(["valgrind", "--tool=massif", "--massif-out-file=" + head, prog, "60"], check=True)
    r = run([difffold, "-f", "folded", out, head])
    check(r.returncode == 0 and r.stdout.count(b"\n") >= 3, "a base and a head massif file")


HEADER = "desc: (none)\ncmd: ./x\ntime_unit: i\n"


def snapshot(n, kind, tree=""):
    return ("#-----------\nsnapshot=%d\n#-----------\ntime=%d\nmem_heap_B=0\n"
            "mem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=%s\n%s" % (n, n, kind, tree))


TREE = ("n2: 300 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n"
        " n1: 200 0x4005B4: f (a.c:5)\n"
        "  n0: 200 0x4005D0: main (a.c:10)\n"
        " n0: 100 0x4005E0: ??? (in /usr/lib/libz.so.1)\n")


def hand_written(difffold, tmp):
    cases = {
        "no-tree": (HEADER + snapshot(0, "empty") + snapshot(1, "empty"),
                    [], "no snapshot has a heap tree"),
        "empty-chosen": (HEADER + snapshot(0, "empty") + snapshot(1, "peak", TREE),
                         ["--snapshot", "0"], "snapshot 0 has no heap tree"),
        "cut": (HEADER + snapshot(0, "peak", TREE.rsplit("\n", 3)[0] + "\n"),
                [], ":13: the heap tree is cut short"),
        "too-many-bytes": (HEADER + snapshot(0, "peak", TREE.replace(" n0: 100", " n0: 101")),
                           [], "more bytes"),
    }
    for name, (text, args, want) in cases.items():
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(text)
        r = run([difffold, "-f", "folded", *args, path])
        err = r.stderr.decode()
        check(r.returncode == 1 and want in err and r.stdout == b"",
              "%s: exit 1, %r (%s)" % (name, want, err.strip()))
    path = os.path.join(tmp, "good")
    with open(path, "w") as f:
        f.write(HEADER + snapshot(0, "detailed", TREE) + snapshot(1, "peak", TREE))
    r = run([difffold, "-f", "folded", path])
    check(r.stdout == b"[libz.so.1] 100\nmain;f 200\n",
          "hand-written: names without address and position, ??? as its object")


def main():
    difffold = sys.argv[1]
    missing = [t for t in ("valgrind", "ms_print", "cc") if not shutil.which(t)]
    if missing:
        print("FAIL - %s not found (.ci/setup installs valgrind)" % ", ".join(missing))
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "prog.c")
        with open(src, "w") as f:
            f.write(PROGRAM)
        prog = os.path.join(tmp, "prog")
        run(["cc", "-g", "-O0", "-o", prog, src], check=True)
        real_files(difffold, tmp, prog)
        hand_written(difffold, tmp)
    print("%d passed, %d failed" % (len(passed), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
