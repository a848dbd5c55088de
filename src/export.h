/*
 * export: the merged model as data for other tools. `folded` is the
 * 3-column `STACK BASE HEAD` form (2 columns for one profile), one line per
 * stack that has samples of its own; `json` is the whole tree (schema in
 * README.md). Both are exact: counts print as parsed, never rounded.
 */
#ifndef DIFFFOLD_EXPORT_H
#define DIFFFOLD_EXPORT_H

#include "buf.h"
#include "options.h"
#include "output.h"
#include "tree.h"

void export_folded(struct out *o, const struct tree *t);
/* With two profiles the object also carries report_json_summary. */
void export_json(struct out *o, const struct tree *t, const struct options *opt);
/*
 * Appends s as a JSON string with quotes. Invalid UTF-8 bytes become
 * U+FFFD; control characters, U+2028 and U+2029 are \u-escaped.
 */
void export_json_string(struct buf *b, const char *s, size_t len);

#endif
