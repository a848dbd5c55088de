#!/usr/bin/env python3
"""Issue 34 (hardening round 3) through the command line: options that
cannot be misread, bounded output, a bounded regular-expression budget and
output files under /dev. Every hostile file is built here, at test time.

Usage: hardening_cli.py DIFFFOLD   (prints TAP-like lines, exits 1 on failure)
"""
import gzip
import os
import subprocess
import sys
import tempfile

RESULTS = []


def run(exe, *args, timeout=120):
    return subprocess.run([exe, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, timeout=timeout)


def record(name, why):
    RESULTS.append((name, why))


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)
    return path


def leftovers(folder):
    return [n for n in os.listdir(folder) if n.startswith(".difffold-")]


def options(exe, tmp):
    """Item 7: numbers are decimal; --normalize refuses a zero side; the
    documented -o /dev/stdout -o archive.json works."""
    a = write(os.path.join(tmp, "a.folded"), b"main;work 5\n")
    z = write(os.path.join(tmp, "z.folded"), b"main;work 0\n")
    for opt, value in (("--fail-on-regression", "0x10"), ("--min-delta", "0x0.1p0"),
                       ("--width", " 1200"), ("--max-frames", "0X100")):
        p = run(exe, opt, value, "-f", "text", a, a)
        why = None
        if p.returncode != 2 or b"invalid value" not in p.stderr:
            why = "exit %d, %r" % (p.returncode, p.stderr)
        record("%s %r is a usage error" % (opt, value), why)
    p = run(exe, "--fail-on-regression", "10", "-f", "text", a, a)
    record("--fail-on-regression 10 still reads", None if p.returncode == 0 else p.stderr)
    for base, head, side in ((a, z, "head"), (z, a, "base")):
        p = run(exe, "--normalize", "-f", "text", base, head)
        msg = ("--normalize: the %s's total is 0" % side).encode()
        record("--normalize with a zero %s is refused" % side,
               None if p.returncode == 1 and msg in p.stderr and not p.stdout
               else "exit %d, %r" % (p.returncode, p.stderr))
    archive = os.path.join(tmp, "archive.json")
    p = run(exe, "-o", "/dev/stdout", "-o", archive, a, a)
    ok = p.returncode == 0 and p.stdout.startswith(b"<?xml") and os.path.exists(archive)
    record("-o /dev/stdout -o archive.json (formats.md) works",
           None if ok else "exit %d, %r" % (p.returncode, p.stderr))


def deep_speedscope(depth):
    """An evented speedscope profile of one chain `depth` frames deep, each
    frame with time of its own: its -f folded output grows with depth squared."""
    frames = ",".join('{"name":"f%d"}' % i for i in range(depth))
    events = ['{"type":"O","frame":%d,"at":%d}' % (i, i) for i in range(depth)]
    events += ['{"type":"C","frame":%d,"at":%d}' % (i, 2 * depth - i) for i in
               reversed(range(depth))]
    return ('{"$schema":"https://www.speedscope.app/file-format-schema.json",'
            '"shared":{"frames":[%s]},"profiles":[{"type":"evented","name":"p",'
            '"unit":"none","startValue":0,"endValue":%d,"events":[%s]}]}'
            % (frames, 2 * depth, ",".join(events))).encode()


def output_size(exe, tmp):
    """Item 2: an output past its limit fails with the limit named, before
    or while it is written, and leaves no file behind."""
    sub = os.path.join(tmp, "size")
    os.mkdir(sub)
    deep = os.path.join(sub, "deep.json.gz")
    with gzip.open(deep, "wb") as f:
        f.write(deep_speedscope(20000))
    # About 1.2 GB of folded text from a 150 KB file: past the default limit.
    out = os.path.join(sub, "deep.folded")
    p = run(exe, "-o", out, deep)
    ok = (p.returncode == 1 and b"the output would be larger than 256 MiB" in p.stderr and
          b"--max-output-mb" in p.stderr and not os.path.exists(out) and not leftovers(sub))
    record("-f folded of a deep profile stops at the default limit",
           None if ok else "exit %d, %r, %r" % (p.returncode, p.stderr, os.listdir(sub)))
    p = run(exe, "-f", "folded", deep)
    record("... on standard output too, before its first byte",
           None if p.returncode == 1 and not p.stdout else "exit %d, %d bytes" % (
               p.returncode, len(p.stdout)))
    # The SVG: a byte limit while it is written; an existing file stays.
    svg = write(os.path.join(sub, "old.svg"), b"old")
    small = write(os.path.join(sub, "chain.folded"),
                  b";".join(b"f%d" % i for i in range(3000)) + b" 1\n")
    p = run(exe, "--max-output-mb", "0.1", "-o", svg, small, small)
    with open(svg, "rb") as f:
        kept = f.read() == b"old"
    ok = p.returncode == 1 and b"larger than 0 MiB" not in p.stderr and kept and \
        b"--max-output-mb" in p.stderr and not leftovers(sub)
    record("an SVG past --max-output-mb fails, the old file stays",
           None if ok else "exit %d, %r, kept %s" % (p.returncode, p.stderr, kept))
    p = run(exe, "--max-output-mb", "0", "-o", os.path.join(sub, "ok.svg"), small, small)
    record("--max-output-mb 0 lifts the limit", None if p.returncode == 0 else p.stderr)


def pattern_budget(exe, tmp):
    """Item 5: the patterns' work over all names is bounded: names that
    each stay under PCRE2's per-name limit cannot add up to minutes."""
    names = b"".join(b"main;%s%d 1\n" % (b"a" * 20 + b"b", i) for i in range(300))
    hostile = write(os.path.join(tmp, "backtrack.folded"), names)
    p = run(exe, "--hide", "^(a+)+$", "-f", "folded", hostile)
    ok = (p.returncode == 1 and b"backtrack.folded:" in p.stderr and
          b"passed its budget" in p.stderr and not p.stdout)
    record("--hide '^(a+)+$' on 300 backtracking names stops at the budget",
           None if ok else "exit %d, %r" % (p.returncode, p.stderr[:300]))
    plain = write(os.path.join(tmp, "plain.folded"),
                  b"".join(b"main;ns::f%d<int>::g 1\n" % i for i in range(3000)))
    p = run(exe, "--replace", "^(\\w+)::(.*)$=$2", "--hide", "<.*>", "-f", "folded", plain)
    record("usual patterns on 3,000 names stay within the budget",
           None if p.returncode == 0 else p.stderr[:300])


def dev_files(exe, tmp):
    """Item 6: a regular file under /dev (/dev/shm) is replaced atomically,
    so a failed write leaves it whole; hard links are split as documented."""
    a = write(os.path.join(tmp, "d.folded"), b"main;work 5\n")
    shm = "/dev/shm"
    if os.path.isdir(shm) and os.access(shm, os.W_OK):
        target = os.path.join(shm, "difffold-hardening-%d.svg" % os.getpid())
        try:
            write(target, b"old contents")
            p = run(exe, "--max-output-mb", "0.001", "-o", target, a, a)
            with open(target, "rb") as f:
                kept = f.read() == b"old contents"
            left = [n for n in os.listdir(shm) if n.startswith(".difffold-")]
            record("a failed write leaves a regular file under /dev/shm whole",
                   None if p.returncode == 1 and kept and not left
                   else "exit %d, kept %s, left %r" % (p.returncode, kept, left))
            before = os.stat(target).st_ino
            p = run(exe, "-o", target, a, a)
            with open(target, "rb") as f:
                new = f.read().startswith(b"<?xml")
            record("... and a good one replaces it", None if p.returncode == 0 and new
                   else "exit %d, %r" % (p.returncode, p.stderr))
            # Replaced by a rename, not rewritten in place (9610a8c kept the
            # inode: a write that failed half-way left half a file).
            record("... by a new file, not in place",
                   None if os.stat(target).st_ino != before else "the same inode")
        finally:
            if os.path.exists(target):
                os.unlink(target)
    else:
        print("# /dev/shm is not writable here: its checks are left out")
    one = write(os.path.join(tmp, "one.svg"), b"old")
    two = os.path.join(tmp, "two.svg")
    os.link(one, two)
    p = run(exe, "-o", one, a, a)
    with open(one, "rb") as f1, open(two, "rb") as f2:
        ok = f1.read().startswith(b"<?xml") and f2.read() == b"old"
    record("a hard-linked file is replaced under its name (formats.md)",
           None if p.returncode == 0 and ok else "exit %d" % p.returncode)


def zero_run(exe, tmp):
    """Item 4: an all-zero run is refused under --runs (it has no total to
    take shares of), naming its file."""
    one = write(os.path.join(tmp, "r1.folded"), b"a;b 5\n")
    zero = write(os.path.join(tmp, "r0.folded"), b"a;b 0\n")
    two = write(os.path.join(tmp, "r2.folded"), b"a;b 7\n")
    p = run(exe, "--runs", "-f", "text", "--base", one, "--base", zero, "--head", two,
            "--head", two)
    ok = (p.returncode == 1 and b"r0.folded: --runs: this run's total is 0" in p.stderr and
          not p.stdout)
    record("--runs refuses an all-zero run", None if ok else "exit %d, %r" % (
        p.returncode, p.stderr))


STUCK_FONTCONFIG = b"""
#include <unistd.h>
typedef int FcBool;
/* fontconfig that never finishes building its fonts. */
FcBool FcConfigBuildFonts(void *config) { (void)config; for (;;) pause(); return 1; }
"""


def stuck_fonts(exe, tmp):
    """Item 8: whatever fontconfig does (here: never returns while building
    its fonts), drawing a PDF ends in bounded time, exit 1, nothing left."""
    cc = next((c for c in ("cc", "gcc", "clang") if any(
        os.access(os.path.join(d, c), os.X_OK) for d in os.environ.get("PATH", "").split(":"))),
        None)
    if not cc:
        print("# no C compiler: the stuck-fontconfig check is left out")
        return
    sub = os.path.join(tmp, "stuck")
    os.mkdir(sub)
    src = write(os.path.join(sub, "stuck.c"), STUCK_FONTCONFIG)
    shim = os.path.join(sub, "stuck.so")
    subprocess.run([cc, "-shared", "-fPIC", "-o", shim, src], check=True)
    a = write(os.path.join(sub, "s.folded"), b"main;work 5\n")
    out = os.path.join(sub, "out.pdf")
    # An ASan build wants its runtime first in the preload list; the shim
    # comes first here on purpose.
    asan = os.environ.get("ASAN_OPTIONS", "")
    env = dict(os.environ, LD_PRELOAD=shim,
               ASAN_OPTIONS=(asan + ":" if asan else "") + "verify_asan_link_order=0")
    try:
        p = subprocess.run([exe, "-o", out, a, a], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env,
                           timeout=90)
        why = None
        if p.returncode != 1 or b"no progress in 30 s" not in p.stderr:
            why = "exit %d, %r" % (p.returncode, p.stderr[-300:])
        elif os.path.exists(out) or leftovers(sub):
            why = "left behind: %r" % os.listdir(sub)
    except subprocess.TimeoutExpired:
        why = "still drawing after 90 s"
    record("a PDF whose fontconfig never finishes ends, exit 1", why)


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="difffold-hardening-") as tmp:
        for section in (options, output_size, pattern_budget, dev_files, zero_run, stuck_fonts):
            section(exe, tmp)
    failed = 0
    for i, (name, why) in enumerate(RESULTS, 1):
        print("%s %d - %s%s" % ("not ok" if why else "ok", i, name, ": %s" % why if why else ""))
        failed += why is not None
    print("1..%d" % len(RESULTS))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
