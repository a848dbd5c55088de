/* escape: XML, JSON, Markdown and terminal escaping of untrusted names. */
#include "escape.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "json_check.h"

static char *
escaped(const char *s, size_t len)
{
	struct buf b;
	buf_init(&b);
	escape_xml(&b, s, len);
	return buf_detach(&b, NULL);
}

static void
check_xml(const char *in, size_t len, const char *want)
{
	char *got = escaped(in, len);
	assert_string_equal(got, want);
	free(got);
}

#define XML(lit, want) check_xml(lit, sizeof(lit) - 1, want)

static void
test_xml_markup(void **state)
{
	(void)state;
	XML("plain_name::f()", "plain_name::f()");
	XML("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;");
	XML("\"><svg onload=alert(1)>", "&quot;&gt;&lt;svg onload=alert(1)&gt;");
	XML("]]>", "]]&gt;");
	XML("<!-- -->", "&lt;!-- --&gt;");
	XML("&amp;", "&amp;amp;");
	XML("it's", "it&#39;s");
	XML("javascript:alert(1)", "javascript:alert(1)");
	XML("", "");
}

/*
 * Every byte value at every place of names of 1 to 40 bytes (long runs
 * are scanned 16 bytes at a time, a tail of 16 bytes or more as the last
 * 16 again, short ones a byte at a time): escaped as it is alone.
 */
static void
test_xml_every_byte_everywhere(void **state)
{
	(void)state;
	enum { N = 40 };
	for (int c = 0; c < 256; c++) {
		char one = (char)c;
		char *alone = escaped(&one, 1);
		size_t n = strlen(alone);
		for (size_t len = 1; len <= N; len++) {
			for (size_t at = 0; at < len; at++) {
				char in[N], want[N + 16];
				memset(in, 'a', len);
				in[at] = (char)c;
				memset(want, 'a', at);
				memcpy(want + at, alone, n);
				memset(want + at + n, 'a', len - at - 1);
				want[n + len - 1] = '\0';
				check_xml(in, len, want);
			}
		}
		free(alone);
	}
}

static void
test_xml_controls(void **state)
{
	(void)state;
	/* NUL and the other C0 controls cannot be written in XML 1.0. */
	XML("a\0b", "a\xEF\xBF\xBD"
	            "b");
	XML("\x01\x1f", "\xEF\xBF\xBD\xEF\xBF\xBD");
	XML("\x7f", "\xEF\xBF\xBD");
	/* Whitespace kept exactly, also inside attribute values. */
	XML("a\tb\nc\rd", "a&#9;b&#10;c&#13;d");
	/* C1 controls (U+0085) and the non-characters U+FFFE, U+FFFF. */
	XML("\xC2\x85", "\xEF\xBF\xBD");
	XML("\xEF\xBF\xBE\xEF\xBF\xBF", "\xEF\xBF\xBD\xEF\xBF\xBD");
}

static void
test_xml_unicode(void **state)
{
	(void)state;
	XML("caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x94\xA5",
	        "caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x94\xA5");
	XML("a\xE2\x80\xA8"
	    "b\xE2\x80\xA9",
	        "a&#x2028;b&#x2029;");
	XML("\xEF\xBB\xBFname", "&lt;U+FEFF&gt;name");
	/* Invalid UTF-8: one replacement per bad byte. */
	XML("\xff\xfe", "\xEF\xBF\xBD\xEF\xBF\xBD");
	XML("x\xE2\x86", "x\xEF\xBF\xBD\xEF\xBF\xBD"); /* truncated sequence */
	XML("\xC0\xAF", "\xEF\xBF\xBD\xEF\xBF\xBD"); /* overlong '/' */
	XML("\xED\xA0\x80", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"); /* surrogate */
}

static void
check_json_string(const char *in, size_t len, const char *want)
{
	struct buf b;
	buf_init(&b);
	escape_json_string(&b, in, len);
	assert_string_equal(b.data, want);
	if (!json_valid(b.data, b.len)) {
		fail_msg("invalid JSON: %s", b.data);
	}
	buf_finish(&b);
}

static void
test_json_string(void **state)
{
	(void)state;
	check_json_string("", 0, "\"\"");
	check_json_string("main", 4, "\"main\"");
	check_json_string("a\"b\\c/d", 7, "\"a\\\"b\\\\c/d\"");
	check_json_string("<>&'", 4, "\"<>&'\"");
	check_json_string("\x01\t\n\r\x1f", 5, "\"\\u0001\\u0009\\u000a\\u000d\\u001f\"");
	check_json_string("nul\0x", 5, "\"nul\\u0000x\"");
	check_json_string("\x7f", 1, "\"\x7f\"");
	/* Valid UTF-8 passes through. */
	check_json_string("caf\xc3\xa9 \xf0\x9f\x94\xa5", 10, "\"caf\xc3\xa9 \xf0\x9f\x94\xa5\"");
	/* Line and paragraph separators are escaped for JavaScript. */
	check_json_string("a\xe2\x80\xa8"
	                  "b\xe2\x80\xa9",
	        8, "\"a\\u2028b\\u2029\"");
	/* Each invalid byte becomes one U+FFFD. */
	check_json_string("\xff", 1, "\"\\ufffd\"");
	check_json_string("a\xc3(b", 4, "\"a\\ufffd(b\"");
	check_json_string("\xed\xa0\x80", 3, "\"\\ufffd\\ufffd\\ufffd\"");
	check_json_string("\xc0\x80", 2, "\"\\ufffd\\ufffd\"");
	check_json_string("x\xe2\x80", 3, "\"x\\ufffd\\ufffd\"");
}

static void
check_name(const char *in, size_t len, size_t cap, bool md, const char *want)
{
	struct buf b;
	buf_init(&b);
	buf_adds(&b, "<");
	if (md) {
		escape_md(&b, in, len, cap);
	} else {
		escape_terminal(&b, in, len, cap);
	}
	buf_adds(&b, ">");
	assert_string_equal(b.data, want);
	buf_finish(&b);
}

#define MD(lit, cap, want) check_name(lit, sizeof(lit) - 1, cap, true, want)
#define TERM(lit, cap, want) check_name(lit, sizeof(lit) - 1, cap, false, want)

static void
test_md_syntax(void **state)
{
	(void)state;
	MD("main", 120, "<main>");
	MD("<img src=x>", 120, "<&lt;img src=x&gt;>");
	MD("a&b", 120, "<a&amp;b>");
	MD("*x* _y_ [l](u) `c` |p| ~s~ $m$ \\", 120,
	        "<\\*x\\* \\_y\\_ \\[l\\](u) \\`c\\` \\|p\\| \\~s\\~ \\$m\\$ \\\\>");
	/* A terminal gets the characters as they are. */
	TERM("*x* <b> |p|", 120, "<*x* <b> |p|>");
}

#define FFFD "\xEF\xBF\xBD"
#define ELLIPSIS "\xE2\x80\xA6"

static void
test_name_replacements(void **state)
{
	(void)state;
	/* Controls, line separators, direction overrides and invalid bytes. */
	TERM("a\x1b[2Jb", 120, "<a" FFFD "[2Jb>");
	TERM("a\nb\r\t", 120, "<a" FFFD "b" FFFD FFFD ">");
	TERM("\xC2\x9B", 120, "<" FFFD ">");
	TERM("\xE2\x80\xA8", 120, "<" FFFD ">");
	TERM("\xff", 120, "<" FFFD ">");
	MD("\x1b", 120, "<" FFFD ">");
}

static void
test_name_cut(void **state)
{
	(void)state;
	TERM("abcdef", 6, "<abcdef>");
	TERM("abcdefg", 6, "<abcde" ELLIPSIS ">");
	TERM("\xC3\xA9\xC3\xA9\xC3\xA9", 2, "<\xC3\xA9" ELLIPSIS ">");
	/* Escapes do not count against the cap: code points do. */
	MD("****", 3, "<\\*\\*" ELLIPSIS ">");
}

/* Issue 21 item 12: what spoofs another name shows as a marker. */
static void
test_invisible_marked(void **state)
{
	(void)state;
	/* evil<RLO>fdp.exe reads as evilexe.pdf where the override works. */
	XML("evil\xE2\x80\xAE"
	    "fdp.exe",
	        "evil&lt;U+202E&gt;fdp.exe");
	XML("x\xE2\x80\x8B", "x&lt;U+200B&gt;");
	XML("soft\xC2\xADhyphen", "soft&lt;U+00AD&gt;hyphen");
	XML("\xE2\x81\xA6"
	    "a\xE2\x81\xA9",
	        "&lt;U+2066&gt;a&lt;U+2069&gt;");
	XML("\xD8\x9C\xE2\x80\x8E\xE2\x80\x8F", "&lt;U+061C&gt;&lt;U+200E&gt;&lt;U+200F&gt;");
	XML("\xF3\xA0\x80\x81", "&lt;U+E0001&gt;"); /* a tag character */
	/* Visible text around them is untouched. */
	XML("caf\xC3\xA9 \xE2\x86\x92", "caf\xC3\xA9 \xE2\x86\x92");
	TERM("evil\xE2\x80\xAE"
	     "fdp.exe",
	        120, "<evil<U+202E>fdp.exe>");
	TERM("x\xE2\x80\x8D\xEF\xBB\xBF", 120, "<x<U+200D><U+FEFF>>");
	MD("x\xE2\x80\x8B", 120, "<x&lt;U+200B&gt;>");
	/* JSON keeps the data but \u-escapes it, so a raw dump shows it too. */
	check_json_string("a\xE2\x80\xAE"
	                  "b",
	        5, "\"a\\u202eb\"");
	check_json_string("\xC2\xAD", 2, "\"\\u00ad\"");
	check_json_string("\xF3\xA0\x80\x81", 4, "\"\\udb40\\udc01\"");
	struct buf b;
	buf_init(&b);
	for (uint32_t cp = 0x20; cp < 0x110000; cp++) {
		bool want = cp == 0xAD || (cp >= 0x200B && cp <= 0x200F) ||
		            (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
		            cp == 0x061C || cp == 0x2060 || cp == 0xFEFF;
		if (want) {
			assert_true(escape_is_invisible(cp));
		}
		if (cp < 0xA0 || (cp >= 0x300 && cp < 0x34F) || (cp >= 0x4E00 && cp < 0x9FFF)) {
			assert_false(escape_is_invisible(cp));
		}
	}
	escape_add_marker(&b, 0x202E);
	assert_string_equal(b.data, "<U+202E>");
	buf_finish(&b);
}

/*
 * Issue 34 item 3: every Default_Ignorable_Code_Point (variation selectors
 * too) is a marker, so x, x+FE0F and x+E0101 are three visible names.
 */
static void
test_default_ignorable_marked(void **state)
{
	(void)state;
	XML("x\xEF\xB8\x8F", "x&lt;U+FE0F&gt;");
	XML("x\xF3\xA0\x84\x81", "x&lt;U+E0101&gt;");
	TERM("x\xEF\xB8\x80", 120, "<x<U+FE00>>");
	MD("x\xF3\xA0\x84\x81", 120, "<x&lt;U+E0101&gt;>");
	/* DerivedCoreProperties.txt's ranges, their ends and the points just outside. */
	static const uint32_t in[] = {0x180E, 0xFE00, 0xFE0F, 0xFFF0, 0xFFF8, 0x1BCA0, 0x1BCA3,
	        0x1D173, 0x1D17A, 0xE0100, 0xE01EF, 0xE0FFF};
	static const uint32_t out[] = {
	        0xFDFF, 0xFE10, 0xFFEF, 0xFFFC, 0x1BC9F, 0x1BCA4, 0x1D172, 0x1D17B, 0xE1000};
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		assert_true(escape_is_invisible(in[i]));
	}
	for (size_t i = 0; i < sizeof(out) / sizeof(out[0]); i++) {
		assert_false(escape_is_invisible(out[i]));
	}
}

static void
check_diag(const char *in, size_t len, const char *want)
{
	struct buf b;
	buf_init(&b);
	buf_add(&b, "", 0);
	escape_diag(&b, in, len);
	assert_string_equal(b.data, want);
	buf_finish(&b);
}

#define DIAG(lit, want) check_diag(lit, sizeof(lit) - 1, want)

static void
check_inert(const char *in, size_t cap, const char *want)
{
	struct buf b;
	buf_init(&b);
	buf_add(&b, "", 0);
	escape_md_inert(&b, in, strlen(in), cap);
	assert_string_equal(b.data, want);
	buf_finish(&b);
}

/* Issue 34 item 10: labels and units are plain words or a code span. */
static void
test_md_inert(void **state)
{
	(void)state;
	check_inert("samples", 120, "samples");
	check_inert("heap bytes", 120, "heap bytes");
	check_inert("base.folded", 120, "`base.folded`");
	check_inert("@org/team", 120, "`@org/team`");
	check_inert(":tada:", 120, "`:tada:`");
	check_inert("a|b", 120, "`a|b`"); /* prose, not a table cell */
	check_inert("x `y` z", 120, "``x `y` z``");
	check_inert("", 120, "");
	/* Seven hex letters in a row may be linked as a commit. */
	check_inert("deadbee", 120, "`deadbee`");
	check_inert("deadbe", 120, "deadbe");
	/* Cut words are no longer plain: the ellipsis goes in the span. */
	check_inert("abcdefghij", 4, "`abc\u2026`");
}

/* Issue 21 item 14: file names in diagnostics carry no terminal control. */
static void
test_diag(void **state)
{
	(void)state;
	DIAG("base.folded", "base.folded");
	DIAG("dir/caf\xC3\xA9.folded", "dir/caf\xC3\xA9.folded");
	DIAG("\x1b[2J", "\\x1b[2J");
	DIAG("a\nfake: line.folded:2: x", "a\\nfake: line.folded:2: x");
	DIAG("t\tr\r\x7f", "t\\tr\\r\\x7f");
	DIAG("back\\slash", "back\\\\slash");
	DIAG("nul\0x", "nul\\x00x");
	DIAG("\xff\xC3", "\\xff\\xc3");
	DIAG("\xC2\x9B"
	     "1m",
	        "<U+009B>1m"); /* C1 CSI */
	DIAG("evil\xE2\x80\xAE"
	     "fdp",
	        "evil<U+202E>fdp");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_xml_markup),
	        cmocka_unit_test(test_xml_controls),
	        cmocka_unit_test(test_xml_every_byte_everywhere),
	        cmocka_unit_test(test_xml_unicode),
	        cmocka_unit_test(test_json_string),
	        cmocka_unit_test(test_md_syntax),
	        cmocka_unit_test(test_name_replacements),
	        cmocka_unit_test(test_name_cut),
	        cmocka_unit_test(test_invisible_marked),
	        cmocka_unit_test(test_default_ignorable_marked),
	        cmocka_unit_test(test_diag),
	        cmocka_unit_test(test_md_inert),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
