#include "speedscope.h"

#include <stdlib.h>
#include <string.h>

#include "jsonstream.h"
#include "xalloc.h"

/*
 * A sampled profile's samples and weights may come in either order: the
 * one that comes first is kept (a node or a weight a sample) until the
 * other pairs with it, so at most one of them is ever held.
 */
struct profile {
	struct json_u32s nodes; /* the samples' stacks, before the weights came */
	struct count *weights; /* the weights, before the samples came */
	size_t weight_count, weight_cap;
	uint64_t samples; /* samples read */
	uint64_t weighed; /* weights read */
	bool samples_done, weights_done, has_weights;
	uint32_t node; /* the stack being read: a sample, or the open frames */
	struct json_u32s open; /* evented: the open frames' nodes, and their frames */
	struct json_u32s open_frames;
	struct count last; /* evented: the time of the last event */
	bool started;
	char type; /* "type": 's' sampled, 'e' evented, '?' other, 0 not given */
	bool has_samples, has_events; /* the arrays were there */
	/* The event being read. */
	char ev_type;
	uint32_t ev_frame;
	struct count ev_at;
	bool ev_has_frame, ev_has_at;
	char unit[16];
};

struct speedscope {
	struct json_stacks stacks;
	struct json_strings frames;
	struct buf name; /* the frame being read's name */
	bool has_name;
	struct profile p;
	struct speedscope_info *info;
	bool unit_set;
	char unit[16]; /* the first profile's unit */
	bool has_frames, has_profiles; /* shared.frames and profiles were read */
};

static void
profile_reset(struct profile *p)
{
	free(p->nodes.v);
	free(p->weights);
	free(p->open.v);
	free(p->open_frames.v);
	memset(p, 0, sizeof(*p));
}

static bool
add(struct jsonstream *js, struct speedscope *sc, uint32_t node, struct count c)
{
	if (!json_stacks_add(&sc->stacks, node, c)) {
		return jsonstream_fail(js, "the profile's total exceeds 2^64-1");
	}
	return true;
}

/* A sample's stack ended: weigh it now, or keep it for its weight. */
static bool
sample_end(struct jsonstream *js, struct speedscope *sc)
{
	struct profile *p = &sc->p;
	uint64_t i = p->samples++;
	if (!p->weights_done) {
		json_u32s_push(&p->nodes, p->node);
		return true;
	}
	if (i >= p->weight_count) {
		return jsonstream_fail(js, "more samples than weights");
	}
	return add(js, sc, p->node, p->weights[i]);
}

static bool
weight(struct jsonstream *js, struct speedscope *sc, const char *s, size_t len)
{
	struct profile *p = &sc->p;
	struct count c;
	if (s == NULL || !json_count(s, len, &c)) {
		return jsonstream_fail(js, "a weight is not a non-negative number");
	}
	uint64_t i = p->weighed++;
	if (!p->samples_done) {
		p->weights = xgrow(p->weights, &p->weight_cap, p->weight_count + 1, sizeof(c));
		p->weights[p->weight_count++] = c;
		return true;
	}
	if (i >= p->nodes.count) {
		return jsonstream_fail(js, "more weights than samples");
	}
	return add(js, sc, p->nodes.v[i], c);
}

/* The time since the last event counts for the frames open until now. */
static bool
event_end(struct jsonstream *js, struct speedscope *sc)
{
	struct profile *p = &sc->p;
	if (!p->ev_has_frame || !p->ev_has_at || (p->ev_type != 'O' && p->ev_type != 'C')) {
		return jsonstream_fail(
		        js, "an event needs a type (\"O\" or \"C\"), a frame and a time");
	}
	if (p->started && count_cmp(p->ev_at, p->last) < 0) {
		return jsonstream_fail(js, "events go back in time");
	}
	if (p->started && p->open.count > 0 &&
	        !add(js, sc, p->open.v[p->open.count - 1], count_sub(p->ev_at, p->last))) {
		return false;
	}
	p->started = true;
	p->last = p->ev_at;
	if (p->ev_type == 'O') {
		uint32_t parent = p->open.count ? p->open.v[p->open.count - 1] : 0;
		json_u32s_push(&p->open, json_stacks_child(&sc->stacks, parent, p->ev_frame));
		json_u32s_push(&p->open_frames, p->ev_frame);
	} else if (p->open.count == 0 || p->open_frames.v[p->open.count - 1] != p->ev_frame) {
		return jsonstream_fail(js, "an event closes a frame that is not the last opened");
	} else {
		p->open.count--;
		p->open_frames.count--;
	}
	p->ev_has_frame = p->ev_has_at = false;
	p->ev_type = 0;
	return true;
}

static bool
event_value(struct jsonstream *js, struct profile *p, const char *key, enum json_kind kind,
        const char *s, size_t len)
{
	if (strcmp(key, "type") == 0) {
		p->ev_type = kind == JSON_STRING && len == 1 ? s[0] : '?';
	} else if (strcmp(key, "frame") == 0) {
		if (kind != JSON_NUMBER || !json_index(s, len, &p->ev_frame)) {
			return jsonstream_fail(js, "an event's frame is not an index");
		}
		p->ev_has_frame = true;
	} else if (strcmp(key, "at") == 0) {
		if (kind != JSON_NUMBER || !json_count(s, len, &p->ev_at)) {
			return jsonstream_fail(js, "an event's time is not a non-negative number");
		}
		p->ev_has_at = true;
	}
	return true;
}

/* The containers whose values are most of a file. */
enum { TAG_SAMPLE = 1, TAG_WEIGHTS };

static bool
profile_value(struct jsonstream *js, struct speedscope *sc, enum json_kind kind, const char *s,
        size_t len)
{
	struct profile *p = &sc->p;
	/* A field of the wrong shape is refused, not read as an empty profile. */
	if (JSON_AT(js, "profiles", "#", "samples") || JSON_AT(js, "profiles", "#", "events")) {
		bool samples = JSON_AT(js, "profiles", "#", "samples");
		if (kind != JSON_ARRAY) {
			return jsonstream_fail(
			        js, samples ? "a profile's \"samples\" is not an array"
			                    : "a profile's \"events\" is not an array");
		}
		/* JSON.parse keeps a key's last value; read as they come, two
		 * would add up: refused rather than read differently. */
		if (samples ? p->has_samples : p->has_events) {
			return jsonstream_fail(js, samples ? "a profile has two \"samples\" keys"
			                                   : "a profile has two \"events\" keys");
		}
		p->has_samples |= samples;
		p->has_events |= !samples;
	} else if (JSON_AT(js, "profiles", "#", "type")) {
		p->type = kind != JSON_STRING                        ? '?'
		          : len == 7 && memcmp(s, "sampled", 7) == 0 ? 's'
		          : len == 7 && memcmp(s, "evented", 7) == 0 ? 'e'
		                                                     : '?';
	}
	if (JSON_AT(js, "profiles", "#", "samples", "#")) {
		if (kind != JSON_ARRAY) {
			return jsonstream_fail(js, "a sample is not an array of frame indices");
		}
		jsonstream_tag_next(js, TAG_SAMPLE);
		p->node = 0;
	} else if (JSON_AT(js, "profiles", "#", "weights")) {
		if (kind != JSON_ARRAY || p->has_weights) {
			return jsonstream_fail(
			        js, kind != JSON_ARRAY ? "a profile's \"weights\" is not an array"
			                               : "a profile has two \"weights\" keys");
		}
		jsonstream_tag_next(js, TAG_WEIGHTS);
		p->has_weights = true;
	} else if (JSON_AT(js, "profiles", "#", "events", "#", "*")) {
		return event_value(js, p, js->lv[4].key, kind, s, len);
	} else if (JSON_AT(js, "profiles", "#", "unit") && kind == JSON_STRING) {
		size_t n = len < sizeof(p->unit) - 1 ? len : sizeof(p->unit) - 1;
		memcpy(p->unit, s, n);
		p->unit[n] = '\0';
	}
	return true;
}

static bool
value(void *ctx, struct jsonstream *js, enum json_kind kind, const char *s, size_t len)
{
	struct speedscope *sc = ctx;
	int tag = jsonstream_tag(js);
	if (tag == TAG_SAMPLE) {
		uint32_t f;
		if (kind != JSON_NUMBER || !json_index(s, len, &f)) {
			return jsonstream_fail(js, "a sample's frame is not an index");
		}
		sc->p.node = json_stacks_child(&sc->stacks, sc->p.node, f);
		return true;
	}
	if (tag == TAG_WEIGHTS) {
		return weight(js, sc, kind == JSON_NUMBER ? s : NULL, len);
	}
	if (js->depth == 0 && kind != JSON_OBJECT) {
		return jsonstream_fail(js, "a speedscope file is a JSON object");
	}
	/* A second frames or profiles array would add to the first (JSON.parse
	 * keeps the last): refused. */
	bool frames = JSON_AT(js, "shared", "frames");
	if (frames || (js->depth == 1 && JSON_AT(js, "profiles"))) {
		bool *seen = frames ? &sc->has_frames : &sc->has_profiles;
		if (*seen) {
			return jsonstream_fail(js, frames ? "a second \"frames\" key in \"shared\""
			                                  : "a second \"profiles\" key");
		}
		*seen = true;
	}
	if (JSON_AT(js, "shared", "frames", "#", "name") && kind == JSON_STRING) {
		buf_reset(&sc->name);
		buf_add(&sc->name, s, len);
		sc->has_name = true;
		return true;
	}
	if (js->depth >= 3 && !js->lv[0].array && strcmp(js->lv[0].key, "profiles") == 0) {
		return profile_value(js, sc, kind, s, len);
	}
	return true;
}

/* All profiles of a file have one unit, which names the counts. */
static bool
profile_unit(struct jsonstream *js, struct speedscope *sc)
{
	if (!sc->unit_set) {
		memcpy(sc->unit, sc->p.unit, sizeof(sc->unit));
		sc->info->unit = json_unit_name(sc->unit);
		sc->unit_set = true;
	} else if (strcmp(sc->unit, sc->p.unit) != 0) {
		return jsonstream_fail(js, "profiles of different units cannot be summed");
	}
	return true;
}

/* What a profile must hold for its type, as speedscope's importer wants it. */
static bool
profile_shape(struct jsonstream *js, const struct profile *p)
{
	if (p->type == '?') {
		return jsonstream_fail(js, "a profile's \"type\" is neither \"sampled\" nor "
		                           "\"evented\"");
	}
	if (p->type == 's' && !p->has_samples) {
		return jsonstream_fail(js, "a sampled profile has no \"samples\" array");
	}
	if (p->type == 'e' && !p->has_events) {
		return jsonstream_fail(js, "an evented profile has no \"events\" array");
	}
	if (!p->type && !p->has_samples && !p->has_events) {
		return jsonstream_fail(js, "a profile has neither \"samples\" nor \"events\"");
	}
	return true;
}

static bool
profile_end(struct jsonstream *js, struct speedscope *sc)
{
	struct profile *p = &sc->p;
	if (!profile_shape(js, p)) {
		return false;
	}
	/* Samples without weights count one each. */
	for (size_t i = 0; !p->has_weights && i < p->nodes.count; i++) {
		if (!add(js, sc, p->nodes.v[i], (struct count){1, 0})) {
			return false;
		}
	}
	if (p->has_weights && p->samples != p->weighed) {
		return jsonstream_fail(js, "a profile has not as many weights as samples");
	}
	/* speedscope refuses it too: the open frames' time has no end. */
	if (p->open.count > 0) {
		return jsonstream_fail(js, "an evented profile ends with a frame still open "
		                           "(an \"O\" event without its \"C\")");
	}
	sc->info->profiles++;
	bool ok = profile_unit(js, sc);
	profile_reset(p);
	return ok;
}

static bool
on_close(void *ctx, struct jsonstream *js, enum json_kind kind)
{
	struct speedscope *sc = ctx;
	struct profile *p = &sc->p;
	(void)kind;
	if (JSON_AT(js, "shared", "frames", "#")) {
		json_strings_push(&sc->frames, sc->has_name ? sc->name.data : "[unknown]",
		        sc->has_name ? sc->name.len : 9);
		sc->has_name = false;
	} else if (JSON_AT(js, "profiles", "#", "samples", "#")) {
		return sample_end(js, sc);
	} else if (JSON_AT(js, "profiles", "#", "samples")) {
		p->samples_done = true;
	} else if (JSON_AT(js, "profiles", "#", "weights")) {
		p->weights_done = true;
		if (p->samples_done && p->weighed != p->nodes.count) {
			return jsonstream_fail(js, "a profile has not as many weights as samples");
		}
	} else if (JSON_AT(js, "profiles", "#", "events", "#")) {
		return event_end(js, sc);
	} else if (JSON_AT(js, "profiles", "#")) {
		return profile_end(js, sc);
	}
	return true;
}

static const struct json_reader reader = {value, on_close};

static void
init(struct speedscope *sc, struct speedscope_info *info)
{
	memset(sc, 0, sizeof(*sc));
	memset(info, 0, sizeof(*info));
	sc->info = info;
	json_stacks_init(&sc->stacks);
	json_strings_init(&sc->frames);
	buf_init(&sc->name);
}

static bool
finish(struct speedscope *sc, bool ok, struct tree *t, enum side side, const char *name,
        struct diag *err)
{
	if (ok && sc->info->profiles == 0) {
		diag_set(err, name, 0, "no profile in the speedscope file");
		ok = false;
	}
	ok = ok && json_stacks_emit(&sc->stacks, t, side, &sc->frames, name, err);
	profile_reset(&sc->p);
	json_stacks_finish(&sc->stacks);
	json_strings_finish(&sc->frames);
	buf_finish(&sc->name);
	return ok;
}

bool
speedscope_read(struct tree *t, enum folded_mode mode, struct source *src, const char *head,
        size_t head_len, const struct read_options *ro, struct read_result *res, struct diag *err)
{
	(void)ro;
	struct speedscope_info info;
	struct speedscope sc;
	init(&sc, &info);
	bool ok = jsonstream_read_source(src, head, head_len, &reader, &sc, err);
	ok = finish(&sc, ok, t, reader_side(mode), source_name(src), err);
	if (ok) {
		reader_json_unit(res, info.unit);
	}
	return ok;
}
