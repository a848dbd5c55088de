/*
 * The rows of the header's largest changes, ranked by what the picture
 * shows. A function's self change summed over its call sites says what it
 * costs, but the colours are per frame: a function new under one path and
 * removed under another nets little while both frames are drawn in the
 * strongest steps. So every function with a drawn frame in the strongest
 * step gets a row (the legend's "strongest" frame is row A's), then the
 * largest of a function's net change and its strongest frame's change
 * ranks the rest. Each row points at its strongest drawn frame, where the
 * markers (layout_markers.c) draw its letter.
 */
#include "caption_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frame_box.h"
#include "match.h"
#include "numfmt.h"
#include "runs.h"
#include "shortname.h"
#include "xalloc.h"

/* A function as the ranking sees it. */
struct fn_change {
	uint32_t name;
	double base, head; /* self counts summed over its call sites */
	double frame_change; /* |change| of its strongest drawn frame, 0: none */
	uint32_t frame; /* that frame, TREE_NONE when none */
	bool top_step; /* that frame is in the strongest colour step */
};

/*
 * A drawn frame coloured as changed, for its name's strongest frame. Only
 * drawn frames are kept (thousands), not a record for every name (hundreds
 * of thousands, 40 bytes each: the largest allocation at the outputs).
 */
struct strong_frame {
	uint32_t name;
	uint32_t frame;
	double change; /* its |change| */
	size_t box; /* its box: the first of equal changes wins */
	bool top_step;
};

static int
cmp_strong(const void *pa, const void *pb)
{
	const struct strong_frame *a = pa, *b = pb;
	if (a->name != b->name) {
		return a->name < b->name ? -1 : 1;
	}
	if (a->change != b->change) {
		return a->change > b->change ? -1 : 1;
	}
	return (a->box > b->box) - (a->box < b->box);
}

/*
 * Per name, the strongest drawn frame that is coloured as changed: sorted
 * by name, its first frame the name's strongest (*count of them).
 */
static struct strong_frame *
strongest_frames(const struct caption_input *l, uint32_t names, size_t *count)
{
	const struct tree *t = l->tree;
	struct strong_frame *s = xmalloc((l->box_count ? l->box_count : 1) * sizeof(*s));
	size_t n = 0;
	for (size_t i = 1; i < l->box_count; i++) {
		const struct layout_box *b = &l->boxes[i];
		if (b->hidden || b->status == STATUS_SAME) {
			continue;
		}
		const struct tree_node *node = tree_node(t, b->node);
		/* A drawn frame's intensity is its |change| over the largest;
		 * none of 0 (or NaN) is a name's strongest. */
		double c = b->intensity * l->max_change;
		if (node->name >= names || !(c > 0)) {
			continue;
		}
		s[n++] = (struct strong_frame){.name = node->name,
		        .frame = b->node,
		        .change = c,
		        .box = i,
		        .top_step = color_step(b->intensity) == COLOR_STEPS};
	}
	qsort(s, n, sizeof(*s), cmp_strong);
	*count = n;
	return s;
}

static double
magnitude(const struct fn_change *f)
{
	double net = fabs(f->head - f->base);
	return net > f->frame_change ? net : f->frame_change;
}

/*
 * Functions with a frame in the strongest step first, by that frame; then
 * the larger of the net and the strongest frame's change; names in byte
 * order break ties (deterministic).
 */
static int
cmp_change(const struct fn_change *a, const struct fn_change *b, const struct tree *t)
{
	if (a->top_step != b->top_step) {
		return a->top_step ? -1 : 1;
	}
	double da = a->top_step ? a->frame_change : magnitude(a);
	double db = b->top_step ? b->frame_change : magnitude(b);
	if (da != db) {
		return da > db ? -1 : 1;
	}
	size_t la, lb;
	const char *na = intern_name(t->names, a->name, &la);
	const char *nb = intern_name(t->names, b->name, &lb);
	int c = memcmp(na, nb, la < lb ? la : lb);
	return c ? c : (la > lb) - (la < lb);
}

/* Keeps top[0..*n) the CAPTION_CHANGES_MAX first, sorted, by insertion. */
static void
keep_top(struct fn_change *top, size_t *n, const struct fn_change *c, const struct tree *t)
{
	size_t i = *n;
	if (i == CAPTION_CHANGES_MAX) {
		if (cmp_change(c, &top[i - 1], t) >= 0) {
			return;
		}
		i--;
	} else {
		(*n)++;
	}
	while (i > 0 && cmp_change(c, &top[i - 1], t) < 0) {
		top[i] = top[i - 1];
		i--;
	}
	top[i] = *c;
}

/* Rows past the usual five only for functions in the strongest step. */
static size_t
rows_kept(const struct fn_change *top, size_t n)
{
	size_t keep = n < CAPTION_CHANGES_USUAL ? n : CAPTION_CHANGES_USUAL;
	while (keep < n && top[keep].top_step) {
		keep++;
	}
	return keep;
}

static char *
change_text(double base, double head)
{
	struct buf b;
	buf_init(&b);
	numfmt_report_number(&b, head - base, 3, true, true);
	buf_adds(&b, " (");
	numfmt_change_percent(&b, base, head);
	buf_addc(&b, ')');
	return buf_detach(&b, NULL);
}

static char *
count_text(double base, double head)
{
	struct buf b;
	buf_init(&b);
	numfmt_caption_number(&b, base);
	buf_adds(&b, " \xE2\x86\x92 ");
	numfmt_caption_number(&b, head);
	return buf_detach(&b, NULL);
}

/* Self change a row's function gained and lost in moves between call paths. */
struct moves {
	double in, out;
};

/*
 * A frame's part in a move: matching found it moved (match.h), or, where
 * matching did not run or did not pair it, the function is new under one
 * path and removed under another.
 */
static void
add_move(const struct tree *t, uint32_t id, struct moves *m)
{
	const struct tree_node *n = tree_node(t, id);
	const struct match_entry *e = t->match ? match_of(t, id) : NULL;
	bool moved = e && (e->kind == MATCH_MOVED_IN || e->kind == MATCH_MOVED_OUT);
	double base = tree_value(t, n, SIDE_BASE, true), head = tree_value(t, n, SIDE_HEAD, true);
	if (moved || (base == 0 && head > 0) || (head == 0 && base > 0)) {
		if (head > base) {
			m->in += head - base;
		} else {
			m->out += head - base;
		}
	}
}

/*
 * "moved +29,475 / -19,710" for the rows whose function gained and lost
 * more than the noise floor in moves: its net change is what is left of
 * them. One walk of the tree for all the rows.
 */
static void
moved_notes(struct caption *c, const struct tree *t, const struct fn_change *top, size_t n,
        double floor)
{
	uint32_t names = intern_count(t->names);
	uint8_t *row_of = xcalloc(names ? names : 1, 1); /* row + 1, 0: none */
	struct moves m[CAPTION_CHANGES_MAX] = {{0, 0}};
	for (size_t i = 0; i < n; i++) {
		row_of[top[i].name] = (uint8_t)(i + 1);
	}
	for (uint32_t id = 1; id < t->node_count; id++) {
		uint32_t name = t->nodes[id].name;
		if (name < names && row_of[name]) {
			add_move(t, id, &m[row_of[name] - 1]);
		}
	}
	free(row_of);
	for (size_t i = 0; i < n; i++) {
		if (!(m[i].in > floor && -m[i].out > floor)) {
			continue;
		}
		struct buf b;
		buf_init(&b);
		buf_adds(&b, "moved ");
		numfmt_report_number(&b, m[i].in, 3, true, true);
		buf_adds(&b, " / ");
		numfmt_report_number(&b, m[i].out, 3, true, true);
		free(c->changes[i].note);
		c->changes[i].note = buf_detach(&b, NULL);
	}
}

/*
 * The short names of the rows; a row whose short name is another row's
 * keeps its full name, so distinct functions never read alike.
 */
static void
short_names(struct caption *c)
{
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < c->change_count; i++) {
		buf_reset(&b);
		shortname_append(c->changes[i].name, strlen(c->changes[i].name), &b);
		c->changes[i].short_name = xmemdup(b.data, b.len);
	}
	buf_finish(&b);
	bool clash[CAPTION_CHANGES_MAX] = {false};
	for (size_t i = 0; i < c->change_count; i++) {
		for (size_t j = i + 1; j < c->change_count; j++) {
			if (strcmp(c->changes[i].short_name, c->changes[j].short_name) == 0) {
				clash[i] = clash[j] = true;
			}
		}
	}
	for (size_t i = 0; i < c->change_count; i++) {
		if (clash[i]) {
			free(c->changes[i].short_name);
			c->changes[i].short_name = xstrdup(c->changes[i].name);
		}
	}
}

static void
fill_row(struct caption_change *r, const struct fn_change *f, const struct tree *t, char *letter)
{
	r->change = change_text(f->base, f->head);
	r->counts = count_text(f->base, f->head);
	size_t len;
	const char *name = intern_name(t->names, f->name, &len);
	r->name = xmemdup(name, len);
	if (f->frame == TREE_NONE) {
		/* Removed code under --widths head, or frames too narrow. */
		r->note = xstrdup("not drawn");
	}
	r->frame = f->frame;
	if (f->frame != TREE_NONE) {
		r->marker[0] = (*letter)++;
	}
}

void
caption_rank_changes(struct caption *c, const struct caption_input *l, const double (*by_name)[2])
{
	const struct tree *t = l->tree;
	uint32_t names = intern_count(t->names);
	size_t strong_count;
	struct strong_frame *strong = strongest_frames(l, names, &strong_count);
	size_t next = 0; /* strong[next]: the next name's strongest frame */
	double base = tree_total(t, SIDE_BASE), head = tree_total(t, SIDE_HEAD);
	double floor = t->opt.min_delta * (base > head ? base : head);
	struct fn_change top[CAPTION_CHANGES_MAX];
	size_t n = 0;
	for (uint32_t i = 0; i < names; i++) {
		struct fn_change f = {.name = i,
		        .base = by_name[i][SIDE_BASE],
		        .head = by_name[i][SIDE_HEAD],
		        .frame = TREE_NONE};
		if (next < strong_count && strong[next].name == i) {
			f.frame_change = strong[next].change;
			f.frame = strong[next].frame;
			f.top_step = strong[next].top_step;
			while (next < strong_count && strong[next].name == i) {
				next++;
			}
		}
		/* Under --runs only what the test found counts, as in the reports;
		 * asked only past the floor (most names are not). */
		bool net = fabs(f.head - f.base) > floor &&
		           !(t->runs && !runs_function_significant(t->runs, i, false));
		if (net || f.frame != TREE_NONE) {
			keep_top(top, &n, &f, t);
		}
	}
	free(strong);
	n = rows_kept(top, n);
	char letter = 'A';
	for (size_t i = 0; i < n; i++) {
		fill_row(&c->changes[i], &top[i], t, &letter);
	}
	c->change_count = n;
	moved_notes(c, t, top, n, floor);
	short_names(c);
	if (n > 0) {
		struct buf b;
		buf_init(&b);
		buf_printf(&b, "largest changes (self %s):", l->opt->countname);
		c->changes_title = buf_detach(&b, NULL);
	}
}
