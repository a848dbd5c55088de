/*
 * Tests of the report module through its public API: aggregation of
 * functions across call sites and under recursion, escaping of hostile
 * names, the size bound of the Markdown report, and the gate's thresholds.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "buf.h"
#include "escape.h"
#include "folded.h"
#include "helpers.h"
#include "numfmt.h"
#include "options.h"
#include "output.h"
#include "report.h"
#include "report_private.h"
#include "runs.h"
#include "settings.h"
#include "stats.h"
#include "tree.h"
#include "tree_build.h"

/* A differential tree from two folded texts. */
static struct tree *
pair_floor(const char *base, const char *head, bool normalize, double min_delta)
{
	struct tree_options opt = {.min_delta = min_delta, .normalize = normalize};
	struct tree *t = tree_create(&opt);
	struct folded_stats st;
	struct diag err;
	assert_true(fold_mem(t, "base", base, strlen(base), FOLDED_BASE, false, &st, &err));
	assert_true(fold_mem(t, "head", head, strlen(head), FOLDED_HEAD, false, &st, &err));
	tree_finish(t, true);
	return t;
}

static struct tree *
pair(const char *base, const char *head, bool normalize)
{
	return pair_floor(base, head, normalize, OPTIONS_DEFAULT_MIN_DELTA);
}

static char *
md(const struct tree *t, const struct options *opt)
{
	struct report_options r;
	settings_report(opt, &r);
	struct report *rep = report_create(t, &r);
	struct out o;
	out_init_memory(&o);
	report_write_md(&o, rep);
	report_destroy(rep);
	return buf_detach(&o.b, NULL);
}

static char *
text(const struct tree *t, const struct options *opt, bool color)
{
	struct report_options r;
	settings_report(opt, &r);
	struct report *rep = report_create(t, &r);
	struct out o;
	out_init_memory(&o);
	report_write_text(&o, rep, color);
	report_destroy(rep);
	return buf_detach(&o.b, NULL);
}

static char *
summary(const struct tree *t, const struct options *opt)
{
	struct report_options r;
	settings_report(opt, &r);
	struct buf b;
	buf_init(&b);
	struct report *rep = report_create(t, &r);
	report_json_summary(&b, rep);
	report_destroy(rep);
	return buf_detach(&b, NULL);
}

/* The gates as main runs them: every gate o asks for; why gets their lines. */
static bool
run_gates(const struct tree *t, const struct options *o, struct buf *why)
{
	struct report_options r;
	settings_report(o, &r);
	return report_gates(t, &r, why);
}

/* --fail-on-regression pct alone. */
static bool
regression_gate(const struct tree *t, double pct, struct buf *why)
{
	struct options o;
	options_init(&o);
	o.fail_on_regression = pct;
	bool failed = run_gates(t, &o, why);
	options_finish(&o);
	return failed;
}

static void
assert_contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle)) {
		fail_msg("missing \"%s\" in:\n%s", needle, hay);
	}
}

static void
assert_lacks(const char *hay, const char *needle)
{
	if (strstr(hay, needle)) {
		fail_msg("unexpected \"%s\" in:\n%s", needle, hay);
	}
}

static void
aggregates_across_call_sites(void **state)
{
	(void)state;
	struct tree *t = pair("main;a;parse 10\nmain;b;parse 5\nmain;b 1\n",
	        "main;a;parse 20\nmain;b;parse 10\nmain;b 1\n", false);
	struct options o;
	options_init(&o);
	char *s = summary(t, &o);
	assert_contains(s, "{\"name\":\"parse\",\"base\":15,\"head\":30,\"change\":15,"
	                   "\"change_percent\":100,");
	assert_contains(s, "\"base_total\":16,\"head_total\":31,\"change\":15");
	free(s);
	/* The per-path table keeps the call sites apart. */
	char *m = md(t, &o);
	assert_contains(m, "| `main;a;parse` | 10 | 20 | +10 | +100.0% |");
	assert_contains(m, "| `main;b;parse` | 5 | 10 | +5 | +100.0% |");
	assert_contains(m, "| `parse` | 15 | 30 | +15 | +100.0% |");
	free(m);
	tree_destroy(t);
	options_finish(&o);
}

static void
counts_recursion_once(void **state)
{
	(void)state;
	struct tree *t = pair("main;f;g;f;f 10\nmain;f 2\n", "main;f;g;f;f 20\nmain;f 2\n", false);
	struct options o;
	options_init(&o);
	char *s = summary(t, &o);
	/* f's total is every sample under any f, once: 12 -> 22, not 32 -> 62. */
	assert_contains(s, "{\"name\":\"f\",\"base\":12,\"head\":22,\"change\":10,");
	assert_contains(s, "{\"name\":\"g\",\"base\":10,\"head\":20,\"change\":10,");
	free(s);
	tree_destroy(t);
	options_finish(&o);
}

static int
unescaped_pipes(const char *line, size_t len)
{
	int pipes = 0;
	for (size_t i = 0; i < len; i++) {
		pipes += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
	}
	return pipes;
}

/*
 * Every row of a table has as many unescaped pipes as its header, and the
 * function and call-path tables have `cols` columns.
 */
static void
assert_table_shape(const char *m, int cols)
{
	int want = 0; /* the header's pipes; 0 outside a table */
	for (const char *line = m; *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		if (len > 0 && line[0] == '|') {
			int pipes = unescaped_pipes(line, len);
			if (want == 0) {
				want = pipes;
				bool listed = strncmp(line, "| Function |", 12) == 0 ||
				              strncmp(line, "| Call path |", 13) == 0;
				if (listed && strncmp(line, "| Function | Measure |", 22) != 0 &&
				        pipes != cols + 1) {
					fail_msg("bad header (%d pipes): %.*s", pipes, (int)len,
					        line);
				}
			}
			if (pipes != want) {
				fail_msg("bad row (%d pipes): %.*s", pipes, (int)len, line);
			}
		} else {
			want = 0;
		}
		line += len + (end != NULL);
	}
}

static void
escapes_hostile_names(void **state)
{
	(void)state;
	const char *names = "main;a|b 1\nmain;x`y 2\nmain;<script>alert(1)</script> 3\n"
	                    "main;*bold* 4\nmain;_u_ 5\nmain;[l](u) 6\nmain;\x1b[31mred 7\n"
	                    "main;bad\xff\xfe 8\nmain;&amp; 9\nmain;$x$ 10\n";
	struct tree *t = pair("main 1\n", names, false);
	struct options o;
	options_init(&o);
	char *m = md(t, &o);
	/* Names go into code spans: no Markdown, no HTML, '|' kept for the table. */
	assert_contains(m, "| `a\\|b` |");
	assert_contains(m, "| ``x`y`` |");
	assert_contains(m, "| `<script>alert(1)</script>` |");
	assert_contains(m, "| `*bold*` |");
	assert_contains(m, "| `_u_` |");
	assert_contains(m, "| `[l](u)` |");
	assert_contains(m, "| `&amp` |"); /* "main;&amp; 9": no empty leaf frame */
	assert_contains(m, "| `$x$` |");
	assert_contains(m, "| `bad\xef\xbf\xbd\xef\xbf\xbd` |");
	assert_contains(m, "| `\xef\xbf\xbd[31mred` |");
	assert_lacks(m, "\x1b");
	assert_lacks(m, "\xff");
	assert_table_shape(m, 6);
	free(m);
	char *x = text(t, &o, false);
	assert_contains(x, "a|b");
	assert_contains(x, "<script>");
	assert_lacks(x, "\x1b");
	assert_lacks(x, "\xff");
	free(x);
	tree_destroy(t);
	options_finish(&o);
}

/*
 * Issue 21 item 13: GitHub and GitLab would turn these into notifications,
 * cross-repository references and links in a bot's comment; in a code
 * span they stay text.
 */
/* Issue 21 item 7: counts and changes past 2^53 print digit for digit. */
static void
prints_counts_exactly(void **state)
{
	(void)state;
	/* 2^53 and 2^53 + 1: a double holds only the first. */
	struct tree *t = pair("a 9007199254740992\n", "a 9007199254740993\n", false);
	struct options o;
	options_init(&o);
	o.tree.min_delta = 0;
	char *s = summary(t, &o);
	assert_contains(s, "\"base_total\":9007199254740992,\"head_total\":9007199254740993,"
	                   "\"change\":1,");
	free(s);
	char *m = md(t, &o);
	assert_contains(m, "9,007,199,254,740,992 \u2192 9,007,199,254,740,993 samples (+1)");
	free(m);
	char *x = text(t, &o, false);
	assert_contains(x, "9,007,199,254,740,992 -> 9,007,199,254,740,993 samples (+1,");
	free(x);
	tree_destroy(t);
	/* 2^64 - 1 against 1: no rounding up to 2^64, exact negative change. */
	t = pair("a 18446744073709551615\n", "a 1\nb 0.5\n", false);
	s = summary(t, &o);
	assert_contains(s, "\"base_total\":18446744073709551615,\"head_total\":1.5,"
	                   "\"change\":-18446744073709551613.5,");
	assert_contains(s, "{\"name\":\"a\",\"base\":18446744073709551615,\"head\":1,"
	                   "\"change\":-18446744073709551614,");
	free(s);
	m = md(t, &o);
	assert_contains(
	        m, "| `a` | 18,446,744,073,709,551,615 | 1 | -18,446,744,073,709,551,614 |");
	assert_contains(m, "(-18,446,744,073,709,551,613.5)");
	assert_lacks(m, "551,616");
	free(m);
	tree_destroy(t);
	options_finish(&o);
}

static void
neutralises_mentions_and_links(void **state)
{
	(void)state;
	static const char *const names[] = {"@org/team", "owner/repo#42", "GH-1234",
	        "https://evil.example/x", "www.x.com", "see !12 and ~label"};
	struct buf in;
	buf_init(&in);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		buf_printf(&in, "main;%s %zu\n", names[i], i + 1);
	}
	struct tree *t = pair("main 1\n", in.data, false);
	struct options o;
	options_init(&o);
	char *m = md(t, &o);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct buf want;
		buf_init(&want);
		buf_printf(&want, "| `%s` |", names[i]);
		assert_contains(m, want.data);
		/* Every occurrence is in a code span, alone or as a call path. */
		size_t all = 0, spans = 0;
		for (const char *p = strstr(m, names[i]); p; p = strstr(p + 1, names[i])) {
			all++;
			spans += p[-1] == '`' || (p - m > 5 && memcmp(p - 6, "`main;", 6) == 0);
		}
		assert_true(all > 0);
		assert_int_equal(all, spans);
		buf_finish(&want);
	}
	free(m);
	buf_finish(&in);
	options_finish(&o);
	tree_destroy(t);
}

static void
colours_only_when_asked(void **state)
{
	(void)state;
	struct tree *t = pair("main;a 10\nmain;b 10\n", "main;a 20\nmain;b 5\n", false);
	struct options o;
	options_init(&o);
	char *plain = text(t, &o, false);
	char *color = text(t, &o, true);
	assert_lacks(plain, "\x1b[");
	assert_contains(color, "\x1b[31m+10\x1b[0m");
	assert_contains(color, "\x1b[32m-5\x1b[0m");
	free(plain);
	free(color);
	tree_destroy(t);
	options_finish(&o);
}

/* Columns line up by code points, whatever the bytes of a name. */
static void
aligns_text_columns(void **state)
{
	(void)state;
	struct tree *t = pair("main;\xc3\xa9t\xc3\xa9 10\nmain;abcd 10\n",
	        "main;\xc3\xa9t\xc3\xa9 20\nmain;abcd 20\n", false);
	struct options o;
	options_init(&o);
	char *x = text(t, &o, false);
	/* In one table: the rows of the most expensive functions hold two names. */
	const char *table = strstr(x, "Top regressions by self");
	assert_non_null(table);
	const char *a = strstr(table, "  \xc3\xa9t\xc3\xa9 ");
	const char *b = strstr(table, "  abcd ");
	assert_non_null(a);
	assert_non_null(b);
	/* Both rows end their Base column after the same number of code points. */
	const char *ea = strchr(a, '\n'), *eb = strchr(b, '\n');
	assert_int_equal((ea - a) - 2, eb - b);
	free(x);
	tree_destroy(t);
	options_finish(&o);
}

static void
separates_thousands(void **state)
{
	(void)state;
	struct tree *t = pair("main;a 1234567\n", "main;a 2345678\n", false);
	struct options o;
	options_init(&o);
	char *m = md(t, &o);
	assert_contains(m, "| `a` | 1,234,567 | 2,345,678 | +1,111,111 | +90.0% |");
	free(m);
	tree_destroy(t);
	options_finish(&o);
}

static void
states_the_rule(void **state)
{
	(void)state;
	struct options o;
	options_init(&o);
	struct tree *t = pair("main;a 50\nmain;b 50\n", "main;a 150\nmain;b 50\n", true);
	char *m = md(t, &o);
	assert_contains(m, "Rule: normalised");
	assert_contains(m, "multiplied by 2 ");
	/* Base counts are scaled: a 50 -> 100 compared with 150. */
	assert_contains(m, "| `a` | 100 | 150 | +50 | +50.0% | +25.00 |");
	free(m);
	tree_destroy(t);
	t = pair("main;a 50\n", "main;a 150\n", false);
	m = md(t, &o);
	assert_contains(m, "Rule: absolute counts");
	free(m);
	tree_destroy(t);
	options_finish(&o);
}

static void
links_the_image_safely(void **state)
{
	(void)state;
	struct tree *t = pair("main;a 1\n", "main;a 2\n", false);
	struct options o;
	options_init(&o);
	o.image_url = "https://example.com/a b(1)<x>.png";
	char *m = md(t, &o);
	/* The image follows the one-line verdict that opens the report. */
	const char *want = ".\n\n![difffold](https://example.com/a%20b%281%29%3Cx%3E.png)\n\n";
	const char *nl = strchr(m, '\n');
	assert_non_null(nl);
	assert_memory_equal(nl - 1, want, strlen(want));
	assert_memory_equal(m, "**Verdict: ", 11);
	free(m);
	o.image_url = "javascript:alert(1)";
	m = md(t, &o);
	assert_lacks(m, "javascript");
	assert_lacks(m, "![");
	free(m);
	o.image_url = "diff.png";
	m = md(t, &o);
	assert_contains(m, "![difffold](diff.png)");
	free(m);
	tree_destroy(t);
	options_finish(&o);
}

static void
cuts_long_names(void **state)
{
	(void)state;
	struct buf in;
	buf_init(&in);
	buf_adds(&in, "main;");
	for (int i = 0; i < 500; i++) {
		buf_addc(&in, 'n');
	}
	buf_adds(&in, " 5\n");
	struct tree *t = pair("main 1\n", in.data, false);
	struct options o;
	options_init(&o);
	char *m = md(t, &o);
	char want[130];
	memset(want, 'n', 119);
	want[119] = '\0';
	assert_contains(m, want);
	memcpy(want + 119, "\xe2\x80\xa6` |", 6);
	want[125] = '\0';
	assert_contains(m, want);
	want[119] = 'n';
	want[120] = '\0';
	assert_lacks(m, want);
	free(m);
	tree_destroy(t);
	buf_finish(&in);
	options_finish(&o);
}

/* Many functions with long, escape-heavy names: the report stays small. */
static void
bounds_markdown_size(void **state)
{
	(void)state;
	struct buf base, head;
	buf_init(&base);
	buf_init(&head);
	for (int i = 0; i < 3000; i++) {
		for (int side = 0; side < 2; side++) {
			struct buf *b = side ? &head : &base;
			buf_printf(b, "root;f%d;", i);
			for (int k = 0; k < 200; k++) {
				buf_adds(b, "<&|");
			}
			buf_printf(b, "%d;g%d %d\n", i, i, side ? 10 + i % 7 : 10 + i % 5);
		}
	}
	/* No noise floor, so that every function is listed. */
	struct tree *t = pair_floor(base.data, head.data, false, 0);
	struct options o;
	options_init(&o);
	char *m = md(t, &o);
	assert_true(strlen(m) < 65536);
	assert_contains(m, "_Showing 10 of ");
	assert_table_shape(m, 6);
	free(m);
	o.top = 1000;
	o.image_url = "https://example.com/x.png";
	m = md(t, &o);
	assert_true(strlen(m) < 65536);
	assert_table_shape(m, 6);
	free(m);
	tree_destroy(t);
	buf_finish(&base);
	buf_finish(&head);
	options_finish(&o);
}

static void
gates_the_total(void **state)
{
	(void)state;
	struct tree *t = pair("main;a 100\n", "main;a 105\n", false);
	struct buf why;
	buf_init(&why);
	assert_false(regression_gate(t, 5, &why));
	assert_int_equal(why.len, 0);
	assert_true(regression_gate(t, 4.99, &why));
	assert_contains(why.data, "regression: whole profile total +5.0% of base total");
	assert_contains(why.data, "limit 4.99%");
	buf_finish(&why);
	tree_destroy(t);
}

static void
gates_a_function(void **state)
{
	(void)state;
	/* Same head total; a grows by 10 (10% of the base total), b shrinks. */
	struct tree *t = pair("main;a 50\nmain;b 50\n", "main;a 60\nmain;b 40\n", false);
	struct buf why;
	buf_init(&why);
	assert_false(regression_gate(t, 10, &why));
	assert_true(regression_gate(t, 9.9, &why));
	assert_contains(why.data, "regression: a total +10.0% of base total (+10, limit 9.9%)\n");
	assert_lacks(why.data, "whole profile");
	assert_lacks(why.data, " b ");
	buf_finish(&why);
	tree_destroy(t);
}

static void
gate_ignores_one_profile(void **state)
{
	(void)state;
	struct tree_options opt = {.min_delta = 0.001};
	struct tree *t = tree_create(&opt);
	struct folded_stats st;
	struct diag err;
	assert_true(fold_mem(t, "p", "a 5\n", 4, FOLDED_HEAD, false, &st, &err));
	tree_finish(t, false);
	struct buf why;
	buf_init(&why);
	assert_false(regression_gate(t, 0, &why));
	struct options o;
	options_init(&o);
	char *m = md(t, &o);
	assert_contains(m, "Top functions by self");
	assert_lacks(m, "Change");
	assert_contains(m, "| Function | Samples | Share |");
	free(m);
	/* The count column follows the unit (callgrind's instructions)... */
	o.countname = "instructions";
	m = md(t, &o);
	assert_contains(m, "| Function | Instructions | Share |");
	free(m);
	m = text(t, &o, false);
	assert_contains(m, "Instructions");
	free(m);
	/* ...but a unit that is no plain word stays out of the table heading. */
	o.countname = "a|b";
	m = md(t, &o);
	assert_contains(m, "| Function | Samples | Share |");
	free(m);
	buf_finish(&why);
	tree_destroy(t);
	options_finish(&o);
}

/* The stderr lines of every gate o asks for; *failed says whether any tripped. */
static char *
gates(const struct tree *t, const struct options *o, bool *failed)
{
	struct buf why;
	buf_init(&why);
	buf_add(&why, "", 0);
	*failed = run_gates(t, o, &why);
	return buf_detach(&why, NULL);
}

static void
gates_a_functions_own_change(void **state)
{
	(void)state;
	/* a's self grows 10% of its own base, but only 1% of the total. */
	struct tree *t = pair("main;a 100\nmain;b 900\n", "main;a 110\nmain;b 900\n", false);
	struct options o;
	options_init(&o);
	bool failed;
	o.fail_on_function = 10;
	char *w = gates(t, &o, &failed);
	assert_false(failed);
	assert_string_equal(w, "");
	free(w);
	o.fail_on_function = 9.9;
	w = gates(t, &o, &failed);
	assert_true(failed);
	assert_string_equal(w, "regression: a self +10.0% of its base (+10, limit 9.9%, "
	                       "--fail-on-function-regression 9.9)\n");
	free(w);
	/* The total gate of the same size does not see it. */
	options_init(&o);
	o.fail_on_regression = 9.9;
	w = gates(t, &o, &failed);
	assert_false(failed);
	free(w);
	tree_destroy(t);
	options_finish(&o);
}

static void
gate_needs_a_minimum_share(void **state)
{
	(void)state;
	/* tiny triples, but it is 3 samples of 10,103: 0.03% < 0.5%. A new
	 * function b at 100 samples (1%) is over the share and counts. */
	struct tree *t = pair("main;a 10000\nmain;tiny 1\n",
	        "main;a 10000\nmain;tiny 3\nmain;b 100\nmain;dust 2\n", false);
	struct options o;
	options_init(&o);
	o.fail_on_function = 50;
	bool failed;
	char *w = gates(t, &o, &failed);
	assert_true(failed);
	assert_string_equal(w, "regression: b self new (+100, 1.0% of the larger total, "
	                       "--fail-on-function-regression 50)\n");
	free(w);
	/* Below b's share, nothing trips; at zero, every growth does. */
	o.gate_min_share = 0.011;
	w = gates(t, &o, &failed);
	assert_false(failed);
	free(w);
	o.gate_min_share = 0;
	w = gates(t, &o, &failed);
	assert_true(failed);
	assert_contains(w, "regression: tiny self +200.0% of its base (+2, limit 50%");
	assert_contains(w, "regression: dust self new (+2,");
	free(w);
	tree_destroy(t);
	options_finish(&o);
}

static void
gates_new_functions_by_share(void **state)
{
	(void)state;
	/* fresh is new at 10 of 100 head samples (10%); a only grows. */
	struct tree *t = pair("main;a 50\n", "main;a 90\nmain;fresh 10\n", false);
	struct options o;
	options_init(&o);
	o.fail_on_new = 0.1;
	bool failed;
	char *w = gates(t, &o, &failed);
	assert_false(failed); /* exactly the share: not over it */
	free(w);
	o.fail_on_new = 0.099;
	w = gates(t, &o, &failed);
	assert_true(failed);
	assert_string_equal(w, "regression: new function fresh total 10.0% of head total "
	                       "(10, limit 9.9%, --fail-on-new 0.099)\n");
	free(w);
	tree_destroy(t);
	options_finish(&o);
}

static enum options_result
parse(struct options *o, const char *a, const char *b, struct diag *err)
{
	char *argv[] = {"difffold", "--fail-on", (char *)a, "--fail-on", (char *)b, "x", "y", NULL};
	options_init(o);
	return options_parse(o, 7, argv, err);
}

static void
parses_gate_patterns(void **state)
{
	(void)state;
	struct options o;
	struct diag err;
	assert_int_equal(parse(&o, "json::*:total:+5%", "parse_*:+2.5", &err), OPTIONS_OK);
	assert_int_equal(o.fail_on_count, 2);
	assert_string_equal(o.fail_on[0].glob, "json::*");
	assert_true(o.fail_on[0].total && o.fail_on[0].pct == 5);
	assert_string_equal(o.fail_on[1].glob, "parse_*");
	assert_true(!o.fail_on[1].total && o.fail_on[1].pct == 2.5);
	options_finish(&o);
	assert_int_equal(parse(&o, "a:self:+1", "b::c:+0", &err), OPTIONS_OK);
	assert_string_equal(o.fail_on[0].glob, "a");
	assert_string_equal(o.fail_on[1].glob, "b::c");
	options_finish(&o);
	const char *bad[] = {
	        "parse_*", "parse_*:5%", "parse_*:55", ":+5", "total:+", "a:+5x", "a:+-1"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(&o, "ok:+1", bad[i], &err), OPTIONS_USAGE);
		options_finish(&o);
	}
}

static void
gates_named_functions(void **state)
{
	(void)state;
	/* json_lex grows 20% self; json_parse's total grows 10% through it. */
	struct tree *t = pair("main;json_parse;json_lex 100\nmain;json_parse 100\nmain;x 800\n",
	        "main;json_parse;json_lex 120\nmain;json_parse 100\nmain;x 790\n", false);
	struct options o;
	struct diag err;
	bool failed;
	assert_int_equal(parse(&o, "json_*:+20", "json_parse:total:+10%", &err), OPTIONS_OK);
	char *w = gates(t, &o, &failed);
	assert_false(failed);
	free(w);
	options_finish(&o);
	assert_int_equal(parse(&o, "json_*:+19", "json_parse:total:+9.9%", &err), OPTIONS_OK);
	w = gates(t, &o, &failed);
	assert_true(failed);
	assert_string_equal(w,
	        "regression: json_lex self +20.0% of its base (+20, limit 19%, --fail-on "
	        "json_*:+19%)\n"
	        "regression: json_parse total +10.0% of its base (+20, limit 9.9%, --fail-on "
	        "json_parse:total:+9.9%)\n");
	free(w);
	/* x shrank: no pattern trips on an improvement. */
	options_finish(&o);
	assert_int_equal(parse(&o, "x:+0", "*:total:+0", &err), OPTIONS_OK);
	w = gates(t, &o, &failed);
	assert_lacks(w, " x ");
	free(w);
	tree_destroy(t);
	options_finish(&o);
}

static void
opens_with_the_verdict(void **state)
{
	(void)state;
	struct options o;
	options_init(&o);
	struct tree *t = pair("main;a 100\nmain;b 100\n", "main;a 150\nmain;b 100\n", false);
	char *m = md(t, &o);
	assert_memory_equal(m,
	        "**Verdict: regression**: total +25.0% (+50 samples); largest self change `a` "
	        "+50 (+50.0%).\n\n### difffold:",
	        strlen("**Verdict: regression**: total +25.0% (+50 samples); largest self "
	               "change `a` +50 (+50.0%).\n\n### difffold:"));
	free(m);
	char *x = text(t, &o, false);
	assert_memory_equal(x, "Verdict: regression: total +25.0% (+50 samples); largest",
	        strlen("Verdict: regression: total +25.0% (+50 samples); largest"));
	free(x);
	/* A gate that passes says the change is acceptable. */
	o.fail_on_function = 60;
	m = md(t, &o);
	assert_contains(m, "**Verdict: neutral**: the gate passed; total +25.0%");
	assert_contains(m, "#### Gates\n\n- `--fail-on-function-regression 60`: passed\n");
	free(m);
	o.fail_on_function = 40;
	o.fail_on_new = 0.5;
	m = md(t, &o);
	assert_contains(m, "**Verdict: regression**: 1 of 2 gates failed;");
	assert_contains(m, "- `--fail-on-function-regression 40`: **failed** (1)\n"
	                   "  - regression: `a` self +50.0% of its base (+50, limit 40%)\n"
	                   "- `--fail-on-new 0.5`: passed\n");
	free(m);
	x = text(t, &o, false);
	assert_contains(x, "\nGates\n  --fail-on-function-regression 40: failed (1)\n"
	                   "    regression: a self +50.0% of its base (+50, limit 40%)\n");
	free(x);
	tree_destroy(t);
	/* Faster overall, and a change within the noise floor. */
	options_init(&o);
	t = pair("main;a 100\n", "main;a 80\n", false);
	m = md(t, &o);
	assert_contains(m, "**Verdict: improvement**: total -20.0% (-20 samples)");
	free(m);
	tree_destroy(t);
	t = pair("main;a 100000\n", "main;a 100050\n", false);
	m = md(t, &o);
	assert_contains(m, "**Verdict: neutral**: total +0.05% (+50 samples); no function's "
	                   "self changed beyond the noise floor.\n");
	free(m);
	tree_destroy(t);
	options_finish(&o);
}

static void
summarises_the_verdict_in_json(void **state)
{
	(void)state;
	struct tree *t = pair("main;a 100\nmain;b 100\n", "main;a 150\nmain;b 100\n", false);
	struct options o;
	options_init(&o);
	char *s = summary(t, &o);
	assert_contains(s, ",\"verdict\":\"regression\",\"largest_self_change\":{\"name\":\"a\","
	                   "\"base\":100,\"head\":150,\"change\":50,");
	assert_contains(s, "\"gates_failed\":0,\"gates\":[],\"hot_path_changes\":");
	free(s);
	o.fail_on_function = 40;
	o.fail_on_regression = 30;
	s = summary(t, &o);
	assert_contains(s, "\"gates_failed\":1,\"gates\":[{\"gate\":\"fail-on-regression\","
	                   "\"limit\":30,\"failed\":false,\"offender_count\":0,\"offenders\":[],"
	                   "\"tested\":4,\"unconfirmed\":0},"
	                   "{\"gate\":\"fail-on-function-regression\",\"limit\":40,\"failed\":true,"
	                   "\"offender_count\":1,\"offenders\":[{\"name\":\"a\",\"base\":100,"
	                   "\"head\":150,\"change\":50}],\"tested\":2,\"unconfirmed\":0}],"
	                   "\"hot_path_changes\":");
	free(s);
	tree_destroy(t);
	options_finish(&o);
}

/* Signals: a new hot path, allocation and I/O growth, deeper stacks. */
static void
reports_signals(void **state)
{
	(void)state;
	struct tree *t = pair("main;work 900\nmain;work;malloc 50\nmain;io;write 50\n",
	        "main;work 600\nmain;work;malloc 150\nmain;io;write 100\n"
	        "main;work;inner;zstd_compress;deep 150\n",
	        false);
	struct options o;
	options_init(&o);
	char *m = md(t, &o);
	assert_contains(m,
	        "#### Signals\n\n- New hot paths (1 new frame at 0.5% of head or more):\n"
	        "  - `main;work;inner`: new (150 samples, 15.0% of head)\n");
	assert_contains(m, "- Allocation grew: self 5.00% \u2192 15.00% of all (+10.00 pp); "
	                   "most in `malloc` self 50 \u2192 150 (+100, +200.0%, +10.00 pp)\n");
	assert_contains(m, "- I/O grew: self 5.00% \u2192 10.00% of all (+5.00 pp)");
	/* Depth: (900x2 + 50x3 + 50x3) / 1000 = 2.1 -> (600x2 + 150x3 + 100x3 + 150x5) / 1000 = 2.7
	 */
	assert_contains(m, "- Mean stack depth (sample-weighted): 2.1 \u2192 2.7 frames (+0.6)\n");
	assert_contains(m,
	        "#### What to investigate\n\n- `deep` is new with the largest self "
	        "growth (150 samples); start on its path `main;\u2026;zstd_compress;deep`.\n"
	        "- `main;work;inner` is new and takes 15.0% of head");
	free(m);
	/* Patterns replace the defaults: now nothing counts as allocation. */
	const char *only[] = {"nothing_*"};
	o.alloc_patterns = only;
	o.alloc_pattern_count = 1;
	m = md(t, &o);
	assert_null(strstr(m, "Allocation grew"));
	free(m);
	/* Brackets, escapes and wildcards as fnmatch(3) reads them. */
	const char *globs[][2] = {{"m[a]lloc", "*[c]"}, {"*al\\loc", "ma*"}, {"?alloc", "m*c"}};
	for (size_t i = 0; i < sizeof(globs) / sizeof(globs[0]); i++) {
		o.alloc_patterns = globs[i];
		o.alloc_pattern_count = 2;
		m = md(t, &o);
		assert_contains(m, "- Allocation grew: self 5.00% \u2192 15.00% of all");
		free(m);
	}
	const char *miss[] = {"[b]alloc", "*[d]", "mal\\[loc", "malloc?"};
	o.alloc_patterns = miss;
	o.alloc_pattern_count = 4;
	m = md(t, &o);
	assert_null(strstr(m, "Allocation grew"));
	free(m);
	o.alloc_patterns = NULL;
	o.alloc_pattern_count = 0;
	tree_destroy(t);
	options_finish(&o);
}

/* After an improvement, the command that makes the head the baseline, shell-quoted. */
static void
offers_to_update_the_baseline(void **state)
{
	(void)state;
	struct tree *t = pair("main;a 200\n", "main;a 100\n", false);
	struct options o;
	options_init(&o);
	const char *base[] = {"base line.folded"}, *head[] = {"it's head.folded"};
	o.base = base;
	o.head = head;
	o.base_count = o.head_count = 1;
	char *m = md(t, &o);
	assert_contains(m, "**Head is better overall.** Once the improvement is confirmed, make it "
	                   "the new baseline: `cp -- 'it'\\''s head.folded' 'base line.folded'`\n");
	free(m);
	char *s = summary(t, &o);
	assert_null(strstr(s, "cp --")); /* the JSON names no file */
	free(s);
	/* A name that would not survive escaping gets no command. */
	head[0] = "head\033[2J.folded";
	m = md(t, &o);
	assert_contains(m, "copy the head profiles over the baseline.");
	free(m);
	o.base = o.head = NULL;
	o.base_count = o.head_count = 0;
	tree_destroy(t);
	options_finish(&o);
	/* No improvement: no command. */
	t = pair("main;a 100\n", "main;a 200\n", false);
	options_init(&o);
	m = md(t, &o);
	assert_null(strstr(m, "baseline"));
	free(m);
	tree_destroy(t);
	options_finish(&o);
}

/* The last guard of the comment limit cuts after a whole line, with a note. */
static void
fits_any_report_under_the_limit(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b);
	for (int i = 0; i < 2000; i++) {
		buf_printf(&b, "- line %04d of a report that options made far too long\n", i);
	}
	assert_true(b.len > MD_REPORT_MAX);
	report_md_fit(&b);
	assert_true(b.len <= MD_REPORT_MAX);
	const char *note = "\n_Report cut here to fit a pull-request comment._\n";
	assert_string_equal(b.data + b.len - strlen(note), note);
	/* What is left before the note ends with a whole line. */
	assert_true(b.data[b.len - strlen(note) - 1] == '\n');
	size_t len = b.len;
	report_md_fit(&b); /* a report within the limit is left alone */
	assert_int_equal(b.len, len);
	buf_finish(&b);
}

/* Sampled counts: a gate trips only on growth its test confirms. */
static void
gates_tell_noise_from_change(void **state)
{
	(void)state;
	struct options o;
	options_init(&o);
	o.fail_on_function = 10;
	/* +30% on 100 samples: over the limit, within sampling noise. */
	const char *base = "main;a 100\nmain;b 900\n", *head = "main;a 130\nmain;b 900\n";
	struct tree *t = pair(base, head, false);
	struct buf why;
	buf_init(&why);
	assert_true(run_gates(t, &o, &why)); /* exact counts: it trips */
	tree_destroy(t);
	t = pair(base, head, false);
	runs_attach_single(t, o.significance, false, (const double[2]){0, 0});
	buf_setlen(&why, 0);
	assert_false(run_gates(t, &o, &why));
	char *m = md(t, &o);
	assert_contains(m, "**Verdict: neutral**: the gate passed;");
	assert_contains(m, "- `--fail-on-function-regression 10`: passed; 1 over the limit but not "
	                   "confirmed at p < 0.05 (1 tested)\n");
	assert_lacks(m, "new baseline");
	free(m);
	runs_destroy(t->runs); /* attached here, freed by its owner */
	tree_destroy(t);
	/* +50% on 10,000 samples: confirmed. */
	t = pair("main;a 10000\nmain;b 90000\n", "main;a 15000\nmain;b 90000\n", false);
	runs_attach_single(t, o.significance, false, (const double[2]){0, 0});
	buf_setlen(&why, 0);
	assert_true(run_gates(t, &o, &why));
	assert_contains(why.data, "regression: a self +50.0% of its base");
	runs_destroy(t->runs); /* attached here, freed by its owner */
	tree_destroy(t);
	buf_finish(&why);
	options_finish(&o);
}

/* Gate lines name functions as code spans, as the tables do. */
static void
gate_names_are_code_spans(void **state)
{
	(void)state;
	struct options o;
	options_init(&o);
	o.fail_on_function = 10;
	struct tree *t = pair("main;@team#12 100\n", "main;@team#12 200\n", false);
	char *m = md(t, &o);
	assert_contains(m, "  - regression: `@team#12` self +100.0% of its base");
	free(m);
	tree_destroy(t);
	options_finish(&o);
}

/* The child of node id named name, or TREE_NONE. */
static uint32_t
child_named(const struct tree *t, uint32_t id, const char *name)
{
	for (uint32_t c = tree_node(t, id)->first_child; c != TREE_NONE;
	        c = tree_node(t, c)->next_sibling) {
		size_t len;
		const char *n = tree_node_name(t, tree_node(t, c), &len);
		if (len == strlen(name) && memcmp(n, name, len) == 0) {
			return c;
		}
	}
	return TREE_NONE;
}

/*
 * Head half as long: a's count falls by 2% while its share nearly doubles.
 * The test confirms a share that rose, so a is not drawn faster; b, whose
 * count and share both fell, is.
 */
static void
colours_only_the_confirmed_direction(void **state)
{
	(void)state;
	struct tree *t = pair("main;a 1000\nmain;b 9000\n", "main;a 980\nmain;b 4000\n", false);
	runs_attach_single(t, 0.05, false, (const double[2]){0, 0});
	uint32_t main_id = child_named(t, TREE_ROOT, "main");
	assert_int_not_equal(main_id, TREE_NONE);
	uint32_t a = child_named(t, main_id, "a"), b = child_named(t, main_id, "b");
	assert_int_not_equal(a, TREE_NONE);
	assert_int_not_equal(b, TREE_NONE);
	assert_int_equal(tree_node(t, a)->status, STATUS_SAME);
	assert_int_equal(tree_node(t, b)->status, STATUS_FASTER);
	runs_destroy(t->runs); /* attached here, freed by its owner */
	tree_destroy(t);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/*
 * 1,500 leaves of counts from 64 up under main, each pair its own, so the
 * pair hash grows several times (half of them share their head count);
 * every third leaf changed by a few percent or more, so that some verdicts
 * turn on the cut. Each leaf its own name: the names' sums are its counts.
 */
enum { CUT_LEAVES = 1500 };

static struct tree *
leaves_tested(void)
{
	struct buf base, head;
	buf_init(&base);
	buf_init(&head);
	for (int i = 0, b = 0; i < CUT_LEAVES; i++) {
		/* Every other leaf keeps the last head count: pairs that share a
		 * side must not share a p. */
		int a = 64 + 7 * i;
		b = i % 2 ? b : a + (i % 3 == 0 ? a * (i % 11) / 40 : i % 5);
		buf_printf(&base, "main;f%d %d\n", i, a);
		buf_printf(&head, "main;f%d %d\n", i, b);
	}
	struct tree *t = pair(base.data, head.data, false);
	runs_attach_single(t, 0.05, false, (const double[2]){0, 0});
	buf_finish(&base);
	buf_finish(&head);
	return t;
}

/* Benjamini-Hochberg done plainly on p[len] (p < 1 the hypotheses): the cut, -1 for none. */
static double
plain_cut(const double *p, size_t len, double alpha)
{
	double *sorted = calloc(len ? len : 1, sizeof(double));
	assert_non_null(sorted);
	size_t m = 0;
	for (size_t i = 0; i < len; i++) {
		if (p[i] < 1) {
			sorted[m++] = p[i];
		}
	}
	qsort(sorted, m, sizeof(double), cmp_double);
	double cut = -1;
	for (size_t k = 1; k <= m; k++) {
		if (sorted[k - 1] <= (double)k / (double)m * alpha) {
			cut = sorted[k - 1];
		}
	}
	free(sorted);
	return cut;
}

/*
 * The one-run-a-side test of every frame, whose p values runs_single
 * keeps by pair of counts (a table for the small ones, a hash for the
 * rest) with stand-ins where a bound settles them and ranges where it
 * brackets them: each frame's self verdict against Benjamini-Hochberg
 * done plainly, every p worked out and sorted.
 */
static void
frames_verdicts_match_a_plain_cut(void **state)
{
	(void)state;
	struct tree *t = leaves_tested();
	double A = (double)tree_node(t, TREE_ROOT)->total_units[SIDE_BASE];
	double B = (double)tree_node(t, TREE_ROOT)->total_units[SIDE_HEAD];
	double *p = calloc(t->node_count, sizeof(double));
	assert_non_null(p);
	for (size_t id = 0; id < t->node_count; id++) {
		const struct tree_node *n = tree_node(t, (uint32_t)id);
		p[id] = stats_pair_p(
		        (double)n->self_units[SIDE_BASE], A, (double)n->self_units[SIDE_HEAD], B);
	}
	double cut = plain_cut(p, t->node_count, 0.05);
	size_t passed = 0;
	for (size_t id = 0; id < t->node_count; id++) {
		bool want = p[id] < 1 && p[id] <= cut;
		passed += want;
		if (runs_node_significant(t->runs, (uint32_t)id, false) != want) {
			fail_msg("frame %zu: p %.17g, cut %.17g", id, p[id], cut);
		}
	}
	assert_true(passed > 100 && passed < CUT_LEAVES); /* the cut decides some */
	free(p);
	runs_destroy(t->runs); /* attached here, freed by its owner */
	tree_destroy(t);
}

/*
 * The same for the names' self and total: each name's sums tested, its p
 * compared as a float (as runs_single keeps it), cut plainly.
 */
static void
functions_verdicts_match_a_plain_cut(void **state)
{
	(void)state;
	struct tree *t = leaves_tested();
	double A = (double)tree_node(t, TREE_ROOT)->total_units[SIDE_BASE];
	double B = (double)tree_node(t, TREE_ROOT)->total_units[SIDE_HEAD];
	uint32_t nnames = intern_count(t->names);
	double(*sum)[2][2] = calloc(nnames, sizeof(*sum));
	double *p = calloc(nnames, sizeof(double));
	assert_non_null(sum);
	assert_non_null(p);
	/* No name is met twice on a stack here: every frame adds its total. */
	for (size_t id = 1; id < t->node_count; id++) {
		const struct tree_node *n = tree_node(t, (uint32_t)id);
		for (int side = 0; side < 2; side++) {
			sum[n->name][0][side] += (double)n->self_units[side];
			sum[n->name][1][side] += (double)n->total_units[side];
		}
	}
	for (int total = 0; total < 2; total++) {
		for (uint32_t name = 0; name < nnames; name++) {
			p[name] =
			        (float)stats_pair_p(sum[name][total][0], A, sum[name][total][1], B);
		}
		double cut = plain_cut(p, nnames, 0.05);
		size_t passed = 0;
		for (uint32_t name = 0; name < nnames; name++) {
			bool want = p[name] < 1 && p[name] <= cut;
			passed += want;
			if (runs_function_significant(t->runs, name, total) != want) {
				fail_msg("name %u, total %d: p %.17g, cut %.17g", name, total,
				        p[name], cut);
			}
		}
		assert_true(passed > 100 && passed < CUT_LEAVES);
	}
	free(sum);
	free(p);
	runs_destroy(t->runs);
	tree_destroy(t);
}

/* Where needle starts in hay, after from; fails when it is not there. */
static const char *
find_after(const char *hay, const char *from, const char *needle)
{
	const char *at = strstr(from, needle);
	if (!at) {
		fail_msg("missing \"%s\" after offset %td in:\n%s", needle, from - hay, hay);
	}
	return at;
}

/*
 * Every format writes the one report report_create computed: a gate's
 * reach figures, the hot-path lines in their order, and what to
 * investigate are the model's in Markdown, text and JSON alike, and the
 * model keeps --top rows of each list.
 */
static void
formats_render_one_model(void **state)
{
	(void)state;
	struct options o;
	options_init(&o);
	o.fail_on_function = 10;
	o.top = 2;
	struct tree *t = pair("main;a 10000\nmain;b 90000\nmain;c 5000\nmain;d 3000\n",
	        "main;a 15000\nmain;b 90000\nmain;c 2000\nmain;e 4000\n", false);
	runs_attach_single(t, o.significance, false, (const double[2]){0, 0});
	struct report_options ro;
	settings_report(&o, &ro);
	struct report *r = report_create(t, &ro);
	for (size_t l = 0; l < LIST_COUNT; l++) {
		assert_int_equal(r->shown[l], r->sum.count[l] < 2 ? r->sum.count[l] : 2);
	}
	char *m = md(t, &o), *x = text(t, &o, false), *j = summary(t, &o);
	/* The reach: the model's figures, in either syntax. */
	const struct gate_reach *rc = &r->gates[0].reach;
	assert_true(rc->shown);
	struct buf want;
	buf_init(&want);
	buf_adds(&want, " trips it 4 times in 5 once it grows by about +");
	numfmt_report_number(&want, rc->grows, 0, false, false);
	buf_adds(&want, "%: the limit and a noise margin of ");
	numfmt_report_number(&want, rc->margin, 0, false, false);
	assert_contains(find_after(m, m, "  - _Reach: `"), want.data);
	assert_contains(find_after(x, x, "    reach: "), want.data);
	/* The hot-path lines: the model's, in its order (a's growth, then new e). */
	assert_int_equal(r->sections.nhot, 2);
	const char *in_md = find_after(m, m, "#### Hot-path changes");
	const char *in_text = find_after(x, x, "\nHot-path changes\n");
	for (size_t i = 0; i < r->sections.nhot; i++) {
		size_t len;
		const char *name = intern_name(t->names, r->sections.hot[i].r->id, &len);
		buf_reset(&want);
		buf_printf(&want, "\n- `%.*s`: ", (int)len, name);
		in_md = find_after(m, in_md, want.data) + 1;
		buf_reset(&want);
		buf_printf(&want, "\n  %.*s: ", (int)len, name);
		in_text = find_after(x, in_text, want.data) + 1;
	}
	/* What to investigate: the JSON says each item as the text report does. */
	assert_true(r->sections.ninvestigate >= 2);
	for (size_t i = 0; i < r->sections.ninvestigate; i++) {
		struct buf item, json;
		buf_init(&item);
		buf_init(&json);
		report_add_investigate_item(
		        &item, r, &report_text_style, &r->sections.investigate[i]);
		escape_json_string(&json, item.data, item.len);
		assert_contains(j, json.data);
		buf_reset(&json);
		buf_printf(&json, "\n  - %s\n", item.data);
		assert_contains(x, json.data);
		buf_finish(&json);
		buf_finish(&item);
	}
	buf_finish(&want);
	free(j);
	free(x);
	free(m);
	report_destroy(r);
	runs_destroy(t->runs); /* attached here, freed by its owner */
	tree_destroy(t);
	options_finish(&o);
}

/*
 * One profile a side: a function's self test sums its call sites. f grows
 * by a quarter at each of four, within noise at any one of them, clearly
 * over the four.
 */
static void
functions_tested_on_their_sums(void **state)
{
	(void)state;
	struct tree *t = pair("main;a;f 100\nmain;b;f 100\nmain;c;f 100\nmain;d;f 100\n"
	                      "main;z 10000\n",
	        "main;a;f 125\nmain;b;f 125\nmain;c;f 125\nmain;d;f 125\nmain;z 10000\n", false);
	runs_attach_single(t, 0.05, false, (const double[2]){0, 0});
	uint32_t main_id = child_named(t, TREE_ROOT, "main");
	uint32_t z = child_named(t, main_id, "z");
	for (const char *const *site = (const char *const[]){"a", "b", "c", "d", NULL}; *site;
	        site++) {
		uint32_t f = child_named(t, child_named(t, main_id, *site), "f");
		assert_int_not_equal(f, TREE_NONE);
		assert_false(runs_node_significant(t->runs, f, false));
		assert_true(runs_function_significant(t->runs, tree_node(t, f)->name, false));
	}
	assert_false(runs_function_significant(t->runs, tree_node(t, z)->name, false));
	runs_destroy(t->runs); /* attached here, freed by its owner */
	tree_destroy(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(aggregates_across_call_sites),
	        cmocka_unit_test(fits_any_report_under_the_limit),
	        cmocka_unit_test(reports_signals),
	        cmocka_unit_test(offers_to_update_the_baseline),
	        cmocka_unit_test(counts_recursion_once),
	        cmocka_unit_test(escapes_hostile_names),
	        cmocka_unit_test(prints_counts_exactly),
	        cmocka_unit_test(neutralises_mentions_and_links),
	        cmocka_unit_test(colours_only_when_asked),
	        cmocka_unit_test(aligns_text_columns),
	        cmocka_unit_test(separates_thousands),
	        cmocka_unit_test(states_the_rule),
	        cmocka_unit_test(links_the_image_safely),
	        cmocka_unit_test(cuts_long_names),
	        cmocka_unit_test(bounds_markdown_size),
	        cmocka_unit_test(gates_the_total),
	        cmocka_unit_test(gates_a_function),
	        cmocka_unit_test(gate_ignores_one_profile),
	        cmocka_unit_test(gates_a_functions_own_change),
	        cmocka_unit_test(gate_needs_a_minimum_share),
	        cmocka_unit_test(gates_new_functions_by_share),
	        cmocka_unit_test(parses_gate_patterns),
	        cmocka_unit_test(gates_named_functions),
	        cmocka_unit_test(opens_with_the_verdict),
	        cmocka_unit_test(summarises_the_verdict_in_json),
	        cmocka_unit_test(gates_tell_noise_from_change),
	        cmocka_unit_test(colours_only_the_confirmed_direction),
	        cmocka_unit_test(frames_verdicts_match_a_plain_cut),
	        cmocka_unit_test(functions_verdicts_match_a_plain_cut),
	        cmocka_unit_test(functions_tested_on_their_sums),
	        cmocka_unit_test(gate_names_are_code_spans),
	        cmocka_unit_test(formats_render_one_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
