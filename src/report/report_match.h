/*
 * report_match: what matched across builds (match.h), as the reports and
 * the JSON export say it. Every function here writes nothing for a tree
 * without a match, so outputs of such trees stay as they were.
 */
#ifndef DIFFFOLD_REPORT_MATCH_H
#define DIFFFOLD_REPORT_MATCH_H

#include <stdbool.h>

#include "buf.h"
#include "tree.h"

/* A frame's ",\"match\":{...}" member of the JSON export. */
void report_match_json_node(struct buf *b, const struct tree *t, const struct tree_node *n);
/* The summary's ",\"matches\":{...}" member: the counts and every match with its evidence. */
void report_match_json(struct buf *b, const struct tree *t);
/* The Markdown report's line and table of matches. */
void report_match_md(struct buf *b, const struct tree *t);
/* The text report's lines of matches. */
void report_match_text(struct buf *b, const struct tree *t);
/* A frame's hover line ("renamed from A", "moved from a;b"), empty for none. */
void report_match_hover(struct buf *b, const struct tree *t, uint32_t node);

#endif
