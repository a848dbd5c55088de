#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "utf8.h"
#include "xalloc.h"

/*
 * Size limits. GitHub rejects comments over 65,536 characters; every row of
 * a Markdown table is charged against its table's byte budget (bytes bound
 * characters from above), so no input can push the report past the limit.
 */
#define MD_NAME_CAP 120 /* code points of a function name */
#define MD_FRAME_CAP 40 /* code points of each frame of a call path */
#define MD_LABEL_CAP 120
#define MD_TABLE_BUDGET 7000 /* bytes of rows per table */
#define MD_URL_MAX 1024 /* bytes of the encoded image URL */
#define TEXT_NAME_CAP 80
#define GATE_MAX_LINES 20
#define DEFAULT_TOP 10
#define NCOL 6

enum list {
	LIST_REG_SELF,
	LIST_IMP_SELF,
	LIST_REG_TOTAL,
	LIST_IMP_TOTAL,
	LIST_NEW,
	LIST_REMOVED,
	LIST_PATHS,
	LIST_COUNT,
};

static const char *const list_titles[LIST_COUNT] = {
        "Top regressions by self",
        "Top improvements by self",
        "Top regressions by total",
        "Top improvements by total",
        "New functions",
        "Removed functions",
        "Call paths with the largest self change",
};

/* One function (intern id), summed over all its call sites. */
struct fn {
	double self[2];
	double total[2]; /* each sample once, however deep the recursion */
	bool seen;
};

/* A table row: a function (id = intern id) or a call path (id = node id). */
struct row {
	uint32_t id;
	uint32_t order; /* tie-break independent of input order */
	double base, head, delta;
	double key; /* sorted by key, largest first */
};

struct summary {
	const struct tree *t;
	bool differential;
	double base_total, head_total, larger, floor;
	struct row *rows[LIST_COUNT];
	size_t count[LIST_COUNT];
	size_t cap[LIST_COUNT];
};

static void
push_row(struct summary *s, enum list l, uint32_t id, uint32_t order, double base, double head,
        double key)
{
	s->rows[l] = xgrow(s->rows[l], &s->cap[l], s->count[l] + 1, sizeof(struct row));
	struct row *r = &s->rows[l][s->count[l]++];
	r->id = id;
	r->order = order;
	r->base = base;
	r->head = head;
	r->delta = head - base;
	r->key = key;
}

static int
compare_rows(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	if (a->key != b->key) {
		return a->key > b->key ? -1 : 1;
	}
	return a->order < b->order ? -1 : a->order > b->order;
}

/*
 * One pre-order walk with an explicit path stack (stacks may be 10,000+
 * frames deep): self sums over every node of a name; a node's total counts
 * only when no ancestor has the same name, so recursion is not double
 * counted. Also collects the call-path rows.
 */
static void
aggregate(struct summary *s, struct fn *fns, uint32_t nnames)
{
	const struct tree *t = s->t;
	uint32_t *on_path = xcalloc(nnames ? nnames : 1, sizeof(uint32_t));
	uint32_t *stack = xmalloc((t->max_depth + 1) * sizeof(uint32_t));
	size_t sp = 0;
	uint32_t order = 0;
	for (uint32_t id = tree_next_preorder(t, TREE_ROOT, TREE_ROOT); id != TREE_NONE;
	        id = tree_next_preorder(t, id, TREE_ROOT), order++) {
		const struct tree_node *n = tree_node(t, id);
		while (sp > 0 && tree_node(t, stack[sp - 1])->depth >= n->depth) {
			on_path[tree_node(t, stack[--sp])->name]--;
		}
		struct fn *f = &fns[n->name];
		f->seen = true;
		double self[2];
		for (int side = 0; side < 2; side++) {
			self[side] = tree_value(t, n, (enum side)side, true);
			f->self[side] += self[side];
			if (on_path[n->name] == 0) {
				f->total[side] += tree_value(t, n, (enum side)side, false);
			}
		}
		on_path[n->name]++;
		stack[sp++] = id;
		double d = self[SIDE_HEAD] - self[SIDE_BASE];
		if (fabs(d) > s->floor && s->differential) {
			push_row(s, LIST_PATHS, id, order, self[SIDE_BASE], self[SIDE_HEAD],
			        fabs(d));
		}
	}
	free(stack);
	free(on_path);
}

static void
function_rows(struct summary *s, const struct fn *fns, uint32_t nnames, const uint32_t *ranks)
{
	for (uint32_t id = 0; id < nnames; id++) {
		const struct fn *f = &fns[id];
		if (!f->seen) {
			continue;
		}
		double ds = f->self[SIDE_HEAD] - f->self[SIDE_BASE];
		double dt = f->total[SIDE_HEAD] - f->total[SIDE_BASE];
		if (!s->differential) {
			/* One profile: the "regression" lists rank the heaviest. */
			if (f->self[SIDE_HEAD] > 0) {
				push_row(s, LIST_REG_SELF, id, ranks[id], 0, f->self[SIDE_HEAD],
				        f->self[SIDE_HEAD]);
			}
			push_row(s, LIST_REG_TOTAL, id, ranks[id], 0, f->total[SIDE_HEAD],
			        f->total[SIDE_HEAD]);
			continue;
		}
		if (ds > s->floor) {
			push_row(s, LIST_REG_SELF, id, ranks[id], f->self[0], f->self[1], ds);
		} else if (ds < -s->floor) {
			push_row(s, LIST_IMP_SELF, id, ranks[id], f->self[0], f->self[1], -ds);
		}
		if (dt > s->floor) {
			push_row(s, LIST_REG_TOTAL, id, ranks[id], f->total[0], f->total[1], dt);
		} else if (dt < -s->floor) {
			push_row(s, LIST_IMP_TOTAL, id, ranks[id], f->total[0], f->total[1], -dt);
		}
		if (f->total[SIDE_BASE] == 0 && f->total[SIDE_HEAD] > 0) {
			push_row(s, LIST_NEW, id, ranks[id], 0, f->total[1], f->total[1]);
		} else if (f->total[SIDE_BASE] > 0 && f->total[SIDE_HEAD] == 0) {
			push_row(s, LIST_REMOVED, id, ranks[id], f->total[0], 0, f->total[0]);
		}
	}
}

/* noise_floor: drop changes within --min-delta, as the colours do. */
static void
summary_init(struct summary *s, const struct tree *t, bool noise_floor)
{
	memset(s, 0, sizeof(*s));
	s->t = t;
	s->differential = t->differential;
	s->base_total = s->differential ? tree_total(t, SIDE_BASE) : 0;
	s->head_total = tree_total(t, SIDE_HEAD);
	s->larger = s->base_total > s->head_total ? s->base_total : s->head_total;
	/* The same noise floor as the colours (tree_classify). */
	s->floor = noise_floor ? t->opt.min_delta * s->larger : 0;
	uint32_t nnames = intern_count(t->names);
	struct fn *fns = xcalloc(nnames ? nnames : 1, sizeof(*fns));
	aggregate(s, fns, nnames);
	function_rows(s, fns, nnames, intern_ranks(t->names));
	free(fns);
	for (int l = 0; l < LIST_COUNT; l++) {
		if (s->count[l] > 1) {
			qsort(s->rows[l], s->count[l], sizeof(struct row), compare_rows);
		}
	}
}

static void
summary_finish(struct summary *s)
{
	for (int l = 0; l < LIST_COUNT; l++) {
		free(s->rows[l]);
	}
}

static size_t
top_of(const struct options *opt)
{
	return opt && opt->top ? opt->top : DEFAULT_TOP;
}

/* ---- numbers ---------------------------------------------------------- */

/*
 * Appends |v| with `decimals` digits (trailing zeros cut when trim), a
 * thousands separator every three digits, and a sign: '-' when negative,
 * '+' when positive and plus is set. Zero never carries a sign.
 */
static void
add_number(struct buf *b, double v, int decimals, bool trim, bool plus)
{
	if (!isfinite(v)) {
		buf_adds(b, "n/a");
		return;
	}
	char tmp[512];
	int n = snprintf(tmp, sizeof(tmp), "%.*f", decimals, fabs(v));
	if (n <= 0 || (size_t)n >= sizeof(tmp)) {
		buf_adds(b, "n/a");
		return;
	}
	size_t len = (size_t)n;
	char *dot = memchr(tmp, '.', len);
	if (dot && trim) {
		while (tmp[len - 1] == '0') {
			len--;
		}
		if (tmp[len - 1] == '.') {
			len--;
		}
	}
	bool zero = strspn(tmp, "0.") == (size_t)n;
	if (!zero) {
		if (v < 0) {
			buf_addc(b, '-');
		} else if (plus) {
			buf_addc(b, '+');
		}
	}
	size_t int_len = dot ? (size_t)(dot - tmp) : len;
	for (size_t i = 0; i < int_len; i++) {
		if (i > 0 && (int_len - i) % 3 == 0) {
			buf_addc(b, ',');
		}
		buf_addc(b, tmp[i]);
	}
	if (len > int_len) {
		buf_add(b, tmp + int_len, len - int_len);
	}
}

static void
add_count(struct buf *b, double v, bool plus)
{
	add_number(b, v, 2, true, plus);
}

static void
add_percent(struct buf *b, double v, bool plus)
{
	add_number(b, v, fabs(v) < 0.1 && v != 0 ? 2 : 1, false, plus);
	buf_addc(b, '%');
}

/* The change relative to the function's base; "new" when it had none. */
static void
add_change_percent(struct buf *b, const struct row *r)
{
	if (r->base == 0) {
		buf_adds(b, r->head > 0 ? "new" : "0.0%");
	} else {
		add_percent(b, r->delta / r->base * 100, true);
	}
}

static double
points(const struct summary *s, double delta)
{
	return s->larger > 0 ? delta / s->larger * 100 : 0;
}

/* ---- names ------------------------------------------------------------ */

/* Code points a terminal or a comment must not get from a frame name. */
static bool
unsafe_code_point(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || cp == 0x2028 || cp == 0x2029 ||
	       (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E ||
	       cp == 0x200F || cp == 0xFEFF;
}

static void
add_md_char(struct buf *b, uint32_t cp)
{
	switch (cp) {
	case '&':
		buf_adds(b, "&amp;");
		return;
	case '<':
		buf_adds(b, "&lt;");
		return;
	case '>':
		buf_adds(b, "&gt;");
		return;
	case '\\':
	case '`':
	case '*':
	case '_':
	case '[':
	case ']':
	case '|':
	case '~':
	case '$':
		/* Any ASCII punctuation may be backslash-escaped in CommonMark. */
		buf_addc(b, '\\');
		buf_addc(b, (char)cp);
		return;
	default:
		utf8_encode(b, cp);
	}
}

/*
 * Appends a frame name, at most `cap` code points (the last one an
 * ellipsis when cut). Invalid UTF-8 and unsafe code points become U+FFFD;
 * with md, Markdown and HTML syntax is escaped.
 */
static void
add_name(struct buf *b, const char *s, size_t len, size_t cap, bool md)
{
	bool cut = utf8_length(s, len) > cap;
	size_t shown = 0;
	for (size_t i = 0; i < len; shown++) {
		if (cut && shown == cap - 1) {
			buf_adds(b, "\u2026");
			return;
		}
		uint32_t cp;
		size_t k = utf8_decode(s + i, len - i, &cp);
		if (k == 0 || unsafe_code_point(cp)) {
			cp = 0xFFFD;
		}
		i += k ? k : 1;
		if (md) {
			add_md_char(b, cp);
		} else {
			utf8_encode(b, cp);
		}
	}
}

static void
add_frame(struct buf *b, const struct tree *t, uint32_t id, size_t cap, bool md)
{
	size_t len;
	const char *name = tree_node_name(t, tree_node(t, id), &len);
	add_name(b, name, len, cap, md);
}

/* A call path as `a;b;c`, or `a;…;y;z` when deeper than three frames. */
static void
add_path(struct buf *b, const struct tree *t, uint32_t id, size_t cap, bool md)
{
	const struct tree_node *n = tree_node(t, id);
	uint32_t first = id;
	while (tree_node(t, first)->depth > 1) {
		first = tree_node(t, first)->parent;
	}
	add_frame(b, t, first, cap, md);
	if (n->depth > 3) {
		buf_adds(b, ";\u2026");
	} else if (n->depth == 3) {
		buf_addc(b, ';');
		add_frame(b, t, n->parent, cap, md);
	}
	if (n->depth > 3) {
		buf_addc(b, ';');
		add_frame(b, t, n->parent, cap, md);
	}
	if (n->depth > 1) {
		buf_addc(b, ';');
		add_frame(b, t, id, cap, md);
	}
}

static void
add_row_name(struct buf *b, const struct summary *s, enum list l, const struct row *r, bool md)
{
	if (l == LIST_PATHS) {
		add_path(b, s->t, r->id, md ? MD_FRAME_CAP : TEXT_NAME_CAP / 3, md);
	} else {
		size_t len;
		const char *name = intern_name(s->t->names, r->id, &len);
		add_name(b, name, len, md ? MD_NAME_CAP : TEXT_NAME_CAP, md);
	}
}

/* ---- tables ----------------------------------------------------------- */

static size_t
columns(const struct summary *s)
{
	return s->differential ? NCOL : 3;
}

static void
header_cells(const struct summary *s, enum list l, const char **h)
{
	static const char *const diff[NCOL] = {
	        "Function", "Base", "Head", "Change", "Change %", "Points"};
	static const char *const single[3] = {"Function", "Samples", "Share"};
	size_t n = columns(s);
	for (size_t i = 0; i < n; i++) {
		h[i] = s->differential ? diff[i] : single[i];
	}
	if (l == LIST_PATHS) {
		h[0] = "Call path";
	}
}

/* Fills the cells of one row; cell[0] is the name. */
static void
row_cells(const struct summary *s, enum list l, const struct row *r, bool md, struct buf *cell)
{
	for (size_t i = 0; i < NCOL; i++) {
		buf_reset(&cell[i]);
	}
	add_row_name(&cell[0], s, l, r, md);
	if (!s->differential) {
		add_count(&cell[1], r->head, false);
		add_percent(&cell[2], s->head_total > 0 ? r->head / s->head_total * 100 : 0, false);
		return;
	}
	add_count(&cell[1], r->base, false);
	add_count(&cell[2], r->head, false);
	add_count(&cell[3], r->delta, true);
	add_change_percent(&cell[4], r);
	add_number(&cell[5], points(s, r->delta), 2, false, true);
}

static const char *const single_titles[LIST_COUNT] = {
        [LIST_REG_SELF] = "Top functions by self",
        [LIST_REG_TOTAL] = "Top functions by total",
};

static const char *
title_of(const struct summary *s, enum list l)
{
	return s->differential ? list_titles[l] : single_titles[l];
}

static void
md_cells(struct buf *b, const char *const *cells, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		buf_adds(b, "| ");
		buf_adds(b, cells[i]);
		buf_addc(b, ' ');
	}
	buf_adds(b, "|\n");
}

static void
md_table(struct buf *b, const struct summary *s, enum list l, size_t top, struct buf *cell)
{
	const char *h[NCOL];
	size_t ncol = columns(s);
	header_cells(s, l, h);
	buf_printf(b, "\n#### %s\n\n", title_of(s, l));
	if (s->count[l] == 0) {
		buf_adds(b, "_None._\n");
		return;
	}
	md_cells(b, h, ncol);
	buf_adds(b, "|:--");
	for (size_t i = 1; i < ncol; i++) {
		buf_adds(b, "|--:");
	}
	buf_adds(b, "|\n");
	struct buf row;
	buf_init(&row);
	size_t used = 0, shown = 0;
	for (; shown < s->count[l] && shown < top; shown++) {
		row_cells(s, l, &s->rows[l][shown], true, cell);
		const char *c[NCOL];
		for (size_t i = 0; i < ncol; i++) {
			c[i] = cell[i].data;
		}
		buf_reset(&row);
		md_cells(&row, c, ncol);
		if (used + row.len > MD_TABLE_BUDGET) {
			break;
		}
		used += row.len;
		buf_add(b, row.data, row.len);
	}
	buf_finish(&row);
	if (shown < s->count[l]) {
		buf_printf(b, "\n_Showing %zu of %zu._\n", shown, s->count[l]);
	}
}

/*
 * The image URL, percent-encoding what would end or break a Markdown link
 * destination. False (no image) for control characters, an unexpected
 * scheme, or a URL too long for a comment.
 */
static bool
add_url(struct buf *b, const char *url)
{
	static const char hex[] = "0123456789ABCDEF";
	const char *colon = strchr(url, ':');
	const char *slash = strchr(url, '/');
	if (colon && (!slash || colon < slash) && strncmp(url, "https:", 6) != 0 &&
	        strncmp(url, "http:", 5) != 0) {
		return false;
	}
	size_t start = b->len;
	for (const unsigned char *p = (const unsigned char *)url; *p; p++) {
		if (*p < 0x20 || *p == 0x7F) {
			buf_setlen(b, start);
			return false;
		}
		if (*p >= 0x80 || strchr(" ()<>[]\"'`\\|{}^", *p)) {
			buf_addc(b, '%');
			buf_addc(b, hex[*p >> 4]);
			buf_addc(b, hex[*p & 15]);
		} else {
			buf_addc(b, (char)*p);
		}
		if (b->len - start > MD_URL_MAX) {
			buf_setlen(b, start);
			return false;
		}
	}
	return true;
}

static const char *
label(const struct options *opt, enum side side)
{
	return side == SIDE_BASE ? opt->base_label : opt->head_label;
}

static const char *
countname(const struct options *opt)
{
	return opt->countname;
}

static void
add_label(struct buf *b, const char *s, bool md)
{
	add_name(b, s, strlen(s), MD_LABEL_CAP, md);
}

static void
md_headline(struct buf *b, const struct summary *s, const struct options *opt)
{
	if (opt && opt->image_url) {
		size_t at = b->len;
		buf_adds(b, "![difffold](");
		if (add_url(b, opt->image_url)) {
			buf_adds(b, ")\n\n");
		} else {
			buf_setlen(b, at);
			buf_adds(
			        b, "_The image URL was left out: it cannot be linked safely._\n\n");
		}
	}
	buf_adds(b, "### difffold: ");
	if (s->differential) {
		add_label(b, label(opt, SIDE_BASE), true);
		buf_adds(b, " \u2192 ");
	}
	add_label(b, label(opt, SIDE_HEAD), true);
	buf_adds(b, "\n\n");
	if (!s->differential) {
		buf_adds(b, "**");
		add_count(b, s->head_total, false);
		buf_adds(b, "** ");
		add_label(b, countname(opt), true);
		buf_adds(b, " in one profile.\n");
		return;
	}
	buf_adds(b, "**Total ");
	if (s->base_total > 0) {
		add_percent(b, (s->head_total - s->base_total) / s->base_total * 100, true);
	} else {
		buf_adds(b, "n/a");
	}
	buf_adds(b, "**: ");
	add_count(b, s->base_total, false);
	buf_adds(b, " \u2192 ");
	add_count(b, s->head_total, false);
	buf_addc(b, ' ');
	add_label(b, countname(opt), true);
	buf_adds(b, " (");
	add_count(b, s->head_total - s->base_total, true);
	buf_adds(b, ").\n\n");
}

/* The rule used, shared word for word by the Markdown and text reports. */
static void
add_rule(struct buf *b, const struct summary *s, bool md)
{
	if (s->t->normalized) {
		buf_adds(b, "Rule: normalised, base counts (total ");
		add_count(b, count_to_double(tree_node(s->t, TREE_ROOT)->total[SIDE_BASE]), false);
		buf_adds(b, ") multiplied by ");
		add_number(b, s->t->base_scale, 6, true, false);
		buf_adds(b, " (head total / base total) before comparing.");
	} else {
		buf_adds(b, "Rule: absolute counts (no normalisation).");
	}
	/* A terminal gets one sentence a line; Markdown joins them anyway. */
	buf_adds(b, md ? " *Change %* is relative to the function's base; *Points* are "
	                 "percentage points of the larger total ("
	               : "\nChange % is relative to the function's base; Points are "
	                 "percentage points of the larger total (");
	add_count(b, s->larger, false);
	buf_adds(b, ").");
	buf_adds(b, md ? " " : "\n");
	buf_adds(b, "Functions are summed over all call sites; a function's total counts "
	            "each sample once under recursion.\n");
}

void
report_write_md(struct out *o, const struct tree *t, const struct options *opt)
{
	struct summary s;
	summary_init(&s, t, true);
	struct buf b, cell[NCOL];
	buf_init(&b);
	for (size_t i = 0; i < NCOL; i++) {
		buf_init(&cell[i]);
	}
	md_headline(&b, &s, opt);
	if (s.differential) {
		add_rule(&b, &s, true);
	}
	for (int l = 0; l < LIST_COUNT; l++) {
		if (title_of(&s, (enum list)l)) {
			md_table(&b, &s, (enum list)l, top_of(opt), cell);
		}
	}
	buf_add(&o->b, b.data, b.len);
	out_maybe_flush(o);
	for (size_t i = 0; i < NCOL; i++) {
		buf_finish(&cell[i]);
	}
	buf_finish(&b);
	summary_finish(&s);
}

/* ---- text ------------------------------------------------------------- */

#define ANSI_RED "\x1b[31m"
#define ANSI_GREEN "\x1b[32m"
#define ANSI_BOLD "\x1b[1m"
#define ANSI_RESET "\x1b[0m"

static void
pad(struct buf *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		buf_addc(b, ' ');
	}
}

/* A cell padded to width (code points): names left-aligned, numbers right. */
static void
text_cell(struct buf *b, const char *s, size_t width, bool left, const char *ansi)
{
	size_t w = utf8_length(s, strlen(s));
	if (!left) {
		pad(b, width - w);
	}
	if (ansi) {
		buf_adds(b, ansi);
	}
	buf_adds(b, s);
	if (ansi) {
		buf_adds(b, ANSI_RESET);
	}
	if (left) {
		pad(b, width - w);
	}
}

static void
text_line(struct buf *b, const char *const *c, const size_t *width, size_t ncol, const char *ansi)
{
	buf_adds(b, "  ");
	for (size_t i = 0; i < ncol; i++) {
		if (i > 0) {
			buf_adds(b, "  ");
		}
		/* The name column is last-padded only when more columns follow. */
		text_cell(b, c[i], width[i], i == 0, i >= 3 ? ansi : NULL);
	}
	while (b->len > 0 && b->data[b->len - 1] == ' ') {
		buf_setlen(b, b->len - 1);
	}
	buf_addc(b, '\n');
}

static void
text_table(struct buf *b, const struct summary *s, enum list l, size_t top, bool color)
{
	const char *h[NCOL];
	size_t ncol = columns(s), n = s->count[l] < top ? s->count[l] : top;
	header_cells(s, l, h);
	buf_printf(
	        b, "\n%s%s%s\n", color ? ANSI_BOLD : "", title_of(s, l), color ? ANSI_RESET : "");
	if (n == 0) {
		buf_adds(b, "  (none)\n");
		return;
	}
	struct buf *cells = xmalloc(n * NCOL * sizeof(struct buf));
	for (size_t i = 0; i < n * NCOL; i++) {
		buf_init(&cells[i]);
	}
	size_t width[NCOL];
	for (size_t i = 0; i < ncol; i++) {
		width[i] = utf8_length(h[i], strlen(h[i]));
	}
	for (size_t r = 0; r < n; r++) {
		row_cells(s, l, &s->rows[l][r], false, &cells[r * NCOL]);
		for (size_t i = 0; i < ncol; i++) {
			size_t w = utf8_length(cells[r * NCOL + i].data, cells[r * NCOL + i].len);
			width[i] = w > width[i] ? w : width[i];
		}
	}
	text_line(b, h, width, ncol, NULL);
	for (size_t r = 0; r < n; r++) {
		const char *c[NCOL];
		for (size_t i = 0; i < ncol; i++) {
			c[i] = cells[r * NCOL + i].data;
		}
		double d = s->rows[l][r].delta;
		const char *ansi = !color || !s->differential ? NULL
		                   : d > 0                    ? ANSI_RED
		                   : d < 0                    ? ANSI_GREEN
		                                              : NULL;
		text_line(b, c, width, ncol, ansi);
	}
	for (size_t i = 0; i < n * NCOL; i++) {
		buf_finish(&cells[i]);
	}
	free(cells);
	if (n < s->count[l]) {
		buf_printf(b, "  (%zu of %zu shown)\n", n, s->count[l]);
	}
}

static void
text_headline(struct buf *b, const struct summary *s, const struct options *opt, bool color)
{
	buf_adds(b, "difffold: ");
	if (s->differential) {
		add_label(b, label(opt, SIDE_BASE), false);
		buf_adds(b, " -> ");
	}
	add_label(b, label(opt, SIDE_HEAD), false);
	buf_adds(b, "\nTotal: ");
	if (!s->differential) {
		add_count(b, s->head_total, false);
		buf_addc(b, ' ');
		add_label(b, countname(opt), false);
		buf_addc(b, '\n');
		return;
	}
	double d = s->head_total - s->base_total;
	const char *ansi = !color ? NULL : d > 0 ? ANSI_RED : d < 0 ? ANSI_GREEN : NULL;
	add_count(b, s->base_total, false);
	buf_adds(b, " -> ");
	add_count(b, s->head_total, false);
	buf_addc(b, ' ');
	add_label(b, countname(opt), false);
	buf_adds(b, " (");
	buf_adds(b, ansi ? ansi : "");
	add_count(b, d, true);
	buf_adds(b, ", ");
	if (s->base_total > 0) {
		add_percent(b, d / s->base_total * 100, true);
	} else {
		buf_adds(b, "n/a");
	}
	buf_adds(b, ansi ? ANSI_RESET : "");
	buf_adds(b, ")\n");
	add_rule(b, s, false);
}

void
report_write_text(struct out *o, const struct tree *t, const struct options *opt, bool color)
{
	struct summary s;
	summary_init(&s, t, true);
	struct buf b;
	buf_init(&b);
	text_headline(&b, &s, opt, color);
	for (int l = 0; l < LIST_COUNT; l++) {
		if (title_of(&s, (enum list)l)) {
			text_table(&b, &s, (enum list)l, top_of(opt), color);
		}
	}
	buf_add(&o->b, b.data, b.len);
	out_maybe_flush(o);
	buf_finish(&b);
	summary_finish(&s);
}

/* ---- JSON ------------------------------------------------------------- */

static void
json_number(struct buf *b, double v)
{
	buf_add_double(b, v, 6);
}

static void
json_row(struct buf *b, const struct summary *s, enum list l, const struct row *r)
{
	size_t len;
	if (l == LIST_PATHS) {
		/* The whole path, root first, found leaf first through parents. */
		uint32_t depth = tree_node(s->t, r->id)->depth;
		uint32_t *ids = xmalloc(depth * sizeof(uint32_t));
		for (uint32_t id = r->id, i = depth; i > 0; id = tree_node(s->t, id)->parent) {
			ids[--i] = id;
		}
		buf_adds(b, "{\"path\":[");
		for (uint32_t i = 0; i < depth; i++) {
			const char *name = tree_node_name(s->t, tree_node(s->t, ids[i]), &len);
			if (i > 0) {
				buf_addc(b, ',');
			}
			export_json_string(b, name, len);
		}
		buf_addc(b, ']');
		free(ids);
	} else {
		const char *name = intern_name(s->t->names, r->id, &len);
		buf_adds(b, "{\"name\":");
		export_json_string(b, name, len);
	}
	buf_adds(b, ",\"base\":");
	json_number(b, r->base);
	buf_adds(b, ",\"head\":");
	json_number(b, r->head);
	buf_adds(b, ",\"change\":");
	json_number(b, r->delta);
	buf_adds(b, ",\"change_percent\":");
	if (r->base > 0) {
		json_number(b, r->delta / r->base * 100);
	} else {
		buf_adds(b, "null");
	}
	buf_adds(b, ",\"change_points\":");
	json_number(b, points(s, r->delta));
	buf_addc(b, '}');
}

static void
json_list(struct buf *b, const struct summary *s, enum list l, size_t top)
{
	buf_addc(b, '[');
	for (size_t i = 0; i < s->count[l] && i < top; i++) {
		if (i > 0) {
			buf_addc(b, ',');
		}
		json_row(b, s, l, &s->rows[l][i]);
	}
	buf_addc(b, ']');
}

void
report_json_summary(struct buf *b, const struct tree *t, const struct options *opt)
{
	struct summary s;
	summary_init(&s, t, true);
	size_t top = top_of(opt);
	double d = s.head_total - s.base_total;
	buf_adds(b, "\"summary\":{\"base_total\":");
	json_number(b, s.base_total);
	buf_adds(b, ",\"head_total\":");
	json_number(b, s.head_total);
	buf_adds(b, ",\"change\":");
	json_number(b, d);
	buf_adds(b, ",\"change_percent\":");
	if (s.base_total > 0) {
		json_number(b, d / s.base_total * 100);
	} else {
		buf_adds(b, "null");
	}
	buf_adds(b, ",\"normalized\":");
	buf_adds(b, t->normalized ? "true" : "false");
	buf_adds(b, ",\"base_scale\":");
	buf_add_double(b, t->base_scale, 12);
	buf_adds(b, ",\"points_of\":\"larger_total\",\"larger_total\":");
	json_number(b, s.larger);
	buf_adds(b, ",\"regressions\":{\"self\":");
	json_list(b, &s, LIST_REG_SELF, top);
	buf_adds(b, ",\"total\":");
	json_list(b, &s, LIST_REG_TOTAL, top);
	buf_adds(b, "},\"improvements\":{\"self\":");
	json_list(b, &s, LIST_IMP_SELF, top);
	buf_adds(b, ",\"total\":");
	json_list(b, &s, LIST_IMP_TOTAL, top);
	buf_adds(b, "},\"new\":");
	json_list(b, &s, LIST_NEW, top);
	buf_adds(b, ",\"removed\":");
	json_list(b, &s, LIST_REMOVED, top);
	buf_adds(b, ",\"paths\":");
	json_list(b, &s, LIST_PATHS, top);
	buf_addc(b, '}');
	summary_finish(&s);
}

/* ---- gate ------------------------------------------------------------- */

static void
gate_line(struct buf *why, const char *what, size_t len, double delta, double base, double pct)
{
	buf_adds(why, "regression: ");
	add_name(why, what, len, MD_NAME_CAP, false);
	buf_adds(why, " total ");
	if (base > 0) {
		add_percent(why, delta / base * 100, true);
		buf_adds(why, " of base total");
	} else {
		add_count(why, delta, true);
		buf_adds(why, " over an empty base");
	}
	buf_adds(why, " (");
	add_count(why, delta, true);
	buf_adds(why, ", limit ");
	add_number(why, pct, 6, true, false);
	buf_adds(why, "%)\n");
}

bool
report_gate(const struct tree *t, double pct, struct buf *why)
{
	if (!t->differential) {
		return false;
	}
	/* The gate's threshold is the user's, not the noise floor. */
	struct summary s;
	summary_init(&s, t, false);
	/* delta * 100 > pct * base avoids rounding pct / 100 at the threshold. */
	double limit = pct * s.base_total;
	bool failed = false;
	double d = s.head_total - s.base_total;
	if (d > 0 && d * 100 > limit) {
		gate_line(why, "whole profile", 13, d, s.base_total, pct);
		failed = true;
	}
	size_t lines = 0, over = 0;
	for (size_t i = 0; i < s.count[LIST_REG_TOTAL]; i++) {
		const struct row *r = &s.rows[LIST_REG_TOTAL][i];
		if (!(r->delta * 100 > limit)) {
			break;
		}
		failed = true;
		over++;
		if (lines++ < GATE_MAX_LINES) {
			size_t len;
			const char *name = intern_name(t->names, r->id, &len);
			gate_line(why, name, len, r->delta, s.base_total, pct);
		}
	}
	if (over > GATE_MAX_LINES) {
		buf_printf(why, "regression: %zu more functions over the limit\n",
		        over - GATE_MAX_LINES);
	}
	summary_finish(&s);
	return failed;
}
