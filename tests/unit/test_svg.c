/* svg: the DOM contract of svg_write on small trees. */
#include "svg.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "layout.h"
#include "options.h"
#include "xalloc.h"

/* Output of svg_write for `data` read with `mode`, options adjusted by `tune`. */
struct drawn {
	struct tree *tree;
	struct options opt;
	struct layout *layout;
	char *svg;
};

static void
draw(struct drawn *d, const char *data, enum folded_mode mode, void (*tune)(struct options *))
{
	options_init(&d->opt);
	d->opt.base_label = "base.folded";
	d->opt.head_label = "head.folded";
	if (tune) {
		tune(&d->opt);
	}
	d->tree = tree_from(data, mode, &d->opt.tree);
	tree_finish(d->tree, mode != FOLDED_HEAD);
	d->layout = layout_of(d->tree, &d->opt);
	struct out o;
	out_init_memory(&o);
	svg_write(&o, d->layout);
	d->svg = buf_detach(&o.b, NULL);
}

static void
undraw(struct drawn *d)
{
	free(d->svg);
	layout_destroy(d->layout);
	tree_destroy(d->tree);
	options_finish(&d->opt);
}

static size_t
occurrences(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) {
		n++;
	}
	return n;
}

/* The value of attribute `name` in the first element at or after p. */
static char *
attr(const char *p, const char *name)
{
	struct buf key;
	buf_init(&key);
	buf_printf(&key, " %s=\"", name);
	const char *v = strstr(p, key.data);
	assert_non_null(v);
	v += key.len;
	const char *e = strchr(v, '"');
	assert_non_null(e);
	buf_finish(&key);
	return xmemdup(v, (size_t)(e - v));
}

static const char diff_pair[] = "main;parse;lex 10 15\n"
                                "main;parse 5 5\n"
                                "main;eval 20 10\n"
                                "main;gc 0 7\n"
                                "main;old 4 0\n";

static void
test_one_group_per_box(void **state)
{
	(void)state;
	struct drawn d;
	draw(&d, diff_pair, FOLDED_AUTO, NULL);
	assert_int_equal(occurrences(d.svg, "<g class=\"frame\""), d.layout->count);
	/* all main parse lex eval gc, and old (no head samples) hidden for
	 * the script's base view */
	assert_int_equal(d.layout->count, 7);
	assert_int_equal(occurrences(d.svg, "<g class=\"frame\" display=\"none\""), 1);
	/* title, rect, text in this order in every frame */
	assert_int_equal(occurrences(d.svg, "<title>"), d.layout->count + 1);
	assert_int_equal(occurrences(d.svg, "</title><rect "), d.layout->count);
	assert_int_equal(occurrences(d.svg, "/><text"), d.layout->count);
	/* the first frame is the root */
	const char *first = strstr(d.svg, "<g class=\"frame\"");
	assert_non_null(first);
	assert_memory_equal(strstr(first, "<title>") + 7, "all\n", 4);
	undraw(&d);
}

static void
check_frame(const char *svg, const char *name, const char *status, const char *base,
        const char *head, const char *base_self, const char *head_self)
{
	struct buf key;
	buf_init(&key);
	buf_printf(&key, "<title>%s\n", name);
	const char *t = strstr(svg, key.data);
	assert_non_null(t);
	/* back to the frame's <g> */
	const char *g = t;
	while (g > svg && strncmp(g, "<g class=\"frame\"", 16) != 0) {
		g--;
	}
	const char *names[] = {
	        "data-status", "data-base", "data-head", "data-base-self", "data-head-self"};
	const char *want[] = {status, base, head, base_self, head_self};
	for (size_t i = 0; i < 5; i++) {
		char *v = attr(g, names[i]);
		assert_string_equal(v, want[i]);
		free(v);
	}
	buf_finish(&key);
}

static void
test_data_attributes(void **state)
{
	(void)state;
	struct drawn d;
	draw(&d, diff_pair, FOLDED_AUTO, NULL);
	check_frame(d.svg, "all", "same", "39", "37", "0", "0");
	check_frame(d.svg, "main", "same", "39", "37", "0", "0");
	check_frame(d.svg, "parse", "same", "15", "20", "5", "5");
	check_frame(d.svg, "lex", "slower", "10", "15", "10", "15");
	check_frame(d.svg, "eval", "faster", "20", "10", "20", "10");
	check_frame(d.svg, "gc", "new", "0", "7", "0", "7");
	undraw(&d);
}

/*
 * Counts of 29 and 30 characters (20 digits, a point, nine decimals) in all
 * four data attributes, a self count that is not the total among them: the
 * longest a frame's counts get. The writer reserves room for a frame by
 * counting bytes; the test suite's builds check every write against it.
 */
static const char longest_counts[] =
        "main 9000000000000000000.111111111 9100000000000000000.444444444\n"
        "main;leaf 9000000000000000000.222222222 9200000000000000000.555555555\n";

static void
tune_color_by_total(struct options *o)
{
	o->color_by = COLOR_BY_TOTAL;
}

/* The leaf, whose self counts are its totals: the same under either --color-by. */
static void
check_longest_leaf(const char *svg)
{
	check_frame(svg, "leaf", "slower", "9000000000000000000.222222222",
	        "9200000000000000000.555555555", "9000000000000000000.222222222",
	        "9200000000000000000.555555555");
}

static void
test_longest_counts(void **state)
{
	(void)state;
	struct drawn d;
	draw(&d, longest_counts, FOLDED_AUTO, NULL);
	check_frame(d.svg, "main", "slower", "18000000000000000000.333333333",
	        "18300000000000000000.999999999", "9000000000000000000.111111111",
	        "9100000000000000000.444444444");
	check_longest_leaf(d.svg);
	assert_non_null(strstr(d.svg, "<title>main\n18000000000000000000.333333333\xE2\x86\x92"
	                              "18300000000000000000.999999999</title>"));
	undraw(&d);
	draw(&d, longest_counts, FOLDED_AUTO, tune_color_by_total);
	check_longest_leaf(d.svg);
	undraw(&d);
}

static void
tune_base_widths(struct options *o)
{
	o->widths = WIDTHS_BASE;
}

static void
test_removed_frame_drawn_with_base_widths(void **state)
{
	(void)state;
	struct drawn d;
	draw(&d, diff_pair, FOLDED_AUTO, tune_base_widths);
	check_frame(d.svg, "old", "removed", "4", "0", "4", "0");
	char *widths = attr(d.svg, "data-widths");
	assert_string_equal(widths, "base");
	free(widths);
	undraw(&d);
}

static void
test_ids_carry_prefix(void **state)
{
	(void)state;
	struct drawn d;
	draw(&d, diff_pair, FOLDED_AUTO, NULL);
	char *prefix = attr(d.svg, "data-prefix");
	assert_true(strlen(prefix) > 2);
	size_t ids = 0;
	for (const char *p = strstr(d.svg, " id=\""); p; p = strstr(p + 1, " id=\"")) {
		assert_memory_equal(p + 5, prefix, strlen(prefix));
		ids++;
	}
	assert_true(ids >= 1);
	free(prefix);
	undraw(&d);
}

static void
test_deterministic_and_prefix_differs(void **state)
{
	(void)state;
	struct drawn a, b, c;
	draw(&a, diff_pair, FOLDED_AUTO, NULL);
	draw(&b, diff_pair, FOLDED_AUTO, NULL);
	draw(&c, "main;parse;lex 10 16\nmain;eval 20 10\n", FOLDED_AUTO, NULL);
	assert_string_equal(a.svg, b.svg);
	char *pa = attr(a.svg, "data-prefix"), *pc = attr(c.svg, "data-prefix");
	assert_string_not_equal(pa, pc);
	free(pa);
	free(pc);
	undraw(&a);
	undraw(&b);
	undraw(&c);
}

static void
test_hostile_names_inert(void **state)
{
	(void)state;
	struct drawn d;
	draw(&d,
	        "main;<script>alert(1)</script> 3 4\n"
	        "main;\"><svg onload=alert(1)> 2 2\n"
	        "main;]]><!-- 1 1\n"
	        "main;a\xE2\x80\xA8"
	        "b\x01\xff 1 2\n",
	        FOLDED_AUTO, NULL);
	assert_int_equal(occurrences(d.svg, "<script"), 1); /* ours */
	assert_int_equal(occurrences(d.svg, "<svg"), 1);
	/* onload only ever as escaped text, never as an attribute */
	assert_int_equal(occurrences(d.svg, "onload"), occurrences(d.svg, "&lt;svg onload"));
	assert_int_equal(occurrences(d.svg, "]]>"), 2); /* the ends of style and script */
	assert_int_equal(occurrences(d.svg, "<!--"), 0);
	assert_non_null(strstr(d.svg, "<title>a&#x2028;b\xEF\xBF\xBD\xEF\xBF\xBD\n"));
	/* no name inside the script */
	const char *script = strstr(d.svg, "<script");
	assert_null(strstr(script, "alert(1)"));
	undraw(&d);
}

static void
test_labels_follow_layout(void **state)
{
	(void)state;
	struct drawn d;
	draw(&d, diff_pair, FOLDED_AUTO, NULL);
	/* The root spans the graph: its label is the name, 3 px inside its rect. */
	const char *g = strstr(d.svg, "<g class=\"frame\"");
	const char *rect = strstr(g, "<rect");
	const char *text = strstr(g, "<text");
	char *rx = attr(rect, "x"), *tx = attr(text, "x");
	assert_true(strtod(tx, NULL) - strtod(rx, NULL) == 3.0);
	char *pad = attr(d.svg, "data-label-pad");
	assert_string_equal(pad, "3");
	assert_memory_equal(strchr(text, '>') + 1, "all</text>", 10);
	free(rx);
	free(tx);
	free(pad);
	undraw(&d);
}

static void
test_single_profile(void **state)
{
	(void)state;
	struct drawn d;
	draw(&d, "main;a 3\nmain;b 1\n", FOLDED_HEAD, NULL);
	char *diff = attr(d.svg, "data-differential");
	assert_string_equal(diff, "0");
	free(diff);
	check_frame(d.svg, "a", "same", "0", "3", "0", "3");
	assert_non_null(strstr(d.svg, "<title>a\n3</title>"));
	undraw(&d);
}

static void
tune_notes(struct options *o)
{
	o->notes = "built from <commit> & \"friends\"";
	o->theme = THEME_DARK;
}

static void
test_notes_and_theme(void **state)
{
	(void)state;
	struct drawn d;
	draw(&d, diff_pair, FOLDED_AUTO, tune_notes);
	assert_non_null(
	        strstr(d.svg, "<desc>built from &lt;commit&gt; &amp; &quot;friends&quot;</desc>"));
	char hex[8];
	color_hex(color_background(THEME_DARK), hex);
	const char *bg = strstr(d.svg, "<rect class=\"background\"");
	assert_non_null(bg);
	char *fill = attr(bg, "fill");
	assert_string_equal(fill, hex);
	free(fill);
	undraw(&d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_one_group_per_box),
	        cmocka_unit_test(test_data_attributes),
	        cmocka_unit_test(test_longest_counts),
	        cmocka_unit_test(test_removed_frame_drawn_with_base_widths),
	        cmocka_unit_test(test_ids_carry_prefix),
	        cmocka_unit_test(test_deterministic_and_prefix_differs),
	        cmocka_unit_test(test_hostile_names_inert),
	        cmocka_unit_test(test_labels_follow_layout),
	        cmocka_unit_test(test_single_profile),
	        cmocka_unit_test(test_notes_and_theme),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
