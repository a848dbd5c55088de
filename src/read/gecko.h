/*
 * gecko: the reader of the Firefox Profiler's processed format, as samply
 * and profiler.firefox.com save it. Each thread's samples point into its
 * stackTable (prefix, frame), frames into the frameTable (func), functions
 * into the funcTable (name), names into the string table: the thread's
 * `stringArray` (or older `stringTable`), or `shared.stringArray` in newer
 * versions; tables under `shared` serve the threads without their own.
 *
 * Every thread is read, each under its name as the root frame (as the perf
 * reader puts the command first), so threads stay apart and the same
 * thread of two runs merges. A sample counts its `weight` (1 without), in
 * the unit its `weightType` says. The raw Gecko format (tables of rows
 * with a `schema`) is refused with advice. Samples aggregate by stack
 * index as they stream; names are resolved when the document ends.
 */
#ifndef DIFFFOLD_GECKO_H
#define DIFFFOLD_GECKO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "reader.h"
#include "source.h"
#include "tree.h"

struct gecko_info {
	const char *unit; /* "samples", "milliseconds" or "bytes" (static); NULL: none */
	uint64_t threads; /* threads read */
};

/* The reader as the table runs it (readers.h). */
readers_read_fn gecko_read;

#endif
