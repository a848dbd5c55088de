/*
 * options: every setting a user can give on the command line, with its
 * default, and the parser that fills them from argv. Modules read the parts
 * they need; only main.c and the tests call options_parse.
 *
 * Every default is settled by options_init, or at the end of options_parse
 * when it follows from other settings (the labels from the file names), so
 * consumers read plain fields through a const pointer and never fill in a
 * default of their own. The one exception is the title, whose default
 * depends on the input (a 3-column profile is differential): NULL or empty
 * means that default, decided by caption.c.
 */
#ifndef DIFFFOLD_OPTIONS_H
#define DIFFFOLD_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "detect.h"
#include "diag.h"
#include "draw_options.h"
#include "report_options.h"
#include "tree.h"

enum format {
	FORMAT_SVG,
	FORMAT_PNG,
	FORMAT_PDF,
	FORMAT_JSON,
	FORMAT_FOLDED,
	FORMAT_MD,
	FORMAT_TEXT,
};

/*
 * --counts: whether a count carries sampling noise. AUTO: as the input's
 * format says (sampling profilers and folded files sampled; callgrind,
 * DHAT and massif exact).
 */
enum counts {
	COUNTS_AUTO,
	COUNTS_EXACT,
	COUNTS_SAMPLED,
};

struct output_spec {
	const char *path; /* NULL: standard output */
	enum format format;
};

/* The fields in the groups --help shows, not packed: there is one a run. */
struct options { /* NOLINT(clang-analyzer-optin.performance.Padding) */
	/* inputs */
	const char **base, **head; /* files per side; "-" is standard input */
	size_t base_count, head_count;
	const char *single; /* one positional profile: plain or 3-column */
	bool strict;
	bool input_forced; /* --input-format: every file read as input_format */
	enum input_format input_format;
	/* --base-format, --head-format: one side's files read as side_format[side]
	 * (before --input-format), indexed by enum side; a single profile is
	 * the head. */
	bool side_forced[2];
	enum input_format side_format[2];
	const char *event; /* --event: which of the profile's events (callgrind, perf, pprof) */
	long snapshot; /* --snapshot: massif's snapshot to read, -1: the peak */
	/* --max-work: the floor of the frames a reader may walk for a file
	 * (read/source.h); 0: the default. */
	uint64_t max_work;
	bool weight_period; /* --weight period: perf samples count their period */
	bool objects; /* --objects: frames named `function [object]` (callgrind) */
	bool show_below_main; /* callgrind, perf: the C runtime's frames kept apart */
	bool comparable; /* --comparable: sides of different measures compared */
	bool perf_stackcollapse; /* --perf-names stackcollapse */
	bool runs; /* --runs: each file of a side is one run; changes are tested (runs.h) */
	enum counts counts; /* --counts */
	struct tree_options tree;
	bool exact_names, no_match; /* --exact-names, --no-match (match.h) */
	/* outputs */
	struct output_spec *outputs;
	size_t output_count;
	double max_output_mb; /* --max-output-mb, 0 no limit; -1 not given (options_output_limit) */
	enum json_layout json_layout;
	/* picture */
	enum widths widths;
	double min_width; /* pixels, or a percentage with min_width_percent */
	bool min_width_percent;
	bool inverted;
	bool no_javascript; /* --no-javascript: an SVG without its script */
	double max_depth; /* --max-depth: deepest frame drawn; 0: the default cap */
	bool compact_header; /* --preset comment: the header for a comment */
	double width;
	double frame_height;
	double font_size;
	const char *font_family;
	const char *title, *subtitle; /* NULL or empty: the default, none */
	const char *countname, *notes; /* "samples"; NULL or empty: none */
	bool countname_given; /* else a reader may name its unit ("instructions") */
	/* Set by main from what the inputs said: how their stacks were made. */
	const char *input_note;
	/* What the readers said of each side's counts, indexed by enum side
	 * (main.c fills them from input.h's input_side_exact and
	 * input_side_measure): exact, the same on every run (callgrind, massif,
	 * DHAT), or sampled; what they measure ("instructions"), NULL: not said. */
	bool side_exact[2];
	const char *side_measure[2];
	/* The first file of each side; one profile is the head against "base". */
	const char *base_label, *head_label;
	enum truncate truncate;
	enum color_by color_by;
	const char *palette; /* single-profile palette, one of color_palettes */
	enum theme theme;
	double scale; /* PNG pixel density */
	/* report and gate */
	const char *image_url;
	const char *image_url_dark; /* with image_url: the dark theme's */
	unsigned top;
	double fail_on_regression; /* percent of the base total; < 0: off */
	double fail_on_function; /* percent of a function's own base self; < 0: off */
	double fail_on_new; /* share of the head total; < 0: off */
	/* A function whose self is below this share of the larger total on both
	 * sides cannot trip a per-function gate. */
	double gate_min_share;
	struct gate_pattern *fail_on;
	size_t fail_on_count;
	double significance; /* --significance: the test's level, 0 < ALPHA < 1 */
	/* --alloc-pattern, --io-pattern: globs naming allocation and I/O
	 * functions for the reports' signals; none given: the defaults
	 * (report_signals.c). */
	const char **alloc_patterns, **io_patterns;
	size_t alloc_pattern_count, io_pattern_count;
	/* Default labels of a side of several files ("a.folded and 2 more"); owned. */
	char *label_text[2];
	/* --replace, --hide, --focus...: owned; tree.transform points at it. */
	struct transform *transforms;
};

struct transform;

enum options_result {
	OPTIONS_OK,
	OPTIONS_EXIT, /* --help or --version printed: exit 0 */
	OPTIONS_USAGE, /* usage error in err: exit 2 */
};

#define OPTIONS_DEFAULT_MIN_DELTA 0.001
#define OPTIONS_DEFAULT_GATE_MIN_SHARE 0.005
#define OPTIONS_DEFAULT_SIGNIFICANCE 0.05
/* 25 times the merged tree of a 220 MB generated pair; at the limit a run
 * peaks at 1.0 GB (folded) to 1.7 GB (SVG). */
#define OPTIONS_DEFAULT_MAX_FRAMES 10000000u

void options_init(struct options *o);
void options_finish(struct options *o);
/* Fills o from argv; prints --help/--version itself to stdout. */
enum options_result options_parse(struct options *o, int argc, char **argv, struct diag *err);
/* The format an output file name implies (a descriptor, /dev/stdout..., SVG);
 * false when the extension is unknown. */
bool options_format_from_path(const char *path, enum format *f);
/* Whether NO_COLOR's value (NULL when unset) turns colour off: only when it is
 * set and not empty, as https://no-color.org says. */
bool options_no_color(const char *value);
const char *options_format_name(enum format f);

#endif
