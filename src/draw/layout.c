#include "layout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "caption.h"
#include "layout_private.h"
#include "numfmt.h"
#include "shortname.h"
#include "transform.h"
#include "utf8.h"
#include "runs.h"
#include "xalloc.h"

/*
 * Vertical rhythm of the picture, in multiples of the font size, so the
 * whole image scales with --font-size and --frame-height.
 */
#define PAD_TOP 0.5 /* above the title */
#define COMPACT_PAD_TOP 0.1
#define TITLE_SCALE 1.4 /* title font size / font size */
#define TITLE_LINE 2.2 /* height of the title line */
#define TEXT_LINE LAYOUT_TEXT_LINE /* height of every other text line */
#define LEGEND_BAND 2.0 /* height of the legend row */
#define PAD_BOTTOM 1.0 /* below the graph */
#define MARGIN_X 10.0 /* pixels left and right of the graph */
/* DejaVu Sans Mono advances 1233/2048 em = 0.602 em for every glyph; the
 * other fonts of the default stack are within a few percent of it. */
#define CHAR_EM 0.6
/* Header lines are wrapped to this advance: 0.602 em and rounding room. */
#define TEXT_EM 0.61
/* Characters kept free each side of the title for Reset zoom and Search. */
#define CONTROLS_CHARS 11
/* A compact header's legend swatch, in font sizes. */
#define COMPACT_SWATCH 0.75

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
layout_text_char_width(double font_size)
{
	return TEXT_EM * font_size;
}

/*
 * layout_basis from a frame's values (base scaled, read only in a
 * differential graph): the walk asks for up to four bases a node.
 */
static double
basis_of(const struct tree *t, double base, double head, enum widths widths)
{
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

double
layout_basis(const struct tree *t, const struct tree_node *n, enum widths widths)
{
	double base = t->differential ? tree_value(t, n, SIDE_BASE, false) : 0;
	return basis_of(t, base, tree_value(t, n, SIDE_HEAD, false), widths);
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
	return basis_of(
	        t, count_to_double(o->base) * t->base_scale, count_to_double(o->head), widths);
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
 * The left offset of the next frame at a depth of the walk: a frame starts
 * where its previous sibling ended, or at its parent's offset. Exact sums
 * of counts: children never sum to more than their parent, so the
 * additions cannot overflow.
 */
static struct offset
next_offset(const struct tree *t, const struct tree_node *n, struct offset *next)
{
	struct offset at = next[n->depth];
	(void)count_add(
	        next[n->depth].base, tree_node_total(t, n, SIDE_BASE), &next[n->depth].base);
	(void)count_add(
	        next[n->depth].head, tree_node_total(t, n, SIDE_HEAD), &next[n->depth].head);
	return at;
}

/*
 * Status under --color-by total: the inclusive change (layout_change's),
 * same rule as self.
 */
static enum node_status
total_status(const struct tree *t, const struct tree_node *n, double change)
{
	/* --runs: a change the test does not confirm is drawn unchanged. */
	if (t->runs && !runs_node_significant(t->runs, (uint32_t)(n - t->nodes), true)) {
		return STATUS_SAME;
	}
	return tree_classify_change(t, n, change);
}

/* The most boxes place_boxes makes room for before it needs them. */
enum { BOXES_AT_ONCE = 1 << 16 };

static void
push_box(struct layout *l, size_t *cap, const struct layout_box *b)
{
	if (l->count == *cap) {
		l->boxes = xgrow(l->boxes, cap, l->count + 1, sizeof(*l->boxes));
	}
	l->boxes[l->count++] = *b;
}

/*
 * The samples below which a frame is pruned, for a basis whose root has
 * `total`. Pruning compares samples, as flamegraph.pl and inferno do, so a
 * frame exactly at the threshold is kept by all three alike.
 */
static double
min_samples_for(const struct layout *l, double total)
{
	const struct draw_options *o = l->opt;
	double scale = total > 0 ? l->graph_width / total : 0;
	return o->min_width_percent ? total * o->min_width / 100.0
	       : scale > 0          ? l->min_width_px / scale
	                            : 0;
}

static const enum widths all_widths[3] = {WIDTHS_HEAD, WIDTHS_BASE, WIDTHS_UNION};

/* Differential: whether any basis shows the frame at or above its threshold. */
static bool
wide_anywhere(const struct tree *t, double base, double head, const double min[3])
{
	for (int v = 0; v < 3; v++) {
		double b = basis_of(t, base, head, all_widths[v]);
		if (b > 0 && b >= min[v]) {
			return true;
		}
	}
	return false;
}

/*
 * Drops the hidden boxes deeper than the deepest shown one: the written
 * picture has no row for them. Their descendants are deeper still, so
 * the pre-order stays whole.
 */
static void
drop_deep_hidden(struct layout *l)
{
	size_t kept = 0;
	for (size_t i = 0; i < l->count; i++) {
		if (!(l->boxes[i].hidden && l->boxes[i].depth > l->max_depth)) {
			/* Moved only after a drop: most graphs have none. */
			if (kept != i) {
				l->boxes[kept] = l->boxes[i];
			}
			kept++;
		}
	}
	l->count = kept;
}

/*
 * A subtree past --max-depth: its frames wide enough to draw are counted
 * for the header's "+N deeper frames", its samples once at its root (its
 * descendants' are within them). Returns the next node after it.
 */
static uint32_t
cap_subtree(struct layout *l, uint32_t id, double basis, double min_samples)
{
	const struct tree *t = l->tree;
	if (!(basis > 0 && basis >= min_samples)) {
		return skip_subtree(t, id);
	}
	size_t frames = 0;
	for (uint32_t u = id; u != TREE_NONE; u = tree_next_preorder(t, u, id)) {
		double b = layout_basis(t, tree_node(t, u), l->opt->widths);
		frames += b > 0 && b >= min_samples;
	}
	l->capped_samples += basis;
	l->capped_frames += frames;
	/* Its parent is the last box: every box after it would be deeper. */
	uint32_t parent = (uint32_t)(l->count - 1);
	if (l->cap_count == 0 || l->caps[l->cap_count - 1].box != parent) {
		l->caps = xrealloc(l->caps, (l->cap_count + 1) * sizeof(*l->caps));
		l->caps[l->cap_count++] = (struct layout_cap){.box = parent};
	}
	l->caps[l->cap_count - 1].frames += frames;
	l->caps[l->cap_count - 1].samples += basis;
	return skip_subtree(t, id);
}

/*
 * Walks the tree once, emitting a box per drawn frame with x and width.
 * A differential graph also keeps, hidden, the frames that another basis
 * shows: a pruned frame's subtree is wide enough in no basis when the
 * frame is not, so the walk still skips whole subtrees.
 */
static void
place_boxes(struct layout *l)
{
	const struct tree *t = l->tree;
	const struct draw_options *o = l->opt;
	/* Offsets by depth, not by node: the walk is in pre-order. */
	struct offset *next = xcalloc(t->max_depth + 1, sizeof(*next));
	/* A box per drawn node at most: room for them all at once while that
	 * is small (untouched pages cost nothing), so big graphs are not
	 * copied again at each doubling. */
	size_t cap = t->node_count < BOXES_AT_ONCE ? t->node_count : BOXES_AT_ONCE;
	l->boxes = xmalloc(cap * sizeof(*l->boxes));
	double scale = l->basis_total > 0 ? l->graph_width / l->basis_total : 0;
	double min_samples = min_samples_for(l, l->basis_total);
	double min[3];
	for (int v = 0; v < 3; v++) {
		min[v] =
		        min_samples_for(l, layout_basis(t, tree_node(t, TREE_ROOT), all_widths[v]));
	}
	uint32_t id = TREE_ROOT;
	while (id != TREE_NONE) {
		const struct tree_node *n = tree_node(t, id);
		struct offset off = next_offset(t, n, next);
		/* The base value once a basis needs it: this one, or the others
		 * for a frame this one prunes. */
		bool base_known = t->differential && o->widths != WIDTHS_HEAD;
		double base = base_known ? tree_value(t, n, SIDE_BASE, false) : 0;
		double head = tree_value(t, n, SIDE_HEAD, false);
		double basis = basis_of(t, base, head, o->widths);
		bool shown = basis > 0 && basis >= min_samples;
		if (!shown && basis > 0 &&
		        (id == TREE_ROOT || layout_basis(t, tree_node(t, n->parent), o->widths) >=
		                                    min_samples)) {
			/* A pruned subtree's root: its shown parent is counted. */
			l->pruned_samples += basis;
			l->pruned_frames++;
		}
		if (!shown && t->differential && !base_known) {
			base = tree_value(t, n, SIDE_BASE, false);
		}
		if (!shown && !(t->differential && wide_anywhere(t, base, head, min))) {
			id = skip_subtree(t, id);
			continue;
		}
		if (n->depth > l->depth_cap) {
			id = cap_subtree(l, id, shown ? basis : 0, min_samples);
			continue;
		}
		struct layout_box b = {
		        .node = id,
		        .depth = n->depth,
		        .x = l->graph_x + offset_basis(t, &off, o->widths) * scale,
		        .width = basis * scale,
		        .hidden = !shown,
		};
		push_box(l, &cap, &b);
		if (shown && n->depth > l->max_depth) {
			l->max_depth = n->depth;
		}
		if (n->first_child != TREE_NONE) {
			next[n->depth + 1] = off;
		}
		id = tree_next_preorder(t, id, TREE_ROOT);
	}
	free(next);
	drop_deep_hidden(l);
}

/* Status, intensity and fill of every box, once max_change is known. */
static void
paint_boxes(struct layout *l)
{
	const struct tree *t = l->tree;
	const struct draw_options *o = l->opt;
	for (size_t i = 0; i < l->count; i++) {
		struct layout_box *b = &l->boxes[i];
		const struct tree_node *n = tree_node(t, b->node);
		double change = t->differential ? layout_change(t, n, o->color_by) : 0;
		b->status = (uint8_t)(o->color_by == COLOR_BY_SELF ? (enum node_status)n->status
		                                                   : total_status(t, n, change));
		/* Until the second pass makes it a share of max_change. */
		b->intensity = fabs(change);
		/* The root's inclusive change is the whole profile's; it would
		 * dwarf every frame, so it is left out of the scale (and clamps). */
		/* Hidden boxes are not in the written picture, nor in its scale. */
		if (!b->hidden && b->status != STATUS_SAME &&
		        (o->color_by == COLOR_BY_SELF || i > 0) && b->intensity > l->max_change) {
			l->max_change = b->intensity;
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
		double c = b->intensity;
		b->intensity = 0;
		if (b->status != STATUS_SAME && l->max_change > 0) {
			b->intensity = c >= l->max_change ? 1.0 : c / l->max_change;
		}
		b->fill = color_diff((enum node_status)b->status, b->intensity, o->theme);
	}
}

#define ELLIPSIS "\xE2\x80\xA6" /* U+2026, the one cut marker of every output */

/* name cut to keep characters plus the marker, on the --truncate side. */
void
layout_add_cut(const struct layout *l, const char *name, size_t len, size_t chars, size_t keep,
        struct buf *out)
{
	if (l->opt->truncate == TRUNCATE_LEFT) {
		size_t skip = utf8_prefix_bytes(name, len, chars - keep);
		buf_adds(out, ELLIPSIS);
		buf_add(out, name + skip, len - skip);
	} else {
		buf_add(out, name, utf8_prefix_bytes(name, len, keep));
		buf_adds(out, ELLIPSIS);
	}
}

/* Appends a header line of s[0..len). */
void
layout_push_text(
        struct layout *l, size_t *cap, const char *s, size_t len, const struct layout_text *proto)
{
	if (l->text_count == *cap) {
		l->texts = xgrow(l->texts, cap, l->text_count + 1, sizeof(*l->texts));
	}
	struct layout_text *t = &l->texts[l->text_count++];
	*t = *proto;
	t->text = xmemdup(s, len);
}

static bool
at_sep(const char *s, size_t len, size_t i)
{
	size_t n = sizeof(CAPTION_SEP) - 1;
	return len - i >= n && memcmp(s + i, CAPTION_SEP, n) == 0;
}

/*
 * The byte length of the first line of s when lines hold at most `max`
 * characters, and in *next where the rest starts: the line breaks at the
 * last " · " between parts that leaves it a quarter full or more, else at
 * the last space, else after `max` characters.
 */
static size_t
wrap_break(const char *s, size_t len, size_t max, size_t *next)
{
	size_t sep = 0, space = 0, i = 0, chars = 0;
	while (i < len && chars <= max) {
		if (i > 0 && at_sep(s, len, i) && chars * 4 >= max) {
			sep = i;
		}
		if (i > 0 && s[i] == ' ') {
			space = i;
		}
		uint32_t cp;
		size_t k = utf8_decode(s + i, len - i, &cp);
		i += k ? k : 1;
		chars++;
	}
	if (i == len && chars <= max) {
		*next = len;
		return len;
	}
	if (sep > 0) {
		*next = sep + sizeof(CAPTION_SEP) - 1;
		return sep;
	}
	if (space > 0) {
		*next = space + 1;
		return space;
	}
	*next = utf8_prefix_bytes(s, len, max);
	return *next;
}

/*
 * Adds s wrapped to `max` characters a line, one line every `step` px from
 * *y (the baseline `lead` px below each line's top); returns the first
 * baseline.
 */
double
layout_add_wrapped(struct layout *l, size_t *cap, const char *s, size_t max,
        struct layout_text proto, double step, double lead, double *y)
{
	double first = *y + lead;
	size_t len = strlen(s), at = 0;
	if (max < 1) {
		max = 1;
	}
	while (at < len) {
		size_t next;
		size_t n = wrap_break(s + at, len - at, max, &next);
		proto.y = *y + lead;
		layout_push_text(l, cap, s + at, n, &proto);
		*y += step;
		at += next > 0 ? next : n;
	}
	return first;
}

/* Characters of a header line at the font size fs across the graph's width. */
size_t
layout_line_chars(const struct layout *l, double room, double fs)
{
	double n = floor(room / layout_text_char_width(fs));
	return n < 1 ? 1 : n > 1e6 ? 1000000 : (size_t)n;
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
	/* Compact: smaller swatches, a band the height of a compact line. */
	double swatch = l->opt->compact ? COMPACT_SWATCH * fs : fs;
	double ramps = legend_ramps_width(fs) - (4 * COLOR_STEPS + 1) * (fs - swatch);
	if (l->opt->compact && l->caption->scale) {
		scale = (double)utf8_length(l->caption->scale, strlen(l->caption->scale)) * cw;
	}
	bool two_rows = ramps + cw + scale > l->graph_width;
	l->legend_swatch = swatch;
	l->legend_height = (l->opt->compact ? LAYOUT_COMPACT_LINE : LEGEND_BAND) * fs;
	l->legend_text_y = y + l->legend_height / 2 + LAYOUT_LABEL_BASELINE * fs;
	l->legend_scale_y = l->legend_text_y;
	if (two_rows) {
		double row = (l->opt->compact ? LAYOUT_COMPACT_LINE : TEXT_LINE) * fs;
		l->legend_scale_y += row;
		l->legend_height += row;
	}
}

/*
 * From the largest changes down to the graph's top: the changes, the
 * legend, the details line (a line of `step` px, or over the legend).
 */
static void
place_changes_to_graph(
        struct layout *l, size_t *cap, double y, bool details_over_legend, double step)
{
	layout_add_changes(l, cap, &y);
	l->header_height = y;
	l->legend_y = y;
	if (l->tree->differential) {
		place_legend(l, y);
	}
	y += l->legend_height;
	l->details_y = details_over_legend ? l->legend_text_y : y + step * 0.75;
	y += details_over_legend ? 0 : step;
	l->graph_y = y;
}

/*
 * The header of a picture for a pull-request comment, a third of the
 * picture or less: no title line (the comment says what it is), the
 * totals and what hides code in one line beside the controls, the largest
 * changes two to a line, the legend in one band, and the details line of
 * a browser over the legend (the script hides the legend while it shows).
 */
static void
place_compact_header(struct layout *l)
{
	const struct caption *c = l->caption;
	double fs = l->opt->font_size, step = LAYOUT_COMPACT_LINE * fs;
	double controls = 2 * CONTROLS_CHARS * layout_text_char_width(fs);
	size_t room = layout_line_chars(l, l->graph_width - controls, fs), cap = 0;
	struct buf line;
	buf_init(&line);
	for (size_t i = 0; i < c->compact_count; i++) {
		size_t have = utf8_length(line.data, line.len);
		size_t more = utf8_length(c->compact[i], strlen(c->compact[i]));
		if (i == 0 || have + sizeof(CAPTION_SEP) - 1 + more <= room) {
			buf_adds(&line, i == 0 ? "" : CAPTION_SEP);
			buf_adds(&line, c->compact[i]);
		}
	}
	double y = COMPACT_PAD_TOP * fs;
	struct layout_text t = {.x = l->graph_x, .size = fs, .anchor = LAYOUT_ANCHOR_START};
	/* The title's baseline is the controls' (svg.c); the line is bold. */
	l->title_size = fs;
	t.bold = true;
	l->title_y = l->totals_y =
	        layout_add_wrapped(l, &cap, line.data, room, t, step, step * 0.75, &y);
	buf_finish(&line);
	place_changes_to_graph(l, &cap, y, l->tree->differential, step);
}

/* Header, legend and details line: everything above the graph. */
static void
place_header(struct layout *l)
{
	const struct draw_options *o = l->opt;
	double fs = o->font_size;
	l->caption = xmalloc(sizeof(*l->caption));
	const struct caption_input in = {
	        .tree = l->tree,
	        .opt = l->opt,
	        .line_chars = floor(l->graph_width / layout_text_char_width(fs)),
	        .max_change = l->max_change,
	        .pruned_samples = l->pruned_samples,
	        .pruned_frames = l->pruned_frames,
	        .boxes = l->boxes,
	        .box_count = l->count,
	        .capped_samples = l->capped_samples,
	        .capped_frames = l->capped_frames,
	        .depth_cap = l->depth_cap,
	};
	caption_init(l->caption, &in);
	if (o->compact) {
		place_compact_header(l);
		return;
	}
	const struct caption *c = l->caption;
	size_t cap = 0;
	size_t room = layout_line_chars(l, l->graph_width, fs);
	double y = PAD_TOP * fs;
	l->title_size = TITLE_SCALE * fs;
	/* The title shares its first line with Reset zoom and Search. */
	double controls = 2 * CONTROLS_CHARS * layout_text_char_width(fs);
	struct layout_text t = {.x = l->width / 2,
	        .size = l->title_size,
	        .bold = true,
	        .anchor = LAYOUT_ANCHOR_MIDDLE};
	l->title_y = layout_add_wrapped(l, &cap, c->title,
	        layout_line_chars(l, l->graph_width - controls, l->title_size), t, TITLE_LINE * fs,
	        TITLE_LINE * fs * 0.7, &y);
	t.size = fs;
	t.bold = false;
	double step = TEXT_LINE * fs, lead = TEXT_LINE * fs * 0.75;
	if (c->subtitle) {
		l->subtitle_y = layout_add_wrapped(l, &cap, c->subtitle, room, t, step, lead, &y);
	}
	t.x = l->graph_x;
	t.anchor = LAYOUT_ANCHOR_START;
	l->totals_y = layout_add_wrapped(l, &cap, c->totals, room, t, step, lead, &y);
	l->rule_y = layout_add_wrapped(l, &cap, c->rule, room, t, step, lead, &y);
	if (c->pruned) {
		l->pruned_y = layout_add_wrapped(l, &cap, c->pruned, room, t, step, lead, &y);
	}
	if (c->capped) {
		layout_add_wrapped(l, &cap, c->capped, room, t, step, lead, &y);
	}
	place_changes_to_graph(l, &cap, y, false, TEXT_LINE * fs);
}

/* Moves the boxes to their rows: root at the bottom, or on top inverted. */
static void
place_rows(struct layout *l)
{
	double fh = l->frame_height;
	/* A row past the deepest for the depth cap's "+N deeper frames". */
	double top = (double)l->max_depth + (l->cap_count > 0);
	l->graph_height = (top + 1) * fh;
	for (size_t i = 0; i < l->count; i++) {
		struct layout_box *b = &l->boxes[i];
		double row = l->opt->inverted ? (double)b->depth : top - b->depth;
		b->y = l->graph_y + row * fh;
	}
	/* Caps are in pre-order of frames at one depth: left to right. Each
	 * label may run on over the empty row to the next one. */
	for (size_t i = 0; i < l->cap_count; i++) {
		const struct layout_box *b = &l->boxes[l->caps[i].box];
		double end = i + 1 < l->cap_count ? l->boxes[l->caps[i + 1].box].x
		                                  : l->graph_x + l->graph_width;
		l->caps[i].y = b->y + (l->opt->inverted ? fh : -fh);
		l->caps[i].room = end - b->x;
	}
	/* A whole number of pixels, which an <img> and a PNG both show whole. */
	l->height = ceil(l->graph_y + l->graph_height + PAD_BOTTOM * l->opt->font_size);
}

struct layout *
layout_create(const struct tree *t, const struct draw_options *o)
{
	struct layout *l = xcalloc(1, sizeof(*l));
	l->tree = t;
	l->settings = *o;
	l->opt = &l->settings;
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
	l->depth_cap = o->max_depth > 0 ? o->max_depth : LAYOUT_DEPTH_CAP;
	place_boxes(l);
	paint_boxes(l);
	place_header(l);
	place_rows(l);
	layout_markers_place(l);
	return l;
}

void
layout_destroy(struct layout *l)
{
	if (!l) {
		return;
	}
	free(l->boxes);
	free(l->markers);
	free(l->caps);
	for (size_t i = 0; i < l->text_count; i++) {
		free(l->texts[i].text);
	}
	free(l->texts);
	if (l->caption) {
		caption_finish(l->caption);
		free(l->caption);
	}
	free(l);
}

void
layout_frame_size(const struct layout *l, double box_width, double *w, double *h)
{
	*w = box_width;
	double fh = l->frame_height;
	*h = fh > 2 * LAYOUT_FRAME_GAP ? fh - LAYOUT_FRAME_GAP : fh;
}

/*
 * True when the count a label does not state changed the other way: a
 * frame whose self time fell while its total rose would read "-4%" as the
 * whole frame getting faster, so such a label names its count.
 */
static bool
other_count_disagrees(const struct tree *t, const struct tree_node *n, bool self)
{
	double stated = tree_value(t, n, SIDE_HEAD, self) - tree_value(t, n, SIDE_BASE, self);
	double other = tree_value(t, n, SIDE_HEAD, !self) - tree_value(t, n, SIDE_BASE, !self);
	return (stated > 0 && other < 0) || (stated < 0 && other > 0);
}

/*
 * The change word a label ends with (docs/pictures.md#labels): by the
 * frame's colour class and the --color-by count, led by that count's name
 * ("self -4.3%") when the other count changed the other way; nothing for
 * unchanged frames and single profiles.
 */
static void
label_suffix(const struct layout *l, const struct layout_box *box, struct buf *out)
{
	const struct tree *t = l->tree;
	if (!t->differential) {
		return;
	}
	const struct tree_node *n = tree_node(t, box->node);
	bool self = l->opt->color_by == COLOR_BY_SELF;
	switch ((enum node_status)box->status) {
	case STATUS_SLOWER:
	case STATUS_FASTER:
		if (other_count_disagrees(t, n, self)) {
			buf_adds(out, self ? "self " : "total ");
		}
		numfmt_label_change(
		        out, tree_value(t, n, SIDE_BASE, self), tree_value(t, n, SIDE_HEAD, self));
		return;
	case STATUS_NEW:
		buf_adds(out, "new");
		return;
	case STATUS_REMOVED:
		buf_adds(out, "removed");
		return;
	default:
		return;
	}
}

/*
 * layout_label for a box with room for LAYOUT_LABEL_MIN_CHARS or more. Not
 * inlined: most frames of a big graph have less room, and the caller then
 * returns before this one's set-up.
 */
static void label_fit(const struct layout *l, const char *name, size_t len, size_t chars,
        size_t room, const char *suffix, size_t s, struct buf *out);

__attribute__((noinline)) static void
label_text(const struct layout *l, const struct layout_box *box, double room_chars, struct buf *out)
{
	const struct tree *t = l->tree;
	const struct tree_node *n = tree_node(t, box->node);
	size_t len;
	const char *name = tree_node_name(t, n, &len);
	len = intern_bare_len(t->names, n->name);
	size_t room = room_chars > (double)SIZE_MAX / 2 ? SIZE_MAX / 2 : (size_t)room_chars;
	size_t chars = utf8_length(name, len);
	/* The suffix is written, kept aside, and put back after the name. */
	size_t start = out->len;
	label_suffix(l, box, out);
	char suffix[64];
	size_t s = out->len - start < sizeof(suffix) ? out->len - start : 0;
	memcpy(suffix, out->data + start, s);
	buf_setlen(out, start);
	/* A name that does not fit whole is shortened first (shortname.h):
	 * "parser_binder<…>::invoke(…)" says more than "parser_binder<std::…". */
	struct buf shortened;
	buf_init(&shortened);
	if ((s > 0 ? chars + 1 + s : chars) > room && shortname_append(name, len, &shortened)) {
		name = shortened.data;
		len = shortened.len;
		chars = utf8_length(name, len);
	}
	label_fit(l, name, len, chars, room, suffix, s, out);
	buf_finish(&shortened);
}

/* The fit of the label rule (step 4) for a name of `chars` characters. */
static void
label_fit(const struct layout *l, const char *name, size_t len, size_t chars, size_t room,
        const char *suffix, size_t s, struct buf *out)
{
	size_t keep = 0;
	if (s > 0 && chars + 1 + s <= room) {
		keep = chars;
	} else if (s > 0 && room >= s + 2 + LAYOUT_LABEL_MIN_CHARS) {
		keep = room - s - 2;
	} else if (s > 0 && s <= room && suffix[s - 1] == '%') {
		/* The change is what the picture is about: it goes before the
		 * name, whose stub would say little; hover names the frame. A
		 * "new" or "removed" only repeats the colour: the name wins. */
		buf_add(out, suffix, s);
		return;
	} else {
		s = 0;
		keep = chars <= room ? chars : room - 1;
	}
	if (keep < LAYOUT_LABEL_MIN_CHARS && keep < chars) {
		return;
	}
	if (keep == chars) {
		buf_add(out, name, len);
	} else {
		layout_add_cut(l, name, len, chars, keep, out);
	}
	if (s > 0) {
		buf_addc(out, ' ');
		buf_add(out, suffix, s);
	}
}

void
layout_cap_label(
        const struct layout *l, const struct layout_cap *c, double char_width, struct buf *out)
{
	double room = (c->room - 2 * LAYOUT_LABEL_PAD) / char_width;
	size_t at = out->len;
	buf_addc(out, '+');
	numfmt_caption_number(out, (double)c->frames);
	size_t number = out->len - at;
	buf_adds(out, c->frames == 1 ? " deeper frame" : " deeper frames");
	if ((double)(out->len - at) > room) {
		buf_setlen(out, (double)number <= room ? at + number : at);
	}
}

void
layout_label(
        const struct layout *l, const struct layout_box *box, double char_width, struct buf *out)
{
	if (!(char_width > 0)) {
		return;
	}
	double room_chars = (box->width - 2 * LAYOUT_LABEL_PAD) / char_width;
	if (room_chars >= LAYOUT_LABEL_MIN_CHARS) {
		label_text(l, box, room_chars, out);
	}
}
