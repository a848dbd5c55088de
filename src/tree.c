/*
 * tree: the finished model (see tree.h): its lifetime, tree_finish, which
 * freezes what tree_build.c built, and the queries the
 * backends read it with.
 */
#include "tree.h"

#include <pthread.h>
#include <stdlib.h>

#include "runs.h"
#include "tree_build.h"
#include "xalloc.h"

struct tree *
tree_create(const struct tree_options *opt)
{
	struct tree *t = xcalloc(1, sizeof(*t));
	t->opt = *opt;
	t->names = intern_create();
	t->build = tree_build_create(opt, t->names);
	t->node_count = 1;
	t->base_scale = 1.0;
	return t;
}

void
tree_destroy(struct tree *t)
{
	if (!t) {
		return;
	}
	/* The build state borrows the name table: it goes first. */
	tree_build_destroy(t->build);
	runs_destroy(t->runs);
	intern_destroy(t->names);
	free(t->nodes);
	free(t);
}

/*
 * Totals from self counts. A parent is created before its children, so its
 * id is smaller: one pass from the last id down adds every subtree into its
 * parent before the parent itself is added upwards.
 */
static void
sum_totals(struct tree *t)
{
	for (size_t i = t->node_count; i-- > 1;) {
		struct tree_node *n = &t->nodes[i];
		struct tree_node *parent = &t->nodes[n->parent];
		/* Bounded by the root's total, checked line by line. */
		count_add(parent->total[SIDE_BASE], n->total[SIDE_BASE], &parent->total[SIDE_BASE]);
		count_add(parent->total[SIDE_HEAD], n->total[SIDE_HEAD], &parent->total[SIDE_HEAD]);
	}
}

static int
compare_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
	return (a > b) - (a < b);
}

/* Most nodes have a handful of children: insertion sort beats qsort there. */
static void
sort_keys(uint64_t *v, size_t n)
{
	if (n > 16) {
		qsort(v, n, sizeof(*v), compare_u64);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		uint64_t x = v[i];
		size_t j = i;
		for (; j > 0 && v[j - 1] > x; j--) {
			v[j] = v[j - 1];
		}
		v[j] = x;
	}
}

/*
 * Links every node's children in byte order of their names: a counting sort
 * by parent, then each family sorted by name rank (rank << 32 | id).
 */
static void
link_children(struct tree *t, const uint32_t *rank)
{
	size_t n = t->node_count;
	uint32_t *end = xcalloc_written(n, sizeof(uint32_t)); /* family p ends at end[p] */
	for (size_t id = 1; id < n; id++) {
		end[t->nodes[id].parent]++;
	}
	for (size_t p = 1; p < n; p++) {
		end[p] += end[p - 1];
	}
	uint64_t *keys = xmalloc(n * sizeof(uint64_t));
	xprefault(keys, n * sizeof(uint64_t));
	for (size_t id = n; id-- > 1;) {
		const struct tree_node *node = &t->nodes[id];
		keys[--end[node->parent]] = (uint64_t)rank[node->name] << 32 | id;
	}
	/* Now end[p] is where family p starts; it ends where family p + 1 starts. */
	for (size_t p = 0; p < n; p++) {
		size_t lo = end[p], hi = p + 1 < n ? end[p + 1] : n - 1;
		sort_keys(keys + lo, hi - lo);
		uint32_t next = TREE_NONE;
		for (size_t i = hi; i-- > lo;) {
			uint32_t id = (uint32_t)keys[i];
			t->nodes[id].next_sibling = next;
			next = id;
		}
		t->nodes[p].first_child = next;
	}
	free(keys);
	free(end);
}

enum node_status
tree_classify_change(const struct tree *t, const struct tree_node *n, double delta)
{
	/* A stack given with zero counts on both sides is not new, just empty. */
	if (!t->differential ||
	        (count_is_zero(n->total[SIDE_BASE]) && count_is_zero(n->total[SIDE_HEAD]))) {
		return STATUS_SAME;
	}
	if (count_is_zero(n->total[SIDE_BASE])) {
		return STATUS_NEW;
	}
	if (count_is_zero(n->total[SIDE_HEAD])) {
		return STATUS_REMOVED;
	}
	double base_total = tree_total(t, SIDE_BASE);
	double head_total = tree_total(t, SIDE_HEAD);
	double floor = t->opt.min_delta * (base_total > head_total ? base_total : head_total);
	if (delta > floor) {
		return STATUS_SLOWER;
	}
	if (delta < -floor) {
		return STATUS_FASTER;
	}
	return STATUS_SAME;
}

enum node_status
tree_classify(const struct tree *t, const struct tree_node *n)
{
	return tree_classify_change(
	        t, n, tree_value(t, n, SIDE_HEAD, true) - tree_value(t, n, SIDE_BASE, true));
}

static void *
rank_names(void *names)
{
	return (void *)intern_ranks(names);
}

/* Below this many nodes a second thread costs more than it saves. */
#define RANK_THREAD_MIN_NODES 65536

void
tree_finish(struct tree *t, bool differential)
{
	/* The sorts below need memory of their own: the build state goes. */
	tree_build_lay_out(t->build, t);
	t->build = NULL;
	/*
	 * Sorting the names reads only the name table, summing and classifying
	 * only the nodes: for a big tree they run at once, on two cores. (Not
	 * earlier: beside the build state the sort would raise the peak memory.)
	 */
	pthread_t ranker;
	bool threaded = t->node_count >= RANK_THREAD_MIN_NODES &&
	                pthread_create(&ranker, NULL, rank_names, t->names) == 0;
	sum_totals(t);
	t->differential = differential;
	const struct tree_node *root = &t->nodes[TREE_ROOT];
	if (t->opt.normalize && differential && !count_is_zero(root->total[SIDE_BASE])) {
		t->normalized = true;
		t->base_scale = count_to_double(root->total[SIDE_HEAD]) /
		                count_to_double(root->total[SIDE_BASE]);
	} else if (t->opt.run_scale > 0 && t->opt.run_scale != 1 && differential) {
		t->normalized = true;
		t->run_scaled = true;
		t->base_scale = t->opt.run_scale;
	}
	for (size_t i = 0; i < t->node_count; i++) {
		t->nodes[i].status = (uint8_t)tree_classify(t, &t->nodes[i]);
	}
	const uint32_t *rank;
	if (threaded) {
		void *ranks;
		pthread_join(ranker, &ranks);
		rank = ranks;
	} else {
		rank = intern_ranks(t->names);
	}
	link_children(t, rank);
}

const char *
tree_node_name(const struct tree *t, const struct tree_node *n, size_t *len)
{
	return intern_name(t->names, n->name, len);
}

double
tree_value(const struct tree *t, const struct tree_node *n, enum side side, bool self)
{
	double v = count_to_double(self ? n->self[side] : n->total[side]);
	return side == SIDE_BASE ? v * t->base_scale : v;
}

double
tree_total(const struct tree *t, enum side side)
{
	return tree_value(t, &t->nodes[TREE_ROOT], side, false);
}

uint32_t
tree_next_preorder(const struct tree *t, uint32_t id, uint32_t top)
{
	const struct tree_node *n = &t->nodes[id];
	if (n->first_child != TREE_NONE) {
		return n->first_child;
	}
	while (id != top) {
		n = &t->nodes[id];
		if (n->next_sibling != TREE_NONE) {
			return n->next_sibling;
		}
		id = n->parent;
	}
	return TREE_NONE;
}

const char *
tree_status_name(enum node_status s)
{
	switch (s) {
	case STATUS_SLOWER:
		return "slower";
	case STATUS_FASTER:
		return "faster";
	case STATUS_NEW:
		return "new";
	case STATUS_REMOVED:
		return "removed";
	case STATUS_SAME:
		break;
	}
	return "same";
}
