#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define TIMING_MAX_STAGES 8

/* Process-wide: the stages of a run are ended by the modules that run them. */
static struct {
	double last;
	const char *names[TIMING_MAX_STAGES];
	double ms[TIMING_MAX_STAGES];
	size_t count;
} timing;

static double
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void
timing_start(void)
{
	timing.count = 0;
	timing.last = now_ms();
}

void
timing_stage(const char *name)
{
	double now = now_ms();
	if (timing.count < TIMING_MAX_STAGES) {
		timing.names[timing.count] = name;
		timing.ms[timing.count] = now - timing.last;
		timing.count++;
	}
	timing.last = now;
}

void
timing_print(void)
{
	if (!getenv("DIFFFOLD_TIMING") || timing.count == 0) {
		return;
	}
	fputs("difffold: timing:", stderr);
	for (size_t i = 0; i < timing.count; i++) {
		fprintf(stderr, "%s %s %.1f ms", i ? "," : "", timing.names[i], timing.ms[i]);
	}
	fputc('\n', stderr);
}
