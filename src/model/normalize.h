/*
 * normalize: the volatile-name rules. A name that changes from build to
 * build while the code stays the same (a Rust legacy hash, a closure's
 * number, a GCC clone suffix, an address) is reduced to a key with those
 * parts taken out; two names with the same key are candidates for one
 * function across builds. Whether they are merged is match.c's decision:
 * this module only says what the key is.
 *
 * The rules are a table (data), applied in its order, each to the output of
 * the one before, one rule per toolchain habit; docs/matching.md lists them
 * with an example each. A key is worked out once per distinct name, never
 * per frame. Names are bytes (NUL included); perf's annotation suffix
 * ("_[k]") is set aside while the rules run and put back after.
 */
#ifndef DIFFFOLD_NORMALIZE_H
#define DIFFFOLD_NORMALIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

struct normalize_rule {
	const char *id; /* short stable name, as the reports print it: "rust-hash" */
	const char *toolchain; /* whose names it is for: "Rust (legacy mangling)" */
	const char *what; /* the part of the name it takes out, in words */
	/*
	 * Appends the rewritten s[0..len) to out and returns true when the rule
	 * changed something; when it returns false, what it appended is to be
	 * dropped.
	 */
	bool (*apply)(const char *s, size_t len, struct buf *out);
};

extern const struct normalize_rule normalize_rules[];
extern const size_t normalize_rule_count;

/*
 * The key of name[0..len) into *key (reset first): every rule in table
 * order. Returns a bit mask of the rules (1u << index) that changed the
 * name; 0 when no rule did, and *key then holds the name as it is. scratch
 * is working room the caller keeps between calls (no allocation a name).
 */
uint32_t normalize_name(const char *name, size_t len, struct buf *key, struct buf *scratch);

/*
 * The rules that could change s[0..len) (bit r for normalize_rules[r]): a
 * rule not in it leaves the name as it is. A cheap test of a few bytes a
 * position; the rules themselves decide the rest.
 */
uint32_t normalize_rules_possible(const char *s, size_t len);

/* The index of the rule with this id, or -1. */
int normalize_rule_find(const char *id);

#endif
