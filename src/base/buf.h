/*
 * buf: a growable byte buffer, always NUL-terminated, for everything built
 * piecewise (lines, labels, whole outputs). Embedded: buf_init/buf_finish.
 *
 * Invariants (those of git's strbuf): data is never NULL and data[len] is
 * always '\0', so data can be passed as a C string at any time. Until the
 * first growth (cap == 0) data points at the shared, read-only buf_empty;
 * nothing ever writes there, which is why every write below happens only
 * after a check that cap is large enough, and cap == 0 fails every check.
 */
#ifndef DIFFFOLD_BUF_H
#define DIFFFOLD_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct buf {
	char *data; /* NUL-terminated; never NULL (buf_empty until the first growth) */
	size_t len;
	size_t cap; /* bytes allocated at data; 0 while data is buf_empty */
};

/* The "" every empty buf points at; read-only, shared by all threads. */
extern const char buf_empty[1];

void buf_init(struct buf *b);
void buf_finish(struct buf *b); /* frees, and leaves an empty buf */
void buf_reset(struct buf *b); /* len = 0, memory kept */
/* Room for `extra` more bytes and the NUL. */
void buf_reserve(struct buf *b, size_t extra);
void buf_setlen_slow(struct buf *b, size_t len);

/*
 * Sets the length to len, which must lie within the memory already
 * reserved (len < cap, or 0), and restores the NUL after it: for cutting
 * back, or for taking in bytes written into reserved room. Out of range is
 * a bug and aborts.
 */
static inline void
buf_setlen(struct buf *b, size_t len)
{
	if (len >= b->cap) {
		buf_setlen_slow(b, len); /* an empty buf, or a bug */
		return;
	}
	b->len = len;
	b->data[len] = '\0';
}

/*
 * The appends are inline: writers make millions of short ones, and with a
 * literal the length and the copy are known at compile time.
 */
static inline void
buf_add(struct buf *b, const void *data, size_t len)
{
	if (b->len + len >= b->cap) {
		buf_reserve(b, len);
	}
	if (len) {
		memcpy(b->data + b->len, data, len);
	}
	b->len += len;
	b->data[b->len] = '\0';
}

static inline void
buf_addc(struct buf *b, char c)
{
	if (b->len + 2 > b->cap) {
		buf_reserve(b, 1);
	}
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
}

static inline void
buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void buf_add_u64(struct buf *b, uint64_t v);
/* The most digits of a uint64_t. */
#define BUF_U64_CHARS 20
/*
 * Writes v's digits at p, which has room for BUF_U64_CHARS (no NUL), and
 * returns their end: for writers that reserve once for several parts.
 */
char *buf_put_u64(char *p, uint64_t v);
/* Appends v with `digits` after the point, trailing zeros and point trimmed. */
void buf_add_double(struct buf *b, double v, int digits);
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(struct buf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* Hands the data to the caller (who frees it) and resets the buffer. */
char *buf_detach(struct buf *b, size_t *len);

#endif
