#include "png.h"

#include <cairo-pdf.h>
#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "caption.h"
#include "color.h"
#include "escape.h"
#include "locate.h"
#include "match_outline.h"
#include "png_marks.h"
#include "numfmt.h"
#include "utf8.h"
#include "xalloc.h"

/* Set by fonts/meson.build; the fallbacks only keep odd builds compiling. */
#ifndef DIFFFOLD_FONTS_CONF_INSTALLED
#define DIFFFOLD_FONTS_CONF_INSTALLED "/usr/local/share/difffold/fonts/difffold-fonts.conf"
#endif
#ifndef DIFFFOLD_FONTS_CONF_RELATIVE
#define DIFFFOLD_FONTS_CONF_RELATIVE "../share/difffold/fonts/difffold-fonts.conf"
#endif
#ifndef DIFFFOLD_FONTS_CONF_SOURCE
#define DIFFFOLD_FONTS_CONF_SOURCE ""
#endif

/* cairo's image surfaces hold at most this many pixels a side. */
#define MAX_SIDE 32767
/* And difffold draws at most this many (1 GiB of RGB24), so --width 100000
 * with a deep graph cannot exhaust memory. */
#define MAX_PIXELS ((double)(1 << 28))
/* The family asked of the private fontconfig; the config maps it. */
#define FONT_FAMILY "difffold-mono"
#define REQUIRED_FAMILY "DejaVu Sans Mono"
#define MISSING_FONT                                                                               \
	"PNG/PDF output needs the font DejaVu Sans Mono: install the Debian package "              \
	"fonts-dejavu-core"

/* The pango side of drawing, built on a private fontconfig configuration. */
struct png_fonts {
	const struct layout *l;
	FcConfig *config;
	PangoFontMap *map;
	PangoContext *context;
	PangoLayout *text;
	PangoFontDescription *regular, *bold;
	double char_width; /* measured widest advance of a label character at font_size */
	double line_height; /* measured height of a line at font_size */
	struct buf label_text; /* scratch: a label as pango takes it */
};

/* What is drawn where, after cairo's limits have had their say. */
struct plan {
	double scale; /* device pixels per layout pixel */
	double height; /* layout pixels */
	int device_width, device_height;
	uint32_t cut; /* boxes with depth >= cut are not drawn */
	double shift; /* added to every box's y once the graph is cut */
	bool pixel_snap; /* align edges to device pixels (bitmaps only) */
	struct buf note; /* why the picture differs from the layout, or empty */
};

struct painter {
	cairo_t *cr;
	const struct layout *l;
	const struct plan *plan;
	struct png_fonts *fonts;
	struct buf text; /* scratch: sanitised UTF-8 for pango */
	struct buf label; /* scratch: a frame's label from layout_label */
};

static bool
readable(const char *path)
{
	return path && *path && access(path, R_OK) == 0;
}

/*
 * The fontconfig file: $DIFFFOLD_FONTS_CONF (alone, when set), else the
 * copy beside the binary (locate.h). Returns an owned path or NULL.
 */
static char *
find_fonts_conf(void)
{
	const char *env = getenv("DIFFFOLD_FONTS_CONF");
	if (env && *env) {
		return xstrdup(env);
	}
	return locate_file(DIFFFOLD_FONTS_CONF_SOURCE, DIFFFOLD_FONTS_CONF_RELATIVE,
	        DIFFFOLD_FONTS_CONF_INSTALLED);
}

static bool
family_present(FcConfig *config, const char *family)
{
	FcPattern *pat = FcPatternCreate();
	FcObjectSet *os = FcObjectSetBuild(FC_FAMILY, FC_FILE, (char *)NULL);
	FcPatternAddString(pat, FC_FAMILY, (const FcChar8 *)family);
	FcFontSet *set = FcFontList(config, pat, os);
	bool ok = set && set->nfont > 0;
	if (set) {
		FcFontSetDestroy(set);
	}
	FcObjectSetDestroy(os);
	FcPatternDestroy(pat);
	return ok;
}

/* A private FcConfig from difffold's file, so the user's set-up cannot change pixels. */
static FcConfig *
load_config(struct diag *err)
{
	char *path = find_fonts_conf();
	if (!path) {
		snprintf(err->msg, sizeof(err->msg),
		        "cannot find the font configuration difffold-fonts.conf (looked in %s and "
		        "%s); set DIFFFOLD_FONTS_CONF to its path",
		        DIFFFOLD_FONTS_CONF_INSTALLED, DIFFFOLD_FONTS_CONF_SOURCE);
		return NULL;
	}
	if (!readable(path)) {
		snprintf(err->msg, sizeof(err->msg), "%s: cannot read this font configuration",
		        path);
		free(path);
		return NULL;
	}
	/* fontconfig resolves a relative name against its own folders, not
	 * the working directory the user meant. */
	char *absolute = realpath(path, NULL);
	if (absolute) {
		free(path);
		path = absolute;
	}
	FcConfig *config = FcConfigCreate();
	if (!config || !FcConfigParseAndLoad(config, (const FcChar8 *)path, FcTrue) ||
	        !FcConfigBuildFonts(config)) {
		snprintf(err->msg, sizeof(err->msg), "%s: cannot load this font configuration",
		        path);
		free(path);
		if (config) {
			FcConfigDestroy(config);
		}
		return NULL;
	}
	free(path);
	if (!family_present(config, REQUIRED_FAMILY)) {
		snprintf(err->msg, sizeof(err->msg), "%s", MISSING_FONT);
		FcConfigDestroy(config);
		return NULL;
	}
	return config;
}

static PangoFontDescription *
font_at(double size, PangoWeight weight)
{
	PangoFontDescription *d = pango_font_description_new();
	pango_font_description_set_family(d, FONT_FAMILY);
	pango_font_description_set_weight(d, weight);
	pango_font_description_set_absolute_size(d, size * PANGO_SCALE);
	return d;
}

static void
fonts_release(struct png_fonts *f)
{
	if (f->text) {
		g_object_unref(f->text);
	}
	if (f->context) {
		g_object_unref(f->context);
	}
	if (f->map) {
		/* Finalising the map does not drop its reference on the
		 * configuration (pango 1.50); detaching it does. */
		pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(f->map), NULL);
		g_object_unref(f->map);
	}
	if (f->config) {
		FcConfigDestroy(f->config);
	}
	if (f->regular) {
		pango_font_description_free(f->regular);
	}
	if (f->bold) {
		pango_font_description_free(f->bold);
	}
	buf_finish(&f->label_text);
	memset(f, 0, sizeof(*f));
}

void
png_fonts_close(struct png_fonts *f)
{
	if (f) {
		fonts_release(f);
		free(f);
	}
}

/*
 * Measured, not assumed: the widest advance, in the drawing's own context,
 * of the characters labels are mostly made of (the change suffix, the cut
 * marker, the punctuation of qualified names).
 */
static double
measure_char_width(struct png_fonts *f)
{
	static const char *const samples[] = {"0123456789", "+-%.,", "\xe2\x80\xa6",
	        "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "_:<>()[]&*~/@$#"};
	pango_layout_set_font_description(f->text, f->regular);
	pango_layout_set_ellipsize(f->text, PANGO_ELLIPSIZE_NONE);
	pango_layout_set_width(f->text, -1);
	double widest = 0;
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		pango_layout_set_text(f->text, samples[i], -1);
		int w = 0, h = 0;
		pango_layout_get_size(f->text, &w, &h);
		f->line_height = (double)h / PANGO_SCALE;
		double n = (double)utf8_length(samples[i], strlen(samples[i]));
		widest = fmax(widest, (double)w / PANGO_SCALE / n);
	}
	return widest;
}

struct png_fonts *
png_fonts_open(const struct layout *l, struct diag *err)
{
	struct png_fonts *f = xcalloc(1, sizeof(*f));
	f->l = l;
	buf_init(&f->label_text);
	f->config = load_config(err);
	if (!f->config) {
		png_fonts_close(f);
		return NULL;
	}
	f->map = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT);
	if (!f->map || !PANGO_IS_FC_FONT_MAP(f->map)) {
		snprintf(err->msg, sizeof(err->msg), "pango has no fontconfig font map: %s",
		        MISSING_FONT);
		png_fonts_close(f);
		return NULL;
	}
	/* The font map takes its own reference on the configuration. */
	pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(f->map), f->config);
	f->context = pango_font_map_create_context(f->map);
	cairo_font_options_t *fo = cairo_font_options_create();
	cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
	cairo_font_options_set_subpixel_order(fo, CAIRO_SUBPIXEL_ORDER_DEFAULT);
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_SLIGHT);
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	pango_cairo_context_set_font_options(f->context, fo);
	cairo_font_options_destroy(fo);
	/* Whole-pixel glyph positions would draw DejaVu Sans Mono's 0.602 em
	 * at 8 px instead of 7.83 at 13 px, and labels fitted to the font's
	 * own advances (as the SVG's are) would run off their frames. */
	pango_context_set_round_glyph_positions(f->context, FALSE);
	f->text = pango_layout_new(f->context);
	pango_layout_set_single_paragraph_mode(f->text, TRUE);
	f->regular = font_at(l->opt->font_size, PANGO_WEIGHT_NORMAL);
	f->bold = font_at(l->title_size > 0 ? l->title_size : l->opt->font_size, PANGO_WEIGHT_BOLD);
	f->char_width = measure_char_width(f);
	return f;
}

void
png_fonts_target(struct png_fonts *f, cairo_t *cr)
{
	pango_cairo_update_context(cr, f->context);
	pango_layout_context_changed(f->text);
	f->char_width = measure_char_width(f);
}

/*
 * Appends s to out with every invalid byte replaced by U+FFFD, as pango needs.
 * Noncharacters (U+FDD0..U+FDEF, U+xFFFE, U+xFFFF) are replaced too: cairo's
 * PDF backend rejects them as "not valid UTF-8" and fails the whole page.
 * Invisible and direction-changing code points become the marker (escape.h).
 */
static void
add_valid_utf8(struct buf *out, const char *s, size_t len)
{
	size_t i = 0;
	while (i < len) {
		uint32_t cp = 0;
		size_t k = utf8_decode(s + i, len - i, &cp);
		bool nonchar = (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE;
		if (k == 0 || cp == 0 || nonchar) {
			utf8_encode(out, 0xFFFD);
			i += k ? k : 1;
			continue;
		}
		if (escape_is_invisible(cp)) {
			/* pango would obey a direction override: evil<U+202E>fdp.exe
			 * would draw as evilexe.pdf. The marker, as in every output. */
			escape_add_marker(out, cp);
			i += k;
			continue;
		}
		buf_add(out, s + i, k);
		i += k;
	}
}

static void
set_source(cairo_t *cr, struct rgb c)
{
	cairo_set_source_rgb(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0);
}

enum align {
	ALIGN_LEFT,
	ALIGN_CENTER,
	ALIGN_RIGHT,
};

/*
 * Shows s with its baseline at y, anchored at x by `align`, cut with an
 * ellipsis to max_width when that is positive. Returns the drawn width.
 */
static double
show_text(struct painter *p, const char *s, PangoFontDescription *font, double x, double y,
        enum align align, double max_width)
{
	PangoLayout *t = p->fonts->text;
	buf_reset(&p->text);
	add_valid_utf8(&p->text, s, strlen(s));
	pango_layout_set_font_description(t, font);
	pango_layout_set_ellipsize(t, max_width > 0 ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);
	pango_layout_set_width(t, max_width > 0 ? (int)(max_width * PANGO_SCALE) : -1);
	pango_layout_set_text(t, p->text.data, (int)p->text.len);
	int w = 0;
	pango_layout_get_size(t, &w, NULL);
	double width = (double)w / PANGO_SCALE;
	if (align == ALIGN_CENTER) {
		x -= width / 2;
	} else if (align == ALIGN_RIGHT) {
		x -= width;
	}
	double baseline = (double)pango_layout_get_baseline(t) / PANGO_SCALE;
	cairo_move_to(p->cr, x, y - baseline);
	pango_cairo_show_layout(p->cr, t);
	return width;
}

/* Rounds a layout coordinate to the device pixel grid when snapping. */
static double
snap(const struct painter *p, double v)
{
	if (!p->plan->pixel_snap) {
		return v;
	}
	return round(v * p->plan->scale) / p->plan->scale;
}

/*
 * Fills a rectangle whose edges sit on device pixels, so frames are crisp
 * and neighbours meet without a seam; one too thin to survive rounding
 * is drawn as it is instead.
 */
static void
fill_rect(struct painter *p, double x, double y, double w, double h)
{
	double x0 = snap(p, x), x1 = snap(p, x + w);
	double y0 = snap(p, y), y1 = snap(p, y + h);
	if (x1 <= x0) {
		x0 = x;
		x1 = x + w;
	}
	if (y1 <= y0) {
		y0 = y;
		y1 = y + h;
	}
	cairo_rectangle(p->cr, x0, y0, x1 - x0, y1 - y0);
	cairo_fill(p->cr);
}

/* The header lines as the layout wrapped them, and the plan's note. */
static void
draw_header(struct painter *p, struct rgb fg)
{
	static const enum align aligns[] = {
	        [LAYOUT_ANCHOR_START] = ALIGN_LEFT,
	        [LAYOUT_ANCHOR_MIDDLE] = ALIGN_CENTER,
	        [LAYOUT_ANCHOR_END] = ALIGN_RIGHT,
	};
	const struct layout *l = p->l;
	set_source(p->cr, fg);
	for (size_t i = 0; i < l->text_count; i++) {
		const struct layout_text *t = &l->texts[i];
		PangoFontDescription *font = t->bold ? p->fonts->bold : p->fonts->regular;
		pango_font_description_set_absolute_size(font, t->size * PANGO_SCALE);
		show_text(p, t->text, font, t->x, t->y, aligns[t->anchor], 0);
	}
	pango_font_description_set_absolute_size(
	        p->fonts->regular, l->opt->font_size * PANGO_SCALE);
	if (p->plan->note.len > 0) {
		show_text(p, p->plan->note.data, p->fonts->regular, l->graph_x, l->details_y,
		        ALIGN_LEFT, l->graph_width);
	}
}

/* One legend entry's ramp of swatches, palest first, outlined in fg. */
static double
draw_legend_ramp(struct painter *p, const struct caption_legend_entry *e, double x, double top,
        struct rgb fg)
{
	double sw = p->l->legend_swatch;
	/* An outline one device pixel wide keeps pale swatches visible. */
	double edge = 1.0 / p->plan->scale;
	set_source(p->cr, fg);
	fill_rect(p, x, top, sw * e->steps, sw);
	for (int k = 0; k < e->steps; k++) {
		set_source(p->cr, e->ramp[k]);
		fill_rect(p, x + k * sw + edge, top + edge, sw - 2 * edge, sw - 2 * edge);
	}
	return x + sw * e->steps;
}

static void
draw_legend(struct painter *p, const struct caption *c, struct rgb fg)
{
	const struct layout *l = p->l;
	if (c->legend_count == 0 || l->legend_height <= 0) {
		return;
	}
	double cw = p->fonts->char_width;
	/* The swatches centre on the first row's text, as in layout. */
	double top =
	        l->legend_text_y - LAYOUT_LABEL_BASELINE * l->opt->font_size - l->legend_swatch / 2;
	double x = l->graph_x;
	double right = l->graph_x + l->graph_width;
	for (size_t i = 0; i < c->legend_count && x < right; i++) {
		const struct caption_legend_entry *e = &c->legend[i];
		x = draw_legend_ramp(p, e, x, top, fg) + cw / 2;
		set_source(p->cr, fg);
		if (x >= right) {
			break;
		}
		x += show_text(
		        p, e->label, p->fonts->regular, x, l->legend_text_y, ALIGN_LEFT, right - x);
		x += LAYOUT_LEGEND_GAP * cw;
	}
	bool own_row = l->legend_scale_y != l->legend_text_y;
	double sx = own_row ? l->graph_x : x + cw;
	if (c->scale && sx < right) {
		set_source(p->cr, fg);
		show_text(p, c->scale, p->fonts->regular, sx, l->legend_scale_y, ALIGN_LEFT,
		        right - sx);
	}
}

/* Lays the label out in the label font; returns its advance width in pixels. */
static double
set_label_text(struct png_fonts *f, const struct buf *label)
{
	buf_reset(&f->label_text);
	add_valid_utf8(&f->label_text, label->data, label->len);
	PangoLayout *t = f->text;
	pango_layout_set_font_description(t, f->regular);
	pango_layout_set_ellipsize(t, PANGO_ELLIPSIZE_NONE);
	pango_layout_set_width(t, -1);
	pango_layout_set_text(t, f->label_text.data, (int)f->label_text.len);
	int w = 0;
	pango_layout_get_size(t, &w, NULL);
	return (double)w / PANGO_SCALE;
}

/*
 * The label layout_label makes for the advance the font is drawn at, laid
 * out in f->text. The SVG's 0.6 em comes first, so that both show
 * the same text wherever the font allows it; a label whose drawn width
 * would pass the frame's edge (the padding absorbs 0.002 em a character of
 * DejaVu Sans Mono's 0.602 em, but not of a long label or of wider
 * fallback glyphs) is fitted again to the measured advance. Returns false
 * when no label fits.
 */
bool
png_fonts_fit_label(struct png_fonts *f, const struct layout_box *box, struct buf *label)
{
	const struct layout *l = f->l;
	double cw = layout_char_width(l->opt->font_size);
	for (int tries = 0; tries < 4; tries++) {
		buf_reset(label);
		layout_label(l, box, cw, label);
		if (label->len == 0) {
			return false;
		}
		double drawn = set_label_text(f, label);
		/* A pixel for the frame's edge snapping to the device grid. */
		if (LAYOUT_LABEL_PAD + drawn <= box->width - 1) {
			return true;
		}
		double n = (double)utf8_length(label->data, label->len);
		cw = fmax(fmax(cw, f->char_width), drawn / n) * (1 + tries / 8.0);
	}
	return false;
}

/* The label of a frame, in the colour that reads on its fill. */
static void
draw_label(struct painter *p, const struct layout_box *box, double x, double y)
{
	const struct layout *l = p->l;
	if (!png_fonts_fit_label(p->fonts, box, &p->label)) {
		return;
	}
	PangoLayout *t = p->fonts->text;
	double baseline = (double)pango_layout_get_baseline(t) / PANGO_SCALE;
	set_source(p->cr, color_label(box->fill));
	/* A font taller than the frame would spill into the rows around it. */
	bool clip = p->fonts->line_height > l->frame_height;
	if (clip) {
		cairo_save(p->cr);
		cairo_rectangle(p->cr, x, y, box->width, l->frame_height);
		cairo_clip(p->cr);
	}
	cairo_move_to(p->cr, x + LAYOUT_LABEL_PAD,
	        y + l->frame_height / 2 + LAYOUT_LABEL_BASELINE * l->opt->font_size - baseline);
	pango_cairo_show_layout(p->cr, t);
	if (clip) {
		cairo_restore(p->cr);
	}
}

/* A matched frame outlined as in the SVG (match_outline.h), inside its edges. */
static void
outline(struct painter *p, const struct layout_box *b, double y, double w, double h)
{
	struct match_outline o;
	double half = MATCH_OUTLINE_WIDTH / 2;
	if (!match_outline_of(p->l->tree, b->node, &o) || w <= 2 * MATCH_OUTLINE_WIDTH ||
	        h <= 2 * MATCH_OUTLINE_WIDTH) {
		return;
	}
	double dashes[2] = {o.on, o.off};
	double x = snap(p, b->x);
	y = snap(p, y);
	cairo_save(p->cr);
	set_source(p->cr, color_label(b->fill));
	cairo_set_line_width(p->cr, MATCH_OUTLINE_WIDTH);
	/* Dashes from the frame's corner, so their ends fall on whole pixels. */
	cairo_set_dash(p->cr, dashes, 2, half);
	cairo_rectangle(p->cr, x + half, y + half, w - 2 * half, h - 2 * half);
	cairo_stroke(p->cr);
	cairo_restore(p->cr);
}

/*
 * The frames, with the gaps layout_frame_size leaves between rows. A frame
 * at least SIBLING_GAP_MIN px wide gives up its last pixel, so siblings of
 * the same grey read as two bars (docs/pictures.md#separation); a narrower
 * one keeps all its ink, since a gap would leave nothing of it.
 */
enum { SIBLING_GAP_MIN = 2 };

static void
draw_boxes(struct painter *p)
{
	const struct layout *l = p->l;
	for (size_t i = 0; i < l->count; i++) {
		const struct layout_box *b = &l->boxes[i];
		/* Hidden boxes are for the SVG's view toggle only. */
		if (b->depth >= p->plan->cut || b->hidden) {
			continue;
		}
		double y = b->y + p->plan->shift;
		double w, h;
		layout_frame_size(l, b->width, &w, &h);
		if (w >= SIBLING_GAP_MIN) {
			w -= 1;
		}
		set_source(p->cr, b->fill);
		fill_rect(p, b->x, y, w, h);
		outline(p, b, y, w, h);
		draw_label(p, b, snap(p, b->x), y);
	}
}

static void
draw(struct painter *p)
{
	const struct layout *l = p->l;
	const struct caption *c = l->caption;
	cairo_t *cr = p->cr;
	cairo_scale(cr, p->plan->scale, p->plan->scale);
	png_fonts_target(p->fonts, cr);
	set_source(cr, color_background(l->opt->theme));
	cairo_paint(cr);
	struct rgb fg = color_foreground(l->opt->theme);
	draw_header(p, fg);
	draw_legend(p, c, fg);
	draw_boxes(p);
	const struct png_marks_pen pen = {
	        .cr = cr,
	        .text = p->fonts->text,
	        .regular = p->fonts->regular,
	        .bold = p->fonts->bold,
	        .char_width = p->fonts->char_width,
	        .shift = p->plan->shift,
	        .cut = p->plan->cut,
	        .fg = fg,
	        .bg = color_background(l->opt->theme),
	};
	png_marks_draw(l, &pen);
}

/*
 * Fits the picture into cairo's image limit. Too wide: the scale drops
 * until the width fits. Too tall (or over MAX_PIXELS in all): the graph
 * keeps the rows that fit at that scale (depth 0 up to cut - 1) and the
 * note says so.
 */
static void
plan_bitmap(struct plan *pl, const struct layout *l)
{
	memset(pl, 0, sizeof(*pl));
	buf_init(&pl->note);
	pl->pixel_snap = true;
	pl->cut = UINT32_MAX;
	pl->scale = l->opt->scale;
	pl->height = l->height;
	if (ceil(l->width * pl->scale) > MAX_SIDE) {
		pl->scale = floor(MAX_SIDE / l->width * 1000) / 1000;
		buf_adds(&pl->note, "scale reduced to ");
		buf_add_double(&pl->note, pl->scale, 3);
		buf_adds(&pl->note, " to stay within ");
		numfmt_caption_number(&pl->note, MAX_SIDE);
		buf_adds(&pl->note, " px");
	}
	double fixed = l->height - l->graph_height;
	double max_height = fmin(MAX_SIDE, floor(MAX_PIXELS / ceil(l->width * pl->scale)));
	if (ceil(l->height * pl->scale) > max_height && l->frame_height > 0) {
		double rows = floor((max_height / pl->scale - fixed) / l->frame_height);
		pl->cut = rows < 1 ? 1 : (uint32_t)rows;
		pl->height = fixed + pl->cut * l->frame_height;
		if (!l->opt->inverted) {
			pl->shift = -((double)l->max_depth + 1 - pl->cut) * l->frame_height;
		}
		if (pl->note.len > 0) {
			buf_adds(&pl->note, "; ");
		}
		buf_printf(&pl->note, "graph cut at depth %lu: deeper frames not drawn; use SVG",
		        (unsigned long)pl->cut);
	}
	pl->device_width = (int)fmin(ceil(l->width * pl->scale), MAX_SIDE);
	pl->device_height = (int)fmin(ceil(pl->height * pl->scale), max_height);
}

/*
 * Last resort for drawing. GLib aborts (SIGABRT or SIGTRAP) when an
 * allocation fails, and fontconfig may crash on a NULL it did not expect;
 * none of them can report running out of memory to us. So from the first
 * PNG or PDF on, those signals remove the temporary output files, print one
 * line and exit 1. The handlers stay for the rest of the run: pango's
 * worker threads (FcInit and the like) go on after a drawing returns. The
 * main thread's handler runs on its own stack (stack overflows too), calls
 * only async-signal-safe functions, and acts alone when threads crash at
 * once. Fuzz builds install none: libFuzzer keeps a crashing input.
 */
static const int crash_signals[] = {SIGABRT, SIGTRAP, SIGSEGV, SIGBUS};
#define CRASH_COUNT (sizeof(crash_signals) / sizeof(crash_signals[0]))

static const char *volatile crash_message = "";
static atomic_flag crashing = ATOMIC_FLAG_INIT;
static char crash_stack[64 << 10];

static void
on_crash(int sig)
{
	(void)sig;
	if (atomic_flag_test_and_set(&crashing)) {
		for (;;) {
			pause(); /* another thread is already cleaning up and exiting */
		}
	}
	out_remove_temps();
	const char *m = crash_message;
	(void)!write(STDERR_FILENO, m, strlen(m));
	_exit(1);
}

static void
catch_crashes(const char *message)
{
	static bool installed;
	crash_message = message;
#ifdef DIFFFOLD_FUZZING
	installed = true;
#endif
	if (installed) {
		return;
	}
	installed = true;
	stack_t st = {.ss_sp = crash_stack, .ss_size = sizeof(crash_stack)};
	sigaltstack(&st, NULL);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_ONSTACK;
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < CRASH_COUNT; i++) {
		sigaction(crash_signals[i], &sa, NULL);
	}
}

/*
 * The watchdog of the font set-up. pango starts fontconfig on a thread of
 * GLib's pool and waits for it without a timeout (room_to_draw below);
 * under memory pressure the thread may never run, or fontconfig may never
 * finish, and nothing reports it. The set-up takes milliseconds (a second
 * or two with a cold font cache): past FONT_SETUP_SECONDS, SIGALRM takes
 * on_crash's way out. Drawing itself is not timed: it may take long.
 */
#define FONT_SETUP_SECONDS 30

static struct png_fonts *
fonts_open_watched(const struct layout *l, const char *stuck, struct diag *err)
{
	struct sigaction sa, old;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_crash;
	sigfillset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, &old);
	const char *crashed = crash_message;
	crash_message = stuck;
	unsigned before = alarm(FONT_SETUP_SECONDS);
	struct png_fonts *f = png_fonts_open(l, err);
	alarm(0);
	crash_message = crashed;
	sigaction(SIGALRM, &old, NULL);
	if (before) {
		alarm(before);
	}
	return f;
}

static cairo_status_t
write_to_out(void *closure, const unsigned char *data, unsigned int length)
{
	struct out *o = closure;
	buf_add(&o->b, data, length);
	out_maybe_flush(o);
	return o->error ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

static bool
cairo_failed(cairo_status_t s, const char *what, struct diag *err)
{
	if (s == CAIRO_STATUS_SUCCESS) {
		return false;
	}
	snprintf(err->msg, sizeof(err->msg), "%s: %s", what, cairo_status_to_string(s));
	return true;
}

/* Draws onto a fresh surface; false with err set when cairo reports an error. */
static bool
paint_surface(cairo_surface_t *s, const struct layout *l, const struct plan *pl,
        struct png_fonts *f, const char *what, struct diag *err)
{
	if (cairo_failed(cairo_surface_status(s), what, err)) {
		return false;
	}
	cairo_t *cr = cairo_create(s);
	struct painter p = {.cr = cr, .l = l, .plan = pl, .fonts = f};
	buf_init(&p.text);
	buf_init(&p.label);
	draw(&p);
	buf_finish(&p.text);
	buf_finish(&p.label);
	cairo_status_t st = cairo_status(cr);
	cairo_destroy(cr);
	cairo_surface_flush(s);
	if (st == CAIRO_STATUS_SUCCESS) {
		st = cairo_surface_status(s);
	}
	return !cairo_failed(st, what, err);
}

static bool
draw_png(struct out *o, const struct layout *l, struct diag *err)
{
	struct png_fonts *f = fonts_open_watched(l,
	        "difffold: out of memory, a crash, or no progress in 30 s while setting up "
	        "the fonts to draw the PNG\n",
	        err);
	if (!f) {
		return false;
	}
	struct plan pl;
	plan_bitmap(&pl, l);
	cairo_surface_t *s =
	        cairo_image_surface_create(CAIRO_FORMAT_RGB24, pl.device_width, pl.device_height);
	char what[96];
	snprintf(what, sizeof(what), "cannot draw a %d x %d PNG image", pl.device_width,
	        pl.device_height);
	bool ok = paint_surface(s, l, &pl, f, what, err);
	if (ok) {
		cairo_status_t st = cairo_surface_write_to_png_stream(s, write_to_out, o);
		ok = !cairo_failed(st, "cannot write the PNG image", err);
	}
	cairo_surface_destroy(s);
	buf_finish(&pl.note);
	png_fonts_close(f);
	return ok;
}

/* The document title viewers show: the graph's title. */
static void
set_pdf_title(cairo_surface_t *s, const struct layout *l)
{
	struct buf title;
	buf_init(&title);
	add_valid_utf8(&title, l->caption->title, strlen(l->caption->title));
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, title.data);
	buf_finish(&title);
}

static bool
draw_pdf(struct out *o, const struct layout *l, struct diag *err)
{
	struct png_fonts *f = fonts_open_watched(l,
	        "difffold: out of memory, a crash, or no progress in 30 s while setting up "
	        "the fonts to draw the PDF\n",
	        err);
	if (!f) {
		return false;
	}
	/* Vector output has no size limit: one page, the whole graph, 1 px = 1 pt. */
	struct plan pl;
	memset(&pl, 0, sizeof(pl));
	buf_init(&pl.note);
	pl.scale = 1;
	pl.height = l->height;
	pl.cut = UINT32_MAX;
	cairo_surface_t *s =
	        cairo_pdf_surface_create_for_stream(write_to_out, o, l->width, l->height);
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "difffold");
	set_pdf_title(s, l);
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATE_DATE, "");
	bool ok = paint_surface(s, l, &pl, f, "cannot draw the PDF page", err);
	cairo_surface_finish(s);
	if (ok) {
		ok = !cairo_failed(cairo_surface_status(s), "cannot write the PDF file", err);
	}
	cairo_surface_destroy(s);
	buf_finish(&pl.note);
	png_fonts_close(f);
	return ok;
}

/*
 * pango starts fontconfig on a thread of GLib's pool and waits for it on a
 * condition variable; when the limit on address space leaves no room for
 * that thread (its stack, its malloc arena), the task never runs and the
 * wait never ends. Drawing starts only with room for such a thread left:
 * otherwise it is an out-of-memory error like any other, not a hang.
 */
#define DRAW_HEADROOM ((size_t)96 << 20)

static bool
room_to_draw(const char *what, struct diag *err)
{
	void *p = mmap(
	        NULL, DRAW_HEADROOM, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p != MAP_FAILED) {
		munmap(p, DRAW_HEADROOM);
		return true;
	}
	snprintf(err->msg, sizeof(err->msg),
	        "out of memory: less than %zu MiB of address space left to draw the %s",
	        DRAW_HEADROOM >> 20, what);
	return false;
}

bool
png_write(struct out *o, const struct layout *l, struct diag *err)
{
	catch_crashes("difffold: out of memory or crash while drawing PNG\n");
	return room_to_draw("PNG", err) && draw_png(o, l, err);
}

bool
png_write_pdf(struct out *o, const struct layout *l, struct diag *err)
{
	catch_crashes("difffold: out of memory or crash while drawing PDF\n");
	return room_to_draw("PDF", err) && draw_pdf(o, l, err);
}
