#include "input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "callgrind.h"
#include "detect.h"
#include "escape.h"
#include "folded.h"
#include "readers.h"
#include "runs.h"
#include "source.h"
#include "timing.h"
#include "match.h"
#include "transform.h"
#include "tree_build.h"
#include "tree_warn.h"
#include "xalloc.h"

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

/* How one side is read: its mode, what its files said, where messages go. */
struct side_read {
	const struct input_options *o;
	const struct read_progress *progress;
	enum folded_mode mode;
	bool three_column;
	struct read_options ro;
	struct read_sum *sums; /* per reader, in the table's order */
	struct buf *msg;
	struct runs *runs; /* --runs: each file is one run, else NULL */
};

/* The bytes judged for a file's format: enough for any header we know. */
#define DETECT_SIZE ((size_t)64 << 10)

static bool
refuse(struct side_read *sd, const char *name, enum input_format f)
{
	buf_adds(sd->msg, "difffold: ");
	escape_diag(sd->msg, name, strlen(name));
	buf_printf(sd->msg, ": this looks like %s, which difffold does not read; ",
	        detect_format_name(f));
	/* The advice's commands name the file: FILE stands for it; READERS
	 * for the readers' names. */
	for (const char *a = detect_advice(f); *a;) {
		const char *file = strstr(a, "FILE"), *readers = strstr(a, "READERS");
		const char *at = file && (!readers || file < readers) ? file : readers;
		size_t n = at ? (size_t)(at - a) : strlen(a);
		buf_add(sd->msg, a, n);
		if (at == file && at) {
			escape_diag(sd->msg, name, strlen(name));
		} else if (at) {
			readers_list(sd->msg, " and ");
		}
		a += n + (at ? strlen(at == file ? "FILE" : "READERS") : 0);
	}
	buf_addc(sd->msg, '\n');
	return false;
}

/* The index of a reader in the table, for its sum. */
static size_t
reader_index(const struct profile_reader *r)
{
	size_t i = 0;
	while (readers_at(i) != r) {
		i++;
	}
	return i;
}

/* One file: its format judged by its first bytes, unless the options name it. */
static bool
read_file(struct side_read *sd, struct tree *t, const char *path, char *head, struct diag *err)
{
	struct source *src = source_open(path, sd->progress, err);
	if (!src) {
		return false;
	}
	bool whole;
	size_t len = source_peek(src, head, DETECT_SIZE, &whole, err);
	bool ok = len != SIZE_MAX;
	if (ok) {
		enum side side = reader_side(sd->mode);
		enum input_format f = sd->o->side_forced[side] ? sd->o->side_format[side]
		                      : sd->o->input_forced    ? sd->o->input_format
		                                               : detect_format(head, len, whole);
		const struct profile_reader *r = readers_for(f);
		struct read_result res;
		if (!r) {
			ok = refuse(sd, source_name(src), f);
			err->msg[0] = '\0';
		} else if (sd->o->tree->chart && r->unordered) {
			char why[512];
			snprintf(why, sizeof(why),
			        "--flamechart draws stacks in the file's order: this %s file has "
			        "none (%s)",
			        r->name, r->unordered);
			diag_set(err, source_name(src), 0, why);
			ok = false;
		} else if ((ok = readers_read(
		                    r, t, sd->mode, src, head, len, &sd->ro, &res, err))) {
			warn_bad_lines(source_name(src), &res.folded, sd->msg);
			sd->three_column |= res.folded.three_column;
			readers_sum_add(&sd->sums[reader_index(r)], &res, side);
		}
	}
	source_close(src);
	return ok;
}

/* Messages go to msg, so that two sides read at once still print in order. */
static bool
read_side(struct side_read *sd, struct tree *t, const char *const *paths, size_t count)
{
	char *head = xmalloc(DETECT_SIZE);
	bool ok = true;
	for (size_t i = 0; ok && i < count; i++) {
		struct diag err = {{0}};
		ok = read_file(sd, t, paths[i], head, &err);
		if (ok && sd->runs &&
		        !runs_take(sd->runs, t, sd->mode == FOLDED_BASE ? SIDE_BASE : SIDE_HEAD)) {
			diag_set(&err, paths[i], 0,
			        "--runs: this run's total is 0, so it has no shares to compare; "
			        "leave the file out");
			ok = false;
		}
		if (!ok && err.msg[0]) {
			buf_printf(sd->msg, "difffold: %s\n", err.msg);
		}
	}
	free(head);
	return ok;
}

/*
 * From this much input on, folded files are read on two threads (see
 * folded_read_source_threaded), where the second costs about the CPU time
 * it takes off the first; on the 10 MB pair it cost 12 % more CPU time
 * for a few milliseconds (docs/performance.md).
 */
#define THREADS_MIN_BYTES ((uint64_t)64 << 20)

/*
 * Whether to read on two threads: by size, or as DIFFFOLD_READ_THREADS=1 or
 * 2 says, for measuring either way at any size (bench/, CONTRIBUTING.md).
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

/*
 * What one side's counts measure, when its readers say: the first reader in
 * the table's order whose files agree on it; NULL when none says, which
 * compares with anything. *r is that reader, for the message.
 */
static const char *
side_measure(const struct read_sum *sums, const struct profile_reader **r)
{
	for (size_t i = 0; readers_at(i); i++) {
		const struct read_sum *s = &sums[i];
		if (s->files && s->first.measure[0] && !s->measure_mixed) {
			*r = readers_at(i);
			return s->first.measure;
		}
	}
	return NULL;
}

/*
 * Base and head must count the same thing: instructions against bytes
 * would draw a graph of a misread, with a verdict to match, unless the
 * user says they compare (--comparable; the note then says so).
 */
static bool
same_measure(struct input_info *info, const struct input_options *o, struct buf *msg)
{
	const struct profile_reader *br = NULL, *hr = NULL;
	const char *bu = side_measure(info->sums[SIDE_BASE], &br);
	const char *hu = side_measure(info->sums[SIDE_HEAD], &hr);
	if (!bu || !hu || strcmp(bu, hu) == 0) {
		return true;
	}
	if (o->comparable) {
		info->compared_as_asked = true;
		return true;
	}
	struct buf b;
	buf_init(&b);
	buf_printf(&b,
	        "base and head count different things: %s counts %s (%s), %s counts %s (%s); "
	        "compare profiles of one kind (the same --event for both), or say they compare "
	        "with --comparable",
	        o->base[0], bu, br->name, o->head[0], hu, hr->name);
	buf_adds(msg, "difffold: ");
	escape_diag(msg, b.data, b.len);
	buf_adds(msg, "\n");
	buf_finish(&b);
	return false;
}

/* The options the readers take. */
static void
read_options_of(struct read_options *ro, const struct input_options *o, bool threaded)
{
	readers_options_init(ro);
	ro->event = o->event;
	ro->objects = o->objects;
	ro->below_main = o->show_below_main;
	ro->weight_period = o->weight_period;
	ro->stackcollapse = o->perf_stackcollapse;
	ro->snapshot = o->snapshot;
	ro->strict = o->strict;
	ro->max_work = o->max_work;
	ro->threaded = threaded;
}

static bool
read_both(struct tree *t, const struct input_options *o, const struct read_progress *progress,
        bool threaded, struct input_info *info, struct buf *msg, struct runs *runs)
{
	struct side_read base = {
	        .o = o, .progress = progress, .mode = FOLDED_BASE, .msg = msg, .runs = runs};
	read_options_of(&base.ro, o, threaded && !runs);
	struct side_read head = base;
	head.mode = FOLDED_HEAD;
	base.sums = info->sums[SIDE_BASE];
	head.sums = info->sums[SIDE_HEAD];
	/*
	 * Call graphs without contexts wait for both sides, to be expanded
	 * under one floor. Not with --runs, which takes each file's counts as
	 * it is read.
	 */
	struct callgrind_queue *q = runs ? NULL : callgrind_queue_create();
	base.ro.defer = head.ro.defer = q;
	struct diag err = {{0}};
	bool ok = read_side(&base, t, o->base, o->base_count) &&
	          read_side(&head, t, o->head, o->head_count) && same_measure(info, o, msg);
	if (ok && q && !callgrind_queue_run(q, t, base.ro.floor, &err)) {
		buf_printf(msg, "difffold: %s\n", err.msg);
		ok = false;
	}
	callgrind_queue_destroy(q);
	return ok;
}

/* A progress line while reading big inputs, on a terminal only. */
#define PROGRESS_MIN_BYTES ((uint64_t)64 << 20)

struct progress {
	uint64_t total, done;
	int shown; /* percentage on screen, -1 for none */
};

static void
progress_step(void *ctx, uint64_t bytes)
{
	struct progress *p = ctx;
	p->done += bytes;
	int pct = p->done >= p->total ? 100 : (int)(p->done * 100 / p->total);
	if (pct != p->shown) {
		fprintf(stderr, "\rdifffold: reading %d%%", pct);
		p->shown = pct;
	}
}

static void
progress_init(struct progress *p, struct read_progress *fp, const struct input_options *o)
{
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
}

/*
 * The picture's note and count name from what every file said: the first
 * reader in the table's order that has one.
 */
/* "callgrind (instructions)": a side's reader and what its counts measure. */
static void
side_words(struct buf *b, const struct input_info *info, enum side side)
{
	const char *r = input_side_reader(info, side), *m = input_side_measure(info, side);
	buf_adds(b, r ? r : "several readers");
	if (m) {
		buf_printf(b, " (%s)", m);
	}
}

/*
 * Each side's reader and measure after the readers' note, when a reader
 * says what it measures: "base: callgrind (instructions), head: perf
 * (samples of cycles)", or "base and head: ..." when they agree.
 */
static void
describe_sides(struct input_info *info)
{
	if (!input_side_measure(info, SIDE_BASE) && !input_side_measure(info, SIDE_HEAD)) {
		return;
	}
	struct buf b, h;
	buf_init(&b);
	buf_init(&h);
	side_words(&b, info, SIDE_BASE);
	side_words(&h, info, SIDE_HEAD);
	struct buf all;
	buf_init(&all);
	buf_adds(&all, info->note);
	buf_adds(&all, info->note[0] ? "; " : "");
	if (strcmp(b.data, h.data) == 0) {
		buf_printf(&all, "base and head: %s", b.data);
	} else {
		buf_printf(&all, "base: %s, head: %s", b.data, h.data);
	}
	if (info->compared_as_asked) {
		buf_adds(&all, ", compared as asked (--comparable)");
	}
	size_t n = all.len < sizeof(info->note) - 1 ? all.len : sizeof(info->note) - 1;
	memcpy(info->note, all.data, n);
	info->note[n] = '\0';
	buf_finish(&all);
	buf_finish(&h);
	buf_finish(&b);
}

static void
describe(struct input_info *info, bool single)
{
	struct read_sum all[READERS_MAX];
	memset(all, 0, sizeof(all));
	for (size_t i = 0; readers_at(i); i++) {
		readers_sum_merge(&all[i], &info->sums[SIDE_BASE][i]);
		readers_sum_merge(&all[i], &info->sums[SIDE_HEAD][i]);
	}
	bool noted = false, named = false;
	for (size_t i = 0; readers_at(i); i++) {
		const struct read_sum *s = &all[i];
		const struct profile_reader *r = readers_at(i);
		if (s->files == 0) {
			continue;
		}
		if (!noted && r->note) {
			r->note(s, single, info->note, sizeof(info->note));
		} else if (!noted && !s->note_mixed) {
			snprintf(info->note, sizeof(info->note), "%s", s->first.note);
		}
		noted = info->note[0] != '\0';
		if (!named && (s->first.unit[0] || s->unit_mixed)) {
			named = true;
			snprintf(info->unit, sizeof(info->unit), "%s",
			        s->unit_mixed ? "" : s->first.unit);
			info->countname = info->unit[0] ? info->unit : NULL;
		}
	}
}

bool
input_read(const struct input_options *o, struct tree **out, struct input_info *info,
        struct buf *messages)
{
	struct progress pr;
	struct read_progress rp;
	progress_init(&pr, &rp, o);
	memset(info, 0, sizeof(*info));
	struct tree *t = tree_create(o->tree);
	struct runs *runs = NULL;
	bool ok;
	bool three_column = false;
	if (o->single) {
		struct side_read sd = {.o = o,
		        .progress = &rp,
		        .mode = FOLDED_AUTO,
		        .sums = info->sums[SIDE_HEAD],
		        .msg = messages};
		/* A flame chart's stacks go to the tree in the file's order: one thread. */
		read_options_of(&sd.ro, o, read_threaded(pr.total) && !o->tree->chart);
		ok = read_side(&sd, t, &o->single, 1);
		three_column = sd.three_column;
		if (ok && three_column && o->tree->chart) {
			buf_adds(messages,
			        "difffold: --flamechart draws one profile in time order, and "
			        "this file holds two (3-column folded: base and head)\n");
			ok = false;
		}
	} else {
		runs = o->runs ? runs_create(o->significance) : NULL;
		ok = read_both(t, o, &rp, read_threaded(pr.total), info, messages, runs);
	}
	progress_end(&pr);
	info->single = o->single != NULL;
	describe(info, info->single);
	if (!info->single) {
		describe_sides(info);
	}
	timing_stage("read");
	if (!ok) {
		runs_destroy(runs);
		tree_destroy(t);
		*out = NULL;
		return false;
	}
	/* One profile is differential when it has the 3-column form. */
	tree_finish(t, !o->single || three_column);
	if (runs) {
		runs_attach(runs, t);
	}
	timing_stage("tree_finish");
	tree_warn_roots(t, messages);
	tree_warn_dropped(o->tree->transform, t, messages);
	if (transform_active(o->tree->transform) && getenv("DIFFFOLD_TIMING")) {
		transform_stats_line(o->tree->transform, messages);
	}
	/* Matching across builds (match.h). */
	struct match_settings ms = {!o->no_match && !o->exact_names, !o->no_match};
	match_run(t, &ms);
	timing_stage("match");
	*out = t;
	return true;
}

/* A side's sums: one profile's are the head's. */
static const struct read_sum *
side_sums(const struct input_info *info, enum side side)
{
	return info->sums[info->single ? SIDE_HEAD : side];
}

/* The one reader that read a side's files, or -1. */
static long
side_reader(const struct input_info *info, enum side side)
{
	const struct read_sum *sums = side_sums(info, side);
	long found = -1;
	for (size_t i = 0; readers_at(i); i++) {
		if (sums[i].files && found >= 0) {
			return -1;
		}
		found = sums[i].files ? (long)i : found;
	}
	return found;
}

bool
input_side_exact(const struct input_info *info, enum side side)
{
	const struct read_sum *sums = side_sums(info, side);
	bool any = false;
	for (size_t i = 0; readers_at(i); i++) {
		if (sums[i].files) {
			if (!sums[i].exact) {
				return false;
			}
			any = true;
		}
	}
	return any;
}

const char *
input_side_measure(const struct input_info *info, enum side side)
{
	const struct profile_reader *r;
	return side_measure(side_sums(info, side), &r);
}

const char *
input_side_reader(const struct input_info *info, enum side side)
{
	long i = side_reader(info, side);
	return i < 0 ? NULL : readers_at((size_t)i)->name;
}

double
input_side_per_sample(const struct input_info *info, enum side side)
{
	const struct read_sum *sums = side_sums(info, side);
	enum side at = info->single ? SIDE_HEAD : side;
	double count = 0, value = 0;
	for (size_t i = 0; readers_at(i); i++) {
		if (sums[i].files == 0) {
			continue;
		}
		if (sums[i].sample_unknown[at]) {
			return 0;
		}
		count += sums[i].sample_count[at];
		value += sums[i].sample_value[at];
	}
	return count > 0 ? value / count : 0;
}

void
input_tree_destroy(struct tree *t)
{
	if (!t) {
		return;
	}
	runs_destroy(t->runs);
	match_destroy(t->match);
	tree_destroy(t);
}
