"""Running difffold as another user (nobody) from a test that runs as root.

A clone may sit where that user cannot reach the binary: under /root (mode
700 on Debian), or in any private folder. runnable_as() then copies the
binary into a fresh folder under the system's temporary directory, which
every user can reach, and checks that the user can start it there. The
binary alone: what runs as another user writes SVG, JSON or text, never
PNG or PDF (the drawing module and the fonts would have to follow it, and
the binary looks for the module in the build folder first). When not even that copy starts (a temporary
directory mounted noexec, say) it returns None and the reason, and the
caller reports the part as skipped, never as passed.

Used by tests/golden/golden.py and tests/scripts/output_safety.py.
"""
import atexit
import os
import shutil
import subprocess
import tempfile


def drop_to(ids):
    """A preexec_fn that becomes the user (uid, gid), with no other groups."""
    def drop():
        os.setgroups([])
        os.setgid(ids[1])
        os.setuid(ids[0])
    return drop


def starts_as(exe, ids):
    """Whether the user starts exe (`--version`); else the reason why not."""
    try:
        r = subprocess.run([exe, "--version"], stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           preexec_fn=drop_to(ids), timeout=60)
    except OSError as e:  # the exec itself, in the child, after the drop
        return False, f"{exe}: {e.strerror}"
    if r.returncode != 0:
        return False, f"{exe} --version as uid {ids[0]}: exit {r.returncode}, " \
                      f"{r.stderr.decode(errors='replace').strip()}"
    return True, None


def copy_for(exe):
    """A copy of the binary in a folder every user can read, removed when
    the test ends."""
    folder = tempfile.mkdtemp(prefix="difffold-as-user-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    os.chmod(folder, 0o755)
    copy = os.path.join(folder, os.path.basename(exe))
    shutil.copy2(exe, copy)
    os.chmod(copy, 0o755)
    return copy


_cache = {}


def runnable_as(exe, ids):
    """(path, None): a difffold the user ids = (uid, gid) can run, exe itself
    when it can already; (None, reason) when even a copy does not start."""
    key = (exe, ids)
    if key not in _cache:
        ok, why = starts_as(exe, ids)
        if ok:
            _cache[key] = (exe, None)
        else:
            copy = copy_for(exe)
            ok, why_copy = starts_as(copy, ids)
            _cache[key] = (copy, None) if ok else (
                None, f"user {ids[0]} cannot run {exe} ({why}) nor a copy ({why_copy})")
    return _cache[key]
