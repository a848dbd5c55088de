#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "report_match.h"
#include "report_private.h"
#include "transform.h"
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

/* The ,"base":..,"head":..,"change":.. members of a row or an offender. */
static void
json_amounts(struct buf *b, struct amount base, struct amount head, struct amount delta)
{
	buf_adds(b, ",\"base\":");
	json_amount(b, base);
	buf_adds(b, ",\"head\":");
	json_amount(b, head);
	buf_adds(b, ",\"change\":");
	json_amount(b, delta);
}

void
report_json_row(struct buf *b, const struct summary *s, enum list l, const struct row *r)
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
	json_amounts(b, r->base, r->head, r->delta);
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
json_list(struct buf *b, const struct report *r, enum list l)
{
	const struct summary *s = &r->sum;
	buf_addc(b, '[');
	for (size_t i = 0; i < r->shown[l]; i++) {
		if (i > 0) {
			buf_addc(b, ',');
		}
		report_json_row(b, s, l, &s->rows[l][i]);
	}
	buf_addc(b, ']');
}

static void
json_offender(struct buf *b, const struct summary *s, const struct offender *o)
{
	buf_adds(b, "{\"name\":");
	if (o->id == GATE_WHOLE) {
		buf_adds(b, "null");
	} else {
		size_t len;
		const char *name = intern_name(s->t->names, o->id, &len);
		escape_json_string(b, name, len);
	}
	json_amounts(b, o->base, o->head, o->delta);
	buf_addc(b, '}');
}

static void
json_gate(struct buf *b, const struct summary *s, const struct gate_eval *ev)
{
	static const char *const kinds[] = {
	        [GATE_REGRESSION] = "fail-on-regression",
	        [GATE_FUNCTION] = "fail-on-function-regression",
	        [GATE_NEW] = "fail-on-new",
	        [GATE_PATTERN] = "fail-on",
	};
	buf_adds(b, "{\"gate\":\"");
	buf_adds(b, kinds[ev->kind]);
	buf_adds(b, "\",\"limit\":");
	json_number(b, ev->limit);
	if (ev->kind == GATE_PATTERN) {
		buf_adds(b, ",\"pattern\":");
		escape_json_string(b, ev->pattern->glob, strlen(ev->pattern->glob));
		buf_adds(
		        b, ev->pattern->total ? ",\"measure\":\"total\"" : ",\"measure\":\"self\"");
	}
	buf_adds(b, ",\"failed\":");
	buf_adds(b, ev->count ? "true" : "false");
	buf_printf(b, ",\"offender_count\":%zu,\"offenders\":[", ev->count);
	for (size_t i = 0; i < ev->listed; i++) {
		if (i > 0) {
			buf_addc(b, ',');
		}
		json_offender(b, s, &ev->o[i]);
	}
	/* Schema 3: the family the test was corrected over, and the functions
	 * over the limit it did not confirm (0 for exact counts). */
	buf_printf(b, "],\"tested\":%zu,\"unconfirmed\":%zu}", ev->family, ev->unconfirmed);
}

/* The verdict, the largest self change and every gate's result. */
static void
json_verdict(struct buf *b, const struct report *rep)
{
	const struct summary *s = &rep->sum;
	buf_adds(b, ",\"verdict\":\"");
	buf_adds(b, report_verdict_name(rep->verdict));
	buf_adds(b, "\",\"largest_self_change\":");
	if (rep->largest) {
		report_json_row(b, s, rep->largest_list, rep->largest);
	} else {
		buf_adds(b, "null");
	}
	buf_printf(b, ",\"gates_failed\":%zu,\"gates\":[", rep->failed);
	for (size_t i = 0; i < rep->ngates; i++) {
		if (i > 0) {
			buf_addc(b, ',');
		}
		json_gate(b, s, &rep->gates[i]);
	}
	buf_addc(b, ']');
}

static void
json_transform(void *ctx, const char *option, const char *value)
{
	struct buf *b = ctx;
	if (b->data[b->len - 1] != '[') {
		buf_addc(b, ',');
	}
	buf_adds(b, "{\"option\":");
	escape_json_string(b, option, strlen(option));
	buf_adds(b, ",\"value\":");
	if (value) {
		escape_json_string(b, value, strlen(value));
	} else {
		buf_adds(b, "null");
	}
	buf_addc(b, '}');
}

/* The transforms in the order they apply; absent when there are none. */
static void
json_transforms(struct buf *b, const struct report_options *opt)
{
	if (!transform_active(opt->transform)) {
		return;
	}
	buf_adds(b, ",\"transforms\":[");
	transform_each(opt->transform, json_transform, b);
	buf_addc(b, ']');
}

void
report_json_summary(struct buf *b, const struct report *r)
{
	const struct summary *sum = &r->sum;
	const struct report_options *opt = r->opt;
	const struct tree *t = sum->t;
	buf_adds(b, "\"summary\":{\"schema_version\":" REPORT_SCHEMA_VERSION ",\"base_total\":");
	json_amount(b, sum->base_total);
	buf_adds(b, ",\"head_total\":");
	json_amount(b, sum->head_total);
	buf_adds(b, ",\"change\":");
	json_amount(b, sum->change);
	buf_adds(b, ",\"change_percent\":");
	if (sum->base_total.v > 0) {
		json_number(b, sum->change.v / sum->base_total.v * 100);
	} else {
		buf_adds(b, "null");
	}
	buf_adds(b, ",\"normalized\":");
	buf_adds(b, t->normalized ? "true" : "false");
	buf_adds(b, ",\"base_scale\":");
	buf_add_double(b, t->base_scale, 12);
	buf_adds(b, ",\"points_of\":\"larger_total\",\"larger_total\":");
	json_amount(b, sum->larger);
	buf_adds(b, ",\"regressions\":{\"self\":");
	json_list(b, r, LIST_REG_SELF);
	buf_adds(b, ",\"total\":");
	json_list(b, r, LIST_REG_TOTAL);
	buf_adds(b, "},\"improvements\":{\"self\":");
	json_list(b, r, LIST_IMP_SELF);
	buf_adds(b, ",\"total\":");
	json_list(b, r, LIST_IMP_TOTAL);
	buf_adds(b, "},\"new\":");
	json_list(b, r, LIST_NEW);
	buf_adds(b, ",\"removed\":");
	json_list(b, r, LIST_REMOVED);
	buf_adds(b, ",\"paths\":");
	json_list(b, r, LIST_PATHS);
	json_transforms(b, opt);
	if (sum->differential) {
		json_verdict(b, r);
	}
	report_sections_json(b, r);
	report_runs_json(b, r);
	if (sum->differential) {
		buf_adds(b, r->roots_differ ? ",\"roots_differ\":true" : ",\"roots_differ\":false");
	}
	report_match_json(b, t); /* matching across builds */
	buf_addc(b, '}');
}
