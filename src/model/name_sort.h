/*
 * name_sort: sorts names by their bytes (memcmp order, a shorter name
 * before a longer one it begins), for the ranks of the interned names
 * (intern_ranks), on which every sibling order depends. The keys carry the
 * names' first bytes, so most comparisons never touch the names.
 *
 * name_sort is the fast path: above a threshold it partitions once and
 * sorts the halves on two threads. name_sort_plain is its one-thread twin,
 * the same quicksort without the split; both give the one order there is
 * (names are distinct), which tests/unit/test_intern.c checks against
 * qsort.
 */
#ifndef DIFFFOLD_NAME_SORT_H
#define DIFFFOLD_NAME_SORT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * A name's first 24 bytes as big-endian numbers: most comparisons stop there
 * without touching the names (frame names share long prefixes: 8 bytes tell
 * apart only one name in ten).
 */
#define NAME_KEY_WORDS 3

struct name_key {
	/* Zero-padded: a shorter name never sorts after a longer one. */
	uint64_t prefix[NAME_KEY_WORDS];
	const char *bytes; /* for ties, without a trip through the entries */
	uint32_t len;
	uint32_t id;
};

/* The key of the name bytes[0, len), whose caller's id is id. */
static inline void
name_key_init(struct name_key *k, const char *bytes, uint32_t len, uint32_t id)
{
	for (size_t w = 0; w < NAME_KEY_WORDS; w++) {
		/* Most names are longer than the prefix: whole words, copied at once. */
		unsigned char b[8] = {0};
		size_t at = w * 8;
		if (len >= at + 8) {
			memcpy(b, bytes + at, 8);
		} else {
			for (size_t i = at; i < len; i++) {
				b[i - at] = (unsigned char)bytes[i];
			}
		}
		uint64_t v = 0;
		for (size_t i = 0; i < 8; i++) {
			v = v << 8 | b[i];
		}
		k->prefix[w] = v;
	}
	k->bytes = bytes;
	k->len = len;
	k->id = id;
}

/* Sorts v[0, n) of distinct names; seed (odd) draws the pivots. */
void name_sort(struct name_key *v, size_t n, uint64_t seed);
/* The same on the calling thread alone. */
void name_sort_plain(struct name_key *v, size_t n, uint64_t seed);

#endif
