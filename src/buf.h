/*
 * buf: a growable byte buffer, always NUL-terminated, for everything built
 * piecewise (lines, labels, whole outputs). Embedded: buf_init/buf_finish.
 */
#ifndef DIFFFOLD_BUF_H
#define DIFFFOLD_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct buf {
	char *data; /* NUL-terminated; NULL until the first append */
	size_t len;
	size_t cap;
};

void buf_init(struct buf *b);
void buf_finish(struct buf *b);
void buf_reset(struct buf *b); /* len = 0, memory kept */
/* Room for `extra` more bytes and the NUL. */
void buf_reserve(struct buf *b, size_t extra);

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
/* Appends v with `digits` after the point, trailing zeros and point trimmed. */
void buf_add_double(struct buf *b, double v, int digits);
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(struct buf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* Hands the data to the caller (who frees it) and resets the buffer. */
char *buf_detach(struct buf *b, size_t *len);

#endif
