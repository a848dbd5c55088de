/*
 * intern: the table of distinct frame names. Each name's bytes are stored
 * once and get a dense id, so the tree compares ids instead of strings.
 * Names are arbitrary bytes (NUL included); they are not NUL-terminated.
 */
#ifndef DIFFFOLD_INTERN_H
#define DIFFFOLD_INTERN_H

#include <stddef.h>
#include <stdint.h>

/* perf's annotation suffixes, kept in the name but recorded for colouring. */
enum annotation {
	ANNOTATION_NONE,
	ANNOTATION_KERNEL, /* _[k] */
	ANNOTATION_JIT, /* _[j] */
	ANNOTATION_INLINED, /* _[i] */
	ANNOTATION_WAKER, /* _[w] */
};

struct intern;

struct intern *intern_create(void);
void intern_destroy(struct intern *in);
/* Returns the id of the name, adding it if new. */
uint32_t intern_add(struct intern *in, const char *name, size_t len);
/*
 * intern_add for callers that already have intern_hash(name, len): they can
 * also intern_prefetch the name's slot some time before adding it.
 */
uint32_t intern_add_hashed(struct intern *in, const char *name, size_t len, uint64_t hash);
void intern_prefetch(const struct intern *in, uint64_t hash);
/* The load after intern_prefetch: the entry its slot points to, once the slot is in cache. */
void intern_prefetch_entry(const struct intern *in, uint64_t hash);
uint32_t intern_count(const struct intern *in);
/*
 * Gives back what only adding names needs (the hash slots, the spare room
 * of the entries): for a table whose names are all in. Adding or merging a
 * name later rebuilds the slots first.
 */
void intern_trim(struct intern *in);
/* The stored bytes of id; valid until intern_destroy. */
const char *intern_name(const struct intern *in, uint32_t id, size_t *len);
enum annotation intern_annotation(const struct intern *in, uint32_t id);
/*
 * A rank per id such that rank order is byte order of the names (shorter
 * prefix first). The array is owned by the table; it is sorted again only
 * when names were added since the last call.
 */
const uint32_t *intern_ranks(struct intern *in);
/* Length of the name without its annotation suffix. */
size_t intern_bare_len(const struct intern *in, uint32_t id);
/* The table's hash of a name: keyed per process (see hash.h), so it is
 * not the same from one run to the next. */
uint64_t intern_hash(const char *s, size_t len);

#endif
