/*
 * readers: the one table of the profile readers and the one way to run
 * them. Each entry says what a reader is called (--input-format), which
 * detected format it reads, how it reads a file, what its counts are
 * (exact or sampled) and how its files make the picture's note. input.c,
 * the unit tests and the fuzzer all read through readers_read, so adding
 * a reader is its own file, one line of the table and its tests.
 *
 * The types every reader shares are in reader.h; input.c sums a side's
 * results with readers_sum_add.
 */
#ifndef DIFFFOLD_READERS_H
#define DIFFFOLD_READERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "detect.h"
#include "reader.h"

/* The defaults of every reader (callgrind's floor, massif's peak). */
void readers_options_init(struct read_options *ro);

struct profile_reader {
	const char *name; /* as --input-format takes it */
	enum input_format format;
	readers_read_fn *read;
	/* NULL: the files' note when they agree, else none. */
	readers_note_fn *note;
	/*
	 * NULL: stacks reach the tree in the file's order, which is time's for
	 * a flame chart (--flamechart); else why the file has no such order.
	 */
	const char *unordered;
};

/* At most this many readers: the size of per-reader arrays. */
#define READERS_MAX 16

/* The reader of a detected format, NULL when none reads it. */
const struct profile_reader *readers_for(enum input_format f);
/* The reader called name (--input-format), NULL if none. */
const struct profile_reader *readers_find(const char *name);
/* Appends the readers' names to b, last before the last: ", perf or folded". */
void readers_list(struct buf *b, const char *last);
/* The readers in order of precedence for the note and unit; NULL ends it. */
const struct profile_reader *readers_at(size_t i);

/* Runs r over src; res is cleared first. */
bool readers_read(const struct profile_reader *r, struct tree *t, enum folded_mode mode,
        struct source *src, const char *head, size_t head_len, const struct read_options *ro,
        struct read_result *res, struct diag *err);
/* The same over bytes in memory; name is for messages (tests, the fuzzer). */
bool readers_read_mem(const struct profile_reader *r, struct tree *t, enum folded_mode mode,
        const char *name, const char *data, size_t len, const struct read_options *ro,
        struct read_result *res, struct diag *err);
/* The same over a file ("-": standard input), gzip or not. */
bool readers_read_file(const struct profile_reader *r, struct tree *t, enum folded_mode mode,
        const char *path, const struct read_options *ro, struct read_result *res, struct diag *err);

/* Adds one file's result to a sum (zeroed to start). */
void readers_sum_add(struct read_sum *s, const struct read_result *res, enum side side);
/* Adds a sum into another (both sides into the whole input). */
void readers_sum_merge(struct read_sum *into, const struct read_sum *from);

#endif
