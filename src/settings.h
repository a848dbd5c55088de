/*
 * settings: the struct each part of the program takes, filled from the
 * command line. The readers take struct input_options, the drawing code
 * struct draw_options and the reports struct report_options, not the whole
 * of struct options, so what each depends on is written down in one place,
 * and the lower wings never include options.h.
 */
#ifndef DIFFFOLD_SETTINGS_H
#define DIFFFOLD_SETTINGS_H

#include "draw_options.h"
#include "input.h"
#include "options.h"
#include "report_options.h"

/* The readers' settings from o; in borrows o's strings and tree options. */
void settings_input(const struct options *o, struct input_options *in);
/* The picture's settings from o; d borrows o's strings. */
void settings_draw(const struct options *o, struct draw_options *d);
/* The reports', gates' and export's settings from o; r borrows o's strings. */
void settings_report(const struct options *o, struct report_options *r);

#endif
