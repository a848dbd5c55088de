/*
 * report: what changed, in words and tables, for reviewers and CI: a
 * Markdown report sized for a pull-request comment, the same for a
 * terminal, the JSON summary object, a one-line verdict, and the gates
 * (--fail-on-regression and the per-function ones).
 * Works on the tree alone (no layout): report_create computes a report
 * once, and each format writes the same one.
 */
#ifndef DIFFFOLD_REPORT_H
#define DIFFFOLD_REPORT_H

#include <stdbool.h>

#include "report_options.h"
#include "output.h"
#include "tree.h"

/*
 * The report computed once (the summary, signals, gates and verdict) from
 * t and opt, which must outlive it; then written in any of the formats
 * below. report_destroy(NULL) does nothing.
 */
struct report;
struct report *report_create(const struct tree *t, const struct report_options *opt);
void report_destroy(struct report *r);

void report_write_md(struct out *o, const struct report *r);
/* color: use ANSI colours (main passes isatty(stdout) && !NO_COLOR). */
void report_write_text(struct out *o, const struct report *r, bool color);
/* Appends the `"summary":{...}` member (no leading comma) for -f json. */
void report_json_summary(struct buf *b, const struct report *r);
/*
 * Every gate opt asks for (--fail-on-regression, --fail-on-function-
 * regression, --fail-on-new, each --fail-on): true when any tripped; then
 * `why` holds one line per offender, at most 20 a gate, for stderr.
 */
bool report_gates(const struct tree *t, const struct report_options *opt, struct buf *why);
/*
 * Whether the gates opt asks for can act on t: false, with why (no
 * newline) for a usage error, when t holds one profile, or when a
 * --fail-on pattern matches no function of either profile (a typo would
 * otherwise pass for ever).
 */
bool report_gates_check(const struct tree *t, const struct report_options *opt, struct buf *why);
/* Whether opt asks for any gate. */
bool report_gates_on(const struct report_options *opt);

#endif
