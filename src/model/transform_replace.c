/*
 * transform_replace: --replace's argument, REGEX=REPLACEMENT, split where
 * REGEX ends and the replacement turned into PCRE2's syntax (the sed-style
 * parts transform.c's users write); the rest of the steps is transform.c's.
 */
#include "transform_replace.h"

#include <stdio.h>
#include <string.h>

#include "utf8.h"

/*
 * Where `(?`, `(?<` or `(?P` make the '=' at i part of the syntax
 * (lookahead, lookbehind, a named back reference) rather than the split.
 */
static bool
is_group_equals(const char *s, size_t i)
{
	return (i >= 2 && s[i - 2] == '(' && s[i - 1] == '?') ||
	       (i >= 3 && s[i - 3] == '(' && s[i - 2] == '?' &&
	               (s[i - 1] == '<' || s[i - 1] == 'P'));
}

/*
 * The '=' that ends REGEX in REGEX=REPLACEMENT: the first one outside an
 * escape (`\=` is a literal '=' in PCRE2, and `\Q...\E` quotes), a
 * character class and the group syntax `(?=`, `(?<=`, `(?P=`. NULL if none.
 */
const char *
transform_split_replace(const char *s)
{
	bool in_class = false;
	for (size_t i = 0; s[i]; i++) {
		if (s[i] == '\\' && s[i + 1] == 'Q') {
			const char *e = strstr(s + i + 2, "\\E");
			if (!e) {
				return NULL;
			}
			i = (size_t)(e - s) + 1;
		} else if (s[i] == '\\') {
			if (!s[++i]) {
				return NULL;
			}
		} else if (in_class) {
			in_class = s[i] != ']';
		} else if (s[i] == '[') {
			in_class = true;
			/* A ']' first in the class (after any '^') is a member. */
			i += s[i + 1] == '^';
			i += s[i + 1] == ']';
		} else if (s[i] == '=' && !is_group_equals(s, i)) {
			return s + i;
		}
	}
	return NULL;
}

/*
 * The replacement in PCRE2's syntax: `\1`..`\9` become `${1}`..`${9}` and
 * `\\` a backslash, as sed users write them; `$N`, `${N}`, `${NAME}` and
 * `$$` are PCRE2's own. Every group referred to must exist. False, with
 * err set, otherwise.
 */
bool
transform_convert_replacement(
        const char *r, const pcre2_code *code, struct buf *out, char *err, size_t errlen)
{
	uint32_t groups = 0;
	pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, &groups);
	for (size_t i = 0, n = strlen(r), step; i < n; i += step) {
		uint32_t cp;
		step = utf8_decode(r + i, n - i, &cp);
		if (!step) {
			/* PCRE2 would refuse it at the first match, in the middle of a read. */
			snprintf(err, errlen, "REPLACEMENT is not valid UTF-8 (byte %lu)",
			        (unsigned long)i);
			return false;
		}
	}
	if (strchr(r, '\n')) {
		/* No input name holds one (every reader is line-based), and the
		 * folded output could not write it. */
		snprintf(err, errlen, "REPLACEMENT may not hold a newline");
		return false;
	}
	for (size_t i = 0; r[i]; i++) {
		unsigned long n = 0;
		if (r[i] == '\\' && r[i + 1] >= '0' && r[i + 1] <= '9') {
			n = (unsigned long)(r[++i] - '0');
			buf_printf(out, "${%lu}", n);
		} else if (r[i] == '\\' && r[i + 1] == '\\') {
			buf_addc(out, r[++i]);
			continue;
		} else if (r[i] == '$' && r[i + 1] == '$') {
			buf_adds(out, "$$");
			i++;
			continue;
		} else if (r[i] == '$') {
			size_t start = i + 1 + (r[i + 1] == '{');
			size_t end = start;
			while ((r[end] >= '0' && r[end] <= '9') ||
			        (r[end] >= 'a' && r[end] <= 'z') ||
			        (r[end] >= 'A' && r[end] <= 'Z') || r[end] == '_') {
				end++;
			}
			bool braced = start > i + 1;
			if (end == start || (braced && r[end] != '}')) {
				snprintf(err, errlen,
				        "a '$' in REPLACEMENT must start $N, ${N} or "
				        "${NAME} (a literal '$' is written $$)");
				return false;
			}
			char name[64];
			size_t nlen =
			        end - start < sizeof(name) - 1 ? end - start : sizeof(name) - 1;
			memcpy(name, r + start, nlen);
			name[nlen] = '\0';
			if (name[0] >= '0' && name[0] <= '9') {
				char *stop;
				n = strtoul(name, &stop, 10);
				if (*stop) {
					snprintf(err, errlen, "'$%s' in REPLACEMENT is not a group",
					        name);
					return false;
				}
			} else if (pcre2_substring_number_from_name(code, (PCRE2_SPTR)name) < 0) {
				snprintf(err, errlen,
				        "REPLACEMENT refers to a group named '%s' that "
				        "REGEX does not have",
				        name);
				return false;
			}
			end += braced;
			buf_add(out, r + i, end - i);
			i = end - 1;
		} else {
			buf_addc(out, r[i]);
			continue;
		}
		if (n > groups) {
			snprintf(err, errlen, "REPLACEMENT refers to group %lu but REGEX has %u", n,
			        (unsigned)groups);
			return false;
		}
	}
	return true;
}
