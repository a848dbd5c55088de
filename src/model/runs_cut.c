/*
 * runs_cut: one family's Benjamini-Hochberg cut (see runs_cut.h).
 */
#include "runs_cut.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "xalloc.h"

static void
family_pass(const struct family *f, uint32_t id)
{
	if (f->packed) {
		f->sig[id / 4] |= (uint8_t)(1u << (2 * (id % 4) + f->bit));
	} else {
		f->sig[id] |= (uint8_t)(1u << f->bit);
	}
}

void
family_candidate(struct family *f, uint32_t id, double p)
{
	if (p == 0) {
		/* Under the first rank's level, which always passes when one does. */
		f->sure++;
		family_pass(f, id);
		return;
	}
	if (p < 0) {
		if (f->ranged_len == f->ranged_cap) {
			f->ranged = xgrow(
			        f->ranged, &f->ranged_cap, f->ranged_len + 1, sizeof(*f->ranged));
		}
		f->ranged[f->ranged_len++] = (struct ranged){id, (uint32_t)(-p - 1)};
		return;
	}
	if (f->len == f->cap) {
		f->c = xgrow(f->c, &f->cap, f->len + 1, sizeof(*f->c));
	}
	f->c[f->len++] = (struct candidate){id, p};
}

/* Benjamini-Hochberg's level of rank k (from 1) among m: bh_cut's expression. */
static double
bh_level(size_t k, size_t m, double alpha)
{
	return (double)k / (double)m * alpha;
}

/*
 * The bucket of p (at most alpha, or its range's end) among n candidates
 * of m hypotheses: the first rank whose level p is under; n + 1 for none
 * a candidate can reach.
 */
static size_t
bh_bucket(double p, size_t n, size_t m, double alpha)
{
	/* stats_pair_p is in [0, 1] by construction (test_stats.c holds
	 * it to that up to counts of 2^64 - 1); the fuzzer once found a p
	 * of -2e9 there, which cast a negative rank to size_t. Checked in
	 * builds with asserts, read as its nearest bound in the others. */
	assert(p >= 0 && p <= 1);
	p = p > 0 ? (p < 1 ? p : 1) : 0; /* fmin's, inline */
	/* The estimate is within a rank or two of the bucket; the levels
	 * as bh_cut compares them settle it. */
	double guess = p * (double)m / alpha;
	size_t k = guess < (double)n ? (size_t)guess + 1 : n + 1;
	while (k > 1 && p <= bh_level(k - 1, m, alpha)) {
		k--;
	}
	while (k <= n && p > bh_level(k, m, alpha)) {
		k++;
	}
	return k;
}

/* The largest rank k <= n with at least k p values in buckets 1 to k; 0: none. */
static size_t
bh_pass(const uint32_t *count, size_t n)
{
	size_t pass = 0, under = 0;
	for (size_t k = 1; k <= n; k++) {
		under += count[k];
		if (under >= k) {
			pass = k;
		}
	}
	return pass;
}

/* The p of a range, worked out once; as the family compares it. */
static double
range_p(const struct family *f, struct pair_range *g)
{
	if (!g->exact) {
		g->lo = g->hi = stats_pair_p(units_double(g->a), f->r->exposure[SIDE_BASE],
		        units_double(g->b), f->r->exposure[SIDE_HEAD]);
		g->exact = true;
	}
	return f->as_float ? (float)g->lo : g->lo;
}

/*
 * The buckets of a range's ends in bucket[2]: its p's bucket lies between
 * them (p, lo and hi compared as the family compares them). One bucket
 * when p is worked out.
 */
static void
range_buckets(const struct family *f, const struct pair_range *g, size_t n, uint32_t bucket[2])
{
	double lo = f->as_float ? (float)g->lo : g->lo, hi = f->as_float ? (float)g->hi : g->hi;
	/* A range's hi may pass alpha: its bucket is then n + 1, as for p. */
	bucket[1] = (uint32_t)bh_bucket(hi, n, f->m, f->alpha);
	bucket[0] = g->exact ? bucket[1] : (uint32_t)bh_bucket(lo, n, f->m, f->alpha);
}

/*
 * The bounds of k* from the ranges' buckets, counted into count[2] (those
 * of the his, of the los), each range once with the number of its
 * candidates: k* falls as p values rise, so the his' counts give a lower
 * bound of k*, the los' an upper one. A range whose high bucket is at
 * most the first passes, one whose low bucket is over the second fails;
 * the others' p is worked out. Then the his' counts hold every rank
 * between the two bounds exactly: they give k* itself. Each range's high
 * bucket, then its bucket, in bucket[range][1].
 */
static size_t
ranges_cut(struct family *f, size_t n, uint32_t *count[2], uint32_t (*bucket)[2])
{
	uint32_t *uses = xcalloc(f->ranges->len, sizeof(uint32_t));
	for (size_t j = 0; j < f->ranged_len; j++) {
		uses[f->ranged[j].range]++;
	}
	for (size_t g = 0; g < f->ranges->len; g++) {
		if (uses[g]) {
			range_buckets(f, &f->ranges->v[g], n, bucket[g]);
			count[1][bucket[g][0]] += uses[g];
			count[0][bucket[g][1]] += uses[g];
		}
	}
	/* No rank past the number of los in buckets 1 to n can pass. */
	size_t least = 0, most = 0, under[2] = {0, 0}, reach = n - count[1][n + 1];
	for (size_t k = 1; k <= reach; k++) {
		under[0] += count[0][k];
		under[1] += count[1][k];
		least = under[0] >= k ? k : least;
		most = under[1] >= k ? k : most;
	}
	for (size_t g = 0; g < f->ranges->len; g++) {
		uint32_t *k = bucket[g];
		if (uses[g] && k[0] != k[1] && k[1] > least && k[0] <= most) {
			double p = range_p(f, &f->ranges->v[g]);
			count[0][k[1]] -= uses[g];
			k[0] = k[1] = (uint32_t)bh_bucket(p, n, f->m, f->alpha);
			count[0][k[1]] += uses[g];
		}
	}
	free(uses);
	return bh_pass(count[0], most); /* k* <= most */
}

/*
 * The Benjamini-Hochberg step-up without a sort. The k-th smallest p
 * passes when it is at most level(k); the cut is the largest such p, and
 * the p values at most it are exactly those at most level(k*), k* the
 * largest rank that passes (a p between the two would make a larger rank
 * pass). So each candidate's bucket, the first rank whose level it is
 * under, counted, gives k*: the largest k with at least k p values in
 * buckets 1 to k. Sets the bit of each candidate that passes in sig (two
 * bits a node when packed, else a byte an id).
 */
void
family_cut(struct family *f)
{
	size_t n = f->len + f->ranged_len + f->sure, m = f->m;
	double alpha = f->alpha;
	if (f->len == 0 && f->ranged_len == 0) {
		free(f->c);
		return;
	}
	/* The buckets counted, [1] (the los') beside [0] when there are ranges. */
	bool ranges = f->ranged_len > 0;
	uint32_t *count[2];
	count[0] = xcalloc((ranges ? 2 : 1) * (n + 2), sizeof(uint32_t));
	count[1] = ranges ? count[0] + n + 2 : count[0];
	count[0][1] = count[1][1] = (uint32_t)f->sure;
	for (size_t i = 0; i < f->len; i++) {
		size_t k = bh_bucket(f->c[i].p, n, m, alpha);
		f->c[i].p = (double)k; /* n + 1: under no rank a candidate can reach */
		count[0][k]++;
		count[1][k] += ranges;
	}
	size_t pass;
	uint32_t(*bucket)[2] = NULL;
	if (ranges) {
		bucket = xmalloc(f->ranges->len * sizeof(*bucket));
		pass = ranges_cut(f, n, count, bucket);
	} else {
		pass = bh_pass(count[0], n);
	}
	for (size_t i = 0; pass && i < f->len; i++) {
		if (f->c[i].p <= (double)pass) {
			family_pass(f, f->c[i].id);
		}
	}
	for (size_t j = 0; pass && j < f->ranged_len; j++) {
		if (bucket[f->ranged[j].range][1] <= pass) {
			family_pass(f, f->ranged[j].id);
		}
	}
	free(bucket);
	free(count[0]);
	free(f->c);
	free(f->ranged);
}

void
family_init(struct family *f, const struct runs *r, struct pair_ranges *ranges, uint8_t *sig,
        unsigned bit, bool packed)
{
	*f = (struct family){.alpha = r->alpha,
	        .sig = sig,
	        .bit = bit,
	        .packed = packed,
	        .as_float = !packed,
	        .r = r,
	        .ranges = ranges};
}
