#!/usr/bin/env python3
"""Turns asset files (the SVG's JavaScript and CSS) into a C source and header.

usage: embed.py OUT.c OUT.h NAME=[FILE] [FILE...]...

Each NAME becomes `const char NAME[]` (NUL-terminated) and `const size_t
NAME_len`, holding its files one after the other in the order given: the
file after "NAME=" (if any) and every argument up to the next "NAME=". The
SVG's script is written as several files, one job each (src/draw/js/), and
the order src/meson.build lists them in is the order the script runs in. The SVG backend writes these assets inside CDATA sections, so a
file that contains "]]>" (or "</script"/"</style", which would end the
element when the SVG is pasted into HTML) is refused here, at build time,
instead of producing a broken image.

JavaScript files (*.js) lose comments and the spaces no token needs, CSS
files (*.css) their comments and indentation: the assets are copied into
every SVG, and the readable source is src/. Lines stay lines, so automatic
semicolon insertion sees what the source says, and the squeezed script is
tokenized again and must give the same tokens.
"""
import os
import re
import sys

FORBIDDEN = [b"]]>", b"</script", b"</style"]
# An argument that starts an asset: "NAME=" and, optionally, its first file.
ASSET_START = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=")


# One JavaScript token: a string, a number or name, or one punctuator.
# Regular expression literals are told from division by what precedes them.
JS_TOKEN = re.compile(rb"""'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|[A-Za-z0-9_$.]+|[=!]==|[-+*/%<>=!&|^]=|&&|\|\||\+\+|--|=>|\S""")
REGEX_AFTER = set(b"(,=:[!&|?{};+-*%<>~^") | {b"return", b"typeof", b"case"}
WORD = re.compile(rb"[A-Za-z0-9_$]")


def js_line_tokens(line):
    """Tokens of one line of our own JavaScript, comments dropped."""
    tokens, i, prev = [], 0, None
    while i < len(line):
        if line[i:i + 1].isspace():
            i += 1
            continue
        if line.startswith(b"//", i):
            break
        if line[i:i + 1] == b"/" and (prev is None or prev in REGEX_AFTER or
                                      (len(prev) == 1 and prev[0] in REGEX_AFTER)):
            j, klass = i + 1, False
            while j < len(line) and (line[j:j + 1] != b"/" or klass):
                if line[j:j + 1] == b"\\":
                    j += 1
                elif line[j:j + 1] == b"[":
                    klass = True
                elif line[j:j + 1] == b"]":
                    klass = False
                j += 1
            j += 1
            while j < len(line) and WORD.match(line[j:j + 1]):
                j += 1
            tok = line[i:j]
        else:
            tok = JS_TOKEN.match(line, i).group(0)
            j = i + len(tok)
        tokens.append(tok)
        prev, i = tok, j
    return tokens


def join_tokens(tokens):
    """Tokens with a space only where two would otherwise fuse."""
    out = b""
    for tok in tokens:
        if out and ((WORD.match(out[-1:]) and WORD.match(tok[:1])) or
                    (out[-1:] in (b"+", b"-") and tok[:1] == out[-1:])):
            out += b" "
        out += tok
    return out


def squeeze_js(data):
    """Drops comments and needless spaces; checks no token changed."""
    lines = [js_line_tokens(line) for line in data.split(b"\n")]
    lines = [t for t in lines if t]
    out = b"\n".join(join_tokens(t) for t in lines) + b"\n"
    again = [js_line_tokens(line) for line in out.split(b"\n")]
    if [t for t in again if t] != lines:
        raise SystemExit("embed.py: squeezing the script changed its tokens")
    return out


def squeeze_css(data):
    """Drops comments and indentation."""
    data = re.sub(rb"/\*.*?\*/", b"", data, flags=re.S)
    lines = [line.strip() for line in data.split(b"\n")]
    return b"\n".join(line for line in lines if line) + b"\n"


def main(argv):
    if len(argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    out_c, out_h = argv[1], argv[2]
    specs = []  # (name, [paths])
    for arg in argv[3:]:
        start = ASSET_START.match(arg)
        if start:
            first = arg[start.end():]
            specs.append((start.group(1), [first] if first else []))
        elif specs:
            specs[-1][1].append(arg)
        else:
            sys.stderr.write("embed.py: %s comes before any NAME=\n" % arg)
            return 2
    assets = []
    for name, paths in specs:
        if not paths:
            sys.stderr.write("embed.py: %s= names no file\n" % name)
            return 2
        if len({os.path.splitext(p)[1] for p in paths}) != 1:
            sys.stderr.write("embed.py: %s= mixes kinds of file\n" % name)
            return 2
        data = b""
        for path in paths:
            with open(path, "rb") as f:
                piece = f.read()
            # A piece that does not end its last line would fuse it with
            # the next piece's first; ending with one, no forbidden string
            # (none holds a newline) can begin in one piece and end in the next.
            if piece and not piece.endswith(b"\n"):
                sys.stderr.write("embed.py: %s does not end with a newline\n" % path)
                return 1
            for bad in FORBIDDEN:
                if bad in piece.lower():
                    sys.stderr.write("embed.py: %s contains %r, which would end its CDATA/"
                                     "element in the SVG\n" % (path, bad.decode()))
                    return 1
            data += piece
        if paths[0].endswith(".js"):
            data = squeeze_js(data)
        elif paths[0].endswith(".css"):
            data = squeeze_css(data)
        assets.append((name, data))
    guard = "DIFFFOLD_" + os.path.basename(out_h).upper().replace(".", "_")
    with open(out_h, "w") as h:
        h.write("/* Generated by src/draw/embed.py; do not edit. */\n")
        h.write("#ifndef %s\n#define %s\n\n#include <stddef.h>\n\n" % (guard, guard))
        for name, _ in assets:
            h.write("extern const char %s[];\nextern const size_t %s_len;\n" % (name, name))
        h.write("\n#endif\n")
    with open(out_c, "w") as c:
        c.write("/* Generated by src/draw/embed.py; do not edit. */\n")
        c.write('#include "%s"\n' % os.path.basename(out_h))
        for name, data in assets:
            c.write("\nconst char %s[] = {\n" % name)
            for i in range(0, len(data), 16):
                c.write("\t" + ", ".join("0x%02x" % b for b in data[i:i + 16]) + ",\n")
            c.write("\t0x00,\n};\n")
            c.write("const size_t %s_len = %d;\n" % (name, len(data)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
