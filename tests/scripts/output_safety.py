#!/usr/bin/env python3
"""Output that never destroys anything (issue 21, items 1-6).

Usage: output_safety.py DIFFFOLD [SECTION...]
Sections: links, pipes, signals, memory, modes, fds (default all).

  links    -o through symbolic links (to a file, to a link, dangling,
           relative in another folder, to /proc/self/fd/1) writes the final
           target and keeps every link; -o /dev/fd/1 and /proc/self/fd/1
           write our standard output. Never touches the real /dev.
  pipes    a broken pipe on one -o target (standard output, a FIFO) still
           writes the other outputs and exits 1 with a message.
  signals  SIGHUP, SIGINT, SIGQUIT, SIGTERM while a big output is written:
           killed by that signal, no temporary file left.
  memory   ulimit -v at many limits, each format: exit 0 or 1 (or 127 when
           the loader cannot even start the binary), a message on exit 1,
           never a leftover file.
  modes    a replaced file keeps its mode and owner; a read-only file is
           refused for a user (as nobody) and replaced, mode kept, by root.
  fds      descriptors 0, 1, 2 closed at start: no output file takes them.

Exit status 0 pass, 1 fail, 77 skip (for meson).
"""
import os
import pwd
import resource
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "tools"))
from other_user import drop_to, runnable_as  # noqa: E402

TIMEOUT = 120
failures = []
skipped = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, flush=True)
    return cond


def gen(path, lines, depth=3):
    """A profile of `lines` distinct stacks, so outputs grow with it."""
    with open(path, "w", encoding="ascii") as f:
        for i in range(lines):
            frames = [f"m{i % 97}"] + [f"f{d}_{i % (31 * (d + 2))}" for d in range(depth)]
            f.write(";".join(frames) + f";leaf{i} {i % 13 + 1}\n")
    return path


def temps(folder):
    return sorted(n for n in os.listdir(folder) if n.startswith(".difffold-"))


def run(exe, args, **kw):
    kw.setdefault("capture_output", True)
    return subprocess.run([exe] + args, timeout=TIMEOUT, **kw)


def run_closed(exe, args, closed, env=None):
    """Runs with the descriptors in `closed` closed (sh's n>&- / n<&-)."""
    redir = " ".join(f"{n}<&-" if n == 0 else f"{n}>&-" for n in closed)
    script = f'exec "$0" "$@" {redir}'
    return subprocess.run(["sh", "-c", script, exe] + args, capture_output=True,
                          timeout=TIMEOUT, env=env)


def read(path):
    with open(path, "rb") as f:
        return f.read()


# ---------------------------------------------------------------- links

def section_links(exe, tmp, prof):
    want = run(exe, ["-f", "json", prof, prof]).stdout
    check(want.startswith(b"{"), "reference JSON on standard output")
    d = os.path.join(tmp, "links")
    other = os.path.join(tmp, "other")
    os.mkdir(d)
    os.mkdir(other)
    real = os.path.join(other, "real.json")
    with open(real, "w") as f:
        f.write("old\n")
    os.chmod(real, 0o600)
    # A relative link into another folder, and a link to that link.
    os.symlink("../other/real.json", os.path.join(d, "l1"))
    os.symlink("l1", os.path.join(d, "l2"))
    for name in ("l1", "l2"):
        r = run(exe, ["-f", "json", "-o", os.path.join(d, name), prof, prof])
        check(r.returncode == 0, f"-o {name}: exit {r.returncode}: {r.stderr!r}")
        check(os.path.islink(os.path.join(d, "l1")), f"-o {name}: l1 is still a link")
        check(os.path.islink(os.path.join(d, "l2")), f"-o {name}: l2 is still a link")
        check(read(real) == want, f"-o {name}: the link's final target holds the output")
        check(stat.S_IMODE(os.stat(real).st_mode) == 0o600, f"-o {name}: target keeps 0600")
    # A dangling link creates the file it points to.
    os.symlink("../other/new.json", os.path.join(d, "dangling"))
    r = run(exe, ["-f", "json", "-o", os.path.join(d, "dangling"), prof, prof])
    check(r.returncode == 0, f"-o dangling: exit {r.returncode}: {r.stderr!r}")
    check(os.path.islink(os.path.join(d, "dangling")), "-o dangling: still a link")
    new = os.path.join(other, "new.json")
    check(os.path.isfile(new) and read(new) == want, "-o dangling: creates its target")
    # A private stand-in for /dev/stdout: the link must survive, the output
    # must reach the real standard output.
    fake = os.path.join(d, "stdout")
    os.symlink("/proc/self/fd/1", fake)
    for target in (fake, "/dev/fd/1", "/proc/self/fd/1"):
        sink = os.path.join(tmp, "sink")
        with open(sink, "wb") as f:
            r = run(exe, ["-f", "json", "-o", target, prof, prof], stdout=f,
                    stderr=subprocess.PIPE, capture_output=False)
        check(r.returncode == 0, f"-o {target} > file: exit {r.returncode}: {r.stderr!r}")
        check(read(sink) == want, f"-o {target} > file: the output is in standard output")
        r = run(exe, ["-f", "json", "-o", target, prof, prof])
        check(r.returncode == 0 and r.stdout == want, f"-o {target} | pipe: output in the pipe")
    check(os.path.islink(fake), "-o link-to-/proc/self/fd/1: the link is still a link")
    # Standard output closed: an error, and the link stays.
    r = run_closed(exe, ["-f", "json", "-o", fake, prof, prof], [1])
    check(r.returncode == 1, f"-o link-to-fd-1 with stdout closed: exit {r.returncode}")
    check(b"Bad file descriptor" in r.stderr, f"stdout closed: message {r.stderr!r}")
    check(os.path.islink(fake), "stdout closed: the link to /proc/self/fd/1 is still a link")
    check(not temps(d) and not temps(other), "no temporary file left by the link cases")


# ---------------------------------------------------------------- pipes

def section_pipes(exe, tmp, big):
    d = os.path.join(tmp, "pipes")
    os.mkdir(d)
    archive = os.path.join(d, "archive.json")
    # Standard output cut after 10 bytes, then a file (-f would set the
    # format of both: a private link named .svg stands for /dev/stdout).
    stdout_svg = os.path.join(d, "stdout.svg")
    os.symlink("/proc/self/fd/1", stdout_svg)
    p = subprocess.Popen([exe, "-o", stdout_svg, "-o", archive, big, big],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.read(10)
    p.stdout.close()
    err = p.stderr.read()
    code = p.wait(timeout=TIMEOUT)
    check(code == 1, f"-o stdout.svg (cut) -o archive.json: exit {code}, expected 1")
    check(os.path.exists(archive) and read(archive).startswith(b"{"),
          "the output after the cut one is written")
    check(b"output cut short: Broken pipe" in err, f"cut output: message {err!r}")
    # A FIFO whose reader leaves, before and after a file.
    fifo = os.path.join(d, "pipe.svg")
    os.mkfifo(fifo)
    if os.path.exists(archive):
        os.unlink(archive)

    def reader():
        with open(fifo, "rb") as f:
            f.read(10)

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    r = run(exe, ["-o", fifo, "-o", archive, big, big])
    t.join(timeout=TIMEOUT)
    check(r.returncode == 1, f"-o fifo (reader leaves) -o archive.json: exit {r.returncode}")
    check(os.path.exists(archive), "FIFO cut: the file after it is written")
    check(b"pipe.svg: output cut short: Broken pipe" in r.stderr, f"FIFO: {r.stderr!r}")
    check(not temps(d), "no temporary file left by the pipe cases")


# ---------------------------------------------------------------- signals

def default_signals():
    """difffold keeps a signal its parent ignored (nohup, a background job,
    where SIGINT and SIGQUIT start ignored): give the child the defaults, so
    the test does not depend on how it was started."""
    for sig in (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)


def kill_during_output(exe, d, big, sig):
    """One attempt: True when the signal landed while the temp file existed."""
    out = os.path.join(d, "out.svg")
    p = subprocess.Popen([exe, "-o", out, big, big], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, preexec_fn=default_signals)
    deadline = time.monotonic() + TIMEOUT
    while not temps(d) and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.0005)
    if p.poll() is not None:  # finished (and reaped) before a temp file was seen
        p.communicate(timeout=TIMEOUT)
        if os.path.exists(out):
            os.unlink(out)
        return False
    os.kill(p.pid, signal.SIGSTOP)  # hold it while we look
    during = bool(temps(d))
    os.kill(p.pid, sig)
    os.kill(p.pid, signal.SIGCONT)
    p.communicate(timeout=TIMEOUT)
    if not during:
        if os.path.exists(out):
            os.unlink(out)
        return False
    check(p.returncode == -sig, f"{signal.Signals(sig).name}: killed by it "
          f"(status {p.returncode})")
    check(not temps(d), f"{signal.Signals(sig).name}: temporary file left: {temps(d)}")
    check(not os.path.exists(out), f"{signal.Signals(sig).name}: a partial out.svg")
    return True


def section_signals(exe, tmp, big):
    d = os.path.join(tmp, "signals")
    os.mkdir(d)
    for sig in (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGTERM):
        for _ in range(20):
            if kill_during_output(exe, d, big, sig):
                break
        else:
            check(False, f"{signal.Signals(sig).name}: never caught difffold writing")
        for n in temps(d):  # keep the next signal's check honest
            os.unlink(os.path.join(d, n))


# ---------------------------------------------------------------- memory

def sanitized(exe):
    with open(exe, "rb") as f:
        data = f.read()
    return b"__asan_init" in data or b"__ubsan_handle" in data


def memory_run(exe, d, fmt, mb, prof):
    """One run under a limit of mb MiB of address space: checks it and
    returns its exit status (None when the binary could not even start)."""
    out = os.path.join(d, "out." + fmt)

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (mb << 20, mb << 20))

    r = run(exe, ["-o", out, prof, prof], preexec_fn=limit)
    err = r.stderr.decode("utf-8", "replace")
    left = [n for n in os.listdir(d) if n != "out." + fmt]
    what = f"-f {fmt} at {mb} MiB"
    code = r.returncode
    if code == 127 and "error while loading shared libraries" in err:
        code = None  # too little to start the binary at all
    else:
        check(code in (0, 1), f"{what}: exit {code}: {err[-300:]!r}")
    check(not left, f"{what}: files left behind: {left}")
    if code == 0:
        check(os.path.exists(out), f"{what}: exit 0 without the output")
    elif code is not None:
        check("out of memory" in err, f"{what}: exit {code} without 'out of memory': {err!r}")
        check(not os.path.exists(out), f"{what}: exit {code} but the output exists")
    if os.path.exists(out):
        os.unlink(out)
    return code


def section_memory(exe, tmp, prof):
    if sanitized(exe):
        skipped.append("memory: sanitizer build (ulimit -v stops the sanitizer itself)")
        return
    d = os.path.join(tmp, "memory")
    os.mkdir(d)
    failed = {}
    for fmt in ("svg", "json", "md", "png", "pdf"):
        # The least limit that passes, then every MiB below it: the last
        # allocations to fail are those of writing the output.
        lo, hi = 4, 512
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if memory_run(exe, d, fmt, mid, prof) == 0:
                hi = mid
            else:
                lo = mid
        codes = [memory_run(exe, d, fmt, mb, prof) for mb in range(max(hi - 24, 4), hi + 8)]
        failed[fmt] = (hi, codes.count(1))
        check(codes.count(1) > 0, f"memory: no limit made -f {fmt} run out of memory")
    print(f"memory: (least passing MiB, runs out of memory below it) per format: {failed}",
          flush=True)


# ---------------------------------------------------------------- modes

def nobody():
    try:
        pw = pwd.getpwnam("nobody")
        return pw.pw_uid, pw.pw_gid
    except KeyError:
        return None


def section_modes(exe, tmp, prof):
    d = os.path.join(tmp, "modes")
    os.mkdir(d)
    os.chmod(tmp, 0o755)
    os.chmod(d, 0o777)
    private = os.path.join(d, "private.json")
    with open(private, "w") as f:
        f.write("old\n")
    os.chmod(private, 0o600)
    r = run(exe, ["-o", private, prof, prof])
    check(r.returncode == 0, f"replace 0600: exit {r.returncode}")
    check(stat.S_IMODE(os.stat(private).st_mode) == 0o600,
          f"replaced file keeps 0600 (has {oct(stat.S_IMODE(os.stat(private).st_mode))})")
    ids = nobody()
    if os.geteuid() != 0 or ids is None:
        skipped.append("modes: owner and read-only checks need root and a user nobody")
        return
    # Root replaces a file of another user: owner, group and mode stay.
    owned = os.path.join(d, "owned.json")
    with open(owned, "w") as f:
        f.write("old\n")
    os.chown(owned, ids[0], ids[1])
    os.chmod(owned, 0o640)
    r = run(exe, ["-o", owned, prof, prof])
    st = os.stat(owned)
    check(r.returncode == 0 and read(owned).startswith(b"{"), "root replaces nobody's file")
    check((st.st_uid, st.st_gid) == ids, f"owner kept ({st.st_uid}:{st.st_gid})")
    check(stat.S_IMODE(st.st_mode) == 0o640, f"mode 0640 kept ({oct(stat.S_IMODE(st.st_mode))})")
    # A read-only file: a user is refused, like cp; root replaces, mode kept.
    ro = os.path.join(d, "ro.json")
    with open(ro, "w") as f:
        f.write("old\n")
    os.chown(ro, ids[0], ids[1])
    os.chmod(ro, 0o444)
    # The user may not reach the build (a clone under /root): a copy it can.
    user_exe, why = runnable_as(exe, ids)
    if user_exe is None:
        skipped.append("modes: the read-only file as nobody: " + why)
    else:
        r = run(user_exe, ["-o", ro, prof, prof], preexec_fn=drop_to(ids))
        check(r.returncode == 1, f"read-only file as nobody: exit {r.returncode}")
        check(r.stderr == f"difffold: {ro}: cannot open output file: Permission denied\n"
              .encode(), f"read-only file as nobody: message {r.stderr!r}")
        check(read(ro) == b"old\n", "read-only file as nobody: left alone")
    r = run(exe, ["-o", ro, prof, prof])
    check(r.returncode == 0 and read(ro).startswith(b"{"), "read-only file: root replaces it")
    check(stat.S_IMODE(os.stat(ro).st_mode) == 0o444, "read-only file: root keeps 0444")
    check(not temps(d), "no temporary file left by the mode cases")


# ---------------------------------------------------------------- fds

def section_fds(exe, tmp, prof):
    d = os.path.join(tmp, "fds")
    os.mkdir(d)
    ref = os.path.join(d, "ref.png")
    r = run(exe, ["-o", ref, prof, prof])
    check(r.returncode == 0, f"reference PNG: exit {r.returncode}")
    # No system fontconfig file: fontconfig complains on descriptor 2.
    env = dict(os.environ, FONTCONFIG_FILE=os.path.join(tmp, "no-such-fonts.conf"))
    for closed in ([0], [1], [2], [0, 1, 2]):
        out = os.path.join(d, "out.png")
        r = run_closed(exe, ["-o", out, prof, prof], closed, env=env)
        check(r.returncode == 0, f"fds {closed} closed: exit {r.returncode}")
        check(os.path.exists(out) and read(out) == read(ref),
              f"fds {closed} closed: the PNG is the same as with them open")
    # Standard output closed: writing to it fails cleanly, as before.
    r = run_closed(exe, ["-f", "json", prof, prof], [1])
    check(r.returncode == 1 and b"<stdout>: write error: Bad file descriptor" in r.stderr,
          f"stdout closed, output to stdout: exit {r.returncode} {r.stderr!r}")
    r = run_closed(exe, ["-f", "json", "-"], [0])
    check(r.returncode == 1, f"stdin closed, '-' read: exit {r.returncode} {r.stderr!r}")
    check(not temps(d), "no temporary file left by the descriptor cases")


SECTIONS = ("links", "pipes", "signals", "memory", "modes", "fds")


def main():
    exe = os.path.abspath(sys.argv[1])
    wanted = sys.argv[2:] or SECTIONS
    with tempfile.TemporaryDirectory(prefix="difffold-output-") as tmp:
        prof = gen(os.path.join(tmp, "small.folded"), 3000)
        big = gen(os.path.join(tmp, "big.folded"), 200_000, depth=5)
        for name in wanted:
            before, skips = len(failures), len(skipped)
            if name in ("pipes", "signals"):
                globals()["section_" + name](exe, tmp, big)
            else:
                globals()["section_" + name](exe, tmp, prof)
            if len(failures) != before:
                print("FAIL " + name, flush=True)
            else:
                print(("ok   " if len(skipped) == skips else "ok (part skipped) ") + name,
                      flush=True)
    for s in skipped:
        print("SKIP", s)
    print(f"{len(failures)} failure(s), {len(skipped)} part(s) skipped")
    return 1 if failures else 77 if skipped else 0


if __name__ == "__main__":
    sys.exit(main())
