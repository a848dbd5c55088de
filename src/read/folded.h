/*
 * folded: the reader of folded stacks (`frame;frame;leaf COUNT` a line), as
 * written by stackcollapse-perf.pl, inferno, async-profiler and py-spy, and
 * of the 3-column form `STACK BASE HEAD` of difffolded.pl. Bytes come from
 * a source (source.c inflates gzip). Lines feed a tree; errors come back
 * as a struct diag for input.c and main.c to report, never as output of
 * its own.
 */
#ifndef DIFFFOLD_FOLDED_H
#define DIFFFOLD_FOLDED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bounds.h"
#include "diag.h"
#include "folded_syntax.h"
#include "reader.h"
#include "source.h"
#include "tree.h"

/*
 * Reads the rest of an open source, head (head_len bytes already read from
 * it, for judging its format) first. The caller closes the source.
 */
bool folded_read_source(struct tree *t, struct source *src, const char *head, size_t head_len,
        enum folded_mode mode, bool strict, struct folded_stats *st, struct diag *err);
/*
 * folded_read_source on two threads: another reads the source, splits the
 * lines and hashes their frames while this one adds them to the tree. The
 * same tree (node ids included), statistics and errors.
 */
bool folded_read_source_threaded(struct tree *t, struct source *src, const char *head,
        size_t head_len, enum folded_mode mode, bool strict, struct folded_stats *st,
        struct diag *err);
/* The reader as the table runs it (readers.h). */
readers_read_fn folded_read;

#endif
