#!/usr/bin/env python3
"""Real profiles made during the test run, read by difffold.

usage: run.py DIFFFOLD

Compiles a small C program (a diamond, a function called from two sites,
direct recursion, a two-function cycle), runs it under valgrind's callgrind
(with and without --separate-callers, and with the cache simulation for
--event), and checks difffold against callgrind_annotate:
  - every function's self cost equals `callgrind_annotate --inclusive=no`;
  - the root equals the file's totals;
  - with full call contexts, every non-recursive context's inclusive cost
    equals `callgrind_annotate --inclusive=yes`;
  - the count name and the header follow the file (instructions, and
    "reconstructed" without contexts);
  - by default the C runtime's frames under main are one frame, (below
    main): the kept stacks (--show-below-main, used for the checks above)
    with that rule applied here equal the drawn ones.
  - a thin branch under the expansion floor of the larger of two profiles
    is drawn the same in both (one floor for both sides), and exactly with
    --separate-callers.
Then files of formats difffold does not read, made by the real tools where
this machine has them (perf.data when perf may
record here, else a message says so; tests/perf reads perf script), and
a UTF-16 file, must be refused with exit 1 and their format named.
valgrind and a C compiler are required (.ci/setup installs them): a missing
one fails the test.
"""
import collections
import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import below_main  # noqa: E402  (tests/profilers/below_main.py)

PROGRAM = r"""
static volatile long sink;
__attribute__((noinline)) static void leaf(int n) { for (int i = 0; i < n; i++) sink += i; }
__attribute__((noinline)) static void helper(int n) { leaf(n); leaf(n / 2); }
__attribute__((noinline)) static void left(void) { helper(1000); leaf(300); }
__attribute__((noinline)) static void right(void) { helper(4000); }
__attribute__((noinline)) static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__attribute__((noinline)) static void ping(int n);
__attribute__((noinline)) static void pong(int n) { leaf(50); if (n) ping(n - 1); }
__attribute__((noinline)) static void ping(int n) { leaf(20); if (n) pong(n - 1); }
__attribute__((noinline)) static void *grow(int n)
{
	void *p = 0;
	for (int i = 0; i < n; i++) {
		extern void *realloc(void *, unsigned long);
		p = realloc(p, (unsigned long)(i + 1) * 4096);
	}
	return p;
}
int main(void)
{
	extern void free(void *);
	left();
	right();
	sink += fib(15);
	ping(6);
	free(grow(8));
	return 0;
}
"""

failures = []
passed = []


def check(ok, what):
    print(("ok - " if ok else "FAIL - ") + what, flush=True)
    (passed if ok else failures).append(what)


def run(args, **kw):
    return subprocess.run(args, capture_output=True, **kw)


def annotate(path, inclusive, event="Ir", whole=True):
    """{name with its context: cost} of one event from callgrind_annotate's
    function list. With whole, only the rows that carry an [object], which
    are whole functions; without, also the rows of code inlined from other
    files, which callgrind_annotate lists apart (a function's self cost is
    the sum of its rows)."""
    args = ["callgrind_annotate", "--inclusive=" + ("yes" if inclusive else "no"),
            "--threshold=100", "--auto=no", "--show=" + event]
    out = run(args + [path], text=True, check=True).stdout
    rows = collections.Counter()
    for line in out.splitlines():
        m = re.match(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+(\S.*?)( \[[^\]]*\])?$", line)
        if m and "PROGRAM TOTALS" not in line and (m.group(3) or not whole):
            rows[m.group(2)] += int(m.group(1).replace(",", ""))
    return rows


def file_totals(path, event="Ir"):
    """The event's figure on the file's totals: line (its sum over parts)."""
    with open(path) as f:
        text = f.read()
    events = re.search(r"^events: (.*)$", text, re.M).group(1).split()
    values = [int(line.split()[1:][events.index(event)])
              for line in re.findall(r"^totals: .*$", text, re.M)]
    return sum(values)


def bare(name):
    """A function's name without its file, call context or recursion level."""
    fn = name.split(":", 1)[1] if ":" in name.split("'")[0] else name
    return fn.split("'")[0]


def folded(exe, path, *opts, keep_startup=True):
    """The stacks of -f folded; with keep_startup, the C runtime's frames kept
    (--show-below-main), as callgrind_annotate names them."""
    p = run([exe, "-f", "folded", *(["--show-below-main"] if keep_startup else []), *opts, path])
    if p.returncode != 0:
        raise RuntimeError("difffold %s: exit %d: %s" % (path, p.returncode, p.stderr))
    stacks = []
    for line in p.stdout.decode("utf-8").splitlines():
        stack, n = line.rsplit(" ", 1)
        stacks.append((stack.split(";"), int(n)))
    return stacks


def strip_file(frame, names):
    """difffold writes file:name only for names two functions share."""
    if ":" in frame and not frame.startswith("0x"):
        rest = frame.split(":", 1)[1]
        if rest in names:
            return rest
    return frame


def check_self(exe, path, label):
    rows, total = annotate(path, False, whole=False), file_totals(path)
    want = collections.Counter()
    for name, cost in rows.items():
        want[bare(name)] += cost
    got, root = collections.Counter(), 0
    for frames, n in folded(exe, path):
        got[strip_file(frames[-1], want)] += n
        root += n
    bad = [(k, want[k], got[k]) for k in set(want) | set(got) if want[k] != got[k]]
    check(not bad, "%s: self cost of all %d functions equals callgrind_annotate's%s" % (
        label, len(want), "" if not bad else ": " + repr(sorted(bad)[:5])))
    check(root == total, "%s: root %d equals totals %s" % (label, root, total))


def check_below_main(exe, path, label):
    """By default a stack's leading run of start-up frames is one frame,
    (below main): the kept stacks folded so equal the default ones."""
    kept, drawn = folded(exe, path), folded(exe, path, keep_startup=False)
    want = collections.Counter()
    for frames, n in kept:
        want[";".join(below_main.collapse(frames))] += n
    got = collections.Counter()
    for frames, n in drawn:
        got[";".join(frames)] += n
    mains = [f for f, _ in drawn if "main" in f]
    check(got == want and sum(got.values()) == sum(n for _, n in kept) and mains and
          all(f[0] == "(below main)" and f[1] == "main" for f in mains),
          "%s: the C runtime's frames under main are one frame by default, "
          "totals unchanged (%d stacks through main)" % (label, len(mains)))


def check_contexts(exe, path):
    rows = annotate(path, True)
    stacks = folded(exe, path)
    names = {bare(k) for k in rows}
    stacks = [([strip_file(f, names) for f in frames], n) for frames, n in stacks]
    checked, bad = 0, []
    for name, cost in rows.items():
        fn = name.split(":", 1)[1] if ":" in name.split("'")[0] else name
        chain = fn.split("'")
        if any(c.isdigit() for c in chain) or len(set(chain)) != len(chain):
            continue  # recursion: callgrind counts nested calls per level
        want = list(reversed(chain))
        got = sum(n for frames, n in stacks if frames[:len(want)] == want)
        checked += 1
        if got != cost:
            bad.append((want[-2:], cost, got))
    check(checked > 20 and not bad, "contexts: inclusive cost of %d call paths equals "
          "callgrind_annotate's%s" % (checked, "" if not bad else ": " + repr(bad[:5])))


def check_output(exe, tmp, cg, ctx, cache):
    svg = run([exe, cg, ctx], check=True).stdout.decode("utf-8")
    check("instructions" in svg, "SVG: count name from the event (instructions)")
    check("reconstructed from the call graph" in svg, "SVG: header says stacks were reconstructed")
    md = run([exe, "-f", "md", cg, ctx], check=True).stdout.decode("utf-8")
    # The note quotes the file (its events): a code span, inert on GitHub.
    check("_Input: `callgrind: stacks reconstructed" in md, "Markdown: says it too")
    one = run([exe, "-f", "md", ctx], check=True).stdout.decode("utf-8")
    check("stacks from call contexts" in one, "contexts: the report says so")
    stacks = folded(exe, cache, "--event", "Dr")
    check(sum(n for _, n in stacks) == file_totals(cache, "Dr"),
          "--event Dr: root equals the file's Dr totals")
    rows = annotate(cache, False, "D1mr", whole=False)
    got = collections.Counter()
    for frames, n in folded(exe, cache, "--event", "D1mr"):
        got[frames[-1]] += n
    check(sum(got.values()) == sum(rows.values()), "--event D1mr: the same sum as "
          "callgrind_annotate --show=D1mr")
    est = sum(n for _, n in folded(exe, cache, "--event", "CEst"))
    parts = {e: file_totals(cache, e) for e in ("Ir", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr",
                                                "DLmw")}
    want = parts["Ir"] + 10 * (parts["I1mr"] + parts["D1mr"] + parts["D1mw"]) + 100 * (
        parts["ILmr"] + parts["DLmr"] + parts["DLmw"])
    check(est == want, "--event CEst: Ir + 10 L1 misses + 100 LL misses (%d)" % want)
    p = run([exe, "--event", "Nope", cg])
    check(p.returncode == 1 and b"no event Nope in this file (it has: Ir)" in p.stderr,
          "an unknown event is refused, naming the file's events")
    gz = os.path.join(tmp, "cg.out.gz")
    with open(cg, "rb") as f, gzip.open(gz, "wb") as g:
        g.write(f.read())
    with open(cg, "rb") as f:
        piped = run([exe, "-f", "folded", "-"], stdin=f).stdout
    same = run([exe, "-f", "folded", gz]).stdout == run([exe, "-f", "folded", cg]).stdout
    check(same and piped == run([exe, "-f", "folded", cg]).stdout,
          "gzip and standard input read the same as the file")
    p = run([exe, "--objects", "-f", "folded", cg], check=True).stdout.decode("utf-8")
    check(" [prog]" in p, "--objects names frames function [object]")


def refused(exe, path, what):
    p = run([exe, path, path])
    err = p.stderr.decode("utf-8", "replace")
    check(p.returncode == 1 and ("looks like " + what) in err,
          "%s refused with exit 1 (%s)" % (os.path.basename(path), err.strip()[:90]))


def check_refusals(exe, tmp, prog):
    u16 = os.path.join(tmp, "u16.folded")
    with open(u16, "wb") as f:
        f.write("main;a 1\nmain;b 2\n".encode("utf-16"))
    refused(exe, u16, "UTF-16 text")
    data = os.path.join(tmp, "perf.data")
    rec = run(["perf", "record", "-q", "-g", "-o", data, prog]) if shutil.which("perf") else None
    if rec is None or rec.returncode != 0 or not os.path.exists(data):
        print("# perf cannot record here: perf.data not made by perf")
        return
    refused(exe, data, "perf.data")


SCALED = r"""
#include <stdlib.h>
static volatile long sink;
__attribute__((noinline)) static void rare_leaf(void) { sink += 3; }
__attribute__((noinline)) static void rare(void) { rare_leaf(); }
__attribute__((noinline)) static void busy(long n) { for (long i = 0; i < n; i++) sink += i; }
int main(int argc, char **argv)
{
	busy(atol(argv[1]));
	rare();
	return 0;
}
"""


def check_floor(exe, tmp):
    """A thin branch (rare, a few instructions) under the expansion floor
    of the larger profile only: the floor is the same for both sides, so the
    branch is drawn the same way in base and head (never removed + new), and
    with --separate-callers it is exact in both (no [unexpanded] frame)."""
    src = os.path.join(tmp, "scaled.c")
    with open(src, "w") as f:
        f.write(SCALED)
    prog = os.path.join(tmp, "scaled")
    run([os.environ.get("CC", "cc"), "-O1", src, "-o", prog], check=True)
    for opts, label in (([], "without contexts"), (["--separate-callers=20"], "--separate-callers=20")):
        outs = []
        for n in ("1000", "3000000"):
            out = os.path.join(tmp, "scaled-%s.out" % n)
            run(["valgrind", "--tool=callgrind"] + opts + ["--callgrind-out-file=" + out, prog, n],
                check=True)
            outs.append(out)
        p = run([exe, "-f", "folded"] + outs)
        lines = [l.rsplit(" ", 2) for l in p.stdout.decode("utf-8", "replace").splitlines()]
        thin = [(stack, int(b), int(h)) for stack, b, h in lines if "rare" in stack]
        one_sided = [t for t in thin if (t[1] == 0) != (t[2] == 0)]
        check(p.returncode == 0 and thin and not one_sided,
              "callgrind %s: a thin branch is drawn the same in both sides (%s)"
              % (label, "; ".join("%s %d %d" % t for t in thin)[:300]))
        if opts:
            check(not any("[unexpanded]" in stack for stack, _, _ in thin),
                  "callgrind %s: the thin branch keeps its exact path" % label)


def main(argv):
    exe = os.path.abspath(argv[1])
    tmp = tempfile.mkdtemp(prefix="difffold-callgrind-")
    try:
        src = os.path.join(tmp, "prog.c")
        with open(src, "w") as f:
            f.write(PROGRAM)
        prog = os.path.join(tmp, "prog")
        run([os.environ.get("CC", "cc"), "-O1", "-g", src, "-o", prog], check=True)
        cg, ctx, cache, jumps, plain = (
            os.path.join(tmp, n) for n in ("cg.out", "ctx.out", "cache.out", "jumps.out", "plain.out")
        )
        vg = ["valgrind", "--tool=callgrind"]
        run(vg + ["--callgrind-out-file=" + cg, prog], check=True)
        run(vg + ["--separate-callers=40", "--callgrind-out-file=" + ctx, prog], check=True)
        run(vg + ["--cache-sim=yes", "--callgrind-out-file=" + cache, prog], check=True)
        # jfi=/jfn=/jump=/jcnd= lines, and names such as "(below main)" written
        # without compression: both are valgrind's own output, read exactly.
        run(vg + ["--collect-jumps=yes", "--callgrind-out-file=" + jumps, prog], check=True)
        run(vg + ["--compress-strings=no", "--callgrind-out-file=" + plain, prog], check=True)
        check_self(exe, cg, "callgrind")
        check_self(exe, ctx, "callgrind --separate-callers=40")
        check_self(exe, cache, "callgrind --cache-sim=yes")
        check_self(exe, jumps, "callgrind --collect-jumps=yes")
        check_self(exe, plain, "callgrind --compress-strings=no")
        check_below_main(exe, cg, "callgrind")
        check_below_main(exe, ctx, "callgrind --separate-callers=40")
        check_contexts(exe, ctx)
        check_output(exe, tmp, cg, ctx, cache)
        check_refusals(exe, tmp, prog)
        check_floor(exe, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (len(passed), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
