/* tree: merging, order independence, model options, statuses, order. */
#include "tree.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"

static const struct tree_options defaults = {.min_delta = 0.001};

static struct count
cnt(uint64_t units)
{
	return (struct count){units, 0};
}

static void
add(struct tree *t, enum side side, const char *stack, uint64_t units)
{
	const char *reason = NULL;
	if (!tree_add_stack(t, side, stack, strlen(stack), cnt(units), &reason)) {
		fail_msg("add '%s' failed: %s", stack, reason);
	}
}

/* The node at a ';'-separated path from the root, or TREE_NONE. */
static uint32_t
find(const struct tree *t, const char *path, size_t len)
{
	uint32_t id = TREE_ROOT;
	size_t start = 0;
	while (start <= len) {
		const char *semi = memchr(path + start, ';', len - start);
		size_t end = semi ? (size_t)(semi - path) : len;
		uint32_t c = tree_node(t, id)->first_child;
		for (; c != TREE_NONE; c = tree_node(t, c)->next_sibling) {
			size_t nlen;
			const char *name = tree_node_name(t, tree_node(t, c), &nlen);
			if (nlen == end - start && memcmp(name, path + start, nlen) == 0) {
				break;
			}
		}
		if (c == TREE_NONE) {
			return TREE_NONE;
		}
		id = c;
		start = end + 1;
	}
	return id;
}

static const struct tree_node *
node_at(const struct tree *t, const char *path)
{
	uint32_t id = find(t, path, strlen(path));
	if (id == TREE_NONE) {
		fail_msg("no node '%s'", path);
	}
	return tree_node(t, id);
}

static void
check_dump(const struct tree *t, const char *want)
{
	char *got = dump_tree(t);
	assert_string_equal(got, want);
	free(got);
}

static void
test_merge_single(void **state)
{
	(void)state;
	struct tree *t = tree_create(&defaults);
	add(t, SIDE_HEAD, "main;a;b", 3);
	add(t, SIDE_HEAD, "main;a", 2);
	add(t, SIDE_HEAD, "main;c", 5);
	add(t, SIDE_HEAD, "main;a;b", 4); /* identical stacks add up */
	assert_int_equal(t->node_count, 5); /* counted while building too */
	assert_non_null(t->build);
	tree_finish(t, false);
	assert_null(t->build); /* a finished tree keeps no build state */
	assert_false(t->differential);
	check_dump(t, "main;a 2\nmain;a;b 7\nmain;c 5\n");
	const struct tree_node *a = node_at(t, "main;a");
	assert_int_equal(a->total_units[SIDE_HEAD], 9);
	assert_int_equal(a->self_units[SIDE_HEAD], 2);
	assert_int_equal(node_at(t, "main")->total_units[SIDE_HEAD], 14);
	assert_int_equal(node_at(t, "main")->self_units[SIDE_HEAD], 0);
	assert_int_equal(tree_node(t, TREE_ROOT)->total_units[SIDE_HEAD], 14);
	assert_int_equal(tree_node(t, TREE_ROOT)->total_units[SIDE_BASE], 0);
	assert_int_equal(t->max_depth, 3);
	assert_int_equal(node_at(t, "main;a;b")->depth, 3);
	size_t len;
	const char *root = tree_node_name(t, tree_node(t, TREE_ROOT), &len);
	assert_int_equal(len, 3);
	assert_memory_equal(root, "all", 3);
	/* One profile: everything is "same". */
	assert_int_equal(node_at(t, "main;c")->status, STATUS_SAME);
	tree_destroy(t);
	tree_destroy(NULL);
}

static void
test_merge_two_sides(void **state)
{
	(void)state;
	struct tree *t = tree_create(&defaults);
	add(t, SIDE_BASE, "m;x", 10);
	add(t, SIDE_BASE, "m;y", 5);
	add(t, SIDE_HEAD, "m;x", 12);
	add(t, SIDE_HEAD, "m;z", 1);
	tree_finish(t, true);
	assert_true(t->differential);
	check_dump(t, "m;x 10 12\nm;y 5 0\nm;z 0 1\n");
	assert_true(tree_total(t, SIDE_BASE) == 15);
	assert_true(tree_total(t, SIDE_HEAD) == 13);
	tree_destroy(t);
}

/* Sorted, shuffled and split inputs give byte-identical dumps. */
static void
test_order_independence(void **state)
{
	(void)state;
	const char *lines[] = {"a;b;c 1\n", "a;b 2\n", "a;b;c 3\n", "a;d 4\n", "e 5\n",
	        "a;b;c;d;e 6\n", "a;bb;c 7\n", "a 8\n", "a;b;x;y 9\n", "e;f 10\n"};
	size_t n = sizeof(lines) / sizeof(lines[0]);
	char *dumps[4];
	for (int variant = 0; variant < 4; variant++) {
		struct tree *t = tree_create(&defaults);
		struct buf in;
		buf_init(&in);
		for (size_t k = 0; k < n; k++) {
			size_t i = variant == 0 ? k : variant == 1 ? n - 1 - k : (k * 3 + 1) % n;
			buf_adds(&in, lines[i]);
		}
		struct folded_stats st;
		struct diag err;
		if (variant == 3) {
			/* Split at every line: each piece is its own "file". */
			for (size_t i = 0; i < n; i++) {
				assert_true(fold_mem(t, "part", lines[i], strlen(lines[i]),
				        FOLDED_HEAD, false, &st, &err));
			}
		} else {
			assert_true(
			        fold_mem(t, "all", in.data, in.len, FOLDED_HEAD, false, &st, &err));
		}
		buf_finish(&in);
		tree_finish(t, false);
		dumps[variant] = dump_tree(t);
		tree_destroy(t);
	}
	for (int v = 1; v < 4; v++) {
		assert_string_equal(dumps[0], dumps[v]);
	}
	assert_string_equal(dumps[0], "a 8\na;b 2\na;b;c 4\na;b;c;d;e 6\na;b;x;y 9\na;bb;c 7\n"
	                              "a;d 4\ne 5\ne;f 10\n");
	for (int v = 0; v < 4; v++) {
		free(dumps[v]);
	}
}

/* The prefix reuse between consecutive stacks must not fuse frames. */
static void
test_no_split_frame(void **state)
{
	(void)state;
	struct tree *t = tree_create(&defaults);
	add(t, SIDE_HEAD, "a;b", 1);
	add(t, SIDE_HEAD, "a;b.x", 2);
	add(t, SIDE_HEAD, "a;b;c", 3);
	add(t, SIDE_HEAD, "a;bc", 4);
	add(t, SIDE_HEAD, "a;b", 5);
	add(t, SIDE_HEAD, "a", 6);
	add(t, SIDE_HEAD, "ab", 7);
	add(t, SIDE_HEAD, "a;b;c", 8);
	tree_finish(t, false);
	check_dump(t, "a 6\na;b 6\na;b;c 11\na;b.x 2\na;bc 4\nab 7\n");
	const struct tree_node *b = node_at(t, "a;b");
	assert_int_equal(b->total_units[SIDE_HEAD], 17);
	assert_int_equal(b->self_units[SIDE_HEAD], 6);
	assert_int_equal(node_at(t, "a;b.x")->parent, b->parent);
	assert_int_equal(tree_node(t, b->first_child)->next_sibling, TREE_NONE);
	tree_destroy(t);
}

static void
test_children_byte_order(void **state)
{
	(void)state;
	struct tree *t = tree_create(&defaults);
	const char *names[] = {"r;zeta", "r;Alpha", "r;alpha", "r;\xc3\xa9t\xc3\xa9", "r;_x",
	        "r;alpha2", "r;a", "r;0"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		add(t, SIDE_HEAD, names[i], 1);
	}
	tree_finish(t, false);
	const char *want[] = {
	        "0", "Alpha", "_x", "a", "alpha", "alpha2", "zeta", "\xc3\xa9t\xc3\xa9"};
	uint32_t c = node_at(t, "r")->first_child;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_int_not_equal(c, TREE_NONE);
		size_t len;
		const char *name = tree_node_name(t, tree_node(t, c), &len);
		assert_int_equal(len, strlen(want[i]));
		assert_memory_equal(name, want[i], len);
		c = tree_node(t, c)->next_sibling;
	}
	assert_int_equal(c, TREE_NONE);
	tree_destroy(t);
}

static void
test_reverse(void **state)
{
	(void)state;
	struct tree_options opt = defaults;
	opt.reverse = true;
	struct tree *t = tree_create(&opt);
	add(t, SIDE_HEAD, "main;parse;malloc", 3);
	add(t, SIDE_HEAD, "main;render;malloc", 2);
	add(t, SIDE_HEAD, "main;parse", 1);
	add(t, SIDE_HEAD, "malloc", 4);
	tree_finish(t, false);
	check_dump(t, "malloc 4\nmalloc;parse;main 3\nmalloc;render;main 2\nparse;main 1\n");
	assert_int_equal(node_at(t, "malloc")->total_units[SIDE_HEAD], 9);
	tree_destroy(t);
}

static void
test_strip_hex(void **state)
{
	(void)state;
	struct tree_options opt = defaults;
	opt.strip_hex = true;
	struct tree *t = tree_create(&opt);
	add(t, SIDE_HEAD, "main;[unknown] 0x7f3a2b1c;fn+0xAB", 1);
	add(t, SIDE_HEAD, "main;[unknown] 0x1234;fn+0x9", 2);
	add(t, SIDE_HEAD, "main;0x;x0xg;0xz", 4);
	add(t, SIDE_HEAD, "main;a0x1fg", 8);
	tree_finish(t, false);
	check_dump(t, "main;0x;x0xg;0xz 4\nmain;[unknown] 0x...;fn+0x... 3\nmain;a0x...g 8\n");
	tree_destroy(t);
	/* Without the option nothing merges. */
	t = tree_create(&defaults);
	add(t, SIDE_HEAD, "f 0x1", 1);
	add(t, SIDE_HEAD, "f 0x2", 1);
	tree_finish(t, false);
	check_dump(t, "f 0x1 1\nf 0x2 1\n");
	tree_destroy(t);
}

static void
test_normalize(void **state)
{
	(void)state;
	struct tree_options opt = defaults;
	opt.normalize = true;
	struct tree *t = tree_create(&opt);
	add(t, SIDE_BASE, "m;a", 50);
	add(t, SIDE_BASE, "m;b", 150);
	add(t, SIDE_HEAD, "m;a", 100);
	add(t, SIDE_HEAD, "m;b", 300);
	tree_finish(t, true);
	assert_true(t->normalized);
	assert_true(t->base_scale == 2.0);
	assert_true(tree_total(t, SIDE_BASE) == 400.0);
	assert_true(tree_value(t, node_at(t, "m;a"), SIDE_BASE, true) == 100.0);
	/* Same shares: nothing changed. */
	assert_int_equal(node_at(t, "m;a")->status, STATUS_SAME);
	assert_int_equal(node_at(t, "m;b")->status, STATUS_SAME);
	/* Raw counts stay exact. */
	assert_int_equal(node_at(t, "m;a")->self_units[SIDE_BASE], 50);
	tree_destroy(t);

	/* Without --normalize the doubled head is slower everywhere. */
	t = tree_create(&defaults);
	add(t, SIDE_BASE, "m;a", 50);
	add(t, SIDE_HEAD, "m;a", 100);
	tree_finish(t, true);
	assert_false(t->normalized);
	assert_true(t->base_scale == 1.0);
	assert_int_equal(node_at(t, "m;a")->status, STATUS_SLOWER);
	tree_destroy(t);

	/* One profile: normalising has nothing to compare. */
	t = tree_create(&opt);
	add(t, SIDE_HEAD, "m", 5);
	tree_finish(t, false);
	assert_false(t->normalized);
	tree_destroy(t);
}

static void
test_statuses(void **state)
{
	(void)state;
	struct tree_options opt = defaults;
	opt.min_delta = 0.01; /* 1% of the larger total (1000): a floor of 10 */
	struct tree *t = tree_create(&opt);
	add(t, SIDE_BASE, "m;slow", 100);
	add(t, SIDE_HEAD, "m;slow", 111);
	add(t, SIDE_BASE, "m;fast", 200);
	add(t, SIDE_HEAD, "m;fast", 189);
	add(t, SIDE_BASE, "m;noise_up", 300);
	add(t, SIDE_HEAD, "m;noise_up", 310); /* exactly the floor: same */
	add(t, SIDE_BASE, "m;noise_down", 300);
	add(t, SIDE_HEAD, "m;noise_down", 290);
	add(t, SIDE_BASE, "m;gone", 100);
	add(t, SIDE_HEAD, "m;fresh", 1);
	add(t, SIDE_HEAD, "m;pad", 99);
	tree_finish(t, true);
	assert_true(tree_total(t, SIDE_BASE) == 1000);
	assert_true(tree_total(t, SIDE_HEAD) == 1000);
	assert_int_equal(node_at(t, "m;slow")->status, STATUS_SLOWER);
	assert_int_equal(node_at(t, "m;fast")->status, STATUS_FASTER);
	assert_int_equal(node_at(t, "m;noise_up")->status, STATUS_SAME);
	assert_int_equal(node_at(t, "m;noise_down")->status, STATUS_SAME);
	assert_int_equal(node_at(t, "m;gone")->status, STATUS_REMOVED);
	assert_int_equal(node_at(t, "m;fresh")->status, STATUS_NEW);
	assert_int_equal(node_at(t, "m;pad")->status, STATUS_NEW);
	/* m has no self samples: its self delta is 0. */
	assert_int_equal(node_at(t, "m")->status, STATUS_SAME);
	/* Any change by the same rule: the total's of m;slow is its self's. */
	const struct tree_node *slow = node_at(t, "m;slow");
	assert_int_equal(tree_classify_change(t, slow,
	                         tree_value(t, slow, SIDE_HEAD, false) -
	                                 tree_value(t, slow, SIDE_BASE, false)),
	        STATUS_SLOWER);
	assert_string_equal(tree_status_name(STATUS_SLOWER), "slower");
	assert_string_equal(tree_status_name(STATUS_FASTER), "faster");
	assert_string_equal(tree_status_name(STATUS_NEW), "new");
	assert_string_equal(tree_status_name(STATUS_REMOVED), "removed");
	assert_string_equal(tree_status_name(STATUS_SAME), "same");
	tree_destroy(t);

	/* Zero on both sides is neither new nor removed. */
	t = tree_create(&defaults);
	add(t, SIDE_BASE, "m;zero", 0);
	add(t, SIDE_HEAD, "m;zero", 0);
	add(t, SIDE_BASE, "m;x", 1);
	add(t, SIDE_HEAD, "m;x", 1);
	tree_finish(t, true);
	assert_int_equal(node_at(t, "m;zero")->status, STATUS_SAME);
	tree_destroy(t);
	t = tree_create(&defaults);
	add(t, SIDE_BASE, "z", 0);
	add(t, SIDE_HEAD, "z", 0);
	tree_finish(t, true);
	assert_int_equal(node_at(t, "z")->status, STATUS_SAME);
	assert_int_equal(tree_node(t, TREE_ROOT)->status, STATUS_SAME);
	tree_destroy(t);

	/* With a zero floor any change counts. */
	opt.min_delta = 0;
	t = tree_create(&opt);
	add(t, SIDE_BASE, "m;a", 1000000);
	add(t, SIDE_HEAD, "m;a", 1000001);
	tree_finish(t, true);
	assert_int_equal(node_at(t, "m;a")->status, STATUS_SLOWER);
	tree_destroy(t);
}

static void
test_fractional(void **state)
{
	(void)state;
	struct tree *t = tree_from("a;b 0.1\na;b 0.2\na;c 1.7\n", FOLDED_HEAD, NULL);
	tree_finish(t, false);
	check_dump(t, "a;b 0.3\na;c 1.7\n");
	assert_int_equal(tree_node(t, TREE_ROOT)->total_units[SIDE_HEAD], 2);
	assert_int_equal(tree_node_total(t, tree_node(t, TREE_ROOT), SIDE_HEAD).nanos, 0);
	tree_destroy(t);
}

/*
 * Whole counts before and after the first fraction of a side, on nodes made
 * before it and after (whose room the build grows), with fractions that
 * carry into the units: every count stays exact.
 */
static void
test_fractional_mixed(void **state)
{
	(void)state;
	struct tree *t = tree_create(&defaults);
	const char *reason = NULL;
	char stack[32];
	for (unsigned i = 0; i < 3000; i++) {
		snprintf(stack, sizeof(stack), "m;n%u", i);
		add(t, SIDE_BASE, stack, i);
		add(t, SIDE_HEAD, stack, 1);
	}
	assert_true(tree_add_stack(t, SIDE_BASE, "m;n5", 4, (struct count){2, 600000000}, &reason));
	assert_true(tree_add_stack(t, SIDE_BASE, "m;n5", 4, (struct count){0, 700000000}, &reason));
	add(t, SIDE_BASE, "m;n5", 1);
	for (unsigned i = 3000; i < 6000; i++) {
		snprintf(stack, sizeof(stack), "m;n%u", i);
		struct count c = {i, i % 2 ? 999999999u : 0};
		assert_true(tree_add_stack(t, SIDE_BASE, stack, strlen(stack), c, &reason));
		assert_true(tree_add_stack(t, SIDE_BASE, stack, strlen(stack), c, &reason));
		add(t, SIDE_HEAD, stack, 2);
	}
	tree_finish(t, true);
	struct count self = tree_node_self(t, node_at(t, "m;n5"), SIDE_BASE);
	assert_true(self.units == 9 && self.nanos == 300000000);
	self = tree_node_self(t, node_at(t, "m;n4"), SIDE_BASE);
	assert_true(self.units == 4 && self.nanos == 0);
	self = tree_node_self(t, node_at(t, "m;n4001"), SIDE_BASE);
	assert_true(self.units == 8003 && self.nanos == 999999998);
	self = tree_node_self(t, node_at(t, "m;n4000"), SIDE_BASE);
	assert_true(self.units == 8000 && self.nanos == 0);
	self = tree_node_self(t, node_at(t, "m;n4001"), SIDE_HEAD);
	assert_true(self.units == 2 && self.nanos == 0);
	/* 0..2999, 3000..5999 twice, 4.3 more on n5 and 3000 x 0.999999999. */
	struct count total = tree_node_total(t, tree_node(t, TREE_ROOT), SIDE_BASE);
	assert_true(total.units == 2999u * 3000 / 2 + (3000u + 5999) * 3000 + 4 + 2999 + 1 &&
	            total.nanos == 299997000);
	tree_destroy(t);
}

static void
test_sum_overflow(void **state)
{
	(void)state;
	struct tree *t = tree_create(&defaults);
	const char *reason = NULL;
	assert_true(tree_add_stack(t, SIDE_BASE, "a", 1, cnt(UINT64_MAX - 1), &reason));
	assert_true(tree_add_stack(t, SIDE_BASE, "b", 1, cnt(1), &reason));
	assert_false(tree_add_stack(t, SIDE_BASE, "c;d", 3, cnt(1), &reason));
	assert_string_equal(reason, "sum of base counts exceeds 2^64-1");
	/* The other side has its own total. */
	assert_true(tree_add_stack(t, SIDE_HEAD, "a", 1, cnt(UINT64_MAX), &reason));
	assert_false(tree_add_stack(t, SIDE_HEAD, "a", 1, cnt(1), &reason));
	assert_string_equal(reason, "sum of head counts exceeds 2^64-1");
	tree_finish(t, true);
	/* Nothing of the rejected stacks was added. */
	assert_int_equal(find(t, "c", 1), TREE_NONE);
	assert_true(tree_node(t, TREE_ROOT)->total_units[SIDE_BASE] == UINT64_MAX);
	check_dump(t, "a 18446744073709551614 18446744073709551615\nb 1 0\n");
	tree_destroy(t);
}

static void
test_annotations(void **state)
{
	(void)state;
	struct tree *t = tree_create(&defaults);
	add(t, SIDE_HEAD, "java_[j];do_sys_open_[k];inl_[i];wake_[w];plain", 1);
	add(t, SIDE_HEAD, "java", 1);
	tree_finish(t, false);
	struct {
		const char *path;
		enum annotation a;
	} cases[] = {
	        {"java_[j]", ANNOTATION_JIT},
	        {"java_[j];do_sys_open_[k]", ANNOTATION_KERNEL},
	        {"java_[j];do_sys_open_[k];inl_[i]", ANNOTATION_INLINED},
	        {"java_[j];do_sys_open_[k];inl_[i];wake_[w]", ANNOTATION_WAKER},
	        {"java_[j];do_sys_open_[k];inl_[i];wake_[w];plain", ANNOTATION_NONE},
	        {"java", ANNOTATION_NONE},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct tree_node *n = node_at(t, cases[i].path);
		assert_int_equal(intern_annotation(t->names, n->name), cases[i].a);
	}
	/* "java" and "java_[j]" stay distinct frames. */
	assert_int_not_equal(node_at(t, "java")->name, node_at(t, "java_[j]")->name);
	tree_destroy(t);
}

static void
test_arbitrary_bytes(void **state)
{
	(void)state;
	static const char stack[] = "m a i n;<a href=\"x\">&'\x01\x7f\xff\xfe\t;nul\0byte;\xc3(";
	size_t len = sizeof(stack) - 1;
	struct tree *t = tree_create(&defaults);
	const char *reason;
	assert_true(tree_add_stack(t, SIDE_HEAD, stack, len, cnt(3), &reason));
	assert_true(tree_add_stack(t, SIDE_HEAD, "m a i n;nul", 11, cnt(1), &reason));
	tree_finish(t, false);
	uint32_t leaf = find(t, stack, len);
	assert_int_not_equal(leaf, TREE_NONE);
	assert_int_equal(tree_node(t, leaf)->total_units[SIDE_HEAD], 3);
	assert_int_equal(tree_node(t, leaf)->depth, 4);
	size_t nlen;
	const char *name = tree_node_name(t, tree_node(t, tree_node(t, leaf)->parent), &nlen);
	assert_int_equal(nlen, 8);
	assert_memory_equal(name, "nul\0byte", 8);
	/* The dump carries every byte unchanged. */
	struct out o;
	out_init_memory(&o);
	export_folded(&o, t);
	/* '<' sorts before 'n': the long stack comes first. */
	assert_int_equal(o.b.len, len + 3 + 14);
	assert_memory_equal(o.b.data, stack, len);
	assert_memory_equal(o.b.data + len, " 3\n", 3);
	assert_memory_equal(o.b.data + len + 3, "m a i n;nul 1\n", 14);
	buf_finish(&o.b);
	tree_destroy(t);
}

static void
test_preorder(void **state)
{
	(void)state;
	struct tree *t = tree_create(&defaults);
	add(t, SIDE_HEAD, "a;b;c", 1);
	add(t, SIDE_HEAD, "a;d", 1);
	add(t, SIDE_HEAD, "e", 1);
	tree_finish(t, false);
	const char *order[] = {"all", "a", "b", "c", "d", "e"};
	uint32_t id = TREE_ROOT;
	for (size_t i = 0; i < 6; i++) {
		size_t len;
		const char *name = tree_node_name(t, tree_node(t, id), &len);
		assert_int_equal(len, strlen(order[i]));
		assert_memory_equal(name, order[i], len);
		id = tree_next_preorder(t, id, TREE_ROOT);
	}
	assert_int_equal(id, TREE_NONE);
	/* Within a subtree the walk stops at its end. */
	uint32_t a = find(t, "a", 1);
	id = tree_next_preorder(t, a, a);
	int n = 0;
	for (; id != TREE_NONE; id = tree_next_preorder(t, id, a)) {
		n++;
	}
	assert_int_equal(n, 3);
	tree_destroy(t);
}

/* Adds a stack that must be refused for the frame limit. */
static void
add_refused(struct tree *t, const char *stack)
{
	const char *reason = NULL;
	assert_false(tree_add_stack(t, SIDE_HEAD, stack, strlen(stack), cnt(1), &reason));
	assert_non_null(reason);
	assert_non_null(strstr(reason, "more than 3 frames"));
}

static void
test_max_nodes(void **state)
{
	(void)state;
	/* Forward, leaf first (--reverse) and through --strip-hex: the limit
	 * holds on every walk, and stacks within it still add up. */
	const struct tree_options variants[] = {
	        {.min_delta = 0.001, .max_nodes = 3},
	        {.min_delta = 0.001, .max_nodes = 3, .reverse = true},
	        {.min_delta = 0.001, .max_nodes = 3, .strip_hex = true},
	};
	for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++) {
		struct tree *t = tree_create(&variants[v]);
		add(t, SIDE_HEAD, "a;b;c", 1);
		add(t, SIDE_BASE, "a;b;c", 2); /* no new frame */
		add_refused(t, "a;d");
		tree_destroy(t);
	}
	/* Exactly at the limit is fine. */
	struct tree *t = tree_create(&variants[0]);
	add(t, SIDE_HEAD, "a;b", 1);
	add(t, SIDE_HEAD, "c", 1);
	add_refused(t, "d");
	tree_destroy(t);
}

/* A stack of ';'-separated frames added through cursors; its leaf. */
static uint32_t
add_by_cursor(struct tree *t, enum side side, const char *stack, uint64_t units)
{
	const char *reason = NULL;
	struct tree_cursor c = tree_cursor_root();
	for (const char *f = stack;;) {
		const char *semi = strchr(f, ';');
		size_t len = semi ? (size_t)(semi - f) : strlen(f);
		if (!tree_cursor_child(t, &c, f, len, &c, &reason)) {
			fail_msg("frame of '%s' refused: %s", stack, reason);
		}
		if (!semi) {
			break;
		}
		f = semi + 1;
	}
	if (units && !tree_add_count(t, side, c.node, cnt(units), &reason)) {
		fail_msg("count of '%s' refused: %s", stack, reason);
	}
	return c.node;
}

static void
test_cursor(void **state)
{
	(void)state;
	/* Stacks by cursor, mixed with whole ones, make the tree tree_add_stack
	 * makes, node ids included; with --strip-hex too. */
	static const char *stacks[] = {"a;b", "a;c;0x1f", "d", "a;b;e", "a", "d;;f"};
	const struct tree_options variants[] = {
	        {.min_delta = 0.001},
	        {.min_delta = 0.001, .strip_hex = true},
	};
	for (size_t v = 0; v < 2; v++) {
		struct tree *whole = tree_create(&variants[v]);
		struct tree *cursor = tree_create(&variants[v]);
		uint32_t ab = TREE_NONE;
		for (size_t i = 0; i < sizeof(stacks) / sizeof(stacks[0]); i++) {
			add(whole, i % 2 ? SIDE_BASE : SIDE_HEAD, stacks[i], i + 1);
			if (i == 3) {
				add(cursor, SIDE_BASE, stacks[i], i + 1);
			} else {
				uint32_t leaf = add_by_cursor(
				        cursor, i % 2 ? SIDE_BASE : SIDE_HEAD, stacks[i], i + 1);
				ab = i == 0 ? leaf : ab;
			}
		}
		/* A path already there is found, not made again. */
		assert_int_equal(add_by_cursor(cursor, SIDE_HEAD, "a;b", 0), ab);
		tree_finish(whole, true);
		tree_finish(cursor, true);
		assert_int_equal(cursor->node_count, whole->node_count);
		for (uint32_t id = 0; id < whole->node_count; id++) {
			size_t la, lb;
			const char *a = tree_node_name(whole, tree_node(whole, id), &la);
			const char *b = tree_node_name(cursor, tree_node(cursor, id), &lb);
			assert_memory_equal(a, b, la);
			assert_int_equal(la, lb);
		}
		char *da = dump_tree(whole), *db = dump_tree(cursor);
		assert_string_equal(da, db);
		free(da);
		free(db);
		tree_destroy(whole);
		tree_destroy(cursor);
	}
	/* The frame limit and the side's total hold. */
	struct tree_options limited = {.min_delta = 0.001, .max_nodes = 2};
	struct tree *t = tree_create(&limited);
	add_by_cursor(t, SIDE_HEAD, "a;b", UINT64_MAX);
	const char *reason = NULL;
	struct tree_cursor c = tree_cursor_root();
	assert_false(tree_add_count(t, SIDE_HEAD, c.node, cnt(1), &reason));
	assert_non_null(strstr(reason, "exceeds 2^64-1"));
	assert_false(tree_cursor_child(t, &c, "x", 1, &c, &reason));
	assert_non_null(strstr(reason, "more than 2 frames"));
	tree_destroy(t);
}

/*
 * Adds a stack as the folded reader's pipeline does: the frames shared
 * with the previous stack (prev, by bytes) not hashed again.
 */
static bool
add_hashed(struct tree *t, enum side side, const char *stack, const char *prev, uint64_t units,
        const char **reason)
{
	size_t len = strlen(stack), pos = 0, shared = 0;
	struct tree_frame fr[16], all[16];
	size_t all_n =
	        prev ? tree_hash_frames(prev, strlen(prev), 0, tree_cursor_root().path, all, 16)
	             : 0;
	while (shared < all_n) {
		size_t end = pos + all[shared].len;
		if (end > len || (end < len && stack[end] != ';') ||
		        memcmp(stack + pos, prev + pos, all[shared].len) != 0) {
			break;
		}
		pos = end + 1;
		shared++;
	}
	uint64_t path = shared ? all[shared - 1].path : tree_cursor_root().path;
	size_t n = tree_hash_frames(stack, len, pos, path, fr, 16);
	assert_int_not_equal(n, SIZE_MAX);
	uint32_t hint[16];
	for (int stage = 0; stage < 3; stage++) {
		tree_hashed_ahead(t, fr, n, hint, stage);
	}
	/* A stale hint, as lookups started ahead can give, is only checked. */
	if (n && !hint[0] && t->node_count > 1) {
		hint[0] = 1;
	}
	return tree_add_hashed(t, side, stack, cnt(units), shared, fr, hint, n, reason);
}

static void
test_hashed(void **state)
{
	(void)state;
	/* Hashed stacks, mixed with whole ones, make the tree tree_add_stack
	 * makes, node ids included. */
	static const char *stacks[] = {
	        "a;b", "a;c;0x1f", "a;c;0x1f", "a;c", "d", "a;b;e", "a;bc", "", "d;;f", "d;;f;g"};
	const size_t count = sizeof(stacks) / sizeof(stacks[0]);
	struct tree *whole = tree_create(&defaults), *hashed = tree_create(&defaults);
	assert_true(tree_takes_hashed(hashed));
	const char *reason;
	for (size_t i = 0; i < count; i++) {
		enum side side = i % 3 ? SIDE_BASE : SIDE_HEAD;
		add(whole, side, stacks[i], i + 1);
		if (i == 5) {
			add(hashed, side, stacks[i], i + 1);
		} else {
			/* After a whole stack, nothing is shared. */
			const char *prev = i && i != 6 ? stacks[i - 1] : NULL;
			assert_true(add_hashed(hashed, side, stacks[i], prev, i + 1, &reason));
		}
	}
	tree_finish(whole, true);
	tree_finish(hashed, true);
	assert_int_equal(hashed->node_count, whole->node_count);
	for (uint32_t id = 0; id < whole->node_count; id++) {
		size_t la, lb;
		const char *a = tree_node_name(whole, tree_node(whole, id), &la);
		const char *b = tree_node_name(hashed, tree_node(hashed, id), &lb);
		assert_int_equal(la, lb);
		assert_memory_equal(a, b, la);
	}
	char *da = dump_tree(whole), *db = dump_tree(hashed);
	assert_string_equal(da, db);
	free(da);
	free(db);
	tree_destroy(whole);
	tree_destroy(hashed);
	/* Too many frames for the room given. */
	struct tree_frame fr[2];
	assert_int_equal(tree_hash_frames("a;b;c", 5, 0, tree_cursor_root().path, fr, 2), SIZE_MAX);
	/* The frame limit and the side's total hold. */
	const struct tree_options limited = {.min_delta = 0.001, .max_nodes = 2};
	struct tree *t = tree_create(&limited);
	assert_true(add_hashed(t, SIDE_HEAD, "a;b", NULL, UINT64_MAX, &reason));
	assert_false(add_hashed(t, SIDE_HEAD, "a;b", "a;b", 1, &reason));
	assert_non_null(strstr(reason, "exceeds 2^64-1"));
	assert_false(add_hashed(t, SIDE_BASE, "a;c", "a;b", 1, &reason));
	assert_non_null(strstr(reason, "more than 2 frames"));
	tree_destroy(t);
	/* Options that change the frames take whole stacks only. */
	const struct tree_options reverse = {.min_delta = 0.001, .reverse = true};
	const struct tree_options strip = {.min_delta = 0.001, .strip_hex = true};
	t = tree_create(&reverse);
	assert_false(tree_takes_hashed(t));
	tree_destroy(t);
	t = tree_create(&strip);
	assert_false(tree_takes_hashed(t));
	tree_destroy(t);
}

/*
 * Lines longer than one lookup batch and deeper than the remembered
 * previous line: the same nodes are found again, by hash, and a line that
 * ends in the middle of a batch or right at its end works alike.
 */
static void
test_long_lines(void **state)
{
	(void)state;
	const size_t depths[] = {511, 512, 513, 1025, 70000};
	for (size_t d = 0; d < sizeof(depths) / sizeof(depths[0]); d++) {
		struct buf line;
		buf_init(&line);
		for (size_t i = 0; i < depths[d]; i++) {
			buf_printf(&line, "%sf%zu", i ? ";" : "", i);
		}
		struct tree *t = tree_create(&defaults);
		const char *reason;
		assert_true(tree_add_stack(t, SIDE_BASE, line.data, line.len, cnt(2), &reason));
		size_t nodes = t->node_count;
		assert_int_equal(nodes, depths[d] + 1);
		/* Another line between, so the prefix cache does not match. */
		add(t, SIDE_BASE, "other", 1);
		assert_true(tree_add_stack(t, SIDE_HEAD, line.data, line.len, cnt(5), &reason));
		assert_int_equal(t->node_count, nodes + 1);
		tree_finish(t, true);
		uint32_t leaf = find(t, line.data, line.len);
		assert_int_not_equal(leaf, TREE_NONE);
		assert_int_equal(tree_node(t, leaf)->self_units[SIDE_BASE], 2);
		assert_int_equal(tree_node(t, leaf)->self_units[SIDE_HEAD], 5);
		assert_int_equal(tree_node(t, leaf)->depth, depths[d]);
		tree_destroy(t);
		buf_finish(&line);
	}
}

/*
 * A tree of many nodes, laid out in blocks whose build arrays are given back
 * as the nodes array fills: every node keeps its name, parent, depth and
 * counts. The base stacks are added twice: the second time the tree is past
 * DIRECT_NODES (tree_build.c), so nodes made by the direct walk are found
 * again by the batched one, not made twice.
 */
static void
test_lay_out_many(void **state)
{
	(void)state;
	struct tree_options opt = {.min_delta = 0.0};
	struct tree *t = tree_create(&opt);
	enum { STACKS = 50000 };
	char stack[32];
	for (int i = 0; i < STACKS; i++) {
		snprintf(stack, sizeof(stack), "a%d;b%d", i, i);
		add(t, SIDE_BASE, stack, (uint64_t)i + 1);
		add(t, SIDE_HEAD, stack, 2 * (uint64_t)i + 1);
	}
	for (int i = 0; i < STACKS; i++) {
		snprintf(stack, sizeof(stack), "a%d;b%d", i, i);
		add(t, SIDE_BASE, stack, (uint64_t)i + 1);
	}
	tree_finish(t, true);
	assert_int_equal(t->node_count, 1 + 2 * STACKS);
	size_t seen = 0;
	for (uint32_t a = tree_node(t, TREE_ROOT)->first_child; a != TREE_NONE;
	        a = tree_node(t, a)->next_sibling) {
		const struct tree_node *na = tree_node(t, a);
		size_t len;
		const char *name = tree_node_name(t, na, &len);
		char buf[32];
		memcpy(buf, name, len);
		buf[len] = '\0';
		double i = strtod(buf + 1, NULL);
		assert_int_equal(na->parent, TREE_ROOT);
		assert_int_equal(na->depth, 1);
		assert_true(tree_value(t, na, SIDE_BASE, true) == 0);
		assert_true(tree_value(t, na, SIDE_BASE, false) == 2 * (i + 1));
		assert_true(tree_value(t, na, SIDE_HEAD, false) == 2 * i + 1);
		uint32_t b = na->first_child;
		const struct tree_node *nb = tree_node(t, b);
		assert_int_equal(nb->next_sibling, TREE_NONE);
		assert_int_equal(nb->parent, a);
		assert_int_equal(nb->depth, 2);
		name = tree_node_name(t, nb, &len);
		memcpy(buf, name, len);
		buf[len] = '\0';
		assert_int_equal(buf[0], 'b');
		assert_true(strtod(buf + 1, NULL) == i);
		assert_true(tree_value(t, nb, SIDE_BASE, true) == 2 * (i + 1));
		assert_true(tree_value(t, nb, SIDE_HEAD, true) == 2 * i + 1);
		seen++;
	}
	assert_int_equal(seen, STACKS);
	tree_destroy(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_merge_single),
	        cmocka_unit_test(test_merge_two_sides),
	        cmocka_unit_test(test_order_independence),
	        cmocka_unit_test(test_no_split_frame),
	        cmocka_unit_test(test_children_byte_order),
	        cmocka_unit_test(test_reverse),
	        cmocka_unit_test(test_strip_hex),
	        cmocka_unit_test(test_normalize),
	        cmocka_unit_test(test_statuses),
	        cmocka_unit_test(test_fractional),
	        cmocka_unit_test(test_fractional_mixed),
	        cmocka_unit_test(test_sum_overflow),
	        cmocka_unit_test(test_annotations),
	        cmocka_unit_test(test_arbitrary_bytes),
	        cmocka_unit_test(test_preorder),
	        cmocka_unit_test(test_max_nodes),
	        cmocka_unit_test(test_hashed),
	        cmocka_unit_test(test_cursor),
	        cmocka_unit_test(test_long_lines),
	        cmocka_unit_test(test_lay_out_many),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
