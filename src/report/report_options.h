/*
 * report_options: what the reports, the gates and the export take from the
 * command line, the one settings struct of src/report (src/report sees no
 * options.h). main fills it with settings_report (settings.h). Strings,
 * lists and the transforms are borrowed and must outlive the report.
 */
#ifndef DIFFFOLD_REPORT_OPTIONS_H
#define DIFFFOLD_REPORT_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

/* -f json: one object per stack level, or a flat array with parent ids. */
enum json_layout {
	JSON_LAYOUT_NESTED,
	JSON_LAYOUT_FLAT,
};

/* --fail-on PATTERN:[self:|total:]+PCT: a glob over function names. */
struct gate_pattern {
	char *glob; /* owned by struct options */
	bool total; /* the function's total, else its self */
	double pct; /* percent of the function's own base */
};

struct transform;

struct report_options {
	const char *base_label, *head_label; /* never NULL */
	const char *countname; /* "samples" */
	const char *input_note; /* how the inputs' stacks were made, or NULL */
	const char *image_url; /* --image-url, or NULL */
	unsigned top; /* rows a table; 0: the default */
	/* The transforms that rewrote the stacks (NULL: none). */
	const struct transform *transform;
	/* The files of each side, for the command that updates the baseline. */
	const char *const *base, *const *head;
	size_t base_count, head_count;
	/* The gates: a percentage or share, < 0 when off (options.h). */
	double fail_on_regression, fail_on_function, fail_on_new;
	double gate_min_share;
	const struct gate_pattern *fail_on;
	size_t fail_on_count;
	/* --alloc-pattern, --io-pattern; none given: the defaults. */
	const char *const *alloc_patterns, *const *io_patterns;
	size_t alloc_pattern_count, io_pattern_count;
	enum json_layout json_layout;
};

#endif
