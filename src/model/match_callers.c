/*
 * match_callers: what the moves pass asks of a frame's callers (see
 * match_private.h): whether two frames of one function sit under the same
 * callers but for what one build alone has, and whether a new frame's
 * callers are code the base ran.
 */
#include "match_private.h"
#include "xalloc.h"

/* Whether frame w calls anything in side's build. */
bool
match_calls_in(const struct tree *t, uint32_t w, enum side side)
{
	for (uint32_t k = t->nodes[w].first_child; k != TREE_NONE; k = t->nodes[k].next_sibling) {
		if (has(t, &t->nodes[k], side)) {
			return true;
		}
	}
	return false;
}

/*
 * A caller of side's path that the other build has not there: of side
 * alone, or calling nothing there in the other build (a wrapper inlined
 * keeps its own samples where it was a leaf).
 */
static bool
lost_caller(const struct tree *t, uint32_t w, enum side side)
{
	return side_alone(t, w, side) || !match_calls_in(t, w, !side);
}

/* Whether base name b is head name h, or was renamed h (a rename found by subtree). */
static bool
same_name(const struct ctx *c, uint32_t b, uint32_t h)
{
	return b == h || (c->pair_to && c->pair_to[b] == h);
}

/* Callers of a frame compared up to where two paths meet; more are not compared. */
#define MOVE_MAX_CALLERS 128

/*
 * Whether the callers of base frame b and head frame h, up to where their
 * paths meet, are the same but for frames that one build alone has there
 * (wrappers inserted or inlined, renames the structure pass did not take,
 * several at once): the function did not move, what is around it
 * changed. A caller that both builds have at one path and not at the
 * other is a move, even when the move took most of its samples.
 */
bool
match_same_callers(const struct ctx *c, uint32_t b, uint32_t h)
{
	const struct tree *t = c->t;
	uint32_t bs[MOVE_MAX_CALLERS], hs[MOVE_MAX_CALLERS];
	size_t nb = 0, nh = 0;
	uint32_t u = t->nodes[b].parent, v = t->nodes[h].parent;
	while (u != v) {
		if (nb == MOVE_MAX_CALLERS || nh == MOVE_MAX_CALLERS) {
			return false;
		}
		uint32_t du = t->nodes[u].depth, dv = t->nodes[v].depth;
		if (du >= dv) {
			bs[nb++] = u;
			u = t->nodes[u].parent;
		}
		if (dv >= du) {
			hs[nh++] = v;
			v = t->nodes[v].parent;
		}
	}
	/* From the bottom up: equal names pair, a frame of one build alone may stay unpaired. */
	size_t i = 0, j = 0;
	while (i < nb || j < nh) {
		if (i < nb && j < nh && same_name(c, t->nodes[bs[i]].name, t->nodes[hs[j]].name)) {
			i++;
			j++;
		} else if (i < nb && lost_caller(t, bs[i], SIDE_BASE)) {
			i++;
		} else if (j < nh && lost_caller(t, hs[j], SIDE_HEAD)) {
			j++;
		} else {
			return false;
		}
	}
	return true;
}

static uint32_t
caller_name(const struct tree *t, uint32_t id)
{
	return t->nodes[t->nodes[id].parent].name;
}

/*
 * Whether base frame b and head frame h have callers of one name, or but
 * for a caller that one build lost there (a wrapper inlined or inserted).
 */
bool
match_same_caller(const struct ctx *c, uint32_t b, uint32_t h)
{
	const struct tree *t = c->t;
	uint32_t bp = t->nodes[b].parent, hp = t->nodes[h].parent;
	if (same_name(c, t->nodes[bp].name, t->nodes[hp].name)) {
		return true;
	}
	if (bp != TREE_ROOT && same_name(c, caller_name(t, bp), t->nodes[hp].name) &&
	        lost_caller(t, bp, SIDE_BASE)) {
		return true;
	}
	return hp != TREE_ROOT && same_name(c, t->nodes[bp].name, caller_name(t, hp)) &&
	       lost_caller(t, hp, SIDE_HEAD);
}

/*
 * The base's frame, under base frame b, that the head's frame a stands
 * for: a itself (one frame of both), the frame the head renamed into a (a
 * rename found elsewhere), or a's name under a wrapper the head inlined;
 * b itself when a is a wrapper the head inserted. TREE_NONE when the base
 * had no such frame there.
 */
static uint32_t
counterpart(const struct ctx *c, uint32_t b, uint32_t a)
{
	const struct tree *t = c->t;
	uint32_t name = t->nodes[a].name;
	if (c->wrappers && (c->wrappers[name] & WRAPPER_INSERTED)) {
		return b;
	}
	if (graft_crowded(&c->g, b)) {
		return TREE_NONE;
	}
	for (uint32_t k = t->nodes[b].first_child; k != TREE_NONE; k = t->nodes[k].next_sibling) {
		uint32_t kn = t->nodes[k].name;
		if (!has(t, &t->nodes[k], SIDE_BASE)) {
			continue;
		}
		if (kn == name || (c->pair_to && c->pair_to[kn] == name)) {
			return k;
		}
		uint32_t under = TREE_NONE;
		if (c->wrappers && (c->wrappers[kn] & WRAPPER_INLINED)) {
			under = graft_child(&c->g, k, name);
		}
		if (under != TREE_NONE && has(t, &t->nodes[under], SIDE_BASE)) {
			return under;
		}
	}
	return TREE_NONE;
}

/*
 * Whether the callers of head frame h that the base has not (up to the
 * first one it has) stand, one by one, for frames the base had there
 * under a rename or around a wrapper that the passes before found
 * elsewhere: the caller is no new code, only its path changed.
 */
static bool
known_callers(const struct ctx *c, uint32_t h)
{
	const struct tree *t = c->t;
	uint32_t chain[MOVE_MAX_CALLERS];
	size_t n = 0;
	uint32_t a = t->nodes[h].parent;
	for (; !has(t, &t->nodes[a], SIDE_BASE); a = t->nodes[a].parent) {
		if (a == TREE_ROOT || n == MOVE_MAX_CALLERS) {
			return false;
		}
		chain[n++] = a;
	}
	uint32_t b = a; /* the first caller both builds have: the walk down starts there */
	while (n > 0 && b != TREE_NONE) {
		b = counterpart(c, b, chain[--n]);
	}
	return b != TREE_NONE;
}

/*
 * The head's frames a function can have moved to: those whose caller the
 * base has too, at that path or but for known renames and wrappers
 * (known_callers). Below a caller the base did not have, a function came
 * with its caller.
 */
size_t
match_moved_to(struct ctx *c, uint32_t *fs, size_t n)
{
	const struct tree *t = c->t;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t p = t->nodes[fs[i]].parent;
		if (!has(t, &t->nodes[p], SIDE_BASE)) {
			/* Frames of many names share a caller: its answer is kept. */
			if (!c->known) {
				c->known = xcalloc(t->node_count, 1);
			}
			if (!c->known[p]) {
				c->known[p] = known_callers(c, fs[i]) ? 1 : 2;
			}
			if (c->known[p] != 1) {
				continue;
			}
		}
		fs[k++] = fs[i];
	}
	return k;
}
