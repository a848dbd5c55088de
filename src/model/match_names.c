/*
 * match_names: the names pass (see match.h): two names whose keys under
 * the volatile-name rules (normalize.h) are equal, one only in the base
 * and one only in the head, are one function; the base's frames take the
 * head's name. It runs first, and moves frames as it goes.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "match_private.h"
#include "normalize.h"
#include "xalloc.h"

/*
 * Per name: 1 when a frame of that name has base counts, 2 head counts.
 * The same walk keeps, into nc, the frames without counts of both builds
 * (in id order): the only ones the names pass renames, and a superset of
 * those the structure pass looks at, which spares both a walk of every
 * frame.
 */
static uint8_t *
name_sides(const struct tree *t, struct name_canon *nc)
{
	uint8_t *used = xcalloc(intern_count(t->names), 1);
	/* Room for every frame, not grown a frame at a time: untouched pages cost nothing. */
	nc->sided = xmalloc(t->node_count * sizeof(uint32_t));
	nc->nsided = 0;
	for (size_t i = 1; i < t->node_count; i++) {
		const struct tree_node *n = &t->nodes[i];
		unsigned b = has(t, n, SIDE_BASE), h = has(t, n, SIDE_HEAD);
		used[n->name] |= (uint8_t)(b | h << 1);
		if (!(b & h)) {
			nc->sided[nc->nsided++] = (uint32_t)i;
		}
	}
	return used;
}

/* A name whose key a rule changed: where its key is in the keys buffer. */
struct keyed {
	uint32_t id, rules;
	size_t at, len;
	const char *key; /* set once every key is in */
};

static int
keyed_cmp(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = memcmp(x->key, y->key, x->len < y->len ? x->len : y->len);
	if (c || x->len == y->len) {
		return c ? c : (x->id > y->id) - (x->id < y->id);
	}
	return x->len < y->len ? -1 : 1;
}

/*
 * A share of the names, [from, to), keyed on one thread: the names of one
 * build only whose keys a rule changed, their keys one after another in
 * keys.
 */
struct key_share {
	const struct tree *t;
	const uint8_t *used;
	uint32_t from, to;
	struct keyed *k;
	size_t n, cap;
	struct buf keys;
};

static void *
key_share_run(void *arg)
{
	struct key_share *sh = arg;
	struct buf key, scratch;
	buf_init(&key);
	buf_init(&scratch);
	for (uint32_t id = sh->from; id < sh->to; id++) {
		if (sh->used[id] != 1 && sh->used[id] != 2) {
			continue; /* in both builds, or in none: nothing to match */
		}
		size_t len;
		const char *s = intern_name(sh->t->names, id, &len);
		uint32_t rules = normalize_name(s, len, &key, &scratch);
		if (!rules) {
			continue;
		}
		sh->k = xgrow(sh->k, &sh->cap, sh->n + 1, sizeof(*sh->k));
		sh->k[sh->n++] = (struct keyed){id, rules, sh->keys.len, key.len, NULL};
		buf_add(&sh->keys, key.data, key.len);
	}
	buf_finish(&key);
	buf_finish(&scratch);
	return NULL;
}

/*
 * Below this many names of one build only, a second thread costs more
 * than it saves (a name takes about 0.4 us to key at 100 MB).
 */
#define KEY_THREAD_MIN 4096

/* Whether to key on two threads: by how many names of one build only there are. */
static bool
key_threaded(const uint8_t *used, uint32_t nn)
{
	uint32_t one_sided = 0;
	for (uint32_t id = 0; id < nn; id++) {
		one_sided += used[id] == 1 || used[id] == 2;
	}
	return match_threaded(one_sided, KEY_THREAD_MIN);
}

/*
 * The names of one build only whose keys the rules changed, sorted by key.
 * A key is the name's alone, so the names are keyed in two shares on two
 * threads when there are many; the sort (by key, then id) puts them in one
 * order whichever share keyed which.
 */
static struct keyed *
keyed_names(const struct tree *t, const uint8_t *used, size_t *n)
{
	uint32_t nn = intern_count(t->names);
	struct key_share low = {.t = t, .used = used, .from = 0, .to = nn / 2};
	struct key_share high = {.t = t, .used = used, .from = nn / 2, .to = nn};
	buf_init(&low.keys);
	buf_init(&high.keys);
	pthread_t helper;
	bool threaded =
	        key_threaded(used, nn) && pthread_create(&helper, NULL, key_share_run, &low) == 0;
	if (!threaded) {
		key_share_run(&low);
	}
	key_share_run(&high);
	if (threaded) {
		pthread_join(helper, NULL);
	}
	/* One array: the high share's after the low's, its keys too. */
	*n = low.n + high.n;
	struct keyed *k = low.k;
	size_t cap = low.cap;
	if (high.n) {
		k = xgrow(k, &cap, *n, sizeof(*k));
		for (size_t i = 0; i < high.n; i++) {
			high.k[i].at += low.keys.len;
			k[low.n + i] = high.k[i];
		}
		buf_add(&low.keys, high.keys.data, high.keys.len);
	}
	free(high.k);
	buf_finish(&high.keys);
	for (size_t i = 0; i < *n; i++) {
		k[i].key = low.keys.data + k[i].at;
	}
	if (*n) { /* qsort wants an array, even of none */
		qsort(k, *n, sizeof(*k), keyed_cmp);
	}
	/* The keys are needed no more: the caller only groups them, below. */
	for (size_t i = 0; i + 1 < *n; i++) {
		k[i].at = k[i].len == k[i + 1].len && !memcmp(k[i].key, k[i + 1].key, k[i].len);
	}
	if (*n) {
		k[*n - 1].at = 0;
	}
	buf_finish(&low.keys);
	return k;
}

/*
 * canon[name] for the names rule: a group of exactly two names of one key,
 * one only in the base and one only in the head, is one name (the
 * head's). A group with more (two Rust monomorphisations, closures
 * renumbered around a common one) is left alone: which goes with which is
 * a guess. *rules_out: per name, the rules that fired.
 */
static uint32_t *
name_rules(const struct tree *t, uint32_t **rules_out, struct name_canon *nc)
{
	uint32_t nn = intern_count(t->names);
	uint8_t *used = name_sides(t, nc);
	size_t n;
	struct keyed *k = keyed_names(t, used, &n);
	uint32_t *canon = NULL, *rules = NULL;
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && k[j - 1].at) { /* at: same key as the next */
			j++;
		}
		uint32_t a = k[i].id, b = j - i == 2 ? k[i + 1].id : a;
		if (j - i == 2 && used[a] != used[b]) {
			if (!canon) {
				canon = xmalloc((size_t)nn * sizeof(uint32_t));
				rules = xcalloc(nn, sizeof(uint32_t));
				for (uint32_t x = 0; x < nn; x++) {
					canon[x] = x;
				}
			}
			canon[used[a] == 1 ? a : b] = used[a] == 1 ? b : a;
			rules[a] = rules[b] = k[i].rules | k[i + 1].rules;
		}
		i = j;
	}
	free(k);
	free(used);
	*rules_out = rules;
	return canon;
}

struct name_canon
match_names_find(const struct tree *t)
{
	struct name_canon nc;
	nc.canon = name_rules(t, &nc.rules, &nc);
	return nc;
}

/*
 * A frame of a base name that matched takes the head's name, merged into
 * its sibling of that name. From the last frame to the first, so a frame's
 * children have their names before it merges.
 */
void
match_names_apply(struct ctx *c, struct name_canon nc)
{
	uint32_t *canon = nc.canon, *rules = nc.rules;
	c->sided = nc.sided;
	c->nsided = nc.nsided;
	if (!canon) {
		free(rules);
		return;
	}
	const struct tree *t = c->t;
	uint8_t *counted = xcalloc(intern_count(t->names), 1);
	/* A renamed name is of the base alone: its frames are among nc.sided. */
	for (size_t k = nc.nsided; k-- > 0;) {
		uint32_t i = nc.sided[k];
		uint32_t name = t->nodes[i].name;
		if (canon[name] == name || !graft_alive(&c->g, (uint32_t)i) ||
		        graft_crowded(&c->g, t->nodes[i].parent)) {
			continue;
		}
		if (!counted[name]) {
			counted[name] = 1;
			c->m->names_matched++;
		}
		uint32_t at = graft_move(&c->g, (uint32_t)i, t->nodes[i].parent, canon[name]);
		match_note(c, MATCH_NAME, at, name, 1.0);
		c->m->entries[c->m->count - 1].rules = rules[name];
	}
	free(counted);
	free(canon);
	free(rules);
}
