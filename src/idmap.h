/*
 * idmap: a map from 64-bit keys to 32-bit values (open addressing, keyed
 * hash, grows), for the callgrind reader's compressed names, functions and
 * call edges. Embedded: zero it to start, idmap_finish to free it.
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
};

void idmap_finish(struct idmap *m);
bool idmap_get(const struct idmap *m, uint64_t key, uint32_t *val);
void idmap_set(struct idmap *m, uint64_t key, uint32_t val);

#endif
