#include "folded.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "buf.h"
#include "count.h"
#include "xalloc.h"

#define READ_SIZE ((size_t)1 << 20)

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

static void
set_error(struct diag *err, const char *name, uint64_t line, const char *reason)
{
	if (line) {
		snprintf(err->msg, sizeof(err->msg), "%s:%llu: %s", name, (unsigned long long)line,
		        reason);
	} else {
		snprintf(err->msg, sizeof(err->msg), "%s: %s", name, reason);
	}
}

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
		set_error(r->err, r->name, r->line_no, reason);
		return false;
	}
	return true;
}

static bool
bad_line(struct reader *r, const char *reason)
{
	if (r->strict) {
		set_error(r->err, r->name, r->line_no, reason);
		return false;
	}
	if (r->st->bad_lines++ == 0) {
		r->st->first_bad = r->line_no;
		r->st->first_bad_reason = reason;
	}
	return true;
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
		return true;
	}
	struct count c[2];
	bool pair;
	const char *reason;
	if (!parse_counts(r, s, &len, c, &pair, &reason)) {
		return bad_line(r, reason);
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
			set_error(r->err, r->name, r->line_no, "line is longer than 16 MiB");
			return -1;
		}
		if (!parse_line(r, data + pos, end - pos)) {
			return -1;
		}
		pos = end + 1;
	}
	if (len - pos > FOLDED_MAX_LINE) {
		r->line_no++;
		set_error(r->err, r->name, r->line_no, "line is longer than 16 MiB");
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

static bool
finish(struct reader *r)
{
	if (r->st->lines == 0) {
		set_error(r->err, r->name, 0,
		        r->st->bad_lines ? "no valid line (every line was malformed)"
		                         : "no stack in the input (empty file?)");
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

static gzFile
open_input(const char *path, const char *name, struct diag *err)
{
	int fd = strcmp(path, "-") == 0 ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		set_error(err, name, 0, strerror(errno));
		return NULL;
	}
	struct stat sb;
	if (fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		close(fd);
		set_error(err, name, 0, "is a directory");
		return NULL;
	}
	gzFile gz = gzdopen(fd, "rb");
	if (!gz) {
		close(fd);
		set_error(err, name, 0, "cannot open");
		return NULL;
	}
	gzbuffer(gz, 256 * 1024);
	return gz;
}

static bool
read_error(gzFile gz, const char *name, struct diag *err)
{
	int code;
	const char *msg = gzerror(gz, &code);
	if (code == Z_ERRNO) {
		msg = strerror(errno);
	} else if (strncmp(msg, "<fd:", 4) == 0 && strstr(msg, ": ")) {
		/* zlib names a gzdopen'ed stream "<fd:3>"; the file name is ours. */
		msg = strstr(msg, ": ") + 2;
	}
	char reason[512];
	snprintf(reason, sizeof(reason), "read error: %s", msg);
	set_error(err, name, 0, reason);
	return false;
}

/* At end of input: did a gzip stream stop in the middle? zlib says so only
 * through gzerror, and gzread returns the partial data as if all were well. */
static bool
truncated(gzFile gz)
{
	int code = Z_OK;
	gzerror(gz, &code);
	return code == Z_BUF_ERROR;
}

bool
folded_read_file(struct tree *t, const char *path, enum folded_mode mode, bool strict,
        struct folded_stats *st, struct diag *err)
{
	const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	struct reader r;
	reader_init(&r, t, name, mode, strict, st, err);
	gzFile gz = open_input(path, name, err);
	if (!gz) {
		return false;
	}
	struct buf b;
	buf_init(&b);
	bool ok = true;
	for (;;) {
		buf_reserve(&b, READ_SIZE);
		int n = gzread(gz, b.data + b.len, (unsigned)READ_SIZE);
		if (n < 0) {
			ok = read_error(gz, name, err);
			break;
		}
		if (n == 0 && truncated(gz)) {
			set_error(err, name, 0, "read error: truncated gzip data");
			ok = false;
			break;
		}
		b.len += (size_t)n;
		long long used = parse_lines(&r, b.data, b.len, n == 0);
		if (used < 0) {
			ok = false;
			break;
		}
		memmove(b.data, b.data + used, b.len - (size_t)used);
		b.len -= (size_t)used;
		if (n == 0) {
			break;
		}
	}
	buf_finish(&b);
	gzclose(gz);
	return ok && finish(&r);
}
