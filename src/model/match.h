/*
 * match: the same code across two builds, found after the merged tree is
 * built, so that a refactoring is not drawn as removed + new.
 *
 *  - names: two names with the same key under the volatile-name rules
 *    (normalize.h), one only in the base and one only in the head, are
 *    one function; the base's frames take the head's name.
 *  - wrappers: a frame the head inserted between a parent and a child
 *    (P;W;C for the base's P;C), or one the base had and the head lost
 *    (P;W;C for the head's P;C): the base's counts below it are added at
 *    the head's path, so the subtree is compared frame by frame and only
 *    the wrapper stays new (or removed).
 *  - renames: a base-only and a head-only child of one parent whose
 *    children are near the same (names and shares); then every other
 *    place where the base name and the head name meet the same way.
 *  - moves: a function that is removed under one path and new under
 *    another, with a like subtree: both frames are kept and marked.
 *
 * Matching rewrites the base's side only: the head's paths are the
 * picture. What it matched is kept in struct match, owned by the tree
 * (t->match), with one entry per frame that carries a match and the
 * evidence. A tree without a match has t->match NULL, and every output of
 * it is what it was without matching. Nothing here recurses on depth.
 */
#ifndef DIFFFOLD_MATCH_H
#define DIFFFOLD_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "tree.h"

enum match_kind {
	MATCH_NONE,
	MATCH_NAME, /* the base's name differed only by the volatile-name rules */
	MATCH_RENAMED, /* the base's frame of another name, by its subtree */
	MATCH_WRAPPER_ADDED, /* the head inserted this frame above a matched subtree */
	MATCH_WRAPPER_REMOVED, /* the base had a frame (other) between this one and its parent */
	MATCH_MOVED_IN, /* new here; its cost left the frame peer */
	MATCH_MOVED_OUT, /* removed here; its cost went to the frame peer */
	MATCH_KIND_COUNT,
};

/* Thresholds, documented in docs/matching.md. */
#define MATCH_MIN_SIMILARITY 0.7 /* share of a subtree's children that must agree */
#define MATCH_MIN_MARGIN 0.15 /* the best candidate's lead over the second */
#define MATCH_MAX_RATIO 3.0 /* most the two frames' totals may differ, either way */
#define MATCH_MOVE_RESIDUE 0.1 /* most of the other build a frame a move left may keep */

struct match_settings {
	bool names; /* the volatile-name rules */
	bool structure; /* wrappers, renames and moves */
};

struct match_entry {
	uint8_t kind; /* enum match_kind */
	uint32_t node; /* the frame, in the finished tree */
	/*
	 * MOVED_*: the largest frame at the other end; TREE_NONE for none, or
	 * when it was carried into this one (a move to one head frame).
	 */
	uint32_t peer;
	uint32_t peers; /* MOVED_*: how many frames the other end has (peer is one of them) */
	/* In match->strings: the base's name, the wrapper's, or a move's other end's path. */
	uint32_t other_at, other_len;
	uint32_t rules; /* MATCH_NAME: the rules (bits of normalize_rules) that fired */
	float similarity; /* the evidence: share of the children that agreed (1 for names) */
	bool elsewhere; /* MATCH_RENAMED: the same rename was found by its subtree elsewhere */
	/*
	 * The frame's change, head - base (a move's: the head of the frame it
	 * went to less the base of the one it left), and the larger of the two:
	 * entries come largest change first.
	 */
	double change, size;
	/*
	 * MOVED_*: the function's totals over all the frames that moved, the
	 * base's it left and the head's it went to (after --normalize's
	 * scaling); their difference is the move's net change, the same in
	 * every entry of the move.
	 */
	double moved_base, moved_head;
	uint32_t rank; /* of the frame's name (intern_ranks), for ties */
};

struct match {
	struct match_entry *entries; /* the largest change first */
	size_t count;
	uint32_t *entry_of; /* per node: index + 1 of its entry, 0 for none */
	struct buf strings;
	size_t names_matched; /* base names taken for head names by the rules */
	size_t per_kind[MATCH_KIND_COUNT]; /* entries of each kind */
};

/*
 * Matches across the builds of the finished differential tree t, in place:
 * when anything matched, frames are moved and merged, the nodes renumbered,
 * and t->match says what; otherwise t is left as it was. Trees of one side,
 * or with --runs (whose tests are per frame of the tree as read), are left
 * alone.
 */
void match_run(struct tree *t, const struct match_settings *s);
void match_destroy(struct match *m);
/* The entry of a frame, or NULL. */
static inline const struct match_entry *
match_of(const struct tree *t, uint32_t node)
{
	const struct match *m = t->match;
	if (!m || !m->entry_of[node]) {
		return NULL;
	}
	return &m->entries[m->entry_of[node] - 1];
}

/*
 * Whether frame node is one end of a move (MOVED_IN or MOVED_OUT), and if
 * so the function's net change over the move, head - base: what the
 * header ranks a moved function by, rather than its frames' own change
 * (new here, removed there). net may be NULL.
 */
static inline bool
match_moved(const struct tree *t, uint32_t node, double *net)
{
	const struct match_entry *e = match_of(t, node);
	if (!e || (e->kind != MATCH_MOVED_IN && e->kind != MATCH_MOVED_OUT)) {
		return false;
	}
	if (net) {
		*net = e->moved_head - e->moved_base;
	}
	return true;
}

/* An entry's other name (the base's, or the wrapper's), or a move's other path. */
static inline const char *
match_other_name(const struct tree *t, const struct match_entry *e, size_t *len)
{
	*len = e->other_len;
	return t->match->strings.data + e->other_at;
}

#endif
