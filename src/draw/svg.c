#include "svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caption.h"
#include "color.h"
#include "count.h"
#include "escape.h"
#include "hash.h"
#include "match.h"
#include "runs.h"
#include "svg_assets.h"
#include "svg_interval.h"
#include "svg_markers.h"
#include "svg_match.h"
#include "svg_theme.h"
#include "utf8.h"
#include "xalloc.h"

/* Highlight of frames matching a search; outside every palette class. */
#define SEARCH_FILL "#e600e6"

static void
escs(struct buf *b, const char *s)
{
	escape_xml(b, s, strlen(s));
}

/*
 * A whole number of tenths as a decimal: 187 -> "18.7", 20 -> "2", 3 ->
 * "0.3", or ".3" without lead_zero: SVG numbers may start with the point,
 * and most frames of a big graph are under a pixel wide. Written at p,
 * with room for BUF_U64_CHARS + 3, for |tenths| under 1e15.
 */
static char *
write_tenths(char *p, double tenths, bool lead_zero)
{
	if (tenths < 0) {
		*p++ = '-';
		tenths = -tenths;
	}
	uint64_t t = (uint64_t)(int64_t)tenths;
	if (t >= 10 || t == 0 || lead_zero) {
		p = buf_put_u64(p, t / 10);
	}
	if (t % 10 != 0) {
		p[0] = '.';
		p[1] = (char)('0' + t % 10);
		p += 2;
	}
	return p;
}

/* write_tenths through the buf, any tenths. */
static void
add_tenths(struct buf *b, double tenths, bool lead_zero)
{
	if (!(fabs(tenths) < 1e15)) {
		buf_add_double(b, tenths / 10, 1);
		return;
	}
	/* A sign, the digits and ".d": reserved once, written in place. */
	if (b->len + BUF_U64_CHARS + 3 >= b->cap) {
		buf_reserve(b, BUF_U64_CHARS + 3);
	}
	buf_setlen(b, (size_t)(write_tenths(b->data + b->len, tenths, lead_zero) - b->data));
}

/*
 * round(v), half away from zero, without libm's call: every frame rounds
 * a few coordinates. Exact: below 2^52, v - trunc(v) is a double too. The
 * sign of a zero may differ from round's, which add_tenths does not show.
 */
static double
round_half_away(double v)
{
	if (!(fabs(v) < 0x1p52)) {
		return round(v);
	}
	double t = (double)(int64_t)v;
	double f = v - t;
	return f >= 0.5 ? t + 1 : f <= -0.5 ? t - 1 : t;
}

/* Coordinates: one decimal, trailing ".0" trimmed, C locale. */
static void
num(struct buf *b, double v)
{
	add_tenths(b, round_half_away(v * 10), true);
}

static void
attr_num(struct buf *b, const char *name, double v)
{
	buf_addc(b, ' ');
	buf_adds(b, name);
	buf_adds(b, "=\"");
	num(b, v);
	buf_addc(b, '"');
}

static void
attr_color(struct buf *b, const char *name, struct rgb c)
{
	char hex[8];
	color_hex(c, hex);
	/* Per frame: appends, not printf (a tenth of the instructions). */
	buf_addc(b, ' ');
	buf_adds(b, name);
	buf_adds(b, "=\"");
	buf_add(b, hex, 7);
	buf_addc(b, '"');
}

/* FNV-1a step over a 64-bit value. */
static uint64_t
mix(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		h ^= (v >> (8 * i)) & 0xFF;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/*
 * The id prefix: a hash of what is drawn (names, counts, geometry), so the
 * same graph always gets the same prefix and two different graphs on one
 * HTML page almost surely do not collide.
 */
/* Frames the written picture shows (hidden ones wait for the script). */
static size_t
shown_count(const struct layout *l)
{
	size_t c = 0;
	for (size_t i = 0; i < l->count; i++) {
		c += !l->boxes[i].hidden;
	}
	return c;
}

static void
id_prefix(const struct layout *l, char out[16])
{
	static const char hex[] = "0123456789abcdef";
	const struct tree *t = l->tree;
	uint64_t h = 0xcbf29ce484222325ULL;
	h = mix(h, (uint64_t)(l->width * 10));
	h = mix(h, (uint64_t)(l->height * 10));
	h = mix(h, shown_count(l));
	for (size_t i = 0; i < l->count; i++) {
		const struct layout_box *box = &l->boxes[i];
		if (box->hidden) {
			continue; /* what is drawn, as before hidden frames were written */
		}
		const struct tree_node *n = tree_node(t, box->node);
		size_t len;
		const char *name = tree_node_name(t, n, &len);
		h = mix(h, hash_stable(name, len));
		struct count base = tree_node_total(t, n, SIDE_BASE),
		             head = tree_node_total(t, n, SIDE_HEAD);
		h = mix(h, base.units ^ ((uint64_t)base.nanos << 32));
		h = mix(h, head.units ^ ((uint64_t)head.nanos << 32));
		h = mix(h, ((uint64_t)box->depth << 32) ^ (uint64_t)(box->x * 10));
	}
	out[0] = 'd';
	out[1] = 'f';
	for (int i = 0; i < 8; i++) {
		out[2 + i] = hex[(h >> (60 - 4 * i)) & 0xF];
	}
	out[10] = '-';
	out[11] = '\0';
}

static double label_dy(const struct layout *l);

/* The root element: size, id prefix, and what the script needs to redo labels. */
static void
write_root(struct buf *b, const struct layout *l, const char *prefix)
{
	const struct draw_options *o = l->opt;
	buf_adds(b, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
	            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"");
	attr_num(b, "width", l->width);
	attr_num(b, "height", l->height);
	buf_adds(b, " viewBox=\"0 0 ");
	num(b, l->width);
	buf_addc(b, ' ');
	num(b, l->height);
	buf_printf(b, "\" class=\"difffold\" data-prefix=\"%s\"", prefix);
	buf_printf(b, " data-differential=\"%d\" data-widths=\"%s\"", l->tree->differential ? 1 : 0,
	        draw_options_widths_name(o->widths));
	buf_printf(b, " data-inverted=\"%d\" data-truncate=\"%s\"", o->inverted ? 1 : 0,
	        o->truncate == TRUNCATE_LEFT ? "left" : "right");
	attr_num(b, "data-graph-x", l->graph_x);
	attr_num(b, "data-graph-width", l->graph_width);
	attr_num(b, "data-frame-height", l->frame_height);
	buf_adds(b, " data-char-width=\"");
	buf_add_double(b, layout_char_width(o->font_size), 4);
	buf_adds(b, "\" data-label-pad=\"");
	buf_add_double(b, LAYOUT_LABEL_PAD, 2);
	buf_printf(b, "\" data-color-by=\"%s\"", o->color_by == COLOR_BY_TOTAL ? "total" : "self");
	buf_adds(b, " data-label-dy=\"");
	buf_add_double(b, label_dy(l), 3);
	buf_adds(b, "\" data-countname=\"");
	escs(b, o->countname);
	buf_adds(b, "\" font-family=\"");
	escs(b, o->font_family);
	buf_adds(b, "\"");
	attr_num(b, "font-size", o->font_size);
	if (o->compact && l->tree->differential) {
		buf_adds(b, " data-compact=\"1\""); /* the details line is on the legend's */
	}
	buf_adds(b, ">\n");
}

static void
write_assets(struct buf *b, const char *tag, const char *type, const char *data, size_t len)
{
	buf_printf(b, "<%s type=\"%s\"><![CDATA[\n", tag, type);
	buf_add(b, data, len);
	buf_printf(b, "]]></%s>\n", tag);
}

/* A line of text. anchor: NULL (start), "middle" or "end"; extra: more attributes. */
static void
text_line(struct buf *b, double x, double y, const char *anchor, struct rgb fill, const char *cls,
        const char *extra, const char *s)
{
	buf_adds(b, "<text");
	if (cls) {
		buf_printf(b, " class=\"%s\"", cls);
	}
	attr_num(b, "x", x);
	attr_num(b, "y", y);
	if (anchor) {
		buf_printf(b, " text-anchor=\"%s\"", anchor);
	}
	attr_color(b, "fill", fill);
	if (extra) {
		buf_adds(b, extra);
	}
	buf_addc(b, '>');
	if (s) {
		escs(b, s);
	}
	buf_adds(b, "</text>\n");
}

/* The header lines as the layout wrapped them. */
static void
write_header(struct buf *b, const struct layout *l, struct rgb fg)
{
	static const char *const anchors[] = {
	        [LAYOUT_ANCHOR_START] = NULL,
	        [LAYOUT_ANCHOR_MIDDLE] = "middle",
	        [LAYOUT_ANCHOR_END] = "end",
	};
	buf_adds(b, "<g class=\"header\">\n");
	for (size_t i = 0; i < l->text_count; i++) {
		const struct layout_text *t = &l->texts[i];
		struct buf extra;
		buf_init(&extra);
		if (t->bold) {
			buf_adds(&extra, " font-weight=\"bold\"");
		}
		if (t->size != l->opt->font_size) {
			attr_num(&extra, "font-size", t->size);
		}
		text_line(b, t->x, t->y, anchors[t->anchor], fg, NULL, extra.data, t->text);
		buf_finish(&extra);
	}
	buf_adds(b, "</g>\n");
}

/* One legend entry: its ramp of swatches, palest first, then its label. */
static double
write_legend_entry(struct buf *b, const struct layout *l, const struct caption_legend_entry *e,
        double x, double top, struct rgb fg)
{
	double cw = layout_char_width(l->opt->font_size);
	double sw = l->legend_swatch;
	for (int k = 0; k < e->steps; k++) {
		buf_adds(b, "<rect");
		attr_num(b, "x", x);
		attr_num(b, "y", top);
		attr_num(b, "width", sw);
		attr_num(b, "height", sw);
		attr_color(b, "fill", e->ramp[k]);
		attr_color(b, "stroke", fg);
		buf_adds(b, " stroke-width=\"0.5\"/>\n");
		x += sw;
	}
	x += cw / 2;
	text_line(b, x, l->legend_text_y, NULL, fg, NULL, NULL, e->label);
	return x + ((double)utf8_length(e->label, strlen(e->label)) + LAYOUT_LEGEND_GAP) * cw;
}

static void
write_legend(struct buf *b, const struct layout *l, const struct caption *c, struct rgb fg)
{
	if (c->legend_count == 0 || l->legend_height <= 0) {
		return;
	}
	double cw = layout_char_width(l->opt->font_size);
	/* The swatches centre on the first row's text, as in layout. */
	double top =
	        l->legend_text_y - LAYOUT_LABEL_BASELINE * l->opt->font_size - l->legend_swatch / 2;
	double x = l->graph_x;
	buf_adds(b, "<g class=\"legend\">\n");
	for (size_t i = 0; i < c->legend_count; i++) {
		x = write_legend_entry(b, l, &c->legend[i], x, top, fg);
	}
	if (c->scale) {
		bool own_row = l->legend_scale_y != l->legend_text_y;
		text_line(b, own_row ? l->graph_x : x + cw, l->legend_scale_y, NULL, fg, NULL, NULL,
		        c->scale);
	}
	buf_adds(b, "</g>\n");
}

/*
 * The interactive controls. Search, the case toggle, the match share and
 * the zoom reset mean nothing without script, so they start hidden
 * (display="none") and the script shows what applies; the details line is
 * empty until a hover.
 */
static void
write_controls(struct buf *b, const struct layout *l, struct rgb fg)
{
	static const char hidden[] = " display=\"none\"";
	double right = l->graph_x + l->graph_width;
	double cw = layout_char_width(l->opt->font_size);
	buf_adds(b, "<g class=\"controls\">\n");
	text_line(b, l->graph_x, l->details_y, NULL, fg, "details", NULL, NULL);
	text_line(b, right, l->details_y, "end", fg, "matched", hidden, "Matched: 0.0%");
	text_line(b, l->graph_x, l->title_y, NULL, fg, "reset-zoom", hidden, "Reset zoom");
	text_line(b, right, l->title_y, "end", fg, "case-toggle", hidden, "ic");
	text_line(b, right - 4 * cw, l->title_y, "end", fg, "search-button", hidden, "Search");
	buf_adds(b, "</g>\n");
}

/* Baseline of a label below the top of its box. */
static double
label_dy(const struct layout *l)
{
	return l->frame_height / 2 + LAYOUT_LABEL_BASELINE * l->opt->font_size;
}

static bool
same_rgb(struct rgb a, struct rgb b)
{
	return a.r == b.r && a.g == b.g && a.b == b.b;
}

/*
 * The fill most shown frames share (in a differential graph, unchanged frames'
 * grey): the frames group carries it and those rects omit it, which keeps
 * big graphs small. Boyer-Moore majority vote: one pass, deterministic.
 */
static struct rgb
common_fill(const struct layout *l)
{
	struct rgb best = {0, 0, 0};
	size_t votes = 0;
	for (size_t i = 0; i < l->count; i++) {
		if (l->boxes[i].hidden) {
			continue;
		}
		if (votes == 0) {
			best = l->boxes[i].fill;
			votes = 1;
		} else if (same_rgb(best, l->boxes[i].fill)) {
			votes++;
		} else {
			votes--;
		}
	}
	return best;
}

/*
 * The rows start at graph_y, which the header makes fractional; moving all
 * of them by under half a pixel to a whole start makes every y a short whole
 * number (with a whole frame height), a few bytes on each of many frames.
 */
static double
row_shift(const struct layout *l)
{
	return round(l->graph_y) - l->graph_y;
}

/* Room for the longest frame opening, 65 bytes, copied as one move. */
enum { OPENING_SLOT = 80 };

/*
 * What every frame of a graph shares, worked out once: the frames are most
 * of a big file, and each of these cost a rounding or two a frame.
 */
struct frame_writer {
	struct buf label; /* scratch for one frame's label */
	struct buf height; /* ' height="H"', the same on every rect */
	/* '<g class="frame"[ display="none"] data-status="S" data-base="', by
	 * hidden and status, each in a slot copied whole */
	char opening[2][STATUS_REMOVED + 1][OPENING_SLOT];
	uint8_t opening_len[2][STATUS_REMOVED + 1];
	/* ' y="Y"' of each depth's row, formatted at its first frame */
	struct buf rows;
	struct frame_row {
		double y; /* the box's y it was formatted from */
		size_t at, len; /* in rows; len 0 until formatted */
	} * row;
	/* color_label by fill, a few pow() each: graphs have few fills */
	struct ink {
		struct rgb fill, ink;
		bool set;
	} ink[16];
	double shift; /* row_shift */
	double label_dy; /* label_dy */
	double char_width;
};

static void
frame_writer_init(struct frame_writer *fw, const struct layout *l)
{
	buf_init(&fw->label);
	buf_init(&fw->height);
	double w, h;
	layout_frame_size(l, 0, &w, &h);
	attr_num(&fw->height, "height", h);
	buf_reserve(&fw->height, 32); /* for put_fixed */
	memset(fw->opening, 0, sizeof(fw->opening));
	for (int hidden = 0; hidden < 2; hidden++) {
		for (int s = STATUS_SAME; s <= STATUS_REMOVED; s++) {
			int n = snprintf(fw->opening[hidden][s], OPENING_SLOT,
			        "<g class=\"frame\"%s data-status=\"%s\" data-base=\"",
			        hidden ? " display=\"none\"" : "",
			        tree_status_name((enum node_status)s));
			fw->opening_len[hidden][s] = (uint8_t)n;
		}
	}
	buf_init(&fw->rows);
	fw->row = xcalloc(l->max_depth + 1, sizeof(*fw->row));
	fw->shift = row_shift(l);
	fw->label_dy = label_dy(l);
	fw->char_width = layout_char_width(l->opt->font_size);
	memset(fw->ink, 0, sizeof(fw->ink));
}

static void
frame_writer_finish(struct frame_writer *fw)
{
	buf_finish(&fw->label);
	buf_finish(&fw->height);
	buf_finish(&fw->rows);
	free(fw->row);
}

/*
 * The frames are written through a cursor, into room reserved once for a
 * stretch of appends of known most length: buf's appends check the room
 * and restore the NUL each, and as a char store may alias the buf, the
 * compiler reloads it after every one. room() gives the cursor, done()
 * takes it back into the buf (for a call that appends through the buf).
 */
/*
 * The end of the room room() gave last. The budgets are counted by hand,
 * so every build, the release build the tests use included, checks at
 * each done() that the cursor did not go past it: 12 instructions a frame
 * (0.3 % of the 1 MB pair's, see docs/performance.md). SVG is written on
 * one thread.
 */
static const char *room_end;

/* A budget was wrong: the bytes past the room are already written. */
__attribute__((noinline, cold, noreturn)) static void
overrun(void)
{
	fputs("difffold: internal error: the SVG writer wrote past its room\n", stderr);
	out_remove_temps();
	abort();
}

#define ROOM_CHECK(end)                                                                            \
	do {                                                                                       \
		if (__builtin_expect((const char *)(end) > room_end, 0)) {                         \
			overrun();                                                                 \
		}                                                                                  \
	} while (0)

/* Past the room: a put_fixed's 32-byte move from a cursor at its end stays in the buf. */
#define ROOM_SLACK 32

static char *
room(struct buf *b, size_t n)
{
	if (b->len + n + ROOM_SLACK >= b->cap) {
		buf_reserve(b, n + ROOM_SLACK);
	}
	room_end = b->data + b->len + n;
	return b->data + b->len;
}

static void
done(struct buf *b, char *p)
{
	ROOM_CHECK(p);
	buf_setlen(b, (size_t)(p - b->data));
}

static char *
put(char *p, const void *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

#define PUT(p, lit) put(p, lit, sizeof(lit) - 1)

/*
 * The most bytes from the frame's opening to its title's: the opening's
 * slot, 58 of literals, four counts, and 32 for a count copied whole.
 */
enum { FRAME_HEAD_ROOM = OPENING_SLOT + 58 + 4 * COUNT_CHARS + 32 };

/* A normalised count, through the buf: out of line, as put_huge_tenths below. */
__attribute__((noinline, cold)) static char *
put_scaled(struct buf *b, char *p, size_t rest, double v)
{
	done(b, p);
	buf_add_double(b, v, 3);
	return room(b, rest);
}

/*
 * A count as data attributes carry it: exact (at most COUNT_CHARS), or
 * scaled when normalised, through the buf (then `rest` is reserved again).
 */
static char *
put_value(struct buf *b, char *p, size_t rest, const struct tree *t, const struct tree_node *n,
        enum side side, bool self)
{
	if (side == SIDE_BASE && t->normalized) {
		return put_scaled(b, p, rest, tree_value(t, n, side, self));
	}
	return count_put(p, self ? tree_node_self(t, n, side) : tree_node_total(t, n, side));
}

/*
 * n bytes from `from`, as one fixed 32-byte move when n <= 32: a call to
 * memcpy for each short string cost more than the copy. The caller makes
 * sure 32 bytes can be read at from and written at p, and do not overlap
 * (the budgets count 32 for each such copy, which done() then checks).
 */
static char *
put_fixed(char *p, const char *from, size_t n)
{
	if (n <= 32) {
		memcpy(p, from, 32);
	} else {
		memcpy(p, from, n);
	}
	return p + n;
}

/*
 * A self count: most are zero or, at the leaves, the total just written at
 * [at, at + len), which put_value would write again the same.
 */
static char *
put_self(struct buf *b, char *p, const struct tree *t, const struct tree_node *n, enum side side,
        size_t at, size_t len)
{
	struct count self = tree_node_self(t, n, side);
	if (count_is_zero(self)) {
		*p++ = '0';
		return p;
	}
	if (count_cmp(self, tree_node_total(t, n, side)) == 0) {
		return put_fixed(p, b->data + at, len); /* 33 bytes or more back */
	}
	return put_value(b, p, FRAME_HEAD_ROOM, t, n, side, true);
}

/*
 * put_tenths through the buf: out of line, so that the common case needs
 * no registers saved.
 */
__attribute__((noinline, cold)) static char *
put_huge_tenths(struct buf *b, char *p, size_t rest, double tenths)
{
	done(b, p);
	add_tenths(b, tenths, false);
	return room(b, rest);
}

/* Whole tenths (add_tenths without the lead zero), or through the buf if huge. */
static char *
put_tenths(struct buf *b, char *p, size_t rest, double tenths)
{
	if (fabs(tenths) < 1e15) {
		return write_tenths(p, tenths, false);
	}
	return put_huge_tenths(b, p, rest, tenths);
}

static struct rgb
label_ink(struct frame_writer *fw, struct rgb fill)
{
	struct ink *k = &fw->ink[(fill.r ^ fill.g * 3u ^ fill.b * 5u) % 16];
	if (!k->set || !same_rgb(k->fill, fill)) {
		*k = (struct ink){.fill = fill, .ink = color_label(fill), .set = true};
	}
	return k->ink;
}

/* ' y="Y"' of a box's row, the same on every frame of the row, formatted once. */
static const struct frame_row *
row_of(const struct layout_box *box, struct frame_writer *fw)
{
	struct frame_row *r = &fw->row[box->depth];
	if (r->len == 0) {
		r->y = box->y;
		r->at = fw->rows.len;
		attr_num(&fw->rows, "y", box->y + fw->shift);
		r->len = fw->rows.len - r->at;
		buf_reserve(&fw->rows, 32); /* for put_fixed */
	}
	return r;
}

/* One frame, in image coordinates like everything else. */
static void
write_frame(struct buf *b, const struct layout *l, const struct layout_box *box,
        struct rgb inherited, struct frame_writer *fw)
{
	struct buf *label = &fw->label;
	const struct tree *t = l->tree;
	const struct tree_node *n = tree_node(t, box->node);
	char *p = room(b, FRAME_HEAD_ROOM);
	memcpy(p, fw->opening[box->hidden][box->status], OPENING_SLOT);
	p += fw->opening_len[box->hidden][box->status];
	/* The title repeats the two totals: formatted once, copied after. */
	size_t base_at = (size_t)(p - b->data);
	p = put_value(b, p, FRAME_HEAD_ROOM, t, n, SIDE_BASE, false);
	size_t base_len = (size_t)(p - b->data) - base_at;
	p = PUT(p, "\" data-head=\"");
	size_t head_at = (size_t)(p - b->data);
	p = put_value(b, p, FRAME_HEAD_ROOM, t, n, SIDE_HEAD, false);
	size_t head_len = (size_t)(p - b->data) - head_at;
	p = PUT(p, "\" data-base-self=\"");
	p = put_self(b, p, t, n, SIDE_BASE, base_at, base_len);
	p = PUT(p, "\" data-head-self=\"");
	p = put_self(b, p, t, n, SIDE_HEAD, head_at, head_len);
	if (t->runs) {
		done(b, p);
		svg_interval_attr(b, t->runs, box->node, l->opt->color_by == COLOR_BY_TOTAL);
		p = room(b, FRAME_HEAD_ROOM);
	}
	if (match_of(t, box->node)) { /* matching across builds */
		p = PUT(p, "\"");
		done(b, p);
		svg_match_attrs(b, t, box->node);
		p = room(b, FRAME_HEAD_ROOM);
		p = PUT(p, "><title>");
	} else {
		p = PUT(p, "\"><title>");
	}
	done(b, p);
	size_t len;
	const char *name = tree_node_name(t, n, &len);
	escape_xml(b, name, len);
	/* From the title's end to the rect's: the copies of the counts (each
	 * 32 bytes or more past the first), the row and height strings, 32
	 * more for each of these four copied whole, and 96 for the rest: 46
	 * of literals, two tenths of up to 23, a fill. */
	const struct frame_row *r = row_of(box, fw);
	size_t rest = 96 + 4 * 32 + base_len + head_len + r->len + fw->height.len;
	p = room(b, rest);
	*p++ = '\n';
	/* The tooltip's second line, for viewers that show <title> without
	 * script: "base→head" counts (one count for a single profile), the
	 * data attributes' again. Tight on purpose: it is on every frame, and
	 * the script's details line says the rest in words. */
	if (t->differential) {
		p = put_fixed(p, b->data + base_at, base_len);
		p = PUT(p, "\xE2\x86\x92"); /* U+2192 RIGHTWARDS ARROW */
	}
	p = put_fixed(p, b->data + head_at, head_len);
	if (match_of(t, box->node)) { /* matching across builds */
		done(b, p);
		svg_match_title(b, t, box->node);
		p = room(b, rest);
	}
	/* Both edges are rounded, so neighbours meet exactly; a frame kept by
	 * --min-width never rounds away to nothing (a hidden one may). */
	double x0 = round_half_away(box->x * 10), x1 = round_half_away((box->x + box->width) * 10);
	if (x1 <= x0 && !box->hidden) {
		x1 = x0 + 1;
	}
	p = PUT(p, "</title><rect x=\"");
	p = put_tenths(b, p, rest, x0);
	*p++ = '"';
	if (r->y == box->y) {
		p = put_fixed(p, fw->rows.data + r->at, r->len);
	} else {
		done(b, p);
		attr_num(b, "y", box->y + fw->shift);
		p = room(b, rest);
	}
	/* The gaps the PNG leaves too (layout_frame_size, which keeps the
	 * width): a whole number of tenths, as both edges are. */
	p = PUT(p, " width=\"");
	p = put_tenths(b, p, rest, x1 - x0);
	*p++ = '"';
	p = put_fixed(p, fw->height.data, fw->height.len);
	if (!same_rgb(box->fill, inherited)) {
		p = PUT(p, " fill=\"");
		color_hex(box->fill, p); /* 7 characters and a NUL */
		p += 7;
		*p++ = '"';
	}
	done(b, p);
	if (match_of(t, box->node)) { /* matching across builds */
		svg_match_outline(b, t, box->node, label_ink(fw, box->fill));
	}
	buf_reset(label);
	layout_label(l, box, fw->char_width, label);
	if (label->len == 0) {
		/* Most frames of a big graph are too narrow for a label; an empty
		 * <text/> keeps them small, and the script positions it on zoom. */
		buf_adds(b, "/><text/></g>");
		return;
	}
	buf_adds(b, "/><text");
	attr_num(b, "x", x0 / 10 + LAYOUT_LABEL_PAD);
	attr_num(b, "y", box->y + fw->shift + fw->label_dy);
	/* Always: the group's fill is the frames' fill, not the ink. */
	attr_color(b, "fill", label_ink(fw, box->fill));
	buf_addc(b, '>');
	escape_xml(b, label->data, label->len);
	buf_adds(b, "</text></g>");
}

/*
 * How many of the frames after frame i have the fill c, looking RUN_AHEAD
 * frames ahead. A run stays open over a frame of another fill (which then
 * carries its own) when its fill comes back that soon; measured on the
 * generated 100 MB pair, four frames ahead comes within 2 % of the fewest
 * bytes a dynamic programme over all fills finds.
 */
enum { RUN_AHEAD = 4 };

static size_t
fill_ahead(const struct layout *l, size_t i, struct rgb c)
{
	size_t count = 0;
	for (size_t j = i + 1; j < l->count && j <= i + RUN_AHEAD; j++) {
		count += same_rgb(l->boxes[j].fill, c);
	}
	return count;
}

static void
write_frames(struct out *o, const struct layout *l, const char *prefix, struct rgb common)
{
	struct frame_writer fw;
	frame_writer_init(&fw, l);
	buf_printf(&o->b, "<g id=\"%sframes\"", prefix);
	attr_color(&o->b, "fill", common);
	buf_printf(&o->b, " data-search-fill=\"%s\">\n", SEARCH_FILL);
	/* Runs of frames (a subtree, mostly) that share another fill get a
	 * group carrying it: 22 bytes for the group against 15 a rect. No
	 * newline between frames: the one in each title already puts every
	 * frame on a line of its own. */
	struct rgb inherited = common;
	bool in_run = false;
	for (size_t i = 0; i < l->count; i++) {
		struct rgb fill = l->boxes[i].fill;
		if (!same_rgb(fill, inherited) && !(in_run && fill_ahead(l, i, inherited) >= 1)) {
			if (in_run) {
				buf_adds(&o->b, "</g>");
				in_run = false;
				inherited = common;
			}
			size_t again = fill_ahead(l, i, fill);
			bool next = i + 1 < l->count && same_rgb(l->boxes[i + 1].fill, fill);
			if (!same_rgb(fill, common) && (next || again >= 2)) {
				buf_adds(&o->b, "<g");
				attr_color(&o->b, "fill", fill);
				buf_adds(&o->b, ">");
				in_run = true;
				inherited = fill;
			}
		}
		write_frame(&o->b, l, &l->boxes[i], inherited, &fw);
		out_maybe_flush(o);
		if (o->error) {
			break; /* past the output limit, or a failed write: the rest goes nowhere */
		}
	}
	if (in_run) {
		buf_adds(&o->b, "</g>");
	}
	buf_adds(&o->b, "\n</g>\n");
	frame_writer_finish(&fw);
}

void
svg_write(struct out *o, const struct layout *l)
{
	const struct draw_options *opt = l->opt;
	const struct caption *c = l->caption;
	char prefix[16];
	id_prefix(l, prefix);
	struct rgb bg = color_background(opt->theme);
	struct rgb fg = color_foreground(opt->theme);
	struct buf *b = &o->b;

	write_root(b, l, prefix);
	buf_adds(b, "<title>");
	escs(b, c->title);
	buf_adds(b, "</title>\n");
	if (opt->notes && *opt->notes) {
		buf_adds(b, "<desc>");
		escs(b, opt->notes);
		buf_adds(b, "</desc>\n");
	}
	buf_adds(b, "<style type=\"text/css\"><![CDATA[\n");
	buf_add(b, svg_css, svg_css_len);
	struct rgb common = common_fill(l);
	svg_theme_style(b, opt->theme, common);
	buf_adds(b, "]]></style>\n");
	buf_adds(b, "<rect class=\"background\"");
	attr_num(b, "width", l->width);
	attr_num(b, "height", l->height);
	attr_color(b, "fill", bg);
	buf_adds(b, "/>\n");
	write_header(b, l, fg);
	svg_markers_write(b, l, prefix, true);
	write_legend(b, l, c, fg);
	write_controls(b, l, fg);
	out_maybe_flush(o);
	write_frames(o, l, prefix, common);
	svg_caps_write(b, l, prefix);
	svg_markers_write(b, l, prefix, false);
	if (!opt->no_javascript) { /* --no-javascript: a static picture */
		write_assets(b, "script", "text/ecmascript", svg_js, svg_js_len);
	}
	buf_adds(b, "</svg>\n");
}
