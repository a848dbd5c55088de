#include "report.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "numfmt.h"
#include "report_private.h"
#include "runs.h"
#include "stats.h"
#include "xalloc.h"

/* ---- gates ------------------------------------------------------------ */

size_t
report_gates_count(const struct report_options *opt)
{
	return (opt->fail_on_regression >= 0) + (opt->fail_on_function >= 0) +
	       (opt->fail_on_new >= 0) + opt->fail_on_count;
}

bool
report_gates_on(const struct report_options *opt)
{
	return report_gates_count(opt) > 0;
}

/* Gate i of report_gates_count, in the fixed order. */
static void
gate_pick(const struct report_options *opt, size_t i, struct gate_eval *ev)
{
	const struct {
		enum gate_kind kind;
		double limit;
	} fixed[] = {
	        {GATE_REGRESSION, opt->fail_on_regression},
	        {GATE_FUNCTION, opt->fail_on_function},
	        {GATE_NEW, opt->fail_on_new},
	};
	for (size_t k = 0; k < sizeof(fixed) / sizeof(fixed[0]); k++) {
		if (fixed[k].limit < 0) {
			continue;
		}
		if (i-- == 0) {
			ev->kind = fixed[k].kind;
			ev->limit = fixed[k].limit;
			return;
		}
	}
	ev->kind = GATE_PATTERN;
	ev->pattern = &opt->fail_on[i];
	ev->limit = ev->pattern->pct;
}

static void
push(struct gate_eval *ev, const struct summary *s, uint32_t id, const struct count *c, double key)
{
	ev->o = xgrow(ev->o, &ev->cap, ev->count + 1, sizeof(*ev->o));
	struct offender *o = &ev->o[ev->count++];
	o->id = id;
	o->order = id == GATE_WHOLE ? 0 : s->ranks[id];
	o->key = key;
	o->base = report_amount(s, c[SIDE_BASE], SIDE_BASE);
	o->head = report_amount(s, c[SIDE_HEAD], SIDE_HEAD);
	o->delta = report_change(o->base, o->head);
}

static int
compare_offenders(const void *pa, const void *pb)
{
	const struct offender *a = pa, *b = pb;
	if (a->key != b->key) {
		return a->key > b->key ? -1 : 1;
	}
	return a->order < b->order ? -1 : a->order > b->order;
}

/*
 * The gated measure's share of the larger total, on the larger side:
 * below --gate-min-share no per-function gate trips.
 */
static bool
big_enough(const struct summary *s, const struct report_options *opt, const struct count *c)
{
	double b = report_amount(s, c[SIDE_BASE], SIDE_BASE).v;
	double h = report_amount(s, c[SIDE_HEAD], SIDE_HEAD).v;
	return (b > h ? b : h) >= opt->gate_min_share * s->larger.v;
}

/*
 * Growth beyond pct percent of the function's own base: delta * 100 > pct *
 * base avoids rounding pct / 100 at the threshold. Growth from nothing is
 * more than any percentage. The key ranks the largest growth first.
 */
static bool
grew(const struct summary *s, const struct count *c, double pct, double *key)
{
	double b = report_amount(s, c[SIDE_BASE], SIDE_BASE).v;
	double d = report_amount(s, c[SIDE_HEAD], SIDE_HEAD).v - b;
	*key = d;
	return d > 0 && (b == 0 || d * 100 > pct * b);
}

static bool
name_matches(const struct summary *s, uint32_t id, const char *glob)
{
	size_t len;
	const char *raw = intern_name(s->t->names, id, &len);
	char *name = xmemdup(raw, len);
	bool match = fnmatch(glob, name, 0) == 0;
	free(name);
	return match;
}

/* Whether the gate measures self (else total). */
static bool
gate_self(const struct gate_eval *ev)
{
	return ev->kind == GATE_FUNCTION || (ev->kind == GATE_PATTERN && !ev->pattern->total);
}

/* The gated measure's counts of function f. */
static const struct count *
gated(const struct gate_eval *ev, const struct fn *f)
{
	return gate_self(ev) ? f->self : f->total;
}

/*
 * Whether the gate looks at function id at all: the family its test is
 * corrected over. A function below --gate-min-share, or one a pattern
 * does not match, can never trip the gate, so it costs the others nothing.
 */
static bool
examines(const struct summary *s, const struct report_options *opt, const struct gate_eval *ev,
        uint32_t id)
{
	const struct fn fv = report_fn(s, id), *f = &fv;
	if (!f->seen) {
		return false;
	}
	switch (ev->kind) {
	case GATE_REGRESSION: {
		/* Only a function holding PCT of the base total can grow by that. */
		double h = report_amount(s, f->total[SIDE_HEAD], SIDE_HEAD).v;
		return h * 100 > ev->limit * s->base_total.v;
	}
	case GATE_FUNCTION:
		return big_enough(s, opt, f->self);
	case GATE_NEW:
		return count_is_zero(f->total[SIDE_BASE]) && !count_is_zero(f->total[SIDE_HEAD]);
	case GATE_PATTERN:
		return big_enough(s, opt, gated(ev, f)) && name_matches(s, id, ev->pattern->glob);
	}
	return false;
}

/* Whether function id's estimate is over the gate's limit; *key ranks it. */
static bool
over_limit(const struct summary *s, const struct gate_eval *ev, uint32_t id, double *key)
{
	const struct fn fv = report_fn(s, id), *f = &fv;
	switch (ev->kind) {
	case GATE_REGRESSION:
		*key = report_amount(s, f->total[SIDE_HEAD], SIDE_HEAD).v -
		       report_amount(s, f->total[SIDE_BASE], SIDE_BASE).v;
		return *key * 100 > ev->limit * s->base_total.v;
	case GATE_NEW:
		*key = count_to_double(f->total[SIDE_HEAD]);
		return *key > ev->limit * s->head_total.v;
	case GATE_FUNCTION:
	case GATE_PATTERN:
		return grew(s, gated(ev, f), ev->limit, key);
	}
	return false;
}

/* The whole profile's estimate over --fail-on-regression's limit. */
static bool
whole_over_limit(const struct summary *s, const struct gate_eval *ev)
{
	double d = s->change.v;
	return d > 0 && d * 100 > ev->limit * s->base_total.v;
}

/*
 * The ratio of shares (head / base) that is the gate's limit: a function
 * grew by more than PCT of its own base (as compared: scaled by
 * base_scale) exactly when its share grew by more than (1 + PCT/100)
 * times base_scale times base total / head total (raw totals).
 */
static double
share_limit(const struct summary *s, const struct gate_eval *ev)
{
	const struct tree_node *root = tree_node(s->t, TREE_ROOT);
	double a = count_to_double(tree_node_total(s->t, root, SIDE_BASE));
	double b = count_to_double(tree_node_total(s->t, root, SIDE_HEAD));
	if (!(a > 0) || !(b > 0)) {
		return 1;
	}
	return (1 + ev->limit / 100) * s->t->base_scale * a / b;
}

/*
 * The one-sided p value that a member of the family grew past the gate's
 * limit (0 for exact counts: every change is real). Growth gates test the
 * limit itself (H0: grew by PCT or less), so that noise, which leaves the
 * truth at no change, trips them far less often than alpha; the whole
 * profile is tested the same way on the runs' totals. --fail-on-regression
 * on a function's total and --fail-on-new ask whether it grew at all.
 */
static double
growth_p(const struct summary *s, const struct gate_eval *ev, uint32_t id)
{
	const struct runs *r = s->t->runs;
	if (!r) {
		return 0;
	}
	if (id == GATE_WHOLE) {
		return stats_counts_growth_p(runs_whole(r), 1 + ev->limit / 100);
	}
	struct stats_counts c;
	runs_function(r, id, !gate_self(ev), &c);
	if (ev->kind == GATE_FUNCTION || ev->kind == GATE_PATTERN) {
		return stats_counts_growth_p(&c, share_limit(s, ev));
	}
	return c.p_up;
}

struct member {
	uint32_t id;
	uint32_t order;
	double p;
};

static int
compare_members(const void *pa, const void *pb)
{
	const struct member *a = pa, *b = pb;
	if (a->p != b->p) {
		return a->p < b->p ? -1 : 1;
	}
	return a->order < b->order ? -1 : a->order > b->order;
}

/*
 * Holm's step-down over the family: the smallest p against alpha / m, the
 * next against alpha / (m - 1), ... until one fails. It keeps the chance
 * that a gate trips on any unchanged function at alpha, which is the
 * error a CI gate must bound (Benjamini-Hochberg bounds the share of
 * false offenders among many, and lets a gate trip more often on noise).
 *
 * A function whose p is over GATE_LAMBDA (its estimate at or below the
 * limit) can never be confirmed, yet would cost every other its share of
 * alpha. Such p values are dropped and the rest doubled (p / lambda): a
 * p value of a true null, conditional on being at most lambda, is still
 * uniform or larger (the conditional test of Zhao, Small and Su, 2019), so
 * the bound holds, and the family is what could trip the gate. Returns
 * how many members, first in m's order, are confirmed; *tested is the
 * family's size.
 */
#define GATE_LAMBDA 0.5

static size_t
holm(struct member *m, size_t n, double alpha, size_t *tested)
{
	qsort(m, n, sizeof(*m), compare_members);
	size_t family = 0;
	while (family < n && m[family].p <= GATE_LAMBDA) {
		family++;
	}
	*tested = family;
	size_t k = 0;
	while (k < family && m[k].p / GATE_LAMBDA <= alpha / (double)(family - k)) {
		k++;
	}
	return k;
}

static struct member *
family(const struct summary *s, const struct report_options *opt, const struct gate_eval *ev,
        size_t *n)
{
	struct member *m = xmalloc(((size_t)s->nnames + 1) * sizeof(*m));
	*n = 0;
	if (ev->kind == GATE_REGRESSION) {
		m[(*n)++] = (struct member){GATE_WHOLE, 0, growth_p(s, ev, GATE_WHOLE)};
	}
	for (uint32_t id = 0; id < s->nnames; id++) {
		if (examines(s, opt, ev, id)) {
			m[(*n)++] = (struct member){id, s->ranks[id] + 1, growth_p(s, ev, id)};
		}
	}
	return m;
}

/* One member over the limit: an offender when confirmed, else counted. */
static void
judge(const struct summary *s, struct gate_eval *ev, uint32_t id, bool confirmed)
{
	double key;
	bool over;
	const struct count *c = NULL;
	struct count whole[2];
	if (id == GATE_WHOLE) {
		const struct tree_node *root = tree_node(s->t, TREE_ROOT);
		whole[SIDE_BASE] = tree_node_total(s->t, root, SIDE_BASE);
		whole[SIDE_HEAD] = tree_node_total(s->t, root, SIDE_HEAD);
		over = whole_over_limit(s, ev);
		key = HUGE_VAL;
		c = whole;
	} else {
		const struct fn f = report_fn(s, id);
		over = over_limit(s, ev, id, &key);
		c = ev->kind == GATE_FUNCTION || ev->kind == GATE_PATTERN ? gated(ev, &f) : f.total;
		whole[0] = c[0];
		whole[1] = c[1];
		c = whole;
	}
	if (!over) {
		return;
	}
	if (confirmed) {
		push(ev, s, id, c, key);
	} else {
		ev->unconfirmed++;
	}
}

void
report_gate_eval(
        const struct summary *s, const struct report_options *opt, size_t i, struct gate_eval *ev)
{
	*ev = (struct gate_eval){0};
	gate_pick(opt, i, ev);
	if (!s->differential) {
		return;
	}
	size_t n;
	struct member *m = family(s, opt, ev, &n);
	ev->examined = n;
	size_t confirmed = holm(m, n, s->t->runs ? runs_alpha(s->t->runs) : 1, &ev->family);
	for (size_t k = 0; k < n; k++) {
		judge(s, ev, m[k].id, k < confirmed);
	}
	free(m);
	/* The whole profile stays first: its key is infinite. */
	if (ev->count > 1) {
		qsort(ev->o, ev->count, sizeof(*ev->o), compare_offenders);
	}
}

void
report_gate_finish(struct gate_eval *ev)
{
	free(ev->o);
	ev->o = NULL;
	ev->count = ev->cap = 0;
}

static void
add_limit(struct buf *b, double v)
{
	numfmt_report_number(b, v, 6, true, false);
	buf_addc(b, '%');
}

void
report_gate_title(struct buf *b, const struct gate_eval *ev, const struct report_style *st)
{
	static const char *const names[] = {
	        [GATE_REGRESSION] = "--fail-on-regression ",
	        [GATE_FUNCTION] = "--fail-on-function-regression ",
	        [GATE_NEW] = "--fail-on-new ",
	        [GATE_PATTERN] = "--fail-on ",
	};
	struct buf t;
	buf_init(&t);
	buf_adds(&t, names[ev->kind]);
	if (ev->kind == GATE_PATTERN) {
		escape_terminal(&t, ev->pattern->glob, strlen(ev->pattern->glob), MD_NAME_CAP);
		buf_adds(&t, ev->pattern->total ? ":total:+" : ":+");
	}
	numfmt_report_number(&t, ev->limit, 6, true, false);
	buf_adds(&t, ev->kind == GATE_PATTERN ? "%" : "");
	st->code(b, t.data, t.len);
	buf_finish(&t);
}

/* "NAME self +62.2% of its base (+560, limit 5%)", or new from nothing. */
static void
growth_line(struct buf *b, const struct summary *s, const struct offender *o, const char *what,
        double limit)
{
	buf_adds(b, what);
	if (o->base.v > 0) {
		numfmt_report_percent(b, o->delta.v / o->base.v * 100, true);
		buf_adds(b, " of its base (");
		report_add_amount(b, o->delta, true);
		buf_adds(b, ", limit ");
		add_limit(b, limit);
	} else {
		buf_adds(b, "new (");
		report_add_amount(b, o->delta, true);
		buf_adds(b, ", ");
		numfmt_report_percent(b, report_points(s, o->head.v), false);
		buf_adds(b, " of the larger total");
	}
}

/* The gate's name closes the line when it stands alone (stderr). */
static void
close_line(struct buf *b, const struct gate_eval *ev, bool named)
{
	if (named) {
		buf_adds(b, ", ");
		report_gate_title(b, ev, &report_text_style);
	}
	buf_addc(b, ')');
}

void
report_gate_line(struct buf *b, const struct summary *s, const struct gate_eval *ev,
        const struct offender *o, const struct report_style *st, bool named)
{
	buf_adds(b, "regression: ");
	if (ev->kind == GATE_NEW) {
		buf_adds(b, "new function ");
	}
	if (o->id == GATE_WHOLE) {
		buf_adds(b, "whole profile");
	} else {
		size_t len;
		const char *name = intern_name(s->t->names, o->id, &len);
		report_add_code(b, st, name, len, MD_NAME_CAP);
	}
	switch (ev->kind) {
	case GATE_REGRESSION:
		buf_adds(b, " total ");
		if (s->base_total.v > 0) {
			numfmt_report_percent(b, o->delta.v / s->base_total.v * 100, true);
			buf_adds(b, " of base total");
		} else {
			report_add_amount(b, o->delta, true);
			buf_adds(b, " over an empty base");
		}
		buf_adds(b, " (");
		report_add_amount(b, o->delta, true);
		buf_adds(b, ", limit ");
		add_limit(b, ev->limit);
		buf_addc(b, ')');
		return;
	case GATE_NEW:
		buf_adds(b, " total ");
		numfmt_report_percent(
		        b, s->head_total.v > 0 ? o->head.v / s->head_total.v * 100 : 0, false);
		buf_adds(b, " of head total (");
		report_add_amount(b, o->head, false);
		buf_adds(b, ", limit ");
		add_limit(b, ev->limit * 100);
		close_line(b, ev, named);
		return;
	case GATE_FUNCTION:
		growth_line(b, s, o, " self ", ev->limit);
		close_line(b, ev, named);
		return;
	case GATE_PATTERN:
		growth_line(b, s, o, ev->pattern->total ? " total " : " self ", ev->limit);
		close_line(b, ev, named);
		return;
	}
}

/* Offender lines for stderr, at most GATE_MAX_LINES a gate. */
static void
gate_lines(struct buf *why, const struct summary *s, const struct gate_eval *ev)
{
	size_t lines = 0, over = 0;
	for (size_t k = 0; k < ev->count; k++) {
		const struct offender *o = &ev->o[k];
		/* The whole profile's line is extra, as it always was. */
		if (o->id != GATE_WHOLE && lines++ >= GATE_MAX_LINES) {
			over++;
			continue;
		}
		report_gate_line(why, s, ev, o, &report_text_style, true);
		buf_addc(why, '\n');
	}
	if (over > 0) {
		buf_printf(why, "regression: %zu more functions over the limit\n", over);
	}
}

bool
report_gates(const struct tree *t, const struct report_options *opt, struct buf *why)
{
	if (!t->differential) {
		return false;
	}
	/* The gates' thresholds are the user's, not the noise floor. */
	struct summary s;
	report_summary_init(&s, t, false);
	bool failed = false;
	for (size_t i = 0; i < report_gates_count(opt); i++) {
		struct gate_eval ev;
		report_gate_eval(&s, opt, i, &ev);
		failed |= ev.count > 0;
		gate_lines(why, &s, &ev);
		report_gate_finish(&ev);
	}
	report_summary_finish(&s);
	return failed;
}

/* Whether any function of either profile has a name glob matches. */
static bool
matches_any(const struct tree *t, const bool *named, const char *glob)
{
	uint32_t n = intern_count(t->names);
	for (uint32_t id = 0; id < n; id++) {
		if (!named[id]) {
			continue;
		}
		size_t len;
		const char *raw = intern_name(t->names, id, &len);
		char *name = xmemdup(raw, len);
		bool match = fnmatch(glob, name, 0) == 0;
		free(name);
		if (match) {
			return true;
		}
	}
	return false;
}

bool
report_gates_check(const struct tree *t, const struct report_options *opt, struct buf *why)
{
	if (!t->differential) {
		buf_adds(why, "the gates (--fail-on-regression, --fail-on-function-regression, "
		              "--fail-on-new, --fail-on) compare two profiles, and one was given");
		return false;
	}
	uint32_t n = intern_count(t->names);
	bool *named = xcalloc(n ? n : 1, sizeof(bool));
	for (size_t id = 1; id < t->node_count; id++) {
		named[t->nodes[id].name] = true;
	}
	bool ok = true;
	for (size_t i = 0; i < opt->fail_on_count && ok; i++) {
		const char *glob = opt->fail_on[i].glob;
		ok = matches_any(t, named, glob);
		if (!ok) {
			buf_adds(why, "--fail-on: the pattern '");
			escape_diag(why, glob, strlen(glob));
			buf_adds(why, "' matches no function of either profile");
		}
	}
	free(named);
	return ok;
}

/* The heaviest member (by its gated base count) of the gate's family. */
static uint32_t
heaviest_member(
        const struct summary *s, const struct report_options *opt, const struct gate_eval *ev)
{
	uint32_t best = UINT32_MAX;
	double most = 0;
	for (uint32_t id = 0; id < s->nnames; id++) {
		if (!examines(s, opt, ev, id)) {
			continue;
		}
		const struct fn f = report_fn(s, id);
		double v = count_to_double(gated(ev, &f)[SIDE_BASE]);
		if (v > most) {
			most = v;
			best = id;
		}
	}
	return best;
}

/*
 * The any-function gate with one profile a side: the reach for the
 * lightest function it looks at (--gate-min-share), by sampling noise
 * alone, where the heaviest member's gives the most hopeful figure.
 */
static void
min_share_reach(struct gate_reach *rc, const struct runs *r, const struct report_options *opt,
        const struct gate_eval *ev, const struct stats_counts *c, double alpha)
{
	if (ev->kind != GATE_FUNCTION || !runs_single(r) || !(opt->gate_min_share > 0)) {
		return;
	}
	double a = opt->gate_min_share * c->A;
	double margin = stats_detectable_ratio(a, c->A, c->B, 1, alpha, REPORT_POWER);
	if (!isfinite(margin)) {
		return;
	}
	rc->min_shown = true;
	rc->min_share = opt->gate_min_share * 100;
	rc->min_grows = ((1 + ev->limit / 100) * margin - 1) * 100;
}

/*
 * What a gate on sampled counts can see, for its heaviest member: the
 * noise margin (the smallest change its test tells from none 4 times in
 * 5, at the first step of Holm's correction), the growth it then trips
 * on (the limit and the margin), and the samples or runs that would
 * bring the margin down to the limit.
 */
void
report_gate_reach(const struct summary *s, const struct report_options *opt, struct gate_eval *ev)
{
	const struct runs *r = s->t->runs;
	struct gate_reach *rc = &ev->reach;
	*rc = (struct gate_reach){0};
	if (!r || ev->kind == GATE_NEW || ev->examined == 0) {
		return;
	}
	bool whole = ev->kind == GATE_REGRESSION;
	uint32_t id = whole ? GATE_WHOLE : heaviest_member(s, opt, ev);
	if (!whole && id == UINT32_MAX) {
		return;
	}
	struct stats_counts fc;
	if (!whole) {
		runs_function(r, id, !gate_self(ev), &fc);
	}
	const struct stats_counts *c = whole ? runs_whole(r) : &fc;
	/* Were it to grow, it would join the family. */
	double alpha = runs_alpha(r) * GATE_LAMBDA / (double)(ev->family + 1);
	double margin = stats_detectable_ratio(c->a, c->A, c->B, c->phi, alpha, REPORT_POWER);
	if (!isfinite(margin)) {
		return;
	}
	double limit = 1 + ev->limit / 100;
	rc->shown = true;
	rc->id = id;
	rc->share = whole ? 0 : report_tested_share(c);
	rc->grows = (limit * margin - 1) * 100;
	rc->margin = (margin - 1) * 100;
	rc->more = margin > limit && ev->limit > 0;
	rc->single = runs_single(r);
	if (rc->more) {
		double k =
		        stats_samples_factor(c->a, c->A, c->B, c->phi, alpha, REPORT_POWER, limit);
		rc->factor = k;
		rc->runs = ceil(k * (double)runs_count(r, SIDE_BASE));
	}
	min_share_reach(rc, r, opt, ev, c, alpha);
}

/* " (2 more over the limit, not confirmed: noise at p < 0.05)" */
static void
add_unconfirmed(struct buf *b, const struct report *r, const struct gate_eval *ev)
{
	if (ev->unconfirmed == 0 || !r->tested) {
		return;
	}
	buf_printf(b, "; %zu%s over the limit but not confirmed at p < ", ev->unconfirmed,
	        ev->count ? " more" : "");
	buf_add_double(b, r->alpha, 4);
	buf_printf(b, " (%zu tested)", ev->family);
}

static void
add_gate_reach(struct buf *b, const struct summary *s, const struct gate_eval *ev,
        const struct report_style *st)
{
	const struct gate_reach *rc = &ev->reach;
	if (!rc->shown) {
		return;
	}
	buf_adds(b, st->subitem);
	buf_adds(b, st->reach_open);
	if (rc->id == GATE_WHOLE) {
		buf_adds(b, "the whole profile");
	} else {
		report_add_share_name(b, s, st, rc->id, rc->share);
		buf_adds(b, " of the samples)");
	}
	buf_adds(b, " trips it 4 times in 5 once it grows by about +");
	numfmt_report_number(b, rc->grows, 0, false, false);
	buf_adds(b, "%: the limit and a noise margin of ");
	numfmt_report_number(b, rc->margin, 0, false, false);
	buf_addc(b, '%');
	if (rc->more && rc->single) {
		buf_adds(b, "; about ");
		numfmt_report_number(b, rc->factor, 1, true, false);
		buf_adds(b, " times the samples would bring the margin down to the limit");
	} else if (rc->more) {
		buf_printf(b, "; about %.0f runs a side would bring the margin down to the limit",
		        rc->runs);
	}
	if (rc->min_shown) {
		buf_adds(b, "; a function at the minimum share (");
		numfmt_report_percent(b, rc->min_share, false);
		buf_adds(b, ") once it grows by about +");
		numfmt_report_number(b, rc->min_grows, 0, false, false);
		buf_addc(b, '%');
	}
	buf_adds(b, st->reach_close);
}

/* One gate's status and offenders; false once the section is over budget. */
static bool
section_gate(struct buf *b, size_t start, const struct report *r, const struct gate_eval *ev,
        const struct report_style *st)
{
	buf_adds(b, st->item);
	report_gate_title(b, ev, st);
	if (ev->count == 0) {
		buf_adds(b, ": passed");
	} else {
		buf_printf(b, ": %sfailed%s (%zu)", st->strong, st->strong, ev->count);
	}
	add_unconfirmed(b, r, ev);
	buf_addc(b, '\n');
	add_gate_reach(b, &r->sum, ev, st);
	size_t shown = 0;
	for (; shown < ev->count && shown < GATE_MAX_LINES; shown++) {
		if (b->len - start > MD_TABLE_BUDGET) {
			break;
		}
		buf_adds(b, st->subitem);
		report_gate_line(b, &r->sum, ev, &ev->o[shown], st, false);
		buf_addc(b, '\n');
	}
	if (shown < ev->count) {
		report_note(b, st, NOTE_AND_MORE, ev->count - shown, 0);
	}
	return b->len - start <= MD_TABLE_BUDGET;
}

/* The gates section of the Markdown and text reports, when gates were given. */
void
report_add_gates(struct buf *b, const struct report *r, const struct report_style *st)
{
	size_t n = r->ngates;
	if (n == 0 || !r->sum.differential) {
		return;
	}
	st->heading(b, "Gates", NULL);
	size_t start = b->len, i = 0;
	for (; i < n; i++) {
		if (!section_gate(b, start, r, &r->gates[i], st)) {
			i++;
			break;
		}
	}
	if (i < n) {
		report_note(b, st, NOTE_GATES_NOT_SHOWN, n - i, 0);
	}
}
