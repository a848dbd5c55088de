/*
 * perf: the reader of `perf script` text with its default fields, call
 * chains from `perf record -g` or `--call-graph dwarf` included. Each
 * sample becomes one stack, folded the way stackcollapse-perf.pl folds it:
 *
 * - the command name first (the root frame; spaces become '_'), then the
 *   frames from the outermost caller to the leaf (perf prints the leaf
 *   first); a sample without a call chain is its command alone, or its
 *   command and the one frame its header line names;
 * - symbol offsets (`+0x1f`) stripped, `[unknown]` for an unresolved
 *   symbol, inlined frames (`--inline`: lines ending `(inlined)`) kept as
 *   frames, kernel frames (dso [kernel.kallsyms] or vmlinux, or a kernel
 *   address) suffixed `_[k]`, and ';' in a name turned into ':' since ';'
 *   separates frames;
 * - one sample counts 1, or its period with PERF_WEIGHT_PERIOD.
 *
 * Samples of one event only are read: the one named, or the only one the
 * file holds. With several events and none named the file is refused
 * with their list: summing cycles and page faults would draw nonsense.
 * Stacks go to the tree as their samples end, so memory follows the
 * tree, not the file. Errors come back as a struct diag ("file:line: ").
 */
#ifndef DIFFFOLD_PERF_H
#define DIFFFOLD_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "reader.h"
#include "source.h"
#include "tree.h"

enum perf_weight {
	PERF_WEIGHT_SAMPLES, /* each sample counts 1 */
	PERF_WEIGHT_PERIOD, /* each sample counts its period */
};

struct perf_options {
	/*
	 * NULL: the file's only event. Else the event as perf prints it
	 * ("cycles:u") or its name without the modifiers ("cycles").
	 */
	const char *event;
	enum perf_weight weight;
	/* Frames named as stackcollapse-perf.pl's defaults name them: argument
	 * lists and quotes dropped, an unresolved symbol after its dso, no
	 * `_[k]` (--perf-names stackcollapse). */
	bool stackcollapse;
	bool below_main; /* keep the C runtime's start-up frames (startup.h) */
};

struct perf_info {
	char event[64]; /* the event read, as perf prints it ("cpu-clock:ppp") */
	uint64_t samples; /* samples read into the tree */
};

/* The reader as the table runs it (readers.h). */
readers_read_fn perf_read;
readers_note_fn perf_note;

/*
 * Whether a line (without its newline) is a sample's header in any field
 * selection of perf script -F; *weak: it has neither a time nor an event
 * (`COMM TID` is a folded line too); *one_line: a sample without a call
 * chain, its frame `ADDRESS SYMBOL (DSO)` after the event. For detect.c.
 */
bool perf_line_is_header(const char *s, size_t len, bool *one_line, bool *weak);

/*
 * Whether a line is no part of a sample: a comment (`#`), or a line of
 * source code perf prints after a sample with -F +srccode (`|LINE code`).
 */
bool perf_aside(const char *s, size_t len);

#endif
