/*
 * tree_warn: warnings about a finished tree, appended to a message buffer
 * for main to print: what the user gave probably does not say what they
 * meant, and the warning says what to give instead.
 */
#ifndef DIFFFOLD_TREE_WARN_H
#define DIFFFOLD_TREE_WARN_H

#include "buf.h"
#include "tree.h"

struct transform;

/*
 * The warning, appended to msg, when base and head of a finished
 * differential tree share no root frame but share frames below their
 * roots: stackcollapse-perf's roots are the process names, so a binary
 * called `base` against one called `head` draws every frame as new. The
 * advice: --replace or --skip-frames.
 */
void tree_warn_roots(const struct tree *t, struct buf *msg);
/* The warning, appended to msg, when tf's steps dropped every stack of a side. */
void tree_warn_dropped(const struct transform *tf, const struct tree *t, struct buf *msg);

#endif
