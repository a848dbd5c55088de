#include "report.h"

#include <string.h>

#include "escape.h"
#include "numfmt.h"
#include "report_match.h"
#include "report_private.h"
#include "transform.h"

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

size_t
report_md_grid(struct buf *b, const char *const *head, const char *align, const struct buf *cells,
        size_t nrows, size_t ncol)
{
	md_cells(b, head, ncol);
	buf_adds(b, align);
	buf_addc(b, '\n');
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
md_table(struct buf *b, const struct summary *s, enum list l, size_t top, struct buf *cell)
{
	const char *h[NCOL];
	size_t ncol = report_columns(s);
	report_header_cells(s, l, h);
	buf_printf(b, "\n#### %s\n\n", report_title(s, l));
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
		report_row_cells(s, l, &s->rows[l][shown], true, cell);
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

static void
md_headline(struct buf *b, const struct summary *s, const struct report_options *opt)
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
		report_add_label(b, report_label(opt, SIDE_BASE), true);
		buf_adds(b, " \u2192 ");
	}
	report_add_label(b, report_label(opt, SIDE_HEAD), true);
	buf_adds(b, "\n\n");
	if (!s->differential) {
		buf_adds(b, "**");
		report_add_amount(b, s->head_total, false);
		buf_adds(b, "** ");
		report_add_label(b, report_countname(opt), true);
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
	report_add_label(b, report_countname(opt), true);
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

void
report_add_transforms(struct buf *b, const struct report_options *opt, bool md)
{
	if (!transform_active(opt->transform)) {
		return;
	}
	struct buf desc;
	buf_init(&desc);
	transform_describe(opt->transform, &desc);
	/*
	 * The patterns are the user's, but a report may travel: escaped, and in
	 * Markdown a fenced block, where nothing is markup and '|' needs no
	 * escape (a code span would show a table's "\|"). The one line starts
	 * with "--", so it never closes the fence.
	 */
	struct buf shown;
	buf_init(&shown);
	escape_terminal(&shown, desc.data, desc.len, 4096);
	if (md) {
		buf_adds(b, "\n_Transforms:_\n\n```\n");
		buf_add(b, shown.data, shown.len);
		buf_adds(b, "\n```");
	} else {
		buf_adds(b, "Transforms: ");
		buf_add(b, shown.data, shown.len);
	}
	buf_addc(b, '\n');
	buf_finish(&shown);
	buf_finish(&desc);
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
		report_add_roots_warning(&b, s, true);
		report_add_verdict(&b, r, true);
		buf_addc(&b, '\n');
	}
	md_headline(&b, s, opt);
	if (s->differential) {
		report_add_rule(&b, s, true);
	}
	if (opt->input_note) {
		/* It quotes the input (a pprof sample type, a perf event): inert. */
		buf_adds(&b, "\n_Input: ");
		escape_md_inert(&b, opt->input_note, strlen(opt->input_note), SIZE_MAX);
		buf_adds(&b, "._\n");
	}
	report_add_transforms(&b, opt, true);
	report_match_text(&b, s->t, true); /* matching across builds */
	report_add_opening(&b, r, true);
	for (size_t i = 0; i < LIST_COUNT; i++) {
		enum list l = report_list_order[i];
		if (report_title(s, l)) {
			md_table(&b, s, l, report_top(opt), cell);
		}
	}
	report_add_closing(&b, r, true);
	report_md_fit(&b);
	buf_add(&o->b, b.data, b.len);
	out_maybe_flush(o);
	for (size_t i = 0; i < NCOL; i++) {
		buf_finish(&cell[i]);
	}
	buf_finish(&b);
}
