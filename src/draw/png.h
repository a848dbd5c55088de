/*
 * png: bitmap (PNG) and PDF output of a layout through cairo and pango,
 * in the font pinned by fonts/difffold-fonts.conf; the labels are
 * layout_label's, as in the SVG. Returns false with a diagnostic on any cairo
 * failure; never writes a blank image silently.
 */
#ifndef DIFFFOLD_PNG_H
#define DIFFFOLD_PNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "layout.h"
#include "output.h"

/*
 * For tests: when set, called with every frame label as it is drawn (the
 * tree node and the label's bytes), so a test can compare them with the SVG.
 */
typedef void png_label_probe_fn(void *ctx, uint32_t node, const char *label, size_t len);
extern png_label_probe_fn *png_label_probe;
extern void *png_label_probe_ctx;

bool png_write(struct out *o, const struct layout *l, struct diag *err);
bool png_write_pdf(struct out *o, const struct layout *l, struct diag *err);

#endif
