/*
 * The header's largest changes, placed: each row is its letter's badge,
 * the change, the counts and the (short) name, in columns; a compact
 * header (--preset comment) puts two rows on a line and leaves the counts
 * out, so five rows take three lines.
 */
#include "layout_private.h"

#include <string.h>

#include "caption.h"
#include "utf8.h"
#include "xalloc.h"

/* Characters a row's badge takes, with the gap after it. */
#define BADGE_CHARS 3
/* Characters of a row's name kept before a note is shortened or left out. */
#define NAME_KEPT 16

static size_t
chars_of(const char *s)
{
	return s ? utf8_length(s, strlen(s)) : 0;
}

/* The widest cell of a column of the largest-changes block. */
static size_t
column_chars(const struct caption *c, bool counts)
{
	size_t m = 0;
	for (size_t i = 0; i < c->change_count; i++) {
		size_t n = chars_of(counts ? c->changes[i].counts : c->changes[i].change);
		m = n > m ? n : m;
	}
	return m;
}

/* The badge before a header row whose baseline is `baseline`. */
static void
add_badge(struct layout *l, const struct caption_change *r, size_t row, double x, double baseline)
{
	if (!r->marker[0]) {
		return;
	}
	double h = layout_marker_badge_size(l);
	l->markers = xrealloc(l->markers, (l->marker_count + 1) * sizeof(*l->markers));
	struct layout_marker *m = &l->markers[l->marker_count++];
	memset(m, 0, sizeof(*m));
	memcpy(m->letter, r->marker, sizeof(m->letter));
	m->row = (uint32_t)row;
	m->node = r->frame;
	m->in_header = true;
	m->w = m->h = h;
	m->x = m->x0 = m->x1 = x;
	m->y = m->y0 = m->y1 = baseline - LAYOUT_LABEL_BASELINE * l->opt->font_size - h / 2;
}

/*
 * The name as the row writes it into `out`: the short name, cut to
 * `room` characters, then the note ("moved ...") kept whole when it fits.
 */
static void
row_name(const struct layout *l, const struct caption_change *r, size_t room, struct buf *out)
{
	const char *name = r->short_name ? r->short_name : r->name;
	size_t len = strlen(name), chars = utf8_length(name, len);
	/* The note whole, else its first word ("moved"), while the name keeps
	 * NAME_KEPT characters (or all it has). */
	size_t kept = chars < NAME_KEPT ? chars : NAME_KEPT;
	size_t note = r->note ? chars_of(r->note) : 0;
	if (note > 0 && room < kept + note + 3) {
		const char *space = strchr(r->note, ' ');
		note = space && strcmp(r->note, "not drawn") != 0 ? (size_t)(space - r->note)
		                                                  : note;
	}
	if (note > 0 && room >= kept + note + 3) {
		room -= note + 3;
	} else {
		note = 0;
	}
	buf_reset(out);
	if (chars <= room) {
		buf_add(out, name, len);
	} else if (room >= 2) {
		layout_add_cut(l, name, len, chars, room - 1, out);
	}
	if (note > 0) {
		buf_adds(out, " (");
		buf_add(out, r->note, note);
		buf_addc(out, ')');
	}
}

/* One row from x: badge, change right-aligned in c1, maybe counts, name. */
static void
add_row(struct layout *l, size_t *cap, size_t i, double x, size_t c1, size_t c2, size_t name_room,
        struct layout_text t, struct buf *name)
{
	const struct caption_change *r = &l->caption->changes[i];
	double cw = layout_text_char_width(t.size);
	add_badge(l, r, i, x, t.y);
	t.anchor = LAYOUT_ANCHOR_END;
	t.x = x + (double)(BADGE_CHARS + c1) * cw;
	layout_push_text(l, cap, r->change, strlen(r->change), &t);
	if (c2 > 0) {
		t.x += (double)(2 + c2) * cw;
		layout_push_text(l, cap, r->counts, strlen(r->counts), &t);
	}
	t.anchor = LAYOUT_ANCHOR_START;
	t.x += (c2 > 0 ? 2 : 1) * cw;
	row_name(l, r, name_room, name);
	layout_push_text(l, cap, name->data, name->len, &t);
}

void
layout_add_changes(struct layout *l, size_t *cap, double *y)
{
	const struct caption *c = l->caption;
	double fs = l->opt->font_size, cw = layout_text_char_width(fs);
	size_t room = layout_line_chars(l, l->graph_width, fs);
	size_t c1 = column_chars(c, false);
	size_t c2 = column_chars(c, true);
	size_t fixed = BADGE_CHARS + c1 + c2 + 4;
	if (c->change_count == 0 || fixed + 1 + LAYOUT_LABEL_MIN_CHARS > room) {
		return;
	}
	bool compact = l->opt->compact;
	double step = (compact ? LAYOUT_COMPACT_LINE : LAYOUT_TEXT_LINE) * fs;
	struct layout_text t = {.size = fs, .x = l->graph_x, .anchor = LAYOUT_ANCHOR_START};
	/* Compact: two rows a line, without the counts, each in half the room. */
	size_t half = room / 2 - 1;
	size_t per_line = compact && half >= BADGE_CHARS + c1 + 2 + 12 ? 2 : 1;
	if (per_line == 1 || !compact) {
		layout_add_wrapped(l, cap, c->changes_title, room, t, step, step * 0.75, y);
	}
	size_t name_room = per_line == 2 ? half - BADGE_CHARS - c1 - 1 : room - fixed;
	struct buf name;
	buf_init(&name);
	for (size_t i = 0; i < c->change_count; i++) {
		size_t col = i % per_line;
		t.y = *y + step * 0.75;
		add_row(l, cap, i, l->graph_x + (double)(col * (half + 2)) * cw, c1,
		        per_line == 2 ? 0 : c2, name_room, t, &name);
		if (col + 1 == per_line || i + 1 == c->change_count) {
			*y += step;
		}
	}
	buf_finish(&name);
}
