#include "input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "callgrind.h"
#include "detect.h"
#include "dhat.h"
#include "escape.h"
#include "folded.h"
#include "gecko.h"
#include "massif.h"
#include "perf.h"
#include "pprof.h"
#include "runs.h"
#include "source.h"
#include "speedscope.h"
#include "timing.h"
#include "match.h"
#include "transform.h"
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
	const struct options *o;
	const struct read_progress *progress;
	enum folded_mode mode;
	bool three_column;
	struct input_info info;
	struct buf *msg;
	struct runs *runs; /* --runs: each file is one run, else NULL */
	bool threaded; /* folded files through the two-thread pipeline */
};

/* What a callgrind file said, kept for the picture and the reports. */
static void
input_info_add(struct input_info *info, const struct callgrind_info *ci)
{
	if (!info->callgrind) {
		memcpy(info->event, ci->event, sizeof(info->event));
		info->countname = ci->countname;
	} else if (strcmp(info->event, ci->event) != 0) {
		info->countname = NULL; /* files of different events: no one unit */
	}
	info->callgrind = true;
	info->reconstructed |= ci->reconstructed;
	info->unexpanded += ci->unexpanded;
}

/* Samples of different events are never summed: perf_event is then "". */
static void
perf_info_add(struct input_info *info, const char *event, const uint64_t samples[2])
{
	if (!info->perf) {
		memcpy(info->perf_event, event, sizeof(info->perf_event));
	} else if (strcmp(info->perf_event, event) != 0) {
		info->perf_event[0] = '\0';
	}
	info->perf = true;
	for (int i = 0; i < 2; i++) {
		info->perf_samples[i] += samples[i];
	}
}

/* Files of different units have no one unit (each is a static string). */
static void
json_info_add(struct input_info *info, const char *unit)
{
	if (!info->json) {
		info->json_unit = unit;
	} else if (info->json_unit != unit) {
		info->json_unit = NULL;
	}
	info->json = true;
}

/* A reader that names its unit (pprof, massif): one note and unit for all. */
static void
unit_info_add(struct input_info *info, const char *note, const char *unit)
{
	if (info->unit_files++ == 0) {
		snprintf(info->unit_note, sizeof(info->unit_note), "%s", note);
		snprintf(info->unit, sizeof(info->unit), "%s", unit);
		return;
	}
	if (strcmp(info->unit_note, note) != 0) {
		info->unit_note[0] = '\0';
	}
	if (strcmp(info->unit, unit) != 0) {
		info->unit[0] = '\0';
	}
}

static void
input_info_merge(struct input_info *info, const struct input_info *side)
{
	if (side->unit_files) {
		unit_info_add(info, side->unit_note, side->unit);
	}
	info->pprof |= side->pprof;
	info->massif |= side->massif;
	if (side->callgrind) {
		struct callgrind_info ci = {.countname = side->countname,
		        .reconstructed = side->reconstructed,
		        .unexpanded = side->unexpanded};
		memcpy(ci.event, side->event, sizeof(ci.event));
		input_info_add(info, &ci);
	}
	info->folded |= side->folded;
	if (side->perf) {
		perf_info_add(info, side->perf_event, side->perf_samples);
	}
	if (side->json) {
		json_info_add(info, side->json_unit);
	}
	if (side->json_note[0] && !info->json_note[0]) {
		memcpy(info->json_note, side->json_note, sizeof(info->json_note));
	}
}

/* The bytes judged for a file's format: enough for any header we know. */
#define DETECT_SIZE ((size_t)64 << 10)

static bool
refuse(struct side_read *sd, const char *name, enum input_format f)
{
	buf_adds(sd->msg, "difffold: ");
	escape_diag(sd->msg, name, strlen(name));
	buf_printf(sd->msg, ": this looks like %s, which difffold does not read; ",
	        detect_format_name(f));
	/* The advice's commands name the file: FILE stands for it. */
	for (const char *a = detect_advice(f); *a;) {
		const char *at = strstr(a, "FILE");
		size_t n = at ? (size_t)(at - a) : strlen(a);
		buf_add(sd->msg, a, n);
		if (at) {
			escape_diag(sd->msg, name, strlen(name));
		}
		a += n + (at ? 4 : 0);
	}
	buf_addc(sd->msg, '\n');
	return false;
}

static bool
read_callgrind(struct side_read *sd, struct tree *t, struct source *src, const char *head,
        size_t len, struct diag *err)
{
	struct callgrind_options co = {sd->o->event, sd->o->objects, CALLGRIND_DEFAULT_FLOOR};
	struct callgrind_info ci;
	enum side side = sd->mode == FOLDED_BASE ? SIDE_BASE : SIDE_HEAD;
	if (!callgrind_read_source(t, side, src, head, len, &co, &ci, err)) {
		return false;
	}
	input_info_add(&sd->info, &ci);
	return true;
}

static bool
read_perf(struct side_read *sd, struct tree *t, struct source *src, const char *head, size_t len,
        struct diag *err)
{
	struct perf_options po = {
	        sd->o->event, sd->o->weight_period ? PERF_WEIGHT_PERIOD : PERF_WEIGHT_SAMPLES};
	struct perf_info pi;
	enum side side = sd->mode == FOLDED_BASE ? SIDE_BASE : SIDE_HEAD;
	if (!perf_read_source(t, side, src, head, len, &po, &pi, err)) {
		return false;
	}
	uint64_t samples[2] = {0, 0};
	samples[side] = pi.samples;
	perf_info_add(&sd->info, pi.event, samples);
	return true;
}

/* speedscope, Firefox Profiler and DHAT JSON: their unit for the count name. */
static bool
read_json(struct side_read *sd, struct tree *t, struct source *src, const char *head, size_t len,
        enum input_format f, struct diag *err)
{
	enum side side = sd->mode == FOLDED_BASE ? SIDE_BASE : SIDE_HEAD;
	const char *unit;
	bool ok;
	if (f == INPUT_SPEEDSCOPE) {
		struct speedscope_info si;
		ok = speedscope_read_source(t, side, src, head, len, &si, err);
		unit = si.unit;
	} else if (f == INPUT_GECKO) {
		struct gecko_info gi;
		ok = gecko_read_source(t, side, src, head, len, &gi, err);
		unit = gi.unit;
	} else {
		struct dhat_info di;
		ok = dhat_read_source(t, side, src, head, len, sd->o->event, &di, err);
		unit = di.unit;
		if (ok) {
			snprintf(sd->info.json_note, sizeof(sd->info.json_note), "DHAT: %s (%s)",
			        di.what, di.metric);
		}
	}
	if (ok) {
		json_info_add(&sd->info, unit);
	}
	return ok;
}

static bool
read_pprof(struct side_read *sd, struct tree *t, struct source *src, const char *head, size_t len,
        struct diag *err)
{
	struct pprof_options po = {sd->o->event};
	struct pprof_info pi;
	enum side side = sd->mode == FOLDED_BASE ? SIDE_BASE : SIDE_HEAD;
	if (!pprof_read_source(t, side, src, head, len, &po, &pi, err)) {
		return false;
	}
	struct buf note;
	buf_init(&note);
	buf_printf(&note, "pprof: sample type %s (%s)", pi.type, pi.unit);
	unit_info_add(&sd->info, note.data, pi.unit);
	buf_finish(&note);
	sd->info.pprof = true;
	return true;
}

static bool
read_massif(struct side_read *sd, struct tree *t, struct source *src, const char *head, size_t len,
        struct diag *err)
{
	struct massif_options mo = {sd->o->snapshot};
	struct massif_info mi;
	enum side side = sd->mode == FOLDED_BASE ? SIDE_BASE : SIDE_HEAD;
	if (!massif_read_source(t, side, src, head, len, &mo, &mi, err)) {
		return false;
	}
	struct buf note;
	buf_init(&note);
	if (sd->o->snapshot == MASSIF_PEAK) {
		buf_adds(&note, "massif: the heap at its peak snapshot");
	} else {
		buf_printf(&note, "massif: the heap at snapshot %ld", mi.snapshot);
	}
	unit_info_add(&sd->info, note.data, "bytes");
	buf_finish(&note);
	sd->info.massif = true;
	return true;
}

static bool
read_folded(struct side_read *sd, struct tree *t, struct source *src, const char *head, size_t len,
        struct diag *err)
{
	struct folded_stats st;
	bool ok = sd->threaded ? folded_read_source_threaded(
	                                 t, src, head, len, sd->mode, sd->o->strict, &st, err)
	                       : folded_read_source(
	                                 t, src, head, len, sd->mode, sd->o->strict, &st, err);
	if (!ok) {
		return false;
	}
	warn_bad_lines(source_name(src), &st, sd->msg);
	sd->three_column = st.three_column;
	sd->info.folded = true;
	return true;
}

/* One file: its format judged by its first bytes, unless --input-format. */
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
		enum input_format f =
		        sd->o->input_forced ? sd->o->input_format : detect_format(head, len, whole);
		if (f == INPUT_CALLGRIND) {
			ok = read_callgrind(sd, t, src, head, len, err);
		} else if (f == INPUT_PERF_SCRIPT) {
			ok = read_perf(sd, t, src, head, len, err);
		} else if (f == INPUT_SPEEDSCOPE || f == INPUT_GECKO || f == INPUT_DHAT) {
			ok = read_json(sd, t, src, head, len, f, err);
		} else if (f == INPUT_MASSIF) {
			ok = read_massif(sd, t, src, head, len, err);
		} else if (f == INPUT_PPROF) {
			ok = read_pprof(sd, t, src, head, len, err);
		} else if (f == INPUT_FOLDED) {
			ok = read_folded(sd, t, src, head, len, err);
		} else {
			ok = refuse(sd, source_name(src), f);
			err->msg[0] = '\0';
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
		if (ok && sd->runs) {
			runs_take(sd->runs, t, sd->mode == FOLDED_BASE ? SIDE_BASE : SIDE_HEAD);
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
 * What one side's counts measure, when its reader says: the callgrind
 * event, the pprof or massif unit, a JSON profile's unit; NULL when the
 * reader does not say (folded stacks, perf samples), which compares with
 * anything. *kind names the reader for the message.
 */
static const char *
side_unit(const struct input_info *si, const char **kind)
{
	if (si->callgrind && si->event[0]) {
		*kind = "callgrind event";
		return si->event;
	}
	if ((si->pprof || si->massif) && si->unit[0]) {
		*kind = si->pprof ? "pprof unit" : "massif unit";
		return si->unit;
	}
	if (si->json && si->json_unit) {
		*kind = "unit";
		return si->json_unit;
	}
	return NULL;
}

/*
 * Base and head must count the same thing: instructions against bytes
 * would draw a graph of a misread, with a verdict to match.
 */
static bool
same_units(const struct input_info *base, const struct input_info *head, const struct options *o,
        struct buf *msg)
{
	const char *bk = NULL, *hk = NULL;
	const char *bu = side_unit(base, &bk), *hu = side_unit(head, &hk);
	if (!bu || !hu || strcmp(bu, hu) == 0) {
		return true;
	}
	struct buf b;
	buf_init(&b);
	buf_printf(&b,
	        "base and head count different things: %s counts %s %s, %s counts %s %s; "
	        "compare profiles of one kind (the same --event for both)",
	        o->base[0], bk, bu, o->head[0], hk, hu);
	buf_adds(msg, "difffold: ");
	escape_diag(msg, b.data, b.len);
	buf_adds(msg, "\n");
	buf_finish(&b);
	return false;
}

static bool
read_both(struct tree *t, const struct options *o, const struct read_progress *progress,
        bool threaded, struct input_info *info, struct buf *msg, struct runs *runs)
{
	struct side_read base = {.o = o,
	        .progress = progress,
	        .mode = FOLDED_BASE,
	        .msg = msg,
	        .runs = runs,
	        .threaded = threaded && !runs};
	struct side_read head = base;
	head.mode = FOLDED_HEAD;
	bool ok = read_side(&base, t, o->base, o->base_count) &&
	          read_side(&head, t, o->head, o->head_count) &&
	          same_units(&base.info, &head.info, o, msg);
	input_info_merge(info, &base.info);
	input_info_merge(info, &head.info);
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
progress_init(struct progress *p, struct read_progress *fp, const struct options *o)
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
 * The header's note on perf input, and with --weight period its unit: the
 * event's name without its modifiers (the period of cycles is cycles, of
 * cpu-clock nanoseconds: the name says which).
 */
static void
perf_note(struct input_info *info, const struct options *o)
{
	const char *ev = info->perf_event;
	const uint64_t *n = info->perf_samples;
	const char *weighted = o->weight_period ? ", weighted by period" : "";
	if (!ev[0]) {
		snprintf(info->note, sizeof(info->note),
		        "perf script: samples of different events%s", weighted);
	} else if (o->single || n[SIDE_BASE] == 0 || n[SIDE_HEAD] == 0) {
		/* One profile, or one side only of perf script (the other folded). */
		const char *side = o->single ? "" : n[SIDE_BASE] ? "base: " : "head: ";
		snprintf(info->note, sizeof(info->note), "perf script: %s%llu samples of %s%s",
		        side, (unsigned long long)n[SIDE_BASE] + (unsigned long long)n[SIDE_HEAD],
		        ev, weighted);
	} else {
		snprintf(info->note, sizeof(info->note),
		        "perf script: %llu base and %llu head samples of %s%s",
		        (unsigned long long)n[SIDE_BASE], (unsigned long long)n[SIDE_HEAD], ev,
		        weighted);
	}
	if (o->weight_period && ev[0] && !info->callgrind) {
		size_t len = strcspn(ev, ":");
		memcpy(info->perf_unit, ev, len);
		info->perf_unit[len] = '\0';
		info->countname = info->perf_unit;
	}
}

bool
input_read(
        const struct options *o, struct tree **out, struct input_info *info, struct buf *messages)
{
	struct progress pr;
	struct read_progress rp;
	progress_init(&pr, &rp, o);
	memset(info, 0, sizeof(*info));
	struct tree *t = tree_create(&o->tree);
	struct runs *runs = NULL;
	bool ok;
	bool three_column = false;
	if (o->single) {
		struct side_read sd = {.o = o,
		        .progress = &rp,
		        .mode = FOLDED_AUTO,
		        .msg = messages,
		        .threaded = read_threaded(pr.total)};
		ok = read_side(&sd, t, &o->single, 1);
		three_column = sd.three_column;
		input_info_merge(info, &sd.info);
	} else {
		runs = o->runs ? runs_create(o->significance) : NULL;
		ok = read_both(t, o, &rp, read_threaded(pr.total), info, messages, runs);
	}
	progress_end(&pr);
	if (info->perf) {
		perf_note(info, o);
	}
	if (info->json && info->json_unit && !info->countname) {
		info->countname = info->json_unit;
	}
	if (info->unit[0] && !info->callgrind && !info->countname) {
		info->countname = info->unit;
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
	transform_warn_roots(t, messages);
	transform_warn_dropped(o->tree.transform, t, messages);
	if (transform_active(o->tree.transform) && getenv("DIFFFOLD_TIMING")) {
		transform_stats_line(o->tree.transform, messages);
	}
	/* Matching across builds (match.h). */
	struct match_settings ms = {!o->no_match && !o->exact_names, !o->no_match};
	match_run(t, &ms);
	timing_stage("match");
	*out = t;
	return true;
}
