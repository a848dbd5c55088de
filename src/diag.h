/*
 * diag: the one-message diagnostic that modules fill when they fail on bad
 * input or I/O, for main.c to print (with the program name) and turn into
 * an exit code. Modules never print errors themselves.
 */
#ifndef DIFFFOLD_DIAG_H
#define DIFFFOLD_DIAG_H

struct diag {
	char msg[1024]; /* "path:line: reason", without the program name */
};

#endif
