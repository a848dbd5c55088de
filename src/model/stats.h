/*
 * stats: the statistics of sampled counts, one profile a side or
 * repeated runs (--runs). The test of a change in a count between two
 * sides (stats_counts_test: an exact conditional binomial test at the
 * Poisson floor, a quasi-Poisson t test above it), Welch's two-sample
 * t-test, and the functions they need: the regularised incomplete beta
 * function, binomial tails, the normal and Student's t distributions,
 * written here (a continued fraction, erfc and lgamma from libm) rather
 * than taken from a numerics library. Pure functions of their arguments.
 */
#ifndef DIFFFOLD_STATS_H
#define DIFFFOLD_STATS_H

#include <stddef.h>

/* The mean and the sample standard deviation (n - 1); sd is 0 for n < 2. */
void stats_mean_sd(const double *x, size_t n, double *mean, double *sd);
/* I_x(a, b), the regularised incomplete beta function, for a, b > 0 and x in [0, 1]. */
double stats_incbeta(double a, double b, double x);
/* P(|T| >= |t|) for Student's t with df > 0 degrees of freedom. */
double stats_t_two_sided(double t, double df);
/* The t with P(|T| >= t) = p, for 0 < p < 1 (by bisection). */
double stats_t_quantile(double p, double df);

/*
 * Welch's test of y against x (y - x): the means and spreads of both, the
 * statistic, its degrees of freedom, the two-sided p value, and the
 * (1 - alpha) confidence interval of the difference of the means.
 * When both spreads are 0 the difference is exact: p is 0 if the means
 * differ, else 1, and the interval is the difference itself.
 */
struct stats_welch {
	double mean[2], sd[2]; /* [0]: x, [1]: y */
	double diff; /* mean y - mean x */
	double t, df, p;
	double lo, hi;
};

/* Needs nx, ny >= 2. */
void stats_welch(const double *x, size_t nx, const double *y, size_t ny, double alpha,
        struct stats_welch *w);

/* P(Z >= z) for a standard normal Z. */
double stats_normal_upper(double z);
/* The z with P(Z >= z) = p, for 0 < p < 1. */
double stats_normal_quantile(double p);
/* P(T >= t) for Student's t with df > 0 (the normal past 1000). */
double stats_t_upper(double t, double df);
/*
 * P(X >= k) and P(X <= k) for X ~ Binomial(n, p), 0 < p < 1, with k and n
 * real (through the incomplete beta function); exact up to a variance
 * n p (1 - p) of 100, past it the signed root of the deviance with a
 * continuity correction (within 2% of the exact tail, on the larger side,
 * up to 5 standard deviations out).
 */
double stats_binom_upper(double k, double n, double p);
double stats_binom_lower(double k, double n, double p);

/*
 * A change in one count (a function's, a frame's) between two sides of
 * nx and ny runs (1 or more): x[k] its count in base run k, xt[k] that
 * run's exposure (its total, or 1 to compare absolute counts), the same
 * for y on the head side.
 *
 * Under H0 both sides count at one rate: with a, b the summed counts and
 * A, B the summed exposures, b | a + b ~ Binomial(a + b, B / (A + B)) for
 * Poisson counts. With one run a side that exact test is the test: the
 * Poisson noise of sampling is all one run can show. With more, the
 * run-to-run spread enters as the dispersion phi, the Pearson chi-square
 * of the runs about their side's rate over its (nx - 1) + (ny - 1)
 * degrees of freedom, never below 1 (the Poisson floor: identical runs,
 * zero spread): the score statistic (b/B - a/A) / sqrt(phi r0 (1/A + 1/B))
 * against Student's t with those degrees of freedom (the quasi-Poisson
 * test: phi is estimated, and three runs can show less spread than the
 * runs really have, so the floor too is judged with the t's wider tails),
 * and never below the exact tails, so tiny counts confirm nothing the
 * Poisson test would not.
 */
struct stats_counts {
	double mean[2], sd[2]; /* each side's share of its runs' exposure */
	double diff; /* b/B - a/A */
	double lo, hi; /* (1 - alpha) interval of diff */
	double ratio; /* (b/B) / (a/A): INFINITY when only b, NAN when neither */
	double phi; /* dispersion used, >= 1 */
	double df; /* of the t: INFINITY with one run a side */
	double p; /* two-sided */
	double p_up, p_down; /* one-sided: head's rate greater, smaller */
	double a, b, A, B; /* the sums */
};

void stats_counts_test(const double *x, const double *xt, size_t nx, const double *y,
        const double *yt, size_t ny, double alpha, struct stats_counts *c);
/*
 * One count of one side (a frame's or a function's, self or total) over
 * repeated runs, summed as each run ends (stats_acc_add) rather than kept
 * run by run: --runs then holds a few doubles a count, not one a run.
 * Zeroed, it is the count after any number of runs that held none of it.
 * The sums stats_counts_test forms are kept in its order (the same
 * doubles); its two-pass spreads, which need the mean before the first
 * run, are Welford's running ones (West's, weighted by each run's total,
 * for the chi-square): within 1e-12 of them (test_stats.c), and the same
 * spread when every run held the same share.
 */
struct stats_acc {
	double sum; /* the counts, in run order */
	double share; /* the shares (count / total), in run order */
	double mean, m2; /* the shares' running mean and squared deviations */
	double wmean, wm2; /* the same weighted by the runs' totals */
};

/*
 * Run k (1 for the first) of a side: its count x and total t, w the side's
 * totals summed up to and with this run (in run order).
 */
void stats_acc_add(struct stats_acc *s, double x, double t, size_t k, double w);
/*
 * stats_counts_test from sums: nx and ny runs, A and B the sums of their
 * totals in run order.
 */
void stats_counts_acc(const struct stats_acc *x, size_t nx, double A, const struct stats_acc *y,
        size_t ny, double B, double alpha, struct stats_counts *c);
/*
 * stats_counts_test's p with one run a side (x = &a, xt = &A, y = &b,
 * yt = &B), the same double, without the rest: the test of every frame and
 * function of a profile a side, where most of the time went.
 */
double stats_pair_p(double a, double A, double b, double B);
/*
 * And its (1 - alpha) interval of b/B - a/A, the same doubles as c->lo and
 * c->hi: under 64 samples in the pair, Clopper and Pearson's (the exact
 * test inverted: it holds 0 exactly when p > alpha); above, the normal
 * approximation's, no further than all samples on one side.
 */
void stats_pair_interval(
        double a, double A, double b, double B, double alpha, double *lo, double *hi);
/*
 * What a bound tells of stats_pair_p for whole counts without working it
 * out (a tenth of the cost), at a level alpha and a much smaller one,
 * alpha_min: QUIET, p is over alpha and under 1 (a hypothesis that
 * fails); SURE, p is at most alpha_min; UNSURE, work it out. Most frames
 * of a profile are QUIET. test_stats.c checks it against stats_pair_p.
 */
enum stats_pair_verdict {
	STATS_PAIR_UNSURE,
	STATS_PAIR_QUIET,
	STATS_PAIR_SURE,
};
struct stats_pair_bound {
	double quiet_d,
	        sure_d; /* deviances: under the first p > alpha, over the second p <= alpha_min */
};
void stats_pair_bound_init(struct stats_pair_bound *c, double alpha, double alpha_min);
enum stats_pair_verdict stats_pair_bound(
        const struct stats_pair_bound *c, double a, double A, double b, double B);
/*
 * stats_pair_bound, and for an UNSURE pair whose p it can bound, the range
 * [*lo, *hi] that holds stats_pair_p (and its float), hi under 1; else
 * [0, 1]. A Benjamini-Hochberg cut needs p itself only where the range
 * holds the cut's level.
 */
enum stats_pair_verdict stats_pair_range(const struct stats_pair_bound *c, double a, double A,
        double b, double B, double *lo, double *hi);
/*
 * stats_pair_range of counts the caller knows whole, not negative, a + b
 * in [1, 2^53), and totals over 0, without checking them again (the
 * frames' test asks it of every new pair).
 */
enum stats_pair_verdict stats_pair_range_whole(const struct stats_pair_bound *c, double a, double A,
        double b, double B, double *lo, double *hi);
/*
 * The one-sided p value of H0: ratio <= ratio0 (ratio0 > 0) for the counts
 * c tested, by the same rules: the exact binomial tail at the shifted
 * rate, and above the Poisson floor the score statistic against Student's
 * t; the larger. ratio0 = 1 gives c->p_up.
 */
double stats_counts_growth_p(const struct stats_counts *c, double ratio0);

/*
 * The smallest ratio of rates (head / base, > 1) that a one-sided test at
 * level alpha finds with the given power, for a count a on base exposure
 * A against head exposure B, at dispersion phi: the log ratio's normal
 * approximation, sqrt(phi (1/a + 1/b)) its standard error.
 * INFINITY when a is 0.
 */
double stats_detectable_ratio(double a, double A, double B, double phi, double alpha, double power);
/* By how much every count and exposure must grow for that ratio to come down to ratio (> 1). */
double stats_samples_factor(
        double a, double A, double B, double phi, double alpha, double power, double ratio);

#endif
