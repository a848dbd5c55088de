/*
 * idmap: keys small and huge, values of all 32 bits, and a key kept in the
 * hash before the array for small keys grew over it.
 */
#include "idmap.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

static void
assert_val(const struct idmap *m, uint64_t key, uint32_t want)
{
	uint32_t v = 0;
	assert_true(idmap_get(m, key, &v));
	assert_int_equal(v, want);
}

static void
test_small_and_huge_keys(void **state)
{
	(void)state;
	struct idmap m = {0};
	uint32_t v;
	assert_false(idmap_get(&m, 0, &v));
	for (uint64_t k = 0; k < 20000; k++) {
		idmap_set(&m, k, (uint32_t)(k * 3));
	}
	idmap_set(&m, 1ull << 40, 7);
	idmap_set(&m, 5 | 1ull << 63, UINT32_MAX);
	idmap_set(&m, 3, UINT32_MAX); /* replaces */
	for (uint64_t k = 0; k < 20000; k++) {
		assert_val(&m, k, k == 3 ? UINT32_MAX : (uint32_t)(k * 3));
	}
	assert_val(&m, 1ull << 40, 7);
	assert_val(&m, 5 | 1ull << 63, UINT32_MAX);
	assert_false(idmap_get(&m, 20000, &v));
	assert_false(idmap_get(&m, 1ull << 41, &v));
	idmap_finish(&m);
}

static void
test_key_set_before_the_array_reached_it(void **state)
{
	(void)state;
	struct idmap m = {0};
	idmap_set(&m, 9000, 1); /* too far for the array yet */
	for (uint64_t k = 0; k < 9000; k++) {
		idmap_set(&m, k, 2);
	}
	assert_val(&m, 9000, 1);
	idmap_set(&m, 9000, 3);
	assert_val(&m, 9000, 3);
	idmap_finish(&m);
}

static void
test_sparse_keys_stay_small(void **state)
{
	(void)state;
	/* Ids far apart: memory by the entries, not by the largest id. */
	struct idmap m = {0};
	for (uint64_t k = 0; k < 10000; k++) {
		idmap_set(&m, k * 1000, (uint32_t)k);
	}
	for (uint64_t k = 0; k < 10000; k++) {
		assert_val(&m, k * 1000, (uint32_t)k);
	}
	assert_true(m.dense_cap < 100000);
	idmap_finish(&m);
}

static void
test_largest_key(void **state)
{
	(void)state;
	/* 2^64-1 + 1 is the hash's empty mark: the key is held apart. */
	struct idmap m = {0};
	uint32_t v;
	assert_false(idmap_get(&m, UINT64_MAX, &v));
	idmap_set(&m, UINT64_MAX, 5);
	idmap_set(&m, 1ull << 40, 6);
	assert_val(&m, UINT64_MAX, 5);
	assert_val(&m, 1ull << 40, 6);
	assert_false(idmap_get(&m, UINT64_MAX - 1, &v));
	idmap_set(&m, UINT64_MAX, 7);
	assert_val(&m, UINT64_MAX, 7);
	idmap_finish(&m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_small_and_huge_keys),
	        cmocka_unit_test(test_key_set_before_the_array_reached_it),
	        cmocka_unit_test(test_sparse_keys_stay_small),
	        cmocka_unit_test(test_largest_key),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
