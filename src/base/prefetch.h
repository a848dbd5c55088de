/*
 * prefetch: a hint to start loading the cache line at an address. The
 * lookups of the tree and the name table issue it for work a few steps
 * ahead, so their cache misses overlap; it never changes a result.
 */
#ifndef DIFFFOLD_PREFETCH_H
#define DIFFFOLD_PREFETCH_H

static inline void
prefetch(const void *p)
{
#if defined(__GNUC__)
	__builtin_prefetch(p);
#else
	(void)p;
#endif
}

#endif
