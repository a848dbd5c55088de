#include "tree.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "hash.h"
#include "prefetch.h"
#include "xalloc.h"

/*
 * Build state, dropped by tree_finish.
 *
 * A node is found by a hash of its whole path (the frame hashes from the
 * root down), so the slots of all frames of a line are known before any of
 * them is resolved: the lookups of a line are started together and their
 * cache misses overlap instead of following one another. A slot candidate is
 * then confirmed exactly: same parent as the node just resolved, same bytes.
 * Interning happens only when a node is created.
 *
 * While building, a node is only its key, its name id and its self counts
 * (about 40 bytes, not the 88 of a struct tree_node): tree_finish lays out
 * the nodes array and sums the totals once, so adding a stack writes to its
 * leaf, not to every frame, and a tree being built stays small enough for
 * two to be built at once (base and head on two threads, see tree_merge).
 */
struct node_key {
	uint32_t parent;
	uint32_t len;
	const char *bytes; /* the interned name */
};

/* One frame of the line being added. */
struct frame {
	const char *f;
	size_t len;
	uint64_t h; /* frame hash: intern_hash(f, len) too, the same keyed hash */
	uint64_t k; /* path hash */
	uint32_t cand; /* node whose slot tag matched, 0 if none */
};

struct tree_path {
	uint64_t *slots; /* path hash tag << 32 | node id; 0 = empty (id 0 is the root) */
	size_t mask; /* 2^bits slots */
	unsigned shift; /* 64 - bits: a path hash's slot is its top bits (see home) */
	/* Per node, all with room for `cap` nodes: */
	struct node_key *keys; /* what confirming a candidate needs */
	uint32_t *names; /* intern id */
	struct count *self[2]; /* per side, NULL until the side gets a count */
	size_t cap;
	struct count sum[2]; /* side totals so far, for the overflow check */
	struct frame *frames; /* FRAME_BATCH frames of the line being added */
	uint32_t *prev; /* nodes of the previous line, root first */
	uint64_t *prev_k; /* and their path hashes */
	size_t prev_depth, prev_cap;
	struct buf scratch; /* frame after --strip-hex */
	uint64_t seed; /* hash_seed(): the same for every tree of the process */
	bool full; /* a node was refused: opt.max_nodes reached */
	char full_msg[80];
};

#define SLOTS_INITIAL_BITS 12
#define ROOT_PATH_HASH 0x243f6a8885a308d3ull

/*
 * The first slot to probe for path hash k: its top bits, which are the top
 * bits of the tag a slot keeps. So the table grows, and another tree's nodes
 * are looked up in it, from the tags alone, without hashing any name again,
 * and growing writes the new table nearly in order.
 */
static size_t
home(const struct tree_path *p, uint64_t k)
{
	return (size_t)(k >> p->shift);
}

/*
 * Finds the end of the frame at s (the first ';' or n) and hashes it in the
 * same pass, a word at a time; the result equals hash_bytes(s, *flen, seed).
 * Inlined: it runs once a frame, and gcc's own choice kept the call.
 */
static inline __attribute__((always_inline)) uint64_t
scan_frame(const char *s, size_t n, size_t *flen, uint64_t seed)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	uint64_t h = seed;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		uint64_t x = w ^ (ones * ';');
		uint64_t z = (x - ones) & ~x & highs; /* high bit set where a byte is ';' */
		if (z) {
			unsigned b = (unsigned)__builtin_ctzll(z) >> 3;
			if (b) {
				h = hash_mix(h, w & (~0ull >> (64 - 8 * b)));
			}
			*flen = i + b;
			return hash_end(h, i + b);
		}
		h = hash_mix(h, w);
	}
	size_t k = 0;
	while (i + k < n && s[i + k] != ';') {
		k++;
	}
	if (k) {
		uint64_t w = 0;
		memcpy(&w, s + i, k);
		h = hash_mix(h, w);
	}
	*flen = i + k;
	return hash_end(h, i + k);
#else
	const char *semi = memchr(s, ';', n);
	*flen = semi ? (size_t)(semi - s) : n;
	return hash_bytes(s, *flen, seed);
#endif
}

/* Hash of a path: its parent's path hash and its own frame's hash. */
static uint64_t
path_hash(uint64_t parent_k, uint64_t frame_h)
{
	uint64_t k = ((parent_k << 29 | parent_k >> 35) ^ frame_h) * 0xd6e8feb86659fd93ull;
	return k ^ (k >> 32);
}

struct tree *
tree_create(const struct tree_options *opt)
{
	struct tree *t = xcalloc(1, sizeof(*t));
	t->opt = *opt;
	t->names = intern_create();
	struct tree_path *p = xcalloc(1, sizeof(*p));
	p->mask = ((size_t)1 << SLOTS_INITIAL_BITS) - 1;
	p->shift = 64 - SLOTS_INITIAL_BITS;
	p->slots = xcalloc(p->mask + 1, sizeof(uint64_t));
	buf_init(&p->scratch);
	p->seed = hash_seed();
	t->path = p;
	p->cap = 1024;
	p->keys = xmalloc(p->cap * sizeof(struct node_key));
	p->names = xmalloc(p->cap * sizeof(uint32_t));
	t->node_count = 1;
	p->names[0] = intern_add(t->names, "all", 3);
	size_t len;
	p->keys[0].bytes = intern_name(t->names, p->names[0], &len);
	p->keys[0].len = (uint32_t)len;
	p->keys[0].parent = TREE_NONE;
	t->base_scale = 1.0;
	return t;
}

static void
free_build_state(struct tree *t)
{
	struct tree_path *p = t->path;
	if (!p) {
		return;
	}
	free(p->slots);
	free(p->keys);
	free(p->names);
	free(p->self[SIDE_BASE]);
	free(p->self[SIDE_HEAD]);
	free(p->frames);
	free(p->prev);
	free(p->prev_k);
	buf_finish(&p->scratch);
	free(p);
	t->path = NULL;
}

void
tree_destroy(struct tree *t)
{
	if (!t) {
		return;
	}
	free_build_state(t);
	intern_destroy(t->names);
	free(t->nodes);
	free(t->slots);
	free(t);
}

/*
 * At most 13/16 full: probes stay short, mostly within one cache line. The
 * table stops at 2^32 slots, where the tag holds every bit of the home; node
 * ids are 32 bits, so it never fills up.
 */
static bool
slots_full(const struct tree *t)
{
	return t->node_count > (t->path->mask + 1) / 16 * 13 && t->path->shift > 32;
}

static void
grow_slots(struct tree *t)
{
	struct tree_path *p = t->path;
	struct tree_path grown = {.mask = p->mask * 2 + 1, .shift = p->shift - 1};
	uint64_t *slots = xcalloc_written(grown.mask + 1, sizeof(uint64_t));
	for (size_t j = 0; j <= p->mask; j++) {
		uint64_t s = p->slots[j];
		if (s) {
			size_t i = home(&grown, s);
			while (slots[i]) {
				i = (i + 1) & grown.mask;
			}
			slots[i] = s;
		}
	}
	free(p->slots);
	p->slots = slots;
	p->mask = grown.mask;
	p->shift = grown.shift;
}

/* Room for one more node in every per-node array. */
static void
reserve_node(struct tree_path *p, size_t count)
{
	if (count < p->cap) {
		return;
	}
	size_t cap = p->cap;
	p->keys = xgrow(p->keys, &cap, count + 1, sizeof(struct node_key));
	p->names = xrealloc(p->names, cap * sizeof(uint32_t));
	for (int side = 0; side < 2; side++) {
		if (p->self[side]) {
			/* new_node zeroes each count: untouched room costs no memory. */
			p->self[side] = xrealloc(p->self[side], cap * sizeof(struct count));
		}
	}
	p->cap = cap;
}

/* The name of a node to create: its bytes, and its intern hash and id when known. */
struct name {
	const char *f;
	size_t len;
	uint64_t hash; /* intern_hash(f, len), or 0 if not known */
	uint32_t id; /* intern id, or TREE_NONE if not known */
};

/*
 * A side's self counts, zero for every node so far, which may be read
 * first, so are faulted in now (see xcalloc_written). The room past them
 * is written first, by new_node, and costs no memory until then.
 */
static struct count *
new_self(const struct tree *t)
{
	struct count *self = xcalloc(t->path->cap, sizeof(struct count));
	xprefault_zeroed(self, t->node_count * sizeof(struct count));
	return self;
}

static uint32_t
new_node(struct tree *t, uint32_t parent, const struct name *nm)
{
	struct tree_path *p = t->path;
	uint32_t id = (uint32_t)t->node_count;
	reserve_node(p, t->node_count);
	p->names[id] = nm->id != TREE_NONE
	                       ? nm->id
	                       : intern_add_hashed(t->names, nm->f, nm->len,
	                                 nm->hash ? nm->hash : intern_hash(nm->f, nm->len));
	for (int side = 0; side < 2; side++) {
		if (p->self[side]) {
			p->self[side][id] = (struct count){0, 0};
		}
	}
	size_t stored;
	p->keys[id].bytes = intern_name(t->names, p->names[id], &stored);
	p->keys[id].len = (uint32_t)stored;
	p->keys[id].parent = parent;
	t->node_count++;
	return id;
}

static bool
is_node(const struct tree_path *p, uint32_t id, uint32_t parent, const char *f, size_t len)
{
	const struct node_key *key = &p->keys[id];
	return key->parent == parent && key->len == len && memcmp(key->bytes, f, len) == 0;
}

/* The child of parent named nm whose path hashes to k, created if new. */
static uint32_t
child_named(struct tree *t, uint64_t k, uint32_t parent, const struct name *nm)
{
	struct tree_path *p = t->path;
	uint64_t tag = (k >> 32) << 32;
	size_t i = home(p, k);
	for (uint64_t s; (s = p->slots[i]) != 0; i = (i + 1) & p->mask) {
		if ((s & ~(uint64_t)UINT32_MAX) == tag &&
		        is_node(p, (uint32_t)s, parent, nm->f, nm->len)) {
			return (uint32_t)s;
		}
	}
	if (t->opt.max_nodes && t->node_count - 1 >= t->opt.max_nodes) {
		/* The caller sees p->full once the walk is over; until then the
		 * walk goes on harmlessly from the parent. */
		p->full = true;
		return parent;
	}
	uint32_t id = new_node(t, parent, nm);
	p->slots[i] = tag | id;
	if (slots_full(t)) {
		grow_slots(t);
	}
	return id;
}

/*
 * The child of parent named f whose path hashes to k, created if new;
 * name_hash is intern_hash(f, len) if known, else 0.
 */
static uint32_t
child(struct tree *t, uint64_t k, uint32_t parent, const char *f, size_t len, uint64_t name_hash)
{
	struct name nm = {f, len, name_hash, TREE_NONE};
	return child_named(t, k, parent, &nm);
}

static bool
is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/*
 * One frame, resolved on its own: for --reverse and --strip-hex. With
 * --strip-hex the name is the frame with hex literals replaced by "0x...".
 */
static uint32_t
one_frame(struct tree *t, uint64_t *k, uint32_t parent, const char *f, size_t len)
{
	if (t->opt.strip_hex && memchr(f, 'x', len)) {
		struct buf *s = &t->path->scratch;
		buf_reset(s);
		for (size_t i = 0; i < len;) {
			if (f[i] == '0' && i + 2 < len && f[i + 1] == 'x' && is_hex(f[i + 2])) {
				buf_add(s, "0x...", 5);
				for (i += 2; i < len && is_hex(f[i]); i++) {
				}
			} else {
				buf_addc(s, f[i++]);
			}
		}
		f = s->data;
		len = s->len;
	}
	/* The frame hash is also the name's intern hash: computed once. */
	uint64_t h = hash_bytes(f, len, t->path->seed);
	*k = path_hash(*k, h);
	return child(t, *k, parent, f, len, h);
}

/*
 * How deep the previous line is remembered. Deeper frames of the next line
 * are looked up by hash instead (same nodes, slower): a line of millions of
 * frames must not cost 12 bytes each here.
 */
#define PREV_MAX_DEPTH 65536

/* The line ends at depth: the next line may reuse that much of it. */
static void
end_line(struct tree_path *p, size_t depth)
{
	p->prev_depth = depth < PREV_MAX_DEPTH ? depth : PREV_MAX_DEPTH;
}

static void
remember(struct tree_path *p, size_t depth, uint32_t node, uint64_t k)
{
	if (depth >= PREV_MAX_DEPTH) {
		return;
	}
	if (depth >= p->prev_cap) {
		size_t cap = p->prev_cap;
		p->prev = xgrow(p->prev, &cap, depth + 1, sizeof(uint32_t));
		p->prev_k = xrealloc(p->prev_k, cap * sizeof(uint64_t));
		p->prev_cap = cap;
	}
	p->prev[depth] = node;
	p->prev_k[depth] = k;
}

/*
 * Frames the stack shares with the previous line, checked against the names
 * of the previous line's nodes, so no copy of that line is kept. Sorted
 * profiles share most of each line with the one before.
 */
static size_t
reuse_prefix(struct tree *t, const char *stack, size_t len, size_t *start)
{
	struct tree_path *p = t->path;
	size_t depth = 0;
	while (depth < p->prev_depth) {
		const struct node_key *key = &p->keys[p->prev[depth]];
		size_t end = *start + key->len;
		if (end > len || (end < len && stack[end] != ';') ||
		        memcmp(stack + *start, key->bytes, key->len) != 0) {
			break;
		}
		*start = end + 1;
		depth++;
	}
	return depth;
}

/*
 * Frames looked up together: enough for the cache misses of a whole typical
 * line to overlap, and a bound on memory for a line of millions of frames.
 */
#define FRAME_BATCH 512

/*
 * Splits up to FRAME_BATCH frames off the rest of the line (from *start,
 * which it advances), hashes them and starts their lookups; k is the path
 * hash of the frame before them.
 */
static size_t
scan_frames(struct tree_path *p, const char *stack, size_t len, size_t *start, uint64_t k)
{
	if (!p->frames) {
		p->frames = xmalloc(FRAME_BATCH * sizeof(struct frame));
	}
	size_t n = 0;
	while (*start <= len && n < FRAME_BATCH) {
		struct frame *fr = &p->frames[n++];
		fr->f = stack + *start;
		fr->h = scan_frame(fr->f, len - *start, &fr->len, p->seed);
		k = path_hash(k, fr->h);
		fr->k = k;
		prefetch(&p->slots[home(p, k)]);
		*start += fr->len + 1;
	}
	return n;
}

/*
 * The first node on path hash k's probe whose slot tag matches, 0 if none:
 * only a candidate, which its parent and name must confirm.
 */
static uint32_t
tag_candidate(const struct tree_path *p, uint64_t k)
{
	uint64_t tag = (k >> 32) << 32, slot;
	for (size_t i = home(p, k); (slot = p->slots[i]) != 0; i = (i + 1) & p->mask) {
		if ((slot & ~(uint64_t)UINT32_MAX) == tag) {
			return (uint32_t)slot;
		}
	}
	return 0;
}

/*
 * The candidate of each frame: starts loading its key. A frame without one
 * will be a new node: starts looking up its name.
 */
static void
find_candidates(struct tree *t, size_t n)
{
	struct tree_path *p = t->path;
	for (size_t j = 0; j < n; j++) {
		struct frame *fr = &p->frames[j];
		fr->cand = tag_candidate(p, fr->k);
		if (fr->cand) {
			prefetch(&p->keys[fr->cand]);
		} else {
			intern_prefetch(t->names, fr->h);
		}
	}
}

/* Root-to-leaf walk; returns the leaf. */
static uint32_t
walk_forward(struct tree *t, const char *stack, size_t len)
{
	struct tree_path *p = t->path;
	size_t start = 0;
	size_t depth = reuse_prefix(t, stack, len, &start);
	uint32_t node = depth ? p->prev[depth - 1] : TREE_ROOT;
	uint64_t k = depth ? p->prev_k[depth - 1] : ROOT_PATH_HASH;
	if (t->opt.strip_hex) {
		while (start <= len) {
			const char *f = stack + start;
			size_t flen;
			scan_frame(f, len - start, &flen, p->seed);
			node = one_frame(t, &k, node, f, flen);
			remember(p, depth++, node, k);
			start += flen + 1;
		}
		end_line(p, depth);
		return node;
	}
	while (start <= len && !p->full) {
		size_t n = scan_frames(p, stack, len, &start, k);
		find_candidates(t, n);
		/* The candidates' keys are on their way: start loading their
		 * names, which confirming them compares byte by byte. */
		for (size_t j = 0; j < n; j++) {
			if (p->frames[j].cand) {
				prefetch(p->keys[p->frames[j].cand].bytes);
			}
		}
		for (size_t j = 0; j < n; j++) {
			const struct frame *fr = &p->frames[j];
			if (fr->cand && is_node(p, fr->cand, node, fr->f, fr->len)) {
				node = fr->cand;
			} else {
				node = child(t, fr->k, node, fr->f, fr->len, fr->h);
			}
			remember(p, depth++, node, fr->k);
		}
		k = p->frames[n - 1].k;
	}
	end_line(p, depth);
	return node;
}

/* Leaf-to-root walk for --reverse; returns the leaf. */
static uint32_t
walk_reverse(struct tree *t, const char *stack, size_t len)
{
	size_t end = len;
	uint32_t node = TREE_ROOT;
	uint64_t k = ROOT_PATH_HASH;
	for (;;) {
		size_t start = end;
		while (start > 0 && stack[start - 1] != ';') {
			start--;
		}
		node = one_frame(t, &k, node, stack + start, end - start);
		if (start == 0) {
			return node;
		}
		end = start - 1;
	}
}

static const char *
overflow_reason(enum side side)
{
	return side == SIDE_BASE ? "sum of base counts exceeds 2^64-1"
	                         : "sum of head counts exceeds 2^64-1";
}

static const char *
full_reason(struct tree *t)
{
	struct tree_path *p = t->path;
	snprintf(p->full_msg, sizeof(p->full_msg),
	        "the merged tree would have more than %lu frames (see --max-frames)",
	        (unsigned long)t->opt.max_nodes);
	return p->full_msg;
}

bool
tree_add_stack(struct tree *t, enum side side, const char *stack, size_t len, struct count c,
        const char **reason)
{
	struct tree_path *p = t->path;
	struct count total;
	if (!count_add(p->sum[side], c, &total)) {
		*reason = overflow_reason(side);
		return false;
	}
	uint32_t leaf = t->opt.reverse ? walk_reverse(t, stack, len) : walk_forward(t, stack, len);
	if (p->full) {
		*reason = full_reason(t);
		return false;
	}
	p->sum[side] = total;
	if (!p->self[side]) {
		p->self[side] = new_self(t);
	}
	/* No self count can exceed the side's total, so this cannot overflow. */
	count_add(p->self[side][leaf], c, &p->self[side][leaf]);
	return true;
}

/*
 * How far ahead the merge loads: src node id + MERGE_AHEAD has its slot
 * loading while id + MERGE_AHEAD / 2 has its candidate's key and name
 * loading and id is confirmed. A few dozen loads in flight is what a core
 * keeps; more are dropped.
 */
#define MERGE_AHEAD 16

/*
 * Maps every src node to a dst node, creating what is missing, in src's
 * order (parents first). The loads of later nodes overlap the work on
 * earlier ones; a candidate found ahead is only a hint, confirmed (or
 * looked up again) when its node's turn comes, so nodes created meanwhile
 * cannot mislead it.
 */
static void
merge_nodes(struct tree *dst, const struct tree *src, const uint64_t *k, uint32_t *map,
        uint32_t *name_map)
{
	struct tree_path *d = dst->path;
	const struct tree_path *s = src->path;
	size_t n = src->node_count, half = MERGE_AHEAD / 2;
	uint32_t cand[MERGE_AHEAD] = {0};
	for (size_t j = 1; j < n + MERGE_AHEAD; j++) {
		if (j < n) {
			prefetch(&d->slots[home(d, k[j])]);
			prefetch(&name_map[s->names[j]]);
		}
		size_t h = j - half;
		if (h >= 1 && h < n) {
			uint32_t c = tag_candidate(d, k[h]);
			cand[h % MERGE_AHEAD] = c;
			if (c) {
				prefetch(&d->keys[c]);
				prefetch(&d->names[c]);
			}
		}
		size_t id = j - MERGE_AHEAD;
		if (id < 1 || id >= n) {
			continue;
		}
		const struct node_key *key = &s->keys[id];
		uint32_t parent = map[key->parent], c = cand[id % MERGE_AHEAD];
		uint32_t named = name_map[s->names[id]];
		if (c && d->keys[c].parent == parent && d->names[c] == named) {
			map[id] = c;
		} else {
			struct name nm = {key->bytes, key->len, 0, named};
			map[id] = child_named(dst, k[id], parent, &nm);
		}
	}
}

bool
tree_merge(struct tree *dst, struct tree *src, const char **reason)
{
	struct tree_path *d = dst->path, *s = src->path;
	struct count sum[2];
	for (int side = 0; side < 2; side++) {
		if (!count_add(d->sum[side], s->sum[side], &sum[side])) {
			*reason = overflow_reason((enum side)side);
			return false;
		}
	}
	size_t n = src->node_count;
	/* Names first, so nodes are compared and created by name id. */
	uint32_t *name_map = intern_merge(dst->names, src->names);
	uint32_t *map = xmalloc(n * sizeof(uint32_t));
	uint64_t *k = xmalloc(n * sizeof(uint64_t));
	xprefault(map, n * sizeof(uint32_t));
	xprefault(k, n * sizeof(uint64_t));
	map[TREE_ROOT] = TREE_ROOT;
	/* A node's slot tag is all dst's table needs of its path hash (every
	 * tree of the process hashes with the same seed). */
	k[TREE_ROOT] = ROOT_PATH_HASH;
	for (size_t j = 0; j <= s->mask; j++) {
		if (s->slots[j]) {
			k[(uint32_t)s->slots[j]] = (s->slots[j] >> 32) << 32;
		}
	}
	/* Parents first, in src's order of creation: dst gets the ids reading
	 * src's input after its own would give. */
	merge_nodes(dst, src, k, map, name_map);
	free(name_map);
	if (d->full) {
		free(map);
		free(k);
		*reason = full_reason(dst);
		return false;
	}
	for (int side = 0; side < 2; side++) {
		if (!s->self[side]) {
			continue;
		}
		if (!d->self[side]) {
			d->self[side] = new_self(dst);
		}
		/* Bounded by the side's total, checked above. */
		for (size_t id = 0; id < n; id++) {
			if (id + MERGE_AHEAD < n) {
				prefetch(&d->self[side][map[id + MERGE_AHEAD]]);
			}
			struct count *c = &d->self[side][map[id]];
			count_add(*c, s->self[side][id], c);
		}
		d->sum[side] = sum[side];
	}
	free(map);
	free(k);
	return true;
}

/*
 * Totals from self counts. A parent is created before its children, so its
 * id is smaller: one pass from the last id down adds every subtree into its
 * parent before the parent itself is added upwards.
 */
static void
sum_totals(struct tree *t)
{
	for (size_t i = t->node_count; i-- > 1;) {
		struct tree_node *n = &t->nodes[i];
		struct tree_node *parent = &t->nodes[n->parent];
		/* Bounded by the root's total, checked line by line. */
		count_add(parent->total[SIDE_BASE], n->total[SIDE_BASE], &parent->total[SIDE_BASE]);
		count_add(parent->total[SIDE_HEAD], n->total[SIDE_HEAD], &parent->total[SIDE_HEAD]);
	}
}

static int
compare_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
	return (a > b) - (a < b);
}

/* Most nodes have a handful of children: insertion sort beats qsort there. */
static void
sort_keys(uint64_t *v, size_t n)
{
	if (n > 16) {
		qsort(v, n, sizeof(*v), compare_u64);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		uint64_t x = v[i];
		size_t j = i;
		for (; j > 0 && v[j - 1] > x; j--) {
			v[j] = v[j - 1];
		}
		v[j] = x;
	}
}

/*
 * Links every node's children in byte order of their names: a counting sort
 * by parent, then each family sorted by name rank (rank << 32 | id).
 */
static void
link_children(struct tree *t, const uint32_t *rank)
{
	size_t n = t->node_count;
	uint32_t *end = xcalloc_written(n, sizeof(uint32_t)); /* family p ends at end[p] */
	for (size_t id = 1; id < n; id++) {
		end[t->nodes[id].parent]++;
	}
	for (size_t p = 1; p < n; p++) {
		end[p] += end[p - 1];
	}
	uint64_t *keys = xmalloc(n * sizeof(uint64_t));
	xprefault(keys, n * sizeof(uint64_t));
	for (size_t id = n; id-- > 1;) {
		const struct tree_node *node = &t->nodes[id];
		keys[--end[node->parent]] = (uint64_t)rank[node->name] << 32 | id;
	}
	/* Now end[p] is where family p starts; it ends where family p + 1 starts. */
	for (size_t p = 0; p < n; p++) {
		size_t lo = end[p], hi = p + 1 < n ? end[p + 1] : n - 1;
		sort_keys(keys + lo, hi - lo);
		uint32_t next = TREE_NONE;
		for (size_t i = hi; i-- > lo;) {
			uint32_t id = (uint32_t)keys[i];
			t->nodes[id].next_sibling = next;
			next = id;
		}
		t->nodes[p].first_child = next;
	}
	free(keys);
	free(end);
}

enum node_status
tree_classify_change(const struct tree *t, const struct tree_node *n, double delta)
{
	/* A stack given with zero counts on both sides is not new, just empty. */
	if (!t->differential ||
	        (count_is_zero(n->total[SIDE_BASE]) && count_is_zero(n->total[SIDE_HEAD]))) {
		return STATUS_SAME;
	}
	if (count_is_zero(n->total[SIDE_BASE])) {
		return STATUS_NEW;
	}
	if (count_is_zero(n->total[SIDE_HEAD])) {
		return STATUS_REMOVED;
	}
	double base_total = tree_total(t, SIDE_BASE);
	double head_total = tree_total(t, SIDE_HEAD);
	double floor = t->opt.min_delta * (base_total > head_total ? base_total : head_total);
	if (delta > floor) {
		return STATUS_SLOWER;
	}
	if (delta < -floor) {
		return STATUS_FASTER;
	}
	return STATUS_SAME;
}

enum node_status
tree_classify(const struct tree *t, const struct tree_node *n)
{
	return tree_classify_change(
	        t, n, tree_value(t, n, SIDE_HEAD, true) - tree_value(t, n, SIDE_BASE, true));
}

/* The nodes array from the build state; totals start as the self counts. */
static void
lay_out_nodes(struct tree *t)
{
	struct tree_path *p = t->path;
	/* The keys are four times the size of what is left of them. Depths
	 * are worked out here too, in an array that stays in cache: a parent's
	 * depth read back from the nodes array would be a cache miss a node. */
	uint32_t *parents = xmalloc(t->node_count * sizeof(uint32_t));
	uint32_t *depths = xmalloc(t->node_count * sizeof(uint32_t));
	xprefault(parents, t->node_count * sizeof(uint32_t));
	xprefault(depths, t->node_count * sizeof(uint32_t));
	depths[0] = 0;
	for (size_t id = 0; id < t->node_count; id++) {
		parents[id] = p->keys[id].parent;
		if (id) {
			depths[id] = depths[parents[id]] + 1;
		}
	}
	free(p->keys);
	p->keys = NULL;
	t->nodes = xmalloc(t->node_count * sizeof(struct tree_node));
	xprefault(t->nodes, t->node_count * sizeof(struct tree_node));
	t->node_cap = t->node_count;
	for (size_t id = 0; id < t->node_count; id++) {
		struct tree_node *n = &t->nodes[id];
		memset(n, 0, sizeof(*n));
		n->name = p->names[id];
		n->parent = parents[id];
		n->first_child = TREE_NONE;
		n->next_sibling = TREE_NONE;
		n->depth = depths[id];
		if (n->depth > t->max_depth) {
			t->max_depth = n->depth;
		}
		for (int side = 0; side < 2; side++) {
			if (p->self[side]) {
				n->self[side] = n->total[side] = p->self[side][id];
			}
		}
	}
	free(depths);
	free(parents);
}

static void *
rank_names(void *names)
{
	return (void *)intern_ranks(names);
}

/* Below this many nodes a second thread costs more than it saves. */
#define RANK_THREAD_MIN_NODES 65536

void
tree_finish(struct tree *t, bool differential)
{
	/* Only the per-node arrays are needed now: the nodes array takes room. */
	struct tree_path *p = t->path;
	free(p->slots);
	p->slots = NULL;
	lay_out_nodes(t);
	/* The sorts below need memory of their own. */
	free_build_state(t);
	/*
	 * Sorting the names reads only the name table, summing and classifying
	 * only the nodes: for a big tree they run at once, on two cores. (Not
	 * earlier: beside the build state the sort would raise the peak memory.)
	 */
	pthread_t ranker;
	bool threaded = t->node_count >= RANK_THREAD_MIN_NODES &&
	                pthread_create(&ranker, NULL, rank_names, t->names) == 0;
	sum_totals(t);
	t->differential = differential;
	const struct tree_node *root = &t->nodes[TREE_ROOT];
	if (t->opt.normalize && differential && !count_is_zero(root->total[SIDE_BASE])) {
		t->normalized = true;
		t->base_scale = count_to_double(root->total[SIDE_HEAD]) /
		                count_to_double(root->total[SIDE_BASE]);
	}
	for (size_t i = 0; i < t->node_count; i++) {
		t->nodes[i].status = (uint8_t)tree_classify(t, &t->nodes[i]);
	}
	const uint32_t *rank;
	if (threaded) {
		void *ranks;
		pthread_join(ranker, &ranks);
		rank = ranks;
	} else {
		rank = intern_ranks(t->names);
	}
	link_children(t, rank);
}

const char *
tree_node_name(const struct tree *t, const struct tree_node *n, size_t *len)
{
	return intern_name(t->names, n->name, len);
}

double
tree_value(const struct tree *t, const struct tree_node *n, enum side side, bool self)
{
	double v = count_to_double(self ? n->self[side] : n->total[side]);
	return side == SIDE_BASE ? v * t->base_scale : v;
}

double
tree_total(const struct tree *t, enum side side)
{
	return tree_value(t, &t->nodes[TREE_ROOT], side, false);
}

uint32_t
tree_next_preorder(const struct tree *t, uint32_t id, uint32_t top)
{
	const struct tree_node *n = &t->nodes[id];
	if (n->first_child != TREE_NONE) {
		return n->first_child;
	}
	while (id != top) {
		n = &t->nodes[id];
		if (n->next_sibling != TREE_NONE) {
			return n->next_sibling;
		}
		id = n->parent;
	}
	return TREE_NONE;
}

const char *
tree_status_name(enum node_status s)
{
	switch (s) {
	case STATUS_SLOWER:
		return "slower";
	case STATUS_FASTER:
		return "faster";
	case STATUS_NEW:
		return "new";
	case STATUS_REMOVED:
		return "removed";
	case STATUS_SAME:
		break;
	}
	return "same";
}
