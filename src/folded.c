#include "folded.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "buf.h"
#include "count.h"
#include "escape.h"
#include "xalloc.h"

#define READ_SIZE ((size_t)128 << 10)

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
	struct buf shown; /* no terminal escape or forged line from a file name */
	buf_init(&shown);
	buf_add(&shown, "", 0);
	escape_diag(&shown, name, strlen(name));
	if (line) {
		snprintf(err->msg, sizeof(err->msg), "%s:%llu: %s", shown.data,
		        (unsigned long long)line, reason);
	} else {
		snprintf(err->msg, sizeof(err->msg), "%s: %s", shown.data, reason);
	}
	buf_finish(&shown);
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
		set_error(r->err, r->name, 0,
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
		        (unsigned long long)(st->bad_lines + st->lines));
		set_error(r->err, r->name, st->first_bad, reason);
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

/*
 * The bytes of one input file. Plain files are read with read(2) straight
 * into the line buffer; gzip (detected by its magic bytes, so pipes work
 * too) is inflated from a buffer of compressed bytes. Concatenated gzip
 * members are read one after another, as gzip does; anything else after a
 * member but NUL padding is an error (gzip -t calls it trailing garbage), so
 * a damaged file is never read as a shorter profile.
 */
struct input {
	int fd;
	const char *name;
	bool gzip, started, raw_eof, member_done;
	z_stream zs;
	unsigned char *zbuf;
	uint64_t raw_bytes; /* bytes read from fd, for progress */
	uint64_t member_at; /* file offset of the gzip member being inflated */
	const struct folded_progress *progress;
};

#define ZBUF_SIZE ((size_t)256 << 10)

static bool
open_input(struct input *in, const char *path, const char *name, struct diag *err)
{
	memset(in, 0, sizeof(*in));
	in->name = name;
	in->fd = strcmp(path, "-") == 0 ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
	if (in->fd < 0) {
		set_error(err, name, 0, strerror(errno));
		return false;
	}
	struct stat sb;
	if (fstat(in->fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		close(in->fd);
		set_error(err, name, 0, "is a directory");
		return false;
	}
	return true;
}

static void
close_input(struct input *in)
{
	if (in->gzip) {
		inflateEnd(&in->zs);
	}
	free(in->zbuf);
	close(in->fd);
}

/* read(2) that retries on EINTR and reports progress; -1 with err set. */
static ssize_t
raw_read(struct input *in, void *dst, size_t cap, struct diag *err)
{
	ssize_t n;
	do {
		n = read(in->fd, dst, cap);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		char reason[512];
		snprintf(reason, sizeof(reason), "read error: %s", strerror(errno));
		set_error(err, in->name, 0, reason);
		return -1;
	}
	in->raw_bytes += (uint64_t)n;
	if (in->progress && in->progress->fn) {
		in->progress->fn(in->progress->ctx, (uint64_t)n);
	}
	return n;
}

/* Keeps at least `want` compressed bytes pending unless the file ends first. */
static bool
fill(struct input *in, size_t want, struct diag *err)
{
	while (in->zs.avail_in < want && !in->raw_eof) {
		if (in->zs.avail_in && in->zs.next_in != in->zbuf) {
			memmove(in->zbuf, in->zs.next_in, in->zs.avail_in);
		}
		in->zs.next_in = in->zbuf;
		ssize_t n =
		        raw_read(in, in->zbuf + in->zs.avail_in, ZBUF_SIZE - in->zs.avail_in, err);
		if (n < 0) {
			return false;
		}
		in->raw_eof = n == 0;
		in->zs.avail_in += (uInt)n;
	}
	return true;
}

/* zlib allocates through xalloc, so running out of memory is fatal as elsewhere. */
static voidpf
zalloc(voidpf opaque, uInt items, uInt size)
{
	(void)opaque;
	return xcalloc(items, size);
}

static void
zfree(voidpf opaque, voidpf p)
{
	(void)opaque;
	free(p);
}

static bool
start_gzip(struct input *in, const char *head, size_t len, struct diag *err)
{
	in->gzip = true;
	in->zbuf = xmalloc(ZBUF_SIZE);
	memcpy(in->zbuf, head, len);
	in->zs.next_in = in->zbuf;
	in->zs.avail_in = (uInt)len;
	in->zs.zalloc = zalloc;
	in->zs.zfree = zfree;
	/* 16 + MAX_WBITS: gzip wrapper only. */
	if (inflateInit2(&in->zs, 16 + MAX_WBITS) != Z_OK) {
		in->gzip = false;
		set_error(err, in->name, 0, "read error: cannot start zlib");
		return false;
	}
	return true;
}

/* File offset of the next compressed byte zlib has not consumed. */
static uint64_t
gzip_offset(const struct input *in)
{
	return in->raw_bytes - in->zs.avail_in;
}

/*
 * A gzip error. Errors in a later member say where that member starts, since
 * its first bytes were read fine: "read error: REASON (member at byte N)".
 */
static void
gzip_error(struct input *in, const char *what, struct diag *err)
{
	char reason[512];
	if (in->member_at == 0) {
		snprintf(reason, sizeof(reason), "read error: %s", what);
	} else {
		snprintf(reason, sizeof(reason), "read error: %s (member at byte %" PRIu64 ")",
		        what, in->member_at);
	}
	set_error(err, in->name, 0, reason);
}

/* Consumes a run of NUL bytes; *only_zeros says whether the file ended
 * there. False with err set on a read error. */
static bool
skip_zeros(struct input *in, bool *only_zeros, struct diag *err)
{
	for (;;) {
		while (in->zs.avail_in && in->zs.next_in[0] == 0) {
			in->zs.next_in++;
			in->zs.avail_in--;
		}
		if (in->zs.avail_in) {
			*only_zeros = false;
			return true;
		}
		if (!fill(in, 1, err)) {
			return false;
		}
		if (in->zs.avail_in == 0) {
			*only_zeros = true;
			return true;
		}
	}
}

/*
 * After a member: true with *more set when another member starts here, false
 * with err set when other bytes follow (trailing garbage); at the end of the
 * file true with *more false. NUL padding at the end is allowed, as gzip
 * allows it (tape blocks).
 */
static bool
next_member(struct input *in, bool *more, struct diag *err)
{
	*more = false;
	if (!fill(in, 2, err)) {
		return false;
	}
	if (in->zs.avail_in == 0) {
		return true;
	}
	if (in->zs.avail_in >= 2 && in->zs.next_in[0] == 0x1f && in->zs.next_in[1] == 0x8b) {
		in->member_at = gzip_offset(in);
		inflateReset(&in->zs);
		in->member_done = false;
		*more = true;
		return true;
	}
	uint64_t tail_at = gzip_offset(in);
	bool only_zeros = false;
	if (!skip_zeros(in, &only_zeros, err)) {
		return false;
	}
	if (only_zeros) {
		return true;
	}
	char reason[512];
	snprintf(reason, sizeof(reason),
	        "read error: trailing garbage after gzip data at byte %" PRIu64, tail_at);
	set_error(err, in->name, 0, reason);
	return false;
}

/* Inflates into dst; returns bytes produced (0 at the end) or -1. */
static ssize_t
gzip_read(struct input *in, char *dst, size_t cap, struct diag *err)
{
	in->zs.next_out = (Bytef *)dst;
	in->zs.avail_out = (uInt)cap;
	while (in->zs.avail_out == cap) {
		if (in->member_done) {
			bool more;
			if (!next_member(in, &more, err)) {
				return -1;
			}
			if (!more) {
				break;
			}
		}
		if (!fill(in, 1, err)) {
			return -1;
		}
		if (in->zs.avail_in == 0) {
			gzip_error(in, "truncated gzip data", err);
			return -1;
		}
		int rc = inflate(&in->zs, Z_NO_FLUSH);
		if (rc == Z_STREAM_END) {
			in->member_done = true;
		} else if (rc != Z_OK && rc != Z_BUF_ERROR) {
			gzip_error(in, in->zs.msg ? in->zs.msg : "invalid gzip data", err);
			return -1;
		}
	}
	return (ssize_t)(cap - in->zs.avail_out);
}

/* Reads up to cap bytes of content; returns 0 at the end, -1 on error. */
static ssize_t
input_read(struct input *in, char *dst, size_t cap, struct diag *err)
{
	if (in->gzip) {
		return gzip_read(in, dst, cap, err);
	}
	if (in->started) {
		return raw_read(in, dst, cap, err);
	}
	/* The first bytes decide: two are needed to see gzip's magic. They are
	 * few enough to move to the compressed buffer if it is gzip. */
	in->started = true;
	cap = cap < ZBUF_SIZE ? cap : ZBUF_SIZE;
	size_t have = 0;
	while (have < 2) {
		ssize_t n = raw_read(in, dst + have, cap - have, err);
		if (n < 0) {
			return -1;
		}
		if (n == 0) {
			break;
		}
		have += (size_t)n;
	}
	if (have >= 2 && (unsigned char)dst[0] == 0x1f && (unsigned char)dst[1] == 0x8b) {
		return start_gzip(in, dst, have, err) ? gzip_read(in, dst, cap, err) : -1;
	}
	return (ssize_t)have;
}

bool
folded_read_file_progress(struct tree *t, const char *path, enum folded_mode mode, bool strict,
        const struct folded_progress *progress, struct folded_stats *st, struct diag *err)
{
	const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	struct reader r;
	reader_init(&r, t, name, mode, strict, st, err);
	struct input in;
	if (!open_input(&in, path, name, err)) {
		return false;
	}
	in.progress = progress;
	struct buf b;
	buf_init(&b);
	bool ok = true;
	for (;;) {
		buf_reserve(&b, READ_SIZE);
		ssize_t n = input_read(&in, b.data + b.len, READ_SIZE, err);
		if (n < 0) {
			ok = false;
			break;
		}
		buf_setlen(&b, b.len + (size_t)n);
		long long used = parse_lines(&r, b.data, b.len, n == 0);
		if (used < 0) {
			ok = false;
			break;
		}
		memmove(b.data, b.data + used, b.len - (size_t)used);
		buf_setlen(&b, b.len - (size_t)used);
		if (n == 0) {
			break;
		}
	}
	buf_finish(&b);
	close_input(&in);
	return ok && finish(&r);
}

bool
folded_read_file(struct tree *t, const char *path, enum folded_mode mode, bool strict,
        struct folded_stats *st, struct diag *err)
{
	return folded_read_file_progress(t, path, mode, strict, NULL, st, err);
}
