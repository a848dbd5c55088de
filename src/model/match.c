/*
 * match: the passes over a finished tree (see match.h). The names pass
 * (match_names.c) moves frames as it goes; the structure pass decides on
 * the tree as it is, into a plan (what each base frame becomes), then
 * carries the plan out, and looks again where that took frames in; the
 * moves pass (match_moves.c) marks, and carries moves to one frame. The frames are moved in place
 * (match_tree.h); an entry noted against a frame that is later merged
 * away moves to the frame that took it in.
 */
#include "match.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "match_private.h"
#include "match_text.h"
#include "xalloc.h"

/*
 * How alike the base's frame b and the head's frame h are by what they
 * call: the shares of their totals that their children of the same name
 * (and their self counts) have in common, 0..1. *common: whether a child
 * name is in both. A frame without children is alike any other by this
 * measure, which is why callers ask for a common child.
 */
static double
similarity(const struct ctx *c, uint32_t b, uint32_t h, bool *common)
{
	const struct tree *t = c->t;
	const uint32_t *rank = c->g.rank;
	const struct tree_node *bn = &t->nodes[b], *hn = &t->nodes[h];
	double bt = tree_value(t, bn, SIDE_BASE, false), ht = tree_value(t, hn, SIDE_HEAD, false);
	*common = false;
	if (bt <= 0 || ht <= 0) {
		return 0;
	}
	double bs = tree_value(t, bn, SIDE_BASE, true) / bt;
	double hs = tree_value(t, hn, SIDE_HEAD, true) / ht;
	double sim = bs < hs ? bs : hs;
	/* Both lists are in rank order: one walk of each. */
	uint32_t o = hn->first_child;
	for (uint32_t k = bn->first_child; k != TREE_NONE && o != TREE_NONE;
	        k = t->nodes[k].next_sibling) {
		uint32_t r = rank[t->nodes[k].name];
		while (o != TREE_NONE && rank[t->nodes[o].name] < r) {
			o = t->nodes[o].next_sibling;
		}
		if (o == TREE_NONE || t->nodes[o].name != t->nodes[k].name) {
			continue;
		}
		double x = tree_value(t, &t->nodes[k], SIDE_BASE, false) / bt;
		double y = tree_value(t, &t->nodes[o], SIDE_HEAD, false) / ht;
		if (x > 0 && y > 0) {
			*common = true;
			sim += x < y ? x : y;
		}
	}
	return sim;
}

/* Totals within MATCH_MAX_RATIO of each other. */
static bool
like_size(const struct tree *t, uint32_t b, uint32_t h)
{
	double x = tree_value(t, &t->nodes[b], SIDE_BASE, false);
	double y = tree_value(t, &t->nodes[h], SIDE_HEAD, false);
	return x > 0 && y > 0 && x <= y * MATCH_MAX_RATIO && y <= x * MATCH_MAX_RATIO;
}

static uint32_t
add_string(struct match *m, const struct tree *t, uint32_t name, uint32_t *len)
{
	size_t l;
	const char *s = intern_name(t->names, name, &l);
	uint32_t at = (uint32_t)m->strings.len;
	buf_add(&m->strings, s, l);
	*len = (uint32_t)l;
	return at;
}

void
match_note(struct ctx *c, enum match_kind kind, uint32_t node, uint32_t other_name, double sim)
{
	struct match *m = c->m;
	m->entries = xgrow(m->entries, &c->cap, m->count + 1, sizeof(*m->entries));
	struct match_entry *e = &m->entries[m->count++];
	memset(e, 0, sizeof(*e));
	e->kind = (uint8_t)kind;
	e->node = node;
	e->peer = TREE_NONE;
	e->similarity = (float)sim;
	if (kind == MATCH_WRAPPER_ADDED || kind == MATCH_WRAPPER_REMOVED) {
		if (!c->wrappers) {
			c->wrappers = xcalloc(intern_count(c->t->names), 1);
		}
		uint32_t w = kind == MATCH_WRAPPER_ADDED ? c->t->nodes[node].name : other_name;
		c->wrappers[w] |=
		        (uint8_t)(kind == MATCH_WRAPPER_ADDED ? WRAPPER_INSERTED : WRAPPER_INLINED);
	}
	if (other_name != TREE_NONE) {
		e->other_at = add_string(m, c->t, other_name, &e->other_len);
	}
}

void
match_note_path(struct ctx *c, struct match_entry *e, uint32_t node)
{
	size_t at = c->m->strings.len;
	match_path(&c->m->strings, c->t, node, UINT32_MAX);
	e->other_at = (uint32_t)at;
	e->other_len = (uint32_t)(c->m->strings.len - at);
}

static void
plan_add(struct plan *p, uint32_t node, enum step_kind kind, uint32_t to)
{
	p->steps = xgrow(p->steps, &p->cap, p->count + 1, sizeof(*p->steps));
	p->steps[p->count++] = (struct step){node, to, kind};
	p->planned[node] = 1;
}

static void
plan_finish(struct plan *p)
{
	free(p->steps);
	free(p->planned);
	memset(p, 0, sizeof(*p));
}

/* Far more candidates than this under one parent are not compared pairwise. */
#define MAX_PAIRS 4096

static bool
planned(const struct plan *p, uint32_t id)
{
	return p->planned[id];
}

/*
 * A frame of its parent's name or of a child's: one more or one less level
 * of recursion is a change of behaviour, not a wrapper.
 */
bool
match_recursive(const struct tree *t, uint32_t w)
{
	uint32_t name = t->nodes[w].name;
	if (t->nodes[t->nodes[w].parent].name == name) {
		return true;
	}
	for (uint32_t k = t->nodes[w].first_child; k != TREE_NONE; k = t->nodes[k].next_sibling) {
		if (t->nodes[k].name == name) {
			return true;
		}
	}
	return false;
}

/*
 * A base-only child r of p whose name is under exactly one head-only child
 * w of p: w was inserted between them.
 */
static void
wrappers_added(
        struct ctx *c, const uint32_t *rs, size_t nr, const uint32_t *ns, size_t nh, uint8_t *taken)
{
	const struct tree *t = c->t;
	for (size_t i = 0; i < nr; i++) {
		uint32_t found = TREE_NONE, count = 0;
		for (size_t j = 0; j < nh && count < 2; j++) {
			if (graft_child(&c->g, ns[j], t->nodes[rs[i]].name) != TREE_NONE) {
				found = ns[j];
				count++;
			}
		}
		if (count != 1 || match_recursive(t, found)) {
			continue;
		}
		plan_add(&c->plan, rs[i], STEP_WRAP, found);
		if (!taken[found]) {
			match_note(c, MATCH_WRAPPER_ADDED, found, t->nodes[rs[i]].name, 1.0);
			taken[found] = 1;
		}
	}
}

/*
 * A base-only child w of p all of whose children are children of p in the
 * head, one at least new there: the head lost w between them.
 */
static void
wrappers_removed(struct ctx *c, uint32_t p, const uint32_t *rs, size_t nr, uint8_t *taken)
{
	const struct tree *t = c->t;
	const uint32_t *rank = c->g.rank;
	for (size_t i = 0; i < nr; i++) {
		uint32_t w = rs[i];
		if (t->nodes[w].first_child == TREE_NONE || planned(&c->plan, w) ||
		        match_recursive(t, w)) {
			continue;
		}
		/* Each child of w against p's children: both lists in rank order. */
		bool ok = true, fresh = false;
		uint32_t x = t->nodes[p].first_child;
		for (uint32_t k = t->nodes[w].first_child; ok && k != TREE_NONE;
		        k = t->nodes[k].next_sibling) {
			while (x != TREE_NONE && rank[t->nodes[x].name] < rank[t->nodes[k].name]) {
				x = t->nodes[x].next_sibling;
			}
			ok = x != TREE_NONE && t->nodes[x].name == t->nodes[k].name &&
			     has(t, &t->nodes[x], SIDE_HEAD);
			fresh |= ok && head_only(t, &t->nodes[x]);
		}
		if (!ok || !fresh) {
			continue;
		}
		plan_add(&c->plan, w, STEP_LIFT, TREE_NONE);
		x = t->nodes[p].first_child;
		for (uint32_t k = t->nodes[w].first_child; k != TREE_NONE;
		        k = t->nodes[k].next_sibling) {
			while (t->nodes[x].name != t->nodes[k].name) {
				x = t->nodes[x].next_sibling;
			}
			if (head_only(t, &t->nodes[x]) && !taken[x]) {
				match_note(c, MATCH_WRAPPER_REMOVED, x, t->nodes[w].name, 1.0);
				taken[x] = 1;
			}
		}
	}
}

/*
 * Pairs of a base frame rs[i] and a head frame ns[j] that are each
 * other's best by similarity, at MATCH_MIN_SIMILARITY or more and
 * MATCH_MIN_MARGIN ahead of any other candidate of either. skip_r,
 * skip_n: frames not to pair. Leaves are paired only when they are alone
 * (one each) and leaves_alone is set. Returns the pairs' count, into
 * pr/pn/psim (room for the smaller of nr and nh).
 */
static size_t
pair_up(const struct ctx *c, const uint32_t *rs, size_t nr, const uint32_t *ns, size_t nh,
        const uint8_t *taken, bool leaves_alone, uint32_t *pr, uint32_t *pn, double *psim)
{
	const struct tree *t = c->t;
	if (nr == 0 || nh == 0 || nr * nh > MAX_PAIRS) {
		return 0; /* nothing to pair (rs or ns may then be NULL), or too many */
	}
	if (leaves_alone && nr == 1 && nh == 1 && t->nodes[rs[0]].first_child == TREE_NONE &&
	        t->nodes[ns[0]].first_child == TREE_NONE && !taken[ns[0]] &&
	        !planned(&c->plan, rs[0]) && like_size(t, rs[0], ns[0])) {
		pr[0] = rs[0];
		pn[0] = ns[0];
		psim[0] = 1.0;
		return 1;
	}
	double sims[MAX_PAIRS];
	for (size_t i = 0; i < nr; i++) {
		for (size_t j = 0; j < nh; j++) {
			bool common = false;
			double s = 0;
			if (!planned(&c->plan, rs[i]) && !taken[ns[j]] &&
			        like_size(t, rs[i], ns[j]) && !graft_crowded(&c->g, rs[i]) &&
			        !graft_crowded(&c->g, ns[j])) {
				s = similarity(c, rs[i], ns[j], &common);
			}
			sims[i * nh + j] = common ? s : 0;
		}
	}
	size_t n = 0;
	for (size_t i = 0; i < nr; i++) {
		size_t best = 0;
		double b = -1, second = 0;
		for (size_t j = 0; j < nh; j++) {
			double s = sims[i * nh + j];
			if (s > b) {
				second = b > second ? b : second;
				b = s;
				best = j;
			} else if (s > second) {
				second = s;
			}
		}
		if (b < MATCH_MIN_SIMILARITY || b - second < MATCH_MIN_MARGIN) {
			continue;
		}
		bool alone = true;
		for (size_t k = 0; k < nr && alone; k++) {
			alone = k == i || sims[k * nh + best] <= b - MATCH_MIN_MARGIN;
		}
		if (alone) {
			pr[n] = rs[i];
			pn[n] = ns[best];
			psim[n++] = b;
		}
	}
	return n;
}

static void
remember_rename(struct ctx *c, uint32_t from, uint32_t to)
{
	c->renamed = true;
	uint32_t *p = &c->pair_to[from];
	*p = *p == TREE_NONE || *p == to ? to : NAME_CONFLICT;
}

static void
renames(struct ctx *c, const uint32_t *rs, size_t nr, const uint32_t *ns, size_t nh, uint8_t *taken)
{
	uint32_t pr[64], pn[64];
	double psim[64];
	if (nr > 64 || nh > 64) {
		return;
	}
	size_t n = pair_up(c, rs, nr, ns, nh, taken, false, pr, pn, psim);
	const struct tree *t = c->t;
	for (size_t k = 0; k < n; k++) {
		uint32_t from = t->nodes[pr[k]].name, to = t->nodes[pn[k]].name;
		plan_add(&c->plan, pr[k], STEP_RENAME, to);
		taken[pn[k]] = 1;
		match_note(c, MATCH_RENAMED, pn[k], from, psim[k]);
		remember_rename(c, from, to);
	}
}

static size_t
children_of(const struct tree *t, uint32_t id)
{
	size_t n = 0;
	for (uint32_t k = t->nodes[id].first_child; k != TREE_NONE; k = t->nodes[k].next_sibling) {
		n++;
	}
	return n;
}

/* Most children of a removed wrapper looked for under renames. */
#define WRAPPER_MAX_RENAMED 64

/*
 * A base-only child w of p whose children are each a child of p in the
 * head or pair up, as renames do, with p's head-only children: the head
 * lost w, and renamed what it called. Each such child needs a rename's
 * evidence by itself. And w must be a wrapper by more than that: one of
 * its children a child of p in the head, or w found inlined elsewhere.
 * Else the base's p;w;k and the head's p;b read as well the other way,
 * w renamed b and k inlined, and which it was would be a guess.
 */
static void
wrappers_removed_renamed(struct ctx *c, uint32_t p, const uint32_t *rs, size_t nr,
        const uint32_t *ns, size_t nh, uint8_t *taken)
{
	const struct tree *t = c->t;
	uint32_t un[WRAPPER_MAX_RENAMED], pr[WRAPPER_MAX_RENAMED], pn[WRAPPER_MAX_RENAMED];
	double psim[WRAPPER_MAX_RENAMED];
	for (size_t i = 0; i < nr && nh; i++) {
		uint32_t w = rs[i];
		if (t->nodes[w].first_child == TREE_NONE || planned(&c->plan, w) ||
		        match_recursive(t, w) || graft_crowded(&c->g, w)) {
			continue;
		}
		size_t nun = 0;
		bool ok = true;
		for (uint32_t k = t->nodes[w].first_child; ok && k != TREE_NONE;
		        k = t->nodes[k].next_sibling) {
			uint32_t x = graft_child(&c->g, p, t->nodes[k].name);
			if (x != TREE_NONE && has(t, &t->nodes[x], SIDE_HEAD)) {
				continue;
			}
			ok = nun < WRAPPER_MAX_RENAMED;
			un[ok ? nun++ : 0] = k;
		}
		bool inlined = c->wrappers && (c->wrappers[t->nodes[w].name] & WRAPPER_INLINED);
		if (!ok || nun == 0 || (!inlined && nun == children_of(t, w)) ||
		        pair_up(c, un, nun, ns, nh, taken, false, pr, pn, psim) != nun) {
			continue;
		}
		plan_add(&c->plan, w, STEP_LIFT, TREE_NONE);
		for (size_t k = 0; k < nun; k++) {
			uint32_t from = t->nodes[pr[k]].name, to = t->nodes[pn[k]].name;
			plan_add(&c->plan, pr[k], STEP_RENAME, to);
			taken[pn[k]] = 1;
			match_note(c, MATCH_RENAMED, pn[k], from, psim[k]);
			match_note(c, MATCH_WRAPPER_REMOVED, pn[k], t->nodes[w].name, psim[k]);
			remember_rename(c, from, to);
		}
	}
}

/*
 * A rename found by its subtree somewhere holds wherever the two names
 * meet under one parent, leaves included.
 */
static void
renames_elsewhere(struct ctx *c, const uint32_t *both, size_t nboth, uint8_t *taken)
{
	const struct tree *t = c->t;
	for (size_t b = 0; b < nboth && c->renamed; b++) {
		uint32_t next;
		for (uint32_t i = t->nodes[both[b]].first_child; i != TREE_NONE; i = next) {
			next = t->nodes[i].next_sibling;
			const struct tree_node *r = &t->nodes[i];
			uint32_t to = c->pair_to[r->name];
			if (to >= NAME_CONFLICT || !base_only(t, r) || planned(&c->plan, i)) {
				continue;
			}
			uint32_t h = graft_child(&c->g, r->parent, to);
			if (h == TREE_NONE || taken[h] || !head_only(t, &t->nodes[h]) ||
			        !like_size(t, i, h)) {
				continue;
			}
			bool common;
			double sim = similarity(c, i, h, &common);
			plan_add(&c->plan, i, STEP_RENAME, to);
			taken[h] = 1;
			match_note(c, MATCH_RENAMED, h, r->name, sim);
			c->m->entries[c->m->count - 1].elsewhere = true;
		}
	}
}

/* A parent's children of one side alone: base-only rs, head-only ns (scratch, reused). */
struct alone {
	uint32_t *rs, *ns;
	size_t nr, nh, rcap, ncap;
};

/* The base-only and the head-only children of p, into a. */
static void
split_children(const struct tree *t, uint32_t p, struct alone *a)
{
	a->nr = a->nh = 0;
	for (uint32_t k = t->nodes[p].first_child; k != TREE_NONE; k = t->nodes[k].next_sibling) {
		if (base_only(t, &t->nodes[k])) {
			a->rs = xgrow(a->rs, &a->rcap, a->nr + 1, sizeof(uint32_t));
			a->rs[a->nr++] = k;
		} else if (head_only(t, &t->nodes[k])) {
			a->ns = xgrow(a->ns, &a->ncap, a->nh + 1, sizeof(uint32_t));
			a->ns[a->nh++] = k;
		}
	}
}

/* Wrappers and renames among p's children of one side alone, planned. */
static void
compare_children(struct ctx *c, uint32_t p, struct alone *a, uint8_t *taken)
{
	split_children(c->t, p, a);
	if (a->nr * a->nh <= MAX_PAIRS) {
		wrappers_added(c, a->rs, a->nr, a->ns, a->nh, taken);
	}
	wrappers_removed(c, p, a->rs, a->nr, taken);
	renames(c, a->rs, a->nr, a->ns, a->nh, taken);
}

static int
step_cmp(const void *a, const void *b)
{
	const struct step *x = a, *y = b;
	return (x->node > y->node) - (x->node < y->node);
}

/*
 * The plan carried out, frame by frame in the order of their numbers, and
 * emptied: a frame moved where the head has it is a candidate there again.
 */
static void
apply(struct ctx *c)
{
	const struct tree *t = c->t;
	if (c->plan.count) {
		qsort(c->plan.steps, c->plan.count, sizeof(*c->plan.steps), step_cmp);
	}
	for (size_t i = 0; i < c->plan.count; i++) {
		const struct step *s = &c->plan.steps[i];
		if (!graft_alive(&c->g, s->node)) {
			continue;
		}
		switch (s->kind) {
		case STEP_LIFT:
			graft_lift(&c->g, s->node);
			break;
		case STEP_WRAP:
			graft_move(&c->g, s->node, s->to, t->nodes[s->node].name);
			break;
		case STEP_RENAME:
			graft_move(&c->g, s->node, t->nodes[s->node].parent, s->to);
			break;
		case STEP_CARRY:
			graft_carry(&c->g, s->node, t->nodes[s->to].parent, t->nodes[s->to].name);
			break;
		}
	}
	for (size_t i = 0; i < c->plan.count; i++) {
		c->plan.planned[c->plan.steps[i].node] = 0;
	}
	c->plan.count = 0;
}

static int
id_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* Frame id, of one side alone under a frame with the other's counts: a move candidate. */
static void
add_top(struct ctx *c, enum side side, uint32_t id)
{
	c->tops[side] =
	        xgrow(c->tops[side], &c->captops[side], c->ntops[side] + 1, sizeof(struct root));
	c->tops[side][c->ntops[side]++] = (struct root){c->t->nodes[id].name, id};
}

/*
 * One pass over the frames, in the order of the array: per parent, 1 when
 * it has a child of the base alone, 2 of the head alone; and the move
 * candidates. Only parents with both are looked at again.
 */
static uint32_t *
one_sided(struct ctx *c, size_t *count)
{
	const struct tree *t = c->t;
	uint8_t *kinds = xcalloc(t->node_count, 1);
	uint32_t *both = NULL;
	size_t cap = 0;
	*count = 0;
	/*
	 * The names pass only merges frames of the base alone into their
	 * siblings, so a frame of one build now was without counts of both
	 * before it (c->sided), when it ran.
	 */
	size_t nf = c->sided ? c->nsided : t->node_count - 1;
	for (size_t f = 0; f < nf; f++) {
		uint32_t i = c->sided ? c->sided[f] : (uint32_t)f + 1;
		const struct tree_node *n = &t->nodes[i];
		bool b = has(t, n, SIDE_BASE), h = has(t, n, SIDE_HEAD);
		if (b == h) {
			continue; /* both, or a frame merged away */
		}
		uint8_t was = kinds[n->parent];
		kinds[n->parent] |= b ? 1 : 2;
		if (was != 3 && kinds[n->parent] == 3 && n->parent != TREE_ROOT &&
		        !graft_crowded(&c->g, n->parent)) {
			both = xgrow(both, &cap, *count + 1, sizeof(uint32_t));
			both[(*count)++] = n->parent;
		}
		if (n->parent != TREE_ROOT &&
		        has(t, &t->nodes[n->parent], b ? SIDE_HEAD : SIDE_BASE)) {
			add_top(c, b ? SIDE_BASE : SIDE_HEAD, i);
		}
	}
	free(kinds);
	/* In the order of their numbers, as a walk of every frame would take them. */
	if (*count) {
		qsort(both, *count, sizeof(uint32_t), id_cmp);
	}
	return both;
}

/*
 * The structure pass again where frames were taken in since the graft's
 * note `from` (wrappers and moves carried out): a base subtree
 * carried beside the head's now sits under the same parents, and the
 * renames and wrappers inside it, which no parent had both sides of
 * before, are found by the same rules. Until nothing more merges.
 */
static void
match_again(struct ctx *c, size_t from)
{
	const struct tree *t = c->t;
	uint8_t *seen = xcalloc(t->node_count, 1), *taken = xcalloc(t->node_count, 1);
	uint32_t *both = NULL;
	size_t cap = 0;
	struct alone a = {0};
	while (from < c->g.took_count) {
		size_t nboth = 0;
		for (size_t i = from; i < c->g.took_count; i++) {
			uint32_t p = c->g.took[i];
			if (p == TREE_ROOT || seen[p] || !graft_alive(&c->g, p) ||
			        graft_crowded(&c->g, p)) {
				continue;
			}
			seen[p] = 1;
			split_children(t, p, &a);
			if (a.nr && a.nh) {
				both = xgrow(both, &cap, nboth + 1, sizeof(uint32_t));
				both[nboth++] = p;
			}
		}
		for (size_t i = from; i < c->g.took_count; i++) {
			seen[c->g.took[i]] = 0; /* merges below may bring it more */
		}
		from = c->g.took_count;
		if (nboth) {
			qsort(both, nboth, sizeof(uint32_t), id_cmp);
		}
		for (size_t b = 0; b < nboth; b++) {
			compare_children(c, both[b], &a, taken);
			wrappers_removed_renamed(c, both[b], a.rs, a.nr, a.ns, a.nh, taken);
		}
		renames_elsewhere(c, both, nboth, taken);
		apply(c);
	}
	free(seen);
	free(taken);
	free(both);
	free(a.rs);
	free(a.ns);
}

/* Wrappers and renames: decided on the tree as it is, then carried out. */
static void
pass_structure(struct ctx *c)
{
	const struct tree *t = c->t;
	uint32_t nn = intern_count(t->names);
	c->plan.planned = xcalloc(t->node_count, 1);
	c->pair_to = xmalloc((size_t)nn * sizeof(uint32_t));
	memset(c->pair_to, 0xff, (size_t)nn * sizeof(uint32_t));
	uint8_t *taken = xcalloc(t->node_count, 1);
	struct alone a = {0};
	size_t nboth;
	uint32_t *both = one_sided(c, &nboth);
	/* The root's children (processes, threads) are left to the root-mismatch warning. */
	for (size_t b = 0; b < nboth; b++) {
		compare_children(c, both[b], &a, taken);
	}
	renames_elsewhere(c, both, nboth, taken);
	/* Once every wrapper the first look found is known. */
	for (size_t b = 0; b < nboth && c->wrappers; b++) {
		split_children(t, both[b], &a);
		wrappers_removed_renamed(c, both[b], a.rs, a.nr, a.ns, a.nh, taken);
	}
	free(both);
	free(a.rs);
	free(a.ns);
	free(taken);
	size_t from = c->g.took_count;
	apply(c);
	match_again(c, from);
}

/*
 * An entry's change and size, and its name's rank, for the reports' order:
 * a move's are the function's over all the frames that moved.
 */
static void
weigh(struct match_entry *e, const struct tree *t, const uint32_t *rank)
{
	const struct tree_node *n = &t->nodes[e->node];
	double b = tree_value(t, n, SIDE_BASE, false), h = tree_value(t, n, SIDE_HEAD, false);
	if (e->kind == MATCH_MOVED_IN || e->kind == MATCH_MOVED_OUT) {
		b = e->moved_base;
		h = e->moved_head;
	}
	e->change = h - b;
	e->size = b > h ? b : h;
	e->rank = rank[n->name];
}

/* The largest change first, then the largest frame; ties by name, kind, frame. */
static int
entry_cmp(const void *a, const void *b)
{
	const struct match_entry *x = a, *y = b;
	double cx = fabs(x->change), cy = fabs(y->change);
	if (cx != cy) {
		return cx > cy ? -1 : 1;
	}
	if (x->size != y->size) {
		return x->size > y->size ? -1 : 1;
	}
	if (x->rank != y->rank) {
		return x->rank < y->rank ? -1 : 1;
	}
	if (x->kind != y->kind) {
		return x->kind < y->kind ? -1 : 1;
	}
	return (x->node > y->node) - (x->node < y->node);
}

/* Sorted; one entry of a kind a frame (merges can note a frame twice). */
static void
order(struct match *m, const struct tree *t)
{
	const uint32_t *rank = intern_ranks(t->names);
	for (size_t i = 0; i < m->count; i++) {
		weigh(&m->entries[i], t, rank);
	}
	qsort(m->entries, m->count, sizeof(*m->entries), entry_cmp);
	size_t k = 0;
	for (size_t i = 0; i < m->count; i++) {
		const struct match_entry *e = &m->entries[i];
		if (k && m->entries[k - 1].node == e->node && m->entries[k - 1].kind == e->kind) {
			continue;
		}
		m->entries[k++] = *e;
	}
	m->count = k;
}

bool
match_threaded(size_t n, size_t min)
{
	const char *env = getenv("DIFFFOLD_MATCH_THREADS");
	if (env && (strcmp(env, "1") == 0 || strcmp(env, "2") == 0)) {
		return env[0] == '2';
	}
	return n >= min;
}

/* Below this many frames a second thread for graft_init costs more than it saves. */
#define GRAFT_THREAD_MIN 65536

struct graft_start {
	struct graft *g;
	struct tree *t;
};

static void *
graft_start_run(void *arg)
{
	struct graft_start *gs = arg;
	graft_init(gs->g, gs->t);
	return NULL;
}

void
match_run(struct tree *t, const struct match_settings *s)
{
	if (!t->differential || t->runs || (!s->names && !s->structure) || t->node_count < 2) {
		return;
	}
	struct ctx c = {.t = t, .m = xcalloc(1, sizeof(struct match))};
	buf_init(&c.m->strings);
	/*
	 * graft_init and the names pass's decision both read every frame and
	 * write nothing of the tree: on two threads, side by side.
	 */
	struct graft_start gs = {&c.g, t};
	pthread_t helper;
	bool threaded = s->names && match_threaded(t->node_count, GRAFT_THREAD_MIN) &&
	                pthread_create(&helper, NULL, graft_start_run, &gs) == 0;
	if (!threaded) {
		graft_start_run(&gs);
	}
	struct name_canon nc = {NULL, NULL, NULL, 0};
	if (s->names) {
		nc = match_names_find(t);
	}
	if (threaded) {
		pthread_join(helper, NULL);
	}
	if (s->names) {
		match_names_apply(&c, nc);
	}
	if (s->structure) {
		pass_structure(&c);
		size_t from = c.g.took_count;
		match_moves(&c);
		match_again(&c, from);
		plan_finish(&c.plan);
		free(c.pair_to);
		free(c.wrappers);
		free(c.known);
		free(c.tops[SIDE_BASE]);
		free(c.tops[SIDE_HEAD]);
	}
	free(c.sided);
	struct match *m = c.m;
	size_t kept = 0;
	for (size_t i = 0; i < m->count; i++) {
		struct match_entry *e = &m->entries[i];
		uint32_t holder = graft_holder(&c.g, e->node);
		/* Gone with no frame of its name to hold it (a caller a move left empty). */
		if (t->nodes[holder].name != t->nodes[e->node].name) {
			continue;
		}
		e->node = holder;
		e->peer = e->peer == TREE_NONE ? TREE_NONE : graft_holder(&c.g, e->peer);
		m->entries[kept++] = *e;
	}
	m->count = kept;
	uint8_t *named = xcalloc(t->node_count, 1);
	for (size_t i = 0; i < m->count; i++) {
		named[m->entries[i].node] = 1;
		if (m->entries[i].peer != TREE_NONE) {
			named[m->entries[i].peer] = 1;
		}
	}
	graft_drop_empty(&c.g, named);
	free(named);
	graft_finish(&c.g);
	if (m->count == 0) {
		match_destroy(m);
		return;
	}
	order(m, t);
	m->entry_of = xcalloc(t->node_count, sizeof(uint32_t));
	/* A frame with two entries shows the first, the larger change. */
	for (size_t i = m->count; i-- > 0;) {
		m->entry_of[m->entries[i].node] = (uint32_t)i + 1;
		m->per_kind[m->entries[i].kind]++;
	}
	match_destroy(t->match);
	t->match = m;
}

void
match_destroy(struct match *m)
{
	if (!m) {
		return;
	}
	free(m->entries);
	free(m->entry_of);
	buf_finish(&m->strings);
	free(m);
}
