/*
 * report_md: the Markdown report, sized for a pull-request comment, and
 * report_md_style, the primitives the sections it shares with the text
 * report write Markdown with.
 */
#include "report.h"

#include <string.h>

#include "escape.h"
#include "numfmt.h"
#include "report_match.h"
#include "report_private.h"

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

/* The alignment row: ":--" for a column aligned left, "--:" for one aligned right. */
static void
md_align(struct buf *b, size_t ncol, unsigned left)
{
	for (size_t i = 0; i < ncol; i++) {
		buf_adds(b, (left >> i) & 1u ? "|:--" : "|--:");
	}
	buf_adds(b, "|\n");
}

static size_t
md_grid(struct buf *b, const char *const *head, const struct buf *cells, size_t nrows, size_t ncol,
        unsigned left)
{
	md_cells(b, head, ncol);
	md_align(b, ncol, left);
	size_t start = b->len, r = 0;
	for (; r < nrows; r++) {
		const char *c[GRID_MAX_COLUMNS];
		for (size_t i = 0; i < ncol; i++) {
			c[i] = cells[r * ncol + i].data;
		}
		size_t at = b->len;
		md_cells(b, c, ncol);
		if (b->len - start > MD_TABLE_BUDGET) {
			buf_setlen(b, at);
			break;
		}
	}
	return r;
}

static void
md_table(struct buf *b, const struct report *rep, enum list l, struct buf *cell)
{
	const struct summary *s = &rep->sum;
	const char *h[NCOL];
	size_t ncol = report_columns(s);
	report_header_cells(s, l, h);
	buf_printf(b, "\n#### %s\n\n", report_title(s, l));
	if (s->count[l] == 0) {
		buf_adds(b, "_None._\n");
		return;
	}
	md_cells(b, h, ncol);
	md_align(b, ncol, 1u);
	struct buf row;
	buf_init(&row);
	size_t used = 0, shown = 0;
	for (; shown < rep->shown[l]; shown++) {
		report_row_cells(s, l, &s->rows[l][shown], &report_md_style, cell);
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
add_url(struct buf *b, const char *url, bool html)
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
		if (html && *p == '&') {
			buf_adds(b, "&amp;");
		} else if (*p >= 0x80 ||
		           strchr(html ? " ()<>[]\"'`\\|{}^," : " ()<>[]\"'`\\|{}^", *p)) {
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

/*
 * --image-url with --image-url-dark: a <picture> whose dark source GitHub
 * (and browsers) show to readers in a dark theme. In attributes, so '&'
 * is written as an entity and ',' (a srcset separator) percent-encoded.
 */
static bool
add_picture(struct buf *b, const char *light, const char *dark)
{
	buf_adds(b, "<picture><source media=\"(prefers-color-scheme: dark)\" srcset=\"");
	if (!add_url(b, dark, true)) {
		return false;
	}
	buf_adds(b, "\"><img alt=\"difffold\" src=\"");
	if (!add_url(b, light, true)) {
		return false;
	}
	buf_adds(b, "\"></picture>\n\n");
	return true;
}

static void
md_image(struct buf *b, const struct report_options *opt)
{
	const char *light = opt->image_url ? opt->image_url : opt->image_url_dark;
	size_t at = b->len;
	bool ok;
	if (opt->image_url && opt->image_url_dark) {
		ok = add_picture(b, opt->image_url, opt->image_url_dark);
	} else {
		buf_adds(b, "![difffold](");
		ok = add_url(b, light, false);
		buf_adds(b, ")\n\n");
	}
	if (!ok) {
		buf_setlen(b, at);
		buf_adds(b, "_The image URL was left out: it cannot be linked safely._\n\n");
	}
}

static void
md_label(struct buf *b, const char *s)
{
	report_add_label(b, &report_md_style, s);
}

static void
md_headline(struct buf *b, const struct summary *s, const struct report_options *opt)
{
	if (opt && (opt->image_url || opt->image_url_dark)) {
		md_image(b, opt);
	}
	buf_adds(b, "### difffold: ");
	if (s->differential) {
		md_label(b, report_label(opt, SIDE_BASE));
		buf_adds(b, " \u2192 ");
	}
	md_label(b, report_label(opt, SIDE_HEAD));
	buf_adds(b, "\n\n");
	if (!s->differential) {
		buf_adds(b, "**");
		report_add_amount(b, s->head_total, false);
		buf_adds(b, "** ");
		md_label(b, report_countname(opt));
		buf_adds(b, " in one profile.\n");
		return;
	}
	buf_adds(b, "**Total ");
	if (s->base_total.v > 0) {
		numfmt_percent(b, s->change.v / s->base_total.v * 100, true);
	} else {
		buf_adds(b, "n/a");
	}
	buf_adds(b, "**: ");
	report_add_amount(b, s->base_total, false);
	buf_adds(b, " \u2192 ");
	report_add_amount(b, s->head_total, false);
	buf_addc(b, ' ');
	md_label(b, report_countname(opt));
	buf_adds(b, " (");
	report_add_amount(b, s->change, true);
	buf_adds(b, ").\n\n");
}

void
report_md_fit(struct buf *b)
{
	static const char note[] = "\n_Report cut here to fit a pull-request comment._\n";
	if (b->len <= MD_REPORT_MAX) {
		return;
	}
	size_t end = MD_REPORT_MAX - sizeof(note);
	while (end > 0 && b->data[end - 1] != '\n') {
		end--;
	}
	buf_setlen(b, end);
	buf_adds(b, note);
}

/* The transforms in a fenced block, where nothing is markup. */
static void
md_transforms(struct buf *b, const char *transforms)
{
	if (transforms) {
		buf_adds(b, "\n_Transforms:_\n\n```\n");
		buf_adds(b, transforms);
		buf_adds(b, "\n```\n");
	}
}

void
report_write_md(struct out *o, const struct report *r)
{
	const struct summary *s = &r->sum;
	const struct report_options *opt = r->opt;
	struct buf b, cell[NCOL];
	buf_init(&b);
	for (size_t i = 0; i < NCOL; i++) {
		buf_init(&cell[i]);
	}
	if (s->differential) {
		report_add_roots_warning(&b, r, &report_md_style);
		report_add_verdict(&b, r, &report_md_style);
		buf_addc(&b, '\n');
	}
	md_headline(&b, s, opt);
	if (s->differential) {
		report_add_rule(&b, s, &report_md_style);
	}
	if (opt->input_note) {
		/* It quotes the input (a pprof sample type, a perf event): inert. */
		buf_adds(&b, "\n_Input: ");
		escape_md_inert(&b, opt->input_note, strlen(opt->input_note), SIZE_MAX);
		buf_adds(&b, "._\n");
	}
	md_transforms(&b, r->transforms);
	report_match_md(&b, s->t); /* matching across builds */
	report_add_opening(&b, r, &report_md_style);
	for (size_t i = 0; i < LIST_COUNT; i++) {
		enum list l = report_list_order[i];
		if (report_title(s, l)) {
			md_table(&b, r, l, cell);
		}
	}
	report_add_closing(&b, r, &report_md_style);
	report_md_fit(&b);
	buf_add(&o->b, b.data, b.len);
	out_maybe_flush(o);
	for (size_t i = 0; i < NCOL; i++) {
		buf_finish(&cell[i]);
	}
	buf_finish(&b);
}

/* ---- the style ----------------------------------------------------------- */

static void
md_heading(struct buf *b, const char *title, const char *detail)
{
	(void)detail; /* a Markdown heading stays short */
	buf_printf(b, "\n#### %s\n\n", title);
}

/* Function and frame names in code spans: there GitHub and GitLab turn no
 * @mention, issue reference or bare URL chosen by the profiled code into a
 * notification or a link. */
static void
md_code(struct buf *b, const char *s, size_t len)
{
	escape_md_code(b, s, len);
}

const struct report_style report_md_style = {
        .heading = md_heading,
        .code = md_code,
        .inert = escape_md_inert,
        .grid = md_grid,
        .strong = "**",
        .emph = "*",
        .item = "- ",
        .subitem = "  - ",
        .bullet = "- ",
        .sentence_break = " ",
        .paragraph_break = "\n",
        .reach_open = "_Reach: ",
        .reach_close = "._\n",
        .name_cap = MD_NAME_CAP,
        .frame_cap = MD_FRAME_CAP,
        .notes =
                {
                        [NOTE_NONE] = "_None._\n",
                        [NOTE_NONE_BEYOND_FLOOR] = "_None beyond the noise floor._\n",
                        [NOTE_NOTHING_STANDS_OUT] =
                                "Nothing stands out: no change beyond the noise floor.\n",
                        [NOTE_SHOWING] = "\n_Showing %zu of %zu._\n",
                        [NOTE_AND_MORE] = "  - _and %zu more._\n",
                        [NOTE_GATES_NOT_SHOWN] = "\n_%zu more gates not shown._\n",
                },
};
