#!/usr/bin/env python3
"""CLI checks of the report and the gate that golden files cannot express.

- Several outputs from one read: the head profile comes from a pipe on
  standard input, which can be read only once, and both -o outputs must
  be written and agree with separate runs.
- The gate's exit codes: 0 without --fail-on-regression, 3 over the
  threshold (outputs still written, reasons on stderr), 0 under it, 0 for a
  single profile.

Usage: cli.py DIFFFOLD SOURCE_ROOT BUILD_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(exe, args, stdin=None):
    env = dict(os.environ, LC_ALL="C", NO_COLOR="1")
    return subprocess.run([exe] + args, input=stdin, capture_output=True, env=env, timeout=120)


def main():
    exe, root, build = sys.argv[1], sys.argv[2], sys.argv[3]
    data = os.path.join(root, "tests", "golden", "report", "data")
    base = os.path.join(data, "base.folded")
    head = os.path.join(data, "head.folded")
    with open(head, "rb") as f:
        head_bytes = f.read()
    labels = ["--base-label", "B", "--head-label", "H"]
    with tempfile.TemporaryDirectory(dir=build) as tmp:
        md, js = os.path.join(tmp, "r.md"), os.path.join(tmp, "r.json")
        p = run(exe, ["--base", base, "--head", "-", "-o", md, "-o", js] + labels,
                stdin=head_bytes)
        check(p.returncode == 0, f"stdin with two -o outputs exits 0 ({p.stderr!r})")
        check(os.path.exists(md) and os.path.exists(js), "both outputs written")
        want_md = run(exe, [base, head, "-f", "md"] + labels).stdout
        want_js = run(exe, [base, head, "-f", "json"] + labels).stdout
        with open(md, "rb") as f:
            check(f.read() == want_md, "Markdown from stdin equals the one from files")
        with open(js, "rb") as f:
            got = f.read()
            check(got == want_js, "JSON from stdin equals the one from files")
            summary = json.loads(got).get("summary", {})
            check(summary.get("base_total") == 9535 and summary.get("head_total") == 9567,
                  "JSON summary carries both totals")

        # Without the flag a regression is not an error.
        p = run(exe, [base, head, "-f", "md"])
        check(p.returncode == 0 and p.stderr == b"", "no gate without --fail-on-regression")

        out = os.path.join(tmp, "gate.md")
        p = run(exe, [base, head, "-o", out, "--fail-on-regression", "5"])
        check(p.returncode == 3, f"gate over the threshold exits 3 (got {p.returncode})")
        check(os.path.exists(out), "outputs are written before the gate fails")
        lines = p.stderr.decode().splitlines()
        check(len(lines) > 0 and all(l.startswith("difffold: regression: ") for l in lines),
              "stderr names each regression")
        check(any("parse_body total +9.3% of base total" in l for l in lines),
              "parse_body's growth is reported in percent of the base total")

        # parse_body grew by 885 of 9,535 (9.28%), the most of any function.
        p = run(exe, [base, head, "-f", "md", "--fail-on-regression", "9.2"])
        lines = p.stderr.decode().splitlines()
        check(p.returncode == 3 and len(lines) == 1 and "parse_body" in lines[0],
              "9.2% limit: only parse_body is over it")
        p = run(exe, [base, head, "-f", "md", "--fail-on-regression", "9.3"])
        check(p.returncode == 0 and p.stderr == b"", "9.3% limit: nothing over it, exit 0")

        p = run(exe, [head, "-f", "md", "--fail-on-regression", "0"])
        check(p.returncode == 2 and b"compare two profiles" in p.stderr,
              "a gate given with a single profile is a usage error (exit 2)")

        p = run(exe, [base, head, "-f", "md", "--fail-on-regression", "-1"])
        check(p.returncode == 2, "a negative threshold is a usage error")
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
