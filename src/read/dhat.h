/*
 * dhat: the reader of valgrind DHAT's JSON output (dhat.out.PID, format
 * version 2). Each program point (`pps`) is a stack, `fs`: indices into
 * the frame table `ftbl`, the allocating function first; it counts one
 * metric, total bytes (`tb`) unless another is chosen (--event tbk, tl,
 * mb, mbk, gb, gbk, eb, ebk, rb, wb). Frames are named as callgrind names
 * them by default and as the massif reader does: the function alone, its
 * address ("0x4C2DB8F: ") and place (" (file.c:12)", " (in /lib/x.so)")
 * stripped, so two runs of a program rebuilt at other addresses merge.
 */
#ifndef DIFFFOLD_DHAT_H
#define DIFFFOLD_DHAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "reader.h"
#include "source.h"
#include "tree.h"

struct dhat_info {
	const char *unit; /* "bytes", "blocks", "instructions" (static); NULL: none */
	char metric[8]; /* the metric read ("tb") */
	const char *what; /* what it counts ("total bytes allocated"), static */
	uint64_t points; /* program points read */
};

/* The reader as the table runs it (readers.h). */
readers_read_fn dhat_read;

/* Whether name is a metric DHAT writes ("tb", "mbk"...). */
bool dhat_metric_known(const char *name);

#endif
