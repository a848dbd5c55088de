/*
 * callgrind_fast: the callgrind reader's fast paths (see below), beside the
 * reader as the specification says it (callgrind.c), which they must agree
 * with line for line: tests/unit/test_callgrind.c reads every case through
 * both and compares.
 */
#include "callgrind_private.h"

#include <string.h>

#include "simd.h"
#include "xalloc.h"

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
	unsigned nl = simd_eq16(p, '\n');
	if (!nl) {
		return NULL;
	}
	unsigned end = nl & -nl; /* the newline's bit */
	unsigned line = (end - 1) & ~1u; /* the bytes after the first */
	unsigned blank = simd_eq16(p, ' ');
	unsigned blanks = blank & line;
	unsigned ok = simd_digits16(p) | blank;
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

/*
 * usual_cost, by short_cost when the 16 bytes from p are within the
 * chunk (last is its final newline) and the table is there.
 */
static inline __attribute__((always_inline)) const char *
usual_cost_in(
        const struct callgrind *cg, const char *p, const char *last, size_t single, uint64_t *v)
{
	if (SIMD_WIDE && last - p >= 15) {
		const char *nl = short_cost(cg, p, v);
		if (nl) {
			return nl;
		}
	}
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
	/*
	 * Where short_cost can read 16 bytes: one test of the room a line. Its
	 * counts are under 15 digits, so a sum under 2^63 stays in range. The
	 * loop below takes the rest of the run, from a line this one did not.
	 */
	while (SIMD_WIDE && wide && last - p >= 15 && is_position_start(*p) &&
	        all < (uint64_t)1 << 63) {
		uint64_t v;
		const char *nl = short_cost(cg, p, &v);
		if (!nl) {
			break;
		}
		all += v;
		count++;
		p = nl + 1;
	}
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
	if (SIMD_WIDE && wide && !cg->forms) {
		cg->forms = xcalloc(FORMS_SIZE, sizeof(*cg->forms));
	}
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
	callgrind_start_call(cg);
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

const char *
callgrind_feed(struct callgrind *cg, const char *p, const char *last, struct diag *err)
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
