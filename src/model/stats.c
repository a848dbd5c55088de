#include "stats.h"

#include <math.h>

void
stats_mean_sd(const double *x, size_t n, double *mean, double *sd)
{
	double sum = 0;
	for (size_t i = 0; i < n; i++) {
		sum += x[i];
	}
	double m = n ? sum / (double)n : 0;
	/* Two passes: the shares of runs are close together, and the
	 * one-pass formula would lose their spread to cancellation. */
	double ss = 0;
	for (size_t i = 0; i < n; i++) {
		ss += (x[i] - m) * (x[i] - m);
	}
	*mean = m;
	*sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
}

#define CF_MAX_TERMS 300
#define CF_EPS 1e-15
#define CF_TINY 1e-300

/*
 * The continued fraction of I_x(a, b) (the form of Abramowitz and Stegun
 * 26.5.8), evaluated with Lentz's method; it converges fast for
 * x < (a + 1) / (a + b + 2), and the caller swaps the arguments otherwise.
 */
static double
beta_fraction(double a, double b, double x)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1);
	if (fabs(d) < CF_TINY) {
		d = CF_TINY;
	}
	d = 1 / d;
	double f = d;
	for (int m = 1; m <= CF_MAX_TERMS; m++) {
		/* Each step has an even term, then an odd one. */
		for (int odd = 0; odd < 2; odd++) {
			double num =
			        odd ? -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
			            : m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
			d = 1 + num * d;
			c = 1 + num / c;
			if (fabs(d) < CF_TINY) {
				d = CF_TINY;
			}
			if (fabs(c) < CF_TINY) {
				c = CF_TINY;
			}
			d = 1 / d;
			f *= c * d;
			if (odd && fabs(c * d - 1) < CF_EPS) {
				return f;
			}
		}
	}
	return f;
}

double
stats_incbeta(double a, double b, double x)
{
	if (x <= 0) {
		return 0;
	}
	if (x >= 1) {
		return 1;
	}
	double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2)) {
		return front * beta_fraction(a, b, x) / a;
	}
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double
stats_t_two_sided(double t, double df)
{
	if (isinf(t)) {
		return 0;
	}
	return stats_incbeta(df / 2, 0.5, df / (df + t * t));
}

double
stats_t_quantile(double p, double df)
{
	double lo = 0, hi = 1;
	while (stats_t_two_sided(hi, df) > p && hi < 1e12) {
		hi *= 2;
	}
	/* 200 halvings reach the limits of a double from any bracket. */
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;
		if (stats_t_two_sided(mid, df) > p) {
			lo = mid;
		} else {
			hi = mid;
		}
	}
	return (lo + hi) / 2;
}

void
stats_welch(
        const double *x, size_t nx, const double *y, size_t ny, double alpha, struct stats_welch *w)
{
	stats_mean_sd(x, nx, &w->mean[0], &w->sd[0]);
	stats_mean_sd(y, ny, &w->mean[1], &w->sd[1]);
	w->diff = w->mean[1] - w->mean[0];
	double vx = w->sd[0] * w->sd[0] / (double)nx;
	double vy = w->sd[1] * w->sd[1] / (double)ny;
	double se = sqrt(vx + vy);
	if (se == 0 || se < 1e-12 * fabs(w->diff)) {
		/* No spread (a deterministic profiler, or a frame in no run). */
		w->t = w->diff == 0 ? 0 : copysign(INFINITY, w->diff);
		w->df = (double)(nx + ny - 2);
		w->p = w->diff == 0 ? 1 : 0;
		w->lo = w->hi = w->diff;
		return;
	}
	w->t = w->diff / se;
	/* The Welch-Satterthwaite degrees of freedom. */
	w->df = (vx + vy) * (vx + vy) / (vx * vx / (double)(nx - 1) + vy * vy / (double)(ny - 1));
	w->p = stats_t_two_sided(w->t, w->df);
	double half = stats_t_quantile(alpha, w->df) * se;
	w->lo = w->diff - half;
	w->hi = w->diff + half;
}
