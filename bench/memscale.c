/*
 * memscale: do this machine's two cores run memory-bound work side by side?
 *
 * Each worker makes random read-modify-writes into a table of its own, as
 * building a tree does. For table sizes from 1 to 8 MiB it times two
 * workers one after the other, then the same two on two threads, and prints
 * the speed-up (2.0: the cores do not get in each other's way). difffold
 * reads base and head on two threads only where this pays (README,
 * Performance).
 *
 *   cc -O2 -pthread bench/memscale.c -o memscale && ./memscale
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TOUCHES ((size_t)8 << 20) /* per worker, whatever the table size */

struct worker {
	size_t words; /* table size, a power of two */
	uint64_t seed;
	uint64_t sum; /* keeps the work from being optimised away */
};

static double
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void *
work(void *arg)
{
	struct worker *w = arg;
	uint64_t *table = malloc(w->words * sizeof(uint64_t));
	if (!table) {
		return NULL;
	}
	memset(table, 0, w->words * sizeof(uint64_t));
	uint64_t x = w->seed | 1, sum = 0;
	for (size_t i = 0; i < TOUCHES; i++) {
		x ^= x << 13; /* xorshift64 */
		x ^= x >> 7;
		x ^= x << 17;
		sum += table[x & (w->words - 1)]++;
	}
	free(table);
	w->sum = sum;
	return NULL;
}

int
main(void)
{
	printf("table/worker  serial ms  parallel ms  speed-up\n");
	for (size_t mib = 1; mib <= 8; mib *= 2) {
		size_t words = (mib << 20) / sizeof(uint64_t);
		double best_serial = 1e9, best_parallel = 1e9;
		for (int round = 0; round < 3; round++) {
			struct worker a = {words, 1, 0}, b = {words, 2, 0};
			double t0 = now_ms();
			work(&a);
			work(&b);
			double t1 = now_ms();
			pthread_t thread;
			if (pthread_create(&thread, NULL, work, &a) != 0) {
				perror("pthread_create");
				return 1;
			}
			work(&b);
			pthread_join(thread, NULL);
			double t2 = now_ms();
			best_serial = t1 - t0 < best_serial ? t1 - t0 : best_serial;
			best_parallel = t2 - t1 < best_parallel ? t2 - t1 : best_parallel;
		}
		printf("%7zu MiB  %9.1f  %11.1f  %8.2f\n", mib, best_serial, best_parallel,
		        best_serial / best_parallel);
	}
	return 0;
}
