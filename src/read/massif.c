#include "massif.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "buf.h"
#include "count.h"
#include "escape.h"
#include "tree_build.h"
#include "xalloc.h"

/* Detailed snapshots listed in the message for a missing one. */
#define MAX_LISTED 32

/* One node on the path from the tree's top to the line being read. */
struct level {
	uint64_t bytes, children; /* its bytes, and its children's so far */
	uint64_t expected, seen; /* children: as its line says, read so far */
	size_t pos; /* its path (this frame and the ones above) is path[pos..cap) */
	uint64_t line;
};

struct massif {
	struct tree *t;
	enum side side;
	const char *name;
	const struct massif_options *opt;
	struct diag *err;
	uint64_t line_no;
	long snapshot; /* the current snapshot's number, -1 before the first */
	bool in_tree; /* reading the chosen tree */
	bool done; /* the chosen tree was read */
	long read; /* its number */
	struct level *levels;
	size_t depth, levels_cap;
	char *path; /* written from the end: the deepest frame first */
	size_t cap;
	uint64_t total;
	bool has_top; /* the tree's top line was read */
	bool empty; /* the snapshot chosen has no heap tree */
	uint32_t peaks; /* heap_tree=peak lines seen */
	uint64_t stacks; /* stacks given to the tree */
	long detailed[MAX_LISTED];
	size_t ndetailed;
	bool more_detailed;
};

static bool
fail(struct massif *m, uint64_t line, const char *reason)
{
	diag_set(m->err, m->name, line, reason);
	return false;
}

static bool
starts(const char *s, size_t len, const char *lit)
{
	size_t n = strlen(lit);
	return len >= n && memcmp(s, lit, n) == 0;
}

static bool
parse_u64(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	uint64_t r = 0;
	while (*p < end && **p >= '0' && **p <= '9') {
		unsigned d = (unsigned)(**p - '0');
		if (r > (UINT64_MAX - d) / 10) {
			return false;
		}
		r = r * 10 + d;
		(*p)++;
	}
	*v = r;
	return *p > s;
}

/*
 * The frame a node's text names: "0x4005B4: f (a.c:5)" is f, "0x...: ???
 * (in /lib/libfoo.so)" is [libfoo.so], a threshold line is one frame.
 */
static void
frame_name(
        const char *s, size_t len, const char **name, size_t *nlen, const char **obj, size_t *olen)
{
	*obj = NULL;
	*olen = 0;
	if (memmem(s, len, "below massif's threshold", 24)) {
		*name = "[below massif's threshold]";
		*nlen = strlen(*name);
		return;
	}
	const char *colon = memmem(s, len, ": ", 2);
	if (starts(s, len, "0x") && colon) {
		len -= (size_t)(colon + 2 - s);
		s = colon + 2;
	}
	/* The last parenthesised group, when something comes before it: where. */
	if (len > 0 && s[len - 1] == ')') {
		int open = 0;
		for (size_t i = len; i-- > 0;) {
			open += s[i] == ')' ? 1 : s[i] == '(' ? -1 : 0;
			if (open == 0 && i > 1 && s[i - 1] == ' ') {
				*obj = s + i + 1;
				*olen = len - i - 2;
				len = i - 1;
				break;
			}
			if (open == 0) {
				break;
			}
		}
	}
	*name = s;
	*nlen = len;
}

/* Room for n more bytes before path[pos]: the path moves to a larger end. */
static void
make_room(struct massif *m, size_t n)
{
	size_t used = m->cap - (m->depth ? m->levels[m->depth - 1].pos : m->cap);
	size_t cap = m->cap ? m->cap : 4096;
	while (cap - used < n) {
		cap *= 2;
	}
	if (cap == m->cap) {
		return;
	}
	char *p = xmalloc(cap);
	if (used) {
		memcpy(p + cap - used, m->path + m->cap - used, used);
	}
	for (size_t d = 0; d < m->depth; d++) {
		m->levels[d].pos += cap - m->cap;
	}
	free(m->path);
	m->path = p;
	m->cap = cap;
}

/*
 * Writes the frame of a new level before its parent's path: its position
 * in *pos. False, writing nothing, when the frame's name is empty.
 */
static bool
push_name(struct massif *m, const char *s, size_t len, size_t *pos_out)
{
	const char *name, *obj;
	size_t nlen, olen;
	frame_name(s, len, &name, &nlen, &obj, &olen);
	bool unknown =
	        nlen == 3 && memcmp(name, "???", 3) == 0 && olen > 3 && starts(obj, olen, "in ");
	if (unknown) {
		const char *slash = memrchr(obj, '/', olen);
		const char *base = slash ? slash + 1 : obj + 3;
		olen -= (size_t)(base - obj);
		obj = base;
		nlen = olen + 2;
	}
	if (nlen == 0) {
		return false; /* massif names every node: the line is not one of its */
	}
	/* The new level is levels[m->depth]; its parent's path ends the buffer. */
	size_t sep = m->depth > 1;
	make_room(m, nlen + sep);
	size_t parent = m->depth > 1 ? m->levels[m->depth - 1].pos : m->cap;
	size_t pos = parent - nlen - sep;
	if (unknown) {
		m->path[pos] = '[';
		memcpy(m->path + pos + 1, obj, olen);
		m->path[pos + 1 + olen] = ']';
	} else {
		memcpy(m->path + pos, name, nlen);
	}
	/* A root frame starting with '#' is the tree's rule (root_safe). */
	escape_frame_bytes(m->path + pos, nlen, true);
	if (sep) {
		m->path[pos + nlen] = ';';
	}
	*pos_out = pos;
	return true;
}

/* The deepest level is complete: its own bytes become its stack. */
static bool
pop(struct massif *m)
{
	struct level *l = &m->levels[--m->depth];
	if (l->seen != l->expected) {
		return fail(m, l->line,
		        "the heap tree is cut short: this node has fewer children "
		        "than its n<children> says");
	}
	uint64_t self = l->bytes - l->children;
	if (self == 0) {
		return true;
	}
	/* The top's own bytes (none in massif's files) have no path: with no
	 * child ever pushed, m->path is still NULL. */
	const char *stack = "[unattributed]";
	size_t len = strlen(stack);
	if (m->depth > 0) {
		stack = m->path + l->pos;
		len = m->cap - l->pos;
	}
	const char *reason;
	if (!tree_add_stack(m->t, m->side, stack, len, (struct count){self, 0}, &reason)) {
		return fail(m, l->line, reason);
	}
	m->stacks++;
	return true;
}

static bool
end_tree(struct massif *m)
{
	while (m->depth > 0) {
		if (!pop(m)) {
			return false;
		}
	}
	m->in_tree = false;
	m->done = true;
	return true;
}

/* "n<children>: <bytes> <text>", indented by its depth. */
static bool
tree_line(struct massif *m, const char *s, size_t len)
{
	size_t indent = 0;
	while (indent < len && s[indent] == ' ') {
		indent++;
	}
	const char *p = s + indent, *end = s + len;
	uint64_t children, bytes;
	if (p == end || *p++ != 'n' || !parse_u64(&p, end, &children) || p == end || *p++ != ':' ||
	        p == end || *p++ != ' ' || !parse_u64(&p, end, &bytes)) {
		return fail(
		        m, m->line_no, "not a heap tree line (`n<children>: <bytes> <function>`)");
	}
	if (p < end && *p++ != ' ') {
		return fail(
		        m, m->line_no, "not a heap tree line (`n<children>: <bytes> <function>`)");
	}
	while (m->depth > indent) {
		if (!pop(m)) {
			return false;
		}
	}
	if (indent != m->depth || (indent == 0 && m->has_top)) {
		return fail(
		        m, m->line_no, "a heap tree line is indented deeper than its parent + 1");
	}
	if (indent > 0) {
		struct level *parent = &m->levels[indent - 1];
		if (bytes > parent->bytes - parent->children || parent->seen == parent->expected) {
			return fail(m, m->line_no,
			        "a node holds more bytes, or more children, than its parent has "
			        "left");
		}
		parent->children += bytes;
		parent->seen++;
		size_t above = m->cap - parent->pos;
		if (indent > 1 && above + (size_t)(end - p) + 1 > BOUND_STACK) {
			return fail(m, m->line_no, "a stack is longer than 16 MiB");
		}
	} else {
		m->total = bytes;
		m->has_top = true;
	}
	m->levels = xgrow(m->levels, &m->levels_cap, m->depth + 1, sizeof(*m->levels));
	size_t pos = m->cap;
	if (indent > 0 && !push_name(m, p, (size_t)(end - p), &pos)) {
		return fail(m, m->line_no, "a heap tree node has no function name");
	}
	m->levels[m->depth++] = (struct level){bytes, 0, children, 0, pos, m->line_no};
	return true;
}

static bool
wanted(const struct massif *m, bool peak)
{
	return m->opt->snapshot == MASSIF_PEAK ? peak : m->snapshot == m->opt->snapshot;
}

/* snapshot=N and heap_tree=KIND: whether the tree that follows is read. */
static bool
header_line(struct massif *m, const char *s, size_t len)
{
	if (starts(s, len, "snapshot=")) {
		const char *p = s + 9;
		uint64_t n;
		if (!parse_u64(&p, s + len, &n) || p != s + len || n > (uint64_t)LONG_MAX) {
			return fail(m, m->line_no, "snapshot=N: N is not a number");
		}
		m->snapshot = (long)n;
		return true;
	}
	if (!starts(s, len, "heap_tree=")) {
		return true;
	}
	bool peak = len == 14 && memcmp(s + 10, "peak", 4) == 0;
	bool detailed = peak || (len == 18 && memcmp(s + 10, "detailed", 8) == 0);
	/* massif writes one peak; of two, ms_print's graph and difffold would
	 * not agree on which is the peak, so the file is refused. */
	if (peak && m->peaks++) {
		return fail(m, m->line_no, "a second peak snapshot (massif writes one)");
	}
	if (detailed && m->ndetailed < MAX_LISTED) {
		m->detailed[m->ndetailed++] = m->snapshot;
	} else if (detailed) {
		m->more_detailed = true;
	}
	if (!m->done && wanted(m, peak)) {
		if (!detailed) {
			m->empty = true; /* refused at the end, with the snapshots that have one */
			return true;
		}
		m->in_tree = true;
		m->read = m->snapshot;
		m->total = 0;
		m->has_top = false;
	}
	return true;
}

static bool
parse_line(struct massif *m, const char *s, size_t len)
{
	m->line_no++;
	if (len > 0 && s[len - 1] == '\r') {
		len--;
	}
	if (m->in_tree) {
		if (len > 0 && (s[0] == ' ' || s[0] == 'n')) {
			return tree_line(m, s, len);
		}
		if (!end_tree(m)) {
			return false;
		}
	}
	if (m->line_no == 1 && !starts(s, len, "desc:")) {
		return fail(m, 1, "not a massif file (it starts with `desc:`)");
	}
	return header_line(m, s, len);
}

static long long
parse_lines(struct massif *m, const char *data, size_t len, bool at_eof)
{
	size_t pos = 0;
	for (;;) {
		const char *nl = memchr(data + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - data) : len;
		if (end - pos > BOUND_LINE) {
			fail(m, m->line_no + 1, "line is longer than 16 MiB");
			return -1;
		}
		if (!nl && !(at_eof && pos < len)) {
			return (long long)pos;
		}
		if (!parse_line(m, data + pos, end - pos)) {
			return -1;
		}
		pos = nl ? end + 1 : len;
	}
}

static bool
finish(struct massif *m, struct massif_info *info)
{
	if (m->in_tree && !end_tree(m)) {
		return false;
	}
	if (m->done && m->stacks == 0) {
		struct buf why;
		buf_init(&why);
		buf_printf(&why, "snapshot %ld's heap tree is empty or missing", m->read);
		diag_set(m->err, m->name, 0, why.data);
		buf_finish(&why);
		return false;
	}
	if (m->done) {
		info->snapshot = m->read;
		info->total = m->total;
		return true;
	}
	struct buf why;
	buf_init(&why);
	if (m->ndetailed == 0) {
		buf_adds(&why, "no snapshot has a heap tree (no detailed snapshot, no peak): was "
		               "the program's heap used at all?");
	} else {
		if (m->opt->snapshot == MASSIF_PEAK) {
			buf_adds(&why, "no peak snapshot (the file may be cut short)");
		} else if (m->empty) {
			buf_printf(&why,
			        "snapshot %ld has no heap tree (massif keeps one for detailed "
			        "snapshots and the peak only)",
			        m->opt->snapshot);
		} else {
			buf_printf(&why, "no snapshot %ld", m->opt->snapshot);
		}
		buf_adds(&why, "; snapshots with a heap tree: ");
		for (size_t i = 0; i < m->ndetailed; i++) {
			buf_printf(&why, "%s%ld", i ? ", " : "", m->detailed[i]);
		}
		buf_adds(&why, m->more_detailed ? ", ..." : "");
	}
	diag_set(m->err, m->name, 0, why.data);
	buf_finish(&why);
	return false;
}

static void
massif_init(struct massif *m, struct tree *t, enum side side, const char *name,
        const struct massif_options *opt, struct diag *err)
{
	memset(m, 0, sizeof(*m));
	m->t = t;
	m->side = side;
	m->name = name;
	m->opt = opt;
	m->err = err;
	m->snapshot = -1;
}

static void
massif_finish(struct massif *m)
{
	free(m->levels);
	free(m->path);
}

static long long
parse_chunk(void *ctx, const char *data, size_t len, bool at_eof)
{
	return parse_lines(ctx, data, len, at_eof);
}

bool
massif_read(struct tree *t, enum folded_mode mode, struct source *src, const char *head,
        size_t head_len, const struct read_options *ro, struct read_result *res, struct diag *err)
{
	struct massif_options opt = {ro->snapshot};
	struct massif_info info;
	struct massif m;
	massif_init(&m, t, reader_side(mode), source_name(src), &opt, err);
	memset(&info, 0, sizeof(info));
	bool ok = source_parse(src, head, head_len, parse_chunk, &m, err);
	ok = ok && finish(&m, &info);
	massif_finish(&m);
	if (!ok) {
		return false;
	}
	if (ro->snapshot == MASSIF_PEAK) {
		snprintf(res->note, sizeof(res->note), "massif: the heap at its peak snapshot");
	} else {
		snprintf(res->note, sizeof(res->note), "massif: the heap at snapshot %ld",
		        info.snapshot);
	}
	snprintf(res->unit, sizeof(res->unit), "bytes");
	snprintf(res->measure, sizeof(res->measure), "heap bytes in use");
	res->exact = true;
	return true;
}
