#include "intern.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "name_sort.h"
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
 * The ids of the sorted keys, packed at the front of the keys' memory: each
 * id is read before anything is written over its key.
 */
static uint32_t *
pack_ids(struct name_key *keys, size_t n)
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
	struct name_key *keys = xmalloc(n * sizeof(*keys));
	xprefault(keys, n * sizeof(*keys));
	for (size_t i = 0; i < in->count; i++) {
		name_key_init(&keys[i], in->entries[i].bytes, in->entries[i].len, (uint32_t)i);
	}
	name_sort(keys, in->count, hash_seed() | 1);
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
