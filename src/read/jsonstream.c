#include "jsonstream.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "escape.h"
#include "tree_build.h"
#include "xalloc.h"

/* The position after a value: the next index of its array. */
static void
advance(struct jsonstream *js)
{
	if (js->depth > 0 && js->lv[js->depth - 1].array) {
		js->lv[js->depth - 1].index++;
	}
}

static int
scalar(struct jsonstream *js, enum json_kind kind, const char *s, size_t len)
{
	if (!js->reader->value(js->ctx, js, kind, s, len)) {
		return 0;
	}
	advance(js);
	return 1;
}

static int
on_null(void *ctx)
{
	return scalar(ctx, JSON_NULL, "null", 4);
}

static int
on_bool(void *ctx, int v)
{
	return scalar(ctx, JSON_BOOL, v ? "true" : "false", v ? 4 : 5);
}

static int
on_number(void *ctx, const char *s, size_t len)
{
	return scalar(ctx, JSON_NUMBER, s, len);
}

static int
on_string(void *ctx, const unsigned char *s, size_t len)
{
	return scalar(ctx, JSON_STRING, (const char *)s, len);
}

static int
open_container(struct jsonstream *js, bool array)
{
	if (js->depth == JSONSTREAM_DEPTH) {
		return jsonstream_fail(js, "JSON nested too deep for a profile");
	}
	js->next_tag = 0;
	if (!js->reader->value(js->ctx, js, array ? JSON_ARRAY : JSON_OBJECT, NULL, 0)) {
		return 0;
	}
	struct json_level *l = &js->lv[js->depth++];
	l->array = array;
	l->tag = js->next_tag;
	l->index = 0;
	l->key[0] = '\0';
	return 1;
}

static int
close_container(struct jsonstream *js)
{
	bool array = js->lv[--js->depth].array;
	if (!js->reader->close(js->ctx, js, array ? JSON_ARRAY : JSON_OBJECT)) {
		return 0;
	}
	advance(js);
	return 1;
}

static int
on_start_map(void *ctx)
{
	return open_container(ctx, false);
}

static int
on_start_array(void *ctx)
{
	return open_container(ctx, true);
}

static int
on_end(void *ctx)
{
	return close_container(ctx);
}

static int
on_key(void *ctx, const unsigned char *s, size_t len)
{
	struct jsonstream *js = ctx;
	char *key = js->lv[js->depth - 1].key;
	/* A key too long for the buffer matches nothing: "" is no key we look for. */
	size_t n = len < JSONSTREAM_KEY ? len : 0;
	memcpy(key, s, n);
	key[n] = '\0';
	return 1;
}

static const yajl_callbacks callbacks = {
        .yajl_null = on_null,
        .yajl_boolean = on_bool,
        .yajl_number = on_number,
        .yajl_string = on_string,
        .yajl_start_map = on_start_map,
        .yajl_map_key = on_key,
        .yajl_end_map = on_end,
        .yajl_start_array = on_start_array,
        .yajl_end_array = on_end,
};

static uint64_t newlines(const char *p, size_t len);

bool
jsonstream_fail(struct jsonstream *js, const char *reason)
{
	/* Called from inside yajl_parse: its offset is just past the value. */
	uint64_t line = js->line;
	if (js->chunk) {
		line += newlines(js->chunk, yajl_get_bytes_consumed(js->handle));
	}
	diag_set(js->err, js->name, line, reason);
	js->failed = true;
	return false;
}

bool
jsonstream_once(struct jsonstream *js, unsigned *seen, unsigned bit, const char *where)
{
	if (!(*seen & bit)) {
		*seen |= bit;
		return true;
	}
	char why[160];
	snprintf(why, sizeof(why), "a second \"%s\" key in %s (JSON.parse would keep the last)",
	        js->depth ? js->lv[js->depth - 1].key : "", where);
	return jsonstream_fail(js, why);
}

static uint64_t
newlines(const char *p, size_t len)
{
	uint64_t n = 0;
	for (const char *end = p + len; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++) {
		n++;
	}
	return n;
}

/* yajl's error at the byte it stopped on, as "name:line: JSON error: ...". */
static void
parse_error(struct jsonstream *js, const char *data, size_t len)
{
	size_t at = yajl_get_bytes_consumed(js->handle);
	js->line += newlines(data, at < len ? at : len);
	unsigned char *e = yajl_get_error(js->handle, 0, (const unsigned char *)data, len);
	char reason[256];
	size_t n = strcspn((const char *)e, "\n");
	snprintf(reason, sizeof(reason), "malformed JSON: %.*s", (int)(n < 200 ? n : 200),
	        (const char *)e);
	yajl_free_error(js->handle, e);
	diag_set(js->err, js->name, js->line, reason);
}

/*
 * Feeds one chunk; at the end, tells yajl the document is complete (a
 * truncated file is an error there).
 */
static long long
feed(void *ctx, const char *data, size_t len, bool at_eof)
{
	struct jsonstream *js = ctx;
	js->chunk = data;
	yajl_status st =
	        len ? yajl_parse(js->handle, (const unsigned char *)data, len) : yajl_status_ok;
	if (st != yajl_status_ok) {
		if (!js->failed) {
			parse_error(js, data, len);
		}
		return -1;
	}
	js->line += newlines(data, len);
	js->chunk = NULL;
	if (at_eof && yajl_complete_parse(js->handle) != yajl_status_ok) {
		if (!js->failed) {
			parse_error(js, "", 0);
		}
		return -1;
	}
	return (long long)len;
}

static bool
run(struct jsonstream *js, const char *name, const struct json_reader *reader, void *ctx,
        struct diag *err)
{
	memset(js, 0, sizeof(*js));
	js->reader = reader;
	js->ctx = ctx;
	js->name = name;
	js->err = err;
	js->line = 1;
	js->handle = yajl_alloc(&callbacks, NULL, js);
	return js->handle != NULL;
}

bool
jsonstream_read_source(struct source *src, const char *head, size_t head_len,
        const struct json_reader *reader, void *ctx, struct diag *err)
{
	struct jsonstream js;
	if (!run(&js, source_name(src), reader, ctx, err)) {
		diag_set(err, source_name(src), 0, "out of memory");
		return false;
	}
	bool ok = source_parse(src, head, head_len, feed, &js, err);
	yajl_free(js.handle);
	return ok;
}

bool
jsonstream_at(const struct jsonstream *js, const char *const *pat, size_t n)
{
	if (js->depth != n) {
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		const struct json_level *l = &js->lv[i];
		if (pat[i][0] == '#' && pat[i][1] == '\0') {
			if (!l->array) {
				return false;
			}
		} else if (l->array || (strcmp(pat[i], "*") != 0 && strcmp(pat[i], l->key) != 0)) {
			return false;
		}
	}
	return true;
}

bool
json_index(const char *s, size_t len, uint32_t *out)
{
	/* Indices are most of a profile's numbers: plain digits, parsed here. */
	if (len > 0 && len < 10) {
		uint32_t v = 0;
		size_t i = 0;
		while (i < len && s[i] >= '0' && s[i] <= '9') {
			v = v * 10 + (uint32_t)(s[i++] - '0');
		}
		if (i == len) {
			*out = v;
			return true;
		}
	}
	struct count c;
	if (!json_count(s, len, &c) || c.nanos != 0 || c.units > UINT32_MAX - 1) {
		return false;
	}
	*out = (uint32_t)c.units;
	return true;
}

bool
json_count(const char *s, size_t len, struct count *out)
{
	const char *reason;
	if (count_parse(s, len, out, &reason)) {
		return true;
	}
	/* Exponents ("1.5e-3") and the like: through a double, to the nanosecond. */
	char tmp[64];
	if (len == 0 || len >= sizeof(tmp) || s[0] == '-') {
		return false;
	}
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	char *end;
	double v = strtod(tmp, &end);
	if (*end != '\0' || !(v >= 0) || v >= 18446744073709551616.0) {
		return false;
	}
	double whole = floor(v);
	out->units = (uint64_t)whole;
	out->nanos = (uint32_t)((v - whole) * COUNT_NANOS_PER_UNIT);
	if (out->nanos >= COUNT_NANOS_PER_UNIT) {
		out->nanos = COUNT_NANOS_PER_UNIT - 1;
	}
	return true;
}

const char *
json_unit_name(const char *unit)
{
	static const char *const known[] = {"nanoseconds", "microseconds", "milliseconds",
	        "seconds", "bytes", "blocks", "instructions", "samples"};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
		if (strcmp(unit, known[i]) == 0) {
			return known[i];
		}
	}
	return NULL;
}

void
json_stacks_init(struct json_stacks *st)
{
	memset(st, 0, sizeof(*st));
	json_stacks_child(st, UINT32_MAX, UINT32_MAX); /* the root, node 0 */
}

void
json_stacks_finish(struct json_stacks *st)
{
	idmap_finish(&st->children);
	free(st->parent);
	free(st->frame);
	free(st->self);
	memset(st, 0, sizeof(*st));
}

uint32_t
json_stacks_child(struct json_stacks *st, uint32_t node, uint32_t frame)
{
	uint64_t key = (uint64_t)node << 32 | frame;
	uint32_t id;
	if (st->count > 0 && idmap_get(&st->children, key, &id)) {
		return id;
	}
	size_t cap = st->cap;
	st->parent = xgrow(st->parent, &cap, st->count + 1, sizeof(*st->parent));
	cap = st->cap;
	st->frame = xgrow(st->frame, &cap, st->count + 1, sizeof(*st->frame));
	st->self = xgrow(st->self, &st->cap, st->count + 1, sizeof(*st->self));
	id = (uint32_t)st->count++;
	st->parent[id] = node;
	st->frame[id] = frame;
	st->self[id] = (struct count){0, 0};
	if (id > 0) {
		idmap_set(&st->children, key, id);
	}
	return id;
}

bool
json_stacks_add(struct json_stacks *st, uint32_t node, struct count c)
{
	return count_add(st->self[node], c, &st->self[node]);
}

/* Node id and the nodes above it not placed yet, id first; returns the first placed. */
static uint32_t
unplaced(const struct json_forest *f, const struct tree_cursor *at, uint32_t id,
        struct json_u32s *chain)
{
	chain->count = 0;
	for (; id != JSON_NONE && at[id].node == TREE_NONE; id = f->parent[id]) {
		json_u32s_push(chain, id);
	}
	return id;
}

/* The nodes of chain, outermost first, under c: each placed in at. */
static const char *
place(const struct json_forest *f, struct tree *t, struct tree_cursor c, struct tree_cursor *at,
        const struct json_u32s *chain, struct buf *name)
{
	const char *reason = NULL;
	for (size_t i = chain->count; i-- > 0;) {
		const char *s;
		size_t len;
		if ((reason = f->name(f->ctx, chain->v[i], &s, &len)) != NULL) {
			return reason;
		}
		buf_reset(name);
		escape_frame_add(name, s, len);
		if (!tree_cursor_child(t, &c, name->data, name->len, &c, &reason)) {
			return reason;
		}
		at[chain->v[i]] = c;
	}
	return NULL;
}

/*
 * Node by node: a node's frame goes under its parent's, found through the
 * cursor kept for it, so each node is named once however deep it is (a
 * path a sample would cost its depth: a deep stack sampled often would
 * cost its depth times its samples).
 */
static const char *
emit_cursors(const struct json_forest *f, struct tree *t, enum side side, const uint32_t *nodes,
        const struct count *counts, size_t n)
{
	struct tree_cursor *at = xmalloc((f->count ? f->count : 1) * sizeof(*at));
	for (size_t i = 0; i < f->count; i++) {
		at[i].node = TREE_NONE;
	}
	struct tree_cursor base = tree_cursor_root();
	const char *reason = NULL;
	struct buf name;
	buf_init(&name);
	if (f->root) {
		escape_frame_add(&name, f->root, strlen(f->root));
		tree_cursor_child(t, &base, name.data, name.len, &base, &reason);
	}
	if (!reason && f->zero_is_root && f->count) {
		at[0] = base;
	}
	struct json_u32s chain = {0};
	for (size_t k = 0; !reason && k < n; k++) {
		if (nodes[k] >= f->count) {
			reason = "a sample's stack is not in the stack table";
			break;
		}
		uint32_t up = unplaced(f, at, nodes[k], &chain);
		reason = place(f, t, up == JSON_NONE ? base : at[up], at, &chain, &name);
		if (!reason) {
			tree_add_count(t, side, at[nodes[k]].node, counts[k], &reason);
		}
	}
	free(chain.v);
	buf_finish(&name);
	free(at);
	return reason;
}

/*
 * The frames of all the counted nodes' paths, from the depths (a parent's
 * index is below its child's, so one pass finds them); UINT64_MAX when a
 * node is outside the forest.
 */
static uint64_t
path_frames(const struct json_forest *f, const uint32_t *nodes, size_t n)
{
	uint32_t *depth = xmalloc((f->count ? f->count : 1) * sizeof(*depth));
	for (size_t i = 0; i < f->count; i++) {
		uint32_t p = f->parent[i];
		bool top = p == JSON_NONE || p >= i || (f->zero_is_root && i == 0);
		depth[i] = top ? (f->zero_is_root && i == 0 ? 0 : 1) : depth[p] + 1;
	}
	uint64_t sum = 0;
	for (size_t k = 0; k < n && sum != UINT64_MAX; k++) {
		sum = nodes[k] < f->count ? sum + depth[nodes[k]] : UINT64_MAX;
	}
	free(depth);
	return sum;
}

/*
 * --reverse merges from the leaf end: whole paths it is, each costing its
 * depth. A few bytes of a stack table make a stack one deeper, so a
 * hostile file could ask for its size squared in frames: the frames of
 * all paths are bounded by a multiple of the table's size, checked first.
 */
static const char *
emit_paths(const struct json_forest *f, struct tree *t, enum side side, const uint32_t *nodes,
        const struct count *counts, size_t n)
{
	uint64_t frames = path_frames(f, nodes, n);
	if (frames == UINT64_MAX) {
		return "a sample's stack is not in the stack table";
	}
	if (frames > (uint64_t)64 * f->count + ((uint64_t)1 << 24)) {
		return "the stacks are too deep to merge from the leaf end (--reverse): read the "
		       "file without --reverse";
	}
	struct buf path;
	buf_init(&path);
	struct json_u32s chain = {0};
	const char *reason = NULL;
	for (size_t k = 0; !reason && k < n; k++) {
		chain.count = 0;
		for (uint32_t id = nodes[k]; id != JSON_NONE && !(f->zero_is_root && id == 0);
		        id = f->parent[id]) {
			json_u32s_push(&chain, id);
		}
		buf_reset(&path);
		if (f->root) {
			escape_frame_add(&path, f->root, strlen(f->root));
		}
		for (size_t i = chain.count; !reason && i-- > 0;) {
			const char *s;
			size_t len;
			if ((reason = f->name(f->ctx, chain.v[i], &s, &len)) == NULL) {
				buf_adds(&path, path.len ? ";" : "");
				escape_frame_add(&path, s, len);
			}
		}
		if (!reason) {
			tree_add_stack(t, side, path.data, path.len, counts[k], &reason);
		}
	}
	free(chain.v);
	buf_finish(&path);
	return reason;
}

bool
json_forest_emit(const struct json_forest *f, struct tree *t, enum side side, const uint32_t *nodes,
        const struct count *counts, size_t n, const char *file, struct diag *err)
{
	const char *reason = tree_needs_paths(t) ? emit_paths(f, t, side, nodes, counts, n)
	                                         : emit_cursors(f, t, side, nodes, counts, n);
	if (reason) {
		diag_set(err, file, 0, reason);
	}
	return reason == NULL;
}

struct stacks_names {
	const struct json_stacks *st;
	const struct json_strings *names;
	char why[64];
};

static const char *
stacks_name(void *ctx, uint32_t node, const char **s, size_t *len)
{
	struct stacks_names *sn = ctx;
	uint32_t frame = sn->st->frame[node];
	if (!json_strings_get(sn->names, frame, s, len)) {
		snprintf(sn->why, sizeof(sn->why), "frame %u has no name in the frame table",
		        (unsigned)frame);
		return sn->why;
	}
	return NULL;
}

bool
json_stacks_emit(struct json_stacks *st, struct tree *t, enum side side,
        const struct json_strings *names, const char *file, struct diag *err)
{
	/* The counted nodes, and their counts packed alongside. */
	struct json_u32s nodes = {0};
	struct count *counts = xmalloc((st->count ? st->count : 1) * sizeof(*counts));
	for (size_t id = 1; id < st->count; id++) {
		if (!count_is_zero(st->self[id])) {
			counts[nodes.count] = st->self[id];
			json_u32s_push(&nodes, (uint32_t)id);
		}
	}
	struct stacks_names sn = {st, names, ""};
	struct json_forest f = {st->parent, st->count, stacks_name, &sn, NULL, true};
	bool ok = json_forest_emit(&f, t, side, nodes.v, counts, nodes.count, file, err);
	free(nodes.v);
	free(counts);
	return ok;
}

void
json_strings_init(struct json_strings *s)
{
	memset(s, 0, sizeof(*s));
	buf_init(&s->bytes);
}

void
json_strings_finish(struct json_strings *s)
{
	buf_finish(&s->bytes);
	free(s->starts);
	memset(s, 0, sizeof(*s));
}

void
json_strings_push(struct json_strings *s, const char *p, size_t len)
{
	s->starts = xgrow(s->starts, &s->cap, s->count + 2, sizeof(*s->starts));
	s->starts[s->count] = s->bytes.len;
	buf_add(&s->bytes, p, len);
	s->starts[++s->count] = s->bytes.len;
}

bool
json_strings_get(const struct json_strings *s, uint64_t i, const char **p, size_t *len)
{
	if (i >= s->count) {
		return false;
	}
	*p = s->bytes.data + s->starts[i];
	*len = s->starts[i + 1] - s->starts[i];
	return true;
}

void
json_u32s_push(struct json_u32s *a, uint32_t v)
{
	a->v = xgrow(a->v, &a->cap, a->count + 1, sizeof(*a->v));
	a->v[a->count++] = v;
}
