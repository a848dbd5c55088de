#!/usr/bin/env python3
"""Golden CLI cases of the report formats and the regression gate.

Each folder tests/report/<case>/ holding an `args` file is a case:
  args    one command-line argument a line; paths are relative to the
          source root, which is the working directory
  stdout  expected standard output
  stderr  expected standard error (optional; compared when present)
  exit    expected exit code (optional; default 0)
A case whose inputs under ../shared are absent (a checkout without the
shared conformance data) is skipped, not failed.

Usage: run.py DIFFFOLD SOURCE_ROOT      (BLESS=1 rewrites the expectations)
"""
import os
import subprocess
import sys


def read(path, default=None):
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return default


def missing_input(args, root):
    for a in args:
        if a.startswith("../") and not os.path.exists(os.path.join(root, a)):
            return a
    return None


def run_case(exe, root, case, bless):
    args = read(os.path.join(case, "args")).decode().splitlines()
    args = [a for a in args if a]
    gone = missing_input(args, root)
    if gone:
        print(f"SKIP {os.path.basename(case)}: {gone} not found")
        return None
    env = dict(os.environ, LC_ALL="C", NO_COLOR="1")
    p = subprocess.run([exe] + args, cwd=root, capture_output=True, env=env, timeout=120)
    name = os.path.basename(case)
    if bless:
        with open(os.path.join(case, "stdout"), "wb") as f:
            f.write(p.stdout)
        if p.stderr or os.path.exists(os.path.join(case, "stderr")):
            with open(os.path.join(case, "stderr"), "wb") as f:
                f.write(p.stderr)
        if p.returncode != 0:
            with open(os.path.join(case, "exit"), "w") as f:
                f.write(f"{p.returncode}\n")
        print(f"BLESS {name} (exit {p.returncode})")
        return True
    ok = True
    want_exit = int((read(os.path.join(case, "exit"), b"0")).decode().strip())
    if p.returncode != want_exit:
        print(f"FAIL {name}: exit {p.returncode}, expected {want_exit}")
        ok = False
    for stream, got in (("stdout", p.stdout), ("stderr", p.stderr)):
        want = read(os.path.join(case, stream))
        if want is None and stream == "stderr":
            if got:
                sys.stdout.write(got.decode(errors="replace"))
            continue
        if got != want:
            print(f"FAIL {name}: {stream} differs from {os.path.join(case, stream)}")
            diff_lines(want or b"", got)
            ok = False
    if ok:
        print(f"ok   {name}")
    return ok


def diff_lines(want, got):
    import difflib
    d = difflib.unified_diff(
        want.decode(errors="replace").splitlines(),
        got.decode(errors="replace").splitlines(),
        "expected", "got", lineterm="", n=2)
    for i, line in enumerate(d):
        if i > 60:
            print("...")
            break
        print(line)


def main():
    exe, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    bless = os.environ.get("BLESS") == "1"
    here = os.path.dirname(os.path.abspath(__file__))
    cases = sorted(
        os.path.join(here, d) for d in os.listdir(here)
        if os.path.isfile(os.path.join(here, d, "args")))
    results = [run_case(exe, root, c, bless) for c in cases]
    ran = [r for r in results if r is not None]
    if not ran:
        return 77
    return 0 if all(ran) else 1


if __name__ == "__main__":
    sys.exit(main())
