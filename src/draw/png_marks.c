#include "png_marks.h"

#include <math.h>

#include "buf.h"

static void
set_rgb(cairo_t *cr, struct rgb c)
{
	cairo_set_source_rgb(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0);
}

/*
 * ASCII text (a letter, "+1,234 deeper frames") with its baseline at y,
 * starting at x or centred on it.
 */
static void
show(const struct png_marks_pen *pen, PangoFontDescription *font, const char *s, size_t len,
        double x, double y, bool centre)
{
	PangoLayout *t = pen->text;
	pango_layout_set_font_description(t, font);
	pango_layout_set_ellipsize(t, PANGO_ELLIPSIZE_NONE);
	pango_layout_set_width(t, -1);
	pango_layout_set_text(t, s, (int)len);
	int w = 0;
	pango_layout_get_size(t, &w, NULL);
	double baseline = (double)pango_layout_get_baseline(t) / PANGO_SCALE;
	cairo_move_to(pen->cr, centre ? x - (double)w / PANGO_SCALE / 2 : x, y - baseline);
	pango_cairo_show_layout(pen->cr, t);
}

/* The depth cap's summaries, as svg_caps_write draws them. */
static void
draw_caps(const struct layout *l, const struct png_marks_pen *pen)
{
	static const double dash[] = {3, 2};
	cairo_t *cr = pen->cr;
	struct buf label;
	buf_init(&label);
	for (size_t i = 0; i < l->cap_count; i++) {
		const struct layout_cap *c = &l->caps[i];
		const struct layout_box *b = &l->boxes[c->box];
		if (b->depth + 1 >= pen->cut) {
			continue;
		}
		double w, h, y = c->y + pen->shift;
		layout_frame_size(l, b->width, &w, &h);
		set_rgb(cr, pen->bg);
		cairo_rectangle(cr, b->x, y, w, h);
		cairo_fill(cr);
		set_rgb(cr, pen->fg);
		cairo_set_line_width(cr, 1);
		cairo_set_dash(cr, dash, 2, 0);
		cairo_rectangle(cr, b->x + 0.5, y + 0.5, fmax(w - 1, 0), fmax(h - 1, 0));
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
		buf_reset(&label);
		layout_cap_label(l, c, pen->char_width, &label);
		if (label.len > 0) {
			show(pen, pen->regular, label.data, label.len, b->x + LAYOUT_LABEL_PAD,
			        y + l->frame_height / 2 + LAYOUT_LABEL_BASELINE * l->opt->font_size,
			        false);
		}
	}
	buf_finish(&label);
}

/* A rounded square: the badge's outline. */
static void
badge_path(cairo_t *cr, double x, double y, double w, double h)
{
	double r = 3;
	cairo_new_sub_path(cr);
	cairo_arc(cr, x + w - r, y + r, r, -M_PI / 2, 0);
	cairo_arc(cr, x + w - r, y + h - r, r, 0, M_PI / 2);
	cairo_arc(cr, x + r, y + h - r, r, M_PI / 2, M_PI);
	cairo_arc(cr, x + r, y + r, r, M_PI, 3 * M_PI / 2);
	cairo_close_path(cr);
}

/*
 * The markers as svg_markers_write draws them: the marked frame outlined,
 * the leader, the badge with its letter. Graph markers move with the graph
 * and go with the rows a tall picture cuts.
 */
static void
draw_markers(const struct layout *l, const struct png_marks_pen *pen)
{
	cairo_t *cr = pen->cr;
	for (size_t i = 0; i < l->marker_count; i++) {
		const struct layout_marker *m = &l->markers[i];
		double dy = m->in_header ? 0 : pen->shift;
		if (!m->in_header && l->boxes[m->box].depth >= pen->cut) {
			continue;
		}
		set_rgb(cr, pen->fg);
		cairo_set_line_width(cr, 1.5);
		if (!m->in_header) {
			const struct layout_box *b = &l->boxes[m->box];
			double w, h;
			layout_frame_size(l, b->width, &w, &h);
			cairo_rectangle(cr, b->x, b->y + dy, w, h);
			cairo_stroke(cr);
		}
		if (m->x0 != m->x1 || m->y0 != m->y1) {
			cairo_move_to(cr, m->x0, m->y0 + dy);
			cairo_line_to(cr, m->x1, m->y1 + dy);
			cairo_stroke(cr);
		}
		badge_path(cr, m->x, m->y + dy, m->w, m->h);
		cairo_fill_preserve(cr);
		set_rgb(cr, pen->bg);
		cairo_set_line_width(cr, 1);
		cairo_stroke(cr);
		double size = layout_marker_letter_size(m);
		pango_font_description_set_absolute_size(pen->bold, size * PANGO_SCALE);
		show(pen, pen->bold, m->letter, 1, m->x + m->w / 2,
		        m->y + dy + m->h / 2 + LAYOUT_LABEL_BASELINE * size, true);
	}
}

void
png_marks_draw(const struct layout *l, const struct png_marks_pen *pen)
{
	draw_caps(l, pen);
	draw_markers(l, pen);
}
