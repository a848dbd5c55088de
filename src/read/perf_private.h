/*
 * perf_private: what the perf script reader (perf.c) and its header
 * grammar (perf_header.c) share: spans of a line, a sample header's
 * fields, the characters perf's text is made of.
 */
#ifndef DIFFFOLD_PERF_PRIVATE_H
#define DIFFFOLD_PERF_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>

#include "count.h"

struct span {
	const char *p;
	size_t len;
};

/* What a sample's header line says. */
struct header {
	struct span comm, event, rest;
	bool has_time, has_period;
	struct count period;
};

static inline bool
is_space(char c)
{
	return c == ' ' || c == '\t';
}

static inline bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline int
hex_value(char c)
{
	if (is_digit(c)) {
		return c - '0';
	}
	if (c >= 'a' && c <= 'f') {
		return c - 'a' + 10;
	}
	if (c >= 'A' && c <= 'F') {
		return c - 'A' + 10;
	}
	return -1;
}

/* The next whitespace-separated token of [*p, end); false at the end. */
bool perf_next_token(const char **p, const char *end, struct span *tok);
/*
 * A sample's header line in any -F selection (perf_header.c): false if
 * the line is none.
 */
bool perf_parse_header(const char *s, size_t len, struct header *h);

#endif
