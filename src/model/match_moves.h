/*
 * match_moves: what the files of the moves pass (match_moves.c, the
 * functions weighed; match_residue.c, what a move left behind) share. Not
 * for use outside them.
 */
#ifndef DIFFFOLD_MATCH_MOVES_H
#define DIFFFOLD_MATCH_MOVES_H

#include "match_private.h"

/* Frames of a function, per side, beyond which it is not weighed. */
#define MOVE_MAX_FRAMES 256
/* Pairs of a function's frames beyond which they are not compared path by path. */
#define MOVE_MAX_PAIRS 1024

/* A name (its rank) and a value: one child's share of a function's total. */
struct share {
	uint32_t name;
	double v;
};

/* One function's frames of each side, and what was weighed. */
struct group {
	uint32_t b[MOVE_MAX_FRAMES], h[MOVE_MAX_FRAMES];
	size_t nb, nh;
	double bt, ht, sim;
	bool noted; /* a move: its ends were noted */
	bool partial; /* weighed on the base's departed parts (match_residue.c) */
};

enum {
	SKIP_MATCHED = 1, /* an entry's frame */
	SKIP_WALKED = 2, /* a top whose subtree was walked, for the base (<< 1: the head) */
	SKIP_TAKEN = 8, /* a candidate already */
	SKIP_PARTIAL = 16, /* a frame of both that lost most of its base: a partial move's */
};

struct moves {
	struct ctx *c;
	bool moves; /* weigh moves, not only wrappers */
	uint8_t *skip; /* per frame: SKIP_ bits */
	/* per name: 1 when a base-only frame has it, 2 a head-only, 4 a partial one (SKIP_PARTIAL)
	 */
	uint8_t *sides;
	uint32_t *cand[2]; /* per side: the one-sided frames, then those of names of both */
	size_t n[2], cap[2];
	struct keyed *part; /* the base's frames that lost most of their samples, by name */
	size_t npart, cappart;
	struct share *sh[2]; /* per side: scratch for similarity */
	size_t nsh[2], capsh[2];
	struct group *groups; /* accepted */
	size_t ngroups, capgroups;
	uint8_t *moving; /* per frame: one end of an accepted group */
	uint32_t *pairs, *kids; /* carry_part's stack of frame pairs, and one frame's children */
	size_t cappairs, capkids;
	/* Wrappers found: a base frame up from under `to` (STEP_LIFT) or under it (STEP_WRAP). */
	struct step *steps;
	size_t nsteps, capsteps;
	/* Frames that kept a residue, to give their base part: pairs (base frame, head frame). */
	uint32_t *parts;
	size_t nparts, capparts;
};

/* A frame and the name it is weighed under. */
struct keyed {
	uint32_t key, id;
};

/*
 * Partial moves (docs/matching.md): a frame of both builds is a partial
 * move's old place when the head kept at most MOVE_PARTIAL_KEPT of its
 * base there, and what left it and what arrived elsewhere differ by
 * MOVE_PARTIAL_RATIO at most, either way.
 */
#define MOVE_PARTIAL_KEPT 0.5
#define MOVE_PARTIAL_RATIO 1.5

/*
 * Of side but for a residue of the other, MATCH_MOVE_RESIDUE of side's
 * total at most: a move often leaves a few samples behind.
 */
static inline bool
mostly(const struct tree *t, uint32_t id, enum side side)
{
	const struct tree_node *n = &t->nodes[id];
	double x = tree_value(t, n, side, false), y = tree_value(t, n, !side, false);
	return x > 0 && y <= x * MATCH_MOVE_RESIDUE;
}

/*
 * Frame id's total (or self) count of side, scaled; with departed, of the
 * base less the head's there: what left a frame that kept a residue.
 */
static inline double
moved_value(const struct tree *t, uint32_t id, enum side side, bool self, bool departed)
{
	const struct tree_node *n = &t->nodes[id];
	double v = tree_value(t, n, side, self);
	if (departed && side == SIDE_BASE) {
		v -= tree_value(t, n, SIDE_HEAD, self);
	}
	return v > 0 ? v : 0;
}

/* A name of side as the head has it: a base name renamed by its subtree elsewhere, its new name. */
static inline uint32_t
head_name(const struct ctx *c, enum side side, uint32_t name)
{
	if (side == SIDE_BASE && c->pair_to && c->pair_to[name] < NAME_CONFLICT) {
		return c->pair_to[name];
	}
	return name;
}

/* k by key, in the order it had within a key. */
void moves_sort_keyed(struct keyed *k, size_t n);
/* Whether g's frames of both sides are the same function by what they call (match_moves.c). */
bool moves_alike(struct moves *mv, struct group *g);
/*
 * The similarity of base frames bs (of total bt) and head frames hs (of
 * total ht) by what they call; common: a child name in common.
 */
double moves_similarity(struct moves *mv, const uint32_t *bs, size_t nb, double bt,
        const uint32_t *hs, size_t nh, double ht, bool departed, bool *common);
/* g without pairs whose callers have one name (match_moves.c). */
void moves_same_caller_names(const struct ctx *c, struct group *g);
/* Into mv->part: the base's frames of both builds that lost most of their samples there. */
void moves_collect_partial(struct moves *mv);
/* Whether g, weighed with the partial frames fs of its name, is a partial move (then g has them).
 */
bool moves_partial(struct moves *mv, struct group *g, const struct keyed *fs, size_t n);
/* The base's part of frame b, which kept a residue of the head, carried into head frame h. */
void moves_carry_part(struct moves *mv, uint32_t b, uint32_t h);
/* moves_carry_part(b, h) planned, for when the wrappers found are carried out. */
void moves_plan_part(struct moves *mv, uint32_t b, uint32_t h);
/* The planned parts carried, in the order planned. */
void moves_carry_planned_parts(struct moves *mv);

#endif
