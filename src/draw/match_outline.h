/*
 * match_outline: how a frame matched across builds (match.h) is outlined,
 * the same in the SVG and in PNG and PDF: a moved frame dashed, a renamed
 * one dotted, in the colour of its label, so it stays apart from a new
 * frame without the reader telling hues apart, in both themes and where
 * the SVG is shown as an <img>. Other matches are not outlined.
 */
#ifndef DIFFFOLD_MATCH_OUTLINE_H
#define DIFFFOLD_MATCH_OUTLINE_H

#include <stdbool.h>
#include <stdint.h>

#include "match.h"
#include "tree.h"

/* Outlines are this wide, in the units of the layout. */
#define MATCH_OUTLINE_WIDTH 1.0

struct match_outline {
	const char *dasharray; /* SVG's stroke-dasharray: "on off" lengths */
	double on, off; /* the same, as numbers */
};

/* The outline of frame node, or false when it has none. */
static inline bool
match_outline_of(const struct tree *t, uint32_t node, struct match_outline *o)
{
	const struct match_entry *e = match_of(t, node);
	if (!e) {
		return false;
	}
	switch ((enum match_kind)e->kind) {
	case MATCH_MOVED_IN:
	case MATCH_MOVED_OUT:
		*o = (struct match_outline){"4 2", 4, 2};
		return true;
	case MATCH_RENAMED:
	case MATCH_NAME:
		*o = (struct match_outline){"1 2", 1, 2};
		return true;
	default:
		return false;
	}
}

#endif
