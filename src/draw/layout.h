/*
 * layout: the backend-neutral picture. From the finished tree and the
 * options it computes the image size, the header and legend areas, and a
 * flat list of boxes (one per drawn frame) with pixel geometry and fill.
 * The SVG and PNG backends draw exactly these boxes; they never walk the
 * tree for geometry themselves.
 *
 * x positions derive from sample sums (the basis of the frames before a
 * frame among its siblings), never from accumulated floats, so sibling
 * edges meet exactly. Frames narrower than --min-width are pruned with
 * their descendants and counted in pruned_*; in a differential graph, a
 * frame wide enough under another basis (head, base, union) stays as a
 * hidden box, for the SVG's view toggle.
 */
#ifndef DIFFFOLD_LAYOUT_H
#define DIFFFOLD_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "color.h"
#include "draw_options.h"
#include "frame_box.h"
#include "tree.h"

enum layout_anchor {
	LAYOUT_ANCHOR_START,
	LAYOUT_ANCHOR_MIDDLE,
	LAYOUT_ANCHOR_END,
};

/*
 * A line of header text, already wrapped to the image: both backends draw
 * exactly these, so no backend cuts or overflows a line of its own.
 */
struct layout_text {
	char *text; /* UTF-8 as given (names unescaped); owned by the layout */
	double x, y; /* anchor point and baseline */
	double size; /* font size */
	bool bold;
	uint8_t anchor; /* enum layout_anchor */
};

struct caption;

/*
 * A marker: the letter that ties a header row of the largest changes to
 * its function's strongest drawn frame (layout_markers.c). Drawn as a
 * badge before the row and again in the graph, on the frame or joined to
 * it by a leader; no two badges overlap. Every backend draws exactly these.
 */
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

/*
 * Frames past --max-depth above one drawn frame: summed, and drawn as one
 * box over it (spanning its width, in the row past the deepest) that
 * says "+N deeper frames".
 */
struct layout_cap {
	uint32_t box; /* the drawn frame at the cap, in boxes */
	size_t frames; /* frames above it wide enough to draw */
	double samples; /* basis samples of its children (its own total less self) */
	double y; /* top of the summary's row */
	double room; /* px its label may take: up to the next summary */
};

struct layout {
	const struct tree *tree;
	const struct draw_options *opt; /* &settings */
	struct draw_options settings; /* layout_create's copy */
	struct layout_box *boxes; /* pre-order: a parent before its children */
	size_t count;
	double width, height; /* whole image */
	double frame_height;
	double header_height; /* title, subtitle, totals, rule lines */
	double legend_y; /* top of the legend band (differential only) */
	double legend_height; /* 0 for a single profile */
	double graph_x, graph_y, graph_width, graph_height;
	double details_y; /* baseline of the interactive details line */
	/*
	 * Baselines of the header lines, so both backends place them alike.
	 * The title is drawn at title_size, everything else at font_size.
	 * subtitle_y and pruned_y are 0 when there is no such line.
	 */
	double title_y, subtitle_y, totals_y, rule_y, pruned_y;
	double title_size;
	/* Every line of the header, wrapped: title, subtitle, totals and names,
	 * rule, pruning note, largest changes. *_y above are their first lines. */
	struct layout_text *texts;
	size_t text_count;
	/* The words of the picture (caption.h), made once for every backend. */
	struct caption *caption;
	/* Legend row: swatches of legend_swatch px square, top at legend_y +
	 * (legend_height - legend_swatch) / 2; text baseline legend_text_y. */
	double legend_swatch, legend_text_y;
	/* Baseline of the legend's scale text: legend_text_y when it fits after
	 * the ramps, else a second legend row starting at graph_x. */
	double legend_scale_y;
	double basis_total; /* samples that graph_width stands for */
	double max_change; /* largest |change| of any frame, same basis as colour */
	double pruned_samples; /* basis samples of the frames pruned by --min-width */
	size_t pruned_frames; /* pruned subtree roots (their descendants not counted) */
	double min_width_px; /* the --min-width threshold in pixels */
	uint32_t max_depth; /* deepest drawn box */
	uint32_t depth_cap; /* deepest depth drawn: --max-depth, or LAYOUT_DEPTH_CAP */
	double capped_samples; /* basis samples of the frames past --max-depth */
	size_t capped_frames; /* frames past --max-depth, wide enough to draw */
	/* The letters tying the header's rows to their frames (layout_markers.c). */
	struct layout_marker *markers;
	size_t marker_count;
	/* The depth cap's summaries, one per frame at the cap with deeper ones. */
	struct layout_cap *caps;
	size_t cap_count;
};

/*
 * Text metrics both backends draw with, defined once here. Pixels between
 * a box edge and its label, on each side: layout_label fits the text to the
 * width minus this on both sides, and the SVG's script reads it from
 * data-label-pad so labels recomputed on zoom follow the same rule.
 */
#define LAYOUT_LABEL_PAD 3.0
/* Baseline of a line of text below the middle of its box or legend row, as a
 * share of the font size: centres the x-height vertically. */
#define LAYOUT_LABEL_BASELINE 0.35
/* Fewer characters than this make no useful label. */
#define LAYOUT_LABEL_MIN_CHARS 3
/* Gap between a legend swatch and its label, and between entries, in characters. */
#define LAYOUT_LEGEND_GAP 2.0

/*
 * Builds the layout from a copy of *o; the tree and o's strings must
 * outlive it. Caller destroys.
 */
struct layout *layout_create(const struct tree *t, const struct draw_options *o);
void layout_destroy(struct layout *l);
/* A node's width in samples under the chosen --widths basis. */
double layout_basis(const struct tree *t, const struct tree_node *n, enum widths widths);
/* The change that colours a node under --color-by (head - base, scaled). */
double layout_change(const struct tree *t, const struct tree_node *n, enum color_by by);
/*
 * The label of a box for a font whose characters are `char_width` pixels
 * wide, by the rule of docs/pictures.md#labels: the (annotation-free) name
 * and, in a differential graph, its change ("+87%", "new", "removed"); the
 * name is cut with "…" on the --truncate side first, the suffix kept while
 * 3 characters of the name fit beside it. Appends nothing when fewer than
 * 3 characters fit. Both backends draw exactly this text.
 */
/*
 * The label of a cap's summary box: "+1,234 deeper frames", or "+1,234"
 * when only that fits its width, else nothing. Both backends draw it.
 */
void layout_cap_label(
        const struct layout *l, const struct layout_cap *c, double char_width, struct buf *out);
/* The letter's font size in a marker's badge; its baseline is
 * LAYOUT_LABEL_BASELINE of that size below the badge's middle. */
double layout_marker_letter_size(const struct layout_marker *m);
void layout_label(
        const struct layout *l, const struct layout_box *box, double char_width, struct buf *out);
/*
 * The depth drawn when --max-depth is not given: deeper than real stacks
 * go (async-profiler stops at 2,048 frames, perf at 127 by default), low
 * enough that a hostile 2,000,000-deep chain draws a bounded picture.
 */
#define LAYOUT_DEPTH_CAP 4096u
/* Pixels left free below each row (when rows are taller than 2 px). */
#define LAYOUT_FRAME_GAP 1.0
/*
 * The drawn size of a frame whose box is `box_width` wide: the full width
 * (siblings meet; the SVG's script and its zoom work on whole boxes) and
 * the row height less the gap. The same in every backend.
 */
void layout_frame_size(const struct layout *l, double box_width, double *w, double *h);
/*
 * The widest advance a header character may take, in pixels: lines are
 * wrapped to it (DejaVu Sans Mono's 0.602 em, with room for rounding).
 */
double layout_text_char_width(double font_size);
/*
 * The advance labels are fitted to first, in pixels: 0.6 em, for the SVG's
 * font stack (at most 0.602 em; the padding takes the rest). PNG and PDF
 * measure the labels they lay out and fit again to the font when needed.
 */
double layout_char_width(double font_size);

#endif
