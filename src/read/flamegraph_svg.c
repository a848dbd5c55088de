#include "flamegraph_svg.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "count.h"
#include "utf8.h"
#include "xalloc.h"

#define NONE UINT32_MAX

/* One <g> with a <title> and a <rect>: a frame as drawn. */
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
	const char *counted; /* how far lines are counted in the current chunk */
};

static const char difffold_mark[] = "class=\"difffold\"";
static const char inferno_mark[] = "xmlns:fg=\"http://github.com/jonhoo/inferno\"";
static const char flamegraph_mark[] = "Flame graph stack visualization";

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
	case FLAMEGRAPH_SVG_NONE:
		break;
	}
	return "an unknown tool";
}

static bool
fail_at(struct reader *r, uint64_t line, const char *why)
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

/* An attribute of a tag: its name and its value, between the quotes. */
struct attr {
	const char *name, *value;
	size_t name_len, value_len;
};

static bool
is_space(char c)
{
	return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

static const char *
skip_space(const char *p, const char *end)
{
	while (p < end && is_space(*p)) {
		p++;
	}
	return p;
}

/*
 * The next attribute of the tag at *p, which moves past it. False at the
 * tag's end (*p then just past '>'), or with *bad set when the tag is
 * malformed within [*p, end).
 */
static bool
next_attr(const char **p, const char *end, struct attr *a, bool *bad)
{
	const char *s = skip_space(*p, end);
	if (s < end && *s == '/') {
		s++;
	}
	if (s < end && *s == '>') {
		*p = s + 1;
		return false;
	}
	a->name = s;
	while (s < end && *s != '=' && *s != '>' && !is_space(*s)) {
		s++;
	}
	a->name_len = (size_t)(s - a->name);
	s = skip_space(s, end);
	if (a->name_len == 0 || s >= end || *s != '=') {
		*bad = true;
		return false;
	}
	s = skip_space(s + 1, end);
	const char *close = s < end && (*s == '"' || *s == '\'')
	                            ? memchr(s + 1, *s, (size_t)(end - s - 1))
	                            : NULL;
	if (!close) {
		*bad = true;
		return false;
	}
	a->value = s + 1;
	a->value_len = (size_t)(close - s - 1);
	*p = close + 1;
	return true;
}

static bool
attr_is(const struct attr *a, const char *name)
{
	return a->name_len == strlen(name) && memcmp(a->name, name, a->name_len) == 0;
}

static bool
parse_double(const char *s, size_t len, double *out)
{
	char tmp[64];
	if (len == 0 || len >= sizeof(tmp)) {
		return false;
	}
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	if (tmp[len - 1] == '%') {
		tmp[len - 1] = '\0'; /* inferno's x and width are percentages */
	}
	char *end;
	errno = 0;
	double v = strtod(tmp, &end);
	if (errno || end == tmp || *end || !isfinite(v)) {
		return false;
	}
	*out = v;
	return true;
}

/* A count without the thousands separators flamegraph.pl and inferno write. */
static bool
parse_count(const char *s, size_t len, struct count *out)
{
	char tmp[64];
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == ',') {
			continue;
		}
		if (n + 1 >= sizeof(tmp)) {
			return false;
		}
		tmp[n++] = s[i];
	}
	const char *reason;
	return n > 0 && count_parse(tmp, n, out, &reason);
}

/* One character reference (&#NN; or &#xHH;) as UTF-8. */
static bool
add_char_ref(struct buf *out, const char *s, size_t len)
{
	bool hex = len > 1 && (s[0] == 'x' || s[0] == 'X');
	const char *digits = s + hex;
	size_t n = len - hex;
	if (n == 0 || n > 8) {
		return false;
	}
	unsigned long v = 0;
	for (size_t i = 0; i < n; i++) {
		char c = digits[i];
		int d = c >= '0' && c <= '9'          ? c - '0'
		        : hex && c >= 'a' && c <= 'f' ? c - 'a' + 10
		        : hex && c >= 'A' && c <= 'F' ? c - 'A' + 10
		                                      : -1;
		if (d < 0) {
			return false;
		}
		v = v * (hex ? 16 : 10) + (unsigned long)d;
	}
	if (v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
		return false;
	}
	utf8_encode(out, (uint32_t)v);
	return true;
}

/*
 * Text content decoded: the five entities XML predefines and character
 * references. Any other entity would need the document's DTD, which a
 * hostile file can make expand without end, so it is refused.
 */
static bool
decode_text(struct buf *out, const char *s, size_t len, const char **why)
{
	static const struct {
		const char *name;
		char c;
	} entities[] = {{"lt", '<'}, {"gt", '>'}, {"amp", '&'}, {"quot", '"'}, {"apos", '\''}};
	buf_setlen(out, 0);
	const char *end = s + len;
	while (s < end) {
		const char *amp = memchr(s, '&', (size_t)(end - s));
		const char *stop = amp ? amp : end;
		if (memchr(s, '<', (size_t)(stop - s))) {
			*why = "markup inside a frame's title";
			return false;
		}
		buf_add(out, s, (size_t)(stop - s));
		if (!amp) {
			break;
		}
		const char *semi =
		        memchr(amp, ';', (size_t)(end - amp) < 12 ? (size_t)(end - amp) : 12);
		if (!semi) {
			*why = "an '&' that starts no entity in a frame's title";
			return false;
		}
		const char *ent = amp + 1;
		size_t n = (size_t)(semi - ent);
		bool known = false;
		if (n > 0 && ent[0] == '#') {
			known = add_char_ref(out, ent + 1, n - 1);
		}
		for (size_t i = 0; !known && i < sizeof(entities) / sizeof(entities[0]); i++) {
			if (strlen(entities[i].name) == n &&
			        memcmp(entities[i].name, ent, n) == 0) {
				buf_addc(out, entities[i].c);
				known = true;
			}
		}
		if (!known) {
			*why = "an entity XML does not predefine in a frame's title (difffold "
			       "expands no DTD entities)";
			return false;
		}
		s = semi + 1;
	}
	return true;
}

static struct frame *
new_frame(struct reader *r, uint64_t line)
{
	if (r->count == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 1024;
		r->frames = xrealloc(r->frames, r->cap * sizeof(*r->frames));
	}
	struct frame *f = &r->frames[r->count++];
	memset(f, 0, sizeof(*f));
	f->line = line;
	f->parent = NONE;
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
	        !parse_count(inner, (size_t)(space - inner), &f->total[r->side])) {
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
}

/* The data-* counts of difffold's <g class="frame">. */
static bool
group_attr(struct frame *f, const struct attr *a, bool *is_frame)
{
	static const char *const names[] = {
	        "data-base", "data-head", "data-base-self", "data-head-self"};
	if (attr_is(a, "class")) {
		*is_frame = a->value_len == 5 && memcmp(a->value, "frame", 5) == 0;
		return true;
	}
	for (int i = 0; i < 4; i++) {
		if (attr_is(a, names[i])) {
			struct count *c = i < 2 ? &f->total[i] : &f->self[i - 2];
			return parse_count(a->value, a->value_len, c);
		}
	}
	return true;
}

static bool
rect_attr(struct frame *f, const struct attr *a, bool *exact)
{
	if (attr_is(a, "y")) {
		return parse_double(a->value, a->value_len, &f->y);
	}
	/* inferno's fg:x and fg:w are in samples: exact, unlike the pixels. */
	if (attr_is(a, "fg:x") || attr_is(a, "fg:w")) {
		*exact = true;
		return parse_double(a->value, a->value_len, a->name[3] == 'x' ? &f->x : &f->w);
	}
	if (!*exact && attr_is(a, "x")) {
		return parse_double(a->value, a->value_len, &f->x);
	}
	if (!*exact && attr_is(a, "width")) {
		return parse_double(a->value, a->value_len, &f->w);
	}
	return true;
}

/*
 * The <g> at p (its "</g>" or the end of the data at gend): a frame when a
 * <title> and a <rect> follow its tag. Returns where scanning goes on, or
 * NULL with the error set.
 */
static const char *
read_group(struct reader *r, const char *p, const char *gend)
{
	uint64_t line = line_of(r, p);
	struct frame tmp = {0};
	bool is_frame = r->info->kind != FLAMEGRAPH_SVG_DIFFFOLD, bad = false, ok = true;
	struct attr a;
	const char *s = p + 2;
	while (next_attr(&s, gend, &a, &bad)) {
		ok = ok && group_attr(&tmp, &a, &is_frame);
	}
	if (bad || !ok) {
		fail_at(r, line, "a malformed <g> tag");
		return NULL;
	}
	const char *t = skip_space(s, gend);
	if (!is_frame || gend - t < 7 || memcmp(t, "<title>", 7) != 0) {
		return s; /* a group of groups */
	}
	const char *tend = find(t + 7, gend, "</title>");
	const char *why = "a frame's <title> is not closed";
	if (!tend || !decode_text(&r->title, t + 7, (size_t)(tend - t - 7), &why)) {
		fail_at(r, line, why);
		return NULL;
	}
	const char *rect = skip_space(tend + 8, gend);
	if (gend - rect < 5 || memcmp(rect, "<rect", 5) != 0) {
		fail_at(r, line, "a frame's <title> is not followed by its <rect>");
		return NULL;
	}
	struct frame *f = new_frame(r, line);
	*f = tmp;
	f->line = line;
	f->parent = NONE;
	bool exact = false;
	s = rect + 5;
	while (next_attr(&s, gend, &a, &bad)) {
		ok = ok && rect_attr(f, &a, &exact);
	}
	if (bad || !ok) {
		fail_at(r, line, "a frame's <rect> has a malformed attribute");
		return NULL;
	}
	if (r->info->kind == FLAMEGRAPH_SVG_DIFFFOLD) {
		difffold_title(r, f);
	} else if (!peer_title(r, f, &why)) {
		fail_at(r, line, why);
		return NULL;
	}
	return s;
}

static long long
parse_chunk(void *ctx, const char *data, size_t len, bool at_eof)
{
	struct reader *r = ctx;
	const char *p = data, *end = data + len;
	r->counted = data;
	for (;;) {
		const char *g = find(p, end, "<g");
		while (g && g + 2 < end && g[2] != ' ' && g[2] != '>' && g[2] != '\n') {
			g = find(g + 2, end, "<g");
		}
		if (!g || g + 2 >= end) {
			/* Keep the last bytes: "<g" may be cut between two chunks. */
			size_t keep = at_eof || end - p < 2 ? 0 : 2;
			line_of(r, end - keep);
			return (long long)(end - data) - (long long)keep;
		}
		const char *gend = find(g, end, "</g>");
		if (!gend && !at_eof) {
			if ((size_t)(end - g) > FLAMEGRAPH_SVG_MAX_ELEMENT) {
				fail_at(r, line_of(r, g), "an element larger than 16 MiB");
				return -1;
			}
			line_of(r, g);
			return (long long)(g - data);
		}
		p = read_group(r, g, gend ? gend : end);
		if (!p) {
			return -1;
		}
	}
}

/*
 * Rows: the root is the widest frame named "all" (every tool draws one),
 * and a frame's depth is its distance from the root's row in rows, one
 * row being the smallest distance there is.
 */
static bool
set_depths(struct reader *r, uint32_t *root)
{
	*root = NONE;
	for (size_t i = 0; i < r->count; i++) {
		const struct frame *f = &r->frames[i];
		if (f->name_len == 3 && memcmp(r->names.data + f->name_at, "all", 3) == 0 &&
		        (*root == NONE || r->frames[*root].w < f->w)) {
			*root = (uint32_t)i;
		}
	}
	if (*root == NONE) {
		return fail_at(r, 0, "a flame graph without its root frame `all`");
	}
	double y0 = r->frames[*root].y, step = INFINITY;
	for (size_t i = 0; i < r->count; i++) {
		double d = fabs(r->frames[i].y - y0);
		if (d > 0.5 && d < step) {
			step = d;
		}
	}
	for (size_t i = 0; i < r->count; i++) {
		struct frame *f = &r->frames[i];
		double rows = isfinite(step) ? fabs(f->y - y0) / step : 0;
		if (fabs(rows - round(rows)) > 0.2 || rows > UINT32_MAX - 1.0) {
			return fail_at(r, f->line, "a frame between two rows of the graph");
		}
		f->depth = (uint32_t)round(rows);
		if (f->depth == 0 && i != *root) {
			return fail_at(r, f->line, "a frame on the root's row beside the root");
		}
	}
	return true;
}

/* difffold's frames are in pre-order: a frame's parent is the last one a row lower. */
static bool
parents_in_order(struct reader *r, uint32_t root)
{
	if (root != 0) {
		return fail_at(r, r->frames[0].line, "a frame before the root `all`");
	}
	uint32_t *open = xmalloc(r->count * sizeof(*open)); /* by depth */
	size_t depth = 0;
	open[0] = 0;
	bool ok = true;
	for (size_t i = 1; ok && i < r->count; i++) {
		struct frame *f = &r->frames[i];
		if (f->depth > depth + 1) {
			ok = fail_at(r, f->line, "a frame two rows above the frame before it");
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
			ok = fail_at(r, f->line, "a frame over no frame of the row below");
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
			if (given && !count_add(used, f->self[s], &used)) {
				ok = false;
			} else if (count_cmp(used, f->total[s]) > 0) {
				ok = false;
			} else {
				struct count left = count_sub(f->total[s], below[2 * i + s]);
				short_of |= given && count_cmp(left, f->self[s]) != 0;
				f->self[s] = left;
			}
		}
		r->info->pruned += short_of;
		if (!ok) {
			fail_at(r, f->line, "a frame whose children add up to more than it");
		}
	}
	free(below);
	return ok;
}

/*
 * Every frame with a count of its own becomes a stack, in pre-order with
 * an explicit stack of open frames: a path can be thousands deep.
 */
static bool
add_stacks(struct reader *r, uint32_t root)
{
	size_t n = r->count;
	uint32_t *first =
	        xcalloc(n + 1, sizeof(*first)); /* children of i: kids[first[i]..first[i+1]) */
	uint32_t *kids = xmalloc(n * sizeof(*kids));
	for (size_t i = 0; i < n; i++) {
		first[r->frames[i].parent == NONE ? n : r->frames[i].parent]++;
	}
	for (size_t i = 0, sum = 0; i <= n; i++) {
		size_t c = first[i];
		first[i] = (uint32_t)sum;
		sum += c;
	}
	uint32_t *fill = xmalloc((n + 1) * sizeof(*fill));
	memcpy(fill, first, (n + 1) * sizeof(*fill));
	for (size_t i = 0; i < n; i++) {
		if (i != root) {
			kids[fill[r->frames[i].parent]++] = (uint32_t)i;
		}
	}
	free(fill);
	uint32_t *open = xmalloc(n * sizeof(*open)), *next = xmalloc(n * sizeof(*next));
	size_t *path_len = xmalloc(n * sizeof(*path_len));
	struct buf path;
	buf_init(&path);
	size_t depth = 1;
	open[0] = root;
	next[0] = first[root];
	path_len[0] = 0;
	bool ok = true;
	while (ok && depth > 0) {
		uint32_t at = open[depth - 1];
		if (next[depth - 1] == first[at + 1]) {
			depth--;
			continue;
		}
		uint32_t c = kids[next[depth - 1]++];
		const struct frame *f = &r->frames[c];
		buf_setlen(&path, path_len[depth - 1]);
		/* An empty name (inferno draws one for a stack ending in ';') is
		 * its caller, as the folded reader has it. */
		if (path.len && f->name_len) {
			buf_addc(&path, ';');
		}
		buf_add(&path, r->names.data + f->name_at, f->name_len);
		for (int s = 0; ok && s < 2; s++) {
			const char *reason = NULL;
			if (!count_is_zero(f->self[s]) &&
			        !tree_add_stack(r->t, (enum side)s, path.data, path.len, f->self[s],
			                &reason)) {
				ok = fail_at(r, f->line, reason);
			}
		}
		open[depth] = c;
		next[depth] = first[c];
		path_len[depth] = path.len;
		depth++;
	}
	buf_finish(&path);
	free(open);
	free(next);
	free(path_len);
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
		return fail_at(r, 0, "a flame graph without frames");
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
		return fail_at(r, 0,
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
	if (n > 0 && decode_text(&unit, at + sizeof(attr) - 1, n, &why) &&
	        unit.len < sizeof(r->info->unit)) {
		memcpy(r->info->unit, unit.data, unit.len + 1);
	}
	buf_finish(&unit);
}

bool
flamegraph_svg_read_mem(struct tree *t, enum side side, bool both, const char *name,
        const char *data, size_t len, struct flamegraph_svg_info *info, struct diag *err)
{
	struct reader r;
	reader_init(&r, t, side, both, name, flamegraph_svg_detect(data, len), info, err);
	if (info->kind == FLAMEGRAPH_SVG_DIFFFOLD) {
		own_unit(&r, data, len);
	}
	bool ok = info->kind != FLAMEGRAPH_SVG_NONE
	                  ? parse_chunk(&r, data, len, true) >= 0 && finish(&r)
	                  : fail_at(&r, 0, "not a flame graph SVG");
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
	if (info->kind == FLAMEGRAPH_SVG_DIFFFOLD) {
		own_unit(&r, head, head_len);
	}
	bool ok = info->kind != FLAMEGRAPH_SVG_NONE
	                  ? source_parse(src, head, head_len, parse_chunk, &r, err) && finish(&r)
	                  : fail_at(&r, 0, "not a flame graph SVG");
	reader_finish(&r);
	return ok;
}
