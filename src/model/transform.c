/*
 * transform: the rewriting steps and their per-name cache (see
 * transform.h for the order and the rules).
 */
#include "transform.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "escape.h"
#include "intern.h"
#include "transform_replace.h"
#include "utf8.h"
#include "xalloc.h"

struct rule {
	enum transform_kind kind;
	pcre2_code *code;
	char *arg; /* the option's argument as given, for the header */
	char *repl; /* TRANSFORM_REPLACE: the replacement in PCRE2's syntax */
	size_t repl_len;
};

struct transform {
	struct rule *rules; /* in the order given */
	size_t count;
	uint32_t ovector_pairs; /* the most any pattern needs */
	uint64_t skip;
	char skip_text[24]; /* for the header */
	bool focus_root, collapse;
	/* Summed from the runs as they end; atomic, as trees may be built on several threads. */
	_Atomic uint64_t frames, lookups, names, regex_calls, dropped;
	_Atomic uint64_t spent; /* match-limit units charged to the budget (limit_retry) */
};

/* What the steps make of one distinct name: the cache entry. */
enum {
	NAME_HIDE = 1,
	NAME_FOCUS = 2,
	NAME_EXCLUDE = 4,
	NAME_CHANGED = 8, /* renamed is the rewritten name's id in run->renamed */
};

struct name_entry {
	uint32_t renamed;
	uint8_t flags;
};

/* A frame of the stack being rewritten: its name as the steps left it. */
struct tframe {
	uint32_t id; /* in run->seen and run->entries */
	uint8_t flags;
};

struct transform_run {
	struct transform *tf; /* only its counters are written, when the run ends */
	struct intern *seen; /* the names met so far; id = index into entries */
	struct name_entry *entries;
	size_t entry_cap;
	struct intern *renamed; /* rewritten names, each once */
	pcre2_general_context *gcx;
	pcre2_match_data *md;
	pcre2_match_context *mcx; /* its match limit: limit_first, limit_retry */
	uint64_t limit; /* the match limit set in mcx */
	char *subject; /* a new name, copied for PCRE2 (see room) */
	size_t subject_cap;
	char *sub[2]; /* --replace's output, and its input after the first */
	size_t sub_cap[2];
	struct tframe *frames; /* the stack's frames, hidden ones left out */
	size_t frame_cap;
	/* Every frame of the previous stack, and where each ends in it. */
	struct tframe *raw;
	size_t *ends;
	size_t raw_n, raw_cap;
	struct buf prev; /* the previous stack */
	struct buf out; /* the rewritten stack */
	uint64_t frames_seen, lookups, regex_calls, dropped;
	char reason[400];
};

struct transform *
transform_create(void)
{
	struct transform *tf = xcalloc(1, sizeof(*tf));
	tf->ovector_pairs = 1;
	return tf;
}

void
transform_destroy(struct transform *tf)
{
	if (!tf) {
		return;
	}
	for (size_t i = 0; i < tf->count; i++) {
		pcre2_code_free(tf->rules[i].code);
		free(tf->rules[i].arg);
		free(tf->rules[i].repl);
	}
	free(tf->rules);
	free(tf);
}

static const char *const option_names[] = {
        [TRANSFORM_REPLACE] = "--replace",
        [TRANSFORM_HIDE] = "--hide",
        [TRANSFORM_FOCUS] = "--focus",
        [TRANSFORM_EXCLUDE] = "--exclude",
};

/* "--replace 'ARG': " with ARG escaped for a terminal, then the reason. */
static bool
refuse(char *err, size_t errlen, const char *option, const char *arg, const char *why)
{
	struct buf b;
	buf_init(&b);
	buf_adds(&b, option);
	buf_adds(&b, " '");
	size_t n = strlen(arg);
	escape_diag(&b, arg, n < 200 ? n : 200); /* a long pattern is cut, not the reason */
	buf_adds(&b, "': ");
	buf_adds(&b, why);
	n = b.len < errlen ? b.len : errlen - 1;
	memcpy(err, b.data, n);
	err[n] = '\0';
	buf_finish(&b);
	return false;
}

static pcre2_code *
compile(const char *arg, size_t len, const char *option, char *err, size_t errlen)
{
	int code;
	PCRE2_SIZE offset;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)arg, len,
	        PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF, &code, &offset, NULL);
	if (!re) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(code, msg, sizeof(msg));
		char why[320];
		snprintf(why, sizeof(why), "invalid regular expression at offset %lu: %s",
		        (unsigned long)offset, (const char *)msg);
		refuse(err, errlen, option, arg, why);
		return NULL;
	}
	/* Without JIT support (some platforms) matching falls back to the
	 * interpreter, with the same results. */
	pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	return re;
}

bool
transform_add(
        struct transform *tf, enum transform_kind kind, const char *arg, char *err, size_t errlen)
{
	const char *option = option_names[kind];
	size_t plen = strlen(arg);
	const char *eq = NULL;
	if (kind == TRANSFORM_REPLACE) {
		eq = transform_split_replace(arg);
		if (!eq) {
			return refuse(err, errlen, option, arg,
			        "expected REGEX=REPLACEMENT (a literal '=' in REGEX is written "
			        "\\=)");
		}
		plen = (size_t)(eq - arg);
	}
	pcre2_code *re = compile(arg, plen, option, err, errlen);
	if (!re) {
		return false;
	}
	struct rule r = {.kind = kind, .code = re, .arg = xstrdup(arg)};
	if (eq) {
		struct buf repl;
		buf_init(&repl);
		char why[200];
		if (!transform_convert_replacement(eq + 1, re, &repl, why, sizeof(why))) {
			refuse(err, errlen, option, arg, why);
			buf_finish(&repl);
			pcre2_code_free(re);
			free(r.arg);
			return false;
		}
		r.repl = buf_detach(&repl, &r.repl_len);
	}
	uint32_t groups = 0;
	pcre2_pattern_info(re, PCRE2_INFO_CAPTURECOUNT, &groups);
	if (groups + 1 > tf->ovector_pairs) {
		tf->ovector_pairs = groups + 1;
	}
	tf->rules = xrealloc(tf->rules, (tf->count + 1) * sizeof(*tf->rules));
	tf->rules[tf->count++] = r;
	return true;
}

void
transform_set_skip(struct transform *tf, uint64_t frames)
{
	tf->skip = frames;
	snprintf(tf->skip_text, sizeof(tf->skip_text), "%llu", (unsigned long long)frames);
}

void
transform_set_focus_root(struct transform *tf, bool on)
{
	tf->focus_root = on;
}

void
transform_set_collapse(struct transform *tf, bool on)
{
	tf->collapse = on;
}

static bool
has_kind(const struct transform *tf, enum transform_kind kind)
{
	for (size_t i = 0; i < tf->count; i++) {
		if (tf->rules[i].kind == kind) {
			return true;
		}
	}
	return false;
}

bool
transform_has_focus(const struct transform *tf)
{
	return tf && has_kind(tf, TRANSFORM_FOCUS);
}

bool
transform_focus_root(const struct transform *tf)
{
	return tf->focus_root;
}

bool
transform_active(const struct transform *tf)
{
	return tf && (tf->count || tf->skip || tf->collapse);
}

void
transform_each(const struct transform *tf,
        void (*add)(void *ctx, const char *option, const char *value), void *ctx)
{
	if (!tf) {
		return;
	}
	static const enum transform_kind order[] = {
	        TRANSFORM_REPLACE, TRANSFORM_HIDE, TRANSFORM_FOCUS, TRANSFORM_EXCLUDE};
	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		for (size_t i = 0; i < tf->count; i++) {
			if (tf->rules[i].kind == order[k]) {
				add(ctx, option_names[order[k]], tf->rules[i].arg);
			}
		}
		if (order[k] == TRANSFORM_FOCUS && tf->focus_root) {
			add(ctx, "--focus-root", NULL);
		}
	}
	if (tf->skip) {
		add(ctx, "--skip-frames", tf->skip_text);
	}
	if (tf->collapse) {
		add(ctx, "--collapse-recursion", NULL);
	}
}

struct describe {
	struct buf *b;
	size_t start; /* where the description begins in b */
};

static void
describe_one(void *ctx, const char *option, const char *value)
{
	struct describe *d = ctx;
	struct buf *b = d->b;
	if (b->len > d->start) {
		buf_addc(b, ' ');
	}
	buf_adds(b, option);
	if (value && strcmp(option, "--skip-frames") == 0) {
		buf_printf(b, " %s", value); /* a number needs no quotes */
	} else if (value) {
		buf_printf(b, " '%s'", value);
	}
}

void
transform_describe(const struct transform *tf, struct buf *out)
{
	struct describe d = {out, out->len};
	transform_each(tf, describe_one, &d);
}

void
transform_stats(const struct transform *tf, struct transform_stats *st)
{
	st->frames = atomic_load(&tf->frames);
	st->lookups = atomic_load(&tf->lookups);
	st->names = atomic_load(&tf->names);
	st->regex_calls = atomic_load(&tf->regex_calls);
	st->dropped = atomic_load(&tf->dropped);
}

/* PCRE2's allocations through xalloc: out of memory is fatal, as elsewhere. */
static void *
pcre_alloc(size_t size, void *data)
{
	(void)data;
	return xmalloc(size ? size : 1);
}

static void
pcre_free(void *p, void *data)
{
	(void)data;
	free(p);
}

struct transform_run *
transform_run_create(const struct transform *tf)
{
	struct transform_run *run = xcalloc(1, sizeof(*run));
	/* The counters are the one part a run writes; the rules stay as built. */
	run->tf = (struct transform *)tf;
	run->seen = intern_create();
	run->gcx = pcre2_general_context_create(pcre_alloc, pcre_free, NULL);
	if (!run->gcx) {
		run->gcx = xmalloc(SIZE_MAX); /* out of memory: xmalloc's message */
	}
	run->md = pcre2_match_data_create(tf->ovector_pairs, run->gcx);
	run->mcx = pcre2_match_context_create(run->gcx);
	if (!run->md || !run->mcx) {
		xmalloc(SIZE_MAX); /* out of memory: xmalloc's message */
	}
	run->renamed = intern_create();
	buf_init(&run->out);
	buf_init(&run->prev);
	return run;
}

void
transform_run_destroy(struct transform_run *run)
{
	if (!run) {
		return;
	}
	struct transform *tf = run->tf;
	atomic_fetch_add(&tf->frames, run->frames_seen);
	atomic_fetch_add(&tf->lookups, run->lookups);
	atomic_fetch_add(&tf->names, intern_count(run->seen));
	atomic_fetch_add(&tf->regex_calls, run->regex_calls);
	atomic_fetch_add(&tf->dropped, run->dropped);
	intern_destroy(run->seen);
	free(run->entries);
	intern_destroy(run->renamed);
	buf_finish(&run->out);
	pcre2_match_data_free(run->md);
	pcre2_match_context_free(run->mcx);
	pcre2_general_context_free(run->gcx);
	free(run->subject);
	free(run->sub[0]);
	free(run->sub[1]);
	free(run->frames);
	free(run->raw);
	free(run->ends);
	buf_finish(&run->prev);
	free(run);
}

static void
pcre_failure(struct transform_run *run, const struct rule *r, int rc)
{
	PCRE2_UCHAR msg[200];
	pcre2_get_error_message(rc, msg, sizeof(msg));
	refuse(run->reason, sizeof(run->reason), option_names[r->kind], r->arg, (const char *)msg);
}

/*
 * The patterns' work, bounded over the whole run. PCRE2's match limit stops
 * one name (10,000,000 units, its default), but a profile may hold any
 * number of names just below it: 2,000 names against --hide '^(a+)+$' took
 * minutes. PCRE2 does not say what a match used, so each call first runs
 * with a limit of MATCH_FREE units, free: a usual name needs far fewer.
 * A name that needs more is run again with twice the limit, up to
 * MATCH_NAME_LIMIT, each retry's limit charged to the run's budget,
 * MATCH_BUDGET units over every name of both sides: so the charge is at
 * most about twice the work, and the work past the free tries is bounded.
 */
#define MATCH_FREE 10000u
#define MATCH_NAME_LIMIT 10000000u
#define MATCH_BUDGET 100000000u

static void
limit_first(struct transform_run *run)
{
	if (run->limit != MATCH_FREE) {
		run->limit = MATCH_FREE;
		pcre2_set_match_limit(run->mcx, MATCH_FREE);
	}
}

/*
 * After PCRE2_ERROR_MATCHLIMIT from a call of r: true when it may run again
 * with a higher limit (charged), false with run->reason set when the name's
 * limit or the run's budget is spent.
 */
static bool
limit_retry(struct transform_run *run, const struct rule *r)
{
	if (run->limit >= MATCH_NAME_LIMIT) {
		pcre_failure(run, r, PCRE2_ERROR_MATCHLIMIT);
		return false;
	}
	uint64_t next = run->limit * 2 < MATCH_NAME_LIMIT ? run->limit * 2 : MATCH_NAME_LIMIT;
	if (atomic_fetch_add(&run->tf->spent, next) + next > MATCH_BUDGET) {
		char why[200];
		snprintf(why, sizeof(why),
		        "the patterns' backtracking passed its budget of %u million steps over "
		        "all names: the pattern backtracks too much on these names (a nested "
		        "quantifier such as (a+)+ is exponential); simplify it",
		        MATCH_BUDGET / 1000000u);
		refuse(run->reason, sizeof(run->reason), option_names[r->kind], r->arg, why);
		return false;
	}
	run->limit = next;
	pcre2_set_match_limit(run->mcx, (uint32_t)next);
	return true;
}

/*
 * A buffer a subject of PCRE2 may be in, of at least need bytes, zeroed:
 * the JIT's vector loads read a little past a subject's end, harmlessly,
 * but memcheck flags bytes there that were never written.
 */
#define SUBJECT_PAD 64

static void
room(char **p, size_t *cap, size_t need)
{
	free(*p);
	*cap = need;
	*p = xcalloc(need + SUBJECT_PAD, 1);
}

/*
 * One --replace on the name s: into run->sub[slot], *out and *out_len set
 * (to s itself when nothing matched). False with run->reason on failure.
 */
static bool
substitute(struct transform_run *run, const struct rule *r, int slot, const char *s, size_t len,
        const char **out, size_t *out_len)
{
	/* pcre2_substitute copies an unmatched name too: room for it at least. */
	if (run->sub_cap[slot] <= len) {
		room(&run->sub[slot], &run->sub_cap[slot], len < 128 ? 256 : 2 * len);
	}
	run->regex_calls++;
	limit_first(run);
	for (;;) {
		PCRE2_SIZE n = run->sub_cap[slot];
		/* s is never run->sub[slot] (see rewrite), which room just replaced.
		 * NOLINTNEXTLINE(clang-analyzer-unix.Malloc) */
		int rc = pcre2_substitute(r->code, (PCRE2_SPTR)s, len, 0,
		        PCRE2_SUBSTITUTE_GLOBAL | PCRE2_SUBSTITUTE_OVERFLOW_LENGTH |
		                PCRE2_SUBSTITUTE_UNSET_EMPTY,
		        run->md, run->mcx, (PCRE2_SPTR)r->repl, r->repl_len,
		        (PCRE2_UCHAR *)run->sub[slot], &n);
		if (rc == PCRE2_ERROR_MATCHLIMIT) {
			if (!limit_retry(run, r)) {
				return false;
			}
			continue;
		}
		if (rc == PCRE2_ERROR_NOMEMORY && n <= BOUND_NAME) {
			room(&run->sub[slot], &run->sub_cap[slot], n + 1);
			continue;
		}
		if (rc == PCRE2_ERROR_NOMEMORY || (rc > 0 && n > BOUND_NAME)) {
			char why[80];
			snprintf(why, sizeof(why), "a rewritten name would be longer than %lu MiB",
			        (unsigned long)(BOUND_NAME >> 20));
			return refuse(run->reason, sizeof(run->reason), "--replace", r->arg, why);
		}
		if (rc < 0) {
			pcre_failure(run, r, rc);
			return false;
		}
		if (rc == 0) {
			*out = s;
			*out_len = len;
		} else {
			*out = run->sub[slot];
			*out_len = n;
		}
		return true;
	}
}

/* Whether r's pattern matches the name; -1 (run->reason set) on failure. */
static int
matches(struct transform_run *run, const struct rule *r, const char *s, size_t len)
{
	run->regex_calls++;
	limit_first(run);
	int rc;
	while ((rc = pcre2_match(r->code, (PCRE2_SPTR)s, len, 0, 0, run->md, run->mcx)) ==
	        PCRE2_ERROR_MATCHLIMIT) {
		if (!limit_retry(run, r)) {
			return -1;
		}
	}
	if (rc >= 0) {
		return 1;
	}
	if (rc == PCRE2_ERROR_NOMATCH) {
		return 0;
	}
	pcre_failure(run, r, rc);
	return -1;
}

/* Every --replace in turn on a new name: false with run->reason on failure. */
static bool
rewrite(struct transform_run *run, const char *raw, size_t raw_len, const char **s, size_t *len)
{
	const struct transform *tf = run->tf;
	*s = raw;
	*len = raw_len;
	int slot = 0;
	for (size_t i = 0; i < tf->count; i++) {
		if (tf->rules[i].kind != TRANSFORM_REPLACE) {
			continue;
		}
		const char *before = *s;
		if (!substitute(run, &tf->rules[i], slot, before, *len, s, len)) {
			return false;
		}
		slot ^= *s != before; /* the next one reads this output, writes the other */
	}
	return true;
}

/* The flags of the first kind of rule that the name matches, if any. */
static int
match_kind(struct transform_run *run, enum transform_kind kind, const char *s, size_t len)
{
	const struct transform *tf = run->tf;
	for (size_t i = 0; i < tf->count; i++) {
		if (tf->rules[i].kind == kind) {
			int m = matches(run, &tf->rules[i], s, len);
			if (m != 0) {
				return m;
			}
		}
	}
	return 0;
}

/* A name met for the first time: the regex work, once. */
static bool
fill_entry(struct transform_run *run, struct name_entry *e, const char *name, size_t raw_len)
{
	if (run->subject_cap <= raw_len) {
		room(&run->subject, &run->subject_cap, raw_len < 128 ? 256 : 2 * raw_len);
	}
	char *raw = run->subject; /* see room */
	memcpy(raw, name, raw_len);
	const char *s;
	size_t len;
	if (!rewrite(run, raw, raw_len, &s, &len)) {
		return false;
	}
	e->flags = 0;
	if (s != raw) {
		e->flags |= NAME_CHANGED;
		e->renamed = intern_add(run->renamed, s, len);
	}
	static const struct {
		enum transform_kind kind;
		uint8_t flag;
	} tests[] = {
	        {TRANSFORM_HIDE, NAME_HIDE},
	        {TRANSFORM_FOCUS, NAME_FOCUS},
	        {TRANSFORM_EXCLUDE, NAME_EXCLUDE},
	};
	for (size_t t = 0; t < sizeof(tests) / sizeof(tests[0]); t++) {
		int m = match_kind(run, tests[t].kind, s, len);
		if (m < 0) {
			return false;
		}
		if (m) {
			e->flags |= tests[t].flag;
			if (tests[t].flag == NAME_HIDE) {
				break; /* a hidden frame is gone before focus and exclude */
			}
		}
	}
	return true;
}

/* The frame f as the replace and hide steps leave it, from the cache. */
static bool
lookup(struct transform_run *run, const char *f, size_t len, struct tframe *out)
{
	uint32_t before = intern_count(run->seen);
	uint32_t id = intern_add(run->seen, f, len);
	if (id == before) {
		size_t stored;
		const char *raw = intern_name(run->seen, id, &stored);
		run->entries =
		        xgrow(run->entries, &run->entry_cap, (size_t)id + 1, sizeof(*run->entries));
		if (!fill_entry(run, &run->entries[id], raw, stored)) {
			return false;
		}
	}
	out->id = id;
	out->flags = run->entries[id].flags;
	return true;
}

/* The name of a frame after the steps. */
static const char *
frame_name(const struct transform_run *run, const struct tframe *fr, size_t *len)
{
	const struct name_entry *e = &run->entries[fr->id];
	if (e->flags & NAME_CHANGED) {
		return intern_name(run->renamed, e->renamed, len);
	}
	return intern_name(run->seen, fr->id, len);
}

/* How many bytes a and b share from the start, a word at a time. */
static size_t
common_prefix(const char *a, const char *b, size_t n)
{
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t x, y;
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y) {
			break;
		}
	}
	while (i < n && a[i] == b[i]) {
		i++;
	}
	return i;
}

/*
 * Frames of the previous stack that this one starts with: folded profiles
 * are sorted, so most of a line is the line before, whose frames need no
 * lookup again (no hash, no probe: only this comparison of bytes).
 */
static size_t
reused_frames(struct transform_run *run, const char *stack, size_t len)
{
	const struct buf *prev = &run->prev;
	size_t n = len < prev->len ? len : prev->len;
	size_t common = common_prefix(stack, prev->data, n);
	size_t j = 0;
	/*
	 * A frame is shared when the ';' after it is; or when it ends where the
	 * bytes part, if this stack has a ';' or its end there too (the other
	 * one has, since its frame ends there).
	 */
	while (j < run->raw_n && run->ends[j] < common) {
		j++;
	}
	if (j < run->raw_n && run->ends[j] == common && (common == len || stack[common] == ';')) {
		j++;
	}
	return j;
}

/*
 * Every frame of the stack, from the cache, in run->raw (the previous
 * stack's frames reused where they are the same); false with run->reason
 * on failure.
 */
static bool
split_raw(struct transform_run *run, const char *stack, size_t len)
{
	size_t j = reused_frames(run, stack, len);
	size_t start = j ? run->ends[j - 1] + 1 : 0;
	run->raw_n = 0; /* until the stack is whole, in case of failure */
	buf_reset(&run->prev);
	for (; start <= len; j++) {
		const char *semi = memchr(stack + start, ';', len - start);
		size_t flen = semi ? (size_t)(semi - (stack + start)) : len - start;
		if (j >= run->raw_cap) {
			run->raw = xgrow(run->raw, &run->raw_cap, j + 1, sizeof(*run->raw));
			run->ends = xrealloc(run->ends, run->raw_cap * sizeof(*run->ends));
		}
		if (!lookup(run, stack + start, flen, &run->raw[j])) {
			return false;
		}
		run->lookups++;
		run->ends[j] = start + flen;
		start += flen + 1;
	}
	run->raw_n = j;
	run->frames_seen += j;
	buf_add(&run->prev, stack, len);
	return true;
}

/*
 * The frames of the stack in run->frames, hidden ones left out; *changed
 * when any was rewritten or hidden. -1 on failure, else the count.
 */
static long long
split_frames(struct transform_run *run, const char *stack, size_t len, bool *changed)
{
	if (!split_raw(run, stack, len)) {
		return -1;
	}
	run->frames = xgrow(run->frames, &run->frame_cap, run->raw_n, sizeof(*run->frames));
	size_t n = 0;
	for (size_t j = 0; j < run->raw_n; j++) {
		struct tframe fr = run->raw[j];
		*changed |= (fr.flags & (NAME_CHANGED | NAME_HIDE)) != 0;
		if (!(fr.flags & NAME_HIDE)) {
			run->frames[n++] = fr;
		}
	}
	return (long long)n;
}

/* The focus, exclude and skip steps: the first frame kept, or n to drop it all. */
static size_t
first_kept(const struct transform_run *run, size_t n)
{
	const struct transform *tf = run->tf;
	size_t start = 0;
	if (has_kind(tf, TRANSFORM_FOCUS)) {
		while (start < n && !(run->frames[start].flags & NAME_FOCUS)) {
			start++;
		}
		if (start == n) {
			return n;
		}
		if (!tf->focus_root) {
			start = 0;
		}
	}
	for (size_t i = start; i < n; i++) {
		if (run->frames[i].flags & NAME_EXCLUDE) {
			return n;
		}
	}
	return tf->skip >= n - start ? n : start + (size_t)tf->skip;
}

enum transform_result
transform_run_stack(struct transform_run *run, const char *stack, size_t len, const char **out,
        size_t *out_len, const char **reason)
{
	bool changed = false;
	long long got = split_frames(run, stack, len, &changed);
	if (got < 0) {
		*reason = run->reason;
		return TRANSFORM_ERROR;
	}
	size_t n = (size_t)got;
	size_t start = first_kept(run, n);
	if (start >= n) {
		run->dropped++;
		return TRANSFORM_DROP;
	}
	if (!changed && start == 0 && !run->tf->collapse) {
		*out = stack; /* the common case of a stack no step touched */
		*out_len = len;
		return TRANSFORM_KEEP;
	}
	struct buf *b = &run->out;
	buf_reset(b);
	const char *prev = NULL;
	size_t prev_len = 0;
	bool named = false;
	for (size_t i = start; i < n; i++) {
		size_t flen;
		const char *f = frame_name(run, &run->frames[i], &flen);
		named |= flen > 0;
		/* Two names may be rewritten into one: compared by bytes. */
		if (run->tf->collapse && prev && flen == prev_len && memcmp(f, prev, flen) == 0) {
			continue;
		}
		if (prev) {
			buf_addc(b, ';');
		}
		buf_add(b, f, flen);
		prev = f;
		prev_len = flen;
	}
	/*
	 * Only empty names left (`;a` with a hidden, or names replaced by
	 * nothing): no folded line can hold such a stack (the reader calls `;`
	 * an empty stack), so it goes as a stack with every frame hidden does.
	 */
	if (!named) {
		run->dropped++;
		return TRANSFORM_DROP;
	}
	*out = b->data;
	*out_len = b->len;
	return TRANSFORM_KEEP;
}

void
transform_stats_line(const struct transform *tf, struct buf *out)
{
	struct transform_stats st;
	transform_stats(tf, &st);
	buf_printf(out,
	        "difffold: transforms: %llu frames, %llu looked up (the rest shared with the "
	        "stack before), %llu distinct names, %llu regex "
	        "calls, %llu stacks dropped\n",
	        (unsigned long long)st.frames, (unsigned long long)st.lookups,
	        (unsigned long long)st.names, (unsigned long long)st.regex_calls,
	        (unsigned long long)st.dropped);
}
