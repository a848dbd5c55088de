/*
 * report_verdict: the one line that opens every report of two profiles.
 * The word is what the data support: a tripped gate is a regression;
 * without gates, an overall change the test confirms (sampled counts, or
 * --runs) or beyond the noise floor (exact counts); anything else, and
 * two profiles with no root in common, neutral. A neutral verdict on
 * sampled counts says how large a change the data could have shown.
 */
#include "report.h"

#include <math.h>
#include <string.h>

#include "escape.h"
#include "numfmt.h"
#include "report_private.h"
#include "runs.h"

/*
 * Whether base and head share no root frame although both hold samples:
 * stackcollapse-perf's roots are process names, and two programs, or one
 * renamed, make every frame new or removed. No verdict is drawn then.
 */
bool
report_roots_differ(const struct summary *s)
{
	const struct tree *t = s->t;
	if (!s->differential || s->base_total.v <= 0 || s->head_total.v <= 0) {
		return false;
	}
	for (uint32_t id = t->nodes[TREE_ROOT].first_child; id != TREE_NONE;
	        id = t->nodes[id].next_sibling) {
		const struct tree_node *n = tree_node(t, id);
		if (!count_is_zero(tree_node_total(t, n, SIDE_BASE)) &&
		        !count_is_zero(tree_node_total(t, n, SIDE_HEAD))) {
			return false;
		}
	}
	return true;
}

/*
 * A tripped gate is a regression. Otherwise the overall change decides:
 * for sampled counts or --runs, only a change the test on the totals
 * confirms; for exact counts, one beyond the noise floor (--min-delta of
 * the larger total). With gates, they say what a regression is, so an
 * overall growth that trips none is neutral; an improvement still counts.
 */
enum verdict
report_verdict(const struct summary *s, size_t gates, size_t failed)
{
	if (report_roots_differ(s)) {
		return VERDICT_NEUTRAL;
	}
	if (failed > 0) {
		return VERDICT_REGRESSION;
	}
	enum verdict v = VERDICT_NEUTRAL;
	double floor = s->t->opt.min_delta * s->larger.v;
	if (s->t->runs) {
		v = report_runs_verdict(s);
	} else if (s->change.v < -floor) {
		v = VERDICT_IMPROVEMENT;
	} else if (s->change.v > floor) {
		v = VERDICT_REGRESSION;
	}
	return gates > 0 && v == VERDICT_REGRESSION ? VERDICT_NEUTRAL : v;
}

/* The root frame of a side holding most of its samples. */
static uint32_t
largest_root(const struct tree *t, enum side side)
{
	uint32_t best = TREE_NONE;
	for (uint32_t id = t->nodes[TREE_ROOT].first_child; id != TREE_NONE;
	        id = t->nodes[id].next_sibling) {
		if (best == TREE_NONE || count_cmp(tree_node_total(t, &t->nodes[id], side),
		                                 tree_node_total(t, &t->nodes[best], side)) > 0) {
			best = id;
		}
	}
	return best;
}

void
report_add_roots_warning(struct buf *b, const struct report *r, const struct report_style *st)
{
	const struct summary *s = &r->sum;
	if (!r->roots_differ) {
		return;
	}
	buf_printf(
	        b, "%sWarning: base and head share no root frame%s (base ", st->strong, st->strong);
	for (int side = 0; side < 2; side++) {
		size_t len;
		const char *name = tree_node_name(s->t, tree_node(s->t, r->roots[side]), &len);
		report_add_code_name(b, st, name, len);
		buf_adds(b, side == SIDE_BASE ? ", head " : "");
	}
	buf_adds(b,
	        "): the picture draws every frame new or removed, and no verdict is drawn. To "
	        "compare them, give both roots one name (--replace '^(BASE_ROOT|HEAD_ROOT)$=app') "
	        "or drop the roots (--skip-frames 1).\n\n");
}

const char *
report_verdict_name(enum verdict v)
{
	static const char *const names[] = {
	        [VERDICT_NEUTRAL] = "neutral",
	        [VERDICT_REGRESSION] = "regression",
	        [VERDICT_IMPROVEMENT] = "improvement",
	};
	return names[v];
}

const struct row *
report_largest_self(const struct summary *s, enum list *l)
{
	const struct row *reg = s->count[LIST_REG_SELF] ? &s->rows[LIST_REG_SELF][0] : NULL;
	const struct row *imp = s->count[LIST_IMP_SELF] ? &s->rows[LIST_IMP_SELF][0] : NULL;
	if (imp && (!reg || imp->key > reg->key)) {
		*l = LIST_IMP_SELF;
		return imp;
	}
	*l = LIST_REG_SELF;
	return reg;
}

/* The function with the largest base self (the heaviest), or UINT32_MAX. */
static uint32_t
heaviest(const struct summary *s)
{
	uint32_t best = UINT32_MAX;
	double most = 0;
	for (uint32_t id = 0; id < s->nnames; id++) {
		const struct fn f = report_fn(s, id);
		double v = count_to_double(f.self[SIDE_BASE]);
		if (f.seen && v > most) {
			most = v;
			best = id;
		}
	}
	return best;
}

void
report_add_share_name(struct buf *b, const struct summary *s, const struct report_style *st,
        uint32_t id, double share)
{
	size_t len;
	const char *name = intern_name(s->t->names, id, &len);
	report_add_code_name(b, st, name, len);
	buf_adds(b, " (");
	numfmt_report_percent(b, share, false);
}

double
report_tested_share(const struct stats_counts *c)
{
	return c->A > 0 ? c->a / c->A * 100 : 0;
}

/* After a neutral verdict on tested counts: what the data could have shown. */
static void
detectable_init(struct detectable *d, const struct summary *s)
{
	const struct runs *r = s->t->runs;
	uint32_t id = heaviest(s);
	if (!r || id == UINT32_MAX) {
		return;
	}
	struct stats_counts fc, *c = &fc;
	runs_function(r, id, false, &fc);
	/* Both ways, as the tables test, at the first step of their correction. */
	double alpha = runs_alpha(r) / 2 / (s->nnames ? s->nnames : 1);
	double ratio = stats_detectable_ratio(c->a, c->A, c->B, c->phi, alpha, REPORT_POWER);
	if (!isfinite(ratio)) {
		return;
	}
	*d = (struct detectable){
	        .shown = true,
	        .id = id,
	        .single = runs_single(r),
	        .samples = round(runs_samples(r, SIDE_BASE) / (double)runs_count(r, SIDE_BASE)),
	        .share = report_tested_share(c),
	        .change = (ratio - 1) * 100,
	};
}

void
report_verdict_init(struct report *r)
{
	const struct summary *s = &r->sum;
	if (!s->differential) {
		return;
	}
	r->roots_differ = report_roots_differ(s);
	if (r->roots_differ) {
		for (int side = 0; side < 2; side++) {
			r->roots[side] = largest_root(s->t, (enum side)side);
		}
	}
	r->largest = report_largest_self(s, &r->largest_list);
	if (r->verdict == VERDICT_NEUTRAL && !r->roots_differ) {
		detectable_init(&r->detectable, s);
	}
}

/*
 * " No overall change detected; with 28,012 samples a side, `parse` (2.0%
 * of them, the heaviest function) would have to change by about 20% to be
 * seen."
 */
static void
add_detectable(struct buf *b, const struct report *rep, const struct report_style *st)
{
	const struct detectable *d = &rep->detectable;
	if (!d->shown) {
		return;
	}
	buf_adds(b, " No overall change detected; with ");
	report_add_count(b, d->samples, false);
	buf_adds(b, d->single ? " samples a side, " : " samples a run, ");
	report_add_share_name(b, &rep->sum, st, d->id, d->share);
	buf_adds(b, " of them, the heaviest function) would have to change by about ");
	numfmt_report_number(b, d->change, 0, false, false);
	buf_adds(b, "% to be seen.");
}

/*
 * "Verdict: regression: 1 of 2 gates failed; total +0.3% (9,535 -> 9,567
 * samples); largest self change `zstd_compress` +610 (new)." on one line.
 */
void
report_add_verdict(struct buf *b, const struct report *rep, const struct report_style *st)
{
	const struct summary *s = &rep->sum;
	size_t gates = rep->ngates, failed = rep->failed;
	buf_printf(
	        b, "%sVerdict: %s%s: ", st->strong, report_verdict_name(rep->verdict), st->strong);
	if (gates > 0 && failed > 0) {
		buf_printf(b, "%zu of %zu gate%s failed; ", failed, gates, gates == 1 ? "" : "s");
	} else if (gates > 0) {
		buf_printf(b, "%s passed; ",
		        gates == 1   ? "the gate"
		        : gates == 2 ? "both gates"
		                     : "all gates");
	}
	buf_adds(b, "total ");
	if (s->base_total.v > 0) {
		numfmt_report_percent(b, s->change.v / s->base_total.v * 100, true);
	} else {
		buf_adds(b, "n/a");
	}
	buf_adds(b, " (");
	report_add_amount(b, s->change, true);
	buf_addc(b, ' ');
	report_add_label(b, st, report_countname(rep->opt));
	buf_adds(b, "); ");
	const struct row *r = rep->largest;
	if (!r) {
		buf_adds(b, rep->tested ? "no function's self changed significantly."
		                        : "no function's self changed beyond the noise floor.");
	} else {
		size_t len;
		const char *name = intern_name(s->t->names, r->id, &len);
		buf_adds(b, "largest self change ");
		report_add_code_name(b, st, name, len);
		buf_addc(b, ' ');
		report_add_amount(b, r->delta, true);
		buf_adds(b, " (");
		numfmt_change_percent(b, r->base.v, r->head.v);
		buf_adds(b, ").");
	}
	add_detectable(b, rep, st);
	buf_addc(b, '\n');
}
