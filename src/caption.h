/*
 * caption: the words an image carries so it explains itself without script:
 * title, subtitle, the totals line ("head 150,000 samples, +26.1% vs base
 * 119,000"), the rule line (absolute or normalised comparison, width
 * basis, colour basis), the pruning note and the legend entries. Both
 * backends print these strings; they compose no sentences of their own.
 * Numbers are written by numfmt (the caption_ variants).
 */
#ifndef DIFFFOLD_CAPTION_H
#define DIFFFOLD_CAPTION_H

#include <stddef.h>

#include "color.h"
#include "layout.h"

#define CAPTION_LEGEND_MAX 8

struct caption_legend_entry {
	struct rgb fill; /* the strongest step */
	struct rgb ramp[COLOR_STEPS]; /* every step, palest first */
	int steps; /* COLOR_STEPS, or 1 for unchanged */
	char label[64]; /* "slower", "faster", "new", "removed", "unchanged" */
};

struct caption {
	char *title; /* all strings UTF-8 as given by the user; owned */
	char *subtitle; /* NULL when none */
	char *totals;
	char *rule;
	char *pruned; /* NULL when nothing was pruned */
	char *scale; /* legend scale text, NULL for a single profile */
	struct caption_legend_entry legend[CAPTION_LEGEND_MAX];
	size_t legend_count;
};

void caption_init(struct caption *c, const struct layout *l);
void caption_finish(struct caption *c);

#endif
