/*
 * report_runs: what the tests of sampled counts (one profile a side) and
 * of --runs add to the reports. The lists keep only changes the test
 * confirms (report_runs_keep); the Markdown and text reports gain a
 * "Sampling noise" or "Repeated runs" section with each listed function's
 * share of its runs (mean ± spread), the interval of the change and p;
 * the JSON summary gains the same as data ("runs").
 */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "numfmt.h"
#include "report_private.h"
#include "runs.h"
#include "xalloc.h"

bool
report_runs_keep(const struct summary *s, enum list l, uint32_t id)
{
	const struct runs *r = s->t->runs;
	switch (l) {
	case LIST_REG_SELF:
		return !r || runs_function_direction(r, id, false) > 0;
	case LIST_IMP_SELF:
		return !r || runs_function_direction(r, id, false) < 0;
	case LIST_REG_TOTAL:
		return !r || runs_function_direction(r, id, true) > 0;
	case LIST_IMP_TOTAL:
		return !r || runs_function_direction(r, id, true) < 0;
	case LIST_NEW:
	case LIST_REMOVED:
		return !r || runs_function_significant(r, id, true);
	case LIST_PATHS:
		return !r || runs_node_significant(r, id, false);
	case LIST_COUNT:
		break;
	}
	return true;
}

enum verdict
report_runs_verdict(const struct summary *s)
{
	const struct stats_counts *w = runs_whole(s->t->runs);
	double larger = w->mean[0] > w->mean[1] ? w->mean[0] : w->mean[1];
	/* The mean totals, not the sums: the sides may have different run counts. */
	if (w->p >= runs_alpha(s->t->runs) || fabs(w->diff) <= s->t->opt.min_delta * larger) {
		return VERDICT_NEUTRAL;
	}
	return w->diff > 0 ? VERDICT_REGRESSION : VERDICT_IMPROVEMENT;
}

/* The (function, measure) pairs the section lists: those of the tables. */
static const enum list shown_lists[] = {
        LIST_REG_SELF, LIST_IMP_SELF, LIST_REG_TOTAL, LIST_IMP_TOTAL};

/* A side's share: "5.26%" for one run, "5.26% ± 0.12 pp" for several. */
static void
add_share(struct buf *b, double mean, double sd, size_t runs)
{
	numfmt_report_number(b, mean * 100, 2, false, false);
	buf_addc(b, '%');
	if (runs > 1) {
		buf_adds(b, " \u00b1 ");
		numfmt_report_number(b, sd * 100, 2, false, false);
		buf_adds(b, " pp");
	}
}

static void
add_p(struct buf *b, double p)
{
	if (p < 0.0001) {
		buf_adds(b, "<0.0001");
	} else {
		buf_add_double(b, p, 4);
	}
}

/* Change in pp and its interval: "+1.19 pp [+1.02, +1.36]". */
static void
add_change(struct buf *b, const struct stats_counts *w)
{
	numfmt_report_number(b, w->diff * 100, 2, false, true);
	buf_adds(b, " pp");
	buf_adds(b, " [");
	numfmt_report_number(b, w->lo * 100, 2, false, true);
	buf_adds(b, ", ");
	numfmt_report_number(b, w->hi * 100, 2, false, true);
	buf_addc(b, ']');
}

/* Functions whose self changed beyond the noise floor but not significantly. */
static size_t
not_significant(const struct summary *s)
{
	size_t n = 0;
	for (uint32_t id = 0; id < s->nnames; id++) {
		const struct fn fv = report_fn(s, id), *f = &fv;
		double d = report_amount(s, f->self[SIDE_HEAD], SIDE_HEAD).v -
		           report_amount(s, f->self[SIDE_BASE], SIDE_BASE).v;
		n += f->seen && fabs(d) > s->floor &&
		     !runs_function_significant(s->t->runs, id, false);
	}
	return n;
}

void
report_runs_init(struct runs_report *rr, const struct summary *s, const struct report_options *opt)
{
	const struct runs *r = s->t->runs;
	memset(rr, 0, sizeof(*rr));
	if (!r || !s->differential) {
		return;
	}
	rr->shown = true;
	rr->single = runs_single(r);
	rr->alpha = runs_alpha(r);
	rr->whole = *runs_whole(r);
	rr->not_significant = not_significant(s);
	for (int side = 0; side < 2; side++) {
		rr->runs[side] = runs_count(r, (enum side)side);
		rr->identical[side] = runs_identical(r, (enum side)side);
	}
	size_t top = report_top(opt), count = 0;
	for (size_t li = 0; li < sizeof(shown_lists) / sizeof(shown_lists[0]); li++) {
		size_t k = s->count[shown_lists[li]];
		count += k < top ? k : top;
	}
	rr->rows = xcalloc(count ? count : 1, sizeof(*rr->rows));
	for (size_t li = 0; li < sizeof(shown_lists) / sizeof(shown_lists[0]); li++) {
		enum list l = shown_lists[li];
		bool total = l == LIST_REG_TOTAL || l == LIST_IMP_TOTAL;
		for (size_t i = 0; i < s->count[l] && i < top; i++) {
			struct runs_row *row = &rr->rows[rr->nrows++];
			row->id = s->rows[l][i].id;
			row->total = total;
			runs_function(r, row->id, total, &row->c);
		}
	}
}

void
report_runs_finish(struct runs_report *rr)
{
	free(rr->rows);
}

static void
add_intro(struct buf *b, const struct runs_report *rr, const struct report_style *st)
{
	if (rr->single) {
		st->heading(b, "Sampling noise", NULL);
		buf_adds(b, "One profile a side: each function's count against its profile's "
		            "total, by an exact binomial test (sampling noise only; how much "
		            "runs differ needs --runs). Changes not significant at p < ");
	} else {
		st->heading(b, "Repeated runs", NULL);
		buf_printf(b,
		        "%zu base and %zu head runs; each function's count against its runs' "
		        "totals, by a test on counts (exact at the Poisson floor, the runs' "
		        "spread above it). Changes not significant at p < ",
		        rr->runs[SIDE_BASE], rr->runs[SIDE_HEAD]);
	}
	buf_add_double(b, rr->alpha, 4);
	size_t n = rr->not_significant;
	buf_printf(b,
	        " are left out of the lists and trip no gate (%zu function%s whose self "
	        "changed beyond the noise floor).\n",
	        n, n == 1 ? "" : "s");
	for (int side = 0; side < 2; side++) {
		if (rr->identical[side]) {
			buf_printf(b,
			        "The %s runs are identical (the same file given again?): they show "
			        "no spread, so the test falls back to the Poisson floor.\n",
			        side == SIDE_BASE ? "base" : "head");
		}
	}
}

#define RUNS_COLUMNS 6

/* One row's cells: name, measure, base, head, change, p. */
static void
row_cells(const struct summary *s, const struct runs_report *rr, const struct runs_row *row,
        const struct report_style *st, struct buf *c)
{
	const struct stats_counts *w = &row->c;
	size_t len;
	const char *name = intern_name(s->t->names, row->id, &len);
	report_add_code_name(&c[0], st, name, len);
	buf_adds(&c[1], row->total ? "total" : "self");
	add_share(&c[2], w->mean[SIDE_BASE], w->sd[SIDE_BASE], rr->runs[SIDE_BASE]);
	add_share(&c[3], w->mean[SIDE_HEAD], w->sd[SIDE_HEAD], rr->runs[SIDE_HEAD]);
	add_change(&c[4], w);
	add_p(&c[5], w->p);
}

void
report_add_runs(struct buf *b, const struct report *r, const struct report_style *st)
{
	const struct runs_report *rr = &r->runs;
	if (!rr->shown) {
		return;
	}
	add_intro(b, rr, st);
	static const char *const head[RUNS_COLUMNS] = {
	        "Function", "Measure", "Base share", "Head share", "Change (pp)", "p"};
	size_t n = rr->nrows;
	if (n == 0) {
		return;
	}
	struct buf *c = xmalloc(n * RUNS_COLUMNS * sizeof(struct buf));
	for (size_t i = 0; i < n * RUNS_COLUMNS; i++) {
		buf_init(&c[i]);
		buf_add(&c[i], "", 0);
	}
	for (size_t i = 0; i < n; i++) {
		row_cells(&r->sum, rr, &rr->rows[i], st, &c[i * RUNS_COLUMNS]);
	}
	buf_adds(b, st->paragraph_break);
	size_t shown = st->grid(b, head, c, n, RUNS_COLUMNS, 3u);
	if (shown < n) {
		report_note(b, st, NOTE_SHOWING, shown, n);
	}
	for (size_t i = 0; i < n * RUNS_COLUMNS; i++) {
		buf_finish(&c[i]);
	}
	free(c);
}

static void
json_counts(struct buf *b, const struct stats_counts *w)
{
	buf_adds(b, "\"base_mean\":");
	buf_add_double(b, w->mean[SIDE_BASE], 9);
	buf_adds(b, ",\"base_sd\":");
	buf_add_double(b, w->sd[SIDE_BASE], 9);
	buf_adds(b, ",\"head_mean\":");
	buf_add_double(b, w->mean[SIDE_HEAD], 9);
	buf_adds(b, ",\"head_sd\":");
	buf_add_double(b, w->sd[SIDE_HEAD], 9);
	buf_adds(b, ",\"change\":");
	buf_add_double(b, w->diff, 9);
	buf_adds(b, ",\"ci_low\":");
	buf_add_double(b, w->lo, 9);
	buf_adds(b, ",\"ci_high\":");
	buf_add_double(b, w->hi, 9);
	buf_adds(b, ",\"p\":");
	buf_add_double(b, w->p, 9);
	buf_adds(b, ",\"p_up\":");
	buf_add_double(b, w->p_up, 9);
	buf_adds(b, ",\"dispersion\":");
	buf_add_double(b, w->phi, 6);
}

void
report_runs_json(struct buf *b, const struct report *r)
{
	const struct runs_report *rr = &r->runs;
	if (!rr->shown) {
		return;
	}
	buf_printf(b, ",\"runs\":{\"base_runs\":%zu,\"head_runs\":%zu,\"test\":\"counts\"",
	        rr->runs[SIDE_BASE], rr->runs[SIDE_HEAD]);
	buf_adds(b, ",\"significance\":");
	buf_add_double(b, rr->alpha, 6);
	buf_adds(b, ",\"whole\":{");
	json_counts(b, &rr->whole);
	buf_printf(b, "},\"not_significant\":%zu,\"functions\":[", rr->not_significant);
	for (size_t i = 0; i < rr->nrows; i++) {
		const struct runs_row *row = &rr->rows[i];
		size_t len;
		const char *name = intern_name(r->sum.t->names, row->id, &len);
		buf_adds(b, i ? ",{\"name\":" : "{\"name\":");
		escape_json_string(b, name, len);
		buf_adds(b, row->total ? ",\"measure\":\"total\"," : ",\"measure\":\"self\",");
		json_counts(b, &row->c);
		buf_addc(b, '}');
	}
	buf_adds(b, "]}");
}
