/*
 * callgrind_private: the reader's state and the small steps both of its
 * parsers take, shared by callgrind.c (the reader as the specification
 * says it, a line at a time: callgrind_line) and callgrind_fast.c (the
 * same grammar read a chunk at a time in its usual forms, falling back to
 * callgrind_line for anything else). Inline, so each parser keeps them
 * inlined in its loops. Private to callgrind*.c.
 */
#ifndef DIFFFOLD_CALLGRIND_PRIVATE_H
#define DIFFFOLD_CALLGRIND_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "bounds.h"
#include "callgraph.h"
#include "callgrind.h"
#include "idmap.h"
#include "intern.h"

#define NONE UINT32_MAX
#define MAX_EVENTS 64

/* The three name spaces of the compression: objects, files, functions. */
enum space {
	SPACE_OBJECT,
	SPACE_FILE,
	SPACE_FUNCTION,
};

/* The keys of the name lines (ob= fl= fi= fe= fn= cob= cfi= cfl= cfn=). */
enum key {
	KEY_OB,
	KEY_FL,
	KEY_FI,
	KEY_FE,
	KEY_FN,
	KEY_COB,
	KEY_CFI,
	KEY_CFL,
	KEY_CFN,
};

static inline enum space
key_space(enum key key)
{
	switch (key) {
	case KEY_OB:
	case KEY_COB:
		return SPACE_OBJECT;
	case KEY_FN:
	case KEY_CFN:
		return SPACE_FUNCTION;
	default:
		return SPACE_FILE;
	}
}

struct callgrind {
	const char *name;
	struct diag *err; /* while a source is parsed (parse_chunk) */
	struct source *src; /* callgrind_read's, for the work bound; NULL: none */
	struct callgrind_options opt;
	uint64_t line_no;
	struct callgraph graph;
	struct idmap ids[3]; /* compressed id -> name id */
	struct idmap function_of; /* file << 32 | name -> function */
	struct idmap function_of_id; /* compressed id -> function */
	/* header */
	char events[MAX_EVENTS][64];
	size_t event_count;
	int64_t coef[MAX_EVENTS]; /* the chosen event as a sum of the file's */
	size_t single; /* the chosen event's index when it is one of the file's */
	bool event_chosen;
	size_t positions;
	uint64_t totals, summary, self_sum; /* each summed over the parts */
	bool has_totals, has_summary;
	/* position state */
	uint32_t object, file, cur_file, fn;
	uint32_t call_object, call_file, call_fn;
	uint64_t call_fn_id; /* its compressed id, UINT64_MAX if none */
	bool in_call; /* the next line is a call's inclusive cost */
	uint32_t call_target;
	uint16_t *forms; /* short_cost's table, made for the first short line */
	/*
	 * The function name defined last and its intern_hash: a function is
	 * mostly made just after its name is defined (fn=, or cfn= and calls=),
	 * and its frame then takes the hash.
	 */
	uint32_t hashed_name;
	uint64_t hashed;
	/*
	 * The names are the tree's own table (the whole-file reads, which
	 * have the tree from the start): a frame's name is then interned once.
	 */
	bool shared_names;
};

/* The function of a new key (its compressed id, or file and name). */
uint32_t callgrind_new_function(struct callgrind *cg, struct idmap *m, uint64_t key, uint32_t file,
        uint32_t name, uint32_t object);

/*
 * A calls= line, read: the next line is the call's inclusive cost. Not
 * inline: the fast path's loop stays small around the rarer calls.
 */
void callgrind_start_call(struct callgrind *cg);

/*
 * Feeds the lines of [p, last], where *last is a newline, by the fast
 * paths where they can and callgrind_line where not; returns the byte
 * after last, or NULL when a line was refused (err says why).
 */
const char *callgrind_feed(struct callgrind *cg, const char *p, const char *last, struct diag *err);

static inline bool
is_digit(char c)
{
	return (unsigned)(c - '0') < 10;
}

/* "(id) name": the name, which id stands for from now on. */
static inline uint32_t
define_name(struct callgrind *cg, enum space space, uint64_t id, const char *s, size_t len)
{
	uint64_t hash = intern_hash(s, len);
	uint32_t name = intern_add_hashed(cg->graph.names, s, len, hash);
	if (space == SPACE_FUNCTION) {
		cg->hashed_name = name;
		cg->hashed = hash;
	}
	idmap_set(&cg->ids[space], id, name);
	return name;
}

/* Inline: a function met again is one look-up, on most fn= and calls= lines. */
static inline __attribute__((always_inline)) uint32_t
function_id(
        struct callgrind *cg, uint64_t compressed, uint32_t file, uint32_t name, uint32_t object)
{
	/* Compressed ids in a map of their own: small, they index its array. */
	struct idmap *m = compressed != UINT64_MAX ? &cg->function_of_id : &cg->function_of;
	uint64_t key = compressed != UINT64_MAX ? compressed : (uint64_t)file << 32 | name;
	uint32_t id;
	if (idmap_get(m, key, &id)) {
		return id;
	}
	return callgrind_new_function(cg, m, key, file, name, object);
}

/* * + - and the digits: a table, one load a line. */
static const bool position_start[256] = {
        ['*'] = true,
        ['+'] = true,
        ['-'] = true,
        ['0'] = true,
        ['1'] = true,
        ['2'] = true,
        ['3'] = true,
        ['4'] = true,
        ['5'] = true,
        ['6'] = true,
        ['7'] = true,
        ['8'] = true,
        ['9'] = true,
};

static inline bool
is_position_start(char c)
{
	return position_start[(unsigned char)c];
}

/*
 * The key of a name line (ob fl fi fe fn cob cfi cfl cfn), decoded by
 * hand: it is most lines but the cost lines. False for another key.
 */
static inline bool
name_key(const char *p, const char *eq, enum key *key)
{
	size_t n = (size_t)(eq - p);
	bool call = n == 3 && p[0] == 'c';
	const char *k = call ? p + 1 : p;
	if (n != 2 && !call) {
		return false;
	}
	if (k[0] == 'o' && k[1] == 'b') {
		*key = call ? KEY_COB : KEY_OB;
	} else if (k[0] == 'f' && k[1] == 'l') {
		*key = call ? KEY_CFL : KEY_FL;
	} else if (k[0] == 'f' && k[1] == 'i') {
		*key = call ? KEY_CFI : KEY_FI;
	} else if (k[0] == 'f' && k[1] == 'e' && !call) {
		*key = KEY_FE; /* no cfe */
	} else if (k[0] == 'f' && k[1] == 'n') {
		*key = call ? KEY_CFN : KEY_FN;
	} else {
		return false;
	}
	return true;
}

/* What a name line sets: the position, the function, or the call's. */
static inline void
set_name(struct callgrind *cg, enum key key, uint32_t id, uint64_t compressed)
{
	struct callgraph_function *f;
	switch (key) {
	case KEY_OB:
		cg->object = id;
		break;
	case KEY_COB:
		cg->call_object = id;
		break;
	case KEY_FL:
		cg->file = cg->cur_file = id;
		break;
	case KEY_FI:
	case KEY_FE:
		cg->cur_file = id; /* inlined code's file */
		break;
	case KEY_CFI:
	case KEY_CFL:
		cg->call_file = id;
		break;
	case KEY_FN:
		cg->fn = function_id(cg, compressed, cg->file, id, cg->object);
		f = &cg->graph.fns[cg->fn];
		f->defined = true;
		f->file = cg->file; /* a call may have named another */
		f->object = cg->object;
		break;
	case KEY_CFN:
		cg->call_fn = id;
		cg->call_fn_id = compressed;
		break;
	}
}

#endif
