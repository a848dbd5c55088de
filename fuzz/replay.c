/*
 * Replays fuzz inputs through LLVMFuzzerTestOneInput without libFuzzer, so
 * the corpus runs in every `meson test` with any compiler (and under the
 * sanitizer and valgrind setups). Arguments are files or directories; the
 * files of a directory run in name order so failures are reproducible.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool
replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return false;
	}
	struct buf b;
	buf_init(&b);
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		buf_add(&b, chunk, n);
	}
	bool ok = !ferror(f);
	fclose(f);
	if (ok) {
		/* A fresh copy of exactly the input's size, so ASan and valgrind
		 * see reads past the end as libFuzzer would. */
		uint8_t *data = xmalloc(b.len ? b.len : 1);
		if (b.len) {
			memcpy(data, b.data, b.len);
		}
		LLVMFuzzerTestOneInput(data, b.len);
		free(data);
	} else {
		fprintf(stderr, "replay: %s: read error\n", path);
	}
	buf_finish(&b);
	return ok;
}

static int
compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Returns the number of files replayed, or -1 on an error. */
static long
replay_dir(const char *path)
{
	DIR *d = opendir(path);
	if (!d) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	char **names = NULL;
	size_t count = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.') {
			continue;
		}
		names = xgrow(names, &cap, count + 1, sizeof(*names));
		struct buf p;
		buf_init(&p);
		buf_printf(&p, "%s/%s", path, e->d_name);
		names[count++] = buf_detach(&p, NULL);
	}
	closedir(d);
	if (count > 0) {
		qsort(names, count, sizeof(*names), compare_names);
	}
	long done = 0;
	for (size_t i = 0; i < count; i++) {
		if (done >= 0) {
			done = replay_file(names[i]) ? done + 1 : -1;
		}
		free(names[i]);
	}
	free(names);
	return done;
}

int
main(int argc, char **argv)
{
	long total = 0;
	for (int i = 1; i < argc; i++) {
		struct stat sb;
		if (stat(argv[i], &sb) != 0) {
			fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
			return 1;
		}
		long n = S_ISDIR(sb.st_mode) ? replay_dir(argv[i]) : replay_file(argv[i]) ? 1 : -1;
		if (n < 0) {
			return 1;
		}
		total += n;
	}
	printf("replayed %ld input%s\n", total, total == 1 ? "" : "s");
	return total > 0 ? 0 : 1;
}
