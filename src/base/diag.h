/*
 * diag: the one-message diagnostic that modules fill when they fail on bad
 * input or I/O, for input.c and main.c to print (with the program name)
 * and turn into an exit code. Modules never print errors themselves.
 */
#ifndef DIFFFOLD_DIAG_H
#define DIFFFOLD_DIAG_H

#include <stdint.h>

struct diag {
	char msg[1024]; /* "path:line: reason", without the program name */
};

/*
 * "name:line: reason" (line 0: "name: reason"), the name's control
 * characters escaped, so a file name cannot forge a message or move the
 * terminal's cursor.
 */
void diag_set(struct diag *err, const char *name, uint64_t line, const char *reason);

#endif
