#include "folded_syntax.h"

#include "count.h"

bool
folded_stack_ends_in_count(const char *stack, size_t len)
{
	while (len > 0 && folded_is_space(stack[len - 1])) {
		len--;
	}
	const char *f, *why;
	size_t flen;
	struct count c;
	return folded_last_field(stack, &len, &f, &flen) && len > 0 &&
	       count_parse(f, flen, &c, &why);
}
