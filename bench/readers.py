#!/usr/bin/env python3
"""The pprof and massif readers against the folded reader: instructions per
input byte (callgrind, stable from run to run) and peak RSS.

    bench/readers.py [BINARY] [--mb N] [--cg-mb M]

Inputs, generated into a temporary folder:
  - pprof: tests/pprof/gen.py --big (Go-like: 4,000 functions, 20,000
    distinct stacks 8 to 40 deep, two sample types), uncompressed and gzip;
  - same.folded: the same samples as folded lines, one a sample (so about
    12 times the bytes: a location id of 2 bytes is a name of 20 or more);
  - folded: bench/gen-pair.py's base file of the pprof file's size;
  - massif: a file of 200 detailed snapshots of a 2,000-node heap tree.
Peak RSS (/usr/bin/time -v) on N MiB (default 64) of each, instructions on
M MiB (default 8). Each run is `difffold -f folded FILE > /dev/null`.
Prints figures, asserts nothing.
"""
import os
import random
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests", "pprof"))
import gen  # noqa: E402


def massif_file(path, megabytes, seed=5):
    """Snapshots of one random heap tree: allocation sites over callers."""
    rng = random.Random(seed)
    lines = []
    nodes = [(0, None)]  # depth, parent
    while len(lines) < 2000:
        lines.append((rng.randint(0, 6), rng.randint(1000, 100000),
                      "0x%X: fn_%d (src%d.c:%d)" % (rng.randrange(1 << 32), len(lines),
                                                    len(lines) % 50, len(lines))))
    del nodes
    # A tree from the depths: each line a child of the last line one level up.
    tree = []
    stack = []
    for depth, size, text in lines:
        depth = min(depth, len(stack))
        del stack[depth:]
        node = [size, text, []]
        (stack[-1][2] if stack else tree).append(node)
        stack.append(node)

    def total(n):
        n[0] = n[0] + sum(total(c) for c in n[2])
        return n[0]

    root = [0, "(heap allocation functions) malloc/new/new[], --alloc-fns, etc.", tree]
    total(root)
    out = ["n%d: %d %s" % (len(n[2]), n[0], n[1]) for n in [root]]
    text = []

    def emit(n, d):
        text.append("%sn%d: %d %s" % (" " * d, len(n[2]), n[0], n[1]))
        for c in n[2]:
            emit(c, d + 1)

    emit(root, 0)
    tree_text = "\n".join(text) + "\n"
    del out
    with open(path, "w") as f:
        f.write("desc: (none)\ncmd: ./bench\ntime_unit: i\n")
        n = 0
        while f.tell() < megabytes << 20:
            kind = "peak" if n == 3 else "detailed"
            f.write("#-----------\nsnapshot=%d\n#-----------\ntime=%d\nmem_heap_B=%d\n"
                    "mem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=%s\n%s"
                    % (n, n, root[0], kind, tree_text))
            n += 1


def peak_rss_kib(cmd):
    r = subprocess.run(["/usr/bin/time", "-v"] + cmd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, check=True)
    return int(re.search(rb"Maximum resident set size \(kbytes\): (\d+)", r.stderr).group(1))


def instructions(cmd, tmp):
    out = os.path.join(tmp, "cg.out")
    subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + cmd,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    with open(out) as f:
        for line in f:
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    raise SystemExit("no totals in callgrind output")


def make(tmp, mb, tag):
    files = {}
    files["same.folded"] = os.path.join(tmp, "big%s.same.folded" % tag)
    with open(files["same.folded"], "w") as same:
        raw = gen.big(mb, folded=same)
    files["pprof"] = os.path.join(tmp, "big%s.pb" % tag)
    with open(files["pprof"], "wb") as f:
        f.write(raw)
    files["pprof.gz"] = files["pprof"] + ".gz"
    with open(files["pprof.gz"], "wb") as f:
        f.write(gen.gz(raw))
    files["folded"] = os.path.join(tmp, "big%s.folded" % tag)
    subprocess.run([sys.executable, os.path.join(REPO, "bench", "gen-pair.py"), "--size-mb",
                    str(round(mb * 1.048576)), "--seed", "1", "--out-base", files["folded"],
                    "--out-head", os.path.join(tmp, "unused")], check=True)
    files["massif"] = os.path.join(tmp, "big%s.massif" % tag)
    massif_file(files["massif"], mb)
    return files


def main(argv):
    binary = os.path.join(REPO, "build", "src", "difffold")
    mb, cg_mb = 64, 8
    args = list(argv[1:])
    while args:
        a = args.pop(0)
        if a == "--mb":
            mb = int(args.pop(0))
        elif a == "--cg-mb":
            cg_mb = int(args.pop(0))
        else:
            binary = a
    with tempfile.TemporaryDirectory() as tmp:
        small = make(tmp, cg_mb, "s")
        print("instructions per input byte (%d MiB inputs, callgrind):" % cg_mb)
        for kind, path in small.items():
            size = os.path.getsize(path)
            ir = instructions([binary, "-f", "folded", path], tmp)
            print("  %-9s %12s bytes  %15s Ir  %6.1f Ir/byte" % (kind, format(size, ","),
                                                               format(ir, ","), ir / size))
        for p in small.values():
            os.unlink(p)
        large = make(tmp, mb, "l")
        print("peak RSS (%d MiB inputs, /usr/bin/time -v):" % mb)
        for kind, path in large.items():
            size = os.path.getsize(path)
            kib = peak_rss_kib([binary, "-f", "folded", path])
            print("  %-9s %12s bytes  %8.1f MiB peak RSS" % (kind, format(size, ","), kib / 1024))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
