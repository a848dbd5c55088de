#include "svgscan.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

/* Plain decimals (what every tool writes) without strtod, which costs
 * more than the rest of a frame; anything else goes to strtod. */
static bool
fast_double(const char *s, size_t len, double *out)
{
	static const double scale[] = {1, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9};
	size_t i = s[0] == '-';
	uint64_t whole = 0, frac = 0;
	size_t digits = 0, fdigits = 0;
	for (; i < len && s[i] >= '0' && s[i] <= '9' && digits < 15; i++, digits++) {
		whole = whole * 10 + (uint64_t)(s[i] - '0');
	}
	if (i < len && s[i] == '.') {
		for (i++; i < len && s[i] >= '0' && s[i] <= '9' && fdigits < 9; i++, fdigits++) {
			frac = frac * 10 + (uint64_t)(s[i] - '0');
		}
	}
	if (i != len || digits + fdigits == 0) {
		return false;
	}
	double v = (double)whole + (double)frac * scale[fdigits];
	*out = s[0] == '-' ? -v : v;
	return true;
}

bool
svgscan_double(const char *s, size_t len, double *out)
{
	char tmp[64];
	if (len == 0 || len >= sizeof(tmp)) {
		return false;
	}
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	if (tmp[len - 1] == '%') {
		tmp[--len] = '\0'; /* inferno's x and width are percentages */
	}
	if (len > 0 && fast_double(tmp, len, out)) {
		return true;
	}
	char *end;
	errno = 0;
	double v = strtod(tmp, &end);
	if (errno || end == tmp || *end || !isfinite(v)) {
		return false;
	}
	*out = v;
	return true;
}

/* A count without the thousands separators flamegraph.pl and inferno write. */
bool
svgscan_count(const char *s, size_t len, struct count *out)
{
	/* Whole numbers, the common case, without count_parse's generality. */
	uint64_t units = 0;
	size_t digits = 0;
	for (; digits < len && digits < 19 && s[digits] >= '0' && s[digits] <= '9'; digits++) {
		units = units * 10 + (uint64_t)(s[digits] - '0');
	}
	if (digits == len && len > 0) {
		*out = (struct count){.units = units};
		return true;
	}
	char tmp[64];
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == ',') {
			continue;
		}
		if (n + 1 >= sizeof(tmp)) {
			return false;
		}
		tmp[n++] = s[i];
	}
	const char *reason;
	return n > 0 && count_parse(tmp, n, out, &reason);
}

/* One character reference (&#NN; or &#xHH;) as UTF-8. */
static bool
add_char_ref(struct buf *out, const char *s, size_t len)
{
	bool hex = len > 1 && (s[0] == 'x' || s[0] == 'X');
	const char *digits = s + hex;
	size_t n = len - hex;
	if (n == 0 || n > 8) {
		return false;
	}
	unsigned long v = 0;
	for (size_t i = 0; i < n; i++) {
		char c = digits[i];
		int d = c >= '0' && c <= '9'          ? c - '0'
		        : hex && c >= 'a' && c <= 'f' ? c - 'a' + 10
		        : hex && c >= 'A' && c <= 'F' ? c - 'A' + 10
		                                      : -1;
		if (d < 0) {
			return false;
		}
		v = v * (hex ? 16 : 10) + (unsigned long)d;
	}
	if (v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
		return false;
	}
	utf8_encode(out, (uint32_t)v);
	return true;
}

/*
 * Text content decoded: the five entities XML predefines and character
 * references. Any other entity would need the document's DTD, which a
 * hostile file can make expand without end, so it is refused.
 */
bool
svgscan_decode_text(struct buf *out, const char *s, size_t len, const char **why)
{
	static const struct {
		const char *name;
		char c;
	} entities[] = {{"lt", '<'}, {"gt", '>'}, {"amp", '&'}, {"quot", '"'}, {"apos", '\''}};
	buf_setlen(out, 0);
	const char *end = s + len;
	while (s < end) {
		const char *amp = memchr(s, '&', (size_t)(end - s));
		const char *stop = amp ? amp : end;
		if (memchr(s, '<', (size_t)(stop - s))) {
			*why = "markup inside a frame's title";
			return false;
		}
		buf_add(out, s, (size_t)(stop - s));
		if (!amp) {
			break;
		}
		const char *semi =
		        memchr(amp, ';', (size_t)(end - amp) < 12 ? (size_t)(end - amp) : 12);
		if (!semi) {
			*why = "an '&' that starts no entity in a frame's title";
			return false;
		}
		const char *ent = amp + 1;
		size_t n = (size_t)(semi - ent);
		bool known = false;
		if (n > 0 && ent[0] == '#') {
			known = add_char_ref(out, ent + 1, n - 1);
		}
		for (size_t i = 0; !known && i < sizeof(entities) / sizeof(entities[0]); i++) {
			if (strlen(entities[i].name) == n &&
			        memcmp(entities[i].name, ent, n) == 0) {
				buf_addc(out, entities[i].c);
				known = true;
			}
		}
		if (!known) {
			*why = "an entity XML does not predefine in a frame's title (difffold "
			       "expands no DTD entities)";
			return false;
		}
		s = semi + 1;
	}
	return true;
}
