/*
 * svg_interval: a frame's data-interval attribute (see svg_interval.h).
 */
#include "svg_interval.h"

#include <math.h>
#include <string.h>

/*
 * One of the interval's numbers: x, already times 10^digits and under 9e15
 * in size, rounded half away from zero (llround's rule, worked out from the
 * truncation, whose remainder is exact below 2^53) and written with its
 * trailing zeros cut. The bytes of buf_add_double(b, x / scale, digits),
 * without its calls to llround and the buf's appends: every frame of a
 * default graph has three of these. Room: BUF_U64_CHARS + digits + 2.
 */
static inline char *
put_scaled_decimal(char *p, double x, uint64_t scale, int digits)
{
	long long q = (long long)x;
	double rest = x - (double)q;
	q += (rest >= 0.5) - (rest <= -0.5);
	if (q < 0) {
		*p++ = '-';
	}
	uint64_t u = q < 0 ? (uint64_t)0 - (uint64_t)q : (uint64_t)q, whole = u / scale;
	/* Points and p values are mostly under 10: one digit without a call. */
	if (whole < 10) {
		*p++ = (char)('0' + whole);
	} else {
		p = buf_put_u64(p, whole);
	}
	uint64_t frac = u % scale;
	if (frac == 0) {
		return p;
	}
	int n = digits;
	while (frac % 10 == 0) {
		frac /= 10;
		n--;
	}
	*p++ = '.';
	for (int i = n - 1; i >= 0; i--) {
		p[i] = (char)('0' + frac % 10);
		frac /= 10;
	}
	return p + n;
}

/* Room for data-interval's three numbers: the attribute, two spaces and three
 * put_scaled_decimal. */
enum { INTERVAL_ROOM = 32 + 3 * (BUF_U64_CHARS + 8) };

void
svg_interval_attr(struct buf *b, const struct runs *runs, uint32_t node, bool total)
{
	double lo, hi, p;
	runs_node_interval(runs, node, total, &lo, &hi, &p);
	double x[3] = {lo * 100 * 1e4, hi * 100 * 1e4, p * 1e6};
	if (!(fabs(x[0]) < 9e15 && fabs(x[1]) < 9e15 && fabs(x[2]) < 9e15)) {
		/* Out of fixed point's range, or not finite: buf_add_double's way. */
		buf_adds(b, "\" data-interval=\"");
		buf_add_double(b, lo * 100, 4);
		buf_addc(b, ' ');
		buf_add_double(b, hi * 100, 4);
		buf_addc(b, ' ');
		buf_add_double(b, p, 6);
		return;
	}
	buf_reserve(b, INTERVAL_ROOM);
	char *o = b->data + b->len;
	static const char name[] = "\" data-interval=\"";
	memcpy(o, name, sizeof(name) - 1);
	o += sizeof(name) - 1;
	o = put_scaled_decimal(o, x[0], 10000, 4);
	*o++ = ' ';
	o = put_scaled_decimal(o, x[1], 10000, 4);
	*o++ = ' ';
	o = put_scaled_decimal(o, x[2], 1000000, 6);
	buf_setlen(b, (size_t)(o - b->data));
}
