#include "diag.h"

#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "escape.h"

void
diag_set(struct diag *err, const char *name, uint64_t line, const char *reason)
{
	struct buf shown;
	buf_init(&shown);
	escape_diag(&shown, name, strlen(name));
	if (line) {
		snprintf(err->msg, sizeof(err->msg), "%s:%llu: %s", shown.data,
		        (unsigned long long)line, reason);
	} else {
		snprintf(err->msg, sizeof(err->msg), "%s: %s", shown.data, reason);
	}
	buf_finish(&shown);
}
