/*
 * report_signals: what performance reviewers look for beyond the lists
 * (issue 19), reported when present: new hot paths (new frames at
 * --gate-min-share of the head or more), allocation and I/O functions
 * (by name pattern) whose share grew, and a change in the sample-weighted
 * mean stack depth. Computed once per report from the summary.
 */
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

/* Defaults: the C and C++ allocators, Rust's alloc, growing vectors. */
static const char *const alloc_defaults[] = {"malloc", "calloc", "realloc", "free",
        "posix_memalign", "aligned_alloc", "operator new*", "operator delete*", "alloc::*",
        "*::alloc::*", "*Vec*push*", "*::alloc", "*::dealloc", "je_*alloc*", "mmap", "munmap"};
/* The system calls of reading and writing, and kernel frames (`_[k]`). */
static const char *const io_defaults[] = {"read", "write", "pread*", "pwrite*", "readv", "writev",
        "send*", "recv*", "fsync", "fdatasync", "open", "openat", "close", "*syscall*",
        "*_\\[k\\]"};

#define DEPTH_MIN_CHANGE 0.01 /* of the base mean: smaller moves are not reported */

const char *const *
report_signal_patterns(const struct report_options *opt, enum signal_kind k, size_t *n)
{
	if (k == SIGNAL_ALLOC) {
		*n = opt->alloc_pattern_count ? opt->alloc_pattern_count
		                              : sizeof(alloc_defaults) / sizeof(alloc_defaults[0]);
		return opt->alloc_pattern_count ? opt->alloc_patterns : alloc_defaults;
	}
	*n = opt->io_pattern_count ? opt->io_pattern_count
	                           : sizeof(io_defaults) / sizeof(io_defaults[0]);
	return opt->io_pattern_count ? opt->io_patterns : io_defaults;
}

/*
 * A glob with what a name must hold to match it: its plain prefix and
 * suffix (before the first and after the last wildcard, bracket or escape)
 * and, without brackets, its longest plain run. fnmatch over every name and pattern was half the
 * time of a 10 MB pair's report (230 of 461 million instructions); these rule out nearly every name
 * first, and a glob without wildcards is compared as a string.
 */
struct glob {
	const char *glob;
	size_t pre_len, suf_len; /* glob's first pre_len and last suf_len bytes */
	const char *lit; /* into glob */
	size_t lit_len, len;
	bool literal; /* no wildcard at all: the name equals the glob */
};

#define GLOB_SPECIAL "*?[]\\"

static void
glob_prepare(struct glob *g, const char *glob)
{
	*g = (struct glob){.glob = glob, .len = strlen(glob)};
	g->pre_len = strcspn(glob, GLOB_SPECIAL);
	g->literal = g->pre_len == g->len;
	while (g->suf_len < g->len && !strchr(GLOB_SPECIAL, glob[g->len - 1 - g->suf_len])) {
		g->suf_len++;
	}
	/* Inside a bracket expression nothing is plain: no run then. */
	for (const char *p = glob; *p && !strchr(glob, '[');) {
		size_t n = strcspn(p, GLOB_SPECIAL);
		if (n > g->lit_len) {
			g->lit = p;
			g->lit_len = n;
		}
		p += n + (p[n] != '\0');
	}
}

/* Whether name (len bytes) matches; *scratch holds a NUL-terminated copy for fnmatch. */
static bool
glob_match(const struct glob *g, const char *name, size_t len, struct buf *scratch)
{
	if (g->literal) {
		return len == g->len && memcmp(name, g->glob, len) == 0;
	}
	if (len < g->pre_len + g->suf_len || memcmp(name, g->glob, g->pre_len) != 0 ||
	        memcmp(name + len - g->suf_len, g->glob + g->len - g->suf_len, g->suf_len) != 0) {
		return false;
	}
	if (g->pre_len == 0 && g->suf_len == 0 && g->lit_len &&
	        !memmem(name, len, g->lit, g->lit_len)) {
		return false;
	}
	if (scratch->len != len || memcmp(scratch->data, name, len) != 0) {
		buf_reset(scratch);
		buf_add(scratch, name, len);
	}
	return fnmatch(g->glob, scratch->data, 0) == 0;
}

static double
share(const struct summary *s, struct count c, enum side side)
{
	double total = side == SIDE_BASE ? s->base_total.v : s->head_total.v;
	double v = report_amount(s, c, side).v;
	return total > 0 ? v / total : 0;
}

/*
 * Inserts id into the top list (largest key first, ties by order: a name's
 * rank or a frame's pre-order index, never the input's order), keeping at
 * most cap.
 */
struct top {
	uint32_t *ids;
	double keys[SIGNAL_TOP];
	uint32_t order[SIGNAL_TOP];
	size_t *n, cap;
};

static bool
before(const struct top *t, size_t i, double key, uint32_t order)
{
	return t->keys[i] > key || (t->keys[i] == key && t->order[i] < order);
}

static void
keep_top(struct top *t, uint32_t id, double key, uint32_t order)
{
	if (*t->n == t->cap && before(t, t->cap - 1, key, order)) {
		return;
	}
	size_t i = *t->n < t->cap ? (*t->n)++ : t->cap - 1;
	for (; i > 0 && !before(t, i - 1, key, order); i--) {
		t->ids[i] = t->ids[i - 1];
		t->keys[i] = t->keys[i - 1];
		t->order[i] = t->order[i - 1];
	}
	t->ids[i] = id;
	t->keys[i] = key;
	t->order[i] = order;
}

static void
add_to_category(struct signal_category *c, struct top *top, const struct summary *s, uint32_t id)
{
	const struct fn fv = report_fn(s, id), *f = &fv;
	for (int side = 0; side < 2; side++) {
		c->share[side] += share(s, f->self[side], (enum side)side);
	}
	double grew =
	        share(s, f->self[SIDE_HEAD], SIDE_HEAD) - share(s, f->self[SIDE_BASE], SIDE_BASE);
	bool confirmed = !s->t->runs || runs_function_significant(s->t->runs, id, false);
	if (grew > s->t->opt.min_delta && confirmed) {
		keep_top(top, id, grew, s->ranks[id]);
	}
}

static void
category(struct signals *sg, const struct summary *s, const struct report_options *opt,
        enum signal_kind k)
{
	size_t np;
	const char *const *globs = report_signal_patterns(opt, k, &np);
	struct glob *g = xmalloc((np ? np : 1) * sizeof(*g));
	for (size_t i = 0; i < np; i++) {
		glob_prepare(&g[i], globs[i]);
	}
	struct signal_category *c = &sg->cat[k];
	struct top top = {.ids = c->fns, .n = &c->nfns, .cap = SIGNAL_TOP};
	struct buf scratch;
	buf_init(&scratch);
	for (uint32_t id = 0; id < s->nnames; id++) {
		const struct fn fv = report_fn(s, id), *f = &fv;
		/* Without self on either side a function adds nothing to a share. */
		if (!f->seen ||
		        (count_is_zero(f->self[SIDE_BASE]) && count_is_zero(f->self[SIDE_HEAD]))) {
			continue;
		}
		size_t len;
		const char *name = intern_name(s->t->names, id, &len);
		bool hit = false;
		for (size_t i = 0; i < np && !hit; i++) {
			hit = glob_match(&g[i], name, len, &scratch);
		}
		if (hit) {
			add_to_category(c, &top, s, id);
		}
	}
	buf_finish(&scratch);
	free(g);
	/* The category grew beyond the noise floor, through a function that did. */
	c->present = c->nfns > 0 && c->share[SIDE_HEAD] - c->share[SIDE_BASE] > s->t->opt.min_delta;
}

/* The outermost new frames (parent not new) at the minimum share or more. */
static void
hot_paths(struct signals *sg, const struct summary *s, const struct report_options *opt)
{
	const struct tree *t = s->t;
	struct top top = {.ids = sg->hot, .n = &sg->nhot, .cap = SIGNAL_TOP};
	double min = opt->gate_min_share * s->head_total.v;
	uint32_t order = 0;
	for (uint32_t id = tree_next_preorder(t, TREE_ROOT, TREE_ROOT); id != TREE_NONE;
	        id = tree_next_preorder(t, id, TREE_ROOT), order++) {
		const struct tree_node *n = tree_node(t, id);
		if (n->status != STATUS_NEW || tree_node(t, n->parent)->status == STATUS_NEW) {
			continue;
		}
		double v = count_to_double(tree_node_total(t, n, SIDE_HEAD));
		if (v >= min && v > 0) {
			sg->hot_total++;
			keep_top(&top, id, v, order);
		}
	}
}

/* Sum of self x depth over the total: the depth an average sample has. */
static void
depth(struct signals *sg, const struct summary *s)
{
	const struct tree *t = s->t;
	double sum[2] = {0, 0};
	for (uint32_t id = 1; id < t->node_count; id++) {
		const struct tree_node *n = tree_node(t, id);
		for (int side = 0; side < 2; side++) {
			sum[side] += count_to_double(tree_node_self(t, n, side)) * n->depth;
		}
	}
	for (int side = 0; side < 2; side++) {
		double total = count_to_double(tree_node_total(t, tree_node(t, TREE_ROOT), side));
		sg->depth[side] = total > 0 ? sum[side] / total : 0;
	}
	sg->depth_present = sg->depth[SIDE_BASE] > 0 && sg->depth[SIDE_HEAD] > 0 &&
	                    fabs(sg->depth[SIDE_HEAD] - sg->depth[SIDE_BASE]) >=
	                            DEPTH_MIN_CHANGE * sg->depth[SIDE_BASE];
}

void
report_signals_init(struct signals *sg, const struct summary *s, const struct report_options *opt)
{
	memset(sg, 0, sizeof(*sg));
	if (!s->differential) {
		return;
	}
	category(sg, s, opt, SIGNAL_ALLOC);
	category(sg, s, opt, SIGNAL_IO);
	sg->hot_min = opt->gate_min_share;
	hot_paths(sg, s, opt);
	depth(sg, s);
}

bool
report_signals_any(const struct signals *sg)
{
	return sg->nhot || sg->cat[SIGNAL_ALLOC].present || sg->cat[SIGNAL_IO].present ||
	       sg->depth_present;
}

/* "2.80% → 3.10% of all samples (+0.30 pp)" */
static void
add_shares(struct buf *b, const double *sh)
{
	numfmt_report_number(b, sh[SIDE_BASE] * 100, 2, false, false);
	buf_adds(b, "% \u2192 ");
	numfmt_report_number(b, sh[SIDE_HEAD] * 100, 2, false, false);
	buf_adds(b, "% of all (");
	numfmt_report_number(b, (sh[SIDE_HEAD] - sh[SIDE_BASE]) * 100, 2, false, true);
	buf_adds(b, " pp)");
}

static void
add_category(struct buf *b, const struct summary *s, const struct report_style *st,
        const struct signal_category *c, const char *what)
{
	buf_adds(b, st->item);
	buf_adds(b, what);
	buf_adds(b, " grew: self ");
	add_shares(b, c->share);
	buf_adds(b, "; most in ");
	for (size_t i = 0; i < c->nfns; i++) {
		const struct fn fv = report_fn(s, c->fns[i]), *f = &fv;
		size_t len;
		const char *name = intern_name(s->t->names, c->fns[i], &len);
		buf_adds(b, i ? ", " : "");
		report_add_code_name(b, st, name, len);
		buf_adds(b, " self ");
		report_add_change_words(b, s, st, f->self, NULL);
	}
	buf_addc(b, '\n');
}

static void
add_hot(struct buf *b, const struct summary *s, const struct signals *sg,
        const struct report_options *opt, const struct report_style *st)
{
	buf_adds(b, st->item);
	buf_adds(b, "New hot paths");
	buf_printf(b, " (%zu new frame%s at ", sg->hot_total, sg->hot_total == 1 ? "" : "s");
	numfmt_report_percent(b, sg->hot_min * 100, false);
	buf_adds(b, " of head or more):");
	for (size_t i = 0; i < sg->nhot; i++) {
		const struct tree_node *n = tree_node(s->t, sg->hot[i]);
		buf_addc(b, '\n');
		buf_adds(b, st->subitem);
		report_add_path(b, s, st, sg->hot[i]);
		buf_adds(b, ": new (");
		report_add_amount(
		        b, report_amount(s, tree_node_total(s->t, n, SIDE_HEAD), SIDE_HEAD), false);
		buf_addc(b, ' ');
		report_add_label(b, st, report_countname(opt));
		buf_adds(b, ", ");
		numfmt_report_percent(
		        b, share(s, tree_node_total(s->t, n, SIDE_HEAD), SIDE_HEAD) * 100, false);
		buf_adds(b, " of head)");
	}
	buf_addc(b, '\n');
}

void
report_add_signals(struct buf *b, const struct report *r, const struct report_style *st)
{
	const struct summary *s = &r->sum;
	const struct signals *sg = &r->signals;
	if (!s->differential) {
		return;
	}
	st->heading(b, "Signals", NULL);
	if (!report_signals_any(sg)) {
		report_note(b, st, NOTE_NONE, 0, 0);
		return;
	}
	if (sg->nhot) {
		add_hot(b, s, sg, r->opt, st);
	}
	if (sg->cat[SIGNAL_ALLOC].present) {
		add_category(b, s, st, &sg->cat[SIGNAL_ALLOC], "Allocation");
	}
	if (sg->cat[SIGNAL_IO].present) {
		add_category(b, s, st, &sg->cat[SIGNAL_IO], "I/O");
	}
	if (sg->depth_present) {
		buf_adds(b, st->item);
		buf_adds(b, "Mean stack depth (sample-weighted): ");
		numfmt_report_number(b, sg->depth[SIDE_BASE], 1, false, false);
		buf_adds(b, " \u2192 ");
		numfmt_report_number(b, sg->depth[SIDE_HEAD], 1, false, false);
		buf_adds(b, " frames (");
		numfmt_report_number(
		        b, sg->depth[SIDE_HEAD] - sg->depth[SIDE_BASE], 1, false, true);
		buf_adds(b, ")\n");
	}
}
