#include "perf.h"
#include "perf_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "buf.h"
#include "count.h"
#include "escape.h"
#include "startup.h"
#include "tree_build.h"
#include "xalloc.h"

#define NOT_A_SAMPLE                                                                               \
	"not a perf script sample (`COMM [PID/]TID [CPU] TIME: [PERIOD] EVENT:`, any of the "      \
	"fields left out)"
#define MAX_EVENTS 32
#define EVENT_SIZE 64
/* x86-64 and arm64 map the kernel in the upper half of the address space. */
#define KERNEL_ADDRESS 0xffff800000000000ull

struct frame {
	struct span sym, dso;
	bool kernel;
};

struct perf {
	struct tree *t;
	enum side side;
	const char *name;
	const struct perf_options *opt;
	struct diag *err;
	uint64_t line_no;
	bool in_sample; /* a header was read, its frames may follow */
	bool blank; /* the last line was blank and ended no sample: an empty header */
	bool bare_command; /* the sample's header is its command alone */
	bool aside; /* the last line was one perf prints under a frame (+srcline, +insn) */
	bool take; /* the sample is of the event read */
	uint64_t sample_line;
	struct count weight;
	struct buf comm;
	struct buf names; /* the sample's frame names, leaf first */
	size_t *starts; /* where each name starts in names */
	size_t frames, cap;
	struct buf path;
	char events[MAX_EVENTS][EVENT_SIZE]; /* distinct events seen, in order */
	size_t event_count;
	bool more_events; /* more than MAX_EVENTS */
	int chosen; /* index in events of the event read, -1: none yet */
	bool mixed; /* several events and none named: refused at the end */
	uint64_t samples;
	bool java; /* the sample's command is java: `Lpkg/Class;` names */
};

/* Where the `(dso)` that ends a frame line opens, or NULL. */
static const char *
dso_open(const char *s, const char *end)
{
	if (end == s || end[-1] != ')') {
		return NULL;
	}
	/* Most often the first " (" opens a group with no other parenthesis. */
	const char *last = end - 1;
	for (const char *q = memchr(s, '(', (size_t)(last - s)); q;
	        q = memchr(q + 1, '(', (size_t)(last - q - 1))) {
		if (q > s && is_space(q[-1])) {
			size_t n = (size_t)(last - q - 1);
			if (!memchr(q + 1, '(', n) && !memchr(q + 1, ')', n)) {
				return q;
			}
			break;
		}
	}
	int depth = 0;
	for (const char *q = end - 1; q >= s; q--) {
		depth += *q == ')' ? 1 : *q == '(' ? -1 : 0;
		if (depth == 0) {
			return q > s && is_space(q[-1]) ? q : NULL;
		}
	}
	return NULL;
}

static bool
span_is(struct span s, const char *lit)
{
	return s.len == strlen(lit) && memcmp(s.p, lit, s.len) == 0;
}

static bool
ends_with(struct span s, const char *lit)
{
	size_t n = strlen(lit);
	return s.len >= n && memcmp(s.p + s.len - n, lit, n) == 0;
}

/* `ADDRESS SYMBOL[+0xOFFSET] (DSO)`, or `(inlined)` for an inlined frame. */
static bool
parse_frame(const char *s, size_t len, struct frame *f)
{
	const char *end = s + len, *p = s;
	struct span addr;
	if (!perf_next_token(&p, end, &addr) || addr.len > 16) {
		return false;
	}
	unsigned long long a = 0;
	for (size_t i = 0; i < addr.len; i++) {
		int v = hex_value(addr.p[i]);
		if (v < 0) {
			return false;
		}
		a = a << 4 | (unsigned)v;
	}
	while (p < end && is_space(*p)) {
		p++;
	}
	const char *open = dso_open(p, end);
	struct span dso = {NULL, 0};
	const char *sym_end = end;
	if (open) {
		dso = (struct span){open + 1, (size_t)(end - open - 2)};
		sym_end = open;
		while (sym_end > p && is_space(sym_end[-1])) {
			sym_end--;
		}
	}
	f->sym = (struct span){p, (size_t)(sym_end - p)};
	/* perf prints symbols with their offset since Linux 4.8. */
	const char *plus = f->sym.len ? memchr(f->sym.p, '+', f->sym.len) : NULL;
	for (; plus; plus = memchr(plus + 1, '+', (size_t)(sym_end - plus - 1))) {
		const char *q = plus + 1;
		if (sym_end - q > 2 && q[0] == '0' && q[1] == 'x') {
			q += 2;
			while (q < sym_end && hex_value(*q) >= 0) {
				q++;
			}
			if (q == sym_end && q > plus + 3) {
				f->sym.len = (size_t)(plus - p);
				break;
			}
		}
	}
	f->dso = dso;
	f->kernel = a >= KERNEL_ADDRESS || span_is(dso, "[kernel.kallsyms]") ||
	            ends_with(dso, "vmlinux");
	return true;
}

/* A frame name: ';' separates frames in the tree, so it becomes ':'. Inline:
 * it runs for every frame of every sample. */
static inline void
add_name(struct buf *b, struct span s, bool spaces)
{
	size_t at = b->len;
	buf_add(b, s.p, s.len);
	if (!spaces && !memchr(s.p, ';', s.len)) {
		return;
	}
	for (size_t i = at; i < b->len; i++) {
		if (b->data[i] == ';') {
			b->data[i] = ':';
		} else if (spaces && b->data[i] == ' ') {
			b->data[i] = '_';
		}
	}
}

static bool
fail(struct perf *pf, uint64_t line, const char *reason)
{
	diag_set(pf->err, pf->name, line, reason);
	return false;
}

/* Where the argument list of a C++ or Java name starts, as stackcollapse-perf.pl
 * cuts it: at the first '(' that does not open "(anonymous namespace)";
 * none in a Go method name (`net/http.(*Client).Do`). */
static size_t
arguments_at(struct span s)
{
	static const char anon[] = "(anonymous namespace)";
	const char *end = s.p + s.len;
	const char *go = s.len > 1 ? memmem(s.p, s.len, ".(", 2) : NULL;
	if (go && memmem(go + 2, (size_t)(end - go - 2), ").", 2)) {
		return s.len; /* `.(...).`: a Go method */
	}
	const char *open = memchr(s.p, '(', s.len);
	for (; open; open = memchr(open + 1, '(', (size_t)(end - open - 1))) {
		if ((size_t)(end - open) < sizeof anon - 1 ||
		        memcmp(open, anon, sizeof anon - 1) != 0) {
			return (size_t)(open - s.p);
		}
	}
	return s.len;
}

/*
 * One name of a frame line: `[unknown]`, or after its dso under
 * --perf-names stackcollapse; Java's `Lpkg/Class;` loses its `L` (under a
 * java command, as the folders do); a name inlined into the one before it
 * in a perf-map-agent chain (`a->b->c`) is marked `_[i]`.
 */
static void
push_name(struct perf *pf, const struct frame *f, struct span s, bool inlined)
{
	bool sc = pf->opt->stackcollapse;
	pf->starts = xgrow(pf->starts, &pf->cap, pf->frames + 1, sizeof(*pf->starts));
	size_t at = pf->starts[pf->frames++] = pf->names.len;
	if (s.len == 0 || span_is(s, "[unknown]")) {
		if (sc && f->dso.len && !span_is(f->dso, "[unknown]")) {
			const char *slash = f->dso.p + f->dso.len;
			while (slash > f->dso.p && slash[-1] != '/') {
				slash--;
			}
			buf_addc(&pf->names, '[');
			add_name(&pf->names,
			        (struct span){slash, (size_t)(f->dso.p + f->dso.len - slash)},
			        false);
			buf_addc(&pf->names, ']');
		} else {
			buf_adds(&pf->names, "[unknown]");
		}
	} else {
		if (pf->java && s.p[0] == 'L' && memchr(s.p, '/', s.len)) {
			s.p++;
			s.len--;
		}
		if (sc) {
			s.len = arguments_at(s);
		}
		add_name(&pf->names, s, false);
		if (sc) {
			/* stackcollapse-perf.pl deletes quotes (JIT names hold them). */
			size_t w = at;
			for (size_t r = at; r < pf->names.len; r++) {
				char c = pf->names.data[r];
				pf->names.data[w] = c;
				w += c != '"' && c != '\'';
			}
			buf_setlen(&pf->names, w);
		}
	}
	if (inlined) {
		if (!memmem(pf->names.data + at, pf->names.len - at, "_[i]", 4)) {
			buf_adds(&pf->names, "_[i]");
		}
	} else if (f->kernel && !sc) {
		buf_adds(&pf->names, "_[k]");
	}
}

/*
 * A frame line's names, leaf first: a perf-map-agent chain `a->b->c` is a
 * caller and the functions inlined into it, so c, b, a.
 */
static void
push_frame(struct perf *pf, const struct frame *f)
{
	/* The common case first: a resolved name kept as it is, no chain
	 * ('>' is rare in a name, so memchr finds none fast). */
	if (!pf->opt->stackcollapse && !pf->java && f->sym.len && f->sym.p[0] != '[' &&
	        !memchr(f->sym.p, '>', f->sym.len)) {
		pf->starts = xgrow(pf->starts, &pf->cap, pf->frames + 1, sizeof(*pf->starts));
		pf->starts[pf->frames++] = pf->names.len;
		add_name(&pf->names, f->sym, false);
		if (f->kernel) {
			buf_adds(&pf->names, "_[k]");
		}
		return;
	}
	if (pf->opt->stackcollapse && f->sym.len && f->sym.p[0] == '(') {
		return; /* stackcollapse-perf.pl skips these process names */
	}
	const char *end = f->sym.p + f->sym.len;
	/* '>' is rare in a name: looked for first, then the '-' before it. */
	const char *arrow = NULL;
	for (const char *q = f->sym.p; q < end && (q = memchr(q, '>', (size_t)(end - q))); q++) {
		if (q > f->sym.p && q[-1] == '-') {
			arrow = q - 1;
			break;
		}
	}
	if (!arrow) {
		push_name(pf, f, f->sym, false);
		return;
	}
	/* From the last piece back to the first: the first is not inlined. */
	const char *piece_end = end;
	for (;;) {
		const char *q = piece_end;
		while (q > f->sym.p && !(q - f->sym.p >= 2 && q[-2] == '-' && q[-1] == '>')) {
			q--;
		}
		push_name(pf, f, (struct span){q, (size_t)(piece_end - q)}, q > f->sym.p);
		if (q == f->sym.p) {
			break;
		}
		piece_end = q - 2;
	}
}

/* The command, then the frames from the outermost caller to the leaf. */
static bool
end_sample(struct perf *pf)
{
	/* A command alone is a header only above frames: else any short
	 * line would be a sample. */
	if (pf->in_sample && pf->bare_command && pf->frames == 0) {
		return fail(pf, pf->sample_line, NOT_A_SAMPLE);
	}
	bool take = pf->in_sample && pf->take && !pf->mixed;
	pf->in_sample = false;
	if (!take) {
		return true;
	}
	buf_reset(&pf->path);
	buf_add(&pf->path, pf->comm.data, pf->comm.len);
	for (size_t i = pf->frames; i-- > 0;) {
		size_t from = pf->starts[i];
		size_t to = i + 1 < pf->frames ? pf->starts[i + 1] : pf->names.len;
		/* Without the command (-F without comm) the outermost frame is the root. */
		if (pf->path.len) {
			buf_addc(&pf->path, ';');
		}
		buf_add(&pf->path, pf->names.data + from, to - from);
	}
	/* stackcollapse-perf.pl keeps them: its folds merge with ours. */
	if (!pf->opt->below_main && !pf->opt->stackcollapse && pf->frames) {
		startup_collapse(&pf->path, pf->comm.len ? pf->comm.len + 1 : 0);
	}
	if (pf->path.len == 0) {
		buf_adds(&pf->path, "[unknown]"); /* neither a command nor a frame */
	}
	const char *reason;
	if (!tree_add_stack(pf->t, pf->side, pf->path.data, pf->path.len, pf->weight, &reason)) {
		return fail(pf, pf->sample_line, reason);
	}
	pf->samples++;
	return true;
}

/*
 * Whether perf's event (`cycles:u`) is the one named: `cycles:u`, or
 * `cycles` with any modifiers; `cycles:` is `cycles` without modifiers
 * (when both were recorded, since samples go to the tree as they come).
 */
static bool
event_named(struct span ev, const char *name)
{
	size_t n = strlen(name);
	if (n > 1 && name[n - 1] == ':') {
		return ev.len == n - 1 && memcmp(ev.p, name, n - 1) == 0;
	}
	if (ev.len < n || memcmp(ev.p, name, n) != 0) {
		return false;
	}
	if (ev.len == n) {
		return true;
	}
	if (ev.p[n] != ':' || strchr(name, ':')) {
		return false;
	}
	/* Only modifiers may follow: a tracepoint (`sched:sched_switch`) is no match. */
	for (size_t i = n + 1; i < ev.len; i++) {
		if (!strchr("ukhHGpPSDIWe", ev.p[i])) {
			return false;
		}
	}
	return true;
}

/* The index of the event among those seen, added if new; -1 past the cap. */
static int
event_index(struct perf *pf, struct span ev)
{
	size_t len = ev.len < EVENT_SIZE - 1 ? ev.len : EVENT_SIZE - 1;
	for (size_t i = 0; i < pf->event_count; i++) {
		if (strlen(pf->events[i]) == len && memcmp(pf->events[i], ev.p, len) == 0) {
			return (int)i;
		}
	}
	if (pf->event_count == MAX_EVENTS) {
		pf->more_events = true;
		return -1;
	}
	memcpy(pf->events[pf->event_count], ev.p, len);
	pf->events[pf->event_count][len] = '\0';
	return (int)pf->event_count++;
}

/* Whether a sample of this event is read; false with err set on a conflict. */
static bool
choose_event(struct perf *pf, struct span ev, bool *take)
{
	int i = event_index(pf, ev);
	*take = false;
	if (pf->opt->event && !event_named(ev, pf->opt->event)) {
		return true;
	}
	if (pf->chosen < 0) {
		pf->chosen = i;
	} else if (i != pf->chosen) {
		if (!pf->opt->event) {
			pf->mixed = true; /* refused at the end, with every event listed */
			return true;
		}
		return fail(pf, pf->line_no,
		        "--event matches several events; name one with its "
		        "modifiers as perf script prints it (cycles:u), or with a "
		        "trailing ':' for the one without (cycles:)");
	}
	*take = i >= 0;
	return true;
}

static bool
start_sample(struct perf *pf, const struct header *h)
{
	if (!end_sample(pf)) {
		return false;
	}
	if (!choose_event(pf, h->event, &pf->take)) {
		return false;
	}
	if (pf->take && pf->opt->weight == PERF_WEIGHT_PERIOD && !h->has_period) {
		return fail(pf, pf->line_no,
		        "--weight period: this sample has no period (perf "
		        "script -F +period prints it)");
	}
	pf->weight = pf->opt->weight == PERF_WEIGHT_PERIOD ? h->period : (struct count){1, 0};
	pf->in_sample = true;
	pf->bare_command = false;
	pf->sample_line = pf->line_no;
	pf->frames = 0;
	buf_reset(&pf->names);
	buf_reset(&pf->comm);
	add_name(&pf->comm, h->comm, true);
	pf->java = h->comm.len >= 4 && memcmp(h->comm.p, "java", 4) == 0;
	/* Without a call chain the header line ends with the sample's one frame. */
	struct frame f;
	if (h->rest.len && parse_frame(h->rest.p, h->rest.len, &f) && f.sym.len) {
		push_frame(pf, &f);
		return end_sample(pf);
	}
	return true;
}

/*
 * A command alone: at most the 15 bytes the kernel keeps of a task's name
 * (TASK_COMM_LEN), which perf prints.
 */
static bool
command_only(const char *s, size_t len)
{
	if (len > 15) {
		return false;
	}
	for (size_t i = 0; i < len; i++) {
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
			return false; /* a task's name, never control bytes */
		}
	}
	return true;
}

/* One line without its newline. */
static bool
parse_line(struct perf *pf, const char *s, size_t len)
{
	pf->line_no++;
	if (pf->line_no == 1 && len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
		s += 3;
		len -= 3;
	}
	while (len > 0 && (s[len - 1] == '\r' || is_space(s[len - 1]))) {
		len--;
	}
	/* A blank line ends a sample; one more is the empty header of the
	 * next (-F ip,sym). */
	bool after_blank = pf->blank, after_aside = pf->aside;
	/* (+insn prints none after its line, whose blank line is the next header.) */
	pf->blank = len == 0 && (!pf->in_sample || after_aside);
	pf->aside = false;
	if (len == 0) {
		return end_sample(pf);
	}
	/* perf's comments (a folded line starting with '#' would be one too),
	 * and the source code it prints after a sample (+srccode). */
	if (perf_aside(s, len)) {
		pf->aside = is_space(s[0]); /* +insnlen's ` ilen:`: a blank line may follow */
		return true;
	}
	struct header h;
	/* perf right-aligns the command when it prints no call chains: an
	 * indented line right after a header may be one, if it has the ':' of
	 * a time or an event (the first frame mostly has none). */
	bool header =
	        (!pf->in_sample || !is_space(s[0]) || (pf->frames == 0 && memchr(s, ':', len))) &&
	        perf_parse_header(s, len, &h);
	if (header) {
		return start_sample(pf, &h);
	}
	struct frame f;
	bool frame = parse_frame(s, len, &f);
	/* A line flush left that is no frame (old perf versions print frames
	 * so) where a header must be: the command alone (-F comm,ip,sym). */
	if (!is_space(s[0]) && (!pf->in_sample || !frame || !f.sym.len) && command_only(s, len)) {
		h = (struct header){.comm = {s, len}, .event = {"", 0}, .rest = {s + len, 0}};
		bool ok = start_sample(pf, &h);
		pf->bare_command = true;
		return ok;
	}
	/* Frames with no header line (-F ip,sym prints it empty). */
	if (!pf->in_sample && frame && s[0] == '\t' && (after_blank || pf->line_no == 1)) {
		h = (struct header){.comm = {s, 0}, .event = {"", 0}, .rest = {s, 0}};
		if (!start_sample(pf, &h)) {
			return false;
		}
	}
	if (!pf->in_sample) {
		return fail(pf, pf->line_no, NOT_A_SAMPLE);
	}
	if (!frame) {
		/* What perf prints under a frame line, indented by spaces: its
		 * source line (-F +srcline), instruction bytes (+insn, +insnlen). */
		if (s[0] == ' ' && pf->frames) {
			pf->aside = true;
			return true;
		}
		return fail(pf, pf->line_no, "not a stack frame (`ADDRESS SYMBOL (DSO)`)");
	}
	/* Names and the ';' between them: the folded line the sample makes. */
	if (pf->names.len + pf->frames > BOUND_STACK) {
		return fail(pf, pf->sample_line, "the sample's stack is longer than 16 MiB");
	}
	push_frame(pf, &f);
	return true;
}

static long long
parse_lines(struct perf *pf, const char *data, size_t len, bool at_eof)
{
	size_t pos = 0;
	for (;;) {
		const char *nl = memchr(data + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - data) : len;
		if (end - pos > BOUND_LINE) {
			fail(pf, pf->line_no + 1, "line is longer than 16 MiB");
			return -1;
		}
		if (!nl && !(at_eof && pos < len)) {
			return (long long)pos;
		}
		if (!parse_line(pf, data + pos, end - pos)) {
			return -1;
		}
		pos = nl ? end + 1 : len;
	}
}

static void
list_events(const struct perf *pf, struct buf *b)
{
	for (size_t i = 0; i < pf->event_count; i++) {
		buf_adds(b, i ? ", " : "");
		/* The file's bytes: escaped like every name a message quotes. */
		escape_diag(b, pf->events[i], strlen(pf->events[i]));
	}
	if (pf->more_events) {
		buf_adds(b, ", ...");
	}
}

static bool
finish(struct perf *pf, struct perf_info *info)
{
	if (!end_sample(pf)) {
		return false;
	}
	struct buf why;
	buf_init(&why);
	if (pf->mixed) {
		buf_adds(&why, "several events were recorded (");
		list_events(pf, &why);
		buf_adds(&why, "); choose one with --event NAME");
	} else if (pf->samples == 0 && pf->opt->event && pf->event_count) {
		buf_adds(&why, "no sample of event ");
		escape_diag(&why, pf->opt->event, strlen(pf->opt->event));
		buf_adds(&why, " (");
		list_events(pf, &why);
		buf_adds(&why, " were recorded)");
	} else if (pf->samples == 0) {
		buf_adds(&why, "no sample in the input");
	}
	bool ok = why.len == 0;
	if (!ok) {
		diag_set(pf->err, pf->name, 0, why.data);
	} else {
		memcpy(info->event, pf->events[pf->chosen], EVENT_SIZE);
		info->samples = pf->samples;
	}
	buf_finish(&why);
	return ok;
}

static void
perf_init(struct perf *pf, struct tree *t, enum side side, const char *name,
        const struct perf_options *opt, struct diag *err)
{
	memset(pf, 0, sizeof(*pf));
	pf->t = t;
	pf->side = side;
	pf->name = name;
	pf->opt = opt;
	pf->err = err;
	pf->chosen = -1;
	buf_init(&pf->comm);
	buf_init(&pf->names);
	buf_init(&pf->path);
}

static void
perf_finish(struct perf *pf)
{
	buf_finish(&pf->comm);
	buf_finish(&pf->names);
	buf_finish(&pf->path);
	free(pf->starts);
}

static long long
parse_chunk(void *ctx, const char *data, size_t len, bool at_eof)
{
	return parse_lines(ctx, data, len, at_eof);
}

bool
perf_read(struct tree *t, enum folded_mode mode, struct source *src, const char *head,
        size_t head_len, const struct read_options *ro, struct read_result *res, struct diag *err)
{
	struct perf_options opt = {ro->event,
	        ro->weight_period ? PERF_WEIGHT_PERIOD : PERF_WEIGHT_SAMPLES, ro->stackcollapse,
	        ro->below_main};
	struct perf_info info;
	struct perf pf;
	perf_init(&pf, t, reader_side(mode), source_name(src), &opt, err);
	memset(&info, 0, sizeof(info));
	bool ok = source_parse(src, head, head_len, parse_chunk, &pf, err);
	ok = ok && finish(&pf, &info);
	perf_finish(&pf);
	if (!ok) {
		return false;
	}
	snprintf(res->key, sizeof(res->key), "%s", info.event);
	res->samples = info.samples;
	res->flag = ro->weight_period;
	/* The period of cycles is cycles, of cpu-clock nanoseconds: the
	 * event's name without its modifiers says which. */
	int len = (int)strcspn(info.event, ":");
	if (ro->weight_period) {
		snprintf(res->unit, sizeof(res->unit), "%.*s", len, info.event);
		snprintf(res->measure, sizeof(res->measure), "%.*s", len, info.event);
	} else {
		snprintf(res->measure, sizeof(res->measure), "samples%s%.*s", len ? " of " : "",
		        len, info.event);
	}
	return true;
}

/* "perf script: N base and M head samples of EVENT", or one side's count. */
void
perf_note(const struct read_sum *s, bool single, char *dst, size_t cap)
{
	const char *ev = s->first.key;
	const uint64_t *n = s->samples;
	const char *weighted = s->flag ? ", weighted by period" : "";
	const char *of = ev[0] ? " of " : "";
	if (s->key_mixed) {
		snprintf(dst, cap, "perf script: samples of different events%s", weighted);
	} else if (single || n[SIDE_BASE] == 0 || n[SIDE_HEAD] == 0) {
		/* One profile, or one side only of perf script (the other folded). */
		const char *side = single ? "" : n[SIDE_BASE] ? "base: " : "head: ";
		snprintf(dst, cap, "perf script: %s%llu samples%s%s%s", side,
		        (unsigned long long)n[SIDE_BASE] + (unsigned long long)n[SIDE_HEAD], of, ev,
		        weighted);
	} else {
		snprintf(dst, cap, "perf script: %llu base and %llu head samples%s%s%s",
		        (unsigned long long)n[SIDE_BASE], (unsigned long long)n[SIDE_HEAD], of, ev,
		        weighted);
	}
}
