/*
 * match_private: what the passes of match.c and match_moves.c share: the
 * context of one run over a tree, and the tests of a frame's sides. Not
 * for use outside src/model/match*.c.
 */
#ifndef DIFFFOLD_MATCH_PRIVATE_H
#define DIFFFOLD_MATCH_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match.h"
#include "match_tree.h"

enum step_kind {
	STEP_LIFT, /* the frame is dropped: its counts and children go to its parent */
	STEP_WRAP, /* the frame goes under the inserted frame `to` */
	STEP_RENAME, /* the frame takes the name `to` */
	STEP_CARRY, /* the frame goes into frame `to`, a sibling of one of its callers */
};

/* What a base frame becomes. */
struct step {
	uint32_t node, to;
	enum step_kind kind;
};

/* The steps decided, and which frames have one. */
struct plan {
	struct step *steps;
	size_t count, cap;
	uint8_t *planned; /* per frame */
};

/* In ctx.pair_to: a base name renamed into two head names, so into neither. */
#define NAME_CONFLICT (TREE_NONE - 1)

/* What a name was as a wrapper somewhere (ctx.wrappers). */
enum {
	WRAPPER_INLINED = 1, /* the base had it between a parent and a child, the head not */
	WRAPPER_INSERTED = 2, /* the head has it between a parent and a child, the base not */
};

struct root {
	uint32_t name, node;
};

struct ctx {
	struct tree *t;
	struct match *m;
	size_t cap; /* of m->entries */
	struct graft g;
	struct plan plan;
	uint32_t *pair_to; /* per name: the head name of a rename found by subtree, or TREE_NONE */
	uint8_t *wrappers; /* per name: WRAPPER_ bits of the wrappers noted; NULL for none */
	uint8_t *
	        known; /* per frame of the head alone: 1 its callers are known to the base, 2 not */
	struct root *tops[2]; /* per side: frames of that side alone under a frame of both */
	size_t ntops[2], captops[2];
	bool renamed; /* pair_to holds a rename */
	/* The frames without counts of both builds before any pass, in id order; NULL: not known */
	uint32_t *sided;
	size_t nsided;
};

static inline bool
has(const struct tree *t, const struct tree_node *n, enum side side)
{
	return !count_is_zero(tree_node_total(t, n, side));
}

/* Only in the base. */
static inline bool
base_only(const struct tree *t, const struct tree_node *n)
{
	return !has(t, n, SIDE_HEAD) && has(t, n, SIDE_BASE);
}

static inline bool
head_only(const struct tree *t, const struct tree_node *n)
{
	return !has(t, n, SIDE_BASE) && has(t, n, SIDE_HEAD);
}

/* Of side alone: the base only, or the head only. */
static inline bool
side_alone(const struct tree *t, uint32_t id, enum side side)
{
	const struct tree_node *n = &t->nodes[id];
	return side == SIDE_BASE ? base_only(t, n) : head_only(t, n);
}

/* A new entry of kind for node; other_name: the other name, or TREE_NONE. */
void match_note(
        struct ctx *c, enum match_kind kind, uint32_t node, uint32_t other_name, double sim);
/* Entry e's other string: the path of node (a move's other end), kept in case it moves. */
void match_note_path(struct ctx *c, struct match_entry *e, uint32_t node);
/*
 * A frame of its parent's name or of a child's: one more or one less level
 * of recursion is a change of behaviour, not a wrapper.
 */
bool match_recursive(const struct tree *t, uint32_t w);
/* Whether frame w calls anything in side's build (match_callers.c). */
bool match_calls_in(const struct tree *t, uint32_t w, enum side side);
/*
 * Whether the callers of base frame b and head frame h, up to where their
 * paths meet, are the same but for frames one build alone has there.
 */
bool match_same_callers(const struct ctx *c, uint32_t b, uint32_t h);
/* Whether base frame b and head frame h have callers of one name, or but for a wrapper. */
bool match_same_caller(const struct ctx *c, uint32_t b, uint32_t h);
/* fs (head frames) without those whose callers the base did not run; returns how many. */
size_t match_moved_to(struct ctx *c, uint32_t *fs, size_t n);
/*
 * Whether to run a step on two threads: when n (its work) is min or more,
 * or as DIFFFOLD_MATCH_THREADS (1 or 2) says, to test either way.
 */
bool match_threaded(size_t n, size_t min);

/* The names pass's decision: per name, the name it becomes and the rules that fired. */
struct name_canon {
	uint32_t *canon; /* NULL: no name matched */
	uint32_t *rules;
	uint32_t *sided; /* the frames without counts of both builds, in id order (ctx.sided) */
	size_t nsided;
};

/*
 * The names pass (match_names.c), in two steps: which names are one, from
 * the tree alone (it only reads the tree, so it runs beside graft_init);
 * then the frames renamed, which frees nc but for nc.sided, which goes
 * to c->sided.
 */
struct name_canon match_names_find(const struct tree *t);
void match_names_apply(struct ctx *c, struct name_canon nc);
/* The moves pass (match_moves.c), after the structure pass: marks and, for wrappers, moves. */
void match_moves(struct ctx *c);

#endif
