/*
 * svg_theme: the colours of the SVG's style sheet that follow --theme. The
 * picture's colours are presentation attributes (light or dark as
 * written); these rules give the style sheet the background colour it
 * draws the gaps between sibling frames in, and with --theme auto the dark
 * colours of the background, header, legend and controls under
 * prefers-color-scheme: dark. Frame fills keep their colours in both
 * schemes, so each label keeps the ink chosen for its fill, but for the
 * unchanged grey when it is the frames' common fill (the group's, which
 * a rule can change): it turns the dark theme's grey, its labels light.
 */
#ifndef DIFFFOLD_SVG_THEME_H
#define DIFFFOLD_SVG_THEME_H

#include "buf.h"
#include "color.h"
#include "draw_options.h"

/* CSS rules for the SVG's <style>; common: the frames' group's fill. */
void svg_theme_style(struct buf *b, enum theme theme, struct rgb common);

#endif
