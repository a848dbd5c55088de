/*
 * count: a sample count in fixed point, whole units plus nine decimal places,
 * at most 2^64-1 exactly (so units == UINT64_MAX implies nanos == 0).
 * Fractional inputs (`12.5`) therefore add up exactly, and integer profiles
 * lose nothing. Digits past the ninth decimal are dropped.
 */
#ifndef DIFFFOLD_COUNT_H
#define DIFFFOLD_COUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

#define COUNT_NANOS_PER_UNIT 1000000000u

/*
 * Packed to 12 bytes (not 16): arrays of counts, such as the streaming JSON
 * reader's self count a node, would otherwise pay 4 bytes of padding each.
 */
struct __attribute__((packed, aligned(4))) count {
	uint64_t units;
	uint32_t nanos; /* always < COUNT_NANOS_PER_UNIT */
};

/*
 * Parses `[0-9]+(\.[0-9]*)?` exactly (no sign, exponent, spaces). On failure
 * returns false and sets *reason to a static message for the user.
 */
bool count_parse(const char *s, size_t len, struct count *out, const char **reason);
/* *sum = a + b; false (and *sum untouched) when the sum exceeds 2^64-1. */
bool count_add(struct count a, struct count b, struct count *sum);
/* a - b for a >= b (callers guarantee it); used for self = total - children. */
struct count count_sub(struct count a, struct count b);

/* Inline: the layout and the writers ask these of every node they visit. */
static inline int
count_cmp(struct count a, struct count b)
{
	if (a.units != b.units) {
		return a.units < b.units ? -1 : 1;
	}
	if (a.nanos != b.nanos) {
		return a.nanos < b.nanos ? -1 : 1;
	}
	return 0;
}

static inline bool
count_is_zero(struct count c)
{
	return c.units == 0 && c.nanos == 0;
}

static inline double
count_to_double(struct count c)
{
	return (double)c.units + (double)c.nanos / COUNT_NANOS_PER_UNIT;
}

/* Appends the exact decimal form: `12`, `12.5`, `0.000000001`. */
void buf_add_count(struct buf *b, struct count c);
/* The most characters of that form: the units, the point, nine decimals. */
#define COUNT_CHARS (BUF_U64_CHARS + 10)
/* Writes that form at p, which has room for COUNT_CHARS; returns its end. */
char *count_put(char *p, struct count c);

#endif
