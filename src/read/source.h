/*
 * source: the bytes of one input file or of standard input ("-"). Plain
 * files are read with read(2) straight into the caller's buffer; gzip
 * (recognised by its magic bytes, so pipes work too) is inflated from a
 * buffer of compressed bytes. Concatenated gzip members are read one after
 * another, as gzip does; anything after a member but NUL padding is an
 * error (gzip -t calls it trailing garbage), so a damaged file is never
 * read as a shorter profile. The readers (folded, callgrind) take a source
 * and the first bytes already read from it, which is how input.c can judge
 * a file's format by its content even on a pipe.
 */
#ifndef DIFFFOLD_SOURCE_H
#define DIFFFOLD_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "diag.h"

/*
 * Progress of a long read: fn gets the number of bytes just read from the
 * file (compressed bytes for gzip input, so they add up to its size).
 */
struct read_progress {
	void (*fn)(void *ctx, uint64_t bytes);
	void *ctx;
};

struct source;

/* NULL with err set when the file cannot be opened or is a directory. */
struct source *source_open(
        const char *path, const struct read_progress *progress, struct diag *err);
/*
 * A source with no content of its own, for bytes the caller already holds:
 * they are given to a reader as its head (tests, the fuzzer). name is kept,
 * not copied.
 */
struct source *source_open_mem(const char *name);
void source_close(struct source *s);
/* "<stdin>" for "-", else the path: the name messages use. */
const char *source_name(const struct source *s);
/* Reads up to cap bytes of content; returns 0 at the end, -1 with err set. */
ssize_t source_read(struct source *s, char *dst, size_t cap, struct diag *err);
/*
 * Reads until dst holds cap bytes or the file ends (*whole is then true).
 * Returns the count, or SIZE_MAX with err set.
 */
size_t source_peek(struct source *s, char *dst, size_t cap, bool *whole, struct diag *err);

/* How much a reader's parse gets at a time (plus what it left over). */
#define SOURCE_READ_SIZE ((size_t)128 << 10)

/*
 * Parses what it can of data: complete lines, and all of it when at_eof.
 * Returns the bytes consumed (the rest comes again with more after it), or
 * -1 with the reader's error set.
 */
typedef long long source_parse_fn(void *ctx, const char *data, size_t len, bool at_eof);

/*
 * The readers' loop: head (the bytes already read to judge the format),
 * then the rest of the source, handed to parse a chunk at a time. False on
 * a read error (err set) or when parse fails.
 */
bool source_parse(struct source *src, const char *head, size_t head_len, source_parse_fn *parse,
        void *ctx, struct diag *err);

#endif
