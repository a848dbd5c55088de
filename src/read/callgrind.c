#include "callgrind_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "escape.h"
#include "callgraph.h"
#include "idmap.h"
#include "intern.h"
#include "source.h"
#include "xalloc.h"

static bool
fail(struct callgrind *cg, struct diag *err, const char *reason)
{
	diag_set(err, cg->name, cg->line_no, reason);
	return false;
}

/* A reader interning into names, its own table or (shared) the tree's. */
static struct callgrind *
create(const char *name, const struct callgrind_options *opt, struct intern *names, bool shared)
{
	struct callgrind *cg = xcalloc(1, sizeof(*cg));
	cg->name = name;
	cg->opt = *opt;
	cg->graph.names = names;
	cg->shared_names = shared;
	cg->positions = 1;
	cg->object = cg->file = cg->cur_file = cg->fn = NONE;
	cg->call_object = cg->call_file = cg->call_fn = NONE;
	cg->hashed_name = NONE;
	return cg;
}

struct callgrind *
callgrind_create(const char *name, const struct callgrind_options *opt)
{
	return create(name, opt, intern_create(), false);
}

void
callgrind_destroy(struct callgrind *cg)
{
	if (!cg) {
		return;
	}
	if (!cg->shared_names) {
		intern_destroy(cg->graph.names);
	}
	for (size_t i = 0; i < 3; i++) {
		idmap_finish(&cg->ids[i]);
	}
	idmap_finish(&cg->function_of);
	idmap_finish(&cg->function_of_id);
	callgraph_finish(&cg->graph);
	free(cg->forms);
	free(cg);
}

/* A decimal number up to 2^64-1; *p advances past it. */
static bool
decimal(const char **p, const char *end, uint64_t *v)
{
	const char *q = *p;
	uint64_t x = 0;
	/* 19 digits cannot overflow; only longer numbers are checked. */
	const char *safe = end - q > 19 ? q + 19 : end;
	while (q < safe && (unsigned)(*q - '0') < 10) {
		x = x * 10 + (unsigned)(*q++ - '0');
	}
	while (q < end && (unsigned)(*q - '0') < 10) {
		if (__builtin_mul_overflow(x, 10, &x) ||
		        __builtin_add_overflow(x, (unsigned)(*q - '0'), &x)) {
			return false;
		}
		q++;
	}
	if (q == *p) {
		return false;
	}
	*p = q;
	*v = x;
	return true;
}

static const char *
skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t')) {
		p++;
	}
	return p;
}

/*
 * A name specification: "(id) name" defines id, "(id)" refers to it, a
 * bare "name" is used as is.
 */
static bool
spec_name(struct callgrind *cg, enum space space, const char *p, const char *end, uint32_t *out,
        uint64_t *compressed, struct diag *err)
{
	p = skip_blanks(p, end);
	*compressed = UINT64_MAX;
	/* "(below main)" uncompressed (--compress-strings=no) is a name: only
	 * "(" and a digit start a compressed id. */
	if (p == end || *p != '(' || p + 1 == end || !is_digit(p[1])) {
		*out = intern_add(cg->graph.names, p, (size_t)(end - p));
		return true;
	}
	uint64_t id;
	p++;
	if (!decimal(&p, end, &id) || p == end || *p != ')' || id >= UINT64_MAX >> 1) {
		return fail(cg, err, "bad name compression: expected (number)");
	}
	*compressed = id;
	p = skip_blanks(p + 1, end);
	if (p < end) {
		*out = define_name(cg, space, id, p, (size_t)(end - p));
		return true;
	}
	if (!idmap_get(&cg->ids[space], id, out)) {
		return fail(cg, err, "name compression id used before it was defined");
	}
	return true;
}

/*
 * valgrind gives each function its own compressed id, so two functions of
 * one name (static ones in two files) have two ids, and a call names its
 * callee by id whatever file it says. Uncompressed names go by file and
 * name.
 */
uint32_t
callgrind_new_function(struct callgrind *cg, struct idmap *m, uint64_t key, uint32_t file,
        uint32_t name, uint32_t object)
{
	uint32_t id = callgraph_function(&cg->graph, file, name, object);
	if (name == cg->hashed_name) {
		cg->graph.fns[id].name_hash = cg->hashed;
	}
	idmap_set(m, key, id);
	return id;
}

static uint64_t
add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* The chosen event's value on a cost line (positions already skipped). */
/* Skips one count (digits), checking it is one; NULL when it is not. */
static const char *
skip_count(const char *p, const char *end)
{
	const char *q = p;
	while (q < end && (unsigned)(*q - '0') < 10) {
		q++;
	}
	return q > p && (q == end || *q == ' ' || *q == '\t') ? q : NULL;
}

/* The usual case, one event read as it is: only its count is converted. */
static bool
single_event_value(const struct callgrind *cg, const char *p, const char *end, uint64_t *out)
{
	*out = 0;
	for (size_t i = 0; i < cg->event_count; i++) {
		p = skip_blanks(p, end);
		if (p == end) {
			return true; /* missing counts are zero */
		}
		if (i == cg->single) {
			if (!decimal(&p, end, out) || (p < end && *p != ' ' && *p != '\t')) {
				return false;
			}
		} else if (!(p = skip_count(p, end))) {
			return false;
		}
	}
	return skip_blanks(p, end) == end;
}

static bool
event_value(struct callgrind *cg, const char *p, const char *end, uint64_t *out)
{
	if (cg->single != SIZE_MAX) {
		return single_event_value(cg, p, end, out);
	}
	unsigned __int128 sum = 0;
	for (size_t i = 0; i < cg->event_count; i++) {
		p = skip_blanks(p, end);
		if (p == end) {
			break; /* missing counts are zero */
		}
		uint64_t v;
		if (!decimal(&p, end, &v) || (p < end && *p != ' ' && *p != '\t')) {
			return false;
		}
		if (cg->coef[i]) {
			sum += (unsigned __int128)v * (uint64_t)cg->coef[i];
		}
	}
	if (skip_blanks(p, end) != end || sum > UINT64_MAX) {
		return false;
	}
	*out = (uint64_t)sum;
	return true;
}

static bool
cost_line(struct callgrind *cg, const char *p, const char *end, struct diag *err)
{
	for (size_t i = 0; i < cg->positions; i++) {
		p = skip_blanks(p, end);
		if (p == end || !is_position_start(*p)) {
			return fail(cg, err, "cost line without its positions");
		}
		while (p < end && *p != ' ' && *p != '\t') {
			p++;
		}
	}
	if (!cg->event_chosen) {
		return fail(cg, err, "cost line before the events: line");
	}
	uint64_t v;
	if (!event_value(cg, p, end, &v)) {
		return fail(cg, err, "bad cost: expected numbers up to 2^64-1");
	}
	if (cg->in_call) {
		cg->in_call = false;
		callgraph_call(&cg->graph, cg->fn, cg->call_target, v);
		cg->call_object = cg->call_file = NONE;
		return true;
	}
	if (cg->fn == NONE) {
		return fail(cg, err, "cost line before any fn= line");
	}
	struct callgraph_function *f = &cg->graph.fns[cg->fn];
	if (f->self > UINT64_MAX - v || cg->self_sum > UINT64_MAX - v) {
		return fail(cg, err, "cost over 2^64-1");
	}
	f->self += v;
	cg->self_sum += v;
	return true;
}

void
callgrind_start_call(struct callgrind *cg)
{
	uint32_t file = cg->call_file != NONE ? cg->call_file : cg->cur_file;
	uint32_t object = cg->call_object != NONE ? cg->call_object : cg->object;
	cg->call_target = function_id(cg, cg->call_fn_id, file, cg->call_fn, object);
	cg->in_call = true;
}

static bool
calls_line(struct callgrind *cg, const char *p, const char *end, struct diag *err)
{
	uint64_t count;
	p = skip_blanks(p, end);
	if (!decimal(&p, end, &count)) {
		return fail(cg, err, "bad calls= line: expected a call count");
	}
	if (cg->call_fn == NONE || cg->fn == NONE) {
		return fail(cg, err, "calls= without a function and a cfn= before it");
	}
	callgrind_start_call(cg);
	return true;
}

/* Inline and byte by byte, so that a literal key is compared without a call. */
static inline bool
key_is(const char *p, const char *eq, const char *key)
{
	size_t n = strlen(key);
	if ((size_t)(eq - p) != n) {
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		if (p[i] != key[i]) {
			return false;
		}
	}
	return true;
}

/* "key=value" position and call lines. */
static bool
spec_line(struct callgrind *cg, const char *p, const char *eq, const char *end, struct diag *err)
{
	const char *v = eq + 1;
	uint32_t id;
	uint64_t compressed;
	enum key key;
	if (name_key(p, eq, &key)) {
		if (!spec_name(cg, key_space(key), v, end, &id, &compressed, err)) {
			return false;
		}
		set_name(cg, key, id, compressed);
		return true;
	}
	if (key_is(p, eq, "calls")) {
		return calls_line(cg, v, end, err);
	}
	if (key_is(p, eq, "jump") || key_is(p, eq, "jcnd")) {
		return true; /* jumps carry no cost of their own */
	}
	/* --collect-jumps=yes: a jump's target file or function. It may define
	 * a compressed id later lines use, but moves no position. */
	if (key_is(p, eq, "jfi") || key_is(p, eq, "jfn")) {
		return spec_name(cg, p[1] == 'f' && p[2] == 'n' ? SPACE_FUNCTION : SPACE_FILE, v,
		        end, &id, &compressed, err);
	}
	return fail(cg, err, "unknown specification line");
}

/* Copies up to 63 bytes of [p, end) as a NUL-terminated word. */
static void
word(char dst[64], const char *p, const char *end)
{
	size_t n = (size_t)(end - p) < 63 ? (size_t)(end - p) : 63;
	memcpy(dst, p, n);
	dst[n] = '\0';
}

static size_t
event_index(const struct callgrind *cg, const char *name)
{
	for (size_t i = 0; i < cg->event_count; i++) {
		if (strcmp(cg->events[i], name) == 0) {
			return i;
		}
	}
	return SIZE_MAX;
}

/*
 * Events made of others: kcachegrind's estimate of cycles from the cache
 * simulation (Ir + 10 Bm + 10 L1m + 20 Ge + 100 L2m + 100 LLm, its
 * GlobalConfig::knownFormula), and the sums of misses per cache level.
 */
static bool
derived_event(struct callgrind *cg, const char *name)
{
	static const struct {
		const char *name, *part;
		int64_t coef;
	} parts[] = {
	        {"CEst", "Ir", 1},
	        {"CEst", "I1mr", 10},
	        {"CEst", "D1mr", 10},
	        {"CEst", "D1mw", 10},
	        {"CEst", "I2mr", 100}, /* valgrind before 3.6 simulated an L2, not an LL */
	        {"CEst", "D2mr", 100},
	        {"CEst", "D2mw", 100},
	        {"CEst", "ILmr", 100},
	        {"CEst", "DLmr", 100},
	        {"CEst", "DLmw", 100},
	        {"CEst", "Bcm", 10},
	        {"CEst", "Bim", 10},
	        {"CEst", "Ge", 20},
	        {"L1m", "I1mr", 1},
	        {"L1m", "D1mr", 1},
	        {"L1m", "D1mw", 1},
	        {"LLm", "ILmr", 1},
	        {"LLm", "DLmr", 1},
	        {"LLm", "DLmw", 1},
	};
	bool any = false;
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		size_t idx = strcmp(parts[i].name, name) == 0 ? event_index(cg, parts[i].part)
		                                              : SIZE_MAX;
		if (idx != SIZE_MAX) {
			cg->coef[idx] += parts[i].coef;
			any = true;
		}
	}
	/* The cycle estimate needs instructions; misses alone are not it. */
	return any && (strcmp(name, "CEst") != 0 || event_index(cg, "Ir") != SIZE_MAX);
}

static bool
choose_event(struct callgrind *cg, struct diag *err)
{
	memset(cg->coef, 0, sizeof(cg->coef));
	const char *want = cg->opt.event ? cg->opt.event : cg->events[0];
	size_t i = event_index(cg, want);
	cg->single = i;
	if (i != SIZE_MAX) {
		cg->coef[i] = 1;
	} else if (!derived_event(cg, want)) {
		struct buf why; /* names from the file and the command line, escaped */
		buf_init(&why);
		buf_adds(&why, "no event ");
		escape_diag(&why, want, strlen(want));
		buf_adds(&why, " in this file (it has:");
		for (size_t k = 0; k < cg->event_count; k++) {
			buf_addc(&why, ' ');
			escape_diag(&why, cg->events[k], strlen(cg->events[k]));
		}
		buf_addc(&why, ')');
		fail(cg, err, why.data);
		buf_finish(&why);
		return false;
	}
	cg->event_chosen = true;
	return true;
}

static bool
events_line(struct callgrind *cg, const char *p, const char *end, struct diag *err)
{
	char names[MAX_EVENTS][64];
	size_t n = 0;
	for (p = skip_blanks(p, end); p < end; p = skip_blanks(p, end)) {
		const char *w = p;
		while (p < end && *p != ' ' && *p != '\t') {
			p++;
		}
		if (n == MAX_EVENTS) {
			return fail(cg, err, "more than 64 events");
		}
		word(names[n++], w, p);
	}
	if (n == 0) {
		return fail(cg, err, "events: line without events");
	}
	if (cg->event_count && (n != cg->event_count || memcmp(names, cg->events, n * 64) != 0)) {
		return fail(cg, err, "a second events: line naming other events");
	}
	memcpy(cg->events, names, sizeof(names[0]) * n);
	cg->event_count = n;
	return choose_event(cg, err);
}

static bool
positions_line(struct callgrind *cg, const char *p, const char *end, struct diag *err)
{
	size_t n = 0;
	for (p = skip_blanks(p, end); p < end; p = skip_blanks(p, end)) {
		const char *w = p;
		while (p < end && *p != ' ' && *p != '\t') {
			p++;
		}
		if (!key_is(w, p, "line") && !key_is(w, p, "instr")) {
			return fail(cg, err, "positions: may name line and instr only");
		}
		n++;
	}
	if (n == 0 || n > 2) {
		return fail(cg, err, "positions: must name one or two of line and instr");
	}
	cg->positions = n;
	return true;
}

/* totals: and summary: lines: the file's own account of the sum. */
static bool
totals_line(struct callgrind *cg, const char *p, const char *end, bool totals, struct diag *err)
{
	if (!cg->event_chosen) {
		return fail(cg, err, "totals before the events: line");
	}
	uint64_t v;
	if (!event_value(cg, p, end, &v)) {
		return fail(cg, err, "bad totals: expected numbers up to 2^64-1");
	}
	uint64_t *sum = totals ? &cg->totals : &cg->summary;
	*sum = add_sat(*sum, v);
	*(totals ? &cg->has_totals : &cg->has_summary) = true;
	return true;
}

static bool
header_line(
        struct callgrind *cg, const char *p, const char *colon, const char *end, struct diag *err)
{
	const char *v = colon + 1;
	if (key_is(p, colon, "events")) {
		return events_line(cg, v, end, err);
	}
	if (key_is(p, colon, "positions")) {
		return positions_line(cg, v, end, err);
	}
	if (key_is(p, colon, "totals")) {
		return totals_line(cg, v, end, true, err);
	}
	if (key_is(p, colon, "summary")) {
		return totals_line(cg, v, end, false, err);
	}
	return true; /* version, creator, cmd, desc, part, event, ... */
}

static bool
is_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == ' ';
}

bool
callgrind_line(struct callgrind *cg, const char *line, size_t len, struct diag *err)
{
	const char *p = line, *end = line + len;
	cg->line_no++;
	if (len && end[-1] == '\r') {
		end--;
	}
	if (p == end || *p == '#') {
		return !cg->in_call || fail(cg, err, "calls= not followed by its cost line");
	}
	if (is_position_start(*p)) {
		return cost_line(cg, p, end, err);
	}
	if (cg->in_call) {
		return fail(cg, err, "calls= not followed by its cost line");
	}
	const char *q = p;
	while (q < end && is_key_char(*q)) {
		q++;
	}
	if (q > p && q < end && *q == '=') {
		return spec_line(cg, p, q, end, err);
	}
	if (q > p && q < end && *q == ':') {
		return header_line(cg, p, q, end, err);
	}
	return fail(cg, err, "not a callgrind line");
}

static const char *
count_name(const char *event)
{
	static const struct {
		const char *event, *name;
	} names[] = {
	        {"Ir", "instructions"},
	        {"CEst", "estimated cycles"},
	        {"Dr", "data reads"},
	        {"Dw", "data writes"},
	        {"Bc", "conditional branches"},
	        {"Bcm", "mispredicted conditional branches"},
	        {"Bi", "indirect branches"},
	        {"Bim", "mispredicted indirect branches"},
	        {"L1m", "L1 misses"},
	        {"LLm", "last-level cache misses"},
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (strcmp(names[i].event, event) == 0) {
			return names[i].name;
		}
	}
	return NULL;
}

static void
describe(const struct callgrind *cg, struct callgrind_info *info)
{
	memset(info, 0, sizeof(*info));
	const char *event = cg->opt.event ? cg->opt.event : cg->events[0];
	size_t n =
	        strlen(event) < sizeof(info->event) - 1 ? strlen(event) : sizeof(info->event) - 1;
	memcpy(info->event, event, n);
	info->event[n] = '\0';
	info->countname = count_name(info->event);
	info->total = cg->self_sum;
}

static void queue_add(struct callgrind_queue *q, struct callgrind *cg, enum side side);

/* callgrind_finish, the graph queued in defer when it has no contexts. */
static bool
finish(struct callgrind *cg, struct tree *t, enum side side, struct callgrind_info *info,
        struct callgrind_queue *defer, struct diag *err)
{
	if (cg->in_call) {
		return fail(cg, err, "the file ends inside a call (calls= without its cost line)");
	}
	if (!cg->event_chosen) {
		return fail(cg, err, "no events: line: not a callgrind file, or a cut one");
	}
	if (cg->graph.fn_count == 0) {
		/* As folded input without a stack: nothing to draw is an error. */
		diag_set(err, cg->name, 0, "no function (fn= line) in the file: nothing to draw");
		return false;
	}
	/* totals: ends each part; a summary: at the start says the same. */
	bool stated = cg->has_totals || cg->has_summary;
	uint64_t said = cg->has_totals ? cg->totals : cg->summary;
	if (stated && said != cg->self_sum) {
		char why[256];
		snprintf(why, sizeof(why),
		        "the cost lines add up to %llu but the file's %s %llu (a cut or damaged "
		        "file?)",
		        (unsigned long long)cg->self_sum,
		        cg->has_totals ? "totals: say" : "summary: says", (unsigned long long)said);
		diag_set(err, cg->name, 0, why);
		return false;
	}
	describe(cg, info);
	/* The maps serve the parsing only: freed before the tree grows. */
	struct idmap *maps[] = {
	        &cg->ids[0], &cg->ids[1], &cg->ids[2], &cg->function_of, &cg->function_of_id};
	for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
		idmap_finish(maps[i]);
		*maps[i] = (struct idmap){0};
	}
	if (defer && !callgraph_has_contexts(&cg->graph)) {
		/* Only what has a cost becomes a stack: none, no sample. */
		if (cg->self_sum == 0) {
			diag_set(err, cg->name, 0,
			        "the profile has no sample: refused rather than compared as an "
			        "empty profile");
			return false;
		}
		info->reconstructed = true;
		info->deferred = true;
		queue_add(defer, cg, side);
		return true;
	}
	struct callgraph_options go = {.name = cg->name,
	        .objects = cg->opt.objects,
	        .floor = cg->opt.floor,
	        .below_main = cg->opt.below_main,
	        .src = cg->src};
	bool contexts = false;
	bool ok = callgraph_to_tree(
	        &cg->graph, t, side, &go, cg->self_sum, &info->unexpanded, &contexts, err);
	info->reconstructed = !contexts;
	return ok;
}

/* A graph waiting for the floor, with what expanding it takes. */
struct deferred {
	struct callgraph graph;
	char *name; /* the file, for messages */
	bool objects, below_main;
	uint64_t work_left; /* what the file paid for (callgraph_options) */
	uint64_t total;
	enum side side;
};

struct callgrind_queue {
	struct deferred *v;
	size_t count, cap;
};

struct callgrind_queue *
callgrind_queue_create(void)
{
	return xcalloc(1, sizeof(struct callgrind_queue));
}

/* The graph moves to the queue; cg keeps an empty one. */
static void
queue_add(struct callgrind_queue *q, struct callgrind *cg, enum side side)
{
	q->v = xgrow(q->v, &q->cap, q->count + 1, sizeof(*q->v));
	q->v[q->count++] = (struct deferred){.graph = cg->graph,
	        .name = xstrdup(cg->name),
	        .objects = cg->opt.objects,
	        .below_main = cg->opt.below_main,
	        .work_left = cg->src ? source_work_left(cg->src) : 0,
	        .total = cg->self_sum,
	        .side = side};
	cg->graph = (struct callgraph){.names = cg->graph.names};
}

bool
callgrind_queue_run(struct callgrind_queue *q, struct tree *t, double share, struct diag *err)
{
	double side_total[2] = {0, 0};
	for (size_t i = 0; i < q->count; i++) {
		side_total[q->v[i].side] += (double)q->v[i].total;
	}
	double floor = share * (side_total[0] > side_total[1] ? side_total[0] : side_total[1]);
	bool ok = true;
	for (size_t i = 0; i < q->count; i++) {
		struct deferred *d = &q->v[i];
		/* expand() takes the floor as a share of the graph's own total. */
		struct callgraph_options go = {.name = d->name,
		        .objects = d->objects,
		        .floor = d->total ? floor / (double)d->total : share,
		        .below_main = d->below_main,
		        .work_left = d->work_left};
		uint64_t unexpanded;
		bool contexts;
		ok = ok && callgraph_to_tree(&d->graph, t, d->side, &go, d->total, &unexpanded,
		                   &contexts, err);
		callgraph_finish(&d->graph);
		free(d->name);
	}
	q->count = 0;
	return ok;
}

void
callgrind_queue_destroy(struct callgrind_queue *q)
{
	if (q) {
		for (size_t i = 0; i < q->count; i++) {
			callgraph_finish(&q->v[i].graph);
			free(q->v[i].name);
		}
		free(q->v);
		free(q);
	}
}

bool
callgrind_finish(struct callgrind *cg, struct tree *t, enum side side, struct callgrind_info *info,
        struct diag *err)
{
	return finish(cg, t, side, info, NULL, err);
}

/* Feeds the complete lines of a chunk, and the last one at the end. */
static long long
parse_chunk(void *ctx, const char *data, size_t len, bool at_eof)
{
	struct callgrind *cg = ctx;
	struct diag *err = cg->err;
	size_t pos = 0;
	const char *last = len ? memrchr(data, '\n', len) : NULL;
	if (last) {
		const char *next = callgrind_feed(cg, data, last, err);
		if (!next) {
			return -1;
		}
		pos = (size_t)(next - data);
	}
	if (len - pos > BOUND_LINE) {
		cg->line_no++;
		fail(cg, err, "line is longer than 16 MiB");
		return -1;
	}
	if (at_eof && pos < len) {
		if (!callgrind_line(cg, data + pos, len - pos, err)) {
			return -1;
		}
		pos = len;
	}
	return (long long)pos;
}

/* The picture's note and the unit: the event read and how stacks were made. */
static void
describe_result(const struct callgrind_info *ci, struct read_result *res)
{
	snprintf(res->key, sizeof(res->key), "%s", ci->event);
	snprintf(res->measure, sizeof(res->measure), "%s", ci->countname);
	snprintf(res->unit, sizeof(res->unit), "%s", ci->countname);
	res->flag = ci->reconstructed;
	res->deferred = ci->deferred;
	res->exact = true;
}

bool
callgrind_read(struct tree *t, enum folded_mode mode, struct source *src, const char *head,
        size_t head_len, const struct read_options *ro, struct read_result *res, struct diag *err)
{
	struct callgrind_options opt = {ro->event, ro->objects, ro->floor, ro->below_main};
	struct callgrind_info info;
	struct callgrind *cg = create(source_name(src), &opt, t->names, true);
	cg->err = err;
	cg->src = src;
	bool ok = source_parse(src, head, head_len, parse_chunk, cg, err) &&
	          finish(cg, t, reader_side(mode), &info, ro->defer, err);
	callgrind_destroy(cg);
	if (ok) {
		describe_result(&info, res);
	}
	return ok;
}

/* The note says how the stacks were made: rebuilt if any file's were. */
void
callgrind_note(const struct read_sum *s, bool single, char *dst, size_t cap)
{
	(void)single;
	snprintf(dst, cap, "%s",
	        s->flag ? "callgrind: stacks reconstructed from the call graph, self costs exact"
	                : "callgrind: stacks from call contexts");
}
