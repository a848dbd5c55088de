#!/usr/bin/env python3
"""Golden SVG cases: every folder under tests/svg/ with an `args` file.

usage: run.py DIFFFOLD SOURCE_ROOT [XMLLINT]

`args` holds difffold's arguments, one per line (so spaces need no
quoting), with paths relative to the source root, which is the working
directory: the inferno pair is `../shared/conformance/...`. A missing input
makes difffold fail, and so the case: nothing is skipped.

Each output must equal `expected.svg` byte for byte, parse with
`xmllint --noout`, hold exactly one <script> (ours) and no element or
attribute the input could have chosen (a fixed set of element names, no
`on*` attributes, no `href`). BLESS=1 rewrites the expected files instead
of comparing; review the diff before committing.
"""
import difflib
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

SVG_NS = "{http://www.w3.org/2000/svg}"
ELEMENTS = {"svg", "title", "desc", "style", "script", "rect", "g", "text"}


def check_structure(svg_bytes):
    """Problems with the parsed document, as a list of strings."""
    problems = []
    root = ET.fromstring(svg_bytes)
    scripts = 0
    for el in root.iter():
        tag = el.tag
        if not tag.startswith(SVG_NS):
            problems.append("element outside the SVG namespace: %r" % tag)
            continue
        name = tag[len(SVG_NS):]
        if name not in ELEMENTS:
            problems.append("unexpected element <%s>" % name)
        scripts += name == "script"
        for a in el.attrib:
            local = a.rsplit("}", 1)[-1].lower()
            if local.startswith("on") or local.endswith("href"):
                problems.append("unexpected attribute %s on <%s>" % (a, name))
    if scripts != 1:
        problems.append("%d <script> elements, want 1" % scripts)
    frames = [g for g in root.iter(SVG_NS + "g") if g.get("class") == "frame"]
    prefix = root.get("data-prefix") or ""
    for el in root.iter():
        if "id" in el.attrib and not el.get("id").startswith(prefix):
            problems.append("id %r lacks the prefix %r" % (el.get("id"), prefix))
    for g in frames:
        kids = [k.tag[len(SVG_NS):] for k in g]
        if kids != ["title", "rect", "text"]:
            problems.append("frame children %s" % kids)
            break
    if not frames:
        problems.append("no frames")
    return problems


def xmllint(tool, path):
    problems = []
    r = subprocess.run([tool, "--noout", path], capture_output=True, text=True)
    if r.returncode != 0:
        problems.append("xmllint --noout: " + r.stderr.strip()[:2000])
        return problems
    r = subprocess.run([tool, "--xpath", 'count(//*[local-name()="script"])', path],
                       capture_output=True, text=True)
    if r.returncode != 0 or r.stdout.strip() != "1":
        problems.append("xmllint counts %r <script> elements" % r.stdout.strip())
    r = subprocess.run([tool, "--xpath", 'count(//@*[starts-with(local-name(),"on")])', path],
                       capture_output=True, text=True)
    if r.returncode != 0 or r.stdout.strip() != "0":
        problems.append("xmllint counts %r on* attributes" % r.stdout.strip())
    return problems


def run_case(exe, root, case_dir, tool, bless):
    with open(os.path.join(case_dir, "args"), encoding="utf-8") as f:
        args = [line.rstrip("\n") for line in f if line.rstrip("\n") != ""]
    r = subprocess.run([exe] + args, cwd=root, capture_output=True)
    if r.returncode != 0:
        return ["difffold exited %d: %s" % (r.returncode, r.stderr.decode(errors="replace"))]
    out = r.stdout
    expected_path = os.path.join(case_dir, "expected.svg")
    actual_path = os.path.join(case_dir, "actual.svg")
    problems = []
    with open(actual_path, "wb") as f:
        f.write(out)
    problems += xmllint(tool, actual_path)
    try:
        problems += check_structure(out)
    except ET.ParseError as e:
        problems.append("python cannot parse the SVG: %s" % e)
    if bless:
        with open(expected_path, "wb") as f:
            f.write(out)
    else:
        try:
            with open(expected_path, "rb") as f:
                want = f.read()
        except FileNotFoundError:
            want = None
            problems.append("no expected.svg (run with BLESS=1 to create it)")
        if want is not None and want != out:
            diff = difflib.unified_diff(
                want.decode("utf-8", "replace").splitlines(),
                out.decode("utf-8", "replace").splitlines(),
                "expected.svg", "actual.svg", lineterm="", n=1)
            lines = list(diff)
            problems.append("output differs from expected.svg:\n" + "\n".join(lines[:60]))
    if not problems:
        os.unlink(actual_path)
    return problems


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    exe, root = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    tool = argv[3] if len(argv) > 3 else "xmllint"
    here = os.path.join(root, "tests", "svg")
    bless = os.environ.get("BLESS") == "1"
    cases = sorted(d for d in os.listdir(here)
                   if os.path.isfile(os.path.join(here, d, "args")))
    failed = 0
    for case in cases:
        problems = run_case(exe, root, os.path.join(here, case), tool, bless)
        if problems:
            failed += 1
            print("not ok - %s" % case)
            for p in problems:
                print("  " + p.replace("\n", "\n  "))
        else:
            print("ok - %s%s" % (case, " (blessed)" if bless else ""))
    if not cases:
        print("no cases found under %s" % here)
        return 1
    print("%d cases, %d failed" % (len(cases), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
