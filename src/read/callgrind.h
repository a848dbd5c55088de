/*
 * callgrind: the reader of valgrind's callgrind (and cachegrind) profiles,
 * as the Callgrind Format Specification defines them. Lines are fed one at
 * a time; the reader keeps per function its self cost and per call edge
 * the inclusive cost of the calls, so memory follows the call graph, not
 * the file. Finishing turns the graph into stacks for a tree side:
 *
 * - with call contexts (--separate-callers, names `a'b'c`) each context is
 *   a function of its own, so stacks are exact as far as contexts reach;
 * - otherwise the graph is expanded from its roots, a function's cost
 *   split among its callers in proportion to the inclusive cost of each
 *   call edge; cycles are not entered again, thin branches (under a cost
 *   floor) are not expanded.
 *
 * Either way each function's self cost is given out exactly (integers,
 * cumulative rounding), so every function's self and the root equal what
 * callgrind_annotate and the file's `totals:` say.
 */
#ifndef DIFFFOLD_CALLGRIND_H
#define DIFFFOLD_CALLGRIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "reader.h"
#include "source.h"
#include "tree.h"

struct callgrind_options {
	const char *event; /* NULL: the file's first event */
	bool objects; /* name frames `function [object]` */
	/* Branches whose cost is under this share of the total stay unexpanded. */
	double floor;
	bool below_main; /* keep the C runtime's start-up frames (startup.h) */
};

#define CALLGRIND_DEFAULT_FLOOR 1e-6

struct callgrind_info {
	char event[64]; /* the event read, e.g. "Ir" */
	const char *countname; /* "instructions" for Ir, else the event */
	bool reconstructed; /* stacks expanded from the call graph */
	bool deferred; /* the graph waits in the queue (read_options.defer) */
	uint64_t total; /* the chosen event's total */
	uint64_t unexpanded; /* cost of functions every path to which was pruned */
};

struct callgrind;

/* name is used in messages ("base.out:12: ..."). */
struct callgrind *callgrind_create(const char *name, const struct callgrind_options *opt);
void callgrind_destroy(struct callgrind *cg);
/* One line without its newline; false with err set on a line we cannot read. */
bool callgrind_line(struct callgrind *cg, const char *line, size_t len, struct diag *err);
/*
 * Adds the profile's stacks to a side of t and describes them in *info.
 * False with err set when the file ended inside a record, its totals
 * disagree with its cost lines, or the tree refused a stack.
 */
bool callgrind_finish(struct callgrind *cg, struct tree *t, enum side side,
        struct callgrind_info *info, struct diag *err);
/*
 * Call graphs that wait for their floor. Without call contexts a graph is
 * expanded down to a floor, a share of a total: the larger side's total,
 * the same for base and head, so that one path is not drawn in one side
 * and left under [unexpanded] in the other. A graph with contexts needs
 * no floor and is never queued.
 */
struct callgrind_queue *callgrind_queue_create(void);
/*
 * Expands every queued graph into its side of t, under the floor share of
 * the larger side's total (the graphs' totals summed a side). False with
 * err set when the tree refused a stack. Empties the queue.
 */
bool callgrind_queue_run(struct callgrind_queue *q, struct tree *t, double share, struct diag *err);
void callgrind_queue_destroy(struct callgrind_queue *q);

/* The reader as the table runs it (readers.h). */
readers_read_fn callgrind_read;
readers_note_fn callgrind_note;

#endif
