/*
 * svgscan: the pieces of markup the flame graph SVG reader scans, bounded
 * and without an XML parser: a tag's quoted attributes one at a time,
 * numbers and counts as the tools write them, and title text with the
 * five entities XML predefines and character references decoded (any
 * other entity would need the document's DTD, which a hostile file can
 * make expand without end, so it is refused). Nothing here allocates but
 * the caller's buffer, and nothing recurses.
 */
#ifndef DIFFFOLD_SVGSCAN_H
#define DIFFFOLD_SVGSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "buf.h"
#include "count.h"

/* An attribute of a tag: its name and its value, between the quotes. */
struct svgscan_attr {
	const char *name, *value;
	size_t name_len, value_len;
};

/* What scanning a piece of a tag found. */
enum svgscan {
	SVGSCAN_OK,
	SVGSCAN_END, /* the tag's end: *p is past its '>' */
	SVGSCAN_SHORT, /* the data ends first: more is needed, or the file is cut */
	SVGSCAN_BAD,
};

#define SVGSCAN_ATTR_IS(a, lit)                                                                    \
	((a)->name_len == sizeof(lit) - 1 && memcmp((a)->name, lit, sizeof(lit) - 1) == 0)

/* The first byte of [p, end) that is not XML white space (end if none).
 * Inline, as the next one: a frame is mostly attributes, and these are
 * most of the time spent reading an SVG. */
static inline const char *
svgscan_skip_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')) {
		p++;
	}
	return p;
}

/*
 * The next attribute of the tag at *p, whose '>' is at tag_end; *p moves
 * past it. SVGSCAN_END (and *p past the '>') when none is left,
 * SVGSCAN_BAD when the tag is malformed. Every tool quotes values with '"'
 * and escapes '>' in them, so a name runs from the end of the value before
 * it to the '=' before its opening quote: two memchr an attribute.
 */
static inline enum svgscan
svgscan_next_attr(const char **p, const char *tag_end, struct svgscan_attr *a)
{
	const char *s = *p;
	const char *open = memchr(s, '"', (size_t)(tag_end - s));
	if (!open) {
		s = svgscan_skip_space(s, tag_end);
		s += s < tag_end && *s == '/';
		*p = tag_end + 1;
		return s == tag_end ? SVGSCAN_END : SVGSCAN_BAD;
	}
	const char *close = memchr(open + 1, '"', (size_t)(tag_end - open - 1));
	s = svgscan_skip_space(s, open);
	if (!close || open == s || open[-1] != '=') {
		return SVGSCAN_BAD;
	}
	a->name = s;
	a->name_len = (size_t)(open - 1 - s);
	a->value = open + 1;
	a->value_len = (size_t)(close - open - 1);
	*p = close + 1;
	return SVGSCAN_OK;
}

/* A decimal (a trailing '%' ignored); false when it is none or not finite. */
bool svgscan_double(const char *s, size_t len, double *out);
/* A count, thousands separators (',') skipped; false when it is none. */
bool svgscan_count(const char *s, size_t len, struct count *out);
/* Text content into out (replaced), decoded; false with *why set on
 * markup, a stray '&' or an entity XML does not predefine. */
bool svgscan_decode_text(struct buf *out, const char *s, size_t len, const char **why);

#endif
