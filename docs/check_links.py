#!/usr/bin/env python3
"""Every relative link in the project's Markdown files resolves.

Checks the top-level *.md files, docs/*.md and samples/*.md (not test data,
whose Markdown is difffold's output). A link `[text](target)` or image
`![alt](target)` whose target is not a URL must name a file or folder that
exists, relative to the linking file; a `#fragment` into a Markdown file must
name one of its headings, slugged as GitHub does. Code spans and fenced code
blocks are not links.

Usage: check_links.py SOURCE_ROOT
"""
import os
import re
import sys

LINK = re.compile(r"!?\[[^\]]*\]\(([^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def markdown_files(root):
    """The Markdown files whose links are checked, relative to root."""
    found = []
    for folder in ("", "docs", "samples"):
        path = os.path.join(root, folder)
        if not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            if name.endswith(".md"):
                found.append(os.path.join(folder, name))
    return found


def prose_lines(text):
    """(line number, line) outside fenced code, with code spans blanked."""
    in_fence = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        yield number, re.sub(r"`+[^`]*`+", "``", line)


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped,
    spaces to hyphens (so "(`-f text`)" leaves "--f-text")."""
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path, cache={}):
    """The set of heading anchors of a Markdown file (duplicates get -1, -2)."""
    if path not in cache:
        seen, result = {}, set()
        in_fence = False
        with open(path, encoding="utf-8") as f:
            for line in f:
                if FENCE.match(line):
                    in_fence = not in_fence
                    continue
                m = None if in_fence else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
                if m:
                    base = slug(m.group(1))
                    n = seen.get(base, 0)
                    seen[base] = n + 1
                    result.add(base if n == 0 else f"{base}-{n}")
        cache[path] = result
    return cache[path]


def check_link(root, source, target):
    """None when target resolves from source, else what is wrong."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
        return None  # a URL (https:, mailto:): not checked here
    path_part, _, fragment = target.partition("#")
    here = os.path.join(root, source)
    dest = os.path.normpath(os.path.join(os.path.dirname(here), path_part)) if path_part else here
    if not os.path.exists(dest):
        return f"{target}: no such file"
    if fragment and dest.endswith(".md") and fragment not in anchors(dest):
        return f"{target}: no heading #{fragment} in {os.path.relpath(dest, root)}"
    return None


def main():
    root = sys.argv[1]
    files = markdown_files(root)
    errors, links = [], 0
    for source in files:
        with open(os.path.join(root, source), encoding="utf-8") as f:
            text = f.read()
        for number, line in prose_lines(text):
            for target in LINK.findall(line):
                links += 1
                problem = check_link(root, source, target)
                if problem:
                    errors.append(f"{source}:{number}: {problem}")
    for e in errors:
        print("FAIL " + e)
    print(f"{links} links in {len(files)} Markdown files, {len(errors)} broken")
    if len(files) < 2 or links == 0:
        print("FAIL no Markdown files or no links found: the checker is out of date")
        return 1
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
