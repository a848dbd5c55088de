/*
 * tree: the merged base/head model. One node per distinct path from the
 * root, holding inclusive ("total") and self counts of both sides. Built by
 * tree_add_stack (or tree_add_hashed) into private build state, then frozen by
 * tree_finish, which lays out the nodes array, links children in byte order
 * of their names, gives every node its status and drops the build state.
 * Backends only read a finished tree. tree.c holds the finished model,
 * tree_build.c the build.
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

struct tree_build; /* private to tree*.c: see tree_build.h */
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
	struct runs *runs; /* --runs: the tests of the runs (runs_attach), else NULL */
	struct match *match; /* what matched across builds (match.h), else NULL */
};

/* Takes a copy of *opt. */
struct tree *tree_create(const struct tree_options *opt);
void tree_destroy(struct tree *t);
/*
 * Adds one stack (frames separated by ';') with count c to a side. Returns
 * false, with *reason set to a message owned by the tree, when the side's
 * total would exceed 2^64-1 (nothing is added then), or when the stack
 * would take the tree past opt.max_nodes frames (the tree can then only be
 * destroyed).
 */
bool tree_add_stack(struct tree *t, enum side side, const char *stack, size_t len, struct count c,
        const char **reason);
/*
 * Stacks hashed ahead, on another thread than the one adding them (the
 * folded reader's pipeline): the frames' hashes do not depend on the tree,
 * so they are worked out while the tree is busy with earlier stacks. A
 * frame of a stack, its bytes at stack + at.
 */
struct tree_frame {
	uint32_t at, len;
	uint64_t hash; /* of its bytes */
	uint64_t path; /* of its path, from the root down to it */
};

/* Whether the tree takes hashed stacks: not with --reverse, --strip-hex or transforms. */
bool tree_takes_hashed(const struct tree *t);
/*
 * The frames of stack from byte start on (the start of a frame), path the
 * path of the frame before it (tree_cursor_root().path for the first):
 * their count, or SIZE_MAX when there are more than cap. Reads no tree, so
 * may run on any thread.
 */
size_t tree_hash_frames(const char *stack, size_t len, size_t start, uint64_t path,
        struct tree_frame *out, size_t cap);
/*
 * The lookups of the n frames fr of a hashed stack, in three stages run
 * some stacks ahead of tree_add_hashed, so that the cache misses of several
 * stacks overlap: 0 loads their slots, 1 finds their candidate nodes (into
 * hint) and loads them, 2 loads the candidates' names (a frame without a
 * candidate will be a new node: its name's intern slot, then entry). A hint is only
 * that: tree_add_hashed confirms it, or looks the frame up again (nodes
 * made meanwhile are found).
 */
void tree_hashed_ahead(
        const struct tree *t, const struct tree_frame *fr, size_t n, uint32_t *hint, int stage);
/*
 * tree_add_stack for a stack whose first `shared` frames are those of the
 * stack added just before (the same bytes; at most 65536 of them), and
 * whose other frames are fr[0..n) from tree_hash_frames, with the hints of
 * tree_hashed_ahead's stage 1. Only when tree_takes_hashed.
 */
bool tree_add_hashed(struct tree *t, enum side side, const char *stack, struct count c,
        size_t shared, const struct tree_frame *fr, const uint32_t *hint, size_t n,
        const char **reason);
/*
 * Stacks frame by frame, for a reader that has them as a tree already (the
 * callgrind reader's expansion): a cursor is a node of the unfinished tree
 * with its path, so a child is found without going over the path again.
 * Not when tree_needs_paths: --reverse merges from the leaf end, and the
 * transforms rewrite whole stacks.
 */
struct tree_cursor {
	uint32_t node;
	uint64_t path; /* private to the tree */
};

/* Whether stacks must come whole (tree_add_stack), not through cursors. */
bool tree_needs_paths(const struct tree *t);
/* The root. */
struct tree_cursor tree_cursor_root(void);
/*
 * The child of at named frame (one frame, ';' and all), created if new, as
 * tree_add_stack would create it. False, with *reason set, when it would
 * take the tree past opt.max_nodes frames (the tree can then only be
 * destroyed).
 */
bool tree_cursor_child(struct tree *t, const struct tree_cursor *at, const char *frame, size_t len,
        struct tree_cursor *child, const char **reason);
/*
 * A frame's name for tree_cursor_named, which a reader adds at many
 * nodes: hashed once (its hash is intern_hash's), and its id in the tree's
 * names kept once a node took it.
 */
struct tree_name {
	const char *bytes; /* the reader's, kept while it adds */
	size_t len;
	uint64_t hash; /* intern_hash(bytes, len) */
	uint32_t id; /* in the tree's names, TREE_NONE until a node took it */
};

/*
 * tree_cursor_child for a tree_name (one frame), without hashing or
 * interning it again. Only when tree_takes_hashed: a frame is then its
 * bytes as they are (no --strip-hex).
 */
bool tree_cursor_named(struct tree *t, const struct tree_cursor *at, struct tree_name *name,
        struct tree_cursor *child, const char **reason);
/*
 * Adds c to the self count of a side at a node: tree_add_stack for a stack
 * that ends there. False, with *reason set and nothing added, when the
 * side's total would exceed 2^64-1.
 */
bool tree_add_count(
        struct tree *t, enum side side, uint32_t node, struct count c, const char **reason);
/*
 * While building: a side's self counts so far, one per node (*count of
 * them): their whole units, or NULL when the side has none yet, and in
 * *nanos their fractions, or NULL when none had one. For runs_take (--runs).
 */
const uint64_t *tree_side_self(
        const struct tree *t, enum side side, size_t *count, const uint32_t **nanos);
/* Freezes the tree: children order, base scale, statuses. Call once. */
void tree_finish(struct tree *t, bool differential);

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
/* Status of a node by its counts; exposed for the colour module's tests. */
enum node_status tree_classify(const struct tree *t, const struct tree_node *n);
/*
 * The same rule for any change of a node (head - base, scaled): new and
 * removed by its totals, else slower/faster/same against the noise floor.
 */
enum node_status tree_classify_change(
        const struct tree *t, const struct tree_node *n, double delta);

#endif
