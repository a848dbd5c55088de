/*
 * readers: the one table of the profile readers and the one way to run
 * them. Each entry says what a reader is called (--input-format), which
 * detected format it reads, how it reads a file, what its counts are
 * (exact or sampled) and how its files make the picture's note. input.c,
 * the unit tests and the fuzzer all read through readers_read, so adding
 * a reader is its own file, one line of the table and its tests.
 *
 * A reader fills a struct read_result per file; input.c sums the results
 * of a side with readers_sum_add and asks readers_note for the subtitle.
 */
#ifndef DIFFFOLD_READERS_H
#define DIFFFOLD_READERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "detect.h"
#include "diag.h"
#include "folded.h"
#include "source.h"
#include "tree.h"

/* What the readers take from the command line (src/read sees no options.h). */
struct read_options {
	/* --event: callgrind event, perf event, pprof sample type, DHAT metric;
	 * NULL: each reader's default. */
	const char *event;
	bool objects; /* callgrind: frames named `function [object]` */
	double floor; /* callgrind: share under which a branch stays unexpanded */
	bool weight_period; /* perf: a sample counts its period */
	bool stackcollapse; /* perf: frames named as stackcollapse-perf.pl names them */
	long snapshot; /* massif: a snapshot's number, or -1 for the peak */
	bool strict; /* folded: the first bad line is fatal */
	bool threaded; /* folded: read on two threads */
};

/* The defaults of every reader (callgrind's floor, massif's peak). */
void readers_options_init(struct read_options *ro);

/* What one file said beyond its stacks. */
struct read_result {
	/* The count name the picture and reports use ("instructions"); "" none. */
	char unit[64];
	/* What the counts measure, to compare two sides ("instructions", "samples
	 * of cycles", "heap bytes in use"); "" the reader does not say (folded
	 * stacks), which compares with anything. */
	char measure[160];
	/* The picture's note for this file ("pprof: sample type cpu ..."), "" none. */
	char note[192];
	/* The event or type read: files of different keys share no note. */
	char key[64];
	bool flag; /* reader's own: callgrind stacks rebuilt, perf weighted */
	bool exact; /* counts the same on every run, not sampled */
	uint64_t samples; /* perf: samples read */
	struct folded_stats folded; /* folded: lines read, bad lines, columns */
};

/* Several files of one reader, summed per side or for both. */
struct read_sum {
	uint32_t files;
	struct read_result first; /* the first file's result */
	bool unit_mixed, measure_mixed, note_mixed, key_mixed;
	bool flag; /* any file's flag */
	bool exact; /* every file's counts exact */
	uint64_t samples[2]; /* indexed by enum side */
};

/*
 * Reads the rest of src (head_len bytes already read from it first) into
 * t: mode says the side (FOLDED_AUTO: one profile, the head unless it has
 * 3 columns). False with err set when the file is refused.
 */
typedef bool readers_read_fn(struct tree *t, enum folded_mode mode, struct source *src,
        const char *head, size_t head_len, const struct read_options *ro, struct read_result *res,
        struct diag *err);

/* The picture's note from all files of a reader; single: one profile. */
typedef void readers_note_fn(const struct read_sum *s, bool single, char *dst, size_t cap);

struct profile_reader {
	const char *name; /* as --input-format takes it */
	enum input_format format;
	readers_read_fn *read;
	/* NULL: the files' note when they agree, else none. */
	readers_note_fn *note;
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
/* The side a mode reads into: the head for a single profile. */
enum side readers_side(enum folded_mode mode);

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

/* A JSON profile's unit (static, NULL: none) as its count name and measure. */
void readers_json_unit(struct read_result *res, const char *unit);

/* Adds one file's result to a sum (zeroed to start). */
void readers_sum_add(struct read_sum *s, const struct read_result *res, enum side side);
/* Adds a sum into another (both sides into the whole input). */
void readers_sum_merge(struct read_sum *into, const struct read_sum *from);

/*
 * The per-reader reading functions the table points at; each lives in its
 * reader's file.
 */
readers_read_fn folded_read, callgrind_read, perf_read, pprof_read, massif_read, speedscope_read,
        gecko_read, dhat_read;
readers_note_fn callgrind_note, perf_note;

#endif
