#!/usr/bin/env python3
"""Hostile profiles against the readers: each must end within seconds with
exit 1 and a message naming the file and the bound or the reason, never
exit 0 with a wrong or empty graph. The files are made here, at test time
(docs/untrusted-input.md lists the figures they cost before the bounds).

Usage: hostile_readers.py DIFFFOLD   (prints TAP-like lines, exits 1 on failure)
"""
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time
import zlib

# A hang guard, not a timing: before the bounds some of these took a
# minute and more; now they take a second or less on the project's VM.
SECONDS = 30


def varint(v):
    out = bytearray()
    while True:
        b, v = v & 0x7F, v >> 7
        out.append(b | 0x80 if v else b)
        if not v:
            return bytes(out)


def field_varint(n, v):
    return varint(n << 3) + varint(v)


def field_bytes(n, b):
    return varint(n << 3 | 2) + varint(len(b)) + b


def pprof_tables(function_id=1, strings=(b"", b"cpu", b"nanoseconds", b"f")):
    """sample_type cpu/nanoseconds, function 1 named "f", the string table."""
    out = field_bytes(5, field_varint(1, function_id) + field_varint(2, 3))
    for s in strings:
        out += field_bytes(6, s)
    return out


def line(function_id=1):
    return field_bytes(4, field_varint(1, function_id))


def pprof_inlining(samples=200, repeat=16, lines=200000):
    """One location of `lines` inlined lines, named `repeat` times by each
    sample: 2 KB of gzip asking for 640 million frames."""
    p = field_bytes(1, field_varint(1, 1) + field_varint(2, 2))
    for k in range(samples):
        locs = b"".join(field_varint(1, 1) for _ in range(repeat)) + field_varint(1, 2 + k)
        p += field_bytes(2, locs + field_varint(2, 1))
    p += field_bytes(4, field_varint(1, 1) + line() * lines)
    for k in range(samples):
        p += field_bytes(4, field_varint(1, 2 + k) + line())
    return gzip.compress(p + pprof_tables(), 9)


def pprof_bomb(path, mib):
    """A string table inflating to `mib` MiB from a few hundred KB of gzip."""
    z = zlib.compressobj(9, zlib.DEFLATED, 31)
    head = field_bytes(1, field_varint(1, 1) + field_varint(2, 2))
    head += field_bytes(2, field_varint(1, 1) + field_varint(2, 1))
    head += field_bytes(4, field_varint(1, 1) + line()) + pprof_tables()
    with open(path, "wb") as f:
        f.write(z.compress(head))
        chunk = field_bytes(6, bytes(1021)) * 1024
        for _ in range(mib):
            f.write(z.compress(chunk))
        f.write(z.flush())


def pprof_id(location_id):
    """One sample at one location of the given id."""
    p = field_bytes(1, field_varint(1, 1) + field_varint(2, 2))
    p += field_bytes(2, field_varint(1, location_id) + field_varint(2, 7))
    p += field_bytes(4, field_varint(1, location_id) + line())
    return p + pprof_tables()


def pprof_wide(n):
    """n samples, each at a function of its own: n + 1 frames."""
    p = field_bytes(1, field_varint(1, 1) + field_varint(2, 2))
    for k in range(1, n + 1):
        p += field_bytes(2, field_varint(1, k) + field_varint(2, 1))
        p += field_bytes(4, field_varint(1, k) + line(k))
        p += field_bytes(5, field_varint(1, k) + field_varint(2, 2 + k))
    strings = [b"", b"cpu", b"nanoseconds"] + [b"f%d" % k for k in range(1, n + 1)]
    return p + b"".join(field_bytes(6, s) for s in strings)


def pprof_empty():
    return field_bytes(1, field_varint(1, 1) + field_varint(2, 2)) + pprof_tables()


CALLGRIND_HEAD = "# callgrind format\nversion: 1\nevents: Ir\n\n"


def callgrind_diamonds(n):
    """d_i calls a_i and b_i, both call d_i+1: 2^n paths from 40 bytes a
    level, their inclusive costs so high that none falls under the floor."""
    out = [CALLGRIND_HEAD]
    big = 10**18
    for i in range(n):
        out.append("fn=d%d\n0 1\n" % i)
        if i + 1 < n:
            for side in "ab":
                out.append("cfn=%s%d\ncalls=1 0\n0 %d\n" % (side, i, big))
            for side in "ab":
                out.append("fn=%s%d\n0 1\ncfn=d%d\ncalls=1 0\n0 %d\n" % (side, i, i + 1, big))
    return "".join(out).encode()


CALLGRIND_QUOTES = CALLGRIND_HEAD + """fn=main
0 1
cfn=for<'a> fn(&'a u8)
calls=1 0
0 10
cfn=for<'b> fn(&'b u8)
calls=1 0
0 20
fn=for<'a> fn(&'a u8)
0 10
fn=for<'b> fn(&'b u8)
0 20
fn=x'
0 5
"""

# --separate-callers and --separate-recs: the contexts valgrind writes.
CALLGRIND_CONTEXTS = CALLGRIND_HEAD + """fn=main
0 1
cfn=f'main
calls=1 0
0 10
cfn=g'main
calls=1 0
0 20
fn=f'main
0 10
fn=g'main
0 15
cfn=f'g
calls=1 0
0 5
fn=f'g
0 5
"""

MASSIF_HEAD = """desc: (none)
cmd: ./x
time_unit: i
"""


def massif_snapshot(n, kind, tree):
    return ("#-----------\nsnapshot=%d\n#-----------\ntime=%d\nmem_heap_B=10\n"
            "mem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=%s\n%s" % (n, n, kind, tree))


MASSIF_TREE = ("n1: 10 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n"
               " n0: 10 0x1: main (x.c:1)\n")
MASSIF_TWO_PEAKS = MASSIF_HEAD + massif_snapshot(0, "peak", MASSIF_TREE) + \
    massif_snapshot(1, "peak", MASSIF_TREE)

SPEEDSCOPE = {"$schema": "https://www.speedscope.app/file-format-schema.json",
              "shared": {"frames": [{"name": "a"}]}}


def speedscope(profile):
    p = dict({"name": "x", "unit": "none", "startValue": 0, "endValue": 1}, **profile)
    return json.dumps(dict(SPEEDSCOPE, profiles=[p])).encode()


def speedscope_text(text):
    """A speedscope file written by hand: json.dumps cannot repeat a key."""
    return ('{"$schema":"https://www.speedscope.app/file-format-schema.json",%s}'
            % text).encode()


SAMPLED = '{"type":"sampled","unit":"none","samples":[[0]],"weights":[%d]}'


def gecko(samples):
    thread = {"name": "main", "samples": samples,
              "stackTable": {"prefix": [None], "frame": [0]},
              "frameTable": {"func": [0]}, "funcTable": {"name": [0]},
              "stringArray": ["main"]}
    return json.dumps({"meta": {"preprocessedProfileVersion": 44}, "threads": [thread]}).encode()


GECKO_TABLES = ('"stackTable":{"prefix":[null],"frame":[0]},"frameTable":{"func":[0]},'
                '"funcTable":{"name":[0]},"stringArray":["main"]')
GECKO_SAMPLES = '"samples":{"stack":[0,0],"weight":null}'


def gecko_text(thread, top=""):
    """A Firefox Profiler file written by hand, to repeat a key."""
    return ('{"meta":{"preprocessedProfileVersion":44},%s"threads":[{"name":"main",%s}]}'
            % (top, thread)).encode()


def dhat_text(body):
    return ('{"dhatFileVersion":2,"mode":"heap","verb":"Allocated","bklt":true,'
            '"bkacc":true,"tu":"instrs","Mtu":"Minstr","cmd":"./x","pid":1,"te":1,"tg":1,'
            '%s}' % body).encode()


DHAT_PP = '{"tb":5,"tbk":1,"fs":[1]}'

DHAT_EMPTY = json.dumps({"dhatFileVersion": 2, "mode": "heap", "verb": "Allocated",
                         "bklt": True, "bkacc": True, "tu": "instrs", "Mtu": "Minstr",
                         "cmd": "./x", "pid": 1, "te": 1, "tg": 1, "pps": [],
                         "ftbl": ["[root]"]}).encode()

PERF_TWO_EVENTS = (b"prog 1 [000] 1.0: 1 cyc\x1b[2Jles:\n\t1 f (a)\n\n"
                   b"prog 1 [000] 1.0: 1 in\xe2\x80\xaestr:\n\t1 f (a)\n\n")

# A first stack line longer than the 64 KiB format detection sees.
PERF_LONG_FRAME = (b"prog 1 [000] 1.0: 1 cycles:\n\t1000 " + b"T<" * 40000 +
                   b" (/bin/prog)\n\t1001 main (/bin/prog)\n\n")

GOOD = b"main;f 10\n"


def files():
    """name -> bytes of every input the cases use."""
    return {
        "good.folded": GOOD,
        "inline.pb.gz": pprof_inlining(),
        "diamond-small.callgrind": callgrind_diamonds(300),
        "diamond.callgrind": callgrind_diamonds(1000),
        "quotes.callgrind": CALLGRIND_QUOTES.encode(),
        "contexts.callgrind": CALLGRIND_CONTEXTS.encode(),
        "zero.callgrind": (CALLGRIND_HEAD + "fn=main\n0 0\n").encode(),
        "object.callgrind": (CALLGRIND_HEAD + "ob=/tmp/a;b/lib;x.so\nfn=main\n0 1\n"
                             "cfn=f\ncalls=1 0\n0 5\nfn=f\n0 5\n").encode(),
        "two-peaks.massif": MASSIF_TWO_PEAKS.encode(),
        "empty.pb": pprof_empty(),
        "wide.pb": pprof_wide(200),
        "id-max.pb": pprof_id(2**64 - 1),
        "no-samples.speedscope.json": speedscope({"type": "sampled", "weights": []}),
        "samples-number.speedscope.json": speedscope(
            {"type": "sampled", "samples": 5, "weights": []}),
        "no-events.speedscope.json": speedscope({"type": "evented"}),
        "empty-samples.speedscope.json": speedscope(
            {"type": "sampled", "samples": [], "weights": []}),
        "two-frames.speedscope.json": speedscope_text(
            '"shared":{"frames":[{"name":"a"}],"frames":[{"name":"b"}]},"profiles":[%s]'
            % (SAMPLED % 1)),
        "two-profiles.speedscope.json": speedscope_text(
            '"shared":{"frames":[{"name":"a"}]},"profiles":[%s],"profiles":[%s]'
            % (SAMPLED % 1, SAMPLED % 5)),
        "stack-number.json": gecko({"stack": 5, "weight": None}),
        "zero-samples.json": gecko({"stack": [], "weight": None, "length": 0}),
        "empty.dhat.json": DHAT_EMPTY,
        # Keys twice: JSON.parse keeps the last, a streaming reader added both.
        "two-samples.json": gecko_text(GECKO_TABLES + "," + GECKO_SAMPLES + "," + GECKO_SAMPLES),
        "two-stacks.json": gecko_text(
            GECKO_TABLES + ',"samples":{"stack":[0],"weight":null,"stack":[0,0,0]}'),
        "two-weights.json": gecko_text(
            GECKO_TABLES + ',"samples":{"stack":[0],"weight":[3],"weight":[4]}'),
        "two-frame-columns.json": gecko_text(
            GECKO_TABLES.replace('"frame":[0]', '"frame":[0],"frame":[0]') + ","
            + GECKO_SAMPLES),
        "prefix-and-offset.json": gecko_text(
            GECKO_TABLES.replace('"prefix":[null]', '"prefix":[null],"prefixOffset":[0]')
            + "," + GECKO_SAMPLES),
        "two-string-tables.json": gecko_text(
            GECKO_TABLES + ',"stringTable":["other"],' + GECKO_SAMPLES),
        "two-thread-names.json": gecko_text(
            GECKO_TABLES + ',"name":"other",' + GECKO_SAMPLES),
        "two-threads-keys.json": gecko_text(
            GECKO_TABLES + "," + GECKO_SAMPLES,
            '"threads":[{"name":"old",%s,%s}],' % (GECKO_TABLES, GECKO_SAMPLES)),
        "two-shared.json": gecko_text(
            GECKO_SAMPLES,
            '"shared":{"stringArray":["main"]},"shared":{"stringArray":["x"]},'
            ).replace(b'"name":"main",', b'"name":"main",' + GECKO_TABLES.split(
                ',"stringArray"')[0].encode() + b","),
        "two-pps.dhat.json": dhat_text('"pps":[%s],"pps":[%s],"ftbl":["[root]","f"]'
                                       % (DHAT_PP, DHAT_PP)),
        "two-fs.dhat.json": dhat_text('"pps":[{"tb":5,"fs":[1],"fs":[1]}],"ftbl":["[root]","f"]'),
        "two-ftbl.dhat.json": dhat_text('"pps":[%s],"ftbl":["[root]","f"],"ftbl":["g"]'
                                        % DHAT_PP),
        "two-events.perf": PERF_TWO_EVENTS,
        "long-frame.perf": PERF_LONG_FRAME,
    }


# (name, arguments, exit code, texts stderr must hold, texts stdout must hold)
CASES = [
    ("pprof inlining: the work bound", ["good.folded", "inline.pb.gz"], 1,
     ["inline.pb.gz: reading it walks more than 4000000 frames", "--max-work"], []),
    ("pprof inlining: --max-work raises the floor past the file", [
        "--max-work", "1000", "good.folded", "inline.pb.gz"], 1,
     ["inline.pb.gz: reading it walks more than", "at least --max-work 1000"], []),
    ("pprof gzip bomb: the kept-bytes bound", ["good.folded", "bomb.pb.gz"], 1,
     ["bomb.pb.gz: its gzip data inflates to more than 67108864 bytes", "gunzip"], []),
    ("callgrind diamonds: the work bound", ["good.folded", "diamond-small.callgrind"], 1,
     ["diamond-small.callgrind: reading it walks more than", "--max-work"], []),
    ("callgrind diamonds past --max-frames: an error, not a cut",
     ["--max-frames", "100000", "good.folded", "diamond.callgrind"], 1,
     ["diamond.callgrind: the call graph expands to more than 100000 frames",
      "--max-frames"], []),
    ("callgrind: names with ' and no contexts are kept whole", [
        "-f", "folded", "quotes.callgrind"], 0, [],
     ["main;for<'a> fn(&'a u8) 10\n", "main;for<'b> fn(&'b u8) 20\n", "x' 5\n"]),
    ("callgrind: valgrind's call contexts still merge", [
        "-f", "folded", "contexts.callgrind"], 0, [],
     ["main;f 10\n", "main;g 15\n", "main;g;f 5\n"]),
    ("callgrind --objects: a ';' in the object's path makes no second frame", [
        "--objects", "-f", "folded", "object.callgrind"], 0, [],
     ["main [lib:x.so] 1\n", "main [lib:x.so];f [lib:x.so] 5\n"]),
    ("callgrind with no cost", ["good.folded", "zero.callgrind"], 1,
     ["zero.callgrind: the profile has no sample"], []),
    ("massif with two peak snapshots", ["-f", "folded", "two-peaks.massif"], 1,
     ["two-peaks.massif:", "a second peak snapshot"], []),
    ("pprof without samples", ["good.folded", "empty.pb"], 1, ["empty.pb:"], []),
    ("pprof: --max-frames applies", ["--max-frames", "100", "good.folded", "wide.pb"], 1,
     ["wide.pb: byte offset", "the merged tree would have more than 100 frames",
      "(see --max-frames)"], []),
    ("pprof: under --max-frames it reads", ["--max-frames", "300", "-f", "folded", "wide.pb"],
     0, [], ["f1 1\n", "f200 1\n"]),
    ("pprof id 2^64-1", ["-f", "folded", "id-max.pb"], 0, [], ["f 7\n"]),
    ("speedscope sampled without samples", ["good.folded", "no-samples.speedscope.json"], 1,
     ["no-samples.speedscope.json:1: a sampled profile has no \"samples\" array"], []),
    ("speedscope samples as a number", ["good.folded", "samples-number.speedscope.json"], 1,
     ["samples-number.speedscope.json:1: a profile's \"samples\" is not an array"], []),
    ("speedscope evented without events", ["good.folded", "no-events.speedscope.json"], 1,
     ["no-events.speedscope.json:1: an evented profile has no \"events\" array"], []),
    ("speedscope with no sample", ["good.folded", "empty-samples.speedscope.json"], 1,
     ["empty-samples.speedscope.json: the profile has no sample"], []),
    ("speedscope with a key twice (JSON.parse keeps the last): refused",
     ["good.folded", "two-frames.speedscope.json"], 1,
     ["two-frames.speedscope.json:1: a second \"frames\" key in \"shared\""], []),
    ("speedscope with two profiles arrays: refused",
     ["good.folded", "two-profiles.speedscope.json"], 1,
     ["two-profiles.speedscope.json:1: a second \"profiles\" key"], []),
    ("Firefox stack as a number", ["good.folded", "stack-number.json"], 1,
     ["stack-number.json:1: a thread's samples' \"stack\" is not an array"], []),
    ("Firefox thread with no sample", ["good.folded", "zero-samples.json"], 1,
     ["zero-samples.json: the profile has no sample"], []),
    ("DHAT with no program point", ["good.folded", "empty.dhat.json"], 1,
     ["empty.dhat.json:"], []),
    # A key read once, twice (JSON.parse keeps the last): refused as speedscope's are.
    ("Firefox thread with two samples keys", ["good.folded", "two-samples.json"], 1,
     ["two-samples.json:1: a second \"samples\" key in a thread"], []),
    ("Firefox samples with two stack keys", ["good.folded", "two-stacks.json"], 1,
     ["two-stacks.json:1: a second \"stack\" key in a thread's \"samples\""], []),
    ("Firefox samples with two weight keys", ["good.folded", "two-weights.json"], 1,
     ["two-weights.json:1: a second \"weight\" key in a thread's \"samples\""], []),
    ("Firefox stack table with two frame columns", ["good.folded", "two-frame-columns.json"],
     1, ["two-frame-columns.json:1: a second \"frame\" key in a thread"], []),
    ("Firefox stack table with prefix and prefixOffset",
     ["good.folded", "prefix-and-offset.json"], 1,
     ["prefix-and-offset.json:1: a second \"prefixOffset\" key in a thread"], []),
    ("Firefox thread with stringArray and stringTable",
     ["good.folded", "two-string-tables.json"], 1,
     ["two-string-tables.json:1: a second \"stringTable\" key in a thread"], []),
    ("Firefox thread with two names", ["good.folded", "two-thread-names.json"], 1,
     ["two-thread-names.json:1: a second \"name\" key in a thread"], []),
    ("Firefox profile with two threads keys", ["good.folded", "two-threads-keys.json"], 1,
     ["two-threads-keys.json:1: a second \"threads\" key in the profile"], []),
    ("Firefox profile with two shared keys", ["good.folded", "two-shared.json"], 1,
     ["two-shared.json:1: a second \"shared\" key in the profile"], []),
    ("DHAT with two pps keys", ["good.folded", "two-pps.dhat.json"], 1,
     ["two-pps.dhat.json:1: a second \"pps\" key in the DHAT file"], []),
    ("DHAT program point with two fs keys", ["good.folded", "two-fs.dhat.json"], 1,
     ["two-fs.dhat.json:1: a second \"fs\" key in a program point"], []),
    ("DHAT with two ftbl keys", ["good.folded", "two-ftbl.dhat.json"], 1,
     ["two-ftbl.dhat.json:1: a second \"ftbl\" key in the DHAT file"], []),
    ("perf: a first stack line past the detection window", [
        "-f", "folded", "long-frame.perf"], 0, [], ["prog;main;T<T<T<"]),
    ("perf event names escaped", ["two-events.perf"], 1,
     ["cyc\\x1b[2Jles", "in<U+202E>str"], []),
]


def run(exe, tmp, args):
    start = time.monotonic()
    try:
        # A text report unless the case asks for another format.
        cmd = [exe] + args + ([] if "-f" in args else ["-f", "text"])
        proc = subprocess.run(cmd, cwd=tmp, capture_output=True, timeout=60,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None, b"", b"", 60.0
    return proc.returncode, proc.stdout, proc.stderr, time.monotonic() - start


def main():
    exe = os.path.abspath(sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="difffold-hostile-readers-")
    for name, data in files().items():
        with open(os.path.join(tmp, name), "wb") as f:
            f.write(data)
    pprof_bomb(os.path.join(tmp, "bomb.pb.gz"), 100)
    failed = 0
    for name, args, want, errs, outs in CASES:
        code, out, err, took = run(exe, tmp, args)
        why = []
        if code != want:
            why.append("exit %s, expected %d" % (code, want))
        if took > SECONDS:
            why.append("took %.1f s, more than %d" % (took, SECONDS))
        text = err.decode("utf-8", "replace")
        why += ["stderr lacks %r" % e for e in errs if e not in text]
        why += ["stdout lacks %r" % o for o in outs if o.encode() not in out]
        if b"\x1b" in err or "\u202e" in text:
            why.append("stderr holds a raw escape or bidi control")
        print("%s %s (%.2f s)" % ("not ok" if why else "ok  ", name, took))
        for w in why:
            print("  " + w)
        if why:
            print("  stderr: %r" % err[:400])
        failed += bool(why)
    print("%d of %d failed" % (failed, len(CASES)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
