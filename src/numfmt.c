#include "numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Appends the digits of s[0..n) with a comma before every third from the end. */
static void
add_grouped(struct buf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && (n - i) % 3 == 0) {
			buf_addc(b, ',');
		}
		buf_addc(b, s[i]);
	}
}

void
numfmt_report_number(struct buf *b, double v, int decimals, bool trim, bool plus)
{
	if (!isfinite(v)) {
		buf_adds(b, "n/a");
		return;
	}
	char tmp[512];
	int n = snprintf(tmp, sizeof(tmp), "%.*f", decimals, fabs(v));
	if (n <= 0 || (size_t)n >= sizeof(tmp)) {
		buf_adds(b, "n/a");
		return;
	}
	size_t len = (size_t)n;
	char *dot = memchr(tmp, '.', len);
	if (dot && trim) {
		while (tmp[len - 1] == '0') {
			len--;
		}
		if (tmp[len - 1] == '.') {
			len--;
		}
	}
	bool zero = strspn(tmp, "0.") == (size_t)n;
	if (!zero) {
		if (v < 0) {
			buf_addc(b, '-');
		} else if (plus) {
			buf_addc(b, '+');
		}
	}
	size_t int_len = dot ? (size_t)(dot - tmp) : len;
	add_grouped(b, tmp, int_len);
	if (len > int_len) {
		buf_add(b, tmp + int_len, len - int_len);
	}
}

void
numfmt_report_percent(struct buf *b, double pct, bool plus)
{
	numfmt_report_number(b, pct, fabs(pct) < 0.1 && pct != 0 ? 2 : 1, false, plus);
	buf_addc(b, '%');
}

void
numfmt_caption_number(struct buf *b, double v)
{
	struct buf tmp;
	buf_init(&tmp);
	buf_add_double(&tmp, v, 3);
	const char *s = tmp.data;
	size_t len = tmp.len;
	if (len > 0 && s[0] == '-') {
		buf_addc(b, '-');
		s++;
		len--;
	}
	size_t digits = 0;
	while (digits < len && s[digits] >= '0' && s[digits] <= '9') {
		digits++;
	}
	/* Exponent forms (beyond 1e60) are passed through unchanged. */
	if (digits == len || s[digits] == '.') {
		add_grouped(b, s, digits);
	} else {
		buf_add(b, s, digits);
	}
	buf_add(b, s + digits, len - digits);
	buf_finish(&tmp);
}

void
numfmt_caption_percent(struct buf *b, double pct, bool sign)
{
	if (sign && pct == 0) {
		buf_adds(b, "\xc2\xb1"); /* "±0%": no change at all */
	} else if (sign && pct > 0) {
		buf_addc(b, '+');
	}
	double a = fabs(pct);
	buf_add_double(b, pct, a >= 10 ? 1 : a >= 1 ? 2 : 3);
	buf_addc(b, '%');
}
