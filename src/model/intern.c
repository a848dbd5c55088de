#include "intern.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "prefetch.h"
#include "xalloc.h"

#define CHUNK_SIZE ((size_t)256 * 1024)

struct entry {
	const char *bytes;
	uint32_t len;
	uint32_t hash; /* folded hash: slot index and tag; rehashing needs no bytes */
};

struct intern {
	struct entry *entries;
	size_t count, cap;
	/*
	 * Open addressing: hash << 32 | (id + 1), 0 = empty. The hash beside the
	 * id lets a probe pass other names without loading their entries.
	 */
	uint64_t *slots;
	size_t slot_mask;
	char **chunks;
	size_t chunk_count, chunk_cap;
	size_t chunk_used, chunk_size;
	uint32_t *ranks;
	size_t ranks_count; /* names ranked; names are only ever added */
};

uint64_t
intern_hash(const char *s, size_t len)
{
	return hash_bytes(s, len, hash_seed());
}

struct intern *
intern_create(void)
{
	struct intern *in = xcalloc(1, sizeof(*in));
	in->slot_mask = 1023;
	in->slots = xcalloc(in->slot_mask + 1, sizeof(uint64_t));
	return in;
}

void
intern_destroy(struct intern *in)
{
	if (!in) {
		return;
	}
	for (size_t i = 0; i < in->chunk_count; i++) {
		free(in->chunks[i]);
	}
	free(in->chunks);
	free(in->entries);
	free(in->slots);
	free(in->ranks);
	free(in);
}

static const char *
store(struct intern *in, const char *name, size_t len)
{
	if (in->chunk_count == 0 || in->chunk_used + len > in->chunk_size) {
		size_t size = len > CHUNK_SIZE ? len : CHUNK_SIZE;
		in->chunks = xgrow(in->chunks, &in->chunk_cap, in->chunk_count + 1, sizeof(char *));
		in->chunks[in->chunk_count++] = xmalloc(size);
		in->chunk_used = 0;
		in->chunk_size = size;
	}
	char *p = in->chunks[in->chunk_count - 1] + in->chunk_used;
	if (len) {
		memcpy(p, name, len);
	}
	in->chunk_used += len;
	return p;
}

static uint32_t
fold(uint64_t h)
{
	return (uint32_t)(h >> 32) ^ (uint32_t)h;
}

/* Slots for every name so far, in a table of mask + 1 slots. */
static void
fill_slots(struct intern *in, size_t mask)
{
	uint64_t *slots = xcalloc_written(mask + 1, sizeof(uint64_t));
	for (size_t id = 0; id < in->count; id++) {
		uint32_t hash = in->entries[id].hash;
		size_t i = hash & mask;
		while (slots[i]) {
			i = (i + 1) & mask;
		}
		slots[i] = (uint64_t)hash << 32 | (id + 1);
	}
	free(in->slots);
	in->slots = slots;
	in->slot_mask = mask;
}

static void
rehash(struct intern *in)
{
	fill_slots(in, in->slot_mask * 2 + 1);
}

void
intern_trim(struct intern *in)
{
	free(in->slots);
	in->slots = NULL;
	in->cap = in->count ? in->count : 1;
	in->entries = xrealloc(in->entries, in->cap * sizeof(struct entry));
}

/* After intern_trim: the slots again, before a name is added or looked up. */
static void
ensure_slots(struct intern *in)
{
	if (!in->slots) {
		fill_slots(in, in->slot_mask);
	}
}

void
intern_prefetch(const struct intern *in, uint64_t hash)
{
	if (!in->slots) {
		return;
	}
	prefetch(&in->slots[fold(hash) & in->slot_mask]);
}

/*
 * Once the slot is in cache: the entry of the first name in it with this
 * hash, which is the name looked for unless two names share the hash.
 */
void
intern_prefetch_entry(const struct intern *in, uint64_t hash)
{
	if (!in->slots) {
		return;
	}
	uint32_t h = fold(hash);
	for (size_t i = h & in->slot_mask; in->slots[i] != 0; i = (i + 1) & in->slot_mask) {
		if ((uint32_t)(in->slots[i] >> 32) == h) {
			prefetch(&in->entries[(uint32_t)in->slots[i] - 1]);
			return;
		}
	}
}

/* intern_add_hashed, with the hash as the slots keep it. */
static uint32_t
add_folded(struct intern *in, const char *name, size_t len, uint32_t hash)
{
	ensure_slots(in);
	size_t i = hash & in->slot_mask;
	for (uint64_t s; (s = in->slots[i]) != 0; i = (i + 1) & in->slot_mask) {
		if ((uint32_t)(s >> 32) != hash) {
			continue;
		}
		const struct entry *e = &in->entries[(uint32_t)s - 1];
		if (e->len == len && memcmp(e->bytes, name, len) == 0) {
			return (uint32_t)s - 1;
		}
	}
	uint32_t id = (uint32_t)in->count;
	in->entries = xgrow(in->entries, &in->cap, in->count + 1, sizeof(struct entry));
	in->entries[id].bytes = store(in, name, len);
	in->entries[id].len = (uint32_t)len;
	in->entries[id].hash = hash;
	in->count++;
	in->slots[i] = (uint64_t)hash << 32 | (id + 1);
	/* Up to 13/16 full, as the tree's table: a probe compares the hashes
	 * kept in the slots, so a longer probe stays cheap, and the slots were
	 * a sixth of the memory of big inputs at half full. */
	if (in->count > (in->slot_mask + 1) / 16 * 13) {
		rehash(in);
	}
	return id;
}

uint32_t
intern_add_hashed(struct intern *in, const char *name, size_t len, uint64_t full_hash)
{
	return add_folded(in, name, len, fold(full_hash));
}

uint32_t
intern_add(struct intern *in, const char *name, size_t len)
{
	return intern_add_hashed(in, name, len, intern_hash(name, len));
}

uint32_t
intern_count(const struct intern *in)
{
	return (uint32_t)in->count;
}

const char *
intern_name(const struct intern *in, uint32_t id, size_t *len)
{
	*len = in->entries[id].len;
	return in->entries[id].bytes;
}

enum annotation
intern_annotation(const struct intern *in, uint32_t id)
{
	const struct entry *e = &in->entries[id];
	if (e->len < 4) {
		return ANNOTATION_NONE;
	}
	const char *t = e->bytes + e->len - 4;
	if (t[0] != '_' || t[1] != '[' || t[3] != ']') {
		return ANNOTATION_NONE;
	}
	switch (t[2]) {
	case 'k':
		return ANNOTATION_KERNEL;
	case 'j':
		return ANNOTATION_JIT;
	case 'i':
		return ANNOTATION_INLINED;
	case 'w':
		return ANNOTATION_WAKER;
	default:
		return ANNOTATION_NONE;
	}
}

size_t
intern_bare_len(const struct intern *in, uint32_t id)
{
	size_t len = in->entries[id].len;
	return intern_annotation(in, id) == ANNOTATION_NONE ? len : len - 4;
}

/*
 * A name's first 24 bytes as big-endian numbers: most comparisons stop there
 * without touching the names (frame names share long prefixes: 8 bytes tell
 * apart only one name in ten).
 */
#define RANK_WORDS 3

struct rank_key {
	/* Zero-padded: a shorter name never sorts after a longer one. */
	uint64_t prefix[RANK_WORDS];
	const char *bytes; /* for ties, without a trip through the entries */
	uint32_t len;
	uint32_t id;
};

static void
prefix_of(const struct entry *e, uint64_t *prefix)
{
	for (size_t w = 0; w < RANK_WORDS; w++) {
		/* Most names are longer than the prefix: whole words, copied at once. */
		unsigned char b[8] = {0};
		size_t at = w * 8;
		if (e->len >= at + 8) {
			memcpy(b, e->bytes + at, 8);
		} else {
			for (size_t i = at; i < e->len; i++) {
				b[i - at] = (unsigned char)e->bytes[i];
			}
		}
		uint64_t v = 0;
		for (size_t i = 0; i < 8; i++) {
			v = v << 8 | b[i];
		}
		prefix[w] = v;
	}
}

/* Byte order of the names, a shorter prefix first. */
static bool
key_less(const struct rank_key *a, const struct rank_key *b)
{
	for (size_t w = 0; w < RANK_WORDS; w++) {
		if (a->prefix[w] != b->prefix[w]) {
			return a->prefix[w] < b->prefix[w];
		}
	}
	/* The prefixes matched: the names agree on their first `skip` bytes. */
	size_t n = a->len < b->len ? a->len : b->len, skip = RANK_WORDS * sizeof(uint64_t);
	int c = n > skip ? memcmp(a->bytes + skip, b->bytes + skip, n - skip) : 0;
	return c != 0 ? c < 0 : a->len < b->len;
}

static void
swap_keys(struct rank_key *a, struct rank_key *b)
{
	struct rank_key x = *a;
	*a = *b;
	*b = x;
}

/* Most ranges left by the partitions are a few keys: insertion sort there. */
#define SORT_SMALL 16

static void
insertion_sort(struct rank_key *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct rank_key x = v[i];
		size_t j = i;
		for (; j > 0 && key_less(&x, &v[j - 1]); j--) {
			v[j] = v[j - 1];
		}
		v[j] = x;
	}
}

/* The index of the median of v[a], v[b], v[c]. */
static size_t
median3(const struct rank_key *v, size_t a, size_t b, size_t c)
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
partition(struct rank_key *v, size_t lo, size_t hi, size_t pivot)
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
sort_keys(struct rank_key *v, size_t n, uint64_t rnd)
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
sampled_median(const struct rank_key *v, size_t n, uint64_t *rnd)
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
	struct rank_key *v;
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
static void
sort_all_keys(struct rank_key *v, size_t n)
{
	uint64_t rnd = hash_seed() | 1;
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

/*
 * The ids of the sorted keys, packed at the front of the keys' memory: each
 * id is read before anything is written over its key.
 */
static uint32_t *
pack_ids(struct rank_key *keys, size_t n)
{
	char *to = (char *)keys;
	for (size_t r = 0; r < n; r++) {
		uint32_t id = keys[r].id;
		memcpy(to + r * sizeof(id), &id, sizeof(id));
	}
	return (uint32_t *)(void *)keys;
}

const uint32_t *
intern_ranks(struct intern *in)
{
	if (in->ranks && in->ranks_count == in->count) {
		return in->ranks;
	}
	size_t n = in->count ? in->count : 1;
	struct rank_key *keys = xmalloc(n * sizeof(*keys));
	xprefault(keys, n * sizeof(*keys));
	for (size_t i = 0; i < in->count; i++) {
		prefix_of(&in->entries[i], keys[i].prefix);
		keys[i].bytes = in->entries[i].bytes;
		keys[i].len = in->entries[i].len;
		keys[i].id = (uint32_t)i;
	}
	sort_all_keys(keys, in->count);
	/*
	 * The ranks are written from the ids alone: the keys give their room
	 * back first, so the ranks never sit beside them at the peak.
	 */
	uint32_t *order = xrealloc(pack_ids(keys, in->count), n * sizeof(uint32_t));
	free(in->ranks);
	in->ranks = xmalloc(n * sizeof(uint32_t));
	for (size_t r = 0; r < in->count; r++) {
		in->ranks[order[r]] = (uint32_t)r;
	}
	in->ranks_count = in->count;
	free(order);
	return in->ranks;
}
