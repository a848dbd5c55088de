/*
 * match_text: a match in words (see match.h): its kind's name, the path of
 * a frame, an entry's description and the headline. Raw bytes, escaped by
 * whoever writes them out.
 */
#include "match_text.h"

#include <stdlib.h>

#include "xalloc.h"

void
match_path(struct buf *b, const struct tree *t, uint32_t node, uint32_t last)
{
	uint32_t depth = t->nodes[node].depth;
	uint32_t n = depth < last ? depth : last;
	if (n == 0) {
		return;
	}
	uint32_t *ids = xmalloc(n * sizeof(uint32_t));
	for (uint32_t d = n; d > 0; d--) {
		ids[d - 1] = node;
		node = t->nodes[node].parent;
	}
	if (n < depth) {
		buf_adds(b, "...;");
	}
	for (uint32_t d = 0; d < n; d++) {
		size_t len;
		const char *s = tree_node_name(t, &t->nodes[ids[d]], &len);
		if (d) {
			buf_addc(b, ';');
		}
		buf_add(b, s, len);
	}
	free(ids);
}

/* The last `last` frames of a ';'-joined path, after "...;" when it has more. */
static void
last_frames(struct buf *b, const char *path, size_t len, uint32_t last)
{
	size_t at = len;
	uint32_t seen = 0;
	while (at > 0) {
		if (path[at - 1] == ';' && ++seen == last) {
			buf_adds(b, "...;");
			break;
		}
		at--;
	}
	buf_add(b, path + at, len - at);
}

void
match_describe(struct buf *b, const struct tree *t, const struct match_entry *e, uint32_t last)
{
	static const char *const words[MATCH_KIND_COUNT] = {"", "base name: ", "renamed from ",
	        "wrapper inserted above ", "wrapper removed: ", "moved from ", "moved to "};
	buf_adds(b, words[e->kind]);
	if (e->kind == MATCH_MOVED_IN || e->kind == MATCH_MOVED_OUT) {
		size_t len;
		const char *path = match_other_name(t, e, &len);
		last_frames(b, path, len, last);
		if (e->peers > 1) {
			buf_printf(
			        b, " and %u other path%s", e->peers - 1, e->peers > 2 ? "s" : "");
		}
		return;
	}
	size_t len;
	const char *other = match_other_name(t, e, &len);
	buf_add(b, other, len);
}

static void
count_of(struct buf *b, size_t n, const char *one, const char *many, bool *first)
{
	if (!n) {
		return;
	}
	buf_adds(b, *first ? "" : ", ");
	buf_printf(b, "%zu %s", n, n == 1 ? one : many);
	*first = false;
}

void
match_headline(struct buf *b, const struct tree *t)
{
	const struct match *m = t->match;
	if (!m) {
		return;
	}
	bool first = true;
	count_of(b, m->names_matched, "name matched across builds", "names matched across builds",
	        &first);
	count_of(b, m->per_kind[MATCH_WRAPPER_ADDED], "inserted wrapper frame",
	        "inserted wrapper frames", &first);
	count_of(b, m->per_kind[MATCH_WRAPPER_REMOVED], "frame under a removed wrapper",
	        "frames under removed wrappers", &first);
	count_of(b, m->per_kind[MATCH_RENAMED], "frame renamed", "frames renamed", &first);
	count_of(b, m->per_kind[MATCH_MOVED_IN], "function moved", "functions moved", &first);
}

const char *
match_kind_name(enum match_kind k)
{
	static const char *const names[MATCH_KIND_COUNT] = {"none", "name", "renamed",
	        "wrapper_added", "wrapper_removed", "moved_in", "moved_out"};
	return k < MATCH_KIND_COUNT ? names[k] : "none";
}
