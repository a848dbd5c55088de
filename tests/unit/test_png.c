/*
 * PNG and PDF output: small differential trees are rendered into memory,
 * the PNG bytes decoded again with cairo, and the pixels inside known
 * frames, the legend and the image size checked against the layout.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "caption.h"
#include "color.h"
#include "layout.h"
#include "match.h"
#include "options.h"
#include "output.h"
#include "png.h"
#include "settings.h"
#include "svg.h"
#include "tree_build.h"
#include "xalloc.h"
#include "tree.h"

#define MAX_SIDE 32767

struct fixture {
	struct options opt;
	struct tree *tree;
	struct layout *layout;
};

/* Adds "stack count" lines (one per string) to a side. */
static void
add_side(struct tree *t, enum side side, const char *const *lines)
{
	for (size_t i = 0; lines[i]; i++) {
		const char *sp = strrchr(lines[i], ' ');
		assert_non_null(sp);
		struct count c = {.units = strtoull(sp + 1, NULL, 10)};
		const char *reason = NULL;
		assert_true(tree_add_stack(t, side, lines[i], (size_t)(sp - lines[i]), c, &reason));
	}
}

static void
build(struct fixture *f, const char *const *base, const char *const *head)
{
	f->tree = tree_create(&f->opt.tree);
	if (base) {
		add_side(f->tree, SIDE_BASE, base);
	}
	add_side(f->tree, SIDE_HEAD, head);
	tree_finish(f->tree, base != NULL);
	struct draw_options d;
	settings_draw(&f->opt, &d);
	f->layout = layout_create(f->tree, &d);
}

static void
teardown_fixture(struct fixture *f)
{
	layout_destroy(f->layout);
	match_destroy(f->tree->match); /* what match_run attached, freed by its owner */
	tree_destroy(f->tree);
	options_finish(&f->opt);
}

struct reader {
	const struct buf *b;
	size_t at;
};

static cairo_status_t
read_png(void *closure, unsigned char *data, unsigned int length)
{
	struct reader *r = closure;
	if (r->b->len - r->at < length) {
		return CAIRO_STATUS_READ_ERROR;
	}
	memcpy(data, r->b->data + r->at, length);
	r->at += length;
	return CAIRO_STATUS_SUCCESS;
}

/* Renders the fixture's layout to PNG and decodes it again. */
static cairo_surface_t *
render(const struct fixture *f)
{
	struct out o;
	struct diag err = {{0}};
	out_init_memory(&o);
	if (!png_write(&o, f->layout, &err)) {
		fail_msg("png_write: %s", err.msg);
	}
	assert_true(o.b.len > 8);
	assert_memory_equal(o.b.data, "\x89PNG\r\n\x1a\n", 8);
	struct reader r = {.b = &o.b};
	cairo_surface_t *s = cairo_image_surface_create_from_png_stream(read_png, &r);
	assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
	buf_finish(&o.b);
	return s;
}

static struct rgb
pixel(cairo_surface_t *s, int x, int y)
{
	assert_true(x >= 0 && x < cairo_image_surface_get_width(s));
	assert_true(y >= 0 && y < cairo_image_surface_get_height(s));
	cairo_surface_flush(s);
	const unsigned char *row = cairo_image_surface_get_data(s) +
	                           (size_t)y * (size_t)cairo_image_surface_get_stride(s);
	uint32_t v;
	memcpy(&v, row + 4 * (size_t)x, sizeof(v));
	return (struct rgb){(uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
}

static bool
same_rgb(struct rgb a, struct rgb b)
{
	return a.r == b.r && a.g == b.g && a.b == b.b;
}

static const struct layout_box *
find_box(const struct layout *l, const char *name)
{
	for (size_t i = 0; i < l->count; i++) {
		size_t len;
		const char *n = tree_node_name(l->tree, tree_node(l->tree, l->boxes[i].node), &len);
		if (len == strlen(name) && memcmp(n, name, len) == 0) {
			return &l->boxes[i];
		}
	}
	fail_msg("no box named %s", name);
	return NULL;
}

/* Pixel at the centre of a box, in device pixels at `scale`. */
static struct rgb
box_centre(cairo_surface_t *s, const struct layout *l, const struct layout_box *b, double scale)
{
	return pixel(s, (int)((b->x + b->width / 2) * scale),
	        (int)((b->y + l->frame_height / 2) * scale));
}

static const char *const base_lines[] = {
        "main;slow 10",
        "main;steady 20",
        "main;tiny 1",
        NULL,
};
static const char *const head_lines[] = {
        "main;slow 30",
        "main;steady 20",
        "main;fresh 10",
        "main;tiny 1",
        NULL,
};

/* The base/head pair above with default options, drawn; the caller
 * destroys the surface and tears the fixture down. */
static cairo_surface_t *
render_default_pair(struct fixture *f)
{
	options_init(&f->opt);
	build(f, base_lines, head_lines);
	return render(f);
}

static void
test_size_and_frame_colours(void **state)
{
	(void)state;
	struct fixture f;
	cairo_surface_t *s = render_default_pair(&f);
	const struct layout *l = f.layout;
	assert_int_equal(cairo_image_surface_get_width(s), (int)ceil(l->width));
	assert_int_equal(cairo_image_surface_get_height(s), (int)ceil(l->height));

	const struct layout_box *slow = find_box(l, "slow");
	assert_int_equal(slow->status, STATUS_SLOWER);
	struct rgb want = color_diff(STATUS_SLOWER, slow->intensity, f.opt.theme);
	assert_true(same_rgb(slow->fill, want));
	assert_true(same_rgb(box_centre(s, l, slow, 1), want));

	const struct layout_box *fresh = find_box(l, "fresh");
	assert_int_equal(fresh->status, STATUS_NEW);
	want = color_diff(STATUS_NEW, fresh->intensity, f.opt.theme);
	assert_true(same_rgb(box_centre(s, l, fresh, 1), want));
	assert_false(same_rgb(want, box_centre(s, l, slow, 1)));

	/* Outside every frame the background shows. */
	assert_true(same_rgb(pixel(s, 0, 0), color_background(f.opt.theme)));
	cairo_surface_destroy(s);
	teardown_fixture(&f);
}

/*
 * Siblings stay apart (issue 32): between two wide neighbours exactly one
 * background column, inside the left one's right edge, so each frame's
 * drawn width is within 1 px of its layout width.
 */
static void
test_sibling_gap(void **state)
{
	(void)state;
	struct fixture f;
	options_init(&f.opt);
	build(&f, base_lines, head_lines);
	/* The markers outline their frames (markers.py checks them): here
	 * the pixels at a frame's edge are the gap's. */
	f.layout->marker_count = 0;
	cairo_surface_t *s = render(&f);
	const struct layout *l = f.layout;
	const struct layout_box *slow = find_box(l, "slow");
	const struct layout_box *steady = find_box(l, "steady");
	assert_true(fabs(slow->x + slow->width - steady->x) < 1e-9); /* neighbours */
	struct rgb bg = color_background(f.opt.theme);
	int y = (int)(slow->y + l->frame_height / 2);
	int left = (int)round(slow->x), right = (int)round(steady->x);
	int slow_cols = 0; /* label ink counts too: not the background */
	for (int x = left; x < right; x++) {
		slow_cols += !same_rgb(pixel(s, x, y), bg);
	}
	assert_true(same_rgb(pixel(s, right - 1, y), bg));
	assert_true(same_rgb(pixel(s, right, y), steady->fill));
	assert_true(fabs(slow_cols - slow->width) <= 1.0);
	assert_int_equal(slow_cols, right - left - 1);
	cairo_surface_destroy(s);
	teardown_fixture(&f);
}

/* Every legend swatch of every ramp appears, in order, on the swatches' middle row. */
static void
test_legend_swatches(void **state)
{
	(void)state;
	struct fixture f;
	cairo_surface_t *s = render_default_pair(&f);
	const struct layout *l = f.layout;
	/* The caption layout_create made (caption_init of its figures). */
	const struct caption c = *l->caption;
	assert_true(c.legend_count >= 4);
	int y = (int)(l->legend_text_y - LAYOUT_LABEL_BASELINE * l->opt->font_size);
	int width = cairo_image_surface_get_width(s);
	int run_needed = (int)l->legend_swatch - 3;
	int from = 0;
	for (size_t i = 0; i < c.legend_count; i++) {
		assert_true(c.legend[i].steps >= 1);
		for (int k = 0; k < c.legend[i].steps; k++) {
			int found = -1, run = 0;
			for (int x = from; x < width && found < 0; x++) {
				run = same_rgb(pixel(s, x, y), c.legend[i].ramp[k]) ? run + 1 : 0;
				if (run >= run_needed) {
					found = x;
				}
			}
			if (found < 0) {
				fail_msg("legend swatch %zu step %d (%s) not found", i, k,
				        c.legend[i].label);
			}
			from = found + 1;
		}
	}
	cairo_surface_destroy(s);
	teardown_fixture(&f);
}

typedef void label_fn(void *ctx, uint32_t node, const char *label, size_t len);

/*
 * Every frame label as the PNG draws it: the fonts aimed at an image
 * surface at the picture's scale, as png_write aims them, then the label
 * png_fonts_fit_label fits to each frame it draws (the hidden are not).
 */
static void
each_drawn_label(const struct layout *l, label_fn *fn, void *ctx)
{
	struct diag err = {{0}};
	struct png_fonts *f = png_fonts_open(l, &err);
	if (!f) {
		fail_msg("png_fonts_open: %s", err.msg);
	}
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
	cairo_t *cr = cairo_create(s);
	cairo_scale(cr, l->opt->scale, l->opt->scale);
	png_fonts_target(f, cr);
	struct buf label;
	buf_init(&label);
	for (size_t i = 0; i < l->count; i++) {
		const struct layout_box *b = &l->boxes[i];
		if (!b->hidden && png_fonts_fit_label(f, b, &label)) {
			fn(ctx, b->node, label.data, label.len);
		}
	}
	buf_finish(&label);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
	png_fonts_close(f);
}

/* The labels the PNG backend draws, by tree node. */
struct drawn_labels {
	char **by_node;
	size_t nodes;
};

static void
collect_label(void *ctx, uint32_t node, const char *label, size_t len)
{
	struct drawn_labels *d = ctx;
	assert_true(node < d->nodes);
	assert_null(d->by_node[node]); /* one label a frame */
	d->by_node[node] = xmemdup(label, len);
}

/* The text of the SVG element at s (after its '>'), XML entities undone. */
static char *
svg_text(const char *s, const char *end)
{
	static const char *const entities[][2] = {
	        {"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&apos;", "'"}};
	struct buf b;
	buf_init(&b);
	while (s < end) {
		size_t k = 0;
		for (size_t i = 0; i < 5 && *s == '&'; i++) {
			size_t n = strlen(entities[i][0]);
			if (strncmp(s, entities[i][0], n) == 0) {
				buf_adds(&b, entities[i][1]);
				k = n;
				break;
			}
		}
		if (k == 0) {
			buf_addc(&b, *s);
			k = 1;
		}
		s += k;
	}
	return buf_detach(&b, NULL);
}

/*
 * Issue 18 point 7: the SVG and the PNG show the same label on every
 * frame (the same characters, the same cut marker), from one layout.
 */
static void
test_labels_match_svg(void **state)
{
	(void)state;
	static const char *const base[] = {
	        "main;parse_issue_fixed 100",
	        "main;json::Lexer::next_token_with_a_rather_long_name 400",
	        "main;a&b<c>::\xce\xb1\xce\xb2\xce\xb3_operator 300",
	        "main;gone_away 50",
	        "main;steady;child_of_steady 700",
	        NULL,
	};
	static const char *const head[] = {
	        "main;parse_issue_fixed 187",
	        "main;json::Lexer::next_token_with_a_rather_long_name 380",
	        "main;a&b<c>::\xce\xb1\xce\xb2\xce\xb3_operator 600",
	        "main;modify_title 40",
	        "main;steady;child_of_steady 700",
	        "main;x 9",
	        NULL,
	};
	static const double widths[] = {300, 800, 1200};
	for (size_t w = 0; w < 3; w++) {
		for (int trunc = 0; trunc < 2; trunc++) {
			struct fixture f;
			options_init(&f.opt);
			f.opt.width = widths[w];
			f.opt.truncate = trunc ? TRUNCATE_LEFT : TRUNCATE_RIGHT;
			build(&f, base, head);
			const struct layout *l = f.layout;
			struct drawn_labels d = {
			        xcalloc(f.tree->node_count, sizeof(char *)), f.tree->node_count};
			each_drawn_label(l, collect_label, &d);
			struct out o;
			out_init_memory(&o);
			svg_write(&o, l);
			buf_addc(&o.b, '\0');
			const char *at = o.b.data;
			size_t labelled = 0;
			for (size_t i = 0; i < l->count; i++) {
				at = strstr(at, "<g class=\"frame\"");
				assert_non_null(at);
				at = strstr(at, "</title><rect");
				const char *t = strstr(at, "<text");
				const char *end = strstr(t, "</g>");
				char *svg = strdup("");
				if (strncmp(t, "<text/>", 7) != 0) {
					const char *open = strchr(t, '>') + 1;
					free(svg);
					svg = svg_text(open, strstr(open, "</text>"));
				}
				const char *png = d.by_node[l->boxes[i].node];
				labelled += *svg != '\0';
				if (strcmp(svg, png ? png : "") != 0) {
					fail_msg("frame %zu at %.0f px: SVG '%s', PNG '%s'", i,
					        widths[w], svg, png ? png : "");
				}
				free(svg);
				at = end;
			}
			assert_true(labelled >= 3);
			buf_finish(&o.b);
			for (size_t i = 0; i < d.nodes; i++) {
				free(d.by_node[i]);
			}
			free(d.by_node);
			teardown_fixture(&f);
		}
	}
}

/*
 * A chain of frames, each the first child of the one below and narrower
 * than it, so that the background lies right of every frame in its row:
 * any label ink that passes a frame's right edge lands on it. Names are
 * longer than any frame, so every label is cut to the room it has.
 */
#define CHAIN 24

static char **
chain_lines(bool head)
{
	static const char *const parts[] = {"json::Lexer::next_token", "_%<W>(&a)[k]+100% ",
	        "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "mmmmwwww", "\xe2\x80\xa6iiii"};
	char **lines = xcalloc(CHAIN + 1, sizeof(char *));
	struct buf stack;
	buf_init(&stack);
	buf_adds(&stack, "main");
	double total = 10000;
	for (size_t k = 0; k < CHAIN; k++) {
		buf_addc(&stack, ';');
		for (size_t i = 0; i < 8; i++) {
			buf_adds(&stack, parts[(k + i) % 5]);
		}
		double next = total * 0.86;
		/* Every frame changes, so every label carries its change. */
		double self = (total - next) * (head ? 1.0 + (double)(k % 7) / 4 : 1.0);
		struct buf line;
		buf_init(&line);
		buf_add(&line, stack.data, stack.len);
		buf_printf(&line, " %.0f", self);
		lines[k] = buf_detach(&line, NULL);
		total = next;
	}
	buf_finish(&stack);
	return lines;
}

struct probed {
	const struct layout *l;
	double font_size;
	size_t labels;
	double worst; /* largest ink right edge past a frame's edge, pixels */
};

/* cairo's own extents of the label in DejaVu Sans Mono, as the PNG draws it. */
static void
check_label_extents(void *ctx, uint32_t node, const char *label, size_t len)
{
	struct probed *pr = ctx;
	const struct layout_box *b = NULL;
	for (size_t i = 0; i < pr->l->count && !b; i++) {
		b = pr->l->boxes[i].node == node ? &pr->l->boxes[i] : NULL;
	}
	assert_non_null(b);
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
	cairo_t *cr = cairo_create(s);
	cairo_select_font_face(
	        cr, "DejaVu Sans Mono", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, pr->font_size);
	cairo_font_options_t *fo = cairo_font_options_create();
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_SLIGHT);
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	cairo_set_font_options(cr, fo);
	cairo_font_options_destroy(fo);
	char *text = xmemdup(label, len);
	cairo_text_extents_t e;
	cairo_text_extents(cr, text, &e);
	double past = LAYOUT_LABEL_PAD + e.x_bearing + e.width - b->width;
	pr->worst = fmax(pr->worst, past);
	pr->labels++;
	free(text);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
}

/*
 * PNG labels stay inside their frames at every font size from 8 to 24 px:
 * by cairo's text extents of each label, and by the pixels right of each
 * frame, which must be background.
 */
static void
test_labels_inside_frames(void **state)
{
	(void)state;
	char **base = chain_lines(false), **head = chain_lines(true);
	for (int fs = 8; fs <= 24; fs++) {
		struct fixture f;
		options_init(&f.opt);
		f.opt.font_size = fs;
		f.opt.frame_height = fs + 6;
		/* Wide frames too: 0.002 em a character adds up past the padding. */
		f.opt.width = fs % 2 ? 800 : 2000;
		build(&f, (const char *const *)base, (const char *const *)head);
		/* The markers may sit beside their frames (markers.py checks
		 * them): the pixels right of each frame are the labels' here. */
		f.layout->marker_count = 0;
		const struct layout *l = f.layout;
		struct probed pr = {.l = l, .font_size = fs, .worst = -1e9};
		each_drawn_label(l, check_label_extents, &pr);
		cairo_surface_t *s = render(&f);
		if (!(pr.worst <= 0)) {
			fail_msg("at %d px a label's ink passes its frame's edge by %.2f px", fs,
			        pr.worst);
		}
		/* Every frame wider than a short label has one. */
		assert_true(pr.labels >= CHAIN / 2);
		struct rgb bg = color_background(f.opt.theme);
		int width = cairo_image_surface_get_width(s);
		for (size_t i = 0; i < l->count; i++) {
			const struct layout_box *b = &l->boxes[i];
			int right = (int)round(b->x + b->width);
			for (int x = right; x < right + 2 * fs && x < width; x++) {
				for (int y = (int)ceil(b->y); y < (int)(b->y + l->frame_height);
				        y++) {
					if (!same_rgb(pixel(s, x, y), bg)) {
						fail_msg("at %d px, ink at (%d, %d) right of "
						         "frame %zu (%.1f px wide)",
						        fs, x, y, i, b->width);
					}
				}
			}
		}
		cairo_surface_destroy(s);
		teardown_fixture(&f);
	}
	for (size_t k = 0; k < CHAIN; k++) {
		free(base[k]);
		free(head[k]);
	}
	free(base);
	free(head);
}

/* A label is drawn where it fits, and nothing where fewer than 3 characters fit. */
static void
test_labels(void **state)
{
	(void)state;
	struct fixture f;
	cairo_surface_t *s = render_default_pair(&f);
	const struct layout *l = f.layout;
	const struct layout_box *boxes[] = {find_box(l, "steady"), find_box(l, "tiny")};
	assert_true(boxes[0]->width > 100);
	assert_true(boxes[1]->width < 3 * 0.6 * f.opt.font_size);
	for (size_t k = 0; k < 2; k++) {
		const struct layout_box *b = boxes[k];
		int other = 0;
		for (int x = (int)ceil(b->x) + 1; x < (int)floor(b->x + b->width) - 1; x++) {
			for (int y = (int)b->y + 1; y < (int)(b->y + l->frame_height) - 2; y++) {
				other += !same_rgb(pixel(s, x, y), b->fill);
			}
		}
		if (k == 0) {
			assert_true(other > 10);
		} else {
			assert_int_equal(other, 0);
		}
	}
	cairo_surface_destroy(s);
	teardown_fixture(&f);
}

static void
test_scale_doubles(void **state)
{
	(void)state;
	struct fixture f;
	options_init(&f.opt);
	f.opt.scale = 2;
	build(&f, base_lines, head_lines);
	cairo_surface_t *s = render(&f);
	const struct layout *l = f.layout;
	assert_int_equal(cairo_image_surface_get_width(s), (int)ceil(2 * l->width));
	assert_int_equal(cairo_image_surface_get_height(s), (int)ceil(2 * l->height));
	const struct layout_box *slow = find_box(l, "slow");
	assert_true(same_rgb(box_centre(s, l, slow, 2), slow->fill));
	cairo_surface_destroy(s);
	teardown_fixture(&f);
}

/* Pixels of a box's top row (its edges on whole pixels), inside its ends, not of its fill. */
static int
top_row_ink(cairo_surface_t *s, const struct layout_box *b)
{
	int y = (int)lround(b->y), ink = 0;
	for (int x = (int)lround(b->x) + 1; x < (int)lround(b->x + b->width) - 2; x++) {
		ink += !same_rgb(pixel(s, x, y), b->fill);
	}
	return ink;
}

static void
test_moved_frame_is_outlined(void **state)
{
	(void)state;
	static const char *const base[] = {"main;x;f;g 10", "main;x;h 5", "main;y;k 4", NULL};
	static const char *const head[] = {
	        "main;y;f;g 11", "main;x;h 5", "main;y;k 4", "main;y;fresh;q 10", NULL};
	static const enum theme themes[] = {THEME_LIGHT, THEME_DARK};
	for (size_t i = 0; i < 2; i++) {
		struct fixture f;
		options_init(&f.opt);
		f.opt.theme = themes[i];
		f.tree = tree_create(&f.opt.tree);
		add_side(f.tree, SIDE_BASE, base);
		add_side(f.tree, SIDE_HEAD, head);
		tree_finish(f.tree, true);
		match_run(f.tree, &(struct match_settings){true, true});
		struct draw_options d;
		settings_draw(&f.opt, &d);
		f.layout = layout_create(f.tree, &d);
		cairo_surface_t *s = render(&f);
		/*
		 * The moved one compared with where it was (not new to the eye, as
		 * fresh is) and dashed in its label's ink.
		 */
		const struct layout_box *fresh = find_box(f.layout, "fresh");
		const struct layout_box *moved = NULL;
		for (size_t k = 0; k < f.layout->count; k++) {
			const struct layout_box *b = &f.layout->boxes[k];
			const struct match_entry *e = match_of(f.tree, b->node);
			moved = e && e->kind == MATCH_MOVED_IN ? b : moved;
		}
		assert_non_null(moved);
		assert_int_not_equal(moved->status, STATUS_NEW);
		assert_int_equal(fresh->status, STATUS_NEW);
		int ink = top_row_ink(s, moved);
		int width = (int)lround(moved->x + moved->width) - (int)lround(moved->x) - 3;
		assert_true(ink > width / 3);
		assert_true(ink < width); /* dashed: the fill shows between dashes */
		assert_true(same_rgb(pixel(s, (int)lround(moved->x) + 1, (int)lround(moved->y)),
		        color_label(moved->fill)));
		assert_int_equal(top_row_ink(s, fresh), 0);
		cairo_surface_destroy(s);
		teardown_fixture(&f);
	}
}

static void
test_dark_theme(void **state)
{
	(void)state;
	struct fixture f;
	options_init(&f.opt);
	f.opt.theme = THEME_DARK;
	build(&f, base_lines, head_lines);
	cairo_surface_t *s = render(&f);
	assert_true(same_rgb(pixel(s, 0, 0), color_background(THEME_DARK)));
	const struct layout_box *slow = find_box(f.layout, "slow");
	assert_true(same_rgb(box_centre(s, f.layout, slow, 1),
	        color_diff(STATUS_SLOWER, slow->intensity, THEME_DARK)));
	cairo_surface_destroy(s);
	teardown_fixture(&f);
}

static void
test_single_profile(void **state)
{
	(void)state;
	struct fixture f;
	options_init(&f.opt);
	build(&f, NULL, head_lines);
	cairo_surface_t *s = render(&f);
	const struct layout_box *slow = find_box(f.layout, "slow");
	assert_true(same_rgb(box_centre(s, f.layout, slow, 1), slow->fill));
	cairo_surface_destroy(s);
	teardown_fixture(&f);
}

/* One stack `depth` frames deep: f0;f1;...; */
static char *
deep_stack(size_t depth)
{
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < depth; i++) {
		buf_printf(&b, "%sf%zu", i ? ";" : "", i);
	}
	buf_adds(&b, " 7");
	return buf_detach(&b, NULL);
}

/* Too tall for cairo: cut to fit, the root row still drawn, no failure. */
static void
check_deep(bool inverted)
{
	char *stack = deep_stack(5000);
	const char *const lines[] = {stack, NULL};
	struct fixture f;
	options_init(&f.opt);
	f.opt.inverted = inverted;
	f.opt.width = 300; /* narrow keeps the 32,767 px tall image cheap */
	build(&f, lines, lines);
	const struct layout *l = f.layout;
	assert_true(l->height > MAX_SIDE);
	cairo_surface_t *s = render(&f);
	int h = cairo_image_surface_get_height(s);
	assert_true(h <= MAX_SIDE);
	assert_true(h > MAX_SIDE - 2 * (int)l->frame_height);
	assert_int_equal(cairo_image_surface_get_width(s), (int)ceil(l->width));
	/* The root ("all", depth 0) keeps its place: bottom row, or top inverted. */
	const struct layout_box *root = &l->boxes[0];
	assert_int_equal(root->depth, 0);
	int x = (int)(root->x + root->width / 2);
	double pad_bottom = l->height - l->graph_y - l->graph_height;
	int y = inverted ? (int)(l->graph_y + l->frame_height / 2)
	                 : (int)(h - pad_bottom - l->frame_height / 2);
	assert_true(same_rgb(pixel(s, x, y), root->fill));
	cairo_surface_destroy(s);
	teardown_fixture(&f);
	free(stack);
}

static void
test_deep_graph_is_cut(void **state)
{
	(void)state;
	check_deep(false);
	check_deep(true);
}

/* Too wide for cairo at the asked scale: the scale gives way. */
static void
test_wide_graph_scales_down(void **state)
{
	(void)state;
	struct fixture f;
	options_init(&f.opt);
	f.opt.width = 20000;
	f.opt.scale = 2;
	build(&f, base_lines, head_lines);
	cairo_surface_t *s = render(&f);
	int w = cairo_image_surface_get_width(s);
	assert_true(w <= MAX_SIDE);
	assert_true(w > MAX_SIDE - 100);
	cairo_surface_destroy(s);
	teardown_fixture(&f);
}

static size_t
count_pages(const struct buf *b)
{
	static const char tag[] = "/Type /Page";
	size_t n = 0, k = sizeof(tag) - 1;
	for (size_t i = 0; i + k < b->len; i++) {
		if (memcmp(b->data + i, tag, k) == 0 && b->data[i + k] != 's') {
			n++;
		}
	}
	return n;
}

static void
render_pdf(const struct fixture *f, struct buf *out)
{
	struct out o;
	struct diag err = {{0}};
	out_init_memory(&o);
	if (!png_write_pdf(&o, f->layout, &err)) {
		fail_msg("png_write_pdf: %s", err.msg);
	}
	*out = o.b;
}

static void
test_pdf_one_page(void **state)
{
	(void)state;
	char *stack = deep_stack(3000);
	const char *const lines[] = {"main;slow 10", "main;steady 20", stack, NULL};
	struct fixture f;
	options_init(&f.opt);
	build(&f, base_lines, lines);
	struct buf a, b;
	render_pdf(&f, &a);
	render_pdf(&f, &b);
	assert_true(a.len > 5);
	assert_memory_equal(a.data, "%PDF-", 5);
	assert_int_equal(count_pages(&a), 1);
	/* Deterministic: no creation date, the same bytes every time. */
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.data, b.data, a.len);
	buf_finish(&a);
	buf_finish(&b);
	teardown_fixture(&f);
	free(stack);
}

/* A font configuration without DejaVu Sans Mono: a clear error, no image. */
static void
test_missing_font(void **state)
{
	(void)state;
	char path[] = "/tmp/difffold-test-fonts-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	static const char conf[] = "<?xml version=\"1.0\"?>\n<fontconfig></fontconfig>\n";
	assert_int_equal(write(fd, conf, sizeof(conf) - 1), (ssize_t)(sizeof(conf) - 1));
	close(fd);
	setenv("DIFFFOLD_FONTS_CONF", path, 1);
	struct fixture f;
	options_init(&f.opt);
	build(&f, base_lines, head_lines);
	struct out o;
	struct diag err = {{0}};
	out_init_memory(&o);
	assert_false(png_write(&o, f.layout, &err));
	assert_string_equal(err.msg, "PNG/PDF output needs the font DejaVu Sans Mono: install the "
	                             "Debian package fonts-dejavu-core");
	err.msg[0] = '\0';
	assert_false(png_write_pdf(&o, f.layout, &err));
	assert_non_null(strstr(err.msg, "fonts-dejavu-core"));
	/* A configuration that cannot be read names its path. */
	unlink(path);
	err.msg[0] = '\0';
	assert_false(png_write(&o, f.layout, &err));
	assert_non_null(strstr(err.msg, path));
	unsetenv("DIFFFOLD_FONTS_CONF");
	buf_finish(&o.b);
	teardown_fixture(&f);
}

int
main(void)
{
	/* The tests use the build tree's font configuration, never the caller's. */
	unsetenv("DIFFFOLD_FONTS_CONF");
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_size_and_frame_colours),
	        cmocka_unit_test(test_legend_swatches),
	        cmocka_unit_test(test_sibling_gap),
	        cmocka_unit_test(test_labels),
	        cmocka_unit_test(test_labels_match_svg),
	        cmocka_unit_test(test_labels_inside_frames),
	        cmocka_unit_test(test_scale_doubles),
	        cmocka_unit_test(test_dark_theme),
	        cmocka_unit_test(test_single_profile),
	        cmocka_unit_test(test_deep_graph_is_cut),
	        cmocka_unit_test(test_wide_graph_scales_down),
	        cmocka_unit_test(test_pdf_one_page),
	        cmocka_unit_test(test_moved_frame_is_outlined),
	        cmocka_unit_test(test_missing_font),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
