#include "tree.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xalloc.h"

/*
 * The previous stack and the nodes it walked through. Consecutive lines
 * of a profile often share a long prefix; reusing it skips most lookups.
 */
struct tree_path {
	struct buf stack; /* bytes of the previous stack, as given */
	uint32_t *nodes; /* nodes[i] = node of frame i */
	size_t *ends; /* ends[i] = offset just past frame i in `stack` */
	size_t depth, cap;
	struct buf scratch; /* frame after --strip-hex */
	uint32_t *walk; /* node ids of the current stack */
	size_t walk_cap;
};

static uint64_t
slot_hash(uint32_t parent, uint32_t name)
{
	uint64_t h = ((uint64_t)parent << 32 | name) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 29);
}

struct tree *
tree_create(const struct tree_options *opt)
{
	struct tree *t = xcalloc(1, sizeof(*t));
	t->opt = *opt;
	t->names = intern_create();
	t->slot_mask = 4095;
	t->slots = xcalloc(t->slot_mask + 1, sizeof(uint32_t));
	t->path = xcalloc(1, sizeof(*t->path));
	buf_init(&t->path->stack);
	buf_init(&t->path->scratch);
	t->nodes = xgrow(NULL, &t->node_cap, 1024, sizeof(struct tree_node));
	t->node_count = 1;
	memset(&t->nodes[0], 0, sizeof(t->nodes[0]));
	t->nodes[0].name = intern_add(t->names, "all", 3);
	t->nodes[0].parent = TREE_NONE;
	t->nodes[0].first_child = TREE_NONE;
	t->nodes[0].next_sibling = TREE_NONE;
	t->base_scale = 1.0;
	return t;
}

void
tree_destroy(struct tree *t)
{
	if (!t) {
		return;
	}
	intern_destroy(t->names);
	free(t->nodes);
	free(t->slots);
	if (t->path) {
		buf_finish(&t->path->stack);
		buf_finish(&t->path->scratch);
		free(t->path->nodes);
		free(t->path->ends);
		free(t->path->walk);
		free(t->path);
	}
	free(t);
}

static void
grow_slots(struct tree *t)
{
	size_t mask = t->slot_mask * 2 + 1;
	uint32_t *slots = xcalloc(mask + 1, sizeof(uint32_t));
	for (size_t id = 1; id < t->node_count; id++) {
		const struct tree_node *n = &t->nodes[id];
		size_t i = slot_hash(n->parent, n->name) & mask;
		while (slots[i]) {
			i = (i + 1) & mask;
		}
		slots[i] = (uint32_t)id;
	}
	free(t->slots);
	t->slots = slots;
	t->slot_mask = mask;
}

static uint32_t
child(struct tree *t, uint32_t parent, uint32_t name)
{
	size_t i = slot_hash(parent, name) & t->slot_mask;
	for (uint32_t s; (s = t->slots[i]) != 0; i = (i + 1) & t->slot_mask) {
		if (t->nodes[s].parent == parent && t->nodes[s].name == name) {
			return s;
		}
	}
	uint32_t id = (uint32_t)t->node_count;
	t->nodes = xgrow(t->nodes, &t->node_cap, t->node_count + 1, sizeof(struct tree_node));
	struct tree_node *n = &t->nodes[id];
	memset(n, 0, sizeof(*n));
	n->name = name;
	n->parent = parent;
	n->first_child = TREE_NONE;
	n->next_sibling = TREE_NONE;
	n->depth = t->nodes[parent].depth + 1;
	if (n->depth > t->max_depth) {
		t->max_depth = n->depth;
	}
	t->node_count++;
	t->slots[i] = id;
	if (t->node_count * 2 > t->slot_mask) {
		grow_slots(t);
	}
	return id;
}

static bool
is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Interns one frame, replacing hex literals first with --strip-hex. */
static uint32_t
frame_id(struct tree *t, const char *f, size_t len)
{
	if (!t->opt.strip_hex || !memchr(f, 'x', len)) {
		return intern_add(t->names, f, len);
	}
	struct buf *s = &t->path->scratch;
	buf_reset(s);
	for (size_t i = 0; i < len;) {
		if (f[i] == '0' && i + 2 < len && f[i + 1] == 'x' && is_hex(f[i + 2])) {
			buf_add(s, "0x...", 5);
			for (i += 2; i < len && is_hex(f[i]); i++) {
			}
		} else {
			buf_addc(s, f[i++]);
		}
	}
	return intern_add(t->names, s->data, s->len);
}

/* Bytes the new stack shares with the previous one. */
static size_t
common_prefix(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen, i = 0;
	while (i + 8 <= n) {
		uint64_t x, y;
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y) {
			break;
		}
		i += 8;
	}
	while (i < n && a[i] == b[i]) {
		i++;
	}
	return i;
}

static void
walk_push(struct tree_path *p, size_t depth, uint32_t node)
{
	p->walk = xgrow(p->walk, &p->walk_cap, depth + 1, sizeof(uint32_t));
	p->walk[depth] = node;
}

static void
remember(struct tree_path *p, size_t depth, uint32_t node, size_t end)
{
	if (depth >= p->cap) {
		size_t cap = p->cap;
		p->nodes = xgrow(p->nodes, &cap, depth + 1, sizeof(uint32_t));
		p->ends = xrealloc(p->ends, cap * sizeof(size_t));
		p->cap = cap;
	}
	p->nodes[depth] = node;
	p->ends[depth] = end;
}

/* Walks root-to-leaf order, reusing the previous stack's shared frames. */
static size_t
walk_forward(struct tree *t, const char *stack, size_t len)
{
	struct tree_path *p = t->path;
	size_t lcp = common_prefix(stack, len, p->stack.data ? p->stack.data : "", p->stack.len);
	size_t depth = 0, start = 0;
	uint32_t node = TREE_ROOT;
	while (depth < p->depth) {
		size_t end = p->ends[depth];
		if (!(end < lcp || (end == lcp && (end == len || stack[end] == ';')))) {
			break;
		}
		node = p->nodes[depth];
		walk_push(p, depth++, node);
		start = end + 1;
	}
	while (start <= len) {
		const char *semi = memchr(stack + start, ';', len - start);
		size_t end = semi ? (size_t)(semi - stack) : len;
		node = child(t, node, frame_id(t, stack + start, end - start));
		walk_push(p, depth, node);
		remember(p, depth++, node, end);
		start = end + 1;
	}
	p->depth = depth;
	buf_reset(&p->stack);
	buf_add(&p->stack, stack, len);
	return depth;
}

/* Walks leaf-to-root order for --reverse; no prefix reuse. */
static size_t
walk_reverse(struct tree *t, const char *stack, size_t len)
{
	struct tree_path *p = t->path;
	size_t depth = 0, end = len;
	uint32_t node = TREE_ROOT;
	for (;;) {
		size_t start = end;
		while (start > 0 && stack[start - 1] != ';') {
			start--;
		}
		node = child(t, node, frame_id(t, stack + start, end - start));
		walk_push(p, depth++, node);
		if (start == 0) {
			break;
		}
		end = start - 1;
	}
	return depth;
}

bool
tree_add_stack(struct tree *t, enum side side, const char *stack, size_t len, struct count c,
        const char **reason)
{
	struct count total;
	if (!count_add(t->nodes[TREE_ROOT].total[side], c, &total)) {
		*reason = side == SIDE_BASE ? "sum of base counts exceeds 2^64-1"
		                            : "sum of head counts exceeds 2^64-1";
		return false;
	}
	size_t depth = t->opt.reverse ? walk_reverse(t, stack, len) : walk_forward(t, stack, len);
	t->nodes[TREE_ROOT].total[side] = total;
	/* No node's total can exceed the root's, so these cannot overflow. */
	for (size_t i = 0; i < depth; i++) {
		struct tree_node *n = &t->nodes[t->path->walk[i]];
		count_add(n->total[side], c, &n->total[side]);
	}
	struct tree_node *leaf = &t->nodes[t->path->walk[depth - 1]];
	count_add(leaf->self[side], c, &leaf->self[side]);
	return true;
}

struct sort_key {
	uint64_t key; /* parent << 32 | name rank */
	uint32_t id;
};

static int
compare_keys(const void *pa, const void *pb)
{
	const struct sort_key *a = pa, *b = pb;
	return (a->key > b->key) - (a->key < b->key);
}

/* Links every node's children in byte order of their names. */
static void
link_children(struct tree *t)
{
	const uint32_t *rank = intern_ranks(t->names);
	size_t n = t->node_count - 1;
	struct sort_key *keys = xmalloc((n ? n : 1) * sizeof(*keys));
	for (size_t i = 0; i < n; i++) {
		const struct tree_node *node = &t->nodes[i + 1];
		keys[i].key = (uint64_t)node->parent << 32 | rank[node->name];
		keys[i].id = (uint32_t)(i + 1);
	}
	qsort(keys, n, sizeof(*keys), compare_keys);
	for (size_t i = n; i-- > 0;) {
		struct tree_node *node = &t->nodes[keys[i].id];
		struct tree_node *parent = &t->nodes[node->parent];
		node->next_sibling = parent->first_child;
		parent->first_child = keys[i].id;
	}
	free(keys);
}

enum node_status
tree_classify(const struct tree *t, const struct tree_node *n)
{
	if (!t->differential) {
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
	double delta = tree_value(t, n, SIDE_HEAD, true) - tree_value(t, n, SIDE_BASE, true);
	if (delta > floor) {
		return STATUS_SLOWER;
	}
	if (delta < -floor) {
		return STATUS_FASTER;
	}
	return STATUS_SAME;
}

void
tree_finish(struct tree *t, bool differential)
{
	t->differential = differential;
	const struct tree_node *root = &t->nodes[TREE_ROOT];
	if (t->opt.normalize && differential && !count_is_zero(root->total[SIDE_BASE])) {
		t->normalized = true;
		t->base_scale = count_to_double(root->total[SIDE_HEAD]) /
		                count_to_double(root->total[SIDE_BASE]);
	}
	link_children(t);
	for (size_t i = 0; i < t->node_count; i++) {
		t->nodes[i].status = (uint8_t)tree_classify(t, &t->nodes[i]);
	}
	/* The build state is not needed any more. */
	free(t->slots);
	t->slots = NULL;
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
