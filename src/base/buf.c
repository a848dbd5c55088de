#include "buf.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

const char buf_empty[1] = "";

void
buf_init(struct buf *b)
{
	/* The cast is safe: with cap == 0 nothing writes through data. */
	b->data = (char *)buf_empty;
	b->len = 0;
	b->cap = 0;
}

void
buf_finish(struct buf *b)
{
	if (b->cap) {
		free(b->data);
	}
	buf_init(b);
}

void
buf_reset(struct buf *b)
{
	buf_setlen(b, 0);
}

void
buf_setlen_slow(struct buf *b, size_t len)
{
	if (len != 0 || b->cap != 0) {
		fprintf(stderr, "difffold: buf_setlen(%zu) past the %zu bytes reserved\n", len,
		        b->cap);
		abort();
	}
	b->len = 0; /* an empty buf stays at buf_empty */
}

void
buf_reserve(struct buf *b, size_t extra)
{
	size_t need = b->len + extra + 1;
	if (need <= b->cap) {
		return;
	}
	/* A zeroed struct (data NULL) grows like one from buf_init. */
	char *old = b->cap ? b->data : NULL;
	b->data = xgrow_to(old, &b->cap, need, 1);
	if (!old) {
		b->data[b->len] = '\0';
	}
}

/* Decimal digits of v: 1 to 20. */
static size_t
digits_u64(uint64_t v)
{
	static const uint64_t pow10[20] = {1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull,
	        1000000ull, 10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
	        100000000000ull, 1000000000000ull, 10000000000000ull, 100000000000000ull,
	        1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
	        1000000000000000000ull, 10000000000000000000ull};
	/* From the bit length (1233 / 4096 is just over log10 2), then one
	 * comparison; v | 1 has the digits of v and at least one bit. */
	uint64_t w = v | 1;
	size_t t = ((size_t)(64 - __builtin_clzll(w)) * 1233) >> 12;
	return t + (w >= pow10[t]);
}

/*
 * Written in place, two digits a step: the SVG writer appends several
 * numbers a frame, and a digit loop into a scratch array and a copy cost
 * three times as many instructions.
 */
char *
buf_put_u64(char *p, uint64_t v)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324"
	                            "25262728293031323334353637383940414243444546474849"
	                            "50515253545556575859606162636465666768697071727374"
	                            "75767778798081828384858687888990919293949596979899";
	char *end = p + digits_u64(v);
	p = end;
	while (v >= 100) {
		size_t r = (size_t)(v % 100) * 2;
		v /= 100;
		p -= 2;
		p[0] = pairs[r];
		p[1] = pairs[r + 1];
	}
	if (v >= 10) {
		p[-2] = pairs[v * 2];
		p[-1] = pairs[v * 2 + 1];
	} else {
		p[-1] = (char)('0' + v);
	}
	return end;
}

void
buf_add_u64(struct buf *b, uint64_t v)
{
	if (b->len + BUF_U64_CHARS >= b->cap) {
		buf_reserve(b, BUF_U64_CHARS);
	}
	char *end = buf_put_u64(b->data + b->len, v);
	buf_setlen(b, (size_t)(end - b->data));
}

/*
 * The common case (a few decimals, a value far below 2^53) without
 * snprintf, which dominated SVG output: round once in binary, then print
 * the integer and fraction digits. Returns false when out of that range.
 */
static bool
add_fixed(struct buf *b, double v, int digits)
{
	static const double scales[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
	if (digits < 0 || digits > 9 || !(fabs(v) * scales[digits] < 9e15)) {
		return false;
	}
	uint64_t scale = (uint64_t)scales[digits];
	long long q = llround(v * scales[digits]);
	if (q < 0) {
		buf_addc(b, '-');
	}
	uint64_t u = q < 0 ? (uint64_t)-q : (uint64_t)q;
	buf_add_u64(b, u / scale);
	uint64_t frac = u % scale;
	if (frac == 0) {
		return true;
	}
	char tmp[10] = {0};
	int n = digits;
	for (int i = digits - 1; i >= 0; i--) {
		tmp[i] = (char)('0' + frac % 10);
		frac /= 10;
	}
	/* frac != 0 (so digits >= 1) leaves a non-zero digit; the zeroed tmp and
	 * n > 1 say so to cppcheck and clang's analyzer. */
	while (n > 1 && tmp[n - 1] == '0') {
		n--;
	}
	buf_addc(b, '.');
	buf_add(b, tmp, (size_t)n);
	return true;
}

void
buf_add_double(struct buf *b, double v, int digits)
{
	if (!isfinite(v)) {
		buf_adds(b, "0");
		return;
	}
	if (add_fixed(b, v, digits)) {
		return;
	}
	char tmp[64];
	int n = snprintf(tmp, sizeof(tmp), "%.*f", digits, v);
	if (n < 0 || (size_t)n >= sizeof(tmp)) {
		/* Too large for fixed notation: fall back to exponent form. */
		n = snprintf(tmp, sizeof(tmp), "%.*g", digits + 1, v);
		buf_add(b, tmp, n > 0 ? (size_t)n : 0);
		return;
	}
	if (memchr(tmp, '.', (size_t)n)) {
		while (n > 0 && tmp[n - 1] == '0') {
			n--;
		}
		if (n > 0 && tmp[n - 1] == '.') {
			n--;
		}
	}
	if (n == 2 && tmp[0] == '-' && tmp[1] == '0') {
		tmp[0] = '0';
		n = 1;
	}
	buf_add(b, tmp, (size_t)n);
}

void
buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list copy;
	va_copy(copy, ap);
	/* The analyzer loses va_copy of a va_list parameter (an array type on
	 * x86-64) when it inlines buf_printf, and calls `copy` uninitialised. */
	int n = vsnprintf(NULL, 0, fmt, copy); /* NOLINT(clang-analyzer-valist.Uninitialized) */
	va_end(copy);
	if (n <= 0) {
		return;
	}
	buf_reserve(b, (size_t)n);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

char *
buf_detach(struct buf *b, size_t *len)
{
	if (!b->cap) {
		buf_reserve(b, 0); /* the caller frees: never hand out buf_empty */
	}
	char *d = b->data;
	if (len) {
		*len = b->len;
	}
	buf_init(b);
	return d;
}
