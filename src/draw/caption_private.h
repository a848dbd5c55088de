/*
 * The caption's parts in other files: the ranking of the largest changes
 * (caption_rank.c). Not for the layout or the backends.
 */
#ifndef DIFFFOLD_CAPTION_PRIVATE_H
#define DIFFFOLD_CAPTION_PRIVATE_H

#include "caption.h"

/*
 * The rows of the largest changes (caption_rank.c): ranked by what the
 * picture shows, so every function with a frame in the strongest colour
 * step has a row, strongest first, then the largest self changes summed
 * over call sites (by_name: base and head self counts by name).
 */
void caption_rank_changes(
        struct caption *c, const struct caption_input *in, const double (*by_name)[2]);

#endif
