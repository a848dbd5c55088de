/*
 * call_context: which part of a callgrind function name is its caller
 * context. Callgrind's call contexts (--separate-callers) name a function
 * `fn'caller'caller2`, and a recursion level (--separate-recs) `fn'2`:
 * valgrind joins the names with ' and escapes nothing. A ' is also part of
 * names of their own (Rust's `for<'a> fn(&'a u8)`, OCaml's `x'`), so a '
 * starts a context only when every part after it is a level (digits) or
 * the name of a function of the file (a whole name, or one up to a '):
 * the names of a file without contexts are kept whole, not merged.
 */
#include "call_context.h"

#include <string.h>

#include "hash.h"

void
call_context_init(struct call_context *k)
{
	memset(k, 0, sizeof(*k));
	k->seed = hash_seed();
}

void
call_context_add(struct call_context *k, const char *s, size_t len)
{
	idmap_set(&k->set, hash_bytes(s, len, k->seed), 0);
	for (const char *q = s; (q = memchr(q, '\'', len - (size_t)(q - s))); q++) {
		idmap_set(&k->set, hash_bytes(s, (size_t)(q - s), k->seed), 0);
	}
}

void
call_context_finish(struct call_context *k)
{
	idmap_finish(&k->set);
}

/* Whether a part after a ' is a recursion level or a function's name. */
static bool
known_part(const struct call_context *k, const char *s, size_t len)
{
	size_t digits = 0;
	while (digits < len && s[digits] >= '0' && s[digits] <= '9') {
		digits++;
	}
	uint32_t v;
	return len > 0 && (digits == len || idmap_get(&k->set, hash_bytes(s, len, k->seed), &v));
}

/* Found from the end, so that a name of many ' costs one pass. */
size_t
call_context_base(const struct call_context *k, const char *s, size_t len)
{
	size_t base = len, end = len;
	for (size_t i = len; i-- > 0;) {
		if (s[i] != '\'') {
			continue;
		}
		if (!known_part(k, s + i + 1, end - i - 1)) {
			break;
		}
		base = end = i;
	}
	return base;
}

bool
call_context_names_caller(const char *s, size_t len)
{
	for (const char *q = s; (q = memchr(q, '\'', len - (size_t)(q - s))); q++) {
		if (q + 1 < s + len && (q[1] < '0' || q[1] > '9')) {
			return true;
		}
	}
	return false;
}
