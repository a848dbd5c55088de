#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "escape.h"
#include "xalloc.h"

void
out_init_memory(struct out *o)
{
	memset(o, 0, sizeof(*o));
	buf_init(&o->b);
	o->fd = -1;
}

static void
set_error(struct diag *err, const char *path, const char *what, int code)
{
	/* snprintf only writes err->msg; cppcheck's whole-program check takes
	 * the caller's uninitialised struct diag for a read. */
	/* cppcheck-suppress ctuuninitvar */
	struct buf shown; /* no terminal escape or forged line from a file name */
	buf_init(&shown);
	buf_add(&shown, "", 0);
	if (path) {
		escape_diag(&shown, path, strlen(path));
	} else {
		buf_adds(&shown, "<stdout>");
	}
	snprintf(err->msg, sizeof(err->msg), "%s: %s: %s", shown.data, what, strerror(code));
	buf_finish(&shown);
}

bool
out_open(struct out *o, const char *path, struct diag *err)
{
	out_init_memory(o);
	o->path = path;
	if (!path) {
		o->fd = STDOUT_FILENO;
		return true;
	}
	/*
	 * A target that exists but is not a regular file (/dev/stdout,
	 * /dev/full, a FIFO) is written in place like standard output: renaming
	 * a temporary file over it would replace the device node itself.
	 */
	struct stat sb;
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		o->fd = open(path, O_WRONLY | O_CLOEXEC);
		if (o->fd < 0) {
			set_error(err, path, "cannot open output file", errno);
			return false;
		}
		return true;
	}
	/* The temporary file must be in the target's directory for rename(2). */
	const char *slash = strrchr(path, '/');
	size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
	struct buf tmp;
	buf_init(&tmp);
	buf_add(&tmp, path, dir_len);
	buf_adds(&tmp, ".difffold-XXXXXX");
	o->tmp_path = buf_detach(&tmp, NULL);
	o->fd = mkostemp(o->tmp_path, O_CLOEXEC);
	if (o->fd < 0) {
		set_error(err, path, "cannot create output file", errno);
		free(o->tmp_path);
		o->tmp_path = NULL;
		return false;
	}
	/* mkstemp creates 0600; give the file the usual permissions. */
	mode_t mask = umask(0);
	umask(mask);
	if (fchmod(o->fd, 0666 & ~mask) != 0) {
		o->error = errno;
	}
	return true;
}

void
out_flush(struct out *o)
{
	size_t done = 0;
	while (o->fd >= 0 && done < o->b.len && !o->error) {
		ssize_t n = write(o->fd, o->b.data + done, o->b.len - done);
		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			o->error = errno;
			break;
		}
		done += (size_t)n;
	}
	buf_reset(&o->b);
}

static void
discard(struct out *o)
{
	if (o->tmp_path) {
		if (o->fd >= 0) {
			close(o->fd);
		}
		unlink(o->tmp_path);
		free(o->tmp_path);
		o->tmp_path = NULL;
	} else if (o->path && o->fd >= 0) {
		close(o->fd); /* a device or FIFO written in place */
	}
	o->fd = -1;
	buf_finish(&o->b);
}

bool
out_commit(struct out *o, bool *broken_pipe, struct diag *err)
{
	*broken_pipe = false;
	if (o->fd < 0) {
		return true; /* memory: the caller owns b */
	}
	out_flush(o);
	if (!o->tmp_path) {
		if (o->path && close(o->fd) != 0 && !o->error) {
			o->error = errno;
		}
		o->fd = -1;
		buf_finish(&o->b);
		if (o->error == EPIPE) {
			*broken_pipe = true;
			return true;
		}
		if (o->error) {
			set_error(err, o->path, "write error", o->error);
			return false;
		}
		return true;
	}
	if (close(o->fd) != 0 && !o->error) {
		o->error = errno;
	}
	o->fd = -1;
	if (!o->error && rename(o->tmp_path, o->path) != 0) {
		o->error = errno;
	}
	if (o->error) {
		set_error(err, o->path, "write error", o->error);
		discard(o);
		return false;
	}
	free(o->tmp_path);
	o->tmp_path = NULL;
	buf_finish(&o->b);
	return true;
}

void
out_abort(struct out *o)
{
	discard(o);
}
