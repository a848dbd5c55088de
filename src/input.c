#include "input.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "escape.h"
#include "folded.h"
#include "timing.h"

static void
warn_bad_lines(const char *path, const struct folded_stats *st, struct buf *msg)
{
	if (st->bad_lines == 0) {
		return;
	}
	const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	buf_adds(msg, "difffold: warning: ");
	escape_diag(msg, name, strlen(name));
	buf_printf(msg, ":%llu: %s; %llu malformed line%s skipped\n",
	        (unsigned long long)st->first_bad, st->first_bad_reason,
	        (unsigned long long)st->bad_lines, st->bad_lines == 1 ? "" : "s");
}

/* Messages go to msg, so that two sides read at once still print in order. */
static bool
read_side(struct tree *t, const char *const *paths, size_t count, enum folded_mode mode,
        bool strict, const struct folded_progress *progress, bool *three_column, struct buf *msg)
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

bool
input_read(const struct options *o, struct tree **out, struct buf *messages)
{
	struct progress pr;
	struct folded_progress fp;
	progress_init(&pr, &fp, o);
	struct tree *t = tree_create(&o->tree);
	bool three_column = false;
	bool ok = o->single ? read_side(t, &o->single, 1, FOLDED_AUTO, o->strict, &fp,
	                              &three_column, messages)
	                    : read_both(t, o, &fp, pr.total, messages);
	progress_end(&pr);
	timing_stage("read");
	if (!ok) {
		tree_destroy(t);
		*out = NULL;
		return false;
	}
	/* One profile is differential when it has the 3-column form. */
	tree_finish(t, !o->single || three_column);
	timing_stage("tree_finish");
	*out = t;
	return true;
}
