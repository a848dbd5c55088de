/*
 * What options.c shares with the files it is split into: the option table,
 * the --help text and the usage-error helpers. Nothing outside src/options*
 * includes this.
 */
#ifndef DIFFFOLD_OPTIONS_PRIVATE_H
#define DIFFFOLD_OPTIONS_PRIVATE_H

#include <getopt.h>
#include <stdbool.h>

#include "diag.h"
#include "options.h"

/* getopt_long's codes of the options without a short letter. */
enum long_only {
	OPT_BASE = 256,
	OPT_HEAD,
	OPT_STRICT,
	OPT_REVERSE,
	OPT_STRIP_HEX,
	OPT_NORMALIZE,
	OPT_MIN_DELTA,
	OPT_MAX_FRAMES,
	OPT_MAX_WORK,
	OPT_MAX_OUTPUT_MB,
	OPT_WIDTHS,
	OPT_MIN_WIDTH,
	OPT_INVERTED,
	OPT_FLAMECHART,
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
	OPT_IMAGE_URL_DARK,
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
	OPT_COUNTS,
	OPT_BASE_FORMAT,
	OPT_HEAD_FORMAT,
	OPT_COMPARABLE,
	OPT_PERF_NAMES,
	OPT_EXACT_NAMES,
	OPT_NO_MATCH,
	OPT_ALLOC_PATTERN,
	OPT_IO_PATTERN,
	OPT_REPLACE,
	OPT_HIDE,
	OPT_FOCUS,
	OPT_FOCUS_ROOT,
	OPT_EXCLUDE,
	OPT_SKIP_FRAMES,
	OPT_COLLAPSE_RECURSION,
	OPT_COLORS,
	OPT_NEGATE,
	OPT_NO_JAVASCRIPT,
	OPT_SHOW_BELOW_MAIN,
	OPT_MAX_DEPTH,
	OPT_ACCEPTED, /* a peer's flag whose meaning difffold always has */
	OPT_ACCEPTED_VALUE, /* the same, with a value to ignore */
};

extern const char options_usage_text[];
/* getopt_long's tables: every long option by its full name, and the short ones. */
extern const struct option options_long[];
extern const char options_short[];

/* Sets a usage error "what" followed by the quoted argument, if any; false. */
bool options_usage(struct diag *err, const char *what, const char *arg);
/* "what 'arg'", then the nearest of names (NULL-terminated) as "did you
 * mean", or all of them when none is near; false. */
/* -f NAME: the output format it names; a usage error with "did you mean" if none. */
bool options_parse_format(const char *arg, enum format *f, struct diag *err);
bool options_unknown_value(
        struct diag *err, const char *what, const char *arg, const char *const *names);

/*
 * Every option of argv as difffold knows it, before getopt_long reads it:
 * unknown options get the nearest known one, abbreviations (which
 * getopt_long would take) the full name, and the peers' spellings whose
 * meaning differs an explanation of what difffold does instead.
 */
bool options_check_argv(int argc, char **argv, struct diag *err);

/* options_check.c: rules across options, once all are parsed. */
bool options_stdin_used_twice(const struct options *o);
bool options_runs_usable(const struct options *o, struct diag *err);
bool options_chart_usable(const struct options *o, struct diag *err);

#endif
