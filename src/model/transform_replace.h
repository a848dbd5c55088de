/*
 * transform_replace: --replace's REGEX=REPLACEMENT, split and converted for
 * PCRE2; used by transform.c alone.
 */
#ifndef DIFFFOLD_TRANSFORM_REPLACE_H
#define DIFFFOLD_TRANSFORM_REPLACE_H

#include <stdbool.h>
#include <stddef.h>

#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include <pcre2.h>

#include "buf.h"

/*
 * The '=' that ends REGEX in REGEX=REPLACEMENT: the first one outside an
 * escape (`\=` is a literal '=' in PCRE2, and `\Q...\E` quotes), a
 * character class and the group syntax `(?=`, `(?<=`, `(?P=`. NULL if none.
 */
const char *transform_split_replace(const char *s);
/*
 * The replacement r in PCRE2's syntax, appended to out: `\1`..`\9` become
 * `${1}`..`${9}` and `\\` a backslash; every group referred to must exist
 * in code. False, with err set, otherwise.
 */
bool transform_convert_replacement(
        const char *r, const pcre2_code *code, struct buf *out, char *err, size_t errlen);

#endif
