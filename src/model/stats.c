#include "stats.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "binomial.h"

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

double
stats_incbeta(double a, double b, double x)
{
	return incbeta_split(a, b, x, 1 - x);
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
	/* Asked once a frame with the same p and df: the last answer is kept. */
	static _Thread_local double last_p = -1, last_df = -1, last_t;
	if (p == last_p && df == last_df) {
		return last_t;
	}
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
	last_p = p;
	last_df = df;
	last_t = (lo + hi) / 2;
	return last_t;
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

double
stats_normal_upper(double z)
{
	return normal_upper(z);
}

double
stats_normal_quantile(double p)
{
	/* Asked once a frame with the same p: the last answer is kept (the
	 * tests run on one thread). */
	static _Thread_local double last_p = -1, last_z;
	if (p == last_p) {
		return last_z;
	}
	double lo = -40, hi = 40;
	/* P(Z >= z) falls with z; 200 halvings reach a double's limits. */
	for (int i = 0; i < 200 && hi - lo > 1e-13; i++) {
		double mid = (lo + hi) / 2;
		if (stats_normal_upper(mid) > p) {
			lo = mid;
		} else {
			hi = mid;
		}
	}
	last_p = p;
	last_z = (lo + hi) / 2;
	return last_z;
}

double
stats_t_upper(double t, double df)
{
	if (df > 1000) {
		return stats_normal_upper(t);
	}
	double half = stats_t_two_sided(t, df) / 2;
	return t >= 0 ? half : 1 - half;
}

/* x log(x / m), 0 at x = 0: a term of the binomial deviance. */
double
stats_binom_upper(double k, double n, double p)
{
	return binom_upper(k, n, rate_of(p));
}

double
stats_binom_lower(double k, double n, double p)
{
	return binom_lower(k, n, rate_of(p));
}

double
stats_pair_p(double a, double A, double b, double B)
{
	if (A <= 0 || B <= 0 || a + b <= 0) {
		return 1;
	}
	return binom_two_sided(b, a + b, head_share(A, B));
}

void
stats_pair_bound_init(struct stats_pair_bound *c, double alpha, double alpha_min)
{
	double z = stats_normal_quantile(alpha / 2) * (1 - 1e-7);
	c->quiet_d = z * z;
	c->sure_d = 2 * log(1 / alpha_min) + 1e-6;
}

/*
 * Bounds of the deviance d(x) = 2 n D(x/n || pi), x on one side of n pi,
 * without a logarithm: D(q || pi) is the integral of (q - t) / v(t) from
 * pi to q, v(t) = t (1 - t), so (q - pi)^2 / (2 max v) <= D <= (q - pi)^2 /
 * (2 min v) over t between them (v is concave: its least is at an end).
 * Widened for the rounding of n pi and of the deviance itself, which
 * deviance_root works out from two logarithms of sizeable terms.
 */
static void
deviance_bounds(double x, double n, double pi, double *lo, double *hi)
{
	double q = x / n, dx = x - n * pi;
	double vp = pi * (1 - pi), vq = q * (1 - q);
	bool spans = (pi - 0.5) * (q - 0.5) <= 0;
	/* vp and vq are in [0, 1/4] (pi and q in [0, 1]): no NaN for fmin's care. */
	double vmax = spans ? 0.25 : vp > vq ? vp : vq, vmin = vp < vq ? vp : vq;
	double slack = 1e-15 * n + 1e-12;
	*lo = dx * dx / (n * vmax) * (1 - 1e-5) - slack;
	*hi = vmin > 0 ? dx * dx / (n * vmin) * (1 + 1e-5) + slack : INFINITY;
}

/*
 * Bounds of Q(r) = P(Z >= r), r = sqrt(d) > 0, from Mills' ratio: phi(r) r
 * / (1 + r^2) <= Q(r) <= phi(r) / r (and Q(r) <= 1/2), one exp and no
 * erfc; within a fifth of Q for the r a range is asked at (about 2 to 5).
 */
static double
mills_lower(double d)
{
	if (!(d > 0 && d < INFINITY)) {
		return 0; /* Q(inf) = 0; 0 bounds any Q */
	}
	return exp(-d / 2) / sqrt(2 * M_PI) * sqrt(d) / (1 + d);
}

static double
mills_upper(double d)
{
	if (!(d > 0)) {
		return 0.5;
	}
	double u = exp(-d / 2) / (sqrt(2 * M_PI) * sqrt(d));
	return u < 0.5 ? u : 0.5;
}

/*
 * For whole counts 0 <= b <= n = a + b, n > 0: the smaller tail, P(X >= b) above
 * the mean or P(X <= b) below it, worked out exactly (the incomplete beta
 * function) or from the deviance at b -/+ 1/2, lies between Q(r(b)) and
 * Q(r(b -/+ 1)), r the root of the deviance, by Zubkov and Serov's
 * inequalities for the binomial distribution function (Theory Probab.
 * Appl. 57, 2013): Phi(r(k)) <= P(X <= k) <= Phi(r(k + 1)), r signed. With
 * b -/+ 1 still on b's side of the mean, that tail is under 1/2, so p is
 * twice it; Q(r) > alpha/2 when r is under the quantile, and Q(r) <= exp(-r^2 / 2) / 2.
 * The range of an UNSURE pair is those two tails' bounds, widened by a
 * millionth for the rounding of the p worked out (test_stats.c checks).
 */
enum stats_pair_verdict
stats_pair_range(const struct stats_pair_bound *c, double a, double A, double b, double B,
        double *lo, double *hi)
{
	double n = a + b;
	/* From 2^53 on b - 1 and b + 1 are b itself: no bracket. */
	/* Whole: under 2^53 and not negative, the cast truncates as floor
	 * would, without a call into libm (every new pair of a graph is asked). */
	if (!(A > 0 && B > 0 && a >= 0 && b >= 0 && n >= 1 && n < 9007199254740992.0) ||
	        a != (double)(int64_t)a || b != (double)(int64_t)b) {
		*lo = 0;
		*hi = 1;
		return STATS_PAIR_UNSURE;
	}
	return stats_pair_range_whole(c, a, A, b, B, lo, hi);
}

enum stats_pair_verdict
stats_pair_range_whole(const struct stats_pair_bound *c, double a, double A, double b, double B,
        double *lo, double *hi)
{
	double n = a + b;
	*lo = 0;
	*hi = 1;
	double pi = B / (A + B), mid = n * pi;
	double inner = b > mid ? b - 1 : b + 1; /* the far end of the tail's bracket */
	if (b > mid ? !(inner > mid + 1e-6 * (1 + mid)) : !(inner < mid - 1e-6 * (1 + mid))) {
		return STATS_PAIR_UNSURE; /* too near the mean: both tails may be 1/2 */
	}
	double in_lo, in_hi, at_lo, at_hi;
	deviance_bounds(inner, n, pi, &in_lo, &in_hi);
	deviance_bounds(b, n, pi, &at_lo, &at_hi);
	if (in_lo > c->sure_d) {
		return STATS_PAIR_SURE;
	}
	if (!(in_lo > 1e-8)) {
		return STATS_PAIR_UNSURE;
	}
	if (at_hi < c->quiet_d) {
		return STATS_PAIR_QUIET;
	}
	double top = 2 * mills_upper(in_lo) * (1 + 1e-6);
	if (top < 1 - 1e-6) { /* p under 1, as a float too */
		*lo = 2 * mills_lower(at_hi) * (1 - 1e-6);
		*hi = top;
	}
	return STATS_PAIR_UNSURE;
}

enum stats_pair_verdict
stats_pair_bound(const struct stats_pair_bound *c, double a, double A, double b, double B)
{
	double lo, hi;
	return stats_pair_range(c, a, A, b, B, &lo, &hi);
}

/*
 * The x with I_x(a, b) = target, 0 < target < 1: Newton's steps on the
 * beta density, kept inside the bracket that each value narrows (a step
 * out of it is a bisection's).
 */
static double
beta_quantile(double a, double b, double target, double start)
{
	double lo = 0, hi = 1, x = start > 0 && start < 1 ? start : a / (a + b);
	double log_beta = lgamma(a) + lgamma(b) - lgamma(a + b);
	for (int i = 0; i < 200; i++) {
		double f = stats_incbeta(a, b, x) - target;
		if (f == 0) {
			return x;
		}
		if (f > 0) {
			hi = x;
		} else {
			lo = x;
		}
		double density = exp((a - 1) * log(x) + (b - 1) * log1p(-x) - log_beta);
		double next = x - f / density;
		if (fabs(next - x) <= 1e-12 * x) {
			return next; /* converged (next may be the bracket's end: x itself) */
		}
		if (!(next > lo && next < hi)) {
			next = (lo + hi) / 2;
		}
		if (hi - lo <= 1e-15) {
			return next;
		}
		x = next;
	}
	return x;
}

/*
 * Under this many samples in a pair (base + head), the interval of a
 * change with one run a side inverts the exact test itself (Clopper and
 * Pearson's interval of the binomial proportion, mapped to the change):
 * the normal approximation's can exclude 0 when the test finds nothing
 * (0 against 4 samples) or the other way round, and pass +/-100 points.
 */
#define TINY_PAIR 64

void
stats_pair_interval(double a, double A, double b, double B, double alpha, double *lo, double *hi)
{
	double ra = A > 0 ? a / A : 0, rb = B > 0 ? b / B : 0;
	double diff = rb - ra, n = a + b;
	*lo = *hi = diff;
	if (A <= 0 || B <= 0 || n <= 0) {
		return;
	}
	if (n < TINY_PAIR) {
		/* Head's part of the n samples, theta, is in [tl, tu] (the
		 * tails at alpha/2 each, as the test's p doubles the smaller);
		 * with n fixed the change is n theta / B - n (1 - theta) / A,
		 * 0 exactly at the test's theta, B / (A + B). */
		/* Newton's start: Wilson's score interval, within a few
		 * percent of the exact ends, so that three or four steps do. */
		double z = stats_normal_quantile(alpha / 2), f = b / n, z2 = z * z / n;
		double centre = (f + z2 / 2) / (1 + z2);
		double half = z * sqrt(f * (1 - f) / n + z2 / (4 * n)) / (1 + z2);
		double tl = b > 0 ? beta_quantile(b, a + 1, alpha / 2, centre - half) : 0;
		double tu = a > 0 ? beta_quantile(b + 1, a, 1 - alpha / 2, centre + half) : 1;
		*lo = n * tl / B - n * (1 - tl) / A;
		*hi = n * tu / B - n * (1 - tu) / A;
		return;
	}
	double se = sqrt(ra / A + rb / B), q = stats_normal_quantile(alpha / 2);
	/* No further than all n samples on one side. */
	*lo = fmax(diff - q * se, -n / A);
	*hi = fmin(diff + q * se, n / B);
}

static double
sum(const double *v, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++) {
		s += v[i];
	}
	return s;
}

/* Pearson's chi-square of counts c about rate times their exposure t. */
static double
pearson(const double *c, const double *t, size_t n, double rate)
{
	double chi = 0;
	for (size_t i = 0; i < n; i++) {
		double e = rate * t[i];
		if (e > 0) {
			chi += (c[i] - e) * (c[i] - e) / e;
		}
	}
	return chi;
}

/* Each run's share of its exposure: mean and spread, for the reports. */
static void
share_spread(const double *c, const double *t, size_t n, double *mean, double *sd)
{
	double m = 0, ss = 0;
	for (size_t i = 0; i < n; i++) {
		m += t[i] > 0 ? c[i] / t[i] : 0;
	}
	m = n ? m / (double)n : 0;
	for (size_t i = 0; i < n; i++) {
		double d = (t[i] > 0 ? c[i] / t[i] : 0) - m;
		ss += d * d;
	}
	*mean = m;
	*sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
}

void
stats_acc_add(struct stats_acc *s, double x, double t, size_t k, double w)
{
	double share = t > 0 ? x / t : 0;
	s->sum += x;
	s->share += share;
	double d = share - s->mean;
	s->mean += d / (double)k;
	s->m2 += d * (share - s->mean);
	if (t > 0) {
		/* A run without exposure adds nothing to the chi-square (as pearson skips it). */
		double dw = share - s->wmean;
		s->wmean += t / w * dw;
		s->wm2 += t * dw * (share - s->wmean);
	}
}

/* share_spread from the sums: the same mean, the spread about it. */
static void
acc_spread(const struct stats_acc *s, size_t n, double *mean, double *sd)
{
	double m = n ? s->share / (double)n : 0;
	double ss;
	if (s->m2 == 0) {
		/* Every run the same share (Welford's mean is then that share
		 * exactly): share_spread sums n times its one deviation from m,
		 * which the rounding of m may leave above 0; so does this. */
		double d = s->mean - m;
		ss = 0;
		for (size_t i = 0; d != 0 && i < n; i++) {
			ss += d * d;
		}
	} else {
		/* The deviations about m are those about the running mean plus n
		 * times the distance between the two means. */
		double d = s->mean - m;
		ss = s->m2 + (double)n * d * d;
	}
	*mean = m;
	*sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
}

/* pearson from the sums: sum t (share - rate)^2 / rate over the runs. */
static double
acc_pearson(const struct stats_acc *s, double exposure, double rate)
{
	if (!(rate > 0)) {
		return 0;
	}
	double d = s->wmean - rate;
	return (s->wm2 + exposure * d * d) / rate;
}

/*
 * One side of a test: its runs' counts and exposures (c, t), or their
 * sums (acc) and the summed exposure.
 */
struct counts_side {
	const double *c, *t;
	const struct stats_acc *acc;
	size_t n;
	double exposure;
};

static void
side_spread(const struct counts_side *s, double *mean, double *sd)
{
	if (s->acc) {
		acc_spread(s->acc, s->n, mean, sd);
	} else if (s->c && s->t) {
		share_spread(s->c, s->t, s->n, mean, sd);
	} else { /* neither: no run (stats_counts_test's callers give one or the other) */
		*mean = *sd = 0;
	}
}

/* The side's summed count. */
static double
side_sum(const struct counts_side *s)
{
	if (s->acc) {
		return s->acc->sum;
	}
	return s->c ? sum(s->c, s->n) : 0;
}

static double
side_pearson(const struct counts_side *s, double rate)
{
	if (s->acc) {
		return acc_pearson(s->acc, s->exposure, rate);
	}
	return s->c && s->t ? pearson(s->c, s->t, s->n, rate) : 0;
}

/* Runs: the score statistic against Student's t with the spread's df. */
static void
with_spread(struct stats_counts *c, double phi, double df)
{
	double ra = c->a / c->A, rb = c->b / c->B, r0 = (c->a + c->b) / (c->A + c->B);
	c->phi = phi;
	c->df = df;
	double z = (rb - ra) / sqrt(phi * r0 * (1 / c->A + 1 / c->B));
	/* One tail worked out, the far one from it. */
	double near_tail = stats_t_upper(fabs(z), c->df);
	c->p_up = fmax(c->p_up, z >= 0 ? near_tail : 1 - near_tail);
	c->p_down = fmax(c->p_down, z >= 0 ? 1 - near_tail : near_tail);
}

static void
counts_test(const struct counts_side *x, const struct counts_side *y, double alpha,
        struct stats_counts *c)
{
	size_t nx = x->n, ny = y->n;
	*c = (struct stats_counts){.phi = 1, .df = INFINITY, .p = 1, .p_up = 1, .p_down = 1};
	side_spread(x, &c->mean[0], &c->sd[0]);
	side_spread(y, &c->mean[1], &c->sd[1]);
	c->a = side_sum(x);
	c->A = x->exposure;
	c->b = side_sum(y);
	c->B = y->exposure;
	double ra = c->A > 0 ? c->a / c->A : 0, rb = c->B > 0 ? c->b / c->B : 0;
	c->diff = rb - ra;
	c->ratio = ra > 0 ? rb / ra : rb > 0 ? INFINITY : NAN;
	c->lo = c->hi = c->diff;
	if (c->A <= 0 || c->B <= 0 || c->a + c->b <= 0) {
		return; /* nothing on either side, or a side without exposure */
	}
	binom_tails(c->b, c->a + c->b, head_share(c->A, c->B), &c->p_up, &c->p_down);
	double df = (double)(nx + ny) - 2;
	if (df > 0) {
		double phi = (side_pearson(x, ra) + side_pearson(y, rb)) / df;
		with_spread(c, phi > 1 ? phi : 1, df);
	}
	c->p = fmin(1, 2 * fmin(c->p_up, c->p_down));
	if (isinf(c->df)) {
		/* One run a side: the interval of the exact test. */
		stats_pair_interval(c->a, c->A, c->b, c->B, alpha, &c->lo, &c->hi);
		return;
	}
	double se = sqrt(c->phi * (ra / c->A + rb / c->B));
	double q = c->df > 1000 ? stats_normal_quantile(alpha / 2) : stats_t_quantile(alpha, c->df);
	c->lo = c->diff - q * se;
	c->hi = c->diff + q * se;
}

void
stats_counts_test(const double *x, const double *xt, size_t nx, const double *y, const double *yt,
        size_t ny, double alpha, struct stats_counts *c)
{
	struct counts_side sx = {x, xt, NULL, nx, sum(xt, nx)};
	struct counts_side sy = {y, yt, NULL, ny, sum(yt, ny)};
	counts_test(&sx, &sy, alpha, c);
}

void
stats_counts_acc(const struct stats_acc *x, size_t nx, double A, const struct stats_acc *y,
        size_t ny, double B, double alpha, struct stats_counts *c)
{
	struct counts_side sx = {NULL, NULL, x, nx, A};
	struct counts_side sy = {NULL, NULL, y, ny, B};
	counts_test(&sx, &sy, alpha, c);
}

double
stats_detectable_ratio(double a, double A, double B, double phi, double alpha, double power)
{
	if (!(a > 0) || !(A > 0) || !(B > 0)) {
		return INFINITY;
	}
	double z = stats_normal_quantile(alpha) + stats_normal_quantile(1 - power);
	/* The head count at ratio r is a r B / A: a few fixed-point steps. */
	double r = 1;
	for (int i = 0; i < 30; i++) {
		r = exp(z * sqrt(phi * (1 / a + A / (a * r * B))));
	}
	return r;
}

double
stats_samples_factor(
        double a, double A, double B, double phi, double alpha, double power, double ratio)
{
	if (!(a > 0) || !(ratio > 1) || !(B > 0)) {
		return INFINITY;
	}
	double z = stats_normal_quantile(alpha) + stats_normal_quantile(1 - power);
	double l = log(ratio);
	return phi * z * z * (1 + A / (ratio * B)) / (a * l * l);
}

double
stats_counts_growth_p(const struct stats_counts *c, double ratio0)
{
	if (c->A <= 0 || c->B <= 0 || c->a + c->b <= 0) {
		return 1;
	}
	double n = c->a + c->b;
	double p = binom_upper(c->b, n, head_share(c->A, ratio0 * c->B));
	if (!isinf(c->df)) {
		/* The base rate under H0's boundary, the head's ratio0 times it. */
		double r0 = n / (c->A + ratio0 * c->B);
		double var = c->phi * r0 * (ratio0 / c->B + ratio0 * ratio0 / c->A);
		double z = (c->b / c->B - ratio0 * c->a / c->A) / sqrt(var);
		p = fmax(p, stats_t_upper(z, c->df));
	}
	return p;
}
