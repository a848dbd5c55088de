/* utf8: decoding of valid and invalid sequences, encoding, lengths. */
#include "utf8.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

static void
check_valid(const char *s, size_t n, uint32_t want)
{
	uint32_t cp = 0xDEAD;
	assert_int_equal(utf8_decode(s, strlen(s), &cp), n);
	assert_int_equal(cp, want);
}

static void
check_invalid(const char *s, size_t len)
{
	uint32_t cp;
	assert_int_equal(utf8_decode(s, len, &cp), 0);
}

static void
test_decode_valid(void **state)
{
	(void)state;
	check_valid("a", 1, 'a');
	check_valid("\x7f", 1, 0x7f);
	check_valid("\xc2\x80", 2, 0x80);
	check_valid("\xc3\xa9x", 2, 0xe9);
	check_valid("\xdf\xbf", 2, 0x7ff);
	check_valid("\xe0\xa0\x80", 3, 0x800);
	check_valid("\xe2\x80\xa8", 3, 0x2028);
	check_valid("\xed\x9f\xbf", 3, 0xd7ff);
	check_valid("\xee\x80\x80", 3, 0xe000);
	check_valid("\xef\xbf\xbf", 3, 0xffff);
	check_valid("\xf0\x90\x80\x80", 4, 0x10000);
	check_valid("\xf0\x9f\x94\xa5", 4, 0x1f525);
	check_valid("\xf4\x8f\xbf\xbf", 4, 0x10ffff);
	uint32_t cp;
	assert_int_equal(utf8_decode("\0", 1, &cp), 1);
	assert_int_equal(cp, 0);
}

static void
test_decode_invalid(void **state)
{
	(void)state;
	check_invalid("\x80", 1); /* lone continuation */
	check_invalid("\xbf", 1);
	check_invalid("\xc0\x80", 2); /* overlong NUL */
	check_invalid("\xc1\xbf", 2); /* overlong */
	check_invalid("\xe0\x80\x80", 3); /* overlong */
	check_invalid("\xf0\x80\x80\x80", 4); /* overlong */
	check_invalid("\xed\xa0\x80", 3); /* surrogate D800 */
	check_invalid("\xed\xbf\xbf", 3); /* surrogate DFFF */
	check_invalid("\xf4\x90\x80\x80", 4); /* past U+10FFFF */
	check_invalid("\xf8\x88\x80\x80\x80", 5); /* 5-byte form */
	check_invalid("\xfe", 1);
	check_invalid("\xff", 1);
	check_invalid("\xc3", 1); /* cut */
	check_invalid("\xe2\x80", 2); /* cut */
	check_invalid("\xf0\x9f\x94", 3); /* cut */
	check_invalid("\xc3(", 2); /* bad continuation */
	check_invalid("\xe2\x28\xa1", 3);
	/* The length bounds the read: the third byte is not looked at. */
	check_invalid("\xe2\x80\xa8", 2);
}

static void
test_encode_roundtrip(void **state)
{
	(void)state;
	const uint32_t cps[] = {0, 'A', 0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xfffd, 0xffff,
	        0x10000, 0x10ffff};
	const size_t sizes[] = {1, 1, 1, 2, 2, 3, 3, 3, 3, 3, 4, 4};
	for (size_t i = 0; i < sizeof(cps) / sizeof(cps[0]); i++) {
		struct buf b;
		buf_init(&b);
		utf8_encode(&b, cps[i]);
		assert_int_equal(b.len, sizes[i]);
		uint32_t cp;
		assert_int_equal(utf8_decode(b.data, b.len, &cp), sizes[i]);
		assert_int_equal(cp, cps[i]);
		buf_finish(&b);
	}
	struct buf b;
	buf_init(&b);
	utf8_encode(&b, 0xe9);
	assert_memory_equal(b.data, "\xc3\xa9", 2);
	buf_finish(&b);
}

static void
test_length(void **state)
{
	(void)state;
	assert_int_equal(utf8_length("", 0), 0);
	assert_int_equal(utf8_length("abc", 3), 3);
	assert_int_equal(utf8_length("h\xc3\xa9llo", 6), 5);
	assert_int_equal(utf8_length("\xf0\x9f\x94\xa5!", 5), 2);
	/* Each invalid byte counts once. */
	assert_int_equal(utf8_length("\xff\xfe", 2), 2);
	assert_int_equal(utf8_length("a\xe2\x80", 3), 3);
	assert_int_equal(utf8_length("\xed\xa0\x80", 3), 3);
	/* Long names: ASCII is counted eight bytes a step, around the rest. */
	assert_int_equal(utf8_length("abcdefghijklmnop", 16), 16);
	assert_int_equal(utf8_length("abcdefg\xc3\xa9hijklmnop", 18), 17);
	assert_int_equal(utf8_length("abcdefgh\xf0\x9f\x94\xa5ijklmnopq", 21), 18);
	assert_int_equal(utf8_length("\xff\xfe"
	                             "abcdefghij\xe2\x80",
	                         14),
	        14);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_decode_valid),
	        cmocka_unit_test(test_decode_invalid),
	        cmocka_unit_test(test_encode_roundtrip),
	        cmocka_unit_test(test_length),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
