#include "export.h"

#include <stdlib.h>

#include "escape.h"
#include "report.h"
#include "xalloc.h"

/* Base counts are printed scaled when normalised, exact otherwise. */
static void
add_value(struct buf *b, const struct tree *t, const struct tree_node *n, enum side side, bool self)
{
	if (side == SIDE_BASE && t->normalized) {
		buf_add_double(b, tree_value(t, n, side, self), 6);
	} else {
		buf_add_count(b, self ? n->self[side] : n->total[side]);
	}
}

void
export_folded(struct out *o, const struct tree *t)
{
	struct buf path;
	buf_init(&path);
	size_t *offsets = xmalloc((t->max_depth + 1) * sizeof(size_t));
	offsets[0] = 0;
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
		if (count_is_zero(n->self[SIDE_BASE]) && count_is_zero(n->self[SIDE_HEAD])) {
			continue;
		}
		buf_add(&o->b, path.data, path.len);
		buf_addc(&o->b, ' ');
		if (t->differential) {
			add_value(&o->b, t, n, SIDE_BASE, true);
			buf_addc(&o->b, ' ');
		}
		add_value(&o->b, t, n, SIDE_HEAD, true);
		buf_addc(&o->b, '\n');
		out_maybe_flush(o);
	}
	free(offsets);
	buf_finish(&path);
}

static void
json_node(struct buf *b, const struct tree *t, const struct tree_node *n)
{
	size_t len;
	const char *name = tree_node_name(t, n, &len);
	buf_adds(b, "{\"name\":");
	escape_json_string(b, name, len);
	buf_adds(b, ",\"base\":");
	buf_add_count(b, n->total[SIDE_BASE]);
	buf_adds(b, ",\"head\":");
	buf_add_count(b, n->total[SIDE_HEAD]);
	buf_adds(b, ",\"base_self\":");
	buf_add_count(b, n->self[SIDE_BASE]);
	buf_adds(b, ",\"head_self\":");
	buf_add_count(b, n->self[SIDE_HEAD]);
	buf_adds(b, ",\"status\":\"");
	buf_adds(b, tree_status_name((enum node_status)n->status));
	buf_adds(b, "\",\"children\":[");
}

void
export_json(struct out *o, const struct tree *t, const struct options *opt)
{
	struct buf *b = &o->b;
	const struct tree_node *root = tree_node(t, TREE_ROOT);
	buf_adds(b, "{\"base_total\":");
	buf_add_count(b, root->total[SIDE_BASE]);
	buf_adds(b, ",\"head_total\":");
	buf_add_count(b, root->total[SIDE_HEAD]);
	buf_adds(b, ",\"normalized\":");
	buf_adds(b, t->normalized ? "true" : "false");
	buf_adds(b, ",\"base_scale\":");
	buf_add_double(b, t->base_scale, 12);
	buf_adds(b, ",\"differential\":");
	buf_adds(b, t->differential ? "true" : "false");
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
	if (t->differential) {
		buf_addc(b, ',');
		report_json_summary(b, t, opt);
	}
	buf_adds(b, "}\n");
}
