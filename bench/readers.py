#!/usr/bin/env python3
"""Every reader against the folded reader: instructions per input byte and per
stack (callgrind, stable from run to run), and peak RSS at two sizes.

    bench/readers.py [BINARY] [--mb N] [--rss-mb M] [--times K] [--only A,B]

For each input format a deterministic file of about N MiB (default 2) is
generated into a temporary folder (deleted after) and read with
`difffold -f folded FILE -o OUT` under valgrind --tool=callgrind.  OUT, the
same samples written as folded text, is then read the same way: that is the
fair comparison (same tree, the format's bytes left out).  Columns:

  bytes, Ir/B, stacks, Ir/stack   the format's file, its folded lines (OUT)
  fold B, fold Ir/B, fold Ir/st   OUT read as folded input
  x fold                          the format's instructions / OUT's
  RSS M, RSS MxK                  peak RSS (/usr/bin/time -v) of the file at
                                  M MiB (default 4) and K (default 4) times
                                  that, with more samples over the same
                                  stacks: a reader whose memory is bounded by
                                  the tree, not the file, peaks about the same

Inputs (each with its own fixed seed, stacks drawn from a fixed pool so that
a larger file only adds samples):
  - folded: bench/gen-pair.py's base file (the RSS check repeats the M MiB
    file K times: the same stacks, more samples);
  - callgrind: bench/gen-callgrind.py's base file (a call graph, not samples:
    a larger file has more functions, so its RSS column grows by design);
  - perf: `perf script` text, 5,000 stacks 5 to 30 deep, user frames and
    a few kernel frames, addresses, symbol+offset and objects;
  - pprof, pprof.gz: tests/profilers/pprof/gen.py --big (4,000 functions, 20,000
    stacks 8 to 40 deep, two sample types), uncompressed and gzip;
  - massif: detailed snapshots of one 2,000-node heap tree;
  - speedscope: bench/gen-speedscope.py (4 profiles, 20,000 paths);
  - gecko: the Firefox Profiler's processed format (samply's output), two
    threads, each with its string, func, frame and stack tables;
  - dhat: DHAT's JSON, program points over 5,000 stacks of 2,000 frames.
About two minutes on a quiet machine with the defaults.  Prints the table,
asserts nothing.
"""
import os
import random
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests", "profilers", "pprof"))
import gen  # noqa: E402

MIB = 1 << 20
MB_PER_MIB = 1.048576


def stack_pool(rng, nstacks, nframes, lo, hi):
    """Stacks of frame indices, root first: the pool every sample draws from."""
    return [[rng.randrange(nframes) for _ in range(rng.randint(lo, hi))] for _ in range(nstacks)]


def massif_file(path, nbytes, seed=5):
    """Snapshots of one random heap tree: allocation sites over callers."""
    rng = random.Random(seed)
    tree, stack = [], []
    for i in range(2000):
        depth = min(rng.randint(0, 6), len(stack))
        text = "0x%X: fn_%d (src%d.c:%d)" % (rng.randrange(1 << 32), i, i % 50, i)
        node = [rng.randint(1000, 100000), text, []]
        del stack[depth:]
        (stack[-1][2] if stack else tree).append(node)
        stack.append(node)
    root = [0, "(heap allocation functions) malloc/new/new[], --alloc-fns, etc.", tree]
    # Children before parents, so that each total includes its subtree.
    order, todo = [], [(root, 0)]
    while todo:
        node, d = todo.pop()
        order.append((node, d))
        todo.extend((c, d + 1) for c in reversed(node[2]))
    for node, _ in reversed(order):
        node[0] += sum(c[0] for c in node[2])
    tree_text = "".join("%sn%d: %d %s\n" % (" " * d, len(n[2]), n[0], n[1]) for n, d in order)
    with open(path, "w") as f:
        f.write("desc: (none)\ncmd: ./bench\ntime_unit: i\n")
        n = 0
        while f.tell() < nbytes:
            kind = "peak" if n == 3 else "detailed"
            f.write("#-----------\nsnapshot=%d\n#-----------\ntime=%d\nmem_heap_B=%d\n"
                    "mem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=%s\n%s"
                    % (n, n, root[0], kind, tree_text))
            n += 1


def perf_file(path, nbytes, seed=3):
    """`perf script` text: a header line a sample, its frames leaf first."""
    rng = random.Random(seed)
    frames = []
    for i in range(3000):
        if i % 10 == 0:  # a tenth of the functions are the kernel's
            frames.append((0xffffffff81000000 + i * 0x140, "k_fn_%d" % i, "[kernel.kallsyms]"))
        else:
            frames.append((0x55d0c0a00000 + i * 0x80, "fn_%d_%s" % (i, "x" * (i % 19)),
                           "/usr/lib/libbench%d.so" % (i % 7)))
    blocks = []
    for s in stack_pool(rng, 5000, len(frames), 5, 30):
        # Kernel frames only on top of the stack, as perf records them.
        s = sorted(s, key=lambda i: i % 10 == 0)
        lines = []
        for i in reversed(s):
            addr, name, dso = frames[i]
            off = rng.randrange(0x200)
            lines.append("\t%16x %s+0x%x (%s)\n" % (addr + off, name, off, dso))
        blocks.append("".join(lines) + "\n")
    with open(path, "w") as f:
        n = 0
        while f.tell() < nbytes:
            for _ in range(1000):
                tid = 4200 + n % 4
                f.write("bench %d/%d [%03d] %d.%06d: %10d cycles:u: \n%s" % (
                    4200, tid, n % 8, 1000 + n // 4000, (n * 250) % 1000000,
                    rng.randint(100000, 300000), blocks[rng.randrange(len(blocks))]))
                n += 1


def gecko_thread(rng, name, tid, names, pool, nsamples):
    """One processed-format thread: its tables and nsamples samples."""
    # The stack table is a tree of (prefix, frame) rows, one row a prefix.
    rows, index = [], {}
    leaves = []
    for s in pool:
        prefix = None
        for fr in s:
            key = (prefix, fr)
            if key not in index:
                index[key] = len(rows)
                rows.append(key)
            prefix = index[key]
        leaves.append(prefix)
    stacks = [leaves[rng.randrange(len(leaves))] for _ in range(nsamples)]
    js = lambda xs: ",".join("null" if x is None else str(x) for x in xs)  # noqa: E731
    n = len(names)
    return ('{"processType":"default","name":"%s","pid":"4200","tid":%d,\n'
            '"samples":{"length":%d,"weightType":"samples","weight":null,\n"stack":[%s],\n'
            '"time":[%s]},\n'
            '"stackTable":{"length":%d,"prefix":[%s],"frame":[%s],"category":[%s]},\n'
            '"frameTable":{"length":%d,"address":[%s],"inlineDepth":[%s],"func":[%s]},\n'
            '"funcTable":{"length":%d,"name":[%s],"isJS":[%s]},\n'
            '"stringArray":[%s]}' % (
                name, tid, nsamples, js(stacks),
                ",".join("%.3f" % (i * 0.25) for i in range(nsamples)),
                len(rows), js(r[0] for r in rows), js(r[1] for r in rows), js([0] * len(rows)),
                n, js(0x1000 + 16 * i for i in range(n)), js([0] * n), js(range(n)),
                n, js(range(n)), ",".join(["false"] * n),
                ",".join('"%s"' % s for s in names)))


def gecko_file(path, nbytes, seed=7):
    """The Firefox Profiler's processed format, two threads over one pool."""
    rng = random.Random(seed)
    names = ["fn_%d_%s" % (i, "y" * (i % 17)) for i in range(2500)]
    pool = stack_pool(rng, 4000, len(names), 5, 30)
    fixed = len(gecko_thread(random.Random(0), "t", 0, names, pool, 0))
    # A sample costs its stack index and its time, about 13 bytes.
    nsamples = max(1, (nbytes - 2 * fixed) // 26)
    with open(path, "w") as f:
        f.write('{"meta":{"version":24,"preprocessedProfileVersion":44,"interval":1,'
                '"startTime":0,"product":"bench"},\n"libs":[],\n"threads":[\n')
        f.write(gecko_thread(rng, "main", 4200, names, pool, nsamples))
        f.write(",\n")
        f.write(gecko_thread(rng, "worker", 4201, names, pool, nsamples))
        f.write("\n]}\n")


def dhat_file(path, nbytes, seed=11):
    """DHAT's JSON: program points, each a stack of ftbl indices leaf first."""
    rng = random.Random(seed)
    ftbl = ["[root]"] + ["0x%X: fn_%d_%s (src%d.c:%d)" % (
        0x400000 + 48 * i, i, "z" * (i % 13), i % 40, i) for i in range(1, 2000)]
    pool = stack_pool(rng, 5000, len(ftbl) - 1, 4, 24)
    with open(path, "w") as f:
        f.write('{"dhatFileVersion":2\n,"mode":"heap","verb":"Allocated"\n,"bklt":true,'
                '"bkacc":true\n,"tu":"instrs","Mtu":"Minstr"\n,"tuth":500\n,"cmd":"./bench"\n'
                ',"pid":4200\n,"te":1000000000\n,"tg":900000000\n,"pps":\n [')
        sep = ""
        tail = len(ftbl) * 36
        while f.tell() + tail < nbytes:
            for _ in range(500):
                tb = rng.randint(16, 1 << 20)
                f.write('%s{"tb":%d,"tbk":%d,"tl":%d,"mb":%d,"mbk":1,"gb":%d,"gbk":1,'
                        '"eb":0,"ebk":0,"rb":%d,"wb":%d\n  ,"fs":[%s]\n  }\n ' % (
                            sep, tb, rng.randint(1, 50), rng.randint(1, 10 ** 6), tb, tb,
                            rng.randrange(tb), rng.randrange(tb),
                            ",".join(str(i + 1) for i in reversed(pool[rng.randrange(len(pool))]))))
                sep = ","
        f.write(']\n,"ftbl":\n [%s\n ]\n}\n' % "\n ,".join('"%s"' % s for s in ftbl))


def folded_file(path, nbytes, tmp):
    subprocess.run([sys.executable, os.path.join(REPO, "bench", "gen-pair.py"), "--size-mb",
                    "%.3f" % (nbytes / MIB * MB_PER_MIB), "--seed", "1", "--out-base", path,
                    "--out-head", os.path.join(tmp, "unused")], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def callgrind_file(path, nbytes, tmp):
    subprocess.run([sys.executable, os.path.join(REPO, "bench", "gen-callgrind.py"),
                    "--size-mb", "%.3f" % (nbytes / MIB * MB_PER_MIB), "--seed", "1",
                    "--out-base", path, "--out-head", os.path.join(tmp, "unused")],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def speedscope_file(path, nbytes, tmp):
    # About 88 bytes a sample: 17 frame indices and a weight.
    subprocess.run([sys.executable, os.path.join(REPO, "bench", "gen-speedscope.py"),
                    str(max(4, nbytes // 88)), path, os.devnull], check=True)


def pprof_file(path, nbytes, gzip=False):
    raw = gen.big(max(1, round(nbytes / MIB)))
    with open(path, "wb") as f:
        f.write(gen.gz(raw) if gzip else raw)


def make(kind, path, nbytes, tmp):
    """Writes the input of `kind` of about nbytes (pprof: whole MiB)."""
    if kind == "folded":
        folded_file(path, nbytes, tmp)
    elif kind == "callgrind":
        callgrind_file(path, nbytes, tmp)
    elif kind in ("pprof", "pprof.gz"):
        pprof_file(path, nbytes, kind == "pprof.gz")
    elif kind == "speedscope":
        speedscope_file(path, nbytes, tmp)
    else:
        {"perf": perf_file, "massif": massif_file, "gecko": gecko_file,
         "dhat": dhat_file}[kind](path, nbytes)


READERS = ["folded", "callgrind", "perf", "pprof", "pprof.gz", "massif", "speedscope", "gecko",
           "dhat"]


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
                os.unlink(out)
                return int(line.split()[1])
    raise SystemExit("no totals in callgrind output")


def count_lines(path):
    with open(path, "rb") as f:
        return sum(1 for _ in f)


def measure_ir(binary, kind, mib, tmp):
    """Instructions of the format's file and of the same samples as folded text."""
    path = os.path.join(tmp, "ir." + kind)
    make(kind, path, int(mib * MIB), tmp)
    same = os.path.join(tmp, "ir.%s.folded" % kind)
    again = os.path.join(tmp, "ir.%s.again" % kind)
    row = {"bytes": os.path.getsize(path)}
    row["ir"] = instructions([binary, "-f", "folded", path, "-o", same], tmp)
    row["stacks"] = count_lines(same)
    row["fold_bytes"] = os.path.getsize(same)
    row["fold_ir"] = instructions([binary, "-f", "folded", same, "-o", again], tmp)
    with open(same, "rb") as a, open(again, "rb") as b:
        if a.read() != b.read():
            print("warning: %s: its folded text does not read back the same" % kind,
                  file=sys.stderr)
    for p in (path, same, again):
        os.unlink(p)
    return row


def measure_rss(binary, kind, mib, times, tmp):
    """Peak RSS of the file at mib MiB and at times that, same stacks."""
    small = os.path.join(tmp, "rss1." + kind)
    large = os.path.join(tmp, "rss%d.%s" % (times, kind))
    make(kind, small, int(mib * MIB), tmp)
    if kind == "folded":  # the same lines again: more samples of the same stacks
        with open(small, "rb") as f, open(large, "wb") as g:
            data = f.read()
            for _ in range(times):
                g.write(data)
    else:
        make(kind, large, int(mib * times * MIB), tmp)
    out = []
    for p in (small, large):
        out.append((os.path.getsize(p), peak_rss_kib([binary, "-f", "folded", p,
                                                      "-o", os.devnull])))
        os.unlink(p)
    return out


def main(argv):
    binary = os.path.join(REPO, "build", "src", "difffold")
    mib, rss_mib, times, only = 2.0, 4.0, 4, READERS
    args = list(argv[1:])
    while args:
        a = args.pop(0)
        if a == "--mb":
            mib = float(args.pop(0))
        elif a == "--rss-mb":
            rss_mib = float(args.pop(0))
        elif a == "--times":
            times = int(args.pop(0))
        elif a == "--only":
            only = [k for k in args.pop(0).split(",") if k]
            bad = [k for k in only if k not in READERS]
            if bad:
                raise SystemExit("bench/readers.py: unknown reader %s (one of %s)"
                                 % (", ".join(bad), ",".join(READERS)))
        elif a.startswith("-"):
            raise SystemExit(__doc__)
        else:
            binary = a
    binary = os.path.abspath(binary)
    print("difffold -f folded FILE: callgrind instructions on about %g MiB, peak RSS on "
          "%g MiB and %dx (%s)" % (mib, rss_mib, times, binary))
    print("%-10s %10s %6s %7s %8s | %9s %9s %8s | %6s | %7s %9s" % (
        "reader", "bytes", "Ir/B", "stacks", "Ir/stack", "fold B", "fold Ir/B", "fold Ir/st",
        "x fold", "RSS MiB", "RSS x%d" % times))
    with tempfile.TemporaryDirectory(prefix="difffold-readers-") as tmp:
        for kind in only:
            r = measure_ir(binary, kind, mib, tmp)
            (_, rss1), (_, rss2) = measure_rss(binary, kind, rss_mib, times, tmp)
            print("%-10s %10s %6.1f %7d %8.0f | %9s %9.1f %8.0f | %6.2f | %7.1f %9.1f" % (
                kind, format(r["bytes"], ","), r["ir"] / r["bytes"], r["stacks"],
                r["ir"] / r["stacks"], format(r["fold_bytes"], ","),
                r["fold_ir"] / r["fold_bytes"], r["fold_ir"] / r["stacks"],
                r["ir"] / r["fold_ir"], rss1 / 1024, rss2 / 1024), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
