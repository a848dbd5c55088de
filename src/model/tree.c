/*
 * tree: the finished model (see tree.h): its end, tree_seal, which freezes
 * what tree_build*.c laid out, and the queries the backends read it with.
 */
#include "tree.h"

#include <stdlib.h>

#include "prefetch.h"
#include "xalloc.h"

void
tree_destroy(struct tree *t)
{
	if (!t) {
		return;
	}
	/* The build state borrows the name table: it goes first. */
	if (t->build) {
		t->drop_build(t->build);
	}
	intern_destroy(t->names);
	free(t->nodes);
	free(t->nanos);
	free(t);
}

/*
 * How many nodes ahead the passes over a big tree start loading the node,
 * and its parent, they will touch: a parent is anywhere in the nodes array,
 * and at 300 MB (1.87 million nodes, 105 MB of them) the two passes below
 * spent most of their time waiting for such loads one after the other.
 */
#define NODES_AHEAD ((size_t)32)

/*
 * Totals from self counts. A parent is created before its children, so its
 * id is smaller: one pass from the last id down adds every subtree into its
 * parent before the parent itself is added upwards. Sums are bounded by the
 * root's total, checked line by line, so none overflows.
 */
static void
sum_totals(struct tree *t)
{
	struct tree_node *nodes = t->nodes;
	if (!t->nanos) {
		for (size_t i = t->node_count; i-- > 1;) {
			if (i > NODES_AHEAD) {
				prefetch(&nodes[nodes[i - NODES_AHEAD].parent]);
			}
			struct tree_node *parent = &nodes[nodes[i].parent];
			parent->total_units[SIDE_BASE] += nodes[i].total_units[SIDE_BASE];
			parent->total_units[SIDE_HEAD] += nodes[i].total_units[SIDE_HEAD];
		}
		return;
	}
	for (size_t i = t->node_count; i-- > 1;) {
		uint32_t p = nodes[i].parent;
		for (int side = 0; side < 2; side++) {
			struct count sum;
			count_add(tree_node_total(t, &nodes[p], (enum side)side),
			        tree_node_total(t, &nodes[i], (enum side)side), &sum);
			nodes[p].total_units[side] = sum.units;
			t->nanos[p].total[side] = sum.nanos;
		}
	}
}

/*
 * Links every node's children in byte order of their names: the nodes in
 * rank order of their names (a counting sort), then each, from the last,
 * put in front of its parent's children. Siblings have distinct names, so
 * each family comes out in rank order; the sort takes 4 bytes a node and
 * 4 a name, beside the finished tree.
 */
static void
link_children(struct tree *t, const uint32_t *rank)
{
	struct tree_node *nodes = t->nodes;
	size_t n = t->node_count, names = intern_count(t->names);
	uint32_t *start = xcalloc_written(names + 1, sizeof(uint32_t));
	for (size_t id = 1; id < n; id++) {
		start[rank[nodes[id].name] + 1]++;
	}
	for (size_t r = 1; r <= names; r++) {
		start[r] += start[r - 1];
	}
	uint32_t *order = xmalloc(n * sizeof(uint32_t));
	xprefault(order, n * sizeof(uint32_t));
	for (size_t id = 1; id < n; id++) {
		/* A flame chart's children in the order they were made: time's. */
		order[t->opt.chart ? id - 1 : start[rank[nodes[id].name]]++] = (uint32_t)id;
	}
	free(start);
	for (size_t i = n - 1; i-- > 0;) {
		/* The node two steps ahead, then (now loaded) its parent one. */
		if (i >= 2 * NODES_AHEAD) {
			prefetch(&nodes[order[i - 2 * NODES_AHEAD]]);
		}
		if (i >= NODES_AHEAD) {
			prefetch(&nodes[nodes[order[i - NODES_AHEAD]].parent]);
		}
		struct tree_node *node = &nodes[order[i]];
		node->next_sibling = nodes[node->parent].first_child;
		nodes[node->parent].first_child = order[i];
	}
	free(order);
}

/* How far a node's delta must go past zero to be slower or faster. */
static double
change_floor(const struct tree *t)
{
	double base_total = tree_total(t, SIDE_BASE);
	double head_total = tree_total(t, SIDE_HEAD);
	return t->opt.min_delta * (base_total > head_total ? base_total : head_total);
}

/* tree_classify_change with change_floor(t) worked out once for all nodes. */
static enum node_status
classify(const struct tree *t, const struct tree_node *n, double delta, double floor)
{
	bool in_base = !count_is_zero(tree_node_total(t, n, SIDE_BASE));
	bool in_head = !count_is_zero(tree_node_total(t, n, SIDE_HEAD));
	/* A stack given with zero counts on both sides is not new, just empty. */
	if (!t->differential || (!in_base && !in_head)) {
		return STATUS_SAME;
	}
	if (!in_base) {
		return STATUS_NEW;
	}
	if (!in_head) {
		return STATUS_REMOVED;
	}
	if (delta > floor) {
		return STATUS_SLOWER;
	}
	if (delta < -floor) {
		return STATUS_FASTER;
	}
	return STATUS_SAME;
}

enum node_status
tree_classify_change(const struct tree *t, const struct tree_node *n, double delta)
{
	return classify(t, n, delta, change_floor(t));
}

static double
self_delta(const struct tree *t, const struct tree_node *n)
{
	return tree_value(t, n, SIDE_HEAD, true) - tree_value(t, n, SIDE_BASE, true);
}

void
tree_seal(struct tree *t, bool differential, const uint32_t *rank)
{
	sum_totals(t);
	t->differential = differential;
	const struct tree_node *root = &t->nodes[TREE_ROOT];
	struct count base_total = tree_node_total(t, root, SIDE_BASE);
	if (t->opt.normalize && differential && !count_is_zero(base_total)) {
		t->normalized = true;
		t->base_scale = count_to_double(tree_node_total(t, root, SIDE_HEAD)) /
		                count_to_double(base_total);
	} else if (t->opt.run_scale > 0 && t->opt.run_scale != 1 && differential) {
		t->normalized = true;
		t->run_scaled = true;
		t->base_scale = t->opt.run_scale;
	}
	double floor = change_floor(t);
	for (size_t i = 0; i < t->node_count; i++) {
		const struct tree_node *n = &t->nodes[i];
		t->nodes[i].status = (uint8_t)classify(t, n, self_delta(t, n), floor);
	}
	link_children(t, rank);
}

const char *
tree_node_name(const struct tree *t, const struct tree_node *n, size_t *len)
{
	return intern_name(t->names, n->name, len);
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
