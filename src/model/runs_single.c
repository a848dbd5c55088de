/*
 * runs_single: the test of every frame and function with one profile a
 * side of sampled counts (runs_attach_single), each count against its
 * side's total by the conditional binomial test (stats_pair_p).
 *
 * It runs on every folded pair by default, so it is built to cost little
 * beside reading: each family (frames' self, frames' total, functions'
 * self, functions' total) is tested in one pass, a pair of counts met
 * again (most frames hold a few samples, and a leaf's self is its total)
 * is looked up rather than tested again, a pair the bound brackets keeps
 * its range and has p worked out only if its family's cut needs it, and
 * the Benjamini-Hochberg cut is found by counting p values into rank
 * buckets rather than by sorting them. What is kept is each test's verdict, two bits a frame and a
 * byte a name; a p value or interval shown (the SVG's data-interval, the reports' rows) is worked
 * out again when asked. The functions' sums and their totals' test wait until a report asks: a
 * picture needs the self test of the names alone.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "runs_cut.h"
#include "runs_private.h"
#include "xalloc.h"

/* Pairs of whole counts under this are looked up in a table, not a map. */
#define SMALL_COUNTS ((size_t)64)

struct single_functions {
	/* The intervals and p of small whole pairs shown so far, [(base *
	 * SMALL_COUNTS + head) * 3 + low/high/p], NAN: not yet (the exact
	 * test's interval costs a few Newton steps, its p a sum of terms;
	 * the picture asks both of every frame), NULL until one is. */
	double *interval;
	bool summed; /* fsum filled in */
	bool total_tested; /* fn_sig's total bits set */
	/* Each name's sums [total][side] in samples. */
	double *fsum[2][2];
};

/*
 * The p of each pair of counts met, while the tests run; or, when the
 * bound settles it, a stand-in that every family decides alike: QUIET_P
 * (over alpha, under 1) or 0 (at most alpha over the most tests a family
 * holds, so in the first rank of any family's cut); or, when the bound
 * only brackets it, -(i + 1) for memo->ranges.v[i]: a hypothesis (p under 1)
 * and a candidate whose p family_cut works out only if the cut needs it
 * (about one in five: p itself cost more than the rest of the test).
 */
#define QUIET_P 0.75

/* A whole pair past the small table: base << 32 | head and its p. */
struct pair_entry {
	uint64_t key;
	double p;
};

struct pair_memo {
	struct stats_pair_bound bound;
	double small[SMALL_COUNTS * SMALL_COUNTS]; /* base * SMALL_COUNTS + head; NAN: not yet */
	/* The other whole pairs: open addressing, at most half full, with the
	 * p beside its key (one probe reads it: an idmap to an array of p
	 * cost twice as much a look-up), hashed with a seed drawn once a run,
	 * since the counts come from the input. NULL until the first. Which
	 * slots hold a pair is a bit each in held: big itself is left
	 * uncleared (clearing its 16 bytes a slot cost more than the look-ups
	 * into it on the 10 MB pair). */
	struct pair_entry *big;
	uint64_t *held;
	size_t mask, count;
	uint64_t seed;
	size_t first_slots; /* the table's first size: doubling from small cost more */
	struct pair_ranges ranges;
};

static void
memo_init(struct pair_memo *memo, const struct runs *r, size_t most_tests)
{
	memset(memo, 0, sizeof(*memo));
	/* Twice the tests: room for a name's p kept as a float. */
	stats_pair_bound_init(&memo->bound, r->alpha, r->alpha / (2 * (double)(most_tests + 1)));
	for (size_t i = 0; i < SMALL_COUNTS * SMALL_COUNTS; i++) {
		memo->small[i] = NAN;
	}
	memo->small[0] = 1; /* no count on either side: stats_pair_p's own answer */
	/* A slot for every fourth test, up to 2^16 (1 MiB): about the pairs
	 * past the small table that the generator's graphs hold. */
	memo->first_slots = 1024;
	while (memo->first_slots < most_tests / 4 && memo->first_slots < 65536) {
		memo->first_slots *= 2;
	}
}

static void
memo_finish(struct pair_memo *memo)
{
	free(memo->big);
	free(memo->held);
	free(memo->ranges.v);
}

/* Whether slot i of memo->big holds a pair. */
static inline bool
memo_held(const struct pair_memo *memo, size_t i)
{
	return memo->held[i / 64] >> (i % 64) & 1;
}

/* The slot of key in memo->big: its entry's, or the empty one it would take. */
static inline size_t
memo_slot(const struct pair_memo *memo, uint64_t key)
{
	size_t i = (size_t)hash_end(hash_mix(memo->seed, key), 8) & memo->mask;
	while (memo_held(memo, i) && memo->big[i].key != key) {
		i = (i + 1) & memo->mask;
	}
	return i;
}

/* Slot i (empty) of memo->big given to e. */
static inline void
memo_put(struct pair_memo *memo, size_t i, struct pair_entry e)
{
	memo->big[i] = e;
	memo->held[i / 64] |= (uint64_t)1 << (i % 64);
}

/* Room in memo->big for one more pair: twice the slots when half full. */
static void
memo_room(struct pair_memo *memo)
{
	if (memo->big && (memo->count + 1) * 2 <= memo->mask + 1) {
		return;
	}
	struct pair_entry *old = memo->big;
	uint64_t *old_held = memo->held;
	size_t old_slots = old ? memo->mask + 1 : 0,
	       slots = old ? 2 * old_slots : memo->first_slots;
	if (!old) {
		memo->seed = hash_seed();
	}
	memo->big = xmalloc(slots * sizeof(*memo->big));
	memo->held = xcalloc(slots / 64, sizeof(uint64_t)); /* slots: a power of 2 from 1024 */
	memo->mask = slots - 1;
	for (size_t i = 0; i < old_slots; i++) {
		if (old_held[i / 64] >> (i % 64) & 1) {
			memo_put(memo, memo_slot(memo, old[i].key), old[i]);
		}
	}
	free(old);
	free(old_held);
}

/* A new range for the pair (a, b) under 2^32: its stand-in p, -(index + 1). */
static double
memo_range(struct pair_memo *memo, double lo, double hi, uint64_t a, uint64_t b)
{
	struct pair_ranges *g = &memo->ranges;
	if (g->len == g->cap) {
		g->v = xgrow(g->v, &g->cap, g->len + 1, sizeof(*g->v));
	}
	g->v[g->len++] = (struct pair_range){lo, hi, (uint32_t)a, (uint32_t)b, false};
	return -(double)g->len;
}

/*
 * stats_pair_p of whole counts a (base) and b (head) under 2^32 against
 * the side totals, each pair worked out once.
 */
static double
whole_pair_p(const struct runs *r, struct pair_memo *memo, uint64_t a, uint64_t b)
{
	double *slot = NULL;
	size_t i = 0;
	uint64_t key = a << 32 | b;
	if ((a | b) < SMALL_COUNTS) {
		slot = &memo->small[a * SMALL_COUNTS + b];
		if (!isnan(*slot)) {
			return *slot;
		}
	} else {
		memo_room(memo);
		i = memo_slot(memo, key);
		if (memo_held(memo, i)) {
			return memo->big[i].p;
		}
	}
	double x = units_double(a), y = units_double(b);
	double A = r->exposure[SIDE_BASE], B = r->exposure[SIDE_HEAD], p, lo, hi;
	/* Whole counts under 2^32, not both 0: stats_pair_range's checks
	 * but the totals'. */
	enum stats_pair_verdict v =
	        A > 0 && B > 0 ? stats_pair_range_whole(&memo->bound, x, A, y, B, &lo, &hi)
	                       : stats_pair_range(&memo->bound, x, A, y, B, &lo, &hi);
	switch (v) {
	case STATS_PAIR_QUIET:
		p = QUIET_P;
		break;
	case STATS_PAIR_SURE:
		p = 0;
		break;
	default:
		if (hi == 1) {
			p = stats_pair_p(x, A, y, B); /* no range */
		} else if (lo > r->alpha && (float)lo > r->alpha) {
			p = QUIET_P; /* over alpha as a double and as a float */
		} else {
			p = memo_range(memo, lo, hi, a, b);
		}
	}
	if (slot) {
		*slot = p;
	} else {
		memo_put(memo, i, (struct pair_entry){key, p});
		memo->count++;
	}
	return p;
}

/* stats_pair_p of counts a (base) and b (head) in samples, against the side totals. */
static double
pair_p(const struct runs *r, struct pair_memo *memo, double a, double b)
{
	if (a + b <= 0) {
		return 1; /* stats_pair_p's own answer: no count on either side */
	}
	/* Whole counts under 2^32 have a key (a cast, not floor: no libm call). */
	if (a < 4294967296.0 && b < 4294967296.0 && (double)(uint32_t)a == a &&
	        (double)(uint32_t)b == b) {
		return whole_pair_p(r, memo, (uint32_t)a, (uint32_t)b);
	}
	return stats_pair_p(a, r->exposure[SIDE_BASE], b, r->exposure[SIDE_HEAD]);
}

/*
 * count_pair_p of whole units with no nanos and a weight of 1 (r->plain):
 * the frames' loop's case, most of whose pairs are small and met before.
 */
static inline double
units_pair_p(const struct runs *r, struct pair_memo *memo, uint64_t a, uint64_t b)
{
	if ((a | b) < SMALL_COUNTS) {
		double p = memo->small[a * SMALL_COUNTS + b];
		if (!isnan(p)) {
			return p;
		}
	}
	if ((a | b) < 4294967296u) {
		return whole_pair_p(r, memo, a, b); /* a | b: not 0, small[0] is set */
	}
	return pair_p(r, memo, units_double(a), units_double(b));
}

/*
 * pair_p of a node's counts, [side], as they are kept (units and nanos),
 * over each side's weight: the frames' loop's case when r->plain is not.
 */
static inline double
count_pair_p(const struct runs *r, struct pair_memo *memo, const struct count c[2])
{
	return pair_p(r, memo, count_to_double(c[0]) / r->weight[SIDE_BASE],
	        count_to_double(c[1]) / r->weight[SIDE_HEAD]);
}

/* One profile a side: node id's counts in samples, [side]. */
static void
node_samples(const struct runs *r, uint32_t id, bool total, double *v)
{
	const struct tree *t = r->single;
	const struct tree_node *n = tree_node(t, id);
	for (int side = 0; side < 2; side++) {
		struct count k = total ? tree_node_total(t, n, side) : tree_node_self(t, n, side);
		v[side] = count_to_double(k) / r->weight[side];
	}
}

/*
 * Node id's self and total in samples, [total][side]: node_samples' values
 * (whole units over a weight of 1 are the units), read once for both.
 */
static void
node_both(const struct runs *r, const struct tree_node *n, double v[2][2])
{
	if (r->plain) {
		for (int side = 0; side < 2; side++) {
			v[0][side] = units_double(n->self_units[side]);
			v[1][side] = units_double(n->total_units[side]);
		}
		return;
	}
	node_samples(r, (uint32_t)(n - r->single->nodes), false, v[0]);
	node_samples(r, (uint32_t)(n - r->single->nodes), true, v[1]);
}

/*
 * The size of one sample in count units, for counts weighted by time: a
 * profile whose every count is a multiple of w (pprof's CPU nanoseconds,
 * 10 ms a sample) holds a w-th of them. One w for both sides, so that
 * their totals compare. Fractional counts are taken as they are.
 */
static double
sample_weight(const struct tree *t)
{
	uint64_t g = 0;
	for (size_t id = 0; id < t->node_count && g != 1; id++) {
		const struct tree_node *n = &t->nodes[id];
		for (int side = 0; side < 2; side++) {
			if (t->nanos && t->nanos[id].self[side]) {
				return 1;
			}
			for (uint64_t a = g, b = n->self_units[side]; b;) {
				uint64_t m = a % b;
				a = b;
				b = m;
				g = a;
			}
		}
	}
	return g ? (double)g : 1;
}

/*
 * The frames' loop when the counts are plain (whole samples, weight 1):
 * the units alone, no struct count built, and each family's hypotheses
 * counted in a local, so that the loop keeps its state in registers (the
 * verdicts' bytes could alias anything in memory). With sums, each name's
 * self counts added up on the way (test_names_whole's), every frame but
 * the root's.
 */
static void
plain_nodes(const struct runs *r, const struct tree *t, struct pair_memo *memo,
        struct family fam[2], uint32_t (*sums)[2])
{
	const struct tree_node *nodes = t->nodes;
	size_t count = t->node_count, m_self = 0, m_total = 0;
	double alpha = r->alpha, last_p = 1;
	uint64_t last[2] = {0, 0}; /* 0 against 0: p 1, as units_pair_p has it */
	for (size_t id = 0; id < count; id++) {
		const struct tree_node *n = &nodes[id];
		uint64_t s0 = n->self_units[SIDE_BASE], s1 = n->self_units[SIDE_HEAD];
		uint64_t t0 = n->total_units[SIDE_BASE], t1 = n->total_units[SIDE_HEAD];
		/* No self on either side (most inner frames): p 1, no
		 * hypothesis, nothing for family_add to count. */
		double p_self = 1;
		if (s0 | s1) {
			if (sums) {
				sums[n->name][0] += (uint32_t)s0;
				sums[n->name][1] += (uint32_t)s1;
			}
			p_self = units_pair_p(r, memo, s0, s1);
			m_self += p_self < 1;
			if (p_self <= alpha) {
				family_candidate(&fam[0], (uint32_t)id, p_self);
			}
		}
		/* A leaf's self is its total: the same test; and a frame whose
		 * total is the last one's (a caller with one callee and no self
		 * of its own, children laid out after their parent) its p. */
		double p_total = s0 == t0 && s1 == t1             ? p_self
		                 : t0 == last[0] && t1 == last[1] ? last_p
		                                                  : units_pair_p(r, memo, t0, t1);
		last[0] = t0;
		last[1] = t1;
		last_p = p_total;
		m_total += p_total < 1;
		if (p_total <= alpha) {
			family_candidate(&fam[1], (uint32_t)id, p_total);
		}
	}
	fam[0].m += m_self;
	fam[1].m += m_total;
	if (sums && count) { /* the root's taken off (its self is 0 in any tree built) */
		sums[nodes[0].name][0] -= (uint32_t)nodes[0].self_units[0];
		sums[nodes[0].name][1] -= (uint32_t)nodes[0].self_units[1];
	}
}

/*
 * Every frame's self and total, each family cut, then the statuses
 * demoted; with sums, the names' self sums too (plain counts only).
 */
static void
single_nodes(struct runs *r, struct tree *t, struct pair_memo *memo, uint32_t (*sums)[2])
{
	r->node_count = t->node_count;
	r->node_sig = xcalloc(t->node_count / 4 + 1, 1);
	struct family fam[2];
	family_init(&fam[0], r, &memo->ranges, r->node_sig, 0, true);
	family_init(&fam[1], r, &memo->ranges, r->node_sig, 1, true);
	if (r->plain) {
		plain_nodes(r, t, memo, fam, sums);
	}
	for (size_t id = 0; !r->plain && id < t->node_count; id++) {
		const struct tree_node *n = &t->nodes[id];
		struct count self[2] = {
		        tree_node_self(t, n, SIDE_BASE), tree_node_self(t, n, SIDE_HEAD)};
		struct count tot[2] = {
		        tree_node_total(t, n, SIDE_BASE), tree_node_total(t, n, SIDE_HEAD)};
		double p_self = count_pair_p(r, memo, self);
		/* A leaf's self is its total: the same test. */
		bool same = self[0].units == tot[0].units && self[1].units == tot[1].units &&
		            self[0].nanos == tot[0].nanos && self[1].nanos == tot[1].nanos;
		family_add(&fam[0], (uint32_t)id, p_self);
		family_add(&fam[1], (uint32_t)id, same ? p_self : count_pair_p(r, memo, tot));
	}
	family_cut(&fam[0]);
	family_cut(&fam[1]);
	runs_demote(r, t);
}

/*
 * Each name's self (and, when fsum[1] is there, total) in samples, summed
 * as the reports sum them.
 */
static void
name_sums(const struct runs *r, double *fsum[2][2])
{
	const struct tree *t = r->single;
	bool *outer = fsum[1][0] ? runs_outermost(t, r->nnames) : NULL;
	for (size_t id = 1; id < t->node_count; id++) {
		const struct tree_node *n = tree_node(t, (uint32_t)id);
		if (!outer && r->plain) {
			/* The picture's case: whole self counts, most of them 0. */
			if (n->self_units[0] | n->self_units[1]) {
				fsum[0][0][n->name] += units_double(n->self_units[0]);
				fsum[0][1][n->name] += units_double(n->self_units[1]);
			}
			continue;
		}
		double v[2][2];
		node_both(r, n, v);
		for (int side = 0; side < 2; side++) {
			fsum[0][side][n->name] += v[0][side];
			if (outer && outer[id]) {
				fsum[1][side][n->name] += v[1][side];
			}
		}
	}
	free(outer);
}

/*
 * One family of names cut into fn_sig. The kept p of a name was a float
 * (40 bytes a name); the cut still compares p so rounded, so that the
 * verdicts stay what they were.
 */
static void
test_names(const struct runs *r, double *const sums[2], int total, struct pair_memo *memo)
{
	struct family fam;
	family_init(&fam, r, &memo->ranges, r->fn_sig, (unsigned)total, false);
	for (uint32_t name = 0; name < r->nnames; name++) {
		double p = pair_p(r, memo, sums[SIDE_BASE][name], sums[SIDE_HEAD][name]);
		family_add(&fam, name, p < 0 ? p : (float)p); /* p < 0: a range */
	}
	family_cut(&fam);
}

/*
 * Whether the names' self sums are whole samples under 2^32, the
 * picture's case: whole samples and both totals under 2^32 (the self
 * counts add up to the total). They are then kept in 32 bits, 8 bytes a
 * name instead of 16 (on big trees this array set the run's peak), and
 * summed in the frames' loop.
 */
static bool
names_whole(const struct runs *r)
{
	return r->plain && r->exposure[SIDE_BASE] < 4294967296.0 &&
	       r->exposure[SIDE_HEAD] < 4294967296.0;
}

/* test_names of names_whole's sums, tested as pair_p tests them; frees them. */
static void
test_names_whole(const struct runs *r, struct pair_memo *memo, uint32_t (*sums)[2])
{
	struct family fam;
	family_init(&fam, r, &memo->ranges, r->fn_sig, 0, false);
	for (uint32_t name = 0; name < r->nnames; name++) {
		uint32_t a = sums[name][SIDE_BASE], b = sums[name][SIDE_HEAD];
		if ((a | b) == 0) {
			continue; /* no self on either side (most callers): p 1, no test */
		}
		double p = units_pair_p(r, memo, a, b);
		family_add(&fam, name, p < 0 ? p : (float)p); /* p < 0: a range */
	}
	family_cut(&fam);
	free(sums);
}

/* Zeroed sums of each name, self and, with total, total (else NULL). */
static void
new_sums(uint32_t nnames, bool total, double *fsum[2][2])
{
	for (int side = 0; side < 2; side++) {
		fsum[0][side] = xcalloc(nnames ? nnames : 1, sizeof(double));
		fsum[1][side] = total ? xcalloc(nnames ? nnames : 1, sizeof(double)) : NULL;
	}
}

static void
free_sums(double *fsum[2][2])
{
	for (int total = 0; total < 2; total++) {
		for (int side = 0; side < 2; side++) {
			free(fsum[total][side]);
			fsum[total][side] = NULL;
		}
	}
}

/* The names' sums, self and total, and the totals' test: for the reports. */
static struct single_functions *
functions_complete(const struct runs *r)
{
	struct single_functions *f = r->fn;
	if (!f->summed) {
		new_sums(r->nnames, true, f->fsum);
		name_sums(r, f->fsum);
		f->summed = true;
	}
	if (!f->total_tested) {
		struct pair_memo *memo = xmalloc(sizeof(*memo));
		memo_init(memo, r, r->nnames);
		test_names(r, f->fsum[1], 1, memo);
		memo_finish(memo);
		free(memo);
		f->total_tested = true;
	}
	return f;
}

void
runs_attach_single(struct tree *t, double alpha, bool weighted, const double per_sample[2])
{
	struct runs *r = runs_create(alpha);
	r->single = t;
	double one = 1, w = 1;
	if (weighted && !(per_sample[SIDE_BASE] > 0 && per_sample[SIDE_HEAD] > 0)) {
		w = sample_weight(t);
	}
	r->plain = !t->nanos;
	for (int side = 0; side < 2; side++) {
		r->n[side] = 1;
		r->weight[side] = per_sample[side] > 0 ? per_sample[side] : w;
		r->plain &= r->weight[side] == 1;
		r->exposure[side] =
		        count_to_double(tree_node_total(t, tree_node(t, TREE_ROOT), side)) /
		        r->weight[side];
	}
	stats_counts_test(&r->exposure[SIDE_BASE], &one, 1, &r->exposure[SIDE_HEAD], &one, 1, alpha,
	        &r->whole);
	struct pair_memo *memo = xmalloc(sizeof(*memo));
	r->nnames = intern_count(t->names);
	memo_init(memo, r, t->node_count > r->nnames ? t->node_count : r->nnames);
	r->fn = xcalloc(1, sizeof(*r->fn)); /* before the demotion, which shows intervals */
	/* The names' self test (the picture's caption needs it), its sums
	 * made in the frames' loop when whole; the totals' wait for a report. */
	uint32_t(*sums)[2] =
	        names_whole(r) ? xcalloc(r->nnames ? r->nnames : 1, sizeof(*sums)) : NULL;
	single_nodes(r, t, memo, sums);
	r->fn_sig = xcalloc(r->nnames ? r->nnames : 1, 1);
	if (sums) {
		test_names_whole(r, memo, sums);
	} else {
		double *fsum[2][2];
		new_sums(r->nnames, false, fsum);
		name_sums(r, fsum);
		test_names(r, fsum[0], 0, memo);
		free_sums(fsum);
	}
	memo_finish(memo);
	free(memo);
	t->runs = r;
}

void
runs_single_free(struct runs *r)
{
	free(r->node_sig);
	free(r->fn_sig);
	if (r->fn) {
		free(r->fn->interval);
		free_sums(r->fn->fsum);
		free(r->fn);
	}
}

void
runs_single_node_interval(
        const struct runs *r, uint32_t id, bool total, double *lo, double *hi, double *p)
{
	double v[2];
	bool small; /* whole counts under SMALL_COUNTS: kept in f->interval */
	if (r->plain && id < r->single->node_count) {
		/* Whole units over a weight of 1: the units (node_samples' values). */
		const struct tree_node *n = &r->single->nodes[id];
		const uint64_t *u = total ? n->total_units : n->self_units;
		v[0] = units_double(u[0]);
		v[1] = units_double(u[1]);
		small = (u[0] | u[1]) < SMALL_COUNTS;
	} else {
		node_samples(r, id, total, v);
		small = v[0] < SMALL_COUNTS && v[1] < SMALL_COUNTS &&
		        v[0] == (double)(uint32_t)v[0] && v[1] == (double)(uint32_t)v[1];
	}
	double A = r->exposure[SIDE_BASE], B = r->exposure[SIDE_HEAD];
	double *slot = NULL;
	if (small) {
		struct single_functions *f = r->fn;
		if (!f->interval) {
			f->interval = xmalloc(SMALL_COUNTS * SMALL_COUNTS * 3 * sizeof(double));
			for (size_t i = 0; i < SMALL_COUNTS * SMALL_COUNTS * 3; i++) {
				f->interval[i] = NAN;
			}
		}
		slot = &f->interval[((size_t)v[0] * SMALL_COUNTS + (size_t)v[1]) * 3];
		if (!isnan(slot[0])) {
			*lo = slot[0];
			*hi = slot[1];
			*p = slot[2];
			return;
		}
	}
	*p = stats_pair_p(v[SIDE_BASE], A, v[SIDE_HEAD], B);
	stats_pair_interval(v[SIDE_BASE], A, v[SIDE_HEAD], B, r->alpha, lo, hi);
	if (slot) {
		slot[0] = *lo;
		slot[1] = *hi;
		slot[2] = *p;
	}
}

void
runs_single_function(const struct runs *r, uint32_t name, bool total, struct stats_counts *out)
{
	const struct single_functions *f = functions_complete(r);
	double a = f->fsum[total][SIDE_BASE][name], b = f->fsum[total][SIDE_HEAD][name];
	stats_counts_test(
	        &a, &r->exposure[SIDE_BASE], 1, &b, &r->exposure[SIDE_HEAD], 1, r->alpha, out);
}

bool
runs_single_function_significant(const struct runs *r, uint32_t name, bool total)
{
	if (total) {
		functions_complete(r);
	}
	return r->fn_sig[name] >> total & 1;
}
