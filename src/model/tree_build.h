/*
 * tree_build: the API that makes a tree (tree.h), for the readers, the
 * tests and the fuzzer: tree_create, stacks added whole, hashed ahead or
 * frame by frame through cursors, then tree_finish. The build state stays
 * behind the tree's pointer rather than in a builder the caller holds, so a
 * reader keeps one handle from tree_create to tree_finish; its fields are
 * private to tree_build*.c (tree_build_private.h).
 */
#ifndef DIFFFOLD_TREE_BUILD_H
#define DIFFFOLD_TREE_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "count.h"
#include "tree.h"

/* Takes a copy of *opt. The caller frees the tree with tree_destroy. */
struct tree *tree_create(const struct tree_options *opt);
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
/*
 * While building: each node's intern name (tree_side_self's count of
 * them), and one node's parent (TREE_NONE for the root). For runs_take,
 * which sums each run's functions when the run ends.
 */
const uint32_t *tree_build_names(const struct tree *t);
uint32_t tree_build_parent(const struct tree *t, uint32_t id);
/*
 * While building: the stacks given to the tree so far (tree_add_stack,
 * tree_add_hashed, tree_add_count), dropped by a transform or not: a
 * reader that gave none read no sample.
 */
uint64_t tree_stacks_offered(const struct tree *t);
/* Freezes the tree: children order, base scale, statuses. Call once. */
void tree_finish(struct tree *t, bool differential);

#endif
