/*
 * match_names: the names pass (see match.h): two names whose keys under
 * the volatile-name rules (normalize.h) are equal, one only in the base
 * and one only in the head, are one function; the base's frames take the
 * head's name. It runs first, and moves frames as it goes.
 */
#include <stdlib.h>
#include <string.h>

#include "match_private.h"
#include "normalize.h"
#include "xalloc.h"

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

/* The names of one build only whose keys the rules changed, sorted by key. */
static struct keyed *
keyed_names(const struct tree *t, const uint8_t *used, size_t *n)
{
	uint32_t nn = intern_count(t->names);
	struct keyed *k = NULL;
	size_t cap = 0;
	struct buf keys, key, scratch;
	buf_init(&keys);
	buf_init(&key);
	buf_init(&scratch);
	*n = 0;
	for (uint32_t id = 0; id < nn; id++) {
		if (used[id] != 1 && used[id] != 2) {
			continue; /* in both builds, or in none: nothing to match */
		}
		size_t len;
		const char *s = intern_name(t->names, id, &len);
		uint32_t rules = normalize_name(s, len, &key, &scratch);
		if (!rules) {
			continue;
		}
		k = xgrow(k, &cap, *n + 1, sizeof(*k));
		k[(*n)++] = (struct keyed){id, rules, keys.len, key.len, NULL};
		buf_add(&keys, key.data, key.len);
	}
	for (size_t i = 0; i < *n; i++) {
		k[i].key = keys.data + k[i].at;
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
	buf_finish(&keys);
	buf_finish(&key);
	buf_finish(&scratch);
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
name_rules(struct ctx *c, uint32_t **rules_out)
{
	const struct tree *t = c->t;
	uint32_t nn = intern_count(t->names);
	uint8_t *used = name_sides(t);
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

/*
 * The volatile-name rules: a frame of a base name that matched takes the
 * head's name, merged into its sibling of that name. From the last frame
 * to the first, so a frame's children have their names before it merges.
 */
void
match_names(struct ctx *c)
{
	uint32_t *rules;
	uint32_t *canon = name_rules(c, &rules);
	if (!canon) {
		free(rules);
		return;
	}
	const struct tree *t = c->t;
	uint8_t *counted = xcalloc(intern_count(t->names), 1);
	for (size_t i = t->node_count - 1; i > 0; i--) {
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
