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
 * Code points that change the direction of text or show nothing (bidi
 * overrides, isolates and marks, zero-width characters, soft hyphen, BOM,
 * tags...): in a name they make it look like another. Every output a
 * person reads shows them as the marker "<U+202E>" instead.
 */
bool escape_is_invisible(uint32_t cp);
/* Appends the marker for cp: "<U+" four or more upper-case hex digits ">". */
void escape_add_marker(struct buf *b, uint32_t cp);

/*
 * XML text and attribute values (quotes included). C0 controls but tab,
 * newline and CR, C1 controls and XML non-characters become U+FFFD;
 * U+2028 and U+2029 become character references; invisible code points
 * become the marker (escaped: "&lt;U+202E&gt;").
 */
void escape_xml(struct buf *b, const char *s, size_t len);

/*
 * A JSON string with its quotes. Control characters, U+2028, U+2029 and
 * invisible code points are \u-escaped (the data stays exact); invalid
 * bytes become \ufffd.
 */
void escape_json_string(struct buf *b, const char *s, size_t len);

/*
 * A frame name or label for a Markdown report, at most `cap` code points
 * (cap >= 1; the last one an ellipsis when cut). Markdown and HTML syntax
 * is escaped; control and line-breaking code points become U+FFFD,
 * invisible ones the marker.
 */
void escape_md(struct buf *b, const char *s, size_t len, size_t cap);
/* The same for a terminal: no Markdown escaping, the same replacements. */
void escape_terminal(struct buf *b, const char *s, size_t len, size_t cap);
/*
 * s (already through escape_terminal) as a Markdown code span for a GFM
 * table cell: in a code span GitHub and GitLab make no mentions (@team),
 * references (owner/repo#1, GH-1) or autolinks (https://, www.), and
 * render no HTML. The fence is longer than any backtick run in s; '|' is
 * written "\|", which a table cell turns back into '|'.
 */
void escape_md_code(struct buf *b, const char *s, size_t len);
/*
 * A string from a file or the command line (a label, a count's unit, the
 * note on the input) for Markdown prose, at most cap code points: as it is
 * when it is only ASCII letters and spaces with no run of 7 hex letters (a
 * commit reference), in which GitHub finds nothing to link; otherwise
 * through escape_terminal into a code span, where it makes no mention,
 * reference, autolink, emoji or HTML. Not for a table cell ('|' stays).
 */
void escape_md_inert(struct buf *b, const char *s, size_t len, size_t cap);
/*
 * A file name or other user string for a diagnostic on stderr, C-style:
 * "\\", "\n", "\t", "\r", "\x1b" for other controls and for bytes that
 * are not UTF-8; C1 controls, line separators and invisible code points as
 * the marker. A terminal then gets no escape sequence and no forged line.
 */
void escape_diag(struct buf *b, const char *s, size_t len);

/*
 * A frame name from a table or markup (JSON, protobuf, callgrind, massif,
 * a flame graph's titles), in place, as one frame of a folded line: a line
 * break or carriage return becomes a space, so -f folded cannot be made to
 * write a line of the name's choosing; with `semicolon`, ';' (the frame
 * separator) becomes ':'. True when a byte changed. (A root frame starting
 * with '#' is the tree's rule: tree_build.c, root_safe.)
 */
bool escape_frame_bytes(char *s, size_t len, bool semicolon);
/*
 * Appends s[0..len) to b as one frame of a table reader: escape_frame_bytes
 * with ';' made ':', and an empty name as `[unknown]`, since no folded line
 * can hold an empty frame at the end of a stack (the reader drops a trailing
 * ';'), so -f folded could not write it back. True when the name changed.
 */
bool escape_frame_add(struct buf *b, const char *s, size_t len);

#endif
