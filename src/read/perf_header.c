/*
 * perf_header: the grammar of a perf script sample's header line, in every
 * field selection of perf script -F, for the reader (perf.c) and for
 * detect.c (perf_line_is_header); the lines perf prints beside samples.
 */
#include "perf.h"
#include "perf_private.h"

#include <string.h>

bool
perf_next_token(const char **p, const char *end, struct span *tok)
{
	const char *q = *p;
	while (q < end && is_space(*q)) {
		q++;
	}
	tok->p = q;
	while (q < end && !is_space(*q)) {
		q++;
	}
	tok->len = (size_t)(q - tok->p);
	*p = q;
	return tok->len > 0;
}

static bool
all_digits(struct span s)
{
	for (size_t i = 0; i < s.len; i++) {
		if (!is_digit(s.p[i])) {
			return false;
		}
	}
	return s.len > 0;
}

/* The thread: `TID` or `PID/TID`. */
static bool
is_pid(struct span s)
{
	const char *slash = memchr(s.p, '/', s.len);
	if (!slash) {
		return all_digits(s);
	}
	return all_digits((struct span){s.p, (size_t)(slash - s.p)}) &&
	       all_digits((struct span){slash + 1, s.len - 1 - (size_t)(slash - s.p)});
}

static bool
is_cpu(struct span s)
{
	return s.len > 2 && s.p[0] == '[' && s.p[s.len - 1] == ']' &&
	       all_digits((struct span){s.p + 1, s.len - 2});
}

/* `SECONDS.FRACTION:`, the time stamp. */
static bool
is_time(struct span s)
{
	if (s.len < 4 || s.p[s.len - 1] != ':') {
		return false;
	}
	const char *dot = memchr(s.p, '.', s.len);
	return dot && all_digits((struct span){s.p, (size_t)(dot - s.p)}) &&
	       all_digits((struct span){dot + 1, (size_t)(s.p + s.len - 2 - dot)});
}

/*
 * The misc field (-F +misc): a letter a bit of the record's misc flags,
 * K U H G g M E S, `Sp` for a preempting switch out.
 */
static bool
is_misc(struct span s)
{
	size_t n = 0;
	while (n < s.len && s.p[n] && strchr("KUHGgMESp", s.p[n])) {
		n++;
	}
	return n == s.len && n > 0 && n <= 8;
}

/* An event's name as perf prints it: `cycles:u:`, `sched:sched_switch:`. */
static bool
is_event(struct span s)
{
	return s.len >= 2 && s.p[s.len - 1] == ':' && !is_time(s);
}

/* The tokens a header is judged by: its fields come early in the line. */
#define HEADER_TOKENS 24

/*
 * The fields perf script prints after the command, in its order, each
 * there or not as -F chose: `[PID/]TID [CPU] MISC TIME: PERIOD EVENT:`, from
 * tok[i]; at least one of them, and words after them only after an
 * event (a frame, a tracepoint's fields). False if tok[i..n) is not that.
 */
static bool
header_fields(const struct span *tok, size_t i, size_t n, const char *end, struct header *h)
{
	size_t first = i;
	i += i < n && is_pid(tok[i]);
	i += i < n && is_cpu(tok[i]);
	i += i < n && is_misc(tok[i]);
	h->has_time = i < n && is_time(tok[i]);
	i += h->has_time;
	h->has_period = false;
	if (i < n && all_digits(tok[i])) {
		const char *why;
		h->has_period = count_parse(tok[i].p, tok[i].len, &h->period, &why);
		if (!h->has_period) {
			return false;
		}
		i++;
	}
	h->event = (struct span){"", 0};
	if (i < n && is_event(tok[i])) {
		h->event = (struct span){tok[i].p, tok[i].len - 1};
		i++;
	}
	if (i == first || (i < n && h->event.len == 0)) {
		return false;
	}
	h->rest = i < n ? (struct span){tok[i].p, (size_t)(end - tok[i].p)} : (struct span){end, 0};
	return true;
}

/*
 * `COMM [PID/]TID [CPU] MISC TIME: [PERIOD] EVENT: [rest]` with any of the
 * fields left out (perf script -F), the command too, where COMM may hold
 * spaces: the command is the fewest words (none first: a line that starts
 * with a thread reads as one without the command) after which the rest
 * reads as the fields. rest is the frame when perf recorded no call chain,
 * or a tracepoint's fields. A line of the command alone is no header here:
 * the reader takes it as one only where a sample's header must be
 * (command_only).
 */
bool
perf_parse_header(const char *s, size_t len, struct header *h)
{
	const char *end = s + len, *p = s;
	struct span tok[HEADER_TOKENS];
	size_t n = 0;
	while (n < HEADER_TOKENS && perf_next_token(&p, end, &tok[n])) {
		n++;
	}
	for (size_t c = 0; c < n; c++) {
		if (header_fields(tok, c, n, end, h)) {
			h->comm = c == 0 ? (struct span){s, 0}
			                 : (struct span){
			                           tok[0].p, (size_t)(tok[c - 1].p +
			                                              tok[c - 1].len - tok[0].p)};
			/* A line of more words is a header only up to its event. */
			return n < HEADER_TOKENS || h->event.len;
		}
	}
	return false;
}

bool
perf_line_is_header(const char *s, size_t len, bool *one_line, bool *weak)
{
	struct header h;
	if (!perf_parse_header(s, len, &h)) {
		return false;
	}
	*weak = !h.event.len && !h.has_time;
	/* The frame: an address, a symbol, its `(dso)`. */
	size_t hex = 0;
	while (hex < h.rest.len && hex_value(h.rest.p[hex]) >= 0) {
		hex++;
	}
	*one_line = h.event.len && hex && hex < h.rest.len && is_space(h.rest.p[hex]) &&
	            h.rest.p[h.rest.len - 1] == ')';
	return true;
}

bool
perf_aside(const char *s, size_t len)
{
	size_t lead = 0;
	while (lead < len && is_space(s[lead])) {
		lead++;
	}
	if (lead > 0 && len - lead >= 5 &&
	        (memcmp(s + lead, "ilen:", 5) == 0 || memcmp(s + lead, "insn:", 5) == 0)) {
		return true; /* +insnlen, +insn: also after a sample with no frames */
	}
	return (lead < len && s[lead] == '#') || (len > 1 && s[0] == '|' && is_digit(s[1]));
}
