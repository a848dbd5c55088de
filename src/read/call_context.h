/*
 * call_context: which part of a callgrind function name is its caller
 * context (`fn'caller'caller2`, `fn'2`), by the rule in call_context.c:
 * a ' starts a context only where every part after it is a recursion level
 * or the name of a function of the same file.
 */
#ifndef DIFFFOLD_CALL_CONTEXT_H
#define DIFFFOLD_CALL_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idmap.h"

/* The names of one file, added one by one before any question. */
struct call_context {
	struct idmap set; /* hash_bytes of each name and prefix before a ' */
	uint64_t seed;
};

void call_context_init(struct call_context *k);
void call_context_add(struct call_context *k, const char *s, size_t len);
void call_context_finish(struct call_context *k);
/* The length of name s without its context (len: none). */
size_t call_context_base(const struct call_context *k, const char *s, size_t len);
/* Whether a context (the part after the base) names a caller, not only a level. */
bool call_context_names_caller(const char *s, size_t len);

#endif
