#!/usr/bin/env python3
"""bench/gen-refactor.py and bench/match-score.py, small, so they do not rot.

    match_bench.py DIFFFOLD REPO

Generates a 4000-stack pair with its truth in a temporary folder, scores
difffold on it, and checks that the score has every line, that at least
90 % of the renames and of the inserted and removed wrappers were matched
(deterministic: a fixed seed), and that no rename or wrapper match is
wrong. Matching moves frames of the finished tree: no frame may be left
behind with no samples on either side (the folded output would list it
as a stack of "0 0"). The names pass keys names on one thread or two
(DIFFFOLD_MATCH_THREADS): the JSON and Markdown must be the same bytes
either way. Exits 1 with the reason.
"""

import os
import re
import subprocess
import sys
import tempfile


def main():
    exe, repo = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        base, head, truth = (os.path.join(tmp, n) for n in ("b.folded", "h.folded", "t.json"))
        subprocess.run([sys.executable, os.path.join(repo, "bench", "gen-refactor.py"),
                        "--stacks", "4000", "--seed", "7", "--out-base", base, "--out-head",
                        head, "--truth", truth], check=True)
        out = subprocess.run([sys.executable, os.path.join(repo, "bench", "match-score.py"),
                              exe, base, head, truth], check=True, stdout=subprocess.PIPE,
                             text=True).stdout
        folded = subprocess.run([exe, "-f", "folded", base, head], check=True,
                                stdout=subprocess.PIPE, text=True).stdout
        threads_agree(exe, tmp, base, head)
    print(out, end="")
    empty = [line for line in folded.splitlines() if line.endswith(" 0 0")]
    if empty:
        sys.exit("FAIL: %d frames of no samples left by matching, such as %s"
                 % (len(empty), empty[0][-120:]))
    for cls in ("renames", "wrappers_added", "wrappers_removed"):
        m = re.search(r"^%s\s+(\d+) of\s+(\d+) matched" % cls, out, re.M)
        if not m:
            sys.exit("FAIL: no %s line" % cls)
        if int(m.group(1)) < 0.9 * int(m.group(2)):
            sys.exit("FAIL: %s: %s of %s matched" % (cls, m.group(1), m.group(2)))
    for line in out.splitlines():
        if line.startswith("  wrong:") and "moved_in" not in line:
            sys.exit("FAIL: a wrong match: " + line)
    if not re.search(r"^drawn as new\s+\d+ head samples", out, re.M):
        sys.exit("FAIL: no drawn-as-new line")


def threads_agree(exe, tmp, base, head):
    """The refactoring pair, and one of 300 Rust functions whose hashes all
    changed (names spread over both threads' shares): every one matched."""
    rb, rh = os.path.join(tmp, "rust-b.folded"), os.path.join(tmp, "rust-h.folded")
    with open(rb, "w") as b, open(rh, "w") as h:
        for i in range(300):
            b.write("main;app::f%d::h%016x %d\n" % (i, 7919 * i, 10 + i % 7))
            h.write("main;app::f%d::h%016x %d\n" % (i, 104729 * i + 1, 10 + i % 5))
    for pair in ((base, head), (rb, rh)):
        for fmt in ("json", "md"):
            outs = []
            for n in ("1", "2"):
                env = dict(os.environ, DIFFFOLD_MATCH_THREADS=n)
                outs.append(subprocess.run([exe, "-f", fmt, *pair], check=True, env=env,
                                           stdout=subprocess.PIPE).stdout)
            if outs[0] != outs[1]:
                sys.exit("FAIL: -f %s differs keyed on one thread and on two" % fmt)
    if b"300 names matched across builds" not in outs[0]:
        sys.exit("FAIL: not all 300 renamed hashes matched: %r" % outs[0][:300])

if __name__ == "__main__":
    main()
