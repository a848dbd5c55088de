#include "svg_markers.h"

#include <math.h>
#include <string.h>

#include "color.h"
#include "escape.h"

/* The frames' sub-pixel shift (svg.c's row_shift), so marks meet them. */
static double
graph_shift(const struct layout *l)
{
	return round(l->graph_y) - l->graph_y;
}

/* Numbers as the rest of the SVG writes them: at most two decimals. */
static void
attr(struct buf *b, const char *name, double v)
{
	buf_printf(b, " %s=\"", name);
	buf_add_double(b, v, 2);
	buf_addc(b, '"');
}

static void
attr_rgb(struct buf *b, const char *name, struct rgb c)
{
	char hex[8];
	color_hex(c, hex);
	buf_printf(b, " %s=\"%s\"", name, hex);
}

/* The badge: a rounded square in the foreground colour, the letter in the
 * background's, outlined in it so it stands apart on any fill. */
static void
write_badge(struct buf *b, const struct layout *l, const struct layout_marker *m, struct rgb fg,
        struct rgb bg, double dy)
{
	const struct tree *t = l->tree;
	size_t len;
	const char *name = tree_node_name(t, tree_node(t, m->node), &len);
	buf_printf(b, "<g class=\"marker\" data-marker=\"%s\" data-row=\"%u\"", m->letter, m->row);
	if (!m->in_header) {
		buf_printf(b, " data-frame=\"%u\"", m->box);
	}
	buf_adds(b, " data-name=\"");
	escape_xml(b, name, len);
	buf_adds(b, "\">");
	if (m->x0 != m->x1 || m->y0 != m->y1) {
		buf_adds(b, "<line");
		attr(b, "x1", m->x0);
		attr(b, "y1", m->y0 + dy);
		attr(b, "x2", m->x1);
		attr(b, "y2", m->y1 + dy);
		attr_rgb(b, "stroke", fg);
		buf_adds(b, " stroke-width=\"1.5\"/>");
	}
	buf_adds(b, "<rect");
	attr(b, "x", m->x);
	attr(b, "y", m->y + dy);
	attr(b, "width", m->w);
	attr(b, "height", m->h);
	buf_adds(b, " rx=\"3\"");
	attr_rgb(b, "fill", fg);
	attr_rgb(b, "stroke", bg);
	/* A line apart: tools count a frame's rect-then-text as "/><text". */
	buf_adds(b, " stroke-width=\"1\"/>\n<text");
	double size = layout_marker_letter_size(m);
	attr(b, "x", m->x + m->w / 2);
	attr(b, "y", m->y + dy + m->h / 2 + LAYOUT_LABEL_BASELINE * size);
	buf_adds(b, " text-anchor=\"middle\" font-weight=\"bold\"");
	attr(b, "font-size", size);
	attr_rgb(b, "fill", bg);
	buf_printf(b, ">%s</text></g>\n", m->letter);
}

/* The marked frame's outline, so a frame one pixel wide is seen. */
static void
write_outline(struct buf *b, const struct layout *l, const struct layout_marker *m, struct rgb fg)
{
	const struct layout_box *box = &l->boxes[m->box];
	double w, h;
	layout_frame_size(l, box->width, &w, &h);
	buf_adds(b, "<rect class=\"marked\"");
	attr(b, "x", box->x);
	attr(b, "y", box->y + graph_shift(l));
	attr(b, "width", w);
	attr(b, "height", h);
	buf_adds(b, " fill=\"none\"");
	attr_rgb(b, "stroke", fg);
	buf_adds(b, " stroke-width=\"1.5\"/>\n");
}

void
svg_caps_write(struct buf *b, const struct layout *l, const char *prefix)
{
	if (l->cap_count == 0) {
		return;
	}
	struct rgb fg = color_foreground(l->opt->theme), bg = color_background(l->opt->theme);
	double shift = graph_shift(l), cw = layout_char_width(l->opt->font_size);
	buf_printf(b, "<g class=\"capped\" id=\"%scapped\">\n", prefix);
	struct buf label;
	buf_init(&label);
	for (size_t i = 0; i < l->cap_count; i++) {
		const struct layout_cap *c = &l->caps[i];
		const struct layout_box *box = &l->boxes[c->box];
		double w, h;
		layout_frame_size(l, box->width, &w, &h);
		buf_printf(b,
		        "<g class=\"cap\" data-frame=\"%u\" data-frames=\"%zu\" data-samples=\"",
		        c->box, c->frames);
		buf_add_double(b, c->samples, 3);
		buf_adds(b, "\"><rect");
		attr(b, "x", box->x);
		attr(b, "y", c->y + shift);
		attr(b, "width", w);
		attr(b, "height", h);
		attr_rgb(b, "fill", bg);
		attr_rgb(b, "stroke", fg);
		buf_adds(b, " stroke-width=\"1\" stroke-dasharray=\"3 2\"/>");
		buf_reset(&label);
		layout_cap_label(l, c, cw, &label);
		if (label.len > 0) {
			buf_adds(b, "\n<text");
			attr(b, "x", box->x + LAYOUT_LABEL_PAD);
			attr(b, "y",
			        c->y + shift + l->frame_height / 2 +
			                LAYOUT_LABEL_BASELINE * l->opt->font_size);
			attr_rgb(b, "fill", fg);
			buf_addc(b, '>');
			buf_add(b, label.data, label.len);
			buf_adds(b, "</text>");
		}
		buf_adds(b, "</g>\n");
	}
	buf_finish(&label);
	buf_adds(b, "</g>\n");
}

void
svg_markers_write(struct buf *b, const struct layout *l, const char *prefix, bool header)
{
	struct rgb fg = color_foreground(l->opt->theme), bg = color_background(l->opt->theme);
	size_t n = 0;
	for (size_t i = 0; i < l->marker_count; i++) {
		n += l->markers[i].in_header == header;
	}
	if (n == 0) {
		return;
	}
	if (header) {
		buf_adds(b, "<g class=\"markers\" data-place=\"header\">\n");
	} else {
		buf_printf(
		        b, "<g class=\"markers\" id=\"%smarkers\" data-place=\"graph\">\n", prefix);
	}
	for (size_t i = 0; i < l->marker_count; i++) {
		const struct layout_marker *m = &l->markers[i];
		if (m->in_header == header && !header) {
			write_outline(b, l, m, fg);
		}
	}
	for (size_t i = 0; i < l->marker_count; i++) {
		if (l->markers[i].in_header == header) {
			write_badge(b, l, &l->markers[i], fg, bg, header ? 0 : graph_shift(l));
		}
	}
	buf_adds(b, "</g>\n");
}
