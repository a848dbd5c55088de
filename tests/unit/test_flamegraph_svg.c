/* flamegraph_svg: flame graphs of flamegraph.pl, inferno and difffold read back into stacks. */
#include "flamegraph_svg.h"

#include "helpers.h"
#include "layout.h"
#include "svg.h"

static const char fgpl_head[] =
        "<?xml version=\"1.0\" standalone=\"no\"?>\n"
        "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
        "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n"
        "<svg version=\"1.1\" width=\"1200\" height=\"150\" onload=\"init(evt)\" "
        "xmlns=\"http://www.w3.org/2000/svg\">\n"
        "<!-- Flame graph stack visualization. See https://github.com/brendangregg/FlameGraph "
        "-->\n<g id=\"frames\">\n";

/* A frame as flamegraph.pl writes it: pixels, thousands separators. */
#define FGPL(name, count, pct, x, y, w)                                                            \
	"<g >\n<title>" name " (" count " samples, " pct "%)</title><rect x=\"" x "\" y=\"" y      \
	"\" width=\"" w "\" height=\"15.0\" fill=\"rgb(230,100,10)\" rx=\"2\" ry=\"2\" />\n"       \
	"<text  x=\"13.00\" y=\"100.5\" >" name "</text>\n</g>\n"

/* Frames out of order, as flamegraph.pl's hash gives them; main's 1 left
 * over is a child it pruned. */
static const char fgpl_body[] = FGPL("a&lt;b&gt; &amp; &#x263A;", "2,999", "29.99", "718.0", "68.0",
        "354.0") FGPL("idle", "1,000", "10.00", "1072.0", "84.0", "118.0") FGPL("main", "9,000",
        "90.00", "10.0", "84.0", "1062.0") FGPL("lex", "5,000", "50.00", "10.0", "52.0", "590.0")
        FGPL("all", "10,000", "100%", "10.0", "100.0", "1180.0")
                FGPL("parse", "6,000", "60.00", "10.0", "68.0", "708.0") "</g>\n</svg>\n";

static const char fgpl_want[] = "idle 1000\n"
                                "main 1\n"
                                "main;a<b> & \xe2\x98\xba 2999\n"
                                "main;parse 1000\n"
                                "main;parse;lex 5000\n";

/* Reads svg into a fresh tree; its folded dump in *dump (caller frees). */
static bool
read_svg(const char *svg, size_t len, enum side side, bool both, char **dump,
        struct flamegraph_svg_info *info, struct diag *err)
{
	struct tree_options topt = {.min_delta = 0.001, .max_nodes = 1u << 30};
	struct tree *t = tree_create(&topt);
	bool ok = flamegraph_svg_read_mem(t, side, both, "g.svg", svg, len, info, err);
	*dump = NULL;
	if (ok) {
		tree_finish(t, info->differential || side == SIDE_BASE);
		*dump = dump_tree(t);
	}
	tree_destroy(t);
	return ok;
}

static char *
concat(const char *a, const char *b)
{
	struct buf s;
	buf_init(&s);
	buf_adds(&s, a);
	buf_adds(&s, b);
	return buf_detach(&s, NULL);
}

/* svg, read as a single profile, has the stacks want. */
static void
expect_stacks(const char *svg, const char *want, struct flamegraph_svg_info *info)
{
	char *dump;
	struct diag err;
	if (!read_svg(svg, strlen(svg), SIDE_HEAD, true, &dump, info, &err)) {
		fail_msg("%s", err.msg);
	}
	assert_string_equal(dump, want);
	free(dump);
}

static void
test_detect(void **state)
{
	(void)state;
	assert_int_equal(
	        flamegraph_svg_detect(fgpl_head, strlen(fgpl_head)), FLAMEGRAPH_SVG_FLAMEGRAPH_PL);
	static const char inferno[] = "<?xml version=\"1.0\"?><svg version=\"1.1\" "
	                              "xmlns:fg=\"http://github.com/jonhoo/inferno\">";
	assert_int_equal(flamegraph_svg_detect(inferno, strlen(inferno)), FLAMEGRAPH_SVG_INFERNO);
	static const char own[] = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"difffold\">";
	assert_int_equal(flamegraph_svg_detect(own, strlen(own)), FLAMEGRAPH_SVG_DIFFFOLD);
	static const char plain[] = "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect/></svg>";
	assert_int_equal(flamegraph_svg_detect(plain, strlen(plain)), FLAMEGRAPH_SVG_NONE);
	static const char html[] = "<html><body>Flame graph stack visualization</body></html>";
	assert_int_equal(flamegraph_svg_detect(html, strlen(html)), FLAMEGRAPH_SVG_NONE);
	static const char async[] =
	        "<!DOCTYPE html>\n<html lang='en'><body><header>Produced by <a "
	        "href='https://github.com/async-profiler/async-profiler'>async-profiler</a>"
	        "</header>\n<canvas id='canvas'></canvas><script>f(0,0,10,3,'all')</script>";
	assert_int_equal(
	        flamegraph_svg_detect(async, strlen(async)), FLAMEGRAPH_SVG_ASYNC_PROFILER_HTML);
	struct tree_options topt = {.min_delta = 0.001, .max_nodes = 1000};
	struct tree *t = tree_create(&topt);
	struct flamegraph_svg_info info;
	struct diag err;
	assert_false(flamegraph_svg_read_mem(
	        t, SIDE_HEAD, true, "flame.html", async, strlen(async), &info, &err));
	assert_non_null(strstr(err.msg, "flame.html: an async-profiler page without a pool"));
	assert_non_null(strstr(err.msg, "asprof -o collapsed"));
	tree_destroy(t);
}

static void
test_flamegraph_pl(void **state)
{
	(void)state;
	char *svg = concat(fgpl_head, fgpl_body);
	struct flamegraph_svg_info info;
	expect_stacks(svg, fgpl_want, &info);
	assert_int_equal(info.kind, FLAMEGRAPH_SVG_FLAMEGRAPH_PL);
	assert_int_equal(info.frames, 5);
	assert_string_equal(info.unit, "samples");
	assert_false(info.differential);
	free(svg);
}

/* async-profiler's page: the template's head, a pool, frames, its tail. */
#define ASYNC_PAGE(maxdiff, pool, frames)                                                          \
	"<!DOCTYPE html>\n<html lang='en'>\n<body>\n<header style='text-align: right'>Produced "   \
	"by <a href='https://github.com/async-profiler/async-profiler'>async-profiler</a>"         \
	"</header>\n<canvas id='canvas'></canvas>\n<script>\n\t'use strict';\n\tconst maxdiff "    \
	"= " maxdiff ";\n\tfunction f(key, level, left, width) {}\nconst cpool = [\n" pool         \
	"];\nunpack(cpool);\n\n" frames "search();\n</script></body></html>\n"

static void
test_async_profiler(void **state)
{
	(void)state;
	/* all 10: idle 3, main 7 (self 1): parse 4 (self 3): parse's 1; run 2. */
	static const char page[] = ASYNC_PAGE("-1",
	        "'all',\n' idle',\n' main',\n' parse',\n"
	        "'%\\'s',\n' run'\n",
	        "n(3,10)\nu(9,3)\nn(17,7)\nf(25,2,1,4)\nf(33,3,3,1)\nf(41,2,1,2)\n");
	struct flamegraph_svg_info info;
	expect_stacks(
	        page, "idle 3\nmain 1\nmain;parse 3\nmain;parse;parse's 1\nmain;run 2\n", &info);
	assert_int_equal(info.kind, FLAMEGRAPH_SVG_ASYNC_PROFILER_HTML);
	/* A width left out is the last one: u(9) is 3 wide like idle before it. */
	static const char same[] = ASYNC_PAGE("-1",
	        "'all',\n' idle',\n' main',\n' parse',\n"
	        "'%\\'s',\n' run'\n",
	        "n(3,6)\nu(9,3)\nn(17)\n");
	expect_stacks(same, "idle 3\nmain 3\n", &info);
}

/* A page or an SVG that is refused, with why in the message. */
static void
refused_whole(const char *page, const char *why)
{
	char *dump;
	struct flamegraph_svg_info info;
	struct diag err;
	if (read_svg(page, strlen(page), SIDE_HEAD, true, &dump, &info, &err)) {
		fail_msg("read: %s", dump);
	}
	if (!strstr(err.msg, why)) {
		fail_msg("message '%s' lacks '%s'", err.msg, why);
	}
}

static void
test_async_profiler_refused(void **state)
{
	(void)state;
	refused_whole(ASYNC_PAGE("12", "'all'\n", "n(3,10)\n"),
	        "g.svg:8: async-profiler's differential page");
	refused_whole(ASYNC_PAGE("-1", "'all'\n", "n(3,10)\nu(9,3)\n"),
	        "g.svg:16: a frame of async-profiler's script is malformed");
	refused_whole(ASYNC_PAGE("-1", "'all',\n'~x'\n", "n(3,10)\n"),
	        "g.svg:12: a name of the pool shares more than the last");
	refused_whole(ASYNC_PAGE("-1", "all\n", "n(3,10)\n"), "is not quoted");
	refused_whole(ASYNC_PAGE("-1", "'all'\n", "n(3,9007199254740993)\n"), "out of range");
	refused_whole(ASYNC_PAGE("-1", "'all'\n", "n(3,10)\nu(0,11)\n"),
	        "children add up to more than it");
	static const char old[] = "<html><body><a href='https://github.com/jvm-profiling-tools/"
	                          "async-profiler'>async-profiler</a><canvas id='canvas'></canvas>"
	                          "<script>f(0,0,10,3,'all')\n</script></body></html>\n";
	refused_whole(old, "without a pool of names");
}

/* A function named "all" as wide as the root, drawn before it, is not the root. */
static void
test_function_named_all(void **state)
{
	(void)state;
	char *svg = concat(fgpl_head,
	        FGPL("all", "10", "100", "10.0", "84.0", "1180.0")
	                FGPL("all", "10", "100", "10.0", "100.0", "1180.0")
	                        FGPL("x", "10", "100", "10.0", "68.0", "1180.0") "</g></svg>");
	struct flamegraph_svg_info info;
	expect_stacks(svg, "all;x 10\n", &info);
	free(svg);
}

/* An icicle graph: the root on top, rows going down. */
static void
test_inverted(void **state)
{
	(void)state;
	char *svg = concat(fgpl_head,
	        FGPL("lex", "5,000", "50.00", "10.0", "100.0", "590.0") FGPL(
	                "parse", "6,000", "60.00", "10.0", "84.0", "708.0") FGPL("main", "9,000",
	                "90.00", "10.0", "68.0", "1062.0") FGPL("all", "10,000", "100%", "10.0",
	                "52.0", "1180.0") FGPL("a&lt;b&gt; &amp; &#x263A;", "2,999", "29.99",
	                "718.0", "84.0", "354.0")
	                FGPL("idle", "1,000", "10.00", "1072.0", "68.0", "118.0") "</g></svg>");
	struct flamegraph_svg_info info;
	expect_stacks(svg, fgpl_want, &info);
	free(svg);
}

#define INFERNO_HEAD                                                                               \
	"<?xml version=\"1.0\" standalone=\"no\"?><svg version=\"1.1\" width=\"1200\" "            \
	"xmlns=\"http://www.w3.org/2000/svg\" xmlns:fg=\"http://github.com/jonhoo/inferno\">"      \
	"<svg id=\"frames\" x=\"10\" width=\"1180\" total_samples=\"7\">"
#define INFERNO(title, y, x, w)                                                                    \
	"<g><title>" title "</title><rect x=\"0.0000%\" y=\"" y "\" width=\"1%\" height=\"15\" "   \
	"fill=\"rgb(1,2,3)\" fg:x=\"" x "\" fg:w=\"" w                                             \
	"\"/><text x=\"0.25%\" y=\"1\"></text></g>\n"

static void
test_inferno(void **state)
{
	(void)state;
	static const char svg[] = INFERNO_HEAD INFERNO("all (7 bytes, 100%)", "101", "0", "7")
	        INFERNO("b (3 bytes, 42.86%)", "85", "4", "3")
	                INFERNO("a (4 bytes, 57.14%)", "85", "0", "4")
	                        INFERNO("c (4 bytes, 57.14%)", "69", "0", "4") "</svg></svg>";
	char *dump;
	struct flamegraph_svg_info info;
	struct diag err;
	if (!read_svg(svg, strlen(svg), SIDE_BASE, false, &dump, &info, &err)) {
		fail_msg("%s", err.msg);
	}
	/* The base side: the head is empty. */
	assert_string_equal(dump, "a;c 4 0\nb 3 0\n");
	assert_int_equal(info.kind, FLAMEGRAPH_SVG_INFERNO);
	assert_string_equal(info.unit, "bytes");
	free(dump);

	static const char diff[] = INFERNO_HEAD INFERNO("all (7 samples, 100%; 0.00%)", "101", "0",
	        "7") INFERNO("a (7 samples, 100%; +5.00%)", "85", "0", "7") "</svg></svg>";
	assert_false(read_svg(diff, strlen(diff), SIDE_HEAD, true, &dump, &info, &err));
	assert_non_null(strstr(err.msg, "g.svg:1: a differential flame graph"));
	assert_non_null(strstr(err.msg, "give difffold the two profiles"));
}

/* difffold's own SVG: the same stacks, both sides of a differential one. */
static char *
own_svg(const char *folded, void (*tune)(struct options *))
{
	struct options o;
	options_init(&o);
	o.min_width = 0;
	if (tune) {
		tune(&o);
	}
	struct tree *t = tree_from(folded, FOLDED_AUTO, &o.tree);
	tree_finish(t, true);
	struct layout *l = layout_of(t, &o);
	struct out out;
	out_init_memory(&out);
	svg_write(&out, l);
	layout_destroy(l);
	tree_destroy(t);
	options_finish(&o);
	return buf_detach(&out.b, NULL);
}

/* Deeper than the default --max-depth: every frame drawn, to read back. */
static void
tune_deep(struct options *o)
{
	o->max_depth = 20000;
}

static void
tune_inverted(struct options *o)
{
	o->inverted = true;
	o->widths = WIDTHS_BASE;
}

static void
check_round_trip(const char *folded, void (*tune)(struct options *))
{
	char *svg = own_svg(folded, tune);
	char *dump;
	struct flamegraph_svg_info info;
	struct diag err;
	if (!read_svg(svg, strlen(svg), SIDE_HEAD, true, &dump, &info, &err)) {
		fail_msg("%s", err.msg);
	}
	struct tree *t = tree_from(folded, FOLDED_AUTO, NULL);
	tree_finish(t, true);
	char *want = dump_tree(t);
	tree_destroy(t);
	assert_string_equal(dump, want);
	assert_true(info.differential);
	assert_int_equal(info.pruned, 0);
	free(want);
	free(dump);
	/* Two profiles in one file cannot be one side of a pair. */
	assert_false(read_svg(svg, strlen(svg), SIDE_BASE, false, &dump, &info, &err));
	assert_non_null(strstr(err.msg, "holds two profiles"));
	free(svg);
}

static void
test_own_round_trip(void **state)
{
	(void)state;
	static const char pair[] = "main;parse;lex 10 15\n"
	                           "main;parse 3 0\n"
	                           "main;<script>&\"' 0 4\n"
	                           "main;gone 5 0\n"
	                           "idle 1.25 2.5\n";
	check_round_trip(pair, NULL);
	check_round_trip(pair, tune_inverted);
}

/* 10,000 frames deep: no recursion on the way back either. */
static void
test_own_deep(void **state)
{
	(void)state;
	struct buf stack;
	buf_init(&stack);
	for (int i = 0; i < 10000; i++) {
		buf_printf(&stack, "%sf%d", i ? ";" : "", i % 7);
	}
	buf_adds(&stack, " 3 5\n");
	check_round_trip(stack.data, tune_deep);
	buf_finish(&stack);
}

static void
expect_refused(const char *body, const char *why)
{
	char *svg = concat(fgpl_head, body);
	refused_whole(svg, why);
	free(svg);
}

/* A deep chain with a count at every frame: frame by frame it reads, but
 * whole paths (--reverse) would cost the depth squared: refused. */
static void
test_deep_paths_bounded(void **state)
{
	(void)state;
	struct buf folded;
	buf_init(&folded);
	struct buf stack;
	buf_init(&stack);
	for (int i = 0; i < 6000; i++) {
		buf_printf(&stack, "%sf%d", i ? ";" : "", i);
		buf_printf(&folded, "%s 1\n", stack.data);
	}
	char *svg = own_svg(folded.data, tune_deep);
	struct tree_options topt = {.min_delta = 0.001, .max_nodes = 1u << 30, .reverse = true};
	struct tree *t = tree_create(&topt);
	struct flamegraph_svg_info info;
	struct diag err;
	assert_false(flamegraph_svg_read_mem(
	        t, SIDE_HEAD, true, "g.svg", svg, strlen(svg), &info, &err));
	assert_non_null(strstr(err.msg, "too deep to merge whole"));
	tree_destroy(t);
	/* The frame limit holds while the frames are read. */
	struct tree_options small = {.min_delta = 0.001, .max_nodes = 100};
	t = tree_create(&small);
	assert_false(flamegraph_svg_read_mem(
	        t, SIDE_HEAD, true, "g.svg", svg, strlen(svg), &info, &err));
	assert_non_null(strstr(err.msg, "more frames drawn than --max-frames allows"));
	tree_destroy(t);
	char *dump;
	if (!read_svg(svg, strlen(svg), SIDE_HEAD, true, &dump, &info, &err)) {
		fail_msg("%s", err.msg);
	}
	free(dump);
	free(svg);
	buf_finish(&stack);
	buf_finish(&folded);
}

/* Through a file: frames cut between the source's 128 KiB chunks. */
static void
test_source_chunks(void **state)
{
	(void)state;
	struct buf folded;
	buf_init(&folded);
	for (int i = 0; i < 3000; i++) {
		buf_printf(
		        &folded, "main;mod%d;fn%d;leaf&%d %d %d\n", i % 13, i, i % 5, i + 1, 2 * i);
	}
	char *svg = own_svg(folded.data, NULL);
	assert_true(strlen(svg) > 3 * SOURCE_READ_SIZE);
	char *path = temp_file(".svg", svg, strlen(svg));
	struct diag err;
	struct source *src = source_open(path, NULL, &err);
	assert_non_null(src);
	char *head = malloc(65536);
	bool whole;
	size_t len = source_peek(src, head, 65536, &whole, &err);
	struct tree_options topt = {.min_delta = 0.001, .max_nodes = 1u << 30};
	struct tree *t = tree_create(&topt);
	struct flamegraph_svg_info info;
	if (!flamegraph_svg_read_source(t, SIDE_HEAD, true, src, head, len, &info, &err)) {
		fail_msg("%s", err.msg);
	}
	tree_finish(t, true);
	char *dump = dump_tree(t);
	struct tree *want = tree_from(folded.data, FOLDED_AUTO, NULL);
	tree_finish(want, true);
	char *want_dump = dump_tree(want);
	assert_string_equal(dump, want_dump);
	free(want_dump);
	free(dump);
	tree_destroy(want);
	tree_destroy(t);
	source_close(src);
	free(head);
	unlink(path);
	free(path);
	free(svg);
	buf_finish(&folded);
}

static const char root_frame[] = FGPL("all", "10", "100", "10.0", "100.0", "1180.0");

/* The root, then frames: refused with why. */
static void
refused_under_root(const char *frames, const char *why)
{
	char *body = concat(root_frame, frames);
	expect_refused(body, why);
	free(body);
}

/* A flame graph from a pull request is hostile input. */
static void
test_hostile(void **state)
{
	(void)state;
	refused_under_root(FGPL("&xxe;", "10", "100", "10.0", "84.0", "1180.0"),
	        "g.svg:10: an entity XML does not predefine");
	refused_under_root(FGPL("&#0;", "10", "100", "10.0", "84.0", "1180.0"), "entity");
	expect_refused(root_frame, "without frames");
	expect_refused(FGPL("main", "10", "100", "10.0", "100.0", "1180.0")
	                       FGPL("x", "10", "100", "10.0", "84.0", "1180.0"),
	        "without its root frame `all`");
	/* A frame on the far side of the root's row: that row is no first or last. */
	refused_under_root(FGPL("x", "5", "50", "10.0", "84.0", "590.0")
	                           FGPL("y", "5", "50", "10.0", "116.0", "590.0"),
	        "without its root frame `all`");
	refused_under_root(FGPL("x", "20", "100", "10.0", "84.0", "1180.0"),
	        "children add up to more than it");
	refused_under_root(FGPL("x", "5", "50", "10.0", "84.0", "590.0")
	                           FGPL("y", "5", "50", "900.0", "68.0", "10.0"),
	        "g.svg:14: a frame over no frame of the row below");
	refused_under_root(FGPL("x", "5", "50", "10.0", "90.0", "590.0")
	                           FGPL("y", "5", "50", "10.0", "84.0", "10.0"),
	        "between two rows");
	refused_under_root("<g ><title>x <b>(5 samples, 50%)</title><rect y=\"84\"/></g>",
	        "markup inside a frame's title");
	refused_under_root(
	        "<g ><title>x (5 samples, 50%)</title><text/></g>", "not followed by its <rect>");
	refused_under_root("<g ><title>x (5 samples, 50%)</title><rect y=\"84\" x=\"1e999\"/></g>",
	        "malformed attribute");
	refused_under_root("<g ><title>x (5 samples, 50%)</title><rect x=\"84\"/></g>", "or no y");
	refused_under_root(
	        "<g ><title>x (many samples, 50%)</title><rect y=\"84\"/></g>", "has no count");
	refused_under_root("<g ><title>x (5 samples, 50%)</title><rect y=84/></g>", "malformed");
	refused_under_root("<g ><title>x (5 samples, 50%)</title><rect y=\"84",
	        "the file ends inside a frame");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_detect),
	        cmocka_unit_test(test_flamegraph_pl),
	        cmocka_unit_test(test_inverted),
	        cmocka_unit_test(test_function_named_all),
	        cmocka_unit_test(test_async_profiler),
	        cmocka_unit_test(test_async_profiler_refused),
	        cmocka_unit_test(test_inferno),
	        cmocka_unit_test(test_own_round_trip),
	        cmocka_unit_test(test_own_deep),
	        cmocka_unit_test(test_source_chunks),
	        cmocka_unit_test(test_deep_paths_bounded),
	        cmocka_unit_test(test_hostile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
