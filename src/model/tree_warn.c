/*
 * tree_warn: warnings about a finished tree that a user can act on (see
 * tree_warn.h).
 */
#include "tree_warn.h"

#include <stdlib.h>

#include "escape.h"
#include "intern.h"
#include "transform.h"
#include "xalloc.h"

/* The root frame with the largest total on a side. */
static uint32_t
largest_root(const struct tree *t, enum side side)
{
	uint32_t best = TREE_NONE;
	for (uint32_t id = t->nodes[TREE_ROOT].first_child; id != TREE_NONE;
	        id = t->nodes[id].next_sibling) {
		if (!count_is_zero(tree_node_total(t, &t->nodes[id], side)) &&
		        (best == TREE_NONE ||
		                tree_value(t, &t->nodes[id], side, false) >
		                        tree_value(t, &t->nodes[best], side, false))) {
			best = id;
		}
	}
	return best;
}

static bool
roots_shared(const struct tree *t)
{
	for (uint32_t id = t->nodes[TREE_ROOT].first_child; id != TREE_NONE;
	        id = t->nodes[id].next_sibling) {
		if (!count_is_zero(tree_node_total(t, &t->nodes[id], SIDE_BASE)) &&
		        !count_is_zero(tree_node_total(t, &t->nodes[id], SIDE_HEAD))) {
			return true;
		}
	}
	return false;
}

/* Whether a name below the roots has base counts in one place and head in another. */
static bool
deeper_overlap(const struct tree *t)
{
	uint32_t names = intern_count(t->names);
	uint8_t *in_base = xcalloc(names ? names : 1, 1);
	bool overlap = false;
	for (size_t id = 1; id < t->node_count; id++) {
		const struct tree_node *n = &t->nodes[id];
		if (n->depth >= 2 && !count_is_zero(tree_node_total(t, n, SIDE_BASE))) {
			in_base[n->name] = 1;
		}
	}
	for (size_t id = 1; id < t->node_count && !overlap; id++) {
		const struct tree_node *n = &t->nodes[id];
		overlap = n->depth >= 2 && !count_is_zero(tree_node_total(t, n, SIDE_HEAD)) &&
		          in_base[n->name];
	}
	free(in_base);
	return overlap;
}

/* A name that needs no quoting in a pattern or a shell's single quotes. */
static bool
plain_name(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		            c == '_' || c == '-')) {
			return false;
		}
	}
	return len > 0 && len <= 64;
}

void
tree_warn_roots(const struct tree *t, struct buf *msg)
{
	if (!t->differential || roots_shared(t)) {
		return;
	}
	uint32_t r[2] = {largest_root(t, SIDE_BASE), largest_root(t, SIDE_HEAD)};
	if (r[0] == TREE_NONE || r[1] == TREE_NONE || !deeper_overlap(t)) {
		return;
	}
	size_t len[2];
	const char *name[2];
	for (int side = 0; side < 2; side++) {
		name[side] = tree_node_name(t, &t->nodes[r[side]], &len[side]);
	}
	buf_adds(msg, "difffold: warning: base and head share no root frame (base '");
	escape_diag(msg, name[0], len[0]);
	buf_adds(msg, "', head '");
	escape_diag(msg, name[1], len[1]);
	buf_adds(msg, "'), but share frames below them: to compare those, give "
	              "both roots one name (");
	if (plain_name(name[0], len[0]) && plain_name(name[1], len[1])) {
		buf_printf(msg, "--replace '^(%.*s|%.*s)$=app'", (int)len[0], name[0], (int)len[1],
		        name[1]);
	} else {
		buf_adds(msg, "--replace '^(BASE_ROOT|HEAD_ROOT)$=app'");
	}
	buf_adds(msg, ") or drop the roots (--skip-frames 1)\n");
}

void
tree_warn_dropped(const struct transform *tf, const struct tree *t, struct buf *msg)
{
	struct transform_stats st;
	if (!transform_active(tf)) {
		return;
	}
	transform_stats(tf, &st);
	if (!st.dropped) {
		return;
	}
	for (int side = t->differential ? 0 : 1; side < 2; side++) {
		if (count_is_zero(tree_node_total(t, &t->nodes[TREE_ROOT], side))) {
			buf_printf(msg,
			        "difffold: warning: --replace, --hide, --focus... dropped every "
			        "stack of the %s profile\n",
			        side == SIDE_BASE ? "base" : "head");
		}
	}
}
