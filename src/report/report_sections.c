/*
 * report_sections: the sections a performance team writes by hand after
 * comparing with a baseline (issue 19), in the Markdown and text reports
 * and as data in the JSON summary: the hot-path changes as lines, the
 * most expensive functions of both sides side by side, what to
 * investigate, and after an improvement the command that makes the head
 * the new baseline. Numbers follow one wording (change, change %, pp).
 */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "numfmt.h"
#include "report_private.h"
#include "xalloc.h"

#define SECTION_BUDGET 4000 /* bytes of lines per section */

/* The unit after a count: " samples" (nothing when unit is NULL). */
static void
add_unit(struct buf *b, const struct report_style *st, const char *unit)
{
	if (unit) {
		buf_addc(b, ' ');
		report_add_label(b, st, unit);
	}
}

void
report_add_change_words(struct buf *b, const struct summary *s, const struct report_style *st,
        const struct count *c, const char *unit)
{
	struct amount base = report_amount(s, c[SIDE_BASE], SIDE_BASE);
	struct amount head = report_amount(s, c[SIDE_HEAD], SIDE_HEAD);
	struct amount d = report_change(base, head);
	if (base.v == 0 || head.v == 0) {
		bool is_new = head.v > 0;
		buf_adds(b, is_new ? "new (" : base.v > 0 ? "removed (" : "0 (");
		report_add_amount(b, is_new ? head : base, false);
		add_unit(b, st, unit);
		buf_adds(b, is_new || base.v == 0 ? ")" : " in base)");
		return;
	}
	report_add_amount(b, base, false);
	buf_adds(b, " \u2192 ");
	report_add_amount(b, head, false);
	add_unit(b, st, unit);
	buf_adds(b, " (");
	report_add_amount(b, d, true);
	buf_adds(b, ", ");
	numfmt_report_number(b, d.v / base.v * 100, 1, false, true);
	buf_adds(b, "%, ");
	numfmt_report_number(b, report_points(s, d.v), 2, false, true);
	buf_adds(b, " pp)");
}

/* A table cell's change: "+490 (+116.7%)", "new", "removed". */
static void
add_change_short(struct buf *b, const struct summary *s, const struct count *c)
{
	struct amount base = report_amount(s, c[SIDE_BASE], SIDE_BASE);
	struct amount head = report_amount(s, c[SIDE_HEAD], SIDE_HEAD);
	if (base.v == 0 || head.v == 0) {
		buf_adds(b, head.v > 0 ? "new" : base.v > 0 ? "removed" : "0");
		return;
	}
	struct amount d = report_change(base, head);
	report_add_amount(b, d, true);
	buf_adds(b, " (");
	numfmt_report_number(b, d.v / base.v * 100, 1, false, true);
	buf_adds(b, "%)");
}

/* ---- hot-path changes ---------------------------------------------------- */

static int
compare_hot(const void *pa, const void *pb)
{
	const struct hot *a = pa, *b = pb;
	double ka = fabs(a->r->delta.v), kb = fabs(b->r->delta.v);
	if (ka != kb) {
		return ka > kb ? -1 : 1;
	}
	return a->r->order < b->r->order ? -1 : a->r->order > b->r->order;
}

/* The lines to write, largest change first; a new or removed function once. */
static struct hot *
hot_lines(const struct summary *s, size_t top, size_t *n)
{
	static const enum list lists[] = {LIST_REG_SELF, LIST_IMP_SELF, LIST_NEW, LIST_REMOVED};
	struct hot *h = xcalloc(4 * top + 1, sizeof(*h));
	*n = 0;
	for (size_t li = 0; li < 4; li++) {
		enum list l = lists[li];
		for (size_t i = 0; i < s->count[l] && i < top; i++) {
			const struct fn fv = report_fn(s, s->rows[l][i].id), *f = &fv;
			bool whole = count_is_zero(f->total[SIDE_BASE]) ||
			             count_is_zero(f->total[SIDE_HEAD]);
			if (whole && (l == LIST_REG_SELF || l == LIST_IMP_SELF)) {
				continue; /* said by its new or removed line */
			}
			h[(*n)++] = (struct hot){l, &s->rows[l][i]};
		}
	}
	qsort(h, *n, sizeof(*h), compare_hot);
	if (*n > top) {
		*n = top;
	}
	return h;
}

static void
hot_line(struct buf *b, const struct summary *s, const struct report_options *opt,
        const struct hot *h, const struct report_style *st)
{
	size_t len;
	const char *name = intern_name(s->t->names, h->r->id, &len);
	buf_adds(b, st->item);
	report_add_code_name(b, st, name, len);
	buf_adds(b, ": ");
	if (h->l == LIST_NEW || h->l == LIST_REMOVED) {
		buf_adds(b, h->l == LIST_NEW ? "new (" : "removed (");
		report_add_amount(b, h->l == LIST_NEW ? h->r->head : h->r->base, false);
		buf_addc(b, ' ');
		report_add_label(b, st, report_countname(opt));
		buf_adds(b, h->l == LIST_NEW ? ")\n" : " in base)\n");
		return;
	}
	buf_adds(b, "self ");
	const struct fn fv = report_fn(s, h->r->id), *f = &fv;
	report_add_change_words(b, s, st, f->self, report_countname(opt));
	buf_adds(b, h->l == LIST_REG_SELF ? " \u26a0\ufe0f regression\n" : " \u2705 improvement\n");
}

static void
add_hot_changes(struct buf *b, const struct report *r, const struct report_style *st)
{
	const struct hot *h = r->sections.hot;
	size_t n = r->sections.nhot;
	st->heading(b, "Hot-path changes", NULL);
	size_t start = b->len, shown = 0;
	for (; shown < n; shown++) {
		size_t at = b->len;
		hot_line(b, &r->sum, r->opt, &h[shown], st);
		if (b->len - start > SECTION_BUDGET) {
			buf_setlen(b, at);
			break;
		}
	}
	if (n == 0) {
		report_note(b, st, NOTE_NONE_BEYOND_FLOOR, 0, 0);
	} else if (shown < n) {
		report_note(b, st, NOTE_SHOWING, shown, n);
	}
}

/* ---- the most expensive functions ------------------------------------- */

/* The heaviest functions of a side by self, heaviest first (ties by name order). */
static size_t
heaviest(const struct summary *s, enum side side, uint32_t *ids)
{
	size_t n = 0;
	for (uint32_t id = 0; id < s->nnames; id++) {
		const struct fn fv = report_fn(s, id), *f = &fv;
		if (!f->seen || count_is_zero(f->self[side])) {
			continue;
		}
		size_t i = n < TOP_FUNCTIONS ? n++ : TOP_FUNCTIONS;
		for (; i > 0; i--) {
			const struct fn gv = report_fn(s, ids[i - 1]), *g = &gv;
			int c = count_cmp(g->self[side], f->self[side]);
			if (c > 0 || (c == 0 && s->ranks[ids[i - 1]] < s->ranks[id])) {
				break;
			}
			if (i < TOP_FUNCTIONS) {
				ids[i] = ids[i - 1];
			}
		}
		if (i < TOP_FUNCTIONS) {
			ids[i] = id;
		}
	}
	return n;
}

#define TOP_COLUMNS 7

static void
top_cells(struct buf *c, const struct summary *s, const struct report_style *st, uint32_t id,
        enum side side)
{
	size_t len;
	const char *name = intern_name(s->t->names, id, &len);
	report_add_code_name(&c[0], st, name, len);
	const struct fn f = report_fn(s, id);
	report_add_amount(&c[1], report_amount(s, f.self[side], side), false);
	add_change_short(&c[2], s, f.self);
}

static void
add_top_functions(struct buf *b, const struct report *r, const struct report_style *st)
{
	const struct summary *s = &r->sum;
	static const char *const head[TOP_COLUMNS] = {
	        "#", "Base", "Self", "Change", "Head", "Self", "Change"};
	const size_t *n = r->sections.ntop;
	size_t rows = n[0] > n[1] ? n[0] : n[1];
	struct buf c[TOP_FUNCTIONS * TOP_COLUMNS];
	for (size_t k = 0; k < rows * TOP_COLUMNS; k++) {
		buf_init(&c[k]);
		buf_add(&c[k], "", 0);
	}
	for (size_t i = 0; i < rows; i++) {
		buf_printf(&c[i * TOP_COLUMNS], "%zu", i + 1);
		for (int side = 0; side < 2; side++) {
			if (i < n[side]) {
				top_cells(&c[i * TOP_COLUMNS + 1 + 3 * (size_t)side], s, st,
				        r->sections.top[side][i], (enum side)side);
			}
		}
	}
	st->heading(b, "Most expensive functions (self)", ", each with its change");
	st->grid(b, head, c, rows, TOP_COLUMNS, 1u << 1 | 1u << 4);
	for (size_t k = 0; k < rows * TOP_COLUMNS; k++) {
		buf_finish(&c[k]);
	}
}

/* ---- what to investigate ---------------------------------------------- */

/* The call path with the largest self change that ends in function id. */
static const struct row *
path_of(const struct summary *s, uint32_t id)
{
	for (size_t i = 0; i < s->count[LIST_PATHS]; i++) {
		if (tree_node(s->t, s->rows[LIST_PATHS][i].id)->name == id) {
			return &s->rows[LIST_PATHS][i];
		}
	}
	return NULL;
}

/* Up to INVESTIGATE_MAX things, in the order the reports list them. */
static void
investigate_init(struct sections *sc, const struct report *r)
{
	const struct summary *s = &r->sum;
	const struct signals *sg = &r->signals;
	size_t n = 0;
	struct investigate *it = sc->investigate;
	if (r->failed) {
		it[n++] = (struct investigate){.kind = INVESTIGATE_GATES};
	}
	if (s->count[LIST_REG_SELF]) {
		it[n++] = (struct investigate){.kind = INVESTIGATE_REGRESSION,
		        .path = path_of(s, s->rows[LIST_REG_SELF][0].id)};
	}
	if (sg->nhot) {
		double head = count_to_double(
		        tree_node_total(s->t, tree_node(s->t, sg->hot[0]), SIDE_HEAD));
		it[n++] = (struct investigate){.kind = INVESTIGATE_HOT_PATH,
		        .share = head / (s->head_total.v > 0 ? s->head_total.v : 1) * 100};
	}
	if (sg->cat[SIGNAL_ALLOC].present && n < INVESTIGATE_MAX) {
		it[n++] = (struct investigate){.kind = INVESTIGATE_ALLOC};
	}
	if (sg->cat[SIGNAL_IO].present && n < INVESTIGATE_MAX) {
		it[n++] = (struct investigate){.kind = INVESTIGATE_IO};
	}
	if (sg->depth_present && n < INVESTIGATE_MAX) {
		it[n++] = (struct investigate){.kind = INVESTIGATE_DEPTH};
	}
	sc->ninvestigate = n;
}

static void
why_regression(
        struct buf *b, const struct report *rep, const struct report_style *st, const struct row *p)
{
	const struct summary *s = &rep->sum;
	const struct row *r = &s->rows[LIST_REG_SELF][0];
	size_t len;
	const char *name = intern_name(s->t->names, r->id, &len);
	report_add_code_name(b, st, name, len);
	if (r->base.v == 0) {
		buf_adds(b, " is new with the largest self growth (");
		report_add_amount(b, r->head, false);
		buf_addc(b, ' ');
		report_add_label(b, st, report_countname(rep->opt));
		buf_addc(b, ')');
	} else {
		buf_adds(b, " has the largest self growth, ");
		const struct fn f = report_fn(s, r->id);
		report_add_change_words(b, s, st, f.self, report_countname(rep->opt));
	}
	if (p) {
		buf_adds(b, "; start on its path ");
		report_add_path(b, s, st, p->id);
	}
	buf_addc(b, '.');
}

static void
why_category(struct buf *b, const struct summary *s, const struct report_style *st,
        const struct signal_category *c, const char *what, const char *hint)
{
	size_t len;
	const char *name = intern_name(s->t->names, c->fns[0], &len);
	buf_adds(b, what);
	buf_adds(b, " grew by ");
	numfmt_report_number(b, (c->share[SIDE_HEAD] - c->share[SIDE_BASE]) * 100, 2, false, true);
	buf_adds(b, " pp, most in ");
	report_add_code_name(b, st, name, len);
	buf_adds(b, hint);
}

void
report_add_investigate_item(struct buf *b, const struct report *r, const struct report_style *st,
        const struct investigate *it)
{
	const struct summary *s = &r->sum;
	const struct signals *sg = &r->signals;
	switch (it->kind) {
	case INVESTIGATE_GATES:
		buf_printf(b,
		        "%zu of %zu gate%s failed: the Gates section says which "
		        "function tripped each.",
		        r->failed, r->ngates, r->ngates == 1 ? "" : "s");
		return;
	case INVESTIGATE_REGRESSION:
		why_regression(b, r, st, it->path);
		return;
	case INVESTIGATE_HOT_PATH:
		report_add_path(b, s, st, sg->hot[0]);
		buf_adds(b, " is new and takes ");
		numfmt_report_percent(b, it->share, false);
		buf_adds(b, " of head: check that it is meant to run there.");
		return;
	case INVESTIGATE_ALLOC:
		why_category(b, s, st, &sg->cat[SIGNAL_ALLOC], "Allocation",
		        ": look for allocations added on hot paths (reuse buffers, reserve).");
		return;
	case INVESTIGATE_IO:
		why_category(b, s, st, &sg->cat[SIGNAL_IO], "I/O",
		        ": look for new reads, writes or system calls on the critical path.");
		return;
	case INVESTIGATE_DEPTH: {
		bool deeper = sg->depth[SIDE_HEAD] > sg->depth[SIDE_BASE];
		buf_adds(b, deeper ? "Stacks got deeper (" : "Stacks got shallower (");
		numfmt_report_number(
		        b, sg->depth[SIDE_HEAD] - sg->depth[SIDE_BASE], 1, false, true);
		buf_adds(b, deeper ? " frames on average): look for added layers, wrappers or "
		                     "recursion."
		                   : " frames on average): layers were removed or inlined.");
		return;
	}
	}
}

static void
add_investigate(struct buf *b, const struct report *r, const struct report_style *st)
{
	const struct sections *sc = &r->sections;
	st->heading(b, "What to investigate", NULL);
	for (size_t i = 0; i < sc->ninvestigate; i++) {
		buf_adds(b, st->bullet);
		report_add_investigate_item(b, r, st, &sc->investigate[i]);
		buf_addc(b, '\n');
	}
	if (sc->ninvestigate == 0) {
		report_note(b, st, NOTE_NOTHING_STANDS_OUT, 0, 0);
	}
}

/* ---- updating the baseline -------------------------------------------- */

/* Printable ASCII only: any other name would not survive the escaping intact. */
static bool
plain_name(const char *p)
{
	if (strcmp(p, "-") == 0) {
		return false;
	}
	for (; *p; p++) {
		if (*p < 0x20 || *p > 0x7e) {
			return false;
		}
	}
	return true;
}

/* A POSIX shell word: in single quotes, each ' as '\''. */
static void
shell_quote(struct buf *b, const char *p)
{
	buf_addc(b, '\'');
	for (; *p; p++) {
		if (*p == '\'') {
			buf_adds(b, "'\\''");
		} else {
			buf_addc(b, *p);
		}
	}
	buf_addc(b, '\'');
}

/* cp -- 'head' 'base' for each pair of files, or false when there is none safe. */
static bool
baseline_command(struct buf *b, const struct report_options *opt)
{
	if (opt->base_count != opt->head_count || opt->base_count == 0) {
		return false;
	}
	for (size_t i = 0; i < opt->base_count; i++) {
		if (!plain_name(opt->base[i]) || !plain_name(opt->head[i])) {
			return false;
		}
	}
	for (size_t i = 0; i < opt->base_count; i++) {
		buf_adds(b, i ? " && cp -- " : "cp -- ");
		shell_quote(b, opt->head[i]);
		buf_addc(b, ' ');
		shell_quote(b, opt->base[i]);
	}
	return true;
}

static void
add_baseline(struct buf *b, const struct report *r, const struct report_style *st)
{
	const struct sections *sc = &r->sections;
	if (!sc->baseline) {
		return;
	}
	buf_printf(b, "\n%sHead is better overall.%s ", st->strong, st->strong);
	if (sc->baseline_command) {
		buf_adds(b, "Once the improvement is confirmed, make it the new baseline: ");
		st->code(b, sc->baseline_command, strlen(sc->baseline_command));
		buf_addc(b, '\n');
	} else {
		buf_adds(b, "Once the improvement is confirmed, copy the head profiles over the "
		            "baseline.\n");
	}
}

/* ---- the sections, chosen once ------------------------------------------ */

void
report_sections_init(struct sections *sc, const struct report *r)
{
	const struct summary *s = &r->sum;
	memset(sc, 0, sizeof(*sc));
	if (!s->differential) {
		return;
	}
	sc->hot = hot_lines(s, report_top(r->opt), &sc->nhot);
	for (int side = 0; side < 2; side++) {
		sc->ntop[side] = heaviest(s, (enum side)side, sc->top[side]);
	}
	investigate_init(sc, r);
	sc->baseline = r->verdict == VERDICT_IMPROVEMENT;
	struct buf cmd;
	buf_init(&cmd);
	if (sc->baseline && baseline_command(&cmd, r->opt)) {
		sc->baseline_command = xmemdup(cmd.data, cmd.len);
	}
	buf_finish(&cmd);
}

void
report_sections_finish(struct sections *sc)
{
	free(sc->hot);
	free(sc->baseline_command);
}

/* ---- the report around its tables ------------------------------------ */

void
report_add_opening(struct buf *b, const struct report *r, const struct report_style *st)
{
	if (!r->sum.differential) {
		return;
	}
	add_baseline(b, r, st);
	add_hot_changes(b, r, st);
	add_top_functions(b, r, st);
}

void
report_add_closing(struct buf *b, const struct report *r, const struct report_style *st)
{
	report_add_signals(b, r, st);
	report_add_runs(b, r, st);
	if (r->sum.differential) {
		add_investigate(b, r, st);
	}
	report_add_gates(b, r, st);
}

/* ---- JSON --------------------------------------------------------------- */

static const char *
hot_kind(enum list l)
{
	switch (l) {
	case LIST_REG_SELF:
		return "regression";
	case LIST_IMP_SELF:
		return "improvement";
	case LIST_NEW:
		return "new";
	default:
		return "removed";
	}
}

/* A ROW with leading members: {"kind":..,"name":..}. */
static void
json_row_with(
        struct buf *b, const struct summary *s, enum list l, const struct row *r, const char *lead)
{
	struct buf row;
	buf_init(&row);
	report_json_row(&row, s, l, r);
	buf_addc(b, '{');
	buf_adds(b, lead);
	buf_add(b, row.data + 1, row.len - 1);
	buf_finish(&row);
}

static void
json_hot(struct buf *b, const struct report *rep)
{
	const struct summary *s = &rep->sum;
	const struct hot *h = rep->sections.hot;
	size_t n = rep->sections.nhot;
	buf_adds(b, ",\"hot_path_changes\":[");
	for (size_t i = 0; i < n; i++) {
		struct buf lead;
		buf_init(&lead);
		bool whole = h[i].l == LIST_NEW || h[i].l == LIST_REMOVED;
		buf_printf(&lead, "\"kind\":\"%s\",\"measure\":\"%s\",", hot_kind(h[i].l),
		        whole ? "total" : "self");
		buf_adds(b, i ? "," : "");
		json_row_with(b, s, h[i].l, h[i].r, lead.data);
		buf_finish(&lead);
	}
	buf_addc(b, ']');
}

/* A function's self on both sides as a ROW. */
static void
json_self_row(struct buf *b, const struct summary *s, uint32_t id)
{
	struct row r = {.id = id};
	const struct fn f = report_fn(s, id);
	r.base = report_amount(s, f.self[SIDE_BASE], SIDE_BASE);
	r.head = report_amount(s, f.self[SIDE_HEAD], SIDE_HEAD);
	r.delta = report_change(r.base, r.head);
	report_json_row(b, s, LIST_REG_SELF, &r);
}

static void
json_top(struct buf *b, const struct report *rep)
{
	buf_adds(b, ",\"top_functions\":{\"measure\":\"self\"");
	for (int side = 0; side < 2; side++) {
		buf_adds(b, side ? ",\"head\":[" : ",\"base\":[");
		for (size_t i = 0; i < rep->sections.ntop[side]; i++) {
			buf_adds(b, i ? "," : "");
			json_self_row(b, &rep->sum, rep->sections.top[side][i]);
		}
		buf_addc(b, ']');
	}
	buf_addc(b, '}');
}

/* "reported":..,"NAME0":base,"NAME1":head,"NAME2":(head - base) x unit. */
static void
json_measure(struct buf *b, bool reported, const char *const *names, double base, double head,
        double unit)
{
	const double v[3] = {base, head, (head - base) * unit};
	buf_adds(b, reported ? "\"reported\":true" : "\"reported\":false");
	for (size_t i = 0; i < 3; i++) {
		buf_printf(b, ",\"%s\":", names[i]);
		buf_add_double(b, v[i], 9);
	}
}

static void
json_category(struct buf *b, const struct summary *s, const struct report_options *opt,
        const struct signals *sg, enum signal_kind k)
{
	const struct signal_category *c = &sg->cat[k];
	size_t np;
	const char *const *globs = report_signal_patterns(opt, k, &np);
	buf_adds(b,
	        k == SIGNAL_ALLOC ? ",\"allocation\":{\"patterns\":[" : ",\"io\":{\"patterns\":[");
	for (size_t i = 0; i < np; i++) {
		buf_adds(b, i ? "," : "");
		escape_json_string(b, globs[i], strlen(globs[i]));
	}
	buf_adds(b, "],");
	static const char *const names[] = {"base_share", "head_share", "change_points"};
	json_measure(b, c->present, names, c->share[SIDE_BASE], c->share[SIDE_HEAD], 100);
	buf_adds(b, ",\"functions\":[");
	for (size_t i = 0; i < c->nfns; i++) {
		buf_adds(b, i ? "," : "");
		json_self_row(b, s, c->fns[i]);
	}
	buf_adds(b, "]}");
}

static void
json_signals(struct buf *b, const struct summary *s, const struct report_options *opt,
        const struct signals *sg)
{
	buf_adds(b, ",\"signals\":{\"new_hot_paths\":[");
	for (size_t i = 0; i < sg->nhot; i++) {
		const struct tree_node *n = tree_node(s->t, sg->hot[i]);
		struct row r = {.id = sg->hot[i]};
		r.base = report_amount(s, tree_node_total(s->t, n, SIDE_BASE), SIDE_BASE);
		r.head = report_amount(s, tree_node_total(s->t, n, SIDE_HEAD), SIDE_HEAD);
		r.delta = report_change(r.base, r.head);
		buf_adds(b, i ? "," : "");
		report_json_row(b, s, LIST_PATHS, &r);
	}
	buf_printf(b, "],\"new_hot_path_count\":%zu", sg->hot_total);
	json_category(b, s, opt, sg, SIGNAL_ALLOC);
	json_category(b, s, opt, sg, SIGNAL_IO);
	static const char *const names[] = {"base", "head", "change"};
	buf_adds(b, ",\"stack_depth\":{");
	json_measure(b, sg->depth_present, names, sg->depth[SIDE_BASE], sg->depth[SIDE_HEAD], 1);
	buf_adds(b, "}}");
}

void
report_sections_json(struct buf *b, const struct report *r)
{
	const struct summary *s = &r->sum;
	const struct report_options *opt = r->opt;
	if (!s->differential) {
		return;
	}
	json_hot(b, r);
	json_top(b, r);
	json_signals(b, s, opt, &r->signals);
	/* Each thing to investigate as the terminal says it. */
	struct buf item;
	buf_init(&item);
	buf_adds(b, ",\"investigate\":[");
	for (size_t i = 0; i < r->sections.ninvestigate; i++) {
		buf_reset(&item);
		report_add_investigate_item(
		        &item, r, &report_text_style, &r->sections.investigate[i]);
		buf_adds(b, i ? "," : "");
		escape_json_string(b, item.data, item.len);
	}
	buf_finish(&item);
	/* No baseline command: the summary depends on the profiles, never on
	 * the file names (a pair and its 3-column fold give the same JSON). */
	buf_addc(b, ']');
}
