/*
 * callgraph: a profile's call graph turned into stacks. Per function its
 * self cost, per call edge the inclusive cost of the calls; the graph is
 * expanded from its roots (functions with more cost than the calls to
 * them), each function's flow split among its calls in proportion to their
 * inclusive costs. A callee already on the path is not entered again (a
 * cycle's inclusive cost counts its own calls twice), a branch under the
 * floor is not expanded. Self costs are then given out per function in
 * proportion to each node's share, rounded cumulatively, so that every
 * function's self cost and the total are exact; a function whose every
 * path was pruned goes under a root frame "[unexpanded]". With call
 * contexts (names a'b'c, callgrind --separate-callers) each context is a
 * function of its own and the stacks are exact as far as they reach.
 * No recursion on depth: the expansion keeps its own stack.
 */
#ifndef DIFFFOLD_CALLGRAPH_H
#define DIFFFOLD_CALLGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "source.h"
#include "intern.h"
#include "tree.h"

struct callgraph_function {
	uint32_t name, file, object; /* ids in the graph's names, UINT32_MAX: none */
	uint64_t self;
	uint64_t out; /* inclusive cost of its calls to others */
	uint64_t in; /* inclusive cost of the calls to it */
	uint32_t first_edge, edge_count; /* set while turning into stacks */
	uint64_t name_hash; /* intern_hash of its name when the reader had it, else 0 */
	bool defined; /* had a block of its own (fn=), not only calls to it */
};

struct callgraph_edge {
	uint32_t caller, callee;
	uint64_t cost;
};

/*
 * Embedded; zero it to start. The names table is the caller's until
 * callgraph_to_tree, which frees it with the rest of the graph, unless it
 * is the tree's own (t->names): the frames then take its ids as they are,
 * and the tree keeps it.
 */
struct callgraph {
	struct intern *names;
	struct callgraph_function *fns;
	size_t fn_count, fn_cap;
	struct callgraph_edge *edges;
	size_t edge_count, edge_cap;
	size_t merge_at; /* calls merged into edges when there are this many */
};

struct callgraph_options {
	const char *name; /* the file, for messages */
	bool objects; /* frames named `function [object]` */
	double floor; /* share of the total under which a branch stays unexpanded */
	bool below_main; /* keep the C runtime's start-up frames (startup.h) */
	/* The file: a graph of a few bytes can expand to millions of frames
	 * (diamonds), bounded by source_spend. NULL: work_left, if not 0, is
	 * what the file still paid for when its graph was queued (a graph
	 * expanded after both sides are read, its file closed); else
	 * --max-frames only. */
	struct source *src;
	uint64_t work_left;
};

/* Makes room for one more function (callgraph_function's slow path). */
void callgraph_grow_functions(struct callgraph *g);
/* callgraph_call when the calls are to be merged or have no room. */
void callgraph_call_other(struct callgraph *g, uint32_t caller, uint32_t callee, uint64_t cost);

/* A new function; returns its index. Inline: the reader makes one a name. */
static inline uint32_t
callgraph_function(struct callgraph *g, uint32_t file, uint32_t name, uint32_t object)
{
	if (g->fn_count == g->fn_cap) {
		callgraph_grow_functions(g);
	}
	uint32_t id = (uint32_t)g->fn_count++;
	g->fns[id] = (struct callgraph_function){.name = name, .file = file, .object = object};
	return id;
}

/*
 * Calls from caller to callee of inclusive cost cost (one call site's).
 * Inline: the reader makes one a calls= line.
 */
static inline void
callgraph_call(struct callgraph *g, uint32_t caller, uint32_t callee, uint64_t cost)
{
	/* Direct recursion: the inner call's cost is in the caller's already. */
	if (caller == callee) {
		return;
	}
	if (g->edge_count < g->merge_at && g->edge_count < g->edge_cap) {
		g->edges[g->edge_count++] = (struct callgraph_edge){caller, callee, cost};
		return;
	}
	callgraph_call_other(g, caller, callee, cost);
}

void callgraph_finish(struct callgraph *g);
/* Whether a function's name holds a caller context ("a'b"; "a'2" is a recursion level). */
bool callgraph_has_contexts(const struct callgraph *g);
/*
 * Adds the graph's stacks, whose self costs add up to total, to a side of
 * t; *unexpanded is what went under [unexpanded], *contexts whether a
 * name holds a caller context ("a'b"; "a'2" is a recursion level). False
 * with err set when the tree refused a stack. The graph is used up: its arrays and its
 * names table are freed (and zeroed) once the frames' names are made, so
 * that the graph and the tree are not in memory together.
 */
bool callgraph_to_tree(struct callgraph *g, struct tree *t, enum side side,
        const struct callgraph_options *opt, uint64_t total, uint64_t *unexpanded, bool *contexts,
        struct diag *err);

#endif
