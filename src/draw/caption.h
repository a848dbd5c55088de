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
/* Rows of the largest changes: CAPTION_CHANGES_USUAL, and up to
 * CAPTION_CHANGES_MAX when more functions than that have a frame in the
 * strongest colour step (each of those gets a row). */
#define CAPTION_CHANGES_USUAL 5
#define CAPTION_CHANGES_MAX 8
#define CAPTION_COMPACT_MAX 8
/* Between the parts of a caption line; the layout wraps lines there first. */
#define CAPTION_SEP " \xc2\xb7 "

struct caption_legend_entry {
	struct rgb fill; /* the strongest step */
	struct rgb ramp[COLOR_STEPS]; /* every step, palest first */
	int steps; /* COLOR_STEPS, or 1 for unchanged */
	char label[64]; /* "slower", "faster", "new", "removed", "unchanged" */
};

/*
 * A row of the largest-changes block: "+490 (+116.7%)", "420 → 910", the
 * name, and the marker that is drawn on the row's frame in the graph.
 */
struct caption_change {
	char *change;
	char *counts;
	char *name; /* the function's name as read; escaped by each backend */
	/* The name as the header writes it (shortname.h), unless that would
	 * read like another row's. */
	char *short_name;
	/* "moved +29,475 / -19,710": the net change is what a move between
	 * call paths left (match.h); NULL otherwise. */
	char *note;
	/* The drawn frame of this function with the largest change (the one
	 * its marker points at), TREE_NONE when none is drawn. */
	uint32_t frame;
	char marker[2]; /* "A", "B"...: the row's letter; "" without a frame */
};

struct caption {
	char *title; /* all strings UTF-8 as given by the user; owned */
	char *subtitle; /* NULL when none */
	char *totals;
	char *rule;
	char *pruned; /* NULL when nothing was pruned */
	char *capped; /* "+N deeper frames ...": NULL when --max-depth hid none */
	/* The compact header's line (draw_options.compact) in parts, most
	 * important first: the layout joins those that fit one line. */
	char *compact[CAPTION_COMPACT_MAX];
	size_t compact_count;
	char *scale; /* legend scale text, NULL for a single profile */
	/* Functions by |self change| summed over call sites, largest first;
	 * none for a single profile or when nothing changed. */
	char *changes_title;
	struct caption_change changes[CAPTION_CHANGES_MAX];
	size_t change_count;
	struct caption_legend_entry legend[CAPTION_LEGEND_MAX];
	size_t legend_count;
};

struct layout_box;

/* What the caption is made from: the layout's figures, worked out before it. */
struct caption_input {
	const struct tree *tree;
	const struct draw_options *opt;
	double line_chars; /* characters a header line holds */
	double max_change; /* largest |change| of any frame, the colour's basis */
	double pruned_samples; /* basis samples of the frames --min-width pruned */
	size_t pruned_frames; /* pruned subtree roots */
	/* The layout's boxes, painted (status, intensity): what is drawn. */
	const struct layout_box *boxes;
	size_t box_count;
	double capped_samples; /* basis samples of the frames past --max-depth */
	size_t capped_frames; /* frames past --max-depth */
	uint32_t depth_cap;
};

/* Fills c from in; in's tree and options must outlive c. */
void caption_init(struct caption *c, const struct caption_input *in);
void caption_finish(struct caption *c);
#endif
