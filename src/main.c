/*
 * difffold's command line: parse options, have the input module read the
 * profiles into one tree, hand it to each requested backend, and turn
 * failures into messages and exit codes (0 ok, 1 bad input or I/O, 2 usage,
 * 3 regression gate).
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __GLIBC__ /* defined by the headers above */
#include <malloc.h>
#endif

#include "buf.h"
#include "export.h"
#include "input.h"
#include "layout.h"
#include "options.h"
#include "output.h"
#include "render.h"
#include "report.h"
#include "runs.h"
#include "settings.h"
#include "svg.h"
#include "timing.h"
#include "tree.h"

enum exit_code {
	EXIT_OK = 0,
	EXIT_INPUT = 1,
	EXIT_USAGE = 2,
	EXIT_REGRESSION = 3,
};

/* The layout is built once, on the first picture format asked for. */
static const struct layout *
picture(const struct tree *t, const struct options *o, struct layout **cache)
{
	if (!*cache) {
		struct draw_options d;
		settings_draw(o, &d);
		*cache = layout_create(t, &d);
	}
	return *cache;
}

/* What the outputs of one run share, each made once when first needed. */
struct made {
	struct layout *layout;
	struct report_options report_opt;
	struct report *report;
};

/* The report is computed once, for every report format asked for. */
static const struct report *
reported(const struct tree *t, struct made *m)
{
	if (!m->report) {
		m->report = report_create(t, &m->report_opt);
	}
	return m->report;
}

static bool
render(struct out *out, const struct tree *t, const struct options *o, enum format f,
        struct made *made, struct diag *err)
{
	struct layout **cache = &made->layout;
	switch (f) {
	case FORMAT_FOLDED:
		export_folded(out, t);
		return true;
	case FORMAT_JSON:
		export_json(out, t, o->json_layout, t->differential ? reported(t, made) : NULL);
		return true;
	case FORMAT_SVG:
		svg_write(out, picture(t, o, cache));
		return true;
	case FORMAT_PNG:
		return render_png(out, picture(t, o, cache), err);
	case FORMAT_PDF:
		return render_pdf(out, picture(t, o, cache), err);
	case FORMAT_MD:
		report_write_md(out, reported(t, made));
		return true;
	case FORMAT_TEXT:
		report_write_text(out, reported(t, made),
		        !out->path && isatty(STDOUT_FILENO) &&
		                !options_no_color(getenv("NO_COLOR")));
		return true;
	}
	return false;
}

/* The default output limit: OUTPUT_LIMIT_TIMES the inputs, at least OUTPUT_LIMIT_FLOOR. */
#define OUTPUT_LIMIT_TIMES 64
#define OUTPUT_LIMIT_FLOOR ((uint64_t)256 << 20)

static uint64_t
file_size(const char *path)
{
	struct stat sb;
	return strcmp(path, "-") != 0 && stat(path, &sb) == 0 && S_ISREG(sb.st_mode)
	               ? (uint64_t)sb.st_size
	               : 0;
}

/*
 * The bytes an output may reach: --max-output-mb, else 64 times the inputs'
 * size on disk, at least 256 MiB. -f folded writes each stack's whole path
 * and an SVG a box a frame, so a small deep profile asks for gigabytes (a
 * 454 KB speedscope file, 40 GB of folded text): past the limit the output
 * fails before or while it is written, and nothing is left behind.
 */
static uint64_t
output_limit(const struct options *o)
{
	if (o->max_output_mb >= 0) {
		return (uint64_t)(o->max_output_mb * 1048576.0);
	}
	uint64_t in = o->single ? file_size(o->single) : 0;
	for (size_t i = 0; i < o->base_count; i++) {
		in += file_size(o->base[i]);
	}
	for (size_t i = 0; i < o->head_count; i++) {
		in += file_size(o->head[i]);
	}
	uint64_t limit = in * OUTPUT_LIMIT_TIMES;
	return limit / OUTPUT_LIMIT_TIMES != in || limit > UINT64_MAX / 2 ? UINT64_MAX / 2
	       : limit < OUTPUT_LIMIT_FLOOR                               ? OUTPUT_LIMIT_FLOOR
	                                                                  : limit;
}

/* The message of an output that failed: its limit, or err. */
static void
say_failed(const struct out *out, const struct options *o, uint64_t limit, const struct diag *err)
{
	if (!out->over) {
		fprintf(stderr, "difffold: %s\n", err->msg);
		return;
	}
	fprintf(stderr,
	        "difffold: %s: the output would be larger than %.10g MiB, the output limit (%s); "
	        "--max-output-mb N raises it, 0 lifts it\n",
	        out->path ? out->path : "<stdout>", (double)limit / 1048576.0,
	        o->max_output_mb >= 0 ? "--max-output-mb"
	                              : "64 times the inputs' size, at least 256 MiB");
}

static int
write_outputs(const struct tree *t, const struct options *o)
{
	uint64_t limit = output_limit(o);
	struct made made = {.layout = NULL, .report = NULL};
	settings_report(o, &made.report_opt);
	int code = EXIT_OK;
	size_t cut = 0; /* outputs whose reader went away */
	for (size_t i = 0; i < o->output_count && code == EXIT_OK; i++) {
		const struct output_spec *spec = &o->outputs[i];
		struct out out;
		struct diag err;
		bool broken_pipe = false;
		if (!out_open(&out, spec->path, &err)) {
			fprintf(stderr, "difffold: %s\n", err.msg);
			code = EXIT_INPUT;
			continue;
		}
		out_set_limit(&out, limit);
		/* Two steps that fail alike; the repeated branch body is deliberate.
		 * NOLINTNEXTLINE(bugprone-branch-clone) */
		if (!render(&out, t, o, spec->format, &made, &err)) {
			out_abort(&out);
			say_failed(&out, o, limit, &err);
			code = EXIT_INPUT;
		} else if (!out_commit(&out, &broken_pipe, &err)) {
			say_failed(&out, o, limit, &err);
			code = EXIT_INPUT;
		} else if (broken_pipe && o->output_count > 1) {
			/* The other outputs are still written; only a lone output
			 * (difffold ... | head) may be cut quietly. */
			fprintf(stderr, "difffold: %s: output cut short: Broken pipe\n",
			        spec->path ? spec->path : "<stdout>");
			cut++;
		}
	}
	layout_destroy(made.layout);
	report_destroy(made.report);
	return code == EXIT_OK && cut ? EXIT_INPUT : code;
}

static bool
gates_asked(const struct options *o)
{
	struct report_options r;
	settings_report(o, &r);
	return report_gates_on(&r);
}

/* Runs after the outputs are written, so a failing CI job still has them. */
static int
gate(const struct tree *t, const struct options *o)
{
	struct buf why;
	buf_init(&why);
	struct report_options r;
	settings_report(o, &r);
	bool failed = report_gates(t, &r, &why);
	for (const char *line = why.data; *line;) {
		const char *end = strchr(line, '\n');
		int len = end ? (int)(end - line) : (int)strlen(line);
		fprintf(stderr, "difffold: %.*s\n", len, line);
		line += len + (end != NULL);
	}
	buf_finish(&why);
	return failed ? EXIT_REGRESSION : EXIT_OK;
}

/*
 * The options as the outputs see them: what the inputs said fills in what
 * the user left open (the readers' unit, and their note on the input).
 */
static struct options
with_input(const struct options *o, const struct input_info *info)
{
	struct options eff = *o;
	if (!o->countname_given && info->countname) {
		eff.countname = info->countname;
	}
	if (info->note[0]) {
		eff.input_note = info->note;
	}
	for (int side = 0; side < 2; side++) {
		eff.side_exact[side] = input_side_exact(info, (enum side)side);
		eff.side_measure[side] = input_side_measure(info, (enum side)side);
	}
	return eff;
}

/*
 * Whether the counts carry sampling noise (--counts, else the readers
 * read): callgrind's events, DHAT's and massif's bytes, and pprof's bytes
 * (heap profiles, whose sampling is not one count a sample) are exact;
 * folded files, perf script, pprof CPU, speedscope and samply samples are
 * not. Mixed inputs are sampled when any file is.
 */
static bool
counts_sampled(const struct options *o, const struct input_info *info)
{
	if (o->counts != COUNTS_AUTO) {
		return o->counts == COUNTS_SAMPLED;
	}
	if (input_side_exact(info, SIDE_BASE) && input_side_exact(info, SIDE_HEAD)) {
		return false;
	}
	const char *reader = input_side_reader(info, SIDE_HEAD);
	bool pprof_bytes = reader && strcmp(reader, "pprof") == 0 && info->countname &&
	                   strcmp(info->countname, "bytes") == 0;
	return !pprof_bytes;
}

/*
 * Whether a count may be a sample's worth of time or bytes rather than one
 * sample: the weights of pprof and the JSON profilers (folded stacks and
 * perf script count samples).
 */
static bool
counts_weighted(const struct input_info *info)
{
	for (int side = 0; side < 2; side++) {
		const char *reader = input_side_reader(info, (enum side)side);
		if (!reader || (strcmp(reader, "folded") != 0 && strcmp(reader, "perf") != 0)) {
			return true;
		}
	}
	return false;
}

/* Gates that cannot act are usage errors, said before any output is written. */
static bool
gates_usable(const struct tree *t, const struct options *o)
{
	struct buf why;
	buf_init(&why);
	struct report_options r;
	settings_report(o, &r);
	bool ok = !report_gates_on(&r) || report_gates_check(t, &r, &why);
	if (!ok) {
		fprintf(stderr, "difffold: %s\n", why.data);
	}
	buf_finish(&why);
	return ok;
}

/*
 * --normalize scales the base to the head's total: a side whose total is 0
 * leaves nothing to scale (every change would read 0, "neutral"), so the
 * run stops instead of drawing that.
 */
static bool
normalize_usable(const struct tree *t, const struct options *o)
{
	if (!o->tree.normalize || !t->differential) {
		return true;
	}
	const struct tree_node *root = tree_node(t, TREE_ROOT);
	for (int side = 0; side < 2; side++) {
		if (count_is_zero(tree_node_total(t, root, (enum side)side))) {
			fprintf(stderr,
			        "difffold: --normalize: the %s's total is 0, so there is nothing "
			        "to "
			        "scale; drop --normalize to compare the counts as they are\n",
			        side == SIDE_BASE ? "base" : "head");
			return false;
		}
	}
	return true;
}

static int
run(const struct options *opt)
{
	timing_start();
	struct tree *t;
	struct input_info info;
	struct buf msg;
	buf_init(&msg);
	struct input_options in;
	settings_input(opt, &in);
	bool ok = input_read(&in, &t, &info, &msg);
	fputs(msg.data, stderr);
	buf_finish(&msg);
	if (!ok) {
		return EXIT_INPUT;
	}
	const struct options eff = with_input(opt, &info);
	const struct options *o = &eff;
	if (!normalize_usable(t, o)) {
		input_tree_destroy(t);
		return EXIT_INPUT;
	}
	if (!gates_usable(t, o)) {
		input_tree_destroy(t);
		return EXIT_USAGE;
	}
	if (t->differential && !t->runs && counts_sampled(o, &info)) {
		double per_sample[2] = {input_side_per_sample(&info, SIDE_BASE),
		        input_side_per_sample(&info, SIDE_HEAD)};
		runs_attach_single(t, o->significance, counts_weighted(&info), per_sample);
	}
	int code = write_outputs(t, o);
	timing_stage("outputs");
	timing_print();
	if (code == EXIT_OK && gates_asked(o) && t->differential) {
		code = gate(t, o);
	}
	input_tree_destroy(t);
	return code;
}

int
main(int argc, char **argv)
{
	/* Before anything opens a file that could take descriptor 0, 1 or 2. */
	out_guard_std_fds();
	out_catch_signals();
	struct options o;
	struct diag err;
	options_init(&o);
	switch (options_parse(&o, argc, argv, &err)) {
	case OPTIONS_EXIT:
		options_finish(&o);
		return EXIT_OK;
	case OPTIONS_USAGE:
		fprintf(stderr, "difffold: %s\n", err.msg);
		options_finish(&o);
		return EXIT_USAGE;
	case OPTIONS_OK:
		break;
	}
#ifdef __GLIBC__
	/* Big arrays (the tree's build state) go back to the system when freed,
	 * instead of staying in the heap beside what the outputs allocate. */
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
	/* A closed pipe shows up as EPIPE from write(2), handled per output. */
	signal(SIGPIPE, SIG_IGN);
	/* Past RLIMIT_FSIZE write(2) fails with EFBIG, reported like any write
	 * error, instead of a signal killing us with a temporary file left. */
	signal(SIGXFSZ, SIG_IGN);
	int code = run(&o);
	options_finish(&o);
	return code;
}
