/*
 * numfmt: numbers for people, in the C locale: thousands separators and
 * percentages. Two families remain because their outputs differ today
 * (issue 18 will unify the wording):
 *   - report (Markdown, text, gate): a fixed number of decimals, "n/a"
 *     for what is not finite, percentages with 1 decimal (2 under 0.1);
 *   - caption (SVG/PNG/PDF image text): up to 3 decimals, trailing zeros
 *     dropped, percentages with 1, 2 or 3 decimals by magnitude and "±0%"
 *     for no change.
 * All functions append to b.
 */
#ifndef DIFFFOLD_NUMFMT_H
#define DIFFFOLD_NUMFMT_H

#include <stdbool.h>

#include "buf.h"
#include "count.h"

/*
 * |v| with `decimals` digits (trailing zeros cut when trim), a comma every
 * three integer digits, and a sign: '-' when negative, '+' when positive
 * and plus is set; zero (after rounding) never carries one. "n/a" when v
 * is not finite.
 */
void numfmt_report_number(struct buf *b, double v, int decimals, bool trim, bool plus);
/* A report percentage: "12.3%", "0.05%" (2 decimals under 0.1), signed as above. */
void numfmt_report_percent(struct buf *b, double pct, bool plus);

/*
 * A count digit for digit: units exact to 2^64-1, nanos rounded half up to
 * `decimals` (0..9) with trailing zeros cut, commas every three digits;
 * '-' when negative, '+' when plus (never on zero). Counts are never
 * rounded through a double (2^64-1 prints as 18,446,744,073,709,551,615).
 */
void numfmt_count(struct buf *b, struct count c, int decimals, bool negative, bool plus);

/* v with up to 3 decimals and thousands separators ("150,000", "1,234.5"). */
void numfmt_caption_number(struct buf *b, double v);
/*
 * A caption percentage with enough decimals not to read as zero: "26.1%",
 * "2.35%", "0.012%"; with sign, '+' when positive and "±0%" for zero.
 */
void numfmt_caption_percent(struct buf *b, double pct, bool sign);

#endif
