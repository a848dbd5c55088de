#!/usr/bin/env python3
"""The Markdown report renders nothing live from a file or a label.

A branch name given as --base-label, a --countname, a perf event name (in
the note on the input and the sample counts), a pprof sample type and unit
(the count's unit and the note) and the frame names are the user's or the
profile's: on GitHub they must make no @mention, issue
reference (#12, org/repo#1), link, autolink URL, emoji shortcode or HTML.
The report is rendered by cmark-gfm with GitHub's extensions; outside
<code> elements its text must hold none of those, and the HTML no link and
no raw HTML. cmark-gfm does not make mentions or emoji itself, so those are
checked as text outside code.

Usage: report_md_safety.py DIFFFOLD SOURCE_ROOT BUILD_DIR (exit 77 without
cmark-gfm, which .ci/setup installs)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from hostile_readers import field_bytes, field_varint, line

HOSTILE = "feature/@org/perf-team#12 :tada: org/repo#1 https://evil.example www.evil.com <b>x</b>"
EVENT = "@org/evt#7:u"
FRAME = "@org/frame-team"
TAGS = {"p", "h3", "h4", "strong", "em", "code", "pre", "table", "thead", "tbody", "tr",
        "th", "td", "ul", "ol", "li", "br", "hr", "del"}

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def perf_script(count):
    sample = "prog 1 1.{n}: 1 {ev}: \n\t10 {leaf} (/p)\n\t11 main (/p)\n\n"
    return "".join(sample.format(n=i, ev=EVENT, leaf=FRAME if i % 2 else "work")
                   for i in range(count))


PPROF_TYPE = b"@org/alloc#9 :fire: <b>x</b>"
PPROF_UNIT = b"www.evil.com/org/repo#3"


def pprof(count):
    """main;work and main;@org/frame-team, the type and unit hostile."""
    p = field_bytes(1, field_varint(1, 1) + field_varint(2, 2))
    p += field_bytes(2, field_varint(1, 1) + field_varint(1, 2) + field_varint(2, count))
    p += field_bytes(2, field_varint(1, 3) + field_varint(1, 2) + field_varint(2, 40))
    for k in (1, 2, 3):
        p += field_bytes(4, field_varint(1, k) + line(k))
        p += field_bytes(5, field_varint(1, k) + field_varint(2, 2 + k))
    strings = [b"", PPROF_TYPE, PPROF_UNIT, FRAME.encode(), b"main", b"work"]
    return p + b"".join(field_bytes(6, s) for s in strings)


def outside_code(html):
    """The HTML's text outside <code> elements, tags dropped."""
    text = re.sub(r"<code>.*?</code>", " ", html, flags=re.S)
    return re.sub(r"<[^>]*>", " ", text)


def inert(cmark, md, what):
    """Rendered as GitHub would, the report makes nothing live."""
    exts = ["-e", "table", "-e", "autolink", "-e", "strikethrough", "-e", "tagfilter"]
    html = subprocess.run([cmark] + exts, input=md.encode(), capture_output=True,
                          check=True).stdout.decode()
    check("<a " not in html and "<a>" not in html, what + ": no link")
    check("raw HTML omitted" not in html, what + ": no raw HTML")
    tags = set(re.findall(r"</?([a-zA-Z0-9]+)", html))
    check(tags <= TAGS, f"{what}: only the report's own elements ({sorted(tags - TAGS)})")
    text = outside_code(html)
    check("@" not in text, what + ": no mention outside code")
    check(not re.search(r"#\d", text), what + ": no issue reference outside code")
    check(not re.search(r":[a-z0-9_+-]+:", text), what + ": no emoji shortcode outside code")
    check("://" not in text and "www." not in text, what + ": no URL outside code")


def report(exe, base, head, *extra, code=3):
    """The Markdown report; code 3: the gate trips, 0: the change is within the noise."""
    args = [exe, "-f", "md", base, head, "--fail-on-regression", "1", *extra]
    p = subprocess.run(args, capture_output=True, env=dict(os.environ, LC_ALL="C"),
                       timeout=120)
    check(p.returncode == code, f"the report is written, exit {code} ({p.stderr!r})")
    return p.stdout.decode()


def main():
    exe, build = sys.argv[1], sys.argv[3]
    cmark = shutil.which("cmark-gfm")
    if not cmark:
        print("SKIP cmark-gfm is not installed (.ci/setup installs it)")
        return 77
    with tempfile.TemporaryDirectory(dir=build) as tmp:
        base, head = os.path.join(tmp, "base.perf"), os.path.join(tmp, "head.perf")
        with open(base, "w") as f:
            f.write(perf_script(40))
        with open(head, "w") as f:
            f.write(perf_script(80))
        md = report(exe, base, head, "--base-label", HOSTILE, "--head-label", HOSTILE,
                    "--countname", HOSTILE)
        check(EVENT.split(":")[0] in md and FRAME in md and "perf-team" in md,
              "the report quotes the label, the event and the frame")
        inert(cmark, md, "perf, labels")
        base, head = os.path.join(tmp, "base.pb"), os.path.join(tmp, "head.pb")
        with open(base, "wb") as f:
            f.write(pprof(40))
        with open(head, "wb") as f:
            f.write(pprof(80))
        md = report(exe, base, head, code=0)  # two samples a side: within the noise
        check(PPROF_TYPE.decode() in md and PPROF_UNIT.decode() in md,
              "the report quotes the pprof sample type and unit")
        inert(cmark, md, "pprof")
    print(f"{len(failures)} failures" if failures else "all ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
