/*
 * massif: the reader of valgrind massif's out files (massif.out.PID), the
 * text ms_print reads. A file is a list of snapshots; a detailed one (and
 * the peak) holds a heap tree, one node a line:
 *
 *   n<children>: <bytes> <address>: <function> (<file>:<line>)
 *
 * indented by its depth, the allocation functions at the top and their
 * callers below. One snapshot's tree is read: the peak by default, or the
 * one --snapshot numbers. Each node's own bytes (its bytes minus its
 * children's) become a stack from the outermost caller down to the
 * allocating function, so the flame graph's root is main's side, as for a
 * CPU profile; massif's "below massif's threshold" lines are a frame of
 * their own, `[below massif's threshold]`; a function is named without its
 * address and source position (which move between builds), an unknown one
 * (`???`) by its object file, `[libfoo.so]`. ';' in a name becomes ':'.
 *
 * Lines are read as they come; only the chosen tree's path of ancestors is
 * kept, written backwards so that each stack is one slice of it.
 */
#ifndef DIFFFOLD_MASSIF_H
#define DIFFFOLD_MASSIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "reader.h"
#include "source.h"
#include "tree.h"

#define MASSIF_PEAK (-1L)

struct massif_options {
	long snapshot; /* a snapshot's number, or MASSIF_PEAK */
};

struct massif_info {
	long snapshot; /* the snapshot read */
	uint64_t total; /* its heap tree's bytes */
};

/* The reader as the table runs it (readers.h). */
readers_read_fn massif_read;

#endif
