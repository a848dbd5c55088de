#include "callgrind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "escape.h"
#include "hash.h"
#include "intern.h"
#include "source.h"
#include "xalloc.h"

#define NONE UINT32_MAX
#define MAX_EVENTS 64
#define MAX_LINE ((size_t)16 << 20)
#define READ_SIZE ((size_t)128 << 10)

/* A map from 64-bit keys to 32-bit values (open addressing, grows). */
struct idmap {
	uint64_t *keys; /* key + 1; 0 is empty */
	uint32_t *vals;
	size_t mask, count;
};

static void
idmap_finish(struct idmap *m)
{
	free(m->keys);
	free(m->vals);
}

static size_t
idmap_pos(const struct idmap *m, uint64_t key)
{
	size_t i = hash_end(hash_mix(hash_seed(), key), 8) & m->mask;
	while (m->keys[i] && m->keys[i] != key + 1) {
		i = (i + 1) & m->mask;
	}
	return i;
}

static void
idmap_grow(struct idmap *m)
{
	struct idmap old = *m;
	size_t size = old.keys ? (old.mask + 1) * 2 : 256;
	m->keys = xcalloc(size, sizeof(*m->keys));
	m->vals = xmalloc(size * sizeof(*m->vals));
	m->mask = size - 1;
	for (size_t i = 0; old.keys && i <= old.mask; i++) {
		if (old.keys[i]) {
			size_t j = idmap_pos(m, old.keys[i] - 1);
			m->keys[j] = old.keys[i];
			m->vals[j] = old.vals[i];
		}
	}
	idmap_finish(&old);
}

static bool
idmap_get(const struct idmap *m, uint64_t key, uint32_t *val)
{
	if (!m->keys) {
		return false;
	}
	size_t i = idmap_pos(m, key);
	if (!m->keys[i]) {
		return false;
	}
	*val = m->vals[i];
	return true;
}

static void
idmap_set(struct idmap *m, uint64_t key, uint32_t val)
{
	if (!m->keys || (m->count + 1) * 4 > (m->mask + 1) * 3) {
		idmap_grow(m);
	}
	size_t i = idmap_pos(m, key);
	if (!m->keys[i]) {
		m->keys[i] = key + 1;
		m->count++;
	}
	m->vals[i] = val;
}

/* The three name spaces of the compression: objects, files, functions. */
enum space {
	SPACE_OBJECT,
	SPACE_FILE,
	SPACE_FUNCTION,
};

struct function {
	uint32_t name, file, object; /* ids in cg->names */
	uint64_t self;
	uint64_t out; /* inclusive cost of its calls to others */
	uint64_t in; /* inclusive cost of the calls to it */
	uint32_t first_edge, edge_count; /* after sort_edges */
	bool defined; /* had an fn= block */
};

struct edge {
	uint32_t caller, callee;
	uint64_t cost;
};

struct callgrind {
	const char *name;
	struct callgrind_options opt;
	uint64_t line_no;
	struct intern *names;
	struct idmap ids[3]; /* compressed id -> name id */
	struct idmap function_of; /* file << 32 | name -> function */
	struct idmap edge_of; /* caller << 32 | callee -> edge */
	struct function *fns;
	size_t fn_count, fn_cap;
	struct edge *edges;
	size_t edge_count, edge_cap;
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
};

static bool
fail(struct callgrind *cg, struct diag *err, const char *reason)
{
	diag_set(err, cg->name, cg->line_no, reason);
	return false;
}

struct callgrind *
callgrind_create(const char *name, const struct callgrind_options *opt)
{
	struct callgrind *cg = xcalloc(1, sizeof(*cg));
	cg->name = name;
	cg->opt = *opt;
	cg->names = intern_create();
	cg->positions = 1;
	cg->object = cg->file = cg->cur_file = cg->fn = NONE;
	cg->call_object = cg->call_file = cg->call_fn = NONE;
	return cg;
}

void
callgrind_destroy(struct callgrind *cg)
{
	if (!cg) {
		return;
	}
	intern_destroy(cg->names);
	for (size_t i = 0; i < 3; i++) {
		idmap_finish(&cg->ids[i]);
	}
	idmap_finish(&cg->function_of);
	idmap_finish(&cg->edge_of);
	free(cg->fns);
	free(cg->edges);
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
	if (p == end || *p != '(') {
		*out = intern_add(cg->names, p, (size_t)(end - p));
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
		*out = intern_add(cg->names, p, (size_t)(end - p));
		idmap_set(&cg->ids[space], id, *out);
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
static uint32_t
function_id(
        struct callgrind *cg, uint64_t compressed, uint32_t file, uint32_t name, uint32_t object)
{
	uint64_t key =
	        compressed != UINT64_MAX ? compressed | 1ull << 63 : (uint64_t)file << 32 | name;
	uint32_t id;
	if (idmap_get(&cg->function_of, key, &id)) {
		return id;
	}
	cg->fns = xgrow(cg->fns, &cg->fn_cap, cg->fn_count + 1, sizeof(*cg->fns));
	id = (uint32_t)cg->fn_count++;
	cg->fns[id] = (struct function){.name = name, .file = file, .object = object};
	idmap_set(&cg->function_of, key, id);
	return id;
}

static void
add_edge(struct callgrind *cg, uint32_t caller, uint32_t callee, uint64_t cost)
{
	/* Direct recursion: the inner call's cost is in the caller's already. */
	if (caller == callee) {
		return;
	}
	uint64_t key = (uint64_t)caller << 32 | callee;
	uint32_t id;
	if (!idmap_get(&cg->edge_of, key, &id)) {
		cg->edges = xgrow(cg->edges, &cg->edge_cap, cg->edge_count + 1, sizeof(*cg->edges));
		id = (uint32_t)cg->edge_count++;
		cg->edges[id] = (struct edge){caller, callee, 0};
		idmap_set(&cg->edge_of, key, id);
	}
	struct edge *e = &cg->edges[id];
	e->cost = e->cost > UINT64_MAX - cost ? UINT64_MAX : e->cost + cost;
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
is_position_start(char c)
{
	return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*';
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
		add_edge(cg, cg->fn, cg->call_target, v);
		cg->call_object = cg->call_file = NONE;
		return true;
	}
	if (cg->fn == NONE) {
		return fail(cg, err, "cost line before any fn= line");
	}
	struct function *f = &cg->fns[cg->fn];
	if (f->self > UINT64_MAX - v || cg->self_sum > UINT64_MAX - v) {
		return fail(cg, err, "cost over 2^64-1");
	}
	f->self += v;
	cg->self_sum += v;
	return true;
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
	uint32_t file = cg->call_file != NONE ? cg->call_file : cg->cur_file;
	uint32_t object = cg->call_object != NONE ? cg->call_object : cg->object;
	cg->call_target = function_id(cg, cg->call_fn_id, file, cg->call_fn, object);
	cg->in_call = true;
	return true;
}

static bool
key_is(const char *p, const char *eq, const char *key)
{
	size_t n = strlen(key);
	return (size_t)(eq - p) == n && memcmp(p, key, n) == 0;
}

/* "key=value" position and call lines. */
static bool
spec_line(struct callgrind *cg, const char *p, const char *eq, const char *end, struct diag *err)
{
	const char *v = eq + 1;
	uint32_t id;
	uint64_t compressed;
	if (key_is(p, eq, "calls")) {
		return calls_line(cg, v, end, err);
	}
	if (key_is(p, eq, "jump") || key_is(p, eq, "jcnd")) {
		return true; /* jumps carry no cost of their own */
	}
	static const struct {
		const char *key;
		enum space space;
	} keys[] = {{"ob", SPACE_OBJECT}, {"fl", SPACE_FILE}, {"fi", SPACE_FILE},
	        {"fe", SPACE_FILE}, {"fn", SPACE_FUNCTION}, {"cob", SPACE_OBJECT},
	        {"cfi", SPACE_FILE}, {"cfl", SPACE_FILE}, {"cfn", SPACE_FUNCTION}};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		if (!key_is(p, eq, keys[i].key)) {
			continue;
		}
		if (!spec_name(cg, keys[i].space, v, end, &id, &compressed, err)) {
			return false;
		}
		switch (p[0] == 'c' ? p[1] : p[0]) {
		case 'o':
			*(p[0] == 'c' ? &cg->call_object : &cg->object) = id;
			break;
		case 'f':
			if (p[0] == 'c') {
				cg->call_file = id;
			} else if (p[1] == 'l') {
				cg->file = cg->cur_file = id;
			} else if (p[1] == 'n') {
				cg->fn = function_id(cg, compressed, cg->file, id, cg->object);
				struct function *f = &cg->fns[cg->fn];
				f->defined = true;
				f->file = cg->file; /* a call may have named another */
				f->object = cg->object;
			} else {
				cg->cur_file = id; /* fi=, fe=: inlined code's file */
			}
			break;
		}
		if (key_is(p, eq, "cfn")) {
			cg->call_fn = id;
			cg->call_fn_id = compressed;
		}
		return true;
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
 * simulation, and the sums of misses per cache level.
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

/* Groups the edges by caller, so each function's calls are a range. */
static void
sort_edges(struct callgrind *cg)
{
	uint32_t *start = xcalloc(cg->fn_count + 1, sizeof(*start));
	for (size_t i = 0; i < cg->edge_count; i++) {
		start[cg->edges[i].caller + 1]++;
	}
	for (size_t f = 0; f < cg->fn_count; f++) {
		start[f + 1] += start[f];
		cg->fns[f].first_edge = start[f];
		cg->fns[f].edge_count = 0;
	}
	struct edge *sorted = xmalloc((cg->edge_count ? cg->edge_count : 1) * sizeof(*sorted));
	for (size_t i = 0; i < cg->edge_count; i++) {
		struct function *f = &cg->fns[cg->edges[i].caller];
		sorted[f->first_edge + f->edge_count++] = cg->edges[i];
	}
	free(cg->edges);
	cg->edges = sorted;
	free(start);
}

/*
 * A call to a function that never had an fn= block of its own under the
 * file the call named (a call from inlined code names the inlining file)
 * goes to the one defined function of that name, if there is just one.
 */
static void
resolve_callees(struct callgrind *cg)
{
	struct idmap by_name = {0};
	for (uint32_t f = 0; f < cg->fn_count; f++) {
		uint32_t other;
		if (!cg->fns[f].defined) {
			continue;
		}
		bool seen = idmap_get(&by_name, cg->fns[f].name, &other);
		idmap_set(&by_name, cg->fns[f].name, seen ? NONE : f);
	}
	for (size_t i = 0; i < cg->edge_count; i++) {
		struct edge *e = &cg->edges[i];
		uint32_t f;
		if (!cg->fns[e->callee].defined &&
		        idmap_get(&by_name, cg->fns[e->callee].name, &f) && f != NONE) {
			e->callee = f;
		}
	}
	idmap_finish(&by_name);
}

static void
sum_edges(struct callgrind *cg)
{
	for (size_t i = 0; i < cg->edge_count; i++) {
		struct edge *e = &cg->edges[i];
		if (e->caller == e->callee) {
			e->cost = 0; /* made so by resolve_callees */
		}
		cg->fns[e->caller].out = add_sat(cg->fns[e->caller].out, e->cost);
		cg->fns[e->callee].in = add_sat(cg->fns[e->callee].in, e->cost);
	}
}

/* A node of the expanded call tree, in pre-order. */
struct xnode {
	uint32_t fn, parent;
	double flow; /* inclusive cost this path carries */
	uint64_t self;
};

struct expansion {
	struct xnode *nodes;
	size_t count, cap, limit;
	bool truncated;
	uint32_t *on_path; /* per function: how often on the current path */
};

static double
total_of(const struct function *f)
{
	return (double)f->self + (double)f->out;
}

static uint32_t
push_node(struct expansion *x, uint32_t fn, uint32_t parent, double flow)
{
	x->nodes = xgrow(x->nodes, &x->cap, x->count + 1, sizeof(*x->nodes));
	x->nodes[x->count] = (struct xnode){fn, parent, flow, 0};
	return (uint32_t)x->count++;
}

struct frame {
	uint32_t node, next_edge;
};

/* Depth first from one root, with an explicit stack: no recursion on depth. */
static void
expand_root(struct callgrind *cg, struct expansion *x, uint32_t root, double flow, double floor)
{
	struct frame *stack = NULL;
	size_t depth = 0, cap = 0;
	stack = xgrow(stack, &cap, 1, sizeof(*stack));
	stack[depth++] = (struct frame){push_node(x, root, NONE, flow), 0};
	x->on_path[root]++;
	while (depth) {
		struct frame *top = &stack[depth - 1];
		const struct xnode *n = &x->nodes[top->node];
		const struct function *f = &cg->fns[n->fn];
		if (top->next_edge == f->edge_count) {
			x->on_path[n->fn]--;
			depth--;
			continue;
		}
		const struct edge *e = &cg->edges[f->first_edge + top->next_edge++];
		double child = n->flow * (double)e->cost / total_of(f);
		if (x->on_path[e->callee] || child < floor || e->cost == 0) {
			continue; /* a cycle (its cost counted already) or a thin branch */
		}
		if (x->count >= x->limit) {
			x->truncated = true;
			continue;
		}
		uint32_t id = push_node(x, e->callee, top->node, child);
		stack = xgrow(stack, &cap, depth + 1, sizeof(*stack));
		stack[depth++] = (struct frame){id, 0};
		x->on_path[e->callee]++;
	}
	free(stack);
}

static void
expand(struct callgrind *cg, struct expansion *x, uint64_t total)
{
	double floor = cg->opt.floor * (double)total;
	x->on_path = xcalloc(cg->fn_count ? cg->fn_count : 1, sizeof(*x->on_path));
	for (uint32_t f = 0; f < cg->fn_count; f++) {
		const struct function *fn = &cg->fns[f];
		double t = total_of(fn);
		if (t > 0 && t > (double)fn->in) {
			expand_root(cg, x, f, t - (double)fn->in, floor);
		}
	}
	free(x->on_path);
	x->on_path = NULL;
}

struct orphan {
	uint32_t fn;
	uint64_t cost;
};

/*
 * Each function's self cost over its nodes, in proportion to the part of
 * the node's flow that is the function's own, rounded cumulatively so the
 * parts add up to the self cost exactly. What no node took (a function
 * every path to which was pruned) is returned as orphans.
 */
static size_t
apportion(struct callgrind *cg, struct expansion *x, struct orphan **orphans)
{
	size_t n = cg->fn_count ? cg->fn_count : 1;
	double *weight = xcalloc(n, sizeof(*weight));
	double *done = xcalloc(n, sizeof(*done));
	uint64_t *given = xcalloc(n, sizeof(*given));
	uint32_t *left = xcalloc(n, sizeof(*left));
	for (size_t i = 0; i < x->count; i++) {
		const struct function *f = &cg->fns[x->nodes[i].fn];
		weight[x->nodes[i].fn] += x->nodes[i].flow * (double)f->self / total_of(f);
		left[x->nodes[i].fn]++;
	}
	for (size_t i = 0; i < x->count; i++) {
		uint32_t fn = x->nodes[i].fn;
		const struct function *f = &cg->fns[fn];
		done[fn] += x->nodes[i].flow * (double)f->self / total_of(f);
		uint64_t target = f->self; /* the last node takes the rest */
		if (--left[fn] && weight[fn] > 0) {
			double share = done[fn] / weight[fn];
			target = share >= 1 ? f->self : (uint64_t)(share * (double)f->self + 0.5);
		}
		if (target < given[fn]) {
			target = given[fn];
		}
		x->nodes[i].self = target - given[fn];
		given[fn] = target;
	}
	size_t count = 0;
	*orphans = xmalloc(n * sizeof(**orphans));
	for (uint32_t f = 0; f < cg->fn_count; f++) {
		if (cg->fns[f].self > given[f]) {
			(*orphans)[count++] = (struct orphan){f, cg->fns[f].self - given[f]};
		}
	}
	free(weight);
	free(done);
	free(left);
	free(given);
	return count;
}

/* Frame names: the function without its call context ("a'b'c" is a). */
struct names {
	struct buf text;
	size_t *start; /* per function: [start[f], start[f + 1]) in text */
};

static void
add_object(struct buf *b, const char *s, size_t len)
{
	const char *slash = len ? memrchr(s, '/', len) : NULL;
	if (slash) {
		len -= (size_t)(slash + 1 - s);
		s = slash + 1;
	}
	buf_adds(b, " [");
	buf_add(b, s, len);
	buf_addc(b, ']');
}

/* Appends a name with ';' (the frame separator) made ':'. */
static void
add_name(struct buf *b, const char *s, size_t len)
{
	if (len == 0) {
		buf_adds(b, "[unknown]");
		return;
	}
	for (size_t i = 0; i < len; i++) {
		buf_addc(b, s[i] == ';' ? ':' : s[i]);
	}
}

static size_t
base_len(const char *s, size_t len)
{
	const char *q = memchr(s, '\'', len);
	return q ? (size_t)(q - s) : len;
}

/* Base names shared by functions of different files get `file:` added. */
static bool *
ambiguous_names(struct callgrind *cg, uint32_t *base_id)
{
	struct idmap file_of = {0};
	for (uint32_t f = 0; f < cg->fn_count; f++) {
		size_t len;
		const char *s = intern_name(cg->names, cg->fns[f].name, &len);
		base_id[f] = intern_add(cg->names, s, base_len(s, len));
	}
	bool *shared = xcalloc(intern_count(cg->names) + 1, sizeof(*shared));
	for (uint32_t f = 0; f < cg->fn_count; f++) {
		uint32_t file;
		if (!cg->fns[f].defined) {
			continue;
		}
		if (!idmap_get(&file_of, base_id[f], &file)) {
			idmap_set(&file_of, base_id[f], cg->fns[f].file);
		} else if (file != cg->fns[f].file) {
			shared[base_id[f]] = true;
		}
	}
	idmap_finish(&file_of);
	return shared;
}

static void
names_init(struct names *nm, struct callgrind *cg)
{
	size_t n = cg->fn_count ? cg->fn_count : 1;
	uint32_t *base_id = xmalloc(n * sizeof(*base_id));
	bool *shared = ambiguous_names(cg, base_id);
	buf_init(&nm->text);
	nm->start = xmalloc((n + 1) * sizeof(*nm->start));
	for (uint32_t f = 0; f < cg->fn_count; f++) {
		const struct function *fn = &cg->fns[f];
		size_t len;
		const char *s;
		nm->start[f] = nm->text.len;
		if (shared[base_id[f]] && fn->file != NONE) {
			s = intern_name(cg->names, fn->file, &len);
			add_name(&nm->text, s, len);
			buf_addc(&nm->text, ':');
		}
		s = intern_name(cg->names, base_id[f], &len);
		add_name(&nm->text, s, len);
		if (cg->opt.objects && fn->object != NONE) {
			s = intern_name(cg->names, fn->object, &len);
			add_object(&nm->text, s, len);
		}
	}
	nm->start[cg->fn_count] = nm->text.len;
	free(shared);
	free(base_id);
}

static void
names_finish(struct names *nm)
{
	buf_finish(&nm->text);
	free(nm->start);
}

static bool
add_stack(struct tree *t, enum side side, const struct buf *path, uint64_t cost, struct diag *err,
        const char *name)
{
	const char *reason;
	if (cost == 0) {
		return true;
	}
	if (!tree_add_stack(t, side, path->data, path->len, (struct count){cost, 0}, &reason)) {
		diag_set(err, name, 0, reason);
		return false;
	}
	return true;
}

/* The expanded nodes as stacks: each node's path is its parent's plus it. */
static bool
emit(struct callgrind *cg, const struct expansion *x, const struct orphan *orphans,
        size_t orphan_count, struct tree *t, enum side side, struct diag *err)
{
	struct names nm;
	struct buf path;
	bool ok = true;
	size_t *len_at = xmalloc((x->count ? x->count : 1) * sizeof(*len_at));
	names_init(&nm, cg);
	buf_init(&path);
	for (size_t i = 0; ok && i < x->count; i++) {
		const struct xnode *n = &x->nodes[i];
		size_t keep = n->parent == NONE ? 0 : len_at[n->parent];
		path.len = keep;
		if (keep) {
			buf_addc(&path, ';');
		}
		buf_add(&path, nm.text.data + nm.start[n->fn],
		        nm.start[n->fn + 1] - nm.start[n->fn]);
		len_at[i] = path.len;
		ok = add_stack(t, side, &path, n->self, err, cg->name);
	}
	for (size_t i = 0; ok && i < orphan_count; i++) {
		uint32_t f = orphans[i].fn;
		path.len = 0;
		buf_adds(&path, "[unexpanded];");
		buf_add(&path, nm.text.data + nm.start[f], nm.start[f + 1] - nm.start[f]);
		ok = add_stack(t, side, &path, orphans[i].cost, err, cg->name);
	}
	buf_finish(&path);
	names_finish(&nm);
	free(len_at);
	return ok;
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

static bool
has_contexts(const struct callgrind *cg)
{
	for (uint32_t f = 0; f < cg->fn_count; f++) {
		size_t len;
		const char *s = intern_name(cg->names, cg->fns[f].name, &len);
		for (const char *q = s; (q = memchr(q, '\'', len - (size_t)(q - s))); q++) {
			if (q + 1 < s + len && (q[1] < '0' || q[1] > '9')) {
				return true; /* a caller, not a recursion level */
			}
		}
	}
	return false;
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
	info->reconstructed = !has_contexts(cg);
	info->total = cg->self_sum;
}

bool
callgrind_finish(struct callgrind *cg, struct tree *t, enum side side, struct callgrind_info *info,
        struct diag *err)
{
	if (cg->in_call) {
		return fail(cg, err, "the file ends inside a call (calls= without its cost line)");
	}
	if (!cg->event_chosen) {
		return fail(cg, err, "no events: line: not a callgrind file, or a cut one");
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
	resolve_callees(cg);
	sort_edges(cg);
	sum_edges(cg);
	struct expansion x = {0};
	x.limit = t->opt.max_nodes ? t->opt.max_nodes : UINT32_MAX - 1;
	expand(cg, &x, cg->self_sum);
	struct orphan *orphans;
	size_t orphan_count = apportion(cg, &x, &orphans);
	for (size_t i = 0; i < orphan_count; i++) {
		info->unexpanded += orphans[i].cost;
	}
	bool ok = emit(cg, &x, orphans, orphan_count, t, side, err);
	free(orphans);
	free(x.nodes);
	return ok;
}

bool
callgrind_read_mem(struct tree *t, enum side side, const char *name, const char *data, size_t len,
        const struct callgrind_options *opt, struct callgrind_info *info, struct diag *err)
{
	struct callgrind *cg = callgrind_create(name, opt);
	const char *p = data, *end = data + len;
	bool ok = true;
	while (ok && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		ok = callgrind_line(cg, p, (size_t)(eol - p), err);
		p = nl ? nl + 1 : end;
	}
	ok = ok && callgrind_finish(cg, t, side, info, err);
	callgrind_destroy(cg);
	return ok;
}

/* Feeds the lines of head and then of the rest of the source. */
static bool
read_lines(struct callgrind *cg, struct source *src, const char *head, size_t head_len,
        struct diag *err)
{
	struct buf b;
	buf_init(&b);
	buf_add(&b, head, head_len);
	bool ok = true;
	for (;;) {
		buf_reserve(&b, READ_SIZE);
		ssize_t n = source_read(src, b.data + b.len, READ_SIZE, err);
		if (n < 0) {
			ok = false;
			break;
		}
		buf_setlen(&b, b.len + (size_t)n);
		size_t pos = 0;
		const char *nl;
		while (ok && (nl = memchr(b.data + pos, '\n', b.len - pos))) {
			ok = callgrind_line(cg, b.data + pos, (size_t)(nl - b.data) - pos, err);
			pos = (size_t)(nl - b.data) + 1;
		}
		if (ok && b.len - pos > MAX_LINE) {
			cg->line_no++;
			ok = fail(cg, err, "line is longer than 16 MiB");
		}
		if (ok && n == 0 && pos < b.len) {
			ok = callgrind_line(cg, b.data + pos, b.len - pos, err);
			pos = b.len;
		}
		memmove(b.data, b.data + pos, b.len - pos);
		buf_setlen(&b, b.len - pos);
		if (!ok || n == 0) {
			break;
		}
	}
	buf_finish(&b);
	return ok;
}

bool
callgrind_read_source(struct tree *t, enum side side, struct source *src, const char *head,
        size_t head_len, const struct callgrind_options *opt, struct callgrind_info *info,
        struct diag *err)
{
	struct callgrind *cg = callgrind_create(source_name(src), opt);
	bool ok = read_lines(cg, src, head, head_len, err) &&
	          callgrind_finish(cg, t, side, info, err);
	callgrind_destroy(cg);
	return ok;
}

bool
callgrind_read_file(struct tree *t, enum side side, const char *path,
        const struct callgrind_options *opt, struct callgrind_info *info, struct diag *err)
{
	struct source *src = source_open(path, NULL, err);
	if (!src) {
		return false;
	}
	bool ok = callgrind_read_source(t, side, src, NULL, 0, opt, info, err);
	source_close(src);
	return ok;
}
