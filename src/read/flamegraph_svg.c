#include "flamegraph_svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "count.h"
#include "escape.h"
#include "flamegraph_private.h"
#include "svgscan.h"
#include "tree_build.h"
#include "xalloc.h"

static const char difffold_mark[] = "class=\"difffold\"";
static const char inferno_mark[] = "xmlns:fg=\"http://github.com/jonhoo/inferno\"";
static const char flamegraph_mark[] = "Flame graph stack visualization";
/* async-profiler's page links to its project, under its old name or new. */
static const char async_mark[] = "/async-profiler'>async-profiler</a>";

static const char *
find(const char *p, const char *end, const char *needle)
{
	size_t n = strlen(needle);
	return end - p < (ptrdiff_t)n ? NULL : memmem(p, (size_t)(end - p), needle, n);
}

enum flamegraph_svg_kind
flamegraph_svg_detect(const char *head, size_t len)
{
	const char *end = head + len;
	if (find(head, end, "<canvas") && find(head, end, async_mark)) {
		return FLAMEGRAPH_SVG_ASYNC_PROFILER_HTML;
	}
	const char *svg = find(head, end, "<svg");
	if (!svg) {
		return FLAMEGRAPH_SVG_NONE;
	}
	const char *close = memchr(svg, '>', (size_t)(end - svg));
	if (close && find(svg, close, difffold_mark)) {
		return FLAMEGRAPH_SVG_DIFFFOLD;
	}
	if (close && find(svg, close, inferno_mark)) {
		return FLAMEGRAPH_SVG_INFERNO;
	}
	/* flamegraph.pl writes its comment right after the <svg> tag. */
	return find(svg, end, flamegraph_mark) ? FLAMEGRAPH_SVG_FLAMEGRAPH_PL : FLAMEGRAPH_SVG_NONE;
}

const char *
flamegraph_svg_tool(enum flamegraph_svg_kind kind)
{
	switch (kind) {
	case FLAMEGRAPH_SVG_DIFFFOLD:
		return "difffold";
	case FLAMEGRAPH_SVG_INFERNO:
		return "inferno";
	case FLAMEGRAPH_SVG_FLAMEGRAPH_PL:
		return "flamegraph.pl";
	case FLAMEGRAPH_SVG_ASYNC_PROFILER_HTML:
		return "async-profiler";
	case FLAMEGRAPH_SVG_NONE:
		break;
	}
	return "an unknown tool";
}

bool
flamegraph_fail(struct reader *r, uint64_t line, const char *why)
{
	diag_set(r->err, r->name, line, why);
	return false;
}

/* The line of p, counting the newlines since the last place counted. */
static uint64_t
line_of(struct reader *r, const char *p)
{
	for (const char *q = r->counted; q < p;) {
		const char *nl = memchr(q, '\n', (size_t)(p - q));
		if (!nl) {
			break;
		}
		r->line++;
		q = nl + 1;
	}
	r->counted = p;
	return r->line + 1;
}

struct frame *
flamegraph_new_frame(struct reader *r, uint64_t line)
{
	if (r->count == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 1024;
		r->frames = xrealloc(r->frames, r->cap * sizeof(*r->frames));
	}
	struct frame *f = &r->frames[r->count++];
	memset(f, 0, sizeof(*f));
	f->line = line;
	f->parent = FLAMEGRAPH_NONE;
	return f;
}

/*
 * A peer's title: "name (N samples, P%)", the unit being its --countname.
 * A differential graph adds "; +D%" to the parentheses.
 */
static bool
peer_title(struct reader *r, struct frame *f, const char **why)
{
	const char *s = r->title.data;
	size_t len = r->title.len;
	const char *open = NULL;
	for (size_t i = len; i-- > 0;) {
		if (s[i] == '(') {
			open = s + i;
			break;
		}
	}
	if (!open || open == s || open[-1] != ' ' || s[len - 1] != ')') {
		*why = "a frame's title is not `name (N samples, P%)`";
		return false;
	}
	const char *inner = open + 1, *end = s + len - 1;
	if (memchr(inner, ';', (size_t)(end - inner))) {
		*why = "a differential flame graph: it holds the second profile's counts and the "
		       "changes as rounded percentages, so the first profile cannot be rebuilt; "
		       "give difffold the two profiles, or a flame graph of each";
		return false;
	}
	const char *space = memchr(inner, ' ', (size_t)(end - inner));
	const char *comma = NULL;
	for (const char *q = end; q-- > inner;) {
		if (*q == ',' && q + 1 < end && q[1] == ' ') {
			comma = q;
			break;
		}
	}
	if (!space || !comma || comma <= space ||
	        !svgscan_count(inner, (size_t)(space - inner), &f->total[r->side])) {
		*why = "a frame's title has no count: not `name (N samples, P%)`";
		return false;
	}
	size_t unit_len = (size_t)(comma - space - 1);
	if (!r->info->unit[0] && unit_len < sizeof(r->info->unit)) {
		memcpy(r->info->unit, space + 1, unit_len);
		r->info->unit[unit_len] = '\0';
	}
	f->name_at = r->names.len;
	f->name_len = (size_t)(open - 1 - s);
	buf_add(&r->names, s, f->name_len);
	/* A character reference can bring a line break: a space, as in every
	 * reader's names. A ';' stays: stacks then go in split as folded. */
	escape_frame_bytes(r->names.data + f->name_at, f->name_len, false);
	r->semicolon |= memchr(s, ';', f->name_len) != NULL;
	return true;
}

/* difffold's title: the name, a newline, the counts (in data-* already). */
static void
difffold_title(struct reader *r, struct frame *f)
{
	const char *s = r->title.data;
	const char *nl = NULL;
	for (size_t i = r->title.len; i-- > 0;) {
		if (s[i] == '\n') {
			nl = s + i;
			break;
		}
	}
	f->name_at = r->names.len;
	f->name_len = nl ? (size_t)(nl - s) : r->title.len;
	buf_add(&r->names, s, f->name_len);
	/* A character reference can bring a line break: a space, as in every
	 * reader's names. A ';' stays: stacks then go in split as folded. */
	escape_frame_bytes(r->names.data + f->name_at, f->name_len, false);
	r->semicolon |= memchr(s, ';', f->name_len) != NULL;
}

/* The data-* counts of difffold's <g class="frame">. */
static bool
group_attr(struct frame *f, const struct svgscan_attr *a, bool *is_frame)
{
	if (SVGSCAN_ATTR_IS(a, "class")) {
		*is_frame = a->value_len == 5 && memcmp(a->value, "frame", 5) == 0;
		return true;
	}
	if (a->name_len < 9 || memcmp(a->name, "data-", 5) != 0) {
		return true;
	}
	struct count *c = SVGSCAN_ATTR_IS(a, "data-base")        ? &f->total[SIDE_BASE]
	                  : SVGSCAN_ATTR_IS(a, "data-head")      ? &f->total[SIDE_HEAD]
	                  : SVGSCAN_ATTR_IS(a, "data-base-self") ? &f->self[SIDE_BASE]
	                  : SVGSCAN_ATTR_IS(a, "data-head-self") ? &f->self[SIDE_HEAD]
	                                                         : NULL;
	return !c || svgscan_count(a->value, a->value_len, c);
}

/* The rect's row, and for the peers its span (difffold's frames need no span). */
static bool
rect_attr(struct frame *f, const struct svgscan_attr *a, bool own, bool *exact)
{
	if (SVGSCAN_ATTR_IS(a, "y")) {
		return svgscan_double(a->value, a->value_len, &f->y);
	}
	if (own) {
		return true;
	}
	/* inferno's fg:x and fg:w are in samples: exact, unlike the pixels. */
	if (SVGSCAN_ATTR_IS(a, "fg:x") || SVGSCAN_ATTR_IS(a, "fg:w")) {
		*exact = true;
		return svgscan_double(a->value, a->value_len, a->name[3] == 'x' ? &f->x : &f->w);
	}
	if (!*exact && SVGSCAN_ATTR_IS(a, "x")) {
		return svgscan_double(a->value, a->value_len, &f->x);
	}
	if (!*exact && SVGSCAN_ATTR_IS(a, "width")) {
		return svgscan_double(a->value, a->value_len, &f->w);
	}
	return true;
}

/* The end of the tag at *s (its '>'); NULL when the data ends first. */
static const char *
tag_end(const char *s, const char *end)
{
	return memchr(s, '>', (size_t)(end - s));
}

/* The attributes of a <g> tag from *s: SVGSCAN_END with *s past its '>'. */
static enum svgscan
group_tag(const char **s, const char *end, struct frame *f, bool *is_frame)
{
	const char *close = tag_end(*s, end);
	if (!close) {
		return SVGSCAN_SHORT;
	}
	struct svgscan_attr a;
	enum svgscan scan;
	while ((scan = svgscan_next_attr(s, close, &a)) == SVGSCAN_OK) {
		if (!group_attr(f, &a, is_frame)) {
			return SVGSCAN_BAD;
		}
	}
	return scan;
}

/* The attributes of a <rect> tag from *s; difffold's frames need the row
 * alone, so their scan stops at y. */
static enum svgscan
rect_tag(const char **s, const char *end, struct frame *f, bool own)
{
	const char *close = tag_end(*s, end);
	if (!close) {
		return SVGSCAN_SHORT;
	}
	struct svgscan_attr a;
	enum svgscan scan;
	bool exact = false;
	f->y = NAN;
	while ((scan = svgscan_next_attr(s, close, &a)) == SVGSCAN_OK) {
		if (!rect_attr(f, &a, own, &exact)) {
			return SVGSCAN_BAD;
		}
		if (own && !isnan(f->y)) {
			*s = close + 1;
			return SVGSCAN_END;
		}
	}
	return scan == SVGSCAN_END && isnan(f->y) ? SVGSCAN_BAD : scan;
}

/*
 * The <g> at p, which the data holds up to end: a frame when a <title>
 * and a <rect> follow its tag. *next is where scanning goes on.
 */
static enum svgscan
read_group(struct reader *r, const char *p, uint64_t line, const char *end, const char **next,
        const char **why)
{
	struct frame tmp = {0};
	bool own = r->info->kind == FLAMEGRAPH_SVG_DIFFFOLD;
	bool is_frame = !own;
	const char *s = p + 2;
	enum svgscan scan = group_tag(&s, end, &tmp, &is_frame);
	*why = "a malformed <g> tag";
	if (scan != SVGSCAN_END) {
		return scan;
	}
	const char *t = svgscan_skip_space(s, end);
	*next = s;
	if (end - t < 7) {
		return SVGSCAN_SHORT;
	}
	if (!is_frame || memcmp(t, "<title>", 7) != 0) {
		return SVGSCAN_OK; /* a group of groups */
	}
	/* A title's text has no '<' of its own: names are escaped. */
	const char *tend = memchr(t + 7, '<', (size_t)(end - t - 7));
	if (!tend || end - tend < 8) {
		return SVGSCAN_SHORT;
	}
	const char *rect = svgscan_skip_space(tend + 8, end);
	if (end - rect < 5) {
		return SVGSCAN_SHORT;
	}
	*why = "markup inside a frame's title";
	if (memcmp(tend, "</title>", 8) != 0) {
		return SVGSCAN_BAD;
	}
	*why = "a frame's <title> is not followed by its <rect>";
	if (memcmp(rect, "<rect", 5) != 0) {
		return SVGSCAN_BAD;
	}
	s = rect + 5;
	scan = rect_tag(&s, end, &tmp, own);
	*why = "a frame's <rect> has a malformed attribute, or no y";
	if (scan != SVGSCAN_END) {
		return scan;
	}
	if (!svgscan_decode_text(&r->title, t + 7, (size_t)(tend - t - 7), why)) {
		return SVGSCAN_BAD;
	}
	/* Each frame drawn is a frame of the tree (the root aside): the limit
	 * holds before they are all kept. */
	*why = "more frames drawn than --max-frames allows";
	if (r->count > r->t->opt.max_nodes) {
		return SVGSCAN_BAD;
	}
	struct frame *f = flamegraph_new_frame(r, line);
	*f = tmp;
	f->line = line;
	f->parent = FLAMEGRAPH_NONE;
	if (own) {
		difffold_title(r, f);
	} else if (!peer_title(r, f, why)) {
		r->count--;
		return SVGSCAN_BAD;
	}
	*next = s;
	return SVGSCAN_OK;
}

/* The next "<g" followed by a space or '>' in [p, end); NULL if none, and
 * *keep then says where an unfinished "<g" may start. */
static const char *
next_group(const char *p, const char *end, const char **keep)
{
	*keep = end;
	for (const char *lt; (lt = memchr(p, '<', (size_t)(end - p))); p = lt + 1) {
		if (end - lt < 3) {
			*keep = lt;
			return NULL;
		}
		if (lt[1] == 'g' &&
		        (lt[2] == ' ' || lt[2] == '>' || lt[2] == '\n' || lt[2] == '\t')) {
			return lt;
		}
	}
	return NULL;
}

static long long
parse_chunk(void *ctx, const char *data, size_t len, bool at_eof)
{
	struct reader *r = ctx;
	const char *p = data, *end = data + len, *keep;
	r->counted = data;
	for (;;) {
		const char *g = next_group(p, end, &keep);
		if (!g) {
			const char *stop = at_eof ? end : keep;
			line_of(r, stop);
			return (long long)(stop - data);
		}
		uint64_t line = line_of(r, g);
		const char *why = NULL;
		enum svgscan scan = read_group(r, g, line, end, &p, &why);
		if (scan == SVGSCAN_OK) {
			continue;
		}
		if (scan == SVGSCAN_SHORT && !at_eof) {
			if ((size_t)(end - g) > FLAMEGRAPH_SVG_MAX_ELEMENT) {
				flamegraph_fail(r, line, "an element larger than 16 MiB");
				return -1;
			}
			return (long long)(g - data);
		}
		flamegraph_fail(
		        r, line, scan == SVGSCAN_SHORT ? "the file ends inside a frame" : why);
		return -1;
	}
}

/*
 * The root: the widest frame named "all" on the first or the last row
 * (every tool draws one there), so a function called "all" is not taken
 * for it.
 */
static uint32_t
find_root(const struct reader *r)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < r->count; i++) {
		lo = fmin(lo, r->frames[i].y);
		hi = fmax(hi, r->frames[i].y);
	}
	/* async-profiler's rows are levels: the root's is 0. */
	bool levels = r->info->kind == FLAMEGRAPH_SVG_ASYNC_PROFILER_HTML;
	uint32_t root = FLAMEGRAPH_NONE;
	for (size_t i = 0; i < r->count; i++) {
		const struct frame *f = &r->frames[i];
		if (f->name_len == 3 && memcmp(r->names.data + f->name_at, "all", 3) == 0 &&
		        (f->y == lo || (f->y == hi && !levels)) &&
		        (root == FLAMEGRAPH_NONE || r->frames[root].w < f->w)) {
			root = (uint32_t)i;
		}
	}
	return root;
}

/*
 * A frame's depth is its distance from the root's row in rows, one row
 * being the smallest distance there is; every frame is on the same side.
 */
static bool
set_depths(struct reader *r, uint32_t *root)
{
	*root = find_root(r);
	if (*root == FLAMEGRAPH_NONE) {
		return flamegraph_fail(r, 0, "a flame graph without its root frame `all`");
	}
	double y0 = r->frames[*root].y, step = INFINITY, side = 0;
	for (size_t i = 0; i < r->count; i++) {
		double d = r->frames[i].y - y0;
		if (fabs(d) > 0.5 && fabs(d) < step) {
			step = fabs(d);
			side = d;
		}
	}
	for (size_t i = 0; i < r->count; i++) {
		struct frame *f = &r->frames[i];
		double rows = isfinite(step) ? (f->y - y0) / step : 0;
		rows = side < 0 ? -rows : rows;
		if (rows < -0.2 || fabs(rows - round(rows)) > 0.2 || rows > UINT32_MAX - 1.0) {
			return flamegraph_fail(r, f->line, "a frame between two rows of the graph");
		}
		f->depth = (uint32_t)round(rows);
		if (f->depth == 0 && i != *root) {
			return flamegraph_fail(
			        r, f->line, "a frame on the root's row beside the root");
		}
	}
	return true;
}

/* difffold's frames are in pre-order: a frame's parent is the last one a row lower. */
static bool
parents_in_order(struct reader *r, uint32_t root)
{
	if (root != 0) {
		return flamegraph_fail(r, r->frames[0].line, "a frame before the root `all`");
	}
	uint32_t *open = xmalloc(r->count * sizeof(*open)); /* by depth */
	size_t depth = 0;
	open[0] = 0;
	bool ok = true;
	for (size_t i = 1; ok && i < r->count; i++) {
		struct frame *f = &r->frames[i];
		if (f->depth > depth + 1) {
			ok = flamegraph_fail(
			        r, f->line, "a frame two rows above the frame before it");
			break;
		}
		f->parent = open[f->depth - 1];
		open[f->depth] = (uint32_t)i;
		depth = f->depth;
	}
	free(open);
	return ok;
}

/* A frame's place, sorted by row and then x (no global for qsort: two
 * sides may be read at once). */
struct place {
	double x;
	uint32_t depth, frame;
};

static int
by_row(const void *a, const void *b)
{
	const struct place *pa = a, *pb = b;
	if (pa->depth != pb->depth) {
		return pa->depth < pb->depth ? -1 : 1;
	}
	return pa->x < pb->x ? -1 : pa->x > pb->x;
}

/* The end of the places of [lo, hi) that start at or before x. */
static size_t
last_at_or_before(const struct place *order, size_t lo, size_t hi, double x)
{
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		if (order[m].x <= x) {
			lo = m + 1;
		} else {
			hi = m;
		}
	}
	return lo;
}

/*
 * flamegraph.pl and inferno write frames in any order: a frame's parent
 * is the frame of the row below whose span holds the frame's middle.
 */
static bool
parents_by_place(struct reader *r)
{
	struct place *order = xmalloc(r->count * sizeof(*order));
	for (size_t i = 0; i < r->count; i++) {
		order[i] = (struct place){r->frames[i].x, r->frames[i].depth, (uint32_t)i};
	}
	qsort(order, r->count, sizeof(*order), by_row);
	bool ok = true;
	size_t below = 0, row = 0; /* where the row below and this row start in order[] */
	for (size_t i = 1; ok && i < r->count; i++) {
		struct frame *f = &r->frames[order[i].frame];
		if (order[i].depth != order[i - 1].depth) {
			below = row;
			row = i;
		}
		double mid = f->x + f->w / 2;
		size_t a = last_at_or_before(order, below, row, mid);
		const struct frame *p = a > below ? &r->frames[order[a - 1].frame] : NULL;
		if (!p || p->depth + 1 != f->depth || mid > p->x + p->w) {
			ok = flamegraph_fail(r, f->line, "a frame over no frame of the row below");
			break;
		}
		f->parent = order[a - 1].frame;
	}
	free(order);
	return ok;
}

/* Self counts: a total minus its children's; what pruned children held stays. */
static bool
self_counts(struct reader *r, uint32_t root, bool given)
{
	struct count *below = xcalloc(r->count * 2, sizeof(*below));
	bool ok = true;
	for (size_t i = 0; ok && i < r->count; i++) {
		const struct frame *f = &r->frames[i];
		for (int s = 0; ok && i != root && s < 2; s++) {
			ok = count_add(
			        below[2 * f->parent + s], f->total[s], &below[2 * f->parent + s]);
		}
	}
	for (size_t i = 0; ok && i < r->count; i++) {
		struct frame *f = &r->frames[i];
		bool short_of = false;
		for (int s = 0; ok && s < 2; s++) {
			struct count used = below[2 * i + s];
			/* The drawn children, and the frame's own count if given, fit in it. */
			if ((given && !count_add(used, f->self[s], &used)) ||
			        count_cmp(used, f->total[s]) > 0) {
				ok = false;
			} else {
				struct count left = count_sub(f->total[s], below[2 * i + s]);
				short_of |= given && count_cmp(left, f->self[s]) != 0;
				f->self[s] = left;
			}
		}
		r->info->pruned += short_of;
		if (!ok) {
			flamegraph_fail(
			        r, f->line, "a frame whose children add up to more than it");
		}
	}
	free(below);
	return ok;
}

/* Children lists: the children of i are kids[first[i] .. first[i + 1]). */
static void
children(const struct reader *r, uint32_t root, uint32_t **first_out, uint32_t **kids_out)
{
	size_t n = r->count;
	uint32_t *first = xcalloc(n + 2, sizeof(*first));
	uint32_t *kids = xmalloc(n * sizeof(*kids));
	for (size_t i = 0; i < n; i++) {
		if (i != root) {
			first[r->frames[i].parent + 1]++;
		}
	}
	for (size_t i = 0; i < n; i++) {
		first[i + 1] += first[i];
	}
	for (size_t i = 0; i < n; i++) {
		if (i != root) {
			kids[first[r->frames[i].parent]++] = (uint32_t)i;
		}
	}
	/* Filling moved each start to the next one's: move them back. */
	memmove(first + 1, first, n * sizeof(*first));
	first[0] = 0;
	*first_out = first;
	*kids_out = kids;
}

/*
 * Where the walk is at each depth: the frames open, the next child of
 * each, and the place in the tree (a cursor, or the length of the path
 * written so far when stacks must be added whole).
 */
struct walk {
	uint32_t *open, *next;
	struct tree_cursor *at;
	size_t *path_len;
	struct buf path;
	bool whole; /* tree_add_stack with the path, not cursors */
};

/* A frame entered at depth d (1 and up): its place, and its own counts. */
static bool
enter(struct reader *r, struct walk *w, const struct frame *f, size_t d)
{
	const char *name = r->names.data + f->name_at, *reason = NULL;
	bool ok = true;
	/* An empty name (inferno draws one for a stack ending in ';') is its
	 * caller, as the folded reader has it. */
	if (w->whole) {
		buf_setlen(&w->path, w->path_len[d - 1]);
		if (w->path.len && f->name_len) {
			buf_addc(&w->path, ';');
		}
		buf_add(&w->path, name, f->name_len);
		w->path_len[d] = w->path.len;
	} else if (f->name_len) {
		ok = tree_cursor_child(r->t, &w->at[d - 1], name, f->name_len, &w->at[d], &reason);
	} else {
		w->at[d] = w->at[d - 1];
	}
	for (int s = 0; ok && s < 2; s++) {
		if (count_is_zero(f->self[s])) {
			continue;
		}
		ok = w->whole ? tree_add_stack(r->t, (enum side)s, w->path.data, w->path.len,
		                        f->self[s], &reason)
		              : tree_add_count(
		                        r->t, (enum side)s, w->at[d].node, f->self[s], &reason);
	}
	return ok || flamegraph_fail(r, f->line, reason);
}

/*
 * Every frame with a count of its own becomes a stack, in pre-order with
 * an explicit stack of open frames: a path can be thousands deep. Frame by
 * frame through cursors when the tree allows it (one step a frame instead
 * of a whole path a stack), else whole paths.
 */
/*
 * Whole paths cost their depth each: a frame a row up is a hundred bytes
 * of SVG, so a hostile file could ask for its size squared in frames. As
 * for the JSON readers, the frames of all paths are bounded by a multiple
 * of the frames drawn, checked first.
 */
static bool
paths_bounded(struct reader *r)
{
	uint64_t frames = 0;
	for (size_t i = 0; i < r->count; i++) {
		const struct frame *f = &r->frames[i];
		bool own = !count_is_zero(f->self[SIDE_BASE]) || !count_is_zero(f->self[SIDE_HEAD]);
		frames += own ? f->depth : 0;
	}
	if (frames > (uint64_t)64 * r->count + ((uint64_t)1 << 24)) {
		return flamegraph_fail(r, 0,
		        "the stacks are too deep to merge whole (--reverse, or the frame "
		        "rewriting options): read the file without them");
	}
	return true;
}

static bool
add_stacks(struct reader *r, uint32_t root)
{
	bool whole = tree_needs_paths(r->t) || r->semicolon;
	if (whole && !paths_bounded(r)) {
		return false;
	}
	size_t n = r->count;
	uint32_t *first, *kids;
	children(r, root, &first, &kids);
	struct walk w = {
	        .open = xmalloc(n * sizeof(*w.open)), .next = xmalloc(n * sizeof(*w.next))};
	w.whole = whole;
	if (w.whole) {
		w.path_len = xcalloc(n, sizeof(*w.path_len));
	} else {
		w.at = xmalloc(n * sizeof(*w.at));
		w.at[0] = tree_cursor_root();
	}
	buf_init(&w.path);
	size_t depth = 1;
	w.open[0] = root;
	w.next[0] = first[root];
	bool ok = true;
	while (ok && depth > 0) {
		uint32_t at = w.open[depth - 1];
		if (w.next[depth - 1] == first[at + 1]) {
			depth--;
			continue;
		}
		uint32_t c = kids[w.next[depth - 1]++];
		ok = enter(r, &w, &r->frames[c], depth);
		w.open[depth] = c;
		w.next[depth] = first[c];
		depth++;
	}
	buf_finish(&w.path);
	free(w.open);
	free(w.next);
	free(w.at);
	free(w.path_len);
	free(first);
	free(kids);
	return ok;
}

/* A single-profile difffold graph's counts (data-head) go to the side asked for. */
static void
to_side(struct reader *r)
{
	if (r->side == SIDE_HEAD) {
		return;
	}
	for (size_t i = 0; i < r->count; i++) {
		r->frames[i].self[SIDE_BASE] = r->frames[i].self[SIDE_HEAD];
		r->frames[i].self[SIDE_HEAD] = (struct count){0};
	}
}

static bool
finish(struct reader *r)
{
	if (r->count < 2) {
		return flamegraph_fail(r, 0, "a flame graph without frames");
	}
	uint32_t root;
	bool own = r->info->kind == FLAMEGRAPH_SVG_DIFFFOLD;
	if (!set_depths(r, &root) || !(own ? parents_in_order(r, root) : parents_by_place(r)) ||
	        !self_counts(r, root, own)) {
		return false;
	}
	r->info->frames = r->count - 1;
	bool two = own && !count_is_zero(r->frames[root].total[SIDE_BASE]);
	if (two && !r->both) {
		return flamegraph_fail(r, 0,
		        "a differential flame graph holds two profiles: give it alone, or give "
		        "the flame graph of each profile");
	}
	r->info->differential = two;
	if (own && !two) {
		to_side(r); /* the peers' counts are on r->side already */
	}
	return add_stacks(r, root);
}

static void
reader_init(struct reader *r, struct tree *t, enum side side, bool both, const char *name,
        enum flamegraph_svg_kind kind, struct flamegraph_svg_info *info, struct diag *err)
{
	memset(r, 0, sizeof(*r));
	memset(info, 0, sizeof(*info));
	r->t = t;
	r->side = side;
	r->both = both;
	r->name = name;
	r->err = err;
	r->info = info;
	info->kind = kind;
	buf_init(&r->names);
	buf_init(&r->title);
}

static void
reader_finish(struct reader *r)
{
	free(r->frames);
	free(r->pool_at);
	free(r->pool_len);
	buf_finish(&r->names);
	buf_finish(&r->title);
}

/* difffold's unit is on its root; the peers' in every title. */
static void
own_unit(struct reader *r, const char *head, size_t len)
{
	static const char attr[] = "data-countname=\"";
	const char *end = head + len;
	const char *at = find(head, end, attr);
	const char *q =
	        at ? memchr(at + sizeof(attr) - 1, '"', (size_t)(end - at - sizeof(attr) + 1))
	           : NULL;
	size_t n = q ? (size_t)(q - at - sizeof(attr) + 1) : 0;
	const char *why;
	struct buf unit;
	buf_init(&unit);
	if (n > 0 && svgscan_decode_text(&unit, at + sizeof(attr) - 1, n, &why) &&
	        unit.len < sizeof(r->info->unit)) {
		memcpy(r->info->unit, unit.data, unit.len + 1);
	}
	buf_finish(&unit);
}

/* Whether the kind detected is one read here; its unit if it is difffold's. */
static bool
readable(struct reader *r, const char *head, size_t len)
{
	switch (r->info->kind) {
	case FLAMEGRAPH_SVG_DIFFFOLD:
		own_unit(r, head, len);
		return true;
	case FLAMEGRAPH_SVG_INFERNO:
	case FLAMEGRAPH_SVG_FLAMEGRAPH_PL:
	case FLAMEGRAPH_SVG_ASYNC_PROFILER_HTML:
		return true;
	case FLAMEGRAPH_SVG_NONE:
		break;
	}
	return flamegraph_fail(r, 0, "not a flame graph SVG");
}

/* The frames read: an async-profiler page must have had its pool of names. */
static bool
frames_read(struct reader *r)
{
	if (r->info->kind == FLAMEGRAPH_SVG_ASYNC_PROFILER_HTML &&
	        r->html_stage < FLAMEGRAPH_HTML_FRAMES) {
		return flamegraph_fail(r, 0,
		        "an async-profiler page without a pool of names (an older layout); have "
		        "async-profiler write collapsed stacks instead: asprof -o collapsed, or "
		        "jfrconv --collapsed FILE.jfr");
	}
	return finish(r);
}

bool
flamegraph_svg_read_mem(struct tree *t, enum side side, bool both, const char *name,
        const char *data, size_t len, struct flamegraph_svg_info *info, struct diag *err)
{
	struct reader r;
	reader_init(&r, t, side, both, name, flamegraph_svg_detect(data, len), info, err);
	source_parse_fn *parse = info->kind == FLAMEGRAPH_SVG_ASYNC_PROFILER_HTML
	                                 ? flamegraph_html_chunk
	                                 : parse_chunk;
	bool ok = readable(&r, data, len) && parse(&r, data, len, true) >= 0 && frames_read(&r);
	reader_finish(&r);
	return ok;
}

bool
flamegraph_svg_read_source(struct tree *t, enum side side, bool both, struct source *src,
        const char *head, size_t head_len, struct flamegraph_svg_info *info, struct diag *err)
{
	struct reader r;
	reader_init(&r, t, side, both, source_name(src), flamegraph_svg_detect(head, head_len),
	        info, err);
	source_parse_fn *parse = info->kind == FLAMEGRAPH_SVG_ASYNC_PROFILER_HTML
	                                 ? flamegraph_html_chunk
	                                 : parse_chunk;
	bool ok = readable(&r, head, head_len) &&
	          source_parse(src, head, head_len, parse, &r, err) && frames_read(&r);
	reader_finish(&r);
	return ok;
}

bool
flamegraph_svg_read(struct tree *t, enum folded_mode mode, struct source *src, const char *head,
        size_t head_len, const struct read_options *ro, struct read_result *res, struct diag *err)
{
	(void)ro;
	struct flamegraph_svg_info fi;
	if (!flamegraph_svg_read_source(
	            t, reader_side(mode), mode == FOLDED_AUTO, src, head, head_len, &fi, err)) {
		return false;
	}
	res->folded.three_column = fi.differential;
	const char *tool = flamegraph_svg_tool(fi.kind);
	snprintf(res->key, sizeof(res->key), "%s", tool);
	snprintf(res->unit, sizeof(res->unit), "%s", fi.unit[0] ? fi.unit : "samples");
	snprintf(res->note, sizeof(res->note), "stacks read back from %s's flame graph%s", tool,
	        fi.kind != FLAMEGRAPH_SVG_DIFFFOLD || fi.pruned
	                ? "; frames it pruned are missing, their counts in their callers' self"
	                : "");
	return true;
}
