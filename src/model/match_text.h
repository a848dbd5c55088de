/*
 * match_text: what matched across builds, in words, for the picture's
 * header, the hover and the reports. The bytes are raw names: each caller
 * escapes them for its place.
 */
#ifndef DIFFFOLD_MATCH_TEXT_H
#define DIFFFOLD_MATCH_TEXT_H

#include <stdint.h>

#include "buf.h"
#include "match.h"
#include "tree.h"

/*
 * The raw path of node: its names from the root's child down, ';'-joined;
 * only its last `last` frames, after "...;", when it has more.
 */
void match_path(struct buf *b, const struct tree *t, uint32_t node, uint32_t last);
/*
 * An entry in words, raw bytes to be escaped for their place: "renamed
 * from A", "wrapper removed: W", "moved from ...;a;b" (`last` frames of a
 * path at most).
 */
void match_describe(
        struct buf *b, const struct tree *t, const struct match_entry *e, uint32_t last);
const char *match_kind_name(enum match_kind k);
/*
 * The line of the picture's header and the reports: "3 names matched
 * across builds, 2 wrappers inserted, 1 frame renamed, 4 functions
 * moved". Nothing for a tree without a match.
 */
void match_headline(struct buf *b, const struct tree *t);

#endif
