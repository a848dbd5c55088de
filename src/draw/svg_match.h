/*
 * svg_match: what the SVG says of a frame matched across builds (match.h):
 * its data attributes, its title's line, and the dashed outline that marks
 * a moved or renamed frame apart from a new one. Nothing is written for a
 * frame without a match, so graphs without matches are as they were.
 */
#ifndef DIFFFOLD_SVG_MATCH_H
#define DIFFFOLD_SVG_MATCH_H

#include <stdint.h>

#include "buf.h"
#include "color.h"
#include "tree.h"

/* ' data-match="KIND" data-match-other="..."': see docs/svg-data-contract.md. */
void svg_match_attrs(struct buf *b, const struct tree *t, uint32_t node);
/* The title's line: "\nrenamed from A" and the like, escaped. */
void svg_match_title(struct buf *b, const struct tree *t, uint32_t node);
/*
 * The rect's outline, in ink (the label's colour, which contrasts with
 * the fill in both themes): dashed for a moved frame, dotted for a renamed
 * one, none for others.
 */
void svg_match_outline(struct buf *b, const struct tree *t, uint32_t node, struct rgb ink);

#endif
