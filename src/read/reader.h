/*
 * reader: what every profile reader takes and says, with no code of its
 * own, so that the readers and the table that runs them (readers.h) both
 * depend on it and not on each other. A reader fills a struct read_result
 * per file; input.c sums them per side in struct read_sum.
 */
#ifndef DIFFFOLD_READER_H
#define DIFFFOLD_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "source.h"
#include "tree.h"

/* Which side a file is read into. */
enum folded_mode {
	FOLDED_BASE,
	FOLDED_HEAD,
	FOLDED_AUTO, /* 2 columns: head only; 3 columns: base and head */
};

/* What the folded reader says of a file (the others leave it zero). */
struct folded_stats {
	uint64_t lines; /* lines that carried a stack */
	uint64_t bad_lines; /* skipped lines */
	uint64_t first_bad; /* line number of the first one */
	const char *first_bad_reason;
	bool three_column; /* decided on the first line with a stack */
};

/* What the readers take from the command line (src/read sees no options.h). */
struct read_options {
	/* --event: callgrind event, perf event, pprof sample type, DHAT metric;
	 * NULL: each reader's default. */
	const char *event;
	bool objects; /* callgrind: frames named `function [object]` */
	bool below_main; /* callgrind, perf: keep the C runtime's start-up frames */
	double floor; /* callgrind: share under which a branch stays unexpanded */
	bool weight_period; /* perf: a sample counts its period */
	bool stackcollapse; /* perf: frames named as stackcollapse-perf.pl names them */
	long snapshot; /* massif: a snapshot's number, or -1 for the peak */
	bool strict; /* folded: the first bad line is fatal */
	bool threaded; /* folded: read on two threads */
	/* --max-work: the floor of the frames a reader may walk for a file
	 * (source_spend); 0: SOURCE_WORK_FLOOR. */
	uint64_t max_work;
	/*
	 * callgrind: where a call graph without contexts waits to be expanded
	 * until every file of both sides is read, so that both sides expand
	 * under one floor (callgrind_queue_run); NULL: each file at once.
	 */
	struct callgrind_queue *defer;
};

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
	/* The stacks come once every file is read (callgrind's queue): the
	 * reader itself refused a file with no sample. */
	bool deferred;
	uint64_t samples; /* perf: samples read */
	/* pprof: the samples the counts hold (its count-typed sample type)
	 * and the counts' sum on them; 0 and 0: the reader does not say. */
	double sample_count, sample_value;
	struct folded_stats folded; /* folded: lines read, bad lines, columns */
};

/* Several files of one reader, summed per side or for both. */
struct read_sum {
	uint32_t files;
	struct read_result first; /* the first file's result */
	bool unit_mixed, measure_mixed, note_mixed, key_mixed;
	bool flag; /* any file's flag */
	bool exact; /* every file's counts exact */
	bool sample_unknown[2]; /* per side: a file did not say sample_count */
	uint64_t samples[2]; /* indexed by enum side */
	double sample_count[2], sample_value[2]; /* per side: their sums */
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

/* The side a mode reads into: the head for a single profile. */
static inline enum side
reader_side(enum folded_mode mode)
{
	return mode == FOLDED_BASE ? SIDE_BASE : SIDE_HEAD;
}

/* A JSON profile's unit (static, NULL: none) as its count name and measure. */
static inline void
reader_json_unit(struct read_result *res, const char *unit)
{
	if (unit) {
		snprintf(res->unit, sizeof(res->unit), "%s", unit);
		snprintf(res->measure, sizeof(res->measure), "%s", unit);
	}
}

#endif
