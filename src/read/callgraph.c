#include "callgraph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "call_context.h"
#include "escape.h"
#include "source.h"
#include "startup.h"
#include "tree_build.h"
#include "xalloc.h"

#define NONE UINT32_MAX

static uint64_t
add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/*
 * A full array of the reader's made four times larger: its copies then
 * add up to a third of it, not all of it as doubling's do, and the room
 * not written yet costs no memory.
 */
static void *
grow4(void *p, size_t *cap, size_t need, size_t elem)
{
	return xgrow(p, cap, need > *cap * 2 ? need : *cap * 2 + 1, elem);
}

/*
 * The calls are kept as they come, the calls of a caller to a callee from
 * several sites (or parts of the file) apart, and merged into one edge a
 * pair, costs summed, when they reach merge_at, which keeps them within
 * about twice the edges: a map from caller and callee to the edge cost a
 * hash a call. Merged, the edges are grouped by caller, each caller's in
 * the order of their first call, as sorting edges numbered by first call
 * would leave them.
 */
static void
merge_calls(struct callgraph *g)
{
	size_t n = g->edge_count;
	uint32_t *at = xcalloc(g->fn_count + 1, sizeof(*at));
	for (size_t i = 0; i < n; i++) {
		at[g->edges[i].caller + 1]++;
	}
	for (size_t f = 0; f < g->fn_count; f++) {
		at[f + 1] += at[f];
	}
	struct callgraph_edge *sorted = xmalloc((n ? n : 1) * sizeof(*sorted));
	for (size_t i = 0; i < n; i++) {
		sorted[at[g->edges[i].caller]++] = g->edges[i];
	}
	free(g->edges);
	/* Per callee, where its edge from the current caller is, plus one. */
	uint32_t *edge_to = at;
	memset(edge_to, 0, (g->fn_count + 1) * sizeof(*edge_to));
	size_t out = 0, run = 0;
	uint32_t caller = NONE;
	for (size_t i = 0; i < n; i++) {
		struct callgraph_edge e = sorted[i];
		if (e.caller != caller) {
			caller = e.caller;
			run = out; /* this caller's edges start here */
		}
		uint32_t k = edge_to[e.callee];
		if (k > run) {
			sorted[k - 1].cost = add_sat(sorted[k - 1].cost, e.cost);
		} else {
			sorted[out++] = e;
			edge_to[e.callee] = (uint32_t)out;
		}
	}
	free(at);
	g->edges = sorted;
	g->edge_count = out;
	g->edge_cap = n ? n : 1;
}

/* The edges are grouped by caller: each function's calls are a range. */
static void
edge_ranges(struct callgraph *g)
{
	for (size_t f = 0; f < g->fn_count; f++) {
		g->fns[f].first_edge = 0;
		g->fns[f].edge_count = 0;
	}
	for (size_t i = g->edge_count; i-- > 0;) {
		struct callgraph_function *f = &g->fns[g->edges[i].caller];
		f->first_edge = (uint32_t)i;
		f->edge_count++;
	}
}

/*
 * A call to a function that never had an fn= block of its own under the
 * file the call named (a call from inlined code names the inlining file)
 * goes to the one defined function of that name, if there is just one.
 */
static void
resolve_callees(struct callgraph *g)
{
	/* Per name: 0 no defined function, f + 1 the one, NONE several. */
	uint32_t *by_name = xcalloc(intern_count(g->names) + 1, sizeof(*by_name));
	for (uint32_t f = 0; f < g->fn_count; f++) {
		if (g->fns[f].defined) {
			uint32_t *at = &by_name[g->fns[f].name];
			*at = *at ? NONE : f + 1;
		}
	}
	for (size_t i = 0; i < g->edge_count; i++) {
		struct callgraph_edge *e = &g->edges[i];
		uint32_t f = by_name[g->fns[e->callee].name];
		if (!g->fns[e->callee].defined && f && f != NONE) {
			e->callee = f - 1;
		}
	}
	free(by_name);
}

static void
sum_edges(struct callgraph *g)
{
	for (size_t i = 0; i < g->edge_count; i++) {
		struct callgraph_edge *e = &g->edges[i];
		if (e->caller == e->callee) {
			e->cost = 0; /* made so by resolve_callees */
		}
		g->fns[e->caller].out = add_sat(g->fns[e->caller].out, e->cost);
		g->fns[e->callee].in = add_sat(g->fns[e->callee].in, e->cost);
	}
}

/* A node of the expanded call tree, in pre-order. */
struct xnode {
	uint32_t fn, parent;
	double flow; /* inclusive cost this path carries */
	uint64_t self;
};

/* The context rule over every name of g (call_context.h). */
static void
known_init(struct call_context *k, const struct callgraph *g)
{
	call_context_init(k);
	for (uint32_t f = 0; f < g->fn_count; f++) {
		size_t len;
		const char *s = intern_name(g->names, g->fns[f].name, &len);
		call_context_add(k, s, len);
	}
}

struct expansion {
	struct xnode *nodes;
	size_t count, cap, limit;
	bool truncated;
	uint32_t *on_path; /* per function: how often on the current path */
	bool *context; /* per function: its name holds its caller ("a'b") */
};

static double
total_of(const struct callgraph_function *f)
{
	return (double)f->self + (double)f->out;
}

static uint32_t
push_node(struct expansion *x, uint32_t fn, uint32_t parent, double flow)
{
	if (x->count == x->cap) {
		x->nodes = grow4(x->nodes, &x->cap, x->count + 1, sizeof(*x->nodes));
	}
	x->nodes[x->count] = (struct xnode){fn, parent, flow, 0};
	return (uint32_t)x->count++;
}

struct frame {
	uint32_t node, next_edge;
};

/* Depth first from one root, with an explicit stack: no recursion on depth. */
static void
expand_root(struct callgraph *g, struct expansion *x, uint32_t root, double flow, double floor)
{
	struct frame *stack = NULL;
	size_t depth = 0, cap = 0;
	stack = xgrow(stack, &cap, 1, sizeof(*stack));
	stack[depth++] = (struct frame){push_node(x, root, NONE, flow), 0};
	x->on_path[root]++;
	while (depth && !x->truncated) {
		struct frame *top = &stack[depth - 1];
		const struct xnode *n = &x->nodes[top->node];
		const struct callgraph_function *f = &g->fns[n->fn];
		if (top->next_edge == f->edge_count) {
			x->on_path[n->fn]--;
			depth--;
			continue;
		}
		const struct callgraph_edge *e = &g->edges[f->first_edge + top->next_edge++];
		double child = n->flow * (double)e->cost / total_of(f);
		/* A callee named with its caller is a path the file holds: exact
		 * however thin, and no blow-up, its callers being few. */
		if (x->on_path[e->callee] || (child < floor && !x->context[e->callee]) ||
		        e->cost == 0) {
			continue; /* a cycle (its cost counted already) or a thin branch */
		}
		if (x->count >= x->limit) {
			/* An error once the walk is over: a cut tree is a wrong one. */
			x->truncated = true;
			break;
		}
		uint32_t id = push_node(x, e->callee, top->node, child);
		if (depth == cap) {
			stack = xgrow(stack, &cap, depth + 1, sizeof(*stack));
		}
		stack[depth++] = (struct frame){id, 0};
		x->on_path[e->callee]++;
	}
	free(stack);
}

/*
 * Which functions' names hold their caller ("a'b"), into context[f] when
 * not NULL; whether any does.
 */
static bool
mark_contexts(const struct callgraph *g, bool *context)
{
	struct call_context k;
	known_init(&k, g);
	bool any = false;
	for (uint32_t f = 0; f < g->fn_count && (context || !any); f++) {
		size_t len;
		const char *name = intern_name(g->names, g->fns[f].name, &len);
		size_t base = call_context_base(&k, name, len);
		bool has = base < len && call_context_names_caller(name + base, len - base);
		any = any || has;
		if (context) {
			context[f] = has;
		}
	}
	call_context_finish(&k);
	return any;
}

static void
expand(struct callgraph *g, struct expansion *x, uint64_t total,
        const struct callgraph_options *opt)
{
	double floor = opt->floor * (double)total;
	x->on_path = xcalloc(g->fn_count ? g->fn_count : 1, sizeof(*x->on_path));
	x->context = xcalloc(g->fn_count ? g->fn_count : 1, sizeof(*x->context));
	mark_contexts(g, x->context);
	for (uint32_t f = 0; f < g->fn_count && !x->truncated; f++) {
		const struct callgraph_function *fn = &g->fns[f];
		double t = total_of(fn);
		if (t > 0 && t > (double)fn->in) {
			expand_root(g, x, f, t - (double)fn->in, floor);
		}
	}
	free(x->on_path);
	x->on_path = NULL;
	free(x->context);
	x->context = NULL;
}

struct orphan {
	uint32_t fn;
	uint64_t cost;
};

/*
 * Each function's self cost over its nodes, in proportion to the part of
 * the node's flow that is the function's own, rounded cumulatively so the
 * parts add up to the self cost exactly. What no node took (a function
 * every path to which was pruned) is returned as orphans.
 */
static size_t
apportion(struct callgraph *g, struct expansion *x, struct orphan **orphans)
{
	size_t n = g->fn_count ? g->fn_count : 1;
	double *weight = xcalloc(n, sizeof(*weight));
	double *done = xcalloc(n, sizeof(*done));
	uint64_t *given = xcalloc(n, sizeof(*given));
	uint32_t *left = xcalloc(n, sizeof(*left));
	for (size_t i = 0; i < x->count; i++) {
		const struct callgraph_function *f = &g->fns[x->nodes[i].fn];
		weight[x->nodes[i].fn] += x->nodes[i].flow * (double)f->self / total_of(f);
		left[x->nodes[i].fn]++;
	}
	for (size_t i = 0; i < x->count; i++) {
		uint32_t fn = x->nodes[i].fn;
		const struct callgraph_function *f = &g->fns[fn];
		done[fn] += x->nodes[i].flow * (double)f->self / total_of(f);
		uint64_t target = f->self; /* the last node takes the rest */
		if (--left[fn] && weight[fn] > 0) {
			double share = done[fn] / weight[fn];
			target = share >= 1 ? f->self : (uint64_t)(share * (double)f->self + 0.5);
		}
		if (target < given[fn]) {
			target = given[fn];
		}
		x->nodes[i].self = target - given[fn];
		given[fn] = target;
	}
	/* Counted first: there are few, and this is near the peak of memory. */
	size_t count = 0;
	for (uint32_t f = 0; f < g->fn_count; f++) {
		count += g->fns[f].self > given[f];
	}
	*orphans = xmalloc((count ? count : 1) * sizeof(**orphans));
	count = 0;
	for (uint32_t f = 0; f < g->fn_count; f++) {
		if (g->fns[f].self > given[f]) {
			(*orphans)[count++] = (struct orphan){f, g->fns[f].self - given[f]};
		}
	}
	free(weight);
	free(done);
	free(left);
	free(given);
	return count;
}

/* Frame names: the function without its call context ("a'b'c" is a). */
struct names {
	struct buf text;
	size_t *start; /* per function: [start[f], start[f + 1]) in text */
	/* per function: its text's intern_hash, 0 if not known (yet) */
	uint64_t *hash;
	uint32_t *id; /* per function: its text's id in the tree's names, or TREE_NONE */
	size_t fn_count;
};

static void
add_object(struct buf *b, const char *s, size_t len)
{
	const char *slash = len ? memrchr(s, '/', len) : NULL;
	if (slash) {
		len -= (size_t)(slash + 1 - s);
		s = slash + 1;
	}
	buf_adds(b, " [");
	size_t at = b->len;
	buf_add(b, s, len);
	/* A ';' in the object's path would split the frame in two. */
	for (char *q = b->data + at; (q = memchr(q, ';', b->len - (size_t)(q - b->data))); q++) {
		*q = ':';
	}
	buf_addc(b, ']');
}

/*
 * Base names shared by functions of different files get `file:` added:
 * true per base name id that does.
 */
static bool *
shared_names_of(struct callgraph *g, const uint32_t *base_id)
{
	size_t names = intern_count(g->names) + 1;
	bool *shared = xcalloc(names, sizeof(*shared));
	/* Per base name, the file of its first defined function (NONE: none). */
	const uint32_t unseen = NONE - 1; /* no name id is this high */
	uint32_t *file_of = xmalloc(names * sizeof(*file_of));
	for (size_t i = 0; i < names; i++) {
		file_of[i] = unseen;
	}
	for (uint32_t f = 0; f < g->fn_count; f++) {
		uint32_t *file = &file_of[base_id[f]];
		if (!g->fns[f].defined) {
			continue;
		}
		if (*file == unseen) {
			*file = g->fns[f].file;
		} else if (*file != g->fns[f].file) {
			shared[base_id[f]] = true;
		}
	}
	free(file_of);
	return shared;
}

/*
 * The base name of each function (without its call context), and
 * shared_names_of them; *contexts says whether any name holds a caller
 * context.
 */
static bool *
ambiguous_names(struct callgraph *g, uint32_t *base_id, bool *contexts)
{
	*contexts = false;
	struct call_context k;
	known_init(&k, g);
	for (uint32_t f = 0; f < g->fn_count; f++) {
		size_t len;
		const char *s = intern_name(g->names, g->fns[f].name, &len);
		size_t base = call_context_base(&k, s, len);
		/* The same id intern_add would give, without hashing the name again. */
		base_id[f] = base == len ? g->fns[f].name : intern_add(g->names, s, base);
		*contexts = *contexts ||
		            (base < len && call_context_names_caller(s + base, len - base));
	}
	call_context_finish(&k);
	return shared_names_of(g, base_id);
}

/*
 * Appends a frame's name: through escape_frame_add (whether it went in as it is),
 * or raw, copied as it is, *empty set when it is empty (plain_frames
 * checks all the raw names in one scan after).
 */
static bool
add_text(struct buf *b, const char *s, size_t len, bool raw, bool *empty)
{
	if (!raw) {
		return !escape_frame_add(b, s, len);
	}
	buf_add(b, s, len);
	*empty = *empty || len == 0;
	return true;
}

/*
 * Each function's frame: `file:` where shared says its base name
 * (base_id[f]) is shared, the base name, ` [object]` with --objects. Sets
 * each frame's hash where the reader's is of it, and makes base_id[f] the
 * frame's id: TREE_NONE unless the name went in as it is and
 * shared_names. raw: see add_text.
 */
static void
frame_texts(struct names *nm, struct callgraph *g, const struct callgraph_options *opt,
        const bool *shared, bool shared_names, uint32_t *base_id, bool raw, bool *empty)
{
	for (uint32_t f = 0; f < g->fn_count; f++) {
		const struct callgraph_function *fn = &g->fns[f];
		size_t len;
		const char *s;
		bool plain = true;
		nm->start[f] = nm->text.len;
		if (shared[base_id[f]] && fn->file != NONE) {
			s = intern_name(g->names, fn->file, &len);
			add_text(&nm->text, s, len, raw, empty);
			buf_addc(&nm->text, ':');
			plain = false;
		}
		s = intern_name(g->names, base_id[f], &len);
		plain = add_text(&nm->text, s, len, raw, empty) && plain;
		if (opt->objects && fn->object != NONE) {
			s = intern_name(g->names, fn->object, &len);
			add_object(&nm->text, s, len);
			plain = false;
		}
		/* The reader's hash is of the name, not of its base. */
		nm->hash[f] = plain && base_id[f] == fn->name ? fn->name_hash : 0;
		/* Kept as the frames' ids: no more memory where the graph is. */
		base_id[f] = plain && shared_names ? base_id[f] : TREE_NONE;
	}
	nm->start[g->fn_count] = nm->text.len;
}

/*
 * names_init's usual case, tried first: as if no name had a context (')
 * in it, each function's base name is its name; the frames are then made
 * by plain copies, and one scan of them all for a ' or a ';' (or an empty
 * name) says whether that holds. True when it does (base_id as
 * frame_texts leaves it); else false, and nm->text is for names_init to
 * make again.
 */
static bool
plain_frames(struct names *nm, struct callgraph *g, const struct callgraph_options *opt,
        bool shared_names, uint32_t *base_id)
{
	for (uint32_t f = 0; f < g->fn_count; f++) {
		base_id[f] = g->fns[f].name;
	}
	bool *shared = shared_names_of(g, base_id);
	bool empty = false;
	frame_texts(nm, g, opt, shared, shared_names, base_id, true, &empty);
	free(shared);
	return !empty && !memchr(nm->text.data, '\'', nm->text.len) &&
	       !memchr(nm->text.data, ';', nm->text.len);
}

/*
 * The frames' names. shared_names: g->names is the tree's own, so a name
 * the frame takes as it is has its id there already.
 */
static void
names_init(struct names *nm, struct callgraph *g, const struct callgraph_options *opt,
        bool shared_names, bool *contexts)
{
	size_t n = g->fn_count ? g->fn_count : 1;
	uint32_t *base_id = xmalloc(n * sizeof(*base_id));
	buf_init(&nm->text);
	nm->start = xmalloc((n + 1) * sizeof(*nm->start));
	nm->hash = xmalloc(n * sizeof(*nm->hash));
	nm->fn_count = g->fn_count;
	nm->id = base_id;
	if (plain_frames(nm, g, opt, shared_names, base_id)) {
		*contexts = false;
		return;
	}
	buf_reset(&nm->text);
	bool *shared = ambiguous_names(g, base_id, contexts);
	frame_texts(nm, g, opt, shared, shared_names, base_id, false, NULL);
	free(shared);
}

static void
names_finish(struct names *nm)
{
	buf_finish(&nm->text);
	free(nm->start);
	free(nm->hash);
	free(nm->id);
}

static bool
add_stack(struct tree *t, enum side side, const struct buf *path, uint64_t cost, struct diag *err,
        const char *name)
{
	const char *reason;
	if (cost == 0) {
		return true;
	}
	if (!tree_add_stack(t, side, path->data, path->len, (struct count){cost, 0}, &reason)) {
		diag_set(err, name, 0, reason);
		return false;
	}
	return true;
}

/* The expanded nodes as stacks: each node's path is its parent's plus it. */
/*
 * Which expanded nodes stand for the C runtime's start-up (startup.h): a
 * start-up function at the root or under one. Nodes come parent first.
 * NULL when --show-below-main keeps them.
 */
static uint8_t *
startup_nodes(
        const struct names *nm, const struct expansion *x, const struct callgraph_options *opt)
{
	if (opt->below_main) {
		return NULL;
	}
	uint8_t *s = xmalloc(x->count ? x->count : 1);
	for (size_t i = 0; i < x->count; i++) {
		const struct xnode *n = &x->nodes[i];
		s[i] = (n->parent == NONE || s[n->parent]) &&
		       startup_frame(nm->text.data + nm->start[n->fn],
		               nm->start[n->fn + 1] - nm->start[n->fn]);
	}
	return s;
}

static bool
emit_paths(const struct names *nm, const struct expansion *x, const struct orphan *orphans,
        size_t orphan_count, struct tree *t, enum side side, const struct callgraph_options *opt,
        struct diag *err)
{
	struct buf path;
	bool ok = true;
	size_t *len_at = xmalloc((x->count ? x->count : 1) * sizeof(*len_at));
	uint8_t *startup = startup_nodes(nm, x, opt);
	buf_init(&path);
	for (size_t i = 0; ok && i < x->count; i++) {
		const struct xnode *n = &x->nodes[i];
		size_t keep = n->parent == NONE || (startup && startup[i]) ? 0 : len_at[n->parent];
		path.len = keep;
		if (keep) {
			buf_addc(&path, ';');
		}
		if (startup && startup[i]) {
			buf_adds(&path, STARTUP_FRAME); /* the run, one frame */
		} else {
			buf_add(&path, nm->text.data + nm->start[n->fn],
			        nm->start[n->fn + 1] - nm->start[n->fn]);
		}
		len_at[i] = path.len;
		ok = add_stack(t, side, &path, n->self, err, opt->name);
	}
	for (size_t i = 0; ok && i < orphan_count; i++) {
		uint32_t f = orphans[i].fn;
		path.len = 0;
		buf_adds(&path, "[unexpanded];");
		buf_add(&path, nm->text.data + nm->start[f], nm->start[f + 1] - nm->start[f]);
		ok = add_stack(t, side, &path, orphans[i].cost, err, opt->name);
	}
	buf_finish(&path);
	free(len_at);
	free(startup);
	return ok;
}

/*
 * Function f's frame under *at, which moves to it: hashed when first used
 * (nm->hash), interned by the tree once (nm->id, TREE_NONE until then).
 */
static bool
cursor_named(
        struct tree *t, struct tree_cursor *at, struct names *nm, uint32_t f, const char **reason)
{
	struct tree_name name = {nm->text.data + nm->start[f], nm->start[f + 1] - nm->start[f],
	        nm->hash[f], nm->id[f]};
	if (!name.hash) {
		name.hash = nm->hash[f] = intern_hash(name.bytes, name.len);
	}
	bool ok = tree_cursor_named(t, at, &name, at, reason);
	nm->id[f] = name.id;
	return ok;
}

/*
 * Function f's frame under *at, by cursor_named when named, else by its
 * text (one frame: every ';' of a name, file or object became ':').
 */
static bool
function_frames(struct tree *t, struct tree_cursor *at, struct names *nm, uint32_t f, bool named,
        const char **reason)
{
	if (named) {
		return cursor_named(t, at, nm, f, reason);
	}
	return tree_cursor_child(
	        t, at, nm->text.data + nm->start[f], nm->start[f + 1] - nm->start[f], at, reason);
}

/*
 * The same stacks as emit_paths, node by node: a node's frames go under
 * its parent's, found through the cursor kept for it. A node is added to
 * the tree only when it or a node under it has a count, as a path through
 * it would have been, and in the same order.
 */
static bool
emit_cursors(struct names *nm, const struct expansion *x, const struct orphan *orphans,
        size_t orphan_count, struct tree *t, enum side side, const struct callgraph_options *opt,
        struct diag *err)
{
	struct tree_cursor *at = xmalloc((x->count ? x->count : 1) * sizeof(*at));
	/*
	 * Each function's frame hashed (if the reader did not) and interned
	 * once, not once a node; the hashes made now, the graph gone, not
	 * where memory peaks.
	 */
	bool named = tree_takes_hashed(t);
	uint8_t *startup = startup_nodes(nm, x, opt);
	struct tree_cursor below = tree_cursor_root(); /* STARTUP_FRAME, once made */
	bool below_made = false;
	uint32_t *chain = NULL; /* nodes not in the tree yet, leaf first */
	size_t chain_cap = 0;
	const char *reason = NULL;
	bool ok = true;
	for (size_t i = 0; i < x->count; i++) {
		at[i].node = TREE_NONE;
	}
	for (size_t i = 0; ok && i < x->count; i++) {
		if (x->nodes[i].self == 0) {
			continue;
		}
		size_t depth = 0;
		uint32_t up = (uint32_t)i;
		for (; up != NONE && at[up].node == TREE_NONE; up = x->nodes[up].parent) {
			if (depth == chain_cap) {
				chain = xgrow(chain, &chain_cap, depth + 1, sizeof(*chain));
			}
			chain[depth++] = up;
		}
		struct tree_cursor c = up == NONE ? tree_cursor_root() : at[up];
		while (ok && depth) {
			uint32_t id = chain[--depth];
			uint32_t f = x->nodes[id].fn;
			if (startup && startup[id]) { /* the run, one frame */
				ok = below_made || tree_cursor_child(t, &below, STARTUP_FRAME,
				                           strlen(STARTUP_FRAME), &below, &reason);
				below_made = true;
				c = below;
			} else {
				ok = function_frames(t, &c, nm, f, named, &reason);
			}
			at[id] = c;
		}
		ok = ok && tree_add_count(t, side, at[i].node, (struct count){x->nodes[i].self, 0},
		                   &reason);
	}
	/* Every orphan goes under the one [unexpanded] frame, found once. */
	struct tree_cursor unexpanded = tree_cursor_root();
	if (ok && orphan_count) {
		ok = tree_cursor_child(t, &unexpanded, "[unexpanded]", strlen("[unexpanded]"),
		        &unexpanded, &reason);
	}
	for (size_t i = 0; ok && i < orphan_count; i++) {
		uint32_t f = orphans[i].fn;
		struct tree_cursor c = unexpanded;
		ok = function_frames(t, &c, nm, f, named, &reason) &&
		     tree_add_count(t, side, c.node, (struct count){orphans[i].cost, 0}, &reason);
	}
	if (!ok) {
		diag_set(err, opt->name, 0, reason);
	}
	free(chain);
	free(at);
	free(startup);
	return ok;
}

static bool
emit(struct callgraph *g, const struct expansion *x, const struct orphan *orphans,
        size_t orphan_count, struct tree *t, enum side side, const struct callgraph_options *opt,
        bool *contexts, struct diag *err)
{
	struct names nm;
	bool shared_names = g->names == t->names;
	names_init(&nm, g, opt, shared_names, contexts);
	/*
	 * The frames' names are made and the nodes say which they take: the
	 * graph itself goes before the tree grows, the peak of memory.
	 */
	if (!shared_names) {
		intern_destroy(g->names);
	}
	g->names = NULL;
	callgraph_finish(g);
	*g = (struct callgraph){0};
	/* --reverse merges from the leaf end, transforms rewrite whole stacks. */
	bool ok = tree_needs_paths(t)
	                  ? emit_paths(&nm, x, orphans, orphan_count, t, side, opt, err)
	                  : emit_cursors(&nm, x, orphans, orphan_count, t, side, opt, err);
	names_finish(&nm);
	return ok;
}

bool
callgraph_to_tree(struct callgraph *g, struct tree *t, enum side side,
        const struct callgraph_options *opt, uint64_t total, uint64_t *unexpanded, bool *contexts,
        struct diag *err)
{
	/* Grown by doubling while reading: what is unused goes before the peak. */
	g->fns = xrealloc(g->fns, (g->fn_count ? g->fn_count : 1) * sizeof(*g->fns));
	g->fn_cap = g->fn_count;
	merge_calls(g);
	resolve_callees(g);
	edge_ranges(g);
	sum_edges(g);
	struct expansion x = {0};
	x.limit = t->opt.max_nodes ? t->opt.max_nodes : UINT32_MAX - 1;
	uint64_t work = opt->src         ? source_work_left(opt->src)
	                : opt->work_left ? opt->work_left
	                                 : UINT64_MAX;
	bool by_work = work < x.limit;
	x.limit = by_work ? (size_t)work : x.limit;
	/*
	 * A node a root and a call edge is what a graph without shared
	 * callees expands to: room for that from the start, not written (so
	 * not in memory) where the expansion is smaller.
	 */
	x.cap = g->fn_count + g->edge_count < x.limit ? g->fn_count + g->edge_count + 1
	                                              : x.limit + 1;
	x.nodes = xmalloc(x.cap * sizeof(*x.nodes));
	expand(g, &x, total, opt);
	if (x.truncated) {
		free(x.nodes);
		if (!by_work || (opt->src && source_spend(opt->src, x.count + 1, err))) {
			char why[160];
			snprintf(why, sizeof(why),
			        "the call graph expands to more than %zu frames (see --max-frames)",
			        x.limit);
			diag_set(err, opt->name, 0, why);
		} else if (!opt->src) {
			char why[200];
			snprintf(why, sizeof(why),
			        "reading it walks more than %zu frames (what the file's size "
			        "pays for): a hostile profile? raise --max-work if it is trusted",
			        x.limit);
			diag_set(err, opt->name, 0, why);
		}
		return false;
	}
	struct orphan *orphans;
	size_t orphan_count = apportion(g, &x, &orphans);
	/* The calls are spent: their room goes to the frames' names. */
	free(g->edges);
	g->edges = NULL;
	g->edge_count = g->edge_cap = 0;
	*unexpanded = 0;
	for (size_t i = 0; i < orphan_count; i++) {
		*unexpanded += orphans[i].cost;
	}
	bool ok = emit(g, &x, orphans, orphan_count, t, side, opt, contexts, err);
	free(orphans);
	free(x.nodes);
	return ok;
}

void
callgraph_grow_functions(struct callgraph *g)
{
	g->fns = grow4(g->fns, &g->fn_cap, g->fn_count + 1, sizeof(*g->fns));
}

void
callgraph_call_other(struct callgraph *g, uint32_t caller, uint32_t callee, uint64_t cost)
{
	if (g->edge_count >= g->merge_at) {
		/*
		 * A merge costs the calls and the functions: at least as many
		 * new calls pay for the next. Under 64 Ki calls (1 MiB) none.
		 */
		merge_calls(g);
		size_t n = g->edge_count, at = n + (n > g->fn_count ? n : g->fn_count);
		g->merge_at = at > 65536 ? at : 65536;
	}
	if (g->edge_count == g->edge_cap) {
		g->edges = grow4(g->edges, &g->edge_cap, g->edge_count + 1, sizeof(*g->edges));
	}
	g->edges[g->edge_count++] = (struct callgraph_edge){caller, callee, cost};
}

bool
callgraph_has_contexts(const struct callgraph *g)
{
	return mark_contexts(g, NULL);
}

void
callgraph_finish(struct callgraph *g)
{
	free(g->fns);
	free(g->edges);
}
