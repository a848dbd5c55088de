#include "idmap.h"

#include <stdlib.h>

#include "hash.h"
#include "xalloc.h"

void
idmap_finish(struct idmap *m)
{
	free(m->keys);
	free(m->vals);
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
	idmap_finish(&old);
}

bool
idmap_get(const struct idmap *m, uint64_t key, uint32_t *val)
{
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
idmap_set(struct idmap *m, uint64_t key, uint32_t val)
{
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
