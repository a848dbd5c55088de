/* The pprof reader through its public API, on profiles encoded here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "buf.h"
#include "export.h"
#include "output.h"
#include "pprof.h"
#include "readers.h"
#include "tree.h"
#include "tree_build.h"

static void
varint(struct buf *b, uint64_t v)
{
	while (v >= 0x80) {
		buf_addc(b, (char)(unsigned char)(v | 0x80));
		v >>= 7;
	}
	buf_addc(b, (char)v);
}

static void
field_varint(struct buf *b, unsigned num, uint64_t v)
{
	varint(b, num << 3);
	varint(b, v);
}

/* A length-delimited field holding msg. */
static void
field_msg(struct buf *b, unsigned num, const struct buf *msg)
{
	varint(b, num << 3 | 2);
	varint(b, msg->len);
	buf_add(b, msg->data, msg->len);
}

static void
string(struct buf *b, const char *s)
{
	struct buf m = {(char *)s, strlen(s), 0};
	field_msg(b, 6, &m);
}

/* Field num of b: a message of fields 1 and 2 (ValueType, Function). */
static void
pair_msg(struct buf *b, unsigned num, uint64_t one, uint64_t two)
{
	struct buf m;
	buf_init(&m);
	field_varint(&m, 1, one);
	field_varint(&m, 2, two);
	field_msg(b, num, &m);
	buf_finish(&m);
}

static void
value_type(struct buf *b, uint64_t type, uint64_t unit)
{
	pair_msg(b, 1, type, unit);
}

static void
function(struct buf *b, uint64_t id, uint64_t name)
{
	pair_msg(b, 5, id, name);
}

/* A location with up to three lines (function ids, innermost first; 0 ends). */
static void
location(struct buf *b, uint64_t id, uint64_t address, const uint64_t fns[3])
{
	struct buf m, line;
	buf_init(&m);
	buf_init(&line);
	field_varint(&m, 1, id);
	field_varint(&m, 3, address);
	for (int i = 0; i < 3 && fns[i]; i++) {
		buf_reset(&line);
		field_varint(&line, 1, fns[i]);
		field_msg(&m, 4, &line);
	}
	field_msg(b, 4, &m);
	buf_finish(&line);
	buf_finish(&m);
}

/* A sample of two values over locs (leaf first, 0 ends), unpacked ids. */
static void
sample(struct buf *b, const uint64_t *locs, int64_t v0, int64_t v1)
{
	struct buf m;
	buf_init(&m);
	for (int i = 0; locs[i]; i++) {
		field_varint(&m, 1, locs[i]);
	}
	field_varint(&m, 2, (uint64_t)v0);
	field_varint(&m, 2, (uint64_t)v1);
	field_msg(b, 2, &m);
	buf_finish(&m);
}

/*
 * Strings: 0 "", 1 samples, 2 count, 3 cpu, 4 nanoseconds, 5 main,
 * 6 outer, 7 inner. Location 1 is main, location 2 is inner inlined into
 * outer, location 3 has no lines. The samples come before the tables.
 */
static void
profile(struct buf *b)
{
	value_type(b, 1, 2);
	value_type(b, 3, 4);
	sample(b, (const uint64_t[]){2, 1, 0}, 3, 300);
	sample(b, (const uint64_t[]){3, 1, 0}, 1, 100);
	sample(b, (const uint64_t[]){2, 1, 0}, 2, 200);
	location(b, 1, 0x10, (const uint64_t[]){1, 0, 0});
	location(b, 2, 0x20, (const uint64_t[]){3, 2, 0});
	location(b, 3, 0xabc, (const uint64_t[]){0, 0, 0});
	function(b, 1, 5);
	function(b, 2, 6);
	function(b, 3, 7);
	const char *strings[] = {
	        "", "samples", "count", "cpu", "nanoseconds", "main", "outer", "inner"};
	for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
		string(b, strings[i]);
	}
}

/* Reads data with --event event; the folded stacks into folded. */
static bool
read_profile(const struct buf *data, const char *event, struct buf *folded,
        struct read_result *info, struct diag *err)
{
	struct tree_options topt = {0};
	struct tree *t = tree_create(&topt);
	struct read_options ro;
	readers_options_init(&ro);
	ro.event = event;
	bool ok = readers_read_mem(readers_find("pprof"), t, FOLDED_HEAD, "p.pb", data->data,
	        data->len, &ro, info, err);
	if (ok) {
		tree_finish(t, false);
		struct out out;
		out_init_memory(&out);
		export_folded(&out, t);
		buf_add(folded, out.b.data, out.b.len);
		buf_finish(&out.b);
	}
	tree_destroy(t);
	return ok;
}

static void
test_default_is_last_type(void **state)
{
	(void)state;
	struct buf data, folded;
	buf_init(&data);
	buf_init(&folded);
	profile(&data);
	struct read_result info;
	struct diag err;
	assert_true(read_profile(&data, NULL, &folded, &info, &err));
	assert_string_equal(folded.data, "main;0xabc 100\nmain;outer;inner 500\n");
	assert_string_equal(info.key, "cpu");
	assert_string_equal(info.unit, "nanoseconds");
	assert_int_equal(info.samples, 3);
	/* The samples type says how many samples the nanoseconds hold. */
	assert_true(info.sample_count == 6 && info.sample_value == 600);
	buf_finish(&data);
	buf_finish(&folded);
}

static void
test_event_by_name_and_index(void **state)
{
	(void)state;
	struct buf data, folded;
	buf_init(&data);
	buf_init(&folded);
	profile(&data);
	struct read_result info;
	struct diag err;
	assert_true(read_profile(&data, "samples", &folded, &info, &err));
	assert_string_equal(folded.data, "main;0xabc 1\nmain;outer;inner 5\n");
	assert_string_equal(info.unit, "samples"); /* unit "count": the type names it */
	buf_reset(&folded);
	assert_true(read_profile(&data, "1", &folded, &info, &err));
	assert_string_equal(info.key, "cpu");
	assert_false(read_profile(&data, "wall", &folded, &info, &err));
	assert_string_equal(
	        err.msg, "p.pb: --event: no sample type wall (the profile has samples, cpu)");
	buf_finish(&data);
	buf_finish(&folded);
}

static void
test_malformed_names_offset(void **state)
{
	(void)state;
	struct buf data, folded;
	buf_init(&data);
	buf_init(&folded);
	profile(&data);
	size_t good = data.len;
	buf_addc(&data, 0x13); /* field 2, wire type 3: a group, never in a Profile */
	struct read_result info;
	struct diag err;
	assert_false(read_profile(&data, NULL, &folded, &info, &err));
	char want[128];
	snprintf(want, sizeof want, "p.pb: byte offset %zu: malformed protobuf", good);
	assert_memory_equal(err.msg, want, strlen(want));
	/* Cut inside the last string. */
	buf_setlen(&data, good - 2);
	assert_false(read_profile(&data, NULL, &folded, &info, &err));
	assert_non_null(strstr(err.msg, "truncated inside a field"));
	buf_finish(&data);
	buf_finish(&folded);
}

static void
test_negative_value_refused(void **state)
{
	(void)state;
	struct buf data, folded;
	buf_init(&data);
	buf_init(&folded);
	value_type(&data, 1, 2);
	value_type(&data, 3, 4);
	sample(&data, (const uint64_t[]){1, 0}, 1, -100);
	struct read_result info;
	struct diag err;
	assert_false(read_profile(&data, NULL, &folded, &info, &err));
	assert_non_null(strstr(err.msg, "negative"));
	buf_finish(&data);
	buf_finish(&folded);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_default_is_last_type),
	        cmocka_unit_test(test_event_by_name_and_index),
	        cmocka_unit_test(test_malformed_names_offset),
	        cmocka_unit_test(test_negative_value_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
