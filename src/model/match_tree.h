/*
 * match_tree: surgery on a finished tree, for match.c. Only frames of the
 * base alone (no head counts in their subtree) are moved: under another
 * parent, or merged into the frame of the same name there, so the head's
 * paths and counts never change and every total stays right by a local
 * update. A frame merged or lifted away dies in place: unlinked, its
 * counts zero, so a walk from the root never meets it and a loop over all
 * frames adds nothing for it; its number is not reused. Children stay in
 * the order of their names' ranks, and lookups walk them in that order:
 * two lists are joined like sorted arrays, never searched one frame at a
 * time. Nothing here recurses on depth.
 */
#ifndef DIFFFOLD_MATCH_TREE_H
#define DIFFFOLD_MATCH_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tree.h"

/*
 * Frames with more children than this are left alone (see graft_crowded):
 * unlinking and placing a child walk its parent's list.
 */
#define GRAFT_MAX_CHILDREN 4096

struct graft {
	struct tree *t;
	uint32_t *children; /* per frame: its children when the surgery began */
	const uint32_t *rank; /* intern_ranks: the children's order */
	uint32_t *fwd; /* per frame: the frame it went into, TREE_NONE while alive */
	uint8_t *touched; /* per frame: its counts changed, so its status may have */
	uint32_t *touched_list; /* those frames */
	size_t touched_count, touched_cap;
	uint32_t *took; /* frames that took frames in, in the order they did, repeats kept */
	size_t took_count, took_cap;
	uint32_t *stack; /* merge pairs */
	size_t stack_cap;
	bool changed, shifted;
};

void graft_init(struct graft *g, struct tree *t);
/* Statuses of the frames whose counts changed, and the tree's depth, set again. */
void graft_finish(struct graft *g);
/*
 * Whether p had more than GRAFT_MAX_CHILDREN children: no frame is moved
 * into or out of such a frame, so the cost of a surgery stays linear in
 * what it moves (a hundred thousand renamed siblings would otherwise cost
 * their square).
 */
static inline bool
graft_crowded(const struct graft *g, uint32_t p)
{
	return g->children[p] > GRAFT_MAX_CHILDREN;
}
/* The child of parent named name, or TREE_NONE. */
uint32_t graft_child(const struct graft *g, uint32_t parent, uint32_t name);
/* Whether frame id is alive (not merged or lifted away). */
static inline bool
graft_alive(const struct graft *g, uint32_t id)
{
	return g->fwd[id] == TREE_NONE;
}
/* The live frame that holds what frame id held. */
uint32_t graft_holder(const struct graft *g, uint32_t id);
/*
 * Frame a, of the base alone, goes under p as name: merged into p's child
 * of that name when there is one. p is a's parent, or a child of it.
 * Returns the frame that holds a's counts now.
 */
uint32_t graft_move(struct graft *g, uint32_t a, uint32_t p, uint32_t name);
/*
 * Frame a, of the base alone, goes under p as name, p anywhere but in a's
 * subtree: merged into p's child of that name when there is one. The
 * totals of a's old callers and of p and its callers change by a's; an
 * old caller left with no counts goes. Returns the frame that holds a's
 * counts now.
 */
uint32_t graft_carry(struct graft *g, uint32_t a, uint32_t p, uint32_t name);
/*
 * Frame a's own base samples go to frame p's, p anywhere: the totals of
 * a's callers and of p's change by them. a may have head counts; it stays.
 */
void graft_carry_self(struct graft *g, uint32_t a, uint32_t p);
/*
 * Frame a, of the base alone, goes up a level: from under its parent w to
 * under w's parent, merged into the frame of its name there when there is
 * one; w keeps the rest. Returns the frame that holds a's counts now.
 */
uint32_t graft_raise(struct graft *g, uint32_t a);
/* Frame w, of the base alone, is dropped: its self count to its parent, its children up to it. */
void graft_lift(struct graft *g, uint32_t w);
/*
 * Frames the surgery left with no counts on either side and no children
 * (a wrapper whose callees were raised out of it) go, and so does a
 * caller that this leaves empty, unless keep[frame] is set (a frame a
 * match entry names). Without this they would stay in the tree as frames
 * of zero samples, listed in the JSON and the folded output.
 */
void graft_drop_empty(struct graft *g, const uint8_t *keep);

#endif
