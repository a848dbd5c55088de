/*
 * Where the markers go (layout.h, struct layout_marker): each header row
 * whose function has a drawn frame gets a letter, drawn before the row and
 * on that function's strongest drawn frame (caption_rank.c picks it):
 * inside the frame after its label when there is room, else in free space
 * outward from it (where its callees would be) or beside it, joined to the
 * frame by a leader line, so a frame too narrow for text is still found.
 */
#include "layout_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "caption.h"
#include "utf8.h"
#include "xalloc.h"

/* Outward rows tried above (or, inverted, below) a frame for its badge. */
#define ROWS_OUT 6
/* Pixels kept between a badge and what it must not touch. */
#define GAP 1.0

double
layout_marker_badge_size(const struct layout *l)
{
	double fh = l->frame_height - LAYOUT_FRAME_GAP;
	double want = 1.2 * l->opt->font_size;
	return want < fh ? want : fh;
}

struct rect {
	double x0, y0, x1, y1;
};

static bool
overlaps(struct rect a, struct rect b)
{
	return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/* The badge's rectangle with the gap around it. */
static struct rect
padded(double x, double y, double w, double h)
{
	return (struct rect){x - GAP, y - GAP, x + w + GAP, y + h + GAP};
}

static bool
hits_marker(const struct layout *l, struct rect r)
{
	for (size_t i = 0; i < l->marker_count; i++) {
		const struct layout_marker *m = &l->markers[i];
		if (!m->in_header && overlaps(r, padded(m->x, m->y, m->w, m->h))) {
			return true;
		}
	}
	return false;
}

/* Whether r covers a drawn frame other than `self` (the one pointed at). */
static bool
hits_frame(const struct layout *l, struct rect r, uint32_t self)
{
	for (size_t i = 0; i < l->count; i++) {
		const struct layout_box *b = &l->boxes[i];
		if (b->hidden || b->node == self || b->width <= 0) {
			continue;
		}
		struct rect f = {b->x, b->y, b->x + b->width, b->y + l->frame_height};
		if (overlaps(r, f)) {
			return true;
		}
	}
	return false;
}

static bool
in_graph(const struct layout *l, struct rect r)
{
	return r.x0 >= l->graph_x - GAP && r.x1 <= l->graph_x + l->graph_width + GAP &&
	       r.y0 >= l->graph_y - GAP && r.y1 <= l->graph_y + l->graph_height + GAP;
}

static double
clamp_x(const struct layout *l, double x, double w)
{
	double hi = l->graph_x + l->graph_width - w;
	return x > hi ? hi : x < l->graph_x ? l->graph_x : x;
}

/* The label's drawn width on the frame, by the rule every backend shares. */
static double
label_width(const struct layout *l, const struct layout_box *b)
{
	struct buf label;
	buf_init(&label);
	double cw = layout_char_width(l->opt->font_size);
	layout_label(l, b, cw, &label);
	double w = (double)utf8_length(label.data, label.len) * cw;
	buf_finish(&label);
	return w;
}

/*
 * The badge's top-left for frame b: inside it after the label; else
 * outward rows clear of frames, beside it in its row, then outward rows
 * over frames; at last on the frame, moved sideways off other badges.
 */
static void
place_one(const struct layout *l, const struct layout_box *b, struct layout_marker *m)
{
	double w = m->w, h = m->h, fh = l->frame_height;
	double inset = (fh - LAYOUT_FRAME_GAP - h) / 2;
	double y_in = b->y + inset;
	double room = b->width - 2 * LAYOUT_LABEL_PAD - label_width(l, b);
	m->x = b->x + b->width - LAYOUT_LABEL_PAD - w;
	m->y = y_in;
	if (room >= w + 2 * GAP && !hits_marker(l, padded(m->x, m->y, w, h))) {
		return;
	}
	double out = l->opt->inverted ? fh : -fh;
	double mid = clamp_x(l, b->x + b->width / 2 - w / 2, w);
	for (int pass = 0; pass < 2; pass++) {
		for (int k = 1; k <= ROWS_OUT; k++) {
			struct rect r = padded(mid, y_in + k * out, w, h);
			if (in_graph(l, r) && !hits_marker(l, r) &&
			        (pass == 1 || !hits_frame(l, r, b->node))) {
				m->x = mid;
				m->y = y_in + k * out;
				return;
			}
		}
		double sides[2] = {b->x + b->width + 2 * GAP, b->x - w - 2 * GAP};
		for (int s = 0; s < 2 && pass == 0; s++) {
			struct rect r = padded(sides[s], y_in, w, h);
			if (in_graph(l, r) && !hits_marker(l, r) && !hits_frame(l, r, b->node)) {
				m->x = sides[s];
				m->y = y_in;
				return;
			}
		}
	}
	/* Crowded: on the frame's row, the nearest free place beside it. */
	for (int k = 0; k < 64; k++) {
		int steps = (k + 1) / 2; /* 0, 1, 1, 2, 2...: right and left in turn */
		double x = clamp_x(l, mid + (k % 2 ? 1 : -1) * (double)steps * (w + 2 * GAP), w);
		if (!hits_marker(l, padded(x, y_in, w, h))) {
			m->x = x;
			m->y = y_in;
			return;
		}
	}
	m->x = mid;
	m->y = y_in;
}

/* The leader: from the badge's edge nearest the frame to the frame's. */
static void
set_leader(const struct layout *l, const struct layout_box *b, struct layout_marker *m)
{
	double top = b->y, bottom = b->y + l->frame_height - LAYOUT_FRAME_GAP;
	double cx = m->x + m->w / 2, cy = m->y + m->h / 2;
	bool on_row = cy > top && cy < bottom;
	bool on_frame = on_row && cx >= b->x && cx <= b->x + b->width;
	if (on_frame) {
		m->x0 = m->x1 = cx;
		m->y0 = m->y1 = cy;
		return;
	}
	/* The frame's nearest point, never further in than its middle. */
	double fx = cx < b->x ? b->x : cx > b->x + b->width ? b->x + b->width : cx;
	if (on_row) {
		m->x0 = cx < b->x ? m->x + m->w : m->x;
		m->y0 = m->y1 = cy;
		m->x1 = fx;
		return;
	}
	m->x0 = cx;
	m->y0 = cy < top ? m->y + m->h : m->y;
	m->x1 = fx;
	m->y1 = cy < top ? top : bottom;
}

static const struct layout_box *
box_of(const struct layout *l, uint32_t node)
{
	for (size_t i = 0; i < l->count; i++) {
		if (l->boxes[i].node == node && !l->boxes[i].hidden) {
			return &l->boxes[i];
		}
	}
	return NULL;
}

double
layout_marker_letter_size(const struct layout_marker *m)
{
	return 0.8 * m->h;
}

/* Strongest rows first: each takes the best place left. */
void
layout_markers_place(struct layout *l)
{
	const struct caption *c = l->caption;
	double h = layout_marker_badge_size(l);
	for (size_t i = 0; i < c->change_count; i++) {
		const struct caption_change *r = &c->changes[i];
		const struct layout_box *b = r->marker[0] ? box_of(l, r->frame) : NULL;
		if (!b) {
			continue;
		}
		l->markers = xrealloc(l->markers, (l->marker_count + 1) * sizeof(*l->markers));
		struct layout_marker *m = &l->markers[l->marker_count];
		memset(m, 0, sizeof(*m));
		memcpy(m->letter, r->marker, sizeof(m->letter));
		m->row = (uint32_t)i;
		m->node = b->node;
		m->box = (uint32_t)(b - l->boxes);
		m->w = h;
		m->h = h;
		place_one(l, b, m);
		set_leader(l, b, m);
		l->marker_count++;
	}
}
