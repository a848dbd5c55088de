/*
 * tree_build_private: the build state of an unfinished tree, private to
 * tree_build*.c (readers include tree_build.h, backends tree.h).
 *
 * A tree points to its build state from tree_create until tree_finish,
 * which lays the nodes array out of it and destroys it; struct tree itself
 * holds only the finished model.
 *
 * A node is found by a hash of its whole path (the frame hashes from the
 * root down), so the slots of all frames of a line are known before any of
 * them is resolved: the lookups of a line are started together and their
 * cache misses overlap instead of following one another. A slot candidate is
 * then confirmed exactly: same parent as the node just resolved, same bytes.
 * Interning happens only when a node is created.
 *
 * While building, a node is only its key, its name id and its self counts
 * (36 bytes, not the 56 of a struct tree_node): tree_finish lays out
 * the nodes array and sums the totals once, so adding a stack writes to its
 * leaf, not to every frame.
 */
#ifndef DIFFFOLD_TREE_BUILD_PRIVATE_H
#define DIFFFOLD_TREE_BUILD_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "count.h"
#include "intern.h"
#include "tree.h"
#include "tree_build.h"

#define ROOT_PATH_HASH 0x243f6a8885a308d3ull

struct node_key {
	uint32_t parent;
	uint32_t len;
	const char *bytes; /* the interned name */
};

struct frame;

struct tree_build {
	struct tree_options opt; /* the tree's */
	struct intern *names; /* the tree's name table, borrowed */
	size_t count; /* nodes so far, the root included */
	uint64_t *slots; /* path hash tag << 32 | node id; 0 = empty (id 0 is the root) */
	size_t mask; /* 2^bits slots */
	unsigned shift; /* 64 - bits: a path hash's slot is its top bits (see home) */
	/* Per node, all with room for `cap` nodes: */
	struct node_key *keys; /* what confirming a candidate needs */
	uint32_t *name_ids; /* intern id */
	/*
	 * Self counts per side, NULL until the side gets a count: whole units,
	 * and their nanos only once a count with a fraction arrives (as in the
	 * finished tree, whole profiles never pay for them).
	 */
	uint64_t *self_units[2];
	uint32_t *self_nanos[2];
	size_t cap;
	struct count sum[2]; /* side totals so far, for the overflow check */
	struct frame *frames; /* FRAME_BATCH frames of the line being added */
	uint32_t *prev; /* nodes of the previous line, root first */
	uint64_t *prev_k; /* and their path hashes */
	size_t prev_depth, prev_cap;
	struct buf scratch; /* frame after --strip-hex */
	struct buf rooted; /* a stack whose root frame needed a space (root_safe) */
	struct transform_run *transform; /* NULL: no transforms */
	uint64_t seed; /* hash_seed(): the same for every tree of the process */
	bool full; /* a node was refused: opt.max_nodes reached */
	uint64_t offered; /* tree_stacks_offered */
	char full_msg[80];
};

/* The name of a node to create: its bytes, and its intern hash and id when known. */
struct name {
	const char *f;
	size_t len;
	uint64_t hash; /* intern_hash(f, len), or 0 if not known */
	uint32_t id; /* intern id, or TREE_NONE if not known */
};

/* Holds only the root; names stays the caller's. */
struct tree_build *tree_build_create(const struct tree_options *opt, struct intern *names);
void tree_build_destroy(struct tree_build *b);
/* Frees the path slots: no node is looked up once the tree is finishing. */
void tree_build_drop_slots(struct tree_build *b);
/*
 * Fills t's nodes array, node_count and max_depth from b (totals start as
 * the self counts), then destroys b.
 */
void tree_build_lay_out(struct tree_build *b, struct tree *t);
/*
 * The child of parent named nm whose path hashes to k, created if new.
 * When opt.max_nodes refuses it: sets b->full and returns parent.
 */
uint32_t tree_build_child(struct tree_build *b, uint64_t k, uint32_t parent, const struct name *nm);
/* A per-node array of elem-byte zeroes, with room for b->cap nodes. */
void *tree_build_new_self(const struct tree_build *b, size_t elem);
const char *tree_build_overflow_reason(enum side side);
/*
 * Gives back to the system the whole pages of the consumed prefix [0, used)
 * of an array that is freed only later (*released: how much already was),
 * so what replaces it grows while it shrinks and the two never peak
 * together. Such pages read as zero if touched again.
 */
void tree_build_release_prefix(void *p, size_t *released, size_t used);
/* The message for b->full, owned by b. */
const char *tree_build_full_reason(struct tree_build *b);

/*
 * The first slot to probe for path hash k: its top bits, which are the top
 * bits of the tag a slot keeps. So the table grows, and another tree's nodes
 * are looked up in it, from the tags alone, without hashing any name again,
 * and growing writes the new table nearly in order.
 */
static inline size_t
tree_build_home(const struct tree_build *b, uint64_t k)
{
	return (size_t)(k >> b->shift);
}

/*
 * The first node on path hash k's probe whose slot tag matches, 0 if none:
 * only a candidate, which its parent and name must confirm. Inline: the
 * line's lookups and the merge both run it once a frame.
 */
static inline uint32_t
tree_build_candidate(const struct tree_build *b, uint64_t k)
{
	uint64_t tag = (k >> 32) << 32, slot;
	for (size_t i = tree_build_home(b, k); (slot = b->slots[i]) != 0; i = (i + 1) & b->mask) {
		if ((slot & ~(uint64_t)UINT32_MAX) == tag) {
			return (uint32_t)slot;
		}
	}
	return 0;
}

/* tree_build.c's steps that the cursor API (tree_build_cursor.c) shares. */
uint32_t tree_build_one_frame(
        struct tree_build *b, uint64_t *k, uint32_t parent, const char *f, size_t len);
const char *tree_build_root_safe(struct tree_build *b, const char *stack, size_t *len);
void tree_build_add_self(struct tree_build *b, enum side side, uint32_t node, struct count c);

/* Hash of a path: its parent's path hash and its own frame's hash. */
static inline uint64_t
tree_path_hash(uint64_t parent_k, uint64_t frame_h)
{
	uint64_t k = ((parent_k << 29 | parent_k >> 35) ^ frame_h) * 0xd6e8feb86659fd93ull;
	return k ^ (k >> 32);
}

#endif
