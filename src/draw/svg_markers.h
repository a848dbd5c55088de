/*
 * svg_markers: the markers (layout.h) in the SVG. The header's badges in
 * <g class="markers" data-place="header">, those of the graph in
 * <g class="markers" data-place="graph"> after the frames, so they are
 * drawn on top; each badge a <g class="marker"> with its letter, row and
 * frame as data attributes (docs/svg-data-contract.md).
 */
#ifndef DIFFFOLD_SVG_MARKERS_H
#define DIFFFOLD_SVG_MARKERS_H

#include <stdbool.h>

#include "buf.h"
#include "layout.h"

/* The header's badges (in_header) or the graph's, with their leaders. */
void svg_markers_write(struct buf *b, const struct layout *l, const char *prefix, bool header);
/* The depth cap's "+N deeper frames" boxes (layout_cap), in
 * <g class="capped">, after the frames. */
void svg_caps_write(struct buf *b, const struct layout *l, const char *prefix);

#endif
