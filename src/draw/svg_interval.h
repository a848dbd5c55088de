/*
 * svg_interval: ' data-interval="LO HI P"' of a frame tested against
 * sampling noise (--runs, and by default with one profile a side): the
 * (1 - alpha) confidence interval of the change in the frame's share of
 * its run (head - base, percentage points) and the test's p value, each
 * as buf_add_double writes it (4, 4 and 6 decimals); see
 * docs/svg-data-contract.md. Every frame of a default graph has one, so
 * the numbers are written by a fixed-point writer of its own.
 */
#ifndef DIFFFOLD_SVG_INTERVAL_H
#define DIFFFOLD_SVG_INTERVAL_H

#include <stdbool.h>
#include <stdint.h>

#include "buf.h"
#include "runs.h"

/* After the attribute before it, its closing quote still to write: '" data-interval="LO HI P'. */
void svg_interval_attr(struct buf *b, const struct runs *runs, uint32_t node, bool total);

#endif
