/*
 * export: the merged model as data for other tools. `folded` is the
 * 3-column `STACK BASE HEAD` form (2 columns for one profile), one line per
 * stack that has samples of its own or is a zero-count leaf, so difffold
 * reads it back to the same tree; `json` is the whole tree, nested or flat
 * (schema in docs/formats.md; strings through escape_json_string). Both
 * are exact: counts print as parsed, never rounded.
 */
#ifndef DIFFFOLD_EXPORT_H
#define DIFFFOLD_EXPORT_H

#include "buf.h"
#include "report_options.h"
#include "output.h"
#include "tree.h"

void export_folded(struct out *o, const struct tree *t);
/*
 * summary: the report of t (report.h), whose report_json_summary the
 * object carries as "summary"; main passes it with two profiles. NULL:
 * no summary.
 */
struct report;
void export_json(
        struct out *o, const struct tree *t, enum json_layout layout, const struct report *summary);

#endif
