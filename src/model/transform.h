/*
 * transform: frame rewriting that makes two runs comparable (--replace,
 * --hide, --focus, --focus-root, --exclude, --skip-frames,
 * --collapse-recursion), applied to every stack of both sides before it
 * reaches the tree, whatever reader produced it.
 *
 * A stack goes through the steps in one fixed order, whatever the order
 * of the options: every --replace in the order given (each replacing all
 * matches), then --hide, --focus (with --focus-root), --exclude,
 * --skip-frames, --collapse-recursion. --hide, --focus and --exclude match
 * the names as --replace left them. A stack the steps empty is dropped.
 *
 * Patterns are PCRE2 (UTF-8 with Unicode properties for \w, \d...;
 * invalid UTF-8 in names matched as single code units; JIT-compiled where
 * the platform has it). The regex work is per distinct name, not per
 * frame: a struct transform_run caches, per name it has seen, the
 * rewritten name and which patterns matched it, so the cost follows the
 * number of names.
 *
 * A struct transform is built once from the options and is then read-only:
 * each tree being built has its own run.
 */
#ifndef DIFFFOLD_TRANSFORM_H
#define DIFFFOLD_TRANSFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bounds.h"
#include "buf.h"

enum transform_kind {
	TRANSFORM_REPLACE, /* REGEX=REPLACEMENT */
	TRANSFORM_HIDE,
	TRANSFORM_FOCUS,
	TRANSFORM_EXCLUDE,
};

struct transform;
struct transform_run;

/* An empty set: no step changes anything until rules are added. */
struct transform *transform_create(void);
void transform_destroy(struct transform *tf);
/*
 * Compiles one rule; arg is the option's argument (for TRANSFORM_REPLACE
 * REGEX=REPLACEMENT, split at the first '=' that is not part of the
 * pattern's syntax: see split_replace). False, with a message naming the
 * option, PCRE2's reason and the offset in err (errlen bytes), when the
 * pattern or the replacement is invalid.
 */
bool transform_add(
        struct transform *tf, enum transform_kind kind, const char *arg, char *err, size_t errlen);
void transform_set_skip(struct transform *tf, uint64_t frames);
void transform_set_focus_root(struct transform *tf, bool on);
void transform_set_collapse(struct transform *tf, bool on);
bool transform_has_focus(const struct transform *tf);
bool transform_focus_root(const struct transform *tf);
/* Whether any step can change a stack (NULL: none). */
bool transform_active(const struct transform *tf);
/*
 * The steps as options, in the order they apply, for headers and reports:
 * calls add(ctx, option, value) once a step; value is NULL for
 * --focus-root and --collapse-recursion. Strings are owned by tf.
 */
void transform_each(const struct transform *tf,
        void (*add)(void *ctx, const char *option, const char *value), void *ctx);
/* The steps as one line: "--replace 'a=b' --hide 'x'" (not shell-safe). */
void transform_describe(const struct transform *tf, struct buf *out);

/* What the runs of tf did so far (destroyed runs included). */
struct transform_stats {
	uint64_t frames; /* frames of all stacks */
	uint64_t lookups; /* frames looked up in the cache (not shared with the stack before) */
	uint64_t names; /* distinct names, per run */
	uint64_t regex_calls; /* pcre2_match and pcre2_substitute calls */
	uint64_t dropped; /* stacks the steps emptied or excluded */
};
void transform_stats(const struct transform *tf, struct transform_stats *st);

/* "difffold: transforms: ..." and a newline: the figures for DIFFFOLD_TIMING. */
void transform_stats_line(const struct transform *tf, struct buf *out);

/* A cache for one tree being built; tf must outlive it. */
struct transform_run *transform_run_create(const struct transform *tf);
void transform_run_destroy(struct transform_run *run);

enum transform_result {
	TRANSFORM_KEEP, /* *out, *out_len: the stack to add */
	TRANSFORM_DROP, /* the stack is dropped */
	TRANSFORM_ERROR, /* *reason: a PCRE2 failure or a name past the limit */
};

/*
 * Rewrites one stack (frames separated by ';'). The result points into the
 * run or is the stack itself, valid until the next call; *reason is owned
 * by the run.
 */
enum transform_result transform_run_stack(struct transform_run *run, const char *stack, size_t len,
        const char **out, size_t *out_len, const char **reason);

#endif
