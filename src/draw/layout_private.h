/*
 * The layout's helpers for the header, shared by layout.c and the
 * largest-changes block (layout_changes.c). Not for the backends.
 */
#ifndef DIFFFOLD_LAYOUT_PRIVATE_H
#define DIFFFOLD_LAYOUT_PRIVATE_H

#include <stddef.h>

#include "buf.h"
#include "layout.h"

/* Header line heights, in multiples of the font size. */
#define LAYOUT_TEXT_LINE 1.6
#define LAYOUT_COMPACT_LINE 1.3

/* name cut to keep characters plus "…", on the --truncate side. */
void layout_add_cut(const struct layout *l, const char *name, size_t len, size_t chars, size_t keep,
        struct buf *out);
/* Appends a header line of s[0..len). */
void layout_push_text(
        struct layout *l, size_t *cap, const char *s, size_t len, const struct layout_text *proto);
/* s wrapped to `max` characters a line, a line every `step` px from *y. */
double layout_add_wrapped(struct layout *l, size_t *cap, const char *s, size_t max,
        struct layout_text proto, double step, double lead, double *y);
/* Characters of a header line at the font size fs across `room` px. */
size_t layout_line_chars(const struct layout *l, double room, double fs);
/*
 * The largest-changes block below the header lines, from *y: rows of
 * columns, or two rows a line in a compact header; each row's letter
 * becomes a header badge in l->markers.
 */
void layout_add_changes(struct layout *l, size_t *cap, double *y);
/* A marker's badge height for the layout's sizes: fits a row of the graph. */
double layout_marker_badge_size(const struct layout *l);
/*
 * Places a badge on the frame of every header row that has one, after the
 * rows are placed (layout_create); appends to l->markers
 * (layout_markers.c).
 */
void layout_markers_place(struct layout *l);

#endif
