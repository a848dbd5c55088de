/*
 * markers: the letters that tie the header's largest changes to the
 * graph. Each row of the header whose function has a drawn frame gets a
 * letter ("A", "B"...), drawn as a badge before the row and on that
 * function's strongest drawn frame (caption_rank.c picks it): inside the
 * frame after its label when there is room, else in free space outward
 * from it (where its callees would be) or beside it, joined to the frame
 * by a leader line, so a frame too narrow for text is still found. No two
 * badges overlap. Every backend draws exactly these (SVG, PNG, PDF).
 */
#ifndef DIFFFOLD_MARKERS_H
#define DIFFFOLD_MARKERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct layout;

struct layout_marker {
	char letter[2]; /* "A": the header row's letter */
	uint32_t row; /* index of the header row (caption changes) */
	uint32_t node; /* the frame it points at, in the graph */
	uint32_t box; /* that frame's index in l->boxes (and among the SVG's frames) */
	double x, y, w, h; /* the badge */
	/* From the badge's edge to the frame's; x0 == x1 and y0 == y1 when the
	 * badge sits on the frame itself. */
	double x0, y0, x1, y1;
	bool in_header; /* the badge before the header row, not in the graph */
};

/* Badge height for the layout's sizes: fits a row of the graph. */
double markers_badge_size(const struct layout *l);
/* The letter's font size in a badge; its baseline is LAYOUT_LABEL_BASELINE
 * of that size below the badge's middle. */
double markers_letter_size(const struct layout_marker *m);
/*
 * Places a badge on the frame of every header row that has one, after the
 * rows are placed (layout_create); appends to l->markers.
 */
void markers_place(struct layout *l);

#endif
