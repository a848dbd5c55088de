"""The C runtime's start-up frames, as docs/input.md states the rule, written
again here for the profilers' tests (callgrind, perf) to check difffold by.

A stack's leading run of start-up frames (the entry point's bare address,
_start, __libc_start_main..., valgrind's "(below main)") is drawn as one
frame, "(below main)", unless --show-below-main keeps them.
"""
import re

STARTUP = re.compile(r"0x[0-9a-fA-F]+|_start|_dl_start_user|__libc_start_call_main|"
                     r"libc_start_main_stage2|__libc_start_main.*")


def startup_frame(frame):
    """Whether a frame is one of the C runtime's start-up frames."""
    frame = re.sub(r" \[[^]]*\]$", "", frame)  # callgrind --objects
    if frame.endswith("(below main)"):
        return True
    m = re.search(r"(?<!:):(?!:)([^:]*)$", frame)  # callgrind's file:name
    return bool(STARTUP.fullmatch(m.group(1) if m else frame))


def collapse(frames):
    """frames (outermost first) with their leading start-up run as one frame."""
    k = 0
    while k < len(frames) and startup_frame(frames[k]):
        k += 1
    return (["(below main)"] if k else []) + frames[k:]
