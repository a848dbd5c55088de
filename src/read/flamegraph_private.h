/*
 * What the flame graph readers share: the frames as drawn (a name, a row,
 * a span, counts), gathered by the SVG scan (flamegraph_svg.c) or by the
 * async-profiler page's script (flamegraph_html.c), then turned into
 * stacks by flamegraph_stacks (flamegraph_stacks.c: rows into depths,
 * spans into callers, totals into self counts). Only these files include
 * this.
 */
#ifndef DIFFFOLD_FLAMEGRAPH_PRIVATE_H
#define DIFFFOLD_FLAMEGRAPH_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "count.h"
#include "diag.h"
#include "flamegraph_svg.h"
#include "tree.h"

#define FLAMEGRAPH_NONE UINT32_MAX

/* A frame as drawn: an SVG's <g> with its <title> and <rect>, or a call
 * of async-profiler's script (its row being y, its span x and w). */
struct frame {
	size_t name_at, name_len; /* in reader.names */
	uint64_t line; /* of its <g>, for messages */
	double x, w, y;
	uint32_t parent, depth;
	struct count total[2], self[2]; /* peers: the side read only */
};

struct reader {
	struct tree *t;
	enum side side;
	bool both;
	const char *name;
	struct diag *err;
	struct flamegraph_svg_info *info;
	struct frame *frames;
	size_t count, cap;
	struct buf names;
	struct buf title; /* the title being read, decoded */
	uint64_t line; /* lines before `counted` */
	bool semicolon; /* a name holds ';': stacks go in whole, split as folded lines are */
	const char *counted; /* how far lines are counted in the current chunk */
	/* async-profiler's page: where its script is read, its pool of names
	 * (each at pool_at[i] in names, pool_len[i] long), the last frame. */
	enum flamegraph_html_stage {
		FLAMEGRAPH_HTML_PAGE, /* before the pool of names */
		FLAMEGRAPH_HTML_POOL,
		FLAMEGRAPH_HTML_FRAMES,
		FLAMEGRAPH_HTML_DONE,
	} html_stage;
	size_t *pool_at, *pool_len;
	size_t pool_count, pool_cap;
	uint64_t level0, left0, width0;
};

/* Sets the error at line (0: none); false. */
bool flamegraph_fail(struct reader *r, uint64_t line, const char *why);
/* A new frame, zeroed, at the end of r->frames (valid until the next). */
struct frame *flamegraph_new_frame(struct reader *r, uint64_t line);
/* The frames read into stacks in r->t (flamegraph_stacks.c); false with r->err set. */
bool flamegraph_stacks(struct reader *r);
/* async-profiler's page, a chunk at a time (source_parse_fn). */
long long flamegraph_html_chunk(void *ctx, const char *data, size_t len, bool at_eof);

#endif
