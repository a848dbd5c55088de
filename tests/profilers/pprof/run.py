#!/usr/bin/env python3
"""pprof profiles made by tests/profilers/pprof/gen.py, read by difffold.

usage: run.py DIFFFOLD

For every shape gen.py makes (several sample types, inlined functions,
locations without lines, string table edge cases, tables before or after
the samples), `difffold -f folded` must equal gen.py's model of the
format; --event picks a type by name or index and an unknown one is
refused with the list; the unit becomes the count name; malformed and
truncated profiles fail with exit 1 and a message naming the file and the
byte offset, never a crash.
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402

passed, failures = [], []


def check(ok, what):
    (passed if ok else failures).append(what)
    print(("ok - " if ok else "FAIL - ") + what)


def run(difffold, *args):
    return subprocess.run([difffold, *args], capture_output=True, timeout=60)


def shapes(difffold, tmp):
    for name, (make, tables_first) in gen.SHAPES.items():
        p = make()
        path = os.path.join(tmp, name + ".pb.gz")
        with open(path, "wb") as f:
            f.write(gen.gz(p.encode(tables_first)))
        r = run(difffold, "-f", "folded", path)
        check(r.returncode == 0 and r.stdout.decode() == p.folded(),
              "%s: -f folded equals the model (%s)" % (name, r.stderr.decode().strip()))
        # The same bytes uncompressed, and with the tables in the other order.
        raw = os.path.join(tmp, name + ".pb")
        with open(raw, "wb") as f:
            f.write(p.encode(not tables_first))
        r = run(difffold, "-f", "folded", "--input-format", "pprof", raw)
        check(r.returncode == 0 and r.stdout.decode() == p.folded(),
              "%s: uncompressed, other field order" % name)
        for k, (t, _) in enumerate(p.types):
            for event in (p.strings[t], str(k)):
                r = run(difffold, "-f", "folded", "--event", event, path)
                check(r.returncode == 0 and r.stdout.decode() == p.folded(event),
                      "%s: --event %s" % (name, event))


def events(difffold, tmp):
    path = os.path.join(tmp, "basic.pb.gz")
    r = run(difffold, "-f", "folded", "--event", "alloc_space", path)
    err = r.stderr.decode()
    check(r.returncode == 1 and "no sample type alloc_space (the profile has samples, cpu)" in err,
          "an unknown --event is refused with the types: " + err.strip())
    r = run(difffold, "-f", "text", path)
    check(r.returncode == 0 and b"nanoseconds" in r.stdout, "the unit is the count name (cpu)")
    r = run(difffold, "-f", "text", "--event", "samples", path)
    check(r.returncode == 0 and b"nanoseconds" not in r.stdout and b"samples" in r.stdout,
          "unit count: the type is the count name")
    r = run(difffold, path)
    check(r.returncode == 0 and b"pprof: sample type cpu (nanoseconds)" in r.stdout,
          "the SVG's header names the sample type")
    r = run(difffold, "-f", "folded", path, path)
    check(r.returncode == 0 and r.stdout.count(b"\n") == 3, "two pprof files as base and head")
    # Counts of different units (samples against nanoseconds) never merge.
    inlined = os.path.join(tmp, "inlined.pb.gz")
    r = run(difffold, "-f", "folded", "--event", "0", path, inlined)
    check(r.returncode == 1 and b"count different things" in r.stderr,
          "a samples profile against a nanoseconds one is refused: " + r.stderr.decode()[:80])
    other = os.path.join(tmp, "default-type.pb.gz")
    outs = [subprocess.run([difffold, "-f", "folded", "--event", "0", path, other],
                           capture_output=True, env=dict(os.environ, DIFFFOLD_READ_THREADS=n))
            for n in ("1", "2")]
    check(outs[0].returncode == 0 and outs[0].stdout == outs[1].stdout
          and outs[0].stderr == outs[1].stderr, "one and two reading threads agree")
    with open(path, "rb") as f:
        piped = subprocess.run([difffold, "-f", "folded", "-"], stdin=f, capture_output=True)
    check(piped.stdout == gen.basic().folded().encode(), "gzip pprof on standard input")


def malformed(difffold, tmp):
    for name, (data, want) in gen.malformed().items():
        path = os.path.join(tmp, name + ".pb")
        with open(path, "wb") as f:
            f.write(data)
        r = run(difffold, "-f", "folded", "--input-format", "pprof", path)
        err = r.stderr.decode()
        check(r.returncode == 1 and err.startswith("difffold: %s: byte offset " % path)
              and want in err and r.stdout == b"",
              "%s: exit 1, %r (%s)" % (name, want, err.strip()))
        # Every cut of a good profile fails cleanly or reads a shorter one.
    good = gen.basic().encode()
    crashes = 0
    for cut in range(1, len(good)):
        path = os.path.join(tmp, "cut.pb")
        with open(path, "wb") as f:
            f.write(good[:cut])
        r = run(difffold, "-f", "folded", "--input-format", "pprof", path)
        crashes += r.returncode not in (0, 1)
    check(crashes == 0, "every cut of a profile exits 0 or 1")


def main():
    difffold = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        shapes(difffold, tmp)
        events(difffold, tmp)
        malformed(difffold, tmp)
    print("%d passed, %d failed" % (len(passed), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
