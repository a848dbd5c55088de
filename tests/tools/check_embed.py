#!/usr/bin/env python3
"""src/draw/embed.py refuses what would break the SVG and keeps the script.

The SVG's script and style are written inside CDATA sections; embed.py is
the only guard against a file that would end one ("]]>", "</script",
"</style", in any case), against a file whose last line would fuse with the
next file's first, and against a squeeze that changes a token. Each case is
run on files made here; the generated C array is read back and compared.

Usage: check_embed.py EMBED.PY   (prints TAP-like lines, exits 1 on failure)
"""
import os
import re
import subprocess
import sys
import tempfile


def embed(script, tmp, specs):
    """Runs embed.py on specs ([(name, [(file name, bytes)])]); returns
    (exit status, stderr, {name: bytes} read back from the C source)."""
    args = []
    for name, files in specs:
        paths = []
        for fname, data in files:
            path = os.path.join(tmp, fname)
            with open(path, "wb") as f:
                f.write(data)
            paths.append(path)
        args += ["%s=%s" % (name, paths[0] if paths else "")] + paths[1:]
    out_c, out_h = os.path.join(tmp, "a.c"), os.path.join(tmp, "a.h")
    for p in (out_c, out_h):
        if os.path.exists(p):
            os.remove(p)
    r = subprocess.run([sys.executable, script, out_c, out_h] + args,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    arrays = {}
    if r.returncode == 0:
        with open(out_c) as f:
            text = f.read()
        for m in re.finditer(r"const char (\w+)\[\] = \{(.*?)\};\nconst size_t \1_len = (\d+);",
                             text, re.S):
            data = bytes(int(x, 16) for x in re.findall(r"0x([0-9a-f]{2})", m.group(2)))
            if data[-1:] != b"\0" or len(data) - 1 != int(m.group(3)):
                arrays[m.group(1)] = None  # length or terminator wrong
            else:
                arrays[m.group(1)] = data[:-1]
    return r.returncode, r.stderr.decode(), arrays


def cases():
    """(name, specs, check(status, stderr, arrays) -> reason or None)."""
    def refused(word):
        return lambda st, err, arr: None if st != 0 and word in err else \
            "status %d, stderr %r" % (st, err)

    def gives(name, want):
        return lambda st, err, arr: None if st == 0 and arr.get(name) == want else \
            "status %d, %r, want %r (%s)" % (st, arr.get(name), want, err.strip())

    yield ("CDATA end refused", [("S", [("a.js", b"var s = ']]>';\n")])], refused("]]>"))
    yield ("</SCRIPT refused in any case",
           [("S", [("a.js", b"f();\n"), ("b.js", b"var s = '</SCRIPT>';\n")])],
           refused("b.js"))
    yield ("</style refused in CSS", [("C", [("a.css", b"a{} </Style>\n")])], refused("</style"))
    yield ("a file without its last newline refused",
           [("S", [("a.js", b"f()"), ("b.js", b"g();\n")])], refused("newline"))
    yield ("mixed kinds refused", [("S", [("a.js", b"f();\n"), ("b.css", b"a{}\n")])],
           refused("mixes"))
    yield ("NAME= without a file refused", [("S", [])], refused("names no file"))
    yield ("files joined in the order given",
           [("S", [("z.js", b"first();\n"), ("a.js", b"second();\n")])],
           gives("S", b"first();\nsecond();\n"))
    # Comments and spaces go; a regular expression stays one token (its
    # '//' is no comment), "a - -b" keeps its space, lines stay lines.
    yield ("script squeezed, tokens kept",
           [("S", [("a.js", b"// note\nvar r = /a\\/b[/]c/g;  // x\n"
                             b"var d = a - -b ;\nreturn  x\n")])],
           gives("S", b"var r=/a\\/b[/]c/g;\nvar d=a- -b;\nreturn x\n"))
    yield ("style squeezed",
           [("C", [("a.css", b"/* why */\n  .f {\n    fill: red;\n  }\n")])],
           gives("C", b".f {\nfill: red;\n}\n"))
    yield ("two assets",
           [("S", [("a.js", b"f();\n")]), ("C", [("a.css", b"a{}\n")])],
           lambda st, err, arr: None if arr == {"S": b"f();\n", "C": b"a{}\n"} else repr(arr))


def main():
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    failed = 0
    all_cases = list(cases())
    with tempfile.TemporaryDirectory() as tmp:
        for i, (name, specs, check) in enumerate(all_cases, 1):
            why = check(*embed(sys.argv[1], tmp, specs))
            failed += why is not None
            print("%s %d - %s%s" % ("not ok" if why else "ok", i, name,
                                     ": " + why if why else ""))
    print("1..%d" % len(all_cases))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
