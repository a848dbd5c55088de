#include "callgrind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "buf.h"
#include "escape.h"
#include "callgraph.h"
#include "idmap.h"
#include "intern.h"
#include "readers.h"
#include "source.h"
#include "xalloc.h"

#define NONE UINT32_MAX
#define MAX_EVENTS 64
#define MAX_LINE ((size_t)16 << 20)

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

static enum space
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

static bool
is_digit(char c)
{
	return (unsigned)(c - '0') < 10;
}

/* "(id) name": the name, which id stands for from now on. */
static uint32_t
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
static uint32_t
new_function(struct callgrind *cg, struct idmap *m, uint64_t key, uint32_t file, uint32_t name,
        uint32_t object)
{
	uint32_t id = callgraph_function(&cg->graph, file, name, object);
	if (name == cg->hashed_name) {
		cg->graph.fns[id].name_hash = cg->hashed;
	}
	idmap_set(m, key, id);
	return id;
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
	return new_function(cg, m, key, file, name, object);
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

/* A calls= line, read: the next line is the call's inclusive cost. */
static void
start_call(struct callgrind *cg)
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
	start_call(cg);
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
	struct callgraph_options go = {cg->name, cg->opt.objects, cg->opt.floor};
	bool contexts = false;
	bool ok = callgraph_to_tree(
	        &cg->graph, t, side, &go, cg->self_sum, &info->unexpanded, &contexts, err);
	info->reconstructed = !contexts;
	return ok;
}

/*
 * The fast paths below read a chunk in one walk, each line dispatched on
 * its first byte: cost lines (digits, + - *) and the name and calls= lines
 * in their usual forms. They take a line only in a form whose reading
 * callgrind_line would give the same; anything else (a definition with odd
 * blanks, a carriage return, a long number, a mistake) goes to
 * callgrind_line, which says what is wrong with it. A newline ends every
 * line they see, so they never read past one.
 */

static inline const char *
skip_digits(const char *p)
{
	while (is_digit(*p)) {
		p++;
	}
	return p;
}

/* Reads up to 20 digits into *out; returns the byte after them (p if none). */
static inline const char *
read_digits(const char *p, uint64_t *out)
{
	uint64_t x = 0;
	const char *q = p;
	while (is_digit(*q) && q - p < 20) {
		x = x * 10 + (unsigned)(*q++ - '0');
	}
	*out = x;
	return q;
}

/*
 * The counts of a cost line when one event is read as it is: the chosen
 * one converted (1 to 19 digits, so no overflow), the others only checked
 * to be digits, as skip_count does; missing counts are zero. Returns the
 * newline, or NULL.
 */
static inline const char *
single_counts(const char *p, size_t n, size_t single, uint64_t *out)
{
	*out = 0;
	for (size_t i = 0; i < n; i++) {
		const char *d = p;
		if (*p == '\n') {
			return p;
		}
		if (i == single) {
			uint64_t x = 0;
			while (is_digit(*p)) {
				x = x * 10 + (unsigned)(*p++ - '0');
			}
			if (p - d > 19) {
				return NULL;
			}
			*out = x;
		} else {
			while (is_digit(*p)) {
				p++;
			}
		}
		if (p == d || *p == '\n') {
			return p == d ? NULL : p;
		}
		if (*p++ != ' ') {
			return NULL;
		}
	}
	return *p == '\n' ? p : NULL; /* not more counts than events */
}

/* The counts of a cost line for an event made of others (CEst, L1m, LLm). */
static const char *
derived_counts(const char *p, size_t n, const int64_t *coef, uint64_t *out)
{
	unsigned __int128 sum = 0;
	for (size_t i = 0; *p != '\n'; i++) {
		const char *d = p;
		uint64_t x;
		p = read_digits(p, &x);
		if (p == d || p - d > 19 || i >= n || (*p != ' ' && *p != '\n')) {
			return NULL;
		}
		sum += (unsigned __int128)x * (uint64_t)coef[i];
		p += *p == ' ';
	}
	if (sum > UINT64_MAX) {
		return NULL;
	}
	*out = (uint64_t)sum;
	return p;
}

/*
 * A cost line in its usual forms ("+3 5 1 0", "* 2", "12 4", with one or
 * two positions and any event): its value, and its newline, or NULL. The
 * positions are skipped, never converted: nothing difffold draws depends
 * on them (cost_line takes any word that starts like one; other forms,
 * "0x4011a0", go to it).
 */
static inline const char *
scan_cost(const struct callgrind *cg, const char *p, uint64_t *v)
{
	for (size_t i = 0, n = cg->positions;;) {
		p += !is_digit(*p); /* a sign or '*': *p is where a position starts */
		while (is_digit(*p)) {
			p++;
		}
		if (++i == n) {
			break;
		}
		if (*p != ' ' || !is_position_start(p[1])) {
			return NULL;
		}
		p++;
	}
	if (*p != ' ' && *p != '\n') {
		return NULL;
	}
	p += *p == ' ';
	return cg->single != SIZE_MAX ? single_counts(p, cg->event_count, cg->single, v)
	                              : derived_counts(p, cg->event_count, cg->coef, v);
}

/*
 * The usual cost line (one position, then its counts after single
 * blanks) when one event is read as it is: its value and its newline, or
 * NULL. Byte by byte, each byte asked only what single_counts asks of it
 * there: the counts before the chosen one (single) skipped, it converted
 * (up to 19 digits), those after it skipped, all of them counted (at most
 * n). What this takes scan_cost takes the same way; the positions are
 * skipped as it does. p: a position's first byte.
 */
static inline __attribute__((always_inline)) const char *
usual_cost(const char *p, size_t n, size_t single, uint64_t *v)
{
	const char *q = skip_digits(p + 1);
	uint64_t x = 0;
	size_t counts = 0;
	for (; counts < single && *q == ' ' && is_digit(q[1]); counts++) {
		q = skip_digits(q + 2);
	}
	if (counts == single && *q == ' ' && is_digit(q[1])) {
		const char *first = ++q;
		unsigned d = (unsigned)(unsigned char)*q - '0';
		do {
			x = x * 10 + d;
			d = (unsigned)(unsigned char)*++q - '0';
		} while (d < 10);
		if (q - first > 19) {
			return NULL;
		}
		for (counts++; *q == ' ' && is_digit(q[1]); counts++) {
			q = skip_digits(q + 2);
		}
	}
	q += *q == ' ' && q[1] == '\n'; /* a blank may end the line */
	if (*q != '\n' || counts > n) {
		return NULL;
	}
	*v = x;
	return q;
}

#if defined(__SSE2__)
/* short_cost's table: an entry per mask of a short line's blanks and newline. */
#define FORMS_SIZE ((size_t)1 << 15)
#define FORM_REFUSED 1
#define FORM_KNOWN 0x100

/*
 * What a short line reads as, from where its blanks and its newline are:
 * bit i of idx is its byte i + 1 (its first byte is a position's), the
 * highest bit set the newline, the others blanks; its other bytes are
 * digits. FORM_REFUSED for two blanks together or more counts than the n
 * events, else FORM_KNOWN with the chosen count's first digit (bits 4 to
 * 7) and its length (bits 0 to 3; 0 when the line has fewer counts).
 */
static uint16_t
short_form(unsigned idx, size_t n, size_t single)
{
	unsigned m = idx << 1;
	unsigned end = 1u << (31 - __builtin_clz(m));
	unsigned blanks = m & ~end;
	if (blanks & blanks >> 1) {
		return FORM_REFUSED;
	}
	/* A blank before a digit starts a count: not the one before the newline. */
	unsigned starts = blanks & (end - 1) >> 1, chosen = 0;
	size_t count = 0;
	for (unsigned s = starts; s; s &= s - 1, count++) {
		if (count == single) {
			chosen = s & -s;
		}
	}
	if (count > n) {
		return FORM_REFUSED;
	}
	if (!chosen) {
		return FORM_KNOWN;
	}
	unsigned first = (unsigned)__builtin_ctz(chosen) + 1;
	unsigned stop = (unsigned)__builtin_ctz((blanks | end) & ~(chosen * 2 - 1));
	return (uint16_t)(FORM_KNOWN | first << 4 | (stop - first));
}

/* The value of the n digits at q (n under 16), mostly one or two. */
static inline __attribute__((always_inline)) uint64_t
short_digits(const char *q, unsigned n)
{
	if (n - 1 < 2) {
		unsigned d = (unsigned)(unsigned char)q[0] - '0';
		return n == 1 ? d : d * 10 + (unsigned)(unsigned char)q[1] - '0';
	}
	uint64_t x = 0;
	for (const char *stop = q + n; q < stop; q++) {
		x = x * 10 + (unsigned)(*q - '0');
	}
	return x;
}

/*
 * usual_cost for a line of under 16 bytes, newline included, read as one
 * 16-byte load (p + 15 must be in the buffer): masks of its newline, blanks
 * and digits say at once what usual_cost finds byte by byte. After the
 * position's first byte only digits and blanks; where the blanks and the
 * newline are says the rest (short_form, worked out once per mask in the
 * table cg->forms): whether two blanks are together or there are too many
 * counts, where the chosen count is. NULL when the line is longer or not
 * of that form: usual_cost then decides, and says no to what is wrong.
 */
static inline __attribute__((always_inline)) const char *
short_cost(const struct callgrind *cg, const char *p, uint64_t *v)
{
	__m128i b = _mm_loadu_si128((const __m128i *)(const void *)p);
	unsigned nl = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(b, _mm_set1_epi8('\n')));
	if (!nl) {
		return NULL;
	}
	unsigned end = nl & -nl; /* the newline's bit */
	__m128i d = _mm_sub_epi8(b, _mm_set1_epi8('0'));
	__m128i digit = _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d);
	__m128i blank = _mm_cmpeq_epi8(b, _mm_set1_epi8(' '));
	unsigned line = (end - 1) & ~1u; /* the bytes after the first */
	unsigned blanks = (unsigned)_mm_movemask_epi8(blank) & line;
	unsigned ok = (unsigned)_mm_movemask_epi8(_mm_or_si128(digit, blank));
	if ((ok & line) != line) {
		return NULL;
	}
	unsigned idx = (blanks | end) >> 1;
	unsigned form = cg->forms[idx];
	if (!form) {
		form = cg->forms[idx] = short_form(idx, cg->event_count, cg->single);
	}
	if (form == FORM_REFUSED) {
		return NULL;
	}
	*v = short_digits(p + (form >> 4 & 15), form & 15);
	return p + __builtin_ctz(end);
}
#endif

/*
 * usual_cost, by short_cost when the 16 bytes from p are within the
 * chunk (last is its final newline) and the table is there.
 */
static inline __attribute__((always_inline)) const char *
usual_cost_in(
        const struct callgrind *cg, const char *p, const char *last, size_t single, uint64_t *v)
{
#if defined(__SSE2__)
	if (last - p >= 15) {
		const char *nl = short_cost(cg, p, v);
		if (nl) {
			return nl;
		}
	}
#else
	(void)last;
#endif
	return usual_cost(p, cg->event_count, single, v);
}

/*
 * The own cost of a run of lines (a function's block is mostly such
 * lines), summed into *sum, by usual_cost_in when wide (single: a constant
 * where inlined for the first event) else by scan_cost. Returns the first
 * line the run did not take.
 */
static inline __attribute__((always_inline)) const char *
cost_run(const struct callgrind *cg, bool wide, size_t single, const char *p, const char *last,
        uint64_t *sum, uint64_t *lines)
{
	uint64_t all = *sum, count = 0;
#if defined(__SSE2__)
	/*
	 * Where short_cost can read 16 bytes: one test of the room a line. Its
	 * counts are under 15 digits, so a sum under 2^63 stays in range. The
	 * loop below takes the rest of the run, from a line this one did not.
	 */
	while (wide && last - p >= 15 && is_position_start(*p) && all < (uint64_t)1 << 63) {
		uint64_t v;
		const char *nl = short_cost(cg, p, &v);
		if (!nl) {
			break;
		}
		all += v;
		count++;
		p = nl + 1;
	}
#endif
	while (p <= last && is_position_start(*p)) {
		uint64_t v;
		const char *nl =
		        wide ? usual_cost_in(cg, p, last, single, &v) : scan_cost(cg, p, &v);
		if (!nl || all > UINT64_MAX - v) {
			break; /* callgrind_line says what is wrong */
		}
		all += v;
		count++;
		p = nl + 1;
	}
	*sum = all;
	*lines += count;
	return p;
}

/* A run of cost lines of the current function's own cost. */
static const char *
self_cost_run(struct callgrind *cg, bool wide, const char *p, const char *last)
{
	uint64_t sum = cg->self_sum, lines = 0;
	if (wide && cg->single == 0) {
		p = cost_run(cg, true, 0, p, last, &sum, &lines);
	} else {
		p = cost_run(cg, wide, cg->single, p, last, &sum, &lines);
	}
	/* A function's self is part of the sum: if the sum fits, it does. */
	cg->graph.fns[cg->fn].self += sum - cg->self_sum;
	cg->self_sum = sum;
	cg->line_no += lines;
	return p;
}

/* Cost lines from p: the byte after those taken, p or NULL if none. */
static const char *
fast_cost_lines(struct callgrind *cg, const char *p, const char *last)
{
	if (!cg->event_chosen) {
		return NULL;
	}
	bool wide = cg->positions == 1 && cg->single != SIZE_MAX;
#if defined(__SSE2__)
	if (wide && !cg->forms) {
		cg->forms = xcalloc(FORMS_SIZE, sizeof(*cg->forms));
	}
#endif
	if (cg->in_call) {
		uint64_t v;
		const char *nl =
		        wide ? usual_cost_in(cg, p, last, cg->single, &v) : scan_cost(cg, p, &v);
		if (!nl) {
			return NULL;
		}
		cg->in_call = false;
		callgraph_call(&cg->graph, cg->fn, cg->call_target, v);
		cg->call_object = cg->call_file = NONE;
		cg->line_no++;
		return nl + 1;
	}
	return cg->fn == NONE ? NULL : self_cost_run(cg, wide, p, last);
}

/*
 * A name line's value "(id)" or "(id) name" (one blank): as spec_name
 * reads it. Inline, so that each key's own set_name is.
 */
static inline __attribute__((always_inline)) const char *
fast_name_line(struct callgrind *cg, enum key key, const char *v, const char *last)
{
	uint64_t id = 0;
	uint32_t name;
	if (*v != '(') {
		return NULL;
	}
	const char *q = v + 1;
	/* Two digits a step while there are (q[1] only when q[0] is one). Wraps
	 * past 19 digits: refused below. */
	unsigned d = (unsigned)(unsigned char)q[0] - '0', e;
	while (d < 10 && (e = (unsigned)(unsigned char)q[1] - '0') < 10) {
		id = id * 100 + (uint64_t)d * 10 + e;
		q += 2;
		d = (unsigned)(unsigned char)q[0] - '0';
	}
	if (d < 10) {
		id = id * 10 + d;
		q++;
	}
	/* 18 digits: under 2^63, spec_name's limit, without a check. */
	if (q == v + 1 || q - v > 19 || *q != ')') {
		return NULL;
	}
	q++;
	if (*q == '\n') {
		if (!idmap_get(&cg->ids[key_space(key)], id, &name)) {
			return NULL;
		}
	} else {
		if (*q != ' ' || q[1] == ' ' || q[1] == '\t' || q[1] == '\n') {
			return NULL;
		}
		const char *nl = memchr(q, '\n', (size_t)(last + 1 - q));
		if (nl[-1] == '\r') {
			return NULL;
		}
		name = define_name(cg, key_space(key), id, q + 1, (size_t)(nl - q - 1));
		q = nl;
	}
	set_name(cg, key, name, id);
	cg->line_no++;
	return q + 1;
}

/* "calls=COUNT ..." with a count of 1 to 19 digits: as calls_line reads it. */
static const char *
fast_calls_line(struct callgrind *cg, const char *v, const char *last)
{
	const char *q = skip_digits(v);
	if (q == v || q - v > 19 || cg->call_fn == NONE || cg->fn == NONE) {
		return NULL;
	}
	start_call(cg);
	cg->line_no++;
	/* The call's position is a few bytes: no call to memchr for them. */
	while (*q != '\n') {
		q++;
	}
	return q + 1;
}

/* Whether the line at p starts with lit (which has no newline). */
static bool
starts_with(const char *p, const char *lit)
{
	for (; *lit; p++, lit++) {
		if (*p != *lit) {
			return false;
		}
	}
	return true;
}

/* The line's first four bytes as one number, whatever the byte order. */
#define FOUR(a, b, c, d)                                                                           \
	((uint32_t)(unsigned char)(a) | (uint32_t)(unsigned char)(b) << 8 |                        \
	        (uint32_t)(unsigned char)(c) << 16 | (uint32_t)(unsigned char)(d) << 24)

/*
 * A line starting with a lower-case letter: a name or calls= line. The
 * usual keys are told by the line's first four bytes at once ("fn=(",
 * "cfn="), when the chunk has them.
 */
static const char *
fast_spec_line(struct callgrind *cg, const char *p, const char *last)
{
	if (cg->in_call) {
		return NULL; /* callgrind_line refuses it */
	}
	if (last - p >= 3) {
		switch (FOUR(p[0], p[1], p[2], p[3])) {
		case FOUR('f', 'n', '=', '('):
			return fast_name_line(cg, KEY_FN, p + 3, last);
		case FOUR('f', 'l', '=', '('):
			return fast_name_line(cg, KEY_FL, p + 3, last);
		case FOUR('f', 'i', '=', '('):
			return fast_name_line(cg, KEY_FI, p + 3, last);
		case FOUR('f', 'e', '=', '('):
			return fast_name_line(cg, KEY_FE, p + 3, last);
		case FOUR('o', 'b', '=', '('):
			return fast_name_line(cg, KEY_OB, p + 3, last);
		case FOUR('c', 'f', 'n', '='):
			return fast_name_line(cg, KEY_CFN, p + 4, last);
		case FOUR('c', 'f', 'i', '='):
			return fast_name_line(cg, KEY_CFI, p + 4, last);
		case FOUR('c', 'f', 'l', '='):
			return fast_name_line(cg, KEY_CFL, p + 4, last);
		case FOUR('c', 'o', 'b', '='):
			return fast_name_line(cg, KEY_COB, p + 4, last);
		case FOUR('c', 'a', 'l', 'l'):
			/* p[5] only when p[4] is not the newline. */
			return p[4] == 's' && p[5] == '=' ? fast_calls_line(cg, p + 6, last) : NULL;
		default:
			return NULL;
		}
	}
	/* Reads stop at the newline: p[2] only when p[1] is none, and so on. */
	const char *eq = p[1] == '\n'                  ? NULL
	                 : p[2] == '='                 ? p + 2
	                 : p[2] != '\n' && p[3] == '=' ? p + 3
	                                               : NULL;
	enum key key;
	if (eq && name_key(p, eq, &key)) {
		return fast_name_line(cg, key, eq + 1, last);
	}
	if (starts_with(p, "calls=")) {
		return fast_calls_line(cg, p + 6, last);
	}
	return NULL;
}

/*
 * Feeds the lines of [p, last], where *last is a newline; returns the byte
 * after last, or NULL when a line was refused.
 */
static const char *
feed_lines(struct callgrind *cg, const char *p, const char *last, struct diag *err)
{
	while (p <= last) {
		const char *next = NULL;
		if (is_position_start(*p)) {
			next = fast_cost_lines(cg, p, last);
		} else if (*p >= 'a' && *p <= 'z') {
			next = fast_spec_line(cg, p, last);
		}
		if (!next || next == p) {
			const char *nl = memchr(p, '\n', (size_t)(last + 1 - p));
			if (!callgrind_line(cg, p, (size_t)(nl - p), err)) {
				return NULL;
			}
			next = nl + 1;
		}
		p = next;
	}
	return p;
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
		const char *next = feed_lines(cg, data, last, err);
		if (!next) {
			return -1;
		}
		pos = (size_t)(next - data);
	}
	if (len - pos > MAX_LINE) {
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
	res->exact = true;
}

bool
callgrind_read(struct tree *t, enum folded_mode mode, struct source *src, const char *head,
        size_t head_len, const struct read_options *ro, struct read_result *res, struct diag *err)
{
	struct callgrind_options opt = {ro->event, ro->objects, ro->floor};
	struct callgrind_info info;
	struct callgrind *cg = create(source_name(src), &opt, t->names, true);
	cg->err = err;
	bool ok = source_parse(src, head, head_len, parse_chunk, cg, err) &&
	          callgrind_finish(cg, t, readers_side(mode), &info, err);
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
