/*
 * color: every colour difffold draws. Differential frames get one of five
 * hues by class, with saturation growing with the size of the change; the
 * default palette is chosen to stay distinct for red-green colour-blind
 * readers. Single-profile frames get the classic palettes, hashed from the
 * name so a function keeps its colour across graphs. Pure functions only.
 */
#ifndef DIFFFOLD_COLOR_H
#define DIFFFOLD_COLOR_H

#include <stddef.h>
#include <stdint.h>

#include "intern.h"
#include "options.h"
#include "tree.h"

struct rgb {
	uint8_t r, g, b;
};

/* Fill of a differential frame; intensity in [0, 1] (clamped). */
struct rgb color_diff(enum node_status status, double intensity, enum theme theme);
/* The single-profile palette names, NULL-terminated; the first is the default. */
extern const char *const color_palettes[];

/*
 * Fill of a single-profile frame from palette (one of color_palettes; any
 * other name is "hot"), a hash of the name, and its annotation. `-` and
 * `--` are grey.
 */
struct rgb color_single(const char *palette, const char *name, size_t len, enum annotation a);
/* Label colour that stays legible on fill (contrast ratio >= 4.5 where possible). */
struct rgb color_label(struct rgb fill);
struct rgb color_background(enum theme theme);
struct rgb color_foreground(enum theme theme); /* header and legend text */
/* Writes "#rrggbb" and a NUL into out. */
void color_hex(struct rgb c, char out[8]);
/* WCAG contrast ratio of two colours (1 to 21); for tests and color_label. */
double color_contrast(struct rgb a, struct rgb b);

#endif
