/*
 * runs_cut: the Benjamini-Hochberg cut of one family of tests for
 * runs_single.c (frames' self, frames' total, names' self, names' total):
 * the candidates gathered while the family is tested, then cut by
 * counting ranks into buckets, with the p of a pair the bound only
 * brackets worked out where the cut needs it. For runs_single.c only.
 */
#ifndef DIFFFOLD_RUNS_CUT_H
#define DIFFFOLD_RUNS_CUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runs_private.h"

/* A pair whose p lies in [lo, hi]; once worked out, lo = hi = p. */
struct pair_range {
	double lo, hi;
	uint32_t a, b;
	bool exact;
};

/* The ranges of a run's pairs: a candidate with p -(i + 1) is known by v[i]. */
struct pair_ranges {
	struct pair_range *v;
	size_t len, cap;
};

/*
 * One family's tests for Benjamini-Hochberg: how many are hypotheses (p < 1)
 * and, of those, the ones that can pass (p <= alpha), with their p, or
 * apart those known by a range (ranged, the range's index); those of p 0
 * (or SURE) pass whatever the cut, so only their count is kept. The
 * verdicts go to sig: bit `bit` of byte id, or when packed, two bits a
 * node, bit 2 (id % 4) + bit of byte id / 4.
 */
struct family {
	double alpha;
	uint8_t *sig;
	unsigned bit;
	bool packed;
	bool as_float; /* the names' p, compared as floats */
	const struct runs *r;
	struct pair_ranges *ranges; /* grows while the family is tested */
	size_t m, sure;
	struct candidate {
		uint32_t id;
		double p; /* then its bucket */
	} * c;
	size_t len, cap;
	struct ranged {
		uint32_t id, range; /* the candidate, its range's index */
	} * ranged;
	size_t ranged_len, ranged_cap;
};

/* (double)u, through the signed conversion (one instruction) when it fits. */
static inline double
units_double(uint64_t u)
{
	return u <= INT64_MAX ? (double)(int64_t)u : (double)u;
}

/* A family of r's tests, its verdicts to sig; the names' (not packed) compare p as floats. */
void family_init(struct family *f, const struct runs *r, struct pair_ranges *ranges, uint8_t *sig,
        unsigned bit, bool packed);
/* A p of at most alpha: kept, or when 0 passed at once; p < 0: a range. */
void family_candidate(struct family *f, uint32_t id, double p);

static inline void
family_add(struct family *f, uint32_t id, double p)
{
	/* p = 1 is a share the same on both sides (the root, a name on every
	 * stack, nothing on either side): no hypothesis, not counted. */
	f->m += p < 1;
	if (p <= f->alpha) {
		family_candidate(f, id, p);
	}
}

/* The cut: sets the bit of every candidate that passes; frees the candidates. */
void family_cut(struct family *f);

#endif
