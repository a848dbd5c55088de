#!/usr/bin/env python3
"""The Markdown report renders nothing live from a file or a label.

A branch name given as --base-label, a --countname, a perf event name (in
the note on the input and the sample counts) and the frame names are the
user's or the profile's: on GitHub they must make no @mention, issue
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


def outside_code(html):
    """The HTML's text outside <code> elements, tags dropped."""
    text = re.sub(r"<code>.*?</code>", " ", html, flags=re.S)
    return re.sub(r"<[^>]*>", " ", text)


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
        args = [exe, "-f", "md", base, head, "--base-label", HOSTILE, "--head-label",
                HOSTILE, "--countname", HOSTILE, "--fail-on-regression", "1"]
        p = subprocess.run(args, capture_output=True, env=dict(os.environ, LC_ALL="C"),
                           timeout=120)
        check(p.returncode == 3, f"the report is written and the gate trips ({p.stderr!r})")
        md = p.stdout.decode()
        check(EVENT.split(":")[0] in md and FRAME in md and "perf-team" in md,
              "the report quotes the label, the event and the frame")
        exts = ["-e", "table", "-e", "autolink", "-e", "strikethrough", "-e", "tagfilter"]
        html = subprocess.run([cmark] + exts, input=md.encode(), capture_output=True,
                              check=True).stdout.decode()
        check("<a " not in html and "<a>" not in html, "no link")
        check("raw HTML omitted" not in html, "no raw HTML")
        tags = set(re.findall(r"</?([a-zA-Z0-9]+)", html))
        check(tags <= TAGS, f"only the report's own elements ({sorted(tags - TAGS)})")
        text = outside_code(html)
        check("@" not in text, "no mention outside code")
        check(not re.search(r"#\d", text), "no issue reference outside code")
        check(not re.search(r":[a-z0-9_+-]+:", text), "no emoji shortcode outside code")
        check("://" not in text and "www." not in text, "no URL outside code")
    print(f"{len(failures)} failures" if failures else "all ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
