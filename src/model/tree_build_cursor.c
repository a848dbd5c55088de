/*
 * tree_build_cursor: adding frames one at a time, from a cursor on a node,
 * for readers that walk a graph rather than lines (callgrind's expansion),
 * and the counts they put at the nodes they reach.
 */
#include "tree_build_private.h"

struct tree_cursor
tree_cursor_root(void)
{
	return (struct tree_cursor){TREE_ROOT, ROOT_PATH_HASH};
}

/*
 * A cursor's step to node (path hash k) is over: false with *reason when
 * the tree is full, else *child is there.
 */
static bool
cursor_moved(
        struct tree *t, uint32_t node, uint64_t k, struct tree_cursor *child, const char **reason)
{
	struct tree_build *b = t->build;
	b->prev_depth = 0; /* the next tree_add_stack has no line to share */
	t->node_count = b->count;
	if (b->full) {
		*reason = tree_build_full_reason(b);
		return false;
	}
	*child = (struct tree_cursor){node, k};
	return true;
}

bool
tree_cursor_child(struct tree *t, const struct tree_cursor *at, const char *frame, size_t len,
        struct tree_cursor *child, const char **reason)
{
	struct tree_build *b = t->build;
	if (b->transform) {
		/* A reader's bug, not the input's: tree_needs_paths said so. */
		*reason = "internal error: stacks added frame by frame with transforms on";
		return false;
	}
	if (at->node == TREE_ROOT) {
		frame = tree_build_root_safe(b, frame, &len);
	}
	uint64_t k = at->path;
	/* one_frame: what walk_forward and walk_strip_hex do for one frame. */
	uint32_t node = tree_build_one_frame(b, &k, at->node, frame, len);
	return cursor_moved(t, node, k, child, reason);
}

bool
tree_cursor_named(struct tree *t, const struct tree_cursor *at, struct tree_name *name,
        struct tree_cursor *child, const char **reason)
{
	struct tree_build *b = t->build;
	if (!tree_takes_hashed(t)) {
		*reason = "internal error: a named frame where frames are rewritten";
		return false;
	}
	if (at->node == TREE_ROOT && name->len && name->bytes[0] == '#') {
		/* root_safe's space: another name than the one named, so its id
		 * stays the caller's for the frame's other places. */
		return tree_cursor_child(t, at, name->bytes, name->len, child, reason);
	}
	uint64_t k = tree_path_hash(at->path, name->hash);
	struct name nm = {name->bytes, name->len, name->hash, name->id};
	uint32_t node = tree_build_child(b, k, at->node, &nm);
	if (!cursor_moved(t, node, k, child, reason)) {
		return false;
	}
	name->id = b->name_ids[node];
	return true;
}

bool
tree_add_count(struct tree *t, enum side side, uint32_t node, struct count c, const char **reason)
{
	struct tree_build *b = t->build;
	struct count total;
	b->offered++;
	if (!count_add(b->sum[side], c, &total)) {
		*reason = tree_build_overflow_reason(side);
		return false;
	}
	b->sum[side] = total;
	tree_build_add_self(b, side, node, c);
	return true;
}

uint64_t
tree_stacks_offered(const struct tree *t)
{
	return t->build->offered;
}

const uint64_t *
tree_side_self(const struct tree *t, enum side side, size_t *count, const uint32_t **nanos)
{
	*count = t->build->count;
	*nanos = t->build->self_nanos[side];
	return t->build->self_units[side];
}

const uint32_t *
tree_build_names(const struct tree *t)
{
	return t->build->name_ids;
}

uint32_t
tree_build_parent(const struct tree *t, uint32_t id)
{
	return t->build->keys[id].parent;
}
