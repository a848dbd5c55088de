/*
 * frame_box: struct layout_box, one drawn frame of the layout (layout.h), with its pixel
 * geometry and colour. Apart from layout.h so that the caption's ranking
 * (caption_rank.c), which reads what is drawn, needs no more of the layout.
 */
#ifndef DIFFFOLD_FRAME_BOX_H
#define DIFFFOLD_FRAME_BOX_H

#include <stdbool.h>
#include <stdint.h>

#include "color.h"

/* The small fields last: 48 bytes a box, not 56. */
struct layout_box {
	uint32_t node; /* tree node id */
	uint32_t depth; /* 0 for the root "all" */
	double x, y; /* top-left corner in image pixels */
	double width; /* pixels; height is layout.frame_height */
	double intensity; /* 0..1, share of the largest change in the graph */
	uint8_t status; /* colour class: enum node_status by --color-by */
	struct rgb fill;
	/* Differential only: kept because it is wide enough under another
	 * --widths basis, but zero or below --min-width in this one. The SVG
	 * writes it with display="none" for its script's view toggle; the
	 * PNG and PDF skip it. */
	bool hidden;
};

#endif
