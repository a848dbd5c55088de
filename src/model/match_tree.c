/*
 * match_tree: moving frames of a finished tree (see match_tree.h).
 */
#include "match_tree.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void
graft_init(struct graft *g, struct tree *t)
{
	memset(g, 0, sizeof(*g));
	g->t = t;
	g->rank = intern_ranks(t->names);
	g->fwd = xmalloc(t->node_count * sizeof(uint32_t));
	memset(g->fwd, 0xff, t->node_count * sizeof(uint32_t));
	g->touched = xcalloc(t->node_count, 1);
	g->children = xcalloc(t->node_count, sizeof(uint32_t));
	for (size_t i = 1; i < t->node_count; i++) {
		g->children[t->nodes[i].parent]++;
	}
}

void
graft_finish(struct graft *g)
{
	struct tree *t = g->t;
	if (g->shifted) {
		size_t max = 0;
		for (size_t i = 1; i < t->node_count; i++) {
			if (g->fwd[i] == TREE_NONE && t->nodes[i].depth > max) {
				max = t->nodes[i].depth;
			}
		}
		t->max_depth = max;
	}
	for (size_t i = 0; i < g->touched_count; i++) {
		struct tree_node *n = &t->nodes[g->touched_list[i]];
		double self_delta =
		        tree_value(t, n, SIDE_HEAD, true) - tree_value(t, n, SIDE_BASE, true);
		n->status = (uint8_t)tree_classify_change(t, n, self_delta);
	}
	free(g->touched_list);
	free(g->took);
	free(g->fwd);
	free(g->children);
	free(g->touched);
	free(g->stack);
	memset(g, 0, sizeof(*g));
}

uint32_t
graft_child(const struct graft *g, uint32_t parent, uint32_t name)
{
	const struct tree *t = g->t;
	uint32_t r = g->rank[name];
	for (uint32_t k = t->nodes[parent].first_child; k != TREE_NONE;
	        k = t->nodes[k].next_sibling) {
		uint32_t kr = g->rank[t->nodes[k].name];
		if (kr >= r) {
			return kr == r ? k : TREE_NONE;
		}
	}
	return TREE_NONE;
}

uint32_t
graft_holder(const struct graft *g, uint32_t id)
{
	while (g->fwd[id] != TREE_NONE) {
		id = g->fwd[id];
	}
	return id;
}

static void
unlink_child(struct tree *t, uint32_t a)
{
	struct tree_node *p = &t->nodes[t->nodes[a].parent];
	uint32_t *at = &p->first_child;
	while (*at != a) {
		at = &t->nodes[*at].next_sibling;
	}
	*at = t->nodes[a].next_sibling;
	t->nodes[a].next_sibling = TREE_NONE;
}

/* a's subtree one level deeper or shallower: a now sits under parent p. */
static void
set_depth(struct graft *g, uint32_t a, uint32_t p)
{
	struct tree *t = g->t;
	int64_t delta = (int64_t)t->nodes[p].depth + 1 - t->nodes[a].depth;
	if (delta == 0) {
		return;
	}
	g->shifted = true;
	for (uint32_t id = a; id != TREE_NONE; id = tree_next_preorder(t, id, a)) {
		t->nodes[id].depth = (uint32_t)((int64_t)t->nodes[id].depth + delta);
	}
}

/* Links a into the list at *at (where its rank belongs), under p. */
static void
link_at(struct graft *g, uint32_t *at, uint32_t a, uint32_t p)
{
	struct tree *t = g->t;
	t->nodes[a].next_sibling = *at;
	*at = a;
	t->nodes[a].parent = p;
	set_depth(g, a, p);
}

/* The link where a child of rank r belongs in the list from *at on. */
static uint32_t *
seek(const struct graft *g, uint32_t *at, uint32_t r)
{
	const struct tree *t = g->t;
	while (*at != TREE_NONE && g->rank[t->nodes[*at].name] < r) {
		at = &t->nodes[*at].next_sibling;
	}
	return at;
}

static void
set_base(struct tree *t, uint32_t id, bool self, struct count c)
{
	struct tree_node *n = &t->nodes[id];
	if (self) {
		n->self_units[SIDE_BASE] = c.units;
	} else {
		n->total_units[SIDE_BASE] = c.units;
	}
	if (t->nanos) {
		uint32_t *nanos = self ? t->nanos[id].self : t->nanos[id].total;
		nanos[SIDE_BASE] = c.nanos;
	}
}

/* Frame id's counts change: its status is set again at the end. */
static void
mark(struct graft *g, uint32_t id)
{
	if (!g->touched[id]) {
		g->touched[id] = 1;
		g->touched_list = xgrow(
		        g->touched_list, &g->touched_cap, g->touched_count + 1, sizeof(uint32_t));
		g->touched_list[g->touched_count++] = id;
	}
}

/* Frame p took frames in: noted, duplicates and all, for matching to look there again. */
static void
took(struct graft *g, uint32_t p)
{
	g->took = xgrow(g->took, &g->took_cap, g->took_count + 1, sizeof(uint32_t));
	g->took[g->took_count++] = p;
}

/* The base's counts of from added to to's: its self count, its total. */
static void
add_base(struct graft *g, uint32_t to, uint32_t from, bool self, bool total)
{
	struct tree *t = g->t;
	struct count sum;
	const struct tree_node *f = &t->nodes[from], *d = &t->nodes[to];
	mark(g, to);
	/* No sum can overflow: every count moved was under the root's total already. */
	if (self) {
		(void)count_add(
		        tree_node_self(t, d, SIDE_BASE), tree_node_self(t, f, SIDE_BASE), &sum);
		set_base(t, to, true, sum);
	}
	if (total) {
		(void)count_add(
		        tree_node_total(t, d, SIDE_BASE), tree_node_total(t, f, SIDE_BASE), &sum);
		set_base(t, to, false, sum);
	}
}

/* A frame gone into another: no counts, no children, out of every list. */
static void
bury(struct graft *g, uint32_t x, uint32_t into)
{
	struct tree *t = g->t;
	set_base(t, x, true, (struct count){0, 0});
	set_base(t, x, false, (struct count){0, 0});
	t->nodes[x].first_child = TREE_NONE;
	t->nodes[x].status = STATUS_SAME;
	g->fwd[x] = into;
}

static void
push(struct graft *g, size_t *n, uint32_t x, uint32_t y)
{
	g->stack = xgrow(g->stack, &g->stack_cap, *n + 2, sizeof(uint32_t));
	g->stack[(*n)++] = x;
	g->stack[(*n)++] = y;
}

/*
 * x's children into y's: one walk of both lists in rank order. A child y
 * lacks goes under y whole; one of a name y has is pushed to be merged.
 */
static void
join_children(struct graft *g, uint32_t x, uint32_t y, size_t *n)
{
	struct tree *t = g->t;
	uint32_t *at = &t->nodes[y].first_child;
	uint32_t next;
	for (uint32_t c = t->nodes[x].first_child; c != TREE_NONE; c = next) {
		next = t->nodes[c].next_sibling;
		at = seek(g, at, g->rank[t->nodes[c].name]);
		if (*at != TREE_NONE && t->nodes[*at].name == t->nodes[c].name) {
			push(g, n, c, *at);
			continue;
		}
		link_at(g, at, c, y);
		at = &t->nodes[c].next_sibling;
	}
	t->nodes[x].first_child = TREE_NONE;
}

/* The n / 2 pairs on the stack merged, frame by frame: x into y. */
static void
merge_pairs(struct graft *g, size_t n)
{
	while (n) {
		uint32_t y = g->stack[--n], x = g->stack[--n];
		add_base(g, y, x, true, true);
		took(g, y);
		join_children(g, x, y, &n);
		bury(g, x, y);
	}
}

/* a, unlinked, goes under p as name: linked where its rank belongs, or merged. */
static uint32_t
place(struct graft *g, uint32_t a, uint32_t p, uint32_t name)
{
	struct tree *t = g->t;
	took(g, p);
	uint32_t *at = seek(g, &t->nodes[p].first_child, g->rank[name]);
	if (*at == TREE_NONE || t->nodes[*at].name != name) {
		t->nodes[a].name = name;
		link_at(g, at, a, p);
		return a;
	}
	uint32_t b = *at;
	size_t n = 0;
	push(g, &n, a, b);
	merge_pairs(g, n);
	return b;
}

uint32_t
graft_move(struct graft *g, uint32_t a, uint32_t p, uint32_t name)
{
	struct tree *t = g->t;
	g->changed = true;
	uint32_t from = t->nodes[a].parent;
	unlink_child(t, a);
	if (p != from) {
		add_base(g, p, a, false, true); /* p, a child of from, holds a now */
	}
	return place(g, a, p, name);
}

/* side's total of frame id less c (no more than it holds). */
static void
take_base(struct graft *g, uint32_t id, struct count c)
{
	struct tree *t = g->t;
	mark(g, id);
	set_base(t, id, false, count_sub(tree_node_total(t, &t->nodes[id], SIDE_BASE), c));
}

uint32_t
graft_carry(struct graft *g, uint32_t a, uint32_t p, uint32_t name)
{
	struct tree *t = g->t;
	g->changed = true;
	struct count c = tree_node_total(t, &t->nodes[a], SIDE_BASE);
	uint32_t from = t->nodes[a].parent;
	unlink_child(t, a);
	/* The old callers lose a's counts; one left with no counts at all goes. */
	for (uint32_t x = from; x != TREE_ROOT;) {
		take_base(g, x, c);
		uint32_t up = t->nodes[x].parent;
		const struct tree_node *n = &t->nodes[x];
		if (count_is_zero(tree_node_total(t, n, SIDE_BASE)) &&
		        count_is_zero(tree_node_total(t, n, SIDE_HEAD)) && g->fwd[x] == TREE_NONE) {
			unlink_child(t, x);
			bury(g, x, up);
		}
		x = up;
	}
	take_base(g, TREE_ROOT, c);
	/* The new ones gain them: every count moved was under the root's total already. */
	for (uint32_t x = p;; x = t->nodes[x].parent) {
		struct count sum;
		mark(g, x);
		(void)count_add(tree_node_total(t, &t->nodes[x], SIDE_BASE), c, &sum);
		set_base(t, x, false, sum);
		if (x == TREE_ROOT) {
			break;
		}
	}
	return place(g, a, p, name);
}

void
graft_carry_self(struct graft *g, uint32_t a, uint32_t p)
{
	struct tree *t = g->t;
	struct count c = tree_node_self(t, &t->nodes[a], SIDE_BASE);
	if (count_is_zero(c)) {
		return;
	}
	g->changed = true;
	set_base(t, a, true, (struct count){0, 0});
	for (uint32_t x = a;; x = t->nodes[x].parent) {
		take_base(g, x, c);
		if (x == TREE_ROOT) {
			break;
		}
	}
	struct count sum;
	(void)count_add(tree_node_self(t, &t->nodes[p], SIDE_BASE), c, &sum);
	set_base(t, p, true, sum);
	/* Every count moved was under the root's total already: no sum overflows. */
	for (uint32_t x = p;; x = t->nodes[x].parent) {
		mark(g, x);
		(void)count_add(tree_node_total(t, &t->nodes[x], SIDE_BASE), c, &sum);
		set_base(t, x, false, sum);
		if (x == TREE_ROOT) {
			break;
		}
	}
}

uint32_t
graft_raise(struct graft *g, uint32_t a)
{
	struct tree *t = g->t;
	g->changed = true;
	uint32_t w = t->nodes[a].parent;
	mark(g, w);
	/* w's total held a's: it is at least as large, so no difference is negative. */
	set_base(t, w, false,
	        count_sub(tree_node_total(t, &t->nodes[w], SIDE_BASE),
	                tree_node_total(t, &t->nodes[a], SIDE_BASE)));
	unlink_child(t, a);
	return place(g, a, t->nodes[w].parent, t->nodes[a].name);
}

void
graft_lift(struct graft *g, uint32_t w)
{
	struct tree *t = g->t;
	uint32_t p = t->nodes[w].parent;
	g->changed = true;
	add_base(g, p, w, true, false);
	unlink_child(t, w);
	took(g, p);
	size_t n = 0;
	join_children(g, w, p, &n);
	merge_pairs(g, n);
	bury(g, w, p);
}

static bool
empty_leaf(const struct graft *g, uint32_t x, const uint8_t *keep)
{
	const struct tree *t = g->t;
	const struct tree_node *n = &t->nodes[x];
	return x != TREE_ROOT && graft_alive(g, x) && !keep[x] && n->first_child == TREE_NONE &&
	       count_is_zero(tree_node_total(t, n, SIDE_BASE)) &&
	       count_is_zero(tree_node_total(t, n, SIDE_HEAD));
}

void
graft_drop_empty(struct graft *g, const uint8_t *keep)
{
	struct tree *t = g->t;
	/* Only frames whose counts changed can have lost them all. */
	for (size_t i = 0; i < g->touched_count; i++) {
		for (uint32_t x = g->touched_list[i]; empty_leaf(g, x, keep);) {
			uint32_t up = t->nodes[x].parent;
			unlink_child(t, x);
			bury(g, x, up);
			g->changed = true;
			x = up;
		}
	}
}
