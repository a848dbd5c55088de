/*
 * xalloc: allocation that never returns NULL. Running out of memory is not
 * an input error difffold can report usefully, so it prints "difffold: out
 * of memory", runs the clean-up hook a higher layer registered (output
 * registers the removal of its temporary files) and exits with status 1.
 */
#ifndef DIFFFOLD_XALLOC_H
#define DIFFFOLD_XALLOC_H

#include <stddef.h>

/*
 * Sets the function run when memory runs out, just before the exit: it must
 * be async-signal-safe (it may run on any thread, amid any allocation) and
 * must not allocate. NULL removes it. The lower layer calls up only through
 * this pointer, so it needs none of the code above it.
 */
void xalloc_set_oom_hook(void (*hook)(void));

void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *ptr, size_t size);
/* Grows an array to hold at least `need` (> *cap) elements; *cap is updated. */
void *xgrow_to(void *ptr, size_t *cap, size_t need, size_t elem_size);

/*
 * Makes room for at least `need` elements. Inline: most calls, once an
 * element added, find the room there already.
 */
static inline void *
xgrow(void *ptr, size_t *cap, size_t need, size_t elem_size)
{
	return need <= *cap ? ptr : xgrow_to(ptr, cap, need, elem_size);
}

/*
 * A hint that all of [p, p + size) is about to be written: a big fresh
 * block is then faulted in with one system call instead of a page fault
 * per 4 KiB page. Does nothing for small blocks or where unsupported.
 */
void xprefault(void *p, size_t size);
/*
 * xcalloc whose pages are faulted in for writing. A page of fresh memory
 * that is read first maps the shared zero page, and replacing it at the
 * first write flushes the TLB of every core the process has run on: with
 * a second thread, an interrupt to the other core for every page, which
 * is slow in a VM.
 */
void *xcalloc_written(size_t count, size_t size);
/* The same for part of a block: p..p+size must hold zeroes (from calloc). */
void xprefault_zeroed(void *p, size_t size);
char *xstrdup(const char *s);
char *xmemdup(const void *p, size_t len); /* NUL-terminated copy */

#endif
