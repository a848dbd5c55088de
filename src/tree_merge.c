/*
 * tree_merge: moves one unfinished tree into another, so base and head can
 * be read on two threads into two trees and merged before tree_finish.
 */
#include "tree.h"

#include <stdlib.h>

#include "prefetch.h"
#include "tree_build.h"
#include "xalloc.h"

/*
 * How far ahead the merge loads: src node id + MERGE_AHEAD has its slot
 * loading while id + MERGE_AHEAD / 2 has its candidate's key and name
 * loading and id is confirmed. A few dozen loads in flight is what a core
 * keeps; more are dropped.
 */
#define MERGE_AHEAD 16

/*
 * Maps every src node to a dst node, creating what is missing, in src's
 * order (parents first). The loads of later nodes overlap the work on
 * earlier ones; a candidate found ahead is only a hint, confirmed (or
 * looked up again) when its node's turn comes, so nodes created meanwhile
 * cannot mislead it.
 */
static void
merge_nodes(struct tree_build *d, const struct tree_build *s, const uint64_t *k, uint32_t *map,
        const uint32_t *name_map)
{
	size_t n = s->count, half = MERGE_AHEAD / 2;
	uint32_t cand[MERGE_AHEAD] = {0};
	for (size_t j = 1; j < n + MERGE_AHEAD; j++) {
		if (j < n) {
			prefetch(&d->slots[tree_build_home(d, k[j])]);
			prefetch(&name_map[s->name_ids[j]]);
		}
		size_t h = j - half;
		if (h >= 1 && h < n) {
			uint32_t c = tree_build_candidate(d, k[h]);
			cand[h % MERGE_AHEAD] = c;
			if (c) {
				prefetch(&d->keys[c]);
				prefetch(&d->name_ids[c]);
			}
		}
		size_t id = j - MERGE_AHEAD;
		if (id < 1 || id >= n) {
			continue;
		}
		const struct node_key *key = &s->keys[id];
		uint32_t parent = map[key->parent], c = cand[id % MERGE_AHEAD];
		uint32_t named = name_map[s->name_ids[id]];
		if (c && d->keys[c].parent == parent && d->name_ids[c] == named) {
			map[id] = c;
		} else {
			/* dst's copy of the name: src's table is gone (tree_merge). */
			size_t len;
			const char *bytes = intern_name(d->names, named, &len);
			struct name nm = {bytes, len, 0, named};
			map[id] = tree_build_child(d, k[id], parent, &nm);
		}
	}
}

/*
 * A node's slot tag is all dst's table needs of its path hash (every tree
 * of the process hashes with the same seed): the tags of src's nodes, by id.
 */
static uint64_t *
path_tags(const struct tree_build *s)
{
	uint64_t *k = xmalloc(s->count * sizeof(uint64_t));
	xprefault(k, s->count * sizeof(uint64_t));
	k[TREE_ROOT] = ROOT_PATH_HASH;
	for (size_t j = 0; j <= s->mask; j++) {
		if (s->slots[j]) {
			k[(uint32_t)s->slots[j]] = (s->slots[j] >> 32) << 32;
		}
	}
	return k;
}

/*
 * Adds src's self counts into dst's mapped nodes; bounded by the checked
 * totals. Each of src's arrays goes once added, before dst's next grows.
 */
static void
merge_self(struct tree_build *d, struct tree_build *s, const uint32_t *map, const struct count *sum)
{
	size_t n = s->count;
	for (int side = 0; side < 2; side++) {
		if (!s->self[side]) {
			continue;
		}
		if (!d->self[side]) {
			d->self[side] = tree_build_new_self(d);
		}
		for (size_t id = 0; id < n; id++) {
			if (id + MERGE_AHEAD < n) {
				prefetch(&d->self[side][map[id + MERGE_AHEAD]]);
			}
			struct count *c = &d->self[side][map[id]];
			count_add(*c, s->self[side][id], c);
		}
		free(s->self[side]);
		s->self[side] = NULL;
		d->sum[side] = sum[side];
	}
}

bool
tree_merge(struct tree *dst, struct tree *src, const char **reason)
{
	struct tree_build *d = dst->build, *s = src->build;
	struct count sum[2];
	for (int side = 0; side < 2; side++) {
		if (!count_add(d->sum[side], s->sum[side], &sum[side])) {
			*reason = tree_build_overflow_reason((enum side)side);
			return false;
		}
	}
	/* Names first, so nodes are compared and created by name id. */
	uint32_t *name_map = intern_merge(dst->names, src->names);
	/* src can only be destroyed after this: what the merge has read goes at
	 * once, so that dst grows into its room (the peak memory of a threaded
	 * read is two trees at once). Its names are all in dst's table now. */
	intern_destroy(src->names);
	src->names = NULL;
	s->names = NULL;
	uint32_t *map = xmalloc(s->count * sizeof(uint32_t));
	xprefault(map, s->count * sizeof(uint32_t));
	map[TREE_ROOT] = TREE_ROOT;
	uint64_t *k = path_tags(s);
	free(s->slots);
	s->slots = NULL;
	/* Parents first, in src's order of creation: dst gets the ids reading
	 * src's input after its own would give. */
	merge_nodes(d, s, k, map, name_map);
	dst->node_count = d->count;
	free(name_map);
	free(k);
	free(s->keys);
	s->keys = NULL;
	free(s->name_ids);
	s->name_ids = NULL;
	if (d->full) {
		free(map);
		*reason = tree_build_full_reason(d);
		return false;
	}
	merge_self(d, s, map, sum);
	free(map);
	return true;
}
