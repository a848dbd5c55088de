/* options: every option parses, bad values are usage errors, formats, settled defaults. */
#include "options.h"

#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "buf.h"
#include "color.h"
#include "transform.h"

#define MAX_ARGS 64

/* Parses a NULL-terminated list of arguments (after the program name). */
static enum options_result
parse_v(struct options *o, struct diag *err, const char *const *args)
{
	static char *argv[MAX_ARGS];
	int argc = 0;
	argv[argc++] = (char *)"difffold";
	for (; *args; args++) {
		assert_true(argc < MAX_ARGS - 1);
		argv[argc++] = (char *)*args;
	}
	argv[argc] = NULL;
	options_init(o);
	err->msg[0] = '\0';
	/* --help and --version print to stdout: keep the test log quiet. */
	fflush(stdout);
	int saved = dup(STDOUT_FILENO);
	int null = open("/dev/null", O_WRONLY);
	dup2(null, STDOUT_FILENO);
	close(null);
	enum options_result r = options_parse(o, argc, argv, err);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	return r;
}

#define PARSE(o, err, ...) parse_v(o, err, (const char *const[]){__VA_ARGS__, NULL})

static void
expect_usage(const char *want_substring, const char *const *args)
{
	struct options o;
	struct diag err;
	enum options_result r = parse_v(&o, &err, args);
	if (r != OPTIONS_USAGE) {
		fail_msg("accepted: %s ...", args[0] ? args[0] : "(none)");
	}
	if (!strstr(err.msg, want_substring)) {
		fail_msg("message '%s' lacks '%s'", err.msg, want_substring);
	}
	options_finish(&o);
}

#define USAGE(want, ...) expect_usage(want, (const char *const[]){__VA_ARGS__, NULL})

static void
test_defaults(void **state)
{
	(void)state;
	struct options o;
	struct diag err;
	assert_int_equal(PARSE(&o, &err, "base.folded", "head.folded"), OPTIONS_OK);
	assert_int_equal(o.base_count, 1);
	assert_int_equal(o.head_count, 1);
	assert_string_equal(o.base[0], "base.folded");
	assert_string_equal(o.head[0], "head.folded");
	assert_null(o.single);
	assert_false(o.strict);
	assert_false(o.tree.reverse);
	assert_false(o.tree.strip_hex);
	assert_false(o.tree.normalize);
	assert_true(o.tree.min_delta == OPTIONS_DEFAULT_MIN_DELTA);
	assert_int_equal(o.output_count, 1);
	assert_null(o.outputs[0].path);
	assert_int_equal(o.outputs[0].format, FORMAT_SVG);
	assert_int_equal(o.widths, WIDTHS_HEAD);
	assert_true(o.width == 1200);
	assert_int_equal(o.top, 10);
	assert_true(o.fail_on_regression < 0);
	options_finish(&o);
	/* One positional profile. */
	assert_int_equal(PARSE(&o, &err, "-"), OPTIONS_OK);
	assert_string_equal(o.single, "-");
	assert_int_equal(o.base_count + o.head_count, 0);
	options_finish(&o);
}

static void
test_model_options(void **state)
{
	(void)state;
	struct options o;
	struct diag err;
	assert_int_equal(PARSE(&o, &err, "--strict", "--reverse", "--strip-hex", "--normalize",
	                         "--min-delta", "0.05", "a", "b"),
	        OPTIONS_OK);
	assert_true(o.strict);
	assert_true(o.tree.reverse);
	assert_true(o.tree.strip_hex);
	assert_true(o.tree.normalize);
	assert_true(o.tree.min_delta == 0.05);
	options_finish(&o);
	assert_int_equal(PARSE(&o, &err, "--min-delta=0", "x"), OPTIONS_OK);
	assert_true(o.tree.min_delta == 0);
	options_finish(&o);
	/* perf: --weight and the perf reader by name. */
	assert_int_equal(
	        PARSE(&o, &err, "--weight", "period", "--input-format", "perf", "x"), OPTIONS_OK);
	assert_true(o.weight_period);
	assert_true(o.input_forced && o.input_format == INPUT_PERF_SCRIPT);
	options_finish(&o);
	assert_int_equal(PARSE(&o, &err, "--weight", "samples", "x"), OPTIONS_OK);
	assert_false(o.weight_period);
	options_finish(&o);
	/* Options after the profiles are fine too. */
	assert_int_equal(PARSE(&o, &err, "a", "b", "--reverse"), OPTIONS_OK);
	assert_true(o.tree.reverse);
	options_finish(&o);
}

static void
test_base_head_lists(void **state)
{
	(void)state;
	struct options o;
	struct diag err;
	assert_int_equal(PARSE(&o, &err, "--base", "b1", "--head", "h1", "--base=b2", "--base", "-",
	                         "--head", "h2.gz"),
	        OPTIONS_OK);
	assert_int_equal(o.base_count, 3);
	assert_int_equal(o.head_count, 2);
	assert_string_equal(o.base[0], "b1");
	assert_string_equal(o.base[1], "b2");
	assert_string_equal(o.base[2], "-");
	assert_string_equal(o.head[1], "h2.gz");
	options_finish(&o);
}

static void
test_picture_options(void **state)
{
	(void)state;
	struct options o;
	struct diag err;
	assert_int_equal(
	        PARSE(&o, &err, "--widths", "union", "--min-width", "2.5%", "--inverted", "--width",
	                "800", "--frame-height", "20", "--font-size", "10", "--font-family", "Mono",
	                "--title", "T", "--subtitle", "S", "--countname", "ms", "--notes", "N",
	                "--truncate", "left", "--color-by", "total", "--palette", "java", "--theme",
	                "dark", "--base-label", "old", "--head-label", "new", "--scale", "2",
	                "--top", "5", "--image-url", "http://x/y.svg", "--fail-on-regression",
	                "1.5", "a", "b"),
	        OPTIONS_OK);
	assert_int_equal(o.widths, WIDTHS_UNION);
	assert_true(o.min_width == 2.5);
	assert_true(o.min_width_percent);
	assert_true(o.inverted);
	assert_true(o.width == 800);
	assert_true(o.frame_height == 20);
	assert_true(o.font_size == 10);
	assert_string_equal(o.font_family, "Mono");
	assert_string_equal(o.title, "T");
	assert_string_equal(o.subtitle, "S");
	assert_string_equal(o.countname, "ms");
	assert_string_equal(o.notes, "N");
	assert_int_equal(o.truncate, TRUNCATE_LEFT);
	assert_int_equal(o.color_by, COLOR_BY_TOTAL);
	assert_string_equal(o.palette, "java");
	assert_int_equal(o.theme, THEME_DARK);
	assert_string_equal(o.base_label, "old");
	assert_string_equal(o.head_label, "new");
	assert_true(o.scale == 2);
	assert_int_equal(o.top, 5);
	assert_string_equal(o.image_url, "http://x/y.svg");
	assert_true(o.fail_on_regression == 1.5);
	options_finish(&o);
	assert_int_equal(PARSE(&o, &err, "--min-width", "3", "--widths", "base", "x"), OPTIONS_OK);
	assert_true(o.min_width == 3);
	assert_false(o.min_width_percent);
	assert_int_equal(o.widths, WIDTHS_BASE);
	options_finish(&o);
}

/* Issue 18 point 8: --preset comment, and sizes given by name win in any order. */
static void
test_preset(void **state)
{
	(void)state;
	struct options o;
	struct diag err;
	assert_int_equal(PARSE(&o, &err, "--preset", "comment", "a", "b"), OPTIONS_OK);
	assert_true(o.width == 800 && o.font_size == 13 && o.frame_height == 18);
	options_finish(&o);
	assert_int_equal(PARSE(&o, &err, "--width", "1000", "--preset", "comment", "--frame-height",
	                         "20", "a"),
	        OPTIONS_OK);
	assert_true(o.width == 1000 && o.font_size == 13 && o.frame_height == 20);
	options_finish(&o);
	assert_int_equal(
	        PARSE(&o, &err, "--preset", "comment", "--preset", "default", "a"), OPTIONS_OK);
	assert_true(o.width == 1200 && o.font_size == 12 && o.frame_height == 16);
	options_finish(&o);
	USAGE("--preset: comment or default", "--preset", "slides", "a");
	/* Issue 32: the comment preset's compact header and depth cap; a
	 * --max-depth given by name wins; 0 (the default cap) is the default. */
	assert_int_equal(PARSE(&o, &err, "--preset", "comment", "a", "b"), OPTIONS_OK);
	assert_true(o.max_depth == 40 && o.compact_header);
	options_finish(&o);
	assert_int_equal(
	        PARSE(&o, &err, "--max-depth", "7", "--preset", "comment", "a"), OPTIONS_OK);
	assert_true(o.max_depth == 7 && o.compact_header);
	options_finish(&o);
	assert_int_equal(PARSE(&o, &err, "a"), OPTIONS_OK);
	assert_true(o.max_depth == 0 && !o.compact_header);
	options_finish(&o);
	USAGE("--max-depth: invalid value '0'", "--max-depth", "0", "a");
	USAGE("--max-depth: not a whole number of frames", "--max-depth", "2.5", "a");
}

static void
test_outputs(void **state)
{
	(void)state;
	struct options o;
	struct diag err;
	assert_int_equal(PARSE(&o, &err, "-o", "a.svg", "--output", "b.json", "-o", "c.folded",
	                         "-o", "d.png", "-o", "e.pdf", "-o", "f.md", "-o", "g.txt", "-o",
	                         "h.markdown", "x"),
	        OPTIONS_OK);
	const enum format want[] = {FORMAT_SVG, FORMAT_JSON, FORMAT_FOLDED, FORMAT_PNG, FORMAT_PDF,
	        FORMAT_MD, FORMAT_TEXT, FORMAT_MD};
	assert_int_equal(o.output_count, 8);
	for (size_t i = 0; i < 8; i++) {
		assert_int_equal(o.outputs[i].format, want[i]);
	}
	assert_string_equal(o.outputs[1].path, "b.json");
	options_finish(&o);
	/* -f overrides the extension, for every output. */
	assert_int_equal(
	        PARSE(&o, &err, "-o", "a.svg", "-f", "json", "-o", "noext", "x"), OPTIONS_OK);
	assert_int_equal(o.outputs[0].format, FORMAT_JSON);
	assert_int_equal(o.outputs[1].format, FORMAT_JSON);
	options_finish(&o);
	/* -f alone: standard output in that format. */
	assert_int_equal(PARSE(&o, &err, "--format=folded", "x"), OPTIONS_OK);
	assert_int_equal(o.output_count, 1);
	assert_null(o.outputs[0].path);
	assert_int_equal(o.outputs[0].format, FORMAT_FOLDED);
	options_finish(&o);
	const char *names[] = {"svg", "png", "pdf", "json", "folded", "md", "text", "markdown"};
	const enum format fmts[] = {FORMAT_SVG, FORMAT_PNG, FORMAT_PDF, FORMAT_JSON, FORMAT_FOLDED,
	        FORMAT_MD, FORMAT_TEXT, FORMAT_MD};
	for (size_t i = 0; i < 8; i++) {
		assert_int_equal(PARSE(&o, &err, "-f", names[i], "x"), OPTIONS_OK);
		assert_int_equal(o.outputs[0].format, fmts[i]);
		options_finish(&o);
	}
}

static void
test_format_from_path(void **state)
{
	(void)state;
	enum format f;
	assert_true(options_format_from_path("dir.x/out.json", &f));
	assert_int_equal(f, FORMAT_JSON);
	assert_true(options_format_from_path("x.svg", &f));
	assert_int_equal(f, FORMAT_SVG);
	assert_false(options_format_from_path("x.svgz", &f));
	assert_false(options_format_from_path(".svg", &f)); /* no name before it */
	assert_false(options_format_from_path("x", &f));
	/* The extension is matched whatever its case (issue 21). */
	assert_true(options_format_from_path("x.SVG", &f));
	assert_int_equal(f, FORMAT_SVG);
	assert_true(options_format_from_path("x.Png", &f));
	assert_int_equal(f, FORMAT_PNG);
	assert_true(options_format_from_path("dir/OUT.JSON", &f));
	assert_int_equal(f, FORMAT_JSON);
	assert_true(options_format_from_path("r.MarkDown", &f));
	assert_int_equal(f, FORMAT_MD);
	assert_true(options_format_from_path("x.Folded", &f));
	assert_int_equal(f, FORMAT_FOLDED);
	assert_false(options_format_from_path("x.SVGZ", &f));
	assert_false(options_format_from_path(".SVG", &f));
	assert_string_equal(options_format_name(FORMAT_FOLDED), "folded");
	assert_string_equal(options_format_name(FORMAT_TEXT), "text");
}

/* Labels, count name and palette are plain fields after parsing. */
static void
test_settled_defaults(void **state)
{
	(void)state;
	struct options o;
	struct diag err;
	assert_int_equal(
	        PARSE(&o, &err, "--base", "b1", "--base", "b2", "--head", "h1"), OPTIONS_OK);
	/* A side of several files is named by its first and how many more. */
	assert_string_equal(o.base_label, "b1 and 1 more");
	assert_string_equal(o.head_label, "h1");
	assert_string_equal(o.countname, "samples");
	assert_true(o.tree.run_scale == 0); /* summed, not runs */
	options_finish(&o);
	/* --runs with 3 base and 2 head runs compares mean runs: base x 2/3. */
	assert_int_equal(PARSE(&o, &err, "--runs", "--base", "b1", "--base", "b2", "--base", "b3",
	                         "--head", "h1", "--head", "h2"),
	        OPTIONS_OK);
	assert_true(fabs(o.tree.run_scale - 2.0 / 3.0) < 1e-12);
	assert_string_equal(o.palette, "hot");
	options_finish(&o);
	/* One profile is the head, against a base called "base". */
	assert_int_equal(PARSE(&o, &err, "app.folded"), OPTIONS_OK);
	assert_string_equal(o.base_label, "base");
	assert_string_equal(o.head_label, "app.folded");
	options_finish(&o);
	/* Given labels win over the file names, even when empty. */
	assert_int_equal(
	        PARSE(&o, &err, "--base-label", "v1", "--head-label", "", "a", "b"), OPTIONS_OK);
	assert_string_equal(o.base_label, "v1");
	assert_string_equal(o.head_label, "");
	options_finish(&o);
	assert_int_equal(PARSE(&o, &err, "--head-label", "new", "a", "b"), OPTIONS_OK);
	assert_string_equal(o.base_label, "a");
	assert_string_equal(o.head_label, "new");
	options_finish(&o);
	/* Without parsing (library users, tests) the defaults are set too. */
	options_init(&o);
	assert_string_equal(o.base_label, "base");
	assert_string_equal(o.head_label, "head");
	assert_string_equal(o.countname, "samples");
	assert_string_equal(o.palette, "hot");
	options_finish(&o);
}

/* --palette accepts exactly color.c's list, and keeps its spelling. */
static void
test_palettes(void **state)
{
	(void)state;
	size_t n = 0;
	for (; color_palettes[n]; n++) {
		struct options o;
		struct diag err;
		assert_int_equal(PARSE(&o, &err, "--palette", color_palettes[n], "a"), OPTIONS_OK);
		assert_ptr_equal(o.palette, color_palettes[n]);
		options_finish(&o);
	}
	assert_int_equal(n, 15);
	USAGE("--palette: unknown value 'HOT'", "--palette", "HOT", "a");
}

/* NO_COLOR turns colour off only when set and not empty (issue 21). */
static void
test_no_color(void **state)
{
	(void)state;
	assert_false(options_no_color(NULL));
	assert_false(options_no_color(""));
	assert_true(options_no_color("1"));
	assert_true(options_no_color("0"));
}

static void
test_help_version(void **state)
{
	(void)state;
	struct options o;
	struct diag err;
	assert_int_equal(PARSE(&o, &err, "--help"), OPTIONS_EXIT);
	options_finish(&o);
	assert_int_equal(PARSE(&o, &err, "-h", "a", "b"), OPTIONS_EXIT);
	options_finish(&o);
	assert_int_equal(PARSE(&o, &err, "--version"), OPTIONS_EXIT);
	options_finish(&o);
	assert_int_equal(PARSE(&o, &err, "-V"), OPTIONS_EXIT);
	options_finish(&o);
}

static void
test_usage_errors(void **state)
{
	(void)state;
	expect_usage("no input", (const char *const[]){NULL});
	USAGE("too many profiles", "a", "b", "c");
	USAGE("--weight: samples or period", "--weight", "cycles", "a");
	USAGE("unknown option", "--frobnicate", "a");
	USAGE("unknown option", "-x", "a");
	USAGE("needs a value", "a", "--min-delta");
	USAGE("needs a value", "a", "-o");
	USAGE("--min-delta: invalid value 'abc'", "--min-delta", "abc", "a");
	USAGE("--min-delta: invalid value '-0.1'", "--min-delta", "-0.1", "a");
	USAGE("--min-delta: invalid value '2'", "--min-delta", "2", "a");
	USAGE("--min-delta: invalid value 'nan'", "--min-delta", "nan", "a");
	USAGE("--min-delta: invalid value ''", "--min-delta", "", "a");
	USAGE("--min-delta: invalid value '0.1x'", "--min-delta", "0.1x", "a");
	USAGE("extension", "-o", "out.foo", "a");
	USAGE("extension", "-o", "out", "a");
	USAGE("--format: unknown format 'gif'", "-f", "gif", "a");
	USAGE("--base and --head must both be given", "--base", "a");
	USAGE("--base and --head must both be given", "--head", "a");
	USAGE("either as arguments or with --base/--head", "--base", "a", "--head", "b", "c");
	USAGE("--widths: unknown value 'all'", "--widths", "all", "a");
	USAGE("--truncate: unknown value 'middle'", "--truncate", "middle", "a");
	USAGE("--color-by: unknown value 'x'", "--color-by", "x", "a");
	USAGE("--palette: unknown value 'pink'", "--palette", "pink", "a");
	USAGE("--theme: unknown value 'blue'", "--theme", "blue", "a");
	USAGE("--width: invalid value '10'", "--width", "10", "a");
	USAGE("--frame-height: invalid value", "--frame-height", "0", "a");
	USAGE("--font-size: invalid value", "--font-size", "1000", "a");
	USAGE("--scale: invalid value", "--scale", "0", "a");
	USAGE("--top: invalid value", "--top", "0", "a");
	USAGE("--fail-on-regression: invalid value", "--fail-on-regression", "-1", "a");
	USAGE("--min-width: invalid value", "--min-width", "150%", "a");
	USAGE("--min-width: invalid value", "--min-width", "%", "a");
	USAGE("standard input ('-') can be read only once", "-", "-");
	USAGE("standard input ('-') can be read only once", "--base", "-", "--head", "h", "--head",
	        "-");
}

/* A peer's spelling gives the options its difffold equivalent gives. */
static void
expect_same(const char *const *peer, const char *const *own)
{
	struct options a, b;
	struct diag err;
	if (parse_v(&a, &err, peer) != OPTIONS_OK) {
		fail_msg("refused %s: %s", peer[0], err.msg);
	}
	assert_int_equal(parse_v(&b, &err, own), OPTIONS_OK);
	assert_true(a.min_width == b.min_width && a.min_width_percent == b.min_width_percent);
	assert_true(a.frame_height == b.frame_height && a.font_size == b.font_size);
	assert_string_equal(a.font_family, b.font_family);
	assert_string_equal(a.palette, b.palette);
	assert_int_equal(a.tree.normalize, b.tree.normalize);
	assert_int_equal(a.tree.strip_hex, b.tree.strip_hex);
	assert_int_equal(a.inverted, b.inverted);
	struct buf da, db;
	buf_init(&da);
	buf_init(&db);
	if (a.transforms) {
		transform_describe(a.transforms, &da);
	}
	if (b.transforms) {
		transform_describe(b.transforms, &db);
	}
	assert_string_equal(da.data, db.data);
	buf_finish(&da);
	buf_finish(&db);
	options_finish(&a);
	options_finish(&b);
}

#define SAME(peer, own)                                                                            \
	expect_same((const char *const[]){peer, "a", "b", NULL},                                   \
	        (const char *const[]){own, "a", "b", NULL})
#define SAME2(peer, v, own)                                                                        \
	expect_same((const char *const[]){peer, v, "a", "b", NULL},                                \
	        (const char *const[]){own, v, "a", "b", NULL})

static void
test_peer_spellings(void **state)
{
	(void)state;
	SAME2("--minwidth", "0.5", "--min-width");
	SAME2("--minwidth", "1%", "--min-width");
	SAME2("--height", "24", "--frame-height");
	SAME2("--fonttype", "Verdana", "--font-family");
	SAME2("--fontsize", "14", "--font-size");
	SAME2("--colors", "java", "--palette");
	SAME2("-c", "mem", "--palette");
	SAME("-n", "--normalize");
	SAME("-s", "--strip-hex");
	SAME("-i", "--inverted");
	SAME2("--ignore", "^std::", "--exclude");
	SAME2("--include", "main", "--focus");
	expect_same((const char *const[]){"-nsi", "a", "b", NULL},
	        (const char *const[]){"--normalize", "--strip-hex", "--inverted", "a", "b", NULL});
	expect_same((const char *const[]){"--colors=wakeup", "a", "b", NULL},
	        (const char *const[]){"--palette", "aqua", "a", "b", NULL});
	/* Flags whose meaning difffold always has change nothing. */
	SAME("--hash", "--strict");
	SAME("--deterministic", "--strict");
	SAME("--cp", "--strict");
	SAME("--pretty-xml", "--strict");
	SAME2("--nametype", "Symbol:", "--title");

	struct options o;
	struct diag err;
	assert_int_equal(PARSE(&o, &err, "--no-javascript", "a"), OPTIONS_OK);
	assert_true(o.no_javascript);
	options_finish(&o);
	assert_int_equal(PARSE(&o, &err, "a"), OPTIONS_OK);
	assert_false(o.no_javascript);
	options_finish(&o);
}

/* --negate A B: the graph from B to A at B's widths. */
static void
test_negate(void **state)
{
	(void)state;
	struct options o;
	struct diag err;
	assert_int_equal(PARSE(&o, &err, "--negate", "old", "new"), OPTIONS_OK);
	assert_string_equal(o.base[0], "new");
	assert_string_equal(o.head[0], "old");
	assert_string_equal(o.base_label, "new");
	assert_int_equal(o.widths, WIDTHS_BASE);
	options_finish(&o);
	assert_int_equal(PARSE(&o, &err, "--widths", "union", "--negate", "--base", "b1", "--base",
	                         "b2", "--head", "h"),
	        OPTIONS_OK);
	assert_int_equal(o.base_count, 1);
	assert_int_equal(o.head_count, 2);
	assert_string_equal(o.head[1], "b2");
	assert_int_equal(o.widths, WIDTHS_UNION);
	options_finish(&o);
	USAGE("--negate swaps the two profiles", "--negate", "diff.folded");
}

/* Peer spellings that mean something else here say what to use. */
static void
test_peer_refusals(void **state)
{
	(void)state;
	USAGE("--focus '^SYMBOL$' --focus-root", "--base", "main", "a.folded");
	USAGE("scales the base to the head's total", "-normalize", "a", "b");
	USAGE("random colours are not offered", "--random", "a", "b");
	USAGE("--theme", "--bgcolors", "blue", "a", "b");
	USAGE("--normalize scales the base", "--factor", "2", "a", "b");
	USAGE("chain palette", "--colors", "chain", "a", "b");
	USAGE("--flamechart draws one profile in time order", "--flamechart", "a", "b");
	USAGE("--flamechart draws stacks from the root: not with --reverse", "--flamechart",
	        "--reverse", "a");
	USAGE("--colors: unknown value 'hto'; did you mean 'hot'?", "-c", "hto", "a");
	USAGE("long options take two dashes: '-focus'; write '--focus'", "-focus", "x", "a");
}

static void
test_did_you_mean(void **state)
{
	(void)state;
	USAGE("unknown option (see --help): '--minwdith'; did you mean '--minwidth'?", "--minwdith",
	        "3", "a");
	USAGE("'--inverterd'; did you mean '--inverted'?", "--inverterd", "a");
	USAGE("'--colour-by=self'; did you mean '--color-by'?", "--colour-by=self", "a");
	USAGE("'-minwidht'; did you mean '--minwidth'?", "-minwidht", "3", "a");
	USAGE("'--frobnicate'", "--frobnicate", "a");
	USAGE("--palette: unknown value 'jav'; did you mean 'java'?", "--palette", "jav", "a");
	USAGE("--widths: unknown value 'unoin'; did you mean 'union'?", "--widths", "unoin", "a");
	USAGE("--theme: unknown value 'drak'; did you mean 'dark'?", "--theme", "drak", "a");
	USAGE("--truncate: unknown value 'lef'; did you mean 'left'?", "--truncate", "lef", "a");
	USAGE("--input-format: unknown reader 'calgrind'; did you mean 'callgrind'?",
	        "--input-format", "calgrind", "a");
	USAGE("--format: unknown format 'svf'; did you mean 'svg'?", "-f", "svf", "a");
	USAGE("--preset: comment or default, not 'coment'; did you mean 'comment'?", "--preset",
	        "coment", "a");
	USAGE("--weight: samples or period, not 'sample'; did you mean 'samples'?", "--weight",
	        "sample", "a");
	/* Nothing near: the whole list. */
	USAGE("--json-layout: unknown value 'deep' (one of nested, flat)", "--json-layout", "deep",
	        "a");
}

/* getopt_long takes unique prefixes; difffold refuses them with the full name. */
static void
test_no_abbreviations(void **state)
{
	(void)state;
	USAGE("options are not abbreviated: '--skip'; write '--skip-frames'", "--skip", "1", "a");
	USAGE("options are not abbreviated: '--normal'; write '--normalize'", "--normal", "a", "b");
	USAGE("'--inv'; write '--inverted'", "--inv", "a");
	USAGE("'--fo'; write '--format' or '--font-size'", "--fo", "svg", "a");
	/* A value that looks like an option is a value, not an option. */
	struct options o;
	struct diag err;
	assert_int_equal(PARSE(&o, &err, "--title", "--skip", "-o", "--x.svg", "a"), OPTIONS_OK);
	assert_string_equal(o.title, "--skip");
	assert_string_equal(o.outputs[0].path, "--x.svg");
	options_finish(&o);
	assert_int_equal(PARSE(&o, &err, "--", "--skip"), OPTIONS_OK);
	assert_string_equal(o.single, "--skip");
	options_finish(&o);
	assert_int_equal(PARSE(&o, &err, "-oout.svg", "a"), OPTIONS_OK);
	assert_string_equal(o.outputs[0].path, "out.svg");
	options_finish(&o);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_defaults),
	        cmocka_unit_test(test_model_options),
	        cmocka_unit_test(test_base_head_lists),
	        cmocka_unit_test(test_picture_options),
	        cmocka_unit_test(test_preset),
	        cmocka_unit_test(test_outputs),
	        cmocka_unit_test(test_format_from_path),
	        cmocka_unit_test(test_settled_defaults),
	        cmocka_unit_test(test_palettes),
	        cmocka_unit_test(test_no_color),
	        cmocka_unit_test(test_help_version),
	        cmocka_unit_test(test_usage_errors),
	        cmocka_unit_test(test_peer_spellings),
	        cmocka_unit_test(test_negate),
	        cmocka_unit_test(test_peer_refusals),
	        cmocka_unit_test(test_did_you_mean),
	        cmocka_unit_test(test_no_abbreviations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
