/*
 * binomial: the incomplete beta function and the binomial's tails; see
 * binomial.h.
 */
#include "binomial.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

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

/*
 * From here up lgamma's own rounding costs digits: lgamma(2^16) is near
 * 660,000, a double's step there 1.2e-10; at 2^53 it is 64 and at 2^64
 * 131,072, so a difference of two lgammas of counts so large is noise.
 */
#define LGAMMA_EXACT_BELOW 65536.0

/*
 * lgamma(x), kept for whole x under LGAMMA_KEPT once worked out: the
 * tests of one graph meet the same totals and counts again and again, and
 * a call of lgamma cost over a hundred instructions. The same double as
 * lgamma's, being its answer. 0 marks a slot not yet filled (lgamma(1) and
 * lgamma(2), the only whole zeros, are simply asked again).
 */
#define LGAMMA_KEPT 4096

static double
lgamma_kept(double x)
{
	static _Thread_local double kept[LGAMMA_KEPT];
	if (!(x >= 1 && x < LGAMMA_KEPT) || x != (double)(int)x) {
		return lgamma(x);
	}
	double *slot = &kept[(int)x];
	if (*slot == 0) {
		*slot = lgamma(x);
	}
	return *slot;
}

/* lgamma(x) - ((x - 1/2) log x - x + log(2 pi) / 2): Stirling's series, x >= 2^16. */
static double
stirling_rest(double x)
{
	/* The next term, 1 / (1260 x^5), is under 2^-85 there. */
	return (1.0 / 12 - 1 / (360 * x * x)) / x;
}

/*
 * log(1 / B(a, b)) = lgamma(a + b) - lgamma(a) - lgamma(b), a, b > 0.
 * Below 2^16 as written; above, from Stirling's series with the large
 * terms cancelled by hand (log1p of the ratio, no difference of two
 * lgammas), so that it keeps its digits for any count up to 2^64 - 1.
 */
static double
log_inv_beta(double a, double b)
{
	double lo = fmin(a, b), hi = fmax(a, b);
	if (hi < LGAMMA_EXACT_BELOW) {
		return lgamma_kept(a + b) - lgamma_kept(a) - lgamma_kept(b);
	}
	/* lgamma(hi + lo) - lgamma(hi) */
	double rest = stirling_rest(hi + lo) - stirling_rest(hi);
	double grow = (hi - 0.5) * log1p(lo / hi) + rest;
	if (lo < LGAMMA_EXACT_BELOW) {
		return grow + lo * (log(hi + lo) - 1) - lgamma(lo);
	}
	/* lgamma(lo) in Stirling's form too: its lo log lo and lo cancel. */
	return grow + lo * log1p(hi / lo) + 0.5 * log(lo / (2 * M_PI)) - stirling_rest(lo);
}

/* log x and log y for x + y = 1, each from the smaller, which holds its digits. */
static void
log_both(double x, double y, double *log_x, double *log_y)
{
	if (x < y) {
		*log_x = log(x);
		*log_y = log1p(-x);
	} else {
		*log_x = log1p(-y);
		*log_y = log(y);
	}
}

/*
 * From here on the continued fraction is taken at the smaller of x and
 * 1 - x whichever side of the mean x is: at x near 1 its first terms are
 * 1 - (a + b) x / (a + 1), the difference of two numbers near 1 whose
 * rounding is a + b times larger than it (the tails of counts near 2^64
 * came out 0 or 1). Below it, the side of the mean decides (the fraction
 * converges fastest there), as in Numerical Recipes.
 */
#define CF_SMALLER_SIDE_FROM 1073741824.0 /* 2^30 */

/*
 * I_x(a, b) with y = 1 - x, both given: a caller that knows y better than
 * 1 - x (a share of huge totals) keeps its digits. In [0, 1] whatever the
 * rounding, as a probability must be.
 */
double
incbeta_split(double a, double b, double x, double y)
{
	if (x <= 0) {
		return 0;
	}
	if (y <= 0) {
		return 1;
	}
	double log_x, log_y;
	log_both(x, y, &log_x, &log_y);
	double front = exp(log_inv_beta(a, b) + a * log_x + b * log_y);
	bool direct = a + b < CF_SMALLER_SIDE_FROM ? x < (a + 1) / (a + b + 2) : x < y;
	if (direct) {
		return fmin(1, front * beta_fraction(a, b, x) / a);
	}
	return fmax(0, 1 - front * beta_fraction(b, a, y) / b);
}

double
normal_upper(double z)
{
	return 0.5 * erfc(z / sqrt(2.0));
}

/* x log(x / m), 0 at x = 0: a term of the binomial deviance. */
static double
xlogx(double x, double m)
{
	return x > 0 ? x * log(x / m) : 0;
}

/* The signed root of the deviance of k successes in n at rate r. */
static double
deviance_root(double k, double n, struct rate r)
{
	if (k <= 0) {
		k = 0;
	}
	if (k >= n) {
		k = n;
	}
	double d = 2 * (xlogx(k, n * r.p) + xlogx(n - k, n * r.q));
	double root = sqrt(d > 0 ? d : 0);
	return k < n * r.p ? -root : root;
}

/*
 * Past this variance (n p (1 - p)) the tails come from the deviance: the
 * continued fraction needs more terms as it grows, and the approximation
 * is then within 2% of the exact tail up to 5 standard deviations out
 * (0.5% at p = 1/2), always on the larger side.
 */
#define BINOM_EXACT_VARIANCE 100

static bool
binom_exact(double n, struct rate r)
{
	return n * r.p * r.q <= BINOM_EXACT_VARIANCE;
}

/* P(X = k), k and n real: C(n, k) = (n + 1) / B(k + 1, n - k + 1). */
static double
binom_mass(double k, double n, struct rate r)
{
	double log_choose =
	        n + 1 < LGAMMA_EXACT_BELOW
	                ? lgamma_kept(n + 1) - lgamma_kept(k + 1) - lgamma_kept(n - k + 1)
	                : log_inv_beta(k + 1, n - k + 1) - log(n + 1);
	double log_p, log_q;
	log_both(r.p, r.q, &log_p, &log_q);
	return exp(log_choose + k * log_p + (n - k) * log_q);
}

/*
 * P(Y <= j) for whole j under the mean of Y ~ Binomial(n, r.p): the
 * masses from j down, each the last times i q / ((n - i + 1) p) < 1, until
 * they no longer count (a few dozen in the exact test's range).
 */
static double
binom_sum_below(double j, double n, struct rate r)
{
	double term = binom_mass(j, n, r), sum = 0;
	/* j < n p <= about 200 here (n p q <= BINOM_EXACT_VARIANCE, p tiny). */
	for (uint64_t step = 0; step <= (uint64_t)j && term > sum * 1e-17; step++) {
		double i = j - (double)step;
		sum += term;
		term *= i * r.q / ((n - i + 1) * r.p);
	}
	return fmin(1, sum);
}

/*
 * P(X >= k) (above) or P(X <= k) of a whole k for n from
 * CF_SMALLER_SIDE_FROM on, where the continued fraction, taken past the
 * mean, cancels its own digits (up to 1e-7 of a tail at a mean of 100).
 * Counted as Y, X or n - X, whichever has the smaller rate: Y's tail
 * under its mean is summed (or one minus the sum of the other). False
 * where the fraction is accurate: a tail beyond the mean, a fractional k.
 */
static bool
huge_tail(double k, double n, struct rate r, bool above, double *out)
{
	if (n < CF_SMALLER_SIDE_FROM || k != floor(k)) {
		return false;
	}
	bool mirror = r.p > r.q;
	struct rate y = mirror ? (struct rate){r.q, r.p} : r;
	double j = mirror ? n - k : k; /* exact where it is under Y's mean */
	if (above == mirror) { /* P(Y <= j) */
		if (!(j < n * y.p)) {
			return false;
		}
		*out = binom_sum_below(j, n, y);
		return true;
	}
	/* P(Y >= j) = 1 - P(Y <= j - 1) */
	if (!(j - 1 < n * y.p && j >= 1)) {
		return false;
	}
	*out = 1 - binom_sum_below(j - 1, n, y);
	return true;
}

double
binom_upper(double k, double n, struct rate r)
{
	if (k <= 0) {
		return 1;
	}
	if (k > n) {
		return 0;
	}
	if (!binom_exact(n, r)) {
		return normal_upper(deviance_root(k - 0.5, n, r));
	}
	double tail;
	if (huge_tail(k, n, r, true, &tail)) {
		return tail;
	}
	return incbeta_split(k, n - k + 1, r.p, r.q);
}

double
binom_lower(double k, double n, struct rate r)
{
	if (k >= n) {
		return 1;
	}
	if (k < 0) {
		return 0;
	}
	if (!binom_exact(n, r)) {
		return normal_upper(-deviance_root(k + 0.5, n, r));
	}
	double tail;
	if (huge_tail(k, n, r, false, &tail)) {
		return tail;
	}
	/* By symmetry, so that a small lower tail keeps its digits. */
	return incbeta_split(n - k, k + 1, r.q, r.p);
}

/*
 * Both tails at k: the one k lies in worked out, the other from it and
 * P(X = k), which halves the incomplete beta functions a test costs.
 */
void
binom_tails(double k, double n, struct rate r, double *up, double *down)
{
	if (k <= 0 || k >= n || !binom_exact(n, r)) {
		*up = binom_upper(k, n, r);
		*down = binom_lower(k, n, r);
		return;
	}
	double mass = binom_mass(k, n, r);
	if (k >= n * r.p) {
		*up = binom_upper(k, n, r);
		*down = fmin(1, 1 - *up + mass);
	} else {
		*down = binom_lower(k, n, r);
		*up = fmin(1, 1 - *down + mass);
	}
}

/*
 * The two-sided p of binom_tails(k, n, r) as stats_counts_test forms it,
 * fmin(1, 2 min(up, down)), with only the tails that can be the smaller
 * worked out: a tail at most 1/2 is the smaller one, since the other is
 * then at least 1/2 (the deviance's signs, or 1 - tail + P(X = k)). The
 * same double, bit for bit, at about half the cost (test_stats.c checks).
 * Each tail is in [0, 1] (incbeta_split), so is the p.
 */
double
binom_two_sided(double k, double n, struct rate r)
{
	if (k <= 0) {
		return fmin(1, 2 * binom_lower(k, n, r)); /* the upper tail is 1 */
	}
	if (k >= n) {
		return fmin(1, 2 * binom_upper(k, n, r)); /* the lower tail is 1 */
	}
	if (!binom_exact(n, r)) {
		/* deviance_root's sign at k - 1/2 and k + 1/2 (clamped as it clamps) */
		double below = fmin(fmax(k - 0.5, 0), n), above = fmin(fmax(k + 0.5, 0), n);
		if (!(below < n * r.p)) {
			return fmin(1, 2 * binom_upper(k, n, r));
		}
		if (above < n * r.p) {
			return fmin(1, 2 * binom_lower(k, n, r));
		}
		return fmin(1, 2 * fmin(binom_upper(k, n, r), binom_lower(k, n, r)));
	}
	bool upper = k >= n * r.p;
	double near = upper ? binom_upper(k, n, r) : binom_lower(k, n, r);
	if (near <= 0.5) {
		return 2 * near;
	}
	double far = fmin(1, 1 - near + binom_mass(k, n, r));
	return fmin(1, 2 * fmin(near, far));
}
