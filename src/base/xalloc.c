#include "xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

static void (*volatile oom_hook)(void);

void
xalloc_set_oom_hook(void (*hook)(void))
{
	oom_hook = hook;
}

/*
 * Exit 1 like any other failure, with no temporary output file left behind.
 * _exit, not exit: another thread may be running, and atexit handlers or a
 * leak check have nothing useful to do with a heap that ran out.
 */
static void
out_of_memory(size_t size)
{
	fprintf(stderr, "difffold: out of memory (asked for %zu bytes)\n", size);
	void (*hook)(void) = oom_hook;
	if (hook) {
		hook();
	}
	_exit(1);
}

void *
xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p) {
		out_of_memory(size);
	}
	return p;
}

void *
xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p) {
		out_of_memory(count * size);
	}
	return p;
}

void *
xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);
	if (!p) {
		out_of_memory(size);
	}
	return p;
}

void *
xgrow_to(void *ptr, size_t *cap, size_t need, size_t elem_size)
{
	size_t n = *cap ? *cap : 16;
	while (n < need) {
		if (n > SIZE_MAX / 2) {
			out_of_memory(SIZE_MAX);
		}
		n *= 2;
	}
	if (n > SIZE_MAX / elem_size) {
		out_of_memory(SIZE_MAX);
	}
	*cap = n;
	return xrealloc(ptr, n * elem_size);
}

/* Below this many bytes the page faults cost less than madvise. */
#define PREFAULT_MIN ((size_t)1 << 20)

void
xprefault_zeroed(void *p, size_t size)
{
	volatile char *c = p;
	if (size >= PREFAULT_MIN) {
		xprefault(p, size); /* the whole pages inside */
	} else {
		/* Where xprefault does nothing: a zero written into every page
		 * (4 KiB apart, the smallest page there is) faults it in. */
		for (size_t i = 0; i < size; i += 4096) {
			c[i] = 0;
		}
	}
	if (size) {
		c[0] = 0; /* the partial pages at both ends */
		c[size - 1] = 0;
	}
}

void *
xcalloc_written(size_t count, size_t size)
{
	void *p = xcalloc(count, size);
	xprefault_zeroed(p, count * size); /* calloc checked the product */
	return p;
}

char *
xmemdup(const void *p, size_t len)
{
	char *s = xmalloc(len + 1);
	if (len) {
		memcpy(s, p, len);
	}
	s[len] = '\0';
	return s;
}

char *
xstrdup(const char *s)
{
	return xmemdup(s, strlen(s));
}

void
xprefault(void *p, size_t size)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
	if (size < PREFAULT_MIN) {
		return;
	}
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t hi = ((uintptr_t)p + size) & ~(page - 1);
	if (hi > lo) {
		/* A kernel before 5.14 says EINVAL: the pages then fault as usual. */
		(void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
	}
#else
	(void)p;
	(void)size;
#endif
}
