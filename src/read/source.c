#include "source.h"

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
#include "xalloc.h"

struct source {
	int fd;
	const char *name;
	bool gzip, started, raw_eof, member_done;
	bool memory; /* source_open_mem: no more content than the caller holds */
	z_stream zs;
	unsigned char *zbuf;
	uint64_t raw_bytes; /* bytes read from fd, for progress */
	uint64_t member_at; /* file offset of the gzip member being inflated */
	uint64_t mem_bytes; /* source_open_mem: the bytes given as the head */
	uint64_t work, work_floor; /* source_spend */
	const struct read_progress *progress;
};

#define ZBUF_SIZE ((size_t)256 << 10)

static bool
open_input(struct source *in, const char *path, const char *name, struct diag *err)
{
	in->name = name;
	in->fd = strcmp(path, "-") == 0 ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
	if (in->fd < 0) {
		diag_set(err, name, 0, strerror(errno));
		return false;
	}
	struct stat sb;
	if (fstat(in->fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		close(in->fd);
		diag_set(err, name, 0, "is a directory");
		return false;
	}
	return true;
}

void
source_close(struct source *in)
{
	if (!in) {
		return;
	}
	if (in->gzip) {
		inflateEnd(&in->zs);
	}
	free(in->zbuf);
	if (!in->memory) {
		close(in->fd);
	}
	free(in);
}

/* read(2) that retries on EINTR and reports progress; -1 with err set. */
static ssize_t
raw_read(struct source *in, void *dst, size_t cap, struct diag *err)
{
	ssize_t n;
	do {
		n = read(in->fd, dst, cap);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		char reason[512];
		snprintf(reason, sizeof(reason), "read error: %s", strerror(errno));
		diag_set(err, in->name, 0, reason);
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
fill(struct source *in, size_t want, struct diag *err)
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
start_gzip(struct source *in, const char *head, size_t len, struct diag *err)
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
		diag_set(err, in->name, 0, "read error: cannot start zlib");
		return false;
	}
	return true;
}

/* File offset of the next compressed byte zlib has not consumed. */
static uint64_t
gzip_offset(const struct source *in)
{
	return in->raw_bytes - in->zs.avail_in;
}

/*
 * A gzip error. Errors in a later member say where that member starts, since
 * its first bytes were read fine: "read error: REASON (member at byte N)".
 */
static void
gzip_error(struct source *in, const char *what, struct diag *err)
{
	char reason[512];
	if (in->member_at == 0) {
		snprintf(reason, sizeof(reason), "read error: %s", what);
	} else {
		snprintf(reason, sizeof(reason), "read error: %s (member at byte %" PRIu64 ")",
		        what, in->member_at);
	}
	diag_set(err, in->name, 0, reason);
}

/* Consumes a run of NUL bytes; *only_zeros says whether the file ended
 * there. False with err set on a read error. */
static bool
skip_zeros(struct source *in, bool *only_zeros, struct diag *err)
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
next_member(struct source *in, bool *more, struct diag *err)
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
	diag_set(err, in->name, 0, reason);
	return false;
}

/* Inflates into dst; returns bytes produced (0 at the end) or -1. */
static ssize_t
gzip_read(struct source *in, char *dst, size_t cap, struct diag *err)
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

ssize_t
source_read(struct source *in, char *dst, size_t cap, struct diag *err)
{
	if (in->memory) {
		return 0;
	}
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

struct source *
source_open(const char *path, const struct read_progress *progress, struct diag *err)
{
	struct source *in = xcalloc(1, sizeof(*in));
	in->name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	in->progress = progress;
	in->work_floor = SOURCE_WORK_FLOOR;
	if (!open_input(in, path, in->name, err)) {
		free(in);
		return NULL;
	}
	return in;
}

struct source *
source_open_mem(const char *name)
{
	struct source *in = xcalloc(1, sizeof(*in));
	in->name = name;
	in->fd = -1;
	in->memory = true;
	in->work_floor = SOURCE_WORK_FLOOR;
	return in;
}

const char *
source_name(const struct source *in)
{
	return in->name;
}

size_t
source_peek(struct source *in, char *dst, size_t cap, bool *whole, struct diag *err)
{
	size_t have = 0;
	*whole = false;
	while (have < cap) {
		ssize_t n = source_read(in, dst + have, cap - have, err);
		if (n < 0) {
			return SIZE_MAX;
		}
		if (n == 0) {
			*whole = true;
			break;
		}
		have += (size_t)n;
	}
	return have;
}

bool
source_parse(struct source *src, const char *head, size_t head_len, source_parse_fn *parse,
        void *ctx, struct diag *err)
{
	struct buf b;
	buf_init(&b);
	buf_add(&b, head, head_len);
	bool ok = true;
	for (;;) {
		buf_reserve(&b, SOURCE_READ_SIZE);
		ssize_t n = source_read(src, b.data + b.len, SOURCE_READ_SIZE, err);
		if (n < 0) {
			ok = false;
			break;
		}
		buf_setlen(&b, b.len + (size_t)n);
		long long used = parse(ctx, b.data, b.len, n == 0);
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
	return ok;
}

void
source_set_budget(struct source *s, uint64_t floor, size_t head_len)
{
	s->work_floor = floor;
	if (s->memory) {
		s->mem_bytes = head_len;
	}
}

/* The file's bytes read so far, as on disk. */
static uint64_t
input_bytes(const struct source *s)
{
	return s->memory ? s->mem_bytes : s->raw_bytes;
}

/* The most frames a reader may walk for the bytes read so far. */
static uint64_t
work_limit(const struct source *s)
{
	uint64_t by_size = input_bytes(s) * SOURCE_WORK_PER_BYTE;
	return by_size > s->work_floor ? by_size : s->work_floor;
}

uint64_t
source_work_left(const struct source *s)
{
	uint64_t limit = work_limit(s);
	return s->work < limit ? limit - s->work : 0;
}

bool
source_spend(struct source *s, uint64_t frames, struct diag *err)
{
	s->work += frames;
	uint64_t limit = work_limit(s);
	if (s->work <= limit) {
		return true;
	}
	char why[256];
	snprintf(why, sizeof(why),
	        "reading it walks more than %" PRIu64 " frames (%u a byte of the file, at least "
	        "--max-work %" PRIu64 "): a hostile profile? raise --max-work if it is trusted",
	        limit, SOURCE_WORK_PER_BYTE, s->work_floor);
	diag_set(err, s->name, 0, why);
	return false;
}

bool
source_keep(struct source *s, uint64_t kept, struct diag *err)
{
	uint64_t by_size = input_bytes(s) * SOURCE_KEEP_PER_BYTE;
	uint64_t limit = by_size > SOURCE_KEEP_FLOOR ? by_size : SOURCE_KEEP_FLOOR;
	if (kept <= limit) {
		return true;
	}
	char why[256];
	snprintf(why, sizeof(why),
	        "its gzip data inflates to more than %" PRIu64 " bytes (%u times the file, at "
	        "least %" PRIu64 " MiB): a gzip bomb? gunzip it first if it is trusted",
	        limit, SOURCE_KEEP_PER_BYTE, SOURCE_KEEP_FLOOR >> 20);
	diag_set(err, s->name, 0, why);
	return false;
}
