/*
 * tree_build_finish: the end of a build. The nodes array is laid out of
 * the build state, which is freed block by block as it goes, and the
 * finished tree sealed (tree.c).
 */
#include "tree_build_private.h"

#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "xalloc.h"

/*
 * Parents and depths, from the keys, which are then freed: they are four
 * times the size of what is left of them. Depths are worked out here, in an
 * array that stays in cache: a parent's depth read back from the nodes array
 * would be a cache miss a node.
 */
static void
take_parents(struct tree_build *b, uint32_t *parents, uint32_t *depths)
{
	depths[0] = 0;
	for (size_t id = 0; id < b->count; id++) {
		parents[id] = b->keys[id].parent;
		if (id) {
			depths[id] = depths[parents[id]] + 1;
		}
	}
	free(b->keys);
	b->keys = NULL;
}

/* Nodes laid out between two releases: 1.1 MiB of nodes (xprefault's minimum). */
#define LAY_OUT_BLOCK ((size_t)1 << 14)

static void
lay_out_block(struct tree_build *b, struct tree *t, const uint32_t *parents, const uint32_t *depths,
        size_t lo, size_t hi)
{
	xprefault(&t->nodes[lo], (hi - lo) * sizeof(struct tree_node));
	for (size_t id = lo; id < hi; id++) {
		struct tree_node *n = &t->nodes[id];
		memset(n, 0, sizeof(*n));
		n->name = b->name_ids[id];
		n->parent = parents[id];
		n->first_child = TREE_NONE;
		n->next_sibling = TREE_NONE;
		n->depth = depths[id];
		if (n->depth > t->max_depth) {
			t->max_depth = n->depth;
		}
		for (int side = 0; side < 2; side++) {
			if (!b->self_units[side]) {
				continue;
			}
			n->self_units[side] = n->total_units[side] = b->self_units[side][id];
			uint32_t nanos = b->self_nanos[side] ? b->self_nanos[side][id] : 0;
			if (nanos && !t->nanos) {
				/* Zero pages until written: whole counts cost nothing here. */
				t->nanos = xcalloc(b->count, sizeof(struct tree_nanos));
			}
			if (t->nanos) {
				t->nanos[id].self[side] = t->nanos[id].total[side] = nanos;
			}
		}
	}
}

void
tree_build_drop_slots(struct tree_build *b)
{
	free(b->slots);
	b->slots = NULL;
}

void
tree_build_lay_out(struct tree_build *b, struct tree *t)
{
	size_t count = b->count;
	uint32_t *parents = xmalloc(count * sizeof(uint32_t));
	uint32_t *depths = xmalloc(count * sizeof(uint32_t));
	xprefault(parents, count * sizeof(uint32_t));
	xprefault(depths, count * sizeof(uint32_t));
	take_parents(b, parents, depths);
	t->node_count = count;
	t->nodes = xmalloc(count * sizeof(struct tree_node));
	/* The per-node arrays read in order, their element sizes, what each gave back. */
	void *src[7] = {b->name_ids, b->self_units[SIDE_BASE], b->self_units[SIDE_HEAD],
	        b->self_nanos[SIDE_BASE], b->self_nanos[SIDE_HEAD], parents, depths};
	const size_t elem[7] = {sizeof(uint32_t), sizeof(uint64_t), sizeof(uint64_t),
	        sizeof(uint32_t), sizeof(uint32_t), sizeof(uint32_t), sizeof(uint32_t)};
	size_t released[7] = {0};
	for (size_t lo = 0; lo < count; lo += LAY_OUT_BLOCK) {
		size_t hi = count - lo > LAY_OUT_BLOCK ? lo + LAY_OUT_BLOCK : count;
		lay_out_block(b, t, parents, depths, lo, hi);
		if (hi < count) { /* the last block's pages go with the frees below */
			for (int i = 0; i < 7; i++) {
				tree_build_release_prefix(src[i], &released[i], hi * elem[i]);
			}
		}
	}
	free(depths);
	free(parents);
	tree_build_destroy(b);
#ifdef __GLIBC__
	/*
	 * The build arrays under the mmap threshold (see main) leave their
	 * pages in the heap when freed, resident beside what the outputs
	 * allocate next: at 10 MB that made the outputs the peak.
	 */
	malloc_trim(0);
#endif
}

void
tree_finish(struct tree *t, bool differential)
{
	/*
	 * Nothing is looked up any more: the path and name slots go, and the
	 * names are sorted in their room, before the nodes array takes its own
	 * (the sort's keys beside the finished nodes were the peak of big
	 * trees). The sort uses both cores.
	 */
	tree_build_drop_slots(t->build);
	intern_trim(t->names);
	const uint32_t *rank = intern_ranks(t->names);
	tree_build_lay_out(t->build, t);
	t->build = NULL;
	tree_seal(t, differential, rank);
}
