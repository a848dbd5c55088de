/*
 * draw_options: what a picture shows and how, the one settings struct of
 * the layout, the caption and both backends (SVG, PNG/PDF). main fills it
 * from the command line (settings.h); the drawing code never sees the
 * rest of the command line. Strings are borrowed and must outlive the
 * layout made from them.
 */
#ifndef DIFFFOLD_DRAW_OPTIONS_H
#define DIFFFOLD_DRAW_OPTIONS_H

#include <stdbool.h>

enum widths {
	WIDTHS_HEAD,
	WIDTHS_BASE,
	WIDTHS_UNION,
};

enum color_by {
	COLOR_BY_SELF,
	COLOR_BY_TOTAL,
};

enum truncate {
	TRUNCATE_RIGHT, /* keep the start of a name: "very_long_fu.." */
	TRUNCATE_LEFT, /* keep the end: "..ng_function" */
};

enum theme {
	THEME_LIGHT,
	THEME_DARK,
	/* The SVG follows the viewer's prefers-color-scheme (light as written,
	 * dark by a media rule); PNG and PDF, drawn once, are light. */
	THEME_AUTO,
};

struct transform;

struct draw_options {
	enum widths widths;
	double min_width; /* pixels, or a percentage with min_width_percent */
	bool min_width_percent;
	bool inverted;
	double width;
	double frame_height;
	double font_size;
	const char *font_family;
	const char *title, *subtitle; /* NULL or empty: the default, none */
	const char *countname, *notes; /* "samples"; NULL or empty: none */
	const char *input_note; /* how the inputs' stacks were made, or NULL */
	const char *base_label, *head_label;
	enum truncate truncate;
	enum color_by color_by;
	const char *palette; /* single-profile palette, one of color_palettes */
	enum theme theme;
	double scale; /* PNG pixel density */
	bool no_javascript; /* an SVG without its script: no zoom, search or details */
	/* --max-depth: frames deeper than this are not drawn (counted in the
	 * header); 0 is the root alone. */
	unsigned max_depth;
	/* A header for a pull-request comment (--preset comment): the totals
	 * and rules in one line, the largest changes two to a line. */
	bool compact;
	/* The transforms that rewrote the stacks, for the caption (NULL: none). */
	const struct transform *transform;
};

/* The --widths value as the command line spells it: "head", "base", "union". */
static inline const char *
draw_options_widths_name(enum widths w)
{
	switch (w) {
	case WIDTHS_BASE:
		return "base";
	case WIDTHS_UNION:
		return "union";
	case WIDTHS_HEAD:
		break;
	}
	return "head";
}

#endif
