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
 * The fonts of a PNG or PDF of layout l (which must outlive them), in
 * difffold's own fontconfig: png_write and png_write_pdf open them, aim
 * them at the surface they draw on, and fit every frame's label with
 * them, so what a frame shows is png_fonts_fit_label's answer. NULL, with
 * err set, when the font is missing.
 */
struct png_fonts;
/* cairo.h's own declaration, so that this header needs no cairo include path.
 * NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp) */
typedef struct _cairo cairo_t;
struct png_fonts *png_fonts_open(const struct layout *l, struct diag *err);
void png_fonts_close(struct png_fonts *f);
/* Measures the font again as drawn on cr (its scale and font options). */
void png_fonts_target(struct png_fonts *f, cairo_t *cr);
/*
 * The label of box as drawn, in label (reset first): layout_label's, fitted
 * to the font's measured advance. False when no label fits the frame.
 */
bool png_fonts_fit_label(struct png_fonts *f, const struct layout_box *box, struct buf *label);

bool png_write(struct out *o, const struct layout *l, struct diag *err);
bool png_write_pdf(struct out *o, const struct layout *l, struct diag *err);

#endif
