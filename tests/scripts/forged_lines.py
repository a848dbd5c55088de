#!/usr/bin/env python3
"""Frame names cannot forge lines of -f folded (issue 34 item 1).

Every reader whose names come from a table or markup (speedscope, Firefox
Profiler, DHAT, callgrind, massif, pprof, a flame graph SVG) gets names with
line breaks, carriage returns, a column mark and a leading '#'. The folded
output must hold one line a stack, no comment line but the column mark, and
read back to the same folded output.

Usage: forged_lines.py DIFFFOLD   (prints TAP-like lines, exits 1 on failure)
"""
import json
import os
import subprocess
import sys
import tempfile

# What a name would write into the folded output if it went out raw.
FORGED = "evil\nmain;forged 1000000\n# difffold: 3 columns\nx"
CR = "cr\rmain;forged 7"


def speedscope():
    # An empty name ends a stack: a folded line cannot (a trailing ';' is
    # dropped), so it must come out as a name.
    frames = [{"name": n} for n in ("#root", FORGED, CR, "")]
    return json.dumps({
        "$schema": "https://www.speedscope.app/file-format-schema.json",
        "shared": {"frames": frames},
        "profiles": [{"type": "sampled", "name": "p", "unit": "none", "startValue": 0,
                      "endValue": 5, "samples": [[0, 1], [0, 2], [1], [0, 3], [3]],
                      "weights": [1, 2, 3, 4, 5]}],
    }).encode()


def gecko():
    return json.dumps({
        "meta": {"version": 24, "preprocessedProfileVersion": 44, "interval": 1},
        "threads": [{
            "name": "#thread\n# difffold: 2 columns",
            "samples": {"stack": [1, 2], "weight": None, "length": 2},
            "stackTable": {"prefix": [None, 0, 0], "frame": [0, 1, 2]},
            "frameTable": {"func": [0, 1, 2]},
            "funcTable": {"name": [0, 1, 2]},
            "stringArray": ["#main", FORGED, CR],
        }],
    }).encode()


def dhat():
    return json.dumps({
        "dhatFileVersion": 2, "mode": "heap", "verb": "Allocated", "bklt": True,
        "bkacc": True, "tu": "instrs", "Mtu": "Minstr", "cmd": "./p", "pid": 1,
        "te": 10, "tg": 5,
        "pps": [{"tb": 30, "tbk": 1, "tl": 1, "fs": [1, 2]},
                {"tb": 40, "tbk": 1, "tl": 1, "fs": [3, 2]}],
        "ftbl": ["[root]", "0x1: " + FORGED + " (a.c:1)", "0x2: #main (a.c:2)",
                 "0x3: " + CR + " (a.c:3)"],
    }).encode()


def callgrind():
    return (b"# callgrind format\nversion: 1\npositions: line\nevents: Ir\n"
            b"fl=(1) a.c\nfn=(1) #main\n1 3\ncfn=(2) #work\rmain;forged 9\n"
            b"calls=1 9\n2 20\nfn=(2)\n9 20\n")


def massif():
    return (b"desc: (none)\ncmd: ./x\ntime_unit: i\n#-----------\nsnapshot=0\n#-----------\n"
            b"time=0\nmem_heap_B=300\nmem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=peak\n"
            b"n2: 300 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n"
            b" n1: 200 0x4005B4: #f (a.c:5)\n"
            b"  n0: 200 0x4005D0: #main (a.c:10)\n"
            b" n0: 100 0x4005E0: cr\rmain;forged 7 (b.c:1)\n")


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def field(num, payload):
    """A length-delimited protobuf field."""
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def vfield(num, n):
    return varint(num << 3) + varint(n)


def pprof():
    """profile.proto by hand: one sample type, two samples, three functions."""
    strings = ["", "samples", "count", "#main", FORGED, CR]
    out = field(1, vfield(1, 1) + vfield(2, 2))  # sample_type {type, unit}
    for locs, value in (([2, 1], 5), ([3, 1], 6)):  # leaf first
        out += field(2, field(1, b"".join(varint(x) for x in locs)) +
                     field(2, varint(value)))
    for i in (1, 2, 3):
        out += field(4, vfield(1, i) + field(4, vfield(1, i)))  # location {id, line{function_id}}
        out += field(5, vfield(1, i) + vfield(2, i + 2))  # function {id, name}
    for s in strings:
        out += field(6, s.encode())
    return out


def svg():
    """A flamegraph.pl SVG whose titles hold line breaks as character references."""
    def frame(title, x, y, w):
        return ('<g >\n<title>%s</title><rect x="%.1f" y="%.1f" width="%.1f" height="15.0" '
                'fill="rgb(1,2,3)" />\n</g>\n' % (title, x, y, w))
    body = (frame("all (10 samples, 100%)", 10, 68, 1180) +
            frame("#root&#10;# difffold: 3 columns (10 samples, 100%)", 10, 52, 1180) +
            frame("a&#10;b 5&#13;c (4 samples, 40.00%)", 10, 36, 472))
    return ('<?xml version="1.0" standalone="no"?>\n'
            '<svg version="1.1" width="1200" height="100" xmlns="http://www.w3.org/2000/svg">\n'
            '<!-- Flame graph stack visualization. -->\n'
            '<g id="frames">\n' + body + '</g>\n</svg>\n').encode()


CASES = [("speedscope", "p.speedscope.json", speedscope), ("gecko", "p.json", gecko),
         ("dhat", "dhat.json", dhat), ("callgrind", "callgrind.out.1", callgrind),
         ("massif", "massif.out.1", massif), ("pprof", "p.pb", pprof),
         ("flamegraph svg", "p.svg", svg)]


def run(exe, *args):
    return subprocess.run([exe, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, timeout=60)


def check(exe, tmp, name, path):
    first = run(exe, "-f", "folded", path)
    if first.returncode != 0:
        return "exit %d: %s" % (first.returncode, first.stderr.decode(errors="replace"))
    out = first.stdout
    if b"\r" in out:
        return "a carriage return in the folded output: %r" % out
    lines = out.split(b"\n")
    for line in lines[:-1]:
        if line.startswith(b"#") and line not in (b"# difffold: 2 columns",
                                                  b"# difffold: 3 columns"):
            return "a comment line from a name: %r" % line
    if b"forged" in out and b"forged 1000000\n" in out:
        return "a forged stack line: %r" % out
    if out.count(b"\n") != len([ln for ln in lines if ln]):
        return "not one stack a line: %r" % out
    back = os.path.join(tmp, "back.folded")
    with open(back, "wb") as f:
        f.write(out)
    again = run(exe, "-f", "folded", back)
    if again.returncode != 0 or again.stdout != out:
        return "reads back differently:\n%r\n%r" % (out, again.stdout)
    return None


def main():
    exe = sys.argv[1]
    failed = 0
    with tempfile.TemporaryDirectory(prefix="difffold-forged-") as tmp:
        for i, (name, file, make) in enumerate(CASES, 1):
            path = os.path.join(tmp, file)
            with open(path, "wb") as f:
                f.write(make())
            why = check(exe, tmp, name, path)
            print("%s %d - %s%s" % ("not ok" if why else "ok", i, name,
                                    ": " + why if why else ""))
            failed += why is not None
    print("1..%d" % len(CASES))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
