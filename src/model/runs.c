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
		for (size_t i = 0; r->run[side] && i < r->n[side]; i++) {
			free(r->run[side][i].v);
			r->run[side][i].v = NULL;
		}
		free(r->prev[side]);
		r->prev[side] = NULL;
	}
}

void
runs_destroy(struct runs *r)
{
	if (!r) {
		return;
	}
	free_runs(r);
	free(r->run[0]);
	free(r->run[1]);
	free(r->nodes);
	free(r->fns[0]);
	free(r->fns[1]);
	runs_single_free(r);
	free(r);
}

bool
runs_take(struct runs *r, const struct tree *t, enum side side)
{
	size_t len;
	const uint32_t *nanos;
	const uint64_t *units = tree_side_self(t, side, &len, &nanos);
	r->run[side] = xgrow(r->run[side], &r->cap[side], r->n[side] + 1, sizeof(struct run));
	struct run *run = &r->run[side][r->n[side]++];
	run->len = len;
	run->v = xcalloc(len ? len : 1, sizeof(double));
	r->prev[side] = xrealloc(r->prev[side], (len ? len : 1) * sizeof(double));
	/* This run's self is what the side holds now less what it held before. */
	bool counted = false;
	for (size_t i = 0; i < len; i++) {
		double now =
		        units ? count_to_double((struct count){units[i], nanos ? nanos[i] : 0}) : 0;
		double before = i < r->prev_len[side] ? r->prev[side][i] : 0;
		run->v[i] = now - before;
		counted |= run->v[i] > 0;
		r->prev[side][i] = now;
	}
	r->prev_len[side] = len;
	return counted;
}

/* Every run's self counts over all n nodes, then its totals beside them. */
static double *
run_totals(struct run *run, const struct tree *t)
{
	size_t n = t->node_count;
	run->v = xrealloc(run->v, n * sizeof(double));
	for (size_t i = run->len; i < n; i++) {
		run->v[i] = 0;
	}
	run->len = n;
	double *tot = xmalloc(n * sizeof(double));
	memcpy(tot, run->v, n * sizeof(double));
	/* A parent's id is below its children's: one pass from the end. */
	for (size_t i = n; i-- > 1;) {
		tot[tree_node(t, (uint32_t)i)->parent] += tot[i];
	}
	return tot;
}

/* The counts of one value (self or total of every run) of a side. */
static void
gather(double *const *v, size_t runs, size_t id, double *out)
{
	for (size_t k = 0; k < runs; k++) {
		out[k] = v[k][id];
	}
}

/* The per-run arrays of both sides, self and total, side by side. */
struct table {
	double **v[2][2]; /* [side][total] -> per run, per id */
	double *run_total[2];
	double *x, *y;
};

/* A count's change against each run's total: its share of the run. */
static void
test_one(const struct runs *r, const struct table *tb, int total, size_t id, struct stats_counts *c)
{
	gather(tb->v[SIDE_BASE][total], r->n[SIDE_BASE], id, tb->x);
	gather(tb->v[SIDE_HEAD][total], r->n[SIDE_HEAD], id, tb->y);
	stats_counts_test(tb->x, tb->run_total[SIDE_BASE], r->n[SIDE_BASE], tb->y,
	        tb->run_total[SIDE_HEAD], r->n[SIDE_HEAD], r->alpha, c);
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
	for (size_t id = 0; id < t->node_count; id++) {
		struct tree_node *n = &t->nodes[id];
		bool total = n->status == STATUS_NEW || n->status == STATUS_REMOVED;
		if (n->status != STATUS_SAME && !runs_node_significant(r, (uint32_t)id, total)) {
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
test_nodes(struct runs *r, struct tree *t, const struct table *tb)
{
	r->node_count = t->node_count;
	r->nodes = xcalloc(t->node_count, sizeof(struct node_stat));
	for (size_t id = 0; id < t->node_count; id++) {
		for (int total = 0; total < 2; total++) {
			struct stats_counts c;
			test_one(r, tb, total, id, &c);
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

/* Function sums of one run: self over every node, total over the outermost. */
static void
function_sums(const struct tree *t, const bool *outer, const double *self, const double *tot,
        double *fself, double *ftot)
{
	for (size_t id = 1; id < t->node_count; id++) {
		uint32_t name = tree_node(t, (uint32_t)id)->name;
		fself[name] += self[id];
		if (outer[id]) {
			ftot[name] += tot[id];
		}
	}
}

static void
test_functions(struct runs *r, const struct tree *t, const struct table *tb)
{
	uint32_t nnames = intern_count(t->names);
	r->nnames = nnames;
	bool *outer = runs_outermost(t, nnames);
	struct table fn = *tb;
	for (int side = 0; side < 2; side++) {
		for (int total = 0; total < 2; total++) {
			fn.v[side][total] = xcalloc(r->n[side], sizeof(double *));
			for (size_t k = 0; k < r->n[side]; k++) {
				fn.v[side][total][k] = xcalloc(nnames ? nnames : 1, sizeof(double));
			}
		}
		for (size_t k = 0; k < r->n[side]; k++) {
			function_sums(t, outer, tb->v[side][0][k], tb->v[side][1][k],
			        fn.v[side][0][k], fn.v[side][1][k]);
		}
	}
	for (int total = 0; total < 2; total++) {
		r->fns[total] = xcalloc(nnames ? nnames : 1, sizeof(struct stats_counts));
		double *p = xmalloc((nnames ? nnames : 1) * sizeof(double));
		for (uint32_t name = 0; name < nnames; name++) {
			test_one(r, &fn, total, name, &r->fns[total][name]);
			p[name] = r->fns[total][name].p;
		}
		r->fn_cut[total] = bh_cut(p, nnames, r->alpha);
		free(p);
	}
	for (int side = 0; side < 2; side++) {
		for (int total = 0; total < 2; total++) {
			for (size_t k = 0; k < r->n[side]; k++) {
				free(fn.v[side][total][k]);
			}
			free(fn.v[side][total]);
		}
	}
	free(outer);
}

/*
 * The whole profile: each run's total is one Poisson count (exposure 1 a
 * run), so the spread of the totals is the dispersion and the sides'
 * different run counts are their exposures.
 */
static void
whole_test(struct runs *r, double *const run_total[2])
{
	size_t most = r->n[0] > r->n[1] ? r->n[0] : r->n[1];
	double *ones = xmalloc((most ? most : 1) * sizeof(double));
	for (size_t k = 0; k < most; k++) {
		ones[k] = 1;
	}
	stats_counts_test(run_total[SIDE_BASE], ones, r->n[SIDE_BASE], run_total[SIDE_HEAD], ones,
	        r->n[SIDE_HEAD], r->alpha, &r->whole);
	free(ones);
}

/* Whether every run holds the same counts as the first (a file given twice). */
static bool
identical_runs(const struct run *run, size_t n)
{
	for (size_t k = 1; k < n; k++) {
		if (run[k].len != run[0].len ||
		        memcmp(run[k].v, run[0].v, run[0].len * sizeof(double)) != 0) {
			return false;
		}
	}
	return n > 1;
}

void
runs_attach(struct runs *r, struct tree *t)
{
	struct table tb;
	memset(&tb, 0, sizeof(tb));
	size_t most = r->n[0] > r->n[1] ? r->n[0] : r->n[1];
	tb.x = xcalloc(most ? most : 1, sizeof(double));
	tb.y = xcalloc(most ? most : 1, sizeof(double));
	for (int side = 0; side < 2; side++) {
		tb.v[side][0] = xcalloc(r->n[side] ? r->n[side] : 1, sizeof(double *));
		tb.v[side][1] = xcalloc(r->n[side] ? r->n[side] : 1, sizeof(double *));
		tb.run_total[side] = xcalloc(r->n[side] ? r->n[side] : 1, sizeof(double));
		for (size_t k = 0; k < r->n[side]; k++) {
			tb.v[side][1][k] = run_totals(&r->run[side][k], t);
			tb.v[side][0][k] = r->run[side][k].v; /* grown by run_totals */
			tb.run_total[side][k] = tb.v[side][1][k][TREE_ROOT];
		}
	}
	whole_test(r, tb.run_total);
	for (int side = 0; side < 2; side++) {
		r->identical[side] = identical_runs(r->run[side], r->n[side]);
	}
	test_nodes(r, t, &tb);
	test_functions(r, t, &tb);
	for (int side = 0; side < 2; side++) {
		for (size_t k = 0; k < r->n[side]; k++) {
			free(tb.v[side][1][k]);
		}
		free(tb.v[side][0]);
		free(tb.v[side][1]);
		free(tb.run_total[side]);
	}
	free(tb.x);
	free(tb.y);
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
	*lo = fmax(*lo, -1);
	*hi = fmin(*hi, 1);
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
