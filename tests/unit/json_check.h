/*
 * A strict JSON syntax checker for the tests (RFC 8259: one value, no
 * trailing commas, strings with valid escapes and valid UTF-8, no raw
 * control characters). Iterative, with an explicit stack, so it can check
 * the output of 100,000-deep trees.
 */
#ifndef DIFFFOLD_TEST_JSON_CHECK_H
#define DIFFFOLD_TEST_JSON_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

static inline size_t
json_ws(const char *s, size_t len, size_t i)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) {
		i++;
	}
	return i;
}

static inline bool
json_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* A string starting at s[i] == '"'; returns the index past it, 0 if bad. */
static inline size_t
json_string(const char *s, size_t len, size_t i)
{
	i++;
	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"') {
			return i + 1;
		}
		if (c < 0x20) {
			return 0;
		}
		if (c == '\\') {
			if (i + 1 >= len) {
				return 0;
			}
			char e = s[i + 1];
			if (e == 'u') {
				if (i + 6 > len) {
					return 0;
				}
				for (size_t k = 2; k < 6; k++) {
					if (!json_hex(s[i + k])) {
						return 0;
					}
				}
				i += 6;
			} else if (strchr("\"\\/bfnrt", e) && e) {
				i += 2;
			} else {
				return 0;
			}
			continue;
		}
		uint32_t cp;
		size_t n = utf8_decode(s + i, len - i, &cp);
		if (n == 0) {
			return 0;
		}
		i += n;
	}
	return 0;
}

static inline size_t
json_number_end(const char *s, size_t len, size_t i)
{
	size_t start = i;
	if (i < len && s[i] == '-') {
		i++;
	}
	if (i < len && s[i] == '0') {
		i++;
	} else if (i < len && s[i] >= '1' && s[i] <= '9') {
		while (i < len && s[i] >= '0' && s[i] <= '9') {
			i++;
		}
	} else {
		return 0;
	}
	if (i < len && s[i] == '.') {
		size_t d = ++i;
		while (i < len && s[i] >= '0' && s[i] <= '9') {
			i++;
		}
		if (i == d) {
			return 0;
		}
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-')) {
			i++;
		}
		size_t d = i;
		while (i < len && s[i] >= '0' && s[i] <= '9') {
			i++;
		}
		if (i == d) {
			return 0;
		}
	}
	return i > start ? i : 0;
}

/* True when s[0, len) is exactly one valid JSON value (plus whitespace). */
static inline bool
json_valid(const char *s, size_t len)
{
	char *stack = malloc(len + 1); /* '{' or '[' per open container */
	size_t depth = 0, i = json_ws(s, len, 0);
	bool ok = false;
	for (;;) {
		/* Expect a value at i. */
		if (i >= len) {
			goto out;
		}
		if (s[i] == '{' || s[i] == '[') {
			stack[depth++] = s[i++];
			i = json_ws(s, len, i);
			if (i < len && (s[i] == '}' || s[i] == ']')) {
				if ((s[i] == '}') != (stack[depth - 1] == '{')) {
					goto out;
				}
				depth--;
				i++;
			} else {
				if (stack[depth - 1] == '{') {
					if (i >= len || s[i] != '"' ||
					        !(i = json_string(s, len, i))) {
						goto out;
					}
					i = json_ws(s, len, i);
					if (i >= len || s[i] != ':') {
						goto out;
					}
					i = json_ws(s, len, i + 1);
				}
				continue;
			}
		} else if (s[i] == '"') {
			if (!(i = json_string(s, len, i))) {
				goto out;
			}
		} else if (len - i >= 4 && memcmp(s + i, "true", 4) == 0) {
			i += 4;
		} else if (len - i >= 5 && memcmp(s + i, "false", 5) == 0) {
			i += 5;
		} else if (len - i >= 4 && memcmp(s + i, "null", 4) == 0) {
			i += 4;
		} else if (!(i = json_number_end(s, len, i))) {
			goto out;
		}
		/* After a value: close containers, or a comma and the next value. */
		for (;;) {
			i = json_ws(s, len, i);
			if (depth == 0) {
				ok = i == len;
				goto out;
			}
			if (i >= len) {
				goto out;
			}
			char close = stack[depth - 1] == '{' ? '}' : ']';
			if (s[i] == close) {
				depth--;
				i++;
				continue;
			}
			if (s[i] != ',') {
				goto out;
			}
			i = json_ws(s, len, i + 1);
			if (stack[depth - 1] == '{') {
				if (i >= len || s[i] != '"' || !(i = json_string(s, len, i))) {
					goto out;
				}
				i = json_ws(s, len, i);
				if (i >= len || s[i] != ':') {
					goto out;
				}
				i = json_ws(s, len, i + 1);
			}
			break;
		}
	}
out:
	free(stack);
	return ok;
}

#endif
