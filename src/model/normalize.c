/*
 * normalize: the volatile-name rules (see normalize.h). Each rule is a
 * scanner over the name's bytes: a trigger byte found with memchr, then a
 * check of what follows it. A rule runs only when the name holds a pair of
 * bytes its matches begin with (normalize_rules_possible), so a name no
 * rule concerns costs one walk of its bytes. None allocates but through
 * the output buffer.
 */
#include "normalize.h"

#include <ctype.h>
#include <string.h>

/*
 * A match at s[i] (whose byte is the rule's trigger): its length, 0 for
 * none, and the bytes that replace it.
 */
typedef size_t (*match_fn)(const char *s, size_t len, size_t i, const char **repl, size_t *rlen);

/* ctype's, for bytes (a name's char may be negative), as run_of takes them. */
static bool
is_hex(char c)
{
	return isxdigit((unsigned char)c) != 0;
}

static bool
is_digit(char c)
{
	return isdigit((unsigned char)c) != 0;
}

static bool
is_word(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static size_t
run_of(const char *s, size_t len, size_t i, bool (*cls)(char))
{
	size_t j = i;
	while (j < len && cls(s[j])) {
		j++;
	}
	return j - i;
}

static bool
starts(const char *s, size_t len, size_t i, const char *word)
{
	size_t n = strlen(word);
	return len - i >= n && memcmp(s + i, word, n) == 0;
}

/* The next byte of triggers at or after s[i], or len. */
static size_t
next_trigger(const char *s, size_t len, size_t i, const char *triggers)
{
	const char *p = memchr(s + i, triggers[0], len - i);
	for (const char *t = triggers + 1; *t; t++) {
		const char *q = memchr(s + i, *t, (size_t)((p ? p : s + len) - (s + i)));
		p = q ? q : p;
	}
	return p ? (size_t)(p - s) : len;
}

/*
 * Every match of m in s, replaced; the rest copied. Nothing is written
 * when nothing matches: most names meet no rule, and are not copied.
 */
static bool
rewrite(const char *s, size_t len, struct buf *out, const char *triggers, match_fn m)
{
	bool changed = false;
	size_t i = 0, from = 0;
	while ((i = next_trigger(s, len, i, triggers)) < len) {
		const char *r = "";
		size_t rl = 0;
		size_t ml = m(s, len, i, &r, &rl);
		if (ml == 0) {
			i++;
			continue;
		}
		buf_add(out, s + from, i - from);
		buf_add(out, r, rl);
		i += ml;
		from = i;
		changed = true;
	}
	if (changed) {
		buf_add(out, s + from, len - from);
	}
	return changed;
}

/* A rule that is one scanner: every match of it replaced (see rewrite). */
#define SCANNER_RULE(scanner, triggers)                                                            \
	static bool rule_##scanner(const char *s, size_t len, struct buf *out)                     \
	{                                                                                          \
		return rewrite(s, len, out, triggers, scanner);                                    \
	}

/* Rust legacy mangling: "::h" and 16 hex digits, a hash of the crate's build. */
static size_t
rust_hash(const char *s, size_t len, size_t i, const char **repl, size_t *rlen)
{
	(void)repl;
	(void)rlen;
	if (len - i < 19 || s[i + 1] != ':' || s[i + 2] != 'h') {
		return 0;
	}
	if (run_of(s, i + 19, i + 3, is_hex) != 16 || (i + 19 < len && is_word(s[i + 19]))) {
		return 0;
	}
	return 19;
}

SCANNER_RULE(rust_hash, ":")

/*
 * "{closure#3}" (Rust v0) and "{lambda(int)#2}" (GCC): the number counts
 * closures in their function, so adding one renumbers the others.
 */
static size_t
closure_number(const char *s, size_t len, size_t i, const char **repl, size_t *rlen)
{
	size_t d = run_of(s, len, i + 1, is_digit);
	if (d == 0 || i + 1 + d >= len || s[i + 1 + d] != '}') {
		return 0;
	}
	size_t open = i;
	while (open > 0 && s[open - 1] != '{' && s[open - 1] != '}') {
		open--;
	}
	if (open == 0 || s[open - 1] != '{') {
		return 0;
	}
	if (!starts(s, len, open, "closure") && !starts(s, len, open, "lambda")) {
		return 0;
	}
	*repl = "#";
	*rlen = 1;
	return 1 + d;
}

SCANNER_RULE(closure_number, "#")

/* " [clone .isra.0]", as c++filt prints GCC's clone suffixes. */
static size_t
clone_bracket(const char *s, size_t len, size_t i, const char **repl, size_t *rlen)
{
	(void)repl;
	(void)rlen;
	if (!starts(s, len, i, " [clone .")) {
		return 0;
	}
	const char *end = memchr(s + i, ']', len - i);
	return end ? (size_t)(end - s) + 1 - i : 0;
}

/* The same suffixes undemangled: "foo.isra.0", "foo.cold", "foo.llvm.1234". */
static const char *const clone_words[] = {
        ".isra", ".constprop", ".part", ".cold", ".lto_priv", ".llvm", ".localalias"};

static size_t
strip_clone_suffixes(const char *s, size_t len)
{
	for (;;) {
		size_t n = len;
		size_t d = 0;
		while (d < n && is_digit(s[n - 1 - d])) {
			d++;
		}
		if (d > 0 && d < n && s[n - 1 - d] == '.') {
			n -= d + 1;
		}
		size_t k = 0;
		for (; k < sizeof(clone_words) / sizeof(clone_words[0]); k++) {
			size_t w = strlen(clone_words[k]);
			if (n > w && memcmp(s + n - w, clone_words[k], w) == 0) {
				n -= w;
				break;
			}
		}
		if (k == sizeof(clone_words) / sizeof(clone_words[0])) {
			return len;
		}
		len = n;
	}
}

static bool
rule_gcc_clone(const char *s, size_t len, struct buf *out)
{
	size_t start = out->len;
	if (!rewrite(s, len, out, " ", clone_bracket)) {
		size_t n = strip_clone_suffixes(s, len);
		buf_add(out, s, n);
		return n != len;
	}
	bool changed = true;
	size_t n = strip_clone_suffixes(out->data + start, out->len - start);
	if (n != out->len - start) {
		buf_setlen(out, start + n);
		changed = true;
	}
	return changed;
}

/*
 * An anonymous namespace as GCC's old mangling ("_GLOBAL__N_a.cc_1F2E3D4C",
 * with a random part), its "_GLOBAL__N_1" and the "{anonymous}" of some
 * demanglers: all one namespace.
 */
static size_t
anonymous_namespace(const char *s, size_t len, size_t i, const char **repl, size_t *rlen)
{
	size_t n = 0;
	if (starts(s, len, i, "{anonymous}")) {
		n = 11;
	} else if (starts(s, len, i, "_GLOBAL__N_")) {
		n = 11;
		while (i + n < len && s[i + n] != ':' && s[i + n] != ' ' && s[i + n] != ';') {
			n++;
		}
	} else {
		return 0;
	}
	*repl = "(anonymous namespace)";
	*rlen = strlen(*repl);
	return n;
}

SCANNER_RULE(anonymous_namespace, "{_")

/* Go's closures: "pkg.f.func2", "pkg.f.gowrap1", "pkg.f.deferwrap1". */
static size_t
go_closure(const char *s, size_t len, size_t i, const char **repl, size_t *rlen)
{
	static const char *const words[] = {".func", ".gowrap", ".deferwrap"};
	for (size_t k = 0; k < sizeof(words) / sizeof(words[0]); k++) {
		size_t w = strlen(words[k]);
		if (!starts(s, len, i, words[k])) {
			continue;
		}
		size_t d = run_of(s, len, i + w, is_digit);
		if (d == 0 || (i + w + d < len && is_word(s[i + w + d]))) {
			return 0;
		}
		*repl = words[k];
		*rlen = w;
		return w + d;
	}
	return 0;
}

SCANNER_RULE(go_closure, ".")

/*
 * Java's lambdas: the class "Foo$$Lambda$123/0x0000000800c0b000" (or
 * "$$Lambda/0x..." since JDK 21) is numbered and placed per run, the method
 * "lambda$run$4" numbered per class.
 */
static size_t
java_lambda(const char *s, size_t len, size_t i, const char **repl, size_t *rlen)
{
	if (starts(s, len, i, "$$Lambda")) {
		size_t j = i + 8;
		if (j < len && s[j] == '$') {
			j += 1 + run_of(s, len, j + 1, is_digit);
		}
		if (j + 2 < len && (s[j] == '/' || s[j] == '.') && s[j + 1] == '0' &&
		        s[j + 2] == 'x') {
			j += 3 + run_of(s, len, j + 3, is_hex);
		}
		if (j == i + 8) {
			return 0;
		}
		*repl = "$$Lambda";
		*rlen = 8;
		return j - i;
	}
	/* "$4" closing "lambda$name$4": the "$" before digits and an end of word. */
	size_t d = run_of(s, len, i + 1, is_digit);
	if (d == 0 || (i + 1 + d < len && is_word(s[i + 1 + d]))) {
		return 0;
	}
	size_t b = i;
	while (b > 0 && s[b - 1] != '$' && s[b - 1] != '.' && s[b - 1] != ' ') {
		b--;
	}
	if (b < 7 || s[b - 1] != '$' || memcmp(s + b - 7, "lambda$", 7) != 0) {
		return 0;
	}
	*repl = "$";
	*rlen = 1;
	return 1 + d;
}

SCANNER_RULE(java_lambda, "$")

/*
 * V8's tier marks after the type: "LazyCompile:*f" (optimised) is
 * "LazyCompile:~f" (interpreted) after the optimiser ran.
 */
static size_t
v8_tier(const char *s, size_t len, size_t i, const char **repl, size_t *rlen)
{
	(void)repl;
	(void)rlen;
	char m = i + 1 < len ? s[i + 1] : '\0';
	if (m != '*' && m != '~' && m != '^' && m != '+') {
		return 0;
	}
	static const char *const kinds[] = {"LazyCompile", "Function", "JS", "Script"};
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		size_t w = strlen(kinds[k]);
		if (i >= w && memcmp(s + i - w, kinds[k], w) == 0 &&
		        (i == w || !is_word(s[i - w - 1]))) {
			*repl = ":";
			*rlen = 1;
			return 2;
		}
	}
	return 0;
}

SCANNER_RULE(v8_tier, ":")

/* perf's JIT maps carry the process id: "/tmp/perf-10939.map", "jitted-10939-7.so". */
static size_t
process_id(const char *s, size_t len, size_t i, const char **repl, size_t *rlen)
{
	size_t d = run_of(s, len, i + 1, is_digit);
	if (d == 0 || i < 4) {
		return 0;
	}
	if (memcmp(s + i - 4, "perf", 4) == 0 && starts(s, len, i + 1 + d, ".map")) {
		*repl = "-";
		*rlen = 1;
		return 1 + d;
	}
	if (i >= 6 && memcmp(s + i - 6, "jitted", 6) == 0) {
		size_t j = i + 1 + d;
		if (j < len && s[j] == '-') {
			j += 1 + run_of(s, len, j + 1, is_digit);
		}
		if (starts(s, len, j, ".so")) {
			*repl = "-";
			*rlen = 1;
			return j - i;
		}
	}
	return 0;
}

SCANNER_RULE(process_id, "-")

/* "sym+0x1f": the offset in the function moves with every change of its code. */
static size_t
symbol_offset(const char *s, size_t len, size_t i, const char **repl, size_t *rlen)
{
	(void)repl;
	(void)rlen;
	if (i == 0 || !starts(s, len, i, "+0x")) {
		return 0;
	}
	size_t h = run_of(s, len, i + 3, is_hex);
	if (h == 0 || (i + 3 + h < len && is_word(s[i + 3 + h]))) {
		return 0;
	}
	return 3 + h;
}

SCANNER_RULE(symbol_offset, "+")

/*
 * An address as a name (JIT code, an unresolved frame: "0x7f3a12c4",
 * "unix`0xfffffffffb800c91"): it moves with every load. Four hex digits at
 * least, so "0x10" in a template argument stays.
 */
static size_t
address(const char *s, size_t len, size_t i, const char **repl, size_t *rlen)
{
	if (!starts(s, len, i, "0x") || (i > 0 && is_word(s[i - 1]))) {
		return 0;
	}
	size_t h = run_of(s, len, i + 2, is_hex);
	if (h < 4 || (i + 2 + h < len && is_word(s[i + 2 + h]))) {
		return 0;
	}
	*repl = "0x";
	*rlen = 2;
	return 2 + h;
}

SCANNER_RULE(address, "0")

/* The rules' places in normalize_rules, for the trigger table below. */
enum {
	R_RUST_HASH,
	R_CLOSURE_NUMBER,
	R_GCC_CLONE,
	R_ANONYMOUS_NAMESPACE,
	R_GO_CLOSURE,
	R_JAVA_LAMBDA,
	R_V8_TIER,
	R_PROCESS_ID,
	R_SYMBOL_OFFSET,
	R_ADDRESS,
	R_COUNT,
};

const struct normalize_rule normalize_rules[R_COUNT] = {
        [R_RUST_HASH] = {"rust-hash", "Rust (legacy mangling)",
                "the hash suffix ::h<16 hex digits>", rule_rust_hash},
        [R_CLOSURE_NUMBER] = {"closure-number", "Rust (v0 mangling), GCC",
                "the number of a closure or lambda: {closure#3}, {lambda(int)#2}",
                rule_closure_number},
        [R_GCC_CLONE] = {"gcc-clone", "GCC, Clang (LTO)",
                "clone suffixes: [clone .isra.0], .constprop.N, .part.N, .cold, .lto_priv.N, "
                ".llvm.N",
                rule_gcc_clone},
        [R_ANONYMOUS_NAMESPACE] = {"anonymous-namespace", "C++",
                "how an anonymous namespace is spelt: _GLOBAL__N_..., {anonymous}",
                rule_anonymous_namespace},
        [R_GO_CLOSURE] = {"go-closure", "Go",
                "the number of a closure: .funcN, .gowrapN, .deferwrapN", rule_go_closure},
        [R_JAVA_LAMBDA] = {"java-lambda", "Java",
                "lambda classes $$Lambda$123/0x... and methods lambda$f$N", rule_java_lambda},
        [R_V8_TIER] = {"v8-tier", "JavaScript (V8)",
                "the tier mark after LazyCompile: and the like (*, ~, ^, +)", rule_v8_tier},
        [R_PROCESS_ID] = {"process-id", "perf (JIT maps)",
                "the process id in /tmp/perf-PID.map, jitted-PID-N.so", rule_process_id},
        [R_SYMBOL_OFFSET] = {"symbol-offset", "perf, DTrace", "an offset in the function: sym+0x1f",
                rule_symbol_offset},
        [R_ADDRESS] = {"address", "JIT, unresolved frames",
                "an address of 4+ hex digits: 0x7f3a12c4", rule_address},
};
const size_t normalize_rule_count = sizeof(normalize_rules) / sizeof(normalize_rules[0]);

/* perf's annotation ("_[k]"): 4 bytes, set aside while the rules run. */
static size_t
annotation_len(const char *s, size_t len)
{
	if (len > 4 && s[len - 4] == '_' && s[len - 3] == '[' && s[len - 1] == ']' &&
	        strchr("kjiw", s[len - 2]) && s[len - 2] != '\0') {
		return 4;
	}
	return 0;
}

/*
 * Every rule's match begins with two bytes it cannot do without: a trigger
 * byte and one of a few bytes after it ("::h" begins "::", "+0x" "+0",
 * "{closure#3}" "#3"). Per byte, the rules whose match can begin with that
 * byte (first) and the rules whose match can have it second (second): a
 * rule with no such pair in a name cannot change it, whatever else the
 * name holds. Most names are C++ and Rust paths full of ':', '.' and '_',
 * and no rule but the hash's pairs "::"; one byte alone would set off
 * half the rules for every one of them.
 */
#define DIGITS_1_9(bits)                                                                           \
	['1'] = (bits), ['2'] = (bits), ['3'] = (bits), ['4'] = (bits), ['5'] = (bits),            \
	['6'] = (bits), ['7'] = (bits), ['8'] = (bits), ['9'] = (bits)

static const uint16_t first_byte[256] = {
        [':'] = 1u << R_RUST_HASH | 1u << R_V8_TIER,
        ['#'] = 1u << R_CLOSURE_NUMBER,
        [' '] = 1u << R_GCC_CLONE,
        ['{'] = 1u << R_ANONYMOUS_NAMESPACE,
        ['_'] = 1u << R_ANONYMOUS_NAMESPACE,
        ['.'] = 1u << R_GO_CLOSURE,
        ['$'] = 1u << R_JAVA_LAMBDA,
        ['-'] = 1u << R_PROCESS_ID,
        ['+'] = 1u << R_SYMBOL_OFFSET,
        ['0'] = 1u << R_ADDRESS,
};

static const uint16_t second_byte[256] = {
        /* "#3", "$4", "-10939": a number after the trigger. '0' is also "+0x"'s. */
        DIGITS_1_9(1u << R_CLOSURE_NUMBER | 1u << R_JAVA_LAMBDA | 1u << R_PROCESS_ID),
        ['0'] = 1u << R_CLOSURE_NUMBER | 1u << R_JAVA_LAMBDA | 1u << R_PROCESS_ID |
                1u << R_SYMBOL_OFFSET,
        [':'] = 1u << R_RUST_HASH,
        ['*'] = 1u << R_V8_TIER,
        ['~'] = 1u << R_V8_TIER,
        ['^'] = 1u << R_V8_TIER,
        ['+'] = 1u << R_V8_TIER,
        ['['] = 1u << R_GCC_CLONE, /* " [clone ." */
        ['a'] = 1u << R_ANONYMOUS_NAMESPACE, /* "{anonymous}" */
        ['G'] = 1u << R_ANONYMOUS_NAMESPACE, /* "_GLOBAL__N_" */
        ['f'] = 1u << R_GO_CLOSURE, /* ".func", ".gowrap", ".deferwrap" */
        ['g'] = 1u << R_GO_CLOSURE,
        ['d'] = 1u << R_GO_CLOSURE,
        ['$'] = 1u << R_JAVA_LAMBDA, /* "$$Lambda" */
        ['x'] = 1u << R_ADDRESS,
};

#undef DIGITS_1_9

uint32_t
normalize_rules_possible(const char *s, size_t len)
{
	uint32_t mask = 0;
	for (size_t i = 0; i + 1 < len; i++) {
		mask |= (uint32_t)(first_byte[(unsigned char)s[i]] &
		                   second_byte[(unsigned char)s[i + 1]]);
	}
	/* GCC's clone suffixes undemangled are at the end, with no pair of their own. */
	if (strip_clone_suffixes(s, len) != len) {
		mask |= 1u << R_GCC_CLONE;
	}
	return mask;
}

uint32_t
normalize_name(const char *name, size_t len, struct buf *key, struct buf *scratch)
{
	size_t ann = annotation_len(name, len);
	uint32_t fired = 0;
	buf_reset(key);
	buf_add(key, name, len - ann);
	uint32_t todo = normalize_rules_possible(key->data, key->len);
	for (size_t r = 0; r < normalize_rule_count; r++) {
		if (!(todo & (1u << r))) {
			continue;
		}
		buf_reset(scratch);
		if (normalize_rules[r].apply(key->data, key->len, scratch)) {
			fired |= 1u << r;
			struct buf t = *key;
			*key = *scratch;
			*scratch = t;
			todo = normalize_rules_possible(key->data, key->len);
		}
	}
	buf_add(key, name + len - ann, ann);
	return fired;
}

int
normalize_rule_find(const char *id)
{
	for (size_t r = 0; r < normalize_rule_count; r++) {
		if (strcmp(normalize_rules[r].id, id) == 0) {
			return (int)r;
		}
	}
	return -1;
}
