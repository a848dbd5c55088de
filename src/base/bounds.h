/*
 * bounds: the most difffold takes of what an input can make big, in one
 * place. Past a bound the read fails with a message naming it (a 2 GiB
 * line is an error, not an allocation); every reader uses the same ones,
 * so a profile converted from one format to another meets the same limits.
 * The messages say the figures ("longer than 16 MiB"): change them with
 * these.
 */
#ifndef DIFFFOLD_BOUNDS_H
#define DIFFFOLD_BOUNDS_H

#include <stddef.h>

/* Bytes of one input line (folded, perf script, callgrind, massif). */
#define BOUND_LINE ((size_t)16 << 20)
/* Bytes of one stack as frames joined by ';', like a folded line. */
#define BOUND_STACK ((size_t)16 << 20)
/* Bytes of a frame name a transform rewrote (--replace of every byte by a
 * long text would otherwise take gigabytes). */
#define BOUND_NAME ((size_t)16 << 20)

#endif
