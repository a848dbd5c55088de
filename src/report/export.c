#include "export.h"

#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "folded_syntax.h"
#include "report.h"
#include "report_match.h"
#include "xalloc.h"

/* Base counts are printed scaled when normalised, exact otherwise. */
static void
add_value(struct buf *b, const struct tree *t, const struct tree_node *n, enum side side, bool self)
{
	if (side == SIDE_BASE && t->normalized) {
		buf_add_double(b, tree_value(t, n, side, self), 6);
	} else {
		buf_add_count(b, self ? tree_node_self(t, n, side) : tree_node_total(t, n, side));
	}
}

/*
 * Before the first line: a column mark when a single input would misread
 * it (a single profile whose first stack ends in a number, `a;b 7 3`), or
 * when the stack starts with a UTF-8 byte-order mark, which the reader drops
 * at the start of a file. So difffold reads its own output back unchanged.
 */
static void
folded_mark(struct buf *b, const struct tree *t, const char *stack, size_t len)
{
	bool bom = len >= 3 && memcmp(stack, "\xEF\xBB\xBF", 3) == 0;
	if (t->differential) {
		if (bom) {
			buf_adds(b, FOLDED_MARK_3_COLUMNS "\n");
		}
	} else if (bom || folded_stack_ends_in_count(stack, len)) {
		buf_adds(b, FOLDED_MARK_2_COLUMNS "\n");
	}
}

/* A node gets a line when it has samples of its own, or is a leaf: zero-count
 * stacks stay in the model, so they stay in the output too. */
static bool
folded_has_line(const struct tree *t, const struct tree_node *n)
{
	return !count_is_zero(tree_node_self(t, n, SIDE_BASE)) ||
	       !count_is_zero(tree_node_self(t, n, SIDE_HEAD)) || n->first_child == TREE_NONE;
}

/*
 * The bytes of the stacks -f folded writes, counts left out. A line is its
 * node's whole path, so this grows with depth squared (a chain 2,000,000
 * frames deep would be terabytes): summed first, so that an output past its
 * limit (out_set_limit) is refused before its first byte.
 */
static uint64_t
folded_path_bytes(const struct tree *t)
{
	uint64_t *len = xmalloc((t->max_depth + 1) * sizeof(uint64_t));
	len[0] = 0;
	uint64_t sum = 0;
	for (uint32_t id = tree_next_preorder(t, TREE_ROOT, TREE_ROOT); id != TREE_NONE;
	        id = tree_next_preorder(t, id, TREE_ROOT)) {
		const struct tree_node *n = tree_node(t, id);
		size_t name_len;
		tree_node_name(t, n, &name_len);
		len[n->depth] = len[n->depth - 1] + (n->depth > 1) + name_len;
		if (folded_has_line(t, n)) {
			sum += len[n->depth] + 3; /* a space, a count, the newline at least */
		}
	}
	free(len);
	return sum;
}

void
export_folded(struct out *o, const struct tree *t)
{
	if (!out_fits(o, folded_path_bytes(t))) {
		return;
	}
	struct buf path;
	buf_init(&path);
	size_t *offsets = xmalloc((t->max_depth + 1) * sizeof(size_t));
	offsets[0] = 0;
	uint64_t written = 0;
	for (uint32_t id = tree_next_preorder(t, TREE_ROOT, TREE_ROOT); id != TREE_NONE;
	        id = tree_next_preorder(t, id, TREE_ROOT)) {
		const struct tree_node *n = tree_node(t, id);
		size_t len;
		const char *name = tree_node_name(t, n, &len);
		buf_setlen(&path, offsets[n->depth - 1]);
		if (n->depth > 1) {
			buf_addc(&path, ';');
		}
		buf_add(&path, name, len);
		offsets[n->depth] = path.len;
		if (!folded_has_line(t, n)) {
			continue;
		}
		if (!written++) {
			folded_mark(&o->b, t, path.data, path.len);
		}
		buf_add(&o->b, path.data, path.len);
		/* A leaf ending in white space would lose it to the separator
		 * before the count; a ';' after it keeps it (the reader drops a
		 * trailing ';' and nothing else). */
		char last = path.len ? path.data[path.len - 1] : ';';
		if (last == ' ' || last == '\t') {
			buf_addc(&o->b, ';');
		}
		buf_addc(&o->b, ' ');
		if (t->differential) {
			add_value(&o->b, t, n, SIDE_BASE, true);
			buf_addc(&o->b, ' ');
		}
		add_value(&o->b, t, n, SIDE_HEAD, true);
		buf_addc(&o->b, '\n');
		out_maybe_flush(o);
		if (o->error) {
			break; /* the rest would go nowhere */
		}
	}
	free(offsets);
	buf_finish(&path);
}

/* A node's own members, "name" to "status", shared by both layouts. */
static void
json_fields(struct buf *b, const struct tree *t, const struct tree_node *n)
{
	size_t len;
	const char *name = tree_node_name(t, n, &len);
	buf_adds(b, "\"name\":");
	escape_json_string(b, name, len);
	buf_adds(b, ",\"base\":");
	buf_add_count(b, tree_node_total(t, n, SIDE_BASE));
	buf_adds(b, ",\"head\":");
	buf_add_count(b, tree_node_total(t, n, SIDE_HEAD));
	buf_adds(b, ",\"base_self\":");
	buf_add_count(b, tree_node_self(t, n, SIDE_BASE));
	buf_adds(b, ",\"head_self\":");
	buf_add_count(b, tree_node_self(t, n, SIDE_HEAD));
	buf_adds(b, ",\"status\":\"");
	buf_adds(b, tree_status_name((enum node_status)n->status));
	buf_addc(b, '"');
	report_match_json_node(b, t, n); /* matching across builds */
}

static void
json_node(struct buf *b, const struct tree *t, const struct tree_node *n)
{
	buf_addc(b, '{');
	json_fields(b, t, n);
	buf_adds(b, ",\"children\":[");
}

/* The document's opening: totals and flags, shared by both layouts. */
static void
json_totals(struct buf *b, const struct tree *t)
{
	const struct tree_node *root = tree_node(t, TREE_ROOT);
	buf_adds(b, "{\"base_total\":");
	buf_add_count(b, tree_node_total(t, root, SIDE_BASE));
	buf_adds(b, ",\"head_total\":");
	buf_add_count(b, tree_node_total(t, root, SIDE_HEAD));
	buf_adds(b, ",\"normalized\":");
	buf_adds(b, t->normalized ? "true" : "false");
	buf_adds(b, ",\"base_scale\":");
	buf_add_double(b, t->base_scale, 12);
	buf_adds(b, ",\"differential\":");
	buf_adds(b, t->differential ? "true" : "false");
}

/* One flat node: id, parent and depth, then the nested node's fields but children. */
static void
json_flat_node(
        struct buf *b, const struct tree *t, const struct tree_node *n, size_t id, size_t parent)
{
	buf_adds(b, "{\"id\":");
	buf_add_u64(b, id);
	buf_adds(b, ",\"parent\":");
	if (n->depth == 0) {
		buf_adds(b, "null");
	} else {
		buf_add_u64(b, parent);
	}
	buf_adds(b, ",\"depth\":");
	buf_add_u64(b, n->depth);
	buf_addc(b, ',');
	json_fields(b, t, n);
	buf_addc(b, '}');
}

/*
 * --json-layout flat: the same nodes as the nested form, in the same
 * pre-order, one object each with its parent's id, so no reader has to
 * nest as deep as the stacks. Ids are pre-order positions (the root is 0),
 * so a parent always comes before its children.
 */
static void
export_json_flat(struct out *o, const struct tree *t, const struct report *summary)
{
	struct buf *b = &o->b;
	json_totals(b, t);
	buf_adds(b, ",\"nodes\":[");
	/* ids[d]: the id of the last node seen at depth d, a parent for d + 1. */
	size_t *ids = xmalloc((t->max_depth + 1) * sizeof(size_t));
	size_t next = 0;
	for (uint32_t id = TREE_ROOT; id != TREE_NONE; id = tree_next_preorder(t, id, TREE_ROOT)) {
		const struct tree_node *n = tree_node(t, id);
		if (next > 0) {
			buf_addc(b, ',');
		}
		json_flat_node(b, t, n, next, n->depth ? ids[n->depth - 1] : 0);
		ids[n->depth] = next++;
		out_maybe_flush(o);
	}
	free(ids);
	buf_addc(b, ']');
	if (summary) {
		buf_addc(b, ',');
		report_json_summary(b, summary);
	}
	buf_adds(b, "}\n");
}

void
export_json(
        struct out *o, const struct tree *t, enum json_layout layout, const struct report *summary)
{
	if (layout == JSON_LAYOUT_FLAT) {
		export_json_flat(o, t, summary);
		return;
	}
	struct buf *b = &o->b;
	json_totals(b, t);
	buf_adds(b, ",\"root\":");
	/* Pre-order walk; closing brackets are emitted when depth falls. */
	uint32_t depth = 0;
	for (uint32_t id = TREE_ROOT; id != TREE_NONE; id = tree_next_preorder(t, id, TREE_ROOT)) {
		const struct tree_node *n = tree_node(t, id);
		if (id != TREE_ROOT && n->depth <= depth) {
			for (; depth >= n->depth; depth--) {
				buf_adds(b, "]}");
			}
			buf_addc(b, ',');
		}
		json_node(b, t, n);
		depth = n->depth;
		out_maybe_flush(o);
	}
	for (;; depth--) {
		buf_adds(b, "]}");
		if (depth == 0) {
			break;
		}
	}
	if (summary) {
		buf_addc(b, ',');
		report_json_summary(b, summary);
	}
	buf_adds(b, "}\n");
}
