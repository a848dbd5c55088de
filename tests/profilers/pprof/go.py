#!/usr/bin/env python3
"""Profiles straight from Go's runtime/pprof, read by difffold with no option.

usage: go.py DIFFFOLD

Writes a small Go program (standard library only) into a temporary folder,
runs it to write a CPU profile (pprof.StartCPUProfile) and a heap profile
(pprof.WriteHeapProfile), and checks that difffold reads each with no
option (Go writes time_nanos first: detection must not want field 1
first) and, for every sample type, with --event TYPE, that difffold's total
equals the total `go tool pprof -top` reports. Exits 77 (skipped) without
the go command (Debian's golang-go, in .ci/setup).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

PROGRAM = r'''
package main

import (
	"os"
	"runtime"
	"runtime/pprof"
	"time"
)

var keep [][]byte

//go:noinline
func spin(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i * i % 7
	}
	return s
}

//go:noinline
func outer(deadline time.Time) int {
	s := 0
	for time.Now().Before(deadline) {
		s += spin(200000)
	}
	return s
}

//go:noinline
func allocate(n, size int) {
	for i := 0; i < n; i++ {
		keep = append(keep, make([]byte, size))
	}
}

func main() {
	runtime.MemProfileRate = 1
	cpu, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		panic(err)
	}
	outer(time.Now().Add(600 * time.Millisecond))
	pprof.StopCPUProfile()
	cpu.Close()
	allocate(300, 4096)
	allocate(50, 65536)
	runtime.GC()
	heap, err := os.Create(os.Args[2])
	if err != nil {
		panic(err)
	}
	if err := pprof.WriteHeapProfile(heap); err != nil {
		panic(err)
	}
	heap.Close()
}
'''

UNITS = {"ns": 1, "us": 1000, "ms": 1000000, "s": 1000000000,
         "B": 1, "kB": 1024, "MB": 1024 ** 2, "GB": 1024 ** 3}

passed, failures = [], []


def check(ok, what):
    (passed if ok else failures).append(what)
    print(("ok - " if ok else "FAIL - ") + what)


def pprof_total(env, path, sample_index, unit):
    """The total `go tool pprof -top` gives a sample type, in its base unit
    (-unit names it, so the figure is not rounded to a larger one)."""
    flag = {"bytes": ["-unit=B"], "nanoseconds": ["-unit=ns"]}.get(unit, [])
    r = subprocess.run(["go", "tool", "pprof", "-top", *flag,
                        "-sample_index=" + sample_index, path],
                       capture_output=True, env=env, timeout=120)
    text = r.stdout.decode()
    m = re.search(r"of ([0-9.]+)([a-zA-Z]*) total", text)
    if not m:
        m = re.search(r"Showing nodes accounting for ([0-9.]+)([a-zA-Z]*)", text)
    if not m:
        return None
    value, unit = m.group(1), m.group(2)
    return round(float(value) * UNITS.get(unit, 1))


def sample_types(env, path):
    r = subprocess.run(["go", "tool", "pprof", "-raw", path], capture_output=True, env=env,
                       timeout=120)
    lines = r.stdout.decode().splitlines()
    i = lines.index("Samples:")
    return [tuple(t.split("/")) for t in lines[i + 1].split()]


def folded_total(difffold, path, *args):
    r = subprocess.run([difffold, "-f", "folded", "-o", "/dev/stdout", *args, path],
                       capture_output=True, timeout=60)
    if r.returncode != 0:
        return None, r.stderr.decode().strip()
    total = sum(int(line.rsplit(" ", 1)[1]) for line in r.stdout.decode().splitlines()
                if line and not line.startswith("#"))
    return total, r.stderr.decode().strip()


def main(argv):
    difffold = os.path.abspath(argv[1])
    if not shutil.which("go"):
        print("SKIP: no go command (apt-get install golang-go)")
        return 77
    with tempfile.TemporaryDirectory(prefix="difffold-go-") as tmp:
        env = dict(os.environ, GOPATH=os.path.join(tmp, "gopath"),
                   GOCACHE=os.path.join(tmp, "cache"), GOFLAGS="", GOPROXY="off",
                   GOTOOLCHAIN="local", GO111MODULE="off", PPROF_TMPDIR=tmp)
        src = os.path.join(tmp, "main.go")
        with open(src, "w") as f:
            f.write(PROGRAM)
        cpu, heap = os.path.join(tmp, "cpu.pprof"), os.path.join(tmp, "heap.pprof")
        r = subprocess.run(["go", "run", src, cpu, heap], capture_output=True, env=env,
                           timeout=300, cwd=tmp)
        if r.returncode != 0:
            print("FAIL - go run: %s" % r.stderr.decode())
            return 1
        for name, path, default in (("CPU", cpu, "cpu"), ("heap", heap, "inuse_space")):
            types = dict(sample_types(env, path))
            total, err = folded_total(difffold, path)
            want = pprof_total(env, path, default, types[default])
            check(total is not None and total == want,
                  "%s profile read with no option: total %s, go tool pprof -top says %s (%s)"
                  % (name, total, want, err))
            for t, unit in types.items():
                total, err = folded_total(difffold, path, "--event", t)
                want = pprof_total(env, path, t, unit)
                check(total is not None and total == want,
                      "%s profile --event %s: total %s, go tool pprof -top says %s (%s)"
                      % (name, t, total, want, err))
    print("%d passed, %d failed" % (len(passed), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
