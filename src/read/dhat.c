#include "dhat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonstream.h"

/* The metrics of a program point, and what they count. */
static const struct {
	const char *name;
	const char *unit;
	const char *what; /* for the header */
} metrics[] = {
        {"tb", "bytes", "total bytes allocated"},
        {"tbk", "blocks", "total blocks allocated"},
        {"tl", NULL, "total lifetime of the blocks"},
        {"mb", "bytes", "bytes at the maximum"},
        {"mbk", "blocks", "blocks at the maximum"},
        {"gb", "bytes", "bytes at the global peak"},
        {"gbk", "blocks", "blocks at the global peak"},
        {"eb", "bytes", "bytes at the end"},
        {"ebk", "blocks", "blocks at the end"},
        {"rb", "bytes", "bytes read"},
        {"wb", "bytes", "bytes written"},
};

struct dhat {
	struct json_stacks stacks;
	struct json_strings ftbl; /* function names, stripped */
	struct json_u32s fs; /* the program point's frames, leaf first */
	const char *metric;
	struct count value; /* the program point's metric */
	bool has_value;
	char tu[16]; /* the time unit of "tl" ("instrs") */
	char mode[16]; /* "heap", "copy", "ad-hoc", "rust-heap"; "" when absent */
	struct dhat_info *info;
	unsigned seen, point_seen; /* the document's keys, the program point's (SEEN_) */
};

/* The keys read once an object: a second would add to the first. */
enum { SEEN_PPS = 1, SEEN_FTBL = 2, SEEN_FS = 4 };

bool
dhat_metric_known(const char *name)
{
	for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++) {
		if (strcmp(metrics[i].name, name) == 0) {
			return true;
		}
	}
	return false;
}

static const char *
metric_what(const char *name)
{
	for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++) {
		if (strcmp(metrics[i].name, name) == 0) {
			return metrics[i].what;
		}
	}
	return "";
}

static const char *
metric_unit(const struct dhat *d)
{
	if (strcmp(d->metric, "tl") == 0) {
		return strcmp(d->tu, "instrs") == 0 ? json_unit_name("instructions")
		                                    : json_unit_name(d->tu);
	}
	for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++) {
		if (strcmp(metrics[i].name, d->metric) == 0) {
			return metrics[i].unit;
		}
	}
	return NULL;
}

/*
 * "0x4C2DB8F: malloc (vg_replace_malloc.c:309)" -> "malloc": the address
 * before ": ", the place in the last " (...)" (C++ names have parentheses
 * of their own before it).
 */
static void
push_function(struct json_strings *ftbl, const char *s, size_t len)
{
	if (len > 2 && s[0] == '0' && s[1] == 'x') {
		const char *colon = memchr(s, ':', len);
		if (colon && (size_t)(colon - s) + 1 < len && colon[1] == ' ') {
			len -= (size_t)(colon + 2 - s);
			s = colon + 2;
		}
	}
	if (len > 0 && s[len - 1] == ')') {
		for (size_t i = len - 1; i-- > 0;) {
			if (s[i] == '(' && i > 0 && s[i - 1] == ' ') {
				len = i - 1;
				break;
			}
		}
	}
	json_strings_push(ftbl, s, len);
}

static bool
value(void *ctx, struct jsonstream *js, enum json_kind kind, const char *s, size_t len)
{
	struct dhat *d = ctx;
	if (js->depth == 0 && kind != JSON_OBJECT) {
		return jsonstream_fail(js, "a DHAT file is a JSON object");
	}
	if (js->depth == 1 && (JSON_AT(js, "pps") || JSON_AT(js, "ftbl")) &&
	        !jsonstream_once(
	                js, &d->seen, JSON_AT(js, "pps") ? SEEN_PPS : SEEN_FTBL, "the DHAT file")) {
		return false;
	}
	if (JSON_AT(js, "pps", "#")) {
		d->point_seen = 0; /* a program point opens */
	} else if (JSON_AT(js, "pps", "#", "fs") &&
	           !jsonstream_once(js, &d->point_seen, SEEN_FS, "a program point")) {
		return false;
	}
	if (JSON_AT(js, "pps", "#", "fs", "#")) {
		uint32_t f;
		if (kind != JSON_NUMBER || !json_index(s, len, &f)) {
			return jsonstream_fail(js, "a program point's frame is not an index");
		}
		json_u32s_push(&d->fs, f);
	} else if (JSON_AT(js, "pps", "#", "*") && strcmp(js->lv[2].key, d->metric) == 0) {
		if (kind != JSON_NUMBER || !json_count(s, len, &d->value)) {
			return jsonstream_fail(js, "a program point's metric is not a number");
		}
		d->has_value = true;
	} else if (JSON_AT(js, "ftbl", "#")) {
		if (kind != JSON_STRING) {
			return jsonstream_fail(js, "a frame of ftbl is not a string");
		}
		push_function(&d->ftbl, s, len);
	} else if (JSON_AT(js, "mode") && kind == JSON_STRING) {
		size_t n = len < sizeof(d->mode) - 1 ? len : sizeof(d->mode) - 1;
		memcpy(d->mode, s, n);
		d->mode[n] = '\0';
	} else if (JSON_AT(js, "tu") && kind == JSON_STRING) {
		size_t n = len < sizeof(d->tu) - 1 ? len : sizeof(d->tu) - 1;
		memcpy(d->tu, s, n);
		d->tu[n] = '\0';
	}
	return true;
}

/* A program point ends: its frames, outermost first, count its metric. */
static bool
point_end(struct jsonstream *js, struct dhat *d)
{
	if (!d->has_value) {
		char why[96];
		snprintf(why, sizeof(why), "a program point has no \"%s\" (choose another --event)",
		        d->metric);
		return jsonstream_fail(js, why);
	}
	uint32_t node = 0;
	for (size_t i = d->fs.count; i-- > 0;) {
		node = json_stacks_child(&d->stacks, node, d->fs.v[i]);
	}
	if (node == 0) {
		return jsonstream_fail(js, "a program point has no frame");
	}
	if (!json_stacks_add(&d->stacks, node, d->value)) {
		return jsonstream_fail(js, "the profile's total exceeds 2^64-1");
	}
	d->fs.count = 0;
	d->has_value = false;
	d->info->points++;
	return true;
}

static bool
on_close(void *ctx, struct jsonstream *js, enum json_kind kind)
{
	if (kind == JSON_OBJECT && JSON_AT(js, "pps", "#")) {
		return point_end(js, ctx);
	}
	return true;
}

static const struct json_reader reader = {value, on_close};

/*
 * What a metric counts in the file's mode: --mode=copy counts bytes copied
 * and ad-hoc mode the program's own units in the same fields as heap
 * mode's allocations, which must not be compared with them.
 */
static const char *
mode_what(const char *mode, const char *metric)
{
	if (strcmp(mode, "copy") == 0) {
		return strcmp(metric, "tbk") == 0 ? "total copies" : "total bytes copied";
	}
	if (strcmp(mode, "ad-hoc") == 0) {
		return strcmp(metric, "tbk") == 0 ? "total ad-hoc events" : "total ad-hoc units";
	}
	return metric_what(metric);
}

/* An unknown metric is refused before reading: every point would lack it. */
static bool
init(struct dhat *d, const char *metric, struct dhat_info *info, const char *name, struct diag *err)
{
	memset(d, 0, sizeof(*d));
	memset(info, 0, sizeof(*info));
	d->info = info;
	d->metric = metric ? metric : "tb";
	json_stacks_init(&d->stacks);
	json_strings_init(&d->ftbl);
	if (!dhat_metric_known(d->metric)) {
		diag_set(err, name, 0,
		        "--event for DHAT: tb, tbk, tl, mb, mbk, gb, gbk, eb, ebk, rb or wb");
		return false;
	}
	return true;
}

static bool
finish(struct dhat *d, bool ok, struct tree *t, enum side side, const char *name, struct diag *err)
{
	if (ok && d->info->points == 0) {
		diag_set(err, name, 0, "no program point in the DHAT file");
		ok = false;
	}
	ok = ok && json_stacks_emit(&d->stacks, t, side, &d->ftbl, name, err);
	if (ok) {
		d->info->unit = metric_unit(d);
		d->info->what = mode_what(d->mode, d->metric);
		snprintf(d->info->metric, sizeof(d->info->metric), "%s", d->metric);
	}
	json_stacks_finish(&d->stacks);
	json_strings_finish(&d->ftbl);
	free(d->fs.v);
	return ok;
}

bool
dhat_read(struct tree *t, enum folded_mode mode, struct source *src, const char *head,
        size_t head_len, const struct read_options *ro, struct read_result *res, struct diag *err)
{
	struct dhat_info info;
	struct dhat d;
	bool ok = init(&d, ro->event, &info, source_name(src), err) &&
	          jsonstream_read_source(src, head, head_len, &reader, &d, err);
	ok = finish(&d, ok, t, reader_side(mode), source_name(src), err);
	if (ok) {
		reader_json_unit(res, info.unit);
		snprintf(res->measure, sizeof(res->measure), "%s", info.what);
		snprintf(res->note, sizeof(res->note), "DHAT: %s (%s)", info.what, info.metric);
		snprintf(res->key, sizeof(res->key), "%s", info.metric);
		res->exact = true;
	}
	return ok;
}
