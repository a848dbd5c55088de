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

/*
 * What reading a file may cost, in proportion to its size: a few bytes of
 * a profile can name a stack many times (pprof's inlined lines, a
 * callgrind call graph's diamonds, a JSON stack table), so the frames a
 * reader walks and the inflated bytes it keeps are bounded by the bytes
 * of the file (compressed, as on disk), with a floor for small files.
 */
#define SOURCE_WORK_PER_BYTE 64u
#define SOURCE_WORK_FLOOR ((uint64_t)4000000) /* --max-work's default */
#define SOURCE_KEEP_PER_BYTE 64u
#define SOURCE_KEEP_FLOOR ((uint64_t)64 << 20)

/*
 * The floor of the frames a reader may walk (--max-work), and the bytes a
 * reader is given as head_len, which are the whole file of
 * source_open_mem's sources.
 */
void source_set_budget(struct source *s, uint64_t floor, size_t head_len);
/*
 * Counts frames a reader walks for this file: false, with err naming the
 * bound and --max-work, past max(floor, SOURCE_WORK_PER_BYTE per byte
 * read so far).
 */
bool source_spend(struct source *s, uint64_t frames, struct diag *err);
/* How many more frames source_spend allows now. */
uint64_t source_work_left(const struct source *s);
/*
 * For a reader that keeps what it reads (pprof): false, with err naming
 * the bound, when `kept` bytes of content are more than
 * max(SOURCE_KEEP_FLOOR, SOURCE_KEEP_PER_BYTE per byte read): a gzip bomb.
 */
bool source_keep(struct source *s, uint64_t kept, struct diag *err);

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
