/* simd: every 16-byte step against its scalar twin and a plain definition. */
#include "simd.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

/* The masks by their definitions, a byte at a time. */
static unsigned
want_eq(const char *p, char c)
{
	unsigned m = 0;
	for (unsigned k = 0; k < 16; k++) {
		m |= p[k] == c ? 1u << k : 0;
	}
	return m;
}

static unsigned
want_digits(const char *p)
{
	unsigned m = 0;
	for (unsigned k = 0; k < 16; k++) {
		m |= p[k] >= '0' && p[k] <= '9' ? 1u << k : 0;
	}
	return m;
}

static unsigned
want_xml_special(const char *p)
{
	unsigned m = 0;
	for (unsigned k = 0; k < 16; k++) {
		unsigned char c = (unsigned char)p[k];
		bool plain = c >= 0x20 && c <= 0x7e && !strchr("\"&'<>", c);
		m |= plain ? 0 : 1u << k;
	}
	return m;
}

/* Each step, its twins and its definition agree on these 16 bytes. */
static void
check16(const char *p)
{
	static const char probes[] = {';', '\n', ' ', '\0', '\x80', '\xff'};
	for (size_t i = 0; i < sizeof probes; i++) {
		assert_int_equal(simd_eq16_scalar(p, probes[i]), want_eq(p, probes[i]));
		assert_int_equal(simd_eq16(p, probes[i]), want_eq(p, probes[i]));
#if SIMD_WIDE
		assert_int_equal(simd_eq16_sse2(p, probes[i]), want_eq(p, probes[i]));
#endif
	}
	assert_int_equal(simd_digits16_scalar(p), want_digits(p));
	assert_int_equal(simd_digits16(p), want_digits(p));
	assert_int_equal(simd_xml_special16_scalar(p), want_xml_special(p));
	assert_int_equal(simd_xml_special16(p), want_xml_special(p));
#if SIMD_WIDE
	assert_int_equal(simd_digits16_sse2(p), want_digits(p));
	assert_int_equal(simd_xml_special16_sse2(p), want_xml_special(p));
#endif
}

/* Every byte value at every position, among plain letters and among its own kind. */
static void
test_every_byte(void **state)
{
	(void)state;
	char buf[16];
	for (unsigned v = 0; v < 256; v++) {
		for (unsigned k = 0; k < 16; k++) {
			memset(buf, 'a', sizeof buf);
			buf[k] = (char)v;
			check16(buf);
			memset(buf, (int)v, sizeof buf);
			buf[k] = '5';
			check16(buf);
		}
	}
}

/* Random bytes, unaligned: a window moved over a longer buffer. */
static void
test_random(void **state)
{
	(void)state;
	char buf[64];
	uint64_t x = 0x9e3779b97f4a7c15ull;
	for (int round = 0; round < 20000; round++) {
		for (size_t i = 0; i < sizeof buf; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			/* Mostly the bytes the loops look for, some of any value. */
			static const char common[] = ";\n 0189/:<>&'\"aZ\x7f\x80";
			buf[i] = x % 4 ? common[(x >> 8) % (sizeof common - 1)] : (char)(x >> 16);
		}
		check16(buf + round % 48);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_every_byte),
	        cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
