/*
 * stats: the incomplete beta function, Student's t and Welch's test
 * against values worked out by hand (closed forms for small degrees of
 * freedom) or by an independent reference: the t density integrated
 * numerically with mpmath at 30 digits (the numbers quoted below).
 */
#include "stats.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_incbeta),
	        cmocka_unit_test(test_t_distribution),
	        cmocka_unit_test(test_welch),
	        cmocka_unit_test(test_welch_without_spread),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
