#include "startup.h"

#include <ctype.h>
#include <string.h>

static bool
has_prefix(const char *s, size_t len, const char *p)
{
	size_t n = strlen(p);
	return len >= n && memcmp(s, p, n) == 0;
}

static bool
is(const char *s, size_t len, const char *word)
{
	return len == strlen(word) && memcmp(s, word, len) == 0;
}

/* "0x" and hex digits: an address no symbol names (callgrind's root). */
static bool
bare_address(const char *s, size_t len)
{
	if (len < 3 || !has_prefix(s, len, "0x")) {
		return false;
	}
	for (size_t i = 2; i < len; i++) {
		if (!isxdigit((unsigned char)s[i])) {
			return false;
		}
	}
	return true;
}

bool
startup_frame(const char *name, size_t len)
{
	/* callgrind --objects: "function [object]". */
	if (len > 3 && name[len - 1] == ']') {
		const char *open = NULL;
		for (size_t i = len; i-- > 1;) {
			if (name[i] == '[' && name[i - 1] == ' ') {
				open = name + i - 1;
				break;
			}
		}
		if (open) {
			len = (size_t)(open - name);
		}
	}
	static const char below[] = STARTUP_FRAME;
	if (len >= sizeof below - 1 &&
	        memcmp(name + len - (sizeof below - 1), below, sizeof below - 1) == 0) {
		return true; /* valgrind's, also as "file:(below main)" */
	}
	/* callgrind names a function "file:name" when two share the name; a
	 * C++ scope's "::" is no file. */
	for (size_t i = len; i-- > 0;) {
		if (name[i] == ':' && (i == 0 || name[i - 1] != ':') &&
		        (i + 1 == len || name[i + 1] != ':')) {
			name += i + 1;
			len -= i + 1;
			break;
		}
		if (name[i] == ':') {
			break;
		}
	}
	/* glibc's (__libc_start_main@@GLIBC_2.34, __libc_start_main_impl,
	 * __libc_start_main_alias_2), musl's, and the loader's entry. */
	return bare_address(name, len) || is(name, len, "_start") ||
	       is(name, len, "_dl_start_user") || is(name, len, "__libc_start_call_main") ||
	       is(name, len, "libc_start_main_stage2") ||
	       has_prefix(name, len, "__libc_start_main");
}

void
startup_collapse(struct buf *path, size_t from)
{
	size_t end = from; /* past the run's last frame */
	size_t frames = 0;
	for (size_t at = from; at < path->len;) {
		const char *semi = memchr(path->data + at, ';', path->len - at);
		size_t stop = semi ? (size_t)(semi - path->data) : path->len;
		if (stop == at || !startup_frame(path->data + at, stop - at)) {
			break;
		}
		end = stop;
		frames++;
		if (!semi) {
			break;
		}
		at = stop + 1;
	}
	static const char one[] = STARTUP_FRAME;
	if (frames == 0 || (frames == 1 && end - from == sizeof one - 1 &&
	                           memcmp(path->data + from, one, sizeof one - 1) == 0)) {
		return;
	}
	size_t tail = path->len - end;
	size_t len = from + (sizeof one - 1) + tail;
	if (len > path->len) {
		buf_reserve(path, len - path->len);
	}
	memmove(path->data + from + sizeof one - 1, path->data + end, tail);
	memcpy(path->data + from, one, sizeof one - 1);
	buf_setlen(path, len);
}
