#!/usr/bin/env python3
"""Real DHAT files made during the test run, read by difffold.

usage: run.py DIFFFOLD

Compiles a small C program that allocates from two call paths, runs it
under valgrind --tool=dhat, and checks difffold against DHAT's own summary
(the "Total:" line valgrind prints):
  - the root of the default metric (tb) equals DHAT's total bytes, and of
    --event tbk its total blocks;
  - frames are function names alone (no address, no file:line), the
    allocator last, the outermost caller first;
  - two runs of the program (base and head) merge into one tree with both
    sides equal, and the report names the metric read;
  - the file gzipped and on standard input reads the same.
valgrind and a C compiler are required (.ci/setup installs them).
"""
import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile

PROGRAM = r"""
#include <stdlib.h>
#include <string.h>
__attribute__((noinline)) static void *grab(size_t n) { void *p = malloc(n); memset(p, 1, n); return p; }
__attribute__((noinline)) static void small(int i) { free(grab(24 + i)); }
__attribute__((noinline)) static void *big(void) { return grab(5000); }
int main(void) {
    for (int i = 0; i < 40; i++) small(i);
    void *q = big();
    free(q);
    return 0;
}
"""

failures = 0


def check(ok, what):
    global failures
    print(("ok - " if ok else "not ok - ") + what)
    if not ok:
        failures += 1


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def totals(stderr):
    m = re.search(r"Total:\s+([\d,]+) bytes in ([\d,]+) blocks", stderr)
    return int(m.group(1).replace(",", "")), int(m.group(2).replace(",", ""))


def rows(exe, *args):
    """The folded output as (stack, [counts]) pairs."""
    p = run([exe, "-f", "folded"] + list(args))
    check(p.returncode == 0, "difffold reads %s (%s)" % (" ".join(os.path.basename(a) for a in args),
                                                        p.stderr.decode("utf-8", "replace").strip()[:80]))
    result = []
    for line in p.stdout.decode("utf-8").splitlines():
        parts = line.split(" ")
        # Frame names here have no spaces but C++ ones might: counts are last.
        n = 2 if len(parts) > 2 and parts[-2].replace(".", "").isdigit() else 1
        result.append((" ".join(parts[:-n]), [int(c) for c in parts[-n:]]))
    return result


def main(argv):
    exe = os.path.abspath(argv[1])
    tmp = tempfile.mkdtemp(prefix="difffold-dhat-")
    try:
        src = os.path.join(tmp, "prog.c")
        with open(src, "w") as f:
            f.write(PROGRAM)
        prog = os.path.join(tmp, "prog")
        run([os.environ.get("CC", "cc"), "-O1", "-g", "-fno-inline", src, "-o", prog], check=True)
        outs = []
        for name in ("a.dhat", "b.dhat"):
            path = os.path.join(tmp, name)
            p = run(["valgrind", "--tool=dhat", "--dhat-out-file=" + path, prog], check=True)
            outs.append((path, totals(p.stderr.decode("utf-8", "replace"))))
        (a, (tb, tbk)), (b, _) = outs

        bytes_rows = rows(exe, a)
        check(sum(c[0] for _, c in bytes_rows) == tb,
              "total bytes %d equal DHAT's (%d)" % (sum(c[0] for _, c in bytes_rows), tb))
        block_rows = rows(exe, "--event", "tbk", a)
        check(sum(c[0] for _, c in block_rows) == tbk,
              "total blocks %d equal DHAT's (%d)" % (sum(c[0] for _, c in block_rows), tbk))
        for event, what in ((None, "total bytes allocated (tb)"),
                            ("tbk", "total blocks allocated (tbk)")):
            args = [exe, "-f", "markdown"] + (["--event", event] if event else []) + [a, b]
            md = run(args).stdout.decode("utf-8", "replace")
            check("DHAT: " + what in md, "the report says what was counted: " + what)
        stacks = [s for s, _ in bytes_rows]
        check("main;small;grab;malloc" in stacks and "main;big;grab;malloc" in stacks,
              "frames are function names, outermost first: %s" % stacks)
        check(not any("0x" in s or ".c:" in s for s in stacks),
              "no address or file:line in frame names")

        pair = rows(exe, a, b)
        check(pair and all(len(c) == 2 and c[0] == c[1] for _, c in pair),
              "two runs merge with equal sides")

        gz = os.path.join(tmp, "a.dhat.gz")
        with open(a, "rb") as f, gzip.open(gz, "wb") as g:
            g.write(f.read())
        with open(a, "rb") as f:
            piped = run([exe, "-f", "folded", "-"], stdin=f).stdout
        plain = run([exe, "-f", "folded", a]).stdout
        check(plain == piped == run([exe, "-f", "folded", gz]).stdout,
              "gzip and standard input read the same as the file")
    finally:
        shutil.rmtree(tmp)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
