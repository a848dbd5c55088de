#include "folded.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "count.h"
#include "source.h"

struct reader {
	struct tree *t;
	const char *name;
	enum folded_mode mode;
	bool strict;
	uint64_t line_no;
	bool decided; /* column count known */
	struct folded_stats *st;
	struct diag *err;
};

static bool
is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* Splits off the last whitespace-separated field: [*field, end). */
static bool
last_field(const char *s, size_t *len, const char **field, size_t *field_len)
{
	size_t end = *len, i = end;
	while (i > 0 && !is_space(s[i - 1])) {
		i--;
	}
	if (i == 0) {
		return false;
	}
	*field = s + i;
	*field_len = end - i;
	while (i > 0 && is_space(s[i - 1])) {
		i--;
	}
	*len = i;
	return true;
}

/* Returns false for a bad line, with *reason set. */
static bool
parse_counts(struct reader *r, const char *s, size_t *len, struct count c[2], bool *pair,
        const char **reason)
{
	const char *f;
	size_t flen;
	if (!last_field(s, len, &f, &flen)) {
		*reason = "no count";
		return false;
	}
	if (!count_parse(f, flen, &c[1], reason)) {
		return false;
	}
	*pair = false;
	if (r->mode == FOLDED_AUTO && (!r->decided || r->st->three_column)) {
		size_t before = *len;
		const char *g;
		size_t glen;
		const char *why;
		bool second =
		        last_field(s, &before, &g, &glen) && count_parse(g, glen, &c[0], &why);
		if (!r->decided) {
			r->st->three_column = second && before > 0;
			r->decided = true;
		}
		if (r->st->three_column) {
			if (!second) {
				*reason = "3-column input: base count is missing or not a number";
				return false;
			}
			*len = before;
			*pair = true;
		}
	}
	if (*len == 0) {
		*reason = "stack is empty";
		return false;
	}
	return true;
}

static bool
add(struct reader *r, enum side side, const char *s, size_t len, struct count c)
{
	const char *reason;
	if (!tree_add_stack(r->t, side, s, len, c, &reason)) {
		diag_set(r->err, r->name, r->line_no, reason);
		return false;
	}
	return true;
}

static bool
bad_line(struct reader *r, const char *reason)
{
	if (r->strict) {
		diag_set(r->err, r->name, r->line_no, reason);
		return false;
	}
	if (r->st->bad_lines++ == 0) {
		r->st->first_bad = r->line_no;
		r->st->first_bad_reason = reason;
	}
	return true;
}

bool
folded_stack_ends_in_count(const char *stack, size_t len)
{
	while (len > 0 && is_space(stack[len - 1])) {
		len--;
	}
	const char *f, *why;
	size_t flen;
	struct count c;
	return last_field(stack, &len, &f, &flen) && len > 0 && count_parse(f, flen, &c, &why);
}

/* A column mark before the first stack decides the column count. */
static void
column_mark(struct reader *r, const char *s, size_t len)
{
	static const size_t n = sizeof(FOLDED_MARK_2_COLUMNS) - 1;
	if (r->mode != FOLDED_AUTO || r->decided || len != n) {
		return;
	}
	bool two = memcmp(s, FOLDED_MARK_2_COLUMNS, n) == 0;
	bool three = memcmp(s, FOLDED_MARK_3_COLUMNS, n) == 0;
	if (two || three) {
		r->decided = true;
		r->st->three_column = three;
	}
}

/* One line without its newline. Returns false on a fatal error. */
static bool
parse_line(struct reader *r, const char *s, size_t len)
{
	r->line_no++;
	if (r->line_no == 1 && len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
		s += 3;
		len -= 3;
	}
	if (len > 0 && s[len - 1] == '\r') {
		len--;
	}
	while (len > 0 && is_space(s[len - 1])) {
		len--;
	}
	size_t lead = 0;
	while (lead < len && is_space(s[lead])) {
		lead++;
	}
	if (lead == len || s[0] == '#') {
		column_mark(r, s, len);
		return true;
	}
	struct count c[2];
	bool pair;
	const char *reason;
	if (!parse_counts(r, s, &len, c, &pair, &reason)) {
		return bad_line(r, reason);
	}
	/* heaptrack ends its stacks with ';': no empty leaf frame for that. */
	while (len > 0 && s[len - 1] == ';') {
		len--;
	}
	if (len == 0) {
		return bad_line(r, "stack is empty");
	}
	r->st->lines++;
	if (pair) {
		return add(r, SIDE_BASE, s, len, c[0]) && add(r, SIDE_HEAD, s, len, c[1]);
	}
	return add(r, r->mode == FOLDED_BASE ? SIDE_BASE : SIDE_HEAD, s, len, c[1]);
}

/* Parses the complete lines in data; returns bytes consumed or -1 on error. */
static long long
parse_lines(struct reader *r, const char *data, size_t len, bool at_eof)
{
	size_t pos = 0;
	for (;;) {
		const char *nl = memchr(data + pos, '\n', len - pos);
		if (!nl) {
			break;
		}
		size_t end = (size_t)(nl - data);
		if (end - pos > FOLDED_MAX_LINE) {
			r->line_no++;
			diag_set(r->err, r->name, r->line_no, "line is longer than 16 MiB");
			return -1;
		}
		if (!parse_line(r, data + pos, end - pos)) {
			return -1;
		}
		pos = end + 1;
	}
	if (len - pos > FOLDED_MAX_LINE) {
		r->line_no++;
		diag_set(r->err, r->name, r->line_no, "line is longer than 16 MiB");
		return -1;
	}
	if (at_eof && pos < len) {
		if (!parse_line(r, data + pos, len - pos)) {
			return -1;
		}
		pos = len;
	}
	return (long long)pos;
}

/*
 * A file whose lines are mostly malformed is not folded stacks read with a
 * few bad lines but something else: drawing the few that parse would be a
 * graph of a file we misread.
 */
static bool
finish(struct reader *r)
{
	const struct folded_stats *st = r->st;
	if (st->lines == 0) {
		diag_set(r->err, r->name, 0,
		        st->bad_lines ? "no valid line (every line was malformed)"
		                      : "no stack in the input (empty file?)");
		return false;
	}
	if (st->bad_lines > st->lines) {
		char reason[256];
		snprintf(reason, sizeof(reason),
		        "%s; %llu of %llu lines are malformed, so this is not read as folded "
		        "stacks "
		        "(a file of another format? --input-format names the reader)",
		        st->first_bad_reason, (unsigned long long)st->bad_lines,
		        (unsigned long long)st->bad_lines + (unsigned long long)st->lines);
		diag_set(r->err, r->name, st->first_bad, reason);
		return false;
	}
	return true;
}

static void
reader_init(struct reader *r, struct tree *t, const char *name, enum folded_mode mode, bool strict,
        struct folded_stats *st, struct diag *err)
{
	memset(r, 0, sizeof(*r));
	memset(st, 0, sizeof(*st));
	r->t = t;
	r->name = name;
	r->mode = mode;
	r->strict = strict;
	r->st = st;
	r->err = err;
}

bool
folded_read_mem(struct tree *t, const char *name, const char *data, size_t len,
        enum folded_mode mode, bool strict, struct folded_stats *st, struct diag *err)
{
	struct reader r;
	reader_init(&r, t, name, mode, strict, st, err);
	return parse_lines(&r, data, len, true) >= 0 && finish(&r);
}

static long long
parse_chunk(void *ctx, const char *data, size_t len, bool at_eof)
{
	return parse_lines(ctx, data, len, at_eof);
}

bool
folded_read_source(struct tree *t, struct source *src, const char *head, size_t head_len,
        enum folded_mode mode, bool strict, struct folded_stats *st, struct diag *err)
{
	struct reader r;
	reader_init(&r, t, source_name(src), mode, strict, st, err);
	return source_parse(src, head, head_len, parse_chunk, &r, err) && finish(&r);
}

bool
folded_read_file(struct tree *t, const char *path, enum folded_mode mode, bool strict,
        struct folded_stats *st, struct diag *err)
{
	struct source *src = source_open(path, NULL, err);
	if (!src) {
		memset(st, 0, sizeof(*st));
		return false;
	}
	bool ok = folded_read_source(t, src, NULL, 0, mode, strict, st, err);
	source_close(src);
	return ok;
}
