/*
 * tree_build: an unfinished tree's nodes, found by path hash (see
 * tree_build.h), and the line API the reader feeds them through.
 */
#include "tree_build_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hash.h"
#include "prefetch.h"
#include "simd.h"
#include "transform.h"
#include "xalloc.h"

/* One frame of the line being added. */
struct frame {
	const char *f;
	size_t len;
	uint64_t h; /* frame hash: intern_hash(f, len) too, the same keyed hash */
	uint64_t k; /* path hash */
	uint32_t cand; /* node whose slot tag matched, 0 if none */
};

#define SLOTS_INITIAL_BITS 12

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
	/* 16 bytes a step looked at for ';' at once, hashed as two words. */
	for (; SIMD_WIDE && i + 16 <= n; i += 16) {
		unsigned m = simd_eq16(s + i, ';');
		uint64_t w[2];
		memcpy(w, s + i, 16);
		if (m) {
			unsigned b = (unsigned)__builtin_ctz(m);
			if (b >= 8) {
				h = hash_mix(h, w[0]);
			}
			if (b % 8) {
				h = hash_mix(h, w[b / 8] & (~0ull >> (64 - 8 * (b % 8))));
			}
			*flen = i + b;
			return hash_end(h, i + b);
		}
		h = hash_mix(hash_mix(h, w[0]), w[1]);
	}
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

struct tree_build *
tree_build_create(const struct tree_options *opt, struct intern *names)
{
	struct tree_build *b = xcalloc(1, sizeof(*b));
	b->opt = *opt;
	b->names = names;
	b->mask = ((size_t)1 << SLOTS_INITIAL_BITS) - 1;
	b->shift = 64 - SLOTS_INITIAL_BITS;
	b->slots = xcalloc(b->mask + 1, sizeof(uint64_t));
	buf_init(&b->scratch);
	buf_init(&b->rooted);
	if (transform_active(opt->transform)) {
		b->transform = transform_run_create(opt->transform);
	}
	b->seed = hash_seed();
	b->cap = 1024;
	b->keys = xmalloc(b->cap * sizeof(struct node_key));
	b->name_ids = xmalloc(b->cap * sizeof(uint32_t));
	b->count = 1;
	b->name_ids[0] = intern_add(names, "all", 3);
	size_t len;
	b->keys[0].bytes = intern_name(names, b->name_ids[0], &len);
	b->keys[0].len = (uint32_t)len;
	b->keys[0].parent = TREE_NONE;
	return b;
}

struct tree *
tree_create(const struct tree_options *opt)
{
	struct tree *t = xcalloc(1, sizeof(*t));
	t->opt = *opt;
	t->names = intern_create();
	t->build = tree_build_create(opt, t->names);
	t->drop_build = tree_build_destroy;
	t->node_count = 1;
	t->base_scale = 1.0;
	return t;
}

void
tree_build_destroy(struct tree_build *b)
{
	if (!b) {
		return;
	}
	free(b->slots);
	free(b->keys);
	free(b->name_ids);
	for (int side = 0; side < 2; side++) {
		free(b->self_units[side]);
		free(b->self_nanos[side]);
	}
	free(b->frames);
	free(b->prev);
	free(b->prev_k);
	buf_finish(&b->scratch);
	buf_finish(&b->rooted);
	transform_run_destroy(b->transform);
	free(b);
}

/*
 * At most 13/16 full: probes stay short, mostly within one cache line. The
 * table stops at 2^32 slots, where the tag holds every bit of the home; node
 * ids are 32 bits, so it never fills up.
 */
static bool
slots_full(const struct tree_build *b)
{
	return b->count > (b->mask + 1) / 16 * 13 && b->shift > 32;
}

/*
 * The nodes array and the build arrays it is laid out from, the grown path
 * slots and the old ones (free may write to a released page: it reads as
 * zero).
 */
void
tree_build_release_prefix(void *p, size_t *released, size_t used)
{
#if defined(__linux__) && defined(MADV_DONTNEED)
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = ((uintptr_t)p + *released + page - 1) & ~(page - 1);
	uintptr_t hi = ((uintptr_t)p + used) & ~(page - 1);
	if (p && hi > lo) {
		(void)madvise((void *)lo, hi - lo, MADV_DONTNEED);
		*released = hi - (uintptr_t)p;
	}
#else
	(void)p;
	(void)released;
	(void)used;
#endif
}

/*
 * Old slots moved between two releases of their pages: 1 MiB of new slots
 * (xprefault's minimum), which a block fills nearly in order.
 */
#define GROW_BLOCK ((size_t)1 << 16)

/*
 * Doubles the table. A big one moves a block at a time, giving the old
 * slots' pages back as it goes, so the two tables never peak together:
 * the new one's pages are faulted in (see xcalloc_written) a block ahead
 * of its writes, never all at once.
 */
static void
grow_slots(struct tree_build *b)
{
	struct tree_build grown = {.mask = b->mask * 2 + 1, .shift = b->shift - 1};
	size_t old = b->mask + 1;
	uint64_t *slots = old <= GROW_BLOCK ? xcalloc_written(grown.mask + 1, sizeof(uint64_t))
	                                    : xcalloc(grown.mask + 1, sizeof(uint64_t));
	size_t released = 0;
	for (size_t lo = 0; lo < old; lo += GROW_BLOCK) {
		size_t hi = old - lo > GROW_BLOCK ? lo + GROW_BLOCK : old;
		/* Only a hint: it keeps what earlier blocks wrote there. */
		xprefault(&slots[2 * lo], 2 * (hi - lo) * sizeof(uint64_t));
		for (size_t j = lo; j < hi; j++) {
			uint64_t s = b->slots[j];
			if (s) {
				size_t i = tree_build_home(&grown, s);
				while (slots[i]) {
					i = (i + 1) & grown.mask;
				}
				slots[i] = s;
			}
		}
		if (hi < old) { /* the last block's pages go with the free below */
			tree_build_release_prefix(b->slots, &released, hi * sizeof(uint64_t));
		}
	}
	free(b->slots);
	b->slots = slots;
	b->mask = grown.mask;
	b->shift = grown.shift;
}

/* Room for one more node in every per-node array. */
static void
reserve_node(struct tree_build *b, size_t count)
{
	if (count < b->cap) {
		return;
	}
	size_t cap = b->cap;
	b->keys = xgrow(b->keys, &cap, count + 1, sizeof(struct node_key));
	b->name_ids = xrealloc(b->name_ids, cap * sizeof(uint32_t));
	/* new_node zeroes each count: untouched room costs no memory. */
	for (int side = 0; side < 2; side++) {
		if (b->self_units[side]) {
			b->self_units[side] = xrealloc(b->self_units[side], cap * sizeof(uint64_t));
		}
		if (b->self_nanos[side]) {
			b->self_nanos[side] = xrealloc(b->self_nanos[side], cap * sizeof(uint32_t));
		}
	}
	b->cap = cap;
}

/*
 * The self counts may be read first, so are faulted in now (see
 * xcalloc_written). The room past them is written first, by new_node, and
 * costs no memory until then.
 */
void *
tree_build_new_self(const struct tree_build *b, size_t elem)
{
	void *self = xcalloc(b->cap, elem);
	xprefault_zeroed(self, b->count * elem);
	return self;
}

static uint32_t
new_node(struct tree_build *b, uint32_t parent, const struct name *nm)
{
	uint32_t id = (uint32_t)b->count;
	reserve_node(b, b->count);
	b->name_ids[id] = nm->id != TREE_NONE
	                          ? nm->id
	                          : intern_add_hashed(b->names, nm->f, nm->len,
	                                    nm->hash ? nm->hash : intern_hash(nm->f, nm->len));
	for (int side = 0; side < 2; side++) {
		if (b->self_units[side]) {
			b->self_units[side][id] = 0;
		}
		if (b->self_nanos[side]) {
			b->self_nanos[side][id] = 0;
		}
	}
	size_t stored;
	b->keys[id].bytes = intern_name(b->names, b->name_ids[id], &stored);
	b->keys[id].len = (uint32_t)stored;
	b->keys[id].parent = parent;
	b->count++;
	return id;
}

static bool
is_node(const struct tree_build *b, uint32_t id, uint32_t parent, const char *f, size_t len)
{
	const struct node_key *key = &b->keys[id];
	return key->parent == parent && key->len == len && memcmp(key->bytes, f, len) == 0;
}

uint32_t
tree_build_child(struct tree_build *b, uint64_t k, uint32_t parent, const struct name *nm)
{
	uint64_t tag = (k >> 32) << 32;
	size_t i = tree_build_home(b, k);
	for (uint64_t s; (s = b->slots[i]) != 0; i = (i + 1) & b->mask) {
		if ((s & ~(uint64_t)UINT32_MAX) == tag &&
		        is_node(b, (uint32_t)s, parent, nm->f, nm->len)) {
			return (uint32_t)s;
		}
	}
	if (b->opt.max_nodes && b->count - 1 >= b->opt.max_nodes) {
		/* The caller sees b->full once the walk is over; until then the
		 * walk goes on harmlessly from the parent. */
		b->full = true;
		return parent;
	}
	uint32_t id = new_node(b, parent, nm);
	b->slots[i] = tag | id;
	if (slots_full(b)) {
		grow_slots(b);
	}
	return id;
}

/*
 * The child of parent named f whose path hashes to k, created if new;
 * name_hash is intern_hash(f, len) if known, else 0.
 */
static uint32_t
child(struct tree_build *b, uint64_t k, uint32_t parent, const char *f, size_t len,
        uint64_t name_hash)
{
	struct name nm = {f, len, name_hash, TREE_NONE};
	return tree_build_child(b, k, parent, &nm);
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
uint32_t
tree_build_one_frame(struct tree_build *b, uint64_t *k, uint32_t parent, const char *f, size_t len)
{
	if (b->opt.strip_hex && memchr(f, 'x', len)) {
		struct buf *s = &b->scratch;
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
	uint64_t h = hash_bytes(f, len, b->seed);
	*k = tree_path_hash(*k, h);
	return child(b, *k, parent, f, len, h);
}

/*
 * How deep the previous line is remembered. Deeper frames of the next line
 * are looked up by hash instead (same nodes, slower): a line of millions of
 * frames must not cost 12 bytes each here.
 */
#define PREV_MAX_DEPTH 65536

/* The line ends at depth: the next line may reuse that much of it. */
static void
end_line(struct tree_build *b, size_t depth)
{
	b->prev_depth = depth < PREV_MAX_DEPTH ? depth : PREV_MAX_DEPTH;
}

static void
remember(struct tree_build *b, size_t depth, uint32_t node, uint64_t k)
{
	if (depth >= PREV_MAX_DEPTH) {
		return;
	}
	if (depth >= b->prev_cap) {
		size_t cap = b->prev_cap;
		b->prev = xgrow(b->prev, &cap, depth + 1, sizeof(uint32_t));
		b->prev_k = xrealloc(b->prev_k, cap * sizeof(uint64_t));
		b->prev_cap = cap;
	}
	b->prev[depth] = node;
	b->prev_k[depth] = k;
}

/*
 * Frames the stack shares with the previous line, checked against the names
 * of the previous line's nodes, so no copy of that line is kept. Sorted
 * profiles share most of each line with the one before.
 */
static size_t
reuse_prefix(const struct tree_build *b, const char *stack, size_t len, size_t *start)
{
	size_t depth = 0;
	while (depth < b->prev_depth) {
		const struct node_key *key = &b->keys[b->prev[depth]];
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
scan_frames(struct tree_build *b, const char *stack, size_t len, size_t *start, uint64_t k)
{
	if (!b->frames) {
		b->frames = xmalloc(FRAME_BATCH * sizeof(struct frame));
	}
	size_t n = 0;
	while (*start <= len && n < FRAME_BATCH) {
		struct frame *fr = &b->frames[n++];
		fr->f = stack + *start;
		fr->h = scan_frame(fr->f, len - *start, &fr->len, b->seed);
		k = tree_path_hash(k, fr->h);
		fr->k = k;
		prefetch(&b->slots[tree_build_home(b, k)]);
		*start += fr->len + 1;
	}
	return n;
}

/*
 * The candidate of each frame: starts loading its key. A frame without one
 * will be a new node: starts looking up its name.
 */
static void
find_candidates(struct tree_build *b, size_t n)
{
	for (size_t j = 0; j < n; j++) {
		struct frame *fr = &b->frames[j];
		fr->cand = tree_build_candidate(b, fr->k);
		if (fr->cand) {
			prefetch(&b->keys[fr->cand]);
		} else {
			intern_prefetch(b->names, fr->h);
		}
	}
}

/* The rest of the line after its shared prefix, one frame at a time. */
static uint32_t
walk_strip_hex(struct tree_build *b, const char *stack, size_t len, size_t start, size_t depth)
{
	uint32_t node = depth ? b->prev[depth - 1] : TREE_ROOT;
	uint64_t k = depth ? b->prev_k[depth - 1] : ROOT_PATH_HASH;
	while (start <= len) {
		const char *f = stack + start;
		size_t flen;
		scan_frame(f, len - start, &flen, b->seed);
		node = tree_build_one_frame(b, &k, node, f, flen);
		remember(b, depth++, node, k);
		start += flen + 1;
	}
	end_line(b, depth);
	return node;
}

/*
 * Below this many nodes the tables are in the cache and a frame is looked
 * up as soon as it is hashed: batching the lookups (scan_frames...) only
 * pays where they miss.
 */
#define DIRECT_NODES ((size_t)1 << 15)

/* Root-to-leaf walk; returns the leaf. */
static uint32_t
walk_forward(struct tree_build *b, const char *stack, size_t len)
{
	size_t start = 0;
	size_t depth = reuse_prefix(b, stack, len, &start);
	if (b->opt.strip_hex) {
		return walk_strip_hex(b, stack, len, start, depth);
	}
	uint32_t node = depth ? b->prev[depth - 1] : TREE_ROOT;
	uint64_t k = depth ? b->prev_k[depth - 1] : ROOT_PATH_HASH;
	while (b->count < DIRECT_NODES && start <= len && !b->full) {
		const char *f = stack + start;
		size_t flen;
		uint64_t h = scan_frame(f, len - start, &flen, b->seed);
		k = tree_path_hash(k, h);
		/* The usual hit inline; child() alone, a call a frame, cost 4 %
		 * more instructions at 1 MB. */
		uint32_t cand = tree_build_candidate(b, k);
		node = cand && is_node(b, cand, node, f, flen) ? cand
		                                               : child(b, k, node, f, flen, h);
		remember(b, depth++, node, k);
		start += flen + 1;
	}
	while (start <= len && !b->full) {
		size_t n = scan_frames(b, stack, len, &start, k);
		find_candidates(b, n);
		/* The candidates' keys are on their way: start loading their
		 * names, which confirming them compares byte by byte. */
		for (size_t j = 0; j < n; j++) {
			if (b->frames[j].cand) {
				prefetch(b->keys[b->frames[j].cand].bytes);
			}
		}
		for (size_t j = 0; j < n; j++) {
			const struct frame *fr = &b->frames[j];
			if (fr->cand && is_node(b, fr->cand, node, fr->f, fr->len)) {
				node = fr->cand;
			} else {
				node = child(b, fr->k, node, fr->f, fr->len, fr->h);
			}
			remember(b, depth++, node, fr->k);
		}
		k = b->frames[n - 1].k;
	}
	end_line(b, depth);
	return node;
}

/*
 * A flame chart's walk: the frames the stack shares with the one before
 * it are that stack's nodes, every other frame a new node, even where an
 * earlier stack made one of that name under the same parent (a later
 * call, drawn apart). No node is looked up, so none goes into the slots.
 */
static uint32_t
walk_chart(struct tree_build *b, const char *stack, size_t len)
{
	size_t start = 0;
	size_t depth = reuse_prefix(b, stack, len, &start);
	uint32_t node = depth ? b->prev[depth - 1] : TREE_ROOT;
	while (start <= len && !b->full) {
		size_t flen;
		scan_frame(stack + start, len - start, &flen, b->seed);
		if (b->opt.max_nodes && b->count - 1 >= b->opt.max_nodes) {
			b->full = true;
			break;
		}
		struct name nm = {stack + start, flen, 0, TREE_NONE};
		node = new_node(b, node, &nm);
		remember(b, depth++, node, 0);
		start += flen + 1;
	}
	end_line(b, depth);
	return node;
}

/*
 * walk_forward for a stack hashed by tree_hash_frames: its first `shared`
 * frames are the previous line's, fr its others, whose lookups
 * tree_hashed_ahead has done.
 */
static uint32_t
walk_hashed(struct tree_build *b, const char *stack, size_t shared, const struct tree_frame *fr,
        const uint32_t *hint, size_t n)
{
	size_t depth = shared;
	uint32_t node = depth ? b->prev[depth - 1] : TREE_ROOT;
	for (size_t j = 0; j < n; j++) {
		const char *f = stack + fr[j].at;
		if (hint[j] && is_node(b, hint[j], node, f, fr[j].len)) {
			node = hint[j];
		} else {
			node = child(b, fr[j].path, node, f, fr[j].len, fr[j].hash);
		}
		remember(b, depth++, node, fr[j].path);
	}
	end_line(b, depth);
	return node;
}

/* Leaf-to-root walk for --reverse; returns the leaf. */
static uint32_t
walk_reverse(struct tree_build *b, const char *stack, size_t len)
{
	size_t end = len;
	uint32_t node = TREE_ROOT;
	uint64_t k = ROOT_PATH_HASH;
	for (;;) {
		size_t start = end;
		while (start > 0 && stack[start - 1] != ';') {
			start--;
		}
		node = tree_build_one_frame(b, &k, node, stack + start, end - start);
		if (start == 0) {
			return node;
		}
		end = start - 1;
	}
}

const char *
tree_build_overflow_reason(enum side side)
{
	return side == SIDE_BASE ? "sum of base counts exceeds 2^64-1"
	                         : "sum of head counts exceeds 2^64-1";
}

const char *
tree_build_full_reason(struct tree_build *b)
{
	snprintf(b->full_msg, sizeof(b->full_msg),
	        "the merged tree would have more than %lu frames (see --max-frames)",
	        (unsigned long)b->opt.max_nodes);
	return b->full_msg;
}

/*
 * The transforms, here where the stacks of every reader pass: false when
 * the stack is dropped (*ok false, *reason set, on a failure).
 */
static bool
transform_stack(
        struct tree_build *b, const char **stack, size_t *len, bool *ok, const char **reason)
{
	*ok = true;
	if (!b->transform) {
		return true;
	}
	switch (transform_run_stack(b->transform, *stack, *len, stack, len, reason)) {
	case TRANSFORM_KEEP:
		return true;
	case TRANSFORM_ERROR:
		*ok = false;
		return false;
	case TRANSFORM_DROP:
		break;
	}
	return false;
}

/*
 * Adds c to a node's self count of a side. No self count can exceed the
 * side's total, which the caller checked, so this cannot overflow.
 */
void
tree_build_add_self(struct tree_build *b, enum side side, uint32_t node, struct count c)
{
	if (!b->self_units[side]) {
		b->self_units[side] = tree_build_new_self(b, sizeof(uint64_t));
	}
	uint64_t units = c.units;
	if (c.nanos) {
		if (!b->self_nanos[side]) {
			b->self_nanos[side] = tree_build_new_self(b, sizeof(uint32_t));
		}
		uint32_t nanos = b->self_nanos[side][node] + c.nanos;
		if (nanos >= COUNT_NANOS_PER_UNIT) {
			nanos -= COUNT_NANOS_PER_UNIT;
			units++;
		}
		b->self_nanos[side][node] = nanos;
	}
	b->self_units[side][node] += units;
}

/* A stack's count at its leaf, total the side's sum with it. */
static bool
add_at_leaf(struct tree *t, enum side side, uint32_t leaf, struct count c, struct count total,
        const char **reason)
{
	struct tree_build *b = t->build;
	t->node_count = b->count;
	if (b->full) {
		*reason = tree_build_full_reason(b);
		return false;
	}
	b->sum[side] = total;
	tree_build_add_self(b, side, leaf, c);
	return true;
}

/*
 * The rule of every reader's root frames, here where they all pass: a
 * folded line starting with '#' is a comment, so a root frame starting with
 * one gets a space before it, and -f folded writes a stack that reads back
 * the same (flamegraph.pl and inferno keep the space in the name too). At
 * depth 2 and below '#' is plain text and stays. Returns the stack to walk,
 * *len updated: stack itself, or a copy in b->rooted. Under --reverse the
 * root is the stack's last frame.
 */
const char *
tree_build_root_safe(struct tree_build *b, const char *stack, size_t *len)
{
	size_t at = 0;
	if (b->opt.reverse) {
		const char *semi = *len ? memrchr(stack, ';', *len) : NULL;
		at = semi ? (size_t)(semi - stack) + 1 : 0;
	}
	if (at >= *len || stack[at] != '#') {
		return stack;
	}
	buf_reset(&b->rooted);
	buf_add(&b->rooted, stack, at);
	buf_addc(&b->rooted, ' ');
	buf_add(&b->rooted, stack + at, *len - at);
	*len = b->rooted.len;
	return b->rooted.data;
}

bool
tree_add_stack(struct tree *t, enum side side, const char *stack, size_t len, struct count c,
        const char **reason)
{
	struct tree_build *b = t->build;
	bool ok;
	b->offered++;
	if (!transform_stack(b, &stack, &len, &ok, reason)) {
		return ok; /* a dropped stack's count is in no total */
	}
	stack = tree_build_root_safe(b, stack, &len);
	struct count total;
	if (!count_add(b->sum[side], c, &total)) {
		*reason = tree_build_overflow_reason(side);
		return false;
	}
	uint32_t leaf = b->opt.reverse ? walk_reverse(b, stack, len)
	                : b->opt.chart ? walk_chart(b, stack, len)
	                               : walk_forward(b, stack, len);
	return add_at_leaf(t, side, leaf, c, total, reason);
}

bool
tree_takes_hashed(const struct tree *t)
{
	return !t->opt.reverse && !t->opt.strip_hex && !t->opt.chart &&
	       !transform_active(t->opt.transform);
}

size_t
tree_hash_frames(const char *stack, size_t len, size_t start, uint64_t path, struct tree_frame *out,
        size_t cap)
{
	uint64_t seed = hash_seed();
	size_t n = 0;
	while (start <= len) {
		if (n == cap) {
			return SIZE_MAX;
		}
		size_t flen;
		uint64_t h = scan_frame(stack + start, len - start, &flen, seed);
		path = tree_path_hash(path, h);
		out[n++] = (struct tree_frame){(uint32_t)start, (uint32_t)flen, h, path};
		start += flen + 1;
	}
	return n;
}

void
tree_hashed_ahead(
        const struct tree *t, const struct tree_frame *fr, size_t n, uint32_t *hint, int stage)
{
	const struct tree_build *b = t->build;
	for (size_t j = 0; j < n; j++) {
		if (stage == 0) {
			prefetch(&b->slots[tree_build_home(b, fr[j].path)]);
		} else if (stage == 1) {
			hint[j] = tree_build_candidate(b, fr[j].path);
			if (hint[j]) {
				prefetch(&b->keys[hint[j]]);
			} else {
				intern_prefetch(b->names, fr[j].hash);
			}
		} else if (hint[j]) {
			prefetch(b->keys[hint[j]].bytes);
		} else {
			/* No candidate: a new node, whose name is looked up. */
			intern_prefetch_entry(b->names, fr[j].hash);
		}
	}
	/* The stack's count goes to its leaf: its self count, on either side. */
	if (stage == 1 && n && hint[n - 1]) {
		for (int side = 0; side < 2; side++) {
			if (b->self_units[side]) {
				prefetch(&b->self_units[side][hint[n - 1]]);
			}
		}
	}
}

bool
tree_add_hashed(struct tree *t, enum side side, const char *stack, struct count c, size_t shared,
        const struct tree_frame *fr, const uint32_t *hint, size_t n, const char **reason)
{
	struct tree_build *b = t->build;
	struct count total;
	b->offered++;
	if (!count_add(b->sum[side], c, &total)) {
		*reason = tree_build_overflow_reason(side);
		return false;
	}
	uint32_t leaf = walk_hashed(b, stack, shared, fr, hint, n);
	return add_at_leaf(t, side, leaf, c, total, reason);
}

bool
tree_needs_paths(const struct tree *t)
{
	return t->opt.reverse || t->opt.chart || transform_active(t->opt.transform);
}
