#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "numfmt.h"
#include "report_private.h"
#include "xalloc.h"

static const char *const list_titles[LIST_COUNT] = {
        "Top regressions by self",
        "Top improvements by self",
        "Top regressions by total",
        "Top improvements by total",
        "New functions",
        "Removed functions",
        "Call paths with the largest self change",
};

const enum list report_list_order[LIST_COUNT] = {LIST_REG_SELF, LIST_REG_TOTAL, LIST_IMP_SELF,
        LIST_IMP_TOTAL, LIST_NEW, LIST_REMOVED, LIST_PATHS};

struct amount
report_amount(const struct summary *s, struct count c, enum side side)
{
	struct amount a = {c, false, true, count_to_double(c)};
	if (side == SIDE_BASE && s->t->normalized) {
		a.v *= s->t->base_scale;
		a.exact = false;
	}
	return a;
}

struct amount
report_change(struct amount base, struct amount head)
{
	struct amount d = {{0, 0}, false, base.exact && head.exact, head.v - base.v};
	if (d.exact) {
		d.negative = count_cmp(head.c, base.c) < 0;
		d.c = d.negative ? count_sub(base.c, head.c) : count_sub(head.c, base.c);
		d.v = d.negative ? -count_to_double(d.c) : count_to_double(d.c);
	}
	return d;
}

/* Adds a node's counts to its function's: sums never pass the root total. */
static void
add_to_fn(struct summary *s, uint32_t name, const struct tree_node *n, bool total)
{
	struct fn_units *u = &s->fns[name];
	const struct tree *t = s->t;
	if (!s->fn_nanos) {
		for (int side = 0; side < 2; side++) {
			u->self[side] += n->self_units[side];
			u->total[side] += total ? n->total_units[side] : 0;
		}
		return;
	}
	struct tree_nanos *nanos = &s->fn_nanos[name];
	for (int side = 0; side < 2; side++) {
		struct count sum;
		count_add((struct count){u->self[side], nanos->self[side]},
		        tree_node_self(t, n, (enum side)side), &sum);
		u->self[side] = sum.units;
		nanos->self[side] = sum.nanos;
		if (total) {
			count_add((struct count){u->total[side], nanos->total[side]},
			        tree_node_total(t, n, (enum side)side), &sum);
			u->total[side] = sum.units;
			nanos->total[side] = sum.nanos;
		}
	}
}

static void
push_row(struct summary *s, enum list l, uint32_t id, uint32_t order, struct count base,
        struct count head, double key)
{
	if (!report_runs_keep(s, l, id)) {
		return;
	}
	s->rows[l] = xgrow(s->rows[l], &s->cap[l], s->count[l] + 1, sizeof(struct row));
	struct row *r = &s->rows[l][s->count[l]++];
	r->id = id;
	r->order = order;
	r->base = report_amount(s, base, SIDE_BASE);
	r->head = report_amount(s, head, SIDE_HEAD);
	r->delta = report_change(r->base, r->head);
	r->key = key;
}

static int
compare_rows(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	if (a->key != b->key) {
		return a->key > b->key ? -1 : 1;
	}
	return a->order < b->order ? -1 : a->order > b->order;
}

/*
 * One pre-order walk with an explicit path stack (stacks may be 10,000+
 * frames deep): self sums over every node of a name; a node's total counts
 * only when no ancestor has the same name, so recursion is not double
 * counted. Also collects the call-path rows.
 */
static void
aggregate(struct summary *s, uint32_t nnames)
{
	const struct tree *t = s->t;
	uint32_t *on_path = xcalloc(nnames ? nnames : 1, sizeof(uint32_t));
	uint32_t *stack = xmalloc((t->max_depth + 1) * sizeof(uint32_t));
	size_t sp = 0;
	uint32_t order = 0;
	for (uint32_t id = tree_next_preorder(t, TREE_ROOT, TREE_ROOT); id != TREE_NONE;
	        id = tree_next_preorder(t, id, TREE_ROOT), order++) {
		const struct tree_node *n = tree_node(t, id);
		while (sp > 0 && tree_node(t, stack[sp - 1])->depth >= n->depth) {
			on_path[tree_node(t, stack[--sp])->name]--;
		}
		s->fns[n->name].seen = true;
		add_to_fn(s, n->name, n, on_path[n->name] == 0);
		on_path[n->name]++;
		stack[sp++] = id;
		double d =
		        report_change(report_amount(s, tree_node_self(t, n, SIDE_BASE), SIDE_BASE),
		                report_amount(s, tree_node_self(t, n, SIDE_HEAD), SIDE_HEAD))
		                .v;
		if (fabs(d) > s->floor && s->differential) {
			push_row(s, LIST_PATHS, id, order, tree_node_self(t, n, SIDE_BASE),
			        tree_node_self(t, n, SIDE_HEAD), fabs(d));
		}
	}
	free(stack);
	free(on_path);
}

static void
function_rows(struct summary *s, uint32_t nnames, const uint32_t *ranks)
{
	for (uint32_t id = 0; id < nnames; id++) {
		if (!s->fns[id].seen) {
			continue;
		}
		const struct fn fn = report_fn(s, id), *f = &fn;
		const struct count zero = {0, 0};
		double ds = report_change(report_amount(s, f->self[0], SIDE_BASE),
		        report_amount(s, f->self[1], SIDE_HEAD))
		                    .v;
		double dt = report_change(report_amount(s, f->total[0], SIDE_BASE),
		        report_amount(s, f->total[1], SIDE_HEAD))
		                    .v;
		if (!s->differential) {
			/* One profile: the "regression" lists rank the heaviest. */
			if (!count_is_zero(f->self[SIDE_HEAD])) {
				push_row(s, LIST_REG_SELF, id, ranks[id], zero, f->self[SIDE_HEAD],
				        count_to_double(f->self[SIDE_HEAD]));
			}
			push_row(s, LIST_REG_TOTAL, id, ranks[id], zero, f->total[SIDE_HEAD],
			        count_to_double(f->total[SIDE_HEAD]));
			continue;
		}
		if (ds > s->floor) {
			push_row(s, LIST_REG_SELF, id, ranks[id], f->self[0], f->self[1], ds);
		} else if (ds < -s->floor) {
			push_row(s, LIST_IMP_SELF, id, ranks[id], f->self[0], f->self[1], -ds);
		}
		if (dt > s->floor) {
			push_row(s, LIST_REG_TOTAL, id, ranks[id], f->total[0], f->total[1], dt);
		} else if (dt < -s->floor) {
			push_row(s, LIST_IMP_TOTAL, id, ranks[id], f->total[0], f->total[1], -dt);
		}
		bool in_base = !count_is_zero(f->total[0]), in_head = !count_is_zero(f->total[1]);
		if (!in_base && in_head) {
			push_row(s, LIST_NEW, id, ranks[id], zero, f->total[1],
			        count_to_double(f->total[1]));
		} else if (in_base && !in_head) {
			push_row(s, LIST_REMOVED, id, ranks[id], f->total[0], zero,
			        report_amount(s, f->total[0], SIDE_BASE).v);
		}
	}
}

/* noise_floor: drop changes within --min-delta, as the colours do. */
void
report_summary_init(struct summary *s, const struct tree *t, bool noise_floor)
{
	memset(s, 0, sizeof(*s));
	s->t = t;
	s->differential = t->differential;
	const struct tree_node *root = tree_node(t, TREE_ROOT);
	const struct count zero = {0, 0};
	s->base_total = report_amount(
	        s, s->differential ? tree_node_total(t, root, SIDE_BASE) : zero, SIDE_BASE);
	s->head_total = report_amount(s, tree_node_total(t, root, SIDE_HEAD), SIDE_HEAD);
	s->change = report_change(s->base_total, s->head_total);
	s->larger = s->change.negative || s->base_total.v > s->head_total.v ? s->base_total
	                                                                    : s->head_total;
	/* The same noise floor as the colours (tree_classify_change). */
	s->floor = noise_floor ? t->opt.min_delta * s->larger.v : 0;
	uint32_t nnames = intern_count(t->names);
	s->fns = xcalloc(nnames ? nnames : 1, sizeof(*s->fns));
	if (t->nanos) {
		s->fn_nanos = xcalloc(nnames ? nnames : 1, sizeof(*s->fn_nanos));
	}
	s->nnames = nnames;
	s->ranks = intern_ranks(t->names);
	aggregate(s, nnames);
	function_rows(s, nnames, s->ranks);
	for (int l = 0; l < LIST_COUNT; l++) {
		if (s->count[l] > 1) {
			qsort(s->rows[l], s->count[l], sizeof(struct row), compare_rows);
		}
	}
}

void
report_summary_finish(struct summary *s)
{
	for (int l = 0; l < LIST_COUNT; l++) {
		free(s->rows[l]);
	}
	free(s->fns);
	free(s->fn_nanos);
}

size_t
report_top(const struct report_options *opt)
{
	return opt && opt->top ? opt->top : DEFAULT_TOP;
}

void
report_add_count(struct buf *b, double v, bool plus)
{
	numfmt_report_number(b, v, 2, true, plus);
}

void
report_add_amount(struct buf *b, struct amount a, bool plus)
{
	if (a.exact) {
		numfmt_count(b, a.c, 2, a.negative, plus);
	} else {
		report_add_count(b, a.v, plus);
	}
}

double
report_points(const struct summary *s, double delta)
{
	return s->larger.v > 0 ? delta / s->larger.v * 100 : 0;
}

static void
add_frame(struct buf *b, const struct tree *t, uint32_t id, size_t cap)
{
	size_t len;
	const char *name = tree_node_name(t, tree_node(t, id), &len);
	escape_terminal(b, name, len, cap);
}

/* A call path as `a;b;c`, or `a;…;y;z` when deeper than three frames. */
static void
add_path(struct buf *b, const struct tree *t, uint32_t id, size_t cap)
{
	const struct tree_node *n = tree_node(t, id);
	uint32_t first = id;
	while (tree_node(t, first)->depth > 1) {
		first = tree_node(t, first)->parent;
	}
	add_frame(b, t, first, cap);
	if (n->depth > 3) {
		buf_adds(b, ";\u2026");
	} else if (n->depth == 3) {
		buf_addc(b, ';');
		add_frame(b, t, n->parent, cap);
	}
	if (n->depth > 3) {
		buf_addc(b, ';');
		add_frame(b, t, n->parent, cap);
	}
	if (n->depth > 1) {
		buf_addc(b, ';');
		add_frame(b, t, id, cap);
	}
}

void
report_add_code(
        struct buf *b, const struct report_style *st, const char *raw, size_t len, size_t cap)
{
	struct buf name;
	buf_init(&name);
	buf_add(&name, "", 0);
	escape_terminal(&name, raw, len, cap);
	st->code(b, name.data, name.len);
	buf_finish(&name);
}

void
report_add_code_name(struct buf *b, const struct report_style *st, const char *raw, size_t len)
{
	report_add_code(b, st, raw, len, st->name_cap);
}

void
report_add_path(struct buf *b, const struct summary *s, const struct report_style *st, uint32_t id)
{
	struct buf path;
	buf_init(&path);
	buf_add(&path, "", 0);
	add_path(&path, s->t, id, st->frame_cap);
	st->code(b, path.data, path.len);
	buf_finish(&path);
}

/* The name cell: a function name or a call path, in the style's code span. */
static void
add_row_name(struct buf *b, const struct summary *s, const struct report_style *st, enum list l,
        const struct row *r)
{
	if (l == LIST_PATHS) {
		report_add_path(b, s, st, r->id);
	} else {
		size_t len;
		const char *raw = intern_name(s->t->names, r->id, &len);
		report_add_code_name(b, st, raw, len);
	}
}

/* ---- tables ----------------------------------------------------------- */

size_t
report_columns(const struct summary *s)
{
	return s->differential ? NCOL : 3;
}

void
report_header_cells(const struct summary *s, enum list l, const char **h)
{
	static const char *const diff[NCOL] = {
	        "Function", "Base", "Head", "Change", "Change %", "Points (pp)"};
	static const char *const single[3] = {"Function", "Samples", "Share"};
	size_t n = report_columns(s);
	for (size_t i = 0; i < n; i++) {
		h[i] = s->differential ? diff[i] : single[i];
	}
	if (!s->differential && s->count_title[0]) {
		h[1] = s->count_title;
	}
	if (l == LIST_PATHS) {
		h[0] = "Call path";
	}
}

void
report_summary_name_counts(struct summary *s, const struct report_options *opt)
{
	const char *name = opt->countname;
	size_t n = name ? strlen(name) : 0;
	if (n == 0 || n >= sizeof(s->count_title)) {
		return; /* "Samples" */
	}
	/* A table heading is written as is: only plain words may go there. */
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		            c == ' ' || c == '-' || c == '_')) {
			return;
		}
	}
	memcpy(s->count_title, name, n + 1);
	if (s->count_title[0] >= 'a' && s->count_title[0] <= 'z') {
		s->count_title[0] = (char)(s->count_title[0] - 'a' + 'A');
	}
}

/* Fills the cells of one row; cell[0] is the name. */
void
report_row_cells(const struct summary *s, enum list l, const struct row *r,
        const struct report_style *st, struct buf *cell)
{
	for (size_t i = 0; i < NCOL; i++) {
		buf_reset(&cell[i]);
	}
	add_row_name(&cell[0], s, st, l, r);
	if (!s->differential) {
		report_add_amount(&cell[1], r->head, false);
		numfmt_report_percent(&cell[2],
		        s->head_total.v > 0 ? r->head.v / s->head_total.v * 100 : 0, false);
		return;
	}
	report_add_amount(&cell[1], r->base, false);
	report_add_amount(&cell[2], r->head, false);
	report_add_amount(&cell[3], r->delta, true);
	numfmt_change_percent(&cell[4], r->base.v, r->head.v);
	numfmt_report_number(&cell[5], report_points(s, r->delta.v), 2, false, true);
}

static const char *const single_titles[LIST_COUNT] = {
        [LIST_REG_SELF] = "Top functions by self",
        [LIST_REG_TOTAL] = "Top functions by total",
};

const char *
report_title(const struct summary *s, enum list l)
{
	return s->differential ? list_titles[l] : single_titles[l];
}

const char *
report_label(const struct report_options *opt, enum side side)
{
	return side == SIDE_BASE ? opt->base_label : opt->head_label;
}

const char *
report_countname(const struct report_options *opt)
{
	return opt->countname;
}

void
report_note(
        struct buf *b, const struct report_style *st, enum report_note note, size_t n, size_t of)
{
	size_t count = n;
	for (const char *p = st->notes[note]; *p;) {
		const char *mark = strstr(p, "%zu");
		size_t len = mark ? (size_t)(mark - p) : strlen(p);
		buf_add(b, p, len);
		p += len;
		if (mark) {
			buf_printf(b, "%zu", count);
			count = of;
			p += 3;
		}
	}
}

void
report_add_label(struct buf *b, const struct report_style *st, const char *s)
{
	st->inert(b, s, strlen(s), MD_LABEL_CAP);
}

void
report_add_rule(struct buf *b, const struct summary *s, const struct report_style *st)
{
	if (s->t->run_scaled) {
		buf_adds(b, "Rule: mean run, base counts multiplied by ");
		numfmt_report_number(b, s->t->base_scale, 6, true, false);
		buf_adds(b, " (head runs / base runs) before comparing.");
	} else if (s->t->normalized) {
		buf_adds(b, "Rule: normalised, base counts (total ");
		numfmt_count(b, tree_node_total(s->t, tree_node(s->t, TREE_ROOT), SIDE_BASE), 2,
		        false, false);
		buf_adds(b, ") multiplied by ");
		numfmt_report_number(b, s->t->base_scale, 6, true, false);
		buf_adds(b, " (head total / base total) before comparing.");
	} else {
		buf_adds(b, "Rule: absolute counts (no normalisation).");
	}
	/* A terminal gets one sentence a line; Markdown joins them anyway. */
	buf_adds(b, st->sentence_break);
	buf_printf(b, "%sChange %%%s is relative to the function's base; %sPoints (pp)%s are ",
	        st->emph, st->emph, st->emph, st->emph);
	buf_adds(b, "percentage points of the larger total (");
	report_add_amount(b, s->larger, false);
	buf_adds(b, ").");
	buf_adds(b, st->sentence_break);
	buf_adds(b, "Functions are summed over all call sites; a function's total counts "
	            "each sample once under recursion.\n");
}
