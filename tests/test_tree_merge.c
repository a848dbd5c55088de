/* tree_merge: two trees built apart equal one tree built from both inputs. */
#include "tree.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "buf.h"
#include "helpers.h"

/* Deterministic stacks over a small vocabulary, so paths share prefixes. */
static uint64_t
next_random(uint64_t *state)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	return *state >> 33;
}

static void
random_stack(uint64_t *state, struct buf *b)
{
	static const char *const names[] = {"main", "run", "0x7f00aa", "parse", "std::vec<T>::push",
	        "", "gc_[k]", "a;", "loop", "read 0x10 bytes"};
	buf_reset(b);
	size_t depth = 1 + next_random(state) % 9;
	for (size_t i = 0; i < depth; i++) {
		if (i) {
			buf_addc(b, ';');
		}
		/* "a;" makes two frames: "a" and what follows. */
		buf_adds(b, names[next_random(state) % (sizeof(names) / sizeof(names[0]))]);
	}
}

static void
add(struct tree *t, enum side side, const char *stack, size_t len, uint64_t units)
{
	const char *reason = NULL;
	if (!tree_add_stack(t, side, stack, len, (struct count){units, 0}, &reason)) {
		fail_msg("add failed: %s", reason);
	}
}

/* Adds `lines` random stacks of a seed to one side of one or two trees. */
static void
feed(struct tree *a, struct tree *b, enum side side, uint64_t seed, size_t lines)
{
	struct buf s;
	buf_init(&s);
	for (size_t i = 0; i < lines; i++) {
		random_stack(&seed, &s);
		uint64_t units = 1 + next_random(&seed) % 1000;
		add(a, side, s.data, s.len, units);
		if (b) {
			add(b, side, s.data, s.len, units);
		}
	}
	buf_finish(&s);
}

/* Same nodes with the same ids, names, parents and counts, and the same dump. */
static void
assert_same_trees(const struct tree *x, const struct tree *y)
{
	assert_int_equal(x->node_count, y->node_count);
	assert_int_equal(x->max_depth, y->max_depth);
	for (uint32_t id = 0; id < x->node_count; id++) {
		const struct tree_node *n = tree_node(x, id), *m = tree_node(y, id);
		size_t nlen, mlen;
		const char *nn = tree_node_name(x, n, &nlen), *mn = tree_node_name(y, m, &mlen);
		assert_int_equal(nlen, mlen);
		assert_memory_equal(nn, mn, nlen);
		assert_int_equal(n->parent, m->parent);
		assert_int_equal(n->first_child, m->first_child);
		assert_int_equal(n->next_sibling, m->next_sibling);
		for (int side = 0; side < 2; side++) {
			enum side sd = (enum side)side;
			assert_true(count_cmp(tree_node_total(x, n, sd),
			                    tree_node_total(y, m, sd)) == 0);
			assert_true(
			        count_cmp(tree_node_self(x, n, sd), tree_node_self(y, m, sd)) == 0);
		}
		assert_int_equal(n->status, m->status);
	}
	char *dx = dump_tree(x), *dy = dump_tree(y);
	assert_string_equal(dx, dy);
	free(dx);
	free(dy);
}

static void
check_options(const struct tree_options *opt)
{
	struct tree *one = tree_create(opt);
	struct tree *base = tree_create(opt);
	struct tree *head = tree_create(opt);
	feed(one, base, SIDE_BASE, 1, 3000);
	feed(one, head, SIDE_HEAD, 2, 3000);
	const char *reason = NULL;
	assert_true(tree_merge(base, head, &reason));
	tree_destroy(head);
	size_t merged = base->node_count; /* counted before tree_finish too */
	tree_finish(one, true);
	tree_finish(base, true);
	assert_true(one->node_count > 100);
	assert_int_equal(merged, one->node_count);
	assert_same_trees(one, base);
	tree_destroy(one);
	tree_destroy(base);
}

static void
test_merge_equals_one_tree(void **state)
{
	(void)state;
	struct tree_options opt = {.min_delta = 0.001};
	check_options(&opt);
	opt.reverse = true;
	check_options(&opt);
	opt.reverse = false;
	opt.strip_hex = true;
	opt.normalize = true;
	check_options(&opt);
}

/* src may hold both sides (a 3-column file), and dst may be empty. */
static void
test_merge_both_sides_into_empty(void **state)
{
	(void)state;
	struct tree_options opt = {.min_delta = 0.001};
	struct tree *one = tree_create(&opt);
	struct tree *empty = tree_create(&opt);
	struct tree *src = tree_create(&opt);
	feed(one, src, SIDE_BASE, 3, 500);
	feed(one, src, SIDE_HEAD, 4, 500);
	const char *reason = NULL;
	assert_true(tree_merge(empty, src, &reason));
	tree_destroy(src);
	/* An empty src changes nothing. */
	struct tree *nothing = tree_create(&opt);
	assert_true(tree_merge(empty, nothing, &reason));
	tree_destroy(nothing);
	tree_finish(one, true);
	tree_finish(empty, true);
	assert_same_trees(one, empty);
	tree_destroy(one);
	tree_destroy(empty);
}

static void
test_merge_overflow(void **state)
{
	(void)state;
	struct tree_options opt = {.min_delta = 0.001};
	struct tree *dst = tree_create(&opt);
	struct tree *src = tree_create(&opt);
	struct tree *want = tree_create(&opt);
	add(dst, SIDE_HEAD, "a;b", 3, UINT64_MAX - 5);
	add(want, SIDE_HEAD, "a;b", 3, UINT64_MAX - 5);
	add(src, SIDE_HEAD, "a;c", 3, 6);
	const char *reason = NULL;
	assert_false(tree_merge(dst, src, &reason));
	assert_non_null(reason);
	assert_non_null(strstr(reason, "head"));
	tree_destroy(src);
	/* dst is unchanged and still usable. */
	add(dst, SIDE_BASE, "x", 1, 1);
	add(want, SIDE_BASE, "x", 1, 1);
	tree_finish(dst, true);
	tree_finish(want, true);
	assert_same_trees(want, dst);
	tree_destroy(dst);
	tree_destroy(want);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_merge_equals_one_tree),
	        cmocka_unit_test(test_merge_both_sides_into_empty),
	        cmocka_unit_test(test_merge_overflow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
