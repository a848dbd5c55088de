/*
 * match: the passes over a finished tree (see match.h). Each pass reads the
 * tree and fills a plan, what the base's frames become; a rebuild then adds
 * every frame's self counts again, into a new tree, at the planned paths.
 * The head's paths never change, so a frame of the new tree is found from
 * its parent's by its name: the cursors of tree.h, with each name hashed
 * once. Entries are noted against the old tree's frames and moved to the
 * new tree's with the rebuild's map.
 */
#include "match.h"

#include <stdlib.h>
#include <string.h>

#include "normalize.h"
#include "xalloc.h"

/* What the base's frames become: per frame of the old tree. */
struct plan {
	uint32_t *rename; /* the name the base's frame takes, or TREE_NONE */
	uint32_t *wrap; /* a frame inserted above it, or TREE_NONE */
	uint8_t *skip; /* dropped: its counts and children go to its parent */
	bool any;
};

/* (parent, name) -> child, for the whole tree. */
struct children {
	uint64_t *keys; /* parent << 32 | name, UINT64_MAX empty */
	uint32_t *ids;
	size_t mask;
};

struct ctx {
	struct tree *t;
	struct match *m;
	size_t cap; /* of m->entries */
	struct children ch;
	struct plan plan;
	uint32_t *pair_to; /* per name: the head name of a rename found by subtree, or TREE_NONE */
};

static bool
has(const struct tree *t, const struct tree_node *n, enum side side)
{
	return !count_is_zero(tree_node_total(t, n, side));
}

/* Only in the base. */
static bool
base_only(const struct tree *t, const struct tree_node *n)
{
	return !has(t, n, SIDE_HEAD) && has(t, n, SIDE_BASE);
}

static bool
head_only(const struct tree *t, const struct tree_node *n)
{
	return !has(t, n, SIDE_BASE) && has(t, n, SIDE_HEAD);
}

static uint64_t
mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

static void
children_init(struct children *c, const struct tree *t)
{
	size_t cap = 16;
	while (cap < t->node_count * 2) {
		cap <<= 1;
	}
	c->mask = cap - 1;
	c->keys = xmalloc(cap * sizeof(*c->keys));
	memset(c->keys, 0xff, cap * sizeof(*c->keys));
	c->ids = xmalloc(cap * sizeof(*c->ids));
	for (size_t i = 1; i < t->node_count; i++) {
		const struct tree_node *n = &t->nodes[i];
		uint64_t k = (uint64_t)n->parent << 32 | n->name;
		size_t s = mix(k) & c->mask;
		while (c->keys[s] != UINT64_MAX) {
			s = (s + 1) & c->mask;
		}
		c->keys[s] = k;
		c->ids[s] = (uint32_t)i;
	}
}

static void
children_finish(struct children *c)
{
	free(c->keys);
	free(c->ids);
	memset(c, 0, sizeof(*c));
}

static uint32_t
child_named(const struct children *c, uint32_t parent, uint32_t name)
{
	uint64_t k = (uint64_t)parent << 32 | name;
	for (size_t s = mix(k) & c->mask; c->keys[s] != UINT64_MAX; s = (s + 1) & c->mask) {
		if (c->keys[s] == k) {
			return c->ids[s];
		}
	}
	return TREE_NONE;
}

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
	const struct tree_node *bn = &t->nodes[b], *hn = &t->nodes[h];
	double bt = tree_value(t, bn, SIDE_BASE, false), ht = tree_value(t, hn, SIDE_HEAD, false);
	*common = false;
	if (bt <= 0 || ht <= 0) {
		return 0;
	}
	double bs = tree_value(t, bn, SIDE_BASE, true) / bt;
	double hs = tree_value(t, hn, SIDE_HEAD, true) / ht;
	double sim = bs < hs ? bs : hs;
	for (uint32_t k = bn->first_child; k != TREE_NONE; k = t->nodes[k].next_sibling) {
		uint32_t o = child_named(&c->ch, h, t->nodes[k].name);
		if (o == TREE_NONE) {
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

static void
note(struct ctx *c, enum match_kind kind, uint32_t node, uint32_t other_name, double sim)
{
	struct match *m = c->m;
	m->entries = xgrow(m->entries, &c->cap, m->count + 1, sizeof(*m->entries));
	struct match_entry *e = &m->entries[m->count++];
	memset(e, 0, sizeof(*e));
	e->kind = (uint8_t)kind;
	e->node = node;
	e->peer = TREE_NONE;
	e->similarity = (float)sim;
	if (other_name != TREE_NONE) {
		e->other_at = add_string(m, c->t, other_name, &e->other_len);
	}
}

static void
plan_init(struct plan *p, size_t n)
{
	p->rename = xmalloc(n * sizeof(uint32_t));
	p->wrap = xmalloc(n * sizeof(uint32_t));
	memset(p->rename, 0xff, n * sizeof(uint32_t));
	memset(p->wrap, 0xff, n * sizeof(uint32_t));
	p->skip = xcalloc(n, 1);
	p->any = false;
}

static void
plan_finish(struct plan *p)
{
	free(p->rename);
	free(p->wrap);
	free(p->skip);
	memset(p, 0, sizeof(*p));
}

/*
 * The new tree: every frame of t again, its name through canon (NULL:
 * as is) and the base's side through plan (NULL: none). map[old] is the
 * frame that took the old frame's head counts, else its base counts.
 * NULL when the id space runs out (t is then kept).
 */
static struct tree *
rebuild(const struct tree *t, const uint32_t *canon, const struct plan *plan, uint32_t *map)
{
	struct tree_options o = t->opt;
	o.reverse = false;
	o.strip_hex = false;
	o.transform = NULL;
	o.max_nodes = 0;
	struct tree *nt = tree_create(&o);
	uint32_t nn = intern_count(t->names);
	struct tree_name *names = xcalloc(nn, sizeof(*names));
	struct tree_cursor *cur[2];
	cur[0] = xmalloc(t->node_count * sizeof(struct tree_cursor));
	cur[1] = xmalloc(t->node_count * sizeof(struct tree_cursor));
	cur[0][TREE_ROOT] = cur[1][TREE_ROOT] = tree_cursor_root();
	map[TREE_ROOT] = TREE_ROOT;
	const char *reason = NULL;
	bool ok = true;
	for (uint32_t id = tree_next_preorder(t, TREE_ROOT, TREE_ROOT); ok && id != TREE_NONE;
	        id = tree_next_preorder(t, id, TREE_ROOT)) {
		const struct tree_node *n = &t->nodes[id];
		map[id] = TREE_NONE;
		for (int side = SIDE_HEAD; ok && side >= SIDE_BASE; side--) {
			if (!has(t, n, side)) {
				continue;
			}
			struct tree_cursor at = cur[side][n->parent];
			uint32_t steps[2] = {canon ? canon[n->name] : n->name, TREE_NONE};
			if (side == SIDE_BASE && plan && plan->skip[id]) {
				steps[0] = TREE_NONE;
			} else if (side == SIDE_BASE && plan) {
				if (plan->rename[id] != TREE_NONE) {
					steps[0] = plan->rename[id];
				}
				if (plan->wrap[id] != TREE_NONE) {
					steps[1] = steps[0];
					steps[0] = plan->wrap[id];
				}
			}
			for (int s = 0; ok && s < 2 && steps[s] != TREE_NONE; s++) {
				struct tree_name *nm = &names[steps[s]];
				if (!nm->bytes) {
					nm->bytes = intern_name(t->names, steps[s], &nm->len);
					nm->hash = intern_hash(nm->bytes, nm->len);
					nm->id = TREE_NONE;
				}
				ok = tree_cursor_named(nt, &at, nm, &at, &reason);
			}
			struct count self = tree_node_self(t, n, (enum side)side);
			if (ok && !count_is_zero(self)) {
				ok = tree_add_count(nt, (enum side)side, at.node, self, &reason);
			}
			cur[side][id] = at;
			if (map[id] == TREE_NONE) {
				map[id] = at.node;
			}
		}
	}
	free(cur[0]);
	free(cur[1]);
	free(names);
	if (!ok) {
		tree_destroy(nt);
		return NULL;
	}
	tree_finish(nt, t->differential);
	nt->opt = t->opt;
	return nt;
}

/*
 * Rebuilds c->t through canon and the plan and moves the entries noted so
 * far to the new tree's frames. False (c->t kept) when it could not.
 */
static bool
apply(struct ctx *c, const uint32_t *canon, const struct plan *plan)
{
	uint32_t *map = xmalloc(c->t->node_count * sizeof(uint32_t));
	struct tree *nt = rebuild(c->t, canon, plan, map);
	if (nt) {
		for (size_t i = 0; i < c->m->count; i++) {
			struct match_entry *e = &c->m->entries[i];
			e->node = map[e->node];
			e->peer = e->peer == TREE_NONE ? TREE_NONE : map[e->peer];
		}
		tree_destroy(c->t);
		c->t = nt;
	}
	free(map);
	return nt != NULL;
}

/* Per name: 1 when a frame of that name has base counts, 2 head counts. */
static uint8_t *
name_sides(const struct tree *t)
{
	uint8_t *used = xcalloc(intern_count(t->names), 1);
	for (size_t i = 1; i < t->node_count; i++) {
		const struct tree_node *n = &t->nodes[i];
		used[n->name] |= (uint8_t)(has(t, n, SIDE_BASE) | has(t, n, SIDE_HEAD) << 1);
	}
	return used;
}

/* The names with a key, grouped by key: the first member and the next of each. */
struct groups {
	uint64_t *hash; /* per slot: the key's hash, 0 empty */
	uint32_t *first; /* per slot: the first name of the group */
	size_t mask;
	uint32_t *next; /* per name: the next of its group, TREE_NONE at the end */
	uint32_t *size; /* per slot */
	uint32_t *rules; /* per name: the rules that fired */
	struct buf keys; /* the keys, each at key_at[name] */
	uint32_t *key_at, *key_len;
};

static void
group_add(struct groups *g, uint32_t id, const struct buf *key)
{
	uint64_t h = intern_hash(key->data, key->len) | 1;
	size_t s = h & g->mask;
	for (; g->hash[s]; s = (s + 1) & g->mask) {
		uint32_t f = g->first[s];
		if (g->hash[s] == h && g->key_len[f] == key->len &&
		        memcmp(g->keys.data + g->key_at[f], key->data, key->len) == 0) {
			break;
		}
	}
	g->key_at[id] = (uint32_t)g->keys.len;
	g->key_len[id] = (uint32_t)key->len;
	buf_add(&g->keys, key->data, key->len);
	if (!g->hash[s]) {
		g->hash[s] = h;
		g->first[s] = id;
		g->size[s] = 1;
		return;
	}
	g->next[id] = g->first[s];
	g->first[s] = id;
	g->size[s]++;
}

/*
 * canon[name] for the names rule: a group of exactly two names, one only
 * in the base and one only in the head, is one name (the head's). A group
 * with more (two Rust monomorphisations, closures renumbered around a
 * common one) is left alone: which goes with which is a guess.
 */
static uint32_t *
name_rules(struct ctx *c, uint32_t **rules_out)
{
	const struct tree *t = c->t;
	uint32_t nn = intern_count(t->names);
	uint8_t *used = name_sides(t);
	struct groups g = {0};
	size_t cap = 16;
	while (cap < (size_t)nn * 2) {
		cap <<= 1;
	}
	g.mask = cap - 1;
	g.hash = xcalloc(cap, sizeof(uint64_t));
	g.first = xmalloc(cap * sizeof(uint32_t));
	g.size = xmalloc(cap * sizeof(uint32_t));
	g.next = xmalloc((size_t)nn * sizeof(uint32_t));
	g.rules = xcalloc(nn, sizeof(uint32_t));
	g.key_at = xmalloc((size_t)nn * sizeof(uint32_t));
	g.key_len = xmalloc((size_t)nn * sizeof(uint32_t));
	memset(g.next, 0xff, (size_t)nn * sizeof(uint32_t));
	buf_init(&g.keys);
	struct buf key, scratch;
	buf_init(&key);
	buf_init(&scratch);
	for (uint32_t id = 0; id < nn; id++) {
		if (used[id] != 1 && used[id] != 2) {
			continue; /* in both builds, or in none: nothing to match */
		}
		size_t len;
		const char *s = intern_name(t->names, id, &len);
		g.rules[id] = normalize_name(s, len, &key, &scratch);
		if (g.rules[id]) {
			group_add(&g, id, &key);
		}
	}
	uint32_t *canon = NULL;
	for (size_t s = 0; s <= g.mask; s++) {
		if (!g.hash[s] || g.size[s] != 2) {
			continue;
		}
		uint32_t a = g.first[s], b = g.next[a];
		if (used[a] == used[b]) {
			continue;
		}
		uint32_t from = used[a] == 1 ? a : b, to = used[a] == 1 ? b : a;
		if (!canon) {
			canon = xmalloc((size_t)nn * sizeof(uint32_t));
			for (uint32_t i = 0; i < nn; i++) {
				canon[i] = i;
			}
		}
		canon[from] = to;
		c->m->names_matched++;
	}
	buf_finish(&key);
	buf_finish(&scratch);
	buf_finish(&g.keys);
	free(g.hash);
	free(g.first);
	free(g.size);
	free(g.next);
	free(g.key_at);
	free(g.key_len);
	free(used);
	*rules_out = g.rules;
	return canon;
}

/* The volatile-name rules: one rebuild when any two names matched. */
static void
pass_names(struct ctx *c)
{
	uint32_t *rules;
	uint32_t *canon = name_rules(c, &rules);
	if (!canon) {
		free(rules);
		return;
	}
	const struct tree *t = c->t;
	for (size_t i = 1; i < t->node_count; i++) {
		uint32_t name = t->nodes[i].name;
		if (canon[name] != name) {
			note(c, MATCH_NAME, (uint32_t)i, name, 1.0);
			c->m->entries[c->m->count - 1].rules = rules[name] | rules[canon[name]];
		}
	}
	apply(c, canon, NULL);
	free(canon);
	free(rules);
}

/* Far more candidates than this under one parent are not compared pairwise. */
#define MAX_PAIRS 4096

#define NAME_CONFLICT (TREE_NONE - 1)

static bool
planned(const struct plan *p, uint32_t id)
{
	return p->rename[id] != TREE_NONE || p->wrap[id] != TREE_NONE || p->skip[id];
}

/*
 * A frame of its parent's name or of a child's: one more or one less level
 * of recursion is a change of behaviour, not a wrapper.
 */
static bool
recursive(const struct tree *t, uint32_t w)
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
			if (child_named(&c->ch, ns[j], t->nodes[rs[i]].name) != TREE_NONE) {
				found = ns[j];
				count++;
			}
		}
		if (count != 1 || recursive(t, found)) {
			continue;
		}
		c->plan.wrap[rs[i]] = t->nodes[found].name;
		c->plan.any = true;
		if (!taken[found]) {
			note(c, MATCH_WRAPPER_ADDED, found, t->nodes[rs[i]].name, 1.0);
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
	for (size_t i = 0; i < nr; i++) {
		uint32_t w = rs[i];
		bool ok = t->nodes[w].first_child != TREE_NONE && !planned(&c->plan, w) &&
		          !recursive(t, w);
		bool fresh = false;
		for (uint32_t k = t->nodes[w].first_child; ok && k != TREE_NONE;
		        k = t->nodes[k].next_sibling) {
			uint32_t x = child_named(&c->ch, p, t->nodes[k].name);
			ok = x != TREE_NONE && has(t, &t->nodes[x], SIDE_HEAD);
			fresh |= ok && head_only(t, &t->nodes[x]);
		}
		if (!ok || !fresh) {
			continue;
		}
		c->plan.skip[w] = 1;
		c->plan.any = true;
		for (uint32_t k = t->nodes[w].first_child; k != TREE_NONE;
		        k = t->nodes[k].next_sibling) {
			uint32_t x = child_named(&c->ch, p, t->nodes[k].name);
			if (head_only(t, &t->nodes[x]) && !taken[x]) {
				note(c, MATCH_WRAPPER_REMOVED, x, t->nodes[w].name, 1.0);
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
	if (nr * nh > MAX_PAIRS) {
		return 0;
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
			        like_size(t, rs[i], ns[j])) {
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
		c->plan.rename[pr[k]] = to;
		c->plan.any = true;
		taken[pn[k]] = 1;
		note(c, MATCH_RENAMED, pn[k], from, psim[k]);
		remember_rename(c, from, to);
	}
}

/*
 * A rename found by its subtree somewhere holds wherever the two names
 * meet under one parent, leaves included.
 */
static void
renames_elsewhere(struct ctx *c, uint8_t *taken)
{
	const struct tree *t = c->t;
	for (size_t i = 1; i < t->node_count; i++) {
		const struct tree_node *r = &t->nodes[i];
		uint32_t to = c->pair_to[r->name];
		if (to >= NAME_CONFLICT || !base_only(t, r) || planned(&c->plan, (uint32_t)i)) {
			continue;
		}
		uint32_t h = child_named(&c->ch, r->parent, to);
		if (h == TREE_NONE || taken[h] || !head_only(t, &t->nodes[h]) ||
		        !like_size(t, (uint32_t)i, h)) {
			continue;
		}
		bool common;
		double sim = similarity(c, (uint32_t)i, h, &common);
		c->plan.rename[i] = to;
		c->plan.any = true;
		taken[h] = 1;
		note(c, MATCH_RENAMED, h, r->name, sim);
		c->m->entries[c->m->count - 1].elsewhere = true;
	}
}

/* The base-only and the head-only children of p, into *rs and *ns. */
static void
split_children(const struct tree *t, uint32_t p, uint32_t **rs, size_t *nr, size_t *rcap,
        uint32_t **ns, size_t *nh, size_t *ncap)
{
	*nr = *nh = 0;
	for (uint32_t k = t->nodes[p].first_child; k != TREE_NONE; k = t->nodes[k].next_sibling) {
		if (base_only(t, &t->nodes[k])) {
			*rs = xgrow(*rs, rcap, *nr + 1, sizeof(uint32_t));
			(*rs)[(*nr)++] = k;
		} else if (head_only(t, &t->nodes[k])) {
			*ns = xgrow(*ns, ncap, *nh + 1, sizeof(uint32_t));
			(*ns)[(*nh)++] = k;
		}
	}
}

/* Wrappers and renames: one rebuild when any matched. */
static void
pass_structure(struct ctx *c)
{
	const struct tree *t = c->t;
	uint32_t nn = intern_count(t->names);
	children_init(&c->ch, t);
	plan_init(&c->plan, t->node_count);
	c->pair_to = xmalloc((size_t)nn * sizeof(uint32_t));
	memset(c->pair_to, 0xff, (size_t)nn * sizeof(uint32_t));
	uint8_t *taken = xcalloc(t->node_count, 1);
	uint32_t *rs = NULL, *ns = NULL;
	size_t rcap = 0, ncap = 0, nr, nh;
	/* The root's children (processes, threads) are left to the root-mismatch warning. */
	for (uint32_t p = 1; p < t->node_count; p++) {
		split_children(t, p, &rs, &nr, &rcap, &ns, &nh, &ncap);
		if (!nr || !nh) {
			continue;
		}
		if (nr * nh <= MAX_PAIRS) {
			wrappers_added(c, rs, nr, ns, nh, taken);
		}
		wrappers_removed(c, p, rs, nr, taken);
		renames(c, rs, nr, ns, nh, taken);
	}
	renames_elsewhere(c, taken);
	free(rs);
	free(ns);
	free(taken);
	free(c->pair_to);
	c->pair_to = NULL;
	children_finish(&c->ch);
	if (c->plan.any) {
		apply(c, NULL, &c->plan);
	}
	plan_finish(&c->plan);
}

struct root {
	uint32_t name, node;
};

static int
root_cmp(const void *a, const void *b)
{
	const struct root *x = a, *y = b;
	if (x->name != y->name) {
		return x->name < y->name ? -1 : 1;
	}
	return x->node < y->node ? -1 : x->node > y->node;
}

/*
 * The tops of what is only in one build: frames of the side whose parent
 * has the other side's counts too. Frames that carry a match already are
 * not moves.
 */
static struct root *
tops(const struct ctx *c, enum side side, const uint8_t *matched, size_t *n)
{
	const struct tree *t = c->t;
	struct root *r = NULL;
	size_t cap = 0;
	*n = 0;
	for (size_t i = 1; i < t->node_count; i++) {
		const struct tree_node *x = &t->nodes[i];
		bool only = side == SIDE_BASE ? base_only(t, x) : head_only(t, x);
		if (!only || matched[i] || !has(t, &t->nodes[x->parent], (enum side) !side)) {
			continue;
		}
		r = xgrow(r, &cap, *n + 1, sizeof(*r));
		r[(*n)++] = (struct root){x->name, (uint32_t)i};
	}
	qsort(r, *n, sizeof(*r), root_cmp);
	return r;
}

/* Moves: a name removed at the top of one path and new at another's. */
static void
pass_moves(struct ctx *c)
{
	const struct tree *t = c->t;
	uint8_t *matched = xcalloc(t->node_count, 1);
	for (size_t i = 0; i < c->m->count; i++) {
		matched[c->m->entries[i].node] = 1;
	}
	children_init(&c->ch, t);
	plan_init(&c->plan, t->node_count);
	size_t nr, nh;
	struct root *r = tops(c, SIDE_BASE, matched, &nr);
	struct root *h = tops(c, SIDE_HEAD, matched, &nh);
	uint32_t rs[64], ns[64], pr[64], pn[64];
	double psim[64];
	for (size_t i = 0, j = 0; i < nr && j < nh;) {
		if (r[i].name != h[j].name) {
			r[i].name < h[j].name ? i++ : j++;
			continue;
		}
		size_t a = 0, b = 0;
		uint32_t name = r[i].name;
		for (; i < nr && r[i].name == name; i++) {
			a < 64 ? rs[a++] = r[i].node : 0;
		}
		for (; j < nh && h[j].name == name; j++) {
			b < 64 ? ns[b++] = h[j].node : 0;
		}
		size_t n = pair_up(c, rs, a, ns, b, matched, true, pr, pn, psim);
		for (size_t k = 0; k < n; k++) {
			note(c, MATCH_MOVED_IN, pn[k], TREE_NONE, psim[k]);
			c->m->entries[c->m->count - 1].peer = pr[k];
			note(c, MATCH_MOVED_OUT, pr[k], TREE_NONE, psim[k]);
			c->m->entries[c->m->count - 1].peer = pn[k];
		}
	}
	free(r);
	free(h);
	free(matched);
	plan_finish(&c->plan);
	children_finish(&c->ch);
}

static int
entry_cmp(const void *a, const void *b)
{
	const struct match_entry *x = a, *y = b;
	if (x->node != y->node) {
		return x->node < y->node ? -1 : 1;
	}
	return (x->kind > y->kind) - (x->kind < y->kind);
}

void
match_run(struct tree **tp, const struct match_settings *s)
{
	struct tree *t = *tp;
	if (!t->differential || t->runs || (!s->names && !s->structure) || t->node_count < 2) {
		return;
	}
	struct ctx c = {.t = t, .m = xcalloc(1, sizeof(struct match))};
	buf_init(&c.m->strings);
	if (s->names) {
		pass_names(&c);
	}
	if (s->structure) {
		pass_structure(&c);
		pass_moves(&c);
	}
	struct match *m = c.m;
	if (m->count == 0) {
		match_destroy(m);
		*tp = c.t;
		return;
	}
	qsort(m->entries, m->count, sizeof(*m->entries), entry_cmp);
	m->entry_of = xcalloc(c.t->node_count, sizeof(uint32_t));
	for (size_t i = 0; i < m->count; i++) {
		m->entry_of[m->entries[i].node] = (uint32_t)i + 1;
		m->per_kind[m->entries[i].kind]++;
	}
	match_destroy(c.t->match);
	c.t->match = m;
	*tp = c.t;
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

const char *
match_kind_name(enum match_kind k)
{
	static const char *const names[MATCH_KIND_COUNT] = {"none", "name", "renamed",
	        "wrapper_added", "wrapper_removed", "moved_in", "moved_out"};
	return k < MATCH_KIND_COUNT ? names[k] : "none";
}
