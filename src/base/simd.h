/*
 * simd: the few 16-byte steps the hot loops take (the frame scan, the XML
 * escaper, callgrind's short cost lines), each as a mask of 16 bits, bit k
 * for byte k of the 16 at p. On x86-64 they are SSE2 instructions; every
 * one has a scalar twin that gives the same mask byte by byte, which is
 * what other machines run and what tests/unit/test_simd.c checks the SSE2
 * version against. All 16 bytes at p must be readable.
 *
 * SIMD_WIDE says whether the SSE2 versions are there: the loops test it
 * with a plain `if`, so both of their paths compile everywhere and a
 * compiler drops the one it does not need.
 */
#ifndef DIFFFOLD_SIMD_H
#define DIFFFOLD_SIMD_H

#include <stdbool.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#define SIMD_WIDE 1
#else
#define SIMD_WIDE 0
#endif

/*
 * Printable ASCII but the XML specials " & ' < >: copied as it is. A bit
 * test, not a switch: names are mostly such bytes.
 */
static inline bool
simd_xml_plain_byte(unsigned char c)
{
	const uint64_t special = 1ull << ('"' - 0x20) | 1ull << ('&' - 0x20) |
	                         1ull << ('\'' - 0x20) | 1ull << ('<' - 0x20) |
	                         1ull << ('>' - 0x20);
	unsigned d = (unsigned)c - 0x20u;
	return d < 0x5Fu && (d >= 64 || !((special >> d) & 1));
}

/* ---- scalar twins ------------------------------------------------------ */

static inline unsigned
simd_eq16_scalar(const char *p, char c)
{
	unsigned m = 0;
	for (unsigned k = 0; k < 16; k++) {
		m |= (unsigned)(p[k] == c) << k;
	}
	return m;
}

static inline unsigned
simd_digits16_scalar(const char *p)
{
	unsigned m = 0;
	for (unsigned k = 0; k < 16; k++) {
		m |= (unsigned)((unsigned)(unsigned char)p[k] - '0' < 10u) << k;
	}
	return m;
}

static inline unsigned
simd_xml_special16_scalar(const char *p)
{
	unsigned m = 0;
	for (unsigned k = 0; k < 16; k++) {
		m |= (unsigned)!simd_xml_plain_byte((unsigned char)p[k]) << k;
	}
	return m;
}

/* ---- SSE2 -------------------------------------------------------------- */

#if SIMD_WIDE
static inline __m128i
simd_load16(const char *p)
{
	return _mm_loadu_si128((const __m128i *)(const void *)p);
}

static inline unsigned
simd_eq16_sse2(const char *p, char c)
{
	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(simd_load16(p), _mm_set1_epi8(c)));
}

static inline unsigned
simd_digits16_sse2(const char *p)
{
	__m128i d = _mm_sub_epi8(simd_load16(p), _mm_set1_epi8('0'));
	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d));
}

/*
 * As a signed byte, v + 1 is under 0x21 for the C0 controls, DEL and every
 * byte of 0x80 and up; the specials pair up (& and ' differ in bit 0, <
 * and > in bit 1).
 */
static inline unsigned
simd_xml_special16_sse2(const char *p)
{
	__m128i v = simd_load16(p);
	__m128i bad = _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8(1)), _mm_set1_epi8(0x21));
	bad = _mm_or_si128(bad, _mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
	bad = _mm_or_si128(
	        bad, _mm_cmpeq_epi8(_mm_or_si128(v, _mm_set1_epi8(1)), _mm_set1_epi8('\'')));
	bad = _mm_or_si128(
	        bad, _mm_cmpeq_epi8(_mm_or_si128(v, _mm_set1_epi8(2)), _mm_set1_epi8('>')));
	return (unsigned)_mm_movemask_epi8(bad);
}
#endif

/* ---- what the loops call ----------------------------------------------- */

/* Bytes equal to c. */
static inline unsigned
simd_eq16(const char *p, char c)
{
#if SIMD_WIDE
	return simd_eq16_sse2(p, c);
#else
	return simd_eq16_scalar(p, c);
#endif
}

/* Bytes '0' to '9'. */
static inline unsigned
simd_digits16(const char *p)
{
#if SIMD_WIDE
	return simd_digits16_sse2(p);
#else
	return simd_digits16_scalar(p);
#endif
}

/* Bytes an XML escaper must look at: not simd_xml_plain_byte. */
static inline unsigned
simd_xml_special16(const char *p)
{
#if SIMD_WIDE
	return simd_xml_special16_sse2(p);
#else
	return simd_xml_special16_scalar(p);
#endif
}

#endif
