/* xalloc: zeroed blocks faulted in for writing stay zero, and nothing past them is written. */
#include "xalloc.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static size_t
first_nonzero(const unsigned char *p, size_t size)
{
	for (size_t i = 0; i < size; i++) {
		if (p[i]) {
			return i;
		}
	}
	return size;
}

static void
test_calloc_written_is_zero(void **state)
{
	(void)state;
	/* Around a page, and both sides of the 1 MiB where madvise takes over. */
	const size_t sizes[] = {1, 4095, 4096, 4097, 3 * 4096 + 17, ((size_t)1 << 20) - 8,
	        ((size_t)1 << 20) + 4096 + 8, (size_t)3 << 20};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		unsigned char *p = xcalloc_written(sizes[i], 1);
		assert_int_equal(first_nonzero(p, sizes[i]), sizes[i]);
		p[sizes[i] - 1] = 1; /* and it is ours to write */
		free(p);
	}
	uint64_t *words = xcalloc_written(1000, sizeof(uint64_t));
	assert_int_equal(first_nonzero((const unsigned char *)words, 8000), 8000);
	free(words);
}

/* A part of a block, at an odd offset: zero stays zero, the rest is untouched. */
static void
test_prefault_zeroed_part(void **state)
{
	(void)state;
	const size_t sizes[] = {0, 1, 4096, 5 * 4096 + 3, ((size_t)1 << 20) + 5};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t size = sizes[i], total = size + 8192 + 7;
		unsigned char *block = xcalloc(total, 1);
		memset(block + 7 + size, 0xAA, total - 7 - size);
		xprefault_zeroed(block + 7, size);
		assert_int_equal(first_nonzero(block, 7 + size), 7 + size);
		for (size_t j = 7 + size; j < total; j++) {
			assert_int_equal(block[j], 0xAA);
		}
		free(block);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_calloc_written_is_zero),
	        cmocka_unit_test(test_prefault_zeroed_part),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
