#include "runs.h"

#include <stdlib.h>
#include <string.h>

#include "tree_build.h"
#include "xalloc.h"

/* One run of a side: each node's self count, for the nodes it knew of. */
struct run {
	double *v; /* self counts, later replaced by nothing (freed after testing) */
	size_t len;
};

/* Per node after testing: [0] self, [1] total. Floats: 24 bytes a node. */
struct node_stat {
	float p[2];
	float lo[2], hi[2];
};

struct runs {
	double alpha;
	struct run *run[2];
	size_t n[2], cap[2];
	double *prev[2]; /* the side's self counts summed so far */
	size_t prev_len[2];
	struct node_stat *nodes;
	size_t node_count;
	struct stats_welch *fns[2]; /* by intern id: [0] self, [1] total */
	uint32_t nnames;
	struct stats_welch whole;
	/* Benjamini-Hochberg: the largest significant p of each family, -1: none. */
	double node_cut[2], fn_cut[2];
};

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
		for (size_t i = 0; i < r->n[side]; i++) {
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
	free(r);
}

void
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
	for (size_t i = 0; i < len; i++) {
		double now =
		        units ? count_to_double((struct count){units[i], nanos ? nanos[i] : 0}) : 0;
		double before = i < r->prev_len[side] ? r->prev[side][i] : 0;
		run->v[i] = now - before;
		r->prev[side][i] = now;
	}
	r->prev_len[side] = len;
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

/* The shares of one value (self or total counts of every run) of a side. */
static void
shares(double *const *v, size_t runs, const double *run_total, size_t id, double *out)
{
	for (size_t k = 0; k < runs; k++) {
		out[k] = run_total[k] > 0 ? v[k][id] / run_total[k] : 0;
	}
}

/* The per-run arrays of both sides, self and total, side by side. */
struct table {
	double **v[2][2]; /* [side][total] -> per run, per id */
	double *run_total[2];
	double *x, *y;
};

static void
test_one(const struct runs *r, const struct table *tb, int total, size_t id, struct stats_welch *w)
{
	shares(tb->v[SIDE_BASE][total], r->n[SIDE_BASE], tb->run_total[SIDE_BASE], id, tb->x);
	shares(tb->v[SIDE_HEAD][total], r->n[SIDE_HEAD], tb->run_total[SIDE_HEAD], id, tb->y);
	stats_welch(tb->x, r->n[SIDE_BASE], tb->y, r->n[SIDE_HEAD], r->alpha, w);
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
bh_cut(double *p, size_t m, double alpha)
{
	qsort(p, m, sizeof(double), compare_double);
	/* p = 1 exactly is a share the same in every run (the root, a frame
	 * on every stack, a name not on a side): no hypothesis, not counted. */
	while (m > 0 && p[m - 1] >= 1) {
		m--;
	}
	double cut = -1;
	for (size_t k = 0; k < m; k++) {
		if (p[k] <= (double)(k + 1) / (double)m * alpha) {
			cut = p[k];
		}
	}
	return cut;
}

static void
test_nodes(struct runs *r, struct tree *t, const struct table *tb)
{
	r->node_count = t->node_count;
	r->nodes = xcalloc(t->node_count, sizeof(struct node_stat));
	for (size_t id = 0; id < t->node_count; id++) {
		for (int total = 0; total < 2; total++) {
			struct stats_welch w;
			test_one(r, tb, total, id, &w);
			r->nodes[id].p[total] = (float)w.p;
			r->nodes[id].lo[total] = (float)w.lo;
			r->nodes[id].hi[total] = (float)w.hi;
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
	for (size_t id = 0; id < t->node_count; id++) {
		struct tree_node *n = &t->nodes[id];
		if (n->status != STATUS_SAME && !runs_node_significant(r, (uint32_t)id, false)) {
			n->status = STATUS_SAME;
		}
	}
}

/*
 * Which nodes add their total to their function's: those with no
 * ancestor of the same name (the reports' rule). A pre-order walk with an
 * explicit path, as stacks may be 10,000+ frames deep.
 */
static bool *
outermost(const struct tree *t, uint32_t nnames)
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
	bool *outer = outermost(t, nnames);
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
		r->fns[total] = xcalloc(nnames ? nnames : 1, sizeof(struct stats_welch));
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
	stats_welch(tb.run_total[SIDE_BASE], r->n[SIDE_BASE], tb.run_total[SIDE_HEAD],
	        r->n[SIDE_HEAD], r->alpha, &r->whole);
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
	return id < r->node_count && r->nodes[id].p[total] <= r->node_cut[total];
}

void
runs_node_interval(const struct runs *r, uint32_t id, bool total, double *lo, double *hi, double *p)
{
	const struct node_stat *s = &r->nodes[id];
	*lo = s->lo[total];
	*hi = s->hi[total];
	*p = s->p[total];
}

const struct stats_welch *
runs_function(const struct runs *r, uint32_t name, bool total)
{
	return &r->fns[total][name];
}

bool
runs_function_significant(const struct runs *r, uint32_t name, bool total)
{
	return name < r->nnames && r->fns[total][name].p <= r->fn_cut[total];
}

const struct stats_welch *
runs_whole(const struct runs *r)
{
	return &r->whole;
}
