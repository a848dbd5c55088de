#include "caption.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "numfmt.h"
#include "xalloc.h"

#define SEP " \xc2\xb7 " /* " · " between the parts of a line */

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

static char *
totals_line(const struct layout *l)
{
	const struct tree *t = l->tree;
	const struct options *o = l->opt;
	const char *unit = o->countname;
	const struct tree_node *root = tree_node(t, TREE_ROOT);
	double base = count_to_double(root->total[SIDE_BASE]);
	double head = count_to_double(root->total[SIDE_HEAD]);
	struct buf b;
	buf_init(&b);
	if (!t->differential) {
		buf_adds(&b, o->head_label);
		buf_addc(&b, ' ');
		add_exact_count(&b, root->total[SIDE_HEAD], unit);
		return detach(&b);
	}
	buf_adds(&b, "base: ");
	buf_adds(&b, o->base_label);
	buf_addc(&b, ' ');
	add_exact_count(&b, root->total[SIDE_BASE], unit);
	buf_adds(&b, SEP "head: ");
	buf_adds(&b, o->head_label);
	buf_addc(&b, ' ');
	add_exact_count(&b, root->total[SIDE_HEAD], unit);
	buf_adds(&b, " (");
	if (base > 0) {
		numfmt_caption_percent(&b, (head - base) / base * 100.0, true);
	} else {
		buf_adds(&b, "base is empty");
	}
	buf_addc(&b, ')');
	return detach(&b);
}

static const char *
widths_name(enum widths w)
{
	switch (w) {
	case WIDTHS_BASE:
		return "base";
	case WIDTHS_UNION:
		return "union (base + head)";
	case WIDTHS_HEAD:
		break;
	}
	return "head";
}

/* Base samples in code the head no longer runs (status removed). */
static double
removed_samples(const struct tree *t)
{
	double sum = 0;
	for (size_t i = 0; i < t->node_count; i++) {
		const struct tree_node *n = &t->nodes[i];
		if (count_is_zero(n->total[SIDE_HEAD])) {
			sum += tree_value(t, n, SIDE_BASE, true);
		}
	}
	return sum;
}

static char *
rule_line(const struct layout *l)
{
	const struct tree *t = l->tree;
	const struct options *o = l->opt;
	struct buf b;
	buf_init(&b);
	if (!t->differential) {
		buf_adds(&b, "width: share of all ");
		buf_adds(&b, o->countname);
		buf_adds(&b, SEP "colour: ");
		buf_adds(&b, o->palette);
		buf_adds(&b, " palette, by name");
		return detach(&b);
	}
	if (t->normalized) {
		buf_adds(&b, "comparison: normalised (base scaled by \xc3\x97");
		buf_add_double(&b, t->base_scale, t->base_scale >= 10 ? 1 : 2);
		buf_adds(&b, " to head total)");
	} else {
		buf_adds(&b, "comparison: absolute counts");
	}
	buf_adds(&b, SEP "widths: ");
	buf_adds(&b, widths_name(o->widths));
	/* Removed code has no head width: say so rather than let it vanish. */
	double removed = o->widths == WIDTHS_HEAD ? removed_samples(t) : 0;
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
	numfmt_caption_percent(&b, t->opt.min_delta * 100.0, false);
	return detach(&b);
}

static char *
pruned_line(const struct layout *l)
{
	if (!(l->pruned_samples > 0)) {
		return NULL;
	}
	const struct options *o = l->opt;
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

static char *
scale_line(const struct layout *l)
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
	buf_adds(&b, l->opt->color_by == COLOR_BY_TOTAL
	                     ? "\xe2\x88\x9a scale, strongest = total change of "
	                     : "\xe2\x88\x9a scale, strongest = self change of ");
	add_count(&b, l->max_change, l->opt->countname);
	if (total > 0) {
		buf_adds(&b, " (");
		numfmt_caption_percent(&b, l->max_change / total * 100.0, false);
		buf_adds(&b, " of total)");
	}
	return detach(&b);
}

static void
add_legend(struct caption *c, const struct layout *l)
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

void
caption_init(struct caption *c, const struct layout *l)
{
	memset(c, 0, sizeof(*c));
	const struct options *o = l->opt;
	if (o->title && *o->title) {
		c->title = xstrdup(o->title);
	} else {
		c->title =
		        xstrdup(l->tree->differential ? "Differential flame graph" : "Flame graph");
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
	c->totals = totals_line(l);
	c->rule = rule_line(l);
	c->pruned = pruned_line(l);
	if (l->tree->differential) {
		c->scale = scale_line(l);
		add_legend(c, l);
	}
}

void
caption_finish(struct caption *c)
{
	free(c->title);
	free(c->subtitle);
	free(c->totals);
	free(c->rule);
	free(c->pruned);
	free(c->scale);
	memset(c, 0, sizeof(*c));
}
