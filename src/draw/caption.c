#include "caption.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "caption_private.h"
#include "match.h"
#include "match_text.h"
#include "numfmt.h"
#include "runs.h"
#include "utf8.h"
#include "transform.h"
#include "xalloc.h"

#define SEP CAPTION_SEP

/* "150,000 samples", and "1 sample": a plural countname loses its 's' for one. */
static void
add_count(struct buf *b, double v, const char *countname)
{
	numfmt_caption_number(b, v);
	buf_addc(b, ' ');
	size_t n = strlen(countname);
	if (v == 1 && n > 1 && countname[n - 1] == 's') {
		n--;
	}
	buf_add(b, countname, n);
}

/* The same for a count, digit for digit (a double rounds past 2^53). */
static void
add_exact_count(struct buf *b, struct count c, const char *countname)
{
	numfmt_count(b, c, 3, false, false);
	buf_addc(b, ' ');
	size_t n = strlen(countname);
	if (c.units == 1 && c.nanos == 0 && n > 1 && countname[n - 1] == 's') {
		n--;
	}
	buf_add(b, countname, n);
}

static char *
detach(struct buf *b)
{
	return buf_detach(b, NULL);
}

/* Longest profile name before it is shortened in the middle, and the
 * least it is shortened to on a narrow image. */
#define NAME_CAP 48
#define NAME_MIN 16
#define ELLIPSIS "\xE2\x80\xA6"

/*
 * A profile's name, a CI path shortened in the middle so the file name
 * stays: "/home/runner/work/svc/s…/base-8f3a2c1.folded".
 */
static void
add_name(struct buf *b, const char *s, const struct caption_input *l)
{
	/* A name and "base: " fit one line of a narrow image too. */
	double line = l->line_chars - 6;
	size_t cap = line >= NAME_CAP ? NAME_CAP : line > NAME_MIN ? (size_t)line : NAME_MIN;
	size_t len = strlen(s);
	size_t chars = utf8_length(s, len);
	if (chars <= cap) {
		buf_add(b, s, len);
		return;
	}
	/* Two thirds of the room for the end, from a '/' when there is one. */
	size_t tail = utf8_prefix_bytes(s, len, chars - (cap - 1) * 2 / 3);
	const char *slash = memchr(s + tail, '/', len - tail);
	if (slash && slash + 1 < s + len) {
		tail = (size_t)(slash - s);
	}
	size_t tail_chars = utf8_length(s + tail, len - tail);
	size_t head_chars = cap - 1 > tail_chars ? cap - 1 - tail_chars : 0;
	buf_add(b, s, utf8_prefix_bytes(s, len, head_chars));
	buf_adds(b, ELLIPSIS);
	buf_add(b, s + tail, len - tail);
}

/* The same for the totals, digit for digit past 2^53. */
static void
add_exact_change(struct buf *b, struct count base, struct count head)
{
	bool less = count_cmp(head, base) < 0;
	numfmt_count(b, less ? count_sub(base, head) : count_sub(head, base), 3, less, true);
	buf_adds(b, " (");
	numfmt_change_percent(b, count_to_double(base), count_to_double(head));
	buf_addc(b, ')');
}

/*
 * The numbers first, then the names, so wrapping keeps the numbers on the
 * first line: "base 119,000 → head 150,000 samples: +31,000 (+26.1%) ·
 * base: v1.folded · head: v2.folded".
 */
static char *
totals_line(const struct caption_input *l, bool names)
{
	const struct tree *t = l->tree;
	const struct draw_options *o = l->opt;
	const char *unit = o->countname;
	const struct tree_node *root = tree_node(t, TREE_ROOT);
	struct buf b;
	buf_init(&b);
	if (!t->differential) {
		add_exact_count(&b, tree_node_total(t, root, SIDE_HEAD), unit);
		if (!names) {
			return detach(&b);
		}
		buf_adds(&b, SEP);
		add_name(&b, o->head_label, l);
		return detach(&b);
	}
	buf_adds(&b, "base ");
	numfmt_count(&b, tree_node_total(t, root, SIDE_BASE), 3, false, false);
	buf_adds(&b, " \xE2\x86\x92 head ");
	add_exact_count(&b, tree_node_total(t, root, SIDE_HEAD), unit);
	buf_adds(&b, ": ");
	add_exact_change(
	        &b, tree_node_total(t, root, SIDE_BASE), tree_node_total(t, root, SIDE_HEAD));
	if (!names) {
		return detach(&b);
	}
	buf_adds(&b, SEP "base: ");
	add_name(&b, o->base_label, l);
	buf_adds(&b, SEP "head: ");
	add_name(&b, o->head_label, l);
	return detach(&b);
}

/*
 * What the caption of a differential graph needs from every node, in one
 * walk of the tree (on big trees the caption's main cost).
 */
struct node_sums {
	double removed; /* base samples in code the head no longer runs */
	/* Self counts by name, base then head: the name is the index (16
	 * bytes a name, not 24). */
	double (*by_name)[2];
	uint32_t names;
};

static void
sum_nodes(const struct tree *t, struct node_sums *s)
{
	s->removed = 0;
	s->names = intern_count(t->names);
	s->by_name = xcalloc(s->names, sizeof(*s->by_name));
	for (size_t i = 0; i < t->node_count; i++) {
		const struct tree_node *n = &t->nodes[i];
		if (count_is_zero(tree_node_total(t, n, SIDE_HEAD))) {
			s->removed += tree_value(t, n, SIDE_BASE, true);
		}
		struct count b = tree_node_self(t, n, SIDE_BASE),
		             h = tree_node_self(t, n, SIDE_HEAD);
		/* Most frames only call others: no self cost to add. */
		bool none = (b.units | b.nanos | h.units | h.nanos) == 0;
		if (!none && i != TREE_ROOT && n->name < s->names) {
			s->by_name[n->name][SIDE_BASE] += tree_value(t, n, SIDE_BASE, true);
			s->by_name[n->name][SIDE_HEAD] += tree_value(t, n, SIDE_HEAD, true);
		}
	}
}

static char *
rule_line(const struct caption_input *l, const struct node_sums *sums)
{
	const struct tree *t = l->tree;
	const struct draw_options *o = l->opt;
	struct buf b;
	buf_init(&b);
	if (!t->differential) {
		/* A flame chart's x is the file's order: time, for a profiler
		 * that writes its samples as they come. */
		buf_adds(&b, t->opt.chart ? "x: the file's order" SEP : "");
		buf_adds(&b, "width: share of all ");
		buf_adds(&b, o->countname);
		buf_adds(&b, SEP "colour: ");
		buf_adds(&b, o->palette);
		buf_adds(&b, " palette, by name");
		return detach(&b);
	}
	if (t->run_scaled) {
		buf_adds(&b, "comparison: mean run (base scaled by \xc3\x97");
		buf_add_double(&b, t->base_scale, 2);
		buf_adds(&b, ", head runs / base runs)");
	} else if (t->normalized) {
		buf_adds(&b, "comparison: normalised (base scaled by \xc3\x97");
		buf_add_double(&b, t->base_scale, t->base_scale >= 10 ? 1 : 2);
		buf_adds(&b, " to head total)");
	} else {
		buf_adds(&b, "comparison: absolute counts");
	}
	buf_adds(&b, SEP "widths: ");
	buf_adds(&b, o->widths == WIDTHS_UNION ? "union (base + head)"
	                                       : draw_options_widths_name(o->widths));
	/* Removed code has no head width: say so rather than let it vanish. */
	double removed = o->widths == WIDTHS_HEAD ? sums->removed : 0;
	if (removed > 0) {
		buf_adds(&b, " (removed code, ");
		numfmt_caption_number(&b, removed);
		buf_adds(&b, " base ");
		buf_adds(&b, o->countname);
		buf_adds(&b, ", not drawn: see --widths union)");
	}
	buf_adds(&b, SEP "colour: ");
	buf_adds(&b, o->color_by == COLOR_BY_TOTAL ? "total change" : "self change");
	buf_adds(&b, SEP "noise floor: ");
	numfmt_percent(&b, t->opt.min_delta * 100.0, false);
	return detach(&b);
}

static char *
pruned_line(const struct caption_input *l)
{
	if (!(l->pruned_samples > 0)) {
		return NULL;
	}
	const struct draw_options *o = l->opt;
	struct buf b;
	buf_init(&b);
	add_count(&b, l->pruned_samples, o->countname);
	buf_adds(&b, " in ");
	numfmt_caption_number(&b, (double)l->pruned_frames);
	buf_adds(&b, l->pruned_frames == 1 ? " frame" : " frames");
	buf_adds(&b, " narrower than ");
	numfmt_caption_number(&b, o->min_width);
	buf_adds(&b, o->min_width_percent ? "% of the total" : " px");
	buf_adds(&b, " not drawn");
	return detach(&b);
}

/* "+1,234 deeper frames (5,678 samples) past depth 40 not drawn". */
static char *
capped_line(const struct caption_input *l)
{
	if (l->capped_frames == 0) {
		return NULL;
	}
	struct buf b;
	buf_init(&b);
	buf_addc(&b, '+');
	numfmt_caption_number(&b, (double)l->capped_frames);
	buf_adds(&b, l->capped_frames == 1 ? " deeper frame (" : " deeper frames (");
	add_count(&b, l->capped_samples, l->opt->countname);
	buf_printf(&b, ") past depth %u not drawn", l->depth_cap);
	return detach(&b);
}

static void
add_part(struct caption *c, struct buf *b)
{
	if (b->len > 0 && c->compact_count < CAPTION_COMPACT_MAX) {
		c->compact[c->compact_count++] = buf_detach(b, NULL);
	}
	buf_reset(b);
}

/*
 * The compact header's one line, in parts by importance: the layout keeps
 * those that fit. The profiles' names are left out (a comment has them
 * beside the picture); what hides code from the picture is kept.
 */
static void
compact_parts(struct caption *c, const struct caption_input *l, const struct node_sums *sums)
{
	const struct draw_options *o = l->opt;
	const struct tree *t = l->tree;
	struct buf b;
	buf_init(&b);
	c->compact[c->compact_count++] = totals_line(l, false);
	if (o->subtitle && *o->subtitle) {
		buf_adds(&b, o->subtitle);
		add_part(c, &b);
	}
	if (t->differential) {
		buf_adds(&b, o->color_by == COLOR_BY_TOTAL ? "colour: total change"
		                                           : "colour: self change");
		if (t->normalized || t->run_scaled) {
			buf_adds(&b, ", base scaled \xc3\x97");
			buf_add_double(&b, t->base_scale, 2);
		}
		add_part(c, &b);
	}
	if (t->differential && o->widths == WIDTHS_HEAD && sums->removed > 0) {
		buf_adds(&b, "removed: ");
		add_count(&b, sums->removed, o->countname);
		buf_adds(&b, " not drawn");
		add_part(c, &b);
	}
	if (c->capped) {
		buf_adds(&b, c->capped);
		add_part(c, &b);
	}
	if (t->runs) {
		buf_adds(&b, "tested: p<");
		buf_add_double(&b, runs_alpha(t->runs), 4);
		add_part(c, &b);
	}
	if (l->pruned_samples > 0) {
		add_count(&b, l->pruned_samples, o->countname);
		buf_adds(&b, " too narrow to draw");
		add_part(c, &b);
	}
	buf_finish(&b);
}

/* The legend's scale; `marker`: the row whose frame is the strongest. */
static char *
scale_line(const struct caption_input *l, const char *marker)
{
	const struct tree *t = l->tree;
	struct buf b;
	buf_init(&b);
	if (!(l->max_change > 0)) {
		buf_adds(&b, "no change above the noise floor");
		return detach(&b);
	}
	double base = tree_total(t, SIDE_BASE), head = tree_total(t, SIDE_HEAD);
	double total = base > head ? base : head;
	/* Names the scale and the quantity, so the ramps read without a doc. */
	if (l->opt->compact && *marker) {
		/* The short form, so the legend keeps to one band. */
		buf_printf(&b, "strongest = %s: ", marker);
		add_count(&b, l->max_change, l->opt->countname);
		return detach(&b);
	}
	buf_adds(&b, "\xe2\x88\x9a scale, strongest = ");
	if (*marker) {
		buf_printf(&b, "%s, a frame's ", marker);
	} else {
		buf_adds(&b, "a frame's ");
	}
	buf_adds(&b, l->opt->color_by == COLOR_BY_TOTAL ? "total change of " : "self change of ");
	add_count(&b, l->max_change, l->opt->countname);
	if (total > 0) {
		buf_adds(&b, " (");
		numfmt_percent(&b, l->max_change / total * 100.0, false);
		buf_adds(&b, " of total)");
	}
	return detach(&b);
}

static void
add_legend(struct caption *c, const struct caption_input *l)
{
	static const struct {
		enum node_status status;
		const char *label;
	} classes[] = {
	        {STATUS_SLOWER, "slower"},
	        {STATUS_FASTER, "faster"},
	        {STATUS_NEW, "new"},
	        {STATUS_REMOVED, "removed"},
	        {STATUS_SAME, "unchanged"},
	};
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		struct caption_legend_entry *e = &c->legend[c->legend_count++];
		e->steps = classes[i].status == STATUS_SAME ? 1 : COLOR_STEPS;
		for (int k = 0; k < e->steps; k++) {
			e->ramp[k] = color_diff_step(classes[i].status, k + 1, l->opt->theme);
		}
		e->fill = e->ramp[e->steps - 1];
		size_t n = strlen(classes[i].label);
		memcpy(e->label, classes[i].label, n + 1);
	}
}

/*
 * Tested counts (sampled, or --runs): how many runs, and that colours show
 * only significant changes;
 * after the subtitle, so the header's layout stays as it is.
 */
static void
add_runs_note(struct caption *c, const struct caption_input *l)
{
	const struct runs *r = l->tree->runs;
	if (!r) {
		return;
	}
	struct buf b;
	buf_init(&b);
	if (c->subtitle) {
		buf_adds(&b, c->subtitle);
		buf_adds(&b, SEP);
	}
	size_t nb = runs_count(r, SIDE_BASE), nh = runs_count(r, SIDE_HEAD);
	if (runs_single(r)) {
		buf_adds(&b, "one profile a side");
	} else if (nb == nh) {
		buf_printf(&b, "%zu runs a side", nb);
	} else {
		buf_printf(&b, "%zu base and %zu head runs", nb, nh);
	}
	buf_adds(&b, ", changes not significant at p<");
	buf_add_double(&b, runs_alpha(r), 4);
	buf_adds(&b, " drawn as unchanged");
	free(c->subtitle);
	c->subtitle = detach(&b);
}

/*
 * The subtitle line (NULL: none), then the transforms that rewrote the
 * stacks, if any: the line layout.c keeps for them (the rule line is full).
 */
static char *
with_transforms(char *subtitle, const struct draw_options *o)
{
	if (!transform_active(o->transform)) {
		return subtitle;
	}
	struct buf b;
	buf_init(&b);
	if (subtitle) {
		buf_adds(&b, subtitle);
		buf_adds(&b, SEP);
	}
	buf_adds(&b, "transforms: ");
	transform_describe(o->transform, &b);
	free(subtitle);
	return detach(&b);
}

/* The subtitle, with what matched across builds after it (match.h). */
static char *
with_matches(char *subtitle, const struct tree *t)
{
	if (!t->match) {
		return subtitle;
	}
	struct buf b;
	buf_init(&b);
	buf_adds(&b, subtitle ? subtitle : "");
	buf_adds(&b, subtitle ? SEP : "");
	match_headline(&b, t);
	free(subtitle);
	return detach(&b);
}

void
caption_init(struct caption *c, const struct caption_input *l)
{
	memset(c, 0, sizeof(*c));
	const struct draw_options *o = l->opt;
	if (o->title && *o->title) {
		c->title = xstrdup(o->title);
	} else {
		c->title = xstrdup(l->tree->differential ? "Differential flame graph"
		                   : l->tree->opt.chart  ? "Flame chart"
		                                         : "Flame graph");
	}
	if (o->subtitle && *o->subtitle && o->input_note) {
		struct buf b;
		buf_init(&b);
		buf_printf(&b, "%s (%s)", o->subtitle, o->input_note);
		c->subtitle = buf_detach(&b, NULL);
	} else if (o->subtitle && *o->subtitle) {
		c->subtitle = xstrdup(o->subtitle);
	} else if (o->input_note) {
		c->subtitle = xstrdup(o->input_note);
	}
	add_runs_note(c, l);
	c->subtitle = with_transforms(c->subtitle, o);
	c->subtitle = with_matches(c->subtitle, l->tree); /* matching across builds */
	c->totals = totals_line(l, true);
	struct node_sums sums = {0};
	if (l->tree->differential) {
		sum_nodes(l->tree, &sums);
	}
	c->rule = rule_line(l, &sums);
	c->pruned = pruned_line(l);
	c->capped = capped_line(l);
	if (l->tree->differential) {
		add_legend(c, l);
		caption_rank_changes(c, l, sums.by_name);
		/* Row A holds the strongest drawn frame (caption_rank.c). */
		c->scale = scale_line(l, c->change_count > 0 ? c->changes[0].marker : "");
	}
	compact_parts(c, l, &sums);
	free(sums.by_name);
}

void
caption_finish(struct caption *c)
{
	free(c->title);
	free(c->subtitle);
	free(c->totals);
	free(c->rule);
	free(c->pruned);
	free(c->capped);
	for (size_t i = 0; i < c->compact_count; i++) {
		free(c->compact[i]);
	}
	free(c->scale);
	free(c->changes_title);
	for (size_t i = 0; i < c->change_count; i++) {
		free(c->changes[i].change);
		free(c->changes[i].counts);
		free(c->changes[i].name);
		free(c->changes[i].short_name);
		free(c->changes[i].note);
	}
	memset(c, 0, sizeof(*c));
}
