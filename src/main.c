/*
 * difffold's command line: parse options, read the profiles into one tree,
 * hand it to each requested backend, and turn failures into messages and
 * exit codes (0 ok, 1 bad input or I/O, 2 usage, 3 regression gate).
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <unistd.h>
#ifdef __GLIBC__ /* defined by the headers above */
#include <malloc.h>
#endif

#include "buf.h"
#include "export.h"
#include "folded.h"
#include "layout.h"
#include "options.h"
#include "output.h"
#include "png.h"
#include "report.h"
#include "svg.h"
#include "tree.h"

enum exit_code {
	EXIT_OK = 0,
	EXIT_INPUT = 1,
	EXIT_USAGE = 2,
	EXIT_REGRESSION = 3,
};

static void
warn_bad_lines(const char *path, const struct folded_stats *st, struct buf *msg)
{
	if (st->bad_lines == 0) {
		return;
	}
	const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	buf_printf(msg, "difffold: warning: %s:%llu: %s; %llu malformed line%s skipped\n", name,
	        (unsigned long long)st->first_bad, st->first_bad_reason,
	        (unsigned long long)st->bad_lines, st->bad_lines == 1 ? "" : "s");
}

/* Messages go to msg, so that two sides read at once still print in order. */
static bool
read_side(struct tree *t, const char **paths, size_t count, enum folded_mode mode, bool strict,
        const struct folded_progress *progress, bool *three_column, struct buf *msg)
{
	for (size_t i = 0; i < count; i++) {
		struct folded_stats st;
		struct diag err;
		if (!folded_read_file_progress(t, paths[i], mode, strict, progress, &st, &err)) {
			buf_printf(msg, "difffold: %s\n", err.msg);
			return false;
		}
		warn_bad_lines(paths[i], &st, msg);
		*three_column = st.three_column;
	}
	return true;
}

/* The head side, read into a tree of its own on a second thread. */
struct head_job {
	struct tree *t;
	const struct options *o;
	const struct folded_progress *progress;
	struct buf msg;
	bool ok;
};

static void *
read_head(void *arg)
{
	struct head_job *job = arg;
	bool ignored;
	job->ok = read_side(job->t, job->o->head, job->o->head_count, FOLDED_HEAD, job->o->strict,
	        job->progress, &ignored, &job->msg);
	return NULL;
}

/*
 * Base into t while the head is read on a second thread, then merged: the
 * result, messages included, is that of reading one after the other. Only
 * for big inputs: the merge and the second tree cost about half again as
 * much CPU time, and on 2 cores save only a little of the wall time (bench/).
 */
#define THREADS_MIN_BYTES ((uint64_t)64 << 20)

/*
 * Whether to read on two threads: by size, or as DIFFFOLD_READ_THREADS=1 or
 * 2 says, for measuring either way at any size (bench/, README).
 */
static bool
read_threaded(uint64_t total_bytes)
{
	const char *env = getenv("DIFFFOLD_READ_THREADS");
	if (env && (strcmp(env, "1") == 0 || strcmp(env, "2") == 0)) {
		return env[0] == '2';
	}
	return total_bytes >= THREADS_MIN_BYTES;
}

static bool
read_both(struct tree *t, const struct options *o, const struct folded_progress *progress,
        uint64_t total_bytes, struct buf *msg)
{
	bool ignored;
	if (!read_threaded(total_bytes)) {
		return read_side(t, o->base, o->base_count, FOLDED_BASE, o->strict, progress,
		               &ignored, msg) &&
		       read_side(t, o->head, o->head_count, FOLDED_HEAD, o->strict, progress,
		               &ignored, msg);
	}
	struct head_job job = {.t = tree_create(&o->tree), .o = o, .progress = progress};
	buf_init(&job.msg);
	pthread_t thread;
	bool threaded = pthread_create(&thread, NULL, read_head, &job) == 0;
	bool ok = read_side(
	        t, o->base, o->base_count, FOLDED_BASE, o->strict, progress, &ignored, msg);
	if (threaded) {
		pthread_join(thread, NULL);
	} else {
		read_head(&job);
	}
	if (ok) {
		buf_add(msg, job.msg.data, job.msg.len);
		ok = job.ok;
	}
	const char *reason;
	if (ok && !tree_merge(t, job.t, &reason)) {
		buf_printf(msg, "difffold: %s\n", reason);
		ok = false;
	}
	buf_finish(&job.msg);
	tree_destroy(job.t);
	return ok;
}

/* A progress line while reading big inputs, on a terminal only. */
#define PROGRESS_MIN_BYTES ((uint64_t)64 << 20)

struct progress {
	pthread_mutex_t lock; /* base and head are read at once */
	uint64_t total, done;
	int shown; /* percentage on screen, -1 for none */
};

static void
progress_step(void *ctx, uint64_t bytes)
{
	struct progress *p = ctx;
	pthread_mutex_lock(&p->lock);
	p->done += bytes;
	int pct = p->done >= p->total ? 100 : (int)(p->done * 100 / p->total);
	if (pct != p->shown) {
		fprintf(stderr, "\rdifffold: reading %d%%", pct);
		p->shown = pct;
	}
	pthread_mutex_unlock(&p->lock);
}

static void
progress_init(struct progress *p, struct folded_progress *fp, const struct options *o)
{
	pthread_mutex_init(&p->lock, NULL);
	p->total = p->done = 0;
	p->shown = -1;
	fp->fn = NULL;
	fp->ctx = p;
	const char *const *lists[] = {&o->single, o->base, o->head};
	size_t counts[] = {o->single ? 1 : 0, o->base_count, o->head_count};
	for (size_t l = 0; l < 3; l++) {
		for (size_t i = 0; i < counts[l]; i++) {
			struct stat sb;
			if (strcmp(lists[l][i], "-") != 0 && stat(lists[l][i], &sb) == 0) {
				p->total += (uint64_t)sb.st_size;
			}
		}
	}
	if (p->total >= PROGRESS_MIN_BYTES && isatty(STDERR_FILENO)) {
		fp->fn = progress_step;
	}
}

static void
progress_end(struct progress *p)
{
	if (p->shown >= 0) {
		fputs("\r\033[K", stderr);
	}
	pthread_mutex_destroy(&p->lock);
}

/* DIFFFOLD_TIMING=1 prints the time of each stage to stderr (bench/). */
static double
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
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

/* The layout is built once, on the first picture format asked for. */
static const struct layout *
picture(const struct tree *t, const struct options *o, struct layout **cache)
{
	if (!*cache) {
		*cache = layout_create(t, o);
	}
	return *cache;
}

static bool
render(struct out *out, const struct tree *t, const struct options *o, enum format f,
        struct layout **cache, struct diag *err)
{
	switch (f) {
	case FORMAT_FOLDED:
		export_folded(out, t);
		return true;
	case FORMAT_JSON:
		export_json(out, t, o);
		return true;
	case FORMAT_SVG:
		svg_write(out, picture(t, o, cache));
		return true;
	case FORMAT_PNG:
		return png_write(out, picture(t, o, cache), err);
	case FORMAT_PDF:
		return png_write_pdf(out, picture(t, o, cache), err);
	case FORMAT_MD:
		report_write_md(out, t, o);
		return true;
	case FORMAT_TEXT:
		report_write_text(
		        out, t, o, !out->path && isatty(STDOUT_FILENO) && !getenv("NO_COLOR"));
		return true;
	}
	return false;
}

static int
write_outputs(const struct tree *t, const struct options *o)
{
	struct layout *cache = NULL;
	int code = EXIT_OK;
	size_t cut = 0; /* outputs whose reader went away */
	for (size_t i = 0; i < o->output_count && code == EXIT_OK; i++) {
		const struct output_spec *spec = &o->outputs[i];
		struct out out;
		struct diag err;
		bool broken_pipe = false;
		/* Three steps that fail alike; the repeated branch body is deliberate.
		 * NOLINTNEXTLINE(bugprone-branch-clone) */
		if (!out_open(&out, spec->path, &err)) {
			fprintf(stderr, "difffold: %s\n", err.msg);
			code = EXIT_INPUT;
		} else if (!render(&out, t, o, spec->format, &cache, &err)) {
			out_abort(&out);
			fprintf(stderr, "difffold: %s\n", err.msg);
			code = EXIT_INPUT;
		} else if (!out_commit(&out, &broken_pipe, &err)) {
			fprintf(stderr, "difffold: %s\n", err.msg);
			code = EXIT_INPUT;
		} else if (broken_pipe && o->output_count > 1) {
			/* The other outputs are still written; only a lone output
			 * (difffold ... | head) may be cut quietly. */
			fprintf(stderr, "difffold: %s: output cut short: Broken pipe\n",
			        spec->path ? spec->path : "<stdout>");
			cut++;
		}
	}
	layout_destroy(cache);
	return code == EXIT_OK && cut ? EXIT_INPUT : code;
}

/* Runs after the outputs are written, so a failing CI job still has them. */
static int
gate(const struct tree *t, double pct)
{
	struct buf why;
	buf_init(&why);
	bool failed = report_gate(t, pct, &why);
	for (const char *line = why.data; line && *line;) {
		const char *end = strchr(line, '\n');
		int len = end ? (int)(end - line) : (int)strlen(line);
		fprintf(stderr, "difffold: %.*s\n", len, line);
		line += len + (end != NULL);
	}
	buf_finish(&why);
	return failed ? EXIT_REGRESSION : EXIT_OK;
}

static int
run(struct options *o)
{
	if (stdin_used_twice(o)) {
		fprintf(stderr, "difffold: standard input ('-') can be read only once\n");
		return EXIT_USAGE;
	}
	double start = now_ms();
	struct progress pr;
	struct folded_progress fp;
	progress_init(&pr, &fp, o);
	struct tree *t = tree_create(&o->tree);
	bool three_column = false;
	struct buf msg;
	buf_init(&msg);
	bool ok = o->single ? read_side(t, &o->single, 1, FOLDED_AUTO, o->strict, &fp,
	                              &three_column, &msg)
	                    : read_both(t, o, &fp, pr.total, &msg);
	progress_end(&pr);
	fputs(msg.len ? msg.data : "", stderr);
	buf_finish(&msg);
	double read_done = now_ms();
	if (!ok) {
		tree_destroy(t);
		return EXIT_INPUT;
	}
	bool differential = !o->single || three_column;
	tree_finish(t, differential);
	double tree_done = now_ms();
	if (!o->head_label) {
		o->head_label = o->single ? o->single : o->head[0];
	}
	if (!o->base_label) {
		o->base_label = o->single ? "base" : o->base[0];
	}
	int code = write_outputs(t, o);
	if (getenv("DIFFFOLD_TIMING")) {
		fprintf(stderr,
		        "difffold: timing: read %.1f ms, tree_finish %.1f ms, outputs %.1f ms\n",
		        read_done - start, tree_done - read_done, now_ms() - tree_done);
	}
	if (code == EXIT_OK && o->fail_on_regression >= 0 && differential) {
		code = gate(t, o->fail_on_regression);
	}
	tree_destroy(t);
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
