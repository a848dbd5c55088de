/*
 * speedscope: the reader of speedscope's JSON file format
 * (https://www.speedscope.app/file-format-schema.json). Frames come from
 * shared.frames (their `name`); each profile is either
 *
 * - "sampled": `samples`, stacks of frame indices from the root, each
 *   counting its `weights` entry (1 each without weights), or
 * - "evented": `events` opening ("O") and closing ("C") frames `at` a
 *   time; the time between two events counts for the stack open then.
 *
 * Every profile of the file (a thread each, as most exporters write them)
 * is summed. Their `unit` ("nanoseconds", "bytes"...; "none" is none) is
 * the count's name; profiles of different units are refused, since summing
 * them means nothing. Stacks aggregate in a trie of frame indices as they
 * stream and get their names at the end, wherever the frames were.
 */
#ifndef DIFFFOLD_SPEEDSCOPE_H
#define DIFFFOLD_SPEEDSCOPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "reader.h"
#include "source.h"
#include "tree.h"

struct speedscope_info {
	const char *unit; /* the profiles' unit ("milliseconds"), static; NULL: none */
	uint64_t profiles; /* profiles read */
};

/* The reader as the table runs it (readers.h). */
readers_read_fn speedscope_read;

#endif
