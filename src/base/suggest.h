/*
 * suggest: the known word closest to a mistyped one, for "did you mean"
 * in usage errors. Distance is the optimal string alignment distance
 * (insertions, deletions, substitutions and swaps of two neighbours, one
 * each), so "minwdith" is one step from "minwidth".
 */
#ifndef DIFFFOLD_SUGGEST_H
#define DIFFFOLD_SUGGEST_H

#include <stddef.h>

/* The distance between a and b; words longer than SUGGEST_MAX_LEN are
 * never close, and get SUGGEST_FAR. */
#define SUGGEST_MAX_LEN 64
#define SUGGEST_FAR ((size_t)-1)
size_t suggest_distance(const char *a, size_t alen, const char *b);

/*
 * The first of `count` names (NULL entries skipped) nearest to word, if
 * near enough to be a typing slip: at most one step for words of up to
 * four characters, two for longer ones. NULL when none is; the result
 * points into names.
 */
const char *suggest_closest(const char *word, size_t len, const char *const *names, size_t count);

#endif
