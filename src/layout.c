#include "layout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"
#include "xalloc.h"

/*
 * Vertical rhythm of the picture, in multiples of the font size, so the
 * whole image scales with --font-size and --frame-height.
 */
#define PAD_TOP 0.5 /* above the title */
#define TITLE_SCALE 1.4 /* title font size / font size */
#define TITLE_LINE 2.2 /* height of the title line */
#define TEXT_LINE 1.6 /* height of every other text line */
#define LEGEND_BAND 2.0 /* height of the legend row */
#define PAD_BOTTOM 1.0 /* below the graph */
#define MARGIN_X 10.0 /* pixels left and right of the graph */
/* DejaVu Sans Mono advances 1233/2048 em = 0.602 em for every glyph; the
 * other fonts of the default stack are within a few percent of it. */
#define CHAR_EM 0.6

/* Sample offsets of a node's left edge, per side, as exact counts. */
struct offset {
	struct count base, head;
};

double
layout_char_width(double font_size)
{
	return CHAR_EM * font_size;
}

double
layout_basis(const struct tree *t, const struct tree_node *n, enum widths widths)
{
	if (!t->differential) {
		return tree_value(t, n, SIDE_HEAD, false);
	}
	switch (widths) {
	case WIDTHS_BASE:
		return tree_value(t, n, SIDE_BASE, false);
	case WIDTHS_UNION:
		return tree_value(t, n, SIDE_BASE, false) + tree_value(t, n, SIDE_HEAD, false);
	case WIDTHS_HEAD:
		break;
	}
	return tree_value(t, n, SIDE_HEAD, false);
}

double
layout_change(const struct tree *t, const struct tree_node *n, enum color_by by)
{
	bool self = by == COLOR_BY_SELF;
	return tree_value(t, n, SIDE_HEAD, self) - tree_value(t, n, SIDE_BASE, self);
}

/* The same basis as layout_basis, from exact offsets instead of a node. */
static double
offset_basis(const struct tree *t, const struct offset *o, enum widths widths)
{
	double base = count_to_double(o->base) * t->base_scale;
	double head = count_to_double(o->head);
	if (!t->differential) {
		return head;
	}
	switch (widths) {
	case WIDTHS_BASE:
		return base;
	case WIDTHS_UNION:
		return base + head;
	case WIDTHS_HEAD:
		break;
	}
	return head;
}

/* Pre-order successor of id that does not descend into id's subtree. */
static uint32_t
skip_subtree(const struct tree *t, uint32_t id)
{
	while (id != TREE_ROOT) {
		const struct tree_node *n = tree_node(t, id);
		if (n->next_sibling != TREE_NONE) {
			return n->next_sibling;
		}
		id = n->parent;
	}
	return TREE_NONE;
}

/*
 * Gives every child of id its left offset: the parent's offset plus the
 * exact sum of the counts of the siblings before it. Children never sum to
 * more than their parent, so the additions cannot overflow.
 */
static void
place_children(const struct tree *t, uint32_t id, struct offset *off)
{
	struct offset at = off[id];
	for (uint32_t c = tree_node(t, id)->first_child; c != TREE_NONE;
	        c = tree_node(t, c)->next_sibling) {
		const struct tree_node *n = tree_node(t, c);
		off[c] = at;
		(void)count_add(at.base, n->total[SIDE_BASE], &at.base);
		(void)count_add(at.head, n->total[SIDE_HEAD], &at.head);
	}
}

/* Status under --color-by total: the inclusive change, same rule as self. */
static enum node_status
total_status(const struct tree *t, const struct tree_node *n)
{
	return tree_classify_change(t, n, layout_change(t, n, COLOR_BY_TOTAL));
}

static void
push_box(struct layout *l, size_t *cap, const struct layout_box *b)
{
	if (l->count == *cap) {
		l->boxes = xgrow(l->boxes, cap, l->count + 1, sizeof(*l->boxes));
	}
	l->boxes[l->count++] = *b;
}

/* Walks the tree once, emitting a box per drawn frame with x and width. */
static void
place_boxes(struct layout *l)
{
	const struct tree *t = l->tree;
	const struct options *o = l->opt;
	struct offset *off = xcalloc(t->node_count, sizeof(*off));
	size_t cap = 0;
	double scale = l->basis_total > 0 ? l->graph_width / l->basis_total : 0;
	/* Pruning compares samples, as flamegraph.pl and inferno do, so a
	 * frame exactly at the threshold is kept by all three alike. */
	double min_samples = o->min_width_percent ? l->basis_total * o->min_width / 100.0
	                     : scale > 0          ? l->min_width_px / scale
	                                          : 0;
	uint32_t id = TREE_ROOT;
	while (id != TREE_NONE) {
		const struct tree_node *n = tree_node(t, id);
		double basis = layout_basis(t, n, o->widths);
		if (!(basis > 0)) {
			id = skip_subtree(t, id);
			continue;
		}
		if (basis < min_samples) {
			l->pruned_samples += basis;
			l->pruned_frames++;
			id = skip_subtree(t, id);
			continue;
		}
		struct layout_box b = {
		        .node = id,
		        .depth = n->depth,
		        .x = l->graph_x + offset_basis(t, &off[id], o->widths) * scale,
		        .width = basis * scale,
		};
		push_box(l, &cap, &b);
		if (n->depth > l->max_depth) {
			l->max_depth = n->depth;
		}
		place_children(t, id, off);
		id = tree_next_preorder(t, id, TREE_ROOT);
	}
	free(off);
}

/* Status, intensity and fill of every box, once max_change is known. */
static void
paint_boxes(struct layout *l)
{
	const struct tree *t = l->tree;
	const struct options *o = l->opt;
	for (size_t i = 0; i < l->count; i++) {
		struct layout_box *b = &l->boxes[i];
		const struct tree_node *n = tree_node(t, b->node);
		b->status = (uint8_t)(o->color_by == COLOR_BY_SELF ? (enum node_status)n->status
		                                                   : total_status(t, n));
		/* The root's inclusive change is the whole profile's; it would
		 * dwarf every frame, so it is left out of the scale (and clamps). */
		if (b->status != STATUS_SAME && (o->color_by == COLOR_BY_SELF || i > 0)) {
			double c = fabs(layout_change(t, n, o->color_by));
			if (c > l->max_change) {
				l->max_change = c;
			}
		}
	}
	for (size_t i = 0; i < l->count; i++) {
		struct layout_box *b = &l->boxes[i];
		const struct tree_node *n = tree_node(t, b->node);
		if (!t->differential) {
			size_t len;
			const char *name = tree_node_name(t, n, &len);
			len = intern_bare_len(t->names, n->name);
			b->fill = color_single_theme(o->palette, name, len,
			        intern_annotation(t->names, n->name), o->theme);
			continue;
		}
		double c = fabs(layout_change(t, n, o->color_by));
		b->intensity = 0;
		if (b->status != STATUS_SAME && l->max_change > 0) {
			b->intensity = c >= l->max_change ? 1.0 : c / l->max_change;
		}
		b->fill = color_diff((enum node_status)b->status, b->intensity, o->theme);
	}
}

/*
 * Width of the legend's ramps and labels: four ramps of COLOR_STEPS
 * swatches and one unchanged swatch, each followed by its label (31
 * characters in all: slower faster new removed unchanged) and a gap.
 */
static double
legend_ramps_width(double fs)
{
	double cw = layout_char_width(fs);
	double swatches = (4 * COLOR_STEPS + 1) * fs;
	return swatches + 5 * (cw / 2 + LAYOUT_LEGEND_GAP * cw) + 31 * cw;
}

/*
 * The legend band: one row, or two when the scale text (at most about 72
 * characters and the count name) would not fit after the ramps.
 */
static void
place_legend(struct layout *l, double y)
{
	double fs = l->opt->font_size;
	double cw = layout_char_width(fs);
	const char *unit = l->opt->countname ? l->opt->countname : "samples";
	double scale = (72 + (double)strlen(unit)) * cw; /* numbers up to billions */
	bool two_rows = legend_ramps_width(fs) + cw + scale > l->graph_width;
	l->legend_swatch = fs;
	l->legend_height = LEGEND_BAND * fs;
	l->legend_text_y = y + l->legend_height / 2 + LAYOUT_LABEL_BASELINE * fs;
	l->legend_scale_y = l->legend_text_y;
	if (two_rows) {
		l->legend_scale_y += TEXT_LINE * fs;
		l->legend_height += TEXT_LINE * fs;
	}
}

/* Header, legend and details line: everything above the graph. */
static void
place_header(struct layout *l)
{
	const struct options *o = l->opt;
	double fs = o->font_size;
	double y = PAD_TOP * fs;
	l->title_size = TITLE_SCALE * fs;
	l->title_y = y + TITLE_LINE * fs * 0.7;
	y += TITLE_LINE * fs;
	if ((o->subtitle && *o->subtitle) || o->input_note) {
		l->subtitle_y = y + TEXT_LINE * fs * 0.75;
		y += TEXT_LINE * fs;
	}
	l->totals_y = y + TEXT_LINE * fs * 0.75;
	y += TEXT_LINE * fs;
	l->rule_y = y + TEXT_LINE * fs * 0.75;
	y += TEXT_LINE * fs;
	if (l->pruned_samples > 0) {
		l->pruned_y = y + TEXT_LINE * fs * 0.75;
		y += TEXT_LINE * fs;
	}
	l->header_height = y;
	l->legend_y = y;
	if (l->tree->differential) {
		place_legend(l, y);
	}
	y += l->legend_height;
	l->details_y = y + TEXT_LINE * fs * 0.75;
	y += TEXT_LINE * fs;
	l->graph_y = y;
}

/* Moves the boxes to their rows: root at the bottom, or on top inverted. */
static void
place_rows(struct layout *l)
{
	double fh = l->frame_height;
	l->graph_height = (double)(l->max_depth + 1) * fh;
	for (size_t i = 0; i < l->count; i++) {
		struct layout_box *b = &l->boxes[i];
		double row =
		        l->opt->inverted ? (double)b->depth : (double)(l->max_depth - b->depth);
		b->y = l->graph_y + row * fh;
	}
	l->height = l->graph_y + l->graph_height + PAD_BOTTOM * l->opt->font_size;
}

struct layout *
layout_create(const struct tree *t, const struct options *o)
{
	struct layout *l = xcalloc(1, sizeof(*l));
	l->tree = t;
	l->opt = o;
	l->width = o->width;
	l->frame_height = o->frame_height;
	l->graph_x = MARGIN_X;
	l->graph_width = o->width - 2 * MARGIN_X;
	if (l->graph_width < 0) {
		l->graph_width = 0;
	}
	l->basis_total = layout_basis(t, tree_node(t, TREE_ROOT), o->widths);
	l->min_width_px =
	        o->min_width_percent ? l->graph_width * o->min_width / 100.0 : o->min_width;
	place_boxes(l);
	paint_boxes(l);
	place_header(l);
	place_rows(l);
	return l;
}

void
layout_destroy(struct layout *l)
{
	if (!l) {
		return;
	}
	free(l->boxes);
	free(l);
}

/* Byte length of the first `chars` code points of s (invalid bytes count one). */
static size_t
prefix_bytes(const char *s, size_t len, size_t chars)
{
	size_t i = 0;
	while (i < len && chars > 0) {
		uint32_t cp;
		size_t k = utf8_decode(s + i, len - i, &cp);
		i += k ? k : 1;
		chars--;
	}
	return i;
}

void
layout_label(
        const struct layout *l, const struct layout_box *box, double char_width, struct buf *out)
{
	if (!(char_width > 0)) {
		return;
	}
	const struct tree *t = l->tree;
	const struct tree_node *n = tree_node(t, box->node);
	size_t len;
	const char *name = tree_node_name(t, n, &len);
	len = intern_bare_len(t->names, n->name);
	double room = (box->width - 2 * LAYOUT_LABEL_PAD) / char_width;
	if (!(room >= LAYOUT_LABEL_MIN_CHARS)) {
		return;
	}
	size_t fit = room > (double)SIZE_MAX / 2 ? SIZE_MAX / 2 : (size_t)room;
	size_t chars = utf8_length(name, len);
	if (chars <= fit) {
		buf_add(out, name, len);
		return;
	}
	/* Two characters go to "..", and at least three must remain. */
	if (fit < 5) {
		return;
	}
	size_t keep = fit - 2;
	if (l->opt->truncate == TRUNCATE_LEFT) {
		size_t skip = prefix_bytes(name, len, chars - keep);
		buf_adds(out, "..");
		buf_add(out, name + skip, len - skip);
	} else {
		buf_add(out, name, prefix_bytes(name, len, keep));
		buf_adds(out, "..");
	}
}
