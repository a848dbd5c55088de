/* output: atomic file writes, aborts that leave nothing, clean failures. */
#include "output.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "xalloc.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

static char *
make_dir(void)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	struct buf b;
	buf_init(&b);
	buf_printf(&b, "%s/difffold-out-XXXXXX", tmp);
	char *dir = buf_detach(&b, NULL);
	assert_non_null(mkdtemp(dir));
	return dir;
}

static char *
join(const char *dir, const char *name)
{
	struct buf b;
	buf_init(&b);
	buf_printf(&b, "%s/%s", dir, name);
	return buf_detach(&b, NULL);
}

/* Entries of dir other than . and .. */
static int
count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	int n = 0;
	for (struct dirent *e; (e = readdir(d)) != NULL;) {
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	}
	closedir(d);
	return n;
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	struct buf b;
	buf_init(&b);
	char tmp[4096];
	size_t n;
	while ((n = fread(tmp, 1, sizeof(tmp), f)) > 0) {
		buf_add(&b, tmp, n);
	}
	fclose(f);
	return buf_detach(&b, len);
}

/* Creates (or truncates) path holding text. */
static void
put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* Fails the test unless path holds exactly text. */
static void
expect_file(const char *path, const char *text)
{
	size_t len;
	char *got = slurp(path, &len);
	assert_int_equal(len, strlen(text));
	assert_string_equal(got, text);
	free(got);
}

/* Removes path (when it exists) and then dir, which must be left empty. */
static void
remove_both(char *dir, char *path)
{
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
	free(path);
	free(dir);
}

/* Removes file, then the directory sub holding it, then dir. */
static void
remove_nested(char *dir, char *sub, char *file)
{
	unlink(file);
	rmdir(sub);
	rmdir(dir);
	free(file);
	free(sub);
	free(dir);
}

/* A new directory (*dir) holding *path = name with text in it, opened as o. */
static void
open_over(char **dir, char **path, const char *name, const char *text, struct out *o)
{
	struct diag err;
	*dir = make_dir();
	*path = join(*dir, name);
	put_file(*path, text);
	assert_true(out_open(o, *path, &err));
}

static void
test_commit(void **state)
{
	(void)state;
	char *dir = make_dir();
	char *path = join(dir, "out.folded");
	struct out o;
	struct diag err;
	assert_true(out_open(&o, path, &err));
	/* Nothing at the target until the commit. */
	assert_int_equal(access(path, F_OK), -1);
	buf_adds(&o.b, "hello ");
	out_flush(&o);
	buf_add(&o.b, "wor\0ld\n", 7);
	bool broken = true;
	assert_true(out_commit(&o, &broken, &err));
	assert_false(broken);
	size_t len;
	char *got = slurp(path, &len);
	assert_int_equal(len, 13);
	assert_memory_equal(got, "hello wor\0ld\n", 13);
	free(got);
	assert_int_equal(count_entries(dir), 1); /* no temporary file left */
	/* Usual permissions, not mkstemp's 0600. */
	struct stat sb;
	assert_int_equal(stat(path, &sb), 0);
	mode_t mask = umask(0);
	umask(mask);
	assert_int_equal(sb.st_mode & 0777, 0666 & ~mask);
	remove_both(dir, path);
}

static void
test_replace_large(void **state)
{
	(void)state;
	char *dir, *path;
	struct out o;
	struct diag err;
	open_over(&dir, &path, "out.json", "old contents", &o);
	size_t total = 0;
	for (int i = 0; i < 20000; i++) {
		buf_printf(&o.b, "line %d of many\n", i);
		total = total + (size_t)snprintf(NULL, 0, "line %d of many\n", i);
		out_maybe_flush(&o);
		assert_true(o.b.len < OUT_FLUSH_SIZE + 64);
	}
	/* The old file stays whole while the new one is written. */
	expect_file(path, "old contents");
	bool broken;
	assert_true(out_commit(&o, &broken, &err));
	size_t len;
	char *got = slurp(path, &len);
	assert_int_equal(len, total);
	assert_true(strncmp(got, "line 0 of many\nline 1 of", 24) == 0);
	assert_string_equal(got + len - 19, "line 19999 of many\n");
	free(got);
	assert_int_equal(count_entries(dir), 1);
	remove_both(dir, path);
}

static void
test_abort(void **state)
{
	(void)state;
	char *dir = make_dir();
	char *path = join(dir, "out.svg");
	struct out o;
	struct diag err;
	assert_true(out_open(&o, path, &err));
	buf_adds(&o.b, "partial");
	out_flush(&o);
	assert_int_equal(count_entries(dir), 1); /* the temporary file */
	out_abort(&o);
	assert_int_equal(count_entries(dir), 0);
	assert_int_equal(access(path, F_OK), -1);
	/* An existing file survives an aborted replacement. */
	put_file(path, "keep");
	assert_true(out_open(&o, path, &err));
	buf_adds(&o.b, "new");
	out_flush(&o);
	out_abort(&o);
	expect_file(path, "keep");
	assert_int_equal(count_entries(dir), 1);
	remove_both(dir, path);
}

static void
test_missing_dir(void **state)
{
	(void)state;
	char *dir = make_dir();
	char *path = join(dir, "no/such/dir/out.folded");
	struct out o;
	struct diag err;
	assert_false(out_open(&o, path, &err));
	struct buf want;
	buf_init(&want);
	buf_printf(&want, "%s: cannot create output file: %s", path, strerror(ENOENT));
	assert_string_equal(err.msg, want.data);
	buf_finish(&want);
	assert_int_equal(count_entries(dir), 0);
	remove_both(dir, path);
}

static void
test_target_is_dir(void **state)
{
	(void)state;
	/* A directory is never replaced: a clean error, nothing left behind. */
	char *dir = make_dir();
	char *path = join(dir, "sub");
	assert_int_equal(mkdir(path, 0700), 0);
	char *file = join(path, "x");
	put_file(file, "");
	struct out o;
	struct diag err;
	bool ok = out_open(&o, path, &err);
	if (ok) {
		buf_adds(&o.b, "data");
		bool broken;
		ok = out_commit(&o, &broken, &err);
	}
	assert_false(ok);
	assert_true(strncmp(err.msg, path, strlen(path)) == 0);
	assert_non_null(strstr(err.msg, strerror(EISDIR)));
	assert_int_equal(count_entries(dir), 1);
	assert_int_equal(count_entries(path), 1);
	remove_nested(dir, path, file);
}

/*
 * A file target that becomes a directory while the output is written: the
 * commit fails as rename(2) would (the replacement exchanges the two names
 * first, so it must put the directory back), nothing else changes.
 */
static void
test_target_becomes_dir(void **state)
{
	(void)state;
	char *dir, *path;
	struct out o;
	struct diag err;
	open_over(&dir, &path, "out.svg", "old", &o);
	buf_adds(&o.b, "new");
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0700), 0);
	char *file = join(path, "x");
	put_file(file, "kept");
	bool broken;
	assert_false(out_commit(&o, &broken, &err));
	assert_true(strncmp(err.msg, path, strlen(path)) == 0);
	struct stat sb;
	assert_int_equal(stat(path, &sb), 0);
	assert_true(S_ISDIR(sb.st_mode));
	expect_file(file, "kept");
	assert_int_equal(count_entries(dir), 1); /* no temporary file left */
	remove_nested(dir, path, file);
}

static void
test_relative_and_memory(void **state)
{
	(void)state;
	char *dir = make_dir();
	char cwd[4096];
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	struct out o;
	struct diag err;
	assert_true(out_open(&o, "plain.txt", &err)); /* no directory part */
	buf_adds(&o.b, "x\n");
	bool broken;
	assert_true(out_commit(&o, &broken, &err));
	assert_int_equal(access("plain.txt", F_OK), 0);
	unlink("plain.txt");
	assert_int_equal(chdir(cwd), 0);
	rmdir(dir);
	free(dir);
	/* Memory outputs keep their bytes for the caller. */
	out_init_memory(&o);
	buf_adds(&o.b, "kept");
	out_maybe_flush(&o);
	assert_true(out_commit(&o, &broken, &err));
	assert_string_equal(o.b.data, "kept");
	buf_finish(&o.b);
}

/* Writes one line through out_open/out_commit; true on success. */
static bool
write_line(const char *path, const char *line)
{
	struct out o;
	struct diag err;
	if (!out_open(&o, path, &err)) {
		return false;
	}
	buf_adds(&o.b, line);
	bool broken;
	return out_commit(&o, &broken, &err);
}

/* A link chain is followed: the final file is replaced, every link stays. */
static void
test_through_links(void **state)
{
	(void)state;
	char *dir = make_dir();
	char *real = join(dir, "real.txt");
	char *l1 = join(dir, "l1");
	char *l2 = join(dir, "l2");
	char *dangling = join(dir, "dangling");
	char *created = join(dir, "created.txt");
	assert_true(write_line(real, "old\n"));
	assert_int_equal(chmod(real, 0600), 0);
	assert_int_equal(symlink("real.txt", l1), 0); /* relative to its folder */
	assert_int_equal(symlink(l1, l2), 0);
	assert_int_equal(symlink("created.txt", dangling), 0);
	assert_true(write_line(l2, "new\n"));
	assert_true(write_line(dangling, "made\n"));
	struct stat sb;
	assert_int_equal(lstat(l1, &sb), 0);
	assert_true(S_ISLNK(sb.st_mode));
	assert_int_equal(lstat(l2, &sb), 0);
	assert_true(S_ISLNK(sb.st_mode));
	assert_int_equal(lstat(dangling, &sb), 0);
	assert_true(S_ISLNK(sb.st_mode));
	assert_int_equal(stat(real, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0600); /* the mode of the file replaced */
	size_t len;
	char *got = slurp(real, &len);
	assert_string_equal(got, "new\n");
	free(got);
	got = slurp(created, &len);
	assert_string_equal(got, "made\n");
	free(got);
	assert_int_equal(count_entries(dir), 5); /* no temporary file */
	const char *all[] = {l1, l2, dangling, real, created};
	for (size_t i = 0; i < 5; i++) {
		unlink(all[i]);
		free((void *)all[i]);
	}
	rmdir(dir);
	free(dir);
}

/* A link loop is an error, not a hang, and leaves nothing. */
static void
test_link_loop(void **state)
{
	(void)state;
	char *dir = make_dir();
	char *a = join(dir, "a");
	char *b = join(dir, "b");
	assert_int_equal(symlink("b", a), 0);
	assert_int_equal(symlink("a", b), 0);
	struct out o;
	struct diag err;
	assert_false(out_open(&o, a, &err));
	assert_non_null(strstr(err.msg, "Too many levels of symbolic links"));
	assert_int_equal(count_entries(dir), 2);
	unlink(a);
	unlink(b);
	rmdir(dir);
	free(a);
	free(b);
	free(dir);
}

/* The child's status after running fn in a fork with a temporary file live. */
static int
in_child(const char *path, void (*fn)(void))
{
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* difffold keeps a signal its parent ignored (nohup, a background
		 * job): the test wants the default dispositions whoever ran it. */
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		out_catch_signals();
		struct out o;
		struct diag err;
		if (!out_open(&o, path, &err)) {
			_exit(99);
		}
		buf_adds(&o.b, "partial");
		out_flush(&o);
		fn();
		_exit(98);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static void
raise_term(void)
{
	raise(SIGTERM);
}

static void
raise_hup(void)
{
	raise(SIGHUP);
}

/* A caught signal removes the temporary file and still kills with it. */
static void
test_signal_cleans_up(void **state)
{
	(void)state;
	char *dir = make_dir();
	char *path = join(dir, "out.svg");
	int status = in_child(path, raise_term);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGTERM);
	status = in_child(path, raise_hup);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGHUP);
	assert_int_equal(count_entries(dir), 0);
	rmdir(dir);
	free(path);
	free(dir);
}

static void
exhaust_memory(void)
{
	/* More than any address space: malloc fails at once. */
	(void)xmalloc(SIZE_MAX / 2);
}

/* Running out of memory exits 1 and leaves no temporary file. */
static void
test_oom_cleans_up(void **state)
{
	(void)state;
#ifdef UNDER_ASAN
	skip(); /* the sanitizer's allocator dies on a huge request itself */
#endif
	char *dir = make_dir();
	char *path = join(dir, "out.svg");
	int status = in_child(path, exhaust_memory);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 1);
	assert_int_equal(count_entries(dir), 0);
	rmdir(dir);
	free(path);
	free(dir);
}

/* A closed standard descriptor is filled, yet still fails as if closed. */
static void
test_guard_std_fds(void **state)
{
	(void)state;
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(STDOUT_FILENO);
		out_guard_std_fds();
		int fd = open("/dev/null", O_RDONLY);
		bool taken = fcntl(STDOUT_FILENO, F_GETFD) != -1 && fd > STDERR_FILENO;
		bool fails = write(STDOUT_FILENO, "x", 1) < 0 && errno == EBADF;
		_exit(taken && fails ? 0 : 1);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_commit),
	        cmocka_unit_test(test_replace_large),
	        cmocka_unit_test(test_abort),
	        cmocka_unit_test(test_missing_dir),
	        cmocka_unit_test(test_target_is_dir),
	        cmocka_unit_test(test_target_becomes_dir),
	        cmocka_unit_test(test_relative_and_memory),
	        cmocka_unit_test(test_through_links),
	        cmocka_unit_test(test_link_loop),
	        cmocka_unit_test(test_signal_cleans_up),
	        cmocka_unit_test(test_oom_cleans_up),
	        cmocka_unit_test(test_guard_std_fds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
