#include "locate.h"

#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "xalloc.h"

#ifndef DIFFFOLD_BUILD_ROOT
#define DIFFFOLD_BUILD_ROOT ""
#endif

/* Folder of the running binary with a trailing '/', or empty. */
static void
exe_dir(struct buf *out)
{
	char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	if (n <= 0) {
		return;
	}
	path[n] = '\0';
	char *slash = strrchr(path, '/');
	if (slash) {
		buf_add(out, path, (size_t)(slash - path) + 1);
	}
}

static bool
readable(const char *path)
{
	return path && *path && access(path, R_OK) == 0;
}

char *
locate_file(const char *build, const char *relative, const char *installed)
{
	struct buf dir, rel;
	buf_init(&dir);
	buf_init(&rel);
	exe_dir(&dir);
	const char *root = DIFFFOLD_BUILD_ROOT;
	size_t root_len = strlen(root);
	bool in_build = root_len > 0 && dir.len > root_len &&
	                memcmp(dir.data, root, root_len) == 0 && dir.data[root_len] == '/';
	if (dir.len > 0 && relative[0] != '\0') {
		buf_add(&rel, dir.data, dir.len);
		buf_adds(&rel, relative);
	}
	const char *order[] = {in_build ? build : NULL, rel.data, installed, build};
	char *found = NULL;
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]) && !found; i++) {
		if (readable(order[i])) {
			found = xstrdup(order[i]);
		}
	}
	buf_finish(&dir);
	buf_finish(&rel);
	return found;
}
