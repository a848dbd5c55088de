/*
 * stats: the statistics of repeated runs (--runs). Welch's two-sample
 * t-test with its confidence interval, and the functions it needs: the
 * regularised incomplete beta function and Student's t distribution,
 * written here (a continued fraction and lgamma from libm) rather than
 * taken from a numerics library. Pure functions of their arguments.
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

#endif
