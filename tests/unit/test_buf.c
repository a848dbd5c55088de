/* buf: growth, NUL termination, the empty-buffer invariants, number formatting, detach. */
#include "buf.h"

#include <setjmp.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

static void
test_empty(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b);
	/* Never NULL: an empty buf is a C string, the shared read-only "". */
	assert_ptr_equal(b.data, buf_empty);
	assert_string_equal(b.data, "");
	assert_int_equal(b.len, 0);
	assert_int_equal(b.cap, 0);
	buf_reset(&b); /* fine on an empty buffer, and allocates nothing */
	buf_setlen(&b, 0);
	assert_ptr_equal(b.data, buf_empty);
	size_t len = 99;
	char *s = buf_detach(&b, &len);
	/* The caller frees what detach returns: a copy, never buf_empty. */
	assert_ptr_not_equal(s, buf_empty);
	assert_int_equal(len, 0);
	assert_string_equal(s, "");
	free(s);
	assert_ptr_equal(b.data, buf_empty);
	buf_finish(&b);
	buf_finish(&b); /* twice is harmless */
	assert_ptr_equal(b.data, buf_empty);
}

/* Appending nothing never writes the NUL into the shared "" (it is in
 * read-only memory: a write there would crash this test). */
static void
test_empty_add_nothing(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b);
	buf_add(&b, NULL, 0);
	buf_adds(&b, "");
	buf_printf(&b, "%s", "");
	assert_int_equal(b.len, 0);
	assert_string_equal(b.data, "");
	assert_int_equal(buf_empty[0], '\0');
	buf_finish(&b);
	assert_ptr_equal(b.data, buf_empty);
	/* After finish the buffer is empty again and grows as new. */
	buf_addc(&b, 'x');
	assert_string_equal(b.data, "x");
	assert_ptr_not_equal(b.data, buf_empty);
	buf_finish(&b);
	assert_ptr_equal(b.data, buf_empty);
	assert_int_equal(b.len, 0);
	assert_int_equal(b.cap, 0);
}

/* A reserve on an empty buffer leaves a NUL-terminated, empty string. */
static void
test_reserve_empty(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b);
	buf_reserve(&b, 100);
	assert_ptr_not_equal(b.data, buf_empty);
	assert_true(b.cap >= 101);
	assert_int_equal(b.len, 0);
	assert_string_equal(b.data, "");
	buf_finish(&b);
	/* A zeroed struct grows like an initialised one. */
	struct buf z;
	memset(&z, 0, sizeof(z));
	buf_adds(&z, "ok");
	assert_string_equal(z.data, "ok");
	buf_finish(&z);
}

static void
test_setlen(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b);
	buf_adds(&b, "abcdef");
	buf_setlen(&b, 3); /* cut back: the NUL follows */
	assert_int_equal(b.len, 3);
	assert_string_equal(b.data, "abc");
	/* Take in bytes written into reserved room. */
	buf_reserve(&b, 4);
	memcpy(b.data + b.len, "wxyz", 4);
	buf_setlen(&b, b.len + 4);
	assert_int_equal(b.len, 7);
	assert_string_equal(b.data, "abcwxyz");
	buf_setlen(&b, b.cap - 1); /* the last byte reserved is for the NUL */
	assert_int_equal(b.data[b.len], '\0');
	buf_setlen(&b, 0);
	assert_string_equal(b.data, "");
	assert_ptr_not_equal(b.data, buf_empty); /* memory kept */
	buf_finish(&b);
}

/* Runs fn in a child; true when it died of SIGABRT. */
static bool
aborts(void (*fn)(void))
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* Keep the expected abort's report and core dump quiet. */
		signal(SIGABRT, SIG_DFL);
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0) {
			dup2(null, STDERR_FILENO);
		}
		fn();
		_exit(0);
	}
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static void
setlen_past_cap(void)
{
	struct buf b;
	buf_init(&b);
	buf_adds(&b, "abc");
	buf_setlen(&b, b.cap); /* no room left for the NUL */
}

static void
setlen_on_empty(void)
{
	struct buf b;
	buf_init(&b);
	buf_setlen(&b, 1); /* would write into buf_empty */
}

static void
setlen_within(void)
{
	struct buf b;
	buf_init(&b);
	buf_adds(&b, "abc");
	buf_setlen(&b, 1);
	buf_finish(&b);
}

static void
test_setlen_out_of_range(void **state)
{
	(void)state;
	assert_true(aborts(setlen_past_cap));
	assert_true(aborts(setlen_on_empty));
	assert_false(aborts(setlen_within));
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
	/* Each side of every digit-count boundary, appended after text. */
	uint64_t p = 1;
	for (int digits = 1; digits <= 20; digits++) {
		for (int k = -1; k <= 1; k++) {
			uint64_t v = p + (uint64_t)(int64_t)k;
			char want[32];
			snprintf(want, sizeof(want), "x%" PRIu64, v);
			struct buf b;
			buf_init(&b);
			buf_addc(&b, 'x');
			buf_add_u64(&b, v);
			assert_string_equal(b.data, want);
			assert_int_equal(b.len, strlen(want));
			buf_finish(&b);
		}
		p = digits < 20 ? p * 10 : p;
	}
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
	        cmocka_unit_test(test_empty_add_nothing),
	        cmocka_unit_test(test_reserve_empty),
	        cmocka_unit_test(test_setlen),
	        cmocka_unit_test(test_setlen_out_of_range),
	        cmocka_unit_test(test_append),
	        cmocka_unit_test(test_growth),
	        cmocka_unit_test(test_u64),
	        cmocka_unit_test(test_double),
	        cmocka_unit_test(test_printf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
