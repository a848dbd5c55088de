/* buf: growth, NUL termination, number formatting, detach. */
#include "buf.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static void
test_empty(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b);
	assert_null(b.data);
	assert_int_equal(b.len, 0);
	buf_reset(&b); /* fine on an empty buffer */
	size_t len = 99;
	char *s = buf_detach(&b, &len);
	assert_non_null(s);
	assert_int_equal(len, 0);
	assert_string_equal(s, "");
	free(s);
	assert_null(b.data);
	buf_finish(&b);
	buf_finish(&b); /* twice is harmless */
}

static void
test_append(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b);
	buf_adds(&b, "ab");
	buf_addc(&b, 'c');
	buf_add(&b, "d\0e", 3);
	buf_add(&b, NULL, 0);
	assert_int_equal(b.len, 6);
	assert_memory_equal(b.data, "abcd\0e", 7); /* NUL-terminated too */
	buf_reset(&b);
	assert_int_equal(b.len, 0);
	assert_string_equal(b.data, "");
	buf_finish(&b);
}

static void
test_growth(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b);
	for (int i = 0; i < 100000; i++) {
		buf_addc(&b, (char)('a' + i % 26));
	}
	assert_int_equal(b.len, 100000);
	assert_true(b.cap > b.len);
	assert_int_equal(b.data[b.len], '\0');
	for (int i = 0; i < 100000; i += 9973) {
		assert_int_equal(b.data[i], 'a' + i % 26);
	}
	buf_reserve(&b, 1 << 20);
	assert_true(b.cap >= b.len + (1 << 20) + 1);
	buf_finish(&b);
}

static void
check_u64(uint64_t v, const char *want)
{
	struct buf b;
	buf_init(&b);
	buf_add_u64(&b, v);
	assert_string_equal(b.data, want);
	buf_finish(&b);
}

static void
test_u64(void **state)
{
	(void)state;
	check_u64(0, "0");
	check_u64(7, "7");
	check_u64(1000, "1000");
	check_u64(UINT64_MAX, "18446744073709551615");
}

static void
check_double(double v, int digits, const char *want)
{
	struct buf b;
	buf_init(&b);
	buf_add_double(&b, v, digits);
	assert_string_equal(b.data, want);
	buf_finish(&b);
}

static void
test_double(void **state)
{
	(void)state;
	check_double(0, 3, "0");
	check_double(1.5, 3, "1.5");
	check_double(2.0, 6, "2");
	check_double(0.126, 2, "0.13");
	check_double(100, 0, "100");
	check_double(-0.0001, 2, "0");
	check_double(-2.5, 1, "-2.5");
	check_double(1.0 / 0.0, 2, "0");
	/* Huge values fall back to exponent form instead of overflowing. */
	struct buf b;
	buf_init(&b);
	buf_add_double(&b, 1e300, 6);
	assert_non_null(strchr(b.data, 'e'));
	buf_finish(&b);
}

static void
test_printf(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b);
	buf_printf(&b, "%s=%d", "x", 42);
	buf_printf(&b, "%s", "");
	buf_printf(&b, ";%05.1f", 3.14159);
	assert_string_equal(b.data, "x=42;003.1");
	/* Longer than any initial capacity. */
	buf_reset(&b);
	buf_printf(&b, "%5000s|", "end");
	assert_int_equal(b.len, 5001);
	assert_string_equal(b.data + 4997, "end|");
	size_t len;
	char *s = buf_detach(&b, &len);
	assert_int_equal(len, 5001);
	free(s);
	buf_finish(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_empty),
	        cmocka_unit_test(test_append),
	        cmocka_unit_test(test_growth),
	        cmocka_unit_test(test_u64),
	        cmocka_unit_test(test_double),
	        cmocka_unit_test(test_printf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
