#include "utf8.h"

#include <string.h>

size_t
utf8_decode(const char *s, size_t len, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned char c = u[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	size_t n;
	uint32_t v, min;
	if ((c & 0xE0) == 0xC0) {
		n = 2;
		v = c & 0x1F;
		min = 0x80;
	} else if ((c & 0xF0) == 0xE0) {
		n = 3;
		v = c & 0x0F;
		min = 0x800;
	} else if ((c & 0xF8) == 0xF0) {
		n = 4;
		v = c & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (len < n) {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((u[i] & 0xC0) != 0x80) {
			return 0;
		}
		v = v << 6 | (u[i] & 0x3F);
	}
	if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
		return 0;
	}
	*cp = v;
	return n;
}

void
utf8_encode(struct buf *b, uint32_t cp)
{
	char t[4];
	if (cp < 0x80) {
		buf_addc(b, (char)cp);
	} else if (cp < 0x800) {
		t[0] = (char)(0xC0 | cp >> 6);
		t[1] = (char)(0x80 | (cp & 0x3F));
		buf_add(b, t, 2);
	} else if (cp < 0x10000) {
		t[0] = (char)(0xE0 | cp >> 12);
		t[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		t[2] = (char)(0x80 | (cp & 0x3F));
		buf_add(b, t, 3);
	} else {
		t[0] = (char)(0xF0 | cp >> 18);
		t[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		t[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		t[3] = (char)(0x80 | (cp & 0x3F));
		buf_add(b, t, 4);
	}
}

size_t
utf8_length(const char *s, size_t len)
{
	size_t n = 0, i = 0;
	while (i < len) {
		/* ASCII, names' common case, eight bytes a step. */
		uint64_t w;
		if (len - i >= 8 && (memcpy(&w, s + i, 8), !(w & 0x8080808080808080ull))) {
			i += 8;
			n += 8;
			continue;
		}
		if ((unsigned char)s[i] < 0x80) {
			i++;
		} else {
			uint32_t cp;
			size_t k = utf8_decode(s + i, len - i, &cp);
			i += k ? k : 1;
		}
		n++;
	}
	return n;
}

size_t
utf8_prefix_bytes(const char *s, size_t len, size_t chars)
{
	size_t i = 0;
	while (i < len && chars > 0) {
		uint32_t cp;
		size_t k = utf8_decode(s + i, len - i, &cp);
		i += k ? k : 1;
		chars--;
	}
	return i;
}
