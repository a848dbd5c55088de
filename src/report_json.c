#include "report.h"

#include <stdlib.h>

#include "escape.h"
#include "report_private.h"
#include "xalloc.h"

/* ---- JSON ------------------------------------------------------------- */

static void
json_number(struct buf *b, double v)
{
	buf_add_double(b, v, 6);
}

/* Exact counts and changes as parsed (never through a double). */
static void
json_amount(struct buf *b, struct amount a)
{
	if (!a.exact) {
		json_number(b, a.v);
		return;
	}
	if (a.negative && !count_is_zero(a.c)) {
		buf_addc(b, '-');
	}
	buf_add_count(b, a.c);
}

static void
json_row(struct buf *b, const struct summary *s, enum list l, const struct row *r)
{
	size_t len;
	if (l == LIST_PATHS) {
		/* The whole path, root first, found leaf first through parents. */
		uint32_t depth = tree_node(s->t, r->id)->depth;
		uint32_t *ids = xmalloc(depth * sizeof(uint32_t));
		for (uint32_t id = r->id, i = depth; i > 0; id = tree_node(s->t, id)->parent) {
			ids[--i] = id;
		}
		buf_adds(b, "{\"path\":[");
		for (uint32_t i = 0; i < depth; i++) {
			const char *name = tree_node_name(s->t, tree_node(s->t, ids[i]), &len);
			if (i > 0) {
				buf_addc(b, ',');
			}
			escape_json_string(b, name, len);
		}
		buf_addc(b, ']');
		free(ids);
	} else {
		const char *name = intern_name(s->t->names, r->id, &len);
		buf_adds(b, "{\"name\":");
		escape_json_string(b, name, len);
	}
	buf_adds(b, ",\"base\":");
	json_amount(b, r->base);
	buf_adds(b, ",\"head\":");
	json_amount(b, r->head);
	buf_adds(b, ",\"change\":");
	json_amount(b, r->delta);
	buf_adds(b, ",\"change_percent\":");
	if (r->base.v > 0) {
		json_number(b, r->delta.v / r->base.v * 100);
	} else {
		buf_adds(b, "null");
	}
	buf_adds(b, ",\"change_points\":");
	json_number(b, report_points(s, r->delta.v));
	buf_addc(b, '}');
}

static void
json_list(struct buf *b, const struct summary *s, enum list l, size_t top)
{
	buf_addc(b, '[');
	for (size_t i = 0; i < s->count[l] && i < top; i++) {
		if (i > 0) {
			buf_addc(b, ',');
		}
		json_row(b, s, l, &s->rows[l][i]);
	}
	buf_addc(b, ']');
}

void
report_json_summary(struct buf *b, const struct tree *t, const struct options *opt)
{
	struct summary s;
	report_summary_init(&s, t, true);
	size_t top = report_top(opt);
	buf_adds(b, "\"summary\":{\"base_total\":");
	json_amount(b, s.base_total);
	buf_adds(b, ",\"head_total\":");
	json_amount(b, s.head_total);
	buf_adds(b, ",\"change\":");
	json_amount(b, s.change);
	buf_adds(b, ",\"change_percent\":");
	if (s.base_total.v > 0) {
		json_number(b, s.change.v / s.base_total.v * 100);
	} else {
		buf_adds(b, "null");
	}
	buf_adds(b, ",\"normalized\":");
	buf_adds(b, t->normalized ? "true" : "false");
	buf_adds(b, ",\"base_scale\":");
	buf_add_double(b, t->base_scale, 12);
	buf_adds(b, ",\"points_of\":\"larger_total\",\"larger_total\":");
	json_amount(b, s.larger);
	buf_adds(b, ",\"regressions\":{\"self\":");
	json_list(b, &s, LIST_REG_SELF, top);
	buf_adds(b, ",\"total\":");
	json_list(b, &s, LIST_REG_TOTAL, top);
	buf_adds(b, "},\"improvements\":{\"self\":");
	json_list(b, &s, LIST_IMP_SELF, top);
	buf_adds(b, ",\"total\":");
	json_list(b, &s, LIST_IMP_TOTAL, top);
	buf_adds(b, "},\"new\":");
	json_list(b, &s, LIST_NEW, top);
	buf_adds(b, ",\"removed\":");
	json_list(b, &s, LIST_REMOVED, top);
	buf_adds(b, ",\"paths\":");
	json_list(b, &s, LIST_PATHS, top);
	buf_addc(b, '}');
	report_summary_finish(&s);
}
