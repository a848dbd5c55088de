/*
 * output: where a backend's bytes go. Backends append to `b` and call
 * out_maybe_flush now and then; the bytes reach a temporary file beside the
 * target, which out_commit renames into place, so an error never leaves a
 * truncated file. Standard output is written as it goes. With no target
 * (out_init_memory) everything stays in `b`, for tests and the fuzzer.
 */
#ifndef DIFFFOLD_OUTPUT_H
#define DIFFFOLD_OUTPUT_H

#include <stdbool.h>

#include "buf.h"
#include "diag.h"

#define OUT_FLUSH_SIZE ((size_t)1 << 16)

struct out {
	struct buf b;
	int fd; /* -1: memory only */
	const char *path; /* target, NULL for standard output */
	char *tmp_path; /* temporary file until committed */
	int error; /* first errno of a failed write, 0 if none */
};

void out_init_memory(struct out *o);
/* path NULL means standard output. */
bool out_open(struct out *o, const char *path, struct diag *err);
void out_flush(struct out *o);

static inline void
out_maybe_flush(struct out *o)
{
	if (o->fd >= 0 && o->b.len >= OUT_FLUSH_SIZE) {
		out_flush(o);
	}
}

/*
 * Finishes the output: flushes, closes and renames into place. Returns false
 * with err set on failure (nothing is left behind). *broken_pipe is set when
 * standard output's reader went away, which is not reported as an error.
 */
bool out_commit(struct out *o, bool *broken_pipe, struct diag *err);
/* Drops the output: removes the temporary file and frees memory. */
void out_abort(struct out *o);

#endif
