/*
 * flamegraph_svg: flame graphs read back into stacks. People have the SVGs
 * that cargo flamegraph, inferno, flamegraph.pl and difffold drew, not the
 * profiles behind them; each frame's name and count are in its <title>, its
 * place in its <rect>, which is enough to rebuild the stacks.
 *
 * - difffold's own SVG (docs/svg-data-contract.md): frames in pre-order,
 *   depth from the rect's row, exact counts in data-base/-head(-self); a
 *   differential one gives both sides, read as a single profile.
 * - flamegraph.pl's and inferno's: frames in any order; a frame's depth is
 *   its row and its parent the frame under it on the row below (inferno's
 *   fg:x and fg:w are exact sample offsets; flamegraph.pl's are pixels).
 *   Each title holds "name (N samples, P%)". Their differential graphs
 *   hold one side's counts and rounded changes: refused.
 *
 * Frames a tool pruned are missing: their counts stay in their caller's
 * own count (the note says so). The file is hostile input: it is scanned,
 * never parsed as XML with a DTD: only the five predefined entities and
 * character references are decoded, an element larger than
 * FLAMEGRAPH_SVG_MAX_ELEMENT is an error, and nothing recurses.
 */
#ifndef DIFFFOLD_FLAMEGRAPH_SVG_H
#define DIFFFOLD_FLAMEGRAPH_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "reader.h"
#include "source.h"
#include "tree.h"

#define FLAMEGRAPH_SVG_MAX_ELEMENT ((size_t)16 << 20)

enum flamegraph_svg_kind {
	FLAMEGRAPH_SVG_NONE,
	FLAMEGRAPH_SVG_DIFFFOLD,
	FLAMEGRAPH_SVG_INFERNO,
	FLAMEGRAPH_SVG_FLAMEGRAPH_PL,
	/* async-profiler's HTML (a canvas drawn by script): recognised, refused
	 * with what to give difffold instead */
	FLAMEGRAPH_SVG_ASYNC_PROFILER_HTML,
};

/* What drew the SVG whose first len bytes are head; NONE when no tool we read. */
enum flamegraph_svg_kind flamegraph_svg_detect(const char *head, size_t len);
/* "difffold", "inferno", "flamegraph.pl", "async-profiler". */
const char *flamegraph_svg_tool(enum flamegraph_svg_kind kind);

struct flamegraph_svg_info {
	enum flamegraph_svg_kind kind;
	bool differential; /* difffold's differential graph: both sides were read */
	uint64_t frames; /* frames read, the root aside */
	uint64_t pruned; /* difffold: frames whose drawn children miss some of their count */
	char unit[64]; /* the count's name ("samples"); "" when unknown */
};

/*
 * Reads the rest of src (head first) into t. `both`: a differential
 * difffold SVG gives both sides (a single PROFILE); otherwise it is
 * refused and a single-profile graph goes to `side`. False with err set.
 */
bool flamegraph_svg_read_source(struct tree *t, enum side side, bool both, struct source *src,
        const char *head, size_t head_len, struct flamegraph_svg_info *info, struct diag *err);
/*
 * The reader as the table runs it (readers.h): a differential difffold SVG
 * given as the one profile gives both sides.
 */
readers_read_fn flamegraph_svg_read;
/* The same over bytes in memory (tests, the fuzzer); name is for messages. */
bool flamegraph_svg_read_mem(struct tree *t, enum side side, bool both, const char *name,
        const char *data, size_t len, struct flamegraph_svg_info *info, struct diag *err);

#endif
