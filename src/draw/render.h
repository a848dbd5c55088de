/*
 * render: PNG and PDF output through difffold's drawing module, a shared
 * library (difffold-render.so, src/draw/png.c and what it needs) that brings
 * cairo, pango, glib, fontconfig and freetype. The module is loaded with
 * dlopen on the first PNG or PDF output, so every other run starts without
 * binding those forty-odd libraries. It is looked for beside the running
 * binary, in the build tree or in <libdir>/difffold of the installation
 * (also a relocated one); a missing or broken module is a diagnostic, like
 * any failure of png_write.
 */
#ifndef DIFFFOLD_RENDER_H
#define DIFFFOLD_RENDER_H

#include <stdbool.h>

#include "diag.h"
#include "layout.h"
#include "output.h"

/* png_write and png_write_pdf, through the module. */
bool render_png(struct out *o, const struct layout *l, struct diag *err);
bool render_pdf(struct out *o, const struct layout *l, struct diag *err);

#endif
