/*
 * async-profiler's HTML flame graph: its frames are calls in the page's
 * script over a pool of names, which this reads as data, never running
 * anything. The pool is a list of quoted names, each after the first
 * sharing a prefix with the one before (its first character's code less
 * 32 says how long); a frame is f(key, level, left[, width]), u(key[,
 * width]) one level up at the same place, or n(key[, width]) the next on
 * the same level, key >> 3 naming it and a width left out repeating the
 * last. The frames then go through the same flamegraph_stacks as an SVG's.
 */
#include "flamegraph_private.h"

#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "xalloc.h"

#define EXACT ((uint64_t)1 << 53)

static bool
starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && memcmp(s, prefix, n) == 0;
}

/* A quoted name of the pool ('...' with \\ and \' escapes, a ',' after). */
static bool
pool_name(struct reader *r, const char *s, size_t len, uint64_t line)
{
	if (len > 0 && s[len - 1] == ',') {
		len--;
	}
	if (len < 2 || s[0] != '\'' || s[len - 1] != '\'') {
		return flamegraph_fail(r, line, "a name of async-profiler's pool is not quoted");
	}
	size_t at = r->names.len, keep = 0;
	bool first = r->pool_count > 0; /* the first name shares nothing */
	for (size_t i = 1; i + 1 < len; i++) {
		char c = s[i];
		if (c == '\\' && i + 2 < len) {
			c = s[++i];
		}
		if (first) {
			/* A character of 32 to 127 says how much: a name costs at
			 * most 95 bytes more than its line. */
			first = false;
			keep = (size_t)(unsigned char)c - 32;
			if ((unsigned char)c < 32 || keep > 95 ||
			        keep > r->pool_len[r->pool_count - 1]) {
				return flamegraph_fail(
				        r, line, "a name of the pool shares more than the last");
			}
			/* The last name is in the same buffer: room first, so that
			 * growing it does not move what is copied. */
			buf_reserve(&r->names, keep);
			buf_add(&r->names, r->names.data + r->pool_at[r->pool_count - 1], keep);
			continue;
		}
		buf_addc(&r->names, c);
	}
	if (r->pool_count == r->pool_cap) {
		r->pool_cap = r->pool_cap ? 2 * r->pool_cap : 1024;
		r->pool_at = xrealloc(r->pool_at, r->pool_cap * sizeof(*r->pool_at));
		r->pool_len = xrealloc(r->pool_len, r->pool_cap * sizeof(*r->pool_len));
	}
	r->pool_at[r->pool_count] = at;
	r->pool_len[r->pool_count++] = r->names.len - at;
	escape_frame_bytes(r->names.data + at, r->names.len - at, false);
	r->semicolon |= memchr(r->names.data + at, ';', r->names.len - at) != NULL;
	return true;
}

/* The whole numbers of a call's arguments, "(1,2,3)"; how many, or -1. */
static int
call_args(const char *s, size_t len, uint64_t *v, int max)
{
	if (len < 3 || s[0] != '(' || s[len - 1] != ')') {
		return -1;
	}
	int n = 0;
	for (size_t i = 1; i < len - 1; n++) {
		if (n == max) {
			return -1;
		}
		uint64_t x = 0;
		size_t start = i;
		for (; i < len - 1 && s[i] >= '0' && s[i] <= '9' && i - start < 19; i++) {
			x = x * 10 + (uint64_t)(s[i] - '0');
		}
		if (i == start || (i < len - 1 && s[i] != ',')) {
			return -1;
		}
		v[n] = x;
		i += i < len - 1;
	}
	return n;
}

/* One frame call: where it is from the last, and its name from the pool. */
static bool
frame_call(struct reader *r, const char *s, size_t len, uint64_t line)
{
	uint64_t a[7];
	int n = call_args(s + 1, len - 1, a, 7);
	int fixed = s[0] == 'f' ? 3 : 1; /* f(key, level, left), u(key), n(key) */
	if (n < fixed || (a[0] >> 3) >= r->pool_count) {
		return flamegraph_fail(r, line, "a frame of async-profiler's script is malformed");
	}
	uint64_t level = s[0] == 'f' ? a[1] : r->level0 + (s[0] == 'u');
	uint64_t left = s[0] == 'f' ? a[2] : s[0] == 'n' ? r->width0 : 0;
	uint64_t width = n > fixed ? a[fixed] : 0;
	/* Places are compared as doubles: exact up to 2^53 samples. */
	uint64_t w = width ? width : r->width0;
	if (left > EXACT - r->left0 || w > EXACT - r->left0 - left || level > UINT32_MAX - 1) {
		return flamegraph_fail(
		        r, line, "a frame of async-profiler's script is out of range");
	}
	r->level0 = level;
	r->left0 += left;
	r->width0 = w;
	if (r->count > r->t->opt.max_nodes) {
		return flamegraph_fail(r, line, "more frames drawn than --max-frames allows");
	}
	struct frame *f = flamegraph_new_frame(r, line);
	f->name_at = r->pool_at[a[0] >> 3];
	f->name_len = r->pool_len[a[0] >> 3];
	f->y = (double)level;
	f->x = (double)r->left0;
	f->w = (double)r->width0;
	f->total[r->side] = (struct count){.units = r->width0};
	return true;
}

/* One line of the page, without its newline and indentation. */
static bool
page_line(struct reader *r, const char *s, size_t len, uint64_t line)
{
	switch (r->html_stage) {
	case FLAMEGRAPH_HTML_PAGE:
		if (starts(s, len, "const maxdiff = ") && !starts(s + 16, len - 16, "-1;")) {
			return flamegraph_fail(r, line,
			        "async-profiler's differential page holds the changes, not the "
			        "base "
			        "profile: give difffold the two profiles");
		}
		r->html_stage += len == 15 && memcmp(s, "const cpool = [", 15) == 0;
		return true;
	case FLAMEGRAPH_HTML_POOL:
		if (len == 2 && memcmp(s, "];", 2) == 0) {
			return true;
		}
		if (starts(s, len, "unpack(cpool);")) {
			r->html_stage = FLAMEGRAPH_HTML_FRAMES;
			return true;
		}
		return pool_name(r, s, len, line);
	case FLAMEGRAPH_HTML_FRAMES:
		if (len > 2 && (s[0] == 'f' || s[0] == 'u' || s[0] == 'n') && s[1] == '(') {
			return frame_call(r, s, len, line);
		}
		/* A blank line before them; search(...) after them. */
		r->html_stage = len ? FLAMEGRAPH_HTML_DONE : r->html_stage;
		return true;
	default:
		return true;
	}
}

long long
flamegraph_html_chunk(void *ctx, const char *data, size_t len, bool at_eof)
{
	struct reader *r = ctx;
	const char *p = data, *end = data + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl && !at_eof) {
			if ((size_t)(end - p) > FLAMEGRAPH_SVG_MAX_ELEMENT) {
				flamegraph_fail(r, r->line + 1, "a line longer than 16 MiB");
				return -1;
			}
			break;
		}
		const char *e = nl ? nl : end, *s = p;
		r->line++;
		while (s < e && (*s == ' ' || *s == '\t')) {
			s++;
		}
		size_t n = (size_t)(e - s) - (e > s && e[-1] == '\r');
		if (r->html_stage != FLAMEGRAPH_HTML_DONE && !page_line(r, s, n, r->line)) {
			return -1;
		}
		p = nl ? nl + 1 : end;
	}
	return (long long)(p - data);
}
