/*
 * startup: the C runtime's start-up frames drawn as one. Native profiles
 * (callgrind, perf) carry the frames that run before main under it: the
 * entry point's bare address, _start, __libc_start_main, valgrind's
 * "(below main)". They are the same in every profile and say nothing of
 * the program, but take a row each at the bottom of the picture. The
 * readers of those formats name a stack's leading run of them with the
 * one frame STARTUP_FRAME, valgrind's own name for them; the counts are
 * untouched (--show-below-main keeps the frames).
 */
#ifndef DIFFFOLD_STARTUP_H
#define DIFFFOLD_STARTUP_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

#define STARTUP_FRAME "(below main)"

/* Whether a frame's name is one of the C runtime's start-up frames. */
bool startup_frame(const char *name, size_t len);

/*
 * The ';'-separated stack in path, from byte `from` (a frame's start):
 * the run of start-up frames there, if any, becomes one STARTUP_FRAME.
 */
void startup_collapse(struct buf *path, size_t from);

#endif
