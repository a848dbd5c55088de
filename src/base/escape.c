#include "escape.h"

#include <inttypes.h>
#include <string.h>

#include "simd.h"
#include "utf8.h"

static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */

/* ---- invisible code points ---------------------------------------------- */

/*
 * Unicode's Default_Ignorable_Code_Point set (DerivedCoreProperties.txt,
 * Unicode 15.1), the code points a renderer shows as nothing: bidi
 * controls, zero-width characters, fillers, variation selectors (x, x+FE0F
 * and x+E0101 would be three names that look alike), tags. Plus U+FFF9 to
 * U+FFFB, the interlinear annotation controls, which hide text without
 * being in the set. Sorted, for a binary search.
 */
static const struct {
	uint32_t first, last;
} invisible_ranges[] = {
        {0x00AD, 0x00AD},
        {0x034F, 0x034F},
        {0x061C, 0x061C},
        {0x115F, 0x1160},
        {0x17B4, 0x17B5},
        {0x180B, 0x180F},
        {0x200B, 0x200F},
        {0x202A, 0x202E},
        {0x2060, 0x206F},
        {0x3164, 0x3164},
        {0xFE00, 0xFE0F},
        {0xFEFF, 0xFEFF},
        {0xFFA0, 0xFFA0},
        {0xFFF0, 0xFFFB},
        {0x1BCA0, 0x1BCA3},
        {0x1D173, 0x1D17A},
        {0xE0000, 0xE0FFF},
};

bool
escape_is_invisible(uint32_t cp)
{
	if (cp < 0xAD || (cp > 0x3164 && cp < 0xFE00)) {
		return false; /* the common case, and the gap without any */
	}
	size_t lo = 0, hi = sizeof(invisible_ranges) / sizeof(invisible_ranges[0]);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cp < invisible_ranges[mid].first) {
			hi = mid;
		} else if (cp > invisible_ranges[mid].last) {
			lo = mid + 1;
		} else {
			return true;
		}
	}
	return false;
}

void
escape_add_marker(struct buf *b, uint32_t cp)
{
	buf_printf(b, "<U+%04" PRIX32 ">", cp);
}

/* ---- frame names ------------------------------------------------------- */

bool
escape_frame_bytes(char *s, size_t len, bool semicolon)
{
	bool changed = false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\n' || s[i] == '\r') {
			s[i] = ' ';
			changed = true;
		} else if (semicolon && s[i] == ';') {
			s[i] = ':';
			changed = true;
		}
	}
	return changed;
}

bool
escape_frame_add(struct buf *b, const char *s, size_t len)
{
	if (len == 0) {
		buf_adds(b, "[unknown]");
		return true;
	}
	size_t at = b->len;
	buf_add(b, s, len);
	return escape_frame_bytes(b->data + at, len, true);
}

/* ---- XML ---------------------------------------------------------------- */

/*
 * Appends the character reference or replacement for an ASCII byte that
 * is not plain: each padded to 8 bytes, copied whole (one move), the
 * length cut after.
 */
static void
add_ascii_escape(struct buf *b, unsigned char c)
{
	static const char refs[][8] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;", "&#9;", "&#10;",
	        "&#13;", "\xEF\xBF\xBD"};
	static const unsigned char lens[] = {5, 4, 4, 6, 5, 4, 5, 5, 3};
	size_t k;
	switch (c) {
	case '&':
		k = 0;
		break;
	case '<':
		k = 1;
		break;
	case '>':
		k = 2;
		break;
	case '"':
		k = 3;
		break;
	case '\'':
		k = 4;
		break;
	/* Kept as references: raw, an attribute value would turn them into spaces. */
	case '\t':
		k = 5;
		break;
	case '\n':
		k = 6;
		break;
	case '\r':
		k = 7;
		break;
	default:
		/* XML 1.0 has no way to write the other C0 controls or DEL, not
		 * even as references (DEL is legal but invisible): U+FFFD. */
		k = 8;
		break;
	}
	if (b->len + 8 >= b->cap) {
		buf_reserve(b, 8);
	}
	memcpy(b->data + b->len, refs[k], 8);
	buf_setlen(b, b->len + lens[k]);
}

/* Appends one non-ASCII code point of s, or its replacement; returns its length. */
static size_t
xml_multibyte(struct buf *b, const char *s, size_t len)
{
	uint32_t cp;
	size_t n = utf8_decode(s, len, &cp);
	if (n == 0) {
		/* One replacement per invalid byte, as utf8_length counts them. */
		buf_adds(b, replacement);
		return 1;
	}
	if (escape_is_invisible(cp)) {
		/* Direction overrides and invisible characters spoof other names:
		 * the marker, escaped, is what the title, label and script show. */
		buf_printf(b, "&lt;U+%04" PRIX32 "&gt;", cp);
	} else if (cp == 0x2028 || cp == 0x2029) {
		/* Line separators break JavaScript tooling: references keep them
		 * in the DOM but make them visible in the file. */
		buf_printf(b, "&#x%x;", (unsigned)cp);
	} else if ((cp >= 0x80 && cp <= 0x9F) || cp == 0xFFFE || cp == 0xFFFF) {
		buf_adds(b, replacement); /* C1 controls and XML non-characters */
	} else {
		buf_add(b, s, n);
	}
	return n;
}

/*
 * Appends the run of plain bytes from s[i] and returns where it ends (len
 * if it does not). Every frame's name goes through here, so x86-64 looks
 * at 16 bytes a step and stores them as they are while it looks (the
 * bytes past the run are cut off after); the tail of a string of 16 bytes
 * or more is its last 16 bytes loaded again, overlapping, rather than a
 * byte loop.
 */
static size_t
add_plain_run(struct buf *b, const char *s, size_t i, size_t len)
{
	size_t end = i;
	for (; SIMD_WIDE && len - end >= 16; end += 16) {
		if (b->len + 16 >= b->cap) {
			buf_reserve(b, 16);
		}
		unsigned mask = simd_xml_special16(s + end);
		memcpy(b->data + b->len, s + end, 16);
		if (mask) {
			size_t k = (size_t)__builtin_ctz(mask);
			buf_setlen(b, b->len + k);
			return end + k;
		}
		b->len += 16;
	}
	if (SIMD_WIDE && end < len && len >= 16) {
		/* The last 16 bytes, shifted through a scratch copy to start at end. */
		size_t at = len - 16, seen = end - at;
		unsigned mask = simd_xml_special16(s + at) >> seen;
		size_t k = mask ? (size_t)__builtin_ctz(mask) : len - end;
		char tmp[32] = {0};
		memcpy(tmp, s + at, 16);
		if (b->len + 16 >= b->cap) {
			buf_reserve(b, 16);
		}
		memcpy(b->data + b->len, tmp + seen, 16);
		buf_setlen(b, b->len + k);
		return end + k;
	}
	size_t from = end;
	while (end < len && simd_xml_plain_byte((unsigned char)s[end])) {
		end++;
	}
	buf_add(b, s + from, end - from);
	return end;
}

void
escape_xml(struct buf *b, const char *s, size_t len)
{
	size_t i = 0;
	while (i < len) {
		/* Copy the longest run of plain ASCII at once: names are mostly that. */
		i = add_plain_run(b, s, i, len);
		if (i == len) {
			break;
		}
		unsigned char c = (unsigned char)s[i];
		if (c < 0x80) {
			add_ascii_escape(b, c);
			i++;
		} else {
			i += xml_multibyte(b, s + i, len - i);
		}
	}
}

/* ---- JSON --------------------------------------------------------------- */

static void
add_json_u(struct buf *b, uint32_t cp)
{
	if (cp >= 0x10000) {
		cp -= 0x10000;
		buf_printf(b, "\\u%04" PRIx32 "\\u%04" PRIx32, 0xD800 + (cp >> 10),
		        0xDC00 + (cp & 0x3FF));
	} else {
		buf_printf(b, "\\u%04" PRIx32, cp);
	}
}

void
escape_json_string(struct buf *b, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	buf_addc(b, '"');
	for (size_t i = 0; i < len;) {
		unsigned char c = (unsigned char)s[i];
		uint32_t cp;
		if (c == '"' || c == '\\') {
			buf_addc(b, '\\');
			buf_addc(b, (char)c);
			i++;
		} else if (c < 0x20) {
			char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
			buf_add(b, esc, 6);
			i++;
		} else if (c < 0x80) {
			buf_addc(b, (char)c);
			i++;
		} else {
			size_t n = utf8_decode(s + i, len - i, &cp);
			if (n == 0) {
				buf_adds(b, "\\ufffd");
				i++;
			} else if (cp == 0x2028 || cp == 0x2029 || escape_is_invisible(cp)) {
				/* Exact data, but visible in a raw dump (UTF-16 for planes above
				 * 0). */
				add_json_u(b, cp);
				i += n;
			} else {
				buf_add(b, s + i, n);
				i += n;
			}
		}
	}
	buf_addc(b, '"');
}

/* ---- Markdown and terminal ---------------------------------------------- */

/* Code points a terminal or a comment must not get from a frame name. */
static bool
unsafe_code_point(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || cp == 0x2028 || cp == 0x2029;
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

/* The syntax a name is escaped for: escape_terminal's or escape_md's. */
enum name_syntax {
	SYNTAX_TERMINAL,
	SYNTAX_MARKDOWN,
};

static void
add_marker_chars(struct buf *b, uint32_t cp, enum name_syntax syntax)
{
	if (syntax == SYNTAX_TERMINAL) {
		escape_add_marker(b, cp);
		return;
	}
	buf_adds(b, "&lt;");
	buf_printf(b, "U+%04" PRIX32, cp);
	buf_adds(b, "&gt;");
}

/* The cut and replacements of escape_md and escape_terminal, in either syntax. */
static void
add_name(struct buf *b, const char *s, size_t len, size_t cap, enum name_syntax syntax)
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
		if (k != 0 && escape_is_invisible(cp)) {
			add_marker_chars(b, cp, syntax);
		} else if (syntax == SYNTAX_MARKDOWN) {
			add_md_char(b, cp);
		} else {
			utf8_encode(b, cp);
		}
	}
}

void
escape_md(struct buf *b, const char *s, size_t len, size_t cap)
{
	add_name(b, s, len, cap, SYNTAX_MARKDOWN);
}

void
escape_terminal(struct buf *b, const char *s, size_t len, size_t cap)
{
	add_name(b, s, len, cap, SYNTAX_TERMINAL);
}

/*
 * The longest run of backticks in s: a code span's fence must be longer
 * than any run inside it.
 */
static size_t
longest_backticks(const char *s, size_t len)
{
	size_t best = 0, run = 0;
	for (size_t i = 0; i < len; i++) {
		run = s[i] == '`' ? run + 1 : 0;
		best = run > best ? run : best;
	}
	return best;
}

/* A code span of s; in_table: '|' written "\\|" for a GFM table cell. */
static void
add_code_span(struct buf *b, const char *s, size_t len, bool in_table)
{
	size_t fence = longest_backticks(s, len) + 1;
	/* One space each side is stripped again when both are there, so a
	 * name that starts or ends with a backtick or space keeps its own. */
	bool pad = len == 0 || s[0] == '`' || s[len - 1] == '`' || s[0] == ' ' || s[len - 1] == ' ';
	for (size_t i = 0; i < fence; i++) {
		buf_addc(b, '`');
	}
	if (pad) {
		buf_addc(b, ' ');
	}
	for (size_t i = 0; i < len; i++) {
		/* GFM splits table cells before it sees code spans. */
		if (in_table && s[i] == '|') {
			buf_addc(b, '\\');
		}
		buf_addc(b, s[i]);
	}
	if (pad) {
		buf_addc(b, ' ');
	}
	for (size_t i = 0; i < fence; i++) {
		buf_addc(b, '`');
	}
}

void
escape_md_code(struct buf *b, const char *s, size_t len)
{
	add_code_span(b, s, len, true);
}

/*
 * Words GitHub leaves alone: ASCII letters and spaces (or nothing), with
 * no run of 7 or more hex letters, which it may link as a commit.
 */
static bool
plain_words(const char *s, size_t len)
{
	size_t hex = 0;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		bool lower = c >= 'a' && c <= 'z', upper = c >= 'A' && c <= 'Z';
		if (!lower && !upper && c != ' ') {
			return false;
		}
		bool h = (lower && c <= 'f') || (upper && c <= 'F');
		hex = h ? hex + 1 : 0;
		if (hex >= 7) {
			return false;
		}
	}
	return true;
}

void
escape_md_inert(struct buf *b, const char *s, size_t len, size_t cap)
{
	if (plain_words(s, len) && len <= cap) {
		buf_add(b, s, len);
		return;
	}
	struct buf shown;
	buf_init(&shown);
	buf_add(&shown, "", 0);
	escape_terminal(&shown, s, len, cap);
	add_code_span(b, shown.data, shown.len, false);
	buf_finish(&shown);
}

void
escape_diag(struct buf *b, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	for (size_t i = 0; i < len;) {
		unsigned char c = (unsigned char)s[i];
		uint32_t cp = 0;
		size_t k = c < 0x80 ? 1 : utf8_decode(s + i, len - i, &cp);
		if (c == '\\') {
			buf_adds(b, "\\\\");
		} else if (c == '\n') {
			buf_adds(b, "\\n");
		} else if (c == '\t') {
			buf_adds(b, "\\t");
		} else if (c == '\r') {
			buf_adds(b, "\\r");
		} else if (c < 0x20 || c == 0x7F || k == 0) {
			/* Terminal escapes and bytes that are not UTF-8, as C writes them. */
			char esc[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
			buf_add(b, esc, 4);
			k = 1;
		} else if (c < 0x80) {
			buf_addc(b, (char)c);
		} else if ((cp >= 0x80 && cp < 0xA0) || cp == 0x2028 || cp == 0x2029 ||
		           escape_is_invisible(cp)) {
			escape_add_marker(b, cp);
		} else {
			buf_add(b, s + i, k);
		}
		i += k;
	}
}
