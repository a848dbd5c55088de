/*
 * png_marks: what PNG and PDF draw over the frames, as the SVG does
 * (svg_markers.c): the depth cap's "+N deeper frames" boxes and the
 * markers tying the header's rows to their frames (layout.h). Part of
 * the drawing module, beside png.c.
 */
#ifndef DIFFFOLD_PNG_MARKS_H
#define DIFFFOLD_PNG_MARKS_H

#include <cairo.h>
#include <pango/pangocairo.h>
#include <stdint.h>

#include "color.h"
#include "layout.h"

/* What png.c draws with, lent for the marks. */
struct png_marks_pen {
	cairo_t *cr; /* scaled to layout pixels */
	PangoLayout *text;
	PangoFontDescription *regular, *bold;
	double char_width; /* the label font's measured advance */
	double shift; /* added to the graph's y once a tall picture is cut */
	uint32_t cut; /* rows at this depth and deeper are not drawn */
	struct rgb fg, bg;
};

void png_marks_draw(const struct layout *l, const struct png_marks_pen *pen);

#endif
