/*
 * binomial: the tails of the binomial distribution (through the
 * regularised incomplete beta function) that the tests of stats.c are
 * made of, kept to their digits for any count up to 2^64 - 1. Below
 * stats.c, which has the public functions (stats.h).
 */
#ifndef DIFFFOLD_BINOMIAL_H
#define DIFFFOLD_BINOMIAL_H

/*
 * A binomial's rate p and its complement q = 1 - p, each to its own
 * precision: with totals 2^64 apart, 1 - p rounds a q of 2^-64 to 0 (or
 * p's complement to 1), and the tails of counts so large need the
 * digits.
 */
struct rate {
	double p, q;
};

/* Head's share of the exposure, B / (A + B), and base's, each divided out. */
static inline struct rate
head_share(double A, double B)
{
	return (struct rate){B / (A + B), A / (A + B)};
}

static inline struct rate
rate_of(double p)
{
	return (struct rate){p, 1 - p};
}

/* stats_incbeta with y = 1 - x given as well, to its own precision. */
double incbeta_split(double a, double b, double x, double y);
/* stats_normal_upper */
double normal_upper(double z);
/* stats_binom_upper and stats_binom_lower at rate r. */
double binom_upper(double k, double n, struct rate r);
double binom_lower(double k, double n, struct rate r);
/* stats_pair_p's p: the two-sided p of k of n at rate r. */
double binom_two_sided(double k, double n, struct rate r);
/* P(X >= k) and P(X <= k), the smaller worked out, the other from it. */
void binom_tails(double k, double n, struct rate r, double *up, double *down);

#endif
