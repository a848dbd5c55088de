#include "svg_theme.h"

#include "color.h"

static void
add_hex(struct buf *b, struct rgb c)
{
	char hex[8];
	color_hex(c, hex);
	buf_adds(b, hex);
}

void
svg_theme_style(struct buf *b, enum theme theme)
{
	/* svg.css draws the sibling gaps in --difffold-bg. */
	buf_adds(b, ".difffold{--difffold-bg:");
	add_hex(b, color_background(theme));
	buf_adds(b, "}\n");
	if (theme != THEME_AUTO) {
		return;
	}
	/* Written light; a viewer that prefers dark (a browser, or an <img> in
	 * a page, which passes the page's scheme) gets the dark background and
	 * text. Classes, not one rule for all text: frame labels keep theirs. */
	struct rgb bg = color_background(THEME_DARK), fg = color_foreground(THEME_DARK);
	buf_adds(b, "@media (prefers-color-scheme:dark){.difffold{--difffold-bg:");
	add_hex(b, bg);
	buf_adds(b, "}.difffold rect.background{fill:");
	add_hex(b, bg);
	buf_adds(b, "}.difffold g.header>text,.difffold g.legend>text,.difffold "
	            "g.controls>text{fill:");
	add_hex(b, fg);
	buf_adds(b, "}.difffold g.legend>rect{stroke:");
	add_hex(b, fg);
	buf_adds(b, "}}\n");
}
