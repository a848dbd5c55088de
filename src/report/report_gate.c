#include "report.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "numfmt.h"
#include "report_private.h"
#include "runs.h"
#include "xalloc.h"

/* ---- gates ------------------------------------------------------------ */

size_t
report_gates_count(const struct options *opt)
{
	return (opt->fail_on_regression >= 0) + (opt->fail_on_function >= 0) +
	       (opt->fail_on_new >= 0) + opt->fail_on_count;
}

bool
report_gates_on(const struct options *opt)
{
	return report_gates_count(opt) > 0;
}

/* Gate i of report_gates_count, in the fixed order. */
static void
gate_pick(const struct options *opt, size_t i, struct gate_eval *ev)
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
big_enough(const struct summary *s, const struct options *opt, const struct count *c)
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

/* --runs: only a change the test confirms, on the gated measure, may trip. */
static bool
runs_confirm(const struct summary *s, const struct gate_eval *ev, uint32_t id)
{
	bool self = ev->kind == GATE_FUNCTION || (ev->kind == GATE_PATTERN && !ev->pattern->total);
	return !s->t->runs || runs_function_significant(s->t->runs, id, !self);
}

/* Whether function id trips the gate; *key ranks it among the offenders. */
static bool
trips(const struct summary *s, const struct options *opt, const struct gate_eval *ev, uint32_t id,
        double *key)
{
	const struct fn fv = report_fn(s, id), *f = &fv;
	if (!runs_confirm(s, ev, id)) {
		return false;
	}
	switch (ev->kind) {
	case GATE_REGRESSION:
		*key = report_amount(s, f->total[SIDE_HEAD], SIDE_HEAD).v -
		       report_amount(s, f->total[SIDE_BASE], SIDE_BASE).v;
		return *key * 100 > ev->limit * s->base_total.v;
	case GATE_FUNCTION:
		return big_enough(s, opt, f->self) && grew(s, f->self, ev->limit, key);
	case GATE_NEW:
		*key = count_to_double(f->total[SIDE_HEAD]);
		return count_is_zero(f->total[SIDE_BASE]) && *key > ev->limit * s->head_total.v;
	case GATE_PATTERN: {
		const struct count *c = ev->pattern->total ? f->total : f->self;
		return big_enough(s, opt, c) && grew(s, c, ev->limit, key) &&
		       name_matches(s, id, ev->pattern->glob);
	}
	}
	return false;
}

void
report_gate_eval(const struct summary *s, const struct options *opt, size_t i, struct gate_eval *ev)
{
	*ev = (struct gate_eval){0};
	gate_pick(opt, i, ev);
	if (!s->differential) {
		return;
	}
	if (ev->kind == GATE_REGRESSION) {
		double d = s->change.v;
		if (d > 0 && d * 100 > ev->limit * s->base_total.v &&
		        (!s->t->runs || report_runs_verdict(s) == VERDICT_REGRESSION)) {
			const struct tree_node *root = tree_node(s->t, TREE_ROOT);
			const struct count total[2] = {tree_node_total(s->t, root, SIDE_BASE),
			        tree_node_total(s->t, root, SIDE_HEAD)};
			push(ev, s, GATE_WHOLE, total, HUGE_VAL);
		}
	}
	for (uint32_t id = 0; id < s->nnames; id++) {
		const struct fn fv = report_fn(s, id), *f = &fv;
		double key;
		if (f->seen && trips(s, opt, ev, id, &key)) {
			push(ev, s, id,
			        ev->kind == GATE_FUNCTION ||
			                        (ev->kind == GATE_PATTERN && !ev->pattern->total)
			                ? f->self
			                : f->total,
			        key);
		}
	}
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
report_gate_title(struct buf *b, const struct gate_eval *ev, bool md)
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
		report_add_name(
		        &t, ev->pattern->glob, strlen(ev->pattern->glob), MD_NAME_CAP, false);
		buf_adds(&t, ev->pattern->total ? ":total:+" : ":+");
	}
	numfmt_report_number(&t, ev->limit, 6, true, false);
	buf_adds(&t, ev->kind == GATE_PATTERN ? "%" : "");
	if (md) {
		escape_md_code(b, t.data, t.len);
	} else {
		buf_add(b, t.data, t.len);
	}
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
		report_gate_title(b, ev, false);
	}
	buf_addc(b, ')');
}

void
report_gate_line(struct buf *b, const struct summary *s, const struct gate_eval *ev,
        const struct offender *o, bool md, bool named)
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
		report_add_name(b, name, len, MD_NAME_CAP, md);
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
		report_gate_line(why, s, ev, o, false, true);
		buf_addc(why, '\n');
	}
	if (over > 0) {
		buf_printf(why, "regression: %zu more functions over the limit\n", over);
	}
}

bool
report_gates(const struct tree *t, const struct options *opt, struct buf *why)
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

bool
report_gate(const struct tree *t, double pct, struct buf *why)
{
	struct options opt;
	options_init(&opt);
	opt.fail_on_regression = pct;
	bool failed = report_gates(t, &opt, why);
	options_finish(&opt);
	return failed;
}

/* ---- verdict ---------------------------------------------------------- */

void
report_gates_tally(
        const struct summary *s, const struct options *opt, size_t *gates, size_t *failed)
{
	*gates = report_gates_count(opt);
	*failed = 0;
	for (size_t i = 0; i < *gates; i++) {
		struct gate_eval ev;
		report_gate_eval(s, opt, i, &ev);
		*failed += ev.count > 0;
		report_gate_finish(&ev);
	}
}

/*
 * With gates, they say what a regression is: a tripped gate, and nothing
 * else. Without, an overall change beyond the noise floor (--min-delta of
 * the larger total) decides; a faster run is an improvement either way.
 */
enum verdict
report_verdict(const struct summary *s, size_t gates, size_t failed)
{
	if (failed > 0) {
		return VERDICT_REGRESSION;
	}
	if (s->t->runs && gates == 0) {
		return report_runs_verdict(s);
	}
	double floor = s->t->opt.min_delta * s->larger.v;
	if (s->change.v < -floor) {
		return VERDICT_IMPROVEMENT;
	}
	return gates == 0 && s->change.v > floor ? VERDICT_REGRESSION : VERDICT_NEUTRAL;
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

void
report_add_code_name(struct buf *b, const char *raw, size_t len, bool md)
{
	if (!md) {
		escape_terminal(b, raw, len, TEXT_NAME_CAP);
		return;
	}
	struct buf name;
	buf_init(&name);
	buf_add(&name, "", 0);
	escape_terminal(&name, raw, len, MD_NAME_CAP);
	escape_md_code(b, name.data, name.len);
	buf_finish(&name);
}

/*
 * "Verdict: regression: 1 of 2 gates failed; total +0.3% (9,535 -> 9,567
 * samples); largest self change `zstd_compress` +610 (new)." on one line.
 */
void
report_add_verdict(struct buf *b, const struct summary *s, const struct options *opt, bool md)
{
	size_t gates, failed;
	report_gates_tally(s, opt, &gates, &failed);
	buf_adds(b, md ? "**Verdict: " : "Verdict: ");
	buf_adds(b, report_verdict_name(report_verdict(s, gates, failed)));
	buf_adds(b, md ? "**: " : ": ");
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
	report_add_label(b, report_countname(opt), md);
	buf_adds(b, "); ");
	enum list l;
	const struct row *r = report_largest_self(s, &l);
	if (!r) {
		buf_adds(b, "no function's self changed beyond the noise floor.\n");
		return;
	}
	size_t len;
	const char *name = intern_name(s->t->names, r->id, &len);
	buf_adds(b, "largest self change ");
	report_add_code_name(b, name, len, md);
	buf_addc(b, ' ');
	report_add_amount(b, r->delta, true);
	buf_adds(b, " (");
	numfmt_change_percent(b, r->base.v, r->head.v);
	buf_adds(b, ").\n");
}

/* One gate's status and offenders; false once the section is over budget. */
static bool
section_gate(struct buf *b, size_t start, const struct summary *s, const struct options *opt,
        const struct gate_eval *ev, bool md)
{
	buf_adds(b, md ? "- " : "  ");
	report_gate_title(b, ev, md);
	if (ev->count == 0) {
		buf_adds(b, ": passed\n");
	} else {
		buf_printf(b, md ? ": **failed** (%zu)\n" : ": failed (%zu)\n", ev->count);
	}
	size_t shown = 0;
	for (; shown < ev->count && shown < GATE_MAX_LINES; shown++) {
		if (b->len - start > MD_TABLE_BUDGET) {
			break;
		}
		buf_adds(b, md ? "  - " : "    ");
		report_gate_line(b, s, ev, &ev->o[shown], md, false);
		buf_addc(b, '\n');
	}
	if (shown < ev->count) {
		buf_printf(
		        b, md ? "  - _and %zu more._\n" : "    and %zu more\n", ev->count - shown);
	}
	return b->len - start <= MD_TABLE_BUDGET;
}

/* The gates section of the Markdown and text reports, when gates were given. */
void
report_add_gates(struct buf *b, const struct summary *s, const struct options *opt, bool md)
{
	size_t n = report_gates_count(opt);
	if (n == 0 || !s->differential) {
		return;
	}
	buf_adds(b, md ? "\n#### Gates\n\n" : "\nGates\n");
	size_t start = b->len, i = 0;
	for (; i < n; i++) {
		struct gate_eval ev;
		report_gate_eval(s, opt, i, &ev);
		bool more = section_gate(b, start, s, opt, &ev, md);
		report_gate_finish(&ev);
		if (!more) {
			i++;
			break;
		}
	}
	if (i < n) {
		buf_printf(b,
		        md ? "\n_%zu more gates not shown._\n" : "  (%zu more gates not shown)\n",
		        n - i);
	}
}
