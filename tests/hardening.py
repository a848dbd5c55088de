#!/usr/bin/env python3
"""Golden cases for untrusted input: tests/hostile/ and tests/broken/.

hostile: each case folder holds base.folded and head.folded whose frame names
try to break out of every context the outputs use. difffold renders SVG,
JSON, Markdown and text; the checks are properties, not byte goldens, so they
hold whatever the backends draw:
  - SVG: well-formed XML (xmllint and ElementTree); every element and
    attribute name also occurs in the SVG of a benign profile (so the input
    chose none); no on* attribute; as many <script> elements as the benign
    SVG; no javascript: URL.
  - JSON: valid (strict json.loads); every frame name reads back as the input
    bytes decoded as UTF-8 with invalid bytes as U+FFFD; no raw U+2028/9.
  - Markdown: no HTML tag that the benign report does not have.
  - Text: no control character but newline and tab (terminal escapes).
  - SVG (as parsed), JSON, Markdown and text: no raw bidi control or
    invisible character (U+202E, U+200B...): they spoof other names.

broken: each case folder holds `cmd` (arguments, shell words), `expected-exit`
and `expected-stderr`, optional input files and an optional `options` file
(key = value lines). Placeholders in cmd and expected-stderr:
  @CASE@ the case folder, @TMP@ a fresh temporary folder, @OUT@ an empty
  output folder (checked afterwards: a failing run leaves nothing in it),
  @GEN:name@ a generated input (see GENERATORS).
Options: stdin = a STREAMS name written to standard input; stdout = a file
standard output goes to; sigpipe = N (read N bytes of stdout, then close
it); as-nobody = yes (run as user nobody, for permission errors that root
would bypass); fsize = bytes (RLIMIT_FSIZE); max-rss-mb = peak resident
memory allowed; outputs = the files @OUT@ must hold afterwards (default
none: a failing run leaves nothing behind).

Usage: hardening.py --difffold PATH (--suite hostile|broken) [--bless] [CASE...]
Exit status 0 pass, 1 fail, 77 skip (for meson).
"""

import argparse
import gzip
import json
import os
import pwd
import re
import resource
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "src")
TIMEOUT = 120

failures = []


def fail(case, msg):
    failures.append(f"{case}: {msg}")
    print(f"FAIL {case}: {msg}", flush=True)


def placeholder(module):
    """True while src/<module>.c is still the stub another issue replaces."""
    try:
        with open(os.path.join(SRC, module + ".c"), encoding="utf-8") as f:
            return "placeholder" in f.readline()
    except OSError:
        return False


# ---------------------------------------------------------------- generators

def gen_deep_stack(tmp):
    """One stack of 100,000 frames in each profile, the head one deeper."""
    path = os.path.join(tmp, "deep.folded")
    frames = ";".join(f"f{i}" for i in range(100_000))
    with open(path, "w", encoding="ascii") as f:
        f.write(frames + " 3\n")
        f.write(frames[: len(frames) // 2] + " 2\n")
    return path


def gen_semicolons(tmp):
    """A 4 MiB line of ';': a frame per byte, the most frames a file can ask for."""
    path = os.path.join(tmp, "semicolons.folded")
    with open(path, "w", encoding="ascii") as f:
        f.write(";" * (4 << 20) + " 1\n")
    return path


def gen_truncated_gz(tmp):
    data = "".join(f"main;work;step{i} {i + 1}\n" for i in range(2000)).encode()
    packed = gzip.compress(data, mtime=0)
    path = os.path.join(tmp, "truncated.folded.gz")
    with open(path, "wb") as f:
        f.write(packed[: len(packed) // 2])
    return path


def gen_sparse_2g(tmp):
    """2 GiB of NUL bytes without a newline, taking no disk space."""
    path = os.path.join(tmp, "sparse-2g.folded")
    with open(path, "wb") as f:
        f.truncate(2 << 30)
    return path


def gen_unreadable(tmp):
    path = os.path.join(tmp, "unreadable.folded")
    with open(path, "w", encoding="ascii") as f:
        f.write("a;b 1\n")
    os.chmod(path, 0)
    return path


def gen_wide(tmp):
    """Enough frames that every output is far larger than a pipe buffer."""
    path = os.path.join(tmp, "wide.folded")
    with open(path, "w", encoding="ascii") as f:
        for i in range(20_000):
            f.write(f"main;module{i % 100};function{i} {i % 7 + 1}\n")
    return path


def gen_readonly_dir(tmp):
    path = os.path.join(tmp, "read-only")
    os.mkdir(path)
    os.chmod(path, 0o555)
    return path


GENERATORS = {
    "readonly-dir": gen_readonly_dir,
    "deep-stack": gen_deep_stack,
    "semicolons": gen_semicolons,
    "truncated-gz": gen_truncated_gz,
    "sparse-2g": gen_sparse_2g,
    "unreadable": gen_unreadable,
    "wide": gen_wide,
}


def stream_2g_line(pipe):
    """Writes up to 2 GiB without a newline; stops when the reader leaves."""
    chunk = b"x" * (1 << 20)
    try:
        for _ in range(2048):
            pipe.write(chunk)
        pipe.close()
    except (OSError, ValueError):
        pass  # difffold stopped reading, as it should


STREAMS = {"line-2g": stream_2g_line}


# ---------------------------------------------------------------- hostile

def run(difffold, args, cwd=None):
    return subprocess.run([difffold] + args, capture_output=True, timeout=TIMEOUT, cwd=cwd)


def xml_names(root):
    tags, attrs = set(), set()
    for el in root.iter():
        tags.add(el.tag)
        attrs.update(el.attrib)
    return tags, attrs


def strip_code(text):
    """Markdown without fenced blocks and code spans, where tags are inert
    text (CommonMark: a span closes at a backtick run of the same length)."""
    kept, fence = [], None
    for line in text.split("\n"):
        m = re.match(r" {0,3}(`{3,}|~{3,})", line)
        if fence is None and m:
            fence = m.group(1)
        elif fence is not None and m and m.group(1).startswith(fence):
            fence = None
        elif fence is None:
            kept.append(line)
    return re.sub(r"(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)", "", "\n".join(kept), flags=re.S)


def html_tags(text):
    """Tag names of raw HTML in Markdown: elements, comments, CDATA."""
    return set(re.findall(r"<(/?[A-Za-z][A-Za-z0-9-]*|!--|!\[CDATA\[|![A-Za-z]+|\?)",
                          strip_code(text)))


def decode_bytewise(data):
    """UTF-8 with each byte that starts no valid sequence as one U+FFFD,
    which is how difffold's escapers replace them (export.h)."""
    out, i = [], 0
    while i < len(data):
        for n in (1, 2, 3, 4):
            try:
                out.append(data[i:i + n].decode("utf-8"))
                i += n
                break
            except UnicodeDecodeError:
                pass
        else:
            out.append("\ufffd")
            i += 1
    return "".join(out)


def input_names(paths):
    """Frame names as JSON should give them back."""
    names = set()
    for path in paths:
        with open(path, "rb") as f:
            data = f.read()
        for line in data.split(b"\n"):
            # Whitespace is space and tab only, as in folded.c.
            line = line[:-1] if line.endswith(b"\r") else line
            line = line.rstrip(b" \t")
            cut = max(line.rfind(b" "), line.rfind(b"\t"))
            if not line.strip(b" \t") or line.startswith(b"#") or cut < 0:
                continue
            for frame in line[:cut].rstrip(b" \t").split(b";"):
                names.add(decode_bytewise(frame))
    return names


def json_names(doc):
    names, todo = set(), [doc["root"]]
    while todo:
        node = todo.pop()
        names.add(node["name"])
        todo.extend(node["children"])
    names.discard("all")
    return names


class Baseline:
    """Outputs of a benign profile: what difffold itself puts in them."""

    def __init__(self, difffold, tmp):
        base = os.path.join(tmp, "benign-base.folded")
        head = os.path.join(tmp, "benign-head.folded")
        with open(base, "w", encoding="ascii") as f:
            f.write("main;parse;lex 10\nmain;render 20\nmain;gone 4\n")
        with open(head, "w", encoding="ascii") as f:
            f.write("main;parse;lex 12\nmain;render 15\nmain;fresh 6\n")
        svg = run(difffold, [base, head, "--title", "t", "--notes", "n"]).stdout
        md = run(difffold, ["-f", "md", "--image-url", "https://example.com/x.svg", base, head])
        self.md_tags = html_tags(md.stdout.decode("utf-8", "replace"))
        self.svg_ok = bool(svg)
        if svg:
            root = ET.fromstring(svg)
            self.tags, self.attrs = xml_names(root)
            self.scripts = sum(1 for el in root.iter() if el.tag.endswith("}script"))


def check_svg(case, svg, base):
    if not svg:
        if placeholder("svg"):
            return
        fail(case, "SVG output is empty")
        return
    lint = subprocess.run(["xmllint", "--noout", "-"], input=svg, capture_output=True)
    if lint.returncode != 0:
        fail(case, "xmllint: " + lint.stderr.decode("utf-8", "replace")[:500])
        return
    root = ET.fromstring(svg)
    tags, attrs = xml_names(root)
    if not base.svg_ok:
        return
    if tags - base.tags:
        fail(case, f"SVG elements chosen by the input: {sorted(tags - base.tags)}")
    if attrs - base.attrs:
        fail(case, f"SVG attributes chosen by the input: {sorted(attrs - base.attrs)}")
    events = sorted(a for a in attrs if a.rsplit("}", 1)[-1].lower().startswith("on"))
    if events:
        fail(case, f"event handler attributes: {events}")
    scripts = sum(1 for el in root.iter() if el.tag.endswith("}script"))
    if scripts != base.scripts:
        fail(case, f"{scripts} <script> elements, difffold embeds {base.scripts}")
    for el in root.iter():
        for key, value in el.attrib.items():
            if key.endswith("href") and value.strip().lower().startswith("javascript:"):
                fail(case, f"javascript: URL in {key}")


def check_json(case, data, inputs):
    text = data.decode("utf-8")  # raises on invalid UTF-8
    if "\u2028" in text or "\u2029" in text:
        fail(case, "raw U+2028/U+2029 in JSON")
    doc = json.loads(text, strict=True)
    missing = input_names(inputs) - json_names(doc)
    if missing:
        fail(case, f"names not read back from JSON: {sorted(missing)[:5]}")


def check_md(case, data, base):
    if not data and placeholder("report"):
        return
    tags = html_tags(data.decode("utf-8", "replace")) - base.md_tags
    if tags:
        fail(case, f"HTML tags from the input in Markdown: {sorted(tags)}")


def check_text(case, data):
    """A name must not reach the terminal as an escape sequence (C0, DEL or
    the C1 controls such as U+009B CSI)."""
    text = data.decode("utf-8", "replace")
    bad = sorted({hex(ord(c)) for c in text
                  if (ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F})
    if bad:
        fail(case, f"control characters from the input in text output: {bad}")


# Issue 21 item 12: bidi controls and invisible characters make one name look
# like another; every output a person reads shows them as a visible marker,
# and JSON \u-escapes them (a subset of escape_is_invisible in src/escape.c).
INVISIBLE = set(range(0x200B, 0x2010)) | set(range(0x202A, 0x202F)) | \
    set(range(0x2060, 0x2065)) | set(range(0x2066, 0x206A)) | {0xAD, 0x61C, 0xFEFF}


def check_visible(case, fmt, text):
    bad = sorted({f"U+{ord(c):04X}" for c in text if ord(c) in INVISIBLE})
    if bad:
        fail(case, f"invisible or bidi characters in {fmt} output: {bad}")


def svg_text(svg):
    """Every text node and attribute value, as a browser would see them."""
    root = ET.fromstring(svg)
    return "".join((el.text or "") + (el.tail or "") + "".join(el.attrib.values())
                   for el in root.iter())


def hostile_case(difffold, case_dir, base):
    case = os.path.basename(case_dir)
    inputs = [os.path.join(case_dir, n) for n in ("base.folded", "head.folded")]
    label = os.path.join(case_dir, "label")
    extra = []
    if os.path.exists(label):
        with open(label, "rb") as f:
            text = f.read().rstrip(b"\n")  # bytes: invalid UTF-8 reaches argv as is
        for opt in ("--title", "--subtitle", "--notes", "--base-label", "--head-label",
                    "--image-url", "--countname"):
            extra += [opt, text]
    outs = {}
    # PNG and PDF only have to succeed: pango draws names as text, not markup.
    for fmt in ("svg", "json", "md", "text", "folded", "png", "pdf"):
        r = run(difffold, ["-f", fmt] + extra + inputs)
        if r.returncode != 0:
            fail(case, f"-f {fmt}: exit {r.returncode}: {r.stderr.decode('utf-8', 'replace')}")
            return
        outs[fmt] = r.stdout
    checks = [
        lambda: check_svg(case, outs["svg"], base),
        lambda: check_json(case, outs["json"], inputs),
        lambda: check_md(case, outs["md"], base),
        lambda: check_text(case, outs["text"]),
        lambda: check_visible(case, "SVG", svg_text(outs["svg"])),
        lambda: check_visible(case, "JSON", outs["json"].decode("utf-8")),
        lambda: check_visible(case, "Markdown", outs["md"].decode("utf-8", "replace")),
        lambda: check_visible(case, "text", outs["text"].decode("utf-8", "replace")),
    ]
    for c in checks:
        try:
            c()
        except (ValueError, ET.ParseError) as e:
            fail(case, f"{type(e).__name__}: {e}")


# ---------------------------------------------------------------- broken

def drain(pipe, sink):
    sink.append(pipe.read())
    pipe.close()


def read_options(case_dir):
    opts = {}
    path = os.path.join(case_dir, "options")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#"):
                    key, _, value = line.partition("=")
                    opts[key.strip()] = value.strip()
    return opts


def nobody_ids():
    try:
        pw = pwd.getpwnam("nobody")
        return pw.pw_uid, pw.pw_gid
    except KeyError:
        return None


def broken_case(difffold, case_dir, bless):
    case = os.path.basename(case_dir)
    opts = read_options(case_dir)
    with open(os.path.join(case_dir, "cmd"), encoding="utf-8") as f:
        cmd = f.read().strip()
    tmp = tempfile.mkdtemp(prefix="difffold-broken-")
    try:
        return broken_run(difffold, case_dir, case, opts, cmd, tmp, bless)
    finally:
        for root, dirs, files in os.walk(tmp):
            for n in dirs + files:
                try:
                    os.chmod(os.path.join(root, n), 0o700)
                except OSError:
                    pass
        shutil.rmtree(tmp, ignore_errors=True)


def expand(text, subst):
    for key, value in subst.items():
        text = text.replace(key, value)
    return text


def broken_run(difffold, case_dir, case, opts, cmd, tmp, bless):
    out = os.path.join(tmp, "out")
    os.mkdir(out)
    subst = {"@CASE@": case_dir, "@OUT@": out, "@TMP@": tmp}
    for name in re.findall(r"@GEN:([a-z0-9-]+)@", cmd):
        subst[f"@GEN:{name}@"] = GENERATORS[name](tmp)
    args = [expand(a, subst) for a in shlex.split(cmd)]
    preexec = None
    if opts.get("as-nobody") == "yes":
        if os.geteuid() == 0:
            ids = nobody_ids()
            if ids is None:
                print(f"SKIP {case}: running as root and there is no user nobody")
                return "skip"
            # nobody must reach the files: open up the temporary folder.
            os.chmod(tmp, 0o755)
            os.chmod(out, 0o777)

            def preexec():
                os.setgroups([])
                os.setgid(ids[1])
                os.setuid(ids[0])
    if "fsize" in opts:
        limit = int(opts["fsize"])
        inner = preexec

        def preexec():
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
            if inner:
                inner()
    stream = opts.get("stdin")
    if "stdout" in opts:
        stdout_to = open(opts["stdout"], "wb")
    else:
        stdout_to = subprocess.DEVNULL if stream else subprocess.PIPE
    proc = subprocess.Popen([difffold] + args, stdin=subprocess.PIPE if stream else
                            subprocess.DEVNULL, stdout=stdout_to, stderr=subprocess.PIPE,
                            preexec_fn=preexec, cwd=tmp)
    if "stdout" in opts:
        stdout_to.close()
    writer = None
    if stream:
        writer = threading.Thread(target=STREAMS[stream], args=(proc.stdin,), daemon=True)
        writer.start()
    # Drain the pipes in threads and reap the process with wait4 for its
    # peak RSS (communicate() would also close stdin under the writer).
    stderr_parts = []
    readers = [threading.Thread(target=drain, args=(proc.stderr, stderr_parts), daemon=True)]
    if proc.stdout:
        if "sigpipe" in opts:
            proc.stdout.read(int(opts["sigpipe"]))
            proc.stdout.close()
        else:
            readers.append(threading.Thread(target=drain, args=(proc.stdout, []), daemon=True))
    for t in readers:
        t.start()
    watchdog = threading.Timer(TIMEOUT, proc.kill)
    watchdog.start()
    _, status, usage = os.wait4(proc.pid, 0)
    watchdog.cancel()
    code = proc.returncode = os.waitstatus_to_exitcode(status)
    for t in readers + ([writer] if writer else []):
        t.join(timeout=TIMEOUT)
    stderr = b"".join(stderr_parts)
    rss_mb = usage.ru_maxrss / 1024
    if "max-rss-mb" in opts and rss_mb > float(opts["max-rss-mb"]):
        fail(case, f"peak RSS {rss_mb:.0f} MB, limit {opts['max-rss-mb']} MB")
    err_text = stderr.decode("utf-8", "replace")
    # Longest first, so @OUT@ (inside @TMP@) wins.
    for key, value in sorted(subst.items(), key=lambda kv: -len(kv[1])):
        err_text = err_text.replace(value, key)
    exp_exit_path = os.path.join(case_dir, "expected-exit")
    exp_err_path = os.path.join(case_dir, "expected-stderr")
    if bless:
        with open(exp_exit_path, "w", encoding="utf-8") as f:
            f.write(f"{code}\n")
        with open(exp_err_path, "w", encoding="utf-8") as f:
            f.write(err_text)
    with open(exp_exit_path, encoding="utf-8") as f:
        want_exit = int(f.read().strip())
    with open(exp_err_path, encoding="utf-8") as f:
        want_err = f.read()
    if code != want_exit:
        fail(case, f"exit {code}, expected {want_exit}; stderr: {err_text!r}")
    if err_text != want_err:
        fail(case, f"stderr {err_text!r}, expected {want_err!r}")
    # Exactly the outputs that were completed: no partial file, no temporary.
    left = sorted(os.listdir(out))
    want = sorted(opts.get("outputs", "").split())
    if left != want:
        fail(case, f"output folder holds {left}, expected {want}")
    return "ran"


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--difffold", required=True)
    ap.add_argument("--suite", choices=("hostile", "broken"), required=True)
    ap.add_argument("--bless", action="store_true", help="rewrite broken/*/expected-*")
    ap.add_argument("cases", nargs="*")
    a = ap.parse_args()
    difffold = os.path.abspath(a.difffold)
    root = os.path.join(HERE, a.suite)
    cases = a.cases or sorted(n for n in os.listdir(root)
                              if os.path.isdir(os.path.join(root, n)))
    ran = 0
    with tempfile.TemporaryDirectory(prefix="difffold-hostile-") as tmp:
        base = Baseline(difffold, tmp) if a.suite == "hostile" else None
        for name in cases:
            case_dir = os.path.join(root, name)
            before = len(failures)
            if a.suite == "hostile":
                hostile_case(difffold, case_dir, base)
                result = "ran"
            else:
                result = broken_case(difffold, case_dir, a.bless)
            if result == "ran":
                ran += 1
                if len(failures) == before:
                    print(f"ok   {name}", flush=True)
    print(f"{ran} case(s) run, {len(failures)} failure(s)")
    if failures:
        return 1
    return 0 if ran else 77


if __name__ == "__main__":
    sys.exit(main())
