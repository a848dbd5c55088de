/*
 * report_text: the report for a terminal, optionally coloured, and
 * report_text_style, the primitives the sections it shares with the
 * Markdown report write text with.
 */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "numfmt.h"
#include "report_match.h"
#include "report_private.h"
#include "utf8.h"
#include "xalloc.h"

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

/* left: a bit per column aligned left (bit 0: the name column). */
static void
text_line(struct buf *b, const char *const *c, const size_t *width, size_t ncol, const char *ansi,
        unsigned left)
{
	buf_adds(b, "  ");
	for (size_t i = 0; i < ncol; i++) {
		if (i > 0) {
			buf_adds(b, "  ");
		}
		/* The name column is last-padded only when more columns follow. */
		text_cell(b, c[i], width[i], (left >> i) & 1u, i >= 3 ? ansi : NULL);
	}
	while (b->len > 0 && b->data[b->len - 1] == ' ') {
		buf_setlen(b, b->len - 1);
	}
	buf_addc(b, '\n');
}

static void
text_table(struct buf *b, const struct report *rep, enum list l, bool color)
{
	const struct summary *s = &rep->sum;
	const char *h[NCOL];
	size_t ncol = report_columns(s), n = rep->shown[l];
	report_header_cells(s, l, h);
	buf_printf(b, "\n%s%s%s\n", color ? ANSI_BOLD : "", report_title(s, l),
	        color ? ANSI_RESET : "");
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
		report_row_cells(s, l, &s->rows[l][r], &report_text_style, &cells[r * NCOL]);
		for (size_t i = 0; i < ncol; i++) {
			size_t w = utf8_length(cells[r * NCOL + i].data, cells[r * NCOL + i].len);
			width[i] = w > width[i] ? w : width[i];
		}
	}
	text_line(b, h, width, ncol, NULL, 1u);
	for (size_t r = 0; r < n; r++) {
		const char *c[NCOL];
		for (size_t i = 0; i < ncol; i++) {
			c[i] = cells[r * NCOL + i].data;
		}
		double d = s->rows[l][r].delta.v;
		const char *ansi = !color || !s->differential ? NULL
		                   : d > 0                    ? ANSI_RED
		                   : d < 0                    ? ANSI_GREEN
		                                              : NULL;
		text_line(b, c, width, ncol, ansi, 1u);
	}
	for (size_t i = 0; i < n * NCOL; i++) {
		buf_finish(&cells[i]);
	}
	free(cells);
	if (n < s->count[l]) {
		buf_printf(b, "  (%zu of %zu shown)\n", n, s->count[l]);
	}
}

static size_t
text_grid(struct buf *b, const char *const *head, const struct buf *cells, size_t nrows,
        size_t ncol, unsigned left)
{
	size_t width[GRID_MAX_COLUMNS];
	for (size_t i = 0; i < ncol; i++) {
		width[i] = utf8_length(head[i], strlen(head[i]));
		for (size_t r = 0; r < nrows; r++) {
			size_t w = utf8_length(cells[r * ncol + i].data, cells[r * ncol + i].len);
			width[i] = w > width[i] ? w : width[i];
		}
	}
	text_line(b, head, width, ncol, NULL, left);
	for (size_t r = 0; r < nrows; r++) {
		const char *c[GRID_MAX_COLUMNS];
		for (size_t i = 0; i < ncol; i++) {
			c[i] = cells[r * ncol + i].data;
		}
		text_line(b, c, width, ncol, NULL, left);
	}
	return nrows;
}

static void
text_label(struct buf *b, const char *s)
{
	report_add_label(b, &report_text_style, s);
}

static void
text_headline(struct buf *b, const struct summary *s, const struct report_options *opt, bool color)
{
	buf_adds(b, "difffold: ");
	if (s->differential) {
		text_label(b, report_label(opt, SIDE_BASE));
		buf_adds(b, " -> ");
	}
	text_label(b, report_label(opt, SIDE_HEAD));
	buf_adds(b, "\nTotal: ");
	if (!s->differential) {
		report_add_amount(b, s->head_total, false);
		buf_addc(b, ' ');
		text_label(b, report_countname(opt));
		buf_addc(b, '\n');
		return;
	}
	double d = s->change.v;
	const char *ansi = !color ? NULL : d > 0 ? ANSI_RED : d < 0 ? ANSI_GREEN : NULL;
	report_add_amount(b, s->base_total, false);
	buf_adds(b, " -> ");
	report_add_amount(b, s->head_total, false);
	buf_addc(b, ' ');
	text_label(b, report_countname(opt));
	buf_adds(b, " (");
	buf_adds(b, ansi ? ansi : "");
	report_add_amount(b, s->change, true);
	buf_adds(b, ", ");
	if (s->base_total.v > 0) {
		numfmt_percent(b, d / s->base_total.v * 100, true);
	} else {
		buf_adds(b, "n/a");
	}
	buf_adds(b, ansi ? ANSI_RESET : "");
	buf_adds(b, ")\n");
	report_add_rule(b, s, &report_text_style);
}

void
report_write_text(struct out *o, const struct report *r, bool color)
{
	const struct summary *s = &r->sum;
	const struct report_options *opt = r->opt;
	struct buf b;
	buf_init(&b);
	if (s->differential) {
		report_add_roots_warning(&b, r, &report_text_style);
		report_add_verdict(&b, r, &report_text_style);
	}
	text_headline(&b, s, opt, color);
	if (opt->input_note) {
		/* It quotes the input (a pprof sample type, a perf event): escaped. */
		buf_adds(&b, "Input: ");
		escape_terminal(&b, opt->input_note, strlen(opt->input_note), SIZE_MAX);
		buf_adds(&b, ".\n");
	}
	if (r->transforms) {
		buf_adds(&b, "Transforms: ");
		buf_adds(&b, r->transforms);
		buf_addc(&b, '\n');
	}
	report_match_text(&b, s->t); /* matching across builds */
	report_add_opening(&b, r, &report_text_style);
	for (size_t i = 0; i < LIST_COUNT; i++) {
		enum list l = report_list_order[i];
		if (report_title(s, l)) {
			text_table(&b, r, l, color);
		}
	}
	report_add_closing(&b, r, &report_text_style);
	buf_add(&o->b, b.data, b.len);
	out_maybe_flush(o);
	buf_finish(&b);
}

/* ---- the style ----------------------------------------------------------- */

static void
text_heading(struct buf *b, const char *title, const char *detail)
{
	buf_printf(b, "\n%s%s\n", title, detail ? detail : "");
}

/* Already terminal-safe: a terminal shows it as it is. */
static void
text_code(struct buf *b, const char *s, size_t len)
{
	buf_add(b, s, len);
}

const struct report_style report_text_style = {
        .heading = text_heading,
        .code = text_code,
        .inert = escape_terminal,
        .grid = text_grid,
        .strong = "",
        .emph = "",
        .item = "  ",
        .subitem = "    ",
        .bullet = "  - ",
        .sentence_break = "\n",
        .paragraph_break = "",
        .reach_open = "reach: ",
        .reach_close = "\n",
        .name_cap = TEXT_NAME_CAP,
        .frame_cap = TEXT_NAME_CAP / 3,
        .notes =
                {
                        [NOTE_NONE] = "  none\n",
                        [NOTE_NONE_BEYOND_FLOOR] = "  none beyond the noise floor\n",
                        [NOTE_NOTHING_STANDS_OUT] =
                                "  Nothing stands out: no change beyond the noise floor.\n",
                        [NOTE_SHOWING] = "  (showing %zu of %zu)\n",
                        [NOTE_AND_MORE] = "    and %zu more\n",
                        [NOTE_GATES_NOT_SHOWN] = "  (%zu more gates not shown)\n",
                },
};
