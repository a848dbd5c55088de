/*
 * numfmt: numbers for people, in the C locale: thousands separators and
 * percentages, with one wording for every output, so no two outputs say a figure
 * differently: a change is
 * always signed ("+490", "-1,320", "0"), a change percent has one decimal
 * and says "new" or "removed" rather than a division by zero or -100%,
 * points are percentage points of the larger total. Numbers in the image
 * text keep up to 3 decimals (numfmt_caption_number); the reports choose
 * their decimals. All functions append to b.
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
/*
 * A percentage with one decimal ("12.3%"), two under 0.1 so a small share
 * does not read as zero ("0.05%"), signed as numfmt_report_number. The one
 * percentage of every output.
 */
void numfmt_percent(struct buf *b, double pct, bool plus);
/* The name branches in flight still call. */
#define numfmt_report_percent numfmt_percent
/*
 * The change from base to head in percent of base: "+116.7%", "-62.0%",
 * "0.0%", or the words "new" (base 0, head > 0) and "removed" (head 0,
 * base > 0).
 */
void numfmt_change_percent(struct buf *b, double base, double head);
/*
 * The short form frame labels carry: a whole percent when |change| >= 10
 * ("+87%"), one decimal below ("+6.2%"), rounded half away from zero;
 * "new" and "removed" as numfmt_change_percent.
 */
void numfmt_label_change(struct buf *b, double base, double head);
/* Percentage points of the larger total, two decimals, signed: "+6.14 pp". */
void numfmt_points(struct buf *b, double delta, double larger);

/*
 * A count digit for digit: units exact to 2^64-1, nanos rounded half up to
 * `decimals` (0..9) with trailing zeros cut, commas every three digits;
 * '-' when negative, '+' when plus (never on zero). Counts are never
 * rounded through a double (2^64-1 prints as 18,446,744,073,709,551,615).
 */
void numfmt_count(struct buf *b, struct count c, int decimals, bool negative, bool plus);

/* v with up to 3 decimals and thousands separators ("150,000", "1,234.5"). */
void numfmt_caption_number(struct buf *b, double v);
#endif
