/*
 * stats: the incomplete beta function, Student's t and Welch's test
 * against values worked out by hand (closed forms for small degrees of
 * freedom) or by an independent reference: the t density integrated
 * numerically with mpmath at 30 digits (the numbers quoted below). The
 * tests of counts against binomial sums worked out by hand, and their
 * false-positive rate on simulated Poisson counts whose truth is known.
 */
#include "stats.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

static void
near(double got, double want, double rel)
{
	if (!(fabs(got - want) <= rel * fabs(want) + 1e-300)) {
		fail_msg("got %.17g, want %.17g", got, want);
	}
}

static void
test_incbeta(void **state)
{
	(void)state;
	/* Integer a, b: I_x(a, b) is a binomial tail; for (2, 3, 0.4):
	 * 6 * .4^2 * .6^2 + 4 * .4^3 * .6 + .4^4 = .5248. */
	near(stats_incbeta(2, 3, 0.4), 0.5248, 1e-12);
	near(stats_incbeta(1, 1, 0.3), 0.3, 1e-12); /* uniform */
	/* Both sides of the swap point, by mpmath.betainc. */
	near(stats_incbeta(0.5, 7.3, 0.02), 0.406592214195299808, 1e-10);
	near(stats_incbeta(30, 0.5, 0.97), 0.178217544970241346, 1e-10);
	assert_true(stats_incbeta(2, 3, 0) == 0);
	assert_true(stats_incbeta(2, 3, 1) == 1);
}

static void
test_t_distribution(void **state)
{
	(void)state;
	/* df 1 is Cauchy: p = 1 - 2/pi atan|t|; df 2: p = 1 - |t| / sqrt(t^2 + 2). */
	near(stats_t_two_sided(1, 1), 0.5, 1e-12);
	near(stats_t_two_sided(-1, 1), 0.5, 1e-12);
	near(stats_t_two_sided(2, 2), 1 - 2 / sqrt(6), 1e-12);
	near(stats_t_two_sided(0, 5), 1, 1e-12);
	/* The integrated density. */
	near(stats_t_two_sided(2.5, 10), 0.0314468442366088042, 1e-9);
	near(stats_t_two_sided(40, 3.5), 0.00000876644110937302, 1e-7);
	assert_true(stats_t_two_sided(INFINITY, 3) == 0);
	/* The quantile inverts it. */
	near(stats_t_quantile(0.5, 1), 1, 1e-9);
	near(stats_t_quantile(1 - 2 / sqrt(6), 2), 2, 1e-9);
}

static void
test_welch(void **state)
{
	(void)state;
	/* x = 1..4, y = 3..7: means 2.5 and 5, variances 5/3 and 5/2;
	 * se^2 = 5/12 + 1/2 = 11/12, t = 2.5 / sqrt(11/12),
	 * df = (11/12)^2 / ((5/12)^2 / 3 + (1/2)^2 / 4) = 6.98077. */
	const double x[] = {1, 2, 3, 4}, y[] = {3, 4, 5, 6, 7};
	struct stats_welch w;
	stats_welch(x, 4, y, 5, 0.05, &w);
	near(w.mean[0], 2.5, 1e-15);
	near(w.mean[1], 5, 1e-15);
	near(w.sd[0], sqrt(5.0 / 3), 1e-15);
	near(w.sd[1], sqrt(2.5), 1e-15);
	near(w.diff, 2.5, 1e-15);
	near(w.t, 2.5 / sqrt(11.0 / 12), 1e-14);
	near(w.df, (121.0 / 144) / (25.0 / 144 / 3 + 0.25 / 4), 1e-14);
	near(w.p, 0.0349387823599639970, 1e-9);
	near(w.lo, 0.234779718246473846, 1e-8);
	near(w.hi, 4.76522028175352615, 1e-8);
	/* Swapped sides: the same p, the opposite sign. */
	stats_welch(y, 5, x, 4, 0.05, &w);
	near(w.t, -2.5 / sqrt(11.0 / 12), 1e-14);
	near(w.p, 0.0349387823599639970, 1e-9);
}

static void
test_welch_without_spread(void **state)
{
	(void)state;
	const double a[] = {0.25, 0.25, 0.25}, b[] = {0.5, 0.5, 0.5}, z[] = {0, 0, 0};
	struct stats_welch w;
	stats_welch(a, 3, a, 3, 0.05, &w);
	assert_true(w.p == 1 && w.lo == 0 && w.hi == 0);
	stats_welch(a, 3, b, 3, 0.05, &w);
	assert_true(w.p == 0 && w.lo == 0.25 && w.hi == 0.25);
	/* Absent from every run on both sides. */
	stats_welch(z, 3, z, 3, 0.05, &w);
	assert_true(w.p == 1);
	/* One side without spread, the other with: df is the other's n - 1. */
	const double c[] = {0.4, 0.5, 0.6};
	stats_welch(a, 3, c, 3, 0.05, &w);
	near(w.df, 2, 1e-12);
}

static void
test_binomial_tails(void **state)
{
	(void)state;
	/* n = 3, p = 1/2: P(X >= 3) = P(X <= 0) = 1/8, P(X >= 2) = 1/2. */
	near(stats_binom_upper(3, 3, 0.5), 0.125, 1e-12);
	near(stats_binom_lower(0, 3, 0.5), 0.125, 1e-12);
	near(stats_binom_upper(2, 3, 0.5), 0.5, 1e-12);
	/* n = 10, p = 0.2: P(X >= 5) = 1 - sum_{k<5} C(10,k) .2^k .8^(10-k). */
	near(stats_binom_upper(5, 10, 0.2), 0.0327934976, 1e-8);
	assert_true(stats_binom_upper(0, 10, 0.2) == 1);
	assert_true(stats_binom_upper(11, 10, 0.2) == 0);
	assert_true(stats_binom_lower(10, 10, 0.2) == 1);
	/* Past the exact range the deviance's root stays within 10% of the
	 * exact tail, also 4.7 standard deviations out (p about 1e-6); at
	 * n = 401 and p = 1/2 (variance 100.25) within 1%. */
	near(stats_binom_upper(261, 401, 0.5), stats_incbeta(261, 141, 0.5), 0.01);
	near(stats_binom_upper(2200, 4001, 0.5), stats_incbeta(2200, 1802, 0.5), 0.1);
	near(stats_binom_lower(1850, 4001, 0.5), 1 - stats_incbeta(1851, 2150, 0.5), 0.1);
}

/*
 * The binomial's tails of whole counts from n = 1 to 300 (their lgamma
 * values are kept once worked out) against the sum of the masses in long
 * double, asked in two orders: a value kept in the wrong place, or for the
 * wrong argument, is off by a factor of about n.
 */
static void
test_binomial_tails_asked_again(void **state)
{
	(void)state;
	const double rates[] = {0.5, 0.3, 0.01};
	for (int pass = 0; pass < 2; pass++) {
		for (int step = 0; step < 300; step++) {
			int n = pass ? 300 - step : step + 1;
			for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
				/*
				 * The masses by their recurrence, and each tail summed
				 * from its far end: no "1 minus" cancels its digits, so
				 * the reference holds where long double is only a double
				 * (as under valgrind).
				 */
				long double p = rates[i], m[301];
				m[0] = powl(1 - p, n);
				for (int j = 0; j < n; j++) {
					m[j + 1] =
					        m[j] * (long double)(n - j) / (j + 1) * p / (1 - p);
				}
				for (int k = 0; k <= n; k += 1 + n / 13) {
					long double upper = 0;
					for (int j = n; j >= k; j--) {
						upper += m[j];
					}
					if (upper > 1e-9L) {
						near(stats_binom_upper(k, n, rates[i]),
						        (double)upper, 1e-9);
					}
				}
			}
		}
	}
}

static void
test_counts_one_run(void **state)
{
	(void)state;
	/* One run a side: the conditional binomial test itself. */
	double a = 560, A = 28000, b = 840, B = 28000;
	struct stats_counts c;
	stats_counts_test(&a, &A, 1, &b, &B, 1, 0.05, &c);
	near(c.p_up, stats_binom_upper(840, 1400, 0.5), 1e-12);
	near(c.p, 2 * c.p_up, 1e-12);
	assert_true(c.phi == 1 && isinf(c.df));
	near(c.ratio, 1.5, 1e-12);
	near(stats_counts_growth_p(&c, 1), c.p_up, 1e-12);
	/* H0 at the truth itself is not rejected. */
	assert_true(stats_counts_growth_p(&c, 1.5) > 0.4);
	/* Nothing on either side: no hypothesis. */
	double z = 0;
	stats_counts_test(&z, &A, 1, &z, &B, 1, 0.05, &c);
	assert_true(c.p == 1 && c.p_up == 1);
}

/*
 * Counts near 2^53, 2^63 and 2^64 - 1 (the largest a count can be). The
 * binomial's tails there, at a mean of 2, are the Poisson's within 1e-15;
 * lgamma of such counts is near 8e20, where a double's step is 131,072,
 * so a log beta formed from lgamma differences misplaced the tails by
 * factors of e^100,000 (the fuzzer's p of -2e9). Every p of counts so
 * large, whatever the other side holds, is in [0, 1].
 */
static void
test_counts_near_2_64(void **state)
{
	(void)state;
	const double huge[] = {9007199254740992.0, 9007199254740994.0 /* 2^53 + 2 */,
	        9223372036854775808.0, 18446744073709551615.0 /* 2^64 as a double */};
	double e2 = exp(-2);
	for (size_t i = 0; i < sizeof(huge) / sizeof(huge[0]); i++) {
		double n = huge[i], p = 2 / n;
		near(stats_binom_upper(1, n, p), 1 - e2, 1e-9);
		near(stats_binom_lower(2, n, p), 5 * e2, 1e-9);
		near(stats_incbeta(3, n - 2, p), 1 - 5 * e2, 1e-9);
		/* The far tail from the near one and P(X = k): head's 2 of n
		 * against totals in the ratio 2 : n - 2 is the mean itself. */
		double a = n - 2, A = n - 2, b = 2, B = 2;
		struct stats_counts c;
		stats_counts_test(&a, &A, 1, &b, &B, 1, 0.05, &c);
		near(c.p_down, 5 * e2, 1e-9);
		near(c.p_up, 1 - 3 * e2, 1e-9);
		assert_true(c.p == 1);
		/* A frame gone from head whose share of base would have put 10 of
		 * head's samples in it: the lower tail e^-10 alone, either way
		 * round (head's rate then near 1, its complement 10 / n). */
		near(stats_pair_p(n - 10, n - 10, 0, 10), 2 * exp(-10), 1e-9);
		near(stats_pair_p(0, 10, n - 10, n - 10), 2 * exp(-10), 1e-9);
		near(stats_pair_p(n - 10, n - 10, 3, 10), 2 * exp(-10) * (1 + 10 + 50 + 500.0 / 3),
		        1e-9);
		/* Counts against their own totals, head's tiny or fractional:
		 * the same share on both sides is no change. */
		const double small[] = {1e-9, 0.5, 1, 3, 1000};
		for (size_t j = 0; j < sizeof(small) / sizeof(small[0]); j++) {
			for (size_t k = 0; k < sizeof(huge) / sizeof(huge[0]); k++) {
				double x = huge[k], y = small[j];
				double same = stats_pair_p(x, x, y, y);
				if (!(same > 0.5 && same <= 1)) {
					fail_msg("%.17g of %.17g against %.17g of %.17g: p %.17g",
					        x, x, y, y, same);
				}
				/* Any share: a p, and two of a kind, in [0, 1]. */
				const double shares[] = {0, 1e-30, 1e-19, 2e-18, 1e-9, 0.5, 1};
				for (size_t q = 0; q < sizeof(shares) / sizeof(shares[0]); q++) {
					double x2 = x * shares[q], pr = stats_pair_p(x2, x, y, n);
					double pl = stats_pair_p(y, n, x2, x);
					if (!(pr >= 0 && pr <= 1 && pl >= 0 && pl <= 1)) {
						fail_msg("%.17g of %.17g, %.17g of %.17g: p %.17g, "
						         "%.17g",
						        x2, x, y, n, pr, pl);
					}
				}
			}
		}
	}
}

/* Bit for bit, NAN equal to NAN: the fast paths must give the same doubles. */
static void
same_double(double got, double want, double a, double A, double b, double B)
{
	if (!(got == want || (isnan(got) && isnan(want)))) {
		fail_msg("a %.17g A %.17g b %.17g B %.17g: got %.17g, want %.17g", a, A, b, B, got,
		        want);
	}
}

/*
 * stats_pair_p and stats_pair_interval, the one-run-a-side test of every
 * frame, against stats_counts_test on a grid of counts (zeros, the small
 * table's edge at 64, whole and fractional, past 2^32, near 2^53) and
 * totals (equal, a ratio of 10^-6 to 10^6, totals below the counts).
 */
static void
test_pair_matches_counts_test(void **state)
{
	(void)state;
	const double counts[] = {0, 0.5, 1, 2, 3, 4, 5, 7, 10, 17, 31, 50, 63, 64, 65, 99, 100, 101,
	        137, 250, 399, 400, 401, 1000, 1234.75, 4097, 20000, 99999, 1e6 + 3, 4294967295.0,
	        4294967296.0, 1099511627776.0, 9007199254740991.0, 9007199254740992.0 - 4096};
	const double totals[] = {1, 1000, 888000, 1e9, 9007199254740992.0};
	const double ratios[] = {1e-6, 0.01, 0.3, 0.5, 0.9, 1, 1.0979, 2, 10, 100, 1e6};
	size_t nc = sizeof(counts) / sizeof(counts[0]), checked = 0;
	for (size_t t = 0; t < sizeof(totals) / sizeof(totals[0]); t++) {
		for (size_t q = 0; q < sizeof(ratios) / sizeof(ratios[0]); q++) {
			double A = totals[t], B = totals[t] * ratios[q];
			for (size_t i = 0; i < nc; i++) {
				for (size_t j = 0; j < nc; j++) {
					double a = counts[i], b = counts[j];
					struct stats_counts c;
					stats_counts_test(&a, &A, 1, &b, &B, 1, 0.05, &c);
					same_double(stats_pair_p(a, A, b, B), c.p, a, A, b, B);
					double lo, hi;
					stats_pair_interval(a, A, b, B, 0.05, &lo, &hi);
					same_double(lo, c.lo, a, A, b, B);
					same_double(hi, c.hi, a, A, b, B);
					checked++;
				}
			}
		}
	}
	/* Around the mean, where both tails are near 1/2 and the shortcut
	 * must not take the wrong one: every head count for a few sums. */
	const double sums[] = {1, 2, 9, 40, 127, 399, 400, 401, 1001, 30001};
	for (size_t i = 0; i < sizeof(sums) / sizeof(sums[0]); i++) {
		for (size_t q = 0; q < sizeof(ratios) / sizeof(ratios[0]); q++) {
			double A = 1e6, B = 1e6 * ratios[q], n = sums[i];
			double mid = n * B / (A + B);
			for (double b = fmax(0, floor(mid) - 40); b <= fmin(n, mid + 40); b++) {
				double a = n - b;
				struct stats_counts c;
				stats_counts_test(&a, &A, 1, &b, &B, 1, 0.05, &c);
				same_double(stats_pair_p(a, A, b, B), c.p, a, A, b, B);
				checked++;
			}
		}
	}
	assert_true(checked > 60000);
}

/*
 * stats_pair_bound against the p it stands in for, on every head count of
 * a grid of sums (the bound is for whole counts) and totals: QUIET only
 * where alpha < p < 1, SURE only where p <= alpha_min, for p as worked out
 * and as a float (the names' p is kept so). And it must settle most of
 * them, or it saves nothing. stats_pair_range's verdict is the bound's,
 * and its range, when it gives one, holds p (and p under 1) as a double
 * and as a float; it must give one for a good part (a quarter) of those
 * left, most of them near the mean, where no range is given.
 */
static void
test_pair_bound(void **state)
{
	(void)state;
	const double sums[] = {2, 3, 5, 8, 13, 40, 64, 100, 127, 128, 250, 399, 401, 1000, 2500,
	        10007, 100003, 4294967295.0, 1099511627776.0, 9007199254740991.0};
	const double ratios[] = {1e-6, 0.001, 0.1, 0.5, 0.9, 1, 1.0979, 1.5, 3, 1000, 1e6};
	const double alphas[] = {0.0001, 0.05, 0.5};
	size_t checked = 0, settled = 0, ranged = 0;
	for (size_t l = 0; l < sizeof(alphas) / sizeof(alphas[0]); l++) {
		double alpha = alphas[l], alpha_min = alpha / 1e5;
		struct stats_pair_bound c;
		stats_pair_bound_init(&c, alpha, alpha_min);
		for (size_t i = 0; i < sizeof(sums) / sizeof(sums[0]); i++) {
			for (size_t q = 0; q < sizeof(ratios) / sizeof(ratios[0]); q++) {
				double n = sums[i], A = 888000, B = 888000 * ratios[q];
				/* Every count for small sums; else 3,000 spread over
				 * the sum and every one within 600 of the mean. */
				double mid = floor(n * B / (A + B)),
				       step = n <= 3000 ? 1 : floor(n / 3000);
				for (int pass = 0; pass < 2; pass++) {
					double from = pass ? fmax(0, mid - 600) : 0;
					double to = pass ? fmin(n, mid + 600) : n;
					for (double b = from; b <= to; b += pass ? 1 : step) {
						double a = n - b, p = stats_pair_p(a, A, b, B);
						enum stats_pair_verdict v =
						        stats_pair_bound(&c, a, A, b, B);
						double pf = (float)p;
						if ((v == STATS_PAIR_QUIET &&
						            !(p > alpha && p < 1 && pf > alpha &&
						                    pf < 1)) ||
						        (v == STATS_PAIR_SURE &&
						                !(p <= alpha_min))) {
							fail_msg("a %.17g A %.17g b %.17g B %.17g "
							         "alpha "
							         "%g: bound %d, p %.17g",
							        a, A, b, B, alpha, (int)v, p);
						}
						settled += v != STATS_PAIR_UNSURE;
						checked++;
						double lo, hi;
						enum stats_pair_verdict w =
						        stats_pair_range(&c, a, A, b, B, &lo, &hi);
						if (w != v ||
						        (hi < 1 && !(v == STATS_PAIR_UNSURE &&
						                           lo <= p && p <= hi &&
						                           (float)lo <= pf &&
						                           pf <= (float)hi &&
						                           pf < 1)) ||
						        (!(hi < 1) && !(lo == 0 && hi == 1))) {
							fail_msg("a %.17g A %.17g b %.17g B %.17g "
							         "alpha %g: verdict %d, range "
							         "[%.17g, %.17g], p %.17g",
							        a, A, b, B, alpha, (int)w, lo, hi,
							        p);
						}
						ranged += hi < 1;
					}
				}
			}
		}
	}
	if (!(checked > 200000 && settled > checked * 3 / 4)) {
		fail_msg("%zu of %zu pairs settled by the bound", settled, checked);
	}
	if (!(ranged > (checked - settled) / 4)) {
		fail_msg("%zu of %zu unsettled pairs given a range", ranged, checked - settled);
	}
}

/*
 * With one run a side and few samples, the interval of the change holds 0
 * exactly when the test finds nothing (p > alpha), and stays within what
 * the samples allow (all of them on one side). The normal approximation's
 * did neither: 0 against 4 samples (p = 0.125) excluded 0, and 1 against
 * 3 of totals of 4 reached past +100 points.
 */
static void
test_tiny_interval_agrees_with_p(void **state)
{
	(void)state;
	double A = 1000, B = 1000, a = 0, b = 4, lo, hi;
	stats_pair_interval(a, A, b, B, 0.05, &lo, &hi);
	assert_true(stats_pair_p(a, A, b, B) > 0.05 && lo < 0 && hi > 0);
	A = B = 4;
	a = 1;
	b = 3;
	stats_pair_interval(a, A, b, B, 0.05, &lo, &hi);
	assert_true(lo >= -1 && hi <= 1);
	const double totals[] = {4, 30, 1000, 888000};
	const double ratios[] = {0.01, 0.5, 1, 1.0979, 3, 100};
	const double alphas[] = {0.0001, 0.05, 0.5};
	size_t checked = 0;
	for (size_t t = 0; t < sizeof(totals) / sizeof(totals[0]); t++) {
		for (size_t q = 0; q < sizeof(ratios) / sizeof(ratios[0]); q++) {
			for (size_t l = 0; l < sizeof(alphas) / sizeof(alphas[0]); l++) {
				A = totals[t];
				B = totals[t] * ratios[q];
				for (double n = 1; n < 64; n++) {
					for (b = 0; b <= n; b++) {
						a = n - b;
						double p = stats_pair_p(a, A, b, B);
						stats_pair_interval(
						        a, A, b, B, alphas[l], &lo, &hi);
						bool excludes = lo > 0 || hi < 0;
						/* p within a hair of alpha: either answer. */
						bool edge = fabs(p - alphas[l]) < 1e-9 * alphas[l];
						if ((excludes != (p <= alphas[l]) && !edge) ||
						        lo > hi || lo < -n / A * (1 + 1e-12) ||
						        hi > n / B * (1 + 1e-12)) {
							fail_msg("a %g A %g b %g B %g alpha %g: p "
							         "%.17g, "
							         "interval %.17g %.17g",
							        a, A, b, B, alphas[l], p, lo, hi);
						}
						checked++;
					}
				}
			}
		}
	}
	assert_true(checked > 100000);
}

static void
test_counts_tiny_and_identical(void **state)
{
	(void)state;
	/* 0,0,0 -> 1,1,1: Welch found p = 3.5e-6; never below the exact test
	 * of the sums (3 against 0, p = 2 / 8). */
	const double x[] = {0, 0, 0}, y[] = {1, 1, 1}, t[] = {28000, 28000, 28000};
	struct stats_counts c;
	stats_counts_test(x, t, 3, y, t, 3, 0.05, &c);
	assert_true(c.p >= 0.25 - 1e-12);
	/* The same file given twice a side: no spread, yet p is not 0. */
	const double b2[] = {100, 100}, h2[] = {130, 130}, t2[] = {1000, 1000};
	stats_counts_test(b2, t2, 2, h2, t2, 2, 0.05, &c);
	assert_true(c.phi == 1 && c.df == 2);
	assert_true(c.p > 0.01 && c.p < 0.5);
	/* A run with more samples than the others weighs more. */
	const double b3[] = {100, 100, 400}, t3[] = {1000, 1000, 4000};
	stats_counts_test(b3, t3, 3, b3, t3, 3, 0.05, &c);
	near(c.diff, 0, 1e-15);
	assert_true(c.p > 0.99);
}

/* Knuth's Poisson draw from a fixed linear congruential stream. */
static uint64_t lcg = 88172645463325252u;

static double
uniform(void)
{
	lcg = lcg * 6364136223846793005u + 1442695040888963407u;
	return (double)(lcg >> 11) / 9007199254740992.0;
}

static double
poisson(double lambda)
{
	double limit = exp(-lambda), p = uniform();
	double k = 0;
	while (p > limit) {
		k++;
		p *= uniform();
	}
	return k;
}

static void
test_counts_false_positives(void **state)
{
	(void)state;
	/* Pure Poisson noise, no change: one run and three runs a side. A test
	 * at 0.05 may reject at most 6% of 4000 pairs. */
	size_t rejected[2] = {0, 0};
	for (int i = 0; i < 4000; i++) {
		double a = poisson(40), b = poisson(40), A = 1000, B = 1000;
		struct stats_counts c;
		stats_counts_test(&a, &A, 1, &b, &B, 1, 0.05, &c);
		rejected[0] += c.p <= 0.05;
		double x[3], y[3], t[3] = {1000, 1000, 1000};
		for (int k = 0; k < 3; k++) {
			x[k] = poisson(30);
			y[k] = poisson(30);
		}
		stats_counts_test(x, t, 3, y, t, 3, 0.05, &c);
		rejected[1] += c.p <= 0.05;
	}
	print_message("false positives at 0.05: one run %zu, three runs %zu of 4000\n", rejected[0],
	        rejected[1]);
	assert_true(rejected[0] <= 240 && rejected[1] <= 240);
}

static void
test_detectable(void **state)
{
	(void)state;
	/* The ratio found solves its own equation. */
	double z = stats_normal_quantile(0.025) + stats_normal_quantile(0.2);
	near(z, 1.959963984540054 + 0.841621233572914, 1e-9);
	double r = stats_detectable_ratio(560, 28000, 28000, 1, 0.025, 0.8);
	near(log(r), z * sqrt(1.0 / 560 + 1 / (560 * r)), 1e-9);
	/* k times the samples bring it down to the asked ratio. */
	double k = stats_samples_factor(560, 28000, 28000, 1, 0.025, 0.8, 1.1);
	near(stats_detectable_ratio(560 * k, 28000 * k, 28000 * k, 1, 0.025, 0.8), 1.1, 1e-6);
	assert_true(isinf(stats_detectable_ratio(0, 1, 1, 1, 0.05, 0.8)));
}

/* Runs summed as they end (--runs) against runs kept (stats_counts_test). */
static void
acc_test(const double *x, const double *xt, size_t nx, const double *y, const double *yt, size_t ny,
        struct stats_counts *c)
{
	struct stats_acc ax = {0}, ay = {0};
	double A = 0, B = 0;
	for (size_t k = 0; k < nx; k++) {
		A += xt[k];
		stats_acc_add(&ax, x[k], xt[k], k + 1, A);
	}
	for (size_t k = 0; k < ny; k++) {
		B += yt[k];
		stats_acc_add(&ay, y[k], yt[k], k + 1, B);
	}
	stats_counts_acc(&ax, nx, A, &ay, ny, B, 0.05, c);
}

static void
close_to(double got, double want)
{
	assert_true(got == want || fabs(got - want) <= 1e-12 * fabs(want));
}

static void
test_counts_acc_matches_counts_test(void **state)
{
	(void)state;
	double x[60], xt[60], y[60], yt[60];
	for (int round = 0; round < 2000; round++) {
		size_t nx = 2 + (size_t)(uniform() * 58), ny = 2 + (size_t)(uniform() * 58);
		double rate = uniform() * uniform(), spread = uniform() * 0.3;
		/* Some counts only in later runs (a frame a run added), some runs alike. */
		size_t absent = round % 3 == 0 ? (size_t)(uniform() * (double)nx) : 0;
		bool alike = round % 7 == 0;
		for (size_t k = 0; k < 60; k++) {
			xt[k] = floor(1000 + uniform() * 100000);
			yt[k] = floor(1000 + uniform() * 100000);
			x[k] = k < absent ? 0
			                  : floor(xt[k] * rate * (1 + spread * (uniform() - 0.5)));
			y[k] = floor(yt[k] * rate * (1 + spread * (uniform() - 0.5)));
			if (alike && k > 0) {
				x[k] = x[0], xt[k] = xt[0], y[k] = y[0], yt[k] = yt[0];
			}
		}
		struct stats_counts kept, summed;
		stats_counts_test(x, xt, nx, y, yt, ny, 0.05, &kept);
		acc_test(x, xt, nx, y, yt, ny, &summed);
		/* The sums are formed in the same order: the same doubles. */
		assert_true(summed.a == kept.a && summed.A == kept.A);
		assert_true(summed.b == kept.b && summed.B == kept.B);
		assert_true(summed.mean[0] == kept.mean[0] && summed.mean[1] == kept.mean[1]);
		assert_true(summed.diff == kept.diff);
		/* The spreads are running ones: within a few units in the last place. */
		close_to(summed.sd[0], kept.sd[0]);
		close_to(summed.sd[1], kept.sd[1]);
		close_to(summed.phi, kept.phi);
		close_to(summed.p, kept.p);
		close_to(summed.lo, kept.lo);
		close_to(summed.hi, kept.hi);
		if (alike) {
			assert_true(summed.sd[0] == kept.sd[0] && summed.phi == kept.phi);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_incbeta),
	        cmocka_unit_test(test_t_distribution),
	        cmocka_unit_test(test_welch),
	        cmocka_unit_test(test_welch_without_spread),
	        cmocka_unit_test(test_binomial_tails),
	        cmocka_unit_test(test_binomial_tails_asked_again),
	        cmocka_unit_test(test_counts_one_run),
	        cmocka_unit_test(test_counts_near_2_64),
	        cmocka_unit_test(test_pair_matches_counts_test),
	        cmocka_unit_test(test_pair_bound),
	        cmocka_unit_test(test_tiny_interval_agrees_with_p),
	        cmocka_unit_test(test_counts_tiny_and_identical),
	        cmocka_unit_test(test_counts_false_positives),
	        cmocka_unit_test(test_detectable),
	        cmocka_unit_test(test_counts_acc_matches_counts_test),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
