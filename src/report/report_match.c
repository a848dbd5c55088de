/*
 * report_match: the matches of match.h in words and in JSON. A match's
 * path is its frames from the root, ';'-separated as in folded stacks.
 */
#include "report_match.h"

#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "match.h"
#include "match_text.h"
#include "normalize.h"
#include "report_private.h"
#include "xalloc.h"

/* Frames of a moved frame's other path in a hover or a report line. */
#define HOVER_FRAMES 4

static void
json_path(struct buf *b, const struct tree *t, uint32_t node)
{
	struct buf p;
	buf_init(&p);
	match_path(&p, t, node, UINT32_MAX);
	escape_json_string(b, p.data, p.len);
	buf_finish(&p);
}

/* The members of an entry, after its "kind". */
static void
json_evidence(struct buf *b, const struct tree *t, const struct match_entry *e)
{
	size_t len;
	const char *other = match_other_name(t, e, &len);
	switch ((enum match_kind)e->kind) {
	case MATCH_NAME:
	case MATCH_RENAMED:
		buf_adds(b, ",\"from\":");
		escape_json_string(b, other, len);
		break;
	case MATCH_WRAPPER_ADDED:
		buf_adds(b, ",\"wraps\":");
		escape_json_string(b, other, len);
		break;
	case MATCH_WRAPPER_REMOVED:
		buf_adds(b, ",\"wrapper\":");
		escape_json_string(b, other, len);
		break;
	case MATCH_MOVED_IN:
	case MATCH_MOVED_OUT:
		buf_adds(b, e->kind == MATCH_MOVED_IN ? ",\"from_path\":" : ",\"to_path\":");
		escape_json_string(b, other, len); /* the other end's path */
		/* The other end's frames: from_path/to_path is the largest of them. */
		buf_printf(b, ",\"other_paths\":%u", e->peers);
		break;
	case MATCH_NONE:
	case MATCH_KIND_COUNT:
		break;
	}
	if (e->kind == MATCH_NAME) {
		buf_adds(b, ",\"rules\":[");
		bool first = true;
		for (size_t r = 0; r < normalize_rule_count; r++) {
			if (e->rules & (1u << r)) {
				buf_adds(b, first ? "\"" : ",\"");
				buf_adds(b, normalize_rules[r].id);
				buf_addc(b, '"');
				first = false;
			}
		}
		buf_addc(b, ']');
	}
	if (e->kind == MATCH_RENAMED) {
		buf_adds(b, ",\"elsewhere\":");
		buf_adds(b, e->elsewhere ? "true" : "false");
	}
	buf_adds(b, ",\"similarity\":");
	buf_add_double(b, e->similarity, 4);
}

void
report_match_json_node(struct buf *b, const struct tree *t, const struct tree_node *n)
{
	const struct match_entry *e = match_of(t, (uint32_t)(n - t->nodes));
	if (!e) {
		return;
	}
	buf_adds(b, ",\"match\":{\"kind\":\"");
	buf_adds(b, match_kind_name((enum match_kind)e->kind));
	buf_addc(b, '"');
	json_evidence(b, t, e);
	buf_addc(b, '}');
}

void
report_match_json(struct buf *b, const struct tree *t)
{
	const struct match *m = t->match;
	if (!m) {
		return;
	}
	buf_adds(b, ",\"matches\":{\"names_matched\":");
	buf_add_u64(b, m->names_matched);
	for (int k = MATCH_NAME; k < MATCH_KIND_COUNT; k++) {
		buf_adds(b, ",\"");
		buf_adds(b, match_kind_name((enum match_kind)k));
		buf_adds(b, "\":");
		buf_add_u64(b, m->per_kind[k]);
	}
	buf_adds(b, ",\"list\":[");
	for (size_t i = 0; i < m->count; i++) {
		const struct match_entry *e = &m->entries[i];
		size_t len;
		const char *name = tree_node_name(t, &t->nodes[e->node], &len);
		buf_adds(b, i ? ",{\"kind\":\"" : "{\"kind\":\"");
		buf_adds(b, match_kind_name((enum match_kind)e->kind));
		buf_adds(b, "\",\"name\":");
		escape_json_string(b, name, len);
		buf_adds(b, ",\"path\":");
		json_path(b, t, e->node);
		json_evidence(b, t, e);
		buf_adds(b, ",\"base\":");
		buf_add_double(b, tree_value(t, &t->nodes[e->node], SIDE_BASE, false), 12);
		buf_adds(b, ",\"head\":");
		buf_add_double(b, tree_value(t, &t->nodes[e->node], SIDE_HEAD, false), 12);
		buf_adds(b, ",\"change\":");
		buf_add_double(b, e->change, 12);
		buf_addc(b, '}');
	}
	buf_adds(b, "]}");
}

void
report_match_hover(struct buf *b, const struct tree *t, uint32_t node)
{
	const struct match_entry *e = match_of(t, node);
	if (e) {
		match_describe(b, t, e, HOVER_FRAMES);
	}
}

/* Rows of the reports' table: the JSON has every match. */
#define TEXT_ROWS 20

/* An entry's frame name in style st. */
static void
entry_name(struct buf *b, const struct tree *t, const struct match_entry *e,
        const struct report_style *st)
{
	size_t len;
	const char *name = tree_node_name(t, &t->nodes[e->node], &len);
	report_add_code_name(b, st, name, len);
}

/* An entry's evidence (its hover line) in style st. */
static void
entry_evidence(struct buf *b, const struct tree *t, const struct match_entry *e,
        const struct report_style *st)
{
	struct buf hover;
	buf_init(&hover);
	report_match_hover(&hover, t, e->node);
	/* It quotes frame names: a code span in Markdown, as the names are. */
	report_add_code(b, st, hover.data, hover.len, 400);
	buf_finish(&hover);
}

/* open, the matches' headline and close; returns the entries to list. */
static size_t
add_headline(struct buf *b, const struct tree *t, const char *open, const char *close)
{
	struct buf line;
	buf_init(&line);
	match_headline(&line, t);
	buf_adds(b, open);
	buf_add(b, line.data, line.len);
	buf_adds(b, close);
	buf_finish(&line);
	return t->match->count < TEXT_ROWS ? t->match->count : TEXT_ROWS;
}

void
report_match_md(struct buf *b, const struct tree *t)
{
	if (!t->match) {
		return;
	}
	size_t rows = add_headline(b, t, "\n_Matched across builds: ",
	        "._\n\n| Match | Frame | Evidence | Change | Similarity "
	        "|\n|:--|:--|:--|--:|--:|\n");
	for (size_t i = 0; i < rows; i++) {
		const struct match_entry *e = &t->match->entries[i];
		buf_printf(b, "| %s | ", match_kind_name((enum match_kind)e->kind));
		entry_name(b, t, e, &report_md_style);
		buf_adds(b, " | ");
		entry_evidence(b, t, e, &report_md_style);
		buf_printf(b, " | %+.0f | %.2f |\n", e->change, e->similarity);
	}
	if (t->match->count > rows) {
		buf_printf(b, "\n_And %zu more: every match is in -f json._\n",
		        t->match->count - rows);
	}
}

void
report_match_text(struct buf *b, const struct tree *t)
{
	if (!t->match) {
		return;
	}
	size_t rows = add_headline(b, t, "Matched across builds: ", ".\n");
	for (size_t i = 0; i < rows; i++) {
		const struct match_entry *e = &t->match->entries[i];
		buf_printf(b, "  %s: ", match_kind_name((enum match_kind)e->kind));
		entry_name(b, t, e, &report_text_style);
		buf_adds(b, " (");
		entry_evidence(b, t, e, &report_text_style);
		buf_printf(b, "; change %+.0f, similarity %.2f)\n", e->change, e->similarity);
	}
	if (t->match->count > rows) {
		buf_printf(
		        b, "  and %zu more: every match is in -f json\n", t->match->count - rows);
	}
}
