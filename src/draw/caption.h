/*
 * caption: the words an image carries so it explains itself without script:
 * title, subtitle, the totals line (the totals and the overall change
 * first, then the profiles' names), the rule line (absolute or normalised
 * comparison, width basis, colour basis), the pruning note, the largest
 * changes and the legend entries. The layout wraps these strings into
 * lines at the " · " between their parts; the backends compose no
 * sentences of their own. Numbers are written by numfmt, in the one wording
 * every output shares.
 */
#ifndef DIFFFOLD_CAPTION_H
#define DIFFFOLD_CAPTION_H

#include <stddef.h>

#include "color.h"
#include "draw_options.h"
#include "tree.h"

#define CAPTION_LEGEND_MAX 8
#define CAPTION_CHANGES_MAX 5
/* Between the parts of a caption line; the layout wraps lines there first. */
#define CAPTION_SEP " \xc2\xb7 "

struct caption_legend_entry {
	struct rgb fill; /* the strongest step */
	struct rgb ramp[COLOR_STEPS]; /* every step, palest first */
	int steps; /* COLOR_STEPS, or 1 for unchanged */
	char label[64]; /* "slower", "faster", "new", "removed", "unchanged" */
};

/* A row of the largest-changes block: "+490 (+116.7%)", "420 → 910", the name. */
struct caption_change {
	char *change;
	char *counts;
	char *name; /* the function's name as read; escaped by each backend */
};

struct caption {
	char *title; /* all strings UTF-8 as given by the user; owned */
	char *subtitle; /* NULL when none */
	char *totals;
	char *rule;
	char *pruned; /* NULL when nothing was pruned */
	char *scale; /* legend scale text, NULL for a single profile */
	/* Functions by |self change| summed over call sites, largest first;
	 * none for a single profile or when nothing changed. */
	char *changes_title;
	struct caption_change changes[CAPTION_CHANGES_MAX];
	size_t change_count;
	struct caption_legend_entry legend[CAPTION_LEGEND_MAX];
	size_t legend_count;
};

/* What the caption is made from: the layout's figures, worked out before it. */
struct caption_input {
	const struct tree *tree;
	const struct draw_options *opt;
	double line_chars; /* characters a header line holds */
	double max_change; /* largest |change| of any frame, the colour's basis */
	double pruned_samples; /* basis samples of the frames --min-width pruned */
	size_t pruned_frames; /* pruned subtree roots */
};

/* Fills c from in; in's tree and options must outlive c. */
void caption_init(struct caption *c, const struct caption_input *in);
void caption_finish(struct caption *c);

#endif
