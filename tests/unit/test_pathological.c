/*
 * Pathological inputs: very deep stacks, very wide nodes, huge frame names
 * and many lines. No timing assertions; each must simply finish quickly,
 * which only a linear (or n log n) implementation does at these sizes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "export.h"
#include "folded.h"
#include "helpers.h"
#include "json_check.h"
#include "options.h"
#include "output.h"
#include "tree.h"

static const struct tree_options defaults = {.min_delta = 0.001};

/* "f0;f1;...;f<depth-1> <count>\n" */
static void
deep_line(struct buf *b, size_t depth, const char *prefix, unsigned count)
{
	for (size_t i = 0; i < depth; i++) {
		buf_printf(b, "%s%s%zu", i ? ";" : "", prefix, i);
	}
	buf_printf(b, " %u\n", count);
}

/* Appends before, then n copies of c, then after. */
static void
repeat_between(struct buf *b, const char *before, char c, size_t n, const char *after)
{
	buf_adds(b, before);
	buf_reserve(b, n);
	memset(b->data + b->len, c, n);
	buf_setlen(b, b->len + n);
	buf_adds(b, after);
}

static struct tree *
read_into(const struct buf *in, enum folded_mode mode, const struct tree_options *opt)
{
	struct tree *t = tree_create(opt);
	struct folded_stats st;
	struct diag err;
	if (!fold_mem(t, "gen", in->data, in->len, mode, false, &st, &err)) {
		fail_msg("%s", err.msg);
	}
	assert_int_equal(st.bad_lines, 0);
	return t;
}

static void
check_json(const struct tree *t)
{
	size_t len;
	char *json = json_of_tree(t, &len);
	assert_true(json_valid(json, len));
	free(json);
}

static void
deep(size_t depth)
{
	struct buf in;
	buf_init(&in);
	deep_line(&in, depth, "frame_", 3);
	deep_line(&in, depth, "frame_", 4); /* the same stack again */
	struct tree *t = read_into(&in, FOLDED_HEAD, &defaults);
	tree_finish(t, false);
	assert_int_equal(t->max_depth, depth);
	assert_int_equal(t->node_count, depth + 1);
	/* The folded dump is the one merged line. */
	char *dump = dump_tree(t);
	size_t line = strchr(in.data, '\n') - in.data;
	assert_memory_equal(dump, in.data, line - 2);
	assert_string_equal(dump + line - 2, " 7\n");
	free(dump);
	/* Walks and exports are iterative: no stack overflow. */
	size_t n = 0;
	for (uint32_t id = TREE_ROOT; id != TREE_NONE; id = tree_next_preorder(t, id, TREE_ROOT)) {
		n++;
	}
	assert_int_equal(n, depth + 1);
	check_json(t);
	tree_destroy(t);

	/* Reversed, and as a base/head pair differing only at the leaf. */
	struct tree_options rev = defaults;
	rev.reverse = true;
	t = read_into(&in, FOLDED_HEAD, &rev);
	tree_finish(t, false);
	assert_int_equal(t->max_depth, depth);
	tree_destroy(t);
	buf_reset(&in);
	deep_line(&in, depth, "frame_", 1);
	buf_adds(&in, "x 1\n");
	deep_line(&in, depth - 1, "frame_", 2);
	t = tree_create(&defaults);
	struct folded_stats st;
	struct diag err;
	assert_true(fold_mem(t, "b", in.data, in.len, FOLDED_BASE, false, &st, &err));
	assert_true(fold_mem(t, "h", in.data, in.len, FOLDED_HEAD, false, &st, &err));
	tree_finish(t, true);
	assert_int_equal(t->node_count, depth + 2);
	check_json(t);
	tree_destroy(t);
	buf_finish(&in);
}

static void
test_deep_10k(void **state)
{
	(void)state;
	deep(10000);
}

static void
test_deep_100k(void **state)
{
	(void)state;
	deep(100000);
}

static void
test_siblings_100k(void **state)
{
	(void)state;
	const unsigned n = 100000;
	struct buf in;
	buf_init(&in);
	/* In descending order, so the tree must sort them. */
	for (unsigned i = n; i-- > 0;) {
		buf_printf(&in, "main;child_%06u %u\n", i, 1 + i % 5);
	}
	struct tree *t = read_into(&in, FOLDED_HEAD, &defaults);
	tree_finish(t, false);
	assert_int_equal(t->node_count, n + 2);
	const struct tree_node *main_node = tree_node(t, tree_node(t, TREE_ROOT)->first_child);
	unsigned seen = 0;
	char want[32];
	for (uint32_t c = main_node->first_child; c != TREE_NONE;
	        c = tree_node(t, c)->next_sibling) {
		size_t len;
		const char *name = tree_node_name(t, tree_node(t, c), &len);
		int wl = snprintf(want, sizeof(want), "child_%06u", seen);
		assert_int_equal(len, (size_t)wl);
		assert_memory_equal(name, want, len);
		seen++;
	}
	assert_int_equal(seen, n);
	check_json(t);
	tree_destroy(t);
	buf_finish(&in);
}

static void
test_huge_name(void **state)
{
	(void)state;
	const size_t size = 1 << 20;
	struct buf in;
	buf_init(&in);
	repeat_between(&in, "main;", 'n', size, ";leaf 5\nmain;other 1\n");
	/* Through a file, so the line crosses the reader's blocks. */
	char *path = temp_file(".folded", in.data, in.len);
	struct tree *t = tree_create(&defaults);
	struct folded_stats st;
	struct diag err;
	if (!fold_file(t, path, FOLDED_HEAD, false, &st, &err)) {
		fail_msg("%s", err.msg);
	}
	tree_finish(t, false);
	char *dump = dump_tree(t);
	assert_memory_equal(dump, in.data, in.len);
	free(dump);
	check_json(t);
	tree_destroy(t);
	/* A 1 MiB hex literal under --strip-hex collapses to one short name. */
	buf_reset(&in);
	repeat_between(&in, "main;0x", 'f', size, " 2\n");
	struct tree_options opt = defaults;
	opt.strip_hex = true;
	t = read_into(&in, FOLDED_HEAD, &opt);
	tree_finish(t, false);
	dump = dump_tree(t);
	assert_string_equal(dump, "main;0x... 2\n");
	free(dump);
	tree_destroy(t);
	unlink(path);
	free(path);
	buf_finish(&in);
}

static void
test_million_lines(void **state)
{
	(void)state;
	const unsigned n = 1000000;
	struct buf in;
	buf_init(&in);
	for (unsigned i = 0; i < n; i++) {
		/* 1,000 distinct stacks, each repeated, in a scrambled order. */
		unsigned k = (unsigned)(((uint64_t)i * 7919u) % 1000u);
		buf_printf(&in, "svc;worker_%u;handler_%u;leaf_%u 1\n", k % 7, k % 61, k);
	}
	char *path = temp_file(".folded", in.data, in.len);
	struct tree *t = tree_create(&defaults);
	struct folded_stats st;
	struct diag err;
	assert_true(fold_file(t, path, FOLDED_HEAD, false, &st, &err));
	assert_int_equal(st.lines, n);
	tree_finish(t, false);
	assert_int_equal(tree_node(t, TREE_ROOT)->total_units[SIDE_HEAD], n);
	/* Every distinct stack got its 1,000 samples. */
	char *dump = dump_tree(t);
	size_t lines = 0;
	for (const char *p = dump; (p = strchr(p, '\n')) != NULL; p++) {
		assert_memory_equal(p - 5, " 1000", 5);
		lines++;
	}
	assert_int_equal(lines, 1000);
	free(dump);
	tree_destroy(t);
	unlink(path);
	free(path);
	buf_finish(&in);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_deep_10k),
	        cmocka_unit_test(test_deep_100k),
	        cmocka_unit_test(test_siblings_100k),
	        cmocka_unit_test(test_huge_name),
	        cmocka_unit_test(test_million_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
