#!/usr/bin/env python3
"""Real perf script files made during the test run, read by difffold.

usage: run.py DIFFFOLD

Compiles a small C program, records it with `perf record -g` (and with two
events, with --call-graph dwarf, and without call chains), turns each perf.data into text with
`perf script`, and checks difffold against a model written here from the
documented rules (docs/input.md):
  - `-f folded` equals the model's fold of the same text, stack by stack;
  - the total equals the number of samples (the sample header lines), and
    with --weight period the sum of their periods;
  - the header says how many samples of which event were read;
  - every perf script -F selection of perf-script(1)'s examples and every
    field it lists is recognised and reads to the same stacks;
  - the C runtime's frames under main are one frame, (below main), unless
    --show-below-main keeps them (tests/profilers/below_main.py);
  - two events are refused with their list unless --event picks one;
  - perf.data itself is refused with the perf script command that reads it.
perf must be able to record here: when it is missing or cannot record (for
example kernel.perf_event_paranoid forbids it), the test says so and FAILS,
it never skips (.ci/setup installs linux-perf).
"""
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import below_main  # noqa: E402  (tests/profilers/below_main.py)

PROGRAM = r"""
static volatile unsigned long sink;
__attribute__((noinline)) static void leaf(int n) { for (int i = 0; i < n; i++) sink += i * 7; }
__attribute__((noinline)) static void helper(int n) { leaf(n); leaf(n / 2); }
__attribute__((noinline)) static void left(void) { helper(20000); sink++; }
__attribute__((noinline)) static void right(void) { helper(40000); sink++; }
int main(void)
{
	for (int k = 0; k < 3000; k++) {
		left();
		right();
	}
	return (int)(sink & 1);
}
"""

passed, failures = [], []


def check(ok, what):
    (passed if ok else failures).append(what)
    print(("ok - " if ok else "FAIL - ") + what)


def run(cmd, check=False, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=check, **kw)


HEADER = re.compile(r"^\s*(.+?)\s+\d+(?:/\d+)?\s+(?:\[\d+\]\s+)?\d+\.\d+:\s+(?:(\d+)\s+)?(\S+):\s*(.*)$")
FRAME = re.compile(r"^\s+([0-9a-fA-F]+)\s+(.+?)(?:\s+\((.*)\))?$")


def frame_name(addr, sym, dso):
    """One frame, by the rules docs/input.md states."""
    if dso == "inlined":
        dso = None
    sym = re.sub(r"\+0x[0-9a-fA-F]+$", "", sym) or "[unknown]"
    name = sym.replace(";", ":")
    kernel = int(addr, 16) >= 0xFFFF800000000000 or dso == "[kernel.kallsyms]" or (
        dso is not None and dso.endswith("vmlinux"))
    return name + "_[k]" if kernel else name


def model(text, event=None, period=False, keep_startup=False):
    """Stack -> count, the number of samples, and the events seen; the C
    runtime's frames under main one frame unless keep_startup."""
    stacks, samples, events = collections.Counter(), 0, []
    current = None

    def end():
        nonlocal current, samples
        if current is not None and current[0] is not None:
            comm, weight, frames = current
            frames = frames[::-1] if keep_startup else below_main.collapse(frames[::-1])
            stacks[";".join([comm] + frames)] += weight
            samples += 1
        current = None

    for line in text.splitlines():
        line = line.rstrip()
        if not line:
            end()
        elif line.startswith("#"):
            continue
        elif current is not None and current[2] and line[0].isspace():
            m = FRAME.match(line)
            current[2].append(frame_name(*m.groups()))
        elif HEADER.match(line):
            end()
            comm, per, ev, rest = HEADER.match(line).groups()
            if ev not in events:
                events.append(ev)
            take = event is None or ev == event or ev.split(":")[0] == event
            weight = int(per) if period else 1
            current = [comm.replace(" ", "_").replace(";", ":") if take else None, weight, []]
            if rest and FRAME.match(" " + rest):
                current[2].append(frame_name(*FRAME.match(" " + rest).groups()))
                end()
        else:
            m = FRAME.match(line)
            if m is None or current is None:
                raise ValueError("line the model does not know: %r" % line)
            current[2].append(frame_name(*m.groups()))
    end()
    return stacks, samples, events


def folded(exe, *args):
    p = run([exe, "-f", "folded"] + list(args))
    if p.returncode != 0:
        return None, p.stderr.decode("utf-8", "replace")
    got = collections.Counter()
    for line in p.stdout.decode("utf-8").splitlines():
        if line and not line.startswith("#"):
            stack, n = line.rsplit(" ", 1)
            got[stack] += int(n)
    return got, ""


def record(tmp, prog, name, extra):
    data = os.path.join(tmp, name + ".data")
    rec = run(["perf", "record", "-q", "-o", data] + extra + [prog])
    if rec.returncode != 0 or not os.path.exists(data):
        return None, rec.stderr.decode("utf-8", "replace").strip()
    text = os.path.join(tmp, name + ".perf")
    with open(text, "wb") as f:
        f.write(run(["perf", "script", "-i", data], check=True).stdout)
    return (data, text), ""


def check_fold(exe, text, what, *args, event=None, period=False):
    with open(text, encoding="utf-8", errors="replace") as f:
        want, samples, _ = model(f.read(), event, period)
    got, err = folded(exe, text, *args)
    check(got == want, "%s: -f folded equals the model's fold (%d stacks)%s" %
          (what, len(want), " " + err.strip()[:120] if err else ""))
    return got, samples


def check_g(exe, tmp, prog):
    made, err = record(tmp, prog, "g", ["-g"])
    if not made:
        check(False, "perf record -g works here (%s)" % err[:200])
        return
    data, text = made
    got, samples = check_fold(exe, text, "perf record -g")
    with open(text, encoding="utf-8", errors="replace") as f:
        kept = model(f.read(), keep_startup=True)[0]
    check(folded(exe, text, "--show-below-main")[0] == kept and
          any(";(below main);main;" in s for s in got or ()) and
          not any(";(below main);main;" in s for s in kept),
          "--show-below-main keeps the C runtime's frames the default draws as (below main)")
    check(got is not None and samples > 0 and sum(got.values()) == samples,
          "the total equals the number of samples (%d)" % samples)
    check(got is not None and any(s.startswith("prog;") and ";main;" in s and s.endswith(";leaf")
                                  for s in got),
          "the command is the root and the leaf the last frame")
    with open(text) as f:
        txt = f.read()
    periods = sum(int(m.group(2)) for m in map(HEADER.match, txt.splitlines()) if m and m.group(2))
    got, _ = check_fold(exe, text, "--weight period", "--weight", "period", period=True)
    check(got is not None and sum(got.values()) == periods,
          "--weight period: the total equals the sum of periods (%d)" % periods)
    report = run([exe, "-f", "text", text]).stdout.decode("utf-8", "replace")
    check(re.search(r"perf script: %d samples of \S+" % samples, report) is not None,
          "the report says how many samples of which event")
    report = run([exe, "-f", "text", text, text]).stdout.decode("utf-8", "replace")
    check(re.search(r"perf script: %d base and %d head samples of " % (samples, samples),
                    report) is not None, "the report counts the samples of each side")
    with open(text, "rb") as f:
        piped = run([exe, "-f", "folded", "-"], stdin=f).stdout
    check(piped == run([exe, "-f", "folded", text]).stdout, "standard input reads the same")
    p = run([exe, data])
    err = p.stderr.decode("utf-8", "replace")
    check(p.returncode == 1 and "looks like perf.data" in err and "perf script -i" in err,
          "perf.data is refused with the perf script command (%s)" % err.strip()[:100])


# perf script -F selections. The man page's examples (perf-script(1), -F),
# with or without time, cpu, pid/tid, period, event, dso; then each field
# the man page lists added to ip,sym and to the default fields. Every one is
# recognised without --input-format: a header of fields or of none at all
# (-F ip,sym prints it empty) is known by the sample's shape, its frame lines
# and the blank line after them.
SELECTIONS = [
    "comm,tid,time,event,ip,sym,dso",
    "comm,tid,event,ip,sym,dso",
    "comm,pid,tid,cpu,time,period,event,ip,sym,dso",
    "comm,cpu,time,event,ip,sym",
    "comm,time,ip,sym",
    "comm,period,event,ip,sym,dso",
    "comm,event,ip,sym",
    "comm,tid,ip,sym,dso",
    "comm,pid,tid,ip,sym",
    "comm,tid,ip,sym",
    "comm,ip,sym",
    "pid,ip,sym",
    "tid,ip,sym,dso",
    "pid,tid,ip,sym",
    "ip,sym",
    "ip,sym,dso",
    "sw:comm,tid,time,ip,sym",
    "-cpu,+insn",
    "sw:-cpu,-period",
    "+misc",
]
# The fields perf-script(1) lists for -F (perf 6.1).
DOCUMENTED_FIELDS = (
    "comm tid pid time cpu event trace ip sym dso addr symoff srcline period iregs uregs "
    "brstack brstacksym flags bpf-output brstackinsn brstackinsnlen brstackoff callindent "
    "insn insnlen synth phys_addr metric misc srccode ipc data_page_size code_page_size "
    "ins_lat machine_pid vcpu").split()


def without_command(stacks):
    """The stacks of a selection without comm: no command frame at the root."""
    out = collections.Counter()
    for stack, n in stacks.items():
        out[stack.split(";", 1)[1] if ";" in stack else "[unknown]"] += n
    return out


def check_fields(exe, tmp, prog):
    """Every selection reads to the same stacks as perf's default fields
    (recorded with --sample-cpu, so that the cpu field can be printed),
    without the command frame when the selection leaves comm out."""
    made, err = record(tmp, prog, "fields", ["-g", "--sample-cpu"])
    if not made:
        check(False, "perf record -g --sample-cpu works here (%s)" % err[:200])
        return
    data, default = made
    want, _ = folded(exe, default)
    selections = SELECTIONS + ["ip,sym," + f for f in DOCUMENTED_FIELDS] + [
        "comm,tid,time,event,ip,sym,dso," + f for f in DOCUMENTED_FIELDS]
    refused = []
    for sel in selections:
        text = os.path.join(tmp, "fields.perf")
        p = run(["perf", "script", "-i", data, "-F", sel])
        err = p.stderr.decode("utf-8", "replace")
        # perf prints nothing for a field this recording lacks (addr,
        # iregs... of a cpu-clock sample), or which it ignores and prints its
        # default fields instead (bpf-output): not the file asked for.
        if p.returncode != 0 or not p.stdout.strip() or "not valid for" in err:
            refused.append(sel)
            continue
        with open(text, "wb") as f:
            f.write(p.stdout)
        fields = sel.split(":")[-1].split(",")
        # -F +x,-y changes the default fields, which hold comm.
        has_comm = "comm" in fields or fields[0].startswith(("-", "+"))
        expect = want if has_comm else without_command(want)
        got, err = folded(exe, text)
        check(got == expect, "perf script -F %s: recognised, the same stacks as the default "
              "fields%s%s" % (sel, "" if has_comm else " without the command",
                              " " + err.strip()[:160] if err else ""))
    # Not counted as passed: perf itself prints no such file here.
    print("# perf script refuses these selections for a cpu-clock recording: " +
          " ".join(refused))


def check_events(exe, tmp, prog):
    made, err = record(tmp, prog, "two", ["-g", "-e", "cpu-clock", "-e", "task-clock"])
    if not made:
        check(False, "perf record -e cpu-clock -e task-clock works here (%s)" % err[:200])
        return
    _, text = made
    p = run([exe, text])
    err = p.stderr.decode("utf-8", "replace")
    check(p.returncode == 1 and "several events were recorded (" in err and "cpu-clock" in err
          and "task-clock" in err, "two events are refused with their list (%s)" % err.strip())
    for ev in ("cpu-clock", "task-clock"):
        got, samples = check_fold(exe, text, "--event " + ev, "--event", ev, event=ev)
        check(got is not None and sum(got.values()) == samples and samples > 0,
              "--event %s: the total equals its samples (%d)" % (ev, samples))


def check_no_chains(exe, tmp, prog):
    made, err = record(tmp, prog, "flat", [])
    if not made:
        check(False, "perf record without -g works here (%s)" % err[:200])
        return
    got, samples = check_fold(exe, made[1], "perf record without -g (a sample a line)")
    check(got is not None and samples > 0 and sum(got.values()) == samples,
          "without -g: the total equals the number of samples (%d)" % samples)


def check_dwarf(exe, tmp, prog):
    made, err = record(tmp, prog, "dwarf", ["--call-graph", "dwarf,4096", "-F", "999"])
    if not made:
        check(False, "perf record --call-graph dwarf works here (%s)" % err[:200])
        return
    got, samples = check_fold(exe, made[1], "--call-graph dwarf")
    check(got is not None and samples > 0 and sum(got.values()) == samples,
          "--call-graph dwarf: the total equals the number of samples (%d)" % samples)


def main(argv):
    exe = os.path.abspath(argv[1])
    if not shutil.which("perf"):
        print("FAIL - perf is missing: install linux-perf (.ci/setup does)")
        return 1
    tmp = tempfile.mkdtemp(prefix="difffold-perf-")
    try:
        src = os.path.join(tmp, "prog.c")
        with open(src, "w") as f:
            f.write(PROGRAM)
        prog = os.path.join(tmp, "prog")
        run([os.environ.get("CC", "cc"), "-O1", "-g", "-fno-omit-frame-pointer", src, "-o", prog],
            check=True)
        check_g(exe, tmp, prog)
        check_events(exe, tmp, prog)
        check_fields(exe, tmp, prog)
        check_dwarf(exe, tmp, prog)
        check_no_chains(exe, tmp, prog)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (len(passed), len(failures)))
    return 1 if failures or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
