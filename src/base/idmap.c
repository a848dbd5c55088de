#include "idmap.h"

#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "xalloc.h"

void
idmap_finish(struct idmap *m)
{
	free(m->keys);
	free(m->vals);
	free(m->dense);
}

static size_t
idmap_pos(const struct idmap *m, uint64_t key)
{
	size_t i = hash_end(hash_mix(m->seed, key), 8) & m->mask;
	while (m->keys[i] && m->keys[i] != key + 1) {
		i = (i + 1) & m->mask;
	}
	return i;
}

static void
idmap_grow(struct idmap *m)
{
	struct idmap old = *m;
	size_t size = old.keys ? (old.mask + 1) * 2 : 256;
	m->keys = xcalloc(size, sizeof(*m->keys));
	m->vals = xmalloc(size * sizeof(*m->vals));
	m->mask = size - 1;
	m->seed = hash_seed(); /* kept: hash_seed() is a call a lookup */
	for (size_t i = 0; old.keys && i <= old.mask; i++) {
		if (old.keys[i]) {
			size_t j = idmap_pos(m, old.keys[i] - 1);
			m->keys[j] = old.keys[i];
			m->vals[j] = old.vals[i];
		}
	}
	free(old.keys);
	free(old.vals);
}

/* Keys under this many past twice the dense entries go to the array. */
#define DENSE_SLACK 4096

/*
 * Whether key goes to the array, which it is made to hold. A key set in
 * the hash before the array reached it may stay there too: the array's
 * entry, newer, is the one read.
 */
static bool
dense_slot(struct idmap *m, uint64_t key)
{
	if (key < m->dense_cap) {
		return true;
	}
	if (key >= 2 * (uint64_t)m->dense_count + DENSE_SLACK) {
		return false;
	}
	size_t cap = m->dense_cap * 2 > key + 1 ? m->dense_cap * 2 : (size_t)key + 1;
	m->dense = xrealloc(m->dense, cap * sizeof(*m->dense));
	memset(m->dense + m->dense_cap, 0, (cap - m->dense_cap) * sizeof(*m->dense));
	m->dense_cap = cap;
	return true;
}

bool
idmap_get_hashed(const struct idmap *m, uint64_t key, uint32_t *val)
{
	if (key == UINT64_MAX) {
		*val = m->max_val;
		return m->has_max;
	}
	if (!m->keys) {
		return false;
	}
	size_t i = idmap_pos(m, key);
	if (!m->keys[i]) {
		return false;
	}
	*val = m->vals[i];
	return true;
}

void
idmap_set_other(struct idmap *m, uint64_t key, uint32_t val)
{
	if (key == UINT64_MAX) {
		m->has_max = true;
		m->max_val = val;
		return;
	}
	if (val != UINT32_MAX && dense_slot(m, key)) {
		m->dense_count += m->dense[key] == 0;
		m->dense[key] = val + 1;
		return;
	}
	if (key < m->dense_cap && m->dense[key]) {
		m->dense[key] = 0; /* the hash's entry, newer, is then the one read */
		m->dense_count--;
	}
	/* At most half full: linear probing's misses stay a probe or two. */
	if (!m->keys || (m->count + 1) * 2 > m->mask + 1) {
		idmap_grow(m);
	}
	size_t i = idmap_pos(m, key);
	if (!m->keys[i]) {
		m->keys[i] = key + 1;
		m->count++;
	}
	m->vals[i] = val;
}
