#!/usr/bin/env python3
"""pprof profiles (profile.proto) made by hand, with the folded stacks
difffold must read from them. Standard library only: the protobuf wire
format is encoded here (varints, length-delimited fields), gzip by gzip
with mtime 0, so every file is the same byte for byte in every run.

usage: gen.py OUTDIR            every shape: NAME.pb.gz, NAME.expected
       gen.py --big MB OUT      one large gzip profile of about MB MiB
                                 (uncompressed), for bench/run

The expected folded stacks come from the model below (`Profile.folded`),
written from the format's documentation, not from difffold: locations are
listed leaf first, a location's lines innermost first; difffold draws root
first, each line a frame; a location without lines is 0x<address>, or
<file's base name>+0x<offset> when its mapping names a file.

Field numbers: github.com/google/pprof proto/profile.proto.
"""
import collections
import gzip
import io
import os
import random
import sys


def varint(v):
    if v < 0:
        v += 1 << 64  # int64 fields: two's complement, ten bytes
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def field_varint(num, v):
    return varint(num << 3) + varint(v)


def field_bytes(num, data):
    return varint(num << 3 | 2) + varint(len(data)) + data


def packed(num, values):
    return field_bytes(num, b"".join(varint(v) for v in values)) if values else b""


class Profile:
    """A profile built from high-level parts; encode() writes its bytes."""

    def __init__(self):
        self.strings = [""]
        self.index = {"": 0}
        self.types, self.samples = [], []
        self.mappings, self.locations, self.functions = {}, {}, {}
        self.default_type = None
        self.extra = []  # raw top-level fields, for edge cases

    def s(self, text):
        if text not in self.index:
            self.index[text] = len(self.strings)
            self.strings.append(text)
        return self.index[text]

    def sample_type(self, typ, unit):
        self.types.append((self.s(typ), self.s(unit)))

    def function(self, fid, name, system_name=""):
        self.functions[fid] = (self.s(name), self.s(system_name))

    def mapping(self, mid, start, offset, filename):
        self.mappings[mid] = (start, offset, self.s(filename))

    def location(self, lid, functions=(), mapping=0, address=0):
        self.locations[lid] = (list(functions), mapping, address)

    def sample(self, locations, values):
        self.samples.append((list(locations), list(values)))

    # encoding

    def _messages(self):
        vt = [field_bytes(1, field_varint(1, t) + field_varint(2, u)) for t, u in self.types]
        sm = [field_bytes(2, packed(1, l) + packed(2, v)) for l, v in self.samples]
        mp = [field_bytes(3, field_varint(1, m) + field_varint(2, st) + field_varint(3, st + 0x10000)
                          + field_varint(4, off) + field_varint(5, fn))
              for m, (st, off, fn) in self.mappings.items()]
        lc = []
        for lid, (fns, m, addr) in self.locations.items():
            body = field_varint(1, lid) + (field_varint(2, m) if m else b"") + field_varint(3, addr)
            body += b"".join(field_bytes(4, field_varint(1, f) + field_varint(2, 10 + i))
                             for i, f in enumerate(fns))
            lc.append(field_bytes(4, body))
        fn = [field_bytes(5, field_varint(1, f) + field_varint(2, n) + field_varint(3, sn)
                          + field_varint(4, self.s("file.go")))
              for f, (n, sn) in self.functions.items()]
        st = [field_bytes(6, s.encode()) for s in self.strings]
        return vt, sm, mp, lc, fn, st

    def encode(self, tables_first=False):
        """Go's order (types, samples, tables, strings), or the samples last."""
        vt, sm, mp, lc, fn, st = self._messages()
        extra = list(self.extra)
        if self.default_type is not None:
            extra.append(field_varint(14, self.s(self.default_type)))
        parts = vt + sm + mp + lc + fn + st if not tables_first else vt + st + fn + lc + mp + sm
        return b"".join(parts + extra)

    # the model

    def frames(self, lid):
        fns, m, addr = self.locations[lid]
        out = []
        for f in reversed(fns):
            name, system = self.functions[f]
            text = self.strings[name] or self.strings[system]
            text = text.replace(";", ":").replace("\n", " ").replace("\r", " ")
            out.append((" " + text if text.startswith("#") else text) or None)
        if not fns or None in out:
            if m and self.strings[self.mappings[m][2]]:
                start, off, fname = self.mappings[m]
                addr_text = "%s+0x%x" % (self.strings[fname].rsplit("/", 1)[-1], addr - start + off)
            else:
                addr_text = "0x%x" % addr
            out = [addr_text if x is None else x for x in out] or [addr_text]
        return out

    def chosen(self, event=None):
        names = [self.strings[t] for t, _ in self.types]
        if event is not None:
            return names.index(event) if event in names else int(event)
        if self.default_type in names:
            return names.index(self.default_type)
        return len(names) - 1

    def folded(self, event=None):
        k = self.chosen(event)
        sums = collections.Counter()
        for locs, values in self.samples:
            path = [f for lid in reversed(locs) for f in self.frames(lid)] or ["[no location]"]
            if values[k]:
                sums[";".join(path)] += values[k]
        return "".join("%s %d\n" % (p, c) for p, c in sorted(sums.items(), key=lambda x: x[0].encode()))


def gz(data):
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as f:
        f.write(data)
    return buf.getvalue()


def basic():
    """Two sample types (cpu last, so the default); a shared prefix."""
    p = Profile()
    p.sample_type("samples", "count")
    p.sample_type("cpu", "nanoseconds")
    for i, name in enumerate(["main", "run", "parse", "render"], 1):
        p.function(i, name)
        p.location(i * 10, [i], address=0x401000 + i * 16)
    p.sample([30, 20, 10], [3, 30000000])
    p.sample([40, 20, 10], [1, 10000000])
    p.sample([20, 10], [2, 20000000])
    p.sample([30, 20, 10], [1, 10000000])  # the first stack again: summed
    return p


def inlined():
    """A location with three lines: two functions inlined into a third."""
    p = Profile()
    p.sample_type("cpu", "nanoseconds")
    p.function(1, "main")
    p.function(2, "outer")
    p.function(3, "middle_inlined")
    p.function(4, "inner_inlined")
    p.location(1, [1], address=0x1000)
    p.location(2, [4, 3, 2], address=0x2000)  # innermost first
    p.sample([2, 1], [5])
    p.sample([1], [2])
    return p


def no_lines():
    """Unsymbolized locations: in a mapped file, in a mapping with no file, none."""
    p = Profile()
    p.sample_type("samples", "count")
    p.function(1, "main")
    p.mapping(1, 0x7F0000000000, 0x1000, "/usr/lib/x86_64-linux-gnu/libfoo.so.1")
    p.mapping(2, 0x500000, 0, "")
    p.location(1, [1], mapping=1, address=0x7F0000000100)
    p.location(2, [], mapping=1, address=0x7F0000000234)
    p.location(3, [], mapping=2, address=0x500abc)
    p.location(4, [], address=0xDEADBEEF)
    p.sample([2, 1], [4])
    p.sample([3, 1], [2])
    p.sample([4], [1])
    return p


def strings():
    """Names with ';', UTF-8 and a line break, a '#' at the root (a comment
    in folded text), an empty name with a system name, a name with no text (drawn as its address), the samples after the tables."""
    p = Profile()
    p.sample_type("alloc_objects", "count")
    p.sample_type("alloc_space", "bytes")
    p.function(1, "main")
    p.function(2, "std::map<int;int>::insert")
    p.function(3, "", "_ZN3fooEv")
    p.function(4, "grüße→λ\r\nnext line")
    p.function(5, "")
    p.function(6, "#not a comment")
    p.location(1, [1], address=0x10)
    p.location(2, [2], address=0x20)
    p.location(3, [3], address=0x30)
    p.location(4, [4], address=0x40)
    p.location(5, [5], address=0x50)
    p.location(6, [6], address=0x60)
    p.sample([2, 1], [1, 4096])
    p.sample([3, 1], [2, 64])
    p.sample([4, 3, 1], [1, 100])
    p.sample([5, 1], [7, 0])
    p.sample([], [1, 8])
    p.sample([1, 6], [1, 16])  # '#' at the root
    return p


def default_type():
    """default_sample_type names the first of three types."""
    p = basic()
    p.sample_type("wall", "nanoseconds")
    p.samples = [(l, v + [v[1] * 2]) for l, v in p.samples]
    p.default_type = "samples"
    return p


SHAPES = {
    "basic": (basic, False),
    "inlined": (inlined, False),
    "no-lines": (no_lines, False),
    "strings": (strings, True),  # the samples after the tables
    "default-type": (default_type, False),
}


def malformed():
    """name: (bytes, what difffold's message must contain)."""
    good = basic().encode()
    bad_wire = good + varint(2 << 3 | 0) + varint(5)  # sample as a varint
    bad_ref = Profile()
    bad_ref.sample_type("cpu", "nanoseconds")
    bad_ref.function(1, "main")
    bad_ref.location(1, [1])
    bad_ref.sample([1, 99], [1])
    neg = Profile()
    neg.sample_type("cpu", "nanoseconds")
    neg.function(1, "main")
    neg.location(1, [1])
    neg.sample([1], [-5])
    bad_string = Profile()
    bad_string.sample_type("cpu", "nanoseconds")
    bad_string.functions[1] = (1000, 0)
    bad_string.location(1, [1])
    bad_string.sample([1], [1])
    inner = good[:3] + field_bytes(2, b"\x0a\x05\x01")  # a sample whose packed ids overrun it
    return {
        "truncated": (good[: len(good) - 7], "truncated inside a field"),
        "bad-wire-type": (bad_wire, "byte offset %d: malformed protobuf" % len(good)),
        "missing-location": (bad_ref.encode(), "names a location the profile does not define"),
        "negative": (neg.encode(), "negative"),
        "bad-string-index": (bad_string.encode(), "not in the string table"),
        "bad-submessage": (basic().encode()[:10] + field_bytes(2, b"\x0a\x05\x01"),
                           "malformed protobuf inside a top-level field"),
    }


def big(megabytes, seed=17, folded=None):
    """Go-like: 4,000 functions, samples over 20,000 distinct stacks. With
    folded (a text file), each sample is also written there as a folded
    line of its cpu value: the same profile, for comparing the readers."""
    rng = random.Random(seed)
    p = Profile()
    p.sample_type("samples", "count")
    p.sample_type("cpu", "nanoseconds")
    for f in range(1, 4001):
        p.function(f, "pkg%d.(*Type%d).Method%d" % (f % 40, f % 97, f))
        p.location(f, [f], address=0x400000 + f * 32)
    stacks = []
    for _ in range(20000):
        depth = rng.randint(8, 40)
        stacks.append([rng.randint(1, 4000) for _ in range(depth)])
    head = Profile.encode(p)
    out = bytearray(head)
    # Samples appended raw, after the tables: Go writes them before, which
    # the reader must handle too; here the order does not matter for speed.
    target = megabytes << 20
    while len(out) < target:
        locs = stacks[rng.randrange(len(stacks))]
        n = rng.randint(1, 5)
        out += field_bytes(2, packed(1, locs) + packed(2, [n, n * 10000000]))
        if folded:
            folded.write(";".join(p.strings[p.functions[f][0]] for f in reversed(locs))
                         + " %d\n" % (n * 10000000))
    return bytes(out)


def main(argv):
    if len(argv) == 4 and argv[1] == "--big":
        with open(argv[3], "wb") as f:
            f.write(gz(big(int(argv[2]))))
        return 0
    if len(argv) != 2:
        sys.exit(__doc__)
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    for name, (make, tables_first) in SHAPES.items():
        p = make()
        with open(os.path.join(out, name + ".pb.gz"), "wb") as f:
            f.write(gz(p.encode(tables_first)))
        with open(os.path.join(out, name + ".expected"), "w", encoding="utf-8") as f:
            f.write(p.folded())
    for name, (data, _) in malformed().items():
        with open(os.path.join(out, name + ".pb"), "wb") as f:
            f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
