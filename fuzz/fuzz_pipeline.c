/*
 * The whole pipeline under libFuzzer: the input bytes choose the options,
 * the base and the head profile; they are read, merged, laid out and
 * written in every text format into memory, then everything is freed.
 *
 * Input layout (so seed files can be written by hand):
 *   byte 0   flags: reverse, strip-hex, normalize, strict, inverted,
 *            truncate left, color-by total, dark theme (bit 0 .. 7)
 *   byte 1   bits 0-1 widths (3 = union too), bit 2 labels from input,
 *            bit 3 PNG/PDF (only with DIFFFOLD_FUZZ_PNG set: slow),
 *            bit 4 min-width in percent, bits 5-7 size preset
 *   byte 2   min-width value
 *   byte 3   palette, min-delta and --top
 *   rest     BASE "\n--\n" HEAD ["\n--\n" LABEL] ["\n--opts\n" WORDS]; without a separator the
 *            rest is one profile read as the CLI reads a single file
 *            (2 or 3 columns decided by the first line). Each profile's
 *            reader is chosen by its content as the CLI chooses it: a
 *            callgrind header makes it a callgrind file ("events: Ir\n"
 *            then fl=/fn= lines), a perf script sample header then an
 *            indented frame a perf script file (read with --weight period
 *            when normalize is set), speedscope, Firefox Profiler and DHAT
 *            JSON their readers (DHAT's default metric), a pprof profile
 *            (protobuf, sample type 0 when strict is set, else pprof's
 *            default) or a massif file (snapshot 1 when strict is set, else
 *            the peak); other known
 *            formats are refused.
 *            WORDS, one a line, are command-line options read by
 *            options_parse as the CLI reads them (--hide, --replace,
 *            --focus, --focus-root, --exclude, --skip-frames,
 *            --collapse-recursion, --runs, the gates, --objects...); an
 *            input whose words options_parse refuses is skipped. With
 *            --runs, "\n-r-\n" splits BASE and HEAD into runs, each one
 *            file of its side.
 *
 * Beyond "no crash, no leak" it checks properties every output must have
 * whatever the names are: JSON (nested and flat) and SVG are valid UTF-8
 * with no raw control characters, JSON has no raw U+2028/U+2029, and the
 * SVG holds at most the one <script> and <style> element and CDATA sections
 * difffold embeds. The folded output, read back as one input, gives the
 * same folded output again (without --reverse and --normalize, which
 * change names or counts on the way out).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detect.h"
#include "export.h"
#include "folded.h"
#include "layout.h"
#include "match.h"
#include "options.h"
#include "readers.h"
#include "output.h"
#include "png.h"
#include "report.h"
#include "runs.h"
#include "settings.h"
#include "svg.h"
#include "tree.h"
#include "tree_build.h"
#include "utf8.h"
#include "xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char separator[] = "\n--\n";
static const char opts_mark[] = "\n--opts\n";
static const char run_mark[] = "\n-r-\n";

/* A property violation: crash loudly so libFuzzer keeps the input. */
#define check(ok) check_at((ok), #ok, __LINE__)

static void
check_at(bool ok, const char *what, int line)
{
	if (!ok) {
		fprintf(stderr, "fuzz_pipeline.c:%d: check failed: %s\n", line, what);
		abort();
	}
}

/* memmem, not a memcmp per position: libFuzzer hooks every memcmp call,
 * which made a scan of a large SVG cost seconds. */
static const char *
find(const char *s, size_t len, const char *needle, size_t nlen)
{
	return memmem(s, len, needle, nlen);
}

static size_t
count_of(const char *s, size_t len, const char *needle)
{
	size_t n = 0, nlen = strlen(needle);
	const char *p;
	while ((p = find(s, len, needle, nlen)) != NULL) {
		n++;
		len -= (size_t)(p - s) + nlen;
		s = p + nlen;
	}
	return n;
}

/*
 * Valid UTF-8 without C0 controls (but \t \n \r): what JSON parsers
 * accept. For XML 1.0 also without U+FFFE/U+FFFF; for JSON without raw
 * U+2028/U+2029, which break the JSON once it is pasted into JavaScript.
 */
static bool
clean_text(const char *s, size_t len, bool xml)
{
	for (size_t i = 0; i < len;) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x80) {
			if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
				return false;
			}
			i++;
			continue;
		}
		uint32_t cp;
		size_t n = utf8_decode(s + i, len - i, &cp);
		if (n == 0) {
			return false;
		}
		if (xml ? cp == 0xFFFE || cp == 0xFFFF : cp == 0x2028 || cp == 0x2029) {
			return false;
		}
		i += n;
	}
	return true;
}

static void
set_options(struct options *o, const uint8_t *h)
{
	static const char *const palettes[] = {"hot", "mem", "io", "java", "js", "perl", "rust",
	        "python", "red", "green", "blue", "aqua", "yellow", "purple", "orange", "hot"};
	static const double deltas[] = {OPTIONS_DEFAULT_MIN_DELTA, 0, 0.5, 1};
	/* width, frame height, font size: all inside what options_parse accepts. */
	static const double sizes[8][3] = {{1200, 16, 12}, {100, 4, 4}, {100000, 200, 100},
	        {640, 16, 100}, {1200, 4, 12}, {333, 17, 13}, {100, 200, 4}, {2000, 24, 18}};
	options_init(o);
	o->tree.reverse = h[0] & 1;
	o->tree.strip_hex = h[0] & 2;
	o->tree.normalize = h[0] & 4;
	o->strict = h[0] & 8;
	o->inverted = h[0] & 16;
	o->truncate = (h[0] & 32) ? TRUNCATE_LEFT : TRUNCATE_RIGHT;
	o->color_by = (h[0] & 64) ? COLOR_BY_TOTAL : COLOR_BY_SELF;
	o->theme = (h[0] & 128) ? THEME_DARK : THEME_LIGHT;
	o->widths = (enum widths)((h[1] & 3) == 3 ? WIDTHS_UNION : (h[1] & 3));
	o->min_width_percent = h[1] & 16;
	o->min_width = o->min_width_percent ? h[2] % 101 : h[2] / 8.0;
	const double *sz = sizes[h[1] >> 5];
	o->width = sz[0];
	o->frame_height = sz[1];
	o->font_size = sz[2];
	o->palette = palettes[h[3] & 15];
	o->tree.min_delta = deltas[(h[3] >> 4) & 3];
	o->top = (h[3] & 64) ? 1000 : 1 + (h[3] & 15);
	o->fail_on_regression = (h[3] & 128) ? 0 : 5;
	/* One input in eight: a frame limit small enough to be reached. */
	if ((h[2] & 7) == 7) {
		o->tree.max_nodes = 1u + (h[2] >> 3);
	}
}

static void
check_svg(const struct buf *b)
{
	if (b->len == 0) {
		return; /* a backend still being written */
	}
	check(clean_text(b->data, b->len, true));
	check(count_of(b->data, b->len, "<script") <= 1);
	/* CDATA only around the embedded CSS and JS, each closed once: a name
	 * never opens or closes one. */
	size_t cdata = count_of(b->data, b->len, "<![CDATA[");
	check(cdata <= 2 && count_of(b->data, b->len, "]]>") == cdata);
	check(count_of(b->data, b->len, "<style") <= 1);
}

/* difffold reads its own folded output back as the same profile. */
static void
check_round_trip(const struct buf *folded)
{
	if (!folded->len) {
		return; /* every stack dropped (--hide, --focus...): nothing to read back */
	}
	struct tree_options topt = {.min_delta = OPTIONS_DEFAULT_MIN_DELTA};
	struct tree *t = tree_create(&topt);
	struct read_options ro;
	readers_options_init(&ro);
	ro.strict = true;
	struct read_result res;
	struct diag err;
	bool ok = readers_read_mem(readers_find("folded"), t, FOLDED_AUTO, "back", folded->data,
	        folded->len, &ro, &res, &err);
	if (!ok) {
		fprintf(stderr, "reading the folded output back: %s\n", err.msg);
	}
	check(ok);
	tree_finish(t, res.folded.three_column);
	struct out again;
	out_init_memory(&again);
	export_folded(&again, t);
	/* Both texts, to see a failed round trip when replaying its input. */
	if (getenv("DIFFFOLD_FUZZ_DUMP")) {
		fprintf(stderr, "first:\n%.*s\nagain:\n%.*s\n", (int)folded->len, folded->data,
		        (int)again.b.len, again.b.data);
	}
	check(again.b.len == folded->len && memcmp(again.b.data, folded->data, folded->len) == 0);
	buf_finish(&again.b);
	tree_destroy(t);
}

static void
write_text_formats(const struct tree *t, const struct options *o, const struct layout *l)
{
	struct out out;
	struct report_options r;
	settings_report(o, &r);
	/* Computed once for every report format, as main does. */
	struct report *rep = report_create(t, &r);

	out_init_memory(&out);
	export_json(&out, t, o->json_layout, t->differential ? rep : NULL);
	check(clean_text(out.b.data, out.b.len, false));
	buf_finish(&out.b);

	out_init_memory(&out);
	export_json(&out, t, JSON_LAYOUT_FLAT, t->differential ? rep : NULL);
	check(clean_text(out.b.data, out.b.len, false));
	buf_finish(&out.b);

	out_init_memory(&out);
	export_folded(&out, t);
	if (!o->tree.reverse && !o->tree.normalize) {
		check_round_trip(&out.b);
	}
	buf_finish(&out.b);

	out_init_memory(&out);
	svg_write(&out, l);
	check_svg(&out.b);
	buf_finish(&out.b);

	out_init_memory(&out);
	report_write_md(&out, rep);
	buf_finish(&out.b);

	out_init_memory(&out);
	report_write_text(&out, rep, o->theme == THEME_DARK);
	report_destroy(rep);
	buf_finish(&out.b);

	/* The gates as main runs them, after the outputs. */
	struct buf why;
	buf_init(&why);
	if (report_gates_on(&r) && report_gates_check(t, &r, &why)) {
		buf_reset(&why);
		report_gates(t, &r, &why);
	}
	buf_finish(&why);
}

/*
 * One line per process the first time a PNG or PDF is drawn, so a fuzz log
 * shows the cairo/pango backend really ran (.ci/hardening checks for it).
 */
static bool told_png, told_pdf;

static void
tell_once(bool drawn, bool *told, const char *what)
{
	if (drawn && !*told) {
		*told = true;
		fprintf(stderr, "fuzz_pipeline: drew %s\n", what);
	}
}

static void
write_bitmaps(const struct layout *l)
{
	static int enabled = -1;
	if (enabled < 0) {
		const char *env = getenv("DIFFFOLD_FUZZ_PNG");
		enabled = env && *env;
	}
	if (!enabled) {
		return;
	}
	/* Within cairo's image size limit drawing must not fail, whatever the
	 * names: a failure there is a bug (say, text cairo rejects). */
	double px = 32767 / l->opt->scale;
	bool must_draw = l->width <= px && l->height <= px;
	struct out out;
	struct diag err;
	out_init_memory(&out);
	bool ok = png_write(&out, l, &err);
	buf_finish(&out.b);
	if (must_draw && !ok) {
		fprintf(stderr, "png_write: %s\n", err.msg);
	}
	check(ok || !must_draw);
	tell_once(ok, &told_png, "a PNG");
	out_init_memory(&out);
	ok = png_write_pdf(&out, l, &err);
	buf_finish(&out.b);
	if (must_draw && !ok) {
		fprintf(stderr, "png_write_pdf: %s\n", err.msg);
	}
	check(ok || !must_draw);
	tell_once(ok, &told_pdf, "a PDF");
}

/*
 * One profile, read by the reader its content asks for, as the CLI chooses
 * it; the flags pick each reader's less common paths: strict makes pprof
 * read sample type 0 and massif snapshot 1, reverse names callgrind frames
 * with their objects, normalize weighs perf samples by their period.
 */
static bool
read_part(struct tree *t, const char *name, const char *data, size_t len, enum folded_mode mode,
        const struct options *o, bool *three_column)
{
	const struct profile_reader *r = readers_for(detect_format(data, len, true));
	*three_column = false;
	if (!r) {
		return false;
	}
	struct read_options ro;
	readers_options_init(&ro);
	ro.strict = o->strict;
	ro.event = o->strict && strcmp(r->name, "pprof") == 0 ? "0" : NULL;
	ro.snapshot = o->strict ? 1 : ro.snapshot;
	ro.objects = o->tree.reverse || o->objects;
	ro.weight_period = o->tree.normalize;
	/* A work floor the fuzzer reaches, so the bound's path is fuzzed too and
	 * a few hundred bytes asking for millions of frames stay fast under the
	 * sanitizers (the CLI's floor is 4 million). */
	ro.max_work = o->tree.max_nodes < 64 ? 64 : 200000;
	struct read_result res;
	struct diag err;
	bool ok = readers_read_mem(r, t, mode, name, data, len, &ro, &res, &err);
	*three_column = res.folded.three_column;
	return ok;
}

/*
 * One side: its runs (split at run_mark) one after the other, each taken
 * as one run when runs is set; else the whole part as one file.
 */
static bool
read_side(struct tree *t, struct runs *runs, const char *name, const char *data, size_t len,
        enum folded_mode mode, const struct options *o, bool *three_column)
{
	if (!runs) {
		return read_part(t, name, data, len, mode, o, three_column);
	}
	for (;;) {
		const char *mark = find(data, len, run_mark, sizeof(run_mark) - 1);
		size_t n = mark ? (size_t)(mark - data) : len;
		if (!read_part(t, name, data, n, mode, o, three_column) ||
		        !runs_take(runs, t, mode == FOLDED_BASE ? SIDE_BASE : SIDE_HEAD)) {
			return false; /* an all-zero run is refused, as the CLI does */
		}
		if (!mark) {
			return true;
		}
		len -= n + sizeof(run_mark) - 1;
		data = mark + sizeof(run_mark) - 1;
	}
}

/* Reads base and head, or one profile; false when the input is rejected. */
static bool
read_inputs(struct tree *t, const struct options *o, const char *rest, size_t len,
        bool *differential, char **label, struct runs *runs)
{
	bool three_column;
	const char *sep = find(rest, len, separator, sizeof(separator) - 1);
	if (!sep) {
		bool ok = read_part(t, "single", rest, len, FOLDED_AUTO, o, &three_column);
		*differential = three_column;
		return ok;
	}
	size_t base_len = (size_t)(sep - rest);
	const char *head = sep + sizeof(separator) - 1;
	size_t head_len = len - base_len - (sizeof(separator) - 1);
	const char *sep2 = find(head, head_len, separator, sizeof(separator) - 1);
	if (sep2) {
		const char *l = sep2 + sizeof(separator) - 1;
		*label = xmemdup(l, head_len - (size_t)(l - head));
		head_len = (size_t)(sep2 - head);
	}
	*differential = true;
	return read_side(t, runs, "base", rest, base_len, FOLDED_BASE, o, &three_column) &&
	       read_side(t, runs, "head", head, head_len, FOLDED_HEAD, o, &three_column);
}

/*
 * The options after opts_mark, one a line, through options_parse as the
 * CLI reads them (two input names added, never opened); false when it
 * refuses them. The words stay in *words: the options point into them.
 */
static bool
parse_words(struct options *o, const char *s, size_t len, char **words)
{
	*words = xmalloc(len + 1);
	if (memchr(s, '\0', len)) {
		return false; /* a word cannot hold one */
	}
	memcpy(*words, s, len);
	(*words)[len] = '\0';
	char *argv[66] = {"difffold"};
	int argc = 1;
	for (char *w = *words; argc < 63;) {
		char *nl = strchr(w, '\n');
		if (nl) {
			*nl = '\0';
		}
		/* --help and --version print and exit; outputs here are in memory. */
		if (*w && strcmp(w, "--help") != 0 && strcmp(w, "-h") != 0 &&
		        strcmp(w, "--version") != 0) {
			argv[argc++] = w;
		}
		if (!nl) {
			break;
		}
		w = nl + 1;
	}
	argv[argc++] = "base";
	argv[argc++] = "head";
	argv[argc] = NULL;
	struct diag err;
	return options_parse(o, argc, argv, &err) == OPTIONS_OK;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t h[4] = {0, 0, 0, 0};
	size_t skip = size < sizeof(h) ? size : sizeof(h);
	memcpy(h, data, skip);
	struct options o;
	set_options(&o, h);
	const char *rest = (const char *)data + skip;
	size_t rest_len = size - skip;
	char *words = NULL;
	const char *opts = find(rest, rest_len, opts_mark, sizeof(opts_mark) - 1);
	if (opts) {
		const char *w = opts + sizeof(opts_mark) - 1;
		bool ok = parse_words(&o, w, rest_len - (size_t)(w - rest), &words);
		rest_len = (size_t)(opts - rest);
		if (!ok) {
			free(words);
			options_finish(&o);
			return 0;
		}
	}
	struct tree *t = tree_create(&o.tree);
	struct runs *runs = o.runs ? runs_create(o.significance) : NULL;
	bool differential = false;
	char *label = NULL;
	if (!read_inputs(t, &o, rest, rest_len, &differential, &label, runs)) {
		runs_destroy(runs);
		runs = NULL;
	} else {
		tree_finish(t, differential);
		if (runs && differential) {
			runs_attach(runs, t); /* t frees it */
			runs = NULL;
		}
		/* Matching across builds, on by default, where input_read runs it:
		 * it moves frames of the finished tree, so every output below
		 * draws a tree it reshaped. */
		struct match_settings ms = {!o.no_match && !o.exact_names, !o.no_match};
		match_run(t, &ms);
		if (differential && !t->runs) {
			/* 0: each count is a sample (no count-typed pprof value). */
			const double per_sample[2] = {0, 0};
			runs_attach_single(t, o.significance, h[0] & 8, per_sample);
		}
		if (label && (h[1] & 4)) {
			/* Hostile text in every caption slot the user controls. */
			o.title = o.subtitle = o.notes = o.countname = label;
			o.base_label = o.head_label = o.image_url = label;
		} else {
			o.base_label = "base";
			o.head_label = "head";
		}
		struct draw_options d;
		settings_draw(&o, &d);
		struct layout *l = layout_create(t, &d);
		write_text_formats(t, &o, l);
		if (h[1] & 8) {
			write_bitmaps(l);
		}
		layout_destroy(l);
	}
	free(label);
	runs_destroy(runs);
	runs_destroy(t->runs);
	match_destroy(t->match);
	tree_destroy(t);
	options_finish(&o);
	free(words);
	return 0;
}
