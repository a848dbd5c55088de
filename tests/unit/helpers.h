/*
 * Small helpers shared by the unit tests: a canonical dump of a tree (its
 * folded export in memory) and its JSON, trees built stack by stack, a
 * tolerance assertion for doubles, and temporary files that clean up after
 * themselves. Header-only so every test stays one executable.
 */
#ifndef DIFFFOLD_TEST_HELPERS_H
#define DIFFFOLD_TEST_HELPERS_H

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "buf.h"
#include "export.h"
#include "folded.h"
#include "layout.h"
#include "options.h"
#include "output.h"
#include "readers.h"
#include "report.h"
#include "settings.h"
#include "tree.h"
#include "tree_build.h"

/* The tree's folded export as a NUL-terminated string the caller frees. */
static inline char *
dump_tree(const struct tree *t)
{
	struct out o;
	out_init_memory(&o);
	export_folded(&o, t);
	return buf_detach(&o.b, NULL);
}

/* The tree's JSON export with default options, NUL-terminated, its length
 * in *len; the caller frees it. */
static inline char *
json_of_tree(const struct tree *t, size_t *len)
{
	struct options o;
	options_init(&o);
	struct report_options r;
	settings_report(&o, &r);
	struct report *rep = t->differential ? report_create(t, &r) : NULL;
	struct out out;
	out_init_memory(&out);
	export_json(&out, t, o.json_layout, rep);
	report_destroy(rep);
	options_finish(&o);
	return buf_detach(&out.b, len);
}

/*
 * data read into t by the folded reader, as folded_read_mem did before the
 * readers had one entry: *st gets the reader's statistics.
 */
static inline bool
fold_mem(struct tree *t, const char *name, const char *data, size_t len, enum folded_mode mode,
        bool strict, struct folded_stats *st, struct diag *err)
{
	struct read_options ro;
	readers_options_init(&ro);
	ro.strict = strict;
	struct read_result res;
	bool ok =
	        readers_read_mem(readers_find("folded"), t, mode, name, data, len, &ro, &res, err);
	*st = res.folded;
	return ok;
}

/* The same over a file ("-": standard input). */
static inline bool
fold_file(struct tree *t, const char *path, enum folded_mode mode, bool strict,
        struct folded_stats *st, struct diag *err)
{
	struct read_options ro;
	readers_options_init(&ro);
	ro.strict = strict;
	struct read_result res;
	bool ok = readers_read_file(readers_find("folded"), t, mode, path, &ro, &res, err);
	*st = res.folded;
	return ok;
}

/* layout_create with the picture's settings taken from o, as main does. */
static inline struct layout *
layout_of(const struct tree *t, const struct options *o)
{
	struct draw_options d;
	settings_draw(o, &d);
	return layout_create(t, &d);
}

/* A fresh tree fed from `data` through the reader; fails the test on error. */
static inline struct tree *
tree_from(const char *data, enum folded_mode mode, const struct tree_options *opt)
{
	struct tree_options def = {.min_delta = 0.001};
	struct tree *t = tree_create(opt ? opt : &def);
	struct folded_stats st;
	struct diag err;
	if (!fold_mem(t, "mem", data, strlen(data), mode, false, &st, &err)) {
		fail_msg("read failed: %s", err.msg);
	}
	return t;
}

/* cmocka before 1.1.6 has no assert_double_equal. */
#define assert_near(a, b, eps) near_check((a), (b), (eps), #a, __FILE__, __LINE__)

static inline void
near_check(double a, double b, double eps, const char *what, const char *file, int line)
{
	if (!(fabs(a - b) <= eps)) {
		fail_msg("%s:%d: %s is %.17g, expected %.17g", file, line, what, a, b);
	}
}

/* Adds `units` samples of a ';'-separated stack; fails the test on error. */
static inline void
add_stack(struct tree *t, enum side side, const char *stack, uint64_t units)
{
	const char *reason = NULL;
	if (!tree_add_stack(t, side, stack, strlen(stack), (struct count){units, 0}, &reason)) {
		fail_msg("add '%s' failed: %s", stack, reason);
	}
}

/* Writes len bytes to a new temporary file; returns its path (caller frees). */
static inline char *
temp_file(const char *suffix, const void *data, size_t len)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	struct buf b;
	buf_init(&b);
	buf_printf(&b, "%s/difffold-test-XXXXXX%s", dir, suffix);
	char *path = buf_detach(&b, NULL);
	int fd = mkstemps(path, (int)strlen(suffix));
	assert_true(fd >= 0);
	const char *p = data;
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		assert_true(n > 0);
		p += n;
		len -= (size_t)n;
	}
	close(fd);
	return path;
}

#endif
