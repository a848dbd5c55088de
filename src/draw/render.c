#include "render.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "locate.h"

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

/*
 * The module named by $DIFFFOLD_RENDER_MODULE (alone, when set), or else
 * the one beside the binary (locate.h), in the order the font
 * configuration is looked for (png.c), so a relocated installation uses its
 * own module and fonts. Gives the first that exists, or "".
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
	char *path = locate_file(DIFFFOLD_RENDER_MODULE_BUILD, DIFFFOLD_RENDER_MODULE_RELATIVE,
	        DIFFFOLD_RENDER_MODULE_INSTALLED);
	if (path) {
		buf_adds(found, path);
		free(path);
	}
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
