#!/usr/bin/env python3
"""The man page and --help agree: the same long options, the same defaults,
the same exit codes.

Long options are the `--name` words that start an option line of --help and
the `*--name*` terms of the .scd file's OPTIONS section. A default is the
`(default ...)` text of a --help entry, which the man page's paragraph for
that option must contain (markup and line breaks aside).

Usage: check_manpage.py DIFFFOLD docs/difffold.1.scd
"""
import re
import subprocess
import sys


def help_entries(text):
    """{option: description} from --help, descriptions joined across lines."""
    entries, current = {}, None
    for line in text.splitlines():
        m = re.match(r"^  (?:-\w, )?(--[a-z][a-z-]*)(.*)$", line)
        if m:
            current = m.group(1)
            entries[current] = m.group(2)
        elif current and line.startswith("    ") and line.strip():
            entries[current] += " " + line.strip()
        else:
            current = None
    return entries


def man_entries(text):
    """{option: paragraph} from the OPTIONS section of the scdoc source."""
    section = text.split("\n# OPTIONS", 1)[1].split("\n# ", 1)[0]
    entries, current = {}, None
    for line in section.splitlines():
        terms = re.findall(r"\*(--[a-z][a-z-]*)\*", line) if not line.startswith("\t") else []
        if terms:
            current = terms[0]
            entries[current] = ""
        elif current and line.startswith("\t"):
            entries[current] += " " + line.strip()
    return entries


def plain(s):
    s = re.sub(r"\\(.)", r"\1", s)
    s = s.replace("*", "").replace("_", "")
    return re.sub(r"\s+", " ", s).strip()


def main():
    exe, scd = sys.argv[1], sys.argv[2]
    help_text = subprocess.run([exe, "--help"], capture_output=True, text=True,
                               check=True).stdout
    with open(scd, encoding="utf-8") as f:
        man_text = f.read()
    h, m = help_entries(help_text), man_entries(man_text)
    errors = []
    for opt in sorted(set(h) - set(m)):
        errors.append(f"{opt} is in --help but not in {scd}")
    for opt in sorted(set(m) - set(h)):
        errors.append(f"{opt} is in {scd} but not in --help")
    for opt in sorted(set(h) & set(m)):
        d = re.search(r"\(default:? (.*?)\)(?:$|[ ;,.])", plain(h[opt]))
        if d and plain(d.group(1)) not in plain(m[opt]):
            errors.append(f"{opt}: default '{d.group(1)}' of --help is not in the man page "
                          f"('{plain(m[opt])}')")
    codes = re.search(r"Exit codes:(.*)", help_text, re.S)
    status = man_text.split("\n# EXIT STATUS", 1)[-1].split("\n# ", 1)[0]
    for code in re.findall(r"\b(\d) ", codes.group(1) if codes else ""):
        if f"*{code}*" not in status:
            errors.append(f"exit code {code} of --help is not in EXIT STATUS")
    if len(h) < 10:
        errors.append(f"only {len(h)} options found in --help: the parser is out of date")
    for e in errors:
        print("FAIL " + e)
    print(f"{len(h)} options in --help, {len(m)} in the man page, {len(errors)} problem(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
