#include "jsonstream.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

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
jsonstream_read_mem(const char *name, const char *data, size_t len,
        const struct json_reader *reader, void *ctx, struct diag *err)
{
	struct jsonstream js;
	if (!run(&js, name, reader, ctx, err)) {
		diag_set(err, name, 0, "out of memory");
		return false;
	}
	bool ok = feed(&js, data, len, true) >= 0;
	yajl_free(js.handle);
	return ok;
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

/* Appends a frame's name, ';' (the frame separator) turned into ':'. */
static void
add_name(struct buf *b, const char *s, size_t len)
{
	size_t at = b->len;
	buf_add(b, s, len);
	for (size_t i = at; i < b->len; i++) {
		if (b->data[i] == ';') {
			b->data[i] = ':';
		}
	}
}

bool
json_stacks_emit(struct json_stacks *st, struct tree *t, enum side side,
        const struct json_strings *names, const char *file, struct diag *err)
{
	struct buf path;
	buf_init(&path);
	uint32_t *chain = NULL;
	size_t chain_cap = 0;
	bool ok = true;
	for (size_t id = 1; ok && id < st->count; id++) {
		if (count_is_zero(st->self[id])) {
			continue;
		}
		size_t depth = 0;
		for (uint32_t n = (uint32_t)id; n != 0; n = st->parent[n]) {
			chain = xgrow(chain, &chain_cap, depth + 1, sizeof(*chain));
			chain[depth++] = st->frame[n];
		}
		buf_reset(&path);
		for (size_t i = depth; ok && i-- > 0;) {
			const char *s;
			size_t len;
			if (!json_strings_get(names, chain[i], &s, &len)) {
				char why[96];
				snprintf(why, sizeof(why),
				        "frame %u has no name in the frame table",
				        (unsigned)chain[i]);
				diag_set(err, file, 0, why);
				ok = false;
				break;
			}
			if (path.len) {
				buf_addc(&path, ';');
			}
			add_name(&path, s, len);
		}
		const char *reason;
		if (ok && !tree_add_stack(t, side, path.data, path.len, st->self[id], &reason)) {
			diag_set(err, file, 0, reason);
			ok = false;
		}
	}
	free(chain);
	buf_finish(&path);
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
