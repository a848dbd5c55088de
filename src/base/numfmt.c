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
numfmt_percent(struct buf *b, double pct, bool plus)
{
	numfmt_report_number(b, pct, fabs(pct) < 0.1 && pct != 0 ? 2 : 1, false, plus);
	buf_addc(b, '%');
}

/* The words for a count that appeared or vanished; NULL for a ratio. */
static const char *
change_word(double base, double head)
{
	if (base == 0 && head > 0) {
		return "new";
	}
	if (head == 0 && base > 0) {
		return "removed";
	}
	return NULL;
}

void
numfmt_change_percent(struct buf *b, double base, double head)
{
	const char *word = change_word(base, head);
	if (word) {
		buf_adds(b, word);
	} else if (base == 0) {
		numfmt_percent(b, 0, true);
	} else {
		numfmt_percent(b, (head - base) / base * 100, true);
	}
}

void
numfmt_label_change(struct buf *b, double base, double head)
{
	const char *word = change_word(base, head);
	if (word || base == 0) {
		buf_adds(b, word ? word : "0%");
		return;
	}
	double x = (head - base) / base * 100;
	/* round() is half away from zero, as the SVG's script rounds. */
	if (fabs(x) >= 10) {
		numfmt_report_number(b, round(x), 0, false, true);
	} else {
		numfmt_report_number(b, round(x * 10) / 10, 1, false, true);
	}
	buf_addc(b, '%');
}

void
numfmt_points(struct buf *b, double delta, double larger)
{
	numfmt_report_number(b, larger > 0 ? delta / larger * 100 : 0, 2, false, true);
	buf_adds(b, " pp");
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
numfmt_count(struct buf *b, struct count c, int decimals, bool negative, bool plus)
{
	uint32_t step = 1, one = 1;
	for (int i = 0; i < 9; i++) {
		*(i < decimals ? &one : &step) *= 10;
	}
	uint32_t frac = (c.nanos + step / 2) / step;
	bool carry = frac >= one;
	frac -= carry ? one : 0;
	/* Integer digits least significant first; a carry may add one more. */
	char rev[24];
	size_t n = 0;
	uint64_t u = c.units;
	do {
		rev[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	for (size_t i = 0; carry; i++) {
		if (i == n) {
			rev[n++] = '1';
			carry = false;
		} else if (rev[i] == '9') {
			rev[i] = '0';
		} else {
			rev[i]++;
			carry = false;
		}
	}
	char fd[9] = {0};
	for (int i = decimals - 1; i >= 0; i--) {
		fd[i] = (char)('0' + frac % 10);
		frac /= 10;
	}
	size_t flen = decimals > 0 ? (size_t)decimals : 0;
	while (flen > 0 && fd[flen - 1] == '0') {
		flen--;
	}
	if (flen > 0 || n > 1 || rev[0] != '0') {
		if (negative) {
			buf_addc(b, '-');
		} else if (plus) {
			buf_addc(b, '+');
		}
	}
	char digits[24];
	for (size_t i = 0; i < n; i++) {
		digits[i] = rev[n - 1 - i];
	}
	add_grouped(b, digits, n);
	if (flen > 0) {
		buf_addc(b, '.');
		buf_add(b, fd, flen);
	}
}
