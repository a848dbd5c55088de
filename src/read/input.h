/*
 * input: reads the profiles the options name (base and head, each one or
 * more files, or one profile of 2 or 3 columns) into one finished tree.
 * Each file's format is judged by its first bytes (detect.c) and read by
 * the reader of that format in the table (readers.c); a file of a format
 * no reader reads is refused with advice.
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
#include "detect.h"
#include "readers.h"
#include "tree.h"

/*
 * What input_read takes from the command line (src/read sees no
 * options.h): main fills it with settings_input (settings.h). Strings and
 * the tree options are borrowed and must outlive the read.
 */
struct input_options {
	const char *const *base, *const *head; /* files per side; "-" is standard input */
	size_t base_count, head_count;
	const char *single; /* one positional profile: plain or 3-column */
	bool input_forced; /* --input-format: every file read as input_format */
	enum input_format input_format;
	/* --base-format, --head-format, by enum side (before --input-format). */
	bool side_forced[2];
	enum input_format side_format[2];
	/* The readers' settings (struct read_options). */
	const char *event;
	long snapshot;
	bool weight_period, objects, perf_stackcollapse, strict;
	bool show_below_main; /* keep the C runtime's start-up frames */
	uint64_t max_work; /* --max-work, 0: the default */
	bool comparable; /* sides of different measures compared */
	bool runs; /* each file of a side is one run, tested at significance */
	double significance;
	bool exact_names, no_match; /* match.h */
	const struct tree_options *tree;
};

/* What the inputs said beyond their stacks, for the picture and reports. */
struct input_info {
	const char *countname; /* the unit the readers named ("instructions"), NULL: none */
	/* The picture's note on the input ("perf script: ...; base and head: perf
	 * (samples of cycles)"), "" none. */
	char note[384];
	char unit[64]; /* storage for countname */
	bool single; /* one profile: its file is read into the head's sums */
	bool compared_as_asked; /* the sides measure different things: --comparable */
	/* What each side's files said, per reader in the table's order. */
	struct read_sum sums[2][READERS_MAX];
};

/*
 * Reads the inputs into a new tree, finished (tree_finish), in *out for
 * the caller to destroy. messages gets one line per warning and, when it
 * returns false (bad input, I/O, a limit), the error; *out is then NULL.
 * *info says what each side's readers said (readers.h).
 */
bool input_read(const struct input_options *o, struct tree **out, struct input_info *info,
        struct buf *messages);

/*
 * Destroys a tree input_read made, with what is attached to it: the runs'
 * tests and what matched across builds. NULL does nothing.
 */
void input_tree_destroy(struct tree *t);

/*
 * Whether a side's counts are exact, the same on every run of the same
 * program (callgrind, massif, DHAT), rather than sampled (perf, pprof,
 * speedscope, the Firefox Profiler, folded stacks of unknown origin).
 * False when the side mixes exact and sampled files. Of one profile
 * (base and head in one file) both sides answer alike.
 */
bool input_side_exact(const struct input_info *info, enum side side);
/*
 * What a side's counts measure as its reader says it ("Ir", "bytes",
 * "nanoseconds"), NULL when its readers do not say (folded stacks).
 */
const char *input_side_measure(const struct input_info *info, enum side side);
/* The reader that read a side's files ("callgrind"), NULL when several did. */
const char *input_side_reader(const struct input_info *info, enum side side);
/*
 * A side's counts per sample, when every file of the side says how many
 * samples it holds (pprof with a count-typed sample type beside CPU time:
 * its counts over those samples), else 0.
 */
double input_side_per_sample(const struct input_info *info, enum side side);

#endif
