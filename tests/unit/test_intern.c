/* intern: ids per distinct byte string, annotations, byte-order ranks. */
#include "intern.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "name_sort.h"

static void
test_ids(void **state)
{
	(void)state;
	struct intern *in = intern_create();
	uint32_t a = intern_add(in, "main", 4);
	uint32_t b = intern_add(in, "mainx", 5);
	uint32_t c = intern_add(in, "main", 4);
	uint32_t e = intern_add(in, "", 0);
	assert_int_equal(a, c);
	assert_int_not_equal(a, b);
	assert_int_not_equal(a, e);
	assert_int_equal(intern_count(in), 3);
	size_t len;
	const char *s = intern_name(in, b, &len);
	assert_int_equal(len, 5);
	assert_memory_equal(s, "mainx", 5);
	intern_name(in, e, &len);
	assert_int_equal(len, 0);
	intern_destroy(in);
	intern_destroy(NULL);
}

static void
test_arbitrary_bytes(void **state)
{
	(void)state;
	struct intern *in = intern_create();
	const char x[] = {'a', '\0', 'b'};
	const char y[] = {'a', '\0', 'c'};
	uint32_t ix = intern_add(in, x, 3);
	uint32_t iy = intern_add(in, y, 3);
	uint32_t ia = intern_add(in, "a", 1);
	assert_int_not_equal(ix, iy);
	assert_int_not_equal(ix, ia);
	assert_int_equal(intern_add(in, x, 3), ix);
	size_t len;
	assert_memory_equal(intern_name(in, iy, &len), y, 3);
	const char *odd = "<a href=\"x\">&amp;'\xff\xfe\x01 \t";
	uint32_t io = intern_add(in, odd, strlen(odd));
	assert_memory_equal(intern_name(in, io, &len), odd, strlen(odd));
	assert_int_equal(len, strlen(odd));
	intern_destroy(in);
}

static void
test_many(void **state)
{
	(void)state;
	struct intern *in = intern_create();
	char name[32];
	for (int round = 0; round < 2; round++) {
		for (uint32_t i = 0; i < 200000; i++) {
			int n = snprintf(name, sizeof(name), "fn_%u", i);
			assert_int_equal(intern_add(in, name, (size_t)n), i);
		}
	}
	assert_int_equal(intern_count(in), 200000);
	size_t len;
	const char *s = intern_name(in, 123456, &len);
	assert_int_equal(len, strlen("fn_123456"));
	assert_memory_equal(s, "fn_123456", len);
	intern_destroy(in);
}

static void
test_long_name(void **state)
{
	(void)state;
	/* Longer than the arena's chunk: stored in its own chunk. */
	size_t n = 3 << 20;
	char *big = test_malloc(n);
	memset(big, 'x', n);
	struct intern *in = intern_create();
	uint32_t a = intern_add(in, "before", 6);
	uint32_t b = intern_add(in, big, n);
	uint32_t c = intern_add(in, "after", 5);
	size_t len;
	assert_memory_equal(intern_name(in, a, &len), "before", 6);
	assert_memory_equal(intern_name(in, b, &len), big, n);
	assert_int_equal(len, n);
	assert_memory_equal(intern_name(in, c, &len), "after", 5);
	assert_int_equal(intern_add(in, big, n), b);
	intern_destroy(in);
	test_free(big);
}

static void
test_annotations(void **state)
{
	(void)state;
	struct intern *in = intern_create();
	static const struct {
		const char *name;
		enum annotation a;
		size_t bare;
	} cases[] = {
	        {"do_syscall_64_[k]", ANNOTATION_KERNEL, 13},
	        {"Interpreter_[j]", ANNOTATION_JIT, 11},
	        {"inlined_fn_[i]", ANNOTATION_INLINED, 10},
	        {"wake_up_[w]", ANNOTATION_WAKER, 7},
	        {"_[k]", ANNOTATION_KERNEL, 0},
	        {"plain", ANNOTATION_NONE, 5},
	        {"odd_[x]", ANNOTATION_NONE, 7},
	        {"x[k]", ANNOTATION_NONE, 4},
	        {"[k]", ANNOTATION_NONE, 3},
	        {"a_[k]b", ANNOTATION_NONE, 6},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t id = intern_add(in, cases[i].name, strlen(cases[i].name));
		assert_int_equal(intern_annotation(in, id), cases[i].a);
		assert_int_equal(intern_bare_len(in, id), cases[i].bare);
		/* The suffix stays part of the identity. */
		size_t len;
		intern_name(in, id, &len);
		assert_int_equal(len, strlen(cases[i].name));
	}
	uint32_t k = intern_add(in, "f_[k]", 5), plain = intern_add(in, "f", 1);
	assert_int_not_equal(k, plain);
	intern_destroy(in);
}

static void
test_ranks(void **state)
{
	(void)state;
	struct intern *in = intern_create();
	/* Byte order: unsigned bytes, a prefix before its extensions. */
	const char *sorted[] = {"", "A", "B", "a", "a\x01", "ab", "b", "b\x7f", "b\x80", "\xff"};
	size_t n = sizeof(sorted) / sizeof(sorted[0]);
	uint32_t ids[sizeof(sorted) / sizeof(sorted[0])];
	/* Added in a scrambled order so ids and ranks differ. */
	for (size_t k = 0; k < n; k++) {
		size_t i = (k * 7 + 3) % n;
		ids[i] = intern_add(in, sorted[i], strlen(sorted[i]));
	}
	const uint32_t *rank = intern_ranks(in);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(rank[ids[i]], i);
	}
	/* No name added: the same ranks, not sorted again. */
	assert_ptr_equal(intern_ranks(in), rank);
	/* Ranks are rebuilt after more names arrive. */
	uint32_t mid = intern_add(in, "aa", 2);
	rank = intern_ranks(in);
	assert_int_equal(rank[mid], 5);
	assert_int_equal(rank[ids[5]], 6);
	intern_destroy(in);
}

/* Byte order of two names, a prefix first: what intern_ranks must give. */
static const struct intern *order_in;

static int
compare_names(const void *a, const void *b)
{
	size_t la, lb;
	const char *na = intern_name(order_in, *(const uint32_t *)a, &la);
	const char *nb = intern_name(order_in, *(const uint32_t *)b, &lb);
	int c = memcmp(na, nb, la < lb ? la : lb);
	return c != 0 ? c : (la > lb) - (la < lb);
}

/*
 * Enough names, of an odd count, for the sort's merges from either end
 * (a longer left run than right at the last ones), sharing prefixes past
 * the 24 bytes the sort keys carry, checked against qsort.
 */
static void
test_ranks_many(void **state)
{
	(void)state;
	struct intern *in = intern_create();
	char name[64];
	uint64_t x = 88172645463325252ull;
	for (int i = 0; i < 20001; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		size_t len = x % 40;
		for (size_t j = 0; j < len; j++) {
			/* Mostly 'a': long shared prefixes; now and then a high byte. */
			unsigned r = (unsigned)(x >> (j % 56)) & 15u;
			name[j] = r == 0 ? 'b' : r == 1 ? '\xf0' : 'a';
		}
		intern_add(in, name, len);
	}
	uint32_t n = intern_count(in);
	uint32_t *ids = malloc(n * sizeof(uint32_t));
	for (uint32_t i = 0; i < n; i++) {
		ids[i] = i;
	}
	order_in = in;
	qsort(ids, n, sizeof(uint32_t), compare_names);
	const uint32_t *rank = intern_ranks(in);
	for (uint32_t r = 0; r < n; r++) {
		assert_int_equal(rank[ids[r]], r);
	}
	free(ids);
	intern_destroy(in);
}

static void
test_hash(void **state)
{
	(void)state;
	assert_true(intern_hash("abc", 3) == intern_hash("abcd", 3));
	assert_true(intern_hash("abc", 3) != intern_hash("abd", 3));
	assert_true(intern_hash("", 0) != intern_hash("\0", 1));
	assert_true(intern_hash("12345678a", 9) != intern_hash("12345678b", 9));
}

/* The plain byte order: memcmp, then the shorter first. */
static int
cmp_names(const void *pa, const void *pb)
{
	const struct name_key *a = pa, *b = pb;
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->bytes, b->bytes, n);
	return c != 0 ? c : (a->len > b->len) - (a->len < b->len);
}

/*
 * name_sort (two threads above its threshold), name_sort_plain (one) and
 * qsort give the same order, on enough names for the threads: names with
 * long shared prefixes, prefixes of each other, bytes of every value.
 */
static void
test_name_sort_twins(void **state)
{
	(void)state;
	enum { N = 70000, WIDTH = 40 };
	char(*names)[WIDTH] = malloc(N * sizeof(*names));
	struct name_key *v[3];
	for (int k = 0; k < 3; k++) {
		v[k] = malloc(N * sizeof(struct name_key));
	}
	uint64_t x = 88172645463325252ull;
	for (uint32_t i = 0; i < N; i++) {
		/* 31 bytes shared by most; the id in the last bytes keeps names distinct. */
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint32_t len = (uint32_t)(x % 8) + (i % 3 == 0 ? 2 : 31);
		memset(names[i], 'f', WIDTH);
		names[i][x % 29] = (char)(x >> 40);
		names[i][len - 1] = (char)(i & 0xff);
		names[i][len - 2] = (char)(i >> 8);
		names[i][len < 3 ? 0 : len - 3] = len < 3 ? names[i][0] : (char)(i >> 16);
		for (int k = 0; k < 3; k++) {
			name_key_init(&v[k][i], names[i], len, i);
		}
	}
	/* Distinct names only: drop the few that collide. */
	qsort(v[2], N, sizeof(struct name_key), cmp_names);
	size_t n = 0;
	for (size_t i = 0; i < N; i++) {
		if (i == 0 || cmp_names(&v[2][i - 1], &v[2][i]) != 0) {
			v[2][n++] = v[2][i];
		}
	}
	assert_true(n > 32768 * 2);
	for (int k = 0; k < 2; k++) {
		memcpy(v[k], v[2], n * sizeof(struct name_key));
		for (size_t i = n; i-- > 1;) { /* shuffled */
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			size_t j = x % (i + 1);
			struct name_key t = v[k][i];
			v[k][i] = v[k][j];
			v[k][j] = t;
		}
	}
	name_sort(v[0], n, 12345);
	name_sort_plain(v[1], n, 12345);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(v[0][i].id, v[2][i].id);
		assert_int_equal(v[1][i].id, v[2][i].id);
	}
	for (int k = 0; k < 3; k++) {
		free(v[k]);
	}
	free(names);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_ids),
	        cmocka_unit_test(test_arbitrary_bytes),
	        cmocka_unit_test(test_many),
	        cmocka_unit_test(test_long_name),
	        cmocka_unit_test(test_annotations),
	        cmocka_unit_test(test_ranks),
	        cmocka_unit_test(test_ranks_many),
	        cmocka_unit_test(test_hash),
	        cmocka_unit_test(test_name_sort_twins),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
