/*
 * match_residue: what a move left behind. A function that moved most of
 * its cost while a call site stayed keeps a residue at its old place: the
 * frame there is of both builds, and is no candidate of the moves pass by
 * itself. Such frames are found here, weighed on what left them against
 * what arrived (a partial move), and carried: their base part goes to the
 * new place, the residue stays, drawn as what it is there.
 */
#include <stdlib.h>

#include "match_moves.h"
#include "xalloc.h"

/*
 * Whether frame id, of both builds, lost most of its base: the head kept
 * MOVE_PARTIAL_KEPT of it at most.
 */
static inline bool
lost_most(const struct tree *t, uint32_t id)
{
	const struct tree_node *n = &t->nodes[id];
	double b = tree_value(t, n, SIDE_BASE, false), h = tree_value(t, n, SIDE_HEAD, false);
	return b > 0 && h > 0 && h <= b * MOVE_PARTIAL_KEPT;
}

void
moves_collect_partial(struct moves *mv)
{
	struct ctx *c = mv->c;
	const struct tree *t = c->t;
	/*
	 * Only names that have new frames somewhere: what left must have
	 * arrived. A frame of both builds has a name both have, never one
	 * the structure pass renamed: its name is its key.
	 */
	/*
	 * lost_most's test on whole units first: a frame's total is below its
	 * units + 1. The arrays in locals: the stores below could alias them.
	 */
	double lim = MOVE_PARTIAL_KEPT * t->base_scale;
	const struct tree_node *nodes = t->nodes;
	uint8_t *sides = mv->sides, *skip = mv->skip;
	for (uint32_t i = 1, count = t->node_count; i < count; i++) {
		const struct tree_node *n = &nodes[i];
		if (!(sides[n->name] & 2) ||
		        (double)n->total_units[SIDE_HEAD] >
		                (double)(n->total_units[SIDE_BASE] + 1) * lim ||
		        (skip[i] & (SKIP_TAKEN | SKIP_MATCHED)) || n->parent == TREE_ROOT ||
		        !lost_most(t, i) || graft_crowded(&c->g, n->parent)) {
			continue;
		}
		mv->part = xgrow(mv->part, &mv->cappart, mv->npart + 1, sizeof(struct keyed));
		mv->part[mv->npart++] = (struct keyed){n->name, i};
		skip[i] |= SKIP_PARTIAL;
		sides[n->name] |= 4;
	}
	/* By name, in id order within. */
	moves_sort_keyed(mv->part, mv->npart);
}

/*
 * Whether the residue frame id kept is work the function did there in the
 * base: of the head's samples there, MATCH_MIN_SIMILARITY at least are in
 * callees (and self) that had as many in the base there (both sides'
 * shares taken of the head's total). A call site that stayed runs less of
 * what it ran, not other code: else what left is no difference to trust.
 */
static bool
residue_within(struct moves *mv, uint32_t id)
{
	const struct tree *t = mv->c->t;
	double ht = tree_value(t, &t->nodes[id], SIDE_HEAD, false);
	bool common;
	return moves_similarity(mv, &id, 1, ht, &id, 1, ht, false, &common) >= MATCH_MIN_SIMILARITY;
}

/*
 * A partial move: g (a function's frames of the base alone and the head's
 * new ones, not alike by themselves) with the frames fs of its name that
 * lost most of their base, weighed on what left them. What left must be
 * what arrived: alike by what it calls (as any move), and of a size within
 * MOVE_PARTIAL_RATIO of it, tighter than a move's MATCH_MAX_RATIO since
 * the residue says the function still runs at its old place. Each residue
 * must be the function as it was there, and a frame under a caller of a
 * name the new frames have is left out as for any move.
 */
bool
moves_partial(struct moves *mv, struct group *g, const struct keyed *fs, size_t n)
{
	const struct tree *t = mv->c->t;
	size_t had = g->nb;
	/* The size test first, with every partial frame in: most names fail it, and it is cheap. */
	double bt = 0, ht = 0;
	for (size_t k = 0; k < g->nb; k++) {
		bt += moved_value(t, g->b[k], SIDE_BASE, false, true);
	}
	for (size_t k = 0; k < g->nh; k++) {
		ht += tree_value(t, &t->nodes[g->h[k]], SIDE_HEAD, false);
	}
	if (bt > ht * MOVE_PARTIAL_RATIO) {
		return false; /* what left without them is too much already */
	}
	for (size_t k = 0; k < n; k++) {
		bt += moved_value(t, fs[k].id, SIDE_BASE, false, true);
	}
	if (ht <= 0 || ht > bt * MOVE_PARTIAL_RATIO) {
		return false;
	}
	for (size_t k = 0; k < n && g->nb < MOVE_MAX_FRAMES; k++) {
		uint32_t id = fs[k].id;
		if (graft_alive(&mv->c->g, id) && lost_most(t, id) && residue_within(mv, id)) {
			g->b[g->nb++] = id;
		}
	}
	if (g->nb == had || !g->nh) {
		return false;
	}
	moves_same_caller_names(mv->c, g);
	bool any = false;
	for (size_t k = 0; k < g->nb; k++) {
		any = any || (mv->skip[g->b[k]] & SKIP_PARTIAL);
	}
	g->partial = any;
	/* Leaves have only their sizes to compare: too little against a residue. */
	if (any && moves_alike(mv, g) && mv->nsh[SIDE_BASE] &&
	        g->bt <= g->ht * MOVE_PARTIAL_RATIO && g->ht <= g->bt * MOVE_PARTIAL_RATIO) {
		return true;
	}
	g->partial = false;
	return false;
}

/*
 * The base's part of frame b, which kept a residue of the head, carried
 * into head frame h: its children of the base alone go under h whole,
 * those of both builds give their base part to h's child of their name
 * (where h has one), and b's own base samples go to h's. The residue
 * stays where it was, drawn as what it is there: the head's paths are the
 * picture. A walk with a stack of pairs, not a recursion on depth.
 */
void
moves_carry_part(struct moves *mv, uint32_t b, uint32_t h)
{
	struct ctx *c = mv->c;
	const struct tree *t = c->t;
	size_t n = 0;
	mv->pairs = xgrow(mv->pairs, &mv->cappairs, 2, sizeof(uint32_t));
	mv->pairs[n++] = b;
	mv->pairs[n++] = h;
	while (n) {
		uint32_t y = mv->pairs[--n], x = mv->pairs[--n];
		size_t nk = 0;
		for (uint32_t k = t->nodes[x].first_child; k != TREE_NONE;
		        k = t->nodes[k].next_sibling) {
			mv->kids = xgrow(mv->kids, &mv->capkids, nk + 1, sizeof(uint32_t));
			mv->kids[nk++] = k;
		}
		for (size_t i = 0; i < nk && !graft_crowded(&c->g, y); i++) {
			uint32_t k = mv->kids[i];
			if (base_only(t, &t->nodes[k])) {
				graft_carry(&c->g, k, y, t->nodes[k].name);
				continue;
			}
			uint32_t z = graft_child(&c->g, y, t->nodes[k].name);
			if (z != TREE_NONE && has(t, &t->nodes[k], SIDE_BASE)) {
				mv->pairs =
				        xgrow(mv->pairs, &mv->cappairs, n + 2, sizeof(uint32_t));
				mv->pairs[n++] = k;
				mv->pairs[n++] = z;
			}
		}
		graft_carry_self(&c->g, x, y);
	}
}

void
moves_plan_part(struct moves *mv, uint32_t b, uint32_t h)
{
	mv->parts = xgrow(mv->parts, &mv->capparts, mv->nparts + 2, sizeof(uint32_t));
	mv->parts[mv->nparts++] = b;
	mv->parts[mv->nparts++] = h;
	/* Explained: no candidate of the moves weighed next. */
	mv->skip[b] |= SKIP_MATCHED;
	mv->skip[h] |= SKIP_MATCHED;
}

void
moves_carry_planned_parts(struct moves *mv)
{
	struct ctx *c = mv->c;
	for (size_t i = 0; i < mv->nparts; i += 2) {
		uint32_t b = mv->parts[i], h = mv->parts[i + 1];
		/* Planned twice (two of its function's frames below it), or merged away since:
		 * once. */
		if (graft_alive(&c->g, b) && graft_alive(&c->g, h) && mostly(c->t, b, SIDE_BASE) &&
		        !graft_crowded(&c->g, b)) {
			moves_carry_part(mv, b, h);
		}
	}
	mv->nparts = 0;
}
