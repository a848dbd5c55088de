#include "gecko.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "jsonstream.h"
#include "xalloc.h"

#define NONE JSON_NONE /* a null prefix: a root stack */

/* The columns difffold needs of a thread's (or the shared) tables. */
struct tables {
	struct json_u32s prefix, frame; /* stackTable (prefix from prefixOffset since v66) */
	struct json_u32s func; /* frameTable */
	struct json_u32s name; /* funcTable */
	struct json_strings strings;
	unsigned seen; /* the SEEN_ keys met (jsonstream_once) */
};

/*
 * The keys read once an object: each adds to what the key before it held
 * (a column's values, a thread's samples), where JSON.parse would keep
 * the last. A table's two spellings of one column (prefix and, since
 * version 66, prefixOffset; stringArray and stringTable) count as one key.
 */
enum {
	SEEN_STACK_TABLE = 1u << 0,
	SEEN_FRAME_TABLE = 1u << 1,
	SEEN_FUNC_TABLE = 1u << 2,
	SEEN_STRINGS = 1u << 3,
	SEEN_PREFIX = 1u << 4,
	SEEN_FRAME = 1u << 5,
	SEEN_FUNC = 1u << 6,
	SEEN_NAME = 1u << 7,
	/* a thread's own */
	SEEN_THREAD_NAME = 1u << 8,
	SEEN_SAMPLES = 1u << 9,
	SEEN_STACK = 1u << 10,
	SEEN_WEIGHT = 1u << 11,
	/* the document's */
	SEEN_THREADS = 1u << 12,
	SEEN_SHARED = 1u << 13,
};

struct thread {
	struct tables tab;
	char *name;
	struct idmap slot; /* stack index -> index into counts */
	struct json_u32s stacks; /* the counted stacks, by slot */
	struct count *counts;
	size_t counts_cap;
	/* The samples table's stack and weight columns, paired as they come. */
	struct json_u32s pending_stacks; /* before the weights came */
	struct count *pending_weights; /* before the stacks came */
	size_t pending_count, pending_cap;
	uint64_t stack_n, weight_n;
	bool stacks_done, weights_done, weighted;
	char weight_type[16];
	unsigned seen; /* SEEN_THREAD_NAME to SEEN_WEIGHT */
};

/* The newest processed format read (PROCESSED_PROFILE_VERSION in the Firefox
 * Profiler's sources): a newer one is read if its tables are as they were. */
#define KNOWN_VERSION 70

struct gecko {
	struct tables shared;
	uint64_t version; /* meta.preprocessedProfileVersion, 0 when absent */
	struct thread *threads;
	size_t count, cap;
	struct gecko_info *info;
	unsigned seen; /* SEEN_THREADS, SEEN_SHARED */
};

static void
tables_init(struct tables *tb)
{
	memset(tb, 0, sizeof(*tb));
	json_strings_init(&tb->strings);
}

static void
tables_finish(struct tables *tb)
{
	free(tb->prefix.v);
	free(tb->frame.v);
	free(tb->func.v);
	free(tb->name.v);
	json_strings_finish(&tb->strings);
}

static bool
is(const struct jsonstream *js, size_t level, const char *key)
{
	return !js->lv[level].array && strcmp(js->lv[level].key, key) == 0;
}

/* An index column's value: a number, or null (NONE) where allowed. */
static bool
index_value(struct jsonstream *js, enum json_kind kind, const char *s, size_t len, bool nullable,
        uint32_t *out)
{
	if (kind == JSON_NULL && nullable) {
		*out = NONE;
		return true;
	}
	if (kind != JSON_NUMBER || !json_index(s, len, out)) {
		*out = NONE; /* never read: the parse stops */
		return jsonstream_fail(js, "a table holds something else than an index");
	}
	return true;
}

/*
 * A value under a table: level base holds the table's key, base + 1 the
 * column's (or the string table's array), base + 2 the column's array.
 */
/*
 * A table's or a column's key, as its value opens (level base + 1: a
 * table, base + 2: a column): each once (jsonstream_once).
 */
static bool
table_key_once(struct jsonstream *js, struct tables *tb, size_t base)
{
	unsigned bit = 0;
	if (js->depth == base + 1) {
		bit = is(js, base, "stackTable")   ? SEEN_STACK_TABLE
		      : is(js, base, "frameTable") ? SEEN_FRAME_TABLE
		      : is(js, base, "funcTable")  ? SEEN_FUNC_TABLE
		      : is(js, base, "stringArray") || is(js, base, "stringTable") ? SEEN_STRINGS
		                                                                   : 0;
	} else if (js->depth == base + 2 && !js->lv[base + 1].array) {
		bool stack = is(js, base, "stackTable");
		bit = stack && (is(js, base + 1, "prefix") || is(js, base + 1, "prefixOffset"))
		              ? SEEN_PREFIX
		      : stack && is(js, base + 1, "frame")                     ? SEEN_FRAME
		      : is(js, base, "frameTable") && is(js, base + 1, "func") ? SEEN_FUNC
		      : is(js, base, "funcTable") && is(js, base + 1, "name")  ? SEEN_NAME
		                                                               : 0;
	}
	return !bit || jsonstream_once(js, &tb->seen, bit,
	                       base == 1 ? "\"shared\" (or both spellings of one table or column)"
	                                 : "a thread (or both spellings of one table or column)");
}

static bool
table_value(struct jsonstream *js, struct tables *tb, size_t base, enum json_kind kind,
        const char *s, size_t len)
{
	if (!table_key_once(js, tb, base)) {
		return false;
	}
	if (js->depth == base + 2 && js->lv[base + 1].array &&
	        (is(js, base, "stringArray") || is(js, base, "stringTable"))) {
		if (kind != JSON_STRING) {
			return jsonstream_fail(
			        js, "the string table holds something else than strings");
		}
		json_strings_push(&tb->strings, s, len);
		return true;
	}
	if (js->depth != base + 3 || !js->lv[base + 2].array) {
		return true;
	}
	if (is(js, base, "stackTable") && is(js, base + 1, "prefix")) {
		uint32_t v;
		if (!index_value(js, kind, s, len, true, &v)) {
			return false;
		}
		/* A prefix comes before its stack, so walking prefixes always ends. */
		if (v != NONE && v >= jsonstream_index(js, base + 2)) {
			return jsonstream_fail(js, "a stack's prefix does not come before it");
		}
		json_u32s_push(&tb->prefix, v);
		return true;
	}
	if (is(js, base, "stackTable") && is(js, base + 1, "prefixOffset")) {
		/* Since version 66: 0 for a root, else how far back the prefix is. */
		uint32_t v, i = (uint32_t)jsonstream_index(js, base + 2);
		if (!index_value(js, kind, s, len, false, &v)) {
			return false;
		}
		if (v > i) {
			return jsonstream_fail(
			        js, "a stack's prefixOffset reaches before the table");
		}
		json_u32s_push(&tb->prefix, v == 0 ? NONE : i - v);
		return true;
	}
	struct json_u32s *col = is(js, base, "stackTable") && is(js, base + 1, "frame") ? &tb->frame
	                        : is(js, base, "frameTable") && is(js, base + 1, "func") ? &tb->func
	                        : is(js, base, "funcTable") && is(js, base + 1, "name")  ? &tb->name
	                                                                                 : NULL;
	uint32_t v;
	if (col && !index_value(js, kind, s, len, false, &v)) {
		return false;
	}
	if (col) {
		json_u32s_push(col, v);
	}
	return true;
}

/* Adds c to a stack's count (null stacks, idle samples, count nowhere). */
static bool
count_stack(struct jsonstream *js, struct thread *th, uint32_t stack, struct count c)
{
	if (stack == NONE) {
		return true;
	}
	uint32_t slot;
	if (!th->stacks.count || !idmap_get(&th->slot, stack, &slot)) {
		slot = (uint32_t)th->stacks.count;
		json_u32s_push(&th->stacks, stack);
		size_t cap = th->counts_cap;
		th->counts = xgrow(th->counts, &cap, slot + 1, sizeof(*th->counts));
		th->counts_cap = cap;
		th->counts[slot] = (struct count){0, 0};
		idmap_set(&th->slot, stack, slot);
	}
	if (!count_add(th->counts[slot], c, &th->counts[slot])) {
		return jsonstream_fail(js, "a thread's total exceeds 2^64-1");
	}
	return true;
}

/* A sample's stack: counted now if its weight came, else kept for it. */
static bool
sample_stack(struct jsonstream *js, struct thread *th, uint32_t stack)
{
	uint64_t i = th->stack_n++;
	if (!th->weights_done) {
		json_u32s_push(&th->pending_stacks, stack);
		return true;
	}
	if (!th->weighted) {
		return count_stack(js, th, stack, (struct count){1, 0});
	}
	if (i >= th->pending_count) {
		return jsonstream_fail(js, "more samples than weights");
	}
	return count_stack(js, th, stack, th->pending_weights[i]);
}

static bool
sample_weight(
        struct jsonstream *js, struct thread *th, enum json_kind kind, const char *s, size_t len)
{
	struct count c;
	if (kind != JSON_NUMBER || !json_count(s, len, &c)) {
		return jsonstream_fail(js, "a sample's weight is not a non-negative number");
	}
	uint64_t i = th->weight_n++;
	if (!th->stacks_done) {
		th->pending_weights = xgrow(
		        th->pending_weights, &th->pending_cap, th->pending_count + 1, sizeof(c));
		th->pending_weights[th->pending_count++] = c;
		return true;
	}
	if (i >= th->pending_stacks.count) {
		return jsonstream_fail(js, "more weights than samples");
	}
	return count_stack(js, th, th->pending_stacks.v[i], c);
}

/* The samples' stack column: one value a sample, the most of a file. */
enum { TAG_STACK = 1 };

/* A value in a thread's samples table: level 3 is the column. */
static bool
samples_value(
        struct jsonstream *js, struct thread *th, enum json_kind kind, const char *s, size_t len)
{
	if (js->depth == 4 && is(js, 3, "schema")) {
		return jsonstream_fail(js,
		        "this is the raw Gecko profile format, which difffold does not read; load "
		        "it in profiler.firefox.com and save it from there (the processed format)");
	}
	if (js->depth == 4 && (is(js, 3, "weight") || is(js, 3, "stack")) &&
	        !jsonstream_once(js, &th->seen, is(js, 3, "stack") ? SEEN_STACK : SEEN_WEIGHT,
	                "a thread's \"samples\"")) {
		return false;
	}
	if (js->depth == 4 && is(js, 3, "weight")) {
		/* Without weights (null) a sample counts 1, so no stack need wait. */
		th->weighted = kind == JSON_ARRAY;
		th->weights_done = kind == JSON_NULL;
	} else if (js->depth == 4 && is(js, 3, "stack")) {
		if (kind != JSON_ARRAY) {
			return jsonstream_fail(js, "a thread's samples' \"stack\" is not an array");
		}
		jsonstream_tag_next(js, TAG_STACK);
	} else if (js->depth == 4 && is(js, 3, "weightType") && kind == JSON_STRING) {
		size_t n = len < sizeof(th->weight_type) - 1 ? len : sizeof(th->weight_type) - 1;
		memcpy(th->weight_type, s, n);
		th->weight_type[n] = '\0';
	} else if (js->depth == 5 && js->lv[4].array && is(js, 3, "weight")) {
		return sample_weight(js, th, kind, s, len);
	}
	return true;
}

static bool
value(void *ctx, struct jsonstream *js, enum json_kind kind, const char *s, size_t len)
{
	struct gecko *g = ctx;
	if (jsonstream_tag(js) == TAG_STACK) {
		uint32_t stack;
		return index_value(js, kind, s, len, true, &stack) &&
		       sample_stack(js, &g->threads[g->count - 1], stack);
	}
	if (js->depth == 0 && kind != JSON_OBJECT) {
		return jsonstream_fail(js, "a Firefox Profiler file is a JSON object");
	}
	if (js->depth == 1 && (is(js, 0, "threads") || is(js, 0, "shared")) &&
	        !jsonstream_once(js, &g->seen, is(js, 0, "threads") ? SEEN_THREADS : SEEN_SHARED,
	                "the profile")) {
		return false;
	}
	if (js->depth == 2 && is(js, 0, "threads") && js->lv[1].array && kind == JSON_OBJECT) {
		g->threads = xgrow(g->threads, &g->cap, g->count + 1, sizeof(*g->threads));
		struct thread *th = &g->threads[g->count++];
		memset(th, 0, sizeof(*th));
		tables_init(&th->tab);
		return true;
	}
	if (js->depth >= 3 && is(js, 0, "threads") && js->lv[1].array && g->count > 0) {
		struct thread *th = &g->threads[g->count - 1];
		if (js->depth == 3 && (is(js, 2, "name") || is(js, 2, "samples")) &&
		        !jsonstream_once(js, &th->seen,
		                is(js, 2, "name") ? SEEN_THREAD_NAME : SEEN_SAMPLES, "a thread")) {
			return false;
		}
		if (js->depth == 3 && is(js, 2, "name") && kind == JSON_STRING) {
			th->name = xmemdup(s, len);
			return true;
		}
		if (is(js, 2, "samples")) {
			return samples_value(js, th, kind, s, len);
		}
		return table_value(js, &th->tab, 2, kind, s, len);
	}
	if (js->depth == 2 && is(js, 0, "meta") && is(js, 1, "preprocessedProfileVersion") &&
	        kind == JSON_NUMBER) {
		struct count c;
		g->version = json_count(s, len, &c) ? c.units : 0;
		return true;
	}
	if (js->depth >= 2 && is(js, 0, "shared")) {
		return table_value(js, &g->shared, 1, kind, s, len);
	}
	return true;
}

/* The samples table ends: stacks kept for weights that never came count 1. */
static bool
samples_end(struct jsonstream *js, struct thread *th)
{
	if (th->weighted && th->stack_n != th->weight_n) {
		return jsonstream_fail(js, "a thread has not as many weights as samples");
	}
	for (size_t i = 0; !th->weighted && i < th->pending_stacks.count; i++) {
		if (!count_stack(js, th, th->pending_stacks.v[i], (struct count){1, 0})) {
			return false;
		}
	}
	return true;
}

static bool
on_close(void *ctx, struct jsonstream *js, enum json_kind kind)
{
	struct gecko *g = ctx;
	if (js->depth < 3 || !is(js, 0, "threads") || !is(js, 2, "samples") || g->count == 0) {
		return true;
	}
	struct thread *th = &g->threads[g->count - 1];
	if (js->depth == 4 && is(js, 3, "stack")) {
		th->stacks_done = true;
	} else if (js->depth == 4 && is(js, 3, "weight") && kind == JSON_ARRAY) {
		th->weights_done = true;
	} else if (js->depth == 3) {
		return samples_end(js, th);
	}
	return true;
}

static const struct json_reader reader = {value, on_close};

/* "samples" counts samples; the others are the units they say. */
static const char *
weight_unit(const char *type)
{
	if (type[0] == '\0' || strcmp(type, "samples") == 0) {
		return json_unit_name("samples");
	}
	if (strcmp(type, "tracing-ms") == 0) {
		return json_unit_name("milliseconds");
	}
	return json_unit_name(type);
}

/* The tables a thread reads: its own, or the shared ones without. */
struct thread_tables {
	const struct tables *tb;
	const struct json_strings *strings;
};

/* A stack's frame's function name. */
static const char *
stack_name(void *ctx, uint32_t stack, const char **s, size_t *len)
{
	const struct thread_tables *tt = ctx;
	const struct tables *tb = tt->tb;
	uint32_t frame = tb->frame.v[stack];
	if (frame >= tb->func.count || tb->func.v[frame] >= tb->name.count ||
	        !json_strings_get(tt->strings, tb->name.v[tb->func.v[frame]], s, len)) {
		return "a frame has no function name in the tables";
	}
	return NULL;
}

/* Each thread under its name, its counted stacks by cursor (json_forest_emit). */
static bool
emit(struct gecko *g, struct tree *t, enum side side, const char *file, struct diag *err)
{
	bool ok = true;
	for (size_t i = 0; ok && i < g->count; i++) {
		const struct thread *th = &g->threads[i];
		const char *unit = weight_unit(th->weight_type);
		if (i > 0 && unit != g->info->unit) {
			diag_set(err, file, 0,
			        "threads of different sample weights cannot be summed");
			return false;
		}
		g->info->unit = unit;
		struct thread_tables tt = {th->tab.prefix.count ? &th->tab : &g->shared,
		        th->tab.strings.count ? &th->tab.strings : &g->shared.strings};
		size_t n = tt.tb->prefix.count < tt.tb->frame.count ? tt.tb->prefix.count
		                                                    : tt.tb->frame.count;
		struct json_forest f = {tt.tb->prefix.v, n, stack_name, &tt,
		        th->name ? th->name : "[unknown thread]", false};
		ok = json_forest_emit(
		        &f, t, side, th->stacks.v, th->counts, th->stacks.count, file, err);
	}
	return ok;
}

/* A newer format than known whose tables did not read: the version says why. */
static void
newer(const struct gecko *g, struct diag *err)
{
	struct buf b;
	buf_init(&b);
	buf_printf(&b,
	        "%s (the Firefox Profiler's processed format version %llu is newer than the "
	        "versions difffold reads, 0 to %d, and its tables are not where they were)",
	        err->msg, (unsigned long long)g->version, KNOWN_VERSION);
	size_t n = b.len < sizeof(err->msg) - 1 ? b.len : sizeof(err->msg) - 1;
	memcpy(err->msg, b.data, n);
	err->msg[n] = '\0';
	buf_finish(&b);
}

static void
init(struct gecko *g, struct gecko_info *info)
{
	memset(g, 0, sizeof(*g));
	memset(info, 0, sizeof(*info));
	g->info = info;
	tables_init(&g->shared);
}

static bool
finish(struct gecko *g, bool ok, struct tree *t, enum side side, const char *file, struct diag *err)
{
	if (ok && g->count == 0) {
		diag_set(err, file, 0, "no thread in the profile");
		ok = false;
	}
	g->info->threads = g->count;
	ok = ok && emit(g, t, side, file, err);
	if (!ok && g->version > KNOWN_VERSION) {
		newer(g, err);
	}
	for (size_t i = 0; i < g->count; i++) {
		struct thread *th = &g->threads[i];
		tables_finish(&th->tab);
		free(th->name);
		idmap_finish(&th->slot);
		free(th->stacks.v);
		free(th->counts);
		free(th->pending_stacks.v);
		free(th->pending_weights);
	}
	free(g->threads);
	tables_finish(&g->shared);
	return ok;
}

bool
gecko_read(struct tree *t, enum folded_mode mode, struct source *src, const char *head,
        size_t head_len, const struct read_options *ro, struct read_result *res, struct diag *err)
{
	(void)ro;
	struct gecko_info info;
	struct gecko g;
	init(&g, &info);
	bool ok = jsonstream_read_source(src, head, head_len, &reader, &g, err);
	ok = finish(&g, ok, t, reader_side(mode), source_name(src), err);
	if (ok) {
		reader_json_unit(res, info.unit);
	}
	return ok;
}
