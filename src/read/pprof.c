#include "pprof.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "buf.h"
#include "count.h"
#include "escape.h"
#include "hash.h"
#include "idmap.h"
#include "pprof.pb-c.h"
#include "tree_build.h"
#include "xalloc.h"

/* A top-level field this long is no sample or table entry: an error, not
 * an allocation (source.c would otherwise buffer it whole). */
#define MAX_FIELD ((size_t)64 << 20)
#define NO_STRING INT64_MIN

/* Profile's top-level fields read (numbers from google/pprof's profile.proto). */
enum {
	F_SAMPLE_TYPE = 1,
	F_SAMPLE = 2,
	F_MAPPING = 3,
	F_LOCATION = 4,
	F_FUNCTION = 5,
	F_STRING = 6,
	F_DEFAULT_SAMPLE_TYPE = 14,
};

struct sample_type {
	int64_t type, unit;
};

struct mapping {
	uint64_t start, offset;
	int64_t file;
	uint64_t at; /* byte offset, for messages */
};

struct location {
	uint64_t mapping, address;
	size_t first_line; /* in pprof.lines: function ids, innermost first */
	uint32_t lines;
	uint64_t at;
	size_t frame; /* its frames in pprof.frames, SIZE_MAX: not made yet */
	size_t frame_len;
};

struct function {
	int64_t name, system_name;
	uint64_t at;
};

/* A distinct stack: its location ids as varints in pprof.stacks. */
struct stack {
	uint64_t hash;
	size_t off;
	uint32_t len;
	uint32_t nlocs;
	uint64_t at; /* the first sample's byte offset */
};

/*
 * Where protobuf-c puts one decoded submessage: a block reused for the
 * next, so a sample costs no malloc and no free. What does not fit is
 * malloc'ed and freed at the reset, and the block doubles for next time.
 */
struct arena {
	char *block;
	size_t cap, used;
	void **big;
	size_t nbig, big_cap;
};

struct pprof {
	struct arena arena;
	ProtobufCAllocator alloc;
	struct tree *t;
	enum side side;
	const char *name;
	const struct pprof_options *opt;
	struct diag *err;
	struct source *src; /* for the bounds on work and kept bytes */
	uint64_t base; /* byte offset of the data parse() gets */
	struct sample_type *types;
	size_t ntypes, types_cap;
	int64_t default_type;
	struct buf strings;
	size_t *string_off; /* nstrings + 1 offsets into strings */
	size_t nstrings, string_cap;
	struct mapping *mappings;
	size_t nmappings, mappings_cap;
	struct location *locations;
	size_t nlocations, locations_cap;
	uint64_t *lines;
	size_t nlines, lines_cap;
	struct function *functions;
	size_t nfunctions, functions_cap;
	struct idmap mapping_ids, location_ids, function_ids;
	/* samples, aggregated by stack */
	struct buf stacks;
	struct stack *entries;
	size_t nentries, entries_cap;
	uint32_t *slots; /* entry + 1, 0: empty */
	size_t mask;
	uint64_t seed;
	uint64_t *sums; /* nvalues per entry */
	size_t sums_cap;
	size_t nvalues;
	uint64_t values_at; /* the first sample, whose value count the others share */
	uint64_t samples;
	struct buf key, frames, path;
};

static bool
fail_at(struct pprof *pp, uint64_t at, const char *reason)
{
	struct buf b;
	buf_init(&b);
	buf_printf(&b, "byte offset %llu: %s", (unsigned long long)at, reason);
	diag_set(pp->err, pp->name, 0, b.data);
	buf_finish(&b);
	return false;
}

/* 1: read, 0: the bytes end inside it, -1: longer than 10 bytes. */
static int
varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	uint64_t r = 0;
	for (int shift = 0; shift < 70; shift += 7) {
		if (*p == end) {
			return 0;
		}
		unsigned char c = *(*p)++;
		r |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80)) {
			*v = r;
			return 1;
		}
	}
	return -1;
}

static void
add_varint(struct buf *b, uint64_t v)
{
	while (v >= 0x80) {
		buf_addc(b, (char)(unsigned char)(v | 0x80));
		v >>= 7;
	}
	buf_addc(b, (char)v);
}

/* The string at index i, or false when the table has no such entry. */
static bool
string_at(const struct pprof *pp, int64_t i, const char **s, size_t *len)
{
	if (i < 0 || (uint64_t)i >= pp->nstrings) {
		return false;
	}
	*s = pp->strings.data + pp->string_off[i];
	*len = pp->string_off[i + 1] - pp->string_off[i];
	return true;
}

static void
add_string(struct pprof *pp, const unsigned char *s, size_t len)
{
	if (!pp->string_off) {
		pp->string_off = xgrow(NULL, &pp->string_cap, 1, sizeof(*pp->string_off));
		pp->string_off[0] = 0;
	}
	buf_add(&pp->strings, s, len);
	pp->string_off =
	        xgrow(pp->string_off, &pp->string_cap, pp->nstrings + 2, sizeof(*pp->string_off));
	pp->string_off[++pp->nstrings] = pp->strings.len;
}

static void
grow_slots(struct pprof *pp)
{
	size_t size = pp->mask ? (pp->mask + 1) * 2 : 1024;
	free(pp->slots);
	pp->slots = xcalloc(size, sizeof(*pp->slots));
	pp->mask = size - 1;
	for (size_t e = 0; e < pp->nentries; e++) {
		size_t i = pp->entries[e].hash & pp->mask;
		while (pp->slots[i]) {
			i = (i + 1) & pp->mask;
		}
		pp->slots[i] = (uint32_t)(e + 1);
	}
}

/* The entry of the stack in pp->key, added (its sums zero) if new. */
static size_t
stack_entry(struct pprof *pp, uint32_t nlocs, uint64_t at)
{
	if (pp->nentries * 2 >= pp->mask) {
		grow_slots(pp);
	}
	uint64_t h = hash_bytes(pp->key.data, pp->key.len, pp->seed);
	size_t i = h & pp->mask;
	for (; pp->slots[i]; i = (i + 1) & pp->mask) {
		struct stack *s = &pp->entries[pp->slots[i] - 1];
		if (s->hash == h && s->len == pp->key.len &&
		        memcmp(pp->stacks.data + s->off, pp->key.data, s->len) == 0) {
			return pp->slots[i] - 1;
		}
	}
	size_t e = pp->nentries++;
	pp->entries = xgrow(pp->entries, &pp->entries_cap, pp->nentries, sizeof(*pp->entries));
	pp->entries[e] = (struct stack){h, pp->stacks.len, (uint32_t)pp->key.len, nlocs, at};
	buf_add(&pp->stacks, pp->key.data, pp->key.len);
	size_t need = (e + 1) * pp->nvalues;
	pp->sums = xgrow(pp->sums, &pp->sums_cap, need ? need : 1, sizeof(*pp->sums));
	memset(pp->sums + e * pp->nvalues, 0, pp->nvalues * sizeof(*pp->sums));
	pp->slots[i] = (uint32_t)(e + 1);
	return e;
}

static bool
add_sample(struct pprof *pp, const Difffold__Pprof__Sample *s, uint64_t at)
{
	if (pp->samples == 0) {
		pp->nvalues = s->n_value;
		pp->values_at = at;
	} else if (s->n_value != pp->nvalues) {
		return fail_at(pp, at, "a sample has a different number of values than the first");
	}
	if (s->n_location_id > UINT32_MAX || pp->nentries >= UINT32_MAX - 1) {
		return fail_at(pp, at, "too many locations or distinct stacks");
	}
	for (size_t i = 0; i < s->n_value; i++) {
		if (s->value[i] < 0) {
			return fail_at(pp, at,
			        "a sample value is negative (a diff of two profiles? give difffold "
			        "the "
			        "two profiles instead)");
		}
	}
	buf_reset(&pp->key);
	for (size_t i = 0; i < s->n_location_id; i++) {
		add_varint(&pp->key, s->location_id[i]);
	}
	size_t e = stack_entry(pp, (uint32_t)s->n_location_id, at);
	uint64_t *sum = pp->sums + e * pp->nvalues;
	for (size_t i = 0; i < s->n_value; i++) {
		uint64_t v = (uint64_t)s->value[i];
		if (sum[i] + v < sum[i]) {
			return fail_at(pp, at, "the values of a stack add up past 2^64-1");
		}
		sum[i] += v;
	}
	pp->samples++;
	return true;
}

/* An id given twice, or none, is malformed: references would be ambiguous. */
static bool
add_id(struct pprof *pp, struct idmap *ids, uint64_t id, size_t index, uint64_t at)
{
	uint32_t old;
	if (id == 0 || idmap_get(ids, id, &old)) {
		return fail_at(pp, at, id ? "an id is defined twice" : "an entry has id 0");
	}
	if (index >= UINT32_MAX) {
		return fail_at(pp, at, "too many table entries");
	}
	idmap_set(ids, id, (uint32_t)index);
	return true;
}

static bool
add_location(struct pprof *pp, const Difffold__Pprof__Location *l, uint64_t at)
{
	if (!add_id(pp, &pp->location_ids, l->id, pp->nlocations, at)) {
		return false;
	}
	pp->locations = xgrow(
	        pp->locations, &pp->locations_cap, pp->nlocations + 1, sizeof(*pp->locations));
	pp->locations[pp->nlocations++] = (struct location){
	        l->mapping_id, l->address, pp->nlines, (uint32_t)l->n_line, at, SIZE_MAX, 0};
	pp->lines = xgrow(pp->lines, &pp->lines_cap, pp->nlines + l->n_line, sizeof(*pp->lines));
	for (size_t i = 0; i < l->n_line; i++) {
		pp->lines[pp->nlines++] = l->line[i]->function_id;
	}
	return true;
}

static bool
add_function(struct pprof *pp, const Difffold__Pprof__Function *f, uint64_t at)
{
	if (!add_id(pp, &pp->function_ids, f->id, pp->nfunctions, at)) {
		return false;
	}
	pp->functions = xgrow(
	        pp->functions, &pp->functions_cap, pp->nfunctions + 1, sizeof(*pp->functions));
	pp->functions[pp->nfunctions++] = (struct function){f->name, f->system_name, at};
	return true;
}

static bool
add_mapping(struct pprof *pp, const Difffold__Pprof__Mapping *m, uint64_t at)
{
	if (!add_id(pp, &pp->mapping_ids, m->id, pp->nmappings, at)) {
		return false;
	}
	pp->mappings =
	        xgrow(pp->mappings, &pp->mappings_cap, pp->nmappings + 1, sizeof(*pp->mappings));
	pp->mappings[pp->nmappings++] =
	        (struct mapping){m->memory_start, m->file_offset, m->filename, at};
	return true;
}

static void
add_sample_type(struct pprof *pp, const Difffold__Pprof__ValueType *v)
{
	pp->types = xgrow(pp->types, &pp->types_cap, pp->ntypes + 1, sizeof(*pp->types));
	pp->types[pp->ntypes++] = (struct sample_type){v->type, v->unit};
}

static void *
arena_alloc(void *data, size_t size)
{
	struct arena *a = data;
	size = (size + 15) & ~(size_t)15;
	if (size <= a->cap - a->used) {
		a->used += size;
		return a->block + a->used - size;
	}
	a->big = xgrow(a->big, &a->big_cap, a->nbig + 1, sizeof(*a->big));
	return a->big[a->nbig++] = xmalloc(size ? size : 1);
}

static void
arena_free(void *data, void *p)
{
	(void)data;
	(void)p; /* all at once, in arena_reset */
}

static void
arena_reset(struct arena *a)
{
	a->used = 0;
	if (a->nbig == 0) {
		return;
	}
	for (size_t i = 0; i < a->nbig; i++) {
		free(a->big[i]);
	}
	a->nbig = 0;
	a->cap = a->cap ? a->cap * 2 : 4096;
	free(a->block);
	a->block = xmalloc(a->cap);
}

/* One submessage, decoded alone; false with err set when it is malformed. */
static bool
submessage(struct pprof *pp, uint64_t field, const unsigned char *p, size_t len, uint64_t at)
{
	ProtobufCAllocator *al = &pp->alloc;
	bool ok = true;
	void *m = NULL;
	switch (field) {
	case F_SAMPLE_TYPE:
		if ((m = difffold__pprof__value_type__unpack(al, len, p))) {
			add_sample_type(pp, m);
		}
		break;
	case F_SAMPLE:
		if ((m = difffold__pprof__sample__unpack(al, len, p))) {
			ok = add_sample(pp, m, at);
		}
		break;
	case F_MAPPING:
		if ((m = difffold__pprof__mapping__unpack(al, len, p))) {
			ok = add_mapping(pp, m, at);
		}
		break;
	case F_LOCATION:
		if ((m = difffold__pprof__location__unpack(al, len, p))) {
			ok = add_location(pp, m, at);
		}
		break;
	case F_FUNCTION:
		if ((m = difffold__pprof__function__unpack(al, len, p))) {
			ok = add_function(pp, m, at);
		}
		break;
	case F_STRING:
		add_string(pp, p, len);
		return true;
	default:
		return true; /* a field difffold does not use */
	}
	arena_reset(&pp->arena); /* the message is freed with it */
	return m ? ok : fail_at(pp, at, "malformed protobuf inside a top-level field");
}

/* The wire type each field read must have; other fields may have any. */
static bool
wire_ok(uint64_t field, unsigned wire)
{
	if (field == F_DEFAULT_SAMPLE_TYPE) {
		return wire == 0;
	}
	return field < F_SAMPLE_TYPE || field > F_STRING || wire == 2;
}

/*
 * One top-level field at *p: 1 read, 0 cut by the end of the data (it
 * comes again with more), -1 malformed (err set).
 */
static int
top_field(struct pprof *pp, const unsigned char **p, const unsigned char *end, uint64_t at)
{
	uint64_t tag, v = 0;
	int r = varint(p, end, &tag);
	if (r <= 0) {
		return r < 0 ? (fail_at(pp, at, "malformed protobuf: a tag is too long"), -1) : 0;
	}
	uint64_t field = tag >> 3;
	unsigned wire = (unsigned)(tag & 7);
	if (field == 0 || !wire_ok(field, wire)) {
		fail_at(pp, at, "malformed protobuf: not a field of a pprof Profile");
		return -1;
	}
	size_t need = 0;
	if (wire == 0 || wire == 2) {
		if ((r = varint(p, end, &v)) <= 0) {
			return r < 0 ? (fail_at(pp, at, "malformed protobuf: a varint is too long"),
			                       -1)
			             : 0;
		}
		need = wire == 2 ? (v > MAX_FIELD ? MAX_FIELD + 1 : (size_t)v) : 0;
	} else if (wire == 1 || wire == 5) {
		need = wire == 1 ? 8 : 4;
	} else {
		fail_at(pp, at, "malformed protobuf: unknown wire type");
		return -1;
	}
	if (need > MAX_FIELD) {
		fail_at(pp, at, "a field is longer than 64 MiB");
		return -1;
	}
	if ((size_t)(end - *p) < need) {
		return 0;
	}
	if (field == F_DEFAULT_SAMPLE_TYPE) {
		pp->default_type = (int64_t)v;
	} else if (wire == 2 && !submessage(pp, field, *p, need, at)) {
		return -1;
	}
	*p += need;
	return 1;
}

static long long
parse_fields(struct pprof *pp, const char *data, size_t len, bool at_eof)
{
	const unsigned char *start = (const unsigned char *)data, *end = start + len;
	const unsigned char *p = start;
	/* The tables follow the inflated size: a gzip bomb stops here. */
	if (!source_keep(pp->src, pp->base + len, pp->err)) {
		return -1;
	}
	while (p < end) {
		const unsigned char *field = p;
		uint64_t at = pp->base + (uint64_t)(p - start);
		int r = top_field(pp, &p, end, at);
		if (r < 0) {
			return -1;
		}
		if (r == 0) {
			if (at_eof) {
				fail_at(pp, at, "the profile is truncated inside a field");
				return -1;
			}
			p = field;
			break;
		}
	}
	pp->base += (uint64_t)(p - start);
	return (long long)(p - start);
}

/* A location without function names: its address, in its file if known. */
static bool
add_address(struct pprof *pp, const struct location *l)
{
	uint32_t m;
	const char *file;
	size_t len;
	if (l->mapping && !idmap_get(&pp->mapping_ids, l->mapping, &m)) {
		return fail_at(pp, l->at, "a location names a mapping the profile does not define");
	}
	if (l->mapping && !string_at(pp, pp->mappings[m].file, &file, &len)) {
		return fail_at(
		        pp, pp->mappings[m].at, "a mapping's file name is not in the string table");
	}
	if (l->mapping && len > 0) {
		const struct mapping *mp = &pp->mappings[m];
		const char *slash = memrchr(file, '/', len);
		size_t skip = slash ? (size_t)(slash + 1 - file) : 0;
		escape_frame_add(&pp->frames, file + skip, len - skip);
		uint64_t in_file = l->address - mp->start + mp->offset;
		buf_printf(&pp->frames, "+0x%llx", (unsigned long long)in_file);
	} else {
		buf_printf(&pp->frames, "0x%llx", (unsigned long long)l->address);
	}
	return true;
}

/* A function's name, else its system name; false when it has neither. */
static bool
function_name(struct pprof *pp, const struct function *f, const char **s, size_t *len)
{
	if (!string_at(pp, f->name, s, len) || !string_at(pp, f->system_name, s + 1, len + 1)) {
		return fail_at(pp, f->at, "a function's name is not in the string table");
	}
	if (*len == 0) {
		*s = s[1];
		*len = len[1];
	}
	return *len > 0;
}

/* The frames of location l, outermost first, made once into pp->frames. */
static bool
make_frames(struct pprof *pp, struct location *l)
{
	l->frame = pp->frames.len;
	for (uint32_t i = l->lines; i-- > 0;) {
		uint64_t id = pp->lines[l->first_line + i];
		uint32_t f;
		if (id && !idmap_get(&pp->function_ids, id, &f)) {
			return fail_at(pp, l->at,
			        "a location names a function the profile does not define");
		}
		const char *name[2];
		size_t len[2];
		if (pp->frames.len > l->frame) {
			buf_addc(&pp->frames, ';');
		}
		if (id && function_name(pp, &pp->functions[f], name, len)) {
			escape_frame_add(&pp->frames, name[0], len[0]);
		} else if (pp->err->msg[0] || !add_address(pp, l)) {
			return false;
		}
	}
	if (l->lines == 0 && !add_address(pp, l)) {
		return false;
	}
	l->frame_len = pp->frames.len - l->frame;
	return true;
}

/* The folded stack of entry e into pp->path, root first. */
static bool
make_path(struct pprof *pp, const struct stack *s)
{
	const unsigned char *p = (const unsigned char *)pp->stacks.data + s->off;
	const unsigned char *end = p + s->len;
	buf_reset(&pp->key); /* the location indexes, leaf first */
	while (p < end) {
		uint64_t id = 0;
		uint32_t i;
		varint(&p, end, &id);
		if (!idmap_get(&pp->location_ids, id, &i)) {
			return fail_at(
			        pp, s->at, "a sample names a location the profile does not define");
		}
		buf_add(&pp->key, &i, sizeof(i));
	}
	buf_reset(&pp->path);
	for (size_t k = s->nlocs; k-- > 0;) {
		uint32_t i;
		memcpy(&i, pp->key.data + k * sizeof(i), sizeof(i));
		struct location *l = &pp->locations[i];
		/* A location of many inlined lines, named by many samples, asks
		 * for far more frames than the file has bytes. */
		if (!source_spend(pp->src, l->lines ? l->lines : 1, pp->err)) {
			return false;
		}
		if (l->frame == SIZE_MAX && !make_frames(pp, l)) {
			return false;
		}
		if (pp->path.len + l->frame_len + 1 > BOUND_STACK) {
			return fail_at(pp, s->at, "a sample's stack is longer than 16 MiB");
		}
		buf_adds(&pp->path, pp->path.len ? ";" : "");
		buf_add(&pp->path, pp->frames.data + l->frame, l->frame_len);
	}
	if (s->nlocs == 0) {
		buf_adds(&pp->path, "[no location]");
	}
	return true;
}

/* Index of the sample type to read, or -1 with err set. */
static long
choose_type(struct pprof *pp)
{
	const char *name = pp->opt->event;
	for (size_t i = 0; name && i < pp->ntypes; i++) {
		const char *s;
		size_t len;
		if (string_at(pp, pp->types[i].type, &s, &len) && len == strlen(name) &&
		        memcmp(s, name, len) == 0) {
			return (long)i;
		}
	}
	char *end;
	unsigned long n = name ? strtoul(name, &end, 10) : 0;
	if (name && *name >= '0' && *name <= '9' && !*end && n < pp->ntypes) {
		return (long)n;
	}
	if (name) {
		return -1;
	}
	for (size_t i = 0; pp->default_type && i < pp->ntypes; i++) {
		if (pp->types[i].type == pp->default_type) {
			return (long)i;
		}
	}
	return (long)pp->ntypes - 1;
}

/*
 * The sample type that counts samples (unit "count", Go's "samples"),
 * -1 when there is none. Another type's values (CPU nanoseconds) weigh
 * each sample by its period, or by time measured; the test of sampling
 * noise needs how many samples they hold, which this type says.
 */
static long
count_type(const struct pprof *pp, long chosen)
{
	for (size_t pass = 0; pass < 2; pass++) {
		/* The type read first, when it is one, then the others in order. */
		for (size_t i = 0; i < pp->ntypes; i++) {
			const char *s;
			size_t len;
			if ((pass == 0) != (i == (size_t)chosen)) {
				continue;
			}
			if (string_at(pp, pp->types[i].unit, &s, &len) && len == 5 &&
			        memcmp(s, "count", 5) == 0) {
				return (long)i;
			}
		}
	}
	return -1;
}

static void
list_types(const struct pprof *pp, struct buf *b)
{
	for (size_t i = 0; i < pp->ntypes; i++) {
		const char *s = "?";
		size_t len = 1;
		string_at(pp, pp->types[i].type, &s, &len);
		buf_adds(b, i ? ", " : "");
		escape_diag(b, s, len);
	}
}

static void
copy_string(const struct pprof *pp, int64_t i, char *dst, size_t cap)
{
	const char *s = "";
	size_t len = 0;
	string_at(pp, i, &s, &len);
	len = len < cap - 1 ? len : cap - 1;
	memcpy(dst, s, len);
	dst[len] = '\0';
}

static bool
describe(struct pprof *pp, long k, struct pprof_info *info)
{
	const struct sample_type *st = &pp->types[k];
	const char *s;
	size_t len;
	if (!string_at(pp, st->type, &s, &len) || !string_at(pp, st->unit, &s, &len)) {
		return fail_at(pp, 0, "a sample type is not in the string table");
	}
	copy_string(pp, st->type, info->type, sizeof(info->type));
	bool count = len == 5 && memcmp(s, "count", 5) == 0;
	copy_string(pp, count || len == 0 ? st->type : st->unit, info->unit, sizeof(info->unit));
	info->samples = pp->samples;
	return true;
}

static bool
finish(struct pprof *pp, struct pprof_info *info)
{
	if (pp->ntypes == 0) {
		diag_set(pp->err, pp->name, 0, "not a pprof profile: it has no sample type");
		return false;
	}
	if (pp->samples && pp->nvalues != pp->ntypes) {
		return fail_at(pp, pp->values_at,
		        "a sample's number of values differs from the number of sample types");
	}
	long k = choose_type(pp);
	if (k < 0) {
		struct buf why;
		buf_init(&why);
		buf_adds(&why, "--event: no sample type ");
		escape_diag(&why, pp->opt->event, strlen(pp->opt->event));
		buf_adds(&why, " (the profile has ");
		list_types(pp, &why);
		buf_adds(&why, ")");
		diag_set(pp->err, pp->name, 0, why.data);
		buf_finish(&why);
		return false;
	}
	if (!describe(pp, k, info)) {
		return false;
	}
	long counted = count_type(pp, k);
	uint64_t added = 0;
	for (size_t e = 0; e < pp->nentries; e++) {
		uint64_t v = pp->sums[e * pp->nvalues + (size_t)k];
		const char *reason;
		if (v == 0) {
			continue;
		}
		if (!make_path(pp, &pp->entries[e])) {
			return false;
		}
		if (!tree_add_stack(pp->t, pp->side, pp->path.data, pp->path.len,
		            (struct count){v, 0}, &reason)) {
			return fail_at(pp, pp->entries[e].at, reason);
		}
		if (counted >= 0) {
			info->sample_count += (double)pp->sums[e * pp->nvalues + (size_t)counted];
			info->sample_value += (double)v;
		}
		added++;
	}
	if (added == 0) {
		struct buf why;
		buf_init(&why);
		buf_adds(&why, "no sample has a value of sample type ");
		escape_diag(&why, info->type, strlen(info->type));
		diag_set(pp->err, pp->name, 0, why.data);
		buf_finish(&why);
		return false;
	}
	return true;
}

static void
pprof_init(struct pprof *pp, struct tree *t, enum side side, const char *name,
        const struct pprof_options *opt, struct diag *err)
{
	memset(pp, 0, sizeof(*pp));
	pp->t = t;
	pp->side = side;
	pp->name = name;
	pp->opt = opt;
	pp->err = err;
	err->msg[0] = '\0';
	pp->seed = hash_seed();
	pp->alloc = (ProtobufCAllocator){arena_alloc, arena_free, &pp->arena};
	buf_init(&pp->strings);
	buf_init(&pp->stacks);
	buf_init(&pp->key);
	buf_init(&pp->frames);
	buf_init(&pp->path);
}

static void
pprof_finish(struct pprof *pp)
{
	arena_reset(&pp->arena);
	free(pp->arena.block);
	free(pp->arena.big);
	free(pp->types);
	buf_finish(&pp->strings);
	free(pp->string_off);
	free(pp->mappings);
	free(pp->locations);
	free(pp->lines);
	free(pp->functions);
	idmap_finish(&pp->mapping_ids);
	idmap_finish(&pp->location_ids);
	idmap_finish(&pp->function_ids);
	buf_finish(&pp->stacks);
	free(pp->entries);
	free(pp->slots);
	free(pp->sums);
	buf_finish(&pp->key);
	buf_finish(&pp->frames);
	buf_finish(&pp->path);
}

static long long
parse_chunk(void *ctx, const char *data, size_t len, bool at_eof)
{
	return parse_fields(ctx, data, len, at_eof);
}

/*
 * What a sample type measures, so that sides compare by it: Go's and
 * gperftools' heap types by what they count, others as type and unit.
 */
static void
type_measure(const char *type, const char *unit, char *dst, size_t cap)
{
	static const struct {
		const char *type, *measure;
	} known[] = {
	        {"inuse_space", "heap bytes in use"},
	        {"inuse_objects", "heap objects in use"},
	        {"alloc_space", "bytes allocated"},
	        {"alloc_objects", "objects allocated"},
	        {"space", "heap bytes in use"},
	        {"objects", "heap objects in use"},
	};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
		if (strcmp(type, known[i].type) == 0) {
			snprintf(dst, cap, "%s", known[i].measure);
			return;
		}
	}
	snprintf(dst, cap, "%s (%s)", type, unit);
}

bool
pprof_read(struct tree *t, enum folded_mode mode, struct source *src, const char *head,
        size_t head_len, const struct read_options *ro, struct read_result *res, struct diag *err)
{
	struct pprof_options opt = {ro->event};
	struct pprof_info info;
	struct pprof pp;
	pprof_init(&pp, t, reader_side(mode), source_name(src), &opt, err);
	pp.src = src;
	memset(&info, 0, sizeof(info));
	bool ok = source_parse(src, head, head_len, parse_chunk, &pp, err);
	ok = ok && finish(&pp, &info);
	pprof_finish(&pp);
	if (!ok) {
		return false;
	}
	snprintf(res->note, sizeof(res->note), "pprof: sample type %s (%s)", info.type, info.unit);
	snprintf(res->unit, sizeof(res->unit), "%s", info.unit);
	type_measure(info.type, info.unit, res->measure, sizeof(res->measure));
	snprintf(res->key, sizeof(res->key), "%s", info.type);
	res->samples = info.samples;
	res->sample_count = info.sample_count;
	res->sample_value = info.sample_value;
	return true;
}
