#!/usr/bin/env python3
"""PNG and PDF output through the command line (issue 4).

Usage: cli.py DIFFFOLD SOURCE_ROOT

Checks what the unit tests cannot see from inside the library: the output
file is written atomically and removed on failure, the missing-font error
reaches the user with exit code 1, the font configuration is found beside
a relocated binary, and the user's own fontconfig set-up leaves the pixels
alone. And the drawing module (issue 20): other outputs load none of the
libraries it brings, PNG output works after `meson install --destdir`
(the binary's build folder is found from DIFFFOLD's path), and a missing
module is an error with exit code 1.
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

MISSING = ("difffold: PNG/PDF output needs the font DejaVu Sans Mono: "
           "install the Debian package fonts-dejavu-core\n")
EMPTY_CONF = '<?xml version="1.0"?>\n<fontconfig></fontconfig>\n'
BASE = "main;parse;lex 40\nmain;parse;tree 30\nmain;render 50\nmain;old 5\n"
HEAD = "main;parse;lex 70\nmain;parse;tree 30\nmain;render 20\nmain;fresh 25\n"

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def run(exe, args, env=None, cwd=None):
    full = dict(os.environ)
    full.pop("DIFFFOLD_FONTS_CONF", None)
    full.pop("DIFFFOLD_RENDER_MODULE", None)
    full.update(env or {})
    return subprocess.run([exe] + args, capture_output=True, env=full, cwd=cwd)


def png_size(data):
    check(data[:8] == b"\x89PNG\r\n\x1a\n", "PNG signature")
    return struct.unpack(">II", data[16:24])


def pages(data):
    n, at = 0, 0
    tag = b"/Type /Page"
    while True:
        at = data.find(tag, at)
        if at < 0:
            return n
        if data[at + len(tag):at + len(tag) + 1] != b"s":
            n += 1
        at += len(tag)


# Libraries that only PNG and PDF output may bring into the process.
DRAWING_LIBS = ("libcairo", "libpango", "libglib", "libgobject", "libfontconfig",
                "libfreetype", "libharfbuzz")


def loaded(exe, args, env=None):
    """Names of the shared objects the dynamic loader opened for one run."""
    r = run(exe, args, env=dict(env or {}, LD_DEBUG="libs"))
    names = set()
    for line in r.stderr.decode(errors="replace").splitlines():
        if "calling init:" in line:
            names.add(line.rsplit("calling init:", 1)[1].strip())
    return r, names


def check_module(exe, base, head, tmp, first):
    for fmt in ("svg", "json", "folded", "md", "text"):
        r, names = loaded(exe, [base, head, "-f", fmt, "-o", os.path.join(tmp, "o." + fmt)])
        drawing = [n for n in names if os.path.basename(n).startswith(DRAWING_LIBS)]
        check(r.returncode == 0 and names and not drawing,
              "-f %s loads no drawing library: %r" % (fmt, drawing))
    r, names = loaded(exe, [base, head, "-f", "png"])
    check(any("libcairo" in n for n in names), "-f png loads cairo")

    out = os.path.join(tmp, "m.png")
    r = run(exe, [base, head, "-o", out], env={"DIFFFOLD_RENDER_MODULE": "/nonexistent.so"})
    check(r.returncode == 1 and r.stderr.startswith(b"difffold: PNG/PDF output needs "
                                                    b"difffold's drawing module"),
          "missing module: exit code 1 and a message: %r" % r.stderr)
    check(not os.path.exists(out), "missing module: no output file")

    # An installation into a scratch folder draws the same PNG with its own
    # module (not the build tree's) and its own font configuration.
    build = os.path.dirname(os.path.dirname(exe))
    dest = os.path.join(tmp, "dest")
    r = subprocess.run(["meson", "install", "-C", build, "--no-rebuild", "--quiet",
                        "--destdir", dest], capture_output=True)
    check(r.returncode == 0, "meson install --destdir: %r" % r.stderr)
    found = {}
    for folder, _, files in os.walk(dest):
        for name in ("difffold", "difffold-render.so"):
            if name in files:
                found[name] = os.path.join(folder, name)
    check(len(found) == 2, "installed binary and module: %r" % found)
    if len(found) == 2:
        r, names = loaded(found["difffold"], [base, head, "-o", out])
        with open(out, "rb") as f:
            check(r.returncode == 0 and f.read() == first,
                  "installed binary draws the same PNG: %r" % r.stderr[-300:])
        check(os.path.realpath(found["difffold-render.so"]) in
              {os.path.realpath(n) for n in names}, "installed binary loads its own module")


def main():
    exe, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="difffold-png-")
    try:
        base, head = os.path.join(tmp, "base"), os.path.join(tmp, "head")
        with open(base, "w") as f:
            f.write(BASE)
        with open(head, "w") as f:
            f.write(HEAD)
        out = os.path.join(tmp, "d.png")

        r = run(exe, [base, head, "-o", out])
        check(r.returncode == 0, "PNG exit code 0: %r" % r.stderr)
        with open(out, "rb") as f:
            first = f.read()
        check(png_size(first) == (1200, png_size(first)[1]), "PNG width 1200")

        r = run(exe, [base, head, "-o", out])
        with open(out, "rb") as f:
            check(f.read() == first, "PNG output is deterministic")

        r = run(exe, [base, head, "--scale", "2", "-o", out])
        with open(out, "rb") as f:
            w, h = png_size(f.read())
        check((w, h) == (2400, 2 * png_size(first)[1]), "--scale 2 doubles the size")

        r = run(exe, [base, head, "-f", "png"])
        check(r.returncode == 0 and r.stdout == first, "-f png writes the same bytes to stdout")

        pdf = os.path.join(tmp, "d.pdf")
        r = run(exe, [base, head, "-o", pdf])
        with open(pdf, "rb") as f:
            data = f.read()
        check(r.returncode == 0 and data.startswith(b"%PDF-"), "PDF starts with %PDF")
        check(pages(data) == 1, "PDF has one page")

        # The user's fontconfig set-up cannot reach difffold's pixels.
        xdg = os.path.join(tmp, "xdg")
        os.makedirs(os.path.join(xdg, "fontconfig"))
        with open(os.path.join(xdg, "fontconfig", "fonts.conf"), "w") as f:
            f.write('<?xml version="1.0"?>\n<fontconfig>'
                    '<match target="font"><edit name="antialias" mode="assign">'
                    '<bool>false</bool></edit></match>'
                    '<alias binding="strong"><family>DejaVu Sans Mono</family>'
                    '<prefer><family>DejaVu Serif</family></prefer></alias>'
                    '</fontconfig>\n')
        r = run(exe, [base, head, "-o", out], env={"XDG_CONFIG_HOME": xdg})
        with open(out, "rb") as f:
            check(f.read() == first, "a user fonts.conf leaves the PNG unchanged")

        # DIFFFOLD_FONTS_CONF may be relative to the working directory.
        shutil.copy(os.path.join(root, "fonts", "difffold-fonts.conf"),
                    os.path.join(tmp, "mine.conf"))
        r = run(exe, [base, head, "-o", out], env={"DIFFFOLD_FONTS_CONF": "mine.conf"}, cwd=tmp)
        with open(out, "rb") as f:
            check(r.returncode == 0 and f.read() == first,
                  "a relative DIFFFOLD_FONTS_CONF: %r" % r.stderr)

        # No DejaVu Sans Mono: the message names the package, exit code 1,
        # and neither the target nor a temporary file is left behind.
        empty = os.path.join(tmp, "empty.conf")
        with open(empty, "w") as f:
            f.write(EMPTY_CONF)
        os.remove(out)
        for target in (out, pdf + ".2.pdf"):
            r = run(exe, [base, head, "-o", target], env={"DIFFFOLD_FONTS_CONF": empty})
            check(r.returncode == 1, "missing font: exit code 1")
            check(r.stderr.decode() == MISSING, "missing font message: %r" % r.stderr)
            check(not os.path.exists(target), "missing font: no output file")
        left = [n for n in os.listdir(tmp) if n.startswith(".difffold-")]
        check(not left, "no temporary files left: %r" % left)

        # A relocated installation finds its configuration beside the
        # binary (bin/../share/difffold/fonts) before the source tree's:
        # an empty one there must win and fail.
        prefix = os.path.join(tmp, "prefix")
        os.makedirs(os.path.join(prefix, "bin"))
        os.makedirs(os.path.join(prefix, "share", "difffold", "fonts"))
        moved = os.path.join(prefix, "bin", "difffold")
        shutil.copy(exe, moved)
        conf = os.path.join(prefix, "share", "difffold", "fonts", "difffold-fonts.conf")
        with open(conf, "w") as f:
            f.write(EMPTY_CONF)
        r = run(moved, [base, head, "-o", out])
        check(r.returncode == 1 and r.stderr.decode() == MISSING,
              "relocated binary reads bin/../share/difffold/fonts first")
        shutil.copy(os.path.join(root, "fonts", "difffold-fonts.conf"), conf)
        r = run(moved, [base, head, "-o", out])
        with open(out, "rb") as f:
            check(r.returncode == 0 and f.read() == first, "relocated binary draws the same PNG")

        check_module(exe, base, head, tmp, first)
    finally:
        shutil.rmtree(tmp)
    if failures:
        print("%d check(s) failed" % len(failures), file=sys.stderr)
        return 1
    print("png cli: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
