/* match: names, wrappers, renames and moves across builds, on small trees. */
#include "match.h"

#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "match_tree.h"
#include "tree_build.h"

/*
 * No frame a walk from the root meets is empty on both sides: surgery that
 * raises or carries a frame away must not leave its old caller behind as
 * a frame of zero samples (it would be listed in the JSON and the folded
 * output).
 */
static void
assert_no_empty_frame(const struct tree *t)
{
	for (size_t i = 1; i < t->node_count; i++) {
		const struct tree_node *n = &t->nodes[i];
		bool linked = false;
		for (uint32_t k = t->nodes[n->parent].first_child; k != TREE_NONE;
		        k = t->nodes[k].next_sibling) {
			linked |= k == i;
		}
		if (linked) {
			assert_false(tree_value(t, n, SIDE_BASE, false) == 0 &&
			             tree_value(t, n, SIDE_HEAD, false) == 0);
		}
	}
}

/* The tree and the match the test attached to it, checked and freed. */
static void
drop(struct tree *t)
{
	assert_no_empty_frame(t);
	match_destroy(t->match);
	tree_destroy(t);
}

static const struct match_settings all = {true, true};

/* A finished differential tree of "stack count" lines per side, ',' between lines. */
static struct tree *
build(const char *base, const char *head)
{
	static const struct tree_options opt = {.min_delta = 0.001};
	struct tree *t = tree_create(&opt);
	const char *sides[2] = {base, head};
	for (int side = 0; side < 2; side++) {
		const char *p = sides[side];
		while (*p) {
			const char *end = strchr(p, ',');
			size_t len = end ? (size_t)(end - p) : strlen(p);
			const char *sp = memchr(p, ' ', len);
			assert_non_null(sp);
			const char *reason;
			struct count c = {strtoull(sp + 1, NULL, 10), 0};
			assert_true(tree_add_stack(
			        t, (enum side)side, p, (size_t)(sp - p), c, &reason));
			p += len + (end ? 1 : 0);
		}
	}
	tree_finish(t, true);
	return t;
}

/* The node at a ';'-separated path, or TREE_NONE. */
static uint32_t
find(const struct tree *t, const char *path)
{
	uint32_t at = TREE_ROOT;
	while (*path && at != TREE_NONE) {
		const char *end = strchr(path, ';');
		size_t len = end ? (size_t)(end - path) : strlen(path);
		uint32_t k = t->nodes[at].first_child;
		for (; k != TREE_NONE; k = t->nodes[k].next_sibling) {
			size_t l;
			const char *s = tree_node_name(t, &t->nodes[k], &l);
			if (l == len && memcmp(s, path, len) == 0) {
				break;
			}
		}
		at = k;
		path += len + (end ? 1 : 0);
	}
	return at;
}

static double
side_of(const struct tree *t, const char *path, enum side side)
{
	uint32_t id = find(t, path);
	assert_int_not_equal(id, TREE_NONE);
	return tree_value(t, &t->nodes[id], side, false);
}

static double
base_of(const struct tree *t, const char *path)
{
	return side_of(t, path, SIDE_BASE);
}

static double
head_of(const struct tree *t, const char *path)
{
	return side_of(t, path, SIDE_HEAD);
}

static enum match_kind
kind_at(const struct tree *t, const char *path)
{
	uint32_t id = find(t, path);
	assert_int_not_equal(id, TREE_NONE);
	const struct match_entry *e = match_of(t, id);
	return e ? (enum match_kind)e->kind : MATCH_NONE;
}

static void
test_rust_hash_is_one_function(void **state)
{
	(void)state;
	struct tree *t = build("app;main;run::h0123456789abcdef;work 10",
	        "app;main;run::hfedcba9876543210;work 12");
	match_run(t, &all);
	assert_non_null(t->match);
	assert_int_equal(t->match->names_matched, 1);
	assert_true(base_of(t, "app;main;run::hfedcba9876543210;work") == 10);
	assert_int_equal(kind_at(t, "app;main;run::hfedcba9876543210"), MATCH_NAME);
	assert_int_equal(find(t, "app;main;run::h0123456789abcdef"), TREE_NONE);
	drop(t);
}

static void
test_off_changes_nothing(void **state)
{
	(void)state;
	static const struct match_settings none = {false, false};
	struct tree *t = build("app;main;run::h0123456789abcdef;work 10",
	        "app;main;run::hfedcba9876543210;work 12");
	size_t nodes = t->node_count;
	match_run(t, &none);
	assert_int_equal(t->node_count, nodes);
	assert_null(t->match);
	/* Rules off, structure on: the two names meet under one parent, leaves below alike. */
	static const struct match_settings exact = {false, true};
	match_run(t, &exact);
	assert_true(t->match == NULL || t->match->names_matched == 0);
	drop(t);
}

static void
test_inserted_wrapper(void **state)
{
	(void)state;
	struct tree *t = build("app;main;serve;parse 10,app;main;serve;reply 5",
	        "app;main;middleware;serve;parse 11,app;main;middleware;serve;reply 5");
	match_run(t, &all);
	assert_non_null(t->match);
	assert_int_equal(kind_at(t, "app;main;middleware"), MATCH_WRAPPER_ADDED);
	assert_true(base_of(t, "app;main;middleware;serve;parse") == 10);
	assert_int_equal(find(t, "app;main;serve"), TREE_NONE);
	drop(t);
}

static void
test_removed_wrapper(void **state)
{
	(void)state;
	struct tree *t = build("app;main;shim;serve;parse 10,app;main;shim 2",
	        "app;main;serve;parse 9,app;main 2");
	match_run(t, &all);
	assert_non_null(t->match);
	assert_int_equal(kind_at(t, "app;main;serve"), MATCH_WRAPPER_REMOVED);
	assert_true(base_of(t, "app;main;serve;parse") == 10);
	/* The wrapper's own count goes to its caller, as inlining does. */
	assert_true(base_of(t, "app;main") == 12);
	drop(t);
}

static void
test_one_more_recursion_is_no_wrapper(void **state)
{
	(void)state;
	struct tree *t = build("app;main;parse;parse;expr 20", "app;main;parse;expr 18");
	match_run(t, &all);
	assert_null(t->match);
	drop(t);
}

static void
test_rename_by_subtree(void **state)
{
	(void)state;
	struct tree *t = build("app;main;load_config;read 10,app;main;load_config;parse 6",
	        "app;main;read_settings;read 11,app;main;read_settings;parse 5");
	match_run(t, &all);
	assert_non_null(t->match);
	assert_int_equal(kind_at(t, "app;main;read_settings"), MATCH_RENAMED);
	assert_true(base_of(t, "app;main;read_settings;parse") == 6);
	size_t len;
	const char *from =
	        match_other_name(t, match_of(t, find(t, "app;main;read_settings")), &len);
	assert_int_equal(len, strlen("load_config"));
	assert_memory_equal(from, "load_config", len);
	drop(t);
}

static void
test_unrelated_leaves_stay_apart(void **state)
{
	(void)state;
	/* A removed and a new function with nothing in common below: no match. */
	struct tree *t = build("app;main;old_leaf 10,app;main;work;a 5,app;main;gone;x 4",
	        "app;main;new_leaf 10,app;main;work;a 5,app;main;fresh;y 4");
	match_run(t, &all);
	assert_null(t->match);
	drop(t);
}

/* Entry e's other name, or a move's other path, as a string to compare. */
static void
assert_other(const struct tree *t, const struct match_entry *e, const char *want)
{
	size_t len;
	const char *s = match_other_name(t, e, &len);
	assert_int_equal(len, strlen(want));
	assert_memory_equal(s, want, len);
}

static void
test_move(void **state)
{
	(void)state;
	struct tree *t = build("app;main;x;f;g 10,app;main;x;h 5,app;main;y;k 4",
	        "app;main;y;f;g 11,app;main;x;h 5,app;main;y;k 4");
	match_run(t, &all);
	assert_non_null(t->match);
	assert_int_equal(kind_at(t, "app;main;y;f"), MATCH_MOVED_IN);
	const struct match_entry *e = match_of(t, find(t, "app;main;y;f"));
	assert_other(t, e, "app;main;x;f");
	/* Moved to one frame, the base's frame is carried there and compared, not new. */
	assert_int_equal(e->peer, TREE_NONE);
	assert_int_equal(find(t, "app;main;x;f"), TREE_NONE);
	assert_true(base_of(t, "app;main;y;f") == 10);
	assert_true(base_of(t, "app;main;y;f;g") == 10);
	assert_true(base_of(t, "app;main;y") == 14);
	assert_true(base_of(t, "app;main;x") == 5);
	assert_true(base_of(t, "app;main") == 19);
	drop(t);
}

static void
test_move_scattered_is_kept_marked(void **state)
{
	(void)state;
	/* f went to two callers: which frame its base counts go to would be a guess. */
	struct tree *t = build("app;main;x;f;g 20,app;main;x;h 5,app;main;y;k 4,app;main;z;k 4",
	        "app;main;y;f;g 10,app;main;z;f;g 10,app;main;x;h 5,app;main;y;k 4,app;main;z;k 4");
	match_run(t, &all);
	assert_non_null(t->match);
	assert_int_equal(kind_at(t, "app;main;y;f"), MATCH_MOVED_IN);
	assert_int_equal(kind_at(t, "app;main;x;f"), MATCH_MOVED_OUT);
	const struct match_entry *e = match_of(t, find(t, "app;main;y;f"));
	assert_int_equal(e->peer, find(t, "app;main;x;f"));
	assert_true(base_of(t, "app;main;x;f") == 20);
	drop(t);
}

static void
test_move_below_a_removed_caller(void **state)
{
	(void)state;
	/* old called nothing but f: old goes too, and f is one level below what was removed. */
	struct tree *t =
	        build("app;main;x;old;f;g 10,app;main;x;old;f;h 5,app;main;x;z 6,app;main;y;k 4",
	                "app;main;y;f;g 11,app;main;y;f;h 4,app;main;x;z 6,app;main;y;k 4");
	match_run(t, &all);
	assert_non_null(t->match);
	assert_int_equal(kind_at(t, "app;main;y;f"), MATCH_MOVED_IN);
	const struct match_entry *e = match_of(t, find(t, "app;main;y;f"));
	assert_other(t, e, "app;main;x;old;f");
	/* old, left with nothing, went with it. */
	assert_int_equal(find(t, "app;main;x;old"), TREE_NONE);
	assert_true(base_of(t, "app;main;y;f") == 15);
	double net;
	assert_true(match_moved(t, find(t, "app;main;y;f"), &net));
	assert_true(net == 0);
	drop(t);
}

static void
test_move_gathered_from_several_paths(void **state)
{
	(void)state;
	/* f under four callers' old, each a quarter of the one f the head has under y. */
	struct tree *t = build("app;main;a;old;f;g 3,app;main;b;old;f;g 3,app;main;c;old;f;g 3,"
	                       "app;main;d;old;f;g 3,app;main;a;old;z 5,app;main;b;old;z 5,"
	                       "app;main;c;old;z 5,app;main;d;old;z 5,app;main;y;k 4",
	        "app;main;y;f;g 12,app;main;a;old;z 5,app;main;b;old;z 5,app;main;c;old;z 5,"
	        "app;main;d;old;z 5,app;main;y;k 4");
	match_run(t, &all);
	assert_non_null(t->match);
	assert_int_equal(kind_at(t, "app;main;y;f"), MATCH_MOVED_IN);
	assert_int_equal(find(t, "app;main;c;old;f"), TREE_NONE);
	assert_true(base_of(t, "app;main;c;old") == 5);
	const struct match_entry *e = match_of(t, find(t, "app;main;y;f"));
	assert_int_equal(e->peers, 4);
	assert_true(e->moved_base == 12 && e->moved_head == 12);
	assert_true(base_of(t, "app;main;y;f;g") == 12);
	drop(t);
}

static void
test_move_through_an_inlined_callee(void **state)
{
	(void)state;
	/* f moved from x to y, and w, which the base's f called, was inlined everywhere. */
	struct tree *t = build("app;main;x;f;w;g 10,app;main;x;h 5,app;main;y;k 4,"
	                       "app;main;p;w;q 8,app;main;p;r 3",
	        "app;main;y;f;g 10,app;main;x;h 5,app;main;y;k 4,app;main;p;q 8,app;main;p;r 3");
	match_run(t, &all);
	assert_non_null(t->match);
	assert_int_equal(kind_at(t, "app;main;p;q"), MATCH_WRAPPER_REMOVED);
	assert_int_equal(kind_at(t, "app;main;y;f"), MATCH_MOVED_IN);
	drop(t);
}

static void
test_move_calling_a_renamed_callee(void **state)
{
	(void)state;
	/* f moved from x to y, and a, which f calls, was renamed b everywhere. */
	struct tree *t = build("app;main;x;f;a;c 10,app;main;x;h 5,app;main;y;k 4,"
	                       "app;main;p;a;c 6,app;main;p;a;d 4,app;main;p;r 3",
	        "app;main;y;f;b;c 10,app;main;x;h 5,app;main;y;k 4,app;main;p;b;c 6,"
	        "app;main;p;b;d 4,app;main;p;r 3");
	match_run(t, &all);
	assert_non_null(t->match);
	assert_int_equal(kind_at(t, "app;main;p;b"), MATCH_RENAMED);
	assert_int_equal(kind_at(t, "app;main;y;f"), MATCH_MOVED_IN);
	drop(t);
}

static void
test_move_under_a_renamed_caller_path(void **state)
{
	(void)state;
	/*
	 * f moved from x to y; y's caller q was renamed r, found under p, and
	 * not taken under main, where r grew by f's samples past the size test.
	 */
	struct tree *t = build("app;main;x;f;g 10,app;main;x;h 5,app;main;q;y;k 4,"
	                       "app;main;p;q;c 6,app;main;p;q;d 4",
	        "app;main;r;y;f;g 10,app;main;x;h 5,app;main;r;y;k 4,app;main;p;r;c 6,"
	        "app;main;p;r;d 4");
	match_run(t, &all);
	assert_non_null(t->match);
	assert_int_equal(kind_at(t, "app;main;p;r"), MATCH_RENAMED);
	assert_int_equal(kind_at(t, "app;main;r;y;f"), MATCH_MOVED_IN);
	drop(t);
}

static void
test_renamed_caller_is_no_move(void **state)
{
	(void)state;
	/*
	 * s was renamed t (found under p; not taken under b;w, where t grew
	 * past the size test): f went from a;w;s to b;w;t, from s to s by
	 * another name, which is no move.
	 */
	struct tree *t = build("app;main;a;w;s;f;g 10,app;main;a;w;k 5,app;main;b;w;k 5,"
	                       "app;main;b;w;s;m 1,app;main;p;s;c 6,app;main;p;s;d 4",
	        "app;main;b;w;t;f;g 10,app;main;a;w;k 5,app;main;b;w;k 5,app;main;b;w;t;m 1,"
	        "app;main;p;t;c 6,app;main;p;t;d 4");
	match_run(t, &all);
	assert_non_null(t->match);
	assert_int_equal(kind_at(t, "app;main;p;t"), MATCH_RENAMED);
	assert_true(kind_at(t, "app;main;b;w;t;f") != MATCH_MOVED_IN);
	drop(t);
}

static void
test_stacked_wrappers_are_no_move(void **state)
{
	(void)state;
	/* Two wrappers inlined at once: f's callers are the same but for them. */
	struct tree *t =
	        build("app;main;p;w1;w2;f;g 10,app;main;p;q 5", "app;main;p;f;g 10,app;main;p;q 5");
	match_run(t, &all);
	assert_true(kind_at(t, "app;main;p;f") != MATCH_MOVED_IN);
	drop(t);
}

static void
test_move_under_a_new_caller_is_no_move(void **state)
{
	(void)state;
	/* f under a caller the base did not have came with that caller. */
	struct tree *t = build("app;main;x;f;g 10,app;main;x;h 5,app;main;y;k 4",
	        "app;main;y;n;f;g 10,app;main;x;h 5,app;main;y;k 4");
	match_run(t, &all);
	assert_true(kind_at(t, "app;main;y;n;f") != MATCH_MOVED_IN);
	drop(t);
}

static void
test_crowded_parent_is_left_alone(void **state)
{
	(void)state;
	/* More renamed siblings than GRAFT_MAX_CHILDREN: not merged, and not
	 * in square time; one frame deeper, under a parent of two, merged. */
	struct buf base, head;
	buf_init(&base);
	buf_init(&head);
	for (unsigned i = 0; i <= GRAFT_MAX_CHILDREN / 2; i++) {
		buf_printf(&base, "app;main;f%u::h%016x 1,", i, i);
		buf_printf(&head, "app;main;f%u::h%016x 1,", i, i + 1);
	}
	buf_adds(&base, "app;run;g::h0123456789abcdef 3");
	buf_adds(&head, "app;run;g::hfedcba9876543210 3");
	struct tree *t = build(base.data, head.data);
	match_run(t, &all);
	assert_non_null(t->match);
	assert_int_equal(t->match->names_matched, 1);
	assert_int_equal(kind_at(t, "app;run;g::hfedcba9876543210"), MATCH_NAME);
	assert_int_not_equal(find(t, "app;main;f0::h0000000000000000"), TREE_NONE);
	buf_finish(&base);
	buf_finish(&head);
	drop(t);
}

static void
test_rename_inside_a_carried_wrapper(void **state)
{
	(void)state;
	/*
	 * w was inserted above c, and a, which c calls, renamed b: a and b
	 * meet under one parent only once c is carried under w.
	 */
	struct tree *t = build("app;main;p;c;a;d 10,app;main;p;c;e 4,app;main;p;q 5",
	        "app;main;p;w;c;b;d 11,app;main;p;w;c;e 4,app;main;p;q 5");
	match_run(t, &all);
	assert_non_null(t->match);
	assert_int_equal(kind_at(t, "app;main;p;w"), MATCH_WRAPPER_ADDED);
	assert_int_equal(kind_at(t, "app;main;p;w;c;b"), MATCH_RENAMED);
	assert_true(base_of(t, "app;main;p;w;c;b;d") == 10);
	assert_int_equal(find(t, "app;main;p;w;c;a"), TREE_NONE);
	drop(t);
}

static void
test_rename_inside_a_carried_move(void **state)
{
	(void)state;
	/* f moved from x to y; a, which f calls, was renamed b, found under p. */
	struct tree *t = build("app;main;x;f;a;c 10,app;main;x;h 5,app;main;y;k 4,"
	                       "app;main;p;a;c 6,app;main;p;a;d 4,app;main;p;r 3",
	        "app;main;y;f;b;c 10,app;main;x;h 5,app;main;y;k 4,app;main;p;b;c 6,"
	        "app;main;p;b;d 4,app;main;p;r 3");
	match_run(t, &all);
	assert_non_null(t->match);
	assert_int_equal(kind_at(t, "app;main;y;f"), MATCH_MOVED_IN);
	assert_int_equal(kind_at(t, "app;main;y;f;b"), MATCH_RENAMED);
	assert_true(base_of(t, "app;main;y;f;b;c") == 10);
	assert_int_equal(find(t, "app;main;y;f;a"), TREE_NONE);
	drop(t);
}

static void
test_wrapper_inlined_above_a_renamed_frame(void **state)
{
	(void)state;
	/*
	 * w, which called a alone, was inlined, and a renamed b (found under
	 * q): under p, the base's w;a;c is the head's b;c.
	 */
	struct tree *t = build("app;main;p;w;a;c 10,app;main;p;s 5,app;main;q;a;c 6,"
	                       "app;main;q;a;d 4,app;main;q;r 3",
	        "app;main;p;b;c 11,app;main;p;s 5,app;main;q;b;c 6,app;main;q;b;d 4,"
	        "app;main;q;r 3");
	match_run(t, &all);
	assert_non_null(t->match);
	assert_int_equal(kind_at(t, "app;main;q;b"), MATCH_RENAMED);
	assert_true(base_of(t, "app;main;p;b;c") == 10);
	assert_int_equal(find(t, "app;main;p;w"), TREE_NONE);
	drop(t);
}

static void
test_inlined_wrapper_whose_callee_was_renamed(void **state)
{
	(void)state;
	/*
	 * w was inlined (under q, where what it called kept its name), and
	 * under p what it called was renamed too: a became b. Nothing else
	 * says a is b, but w is gone, and a and b call the same.
	 */
	struct tree *t = build("app;main;p;w;a;c 10,app;main;p;w;a;d 4,app;main;p;s 5,"
	                       "app;main;q;w;x;e 8,app;main;q;w;y 3,app;main;q;z 2",
	        "app;main;p;b;c 11,app;main;p;b;d 4,app;main;p;s 5,app;main;q;x;e 8,"
	        "app;main;q;y 3,app;main;q;z 2");
	match_run(t, &all);
	assert_non_null(t->match);
	assert_int_equal(kind_at(t, "app;main;q;x"), MATCH_WRAPPER_REMOVED);
	assert_int_equal(kind_at(t, "app;main;p;b"), MATCH_RENAMED);
	assert_true(base_of(t, "app;main;p;b;c") == 10);
	assert_int_equal(find(t, "app;main;p;w"), TREE_NONE);
	drop(t);
}

static void
test_inlined_or_renamed_is_a_guess(void **state)
{
	(void)state;
	/*
	 * The base's p;w;a;c and the head's p;b;c: w inlined and a renamed b,
	 * or w renamed b and a inlined. Nothing says which (v, inlined under
	 * q, is another wrapper): they are left apart.
	 */
	struct tree *t = build("app;main;p;w;a;c 10,app;main;p;w;a;d 4,app;main;p;s 5,"
	                       "app;main;q;v;x;e 8,app;main;q;v;y 3,app;main;q;z 2",
	        "app;main;p;b;c 11,app;main;p;b;d 4,app;main;p;s 5,app;main;q;x;e 8,"
	        "app;main;q;y 3,app;main;q;z 2");
	match_run(t, &all);
	assert_non_null(t->match);
	assert_int_equal(kind_at(t, "app;main;q;x"), MATCH_WRAPPER_REMOVED);
	assert_int_equal(kind_at(t, "app;main;p;b"), MATCH_NONE);
	assert_true(base_of(t, "app;main;p;w;a;c") == 10);
	drop(t);
}

static void
test_wrappers_inlined_at_once(void **state)
{
	(void)state;
	/* w1 and w2 both inlined: the base's f is carried to the head's and compared. */
	struct tree *t = build("app;main;p;w1;w2;f;g 10,app;main;p;w1;w2;f;h 3,app;main;p;q 5",
	        "app;main;p;f;g 11,app;main;p;f;h 3,app;main;p;q 5");
	match_run(t, &all);
	assert_non_null(t->match);
	assert_int_equal(kind_at(t, "app;main;p;f"), MATCH_WRAPPER_REMOVED);
	assert_true(base_of(t, "app;main;p;f;g") == 10);
	assert_int_equal(find(t, "app;main;p;w1"), TREE_NONE);
	drop(t);
}

static void
test_wrappers_still_calling_are_kept(void **state)
{
	(void)state;
	/* w1 still calls z in the head: f moved up two levels (a move), no wrappers went. */
	struct tree *t = build("app;main;p;w1;w2;f;g 10,app;main;p;w1;z 5,app;main;p;q 5",
	        "app;main;p;f;g 11,app;main;p;w1;z 5,app;main;p;q 5");
	match_run(t, &all);
	assert_int_not_equal(kind_at(t, "app;main;p;f"), MATCH_WRAPPER_REMOVED);
	assert_true(base_of(t, "app;main;p;w1;z") == 5);
	drop(t);
}

static void
test_move_with_a_residue_carries_the_base_part(void **state)
{
	(void)state;
	/*
	 * f moved from x to y, but the head still has a little of f under x
	 * (k, 1 sample): the base's part of f is carried to y, the residue
	 * and what the head has not under y (k) stay under x.
	 */
	struct tree *t = build("app;main;x;f;g 20,app;main;x;f;k 2,app;main;x;h 5,app;main;y;m 4",
	        "app;main;y;f;g 21,app;main;x;f;k 1,app;main;x;h 5,app;main;y;m 4");
	match_run(t, &all);
	assert_non_null(t->match);
	assert_int_equal(kind_at(t, "app;main;y;f"), MATCH_MOVED_IN);
	assert_int_equal(kind_at(t, "app;main;x;f"), MATCH_MOVED_OUT);
	assert_true(base_of(t, "app;main;y;f;g") == 20);
	assert_true(base_of(t, "app;main;y;f") == 20);
	assert_true(base_of(t, "app;main;x;f") == 2);
	assert_true(base_of(t, "app;main;x") == 7);
	assert_true(base_of(t, "app;main") == 31);
	drop(t);
}

static void
test_partial_move_carries_the_base_part(void **state)
{
	(void)state;
	/*
	 * f moved from x to y, but a call site stayed: the head keeps 5 of
	 * f's 20 under x (a quarter, more than a move's residue), all in g,
	 * which f called there. What left x (15) is what arrived under y:
	 * a partial move; the base's part of f is carried to y.
	 */
	struct tree *t = build("app;main;x;f;g 14,app;main;x;f;k 6,app;main;x;h 5,app;main;y;m 4",
	        "app;main;x;f;g 5,app;main;y;f;g 9,app;main;y;f;k 6,app;main;x;h 5,app;main;y;m 4");
	match_run(t, &all);
	assert_non_null(t->match);
	assert_int_equal(kind_at(t, "app;main;y;f"), MATCH_MOVED_IN);
	assert_int_equal(kind_at(t, "app;main;x;f"), MATCH_MOVED_OUT);
	assert_true(base_of(t, "app;main;y;f") == 20);
	assert_true(base_of(t, "app;main;y;f;k") == 6);
	assert_true(base_of(t, "app;main;x;f") == 0);
	assert_true(head_of(t, "app;main;x;f;g") == 5);
	drop(t);
}

static void
test_partial_move_needs_what_left_to_arrive(void **state)
{
	(void)state;
	/* 15 left x, 42 arrived under y: more than 1.5 times; no partial move. */
	struct tree *t = build("app;main;x;f;g 14,app;main;x;f;k 6,app;main;x;h 5,app;main;y;m 4",
	        "app;main;x;f;g 5,app;main;y;f;g 30,app;main;y;f;k 12,app;main;x;h 5,app;main;y;m "
	        "4");
	match_run(t, &all);
	assert_int_equal(kind_at(t, "app;main;y;f"), MATCH_NONE);
	assert_true(base_of(t, "app;main;x;f") == 20);
	drop(t);
}

static void
test_partial_move_with_other_work_left_is_no_move(void **state)
{
	(void)state;
	/*
	 * What f runs under x in the head (z) it never ran there: the old
	 * place changed, and base less head there is no part that left.
	 */
	struct tree *t = build("app;main;x;f;g 14,app;main;x;f;k 6,app;main;x;h 5,app;main;y;m 4",
	        "app;main;x;f;z 5,app;main;y;f;g 9,app;main;y;f;k 6,app;main;x;h 5,app;main;y;m 4");
	match_run(t, &all);
	assert_int_equal(kind_at(t, "app;main;y;f"), MATCH_NONE);
	assert_true(base_of(t, "app;main;x;f") == 20);
	drop(t);
}

static void
test_partial_move_of_a_leaf_is_no_move(void **state)
{
	(void)state;
	/* Leaves have only their sizes: 15 of f left x, 15 arrived under y; too little to tell. */
	struct tree *t = build("app;main;x;f 20,app;main;x;h 5,app;main;y;m 4",
	        "app;main;x;f 5,app;main;y;f 15,app;main;x;h 5,app;main;y;m 4");
	match_run(t, &all);
	assert_int_equal(kind_at(t, "app;main;y;f"), MATCH_NONE);
	assert_true(base_of(t, "app;main;x;f") == 20);
	drop(t);
}

static void
test_wrapper_above_a_residue_carries_the_base_part(void **state)
{
	(void)state;
	/*
	 * w inserted above c, but the head still runs a little of c straight
	 * under p (z, 1 sample): c's base part goes under w, compared there;
	 * the residue stays under p.
	 */
	struct tree *t = build("app;main;p;c;g 20,app;main;p;c;k 5,app;main;p;q 5",
	        "app;main;p;w;c;g 20,app;main;p;w;c;k 5,app;main;p;c;z 1,app;main;p;q 5");
	match_run(t, &all);
	assert_non_null(t->match);
	assert_int_equal(kind_at(t, "app;main;p;w"), MATCH_WRAPPER_ADDED);
	assert_true(base_of(t, "app;main;p;w;c;g") == 20);
	assert_true(base_of(t, "app;main;p;w;c") == 25);
	assert_true(base_of(t, "app;main;p;c") == 0);
	assert_true(head_of(t, "app;main;p;c;z") == 1);
	drop(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_rust_hash_is_one_function),
	        cmocka_unit_test(test_off_changes_nothing),
	        cmocka_unit_test(test_inserted_wrapper),
	        cmocka_unit_test(test_removed_wrapper),
	        cmocka_unit_test(test_one_more_recursion_is_no_wrapper),
	        cmocka_unit_test(test_rename_by_subtree),
	        cmocka_unit_test(test_unrelated_leaves_stay_apart),
	        cmocka_unit_test(test_move),
	        cmocka_unit_test(test_move_scattered_is_kept_marked),
	        cmocka_unit_test(test_move_below_a_removed_caller),
	        cmocka_unit_test(test_move_gathered_from_several_paths),
	        cmocka_unit_test(test_move_through_an_inlined_callee),
	        cmocka_unit_test(test_move_calling_a_renamed_callee),
	        cmocka_unit_test(test_move_under_a_renamed_caller_path),
	        cmocka_unit_test(test_renamed_caller_is_no_move),
	        cmocka_unit_test(test_stacked_wrappers_are_no_move),
	        cmocka_unit_test(test_move_under_a_new_caller_is_no_move),
	        cmocka_unit_test(test_crowded_parent_is_left_alone),
	        cmocka_unit_test(test_rename_inside_a_carried_wrapper),
	        cmocka_unit_test(test_rename_inside_a_carried_move),
	        cmocka_unit_test(test_wrapper_inlined_above_a_renamed_frame),
	        cmocka_unit_test(test_inlined_wrapper_whose_callee_was_renamed),
	        cmocka_unit_test(test_inlined_or_renamed_is_a_guess),
	        cmocka_unit_test(test_wrappers_inlined_at_once),
	        cmocka_unit_test(test_wrappers_still_calling_are_kept),
	        cmocka_unit_test(test_move_with_a_residue_carries_the_base_part),
	        cmocka_unit_test(test_partial_move_carries_the_base_part),
	        cmocka_unit_test(test_partial_move_needs_what_left_to_arrive),
	        cmocka_unit_test(test_partial_move_with_other_work_left_is_no_move),
	        cmocka_unit_test(test_partial_move_of_a_leaf_is_no_move),
	        cmocka_unit_test(test_wrapper_above_a_residue_carries_the_base_part),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
