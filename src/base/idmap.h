/*
 * idmap: a map from 64-bit keys to 32-bit values (open addressing, keyed
 * hash, grows), for the callgrind reader's compressed names, functions and
 * call edges. Embedded: zero it to start, idmap_finish to free it.
 *
 * Small keys (compressed ids and name ids count up from 0 or 1) go to a
 * plain array instead, which grows only to about twice the keys it holds,
 * so a file of huge ids still costs memory by its entries, not its ids.
 */
#ifndef DIFFFOLD_IDMAP_H
#define DIFFFOLD_IDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct idmap {
	uint64_t *keys; /* key + 1; 0 is empty */
	uint32_t *vals;
	size_t mask, count;
	uint64_t seed; /* hash_seed(), from the first insertion */
	uint32_t *dense; /* dense[key]: val + 1, 0: not here (look in the hash) */
	size_t dense_cap, dense_count;
	/* The one key the hash cannot hold (key + 1 would be 0, empty). */
	bool has_max;
	uint32_t max_val;
};

void idmap_finish(struct idmap *m);
/* idmap_set for a key the array does not hold yet, or a value it cannot. */
void idmap_set_other(struct idmap *m, uint64_t key, uint32_t val);
/* The hashed part of idmap_get, for keys the array does not hold. */
bool idmap_get_hashed(const struct idmap *m, uint64_t key, uint32_t *val);

/* Inline: the callgrind reader looks a compressed id up on most lines. */
static inline bool
idmap_get(const struct idmap *m, uint64_t key, uint32_t *val)
{
	if (key < m->dense_cap && m->dense[key]) {
		*val = (uint32_t)(m->dense[key] - 1);
		return true;
	}
	return idmap_get_hashed(m, key, val);
}

/* Inline: the callgrind reader sets one for each name and function. */
static inline void
idmap_set(struct idmap *m, uint64_t key, uint32_t val)
{
	/* The array holds val + 1 in 32 bits: the one value it cannot is hashed. */
	if (key < m->dense_cap && val != UINT32_MAX) {
		m->dense_count += m->dense[key] == 0;
		m->dense[key] = val + 1;
		return;
	}
	idmap_set_other(m, key, val);
}

#endif
