#!/usr/bin/env python3
"""Issue 34 item 6: --runs keeps memory bounded by the tree (its nodes and
names), not by runs times names. 200 + 200 small runs, each of names no
other run has (the worst case: every run adds to the tree), are read under
an address-space limit that one double a node a run would exceed (about
1.5 GB) and sums a node do not. The runs are made here, at test time.

Usage: runs_memory.py DIFFFOLD [RUNS NAMES LIMIT_MB]
"""
import os
import random
import resource
import subprocess
import sys
import tempfile


def limit(mb):
    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (mb << 20, mb << 20))
    return apply


def sanitized(exe):
    with open(exe, "rb") as f:
        data = f.read()
    return b"__asan_init" in data or b"__ubsan_handle" in data


def main():
    exe = sys.argv[1]
    if sanitized(exe):
        # The sanitizers reserve terabytes of address space: the limit would stop them.
        print("ok 1 # SKIP sanitizer build (RLIMIT_AS stops the sanitizer itself)")
        return 0
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    names = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    limit_mb = int(sys.argv[4]) if len(sys.argv) > 4 else 512
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        args = [exe, "--runs", "-f", "json", "-o", os.path.join(tmp, "out.json")]
        for side in ("base", "head"):
            for k in range(runs):
                rng = random.Random(f"{side}-{k}")
                path = os.path.join(tmp, f"{side}-{k}.folded")
                with open(path, "w") as f:
                    for i in range(names):
                        f.write(f"main;w{i % 5};fn_{rng.getrandbits(32):08x} "
                                f"{rng.randint(1, 40)}\n")
                args += ["--" + side, path]
        p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           stdin=subprocess.DEVNULL, timeout=240,
                           preexec_fn=limit(limit_mb))
        ok = p.returncode == 0 and os.path.getsize(os.path.join(tmp, "out.json")) > 0
        print(f"{'ok' if ok else 'not ok'} 1 - {runs} + {runs} runs of {names} names "
              f"each under a {limit_mb} MB address space (exit {p.returncode})")
        if not ok:
            sys.stderr.write(p.stderr.decode(errors="replace")[-2000:])
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
