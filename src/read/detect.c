#include "detect.h"

#include <stdint.h>
#include <string.h>

#include "flamegraph_svg.h"
#include "perf.h"

/*
 * Each test looks at the first chunk only and errs towards "folded": a
 * folded file is refused later anyway when most of its lines are malformed,
 * while a profile mistaken for folded would be drawn wrong.
 */

struct span {
	const char *p, *end;
};

static bool
starts(struct span s, const char *prefix)
{
	size_t n = strlen(prefix);
	return (size_t)(s.end - s.p) >= n && memcmp(s.p, prefix, n) == 0;
}

static bool
contains(struct span s, const char *needle)
{
	size_t n = strlen(needle);
	for (const char *q = s.p; (size_t)(s.end - q) >= n; q++) {
		q = memchr(q, needle[0], (size_t)(s.end - q) - n + 1);
		if (!q) {
			return false;
		}
		if (memcmp(q, needle, n) == 0) {
			return true;
		}
	}
	return false;
}

static bool
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

static struct span
skip_space(struct span s)
{
	while (s.p < s.end && is_space(*s.p)) {
		s.p++;
	}
	return s;
}

/* The next line of s (without its newline); s advances past it. */
static bool
next_line(struct span *s, struct span *line, bool whole)
{
	if (s->p >= s->end) {
		return false;
	}
	const char *nl = memchr(s->p, '\n', (size_t)(s->end - s->p));
	if (!nl && !whole) {
		return false; /* cut by the chunk: not judged */
	}
	line->p = s->p;
	line->end = nl ? nl : s->end;
	if (line->end > line->p && line->end[-1] == '\r') {
		line->end--;
	}
	s->p = nl ? nl + 1 : s->end;
	return true;
}

static bool
is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static enum input_format
magic(struct span s)
{
	static const struct {
		const char *bytes;
		size_t len;
		enum input_format f;
	} table[] = {
	        {"PERFILE2", 8, INPUT_PERF_DATA},
	        {"2ELIFREP", 8, INPUT_PERF_DATA},
	        {"PERFFILE", 8, INPUT_PERF_DATA},
	        {"FLR\0", 4, INPUT_JFR},
	        {"\x28\xb5\x2f\xfd", 4, INPUT_COMPRESSED}, /* zstd */
	        {"\xfd"
	         "7zXZ\0",
	                6, INPUT_COMPRESSED},
	        {"BZh", 3, INPUT_COMPRESSED},
	        {"\xff\xfe", 2, INPUT_UTF16},
	        {"\xfe\xff", 2, INPUT_UTF16},
	};
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
		size_t n = table[i].len;
		if ((size_t)(s.end - s.p) >= n && memcmp(s.p, table[i].bytes, n) == 0) {
			return table[i].f;
		}
	}
	return INPUT_FOLDED;
}

/* UTF-16 without a byte order mark: ASCII text with every other byte NUL. */
static bool
utf16_without_bom(struct span s)
{
	size_t n = (size_t)(s.end - s.p) & ~(size_t)1;
	if (n > 256) {
		n = 256;
	}
	if (n < 8) {
		return false;
	}
	size_t zero_even = 0, zero_odd = 0;
	for (size_t i = 0; i < n; i++) {
		if (s.p[i] == '\0') {
			if (i % 2) {
				zero_odd++;
			} else {
				zero_even++;
			}
		}
	}
	/* One half all NUL, the other (the ASCII) mostly not: not a run of NULs. */
	return (zero_even == n / 2 && zero_odd * 4 < n / 2) ||
	       (zero_odd == n / 2 && zero_even * 4 < n / 2);
}

/* Control bytes other than white space: many of them is not text. */
static bool
binary(struct span s)
{
	size_t n = (size_t)(s.end - s.p);
	if (n > 4096) {
		n = 4096;
	}
	size_t ctl = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s.p[i];
		ctl += c < 0x20 && !is_space((char)c);
	}
	/* A few control bytes in a short text are bad lines, not a binary file. */
	return ctl >= 8 && ctl * 10 > n;
}

/* Reads a protobuf varint; false when it runs past the end or is too long. */
static bool
varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	*v = 0;
	for (int shift = 0; shift < 64 && *p < end; shift += 7) {
		unsigned char b = *(*p)++;
		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			return true;
		}
	}
	return false;
}

/* Bytes no text holds (controls but tab, newline, CR, FF) among the first 64. */
static bool
has_binary_bytes(struct span s)
{
	size_t n = (size_t)(s.end - s.p) < 64 ? (size_t)(s.end - s.p) : 64;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s.p[i];
		if (c < 0x20 && !is_space((char)c)) {
			return true;
		}
	}
	return false;
}

/*
 * A protobuf message's fields, each a tag then a varint, a length and its
 * bytes, or 8 or 4 bytes: whether all of [p, end) is well formed.
 */
static bool
message(const unsigned char *p, const unsigned char *end)
{
	while (p < end) {
		uint64_t tag, v;
		if (!varint(&p, end, &tag) || tag >> 3 == 0) {
			return false;
		}
		switch (tag & 7) {
		case 0:
			if (!varint(&p, end, &v)) {
				return false;
			}
			break;
		case 1:
		case 5:
			if ((size_t)(end - p) < ((tag & 7) == 1 ? 8u : 4u)) {
				return false;
			}
			p += (tag & 7) == 1 ? 8 : 4;
			break;
		case 2:
			if (!varint(&p, end, &v) || v > (uint64_t)(end - p)) {
				return false;
			}
			p += v;
			break;
		default:
			return false;
		}
	}
	return true;
}

/*
 * The wire type of each of profile.proto's top-level fields (1 to 15):
 * 2 for messages, strings and packed lists, 0 for integers; comment (13)
 * may be packed or not.
 */
static bool
profile_field(uint64_t tag)
{
	static const unsigned char wire[16] = {
	        [1] = 2, [2] = 2, [3] = 2, [4] = 2, [5] = 2, [6] = 2, [11] = 2};
	uint64_t field = tag >> 3, type = tag & 7;
	if (field < 1 || field > 15) {
		return false;
	}
	return type == wire[field] || (field == 13 && type == 2);
}

/*
 * A ValueType (sample_type): type and unit, string indexes, as varints.
 * Every writer puts one near the start; a text whose bytes happen to read
 * as fields (ASCII letters are valid tags) rarely holds one.
 */
static bool
value_type(const unsigned char *p, const unsigned char *end)
{
	uint64_t tag, v;
	if (end - p < 2) {
		return false;
	}
	while (p < end) {
		if (!varint(&p, end, &tag) || (tag != 0x08 && tag != 0x10) ||
		        !varint(&p, end, &v)) {
			return false;
		}
	}
	return true;
}

/* Without a sample_type in the chunk, this many well-formed fields. */
#define PPROF_FIELDS 8

/* Of profile.proto's fields, the messages whose bytes are checked too. */
static bool
submessage(uint64_t field)
{
	return (field >= 1 && field <= 5) || field == 11;
}

/*
 * pprof's Profile, in any field order (Go writes time_nanos first, some
 * writers a mapping): every field of the chunk is one of profile.proto's
 * with its wire type, every message among them is well formed, and one is
 * a sample_type. The walk stops at a field the chunk (or a truncation)
 * cuts.
 */
static bool
pprof(struct span s)
{
	const unsigned char *p = (const unsigned char *)s.p, *end = (const unsigned char *)s.end;
	if (p >= end || !has_binary_bytes(s)) {
		return false; /* a text starting with an empty line starts with 0x0a too */
	}
	int fields = 0;
	bool typed = false; /* a sample_type seen, well formed */
	while (p < end) {
		uint64_t tag, v;
		if (!varint(&p, end, &tag) || !profile_field(tag) || !varint(&p, end, &v)) {
			return p >= end && (typed || fields >= PPROF_FIELDS);
		}
		if ((tag & 7) == 2) {
			/* A field cut by the chunk, or by a truncated file: the
			 * reader says which. */
			if (v > (uint64_t)(end - p)) {
				return typed || fields >= PPROF_FIELDS;
			}
			if ((tag >> 3 == 1 && !value_type(p, p + v)) ||
			        (submessage(tag >> 3) && !message(p, p + v))) {
				return false;
			}
			typed |= tag >> 3 == 1;
			p += v;
		}
		fields++;
	}
	return typed || fields >= PPROF_FIELDS;
}

static enum input_format
json_kind(struct span s)
{
	if (contains(s, "\"dhatFileVersion\"")) {
		return INPUT_DHAT;
	}
	/* A trace may name speedscope (a URL, a tool): its keys come first. */
	if (contains(s, "\"traceEvents\"") || contains(s, "\"ph\":") || contains(s, "\"ph\": ")) {
		return INPUT_CHROME_TRACE;
	}
	if (contains(s, "speedscope")) {
		return INPUT_SPEEDSCOPE;
	}
	/* Firefox's old DevTools performance panel: a raw Gecko profile inside. */
	if (contains(s, "\"allocations\"") && contains(s, "\"ticks\"") &&
	        contains(s, "\"profile\"")) {
		return INPUT_FIREFOX_DEVTOOLS;
	}
	if (contains(s, "\"meta\"") &&
	        (contains(s, "\"threads\"") || contains(s, "\"processes\"") ||
	                contains(s, "\"interval\""))) {
		return INPUT_GECKO;
	}
	if (contains(s, "\"callFrame\"") || contains(s, "\"timeDeltas\"")) {
		return INPUT_CPUPROFILE;
	}
	return INPUT_JSON;
}

/*
 * JSON starts with '{' then a key or '}', or '[' then a value. A folded
 * stack may start with '[' too ("[unknown];main 3"), but not like that.
 */
static bool
json(struct span s)
{
	s = skip_space(s);
	if (s.p >= s.end || (*s.p != '{' && *s.p != '[')) {
		return false;
	}
	char open = *s.p++;
	s = skip_space(s);
	if (s.p >= s.end) {
		return true;
	}
	char c = *s.p;
	return open == '{' ? c == '"' || c == '}' : c == '{' || c == '[' || c == '"' || c == ']';
}

static bool
markup(struct span s)
{
	s = skip_space(s);
	return starts(s, "<?xml") || starts(s, "<svg") || starts(s, "<!DOCTYPE") ||
	       starts(s, "<!doctype") || starts(s, "<html") || starts(s, "<HTML");
}

static bool
header_key(struct span line, const char *const *keys)
{
	for (size_t i = 0; keys[i]; i++) {
		if (starts(line, keys[i])) {
			return true;
		}
	}
	return false;
}

/*
 * callgrind (and cachegrind, its subset): "# callgrind format", or a
 * header of its keys with an `events:` line followed by position lines.
 */
static bool
callgrind(struct span s, bool whole)
{
	static const char *const keys[] = {"version:", "creator:", "pid:", "cmd:", "part:", "desc:",
	        "positions:", "events:", "event:", "summary:", "totals:", "thread:", "timeframe",
	        "trigger:", NULL};
	static const char *const body[] = {"fl=", "fn=", "ob=", "fi=", "fe=", NULL};
	if (starts(s, "# callgrind format")) {
		return true;
	}
	bool events = false;
	struct span line;
	while (next_line(&s, &line, whole)) {
		if (line.p == line.end || *line.p == '#') {
			continue;
		}
		if (header_key(line, body)) {
			return events;
		}
		if (!header_key(line, keys)) {
			return false;
		}
		events |= starts(line, "events:");
	}
	return false;
}

/* GHC's profiling report (+RTS -p): a header then COST CENTRE columns. */
static bool
ghc_prof(struct span s)
{
	return contains(s, "Time and Allocation Profiling Report") && contains(s, "\nCOST CENTRE");
}

/*
 * DTrace's printa of stack aggregations: indented frames `module`function`,
 * each stack followed by its count alone on an indented line.
 */
static bool
dtrace(struct span s, bool whole)
{
	struct span line;
	bool frame = false, count = false;
	for (int n = 0; n < 64 && next_line(&s, &line, whole); n++) {
		struct span t = skip_space(line);
		if (t.p == line.p || t.p == t.end) {
			continue;
		}
		const char *q = t.p;
		while (q < t.end && !is_space(*q) && *q != '`') {
			q++;
		}
		frame |= q < t.end && *q == '`' && q > t.p;
		bool digits = true;
		for (q = t.p; q < t.end && digits; q++) {
			digits = *q >= '0' && *q <= '9';
		}
		count |= digits && frame;
	}
	return frame && count;
}

/* massif's out file: desc:, cmd:, time_unit:, then snapshot blocks. */
static bool
massif(struct span s)
{
	return starts(s, "desc:") && contains(s, "\ntime_unit:") &&
	       (contains(s, "\nsnapshot=") || contains(s, "\n#-----------"));
}

/* heaptrack's raw data: "v VERSION FILEVERSION", then one-letter records. */
static bool
heaptrack(struct span s)
{
	struct span line;
	if (!next_line(&s, &line, true) || !starts(line, "v ")) {
		return false;
	}
	for (const char *q = line.p + 2; q < line.end; q++) {
		if (!is_hex(*q) && *q != ' ') {
			return false;
		}
	}
	return true;
}

/*
 * A `perf script` stack line: a hex address of any width (`d70` in a small
 * binary), then a symbol; indented, or else ending in its `(dso)`, as old
 * perf versions print frames flush left.
 */
static bool
perf_frame(struct span line)
{
	const char *q = line.p;
	while (q < line.end && is_space(*q)) {
		q++;
	}
	bool indented = q > line.p;
	const char *hex = q;
	while (q < line.end && is_hex(*q)) {
		q++;
	}
	if (q == hex || q == line.end || (*q != ' ' && *q != '\t')) {
		return false;
	}
	while (q < line.end && is_space(*q)) {
		q++;
	}
	/* A symbol follows; flush left, a `(dso)` ends the line too. */
	return q < line.end && (indented || (line.end - q > 3 && line.end[-1] == ')'));
}

/*
 * perf script's first sample comes right after its '#' header: a few lines
 * are enough, and a folded file (whose lines can be long) is not scanned
 * to the end of the chunk.
 */
#define PERF_LINES 16

/*
 * A sample header (perf.c's grammar, every -F selection) followed by a
 * stack line. Without call chains perf script prints a sample a line, its
 * frame after the event: `cmd 1 [000] 1.5: 1 cycles:  4005d6 main+0x16
 * (/bin/prog)`; such a line is no folded stack, which ends in a count.
 */
static bool
perf_script(struct span s, bool whole)
{
	struct span line;
	bool header = false, weak = false;
	int seen = 0, oneline = 0;
	/* perf script --header's banner: its '#' lines can fill the window. */
	if (starts(s, "# ========\n# captured on")) {
		return true;
	}
	while (seen < PERF_LINES && next_line(&s, &line, whole)) {
		if (line.p < line.end && *line.p == '#') {
			continue;
		}
		/* After `COMM TID` alone, which a folded line can be too, only an
		 * indented frame with its `(dso)`. */
		if (header && perf_frame(line) &&
		        (!weak || (is_space(*line.p) && line.end[-1] == ')'))) {
			return true;
		}
		/* A blank line after a header is malformed perf script, which the
		 * perf reader refuses with its line, not a folded file. */
		if (header && line.p == line.end) {
			continue;
		}
		bool one = false;
		header = line.p < line.end &&
		         perf_line_is_header(line.p, (size_t)(line.end - line.p), &one, &weak);
		oneline += header && one;
		seen++;
	}
	/*
	 * The window can end inside the first stack line (a template name of
	 * 64 KiB): its start, an indented address and a symbol, says.
	 */
	if (header && !weak && !whole && seen < PERF_LINES && next_line(&s, &line, true) &&
	        line.p < line.end && is_space(*line.p) && perf_frame(line)) {
		return true;
	}
	/* Two such lines, or the whole file. */
	return oneline >= 2 || (oneline == 1 && seen == 1 && whole);
}

/*
 * A frame line as perf script prints it under a sample: a tab, the
 * address right-aligned in 16 columns, a space and a symbol. No folded
 * line starts so.
 */
static bool
perf_frame_strict(struct span line)
{
	if (line.end - line.p < 19 || line.p[0] != '\t') {
		return false;
	}
	const char *q = line.p + 1, *field_end = line.p + 17;
	while (q < field_end && *q == ' ') {
		q++;
	}
	if (q == field_end) {
		return false;
	}
	for (; q < field_end; q++) {
		if (!is_hex(*q)) {
			return false;
		}
	}
	return *q == ' ' && q + 1 < line.end && !is_space(q[1]);
}

/*
 * Samples whose header says too little to be told from a folded line
 * (-F comm,tid,ip,sym; -F pid,ip,sym; the header empty with -F ip,sym) are
 * known by the shape of the whole sample: a header (empty, perf's grammar
 * or a command alone), perf's frame lines, then a blank line; what perf
 * prints under a frame (+srcline, +insn) is indented by spaces. Two such
 * samples, or the whole file.
 */
static bool
perf_samples(struct span s, bool whole)
{
	enum { EXPECT_HEADER, HEADER, FRAMES } state = EXPECT_HEADER;
	int samples = 0;
	/* The blank line that ended a sample may be the next one's empty
	 * header: +insnlen prints its ` ilen:` line with no blank after. */
	bool blank_ended = false, after_blank;
	struct span line;
	while (samples < 2 && next_line(&s, &line, whole)) {
		after_blank = blank_ended;
		blank_ended = false;
		/* Trailing blanks: perf pads the fields (-F +flags). */
		while (line.end > line.p && is_space(line.end[-1])) {
			line.end--;
		}
		size_t len = (size_t)(line.end - line.p);
		bool empty = len == 0;
		/* A sample ends with a blank line, or with the next header
		 * (+insn prints no blank line). */
		if (state == FRAMES && (empty || !is_space(line.p[0]))) {
			samples++;
			state = EXPECT_HEADER;
			blank_ended = empty;
			if (empty || samples == 2) {
				continue;
			}
		}
		if ((state != EXPECT_HEADER || after_blank) && perf_frame_strict(line)) {
			state = FRAMES;
		} else if ((state == FRAMES && line.p[0] == ' ') ||
		           (state != FRAMES && !empty && perf_aside(line.p, len))) {
			/* A source line, instruction bytes; perf's comments, source
			 * code (+srccode). */
			continue;
		} else if (state == EXPECT_HEADER) {
			/* Empty, perf's grammar (-F period: right-aligned), or a
			 * command alone (flush left, 15 bytes at most). */
			bool one, weak;
			if (!empty && (is_space(line.p[0]) || len > 15) &&
			        !perf_line_is_header(line.p, len, &one, &weak)) {
				return false;
			}
			state = HEADER;
		} else if (!(state == HEADER && empty)) {
			return false;
		}
	}
	/* The file may end without the last sample's blank line. */
	samples += state == FRAMES && whole && s.p >= s.end;
	return samples == 2 || (samples == 1 && whole && s.p >= s.end && state != HEADER);
}

/*
 * gperftools' and Go's legacy profiles: the binary CPU profile (a header
 * of 0, 3, 0 in 32- or 64-bit words) or the text ones, whose first line
 * names the kind ("heap profile:", "--- contentionz").
 */
static bool
pprof_legacy(struct span s)
{
	static const unsigned char cpu64[16] = {0, 0, 0, 0, 0, 0, 0, 0, 3};
	static const unsigned char cpu32[8] = {0, 0, 0, 0, 3};
	static const char *const text[] = {"heap profile:", "--- heapz", "--- contention",
	        "--- threadz", "threadcreate profile:", "goroutine profile:", "--- heap",
	        "--- mutex", "--- block", NULL};
	size_t n = (size_t)(s.end - s.p);
	if ((n >= 16 && memcmp(s.p, cpu64, 16) == 0) || (n >= 8 && memcmp(s.p, cpu32, 8) == 0)) {
		return true;
	}
	return header_key(s, text);
}

enum input_format
detect_format(const char *data, size_t len, bool whole)
{
	struct span s = {data, data + len};
	enum input_format f = magic(s);
	if (f != INPUT_FOLDED) {
		return f;
	}
	if (utf16_without_bom(s)) {
		return INPUT_UTF16;
	}
	if (pprof(s)) {
		return INPUT_PPROF;
	}
	if (pprof_legacy(s)) {
		return INPUT_PPROF_LEGACY;
	}
	if (binary(s)) {
		return INPUT_BINARY;
	}
	if (starts(s, "\xef\xbb\xbf")) {
		s.p += 3; /* a UTF-8 byte order mark */
	}
	if (json(s)) {
		return json_kind(s);
	}
	if (markup(s)) {
		return flamegraph_svg_detect(data, len) ? INPUT_FLAMEGRAPH : INPUT_MARKUP;
	}
	if (callgrind(s, whole)) {
		return INPUT_CALLGRIND;
	}
	if (massif(s)) {
		return INPUT_MASSIF;
	}
	if (heaptrack(s)) {
		return INPUT_HEAPTRACK;
	}
	if (ghc_prof(s)) {
		return INPUT_GHC_PROF;
	}
	if (starts(s, "Analysis of sampling ")) {
		return INPUT_MACOS_SAMPLE;
	}
	if (starts(s, "Function Stack,")) {
		return INPUT_VTUNE_CSV;
	}
	if (starts(s, "Level,Function Name,")) {
		return INPUT_VSPROF_CSV;
	}
	if (dtrace(s, whole)) {
		return INPUT_DTRACE;
	}
	if (perf_script(s, whole) || perf_samples(s, whole)) {
		return INPUT_PERF_SCRIPT;
	}
	return INPUT_FOLDED;
}

static const struct {
	const char *name;
	const char *advice; /* NULL: a reader reads it (readers.c) */
} formats[] = {
        [INPUT_FOLDED] = {"folded stacks", NULL},
        [INPUT_CALLGRIND] = {"callgrind", NULL},
        [INPUT_PERF_DATA] = {"perf.data (perf record's binary file)",
                "turn it into text first: perf script -i FILE > FILE.perf, and give difffold "
                "FILE.perf"},
        [INPUT_PERF_SCRIPT] = {"perf script output", NULL},
        [INPUT_PPROF] = {"pprof (profile.proto)", NULL},
        [INPUT_PPROF_LEGACY] = {"a legacy pprof profile (gperftools, or Go's debug text)",
                "convert it to profile.proto with pprof: pprof -proto FILE > FILE.pb.gz (give "
                "pprof the program too, to name the addresses: pprof -proto PROGRAM FILE)"},
        [INPUT_SPEEDSCOPE] = {"speedscope JSON", NULL},
        [INPUT_GECKO] = {"Firefox Profiler JSON (samply, Gecko)", NULL},
        [INPUT_CHROME_TRACE] = {"Chrome trace event JSON",
                "load it in the Firefox Profiler (profiler.firefox.com imports Chrome traces) "
                "and save it from there: difffold reads the processed profile it saves"},
        [INPUT_FIREFOX_DEVTOOLS] = {"a Firefox DevTools performance export",
                "open it in the Firefox Profiler (profiler.firefox.com imports it) and save it "
                "from there: difffold reads the processed profile it saves"},
        [INPUT_GHC_PROF] = {"a GHC profiling report (.prof)",
                "fold it first: inferno-collapse-ghcprof FILE > FILE.folded, or "
                "ghc-prof-flamegraph"},
        [INPUT_MACOS_SAMPLE] = {"macOS sample output",
                "fold it first: inferno-collapse-sample FILE > FILE.folded (or FlameGraph's "
                "stackcollapse-sample.awk)"},
        [INPUT_VTUNE_CSV] = {"Intel VTune call stacks (CSV)",
                "fold it first: inferno-collapse-vtune FILE > FILE.folded"},
        [INPUT_VSPROF_CSV] = {"a Visual Studio call tree summary (CSV)",
                "fold it first: inferno-collapse-vsprof FILE > FILE.folded"},
        [INPUT_DTRACE] = {"DTrace stack aggregations",
                "fold it first: stackcollapse.pl FILE > FILE.folded (FlameGraph), or "
                "inferno-collapse-dtrace FILE > FILE.folded"},
        [INPUT_CPUPROFILE] = {"Chrome/V8 .cpuprofile JSON",
                "load it in the Firefox Profiler (profiler.firefox.com imports it) and save it "
                "from there: difffold reads the processed profile it saves"},
        [INPUT_DHAT] = {"DHAT JSON (valgrind --tool=dhat)", NULL},
        [INPUT_JSON] = {"JSON",
                "difffold reads speedscope, Firefox Profiler and DHAT JSON (--input-format "
                "speedscope, gecko or dhat reads a file not recognised as one); "
                "for difffold's own -f json output, write -f folded instead"},
        [INPUT_MASSIF] = {"valgrind massif output", NULL},
        [INPUT_HEAPTRACK] = {"heaptrack data",
                "fold it first: heaptrack_print -F FILE.folded FILE"},
        [INPUT_JFR] = {"Java Flight Recorder (JFR)",
                "fold it first: async-profiler's converter (jfrconv --collapsed) or jfr print"},
        [INPUT_UTF16] = {"UTF-16 text",
                "convert it to UTF-8 first: iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8"},
        [INPUT_FLAMEGRAPH] = {"a flame graph (flamegraph.pl, inferno, difffold or async-profiler)",
                NULL},
        [INPUT_MARKUP] = {"SVG/HTML/XML (a drawn graph, not a profile)",
                "give difffold the profiles the graph was drawn from"},
        [INPUT_COMPRESSED] = {"compressed data (zstd, xz or bzip2)",
                "decompress it first (zstd -d, xz -d or bzip2 -d); difffold reads gzip itself. "
                "A heaptrack recording (heaptrack.*.zst) is folded by heaptrack_print, which "
                "reads it compressed: heaptrack_print -F FILE.folded FILE"},
        [INPUT_BINARY] = {"binary data",
                "difffold reads folded stacks (`frame;frame;frame COUNT` lines) and the "
                "formats of its readers: READERS (--input-format NAME reads a file as one)"},
};

const char *
detect_format_name(enum input_format f)
{
	return formats[f].name;
}

const char *
detect_advice(enum input_format f)
{
	return formats[f].advice;
}
