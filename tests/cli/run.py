#!/usr/bin/env python3
"""Golden CLI cases of difffold: tests/cli/<case>/.

Usage: run.py DIFFFOLD [CASE...]      BLESS=1 run.py DIFFFOLD  (rewrite expectations)

A case is a folder holding:
  args           the arguments, one a line (an empty line is an empty argument).
                 $SHARED stands for ../shared beside the repository (the
                 conformance data, referenced, never copied), $REPO for the
                 repository. Other paths are relative to the case folder.
  stdin          optional: fed to standard input (otherwise /dev/null)
  sort           optional flag: compare standard output as a sorted set of lines
  close_stdout   optional: a byte count; the runner reads that much of standard
                 output and then closes the pipe (`difffold ... | head`)
  expected.out   standard output        (absent: empty)
  expected.out.ref  instead of expected.out: the path ($SHARED/...) of a file
                 whose lines standard output must equal, so third-party
                 results are referenced, not copied
  expected.err   standard error         (absent: empty)
  expected.code  exit status            (absent: 0)
  expected.out.lines  instead of expected.out: lines that must each appear
                 as a whole line of standard output (for --help, which grows)
  same_as        instead of expected.out: other arguments (same syntax as
                 args) whose standard output must be byte-identical, e.g.
                 split inputs against the whole file, nothing stored
  expected.file.NAME  a file NAME the run must create (compared byte for byte)

Each case runs in a fresh temporary copy of its folder, so the source tree is
never written. After the run the folder must hold exactly the case's files
plus the expected.file.* outputs: a failed or atomic write leaves nothing
else behind. In outputs the absolute paths of $SHARED and $REPO are shown as
those names again, so expectations do not depend on the machine. A case that
uses $SHARED is skipped when that folder is absent.
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SHARED = os.path.join(os.path.dirname(REPO), "shared")
BLESS = os.environ.get("BLESS") == "1"


def read(path, default=b""):
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return default


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def unexpand(data):
    for name, path in (("$SHARED", os.path.realpath(SHARED)), ("$SHARED", SHARED),
                       ("$REPO", os.path.realpath(REPO)), ("$REPO", REPO)):
        data = data.replace(path.encode(), name.encode())
    return data


def sort_lines(data):
    lines = data.splitlines(keepends=True)
    lines = [l if l.endswith(b"\n") else l + b"\n" for l in lines]
    return b"".join(sorted(lines))


def expand(args):
    return [a.replace("$SHARED", SHARED).replace("$REPO", REPO) for a in args]


def execute(exe, case_dir, args):
    """Runs difffold in a temporary copy of the case folder."""
    with tempfile.TemporaryDirectory(prefix="difffold-cli-") as tmp:
        work = os.path.join(tmp, "case")
        shutil.copytree(case_dir, work, symlinks=True)
        before = set(os.listdir(work))
        stdin_path = os.path.join(work, "stdin")
        stdin = open(stdin_path, "rb") if os.path.exists(stdin_path) else subprocess.DEVNULL
        close_after = read(os.path.join(case_dir, "close_stdout"), None)
        try:
            proc = subprocess.Popen([exe] + args, cwd=work, stdin=stdin,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    env=dict(os.environ, LC_ALL="C", NO_COLOR="1"))
            if close_after is not None:
                out = proc.stdout.read(int(close_after))
                proc.stdout.close()
                err = proc.stderr.read()
                proc.wait(timeout=60)
            else:
                out, err = proc.communicate(timeout=60)
        finally:
            if stdin is not subprocess.DEVNULL:
                stdin.close()
        made = sorted(set(os.listdir(work)) - before)
        files = {name: read(os.path.join(work, name)) for name in made
                 if os.path.isfile(os.path.join(work, name))}
    return out, err, proc.returncode, made, files


def run_case(exe, case_dir):
    """Returns (status, details): status is 'ok', 'fail' or 'skip'."""
    raw_args = read(os.path.join(case_dir, "args")).decode("utf-8")
    args = raw_args.split("\n")
    if args and args[-1] == "":
        args.pop()
    if any("$SHARED" in a for a in args) and not os.path.isdir(SHARED):
        return "skip", "no " + SHARED
    args = expand(args)
    out, err, code, made, files = execute(exe, case_dir, args)
    same_as = read(os.path.join(case_dir, "same_as"), None)
    if same_as is not None:
        other = expand([a for a in same_as.decode("utf-8").split("\n")][:-1])
        ref_out = unexpand(execute(exe, case_dir, other)[0])
    out, err = unexpand(out), unexpand(err)
    if os.path.exists(os.path.join(case_dir, "sort")):
        out = sort_lines(out)
        if same_as is not None:
            ref_out = sort_lines(ref_out)

    ref = read(os.path.join(case_dir, "expected.out.ref"), None)
    if BLESS:
        if ref is None and same_as is None and not os.path.exists(
                os.path.join(case_dir, "expected.out.lines")):
            write(os.path.join(case_dir, "expected.out"), out)
        write(os.path.join(case_dir, "expected.err"), err)
        write(os.path.join(case_dir, "expected.code"), b"%d\n" % code)
        for old in os.listdir(case_dir):
            if old.startswith("expected.file."):
                os.remove(os.path.join(case_dir, old))
        for name, data in files.items():
            write(os.path.join(case_dir, "expected.file." + name), data)
        return "ok", "blessed"

    problems = []
    want_code = int(read(os.path.join(case_dir, "expected.code"), b"0").strip() or b"0")
    if code != want_code:
        problems.append("exit code %d, expected %d" % (code, want_code))
    for what, got, name in (("stdout", out, "expected.out"), ("stderr", err, "expected.err")):
        want = read(os.path.join(case_dir, name))
        lines_path = os.path.join(case_dir, "expected.out.lines")
        if what == "stdout" and os.path.exists(lines_path):
            have = set(got.splitlines())
            missing = [l for l in read(lines_path).splitlines() if l not in have]
            if missing:
                problems.append("stdout lacks lines:\n%s" % b"\n".join(missing).decode())
            continue
        if what == "stdout" and same_as is not None:
            want = ref_out
        elif what == "stdout" and ref is not None:
            want = read(ref.decode().strip().replace("$SHARED", SHARED))
            if os.path.exists(os.path.join(case_dir, "sort")):
                want = sort_lines(want)
        if got != want:
            problems.append("%s differs:\n%s" % (what, show_diff(want, got)))
    want_files = {n[len("expected.file."):] for n in os.listdir(case_dir)
                  if n.startswith("expected.file.")}
    if set(made) != want_files:
        problems.append("files created: %s, expected: %s" % (made, sorted(want_files)))
    for name in sorted(want_files & set(files)):
        if files[name] != read(os.path.join(case_dir, "expected.file." + name)):
            problems.append("file %s differs" % name)
    return ("fail", "\n".join(problems)) if problems else ("ok", "")


def show_diff(want, got):
    import difflib
    lines = difflib.unified_diff(want.decode("utf-8", "replace").splitlines(),
                                 got.decode("utf-8", "replace").splitlines(),
                                 "expected", "actual", lineterm="", n=2)
    text = "\n".join(list(lines)[:40])
    return text or "(differ in bytes not shown: %r vs %r)" % (want[:80], got[:80])


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    exe = os.path.abspath(argv[1])
    names = argv[2:] or sorted(n for n in os.listdir(HERE)
                               if os.path.isfile(os.path.join(HERE, n, "args")))
    failed = skipped = 0
    for name in names:
        status, details = run_case(exe, os.path.join(HERE, name))
        print("%-5s %s%s" % (status.upper(), name, (": " + details) if details else ""))
        failed += status == "fail"
        skipped += status == "skip"
    print("%d cases, %d failed, %d skipped" % (len(names), failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
