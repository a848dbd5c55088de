/*
 * hash: hashes of byte strings.
 *
 * The tables keyed by input bytes (the tree's stack paths, the interned
 * names) use hash_bytes with hash_seed(), a value drawn at random once per
 * process: frame names come from untrusted code, and names crafted to land
 * in one bucket of a fixed hash would make linear probing quadratic (a few
 * MB of such a profile took seconds instead of milliseconds). The seed keys
 * the mixing; it is not a cryptographic guarantee, but no set of names can
 * be computed ahead of time. Nothing written depends on these values.
 *
 * What must be the same in every run (colours by name, the SVG id prefix)
 * uses hash_stable instead.
 */
#ifndef DIFFFOLD_HASH_H
#define DIFFFOLD_HASH_H

#include <stddef.h>
#include <stdint.h>

/* Random, drawn once per process (thread-safe); the same for every call. */
uint64_t hash_seed(void);

/* One step of the keyed hash over an 8-byte word (little-endian load). */
static inline uint64_t
hash_mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 31);
}

/* The last step, with the length. */
static inline uint64_t
hash_end(uint64_t h, size_t len)
{
	h = (h ^ len) * 0x94d049bb133111ebull;
	return h ^ (h >> 29);
}

/*
 * Keyed hash: from h = seed, hash_mix over each 8-byte word, then over the
 * zero-padded rest if any, then hash_end. Streaming versions (tree_build.c's
 * frame scanner) must give the same value.
 */
uint64_t hash_bytes(const void *s, size_t len, uint64_t seed);

/* The same value in every run and version of difffold. */
uint64_t hash_stable(const void *s, size_t len);

#endif
