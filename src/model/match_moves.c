/*
 * match_moves: the moves pass (see match.h), after the structure pass.
 *
 * A function is taken as moved when frames of its name are removed (of
 * the base alone) somewhere and new (of the head alone) elsewhere, and
 * all its removed frames together call what all its new frames together
 * call, in like shares. The frames are looked for anywhere in what one
 * build alone has, not only at its tops: when a caller called nothing but
 * the function that left it, the caller goes too, and the function is one
 * level down. The frames of a name are weighed together because a move
 * often gathers or scatters them: a function called under three paths of
 * its old caller sits under one path of the new one.
 *
 * A frame inside a moved function's frame moves with it and is not a move
 * of its own. A pair one frame apart is a wrapper, not a move: the base's
 * P;W;C and the head's P;C (W inlined), or the base's P;C and the head's
 * P;W;C (W inserted); these are carried out and noted as the structure
 * pass would. Every other move only marks both ends.
 */
#include <stdlib.h>
#include <string.h>

#include "match_moves.h"
#include "xalloc.h"

/*
 * The name frame id of side is weighed under: its head name (a function
 * renamed and moved, or renamed below a wrapper inlined or inserted).
 */
static uint32_t
key_of(const struct moves *mv, enum side side, uint32_t id)
{
	return head_name(mv->c, side, mv->c->t->nodes[id].name);
}

static void
add_cand(struct moves *mv, enum side side, uint32_t id)
{
	mv->cand[side] = xgrow(mv->cand[side], &mv->cap[side], mv->n[side] + 1, sizeof(uint32_t));
	mv->cand[side][mv->n[side]++] = id;
	mv->sides[key_of(mv, side, id)] |= (uint8_t)(1u << side);
	mv->skip[id] |= SKIP_TAKEN;
}

/*
 * The candidates of side: below each top the merged tree had of it (where
 * the structure pass left it), every frame of that side alone, unmatched;
 * and the frame above a top
 * when the move left only a residue of the other side there. Their
 * names' side bits are set as they go.
 */
static void
collect(struct moves *mv, enum side side)
{
	struct ctx *c = mv->c;
	const struct tree *t = c->t;
	for (size_t i = 0; i < c->ntops[side]; i++) {
		uint32_t top = graft_holder(&c->g, c->tops[side][i].node);
		if (mv->skip[top] & SKIP_WALKED << side) {
			continue;
		}
		mv->skip[top] |= (uint8_t)(SKIP_WALKED << side);
		uint32_t p = t->nodes[top].parent;
		if (side_alone(t, top, side) && p != TREE_ROOT && t->nodes[p].parent != TREE_ROOT &&
		        !(mv->skip[p] & (SKIP_TAKEN | SKIP_MATCHED)) &&
		        !graft_crowded(&c->g, t->nodes[p].parent) && mostly(t, p, side)) {
			add_cand(mv, side, p);
		}
		for (uint32_t id = top; id != TREE_NONE; id = tree_next_preorder(t, id, top)) {
			const struct tree_node *n = &t->nodes[id];
			if (!(mv->skip[id] & (SKIP_TAKEN | SKIP_MATCHED)) &&
			        side_alone(t, id, side) && !graft_crowded(&c->g, n->parent)) {
				add_cand(mv, side, id);
			}
		}
	}
}

/* fs without the TREE_NONE holes; returns how many are left. */
static size_t
compact(uint32_t *fs, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (fs[i] != TREE_NONE) {
			fs[k++] = fs[i];
		}
	}
	return k;
}

/*
 * A radix sort, a byte a round from the lowest, of the bytes the keys
 * use: each round keeps the order of equal bytes, so the whole keeps the
 * order of equal keys. It costs rounds times n, where a counting sort over
 * every name (intern_count, hundreds of thousands) cost that many each
 * time for a few thousand frames.
 */
void
moves_sort_keyed(struct keyed *k, size_t n)
{
	uint32_t most = 0;
	for (size_t i = 0; i < n; i++) {
		most |= k[i].key;
	}
	struct keyed *from = k, *to = xmalloc((n ? n : 1) * sizeof(*to));
	for (unsigned shift = 0; shift < 32 && most >> shift; shift += 8) {
		size_t at[257] = {0};
		for (size_t i = 0; i < n; i++) {
			at[(from[i].key >> shift & 0xff) + 1]++;
		}
		for (size_t b = 0; b < 256; b++) {
			at[b + 1] += at[b];
		}
		for (size_t i = 0; i < n; i++) {
			to[at[from[i].key >> shift & 0xff]++] = from[i];
		}
		struct keyed *swap = from;
		from = to;
		to = swap;
	}
	if (from != k) {
		memcpy(k, from, n * sizeof(*k));
		to = from;
	}
	free(to);
}

/* The candidates of names that both builds have one-sided frames of, by name, then as found. */
static void
keep_both(struct moves *mv, enum side side)
{
	size_t k = 0;
	for (size_t i = 0; i < mv->n[side]; i++) {
		uint32_t id = mv->cand[side][i];
		uint8_t sides = mv->sides[key_of(mv, side, id)];
		if ((sides & 3) == 3 || (side == SIDE_HEAD && (sides & 6) == 6)) {
			mv->cand[side][k++] = id;
		}
	}
	mv->n[side] = k;
	/* By name, then as found. */
	struct keyed *by = xmalloc((k ? k : 1) * sizeof(*by));
	for (size_t i = 0; i < k; i++) {
		by[i] = (struct keyed){key_of(mv, side, mv->cand[side][i]), mv->cand[side][i]};
	}
	moves_sort_keyed(by, k);
	for (size_t i = 0; i < k; i++) {
		mv->cand[side][i] = by[i].id;
	}
	free(by);
}

/*
 * Whether frame id sits inside a frame, of its side alone, that is of its
 * own name (recursion) or, with moving, one end of an accepted move.
 */
static bool
inside(const struct moves *mv, uint32_t id, enum side side, bool moving)
{
	const struct tree *t = mv->c->t;
	uint32_t name = t->nodes[id].name;
	for (uint32_t a = t->nodes[id].parent; a != TREE_ROOT && mostly(t, a, side);
	        a = t->nodes[a].parent) {
		if (moving ? mv->moving[a] != 0 : t->nodes[a].name == name) {
			return true;
		}
	}
	return false;
}

static int
share_cmp(const void *a, const void *b)
{
	const struct share *x = a, *y = b;
	return (x->name > y->name) - (x->name < y->name);
}

/* One child's share, as the head would call it, into mv->sh[side]. */
static void
add_share(struct moves *mv, enum side side, uint32_t name, double v)
{
	const struct ctx *c = mv->c;
	name = head_name(c, side, name);
	mv->sh[side] =
	        xgrow(mv->sh[side], &mv->capsh[side], mv->nsh[side] + 1, sizeof(struct share));
	mv->sh[side][mv->nsh[side]++] = (struct share){c->g.rank[name], v};
}

/*
 * Whether child k of side's frame is a wrapper found elsewhere on that
 * side (inlined from the base, inserted in the head): what it calls is
 * what its caller calls in the other build.
 */
static bool
see_through(const struct moves *mv, enum side side, uint32_t k)
{
	const struct tree *t = mv->c->t;
	uint8_t bit = side == SIDE_BASE ? WRAPPER_INLINED : WRAPPER_INSERTED;
	return mv->c->wrappers && (mv->c->wrappers[t->nodes[k].name] & bit) &&
	       t->nodes[k].first_child != TREE_NONE;
}

/*
 * The children of frames fs (side's) as shares of their total tt, summed
 * by name and in the order of the names' ranks, into mv->sh[side];
 * returns the self share. A function moved with its callees, and they
 * changed with the rest of the build: a rename or a wrapper the passes
 * before found elsewhere is read as the head has it.
 */
static double
shares(struct moves *mv, enum side side, const uint32_t *fs, size_t n, double tt, bool departed)
{
	const struct tree *t = mv->c->t;
	double self = 0;
	bool sorted = n == 1 && !mv->c->renamed && !mv->c->wrappers;
	mv->nsh[side] = 0;
	for (size_t i = 0; i < n; i++) {
		const struct tree_node *f = &t->nodes[fs[i]];
		self += moved_value(t, fs[i], side, true, departed) / tt;
		for (uint32_t k = f->first_child; k != TREE_NONE; k = t->nodes[k].next_sibling) {
			double v = moved_value(t, k, side, false, departed) / tt;
			if (v <= 0) {
				continue;
			}
			if (!see_through(mv, side, k)) {
				add_share(mv, side, t->nodes[k].name, v);
				continue;
			}
			self += moved_value(t, k, side, true, departed) / tt;
			for (uint32_t g = t->nodes[k].first_child; g != TREE_NONE;
			        g = t->nodes[g].next_sibling) {
				double w = moved_value(t, g, side, false, departed) / tt;
				if (w > 0) {
					add_share(mv, side, t->nodes[g].name, w);
				}
			}
		}
	}
	struct share *s = mv->sh[side];
	size_t k = 0;
	if (sorted) {
		return self; /* one frame's children are in rank order, each once */
	}
	if (mv->nsh[side]) {
		qsort(s, mv->nsh[side], sizeof(*s), share_cmp);
	}
	for (size_t i = 0; i < mv->nsh[side]; i++) {
		if (k && s[k - 1].name == s[i].name) {
			s[k - 1].v += s[i].v;
		} else {
			s[k++] = s[i];
		}
	}
	mv->nsh[side] = k;
	return self;
}

static double
total(const struct tree *t, const uint32_t *fs, size_t n, enum side side, bool departed)
{
	double sum = 0;
	for (size_t i = 0; i < n; i++) {
		sum += moved_value(t, fs[i], side, false, departed);
	}
	return sum;
}

/*
 * The similarity of base frames bs and head frames hs by what they call:
 * the shares of their totals, child by child and self, that agree. With
 * departed, the base's frames are weighed on what left them.
 */
double
moves_similarity(struct moves *mv, const uint32_t *bs, size_t nb, double bt, const uint32_t *hs,
        size_t nh, double ht, bool departed, bool *common)
{
	*common = false;
	double bself = shares(mv, SIDE_BASE, bs, nb, bt, departed);
	double hself = shares(mv, SIDE_HEAD, hs, nh, ht, false);
	double sim = bself < hself ? bself : hself;
	const struct share *x = mv->sh[SIDE_BASE], *y = mv->sh[SIDE_HEAD];
	for (size_t i = 0, j = 0; i < mv->nsh[SIDE_BASE] && j < mv->nsh[SIDE_HEAD];) {
		if (x[i].name != y[j].name) {
			x[i].name < y[j].name ? i++ : j++;
			continue;
		}
		sim += x[i].v < y[j].v ? x[i].v : y[j].v;
		*common = true;
		i++;
		j++;
	}
	return sim;
}

/*
 * Whether g's frames of both sides are the same function by what they
 * call: MATCH_MIN_SIMILARITY of shares in common and a child name in
 * common, totals within MATCH_MAX_RATIO. Leaves have nothing to compare:
 * one removed and one new leaf are a move when their sizes agree.
 */
bool
moves_alike(struct moves *mv, struct group *g)
{
	const struct tree *t = mv->c->t;
	g->bt = total(t, g->b, g->nb, SIDE_BASE, g->partial);
	g->ht = total(t, g->h, g->nh, SIDE_HEAD, false);
	if (!g->nb || !g->nh || g->bt <= 0 || g->ht <= 0 || g->bt > g->ht * MATCH_MAX_RATIO ||
	        g->ht > g->bt * MATCH_MAX_RATIO) {
		return false;
	}
	bool common;
	g->sim = moves_similarity(mv, g->b, g->nb, g->bt, g->h, g->nh, g->ht, g->partial, &common);
	if (!mv->nsh[SIDE_BASE] && !mv->nsh[SIDE_HEAD]) {
		g->sim = 1;
		return g->nb == 1 && g->nh == 1;
	}
	return common && g->sim >= MATCH_MIN_SIMILARITY;
}

/* fs without the frames inside one of their own name, or inside a moving frame. */
static size_t
outermost(const struct moves *mv, uint32_t *fs, size_t n, enum side side, bool moving)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!inside(mv, fs[i], side, moving)) {
			fs[k++] = fs[i];
		}
	}
	return k;
}

static void
step(struct moves *mv, uint32_t node, enum step_kind kind, uint32_t to)
{
	mv->steps = xgrow(mv->steps, &mv->capsteps, mv->nsteps + 1, sizeof(*mv->steps));
	mv->steps[mv->nsteps++] = (struct step){node, to, kind};
}

/*
 * Two paths walked up from a base frame and a head frame while their
 * names agree: bu and hv the last frames that agreed (the two frames at
 * first), u and v their parents, where the paths part.
 */
struct aligned {
	uint32_t bu, hv, u, v;
};

static struct aligned
align(const struct tree *t, uint32_t b, uint32_t h)
{
	struct aligned a = {b, h, t->nodes[b].parent, t->nodes[h].parent};
	while (a.u != a.v && a.u != TREE_ROOT && a.v != TREE_ROOT &&
	        t->nodes[a.u].name == t->nodes[a.v].name) {
		a.bu = a.u;
		a.hv = a.v;
		a.u = t->nodes[a.u].parent;
		a.v = t->nodes[a.v].parent;
	}
	return a;
}

/* Whether the paths part by one frame: one's parent is the other. */
static bool
one_apart(const struct tree *t, const struct aligned *a)
{
	return a->u != a->v && ((a->u != TREE_ROOT && t->nodes[a->u].parent == a->v) ||
	                               (a->v != TREE_ROOT && t->nodes[a->v].parent == a->u));
}

/* What a pair of frames one frame apart is. */
enum apart {
	APART_NOT, /* more than one frame apart: a move */
	APART_WRAPPER, /* a wrapper, noted and planned */
	APART_RECURSION, /* one level of recursion more or less: a change, not a match */
};

/*
 * g without the frames whose caller is of a name that a frame of the
 * other side has for caller (or but for a wrapper): a function moves when
 * its caller changes; under the same caller at another path, what
 * changed is above it.
 */
void
moves_same_caller_names(const struct ctx *c, struct group *g)
{
	uint8_t drop_b[MOVE_MAX_FRAMES] = {0}, drop_h[MOVE_MAX_FRAMES] = {0};
	for (size_t i = 0; i < g->nb; i++) {
		for (size_t j = 0; j < g->nh; j++) {
			if (match_same_caller(c, g->b[i], g->h[j])) {
				drop_b[i] = drop_h[j] = 1;
			}
		}
	}
	for (size_t i = 0; i < g->nb; i++) {
		g->b[i] = drop_b[i] ? TREE_NONE : g->b[i];
	}
	for (size_t j = 0; j < g->nh; j++) {
		g->h[j] = drop_h[j] ? TREE_NONE : g->h[j];
	}
	g->nb = compact(g->b, g->nb);
	g->nh = compact(g->h, g->nh);
}

/*
 * A base frame b and a head frame h of one function whose paths are the
 * same but for one frame W: the base's P;W;X...;C and the head's
 * P;X...;C (W was inlined), or the base's P;X...;C and the head's
 * P;W;X...;C (W was inserted). The base's frame below P (or below W) is
 * planned to go where the head has it, and noted as the structure pass
 * notes a wrapper. When W is of its parent's name or a child's, the
 * recursion changed: neither a wrapper nor a move.
 */
static enum apart
wrapper_between(struct moves *mv, const struct aligned *a, double sim)
{
	struct ctx *c = mv->c;
	const struct tree *t = c->t;
	uint32_t bu = a->bu, hv = a->hv, u = a->u, v = a->v;
	uint32_t w = TREE_NONE, p = TREE_NONE;
	if (u != v && u != TREE_ROOT && t->nodes[u].parent == v) {
		w = u; /* in the base only */
		p = v;
	} else if (u != v && v != TREE_ROOT && t->nodes[v].parent == u) {
		w = v; /* in the head only */
		p = u;
	}
	if (w == TREE_NONE) {
		return APART_NOT;
	}
	if (match_recursive(t, w)) {
		return APART_RECURSION;
	}
	/* A frame that kept a residue gives its base part (below), as a move's does. */
	bool part = !base_only(t, &t->nodes[bu]);
	if ((part && !mostly(t, bu, SIDE_BASE)) || graft_crowded(&c->g, w) ||
	        graft_crowded(&c->g, p)) {
		return APART_NOT;
	}
	if (w == u) {
		if (part || (!mostly(t, u, SIDE_BASE) && match_calls_in(t, u, SIDE_HEAD))) {
			return APART_NOT; /* W still calls there: the function moved up a level */
		}
		step(mv, bu, STEP_LIFT, u); /* bu up from under u */
		match_note(c, MATCH_WRAPPER_REMOVED, hv, t->nodes[u].name, sim);
		return APART_WRAPPER;
	}
	if (!head_only(t, &t->nodes[v])) {
		return APART_NOT;
	}
	if (part) {
		moves_plan_part(mv, bu, hv);
	} else {
		step(mv, bu, STEP_WRAP, v);
	}
	match_note(c, MATCH_WRAPPER_ADDED, v, t->nodes[bu].name, sim);
	return APART_WRAPPER;
}

/* Most wrappers inlined at once between a function and its caller. */
#define MOVE_MAX_STACKED 8

/*
 * Whether the base's path from a->u up to a->v, the frame where it meets
 * the head's, is two or more wrappers inlined at once: the base's
 * P;W1;...;Wk;C and the head's P;C. Each W must be gone from the head
 * there (but for a residue, or calling nothing), and none a level of
 * recursion. Returns W1, the outermost, or TREE_NONE.
 */
static uint32_t
inlined_stack(const struct moves *mv, const struct aligned *a)
{
	const struct ctx *c = mv->c;
	const struct tree *t = c->t;
	if (a->v == TREE_ROOT || a->u == TREE_ROOT) {
		return TREE_NONE;
	}
	/* Most pairs are on other branches: their depths, then the walk, say so first. */
	uint32_t du = t->nodes[a->u].depth, dv = t->nodes[a->v].depth;
	if (du < dv + 2 || du > dv + MOVE_MAX_STACKED || !base_only(t, &t->nodes[a->bu]) ||
	        graft_crowded(&c->g, a->v)) {
		return TREE_NONE;
	}
	uint32_t w = a->u, outer = TREE_NONE;
	for (uint32_t k = dv; k < du; k++) {
		w = t->nodes[w].parent;
	}
	if (w != a->v) {
		return TREE_NONE;
	}
	w = a->u;
	for (size_t k = 0; w != a->v; k++, w = t->nodes[w].parent) {
		if (w == TREE_ROOT || k == MOVE_MAX_STACKED || match_recursive(t, w) ||
		        graft_crowded(&c->g, w) ||
		        (!mostly(t, w, SIDE_BASE) && match_calls_in(t, w, SIDE_HEAD))) {
			return TREE_NONE;
		}
		outer = w;
	}
	return outer != a->u ? outer : TREE_NONE; /* one wrapper is wrapper_between's */
}

/*
 * Whether base frame b and head frame h are at depths that wrappers
 * between them could explain. align() walks both paths up in step, so
 * where they part the base's frame is as much deeper than the head's as b
 * is than h: one_apart() needs one level either way, inlined_stack() the
 * base 2 to MOVE_MAX_STACKED deeper. Most pairs fail this, and the walk up
 * is then not needed.
 */
static bool
wrapper_depths(const struct tree *t, uint32_t b, uint32_t h)
{
	int64_t d = (int64_t)t->nodes[b].depth - (int64_t)t->nodes[h].depth;
	return d == -1 || (d >= 1 && d <= MOVE_MAX_STACKED);
}

/*
 * g's frames without those explained as a pair one frame apart (a wrapper,
 * or recursion), or as wrappers inlined at once: pairs alike by
 * themselves, as a move would be.
 */
static void
pair_wrappers(struct moves *mv, struct group *g)
{
	struct group one;
	one.nb = one.nh = 1;
	one.partial = false;
	const struct tree *t = mv->c->t;
	for (size_t i = 0; i < g->nb; i++) {
		/* Two leaves are alike by their size alone: too little for a wrapper. */
		if (t->nodes[g->b[i]].first_child == TREE_NONE) {
			continue;
		}
		for (size_t j = 0; j < g->nh && g->b[i] != TREE_NONE; j++) {
			if (g->h[j] == TREE_NONE || !wrapper_depths(t, g->b[i], g->h[j])) {
				continue;
			}
			struct aligned a = align(t, g->b[i], g->h[j]);
			uint32_t outer = one_apart(t, &a) ? TREE_NONE : inlined_stack(mv, &a);
			if (outer == TREE_NONE && !one_apart(t, &a)) {
				continue;
			}
			one.b[0] = g->b[i];
			one.h[0] = g->h[j];
			if (!moves_alike(mv, &one)) {
				continue;
			}
			if (outer != TREE_NONE) {
				step(mv, a.bu, STEP_CARRY, a.hv);
				match_note(mv->c, MATCH_WRAPPER_REMOVED, a.hv, t->nodes[outer].name,
				        one.sim);
				g->b[i] = g->h[j] = TREE_NONE;
			} else if (wrapper_between(mv, &a, one.sim) != APART_NOT) {
				g->b[i] = g->h[j] = TREE_NONE;
			}
		}
	}
	g->nb = compact(g->b, g->nb);
	g->nh = compact(g->h, g->nh);
}

/* The end of the run of fs from i on whose key is name. */
static size_t
run_end(const struct moves *mv, enum side side, const uint32_t *fs, size_t n, size_t i,
        uint32_t name)
{
	while (i < n && key_of(mv, side, fs[i]) == name) {
		i++;
	}
	return i;
}

/*
 * The functions of names in both builds' candidates whose two sides are
 * alike; failing that, with the frames that lost most of their base there
 * (a partial move).
 */
static void
weigh_groups(struct moves *mv)
{
	const uint32_t *r = mv->cand[SIDE_BASE], *h = mv->cand[SIDE_HEAD];
	size_t nr = mv->n[SIDE_BASE], nh = mv->n[SIDE_HEAD];
	struct group g;
	for (size_t i = 0, j = 0, p = 0; j < nh;) {
		uint32_t name = key_of(mv, SIDE_HEAD, h[j]);
		while (i < nr && key_of(mv, SIDE_BASE, r[i]) < name) {
			i++;
		}
		while (p < mv->npart && mv->part[p].key < name) {
			p++;
		}
		size_t i0 = i, j0 = j, p0 = p;
		i = run_end(mv, SIDE_BASE, r, nr, i, name);
		j = run_end(mv, SIDE_HEAD, h, nh, j, name);
		while (p < mv->npart && mv->part[p].key == name) {
			p++;
		}
		if ((i == i0 && p == p0) || i - i0 > MOVE_MAX_FRAMES || j - j0 > MOVE_MAX_FRAMES) {
			continue; /* a name this scattered is no one move to see */
		}
		/* r is NULL when no frame is of the base alone (partial moves only). */
		if (i > i0) {
			memcpy(g.b, r + i0, (i - i0) * sizeof(uint32_t));
		}
		if (j > j0) {
			memcpy(g.h, h + j0, (j - j0) * sizeof(uint32_t));
		}
		g.nb = i - i0;
		g.nh = j - j0;
		g.partial = false;
		if (mv->moves) { /* nested frames of one name would be weighed twice */
			g.nb = outermost(mv, g.b, g.nb, SIDE_BASE, false);
			g.nh = outermost(mv, g.h, g.nh, SIDE_HEAD, false);
		}
		if (g.nb && g.nb * g.nh <= MOVE_MAX_PAIRS) {
			pair_wrappers(mv, &g);
		}
		if (!mv->moves) {
			continue;
		}
		g.nh = match_moved_to(mv->c, g.h, g.nh);
		moves_same_caller_names(mv->c, &g);
		if (moves_alike(mv, &g) ||
		        (p > p0 && moves_partial(mv, &g, mv->part + p0, p - p0))) {
			mv->groups = xgrow(mv->groups, &mv->capgroups, mv->ngroups + 1, sizeof(g));
			g.noted = false;
			mv->groups[mv->ngroups++] = g;
		}
	}
}

/*
 * The frames of a function that moves with a moved caller are no move of
 * their own: dropped, and the function weighed again on what is left.
 */
static void
drop_carried(struct moves *mv)
{
	for (size_t i = 0; i < mv->ngroups; i++) {
		const struct group *g = &mv->groups[i];
		for (size_t k = 0; k < g->nb; k++) {
			mv->moving[g->b[k]] = 1;
		}
		for (size_t k = 0; k < g->nh; k++) {
			mv->moving[g->h[k]] = 1;
		}
	}
	size_t n = 0;
	for (size_t i = 0; i < mv->ngroups; i++) {
		struct group *g = &mv->groups[i];
		size_t nb = g->nb, nh = g->nh;
		g->nb = outermost(mv, g->b, g->nb, SIDE_BASE, true);
		g->nh = outermost(mv, g->h, g->nh, SIDE_HEAD, true);
		if ((g->nb == nb && g->nh == nh) || moves_alike(mv, g)) {
			mv->groups[n++] = *g;
		}
	}
	mv->ngroups = n;
}

/* The largest of frames fs, by side's total. */
static uint32_t
largest(const struct tree *t, const uint32_t *fs, size_t n, enum side side)
{
	uint32_t best = fs[0];
	for (size_t i = 1; i < n; i++) {
		if (tree_value(t, &t->nodes[fs[i]], side, false) >
		        tree_value(t, &t->nodes[best], side, false)) {
			best = fs[i];
		}
	}
	return best;
}

/*
 * Whether the base frame b of a move to the one head frame of g is carried
 * there to be compared: of the base alone (a frame that kept a residue of
 * the head stays, marked), and the head's frame one.
 */
static bool
carried(const struct tree *t, const struct group *g, uint32_t b)
{
	return g->nh == 1 && base_only(t, &t->nodes[b]);
}

/*
 * Moves noted: every frame of each end, against the largest of the other,
 * whose path the entry keeps (the frame may be carried away). A base frame
 * that will be carried to the head's (carried()) is noted by the head's
 * frame alone.
 */
static void
note_group(struct moves *mv, struct group *g)
{
	struct ctx *c = mv->c;
	const struct tree *t = c->t;
	/* Pairs of the same callers but for frames of one build: no move, they leave it. */
	if (g->nb * g->nh <= MOVE_MAX_PAIRS) {
		for (size_t i = 0; i < g->nb; i++) {
			for (size_t j = 0; j < g->nh && g->b[i] != TREE_NONE; j++) {
				if (g->h[j] != TREE_NONE &&
				        match_same_callers(c, g->b[i], g->h[j])) {
					g->b[i] = g->h[j] = TREE_NONE;
				}
			}
		}
	}
	size_t nb = compact(g->b, g->nb), nh = compact(g->h, g->nh);
	/* What pairs explained is no evidence of a move: the rest is weighed again. */
	if (nb < g->nb || nh < g->nh) {
		g->nb = nb;
		g->nh = nh;
		if (!moves_alike(mv, g)) {
			return;
		}
	}
	g->noted = true;
	double bt = g->bt, ht = g->ht;
	uint32_t from = largest(t, g->b, nb, SIDE_BASE), to = largest(t, g->h, nh, SIDE_HEAD);
	for (size_t k = 0; k < nb + nh; k++) {
		bool in = k >= nb;
		if (!in && carried(t, g, g->b[k])) {
			continue;
		}
		match_note(c, in ? MATCH_MOVED_IN : MATCH_MOVED_OUT, in ? g->h[k - nb] : g->b[k],
		        TREE_NONE, g->sim);
		struct match_entry *e = &c->m->entries[c->m->count - 1];
		uint32_t peer = in ? from : to;
		match_note_path(c, e, peer);
		e->peer = in && carried(t, g, from) ? TREE_NONE : peer;
		e->peers = (uint32_t)(in ? nb : nh);
		e->moved_base = bt;
		e->moved_head = ht;
	}
}

/*
 * The base's frames of the moves to one head frame carried there, so that
 * the head's frame and what it calls are compared with the base's, not
 * drawn as new; of a frame that kept a residue of the head, its base part.
 */
static void
carry_moves(struct moves *mv)
{
	struct ctx *c = mv->c;
	const struct tree *t = c->t;
	for (size_t i = 0; i < mv->ngroups; i++) {
		const struct group *g = &mv->groups[i];
		if (!g->noted || g->nh != 1 || !graft_alive(&c->g, g->h[0])) {
			continue;
		}
		uint32_t h = g->h[0];
		for (size_t k = 0; k < g->nb; k++) {
			if (!graft_alive(&c->g, g->b[k])) {
				continue;
			}
			if (carried(t, g, g->b[k])) {
				graft_carry(&c->g, g->b[k], t->nodes[h].parent, t->nodes[h].name);
			} else if ((g->partial || mostly(t, g->b[k], SIDE_BASE)) &&
			           !graft_crowded(&c->g, g->b[k])) {
				moves_carry_part(mv, g->b[k], h);
			}
		}
	}
}

/* The wrappers found carried out, in the order found. */
static void
carry_out(struct moves *mv)
{
	struct ctx *c = mv->c;
	const struct tree *t = c->t;
	for (size_t i = 0; i < mv->nsteps; i++) {
		const struct step *s = &mv->steps[i];
		/* A frame planned twice (two of its function's frames below it) goes once. */
		if (!graft_alive(&c->g, s->node) || !graft_alive(&c->g, s->to)) {
			continue;
		}
		if (s->kind == STEP_LIFT) {
			if (t->nodes[s->node].parent == s->to) {
				graft_raise(&c->g, s->node);
			}
		} else if (s->kind == STEP_CARRY) {
			graft_carry(&c->g, s->node, t->nodes[s->to].parent, t->nodes[s->to].name);
		} else if (t->nodes[s->to].parent == t->nodes[s->node].parent) {
			graft_move(&c->g, s->node, s->to, t->nodes[s->node].name);
		}
	}
	mv->nsteps = 0;
}

/* Frames with an entry from index `from` on are no candidates. */
static void
skip_matched(struct moves *mv, size_t from)
{
	struct ctx *c = mv->c;
	for (size_t i = from; i < c->m->count; i++) {
		mv->skip[graft_holder(&c->g, c->m->entries[i].node)] |= SKIP_MATCHED;
	}
}

/*
 * The candidates after the wrappers were carried out: those still alive,
 * unmatched and (but for a residue) of their side. Names do not change
 * and frames only merge away, so the order by name holds.
 */
static void
still_candidates(struct moves *mv, enum side side)
{
	const struct tree *t = mv->c->t;
	size_t k = 0;
	for (size_t i = 0; i < mv->n[side]; i++) {
		uint32_t id = mv->cand[side][i];
		if (graft_alive(&mv->c->g, id) && !(mv->skip[id] & SKIP_MATCHED) &&
		        mostly(t, id, side)) {
			mv->cand[side][k++] = id;
		}
	}
	mv->n[side] = k;
}

void
match_moves(struct ctx *c)
{
	const struct tree *t = c->t;
	struct moves mv = {.c = c};
	mv.skip = xcalloc(t->node_count, 1);
	skip_matched(&mv, 0);
	mv.sides = xcalloc(intern_count(t->names), 1);
	collect(&mv, SIDE_BASE);
	collect(&mv, SIDE_HEAD);
	moves_collect_partial(&mv);
	keep_both(&mv, SIDE_BASE);
	keep_both(&mv, SIDE_HEAD);
	/*
	 * The wrappers first: once carried out, the frames above a moved
	 * function are where they belong, and its new caller is one that
	 * both builds have. Then the wrappers that uncovered, and the moves.
	 */
	size_t noted = c->m->count;
	weigh_groups(&mv);
	carry_out(&mv);
	skip_matched(&mv, noted);
	still_candidates(&mv, SIDE_BASE);
	still_candidates(&mv, SIDE_HEAD);
	mv.moves = true;
	weigh_groups(&mv);
	if (mv.ngroups) {
		mv.moving = xcalloc(t->node_count, 1);
		drop_carried(&mv);
		/* Decided on the tree as it was: only now is any frame moved. */
		for (size_t i = 0; i < mv.ngroups; i++) {
			note_group(&mv, &mv.groups[i]);
		}
		carry_moves(&mv);
	}
	carry_out(&mv);
	/* Last: carried before, a residue's base part moved frames the moves were weighed on. */
	moves_carry_planned_parts(&mv);
	free(mv.skip);
	free(mv.sides);
	free(mv.moving);
	free(mv.groups);
	free(mv.steps);
	free(mv.pairs);
	free(mv.kids);
	free(mv.part);
	free(mv.parts);
	for (int s = 0; s < 2; s++) {
		free(mv.cand[s]);
		free(mv.sh[s]);
	}
}
