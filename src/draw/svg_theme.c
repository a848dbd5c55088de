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
svg_theme_style(struct buf *b, enum theme theme, struct rgb common)
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
	buf_adds(b, "}");
	/* A light grey panel of unchanged frames would still glare: the frames
	 * that take the group's fill (no fill of their own, not in a run's
	 * group) turn dark grey, and their labels the ink that reads on it. */
	struct rgb grey = color_diff_step(STATUS_SAME, 1, THEME_LIGHT);
	if (common.r == grey.r && common.g == grey.g && common.b == grey.b) {
		struct rgb dark = color_diff_step(STATUS_SAME, 1, THEME_DARK);
		buf_adds(b, ".difffold g[id$=\"frames\"]{fill:");
		add_hex(b, dark);
		buf_adds(b, "}.difffold g[id$=\"frames\"]>g.frame>rect:not([fill])+text{fill:");
		add_hex(b, color_label(dark));
		buf_adds(b, "}.difffold g.legend>rect[fill=\""); /* its swatch too */
		add_hex(b, grey);
		buf_adds(b, "\"]{fill:");
		add_hex(b, dark);
		buf_adds(b, "}");
	}
	buf_adds(b, "}\n");
}
