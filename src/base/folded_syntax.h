/*
 * folded_syntax: the lexical rules of a folded line (`STACK COUNT` or
 * `STACK BASE HEAD`), shared by the folded reader (read/folded.c) and the
 * folded export (report/export.c), which must write what the reader reads
 * back unchanged. Whitespace is a space or a tab; the counts are the last
 * whitespace-separated fields.
 */
#ifndef DIFFFOLD_FOLDED_SYNTAX_H
#define DIFFFOLD_FOLDED_SYNTAX_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A comment line that decides the column count of a single input (mode
 * FOLDED_AUTO) when it comes before the first stack. difffold's own folded
 * output starts with one when its first stack would be misread otherwise.
 */
#define FOLDED_MARK_2_COLUMNS "# difffold: 2 columns"
#define FOLDED_MARK_3_COLUMNS "# difffold: 3 columns"

static inline bool
folded_is_space(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Splits off the last whitespace-separated field of s[0, *len): the field
 * is [*field, *field + *field_len) and *len becomes the length before it,
 * less the whitespace. False when the line is one field. Inline: the reader
 * calls it once or twice a line.
 */
static inline bool
folded_last_field(const char *s, size_t *len, const char **field, size_t *field_len)
{
	size_t end = *len, i = end;
	while (i > 0 && !folded_is_space(s[i - 1])) {
		i--;
	}
	if (i == 0) {
		return false;
	}
	*field = s + i;
	*field_len = end - i;
	while (i > 0 && folded_is_space(s[i - 1])) {
		i--;
	}
	*len = i;
	return true;
}

/*
 * True when `stack COUNT` as the first stack line of a single input would be
 * read as the 3 columns `STACK BASE HEAD`: the stack itself ends in a field
 * that is a count (`a;b 7`).
 */
bool folded_stack_ends_in_count(const char *stack, size_t len);

#endif
