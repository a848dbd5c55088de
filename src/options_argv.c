/*
 * The command line checked word by word before getopt_long reads it, so
 * that a mistyped option gets the nearest real one, an abbreviation is
 * refused with the full name (getopt_long would take a unique prefix,
 * which a later option sharing it would silently change), and a peer's
 * spelling that means something else here says what to use instead.
 * The table of options getopt_long reads is here too.
 */
#include "options_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suggest.h"
#include "xalloc.h"

const struct option options_long[] = {
        {"base", required_argument, NULL, OPT_BASE},
        {"head", required_argument, NULL, OPT_HEAD},
        {"strict", no_argument, NULL, OPT_STRICT},
        {"reverse", no_argument, NULL, OPT_REVERSE},
        {"strip-hex", no_argument, NULL, OPT_STRIP_HEX},
        {"normalize", no_argument, NULL, OPT_NORMALIZE},
        {"min-delta", required_argument, NULL, OPT_MIN_DELTA},
        {"max-frames", required_argument, NULL, OPT_MAX_FRAMES},
        {"max-work", required_argument, NULL, OPT_MAX_WORK},
        {"max-output-mb", required_argument, NULL, OPT_MAX_OUTPUT_MB},
        {"output", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'f'},
        {"widths", required_argument, NULL, OPT_WIDTHS},
        {"min-width", required_argument, NULL, OPT_MIN_WIDTH},
        {"inverted", no_argument, NULL, OPT_INVERTED},
        {"flamechart", no_argument, NULL, OPT_FLAMECHART},
        {"width", required_argument, NULL, OPT_WIDTH},
        {"max-depth", required_argument, NULL, OPT_MAX_DEPTH},
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
        {"image-url-dark", required_argument, NULL, OPT_IMAGE_URL_DARK},
        {"fail-on-regression", required_argument, NULL, OPT_FAIL_ON_REGRESSION},
        {"fail-on-function-regression", required_argument, NULL, OPT_FAIL_ON_FUNCTION},
        {"fail-on", required_argument, NULL, OPT_FAIL_ON},
        {"fail-on-new", required_argument, NULL, OPT_FAIL_ON_NEW},
        {"gate-min-share", required_argument, NULL, OPT_GATE_MIN_SHARE},
        {"input-format", required_argument, NULL, OPT_INPUT_FORMAT},
        {"event", required_argument, NULL, OPT_EVENT},
        {"objects", no_argument, NULL, OPT_OBJECTS},
        {"show-below-main", no_argument, NULL, OPT_SHOW_BELOW_MAIN},
        {"weight", required_argument, NULL, OPT_WEIGHT},
        {"snapshot", required_argument, NULL, OPT_SNAPSHOT},
        {"json-layout", required_argument, NULL, OPT_JSON_LAYOUT},
        {"runs", no_argument, NULL, OPT_RUNS},
        {"significance", required_argument, NULL, OPT_SIGNIFICANCE},
        {"counts", required_argument, NULL, OPT_COUNTS},
        {"base-format", required_argument, NULL, OPT_BASE_FORMAT},
        {"head-format", required_argument, NULL, OPT_HEAD_FORMAT},
        {"comparable", no_argument, NULL, OPT_COMPARABLE},
        {"perf-names", required_argument, NULL, OPT_PERF_NAMES},
        {"exact-names", no_argument, NULL, OPT_EXACT_NAMES},
        {"no-match", no_argument, NULL, OPT_NO_MATCH},
        {"alloc-pattern", required_argument, NULL, OPT_ALLOC_PATTERN},
        {"io-pattern", required_argument, NULL, OPT_IO_PATTERN},
        {"replace", required_argument, NULL, OPT_REPLACE},
        {"hide", required_argument, NULL, OPT_HIDE},
        {"focus", required_argument, NULL, OPT_FOCUS},
        {"focus-root", no_argument, NULL, OPT_FOCUS_ROOT},
        {"exclude", required_argument, NULL, OPT_EXCLUDE},
        {"skip-frames", required_argument, NULL, OPT_SKIP_FRAMES},
        {"collapse-recursion", no_argument, NULL, OPT_COLLAPSE_RECURSION},
        {"negate", no_argument, NULL, OPT_NEGATE},
        {"no-javascript", no_argument, NULL, OPT_NO_JAVASCRIPT},
        /* The peers' spellings (flamegraph.pl, inferno, pprof, async-profiler)
         * where they mean what difffold's own option means. */
        {"minwidth", required_argument, NULL, OPT_MIN_WIDTH},
        {"height", required_argument, NULL, OPT_FRAME_HEIGHT},
        {"fonttype", required_argument, NULL, OPT_FONT_FAMILY},
        {"fontsize", required_argument, NULL, OPT_FONT_SIZE},
        {"colors", required_argument, NULL, OPT_COLORS},
        {"hash", no_argument, NULL, OPT_ACCEPTED},
        {"deterministic", no_argument, NULL, OPT_ACCEPTED},
        {"cp", no_argument, NULL, OPT_ACCEPTED},
        {"pretty-xml", no_argument, NULL, OPT_ACCEPTED},
        {"nametype", required_argument, NULL, OPT_ACCEPTED_VALUE},
        {"ignore", required_argument, NULL, OPT_EXCLUDE},
        {"include", required_argument, NULL, OPT_FOCUS},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
};

const char options_short[] = ":o:f:hVc:nsi";

/* Other tools' options whose meaning difffold does not have, with what
 * it does instead. */
static const struct {
	const char *name;
	const char *why;
} refused[] = {
        {"random", "--random: difffold colours each name by a hash of it, the same in every "
                   "graph; random colours are not offered"},
        {"bgcolors", "--bgcolors: the background follows --theme (light or dark)"},
        {"factor", "--factor: counts are drawn as read; --normalize scales the base to the "
                   "head's total"},
};

/* pprof's flags take one dash; -normalize goes the other way round. */
static const char pprof_normalize[] =
        "-normalize: pprof scales the profile to the base's total; difffold's "
        "-n/--normalize scales the base to the head's total (same shares, head units)";

static size_t
long_count(void)
{
	size_t n = 0;
	while (options_long[n].name) {
		n++;
	}
	return n;
}

static const struct option *
find_long(const char *name, size_t len)
{
	for (const struct option *opt = options_long; opt->name; opt++) {
		if (strlen(opt->name) == len && memcmp(opt->name, name, len) == 0) {
			return opt;
		}
	}
	return NULL;
}

static const char *
find_refused(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		if (strlen(refused[i].name) == len && memcmp(refused[i].name, name, len) == 0) {
			return refused[i].why;
		}
	}
	return NULL;
}

/* Appends "before '--name'after" to the message already in err. */
static void
append(struct diag *err, const char *before, const char *name, const char *after)
{
	size_t used = strlen(err->msg);
	snprintf(err->msg + used, sizeof(err->msg) - used, "%s'--%s'%s", before, name, after);
}

/* An abbreviation: the options it could stand for, by their full names. */
static bool
abbreviation(const char *word, const char *name, size_t len, struct diag *err)
{
	size_t found = 0;
	for (const struct option *opt = options_long; opt->name; opt++) {
		if (strncmp(opt->name, name, len) != 0) {
			continue;
		}
		if (found == 0) {
			options_usage(err, "options are not abbreviated:", word);
			append(err, "; write ", opt->name, "");
		} else if (found < 4) {
			append(err, " or ", opt->name, "");
		}
		found++;
	}
	return found > 0;
}

/* An option that is not difffold's: the nearest known one, if any. */
static bool
unknown_long(const char *word, const char *name, size_t len, struct diag *err)
{
	const char *why = find_refused(name, len);
	if (why) {
		return options_usage(err, why, NULL);
	}
	if (abbreviation(word, name, len, err)) {
		return false;
	}
	size_t count = long_count();
	const char **names = xmalloc(count * sizeof(*names));
	for (size_t i = 0; i < count; i++) {
		names[i] = options_long[i].name;
	}
	const char *near = suggest_closest(name, len, names, count);
	free(names);
	options_usage(err, "unknown option (see --help):", word);
	if (near) {
		append(err, "; did you mean ", near, "?");
	}
	return false;
}

/* A word of one dash: a cluster of short options, or a long option (as
 * pprof and Go tools write them) that lost a dash. */
static bool
check_short(const char *word, int *skip, struct diag *err)
{
	const char *name = word + 1;
	size_t len = strlen(name);
	if (len >= 3 && strcmp(name, "normalize") == 0) {
		return options_usage(err, pprof_normalize, NULL);
	}
	if (len >= 3 && (find_long(name, len) || find_refused(name, len))) {
		options_usage(err, "long options take two dashes:", word);
		append(err, "; write ", name, "");
		return false;
	}
	for (size_t i = 0; i < len; i++) {
		const char *known = name[i] == ':' ? NULL : strchr(options_short, name[i]);
		if (!known) {
			if (len >= 3) {
				return unknown_long(word, name, len, err);
			}
			return options_usage(err, "unknown option (see --help):", word);
		}
		if (known[1] == ':') {
			*skip = i + 1 == len; /* the value is the next word */
			return true;
		}
	}
	return true;
}

bool
options_check_argv(int argc, char **argv, struct diag *err)
{
	for (int i = 1; i < argc; i++) {
		const char *word = argv[i];
		if (strcmp(word, "--") == 0) {
			return true;
		}
		if (word[0] != '-' || word[1] == '\0') {
			continue; /* a profile, or standard input */
		}
		int skip = 0;
		if (word[1] != '-') {
			if (!check_short(word, &skip, err)) {
				return false;
			}
			i += skip;
			continue;
		}
		const char *name = word + 2;
		const char *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		const struct option *opt = find_long(name, len);
		if (!opt) {
			return unknown_long(word, name, len, err);
		}
		/* getopt_long reports a missing value and a value given to a flag. */
		i += !eq && opt->has_arg == required_argument;
	}
	return true;
}
