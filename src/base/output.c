#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "escape.h"
#include "xalloc.h"

/* ---------------------------------------------------------------- signals */

/* Termination signals a user or a supervisor sends as a matter of course. */
static const int caught[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGALRM, SIGUSR1, SIGUSR2};
#define CAUGHT_COUNT (sizeof(caught) / sizeof(caught[0]))

/*
 * Temporary files not yet renamed or removed. A fixed table of pointers to
 * paths built beforehand, so a signal handler can walk it without locks or
 * allocation; one output is live at a time, the rest is headroom.
 */
#define LIVE_MAX 16
static char *volatile live[LIVE_MAX];

void
out_remove_temps(void)
{
	for (size_t i = 0; i < LIVE_MAX; i++) {
		char *p = live[i];
		if (p) {
			unlink(p);
		}
	}
}

/* Blocks the caught signals while the table and the file disagree. */
static void
hold_signals(sigset_t *old)
{
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < CAUGHT_COUNT; i++) {
		sigaddset(&set, caught[i]);
	}
	sigprocmask(SIG_BLOCK, &set, old);
}

static void
release_signals(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

static void
set_live(char *old, char *new)
{
	for (size_t i = 0; i < LIVE_MAX; i++) {
		if (live[i] == old) {
			live[i] = new;
			return;
		}
	}
}

/* Removes the temporary files, then dies of sig as if never caught. */
static void
on_signal(int sig)
{
	out_remove_temps();
	signal(sig, SIG_DFL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig); /* not reached: the default action of sig ends us */
}

void
out_catch_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < CAUGHT_COUNT; i++) {
		sigaddset(&sa.sa_mask, caught[i]);
	}
	for (size_t i = 0; i < CAUGHT_COUNT; i++) {
		struct sigaction old;
		/* An ignored signal (nohup) stays ignored. */
		if (sigaction(caught[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN) {
			sigaction(caught[i], &sa, NULL);
		}
	}
}

void
out_guard_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) {
			continue;
		}
		/* The lowest free descriptor, which is fd as 0..fd-1 are open. */
		int got = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
		if (got >= 0 && got != fd) {
			dup2(got, fd);
			close(got);
		}
	}
}

/* ---------------------------------------------------------------- targets */

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

enum how {
	HOW_REPLACE, /* temporary file renamed over target */
	HOW_IN_PLACE, /* open target and write it */
	HOW_DUP, /* our own descriptor fd */
};

struct where {
	enum how how;
	int fd;
	bool exists;
	struct stat sb; /* of target when it exists */
	char *target;
};

/* Symbolic links followed before giving up, as the kernel's own limit. */
#define MAX_HOPS 40

/* The folder part of path, for realpath(3) and for the temporary file. */
static char *
dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash) {
		return xstrdup(".");
	}
	return xmemdup(path, slash == path ? 1 : (size_t)(slash - path));
}

static const char *
base_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static bool
has_prefix_dir(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/*
 * The descriptor N when real_dir/base is /proc/<our pid>/fd/N or a
 * thread's /proc/<our pid>/task/<tid>/fd/N (what /dev/fd, /proc/self/fd
 * and /proc/thread-self/fd resolve to); -1 otherwise.
 */
static int
own_fd(const char *real_dir, const char *base)
{
	char want[48];
	snprintf(want, sizeof(want), "/proc/%ld/", (long)getpid());
	size_t n = strlen(want);
	if (strncmp(real_dir, want, n) != 0) {
		return -1;
	}
	const char *rest = real_dir + n;
	if (strncmp(rest, "task/", 5) == 0) {
		char *end;
		(void)strtol(rest + 5, &end, 10);
		rest = end == rest + 5 ? "" : end + (*end == '/');
	}
	if (strcmp(rest, "fd") != 0 || base[0] < '0' || base[0] > '9') {
		return -1;
	}
	char *end;
	errno = 0;
	long v = strtol(base, &end, 10);
	return *end || errno || v > INT_MAX ? -1 : (int)v;
}

/* The next path of a symbolic link chain: its target, relative to its folder. */
static char *
follow(const char *path)
{
	char link[PATH_MAX];
	ssize_t n = readlink(path, link, sizeof(link) - 1);
	if (n < 0) {
		return NULL;
	}
	link[n] = '\0';
	if (link[0] == '/') {
		return xstrdup(link);
	}
	char *dir = dir_of(path);
	struct buf b;
	buf_init(&b);
	buf_printf(&b, "%s/%s", dir, link);
	free(dir);
	return buf_detach(&b, NULL);
}

/*
 * Decides how to write path (see output.h). Links are followed by hand,
 * one at a time, so that each step's folder can be checked: links in /dev
 * (/dev/stdout) are followed, the kernel's magic links in /proc never are.
 */
static bool
resolve(const char *path, struct where *w, struct diag *err)
{
	char *cur = xstrdup(path);
	for (int hops = 0;; hops++) {
		char *dir = dir_of(cur);
		char real[PATH_MAX];
		bool known = realpath(dir, real) != NULL;
		free(dir);
		w->fd = known ? own_fd(real, base_of(cur)) : -1;
		bool in_proc = known && has_prefix_dir(real, "/proc");
		w->exists = lstat(cur, &w->sb) == 0;
		if (w->fd >= 0) {
			w->how = HOW_DUP;
		} else if (w->exists && S_ISLNK(w->sb.st_mode) && !in_proc) {
			char *next = hops < MAX_HOPS ? follow(cur) : NULL;
			if (!next) {
				set_error(err, path, "cannot open output file",
				        hops < MAX_HOPS ? errno : ELOOP);
				free(cur);
				return false;
			}
			free(cur);
			cur = next;
			continue;
		} else if (in_proc || (w->exists && !S_ISREG(w->sb.st_mode))) {
			/* A regular file under /dev (/dev/shm/...) is replaced as
			 * anywhere else: in place, a failed write would cut it. */
			w->how = HOW_IN_PLACE;
		} else {
			w->how = HOW_REPLACE;
		}
		w->target = cur;
		return true;
	}
}

static bool
open_in_place(struct out *o, const struct where *w, struct diag *err)
{
	if (w->how == HOW_DUP) {
		o->fd = fcntl(w->fd, F_DUPFD_CLOEXEC, 3);
	} else if (w->exists && !S_ISREG(w->sb.st_mode)) {
		/* A device, FIFO or socket: no truncation, nothing created. */
		o->fd = open(w->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	} else {
		o->fd = open(w->target, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, 0666);
	}
	if (o->fd < 0) {
		set_error(err, o->path, "cannot open output file", errno);
		return false;
	}
	return true;
}

/* Gives the new file the old one's owner, group and mode, or the usual mode. */
static int
copy_mode(int fd, const struct where *w)
{
	if (!w->exists) {
		mode_t mask = umask(0);
		umask(mask);
		return fchmod(fd, 0666 & ~mask) == 0 ? 0 : errno;
	}
	if (w->sb.st_uid != geteuid() || w->sb.st_gid != getegid()) {
		/* Where permitted: root, or a group the user is in. The mode is
		 * set afterwards, as chown clears the set-id bits. */
		(void)!fchown(fd, w->sb.st_uid, (gid_t)-1);
		(void)!fchown(fd, (uid_t)-1, w->sb.st_gid);
	}
	return fchmod(fd, w->sb.st_mode & 07777) == 0 ? 0 : errno;
}

static bool
open_temp(struct out *o, struct where *w, struct diag *err)
{
	/* A file the user may not write is not replaced behind its back (cp). */
	if (w->exists && faccessat(AT_FDCWD, w->target, W_OK, AT_EACCESS) != 0 &&
	        (errno == EACCES || errno == EPERM)) {
		set_error(err, o->path, "cannot open output file", errno);
		return false;
	}
	/* The temporary file must be in the target's directory for rename(2). */
	const char *slash = strrchr(w->target, '/');
	size_t dir_len = slash ? (size_t)(slash - w->target) + 1 : 0;
	struct buf tmp;
	buf_init(&tmp);
	buf_add(&tmp, w->target, dir_len);
	buf_adds(&tmp, ".difffold-XXXXXX");
	char *tmp_path = buf_detach(&tmp, NULL);
	/*
	 * Listed before it exists, so no signal on any thread (pango's run
	 * beside ours) finds the file and not the entry; mkostemp completes
	 * the name before it creates the file. Unlisted only after it is gone.
	 * Running out of memory removes it too, through the allocator's hook.
	 */
	xalloc_set_oom_hook(out_remove_temps);
	sigset_t old;
	hold_signals(&old);
	set_live(NULL, tmp_path);
	o->fd = mkostemp(tmp_path, O_CLOEXEC);
	int code = errno;
	if (o->fd < 0) {
		set_live(tmp_path, NULL);
	}
	release_signals(&old);
	if (o->fd < 0) {
		set_error(err, o->path, "cannot create output file", code);
		free(tmp_path);
		return false;
	}
	o->tmp_path = tmp_path;
	o->target = w->target;
	w->target = NULL;
	o->error = copy_mode(o->fd, w);
	return true;
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
	struct where w;
	if (!resolve(path, &w, err)) {
		return false;
	}
	bool ok = w.how == HOW_REPLACE ? open_temp(o, &w, err) : open_in_place(o, &w, err);
	free(w.target);
	return ok;
}

void
out_set_limit(struct out *o, uint64_t bytes)
{
	o->limit = bytes;
}

bool
out_fits(struct out *o, uint64_t more)
{
	if (o->over) {
		return false;
	}
	if (o->fd < 0 || !o->limit) {
		return true;
	}
	uint64_t now = o->written + o->b.len;
	if (now + more >= now && now + more <= o->limit) {
		return true;
	}
	o->over = true;
	if (!o->error) {
		o->error = EFBIG;
	}
	buf_reset(&o->b);
	return false;
}

void
out_flush(struct out *o)
{
	if (!out_fits(o, 0)) {
		return;
	}
	o->written += o->b.len;
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

/* Unlinks (or, after a rename, forgets) the temporary file. */
static void
drop_temp(struct out *o, bool unlink_it)
{
	sigset_t old;
	hold_signals(&old);
	if (unlink_it) {
		unlink(o->tmp_path);
	}
	set_live(o->tmp_path, NULL);
	release_signals(&old);
	free(o->tmp_path);
	o->tmp_path = NULL;
	free(o->target);
	o->target = NULL;
}

static void
discard(struct out *o)
{
	if (o->path && o->fd >= 0) {
		close(o->fd); /* a temporary file, or a target written in place */
	}
	if (o->tmp_path) {
		drop_temp(o, true);
	}
	o->fd = -1;
	buf_finish(&o->b);
}

static bool
commit_in_place(struct out *o, bool *broken_pipe, struct diag *err)
{
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

/*
 * Puts the temporary file tmp at target; false with *code on failure.
 *
 * An existing target is exchanged with tmp (one atomic step, as rename)
 * and the old file, now at tmp, unlinked. A plain rename over an existing
 * file makes ext4 (auto_da_alloc) allocate and start writing the new data
 * inside the call: about 1 ms for a 1 MB graph, a sixth of the whole run,
 * for a guarantee about power cuts that difffold does not give anyway (it
 * never syncs). Where the exchange is refused (no target yet, a filesystem
 * without it), a plain rename.
 */
static bool
replace_target(const char *tmp, const char *target, int *code)
{
#ifdef RENAME_EXCHANGE
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, target, RENAME_EXCHANGE) == 0) {
		if (unlink(tmp) == 0) {
			return true;
		}
		/* The target turned into a directory since it was checked: put
		 * it back and fail, as rename(2) would have. */
		*code = errno;
		(void)renameat2(AT_FDCWD, tmp, AT_FDCWD, target, RENAME_EXCHANGE);
		return false;
	}
#endif
	if (rename(tmp, target) == 0) {
		return true;
	}
	*code = errno;
	return false;
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
		return commit_in_place(o, broken_pipe, err);
	}
	if (close(o->fd) != 0 && !o->error) {
		o->error = errno;
	}
	o->fd = -1;
	if (o->error) {
		set_error(err, o->path, "write error", o->error);
		discard(o);
		return false;
	}
	sigset_t old;
	hold_signals(&old);
	int code = 0;
	bool renamed = replace_target(o->tmp_path, o->target, &code);
	if (renamed) {
		set_live(o->tmp_path, NULL);
	}
	release_signals(&old);
	if (!renamed) {
		set_error(err, o->path, "write error", code);
		discard(o);
		return false;
	}
	drop_temp(o, false);
	buf_finish(&o->b);
	return true;
}

void
out_abort(struct out *o)
{
	discard(o);
}
