#include "shortname.h"

#include <string.h>

#include "utf8.h"

#define ELLIPSIS "\xE2\x80\xA6" /* U+2026, the one cut marker of every output */

static bool
is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '>' || c == ']' || c == ')';
}

/* True when name[0..at) ends with "operator" (and maybe spaces). */
static bool
after_operator(const char *name, size_t at)
{
	static const char op[] = "operator";
	size_t n = sizeof(op) - 1;
	while (at > 0 && name[at - 1] == ' ') {
		at--;
	}
	return at >= n && memcmp(name + at - n, op, n) == 0;
}

/*
 * Where the bracket opened at name[at] closes (its index), counting both
 * kinds so "f<(a>b)>" pairs up, or len when it does not close.
 */
static size_t
closing(const char *name, size_t len, size_t at)
{
	char stack[64];
	size_t depth = 0;
	for (size_t i = at; i < len; i++) {
		char c = name[i];
		if (c == '<' || c == '(') {
			if (depth == sizeof(stack)) {
				return len; /* too deep to be a name worth folding */
			}
			stack[depth++] = c == '<' ? '>' : ')';
		} else if (c == '>' && i > at && name[i - 1] == '-') {
			continue; /* "->" inside a template argument closes nothing */
		} else if (c == '>' || c == ')') {
			if (depth == 0 || stack[depth - 1] != c) {
				return len;
			}
			if (--depth == 0) {
				return i;
			}
		}
	}
	return len;
}

bool
shortname_append(const char *name, size_t len, struct buf *out)
{
	bool changed = false;
	size_t i = 0, from = 0;
	while (i < len) {
		char c = name[i];
		bool opens = (c == '<' || c == '(') && i > 0 && is_word(name[i - 1]) &&
		             !after_operator(name, i);
		size_t end = opens ? closing(name, len, i) : len;
		/* "(…)" only when it saves: two characters inside or more. */
		if (!opens || end == len || utf8_length(name + i + 1, end - i - 1) < 2) {
			i++;
			continue;
		}
		buf_add(out, name + from, i + 1 - from);
		buf_adds(out, ELLIPSIS);
		buf_addc(out, name[end]);
		changed = true;
		i = from = end + 1;
	}
	buf_add(out, name + from, len - from);
	return changed;
}
