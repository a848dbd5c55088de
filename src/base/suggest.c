#include "suggest.h"

#include <string.h>

size_t
suggest_distance(const char *a, size_t alen, const char *b)
{
	size_t blen = strlen(b);
	if (alen > SUGGEST_MAX_LEN || blen > SUGGEST_MAX_LEN) {
		return SUGGEST_FAR;
	}
	/* Three rows of the table are enough: a swap looks two rows back. */
	size_t rows[3][SUGGEST_MAX_LEN + 1];
	size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
	for (size_t j = 0; j <= blen; j++) {
		prev[j] = j;
	}
	for (size_t i = 1; i <= alen; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= blen; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t best = prev[j - 1] + cost;
			if (prev[j] + 1 < best) {
				best = prev[j] + 1;
			}
			if (cur[j - 1] + 1 < best) {
				best = cur[j - 1] + 1;
			}
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			        prev2[j - 2] + 1 < best) {
				best = prev2[j - 2] + 1;
			}
			cur[j] = best;
		}
		size_t *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[blen];
}

const char *
suggest_closest(const char *word, size_t len, const char *const *names, size_t count)
{
	size_t limit = len <= 4 ? 1 : 2;
	const char *best = NULL;
	size_t best_d = limit + 1;
	for (size_t i = 0; i < count; i++) {
		if (!names[i]) {
			continue;
		}
		size_t d = suggest_distance(word, len, names[i]);
		if (d < best_d) {
			best_d = d;
			best = names[i];
		}
	}
	return best;
}
