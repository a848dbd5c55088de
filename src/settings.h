/*
 * settings: the struct each part of the program takes, filled from the
 * command line. The drawing code takes struct draw_options, not the whole
 * of struct options, so what a picture depends on is written down in one
 * place, and the lower wings never include options.h.
 */
#ifndef DIFFFOLD_SETTINGS_H
#define DIFFFOLD_SETTINGS_H

#include "draw_options.h"
#include "options.h"

/* The picture's settings from o; d borrows o's strings. */
void settings_draw(const struct options *o, struct draw_options *d);

#endif
