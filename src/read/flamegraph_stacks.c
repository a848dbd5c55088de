/*
 * flamegraph_stacks: the frames a flame graph reader gathers as drawn
 * (flamegraph_new_frame), turned into stacks: rows into depths, spans (or
 * difffold's own order) into callers, totals into self counts, then each
 * stack into the tree.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flamegraph_private.h"
#include "tree_build.h"
#include "xalloc.h"

bool
flamegraph_fail(struct reader *r, uint64_t line, const char *why)
{
	diag_set(r->err, r->name, line, why);
	return false;
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

bool
flamegraph_stacks(struct reader *r)
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
