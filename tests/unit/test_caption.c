/* caption: header lines, pruning note, legend. */
#include "caption.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "buf.h"
#include "helpers.h"

/* base 119,000 and head 150,000 samples. */
static struct tree *
diff_tree(bool normalize)
{
	struct tree_options to = {.min_delta = 0.001, .normalize = normalize};
	struct tree *t = tree_create(&to);
	add_stack(t, SIDE_BASE, "main;work", 100000);
	add_stack(t, SIDE_BASE, "main;old", 19000);
	add_stack(t, SIDE_HEAD, "main;work", 120000);
	add_stack(t, SIDE_HEAD, "main;fresh", 29999);
	add_stack(t, SIDE_HEAD, "main;tiny", 1);
	tree_finish(t, true);
	return t;
}

static void
setup_options(struct options *o)
{
	options_init(o);
	o->base_label = "v1.folded";
	o->head_label = "v2.folded";
}

static void
assert_contains(const char *s, const char *needle)
{
	if (!s || !strstr(s, needle)) {
		fail_msg("'%s' does not contain '%s'", s ? s : "(null)", needle);
	}
}

/* Issue 21 item 7: totals past 2^53 print digit for digit. */
static void
test_exact_totals(void **state)
{
	(void)state;
	struct tree_options to = {.min_delta = 0.001};
	struct tree *t = tree_create(&to);
	add_stack(t, SIDE_BASE, "main", UINT64_MAX);
	add_stack(t, SIDE_HEAD, "main", 9007199254740993u);
	tree_finish(t, true);
	struct options o;
	setup_options(&o);
	struct layout *l = layout_of(t, &o);
	/* The caption layout_create made (caption_init of its figures). */
	const struct caption c = *l->caption;
	assert_contains(c.totals, "base 18,446,744,073,709,551,615 \xE2\x86\x92 head "
	                          "9,007,199,254,740,993 samples: -18,437,736,874,454,810,622");
	layout_destroy(l);
	options_finish(&o);
	tree_destroy(t);
}

static void
test_differential(void **state)
{
	(void)state;
	struct tree *t = diff_tree(false);
	struct options o;
	setup_options(&o);
	o.countname = "instructions";
	struct layout *l = layout_of(t, &o);
	/* The caption layout_create made (caption_init of its figures). */
	const struct caption c = *l->caption;
	assert_string_equal(c.title, "Differential flame graph");
	assert_null(c.subtitle);
	/* The numbers first, then the names (issue 18 point 1). */
	assert_string_equal(c.totals, "base 119,000 \xE2\x86\x92 head 150,000 instructions: "
	                              "+31,000 (+26.1%) \xC2\xB7 base: v1.folded \xC2\xB7 head: "
	                              "v2.folded");
	assert_contains(c.rule, "comparison: absolute counts");
	assert_contains(c.rule, "widths: head");
	/* main;old (19,000 base) has no head width: the header says so. */
	assert_contains(c.rule, "(removed code, 19,000 base instructions, not drawn");
	assert_contains(c.rule, "colour: self change");
	assert_contains(c.rule, "noise floor: 0.1%");
	/* "tiny" (1 of 150,000) is under the default 0.1 px. */
	assert_string_equal(c.pruned, "1 instruction in 1 frame narrower than 0.1 px not drawn");
	/* Largest self change: fresh, +29,999 of 150,000 = 19.999%. */
	assert_contains(c.scale,
	        "\xe2\x88\x9a scale, strongest = A, a frame's self change of 29,999 instructions");
	/* Row A is that frame's function (caption_rank.c). */
	assert_string_equal(c.changes[0].marker, "A");
	assert_string_equal(c.changes[0].name, "fresh");
	assert_contains(c.scale, "(20.0% of total)");
	assert_int_equal(c.legend_count, 5);
	static const char *const labels[] = {"slower", "faster", "new", "removed", "unchanged"};
	static const enum node_status status[] = {
	        STATUS_SLOWER, STATUS_FASTER, STATUS_NEW, STATUS_REMOVED, STATUS_SAME};
	for (size_t i = 0; i < 5; i++) {
		assert_string_equal(c.legend[i].label, labels[i]);
		struct rgb want = color_diff(status[i], 1, o.theme);
		assert_memory_equal(&c.legend[i].fill, &want, sizeof(want));
		/* The whole ramp, palest first; unchanged has one swatch. */
		assert_int_equal(c.legend[i].steps, status[i] == STATUS_SAME ? 1 : COLOR_STEPS);
		for (int k = 0; k < c.legend[i].steps; k++) {
			want = color_diff_step(status[i], k + 1, o.theme);
			assert_memory_equal(&c.legend[i].ramp[k], &want, sizeof(want));
		}
	}
	layout_destroy(l);
	tree_destroy(t);
}

/* Issue 18 point 3: the largest self changes, worded as everywhere else. */
static void
test_largest_changes(void **state)
{
	(void)state;
	struct tree *t = diff_tree(false);
	struct options o;
	setup_options(&o);
	struct layout *l = layout_of(t, &o);
	/* The caption layout_create made (caption_init of its figures). */
	const struct caption c = *l->caption;
	assert_string_equal(c.changes_title, "largest changes (self samples):");
	/* "tiny" (+1) is within the noise floor; "main" has no self change. */
	assert_int_equal(c.change_count, 3);
	static const char *const want[][3] = {
	        {"+29,999 (new)", "0 \xE2\x86\x92 29,999", "fresh"},
	        {"+20,000 (+20.0%)", "100,000 \xE2\x86\x92 120,000", "work"},
	        {"-19,000 (removed)", "19,000 \xE2\x86\x92 0", "old"},
	};
	for (size_t i = 0; i < 3; i++) {
		assert_string_equal(c.changes[i].change, want[i][0]);
		assert_string_equal(c.changes[i].counts, want[i][1]);
		assert_string_equal(c.changes[i].name, want[i][2]);
	}
	layout_destroy(l);
	tree_destroy(t);
}

/* The node named leaf whose parent is named parent, TREE_NONE when none. */
static uint32_t
node_under(const struct tree *t, const char *parent, const char *leaf)
{
	for (uint32_t id = 1; id < t->node_count; id++) {
		const struct tree_node *n = tree_node(t, id);
		size_t len, plen;
		const char *name = intern_name(t->names, n->name, &len);
		const char *pname = intern_name(t->names, tree_node(t, n->parent)->name, &plen);
		if (len == strlen(leaf) && memcmp(name, leaf, len) == 0 && plen == strlen(parent) &&
		        memcmp(pname, parent, plen) == 0) {
			return id;
		}
	}
	return TREE_NONE;
}

/*
 * A row points at its function's strongest drawn frame (where its marker
 * goes); of frames that changed as much, the first drawn.
 */
static void
test_row_frames(void **state)
{
	(void)state;
	struct tree_options to = {.min_delta = 0.001};
	struct tree *t = tree_create(&to);
	/* hot: +50 under a, +200 under b; even: +100 under c and under d. */
	add_stack(t, SIDE_BASE, "main;a;hot", 1000);
	add_stack(t, SIDE_BASE, "main;b;hot", 1000);
	add_stack(t, SIDE_BASE, "main;c;even", 1000);
	add_stack(t, SIDE_BASE, "main;d;even", 1000);
	add_stack(t, SIDE_HEAD, "main;a;hot", 1050);
	add_stack(t, SIDE_HEAD, "main;b;hot", 1200);
	add_stack(t, SIDE_HEAD, "main;c;even", 1100);
	add_stack(t, SIDE_HEAD, "main;d;even", 1100);
	tree_finish(t, true);
	struct options o;
	setup_options(&o);
	struct layout *l = layout_of(t, &o);
	const struct caption c = *l->caption;
	assert_int_equal(c.change_count, 2);
	assert_string_equal(c.changes[0].name, "hot");
	assert_int_equal(c.changes[0].frame, node_under(t, "b", "hot"));
	assert_string_equal(c.changes[1].name, "even");
	assert_int_equal(c.changes[1].frame, node_under(t, "c", "even"));
	assert_int_not_equal(c.changes[1].frame, TREE_NONE);
	layout_destroy(l);
	options_finish(&o);
	tree_destroy(t);
}

/* A CI path is shortened in the middle, keeping its file name. */
static void
test_long_names(void **state)
{
	(void)state;
	struct tree *t = diff_tree(false);
	struct options o;
	setup_options(&o);
	o.base_label = "/home/runner/work/svc/svc/profiles/base-8f3a2c1.folded";
	o.head_label = "head.folded";
	struct layout *l = layout_of(t, &o);
	/* The caption layout_create made (caption_init of its figures). */
	const struct caption c = *l->caption;
	assert_contains(c.totals,
	        "base: /home/runner/work/\xE2\x80\xA6/profiles/base-8f3a2c1.folded"
	        " \xC2\xB7 head: head.folded");
	layout_destroy(l);
	tree_destroy(t);
}

static void
test_options_in_captions(void **state)
{
	(void)state;
	struct tree *t = diff_tree(true);
	struct options o;
	setup_options(&o);
	o.title = "Release 2 vs 1";
	o.subtitle = "checkout service";
	o.widths = WIDTHS_UNION;
	o.color_by = COLOR_BY_TOTAL;
	o.theme = THEME_DARK;
	o.min_width = 2; /* "tiny" is far narrower */
	struct layout *l = layout_of(t, &o);
	/* The caption layout_create made (caption_init of its figures). */
	struct caption c = *l->caption;
	assert_string_equal(c.title, "Release 2 vs 1");
	assert_string_equal(c.subtitle, "checkout service");
	assert_contains(c.rule, "comparison: normalised (base scaled by \xc3\x97"
	                        "1.26 to head total)");
	assert_contains(c.rule, "widths: union");
	assert_null(strstr(c.rule, "removed code")); /* union draws it */
	assert_contains(c.rule, "colour: total change");
	assert_contains(c.pruned, "1 sample in 1 frame narrower than 2 px not drawn");
	struct rgb want = color_diff(STATUS_NEW, 1, THEME_DARK);
	assert_memory_equal(&c.legend[2].fill, &want, sizeof(want));
	assert_contains(c.scale, "strongest = A, a frame's total change of ");
	layout_destroy(l);

	o.min_width = 25;
	o.min_width_percent = true;
	o.countname = "bytes";
	l = layout_of(t, &o);
	c = *l->caption;
	/* union basis: old (19,000 x 1.26...) and fresh and tiny go. */
	assert_contains(c.pruned, "frames narrower than 25% of the total not drawn");
	assert_contains(c.pruned, " bytes in 3 frames");
	layout_destroy(l);
	tree_destroy(t);
}

static void
test_single(void **state)
{
	(void)state;
	struct tree *t = tree_create(&(struct tree_options){.min_delta = 0.001});
	add_stack(t, SIDE_HEAD, "main;a", 100000);
	add_stack(t, SIDE_HEAD, "main;b", 50000);
	tree_finish(t, false);
	struct options o;
	options_init(&o);
	o.head_label = "app.folded";
	o.base_label = "base";
	struct layout *l = layout_of(t, &o);
	/* The caption layout_create made (caption_init of its figures). */
	const struct caption c = *l->caption;
	assert_string_equal(c.title, "Flame graph");
	assert_string_equal(c.totals, "150,000 samples \xC2\xB7 app.folded");
	assert_null(c.scale);
	assert_null(c.pruned);
	assert_int_equal(c.legend_count, 0);
	assert_non_null(c.rule);
	layout_destroy(l);
	tree_destroy(t);
}

/* No change at all: the scale says so instead of dividing by zero. */
static void
test_no_change(void **state)
{
	(void)state;
	struct tree *t = tree_create(&(struct tree_options){.min_delta = 0.001});
	add_stack(t, SIDE_BASE, "main", 10);
	add_stack(t, SIDE_HEAD, "main", 10);
	tree_finish(t, true);
	struct options o;
	setup_options(&o);
	struct layout *l = layout_of(t, &o);
	/* The caption layout_create made (caption_init of its figures). */
	const struct caption c = *l->caption;
	assert_contains(c.totals, "samples: 0 (0.0%)");
	assert_contains(c.scale, "no change");
	layout_destroy(l);
	tree_destroy(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_exact_totals),
	        cmocka_unit_test(test_differential),
	        cmocka_unit_test(test_largest_changes),
	        cmocka_unit_test(test_row_frames),
	        cmocka_unit_test(test_long_names),
	        cmocka_unit_test(test_options_in_captions),
	        cmocka_unit_test(test_single),
	        cmocka_unit_test(test_no_change),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
