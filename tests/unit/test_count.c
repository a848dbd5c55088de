/* count: exact parsing, overflow-checked addition and formatting. */
#include "count.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

static struct count
parse_ok(const char *s)
{
	struct count c = {99, 99};
	const char *reason = NULL;
	if (!count_parse(s, strlen(s), &c, &reason)) {
		fail_msg("'%s' rejected: %s", s, reason);
	}
	return c;
}

static const char *
parse_bad(const char *s)
{
	struct count c = {7, 7};
	const char *reason = NULL;
	if (count_parse(s, strlen(s), &c, &reason)) {
		fail_msg("'%s' accepted", s);
	}
	assert_non_null(reason);
	/* A rejected count leaves the output alone. */
	assert_true(c.units == 7 && c.nanos == 7);
	return reason;
}

static void
test_integers(void **state)
{
	(void)state;
	struct count c = parse_ok("0");
	assert_true(c.units == 0 && c.nanos == 0);
	c = parse_ok("42");
	assert_true(c.units == 42 && c.nanos == 0);
	c = parse_ok("007");
	assert_true(c.units == 7 && c.nanos == 0);
	c = parse_ok("18446744073709551615");
	assert_true(c.units == UINT64_MAX && c.nanos == 0);
}

static void
test_too_large(void **state)
{
	(void)state;
	assert_string_equal(parse_bad("18446744073709551616"), "count is larger than 2^64-1");
	assert_string_equal(parse_bad("99999999999999999999999"), "count is larger than 2^64-1");
	/* The limit is 2^64-1 exactly: its fraction counts too (issue 21, item 8). */
	assert_string_equal(
	        parse_bad("18446744073709551615.999999999"), "count is larger than 2^64-1");
	assert_string_equal(parse_bad("18446744073709551615.5"), "count is larger than 2^64-1");
	assert_string_equal(
	        parse_bad("18446744073709551615.000000001"), "count is larger than 2^64-1");
	/* Even past the ninth decimal, where the digit itself is dropped. */
	assert_string_equal(
	        parse_bad("18446744073709551615.0000000001"), "count is larger than 2^64-1");
	struct count c = parse_ok("18446744073709551615.000000000000");
	assert_true(c.units == UINT64_MAX && c.nanos == 0);
	c = parse_ok("18446744073709551615.");
	assert_true(c.units == UINT64_MAX && c.nanos == 0);
	c = parse_ok("18446744073709551614.999999999");
	assert_true(c.units == UINT64_MAX - 1 && c.nanos == 999999999);
}

static void
test_decimals(void **state)
{
	(void)state;
	struct count c = parse_ok("12.5");
	assert_true(c.units == 12 && c.nanos == 500000000);
	c = parse_ok("12.");
	assert_true(c.units == 12 && c.nanos == 0);
	c = parse_ok("0.000000001");
	assert_true(c.units == 0 && c.nanos == 1);
	/* Past the ninth decimal digits are dropped, not rounded. */
	c = parse_ok("1.1234567899");
	assert_true(c.units == 1 && c.nanos == 123456789);
	c = parse_ok("3.99999999999999");
	assert_true(c.units == 3 && c.nanos == 999999999);
	c = parse_ok("18446744073709551614.5");
	assert_true(c.units == UINT64_MAX - 1 && c.nanos == 500000000);
}

static void
test_rejected(void **state)
{
	(void)state;
	assert_string_equal(parse_bad("-1"), "count is negative");
	assert_string_equal(parse_bad("-0.5"), "count is negative");
	assert_string_equal(parse_bad("1e3"), "count is not a number");
	assert_string_equal(parse_bad("nan"), "count is not a number");
	assert_string_equal(parse_bad("inf"), "count is not a number");
	assert_string_equal(parse_bad("0x10"), "count is not a number");
	assert_string_equal(parse_bad("+1"), "count is not a number");
	assert_string_equal(parse_bad(".5"), "count is not a number");
	assert_string_equal(parse_bad("1.2.3"), "count is not a number");
	assert_string_equal(parse_bad("12a"), "count is not a number");
	assert_string_equal(parse_bad("1,5"), "count is not a number");
	assert_string_equal(parse_bad(""), "no count");
}

static void
test_length_bounds(void **state)
{
	(void)state;
	/* Only len bytes are read: "123" of "1234" is 123. */
	struct count c;
	const char *reason;
	assert_true(count_parse("1234", 3, &c, &reason));
	assert_true(c.units == 123);
	const char with_nul[] = {'1', '\0', '2'};
	assert_false(count_parse(with_nul, 3, &c, &reason));
}

static void
test_add(void **state)
{
	(void)state;
	struct count sum = {0, 0};
	assert_true(count_add((struct count){1, 600000000}, (struct count){2, 500000000}, &sum));
	assert_true(sum.units == 4 && sum.nanos == 100000000);
	/* A tenth ten times is exactly one. */
	struct count acc = {0, 0}, tenth = parse_ok("0.1");
	for (int i = 0; i < 10; i++) {
		assert_true(count_add(acc, tenth, &acc));
	}
	assert_true(acc.units == 1 && acc.nanos == 0);
	/* Sums up to 2^64-1 exactly are fine, also through the carry. */
	struct count below = {UINT64_MAX - 1, 0};
	assert_true(count_add(below, (struct count){0, 999999999}, &sum));
	assert_true(sum.units == UINT64_MAX - 1 && sum.nanos == 999999999);
	assert_true(count_add(sum, (struct count){0, 1}, &sum));
	assert_true(sum.units == UINT64_MAX && sum.nanos == 0);
	assert_true(count_add(
	        (struct count){UINT64_MAX - 1, 500000000}, (struct count){0, 500000000}, &sum));
	assert_true(sum.units == UINT64_MAX && sum.nanos == 0);
	assert_true(count_add((struct count){UINT64_MAX, 0}, (struct count){0, 0}, &sum));
	assert_true(sum.units == UINT64_MAX && sum.nanos == 0);
}

static void
test_add_overflow(void **state)
{
	(void)state;
	struct count sum = {5, 5};
	assert_false(count_add((struct count){UINT64_MAX, 0}, (struct count){1, 0}, &sum));
	assert_true(sum.units == 5 && sum.nanos == 5);
	/* 2^64-1 plus any fraction is past the limit (issue 21, item 8). */
	assert_false(count_add((struct count){UINT64_MAX, 0}, (struct count){0, 1}, &sum));
	assert_false(count_add((struct count){UINT64_MAX - 1, 0}, (struct count){1, 1}, &sum));
	assert_false(count_add(
	        (struct count){UINT64_MAX - 1, 600000000}, (struct count){0, 500000000}, &sum));
	assert_true(sum.units == 5 && sum.nanos == 5);
	/* Overflow through the carry of the fractions. */
	assert_false(count_add(
	        (struct count){UINT64_MAX, 500000000}, (struct count){0, 500000000}, &sum));
	assert_false(count_add((struct count){UINT64_MAX / 2 + 1, 0},
	        (struct count){UINT64_MAX / 2 + 1, 0}, &sum));
	assert_true(sum.units == 5 && sum.nanos == 5);
}

static void
test_sub_cmp(void **state)
{
	(void)state;
	struct count r = count_sub((struct count){3, 100000000}, (struct count){1, 600000000});
	assert_true(r.units == 1 && r.nanos == 500000000);
	r = count_sub((struct count){3, 0}, (struct count){3, 0});
	assert_true(count_is_zero(r));
	assert_int_equal(count_cmp((struct count){1, 0}, (struct count){1, 1}), -1);
	assert_int_equal(count_cmp((struct count){2, 0}, (struct count){1, 999999999}), 1);
	assert_int_equal(count_cmp((struct count){2, 3}, (struct count){2, 3}), 0);
	assert_true(count_is_zero((struct count){0, 0}));
	assert_false(count_is_zero((struct count){0, 1}));
	assert_true(count_to_double((struct count){2, 250000000}) == 2.25);
}

static void
check_format(const char *in, const char *want)
{
	struct buf b;
	buf_init(&b);
	buf_add_count(&b, parse_ok(in));
	assert_string_equal(b.data, want);
	buf_finish(&b);
}

static void
test_format(void **state)
{
	(void)state;
	check_format("0", "0");
	check_format("12", "12");
	check_format("12.", "12");
	check_format("12.50", "12.5");
	check_format("0.000000001", "0.000000001");
	check_format("1.000100000", "1.0001");
	check_format("18446744073709551614.999999999", "18446744073709551614.999999999");
	check_format("18446744073709551615.000", "18446744073709551615");
	/* Round trip: what is printed parses back to the same count. */
	const char *samples[] = {"3.14159", "100.000000009", "5"};
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		struct buf b;
		buf_init(&b);
		struct count c = parse_ok(samples[i]);
		buf_add_count(&b, c);
		assert_int_equal(count_cmp(parse_ok(b.data), c), 0);
		buf_finish(&b);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_integers),
	        cmocka_unit_test(test_too_large),
	        cmocka_unit_test(test_decimals),
	        cmocka_unit_test(test_rejected),
	        cmocka_unit_test(test_length_bounds),
	        cmocka_unit_test(test_add),
	        cmocka_unit_test(test_add_overflow),
	        cmocka_unit_test(test_sub_cmp),
	        cmocka_unit_test(test_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
