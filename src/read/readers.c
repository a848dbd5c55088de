#include "readers.h"

#include <stdio.h>
#include <string.h>

#include "callgrind.h"
#include "dhat.h"
#include "flamegraph_svg.h"
#include "folded.h"
#include "gecko.h"
#include "massif.h"
#include "perf.h"
#include "pprof.h"
#include "speedscope.h"
#include "tree_build.h"

/*
 * The order is the precedence of the picture's note and count name when
 * one input mixes readers: the call graph's, then perf's, then the
 * readers that name a unit.
 */
static const struct profile_reader table[] = {
        {"callgrind", INPUT_CALLGRIND, callgrind_read, callgrind_note,
                "a call graph's costs, summed over the run, have no time order"},
        {"perf", INPUT_PERF_SCRIPT, perf_read, perf_note, NULL},
        {"dhat", INPUT_DHAT, dhat_read, NULL,
                "DHAT's program points are totals over the run, with no time order"},
        {"pprof", INPUT_PPROF, pprof_read, NULL,
                "pprof's samples are summed per stack, with no time order"},
        {"massif", INPUT_MASSIF, massif_read, NULL,
                "a massif snapshot is one moment's heap tree, with no time order"},
        {"speedscope", INPUT_SPEEDSCOPE, speedscope_read, NULL,
                "the speedscope reader sums samples per stack before they reach the graph; "
                "export the profile as folded stacks in time order instead"},
        {"gecko", INPUT_GECKO, gecko_read, NULL,
                "the Firefox Profiler reader sums samples per stack before they reach the "
                "graph"},
        {"flamegraph", INPUT_FLAMEGRAPH, flamegraph_svg_read, NULL,
                "a flame graph's frames are merged and sorted by name: its time order is lost"},
        {"folded", INPUT_FOLDED, folded_read, NULL, NULL},
};

#define READERS (sizeof table / sizeof table[0])
_Static_assert(READERS <= READERS_MAX, "READERS_MAX holds every reader");

void
readers_options_init(struct read_options *ro)
{
	memset(ro, 0, sizeof(*ro));
	ro->floor = CALLGRIND_DEFAULT_FLOOR;
	ro->snapshot = MASSIF_PEAK;
}

const struct profile_reader *
readers_for(enum input_format f)
{
	for (size_t i = 0; i < READERS; i++) {
		if (table[i].format == f) {
			return &table[i];
		}
	}
	return NULL;
}

const struct profile_reader *
readers_find(const char *name)
{
	for (size_t i = 0; i < READERS; i++) {
		if (strcmp(table[i].name, name) == 0) {
			return &table[i];
		}
	}
	return NULL;
}

void
readers_list(struct buf *b, const char *last)
{
	for (size_t i = 0; i < READERS; i++) {
		buf_adds(b, i == 0 ? "" : i + 1 < READERS ? ", " : last);
		buf_adds(b, table[i].name);
	}
}

const struct profile_reader *
readers_at(size_t i)
{
	return i < READERS ? &table[i] : NULL;
}

bool
readers_read(const struct profile_reader *r, struct tree *t, enum folded_mode mode,
        struct source *src, const char *head, size_t head_len, const struct read_options *ro,
        struct read_result *res, struct diag *err)
{
	memset(res, 0, sizeof(*res));
	source_set_budget(src, ro->max_work ? ro->max_work : SOURCE_WORK_FLOOR, head_len);
	uint64_t before = tree_stacks_offered(t);
	if (!r->read(t, mode, src, head, head_len, ro, res, err)) {
		return false;
	}
	/*
	 * A file with no sample is refused whatever its reader: as the head
	 * of a pair it would pass every gate as a 100 % improvement.
	 */
	if (res->deferred || tree_stacks_offered(t) != before) {
		return true;
	}
	diag_set(err, source_name(src), 0,
	        "the profile has no sample: refused rather than compared as an empty profile");
	return false;
}

bool
readers_read_mem(const struct profile_reader *r, struct tree *t, enum folded_mode mode,
        const char *name, const char *data, size_t len, const struct read_options *ro,
        struct read_result *res, struct diag *err)
{
	struct source *src = source_open_mem(name);
	bool ok = readers_read(r, t, mode, src, data, len, ro, res, err);
	source_close(src);
	return ok;
}

bool
readers_read_file(const struct profile_reader *r, struct tree *t, enum folded_mode mode,
        const char *path, const struct read_options *ro, struct read_result *res, struct diag *err)
{
	memset(res, 0, sizeof(*res));
	struct source *src = source_open(path, NULL, err);
	if (!src) {
		return false;
	}
	bool ok = readers_read(r, t, mode, src, NULL, 0, ro, res, err);
	source_close(src);
	return ok;
}

void
readers_sum_add(struct read_sum *s, const struct read_result *res, enum side side)
{
	if (s->files++ == 0) {
		s->first = *res;
		s->exact = res->exact;
	} else {
		s->unit_mixed |= strcmp(s->first.unit, res->unit) != 0;
		s->measure_mixed |= strcmp(s->first.measure, res->measure) != 0;
		s->note_mixed |= strcmp(s->first.note, res->note) != 0;
		s->key_mixed |= strcmp(s->first.key, res->key) != 0;
		s->exact &= res->exact;
	}
	s->flag |= res->flag;
	s->samples[side] += res->samples;
	s->sample_count[side] += res->sample_count;
	s->sample_value[side] += res->sample_value;
	s->sample_unknown[side] |= !(res->sample_count > 0);
}

void
readers_sum_merge(struct read_sum *into, const struct read_sum *from)
{
	if (from->files == 0) {
		return;
	}
	if (into->files == 0) {
		*into = *from;
		return;
	}
	const struct read_result *a = &into->first, *b = &from->first;
	into->unit_mixed |= from->unit_mixed || strcmp(a->unit, b->unit) != 0;
	into->measure_mixed |= from->measure_mixed || strcmp(a->measure, b->measure) != 0;
	into->note_mixed |= from->note_mixed || strcmp(a->note, b->note) != 0;
	into->key_mixed |= from->key_mixed || strcmp(a->key, b->key) != 0;
	into->exact &= from->exact;
	into->files += from->files;
	into->flag |= from->flag;
	for (int i = 0; i < 2; i++) {
		into->samples[i] += from->samples[i];
		into->sample_count[i] += from->sample_count[i];
		into->sample_value[i] += from->sample_value[i];
		into->sample_unknown[i] |= from->sample_unknown[i];
	}
}
