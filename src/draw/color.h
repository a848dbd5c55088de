/*
 * color: every colour difffold draws. Differential frames get one of five
 * hues by class, in a few discrete steps that grow with the size of the
 * change; the palette stays distinct for colour-blind readers (checked by
 * tests/unit/test_color.c). Single-profile frames get the classic palettes, hashed from the
 * name so a function keeps its colour across graphs. Pure functions only.
 */
#ifndef DIFFFOLD_COLOR_H
#define DIFFFOLD_COLOR_H

#include <stddef.h>
#include <stdint.h>

#include "draw_options.h"
#include "intern.h"
#include "tree.h"

struct rgb {
	uint8_t r, g, b;
};

/*
 * Differential frames are coloured in discrete steps: each changed class
 * (slower, faster, new, removed) is a ramp of COLOR_STEPS colours, from a
 * palest step close to (but clearly apart from) the unchanged grey to the
 * strongest. Steps are numbered 1 (palest) to COLOR_STEPS.
 */
#define COLOR_STEPS 4

/*
 * The step of a change whose size relative to the largest change is
 * intensity in [0, 1] (clamped; NaN is 0): a square-root scale, so step k
 * covers sqrt(intensity) in ((k - 1) / COLOR_STEPS, k / COLOR_STEPS].
 * Small changes land on the palest steps, near grey.
 */
int color_step(double intensity);
/* Fill of step (clamped to 1..COLOR_STEPS) of a class; STATUS_SAME is grey. */
struct rgb color_diff_step(enum node_status status, int step, enum theme theme);
/* Fill of a differential frame: color_diff_step at color_step(intensity). */
struct rgb color_diff(enum node_status status, double intensity, enum theme theme);
/* The single-profile palette names, NULL-terminated; the first is the default. */
extern const char *const color_palettes[];

/*
 * Fill of a single-profile frame from palette (one of color_palettes; any
 * other name is "hot"), a hash of the name, and its annotation. `-` and
 * `--` are grey.
 */
struct rgb color_single(const char *palette, const char *name, size_t len, enum annotation a);
/*
 * color_single for a theme: the light theme's colours unchanged (they match
 * flamegraph.pl's), the dark theme's toned down towards the background so
 * they do not glare.
 */
struct rgb color_single_theme(
        const char *palette, const char *name, size_t len, enum annotation a, enum theme theme);
/* Label colour that stays legible on fill (contrast ratio >= 4.5 where possible). */
struct rgb color_label(struct rgb fill);
struct rgb color_background(enum theme theme);
struct rgb color_foreground(enum theme theme); /* header and legend text */
/* Writes "#rrggbb" and a NUL into out. */
void color_hex(struct rgb c, char out[8]);
/* WCAG contrast ratio of two colours (1 to 21); for tests and color_label. */
double color_contrast(struct rgb a, struct rgb b);

#endif
