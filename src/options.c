#include "buf.h"
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "color.h"
#include "escape.h"
#include "transform.h"
#include "xalloc.h"

#ifndef DIFFFOLD_VERSION
#define DIFFFOLD_VERSION "unknown"
#endif

static const char usage_text[] =
        "Usage: difffold [OPTIONS] BASE HEAD     differential flame graph of two profiles\n"
        "       difffold [OPTIONS] PROFILE       flame graph of one profile (or a 3-column diff)\n"
        "\n"
        "Reads folded stacks (`frame;frame;leaf COUNT` a line), valgrind callgrind files,\n"
        "`perf script` output, speedscope, Firefox Profiler (samply) and DHAT JSON, each\n"
        "judged by its content (`-` is standard input, gzip is read transparently;\n"
        "other profilers' formats are refused with what to do instead), and writes an\n"
        "SVG flame graph to standard output. callgrind stacks are\n"
        "reconstructed from the call graph unless the file has call contexts (valgrind\n"
        "--separate-callers=N); the picture and the reports say which, and self costs are\n"
        "exact either way. perf script samples are folded as stackcollapse-perf.pl does.\n"
        "pprof profiles (profile.proto) and valgrind massif heap trees are read too.\n"
        "\n"
        "Input:\n"
        "  --base FILE           add FILE to the base profile (repeatable)\n"
        "  --head FILE           add FILE to the head profile (repeatable)\n"
        "  --strict              stop at the first malformed line (default: skip, warn once)\n"
        "  --input-format NAME   read every input as folded, callgrind, perf, pprof,\n"
        "                        massif, speedscope, gecko or dhat (default: each file\n"
        "                        by its content; other formats are refused)\n"
        "  --event NAME          callgrind: the event to read, or CEst for estimated\n"
        "                        cycles (default the file's first); perf: the event to\n"
        "                        read when several were recorded (cycles, cpu-clock...);\n"
        "                        pprof: the sample type, by name or index (cpu,\n"
        "                        alloc_space...; default the profile's default, else\n"
        "                        its last); dhat: the metric (tb total bytes, default;\n"
        "                        tbk, mb...)\n"
        "  --objects             callgrind: name frames `function [object]`\n"
        "  --weight WHAT         perf: count samples or their period (default samples)\n"
        "  --snapshot N          massif: the snapshot whose heap tree is read, a number\n"
        "                        or peak (default peak)\n"
        "  --reverse             merge stacks from the leaf end\n"
        "  --strip-hex           replace hex literals 0x1234abcd with 0x... before merging\n"
        "  --normalize           scale base counts by head total / base total\n"
        "  --min-delta SHARE     noise floor for slower/faster, a share of the total\n"
        "                        (default 0.001, i.e. 0.1%)\n"
        "  --max-frames N        fail when the merged tree would have more than N frames\n"
        "                        (default 10000000)\n"
        /* matching across builds (match.h, docs/matching.md) */
        "  --exact-names         compare names byte for byte: no volatile-name rules\n"
        "                        (Rust hashes, clone suffixes, closure numbers...)\n"
        "  --no-match            match nothing across builds: no volatile-name rules,\n"
        "                        wrappers, renames or moves\n"
        "\n"
        "Making two runs comparable (applied to both sides, in this order, whatever the\n"
        "order given; patterns are PCRE2; a stack left empty is dropped):\n"
        "  --replace REGEX=REPLACEMENT\n"
        "                        rewrite every match in frame names (repeatable, in\n"
        "                        order); groups $1 or \\1, ${name}; $$ is a '$'; a '='\n"
        "                        in REGEX is written \\=\n"
        "  --hide REGEX          remove matching frames, their cost to the parent\n"
        "  --focus REGEX         keep only stacks through a matching frame\n"
        "  --focus-root          with --focus: start stacks at the first matching frame\n"
        "  --exclude REGEX       drop stacks through a matching frame\n"
        "  --skip-frames N       drop the first N frames of every stack (default 0)\n"
        "  --collapse-recursion  one frame for consecutive repeats of a frame\n"
        "\n"
        "Output:\n"
        "  -o, --output FILE     write to FILE instead of standard output (repeatable;\n"
        "                        format from the extension: .svg .png .pdf .json .folded\n"
        "                        .txt .md); files are replaced atomically\n"
        "  -f, --format FORMAT   svg, png, pdf, json, folded, md, text (default svg)\n"
        "  --json-layout LAYOUT  nested (one object per stack level) or flat (a node\n"
        "                        array with parent ids, for any depth) (default nested)\n"
        "\n"
        "Picture:\n"
        "  --widths BASIS        head, base or union: what frame widths show (default head)\n"
        "  --min-width W         prune frames narrower than W pixels, or W% of the total\n"
        "                        (default 0.1)\n"
        "  --inverted            icicle graph: root on top\n"
        "  --preset NAME         comment: sized for a pull-request comment (800 px wide,\n"
        "                        13 px text, 18 px frames); default: the defaults;\n"
        "                        --width, --font-size, --frame-height override it\n"
        "                        (default default)\n"
        "  --width PX            image width (default 1200)\n"
        "  --frame-height PX     frame height (default 16)\n"
        "  --font-size PX        label font size (default 12)\n"
        "  --font-family NAME    label font (default a monospace stack)\n"
        "  --title TEXT          title (default \"Differential flame graph\" or \"Flame graph\")\n"
        "  --subtitle TEXT       second header line (default none)\n"
        "  --countname WORD      unit of the counts (default samples)\n"
        "  --notes TEXT          text stored in the image's description (default none)\n"
        "  --truncate SIDE       cut long labels on the right or left (default right)\n"
        "  --color-by WHAT       self or total change colours a frame (default self)\n"
        "  --palette NAME        single-profile colours: hot, mem, io, java, js, perl,\n"
        "                        rust, python, red, green, blue, aqua, yellow, purple,\n"
        "                        orange (default hot)\n"
        "  --theme THEME         light or dark (default light)\n"
        "  --base-label TEXT     name of the base profile (default its file name)\n"
        "  --head-label TEXT     name of the head profile (default its file name)\n"
        "  --scale N             PNG pixel density (default 1)\n"
        "\n"
        "Report and gate:\n"
        "  --top N               rows per report table (default 10)\n"
        "  --image-url URL       image linked at the top of the Markdown report\n"
        "  --fail-on-regression PCT\n"
        "                        exit 3 when the head total or a function's total grew\n"
        "                        by more than PCT percent of the base total (default off)\n"
        "  --fail-on-function-regression PCT\n"
        "                        exit 3 when a function's self grew by more than PCT\n"
        "                        percent of its own base self (default off)\n"
        "  --fail-on PATTERN:[self:|total:]+PCT\n"
        "                        exit 3 when a function matching the glob PATTERN grew\n"
        "                        by more than PCT percent of its own base (self unless\n"
        "                        total: is given; repeatable)\n"
        "  --fail-on-new SHARE   exit 3 when a new function's total exceeds SHARE of\n"
        "                        the head total (default off)\n"
        "  --gate-min-share SHARE\n"
        "                        per-function gates skip functions whose gated count\n"
        "                        is below SHARE of the larger total (default 0.005)\n"
        "  --runs                each --base/--head file is one run of the same workload:\n"
        "                        changes are tested (Welch's t-test on shares) and those\n"
        "                        not significant are drawn unchanged and never gate\n"
        "                        (needs 2 or more files a side)\n"
        "  --significance ALPHA  the test's level for --runs (default 0.05)\n"
        "  --alloc-pattern GLOB  a function that allocates, for the reports' signals\n"
        "                        (repeatable; default malloc, calloc, realloc, free,\n"
        "                        operator new*, alloc::*, *Vec*push* and similar)\n"
        "  --io-pattern GLOB     a function that does I/O, for the signals (repeatable;\n"
        "                        default read, write, *syscall*, *_[k] and similar)\n"
        "\n"
        "  -h, --help            show this help and exit\n"
        "  -V, --version         show the version and exit\n"
        "\n"
        "Exit codes: 0 success, 1 bad input or I/O failure, 2 usage error,\n"
        "3 a gate (--fail-on-regression, --fail-on...) tripped.\n";

enum long_only {
	OPT_BASE = 256,
	OPT_HEAD,
	OPT_STRICT,
	OPT_REVERSE,
	OPT_STRIP_HEX,
	OPT_NORMALIZE,
	OPT_MIN_DELTA,
	OPT_MAX_FRAMES,
	OPT_WIDTHS,
	OPT_MIN_WIDTH,
	OPT_INVERTED,
	OPT_WIDTH,
	OPT_PRESET,
	OPT_FRAME_HEIGHT,
	OPT_FONT_SIZE,
	OPT_FONT_FAMILY,
	OPT_TITLE,
	OPT_SUBTITLE,
	OPT_COUNTNAME,
	OPT_NOTES,
	OPT_TRUNCATE,
	OPT_COLOR_BY,
	OPT_PALETTE,
	OPT_THEME,
	OPT_BASE_LABEL,
	OPT_HEAD_LABEL,
	OPT_SCALE,
	OPT_TOP,
	OPT_IMAGE_URL,
	OPT_FAIL_ON_REGRESSION,
	OPT_FAIL_ON_FUNCTION,
	OPT_FAIL_ON,
	OPT_FAIL_ON_NEW,
	OPT_GATE_MIN_SHARE,
	OPT_INPUT_FORMAT,
	OPT_EVENT,
	OPT_OBJECTS,
	OPT_WEIGHT,
	OPT_SNAPSHOT,
	OPT_JSON_LAYOUT,
	OPT_RUNS,
	OPT_SIGNIFICANCE,
	OPT_ALLOC_PATTERN,
	OPT_IO_PATTERN,
	OPT_REPLACE,
	OPT_HIDE,
	OPT_FOCUS,
	OPT_FOCUS_ROOT,
	OPT_EXCLUDE,
	OPT_SKIP_FRAMES,
	OPT_COLLAPSE_RECURSION,
	OPT_EXACT_NAMES, /* matching across builds */
	OPT_NO_MATCH,
};

static const struct option long_options[] = {
        {"base", required_argument, NULL, OPT_BASE},
        {"head", required_argument, NULL, OPT_HEAD},
        {"strict", no_argument, NULL, OPT_STRICT},
        {"reverse", no_argument, NULL, OPT_REVERSE},
        {"strip-hex", no_argument, NULL, OPT_STRIP_HEX},
        {"normalize", no_argument, NULL, OPT_NORMALIZE},
        {"min-delta", required_argument, NULL, OPT_MIN_DELTA},
        {"max-frames", required_argument, NULL, OPT_MAX_FRAMES},
        {"exact-names", no_argument, NULL, OPT_EXACT_NAMES}, /* matching across builds */
        {"no-match", no_argument, NULL, OPT_NO_MATCH},
        {"output", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'f'},
        {"widths", required_argument, NULL, OPT_WIDTHS},
        {"min-width", required_argument, NULL, OPT_MIN_WIDTH},
        {"inverted", no_argument, NULL, OPT_INVERTED},
        {"width", required_argument, NULL, OPT_WIDTH},
        {"preset", required_argument, NULL, OPT_PRESET},
        {"frame-height", required_argument, NULL, OPT_FRAME_HEIGHT},
        {"font-size", required_argument, NULL, OPT_FONT_SIZE},
        {"font-family", required_argument, NULL, OPT_FONT_FAMILY},
        {"title", required_argument, NULL, OPT_TITLE},
        {"subtitle", required_argument, NULL, OPT_SUBTITLE},
        {"countname", required_argument, NULL, OPT_COUNTNAME},
        {"notes", required_argument, NULL, OPT_NOTES},
        {"truncate", required_argument, NULL, OPT_TRUNCATE},
        {"color-by", required_argument, NULL, OPT_COLOR_BY},
        {"palette", required_argument, NULL, OPT_PALETTE},
        {"theme", required_argument, NULL, OPT_THEME},
        {"base-label", required_argument, NULL, OPT_BASE_LABEL},
        {"head-label", required_argument, NULL, OPT_HEAD_LABEL},
        {"scale", required_argument, NULL, OPT_SCALE},
        {"top", required_argument, NULL, OPT_TOP},
        {"image-url", required_argument, NULL, OPT_IMAGE_URL},
        {"fail-on-regression", required_argument, NULL, OPT_FAIL_ON_REGRESSION},
        {"fail-on-function-regression", required_argument, NULL, OPT_FAIL_ON_FUNCTION},
        {"fail-on", required_argument, NULL, OPT_FAIL_ON},
        {"fail-on-new", required_argument, NULL, OPT_FAIL_ON_NEW},
        {"gate-min-share", required_argument, NULL, OPT_GATE_MIN_SHARE},
        {"input-format", required_argument, NULL, OPT_INPUT_FORMAT},
        {"event", required_argument, NULL, OPT_EVENT},
        {"objects", no_argument, NULL, OPT_OBJECTS},
        {"weight", required_argument, NULL, OPT_WEIGHT},
        {"snapshot", required_argument, NULL, OPT_SNAPSHOT},
        {"json-layout", required_argument, NULL, OPT_JSON_LAYOUT},
        {"runs", no_argument, NULL, OPT_RUNS},
        {"significance", required_argument, NULL, OPT_SIGNIFICANCE},
        {"alloc-pattern", required_argument, NULL, OPT_ALLOC_PATTERN},
        {"io-pattern", required_argument, NULL, OPT_IO_PATTERN},
        {"replace", required_argument, NULL, OPT_REPLACE},
        {"hide", required_argument, NULL, OPT_HIDE},
        {"focus", required_argument, NULL, OPT_FOCUS},
        {"focus-root", no_argument, NULL, OPT_FOCUS_ROOT},
        {"exclude", required_argument, NULL, OPT_EXCLUDE},
        {"skip-frames", required_argument, NULL, OPT_SKIP_FRAMES},
        {"collapse-recursion", no_argument, NULL, OPT_COLLAPSE_RECURSION},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
};

static const char *const format_names[] = {
        [FORMAT_SVG] = "svg",
        [FORMAT_PNG] = "png",
        [FORMAT_PDF] = "pdf",
        [FORMAT_JSON] = "json",
        [FORMAT_FOLDED] = "folded",
        [FORMAT_MD] = "md",
        [FORMAT_TEXT] = "text",
};

void
options_init(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->tree.min_delta = OPTIONS_DEFAULT_MIN_DELTA;
	o->tree.max_nodes = OPTIONS_DEFAULT_MAX_FRAMES;
	o->widths = WIDTHS_HEAD;
	o->min_width = 0.1;
	o->width = 1200;
	o->frame_height = 16;
	o->font_size = 12;
	o->font_family = "DejaVu Sans Mono, Menlo, Consolas, Liberation Mono, monospace";
	o->countname = "samples";
	o->base_label = "base";
	o->head_label = "head";
	o->palette = color_palettes[0];
	o->scale = 1;
	o->top = 10;
	o->fail_on_regression = -1;
	o->fail_on_function = -1;
	o->fail_on_new = -1;
	o->gate_min_share = OPTIONS_DEFAULT_GATE_MIN_SHARE;
	o->significance = OPTIONS_DEFAULT_SIGNIFICANCE;
	o->snapshot = -1;
}

void
options_finish(struct options *o)
{
	free(o->base);
	free(o->head);
	free(o->alloc_patterns);
	free(o->io_patterns);
	free(o->outputs);
	for (size_t i = 0; i < o->fail_on_count; i++) {
		free(o->fail_on[i].glob);
	}
	free(o->fail_on);
	free(o->label_text[0]);
	free(o->label_text[1]);
	transform_destroy(o->transforms);
	memset(o, 0, sizeof(*o));
}

bool
options_no_color(const char *value)
{
	return value && *value;
}

const char *
options_format_name(enum format f)
{
	return format_names[f];
}

static bool
format_from_name(const char *name, enum format *f)
{
	for (size_t i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++) {
		if (strcmp(name, format_names[i]) == 0) {
			*f = (enum format)i;
			return true;
		}
	}
	if (strcmp(name, "markdown") == 0) {
		*f = FORMAT_MD;
		return true;
	}
	return false;
}

bool
options_format_from_path(const char *path, enum format *f)
{
	static const struct {
		const char *ext;
		enum format format;
	} exts[] = {
	        {".svg", FORMAT_SVG},
	        {".png", FORMAT_PNG},
	        {".pdf", FORMAT_PDF},
	        {".json", FORMAT_JSON},
	        {".folded", FORMAT_FOLDED},
	        {".md", FORMAT_MD},
	        {".markdown", FORMAT_MD},
	        {".txt", FORMAT_TEXT},
	};
	size_t len = strlen(path);
	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		size_t n = strlen(exts[i].ext);
		/* Case-blind: out.SVG and out.Png are what out.svg and out.png are. */
		if (len > n && strcasecmp(path + len - n, exts[i].ext) == 0) {
			*f = exts[i].format;
			return true;
		}
	}
	return false;
}

/* Sets a usage error "what" followed by the quoted argument, if any. */
static bool
usage(struct diag *err, const char *what, const char *arg)
{
	if (arg) {
		struct buf shown; /* an argument may be a file name: no terminal escapes */
		buf_init(&shown);
		buf_add(&shown, "", 0);
		escape_diag(&shown, arg, strlen(arg));
		snprintf(err->msg, sizeof(err->msg), "%s '%s'", what, shown.data);
		buf_finish(&shown);
	} else {
		snprintf(err->msg, sizeof(err->msg), "%s", what);
	}
	return false;
}

static bool
parse_number(
        const char *arg, const char *opt, double min, double max, double *out, struct diag *err)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(v) || v < min || v > max) {
		snprintf(err->msg, sizeof(err->msg), "%s: invalid value '%s' (expected %g to %g)",
		        opt, arg, min, max);
		return false;
	}
	*out = v;
	return true;
}

static bool
parse_min_width(struct options *o, const char *arg, struct diag *err)
{
	size_t len = strlen(arg);
	bool pct = len > 0 && arg[len - 1] == '%';
	char tmp[64];
	if (len >= sizeof(tmp)) {
		return usage(err, "--min-width: invalid value", arg);
	}
	memcpy(tmp, arg, len + 1);
	if (pct) {
		tmp[len - 1] = '\0';
	}
	o->min_width_percent = pct;
	return parse_number(tmp, "--min-width", 0, pct ? 100 : 1e6, &o->min_width, err);
}

/* Picks one of `names` by string; *out gets its index. */
static bool
parse_choice(const char *arg, const char *opt, const char *const *names, int *out, struct diag *err)
{
	for (int i = 0; names[i]; i++) {
		if (strcmp(arg, names[i]) == 0) {
			*out = i;
			return true;
		}
	}
	snprintf(err->msg, sizeof(err->msg), "%s: unknown value '%s'", opt, arg);
	return false;
}

/* Cuts `suffix` off the end of [s, *len) when it is there. */
static bool
cut_suffix(const char *s, size_t *len, const char *suffix)
{
	size_t n = strlen(suffix);
	if (*len < n || memcmp(s + *len - n, suffix, n) != 0) {
		return false;
	}
	*len -= n;
	return true;
}

/*
 * PATTERN:[self:|total:]+PCT[%]. The threshold follows the last colon, so
 * patterns may hold colons of their own (`json::*:+5%`).
 */
static bool
parse_fail_on(struct options *o, const char *arg, struct diag *err)
{
	const char *colon = strrchr(arg, ':');
	if (!colon || colon[1] != '+') {
		return usage(
		        err, "--fail-on: expected PATTERN:+PCT or PATTERN:total:+PCT, got", arg);
	}
	char num[64];
	size_t n = strlen(colon + 2);
	if (n >= sizeof(num)) {
		return usage(err, "--fail-on: invalid threshold in", arg);
	}
	memcpy(num, colon + 2, n + 1);
	if (n > 0 && num[n - 1] == '%') {
		num[n - 1] = '\0';
	}
	double pct;
	if (!parse_number(num, "--fail-on", 0, 1e9, &pct, err)) {
		return false;
	}
	size_t len = (size_t)(colon - arg);
	bool total = cut_suffix(arg, &len, ":total");
	if (!total) {
		cut_suffix(arg, &len, ":self");
	}
	if (len == 0) {
		return usage(err, "--fail-on: empty pattern in", arg);
	}
	o->fail_on = xrealloc(o->fail_on, (o->fail_on_count + 1) * sizeof(*o->fail_on));
	o->fail_on[o->fail_on_count++] =
	        (struct gate_pattern){.glob = xmemdup(arg, len), .total = total, .pct = pct};
	return true;
}

static void
add_output(struct options *o, const char *path)
{
	o->outputs = xrealloc(o->outputs, (o->output_count + 1) * sizeof(*o->outputs));
	o->outputs[o->output_count].path = path;
	o->outputs[o->output_count].format = FORMAT_SVG;
	o->output_count++;
}

static void
add_input(const char ***list, size_t *count, const char *path)
{
	*list = xrealloc(*list, (*count + 1) * sizeof(**list));
	(*list)[(*count)++] = path;
}

/* The frame rewriting options (transform.h), compiled as they come. */
static bool
parse_transform_option(struct options *o, int c, const char *arg, struct diag *err)
{
	static const struct {
		int option;
		enum transform_kind kind;
	} rules[] = {
	        {OPT_REPLACE, TRANSFORM_REPLACE},
	        {OPT_HIDE, TRANSFORM_HIDE},
	        {OPT_FOCUS, TRANSFORM_FOCUS},
	        {OPT_EXCLUDE, TRANSFORM_EXCLUDE},
	};
	if (!o->transforms) {
		o->transforms = transform_create();
		o->tree.transform = o->transforms;
	}
	double v;
	switch (c) {
	case OPT_FOCUS_ROOT:
		transform_set_focus_root(o->transforms, true);
		return true;
	case OPT_COLLAPSE_RECURSION:
		transform_set_collapse(o->transforms, true);
		return true;
	case OPT_SKIP_FRAMES:
		if (!parse_number(arg, "--skip-frames", 0, 1e9, &v, err)) {
			return false;
		}
		if (v != floor(v)) {
			return usage(err, "--skip-frames: not a whole number", arg);
		}
		transform_set_skip(o->transforms, (uint64_t)v);
		return true;
	default:
		break;
	}
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		if (rules[i].option == c) {
			return transform_add(
			        o->transforms, rules[i].kind, arg, err->msg, sizeof(err->msg));
		}
	}
	return false;
}

static bool
parse_choice_option(struct options *o, int c, const char *arg, struct diag *err)
{
	static const char *const widths[] = {"head", "base", "union", NULL};
	static const char *const truncs[] = {"right", "left", NULL};
	static const char *const color_by[] = {"self", "total", NULL};
	static const char *const themes[] = {"light", "dark", NULL};
	static const char *const json_layouts[] = {"nested", "flat", NULL};
	int v = 0;
	switch (c) {
	case OPT_WIDTHS:
		if (!parse_choice(arg, "--widths", widths, &v, err)) {
			return false;
		}
		o->widths = (enum widths)v;
		return true;
	case OPT_TRUNCATE:
		if (!parse_choice(arg, "--truncate", truncs, &v, err)) {
			return false;
		}
		o->truncate = (enum truncate)v;
		return true;
	case OPT_COLOR_BY:
		if (!parse_choice(arg, "--color-by", color_by, &v, err)) {
			return false;
		}
		o->color_by = (enum color_by)v;
		return true;
	case OPT_THEME:
		if (!parse_choice(arg, "--theme", themes, &v, err)) {
			return false;
		}
		o->theme = (enum theme)v;
		return true;
	case OPT_JSON_LAYOUT:
		if (!parse_choice(arg, "--json-layout", json_layouts, &v, err)) {
			return false;
		}
		o->json_layout = (enum json_layout)v;
		return true;
	case OPT_PALETTE:
		if (!parse_choice(arg, "--palette", color_palettes, &v, err)) {
			return false;
		}
		o->palette = color_palettes[v];
		return true;
	default:
		return parse_transform_option(o, c, arg, err);
	}
}

/* --snapshot peak, or a massif snapshot's number. */
static bool
parse_snapshot(struct options *o, const char *arg, struct diag *err)
{
	if (strcmp(arg, "peak") == 0) {
		o->snapshot = -1;
		return true;
	}
	char *end;
	errno = 0;
	unsigned long long v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || *arg < '0' || *arg > '9' || v > LONG_MAX) {
		return usage(err, "--snapshot: peak or a snapshot's number", arg);
	}
	o->snapshot = (long)v;
	return true;
}

static bool
parse_value_option(struct options *o, int c, const char *arg, struct diag *err)
{
	double v;
	switch (c) {
	case OPT_MIN_DELTA:
		return parse_number(arg, "--min-delta", 0, 1, &o->tree.min_delta, err);
	case OPT_MAX_FRAMES:
		/* Node ids are 32-bit: the limit stays below their range. */
		if (!parse_number(arg, "--max-frames", 1, 4e9, &v, err)) {
			return false;
		}
		if (v != floor(v)) {
			return usage(err, "--max-frames: not a whole number", arg);
		}
		o->tree.max_nodes = (uint32_t)v;
		return true;
	case OPT_MIN_WIDTH:
		return parse_min_width(o, arg, err);
	case OPT_WIDTH:
		return parse_number(arg, "--width", 100, 100000, &o->width, err);
	case OPT_FRAME_HEIGHT:
		return parse_number(arg, "--frame-height", 4, 200, &o->frame_height, err);
	case OPT_FONT_SIZE:
		return parse_number(arg, "--font-size", 4, 100, &o->font_size, err);
	case OPT_SCALE:
		return parse_number(arg, "--scale", 0.25, 8, &o->scale, err);
	case OPT_TOP:
		if (!parse_number(arg, "--top", 1, 1000, &v, err)) {
			return false;
		}
		o->top = (unsigned)v;
		return true;
	case OPT_FAIL_ON_REGRESSION:
		return parse_number(
		        arg, "--fail-on-regression", 0, 1e9, &o->fail_on_regression, err);
	case OPT_FAIL_ON_FUNCTION:
		return parse_number(
		        arg, "--fail-on-function-regression", 0, 1e9, &o->fail_on_function, err);
	case OPT_FAIL_ON_NEW:
		return parse_number(arg, "--fail-on-new", 0, 1, &o->fail_on_new, err);
	case OPT_GATE_MIN_SHARE:
		return parse_number(arg, "--gate-min-share", 0, 1, &o->gate_min_share, err);
	case OPT_FAIL_ON:
		return parse_fail_on(o, arg, err);
	case OPT_SIGNIFICANCE:
		return parse_number(arg, "--significance", 0.0001, 0.5, &o->significance, err);
	default:
		return parse_choice_option(o, c, arg, err);
	}
}

/* What parsing saw beyond the settings themselves, for resolve and settle. */
struct parse_state {
	bool format_given;
	enum format format;
	bool base_label_given, head_label_given;
	const struct preset *preset; /* NULL: the defaults */
	bool width_given, font_size_given, frame_height_given;
};

/*
 * --preset: sizes for where the picture is seen. A pull-request comment
 * shows images about 800 px wide, so the default 1200 px image shrinks its
 * 12 px text to 8 px there; at 800 px, 13 px text stays 11 px or more even
 * in a column as narrow as 680 px. Options given by name win in any order.
 */
struct preset {
	const char *name;
	double width, font_size, frame_height;
};

static const struct preset presets[] = {
        {"comment", 800, 13, 18},
};

static bool
parse_preset(const char *arg, struct parse_state *ps, struct diag *err)
{
	if (strcmp(arg, "default") == 0) {
		ps->preset = NULL;
		return true;
	}
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
		if (strcmp(arg, presets[i].name) == 0) {
			ps->preset = &presets[i];
			return true;
		}
	}
	return usage(err, "--preset: comment or default", arg);
}

/* Notes the sizes given by name, which a preset must not override. */
static void
note_size_given(struct parse_state *ps, int c)
{
	ps->width_given |= c == OPT_WIDTH;
	ps->font_size_given |= c == OPT_FONT_SIZE;
	ps->frame_height_given |= c == OPT_FRAME_HEIGHT;
}

static void
apply_preset(struct options *o, const struct parse_state *ps)
{
	const struct preset *p = ps->preset;
	if (!p) {
		return;
	}
	o->width = ps->width_given ? o->width : p->width;
	o->font_size = ps->font_size_given ? o->font_size : p->font_size;
	o->frame_height = ps->frame_height_given ? o->frame_height : p->frame_height;
}

static bool
parse_one(struct options *o, int c, const char *arg, struct parse_state *ps, struct diag *err)
{
	switch (c) {
	case OPT_BASE:
		add_input(&o->base, &o->base_count, arg);
		return true;
	case OPT_HEAD:
		add_input(&o->head, &o->head_count, arg);
		return true;
	case OPT_STRICT:
		o->strict = true;
		return true;
	case OPT_REVERSE:
		o->tree.reverse = true;
		return true;
	case OPT_STRIP_HEX:
		o->tree.strip_hex = true;
		return true;
	case OPT_NORMALIZE:
		o->tree.normalize = true;
		return true;
	case OPT_EXACT_NAMES: /* matching across builds */
		o->exact_names = true;
		return true;
	case OPT_NO_MATCH:
		o->no_match = true;
		return true;
	case OPT_RUNS:
		o->runs = true;
		return true;
	case OPT_ALLOC_PATTERN:
		add_input(&o->alloc_patterns, &o->alloc_pattern_count, arg);
		return true;
	case OPT_IO_PATTERN:
		add_input(&o->io_patterns, &o->io_pattern_count, arg);
		return true;
	case OPT_INVERTED:
		o->inverted = true;
		return true;
	case 'o':
		add_output(o, arg);
		return true;
	case 'f':
		ps->format_given = true;
		return format_from_name(arg, &ps->format) ||
		       usage(err, "--format: unknown format", arg);
	case OPT_FONT_FAMILY:
		o->font_family = arg;
		return true;
	case OPT_TITLE:
		o->title = arg;
		return true;
	case OPT_SUBTITLE:
		o->subtitle = arg;
		return true;
	case OPT_COUNTNAME:
		o->countname = arg;
		o->countname_given = true;
		return true;
	case OPT_INPUT_FORMAT:
		o->input_forced = true;
		return detect_parse_reader(arg, &o->input_format) ||
		       usage(err,
		               "--input-format: unknown reader (folded, callgrind, perf, pprof, "
		               "massif, speedscope, gecko or dhat)",
		               arg);
	case OPT_EVENT:
		o->event = arg;
		return true;
	case OPT_OBJECTS:
		o->objects = true;
		return true;
	case OPT_SNAPSHOT:
		return parse_snapshot(o, arg, err);
	case OPT_WEIGHT:
		if (strcmp(arg, "samples") != 0 && strcmp(arg, "period") != 0) {
			return usage(err, "--weight: samples or period", arg);
		}
		o->weight_period = strcmp(arg, "period") == 0;
		return true;
	case OPT_NOTES:
		o->notes = arg;
		return true;
	case OPT_BASE_LABEL:
		o->base_label = arg;
		ps->base_label_given = true;
		return true;
	case OPT_HEAD_LABEL:
		o->head_label = arg;
		ps->head_label_given = true;
		return true;
	case OPT_IMAGE_URL:
		o->image_url = arg;
		return true;
	case OPT_PRESET:
		return parse_preset(arg, ps, err);
	default:
		note_size_given(ps, c);
		return parse_value_option(o, c, arg, err);
	}
}

static bool
stdin_used_twice(const struct options *o)
{
	int n = o->single && strcmp(o->single, "-") == 0;
	for (size_t i = 0; i < o->base_count; i++) {
		n += strcmp(o->base[i], "-") == 0;
	}
	for (size_t i = 0; i < o->head_count; i++) {
		n += strcmp(o->head[i], "-") == 0;
	}
	return n > 1;
}

/* A spread needs two runs a side. */
static bool
runs_usable(const struct options *o, struct diag *err)
{
	if (o->runs && (o->single || o->base_count < 2 || o->head_count < 2)) {
		return usage(err,
		        "--runs needs two or more files a side (--base A --base B "
		        "--head C --head D)",
		        NULL);
	}
	return true;
}

/* Positional arguments and --base/--head into sides; outputs into formats. */
static bool
resolve(struct options *o, int npos, char **pos, const struct parse_state *ps, struct diag *err)
{
	if (npos > 0 && (o->base_count || o->head_count)) {
		return usage(
		        err, "give the profiles either as arguments or with --base/--head", NULL);
	}
	if (npos > 2) {
		return usage(err, "too many profiles: at most two (BASE HEAD)", NULL);
	}
	if (npos == 2) {
		add_input(&o->base, &o->base_count, pos[0]);
		add_input(&o->head, &o->head_count, pos[1]);
	} else if (npos == 1) {
		o->single = pos[0];
	} else if (!o->base_count || !o->head_count) {
		return usage(err,
		        o->base_count || o->head_count
		                ? "--base and --head must both be given"
		                : "no input: give BASE HEAD, or one PROFILE (see --help)",
		        NULL);
	}
	if (o->output_count == 0) {
		add_output(o, NULL);
	}
	for (size_t i = 0; i < o->output_count; i++) {
		struct output_spec *out = &o->outputs[i];
		if (ps->format_given) {
			out->format = ps->format;
		} else if (out->path && !options_format_from_path(out->path, &out->format)) {
			return usage(err, "cannot tell the format from the extension (use -f) of",
			        out->path);
		}
	}
	if (stdin_used_twice(o)) {
		return usage(err, "standard input ('-') can be read only once", NULL);
	}
	if (o->transforms && transform_focus_root(o->transforms) &&
	        !transform_has_focus(o->transforms)) {
		return usage(err, "--focus-root needs --focus REGEX", NULL);
	}
	return runs_usable(o, err);
}

/*
 * Defaults that follow from other settings, decided here once so that
 * every module reads a plain field. The labels name the profiles by their
 * first file; one profile is the head, against a base called "base".
 */
static const char *
side_label(struct options *o, int side, const char *const *files, size_t count)
{
	if (count < 2) {
		return files[0];
	}
	/* Several files add up to one side: the first one names it, with how
	 * many more, so a header never passes one run off as the whole side. */
	struct buf b;
	buf_init(&b);
	buf_printf(&b, "%s and %zu more", files[0], count - 1);
	o->label_text[side] = buf_detach(&b, NULL);
	return o->label_text[side];
}

static void
settle(struct options *o, const struct parse_state *ps)
{
	apply_preset(o, ps);
	if (!ps->head_label_given) {
		o->head_label = o->single ? o->single : side_label(o, 1, o->head, o->head_count);
	}
	if (!ps->base_label_given) {
		o->base_label = o->single ? "base" : side_label(o, 0, o->base, o->base_count);
	}
	if (o->runs && o->base_count > 0 && o->head_count != o->base_count) {
		o->tree.run_scale = (double)o->head_count / (double)o->base_count;
	}
}

enum options_result
options_parse(struct options *o, int argc, char **argv, struct diag *err)
{
	struct parse_state ps = {.format = FORMAT_SVG};
	optind = 0; /* also resets glibc's state, so tests can parse twice */
	opterr = 0;
	for (;;) {
		int c = getopt_long(argc, argv, ":o:f:hV", long_options, NULL);
		if (c == -1) {
			break;
		}
		switch (c) {
		case 'h':
			fputs(usage_text, stdout);
			return OPTIONS_EXIT;
		case 'V':
			printf("difffold %s\n", DIFFFOLD_VERSION);
			return OPTIONS_EXIT;
		case ':':
			usage(err, "option needs a value:", argv[optind - 1]);
			return OPTIONS_USAGE;
		case '?':
			usage(err, "unknown option (see --help):", argv[optind - 1]);
			return OPTIONS_USAGE;
		default:
			if (!parse_one(o, c, optarg, &ps, err)) {
				return OPTIONS_USAGE;
			}
		}
	}
	if (!resolve(o, argc - optind, argv + optind, &ps, err)) {
		return OPTIONS_USAGE;
	}
	settle(o, &ps);
	return OPTIONS_OK;
}
