#include "name_sort.h"

#include <pthread.h>
#include <stdbool.h>
#include <string.h>

/* Byte order of the names, a shorter prefix first. */
static bool
key_less(const struct name_key *a, const struct name_key *b)
{
	for (size_t w = 0; w < NAME_KEY_WORDS; w++) {
		if (a->prefix[w] != b->prefix[w]) {
			return a->prefix[w] < b->prefix[w];
		}
	}
	/* The prefixes matched: the names agree on their first `skip` bytes. */
	size_t n = a->len < b->len ? a->len : b->len, skip = NAME_KEY_WORDS * sizeof(uint64_t);
	int c = n > skip ? memcmp(a->bytes + skip, b->bytes + skip, n - skip) : 0;
	return c != 0 ? c < 0 : a->len < b->len;
}

static void
swap_keys(struct name_key *a, struct name_key *b)
{
	struct name_key x = *a;
	*a = *b;
	*b = x;
}

/* Most ranges left by the partitions are a few keys: insertion sort there. */
#define SORT_SMALL 16

static void
insertion_sort(struct name_key *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct name_key x = v[i];
		size_t j = i;
		for (; j > 0 && key_less(&x, &v[j - 1]); j--) {
			v[j] = v[j - 1];
		}
		v[j] = x;
	}
}

/* The index of the median of v[a], v[b], v[c]. */
static size_t
median3(const struct name_key *v, size_t a, size_t b, size_t c)
{
	if (key_less(&v[a], &v[b])) {
		return key_less(&v[b], &v[c]) ? b : key_less(&v[a], &v[c]) ? c : a;
	}
	return key_less(&v[a], &v[c]) ? a : key_less(&v[b], &v[c]) ? c : b;
}

static uint64_t
next_random(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/*
 * Partitions v[lo, hi) around the key at v[pivot]; returns the pivot's
 * final index. Names are distinct, so no key equals the pivot.
 */
static size_t
partition(struct name_key *v, size_t lo, size_t hi, size_t pivot)
{
	swap_keys(&v[lo], &v[pivot]);
	size_t i = lo, j = hi;
	for (;;) {
		do {
			i++;
		} while (i < hi && key_less(&v[i], &v[lo]));
		do {
			j--;
		} while (key_less(&v[lo], &v[j]));
		if (i >= j) {
			break;
		}
		swap_keys(&v[i], &v[j]);
	}
	swap_keys(&v[lo], &v[j]);
	return j;
}

/*
 * Quicksort in place: the keys sit beside the tree, so the sort takes no
 * buffer. Pivots are medians of three keys drawn with the run's hash seed,
 * so no set of names can be crafted to make it quadratic. The larger side
 * waits on a stack while the smaller is sorted, so the stack holds at most
 * log2(n) ranges: no recursion.
 */
static void
sort_keys(struct name_key *v, size_t n, uint64_t rnd)
{
	struct range {
		size_t lo, hi;
	} stack[64];
	size_t sp = 0, lo = 0, hi = n;
	for (;;) {
		while (hi - lo > SORT_SMALL) {
			size_t m = hi - lo;
			size_t a = lo + next_random(&rnd) % m, b = lo + next_random(&rnd) % m;
			size_t p =
			        partition(v, lo, hi, median3(v, a, b, lo + next_random(&rnd) % m));
			if (p - lo < hi - p - 1) {
				stack[sp++] = (struct range){p + 1, hi};
				hi = p;
			} else {
				stack[sp++] = (struct range){lo, p};
				lo = p + 1;
			}
		}
		insertion_sort(v + lo, hi - lo);
		if (sp == 0) {
			return;
		}
		sp--;
		lo = stack[sp].lo;
		hi = stack[sp].hi;
	}
}

/* Keys drawn for the pivot that splits the sort between two threads. */
#define SPLIT_SAMPLE 15

/* The index of a key near the median of v[0, n): the middle of a sample. */
static size_t
sampled_median(const struct name_key *v, size_t n, uint64_t *rnd)
{
	size_t idx[SPLIT_SAMPLE];
	for (size_t i = 0; i < SPLIT_SAMPLE; i++) {
		size_t x = next_random(rnd) % n, j = i;
		for (; j > 0 && key_less(&v[x], &v[idx[j - 1]]); j--) {
			idx[j] = idx[j - 1];
		}
		idx[j] = x;
	}
	return idx[SPLIT_SAMPLE / 2];
}

struct sort_half {
	struct name_key *v;
	size_t n;
	uint64_t rnd;
};

static void *
sort_half(void *arg)
{
	struct sort_half *h = arg;
	sort_keys(h->v, h->n, h->rnd);
	return NULL;
}

/* Below this many names a second thread costs more than it saves. */
#define SORT_THREAD_MIN 32768

/*
 * sort_keys, on two cores for many names: one partition around a key near
 * the median, then each side on its own thread.
 */
void
name_sort(struct name_key *v, size_t n, uint64_t seed)
{
	uint64_t rnd = seed;
	pthread_t helper;
	if (n < SORT_THREAD_MIN) {
		sort_keys(v, n, rnd);
		return;
	}
	size_t p = partition(v, 0, n, sampled_median(v, n, &rnd));
	struct sort_half low = {v, p, next_random(&rnd)};
	bool threaded = pthread_create(&helper, NULL, sort_half, &low) == 0;
	if (!threaded) {
		sort_half(&low);
	}
	sort_keys(v + p + 1, n - p - 1, next_random(&rnd));
	if (threaded) {
		pthread_join(helper, NULL);
	}
}

void
name_sort_plain(struct name_key *v, size_t n, uint64_t seed)
{
	sort_keys(v, n, seed);
}
