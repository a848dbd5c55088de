/* layout: widths per basis, x from sample sums, pruning, rows, colours, labels. */
#include "caption.h"
#include "layout.h"
#include "shortname.h"
#include "utf8.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "buf.h"
#include "helpers.h"
#include "xalloc.h"

#define EPS 1e-9

static const struct tree_options defaults = {.min_delta = 0.001};

/*
 * base: a;b 10, a;c 30, d 60   (total 100)
 * head: a;b 50, a;e 20, d 30   (total 100)
 * so a: base 40 head 70, b: 10/50, c: 30/0, e: 0/20, d: 60/30.
 */
static struct tree *
small_tree(void)
{
	struct tree *t = tree_create(&defaults);
	add_stack(t, SIDE_BASE, "a;b", 10);
	add_stack(t, SIDE_BASE, "a;c", 30);
	add_stack(t, SIDE_BASE, "d", 60);
	add_stack(t, SIDE_HEAD, "a;b", 50);
	add_stack(t, SIDE_HEAD, "a;e", 20);
	add_stack(t, SIDE_HEAD, "d", 30);
	tree_finish(t, true);
	return t;
}

static void
picture_options(struct options *o)
{
	options_init(o);
	o->min_width = 0;
	o->base_label = "base.folded";
	o->head_label = "head.folded";
}

/* The drawn box of the frame with this (unique) name, or NULL. */
static const struct layout_box *
box_named(const struct layout *l, const char *name)
{
	for (size_t i = 0; i < l->count; i++) {
		size_t len;
		const char *s = tree_node_name(l->tree, tree_node(l->tree, l->boxes[i].node), &len);
		if (len == strlen(name) && memcmp(s, name, len) == 0) {
			return &l->boxes[i];
		}
	}
	return NULL;
}

static void
expect_box(const struct layout *l, const char *name, double start, double share, double total)
{
	const struct layout_box *b = box_named(l, name);
	if (!b) {
		fail_msg("no box for %s", name);
	}
	assert_near(b->x, l->graph_x + l->graph_width * start / total, EPS);
	assert_near(b->width, l->graph_width * share / total, EPS);
}

static void
test_widths_head(void **state)
{
	(void)state;
	struct tree *t = small_tree();
	struct options o;
	picture_options(&o);
	struct layout *l = layout_of(t, &o);
	assert_near(l->basis_total, 100, EPS);
	assert_near(l->graph_width, 1200 - 2 * l->graph_x, EPS);
	expect_box(l, "all", 0, 100, 100);
	expect_box(l, "a", 0, 70, 100);
	expect_box(l, "b", 0, 50, 100);
	expect_box(l, "e", 50, 20, 100);
	expect_box(l, "d", 70, 30, 100);
	/* c has no head samples: hidden (for the SVG's base view), zero
	 * wide, and not counted as pruned. */
	const struct layout_box *c = box_named(l, "c");
	assert_non_null(c);
	assert_true(c->hidden);
	assert_near(c->width, 0, EPS);
	assert_false(box_named(l, "a")->hidden);
	assert_int_equal(l->count, 6);
	assert_int_equal(l->pruned_frames, 0);
	assert_near(l->pruned_samples, 0, EPS);
	layout_destroy(l);
	tree_destroy(t);
}

static void
test_widths_base(void **state)
{
	(void)state;
	struct tree *t = small_tree();
	struct options o;
	picture_options(&o);
	o.widths = WIDTHS_BASE;
	struct layout *l = layout_of(t, &o);
	assert_near(l->basis_total, 100, EPS);
	expect_box(l, "a", 0, 40, 100);
	expect_box(l, "b", 0, 10, 100);
	expect_box(l, "c", 10, 30, 100);
	expect_box(l, "d", 40, 60, 100);
	assert_true(box_named(l, "e")->hidden);
	assert_false(box_named(l, "c")->hidden);
	layout_destroy(l);
	tree_destroy(t);
}

static void
test_widths_union(void **state)
{
	(void)state;
	struct tree *t = small_tree();
	struct options o;
	picture_options(&o);
	o.widths = WIDTHS_UNION;
	struct layout *l = layout_of(t, &o);
	assert_near(l->basis_total, 200, EPS);
	expect_box(l, "a", 0, 110, 200);
	expect_box(l, "b", 0, 60, 200);
	expect_box(l, "c", 60, 30, 200);
	expect_box(l, "e", 90, 20, 200);
	expect_box(l, "d", 110, 90, 200);
	assert_int_equal(l->count, 6);
	layout_destroy(l);
	tree_destroy(t);
}

/* Normalised base (x2): the base basis is in head units. */
static void
test_widths_normalised(void **state)
{
	(void)state;
	struct tree_options to = defaults;
	to.normalize = true;
	struct tree *t = tree_create(&to);
	add_stack(t, SIDE_BASE, "a", 30);
	add_stack(t, SIDE_BASE, "b", 20);
	add_stack(t, SIDE_HEAD, "a", 40);
	add_stack(t, SIDE_HEAD, "b", 60);
	tree_finish(t, true);
	struct options o;
	picture_options(&o);
	o.widths = WIDTHS_UNION;
	struct layout *l = layout_of(t, &o);
	assert_near(l->basis_total, 200, EPS);
	expect_box(l, "a", 0, 100, 200);
	expect_box(l, "b", 100, 100, 200);
	layout_destroy(l);
	tree_destroy(t);
}

/* Every child's left edge is the previous sibling's right edge. */
static void
test_sibling_edges_meet(void **state)
{
	(void)state;
	struct tree *t = tree_create(&defaults);
	struct buf b;
	buf_init(&b);
	/* Awkward counts and a fractional scale so pixel widths are irrational-ish. */
	for (unsigned i = 0; i < 300; i++) {
		buf_reset(&b);
		buf_printf(&b, "root;f%03u", i);
		add_stack(t, SIDE_BASE, b.data, 7 + i % 13);
		add_stack(t, SIDE_HEAD, b.data, 3 + (i * 7919) % 101);
	}
	buf_finish(&b);
	tree_finish(t, true);
	enum widths all[] = {WIDTHS_HEAD, WIDTHS_BASE, WIDTHS_UNION};
	for (size_t w = 0; w < 3; w++) {
		struct options o;
		picture_options(&o);
		o.width = 997;
		o.widths = all[w];
		struct layout *l = layout_of(t, &o);
		assert_int_equal(l->count, 302);
		const struct layout_box *parent = box_named(l, "root");
		assert_non_null(parent);
		/* pre-order: root's children follow it, in child order. */
		const struct layout_box *first = parent + 1;
		assert_near(first->x, parent->x, EPS);
		for (const struct layout_box *c = first; c + 1 < l->boxes + l->count; c++) {
			assert_true(fabs(c[1].x - (c->x + c->width)) <= EPS);
		}
		const struct layout_box *last = &l->boxes[l->count - 1];
		assert_near(last->x + last->width, parent->x + parent->width, 1e-9);
		assert_near(parent->x + parent->width, l->graph_x + l->graph_width, 1e-9);
		layout_destroy(l);
	}
	tree_destroy(t);
}

/* big 1000 with a child; small 1 with a child; tiny frames under big. */
static struct tree *
prune_tree(void)
{
	struct tree *t = tree_create(&defaults);
	add_stack(t, SIDE_HEAD, "big;child", 990);
	add_stack(t, SIDE_HEAD, "big;dust1", 2);
	add_stack(t, SIDE_HEAD, "big;dust2;deeper", 3);
	add_stack(t, SIDE_HEAD, "small;under", 5);
	tree_finish(t, false);
	return t;
}

static void
test_prune_pixels(void **state)
{
	(void)state;
	struct tree *t = prune_tree();
	struct options o;
	picture_options(&o);
	/* graph_width / 1000 px per sample: dust1 and dust2 and small are
	 * 2, 3 and 5 samples wide; a 4-sample threshold prunes dust1 and
	 * dust2 (with deeper) but keeps small. */
	struct layout *l = layout_of(t, &o);
	double px = l->graph_width / 1000.0;
	layout_destroy(l);
	o.min_width = 4 * px;
	l = layout_of(t, &o);
	assert_near(l->min_width_px, 4 * px, EPS);
	assert_null(box_named(l, "dust1"));
	assert_null(box_named(l, "dust2"));
	assert_null(box_named(l, "deeper"));
	assert_non_null(box_named(l, "small"));
	assert_non_null(box_named(l, "under"));
	assert_near(l->pruned_samples, 5, EPS);
	assert_int_equal(l->pruned_frames, 2); /* subtree roots only */
	layout_destroy(l);
	tree_destroy(t);
}

/*
 * A differential graph keeps, hidden, the frames another basis shows wide
 * enough; the written view still counts them as pruned, and hidden frames
 * deeper than its deepest row are left out.
 */
static void
test_prune_keeps_other_views(void **state)
{
	(void)state;
	struct tree *t = tree_create(&defaults);
	add_stack(t, SIDE_BASE, "big;x", 800);
	add_stack(t, SIDE_BASE, "gone;sub", 50);
	add_stack(t, SIDE_BASE, "gone;sub;a;b", 49);
	add_stack(t, SIDE_BASE, "tiny", 1);
	add_stack(t, SIDE_HEAD, "big;x", 997);
	add_stack(t, SIDE_HEAD, "gone;sub", 2);
	add_stack(t, SIDE_HEAD, "tiny", 1);
	tree_finish(t, true);
	struct options o;
	picture_options(&o);
	o.min_width = 1; /* head: 10 samples, base: 9, union: 19 */
	o.min_width_percent = true;
	struct layout *l = layout_of(t, &o);
	const struct layout_box *gone = box_named(l, "gone");
	assert_non_null(gone);
	assert_true(gone->hidden);
	expect_box(l, "gone", 997, 2, 1000);
	assert_true(box_named(l, "sub")->hidden);
	assert_null(box_named(l, "a")); /* row 3: the picture has rows 0-2 */
	assert_null(box_named(l, "tiny")); /* too narrow in every view */
	assert_false(box_named(l, "x")->hidden);
	assert_int_equal(l->max_depth, 2);
	assert_int_equal(l->count, 5); /* all big x gone sub */
	assert_int_equal(l->pruned_frames, 2); /* gone and tiny */
	assert_near(l->pruned_samples, 3, EPS);
	layout_destroy(l);
	tree_destroy(t);
}

static void
test_prune_percent(void **state)
{
	(void)state;
	struct tree *t = prune_tree();
	struct options o;
	picture_options(&o);
	o.min_width = 0.6; /* % of the total: frames under 6 samples go */
	o.min_width_percent = true;
	struct layout *l = layout_of(t, &o);
	assert_near(l->min_width_px, l->graph_width * 0.006, EPS);
	assert_null(box_named(l, "dust1"));
	assert_null(box_named(l, "dust2"));
	assert_null(box_named(l, "small"));
	assert_null(box_named(l, "under"));
	assert_non_null(box_named(l, "child"));
	assert_near(l->pruned_samples, 10, EPS);
	assert_int_equal(l->pruned_frames, 3);
	/* Only drawn boxes count toward the depth. */
	assert_int_equal(l->max_depth, 2);
	layout_destroy(l);
	tree_destroy(t);
}

static void
test_rows(void **state)
{
	(void)state;
	struct tree *t = prune_tree();
	struct options o;
	picture_options(&o);
	o.frame_height = 17;
	struct layout *l = layout_of(t, &o);
	assert_int_equal(l->max_depth, 3);
	assert_near(l->graph_height, 4 * 17, EPS);
	assert_true(l->graph_y >= l->header_height + l->legend_height);
	assert_true(l->details_y > l->legend_y + l->legend_height);
	assert_true(l->details_y <= l->graph_y);
	assert_true(l->height >= l->graph_y + l->graph_height);
	assert_near(l->width, 1200, EPS);
	for (size_t i = 0; i < l->count; i++) {
		const struct layout_box *b = &l->boxes[i];
		assert_near(b->y, l->graph_y + (3.0 - b->depth) * 17, EPS);
	}
	assert_near(box_named(l, "all")->y, l->graph_y + 3 * 17, EPS);
	assert_int_equal(box_named(l, "deeper")->depth, 3);
	layout_destroy(l);
	o.inverted = true;
	l = layout_of(t, &o);
	for (size_t i = 0; i < l->count; i++) {
		const struct layout_box *b = &l->boxes[i];
		assert_near(b->y, l->graph_y + b->depth * 17.0, EPS);
	}
	assert_near(box_named(l, "all")->y, l->graph_y, EPS);
	layout_destroy(l);
	tree_destroy(t);
}

/*
 * Issue 18 point 3: a graph whose total fell a third, where wide frames grew
 * by a few percent of themselves and one frame lost most of its samples.
 * The wide frames take the palest slower step (near grey), the one that
 * fell the strongest faster step: the picture does not read "slower".
 */
static void
test_small_changes_pale(void **state)
{
	(void)state;
	struct tree *t = tree_create(&defaults);
	add_stack(t, SIDE_BASE, "main;task_a", 45000);
	add_stack(t, SIDE_BASE, "main;task_b", 45000);
	add_stack(t, SIDE_BASE, "main;legacy", 60000);
	add_stack(t, SIDE_HEAD, "main;task_a", 46500);
	add_stack(t, SIDE_HEAD, "main;task_b", 46000);
	add_stack(t, SIDE_HEAD, "main;legacy", 4000);
	tree_finish(t, true);
	struct options o;
	picture_options(&o);
	struct layout *l = layout_of(t, &o);
	struct rgb pale = color_diff_step(STATUS_SLOWER, 1, o.theme);
	struct rgb strong = color_diff_step(STATUS_FASTER, COLOR_STEPS, o.theme);
	const struct layout_box *a = box_named(l, "task_a");
	const struct layout_box *b = box_named(l, "task_b");
	const struct layout_box *legacy = box_named(l, "legacy");
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(legacy);
	assert_memory_equal(&a->fill, &pale, sizeof(pale));
	assert_memory_equal(&b->fill, &pale, sizeof(pale));
	assert_memory_equal(&legacy->fill, &strong, sizeof(strong));
	layout_destroy(l);
	tree_destroy(t);
}

/* The legend's scale text follows the ramps when it fits, else takes a second row. */
static void
test_legend_rows(void **state)
{
	(void)state;
	struct tree *diff = small_tree();
	struct options o;
	picture_options(&o);
	o.width = 1600;
	struct layout *wide = layout_of(diff, &o);
	o.width = 800;
	struct layout *narrow = layout_of(diff, &o);
	assert_near(wide->legend_scale_y, wide->legend_text_y, EPS);
	assert_true(narrow->legend_scale_y > narrow->legend_text_y);
	assert_true(narrow->legend_scale_y < narrow->legend_y + narrow->legend_height);
	assert_true(narrow->legend_height > wide->legend_height);
	/* The ramps' row stays where it was. */
	assert_near(narrow->legend_text_y - narrow->legend_y, wide->legend_text_y - wide->legend_y,
	        EPS);
	layout_destroy(narrow);
	layout_destroy(wide);
	tree_destroy(diff);
}

/* Single profiles have no legend band; differential ones do. */
static void
test_header_bands(void **state)
{
	(void)state;
	struct tree *single = prune_tree();
	struct tree *diff = small_tree();
	struct options o;
	picture_options(&o);
	struct layout *ls = layout_of(single, &o);
	struct layout *ld = layout_of(diff, &o);
	assert_near(ls->legend_height, 0, EPS);
	assert_true(ld->legend_height >= o.font_size);
	assert_true(ld->legend_text_y > ld->legend_y);
	assert_true(ld->legend_text_y < ld->legend_y + ld->legend_height);
	assert_true(ld->title_y < ld->totals_y && ld->totals_y < ld->rule_y);
	assert_true(ld->rule_y < ld->header_height);
	assert_near(ld->subtitle_y, 0, EPS);
	assert_near(ld->pruned_y, 0, EPS);
	layout_destroy(ld);
	o.subtitle = "sub";
	o.min_width = 1000; /* prunes everything below the root */
	ld = layout_of(diff, &o);
	assert_true(ld->title_y < ld->subtitle_y && ld->subtitle_y < ld->totals_y);
	assert_true(ld->rule_y < ld->pruned_y && ld->pruned_y < ld->header_height);
	layout_destroy(ld);
	layout_destroy(ls);
	tree_destroy(single);
	tree_destroy(diff);
}

static void
test_deep_stack(void **state)
{
	(void)state;
	enum { DEPTH = 10000 };
	struct buf b;
	buf_init(&b);
	for (unsigned i = 0; i < DEPTH; i++) {
		buf_printf(&b, "%sf%u", i ? ";" : "", i);
	}
	struct tree *t = tree_create(&defaults);
	add_stack(t, SIDE_BASE, b.data, 1);
	add_stack(t, SIDE_HEAD, b.data, 2);
	buf_finish(&b);
	tree_finish(t, true);
	struct options o;
	picture_options(&o);
	o.frame_height = 1;
	/* The default depth cap draws LAYOUT_DEPTH_CAP levels and counts the
	 * rest for the header; the reports' totals are the tree's. */
	struct layout *l = layout_of(t, &o);
	assert_int_equal(l->count, LAYOUT_DEPTH_CAP + 1);
	assert_int_equal(l->capped_frames, DEPTH - LAYOUT_DEPTH_CAP);
	assert_near(l->capped_samples, 2, EPS);
	assert_non_null(
	        strstr(l->caption->capped, "+5,904 deeper frames (2 samples) past depth 4096"));
	layout_destroy(l);
	o.max_depth = DEPTH;
	l = layout_of(t, &o);
	assert_int_equal(l->count, DEPTH + 1);
	assert_int_equal(l->max_depth, DEPTH);
	assert_int_equal(l->capped_frames, 0);
	assert_null(l->caption->capped);
	for (size_t i = 0; i < l->count; i++) {
		assert_int_equal(l->boxes[i].depth, i);
		assert_near(l->boxes[i].width, l->graph_width, EPS);
	}
	layout_destroy(l);
	tree_destroy(t);
}

/*
 * Colours: self change of a: 0, b: +40, e: +20 (new), c: -30 (removed),
 * d: -30; total change of a: +30.
 */
static void
test_colour_self(void **state)
{
	(void)state;
	struct tree *t = small_tree();
	struct options o;
	picture_options(&o);
	o.widths = WIDTHS_UNION;
	struct layout *l = layout_of(t, &o);
	assert_near(l->max_change, 40, EPS);
	const struct layout_box *b = box_named(l, "b");
	assert_int_equal(b->status, STATUS_SLOWER);
	assert_near(b->intensity, 1, EPS);
	assert_int_equal(box_named(l, "a")->status, STATUS_SAME);
	assert_near(box_named(l, "a")->intensity, 0, EPS);
	assert_int_equal(box_named(l, "e")->status, STATUS_NEW);
	assert_near(box_named(l, "e")->intensity, 0.5, EPS);
	assert_int_equal(box_named(l, "c")->status, STATUS_REMOVED);
	assert_near(box_named(l, "c")->intensity, 0.75, EPS);
	assert_int_equal(box_named(l, "d")->status, STATUS_FASTER);
	assert_near(box_named(l, "d")->intensity, 0.75, EPS);
	for (size_t i = 0; i < l->count; i++) {
		const struct layout_box *x = &l->boxes[i];
		struct rgb want = color_diff(x->status, x->intensity, o.theme);
		assert_memory_equal(&x->fill, &want, sizeof(want));
	}
	layout_destroy(l);
	tree_destroy(t);
}

static void
test_colour_total(void **state)
{
	(void)state;
	struct tree *t = small_tree();
	struct options o;
	picture_options(&o);
	o.widths = WIDTHS_UNION;
	o.color_by = COLOR_BY_TOTAL;
	o.theme = THEME_DARK;
	struct layout *l = layout_of(t, &o);
	/* a: +30 inclusive, b: +40, c: -30, e: +20, d: -30; the root (0) is out. */
	assert_near(l->max_change, 40, EPS);
	assert_int_equal(box_named(l, "a")->status, STATUS_SLOWER);
	assert_near(box_named(l, "a")->intensity, 0.75, EPS);
	assert_int_equal(box_named(l, "all")->status, STATUS_SAME);
	assert_near(layout_change(t, tree_node(t, box_named(l, "a")->node), COLOR_BY_SELF), 0, EPS);
	assert_near(
	        layout_change(t, tree_node(t, box_named(l, "a")->node), COLOR_BY_TOTAL), 30, EPS);
	for (size_t i = 0; i < l->count; i++) {
		const struct layout_box *x = &l->boxes[i];
		struct rgb want = color_diff(x->status, x->intensity, THEME_DARK);
		assert_memory_equal(&x->fill, &want, sizeof(want));
	}
	layout_destroy(l);
	tree_destroy(t);
}

/* A change under --min-delta stays neutral under --color-by total too. */
static void
test_colour_noise_floor(void **state)
{
	(void)state;
	struct tree_options to = {.min_delta = 0.05};
	struct tree *t = tree_create(&to);
	add_stack(t, SIDE_BASE, "x;y", 100);
	add_stack(t, SIDE_HEAD, "x;y", 104);
	add_stack(t, SIDE_BASE, "z", 100);
	add_stack(t, SIDE_HEAD, "z", 120);
	tree_finish(t, true);
	struct options o;
	picture_options(&o);
	o.color_by = COLOR_BY_TOTAL;
	struct layout *l = layout_of(t, &o);
	assert_int_equal(box_named(l, "x")->status, STATUS_SAME);
	assert_int_equal(box_named(l, "z")->status, STATUS_SLOWER);
	assert_near(box_named(l, "z")->intensity, 1, EPS);
	layout_destroy(l);
	tree_destroy(t);
}

static void
test_colour_single(void **state)
{
	(void)state;
	struct tree *t = prune_tree();
	struct options o;
	picture_options(&o);
	o.palette = "mem";
	struct layout *l = layout_of(t, &o);
	for (size_t i = 0; i < l->count; i++) {
		const struct layout_box *x = &l->boxes[i];
		size_t len;
		const char *name = tree_node_name(t, tree_node(t, x->node), &len);
		struct rgb want = color_single("mem", name, len, ANNOTATION_NONE);
		assert_memory_equal(&x->fill, &want, sizeof(want));
		assert_int_equal(x->status, STATUS_SAME);
	}
	layout_destroy(l);
	tree_destroy(t);
}

/* A one-frame layout with this name; the box width is set by the test. */
static struct layout *
label_layout(struct tree **t, struct options *o, const char *name)
{
	*t = tree_create(&defaults);
	add_stack(*t, SIDE_HEAD, name, 1);
	tree_finish(*t, false);
	picture_options(o);
	return layout_of(*t, o);
}

static char *
label(const struct layout *l, double chars)
{
	struct layout_box b = l->boxes[1];
	double cw = layout_char_width(l->opt->font_size);
	b.width = chars * cw + 6.0 + 0.01; /* 3 px padding a side */
	struct buf out;
	buf_init(&out);
	layout_label(l, &b, cw, &out);
	return buf_detach(&out, NULL);
}

static void
expect_label(const struct layout *l, double chars, const char *want)
{
	char *got = label(l, chars);
	assert_string_equal(got, want);
	free(got);
}

static void
test_label_truncate(void **state)
{
	(void)state;
	struct tree *t;
	struct options o;
	struct layout *l = label_layout(&t, &o, "abcdefghij");
	expect_label(l, 10, "abcdefghij");
	expect_label(l, 20, "abcdefghij");
	expect_label(l, 9, "abcdefgh\xE2\x80\xA6");
	expect_label(l, 5, "abcd\xE2\x80\xA6");
	expect_label(l, 4, "abc\xE2\x80\xA6");
	expect_label(l, 3, "");
	expect_label(l, 2, "");
	expect_label(l, 0, "");
	l->settings.truncate = TRUNCATE_LEFT; /* the layout's copy of the options */
	expect_label(l, 9,
	        "\xE2\x80\xA6"
	        "cdefghij");
	expect_label(l, 5, "\xE2\x80\xA6ghij");
	expect_label(l, 3, "");
	layout_destroy(l);
	tree_destroy(t);
	assert_near(layout_char_width(10), 6.0, EPS);
}

static char *
short_of(const char *name)
{
	struct buf b;
	buf_init(&b);
	shortname_append(name, strlen(name), &b);
	return buf_detach(&b, NULL);
}

static void
expect_short(const char *name, const char *want)
{
	char *got = short_of(name);
	assert_string_equal(got, want);
	free(got);
}

/* Issue 32: template arguments and parameter lists folded, labels too. */
static void
test_label_short_names(void **state)
{
	(void)state;
#define E "\xE2\x80\xA6"
	expect_short("parser_binder<std::vector<int>, Alloc>::invoke(char const*)",
	        "parser_binder<" E ">::invoke(" E ")");
	expect_short("f()", "f()");
	expect_short("f(a)", "f(a)");
	expect_short("f(ab) const", "f(" E ") const");
	/* The operator kept; after a symbol the list is not told apart. */
	expect_short("operator<<(std::ostream&)", "operator<<(std::ostream&)");
	expect_short("operator<(a, b)", "operator<(a, b)");
	expect_short("std::operator()(int, int)", "std::operator()(" E ")");
	expect_short("(anonymous namespace)::run", "(anonymous namespace)::run");
	expect_short("<T as Trait>::call", "<T as Trait>::call");
	expect_short("g<std::function<void(int)>>::h", "g<" E ">::h");
	expect_short("a<b->c, d>::e", "a<" E ">::e");
	expect_short("unbalanced<int::f", "unbalanced<int::f");
	expect_short("x(\xce\xb1)", "x(\xce\xb1)"); /* one character: nothing to save */
	expect_short("x(\xce\xb1\xce\xb2)", "x(" E ")");
	/* A label uses the short name when the whole one does not fit. */
	struct tree *t;
	struct options o;
	struct layout *l = label_layout(&t, &o, "parser_binder<std::vector<int>>::invoke(char)");
	expect_label(l, 60, "parser_binder<std::vector<int>>::invoke(char)");
	expect_label(l, 30, "parser_binder<" E ">::invoke(" E ")");
	expect_label(l, 20, "parser_binder<" E ">::i" E);
	layout_destroy(l);
	tree_destroy(t);
#undef E
}

static void
test_label_multibyte(void **state)
{
	(void)state;
	struct tree *t;
	struct options o;
	/* Eight two-byte Greek letters, then a three-byte one. */
	struct layout *l = label_layout(&t, &o,
	        "\xce\xb1\xce\xb2\xce\xb3\xce\xb4\xce\xb5\xce\xb6\xce\xb7\xce\xb8\xe2\x82\xac");
	expect_label(l, 9,
	        "\xce\xb1\xce\xb2\xce\xb3\xce\xb4\xce\xb5\xce\xb6\xce\xb7\xce\xb8\xe2\x82\xac");
	expect_label(l, 6, "\xce\xb1\xce\xb2\xce\xb3\xce\xb4\xce\xb5\xE2\x80\xA6");
	l->settings.truncate = TRUNCATE_LEFT; /* the layout's copy of the options */
	expect_label(l, 6, "\xE2\x80\xA6\xce\xb5\xce\xb6\xce\xb7\xce\xb8\xe2\x82\xac");
	expect_label(l, 3, "");
	layout_destroy(l);
	tree_destroy(t);
}

/* The perf annotation suffix is not part of the label. */
static void
test_label_annotation(void **state)
{
	(void)state;
	struct tree *t;
	struct options o;
	struct layout *l = label_layout(&t, &o, "do_syscall_[k]");
	expect_label(l, 14, "do_syscall");
	expect_label(l, 10, "do_syscall");
	expect_label(l, 8, "do_sysc\xE2\x80\xA6");
	layout_destroy(l);
	tree_destroy(t);
}

/* Invalid bytes count as one character each and are kept whole. */
static void
test_label_invalid_utf8(void **state)
{
	(void)state;
	struct tree *t;
	struct options o;
	struct layout *l = label_layout(&t, &o,
	        "ab\xff\xfe\xce\xb1"
	        "cdefgh");
	expect_label(l, 11,
	        "ab\xff\xfe\xce\xb1"
	        "cdefgh");
	expect_label(l, 7,
	        "ab\xff\xfe\xce\xb1"
	        "c\xE2\x80\xA6");
	l->settings.truncate = TRUNCATE_LEFT; /* the layout's copy of the options */
	expect_label(l, 8,
	        "\xE2\x80\xA6\xce\xb1"
	        "cdefgh");
	expect_label(l, 10,
	        "\xE2\x80\xA6\xff\xfe\xce\xb1"
	        "cdefgh");
	layout_destroy(l);
	tree_destroy(t);
}

/* A 1 MiB name: the label is cut to the box, from either end. */
static void
test_label_huge_name(void **state)
{
	(void)state;
	size_t n = (size_t)1 << 20;
	char *name = xmalloc(n + 1);
	for (size_t i = 0; i < n; i++) {
		name[i] = (char)('a' + i % 26);
	}
	name[n] = '\0';
	struct tree *t;
	struct options o;
	struct layout *l = label_layout(&t, &o, name);
	char *got = label(l, 12);
	assert_string_equal(got, "abcdefghijk\xE2\x80\xA6");
	free(got);
	l->settings.truncate = TRUNCATE_LEFT; /* the layout's copy of the options */
	got = label(l, 12);
	/* 2^20 = 40329 * 26 + 22: the name ends in ...nopqrstuv. */
	assert_string_equal(got, "\xE2\x80\xA6lmnopqrstuv");
	free(got);
	/* The whole name fits a wide enough box. */
	got = label(l, (double)n);
	assert_int_equal(strlen(got), n);
	free(got);
	layout_destroy(l);
	tree_destroy(t);
	free(name);
}

/* The label of the named frame in a box `chars` characters wide. */
static char *
label_of(const struct layout *l, const char *name, double chars)
{
	struct layout_box b = *box_named(l, name);
	double cw = layout_char_width(l->opt->font_size);
	b.width = chars * cw + 6.0 + 0.01;
	struct buf out;
	buf_init(&out);
	layout_label(l, &b, cw, &out);
	return buf_detach(&out, NULL);
}

static void
expect_label_of(const struct layout *l, const char *name, double chars, const char *want)
{
	char *got = label_of(l, name, chars);
	assert_string_equal(got, want);
	free(got);
}

/*
 * The change in the label (docs/pictures.md#labels): the name is cut
 * first and the change kept while 3 characters of the name fit beside it;
 * then the change alone; then the cut name alone. A change whose other
 * count moved the other way names its count.
 */
static void
test_label_change(void **state)
{
	(void)state;
	struct tree *t = tree_create(&defaults);
	add_stack(t, SIDE_BASE, "main;parse_issue_fixed", 100);
	add_stack(t, SIDE_HEAD, "main;parse_issue_fixed", 187);
	add_stack(t, SIDE_BASE, "main;small", 1000);
	add_stack(t, SIDE_HEAD, "main;small", 1062);
	add_stack(t, SIDE_HEAD, "main;modify_title", 500);
	add_stack(t, SIDE_BASE, "main;gone", 500);
	add_stack(t, SIDE_BASE, "main;gone_for_good", 300);
	add_stack(t, SIDE_BASE, "main;same", 5000);
	add_stack(t, SIDE_HEAD, "main;same", 5000);
	/* host: self 100 -> 90 (-10%), total 200 -> 290 (+45%). */
	add_stack(t, SIDE_BASE, "main;host", 100);
	add_stack(t, SIDE_HEAD, "main;host", 90);
	add_stack(t, SIDE_BASE, "main;host;kid", 100);
	add_stack(t, SIDE_HEAD, "main;host;kid", 200);
	tree_finish(t, true);
	struct options o;
	picture_options(&o);
	o.widths = WIDTHS_UNION;
	struct layout *l = layout_of(t, &o);
	expect_label_of(l, "parse_issue_fixed", 40, "parse_issue_fixed +87%");
	expect_label_of(l, "parse_issue_fixed", 22, "parse_issue_fixed +87%");
	expect_label_of(l, "parse_issue_fixed", 21, "parse_issue_fix\xE2\x80\xA6 +87%");
	expect_label_of(l, "parse_issue_fixed", 9, "par\xE2\x80\xA6 +87%");
	/* No room for three characters and the suffix: the change alone. */
	expect_label_of(l, "parse_issue_fixed", 8, "+87%");
	expect_label_of(l, "parse_issue_fixed", 4, "+87%");
	/* No room for the change: the cut name, when 3 characters fit. */
	/* "new" repeats the colour: the name comes first. */
	expect_label_of(l, "modify_title", 6, "modif\xE2\x80\xA6");
	expect_label_of(l, "gone_for_good", 6, "gone_\xE2\x80\xA6");
	expect_label_of(l, "parse_issue_fixed", 3, "");
	expect_label_of(l, "host", 30, "host self -10%");
	expect_label_of(l, "host", 10, "self -10%");
	expect_label_of(l, "kid", 30, "kid +100%");
	expect_label_of(l, "small", 20, "small +6.2%");
	expect_label_of(l, "modify_title", 30, "modify_title new");
	expect_label_of(l, "gone", 30, "gone removed");
	expect_label_of(l, "same", 30, "same");
	l->settings.truncate = TRUNCATE_LEFT; /* the layout's copy of the options */
	expect_label_of(l, "parse_issue_fixed", 12, "\xE2\x80\xA6_fixed +87%");
	/* --color-by total: the inclusive change of main (-61 of 7,100). */
	o.truncate = TRUNCATE_RIGHT;
	o.color_by = COLOR_BY_TOTAL;
	layout_destroy(l);
	l = layout_of(t, &o);
	expect_label_of(l, "main", 20, "main -0.9%");
	expect_label_of(l, "host", 30, "host total +45%");
	layout_destroy(l);
	tree_destroy(t);
}

/* Every header line lies inside the image at its font's widest advance. */
static void
assert_header_fits(const struct layout *l)
{
	for (size_t i = 0; i < l->text_count; i++) {
		const struct layout_text *t = &l->texts[i];
		double w = (double)utf8_length(t->text, strlen(t->text)) * 0.602 * t->size;
		double x0 = t->anchor == LAYOUT_ANCHOR_START    ? t->x
		            : t->anchor == LAYOUT_ANCHOR_MIDDLE ? t->x - w / 2
		                                                : t->x - w;
		if (x0 < 0 || x0 + w > l->width) {
			fail_msg("header line '%s' spans %.1f..%.1f of %.0f px", t->text, x0,
			        x0 + w, l->width);
		}
	}
}

static bool
header_has(const struct layout *l, const char *needle)
{
	for (size_t i = 0; i < l->text_count; i++) {
		if (strstr(l->texts[i].text, needle)) {
			return true;
		}
	}
	return false;
}

/*
 * Issue 18 point 1: CI paths as labels at 800 and 1200 px: nothing is cut,
 * the numbers come first, no line is wider than the image.
 */
static void
test_header_wraps(void **state)
{
	(void)state;
	struct tree *t = small_tree();
	struct options o;
	picture_options(&o);
	o.base_label = "/home/runner/work/svc/svc/profiles/base-8f3a2c1.folded";
	o.head_label = "/home/runner/work/svc/svc/profiles/head-8f3a2c1.folded";
	static const double widths[] = {800, 1200, 300};
	for (size_t i = 0; i < 3; i++) {
		o.width = widths[i];
		struct layout *l = layout_of(t, &o);
		assert_header_fits(l);
		assert_true(header_has(l, "base-8f3a2c1.folded"));
		assert_true(header_has(l, "head-8f3a2c1.folded"));
		assert_true(header_has(l, "noise floor: 0.1%"));
		/* "base N → head M ..." is the first line after the title. */
		size_t first = 0;
		while (l->texts[first].bold) {
			first++;
		}
		assert_memory_equal(l->texts[first].text, "base 100 ", 9);
		assert_true(l->graph_y > l->texts[l->text_count - 1].y);
		layout_destroy(l);
	}
	tree_destroy(t);
}

/* A subtitle with no space to break at is split, not cut: no character is lost. */
static void
test_header_hard_wrap(void **state)
{
	(void)state;
	struct tree *t = small_tree();
	struct options o;
	picture_options(&o);
	struct buf want, got;
	buf_init(&want);
	buf_init(&got);
	for (int i = 0; i < 100; i++) {
		buf_adds(&want, i % 2 ? "\xce\xb1x" : "y\xe2\x82\xac");
	}
	o.subtitle = want.data;
	struct layout *l = layout_of(t, &o);
	assert_header_fits(l);
	size_t lines = 0;
	for (size_t i = 0; i < l->text_count; i++) {
		const struct layout_text *x = &l->texts[i];
		if (!x->bold && x->anchor == LAYOUT_ANCHOR_MIDDLE) {
			buf_adds(&got, x->text);
			lines++;
		}
	}
	assert_true(lines >= 2);
	assert_string_equal(got.data, want.data);
	layout_destroy(l);
	buf_finish(&got);
	buf_finish(&want);
	tree_destroy(t);
}

/* 100% keeps only frames as wide as the whole graph. */
static void
test_prune_everything(void **state)
{
	(void)state;
	struct tree *t = prune_tree();
	struct options o;
	picture_options(&o);
	o.min_width = 100;
	o.min_width_percent = true;
	struct layout *l = layout_of(t, &o);
	assert_int_equal(l->count, 1);
	assert_int_equal(l->pruned_frames, 2);
	assert_near(l->pruned_samples, 1000, EPS);
	assert_int_equal(l->max_depth, 0);
	layout_destroy(l);
	tree_destroy(t);
}

/* An empty profile gives an empty picture, not a crash. */
static void
test_empty(void **state)
{
	(void)state;
	struct tree *t = tree_create(&defaults);
	tree_finish(t, true);
	struct options o;
	picture_options(&o);
	struct layout *l = layout_of(t, &o);
	assert_int_equal(l->count, 0);
	assert_near(l->max_change, 0, EPS);
	assert_true(l->height > 0);
	layout_destroy(l);
	layout_destroy(NULL);
	tree_destroy(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_widths_head),
	        cmocka_unit_test(test_widths_base),
	        cmocka_unit_test(test_widths_union),
	        cmocka_unit_test(test_widths_normalised),
	        cmocka_unit_test(test_sibling_edges_meet),
	        cmocka_unit_test(test_prune_pixels),
	        cmocka_unit_test(test_prune_keeps_other_views),
	        cmocka_unit_test(test_prune_percent),
	        cmocka_unit_test(test_rows),
	        cmocka_unit_test(test_header_bands),
	        cmocka_unit_test(test_legend_rows),
	        cmocka_unit_test(test_small_changes_pale),
	        cmocka_unit_test(test_deep_stack),
	        cmocka_unit_test(test_label_short_names),
	        cmocka_unit_test(test_colour_self),
	        cmocka_unit_test(test_colour_total),
	        cmocka_unit_test(test_colour_noise_floor),
	        cmocka_unit_test(test_colour_single),
	        cmocka_unit_test(test_label_truncate),
	        cmocka_unit_test(test_label_multibyte),
	        cmocka_unit_test(test_label_annotation),
	        cmocka_unit_test(test_label_invalid_utf8),
	        cmocka_unit_test(test_label_huge_name),
	        cmocka_unit_test(test_label_change),
	        cmocka_unit_test(test_header_wraps),
	        cmocka_unit_test(test_header_hard_wrap),
	        cmocka_unit_test(test_prune_everything),
	        cmocka_unit_test(test_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
