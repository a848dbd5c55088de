#include "render.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"

/* Defined by src/meson.build; these defaults only serve a build without it. */
#ifndef DIFFFOLD_RENDER_MODULE_BUILD
#define DIFFFOLD_RENDER_MODULE_BUILD ""
#endif
#ifndef DIFFFOLD_RENDER_MODULE_RELATIVE
#define DIFFFOLD_RENDER_MODULE_RELATIVE "../lib/difffold/difffold-render.so"
#endif
#ifndef DIFFFOLD_RENDER_MODULE_INSTALLED
#define DIFFFOLD_RENDER_MODULE_INSTALLED "/usr/local/lib/difffold/difffold-render.so"
#endif
#ifndef DIFFFOLD_BUILD_ROOT
#define DIFFFOLD_BUILD_ROOT ""
#endif

#define RENDER_MODULE_NAME "difffold-render.so"

typedef bool write_fn(struct out *o, const struct layout *l, struct diag *err);

struct module {
	bool tried;
	void *handle;
	write_fn *png;
	write_fn *pdf;
	char why[900]; /* the reason loading failed, for every later call too */
};

static struct module module;

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

/*
 * The module named by $DIFFFOLD_RENDER_MODULE (alone, when set), or else
 * the one beside the binary that runs, in this order: the build tree's
 * when the binary runs from the build tree; the installed one relative to
 * the binary (a relocated prefix or a DESTDIR bundle); the one at the
 * configured prefix; the build tree's (a binary copied elsewhere). The same
 * order as the font configuration (png.c), so a relocated installation
 * uses its own module and fonts. Gives the first that exists, or "".
 */
static void
find_module(struct buf *found)
{
	const char *env = getenv("DIFFFOLD_RENDER_MODULE");
	if (env && *env) {
		/* dlopen searches the library path for a name without a slash. */
		if (!strchr(env, '/')) {
			buf_adds(found, "./");
		}
		buf_adds(found, env);
		return;
	}
	struct buf dir, rel;
	buf_init(&dir);
	buf_init(&rel);
	exe_dir(&dir);
	const char *root = DIFFFOLD_BUILD_ROOT;
	size_t root_len = strlen(root);
	bool in_build = root_len > 0 && dir.len > root_len &&
	                memcmp(dir.data, root, root_len) == 0 && dir.data[root_len] == '/';
	static const char relative[] = DIFFFOLD_RENDER_MODULE_RELATIVE;
	/* Empty when bindir or libdir is absolute: no relocation then. */
	if (dir.len > 0 && relative[0] != '\0') {
		buf_add(&rel, dir.data, dir.len);
		buf_adds(&rel, relative);
	}
	const char *order[] = {
	        in_build ? DIFFFOLD_RENDER_MODULE_BUILD : "",
	        rel.data,
	        DIFFFOLD_RENDER_MODULE_INSTALLED,
	        DIFFFOLD_RENDER_MODULE_BUILD,
	};
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (order[i][0] != '\0' && access(order[i], R_OK) == 0) {
			buf_adds(found, order[i]);
			break;
		}
	}
	buf_finish(&dir);
	buf_finish(&rel);
}

static bool
load(struct diag *err)
{
	if (!module.tried) {
		module.tried = true;
		struct buf path;
		buf_init(&path);
		find_module(&path);
		if (path.len == 0) {
			snprintf(module.why, sizeof(module.why),
			        "PNG/PDF output needs difffold's drawing module %s, which is not "
			        "installed (looked beside the binary and in %s); set "
			        "DIFFFOLD_RENDER_MODULE to its path",
			        RENDER_MODULE_NAME, DIFFFOLD_RENDER_MODULE_INSTALLED);
		} else if (!(module.handle = dlopen(path.data, RTLD_NOW | RTLD_LOCAL))) {
			snprintf(module.why, sizeof(module.why),
			        "PNG/PDF output needs difffold's drawing module, which cannot be "
			        "loaded: %s",
			        dlerror());
		} else {
			/* POSIX's blessed way to turn dlsym's object pointer into a function
			 * pointer. */
			*(void **)&module.png = dlsym(module.handle, "png_write");
			*(void **)&module.pdf = dlsym(module.handle, "png_write_pdf");
			if (!module.png || !module.pdf) {
				snprintf(module.why, sizeof(module.why),
				        "%s: not difffold's drawing module (no png_write)",
				        path.data);
			}
		}
		buf_finish(&path);
	}
	if (!module.png || !module.pdf) {
		snprintf(err->msg, sizeof(err->msg), "%s", module.why);
		return false;
	}
	return true;
}

bool
render_png(struct out *o, const struct layout *l, struct diag *err)
{
	return load(err) && module.png(o, l, err);
}

bool
render_pdf(struct out *o, const struct layout *l, struct diag *err)
{
	return load(err) && module.pdf(o, l, err);
}
