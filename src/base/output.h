/*
 * output: where a backend's bytes go. Backends append to `b` and call
 * out_maybe_flush now and then; the bytes reach a temporary file beside the
 * target, which out_commit renames into place, so an error never leaves a
 * truncated file. Standard output is written as it goes. With no target
 * (out_init_memory) everything stays in `b`, for tests and the fuzzer.
 *
 * What a target path names decides how it is written (out_open):
 *   - a symbolic link is followed to its final target, which is then
 *     treated as below (a dangling link creates the file it points to);
 *     the link itself is never replaced;
 *   - a regular file, or a path that does not exist yet, is written through
 *     a temporary file `.difffold-XXXXXX` in the same folder and renamed
 *     over it at commit; a file that is replaced keeps its mode (and owner
 *     and group where permitted), and a file the user may not write is
 *     refused, as cp(1) would;
 *   - /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N are our own
 *     descriptor N, written through a duplicate (no new open, no truncation);
 *   - a device, FIFO or socket, and anything in /proc, is opened and written
 *     in place: nothing there is ever created by rename. A regular file in
 *     /dev (/dev/shm) is replaced as anywhere else.
 *
 * Live temporary files are kept in a fixed table that a signal handler can
 * read: out_catch_signals removes them on the usual termination signals,
 * and out_remove_temps (async-signal-safe) does so for fatal paths; the
 * first temporary file registers it as the allocator's out-of-memory hook.
 */
#ifndef DIFFFOLD_OUTPUT_H
#define DIFFFOLD_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "buf.h"
#include "diag.h"

#define OUT_FLUSH_SIZE ((size_t)1 << 16)

struct out {
	struct buf b;
	int fd; /* -1: memory only */
	const char *path; /* as given, for messages; NULL for standard output */
	char *target; /* path the temporary file replaces (links resolved) */
	char *tmp_path; /* temporary file until committed */
	int error; /* first errno of a failed write, 0 if none */
	uint64_t limit; /* bytes the output may reach, 0: no limit (out_set_limit) */
	uint64_t written; /* bytes written so far */
	bool over; /* the limit was reached: error is EFBIG, nothing more is written */
};

/*
 * Opens /dev/null on each of descriptors 0, 1 and 2 that is closed, so that
 * no file opened later takes their place (a library's warnings would land in
 * an output file). The descriptor is opened for the other direction (0 for
 * writing, 1 and 2 for reading), so using it still fails with EBADF as it
 * did while closed: output to a closed standard output remains an error.
 */
void out_guard_std_fds(void);

/*
 * Installs handlers for SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGALRM, SIGUSR1
 * and SIGUSR2 (those not ignored) that remove the live temporary files and
 * then die of the same signal. SIGPIPE and SIGXFSZ are left to the caller
 * (main ignores both, so they arrive as EPIPE and EFBIG).
 */
void out_catch_signals(void);

/* Removes every live temporary file; async-signal-safe, for fatal paths. */
void out_remove_temps(void);

void out_init_memory(struct out *o);
/* path NULL means standard output. */
bool out_open(struct out *o, const char *path, struct diag *err);
void out_flush(struct out *o);
/*
 * A bound on the bytes written (0: none). Past it the output fails as a
 * full disk would (EFBIG, o->over set; out_commit removes the temporary
 * file) and writes nothing more; a backend that may write much stops at
 * o->error. Memory outputs are not bounded.
 */
void out_set_limit(struct out *o, uint64_t bytes);
/*
 * Whether `more` bytes beyond what was written and buffered stay within the
 * limit; if not, the output fails as above before writing them: a backend
 * that knows its size ahead refuses before its first byte.
 */
bool out_fits(struct out *o, uint64_t more);

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
 * the reader of a pipe written in place (standard output, a FIFO) went away,
 * which is not reported as an error: the caller decides.
 */
bool out_commit(struct out *o, bool *broken_pipe, struct diag *err);
/* Drops the output: removes the temporary file and frees memory. */
void out_abort(struct out *o);

#endif
