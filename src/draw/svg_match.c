/*
 * svg_match: a frame's match in the SVG (see svg_match.h).
 */
#include "svg_match.h"

#include "escape.h"
#include "match.h"
#include "match_outline.h"
#include "match_text.h"

/* Frames of a moved frame's other path in its title. */
#define TITLE_FRAMES 6

void
svg_match_attrs(struct buf *b, const struct tree *t, uint32_t node)
{
	const struct match_entry *e = match_of(t, node);
	if (!e) {
		return;
	}
	buf_adds(b, " data-match=\"");
	buf_adds(b, match_kind_name((enum match_kind)e->kind));
	buf_adds(b, "\" data-match-other=\"");
	/* The other name, or a move's other path. */
	size_t len;
	const char *other = match_other_name(t, e, &len);
	escape_xml(b, other, len);
	buf_addc(b, '"');
}

void
svg_match_title(struct buf *b, const struct tree *t, uint32_t node)
{
	const struct match_entry *e = match_of(t, node);
	if (!e) {
		return;
	}
	struct buf raw;
	buf_init(&raw);
	match_describe(&raw, t, e, TITLE_FRAMES);
	buf_addc(b, '\n');
	escape_xml(b, raw.data, raw.len);
	buf_finish(&raw);
}

void
svg_match_outline(struct buf *b, const struct tree *t, uint32_t node, struct rgb ink)
{
	struct match_outline o;
	if (!match_outline_of(t, node, &o)) {
		return;
	}
	char hex[8];
	color_hex(ink, hex);
	buf_adds(b, " stroke=\"");
	buf_add(b, hex, 7);
	buf_adds(b, "\" stroke-width=\"1\" stroke-dasharray=\"");
	buf_adds(b, o.dasharray);
	buf_addc(b, '"');
}
