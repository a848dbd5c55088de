#include "runs_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tree_build.h"
#include "xalloc.h"

struct runs *
runs_create(double alpha)
{
	struct runs *r = xcalloc(1, sizeof(*r));
	r->alpha = alpha;
	return r;
}

static void
free_runs(struct runs *r)
{
	for (int side = 0; side < 2; side++) {
		for (int total = 0; total < 2; total++) {
			free(r->node_acc[side][total]);
			free(r->fn_acc[side][total]);
			r->node_acc[side][total] = r->fn_acc[side][total] = NULL;
		}
		free(r->prev[side]);
		free(r->first[side]);
		r->prev[side] = r->first[side] = NULL;
	}
	free(r->outer);
	r->outer = NULL;
}

void
runs_destroy(struct runs *r)
{
	if (!r) {
		return;
	}
	free_runs(r);
	free(r->run_total[0]);
	free(r->run_total[1]);
	free(r->nodes);
	free(r->fns[0]);
	free(r->fns[1]);
	runs_single_free(r);
	free(r);
}

/* Grows an accumulator array from *len to len items, the new ones zero (no count yet). */
static struct stats_acc *
grow_acc(struct stats_acc *a, size_t old, size_t len)
{
	a = xrealloc(a, (len ? len : 1) * sizeof(*a));
	if (len > old) {
		memset(a + old, 0, (len - old) * sizeof(*a));
	}
	return a;
}

/* Room for len nodes and nnames names on both sides. */
static void
reserve(struct runs *r, size_t len, size_t nnames)
{
	for (int side = 0; side < 2; side++) {
		for (int total = 0; total < 2; total++) {
			if (len > r->acc_nodes || !r->node_acc[side][total]) {
				r->node_acc[side][total] =
				        grow_acc(r->node_acc[side][total], r->acc_nodes, len);
			}
			if (nnames > r->acc_names || !r->fn_acc[side][total]) {
				r->fn_acc[side][total] =
				        grow_acc(r->fn_acc[side][total], r->acc_names, nnames);
			}
		}
	}
	r->acc_nodes = len > r->acc_nodes ? len : r->acc_nodes;
	r->acc_names = nnames > r->acc_names ? nnames : r->acc_names;
}

/*
 * runs_outermost for the nodes made since the last run: a node's
 * ancestors are made before it and never change, so each is looked at
 * once, up to its nearest ancestor of the same name (a recursion stops
 * there at once).
 */
static void
outer_new_nodes(struct runs *r, const struct tree *t, size_t len)
{
	if (len <= r->outer_len) {
		return;
	}
	const uint32_t *names = tree_build_names(t);
	r->outer = xrealloc(r->outer, len * sizeof(bool));
	for (size_t id = r->outer_len; id < len; id++) {
		bool outer = true;
		for (uint32_t up = tree_build_parent(t, (uint32_t)id); outer && up != TREE_NONE;
		        up = tree_build_parent(t, up)) {
			outer = names[up] != names[id];
		}
		r->outer[id] = outer;
	}
	r->outer_len = len;
}

/* Whether this run's self counts are the side's first run's (a file given twice). */
static void
note_identical(struct runs *r, enum side side, const double *v, size_t len)
{
	if (r->n[side] == 1) {
		r->first[side] = xmalloc((len ? len : 1) * sizeof(double));
		memcpy(r->first[side], v, len * sizeof(double));
		r->first_len[side] = len;
	} else if (!r->differ[side] &&
	           (len != r->first_len[side] ||
	                   memcmp(v, r->first[side], len * sizeof(double)) != 0)) {
		r->differ[side] = true;
		free(r->first[side]);
		r->first[side] = NULL;
	}
}

/*
 * One run's functions: self over every node, total over the outermost,
 * summed in node order (the order the sums were always formed in).
 */
static void
add_functions(struct runs *r, const struct tree *t, enum side side, const double *self,
        const double *tot, size_t len, size_t nnames, double run_total)
{
	const uint32_t *names = tree_build_names(t);
	double *fself = xcalloc(nnames ? nnames : 1, sizeof(double));
	double *ftot = xcalloc(nnames ? nnames : 1, sizeof(double));
	for (size_t id = 1; id < len; id++) {
		fself[names[id]] += self[id];
		if (r->outer[id]) {
			ftot[names[id]] += tot[id];
		}
	}
	size_t k = r->n[side];
	double w = r->exposure_sum[side];
	for (size_t name = 0; name < nnames; name++) {
		stats_acc_add(&r->fn_acc[side][0][name], fself[name], run_total, k, w);
		stats_acc_add(&r->fn_acc[side][1][name], ftot[name], run_total, k, w);
	}
	free(fself);
	free(ftot);
}

bool
runs_take(struct runs *r, const struct tree *t, enum side side)
{
	size_t len;
	const uint32_t *nanos;
	const uint64_t *units = tree_side_self(t, side, &len, &nanos);
	size_t nnames = intern_count(t->names);
	r->run_total[side] =
	        xgrow(r->run_total[side], &r->cap[side], r->n[side] + 1, sizeof(double));
	r->n[side]++;
	double *v = xcalloc(len ? len : 1, sizeof(double));
	r->prev[side] = xrealloc(r->prev[side], (len ? len : 1) * sizeof(double));
	/* This run's self is what the side holds now less what it held before. */
	bool counted = false;
	for (size_t i = 0; i < len; i++) {
		double now =
		        units ? count_to_double((struct count){units[i], nanos ? nanos[i] : 0}) : 0;
		double before = i < r->prev_len[side] ? r->prev[side][i] : 0;
		v[i] = now - before;
		counted |= v[i] > 0;
		r->prev[side][i] = now;
	}
	r->prev_len[side] = len;
	note_identical(r, side, v, len);
	/* Its totals: a parent's id is below its children's, one pass from the end. */
	double *tot = xmalloc((len ? len : 1) * sizeof(double));
	memcpy(tot, v, len * sizeof(double));
	for (size_t i = len; i-- > 1;) {
		tot[tree_build_parent(t, (uint32_t)i)] += tot[i];
	}
	double run_total = len ? tot[TREE_ROOT] : 0;
	r->run_total[side][r->n[side] - 1] = run_total;
	r->exposure_sum[side] += run_total;
	/* Every node takes this run's count, 0 or not: the spreads need each run. */
	reserve(r, len, nnames);
	outer_new_nodes(r, t, len);
	size_t k = r->n[side];
	double w = r->exposure_sum[side];
	for (size_t i = 0; i < len; i++) {
		stats_acc_add(&r->node_acc[side][0][i], v[i], run_total, k, w);
		stats_acc_add(&r->node_acc[side][1][i], tot[i], run_total, k, w);
	}
	add_functions(r, t, side, v, tot, len, nnames, run_total);
	free(v);
	free(tot);
	return counted;
}

/* A count's change against each run's total: its share of the run. */
static void
test_one(const struct runs *r, struct stats_acc *const acc[2][2], int total, size_t id,
        struct stats_counts *c)
{
	stats_counts_acc(&acc[SIDE_BASE][total][id], r->n[SIDE_BASE], r->exposure_sum[SIDE_BASE],
	        &acc[SIDE_HEAD][total][id], r->n[SIDE_HEAD], r->exposure_sum[SIDE_HEAD], r->alpha,
	        c);
}

static int
compare_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

/*
 * The Benjamini-Hochberg cut over a family's p values (scratch is sorted
 * in place): a profile tests thousands of frames, and at a plain p < alpha
 * one in twenty unchanged ones would be coloured. This keeps the expected
 * share of false discoveries among the changes shown at alpha.
 */
static double
bh_cut(double *p, size_t n, double alpha)
{
	/* p = 1 exactly is a share the same in every run (the root, a frame
	 * on every stack, a name not on a side): no hypothesis, not counted.
	 * Only a p at most alpha can pass, so only those are sorted. */
	size_t m = 0, small = 0;
	for (size_t i = 0; i < n; i++) {
		m += p[i] < 1;
		if (p[i] <= alpha) {
			p[small++] = p[i];
		}
	}
	qsort(p, small, sizeof(double), compare_double);
	double cut = -1;
	for (size_t k = 0; k < small; k++) {
		if (p[k] <= (double)(k + 1) / (double)m * alpha) {
			cut = p[k];
		}
	}
	return cut;
}

/*
 * The direction of a change in share as its interval confirms it, the
 * sign of the interval's middle: 1 rose, -1 fell, 0 neither. The one rule
 * of the picture (runs_demote) and the reports' lists (runs_function_direction).
 */
static int
interval_direction(double lo, double hi)
{
	double middle = (lo + hi) / 2;
	return (middle > 0) - (middle < 0);
}

/*
 * A change the test does not confirm is drawn unchanged: slower and
 * faster by the self count's test, new and removed (a frame whose self
 * may be 0) by the total's.
 */
void
runs_demote(const struct runs *r, struct tree *t)
{
	/* In locals: a status written could alias t's fields, read again each turn. */
	struct tree_node *nodes = t->nodes;
	size_t count = t->node_count;
	for (size_t id = 0; id < count; id++) {
		struct tree_node *n = &nodes[id];
		if (n->status == STATUS_SAME) {
			continue; /* most frames: nothing to demote, so tested first */
		}
		bool total = n->status == STATUS_NEW || n->status == STATUS_REMOVED;
		/* One profile a side, the default: its verdict bits read inline. */
		bool significant = r->single ? runs_single_node_significant(r, (uint32_t)id, total)
		                             : runs_node_significant(r, (uint32_t)id, total);
		if (!significant) {
			n->status = STATUS_SAME;
		} else if (n->status == STATUS_SLOWER || n->status == STATUS_FASTER) {
			/* The test confirms a change of share; when the totals differ, a
			 * count that fell can hold a share that rose. Colour only what
			 * the test confirms in the direction drawn. */
			double lo, hi, p;
			runs_node_interval(r, (uint32_t)id, false, &lo, &hi, &p);
			int way = interval_direction(lo, hi);
			if (n->status == STATUS_SLOWER ? way <= 0 : way >= 0) {
				n->status = STATUS_SAME;
			}
		}
	}
}

static void
test_nodes(struct runs *r, struct tree *t)
{
	r->node_count = t->node_count;
	r->nodes = xcalloc(t->node_count, sizeof(struct node_stat));
	for (size_t id = 0; id < t->node_count; id++) {
		for (int total = 0; total < 2; total++) {
			struct stats_counts c;
			test_one(r, r->node_acc, total, id, &c);
			r->nodes[id].p[total] = (float)c.p;
			r->nodes[id].lo[total] = (float)c.lo;
			r->nodes[id].hi[total] = (float)c.hi;
		}
	}
	double *p = xmalloc(t->node_count * sizeof(double));
	for (int total = 0; total < 2; total++) {
		for (size_t id = 0; id < t->node_count; id++) {
			p[id] = r->nodes[id].p[total];
		}
		r->node_cut[total] = bh_cut(p, t->node_count, r->alpha);
	}
	free(p);
	runs_demote(r, t);
}

/*
 * Which nodes add their total to their function's: those with no
 * ancestor of the same name (the reports' rule). A pre-order walk with an
 * explicit path, as stacks may be 10,000+ frames deep.
 */
bool *
runs_outermost(const struct tree *t, uint32_t nnames)
{
	bool *out = xcalloc(t->node_count, sizeof(bool));
	uint32_t *on_path = xcalloc(nnames ? nnames : 1, sizeof(uint32_t));
	uint32_t *stack = xmalloc((t->max_depth + 1) * sizeof(uint32_t));
	size_t sp = 0;
	for (uint32_t id = tree_next_preorder(t, TREE_ROOT, TREE_ROOT); id != TREE_NONE;
	        id = tree_next_preorder(t, id, TREE_ROOT)) {
		const struct tree_node *n = tree_node(t, id);
		while (sp > 0 && tree_node(t, stack[sp - 1])->depth >= n->depth) {
			on_path[tree_node(t, stack[--sp])->name]--;
		}
		out[id] = on_path[n->name] == 0;
		on_path[n->name]++;
		stack[sp++] = id;
	}
	free(stack);
	free(on_path);
	return out;
}

static void
test_functions(struct runs *r, const struct tree *t)
{
	uint32_t nnames = intern_count(t->names);
	r->nnames = nnames;
	for (int total = 0; total < 2; total++) {
		r->fns[total] = xcalloc(nnames ? nnames : 1, sizeof(struct stats_counts));
		double *p = xmalloc((nnames ? nnames : 1) * sizeof(double));
		for (uint32_t name = 0; name < nnames; name++) {
			test_one(r, r->fn_acc, total, name, &r->fns[total][name]);
			p[name] = r->fns[total][name].p;
		}
		r->fn_cut[total] = bh_cut(p, nnames, r->alpha);
		free(p);
	}
}

/*
 * The whole profile: each run's total is one Poisson count (exposure 1 a
 * run), so the spread of the totals is the dispersion and the sides'
 * different run counts are their exposures.
 */
static void
whole_test(struct runs *r)
{
	size_t most = r->n[0] > r->n[1] ? r->n[0] : r->n[1];
	double *ones = xmalloc((most ? most : 1) * sizeof(double));
	for (size_t k = 0; k < most; k++) {
		ones[k] = 1;
	}
	stats_counts_test(r->run_total[SIDE_BASE], ones, r->n[SIDE_BASE], r->run_total[SIDE_HEAD],
	        ones, r->n[SIDE_HEAD], r->alpha, &r->whole);
	free(ones);
}

void
runs_attach(struct runs *r, struct tree *t)
{
	/* Nodes and names made after a side's last run: none of its runs held them. */
	reserve(r, t->node_count, intern_count(t->names));
	for (int side = 0; side < 2; side++) {
		if (!r->run_total[side]) {
			r->run_total[side] = xcalloc(1, sizeof(double));
		}
	}
	whole_test(r);
	for (int side = 0; side < 2; side++) {
		r->identical[side] = !r->differ[side] && r->n[side] > 1;
	}
	test_nodes(r, t);
	test_functions(r, t);
	free_runs(r);
	t->runs = r;
}

bool
runs_single(const struct runs *r)
{
	return r->single != NULL;
}

bool
runs_identical(const struct runs *r, enum side side)
{
	return r->identical[side];
}

double
runs_samples(const struct runs *r, enum side side)
{
	return side == SIDE_BASE ? r->whole.a : r->whole.b;
}

size_t
runs_count(const struct runs *r, enum side side)
{
	return r->n[side];
}

double
runs_alpha(const struct runs *r)
{
	return r->alpha;
}

bool
runs_node_significant(const struct runs *r, uint32_t id, bool total)
{
	if (r->single) {
		return runs_single_node_significant(r, id, total);
	}
	return id < r->node_count && r->nodes[id].p[total] <= r->node_cut[total];
}

/* A share changes by -1 to 1 (-100 to +100 points), whatever an interval's approximation says. */
static void
clip_share(double *lo, double *hi)
{
	/* fmax(*lo, -1) and fmin(*hi, 1), NaN included, without two calls
	 * into libm for every frame drawn. */
	if (!(*lo >= -1)) {
		*lo = -1;
	}
	if (!(*hi <= 1)) {
		*hi = 1;
	}
}

void
runs_node_interval(const struct runs *r, uint32_t id, bool total, double *lo, double *hi, double *p)
{
	if (r->single) {
		runs_single_node_interval(r, id, total, lo, hi, p);
	} else {
		const struct node_stat *s = &r->nodes[id];
		*lo = s->lo[total];
		*hi = s->hi[total];
		*p = s->p[total];
	}
	clip_share(lo, hi);
}

void
runs_function(const struct runs *r, uint32_t name, bool total, struct stats_counts *out)
{
	if (r->single) {
		runs_single_function(r, name, total, out);
	} else {
		*out = r->fns[total][name];
	}
	clip_share(&out->lo, &out->hi);
}

bool
runs_function_significant(const struct runs *r, uint32_t name, bool total)
{
	if (name >= r->nnames) {
		return false;
	}
	if (r->single) {
		return runs_single_function_significant(r, name, total);
	}
	return r->fns[total][name].p <= r->fn_cut[total];
}

int
runs_function_direction(const struct runs *r, uint32_t name, bool total)
{
	if (!runs_function_significant(r, name, total)) {
		return 0;
	}
	struct stats_counts c;
	runs_function(r, name, total, &c);
	return interval_direction(c.lo, c.hi);
}

const struct stats_counts *
runs_whole(const struct runs *r)
{
	return &r->whole;
}
