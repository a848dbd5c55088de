#include "folded.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "count.h"
#include "folded_syntax.h"
#include "source.h"
#include "tree_build.h"
#include "xalloc.h"

struct pipe;

struct reader {
	struct tree *t;
	const char *name;
	enum folded_mode mode;
	bool strict;
	uint64_t line_no;
	bool decided; /* column count known */
	struct folded_stats *st;
	struct diag *err;
	struct pipe *pipe; /* the lines go to the tree's thread; NULL: to t */
};

/* Returns false for a bad line, with *reason set. */
static bool
parse_counts(struct reader *r, const char *s, size_t *len, struct count c[2], bool *pair,
        const char **reason)
{
	const char *f;
	size_t flen;
	if (!folded_last_field(s, len, &f, &flen)) {
		*reason = "no count";
		return false;
	}
	if (!count_parse(f, flen, &c[1], reason)) {
		return false;
	}
	*pair = false;
	if (r->mode == FOLDED_AUTO && (!r->decided || r->st->three_column)) {
		size_t before = *len;
		const char *g;
		size_t glen;
		const char *why;
		bool second = folded_last_field(s, &before, &g, &glen) &&
		              count_parse(g, glen, &c[0], &why);
		if (!r->decided) {
			r->st->three_column = second && before > 0;
			r->decided = true;
		}
		if (r->st->three_column) {
			if (!second) {
				*reason = "3-column input: base count is missing or not a number";
				return false;
			}
			*len = before;
			*pair = true;
		}
	}
	if (*len == 0) {
		*reason = "stack is empty";
		return false;
	}
	return true;
}

static void pipe_line(struct pipe *p, enum side side, const char *s, size_t len, struct count c,
        uint64_t line_no);

static bool
add(struct reader *r, enum side side, const char *s, size_t len, struct count c)
{
	if (r->pipe) {
		pipe_line(r->pipe, side, s, len, c, r->line_no);
		return true;
	}
	const char *reason;
	if (!tree_add_stack(r->t, side, s, len, c, &reason)) {
		diag_set(r->err, r->name, r->line_no, reason);
		return false;
	}
	return true;
}

static bool
bad_line(struct reader *r, const char *reason)
{
	if (r->strict) {
		diag_set(r->err, r->name, r->line_no, reason);
		return false;
	}
	if (r->st->bad_lines++ == 0) {
		r->st->first_bad = r->line_no;
		r->st->first_bad_reason = reason;
	}
	return true;
}

/* A column mark before the first stack decides the column count. */
static void
column_mark(struct reader *r, const char *s, size_t len)
{
	static const size_t n = sizeof(FOLDED_MARK_2_COLUMNS) - 1;
	if (r->mode != FOLDED_AUTO || r->decided || len != n) {
		return;
	}
	bool two = memcmp(s, FOLDED_MARK_2_COLUMNS, n) == 0;
	bool three = memcmp(s, FOLDED_MARK_3_COLUMNS, n) == 0;
	if (two || three) {
		r->decided = true;
		r->st->three_column = three;
	}
}

/* One line without its newline. Returns false on a fatal error. */
static bool
parse_line(struct reader *r, const char *s, size_t len)
{
	r->line_no++;
	if (r->line_no == 1 && len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
		s += 3;
		len -= 3;
	}
	if (len > 0 && s[len - 1] == '\r') {
		len--;
	}
	while (len > 0 && folded_is_space(s[len - 1])) {
		len--;
	}
	size_t lead = 0;
	while (lead < len && folded_is_space(s[lead])) {
		lead++;
	}
	if (lead == len || s[0] == '#') {
		column_mark(r, s, len);
		return true;
	}
	struct count c[2];
	bool pair;
	const char *reason;
	if (!parse_counts(r, s, &len, c, &pair, &reason)) {
		return bad_line(r, reason);
	}
	/* heaptrack ends its stacks with ';': no empty leaf frame for that. */
	while (len > 0 && s[len - 1] == ';') {
		len--;
	}
	if (len == 0) {
		return bad_line(r, "stack is empty");
	}
	r->st->lines++;
	if (pair) {
		return add(r, SIDE_BASE, s, len, c[0]) && add(r, SIDE_HEAD, s, len, c[1]);
	}
	return add(r, r->mode == FOLDED_BASE ? SIDE_BASE : SIDE_HEAD, s, len, c[1]);
}

/* Parses the complete lines in data; returns bytes consumed or -1 on error. */
static long long
parse_lines(struct reader *r, const char *data, size_t len, bool at_eof)
{
	size_t pos = 0;
	for (;;) {
		const char *nl = memchr(data + pos, '\n', len - pos);
		if (!nl) {
			break;
		}
		size_t end = (size_t)(nl - data);
		if (end - pos > BOUND_LINE) {
			r->line_no++;
			diag_set(r->err, r->name, r->line_no, "line is longer than 16 MiB");
			return -1;
		}
		if (!parse_line(r, data + pos, end - pos)) {
			return -1;
		}
		pos = end + 1;
	}
	if (len - pos > BOUND_LINE) {
		r->line_no++;
		diag_set(r->err, r->name, r->line_no, "line is longer than 16 MiB");
		return -1;
	}
	if (at_eof && pos < len) {
		if (!parse_line(r, data + pos, len - pos)) {
			return -1;
		}
		pos = len;
	}
	return (long long)pos;
}

/*
 * A file whose lines are mostly malformed is not folded stacks read with a
 * few bad lines but something else: drawing the few that parse would be a
 * graph of a file we misread.
 */
static bool
finish(struct reader *r)
{
	const struct folded_stats *st = r->st;
	if (st->lines == 0) {
		diag_set(r->err, r->name, 0,
		        st->bad_lines ? "no valid line (every line was malformed)"
		                      : "no stack in the input (empty file?)");
		return false;
	}
	if (st->bad_lines > st->lines) {
		char reason[256];
		snprintf(reason, sizeof(reason),
		        "%s; %llu of %llu lines are malformed, so this is not read as folded "
		        "stacks "
		        "(a file of another format? --input-format names the reader)",
		        st->first_bad_reason, (unsigned long long)st->bad_lines,
		        (unsigned long long)st->bad_lines + (unsigned long long)st->lines);
		diag_set(r->err, r->name, st->first_bad, reason);
		return false;
	}
	return true;
}

static void
reader_init(struct reader *r, struct tree *t, const char *name, enum folded_mode mode, bool strict,
        struct folded_stats *st, struct diag *err)
{
	memset(r, 0, sizeof(*r));
	memset(st, 0, sizeof(*st));
	r->t = t;
	r->name = name;
	r->mode = mode;
	r->strict = strict;
	r->st = st;
	r->err = err;
}

static long long
parse_chunk(void *ctx, const char *data, size_t len, bool at_eof)
{
	return parse_lines(ctx, data, len, at_eof);
}

bool
folded_read_source(struct tree *t, struct source *src, const char *head, size_t head_len,
        enum folded_mode mode, bool strict, struct folded_stats *st, struct diag *err)
{
	struct reader r;
	reader_init(&r, t, source_name(src), mode, strict, st, err);
	return source_parse(src, head, head_len, parse_chunk, &r, err) && finish(&r);
}

bool
folded_read(struct tree *t, enum folded_mode mode, struct source *src, const char *head,
        size_t head_len, const struct read_options *ro, struct read_result *res, struct diag *err)
{
	return ro->threaded ? folded_read_source_threaded(
	                              t, src, head, head_len, mode, ro->strict, &res->folded, err)
	                    : folded_read_source(
	                              t, src, head, head_len, mode, ro->strict, &res->folded, err);
}

/*
 * The pipeline (folded_read_source_threaded). A second thread reads the
 * source, splits and parses the lines and hashes their frames (none of
 * which needs the tree) into chunks, which the caller's thread adds to the
 * tree in order: one tree, one name table, the same node ids as a serial
 * read. A bounded ring of chunks keeps the memory fixed.
 */

/* Bytes read into a chunk: its lines go to the tree's thread together. */
#define CHUNK_READ ((size_t)64 << 10)
/*
 * Chunks in the ring: the reading thread runs at most this far ahead. Ten
 * keep both threads as busy as sixteen did, in 0.7 MiB less (100 MB pair).
 */
#define RING 10
/*
 * A thread that waits for the other is woken when this many chunks are
 * ready for it, not at every chunk: each wake-up costs both CPU time.
 */
#define RING_WAKE 4
/*
 * The reading thread hashes a chunk's frames only while at least this many
 * chunks wait for the tree's thread: hashing moves work off that thread,
 * which is the slower one unless reading is slow (gzip, a pipe); a chunk
 * whose lines go whole leaves the hashing to it.
 */
#define HASH_BACKLOG 4
/*
 * Frames hashed ahead a line; a deeper line goes to tree_add_stack whole,
 * so neither thread keeps more than this of a line in its frame arrays.
 */
#define LINE_FRAMES 512
/* A line's frames when it goes whole to tree_add_stack. */
#define WHOLE UINT32_MAX

struct line {
	uint64_t line_no;
	struct count c;
	enum side side;
	uint32_t at, len; /* the stack, at the chunk's text + at */
	uint32_t shared; /* frames of the stack before it (tree_add_hashed) */
	uint32_t first; /* its other frames: the chunk's from first on */
	uint32_t frames; /* how many; WHOLE: none, the stack goes whole */
};

struct chunk {
	struct buf text;
	struct line *lines;
	size_t line_count, line_cap;
	struct tree_frame *frames;
	size_t frame_count, frame_cap;
	bool last; /* the file's last: it ends well unless failed */
	bool failed; /* the reading thread's error (pipe.err) ends the file */
};

struct pipe {
	pthread_mutex_t lock;
	pthread_cond_t filled_cond, done_cond;
	struct chunk ring[RING];
	size_t filled; /* chunks handed to the tree's thread */
	size_t done; /* chunks the tree's thread is done with */
	size_t want_filled, want_done; /* what a waiting thread waits for; 0: none */
	bool stop; /* the tree's thread failed: the reading thread stops */
	uint32_t *hint; /* the tree's thread's: a chunk's frames' hints */
	size_t hint_cap;
	/* The reading thread's: */
	struct reader r;
	struct source *src;
	const char *head;
	size_t head_len;
	struct diag err;
	bool hashed; /* tree_takes_hashed */
	bool hash_chunk; /* cur's lines are hashed */
	uint64_t root_path;
	struct chunk *cur; /* being filled */
	/* The stack before, in cur, and its frames (prev_n of them). */
	uint32_t prev_at, prev_n;
	struct tree_frame prev[LINE_FRAMES];
};

/* Frames the stack s shares with the stack before; *pos past them. */
static size_t
shared_frames(const struct pipe *p, const char *s, size_t len, size_t *pos)
{
	const char *prev = p->cur->text.data + p->prev_at;
	size_t n = 0;
	while (n < p->prev_n) {
		size_t end = *pos + p->prev[n].len;
		if (end > len || (end < len && s[end] != ';') ||
		        memcmp(s + *pos, prev + *pos, p->prev[n].len) != 0) {
			break;
		}
		*pos = end + 1;
		n++;
	}
	return n;
}

/* A line for the tree's thread: the stack s, in cur's text. */
static void
pipe_line(
        struct pipe *p, enum side side, const char *s, size_t len, struct count c, uint64_t line_no)
{
	struct chunk *ch = p->cur;
	if (ch->line_count == ch->line_cap) {
		ch->lines =
		        xgrow(ch->lines, &ch->line_cap, ch->line_count + 1, sizeof(struct line));
	}
	struct line *l = &ch->lines[ch->line_count++];
	*l = (struct line){
	        line_no, c, side, (uint32_t)(s - ch->text.data), (uint32_t)len, 0, 0, WHOLE};
	if (!p->hashed || !p->hash_chunk) {
		return;
	}
	size_t pos = 0, shared = shared_frames(p, s, len, &pos);
	uint64_t path = shared ? p->prev[shared - 1].path : p->root_path;
	/* The frames shared stay in prev: those of the stack before. */
	size_t n = tree_hash_frames(s, len, pos, path, p->prev + shared, LINE_FRAMES - shared);
	if (n == SIZE_MAX) {
		p->prev_n = 0;
		return;
	}
	if (ch->frame_count + n > ch->frame_cap) {
		ch->frames = xgrow(
		        ch->frames, &ch->frame_cap, ch->frame_count + n, sizeof(struct tree_frame));
	}
	memcpy(ch->frames + ch->frame_count, p->prev + shared, n * sizeof(struct tree_frame));
	l->shared = (uint32_t)shared;
	l->first = (uint32_t)ch->frame_count;
	l->frames = (uint32_t)n;
	ch->frame_count += n;
	p->prev_at = l->at;
	p->prev_n = (uint32_t)(shared + n);
}

/* The reading thread: false when the tree's thread has stopped. */
static bool
wait_free(struct pipe *p, size_t i)
{
	pthread_mutex_lock(&p->lock);
	if (i >= p->done + RING && !p->stop) {
		p->want_done = i + RING_WAKE - RING;
		while (p->done < p->want_done && !p->stop) {
			pthread_cond_wait(&p->done_cond, &p->lock);
		}
		p->want_done = 0;
	}
	bool go = !p->stop;
	pthread_mutex_unlock(&p->lock);
	return go;
}

/* Returns how many chunks the tree's thread has yet to add. */
static size_t
hand_over(struct pipe *p, bool last)
{
	pthread_mutex_lock(&p->lock);
	p->filled++;
	if (p->want_filled && (last || p->filled >= p->want_filled)) {
		pthread_cond_signal(&p->filled_cond);
	}
	size_t waiting = p->filled - p->done;
	pthread_mutex_unlock(&p->lock);
	return waiting;
}

static void
chunk_reset(struct chunk *ch)
{
	buf_reset(&ch->text);
	ch->line_count = ch->frame_count = 0;
	ch->last = ch->failed = false;
}

/*
 * Reads and parses the source into chunks, each handed over with the lines
 * it completes; the line it leaves unfinished moves to the next chunk. The
 * last chunk says how the file ended.
 */
static void *
pipe_read(void *arg)
{
	struct pipe *p = arg;
	struct reader *r = &p->r;
	size_t i = 0;
	p->cur = &p->ring[0];
	chunk_reset(p->cur);
	buf_add(&p->cur->text, p->head, p->head_len);
	size_t parsed = 0; /* bytes of cur's text that are lines already */
	for (;;) {
		struct chunk *ch = p->cur;
		buf_reserve(&ch->text, CHUNK_READ);
		ssize_t n = source_read(p->src, ch->text.data + ch->text.len, CHUNK_READ, &p->err);
		long long used = -1;
		if (n >= 0) {
			buf_setlen(&ch->text, ch->text.len + (size_t)n);
			used = parse_lines(
			        r, ch->text.data + parsed, ch->text.len - parsed, n == 0);
		}
		if (used < 0 || n == 0) {
			ch->last = true;
			ch->failed = used < 0 || !finish(r);
			hand_over(p, true);
			return NULL;
		}
		parsed += (size_t)used;
		if (parsed == 0) {
			continue; /* a line longer than a read: more of it first */
		}
		if (!wait_free(p, i + 1)) {
			return NULL;
		}
		struct chunk *next = &p->ring[++i % RING];
		chunk_reset(next);
		buf_add(&next->text, ch->text.data + parsed, ch->text.len - parsed);
		p->hash_chunk = hand_over(p, false) >= HASH_BACKLOG;
		p->cur = next;
		p->prev_n = 0;
		parsed = 0;
	}
}

/*
 * How many lines ahead the tree's thread starts the lookups of a line's
 * frames, one stage a line (tree_hashed_ahead): the loads of a stage have
 * a line's work to arrive before the next stage needs them.
 */
#define AHEAD 3

/* The tree's thread: the lines of one chunk into the tree. */
static bool
add_chunk(
        struct pipe *p, struct tree *t, const struct chunk *ch, const char *name, struct diag *err)
{
	if (ch->frame_count > p->hint_cap) {
		p->hint = xgrow(p->hint, &p->hint_cap, ch->frame_count, sizeof(uint32_t));
	}
	size_t count = ch->line_count;
	for (size_t j = 0; j < count + AHEAD; j++) {
		for (size_t d = 0; d < AHEAD; d++) {
			/* Line j - d is at stage d: the last stage comes last. */
			size_t a = j - d;
			if (a < count && ch->lines[a].frames != WHOLE) {
				const struct line *l = &ch->lines[a];
				tree_hashed_ahead(t, ch->frames + l->first, l->frames,
				        p->hint + l->first, (int)d);
			}
		}
		if (j < AHEAD) {
			continue;
		}
		const struct line *l = &ch->lines[j - AHEAD];
		const char *s = ch->text.data + l->at, *reason;
		bool ok = l->frames == WHOLE ? tree_add_stack(t, l->side, s, l->len, l->c, &reason)
		                             : tree_add_hashed(t, l->side, s, l->c, l->shared,
		                                       ch->frames + l->first, p->hint + l->first,
		                                       l->frames, &reason);
		if (!ok) {
			diag_set(err, name, l->line_no, reason);
			return false;
		}
	}
	return true;
}

/* The tree's thread: every chunk in order, until the last or a failure. */
static bool
add_chunks(struct pipe *p, struct tree *t, const char *name, struct diag *err)
{
	for (size_t i = 0;; i++) {
		pthread_mutex_lock(&p->lock);
		if (p->filled <= i) {
			/* The last chunk wakes it too, however few come before. */
			p->want_filled = i + RING_WAKE;
			while (p->filled <= i || (p->filled < p->want_filled &&
			                                 !p->ring[(p->filled - 1) % RING].last)) {
				pthread_cond_wait(&p->filled_cond, &p->lock);
			}
			p->want_filled = 0;
		}
		pthread_mutex_unlock(&p->lock);
		const struct chunk *ch = &p->ring[i % RING];
		if (!add_chunk(p, t, ch, name, err)) {
			return false;
		}
		if (ch->last) {
			if (ch->failed) {
				*err = p->err;
			}
			return !ch->failed;
		}
		pthread_mutex_lock(&p->lock);
		p->done = i + 1;
		if (p->want_done && p->done >= p->want_done) {
			pthread_cond_signal(&p->done_cond);
		}
		pthread_mutex_unlock(&p->lock);
	}
}

bool
folded_read_source_threaded(struct tree *t, struct source *src, const char *head, size_t head_len,
        enum folded_mode mode, bool strict, struct folded_stats *st, struct diag *err)
{
	struct pipe *p = xcalloc(1, sizeof(*p));
	for (size_t i = 0; i < RING; i++) {
		buf_init(&p->ring[i].text);
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->filled_cond, NULL);
	pthread_cond_init(&p->done_cond, NULL);
	reader_init(&p->r, t, source_name(src), mode, strict, st, &p->err);
	p->r.pipe = p;
	p->src = src;
	p->head = head;
	p->head_len = head_len;
	p->hashed = tree_takes_hashed(t);
	p->root_path = tree_cursor_root().path;
	pthread_t thread;
	bool ok;
	if (pthread_create(&thread, NULL, pipe_read, p) != 0) {
		ok = folded_read_source(t, src, head, head_len, mode, strict, st, err);
	} else {
		ok = add_chunks(p, t, source_name(src), err);
		pthread_mutex_lock(&p->lock);
		p->stop = true;
		pthread_cond_signal(&p->done_cond);
		pthread_mutex_unlock(&p->lock);
		pthread_join(thread, NULL);
	}
	pthread_cond_destroy(&p->filled_cond);
	pthread_cond_destroy(&p->done_cond);
	pthread_mutex_destroy(&p->lock);
	for (size_t i = 0; i < RING; i++) {
		buf_finish(&p->ring[i].text);
		free(p->ring[i].lines);
		free(p->ring[i].frames);
	}
	free(p->hint);
	free(p);
	return ok;
}
