/*
 * tree: the merged base/head model. One node per distinct path from the
 * root, holding inclusive ("total") and self counts of both sides. The
 * builder (tree_build.h) makes it: tree_create, tree_add_stack and the
 * like, then tree_finish, which lays out the nodes array, links children in
 * byte order of their names, gives every node its status and drops the
 * build state. This header is the finished model only: backends and
 * reports read it and never see the build.
 *
 * Nodes live in one array owned by the tree and are named by index; node 0
 * is the root ("all"). No function here recurses on depth.
 */
#ifndef DIFFFOLD_TREE_H
#define DIFFFOLD_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "count.h"
#include "intern.h"

#define TREE_NONE UINT32_MAX
#define TREE_ROOT 0u

enum side {
	SIDE_BASE = 0,
	SIDE_HEAD = 1,
};

enum node_status {
	STATUS_SAME,
	STATUS_SLOWER,
	STATUS_FASTER,
	STATUS_NEW,
	STATUS_REMOVED,
};

struct tree_options {
	bool reverse; /* merge stacks from the leaf end */
	bool strip_hex; /* 0x1234abcd -> 0x... before merging */
	bool normalize; /* scale base by head total / base total */
	/*
	 * --runs with more runs on one side than the other: the base is
	 * scaled by head runs / base runs, so the sums compare as mean runs
	 * (0: no scaling). --normalize, when given, wins.
	 */
	double run_scale;
	double min_delta; /* noise floor: share of the larger total */
	/*
	 * Most frames (nodes besides the root) the tree may hold; 0: no limit
	 * but the id space. A hostile profile makes a node of every ';' (a
	 * 16 MiB line of them took gigabytes): past the limit tree_add_stack
	 * fails instead.
	 */
	uint32_t max_nodes;
	/*
	 * --replace, --hide, --focus...: every stack is rewritten before it is
	 * added (NULL: none). Borrowed; must outlive the tree.
	 */
	const struct transform *transform;
	/*
	 * A flame chart (--flamechart): stacks stay in the order they are
	 * added, a stack sharing with the one just before it only the frames
	 * they have in common from the root; children keep the order they
	 * were made in. Not with reverse or strip_hex.
	 */
	bool chart;
};

/*
 * A node's counts are read through tree_node_total and tree_node_self: the
 * node keeps their whole units, and the tree their nanos only when some
 * count has any (most profiles count whole samples, and four 32-bit zeros
 * were a fifth of a node).
 */
struct tree_node {
	uint32_t name; /* intern id */
	uint32_t parent;
	uint32_t first_child; /* valid after tree_finish */
	uint32_t next_sibling;
	uint32_t depth; /* root 0 */
	uint8_t status; /* enum node_status, after tree_finish */
	uint64_t total_units[2]; /* indexed by enum side */
	uint64_t self_units[2];
};

/* The nanos of a node's counts (struct count's), when the tree has any. */
struct tree_nanos {
	uint32_t total[2];
	uint32_t self[2];
};

struct tree_build; /* tree_build.h */
struct runs; /* --runs: see runs.h */
struct match; /* match.h */
struct transform; /* transform.h */

struct tree {
	struct tree_options opt;
	struct tree_node *nodes; /* nodes[0] is the root (set by tree_finish) */
	struct tree_nanos *nanos; /* one a node, or NULL when every count is whole */
	size_t node_count; /* the root included; grows while building */
	size_t max_depth; /* set by tree_finish */
	struct intern *names;
	bool differential; /* both sides given (set by tree_finish) */
	bool normalized; /* base_scale applies (set by tree_finish) */
	bool run_scaled; /* base_scale is --runs' head runs / base runs */
	double base_scale; /* 1, or head/base total when normalised */
	struct tree_build *build; /* until tree_finish, then NULL */
	/* Frees build: set by the builder, which the finished tree needs not know. */
	void (*drop_build)(struct tree_build *build);
	/* --runs: the tests of the runs, attached and freed by their owner
	 * (runs_attach, runs_destroy), else NULL. */
	struct runs *runs;
	/* What matched across builds (match.h), attached and freed by its owner
	 * (match_run, match_destroy), else NULL. */
	struct match *match;
};

/*
 * Frees the tree (finished or not) and its names; the runs attached to it
 * are their owner's (runs.h).
 */
void tree_destroy(struct tree *t);
/*
 * The last step of tree_finish (tree_build.h), once the builder has laid
 * the nodes array out: totals, base scale, statuses and children in name
 * order, rank being intern_ranks' of the tree's names. For the builder only.
 */
void tree_seal(struct tree *t, bool differential, const uint32_t *rank);

static inline const struct tree_node *
tree_node(const struct tree *t, uint32_t id)
{
	return &t->nodes[id];
}

/* A node's inclusive count of a side. */
static inline struct count
tree_node_total(const struct tree *t, const struct tree_node *n, enum side side)
{
	return (struct count){
	        n->total_units[side], t->nanos ? t->nanos[n - t->nodes].total[side] : 0};
}

/* A node's self count of a side. */
static inline struct count
tree_node_self(const struct tree *t, const struct tree_node *n, enum side side)
{
	return (struct count){
	        n->self_units[side], t->nanos ? t->nanos[n - t->nodes].self[side] : 0};
}

/* The frame name of a node (root: "all"); not NUL-terminated. */
const char *tree_node_name(const struct tree *t, const struct tree_node *n, size_t *len);
/*
 * A count as compared: base counts times base_scale; head counts as is.
 * Inline: the layout and the caption ask it of every node they visit.
 */
static inline double
tree_value(const struct tree *t, const struct tree_node *n, enum side side, bool self)
{
	double v = count_to_double(self ? tree_node_self(t, n, side) : tree_node_total(t, n, side));
	return side == SIDE_BASE ? v * t->base_scale : v;
}
/* Side totals (the root's totals), scaled like tree_value. */
double tree_total(const struct tree *t, enum side side);
/* Pre-order successor of id within the subtree of `top` (TREE_NONE at end). */
uint32_t tree_next_preorder(const struct tree *t, uint32_t id, uint32_t top);
const char *tree_status_name(enum node_status s);
/*
 * The same rule for any change of a node (head - base, scaled): new and
 * removed by its totals, else slower/faster/same against the noise floor.
 */
enum node_status tree_classify_change(
        const struct tree *t, const struct tree_node *n, double delta);

#endif
