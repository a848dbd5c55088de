/*
 * escape: every rule for writing an untrusted string (frame names, labels,
 * titles) into an output format. Frame names may hold any bytes; each
 * escaper walks them with utf8_decode and writes invalid UTF-8 as U+FFFD,
 * one per bad byte, as utf8_length counts them. The escapers only append
 * to the caller's buffer; they allocate nothing the caller must free.
 */
#ifndef DIFFFOLD_ESCAPE_H
#define DIFFFOLD_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/*
 * XML text and attribute values (quotes included). C0 controls but tab,
 * newline and CR, C1 controls and XML non-characters become U+FFFD;
 * U+2028, U+2029 and U+FEFF become character references.
 */
void escape_xml(struct buf *b, const char *s, size_t len);

/*
 * A JSON string with its quotes. Control characters, U+2028 and U+2029 are
 * \u-escaped; invalid bytes become \ufffd.
 */
void escape_json_string(struct buf *b, const char *s, size_t len);

/*
 * A frame name or label for a Markdown report, at most `cap` code points
 * (cap >= 1; the last one an ellipsis when cut). Markdown and HTML syntax
 * is escaped; control, line-breaking and direction-changing code points
 * become U+FFFD.
 */
void escape_md(struct buf *b, const char *s, size_t len, size_t cap);
/* The same for a terminal: no Markdown escaping, the same replacements. */
void escape_terminal(struct buf *b, const char *s, size_t len, size_t cap);

#endif
