/*
 * utf8: decoding of untrusted bytes. Frame names may hold anything; the
 * escapers of every output format walk them with utf8_decode and replace
 * what is not valid UTF-8.
 */
#ifndef DIFFFOLD_UTF8_H
#define DIFFFOLD_UTF8_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/*
 * Decodes one code point at s (len > 0). Returns the bytes it takes, or 0
 * when they are not valid UTF-8 (overlong, surrogate, past U+10FFFF, cut).
 */
size_t utf8_decode(const char *s, size_t len, uint32_t *cp);
void utf8_encode(struct buf *b, uint32_t cp);
/* Number of code points, counting each invalid byte as one. */
size_t utf8_length(const char *s, size_t len);
/* Byte length of the first `chars` code points of s (an invalid byte counts one). */
size_t utf8_prefix_bytes(const char *s, size_t len, size_t chars);

#endif
