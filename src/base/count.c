#include "count.h"

static const char *const reason_nan = "count is not a number";
static const char *const reason_large = "count is larger than 2^64-1";

bool
count_parse(const char *s, size_t len, struct count *out, const char **reason)
{
	size_t i = 0;
	uint64_t units = 0;
	if (len == 0) {
		*reason = "no count";
		return false;
	}
	if (s[0] == '-') {
		*reason = "count is negative";
		return false;
	}
	if (s[0] < '0' || s[0] > '9') {
		*reason = reason_nan;
		return false;
	}
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		unsigned d = (unsigned)(s[i] - '0');
		if (units > (UINT64_MAX - d) / 10) {
			*reason = reason_large;
			return false;
		}
		units = units * 10 + d;
	}
	uint32_t nanos = 0;
	/* Nonzero digits past the ninth still make 2^64-1.0000000001 too large. */
	bool any_fraction = false;
	if (i < len && s[i] == '.') {
		uint32_t scale = COUNT_NANOS_PER_UNIT / 10;
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
			nanos += (uint32_t)(s[i] - '0') * scale;
			scale /= 10;
			any_fraction |= s[i] != '0';
		}
	}
	if (i != len) {
		*reason = reason_nan;
		return false;
	}
	/* The limit is 2^64-1 exactly, so the sum of counts has one bound too. */
	if (units == UINT64_MAX && any_fraction) {
		*reason = reason_large;
		return false;
	}
	out->units = units;
	out->nanos = nanos;
	return true;
}

bool
count_add(struct count a, struct count b, struct count *sum)
{
	uint32_t nanos = a.nanos + b.nanos;
	uint64_t carry = 0;
	if (nanos >= COUNT_NANOS_PER_UNIT) {
		nanos -= COUNT_NANOS_PER_UNIT;
		carry = 1;
	}
	if (a.units > UINT64_MAX - b.units || a.units + b.units > UINT64_MAX - carry) {
		return false;
	}
	/* 2^64-1 exactly is the largest count: 2^64-1.5 passes it too. */
	if (a.units + b.units + carry == UINT64_MAX && nanos != 0) {
		return false;
	}
	sum->units = a.units + b.units + carry;
	sum->nanos = nanos;
	return true;
}

struct count
count_sub(struct count a, struct count b)
{
	struct count r;
	if (a.nanos >= b.nanos) {
		r.nanos = a.nanos - b.nanos;
		r.units = a.units - b.units;
	} else {
		r.nanos = a.nanos + COUNT_NANOS_PER_UNIT - b.nanos;
		r.units = a.units - b.units - 1;
	}
	return r;
}

char *
count_put(char *p, struct count c)
{
	p = buf_put_u64(p, c.units);
	if (c.nanos != 0) {
		*p = '.';
		uint32_t n = c.nanos;
		for (int i = 9; i >= 1; i--) {
			p[i] = (char)('0' + n % 10);
			n /= 10;
		}
		p += 9;
		while (*p == '0') {
			p--;
		}
		p++;
	}
	return p;
}

void
buf_add_count(struct buf *b, struct count c)
{
	/* The units, the point and nine decimals: reserved once. */
	if (b->len + COUNT_CHARS >= b->cap) {
		buf_reserve(b, COUNT_CHARS);
	}
	buf_setlen(b, (size_t)(count_put(b->data + b->len, c) - b->data));
}
