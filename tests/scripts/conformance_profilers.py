#!/usr/bin/env python3
"""Every file of the profilers' public fixtures is read or refused by name.

    conformance_profilers.py DIFFFOLD CONFORMANCE_DIR [--verbose]

Reads CONFORMANCE_DIR/profilers/ORIGINS.tsv and runs difffold on each file
in place (the fixtures are third-party data: never copied). A file is

  - read, when its format is one difffold reads: exit 0, and where the
    `truth` column gives totals, the folded output's total equals each
    (read with the --event or --weight that total is of);
  - refused, when its format is one difffold does not read (legacy pprof,
    raw Gecko, Chrome traces, JFR, the files marked `other`, speedscope's
    invalid profiles): exit 1 with a message that names the file and,
    for a known format, the format (and no traceback, no signal).

Prints one line per failure and a summary; exit 1 if any file failed.
"""
import os
import re
import subprocess
import sys
import tempfile

# The formats difffold reads, by ORIGINS.tsv's `format` column prefix.
READ = ("folded", "perf-script", "pprof", "speedscope", "gecko-processed", "callgrind", "dhat")

# What the refusal must say of a format it knows.
REFUSED_NAME = {
    "pprof-legacy": "legacy pprof",
    "gecko-raw": "raw Gecko",
    "chrome-trace": "Chrome trace",
    "jfr": "Java Flight Recorder",
}


# What the refusal calls the `other` formats difffold names.
OTHER_NAMES = {
    "dtrace": "DTrace",
    "macos-sample": "macOS sample",
    "vtune-csv": "VTune",
    "vsprof-csv": "Visual Studio",
    "ghc-prof": "GHC",
    "chrome-cpuprofile": ".cpuprofile",
    "firefox-devtools-export": "DevTools",
}


def fold_total(text):
    """The total of difffold's folded output (2 or 3 columns: the head)."""
    total = 0
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        total += int(line.rsplit(" ", 1)[1])
    return total


def run(difffold, path, extra):
    p = subprocess.run([difffold, "-f", "folded", "-o", "/dev/stdout"] + extra + [path],
                       capture_output=True, timeout=120)
    return p.returncode, p.stdout.decode("utf-8", "replace"), \
        p.stderr.decode("utf-8", "replace")


def truths(fmt, truth):
    """(extra options, expected total) pairs from the truth column."""
    out = []
    if not truth:
        return out
    fields = dict(kv.split("=", 1) for kv in truth.split(";"))
    if fmt == "perf-script":
        per_event = {k[8:-1]: int(v) for k, v in fields.items() if k.startswith("samples[")}
        if per_event:
            for ev, n in per_event.items():
                # --event cycles would take cycles:u too: "cycles:" is exact.
                out.append((["--event", ev if ":" in ev else ev + ":"], n))
        else:
            out.append(([], int(fields["samples"])))
            if "period" in fields:
                out.append((["--weight", "period"], int(fields["period"])))
    elif fmt in ("folded",):
        out.append(([], int(fields["total"])))
    elif fmt.startswith("gecko-processed"):
        out.append(([], int(fields["samples"])))
    elif fmt == "speedscope":
        out.append(([], sum(int(v) for v in fields.values())))
    elif fmt == "dhat":
        for metric, n in fields.items():
            out.append((["--event", metric], int(n)))
    elif fmt == "pprof":
        for key, n in fields.items():
            out.append((["--event", key.split("/")[0]], int(n)))
    elif fmt == "callgrind":
        for event, n in fields.items():
            out.append((["--event", event], int(n)))
    return out


# Files of a readable format that may be refused, and what the refusal says:
# deliberately malformed inputs (with the file's line), an empty file, text
# in UTF-16 (named, with the iconv command), a callgrind file that breaks
# the format's specification.
def may_refuse(fmt, truth, notes, err):
    if re.search(r"^difffold: [^\n]*:[0-9]+: ", err) and (
            notes.startswith("malformed") or "NOT spec-conformant" in notes
            or notes.startswith("invalid")):
        return True
    if truth in ("samples=0", "total=0") or notes.startswith("empty file"):
        return "no stack in the input" in err or "no sample in the input" in err
    if "UTF-16" in notes:
        return "UTF-16" in err and "iconv" in err
    return False


def check_refused(difffold, path, fmt, notes, fail):
    code, _, err = run(difffold, path, [])
    name = os.path.basename(path)
    if code != 1 or name not in err or "Traceback" in err:
        fail("%s (%s): want a refusal (exit 1 naming the file), got exit %d: %s"
             % (path, fmt, code, err.strip()[:300]))
        return
    for prefix, word in REFUSED_NAME.items():
        if fmt.startswith(prefix) and word.lower() not in err.lower():
            fail("%s (%s): the refusal does not name %s: %s" % (path, fmt, word, err.strip()))
    # Files of other tools' formats (`other`, the kind first in the notes):
    # when difffold names a format, it is theirs; a file with nothing of the
    # format in it (an empty CSV, headers only) may be refused as no stacks.
    kind = notes.split(":", 1)[0] if fmt == "other" else ""
    if kind in OTHER_NAMES and "this looks like" in err and OTHER_NAMES[kind] not in err:
        fail("%s (%s): named as another format: %s" % (path, kind, err.strip()[:300]))
    if kind in ("firefox-devtools-export", "macos-sample", "ghc-prof", "chrome-cpuprofile") \
            and OTHER_NAMES[kind] not in err:
        fail("%s: the refusal does not name %s: %s" % (path, OTHER_NAMES[kind], err.strip()))


def merge_check(difffold, root, rows, tmp, fail, verbose):
    """A base folded by stackcollapse-perf.pl's default rules (FlameGraph's
    --jit expectation without its _[j] marks) merges exactly with the perf
    script it was folded from, read with --perf-names stackcollapse: every
    stack has the same count on both sides. stackcollapse-perf.pl drops a
    last sample not followed by a blank line; the head is cut there too."""
    checked = 0
    for row in rows:
        if not (row["path"].startswith("flamegraph/test/results/")
                and row["path"].endswith("-collapsed-jit.txt")):
            continue
        perf = os.path.join(root, row["role"].split(":", 1)[1])
        with open(perf, "rb") as f:
            text = f.read()
        if not text.endswith(b"\n\n"):
            text = text[:text.rfind(b"\n\n") + 2]
        head = os.path.join(tmp, "head.perf")
        base = os.path.join(tmp, "base.folded")
        with open(head, "wb") as f:
            f.write(text)
        with open(os.path.join(root, row["path"]), "rb") as f:
            folded = f.read().replace(b"_[j]", b"")
        with open(base, "wb") as f:
            f.write(folded)
        source = next(r for r in rows if r["path"] == row["role"].split(":", 1)[1])
        extra = ["--perf-names", "stackcollapse"]
        if "period=" in source.get("truth", ""):
            extra += ["--weight", "period"]
        if "samples[" in source.get("truth", ""):
            first = source["truth"].split("samples[", 1)[1].split("]", 1)[0]
            extra += ["--event", first]
        code, out, err = run(difffold, head, extra + ["--base", base, "--head"])
        checked += 1
        if code != 0:
            fail("%s: merge with its stackcollapse-perf.pl fold: exit %d: %s"
                 % (perf, code, err.strip()[:300]))
            continue
        uneven = [line for line in out.splitlines()
                  if line and not line.startswith("#")
                  and line.rsplit(" ", 2)[1] != line.rsplit(" ", 2)[2]]
        if uneven:
            fail("%s: %d stacks differ from stackcollapse-perf.pl's fold, first: %s"
                 % (perf, len(uneven), uneven[0][:300]))
        elif verbose:
            print("ok   %s merges with its stackcollapse-perf.pl fold" % perf)
    return checked


def main(argv):
    if len(argv) < 3:
        raise SystemExit(__doc__)
    difffold, root = argv[1], os.path.join(argv[2], "profilers")
    verbose = "--verbose" in argv
    failures = []
    counts = {"read": 0, "refused": 0}

    def fail(msg):
        failures.append(msg)
        print("FAIL " + msg, flush=True)

    with open(os.path.join(root, "ORIGINS.tsv"), encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        rows = [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f if line.strip()]
    for row in rows:
        path = os.path.join(root, row["path"])
        fmt, truth, notes = row["format"], row.get("truth", ""), row.get("notes", "")
        if not os.path.exists(path):
            fail("%s: missing from the conformance folder" % path)
            continue
        invalid = "/invalid/" in row["path"] or notes.startswith("firefox-devtools-export")
        if fmt.startswith(READ) and not invalid and not fmt.startswith("pprof-legacy"):
            counts["read"] += 1
            cases = truths(fmt, truth) or [([], None)]
            for extra, want in cases:
                code, out, err = run(difffold, path, extra)
                if code == 1 and (may_refuse(fmt, truth, notes, err)):
                    if verbose:
                        print("ok   %s %s: refused: %s" % (row["path"], " ".join(extra),
                                                       err.strip()[:200]))
                    continue
                if code != 0:
                    fail("%s (%s) %s: exit %d: %s" % (path, fmt, " ".join(extra), code,
                                                     err.strip()[:300]))
                    continue
                got = fold_total(out)
                if want is not None and got != want:
                    fail("%s (%s) %s: total %d, ORIGINS.tsv says %d"
                         % (path, fmt, " ".join(extra), got, want))
                elif verbose:
                    print("ok   %s %s: %d" % (row["path"], " ".join(extra), got))
        else:
            counts["refused"] += 1
            check_refused(difffold, path, fmt, notes, fail)
            if verbose:
                print("ok   %s refused" % row["path"])
    with tempfile.TemporaryDirectory(prefix="difffold-conformance-") as tmp:
        merged = merge_check(difffold, root, rows, tmp, fail, verbose)
    print("%d files read, %d refused, %d perf script files merged with their "
          "stackcollapse-perf.pl fold, %d failures"
          % (counts["read"], counts["refused"], merged, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
