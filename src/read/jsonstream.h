/*
 * jsonstream: the JSON profile readers' common parts (speedscope, gecko,
 * dhat). The document streams through yajl's event parser a chunk at a time
 * from source.c, so memory follows what a reader keeps (its tables and one
 * aggregate per distinct stack), never the document: a 1 GB profile is
 * never held whole, as a DOM parser (json-c) would hold it.
 *
 * A reader sees each value with its position: the stack of open containers,
 * each with the key (objects) or index (arrays) the value sits at. Keys are
 * kept to JSONSTREAM_KEY - 1 bytes; a longer key matches no pattern.
 *
 * Errors name the file and the line: yajl reports a byte offset, turned
 * into a line by counting the newlines already fed to it.
 *
 * json_stacks is a trie of frame indices (parent, frame) -> node with a
 * self count, filled as samples stream and turned into named stacks once
 * the frame names are known (key order in a document is not fixed).
 */
#ifndef DIFFFOLD_JSONSTREAM_H
#define DIFFFOLD_JSONSTREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "count.h"
#include "diag.h"
#include "idmap.h"
#include "source.h"
#include "tree.h"

#define JSONSTREAM_KEY 32 /* "preprocessedProfileVersion" fits */
#define JSONSTREAM_DEPTH 64

enum json_kind { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_OBJECT, JSON_ARRAY };

struct json_level {
	bool array;
	int tag; /* the reader's name for the container (jsonstream_tag_next), 0: none */
	uint64_t index; /* arrays: the position of the value being read */
	char key[JSONSTREAM_KEY]; /* objects: the key of that value, "" if too long */
};

struct jsonstream;

/*
 * A reader's callbacks; each returns false to stop with the error it set
 * (jsonstream_fail). value gets scalars (s: the string, the number's text,
 * "true"/"false"/"null") and, with kind JSON_OBJECT or JSON_ARRAY, the
 * opening of a container; close gets the end of one. Both see the value's
 * position (the container it is in is the last level).
 */
struct json_reader {
	bool (*value)(
	        void *ctx, struct jsonstream *js, enum json_kind kind, const char *s, size_t len);
	bool (*close)(void *ctx, struct jsonstream *js, enum json_kind kind);
};

struct jsonstream {
	const struct json_reader *reader;
	void *ctx;
	const char *name; /* the file, for messages */
	struct diag *err;
	size_t depth; /* open containers */
	struct json_level lv[JSONSTREAM_DEPTH];
	int next_tag; /* the tag of the container being opened */
	uint64_t line; /* 1 + newlines in the chunks fed so far */
	bool failed; /* a reader's error is set */
	void *handle; /* yajl_handle */
	const char *chunk; /* the chunk being fed, for the line of an error */
};

/* Reads src (head first) through reader; false with err set. */
bool jsonstream_read_source(struct source *src, const char *head, size_t head_len,
        const struct json_reader *reader, void *ctx, struct diag *err);

/*
 * Whether the value's position is the path pat: one element per open
 * container, a key, or "#" for any array index, or "*" for any key.
 */
bool jsonstream_at(const struct jsonstream *js, const char *const *pat, size_t n);
#define JSON_AT(js, ...)                                                                           \
	jsonstream_at((js), (const char *const[]){__VA_ARGS__},                                    \
	        sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))
/* The index of the value in container `level` (0: the document's). */
static inline uint64_t
jsonstream_index(const struct jsonstream *js, size_t level)
{
	return js->lv[level].index;
}
/*
 * Tags the container whose opening value() is being told, so that the
 * values in it are known by one comparison (the hot columns of a profile)
 * rather than by matching their path each time.
 */
static inline void
jsonstream_tag_next(struct jsonstream *js, int tag)
{
	js->next_tag = tag;
}
/* The tag of the container the value is in. */
static inline int
jsonstream_tag(const struct jsonstream *js)
{
	return js->depth ? js->lv[js->depth - 1].tag : 0;
}
/* Stops the parse with "name:line: reason" at the current line. */
bool jsonstream_fail(struct jsonstream *js, const char *reason);

/*
 * The value being opened sits at a key the reader reads once an object:
 * bit marks it in *seen (zeroed with the object). Met a second time it is
 * refused ("a second "KEY" key in WHERE"): JSON.parse keeps a key's last
 * value, and a reader that streams would add both up or keep the first,
 * so the graph would not be the one the Firefox Profiler or speedscope
 * shows. Keys whose later value simply replaces the earlier need no check.
 */
bool jsonstream_once(struct jsonstream *js, unsigned *seen, unsigned bit, const char *where);

/* A JSON number as an index (a non-negative integer below 2^32). */
bool json_index(const char *s, size_t len, uint32_t *out);
/* A non-negative JSON number as a count (exponents included). */
bool json_count(const char *s, size_t len, struct count *out);

/*
 * The count name for a profile's unit ("milliseconds", "bytes"...), a
 * static string; NULL for "none" or a unit we do not know.
 */
const char *json_unit_name(const char *unit);

/* The trie of stacks: node 0 is the root. */
struct json_stacks {
	struct idmap children; /* parent << 32 | frame -> node */
	uint32_t *parent, *frame;
	struct count *self;
	size_t count, cap;
};

void json_stacks_init(struct json_stacks *st);
void json_stacks_finish(struct json_stacks *st);
/* The child of node named frame, created if new. */
uint32_t json_stacks_child(struct json_stacks *st, uint32_t node, uint32_t frame);
/* Adds c to a node's self count; false past 2^64-1. */
bool json_stacks_add(struct json_stacks *st, uint32_t node, struct count c);

#define JSON_NONE UINT32_MAX /* no parent: a root */

/*
 * A forest of frames by parent links (a parent's index below its child's),
 * for turning counted nodes into the tree: speedscope's and DHAT's trie,
 * a Firefox profile's stack table.
 */
struct json_forest {
	const uint32_t *parent; /* JSON_NONE for a root */
	size_t count;
	/* Node's frame name; NULL, or the reason it has none. */
	const char *(*name)(void *ctx, uint32_t node, const char **s, size_t *len);
	void *ctx;
	const char *root; /* a frame above every root (a thread's name), or NULL */
	bool zero_is_root; /* node 0 is no frame but the root itself (the trie's) */
};

/*
 * Adds counts[k] at nodes[k] to a side of t, frame names with ';' made
 * ':'. Each node is named once (by cursor; by path under --reverse).
 * False with err set ("file: reason") on a node outside the forest, a
 * frame without a name or a count the tree refused.
 */
bool json_forest_emit(const struct json_forest *f, struct tree *t, enum side side,
        const uint32_t *nodes, const struct count *counts, size_t n, const char *file,
        struct diag *err);

struct json_strings;
/*
 * Every node with a self count, to a side of t (json_forest_emit), frame
 * i named by names' string i.
 */
bool json_stacks_emit(struct json_stacks *st, struct tree *t, enum side side,
        const struct json_strings *names, const char *file, struct diag *err);

/* Strings kept in order: a frame or string table. */
struct json_strings {
	struct buf bytes;
	size_t *starts; /* count + 1 offsets into bytes */
	size_t count, cap;
};

void json_strings_init(struct json_strings *s);
void json_strings_finish(struct json_strings *s);
void json_strings_push(struct json_strings *s, const char *p, size_t len);
bool json_strings_get(const struct json_strings *s, uint64_t i, const char **p, size_t *len);

/* A growable array of uint32 (table columns). */
struct json_u32s {
	uint32_t *v;
	size_t count, cap;
};

void json_u32s_push(struct json_u32s *a, uint32_t v);

#endif
