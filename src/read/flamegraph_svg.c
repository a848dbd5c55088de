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
	return flamegraph_stacks(r);
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
