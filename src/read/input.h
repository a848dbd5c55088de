/*
 * input: reads the profiles the options name (base and head, each one or
 * more files, or one profile of 2 or 3 columns) into one finished tree.
 * The place where readers plug in: each file's format is judged by its
 * first bytes (detect.c) and read by its reader (folded.c, callgrind.c, perf.c,
 * speedscope.c, gecko.c, dhat.c, pprof.c, massif.c);
 * a file of a format no reader reads is refused with advice.
 *
 * The folded files of big inputs are read on two threads (one reads and
 * hashes, the other builds the tree), with the same result and messages as
 * on one; DIFFFOLD_READ_THREADS=1 or 2 forces either way, for measuring.
 * A progress line goes to stderr while big inputs are read on a terminal.
 * Warnings and errors are appended to `messages`, never printed here.
 */
#ifndef DIFFFOLD_INPUT_H
#define DIFFFOLD_INPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "buf.h"
#include "options.h"
#include "tree.h"

/* What the inputs said beyond their stacks, for the picture and reports. */
struct input_info {
	bool folded, callgrind, perf; /* which readers read a file */
	char event[64]; /* callgrind: the event read */
	const char *countname; /* its unit ("instructions"), NULL: none */
	bool reconstructed; /* callgrind stacks expanded from the call graph */
	uint64_t unexpanded; /* cost drawn under [unexpanded] */
	/* perf script: the event read ("" when the sides read different ones) */
	char perf_event[64];
	uint64_t perf_samples[2]; /* samples read, indexed by enum side */
	char note[192]; /* "perf script: N samples of EVENT", for the header */
	char perf_unit[64]; /* --weight period: the event's name, the count name */
	/* The JSON readers (speedscope, gecko, dhat): their counts' unit, static */
	bool json;
	const char *json_unit; /* NULL: none, or the files' units differ */
	char json_note[96]; /* DHAT: the metric read, for the header; "" none */
	/* pprof and massif: what was read and its unit ("" when files differ) */
	bool pprof, massif;
	uint32_t unit_files; /* files that named their unit */
	char unit_note[128]; /* "pprof: sample type cpu (nanoseconds)" */
	char unit[64]; /* "nanoseconds", "bytes": the count name */
};

/*
 * Reads the inputs into a new tree, finished (tree_finish), in *out for
 * the caller to destroy. messages gets one line per warning and, when it
 * returns false (bad input, I/O, a limit), the error; *out is then NULL.
 * *info says which readers read a file and what callgrind files said.
 */
bool input_read(
        const struct options *o, struct tree **out, struct input_info *info, struct buf *messages);

#endif
