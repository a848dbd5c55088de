#include "hash.h"

#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/random.h>
#endif

static uint64_t seed;
static pthread_once_t seed_once = PTHREAD_ONCE_INIT;

static void
draw_seed(void)
{
	uint64_t s = 0;
#if defined(__linux__)
	if (getrandom(&s, sizeof(s), GRND_NONBLOCK) == (ssize_t)sizeof(s)) {
		seed = s;
		return;
	}
#endif
	/* No entropy source: the clock, the process and where the stack is
	 * (ASLR) still make the seed unknown ahead of time. */
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	s = hash_mix(s, (uint64_t)ts.tv_sec);
	s = hash_mix(s, (uint64_t)ts.tv_nsec);
	s = hash_mix(s, (uint64_t)getpid());
	s = hash_mix(s, (uint64_t)(uintptr_t)&s);
	seed = s;
}

uint64_t
hash_seed(void)
{
	pthread_once(&seed_once, draw_seed);
	return seed;
}

uint64_t
hash_bytes(const void *p, size_t len, uint64_t h)
{
	const char *s = p;
	size_t i = 0;
	for (; i + 8 <= len; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		h = hash_mix(h, w);
	}
	if (i < len) {
		uint64_t w = 0;
		memcpy(&w, s + i, len - i);
		h = hash_mix(h, w);
	}
	return hash_end(h, len);
}

uint64_t
hash_stable(const void *p, size_t len)
{
	/* Kept bit for bit as it was first written: colours and id prefixes
	 * in existing graphs and tests derive from it. */
	const char *s = p;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ (len * 0xff51afd7ed558ccdull);
	for (; len >= 8; s += 8, len -= 8) {
		uint64_t w;
		memcpy(&w, s, 8);
		h = hash_mix(h, w);
	}
	uint64_t w = 0;
	memcpy(&w, s, len);
	h = (h ^ w) * 0x94d049bb133111ebull;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return h;
}
