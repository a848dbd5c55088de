/*
 * png: bitmap (PNG) and PDF output of a layout through cairo and pango,
 * with labels measured and ellipsised by pango in the font pinned by
 * fonts/difffold-fonts.conf. Returns false with a diagnostic on any cairo
 * failure; never writes a blank image silently.
 */
#ifndef DIFFFOLD_PNG_H
#define DIFFFOLD_PNG_H

#include <stdbool.h>

#include "diag.h"
#include "layout.h"
#include "output.h"

bool png_write(struct out *o, const struct layout *l, struct diag *err);
bool png_write_pdf(struct out *o, const struct layout *l, struct diag *err);

#endif
