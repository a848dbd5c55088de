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
#include "options_private.h"
#include "readers.h"
#include "suggest.h"
#include "transform.h"
#include "xalloc.h"

#ifndef DIFFFOLD_VERSION
#define DIFFFOLD_VERSION "unknown"
#endif

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
	o->theme = THEME_AUTO;
	o->scale = 1;
	o->top = 10;
	o->fail_on_regression = -1;
	o->fail_on_function = -1;
	o->fail_on_new = -1;
	o->gate_min_share = OPTIONS_DEFAULT_GATE_MIN_SHARE;
	o->significance = OPTIONS_DEFAULT_SIGNIFICANCE;
	o->snapshot = -1;
	o->max_output_mb = -1;
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

bool
options_usage(struct diag *err, const char *what, const char *arg)
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
	/* Decimal only: strtod would read 0x10 as 16, and skip white space. */
	bool decimal = arg[strspn(arg, "0123456789.eE+-")] == '\0';
	double v = strtod(arg, &end);
	if (!decimal || errno || end == arg || *end || !isfinite(v) || v < min || v > max) {
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
		return options_usage(err, "--min-width: invalid value", arg);
	}
	memcpy(tmp, arg, len + 1);
	if (pct) {
		tmp[len - 1] = '\0';
	}
	o->min_width_percent = pct;
	return parse_number(tmp, "--min-width", 0, pct ? 100 : 1e6, &o->min_width, err);
}

bool
options_unknown_value(struct diag *err, const char *what, const char *arg, const char *const *names)
{
	size_t count = 0;
	while (names[count]) {
		count++;
	}
	const char *near = suggest_closest(arg, strlen(arg), names, count);
	options_usage(err, what, arg);
	size_t used = strlen(err->msg);
	if (near) {
		snprintf(err->msg + used, sizeof(err->msg) - used, "; did you mean '%s'?", near);
	} else {
		snprintf(err->msg + used, sizeof(err->msg) - used, " (one of");
		for (size_t i = 0; i < count; i++) {
			used = strlen(err->msg);
			snprintf(err->msg + used, sizeof(err->msg) - used, "%s %s", i ? "," : "",
			        names[i]);
		}
		used = strlen(err->msg);
		snprintf(err->msg + used, sizeof(err->msg) - used, ")");
	}
	return false;
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
	char what[64];
	snprintf(what, sizeof(what), "%s: unknown value", opt);
	return options_unknown_value(err, what, arg, names);
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
		return options_usage(
		        err, "--fail-on: expected PATTERN:+PCT or PATTERN:total:+PCT, got", arg);
	}
	char num[64];
	size_t n = strlen(colon + 2);
	if (n >= sizeof(num)) {
		return options_usage(err, "--fail-on: invalid threshold in", arg);
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
		return options_usage(err, "--fail-on: empty pattern in", arg);
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
			return options_usage(err, "--skip-frames: not a whole number", arg);
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
	static const char *const themes[] = {"light", "dark", "auto", NULL};
	static const char *const json_layouts[] = {"nested", "flat", NULL};
	static const char *const counts[] = {"exact", "sampled", NULL};
	int v = 0;
	switch (c) {
	case OPT_COUNTS:
		if (!parse_choice(arg, "--counts", counts, &v, err)) {
			return false;
		}
		o->counts = v == 0 ? COUNTS_EXACT : COUNTS_SAMPLED;
		return true;
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

/* One of two words: *second says which; a usage error for any other. */
static bool
parse_either(const char *arg, const char *first, const char *second, bool *is_second,
        const char *what, struct diag *err)
{
	if (strcmp(arg, first) != 0 && strcmp(arg, second) != 0) {
		const char *const names[] = {first, second, NULL};
		return options_unknown_value(err, what, arg, names);
	}
	*is_second = strcmp(arg, second) == 0;
	return true;
}

/* A reader's name (readers.c) as the format to read; usage error if none. */
static bool
parse_reader(enum input_format *f, const char *option, const char *arg, struct diag *err)
{
	const struct profile_reader *r = readers_find(arg);
	if (r) {
		*f = r->format;
		return true;
	}
	const char *names[READERS_MAX + 1];
	size_t n = 0;
	for (const struct profile_reader *at; (at = readers_at(n)) != NULL; n++) {
		names[n] = at->name;
	}
	names[n] = NULL;
	char what[64];
	snprintf(what, sizeof(what), "%s: unknown reader", option);
	return options_unknown_value(err, what, arg, names);
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
		return options_usage(err, "--snapshot: peak or a snapshot's number", arg);
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
			return options_usage(err, "--max-frames: not a whole number", arg);
		}
		o->tree.max_nodes = (uint32_t)v;
		return true;
	case OPT_MAX_WORK:
		if (!parse_number(arg, "--max-work", 1, 1e15, &v, err)) {
			return false;
		}
		if (v != floor(v)) {
			return options_usage(err, "--max-work: not a whole number", arg);
		}
		o->max_work = (uint64_t)v;
		return true;
	case OPT_MAX_OUTPUT_MB:
		return parse_number(arg, "--max-output-mb", 0, 1e9, &o->max_output_mb, err);
	case OPT_MIN_WIDTH:
		return parse_min_width(o, arg, err);
	case OPT_WIDTH:
		return parse_number(arg, "--width", 100, 100000, &o->width, err);
	case OPT_MAX_DEPTH:
		/* Whole frames; up to the stacks' own bound (bounds.h). */
		return parse_number(arg, "--max-depth", 1, 1e7, &o->max_depth, err) &&
		       (o->max_depth == floor(o->max_depth) ||
		               options_usage(
		                       err, "--max-depth: not a whole number of frames", arg));
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
	bool width_given, font_size_given, frame_height_given, max_depth_given;
	bool widths_given;
	bool negate; /* --negate: the sides are swapped once they are known */
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
	/* The deepest frame drawn: at 18 px a row, 40 rows keep the picture
	 * within about two screens of a comment. */
	double max_depth;
	bool compact_header;
};

static const struct preset presets[] = {
        {"comment", 800, 13, 18, 40, true},
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
	static const char *const names[] = {"comment", "default", NULL};
	return options_unknown_value(err, "--preset: comment or default, not", arg, names);
}

/* Notes the sizes given by name, which a preset must not override. */
static void
note_size_given(struct parse_state *ps, int c)
{
	ps->width_given |= c == OPT_WIDTH;
	ps->font_size_given |= c == OPT_FONT_SIZE;
	ps->frame_height_given |= c == OPT_FRAME_HEIGHT;
	ps->max_depth_given |= c == OPT_MAX_DEPTH;
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
	o->max_depth = ps->max_depth_given ? o->max_depth : p->max_depth;
	o->compact_header = p->compact_header;
}

/* --input-format: the readers' names, for "did you mean". */

/*
 * -c/--colors: flamegraph.pl's and inferno's palette names. Theirs are
 * difffold's, plus wakeup, which flamegraph.pl draws aqua; chain also
 * picks out waker frames by name, which no palette here does.
 */
static bool
parse_colors(struct options *o, const char *arg, struct diag *err)
{
	if (strcmp(arg, "wakeup") == 0) {
		arg = "aqua";
	} else if (strcmp(arg, "chain") == 0) {
		return options_usage(err,
		        "--colors chain: flamegraph.pl's chain palette (off-CPU blue, waker "
		        "frames `_[w]` aqua) has no equivalent; --palette blue colours every "
		        "frame blue",
		        NULL);
	}
	int v = 0;
	if (!parse_choice(arg, "--colors", color_palettes, &v, err)) {
		return false;
	}
	o->palette = color_palettes[v];
	return true;
}

/* The peers' options that are not difffold's own under another name. */
static bool
parse_peer_option(
        struct options *o, int c, const char *arg, struct parse_state *ps, struct diag *err)
{
	switch (c) {
	case OPT_COLORS:
		return parse_colors(o, arg, err);
	case OPT_NEGATE:
		ps->negate = true;
		return true;
	case OPT_NO_JAVASCRIPT:
		o->no_javascript = true;
		return true;
	case OPT_ACCEPTED:
	case OPT_ACCEPTED_VALUE:
		return true;
	default:
		note_size_given(ps, c);
		ps->widths_given |= c == OPT_WIDTHS;
		return parse_value_option(o, c, arg, err);
	}
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
	case OPT_EXACT_NAMES:
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
	case OPT_FLAMECHART:
		o->tree.chart = true;
		return true;
	case 'o':
		add_output(o, arg);
		return true;
	case 'f':
		ps->format_given = true;
		return options_parse_format(arg, &ps->format, err);
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
		return parse_reader(&o->input_format, "--input-format", arg, err);
	case OPT_BASE_FORMAT:
	case OPT_HEAD_FORMAT: {
		int side = c == OPT_HEAD_FORMAT;
		o->side_forced[side] = true;
		return parse_reader(
		        &o->side_format[side], side ? "--head-format" : "--base-format", arg, err);
	}
	case OPT_EVENT:
		o->event = arg;
		return true;
	case OPT_PERF_NAMES:
		return parse_either(arg, "difffold", "stackcollapse", &o->perf_stackcollapse,
		        "--perf-names: difffold or stackcollapse, not", err);
	case OPT_COMPARABLE:
		o->comparable = true;
		return true;
	case OPT_OBJECTS:
		o->objects = true;
		return true;
	case OPT_SHOW_BELOW_MAIN:
		o->show_below_main = true;
		return true;
	case OPT_SNAPSHOT:
		return parse_snapshot(o, arg, err);
	case OPT_WEIGHT:
		return parse_either(arg, "samples", "period", &o->weight_period,
		        "--weight: samples or period, not", err);
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
	case OPT_IMAGE_URL_DARK:
		o->image_url_dark = arg;
		return true;
	case OPT_PRESET:
		return parse_preset(arg, ps, err);
	default:
		return parse_peer_option(o, c, arg, ps, err);
	}
}

/*
 * --negate as flamegraph.pl means it on `difffolded.pl A B`: the widths of
 * B, the hues switched, so red is what A has more of. That is the graph
 * from B to A with the base's widths, which keeps every count and label
 * true instead of painting a change with the other side's colour.
 */
static bool
negate(struct options *o, const struct parse_state *ps, struct diag *err)
{
	if (!ps->negate) {
		return true;
	}
	if (o->single) {
		return options_usage(err,
		        "--negate swaps the two profiles: give BASE HEAD (a 3-column file's "
		        "sides are its columns)",
		        NULL);
	}
	const char **files = o->base;
	size_t count = o->base_count;
	o->base = o->head;
	o->base_count = o->head_count;
	o->head = files;
	o->head_count = count;
	if (!ps->widths_given) {
		o->widths = WIDTHS_BASE;
	}
	return true;
}

/* Positional arguments and --base/--head into sides; outputs into formats. */
static bool
resolve(struct options *o, int npos, char **pos, const struct parse_state *ps, struct diag *err)
{
	if (npos > 0 && o->base_count && !o->head_count) {
		return options_usage(err,
		        "--base takes the base profile's FILE (with --head FILE); for inferno's "
		        "--base SYMBOL (only stacks through SYMBOL, cut to start there) use "
		        "--focus '^SYMBOL$' --focus-root",
		        NULL);
	}
	if (npos > 0 && (o->base_count || o->head_count)) {
		return options_usage(
		        err, "give the profiles either as arguments or with --base/--head", NULL);
	}
	if (npos > 2) {
		return options_usage(err, "too many profiles: at most two (BASE HEAD)", NULL);
	}
	if (npos == 2) {
		add_input(&o->base, &o->base_count, pos[0]);
		add_input(&o->head, &o->head_count, pos[1]);
	} else if (npos == 1) {
		o->single = pos[0];
	} else if (!o->base_count || !o->head_count) {
		return options_usage(err,
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
			return options_usage(err,
			        "cannot tell the format from the extension (use -f) of", out->path);
		}
	}
	if (options_stdin_used_twice(o)) {
		return options_usage(err, "standard input ('-') can be read only once", NULL);
	}
	if (o->transforms && transform_focus_root(o->transforms) &&
	        !transform_has_focus(o->transforms)) {
		return options_usage(err, "--focus-root needs --focus REGEX", NULL);
	}
	return negate(o, ps, err) && options_runs_usable(o, err) && options_chart_usable(o, err);
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

/* The peers' short options (difffolded.pl's -n -s, inferno's -i -c) are
 * difffold's long ones. */
static int
short_as_long(int c)
{
	switch (c) {
	case 'n':
		return OPT_NORMALIZE;
	case 's':
		return OPT_STRIP_HEX;
	case 'i':
		return OPT_INVERTED;
	case 'c':
		return OPT_COLORS;
	default:
		return c;
	}
}

enum options_result
options_parse(struct options *o, int argc, char **argv, struct diag *err)
{
	struct parse_state ps = {.format = FORMAT_SVG};
	optind = 0; /* also resets glibc's state, so tests can parse twice */
	opterr = 0;
	if (!options_check_argv(argc, argv, err)) {
		return OPTIONS_USAGE;
	}
	for (;;) {
		int c = short_as_long(getopt_long(argc, argv, options_short, options_long, NULL));
		if (c == -1) {
			break;
		}
		switch (c) {
		case 'h':
			fputs(options_usage_text, stdout);
			return OPTIONS_EXIT;
		case 'V':
			printf("difffold %s\n", DIFFFOLD_VERSION);
			return OPTIONS_EXIT;
		case ':':
			options_usage(err, "option needs a value:", argv[optind - 1]);
			return OPTIONS_USAGE;
		case '?':
			options_usage(err, "unknown option (see --help):", argv[optind - 1]);
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
