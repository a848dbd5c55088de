/*
 * jsonstream and the JSON readers (speedscope, gecko, dhat): each rule on
 * a hand-written file, and the errors with their lines. Real DHAT files
 * are checked in tests/profilers/dhat/.
 */
#include "jsonstream.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "dhat.h"
#include "gecko.h"
#include "helpers.h"
#include "readers.h"
#include "speedscope.h"

enum reader { SPEEDSCOPE, GECKO, DHAT };

/* data read by one of the JSON readers, metric as its --event. */
static bool
read_named(enum reader r, struct tree *t, const char *name, const char *data, size_t len,
        const char *metric, struct read_result *res, struct diag *err)
{
	static const char *const names[] = {"speedscope", "gecko", "dhat"};
	struct read_options ro;
	readers_options_init(&ro);
	ro.event = metric;
	return readers_read_mem(
	        readers_find(names[r]), t, FOLDED_HEAD, name, data, len, &ro, res, err);
}

static bool
read_with(enum reader r, struct tree *t, const char *data, const char *metric, struct diag *err)
{
	struct read_result res;
	return read_named(r, t, "f.json", data, strlen(data), metric, &res, err);
}

static void
check(enum reader r, const char *data, const char *metric, const char *want)
{
	struct tree_options to = {.min_delta = 0.001};
	struct tree *t = tree_create(&to);
	struct diag err;
	if (!read_with(r, t, data, metric, &err)) {
		fail_msg("read failed: %s", err.msg);
	}
	tree_finish(t, false);
	char *got = dump_tree(t);
	assert_string_equal(got, want);
	free(got);
	tree_destroy(t);
}

/* The read fails with exactly the message want ("f.json:LINE: ..."). */
static void
check_error(enum reader r, const char *data, const char *want)
{
	struct tree_options to = {.min_delta = 0.001};
	struct tree *t = tree_create(&to);
	struct diag err;
	assert_false(read_with(r, t, data, NULL, &err));
	assert_string_equal(err.msg, want);
	tree_destroy(t);
}

#define SS                                                                                         \
	"{\"$schema\":\"speedscope\",\"shared\":{\"frames\":[{\"name\":\"m\"},{\"name\":\"f\"}]},"

static void
test_speedscope_weights_after_samples(void **state)
{
	(void)state;
	check(SPEEDSCOPE,
	        SS "\"profiles\":[{\"type\":\"sampled\",\"unit\":\"bytes\","
	           "\"samples\":[[0,1],[0],[0,1]],\"weights\":[3,4,5]}]}",
	        NULL, "m 4\nm;f 8\n");
}

static void
test_speedscope_no_weights_count_one(void **state)
{
	(void)state;
	check(SPEEDSCOPE, SS "\"profiles\":[{\"type\":\"sampled\",\"samples\":[[0,1],[0,1],[0]]}]}",
	        NULL, "m 1\nm;f 2\n");
}

static void
test_speedscope_frames_last(void **state)
{
	(void)state;
	check(SPEEDSCOPE,
	        "{\"profiles\":[{\"type\":\"sampled\",\"samples\":[[1,0]],\"weights\":[0.25]}],"
	        "\"shared\":{\"frames\":[{\"name\":\"x;y\"},{\"file\":\"nameless.c\"}]},"
	        "\"$schema\":\"speedscope\"}",
	        NULL, "[unknown];x:y 0.25\n");
}

static void
test_speedscope_evented_self_time(void **state)
{
	(void)state;
	check(SPEEDSCOPE,
	        SS
	        "\"profiles\":[{\"type\":\"evented\",\"events\":["
	        "{\"type\":\"O\",\"frame\":0,\"at\":10},{\"type\":\"O\",\"frame\":1,\"at\":11},"
	        "{\"type\":\"C\",\"frame\":1,\"at\":15},{\"type\":\"C\",\"frame\":0,\"at\":16}]}]}",
	        NULL, "m 2\nm;f 4\n");
}

static void
test_speedscope_errors(void **state)
{
	(void)state;
	check_error(SPEEDSCOPE,
	        SS
	        "\n\"profiles\":[{\"type\":\"evented\",\"events\":[\n"
	        "{\"type\":\"O\",\"frame\":0,\"at\":1},\n{\"type\":\"C\",\"frame\":1,\"at\":2}]}]}",
	        "f.json:4: an event closes a frame that is not the last opened");
	check_error(SPEEDSCOPE,
	        SS
	        "\"profiles\":[{\"type\":\"evented\",\"events\":[\n"
	        "{\"type\":\"O\",\"frame\":0,\"at\":5},\n{\"type\":\"C\",\"frame\":0,\"at\":2}]}]}",
	        "f.json:3: events go back in time");
	/* speedscope refuses a frame opened and never closed. */
	check_error(SPEEDSCOPE,
	        SS "\"profiles\":[{\"type\":\"evented\",\"events\":[\n"
	           "{\"type\":\"O\",\"frame\":0,\"at\":0}]\n}]}",
	        "f.json:3: an evented profile ends with a frame still open (an \"O\" event without "
	        "its \"C\")");
	check_error(SPEEDSCOPE, SS "\"profiles\":[{\"samples\":[[0]],\"weights\":[1,2]}]}",
	        "f.json:1: more weights than samples");
	check_error(SPEEDSCOPE, SS "\"profiles\":[{\"samples\":[[7]],\"weights\":[1]}]}",
	        "f.json: frame 7 has no name in the frame table");
	check_error(SPEEDSCOPE, SS "\"profiles\":[{\"samples\":[[0]],\"weights\":[-1]}]}",
	        "f.json:1: a weight is not a non-negative number");
	check_error(SPEEDSCOPE, SS "\"profiles\":[]}", "f.json: no profile in the speedscope file");
	check_error(SPEEDSCOPE, "[\"speedscope\"]", "f.json:1: a speedscope file is a JSON object");
}

static void
test_malformed_json_line(void **state)
{
	(void)state;
	check_error(SPEEDSCOPE, "{\"$schema\":\"speedscope\",\n\n  \"profiles\": [,]}",
	        "f.json:3: malformed JSON: parse error: unallowed token at this point in JSON "
	        "text");
	check_error(DHAT, "{\"dhatFileVersion\":2,\n\"pps\":[{\"fs\":[1],\"tb\":1}",
	        "f.json:2: malformed JSON: parse error: premature EOF");
	check_error(DHAT, "{\"dhatFileVersion\":2,\"cmd\":\"\xff\"}",
	        "f.json:1: malformed JSON: lexical error: invalid bytes in UTF8 string.");
}

#define GK_TABLES                                                                                  \
	"\"stackTable\":{\"prefix\":[null,0,1],\"frame\":[0,1,2]},"                                \
	"\"frameTable\":{\"func\":[0,1,1]},\"funcTable\":{\"name\":[1,0]}"

static void
test_gecko_shared_strings_and_weights(void **state)
{
	(void)state;
	check(GECKO,
	        "{\"meta\":{\"version\":1},\"threads\":[{\"name\":\"t\",\"samples\":{\"weight\":[2,"
	        "3,"
	        "4],\"stack\":[0,2,null]}," GK_TABLES
	        "}],\"shared\":{\"stringArray\":[\"f\",\"m\"]}}",
	        NULL, "t;m 2\nt;m;f;f 3\n");
}

static void
test_gecko_thread_strings(void **state)
{
	(void)state;
	check(GECKO,
	        "{\"meta\":{},\"threads\":[{\"stringArray\":[\"f\",\"m\"],\"samples\":{\"stack\":"
	        "[1,1],\"weight\":null}," GK_TABLES "}]}",
	        NULL, "[unknown thread];m;f 2\n");
}

/*
 * Since version 60 the tables live under "shared"; since 66 a stack names
 * its prefix by how far back it is (prefixOffset, 0 for a root).
 */
static void
test_gecko_shared_tables(void **state)
{
	(void)state;
	static const char v68[] =
	        "{\"meta\":{\"preprocessedProfileVersion\":68},\"threads\":[{\"name\":\"t\","
	        "\"samples\":{\"weight\":null,\"stack\":[2,1,2]}}],\"shared\":{\"stackTable\":"
	        "{\"frame\":[0,1,0],\"prefixOffset\":[0,1,1]},\"frameTable\":{\"func\":[0,1]},"
	        "\"funcTable\":{\"name\":[1,0]},\"stringArray\":[\"f\",\"m\"]}}";
	check(GECKO, v68, NULL, "t;m;f 1\nt;m;f;m 2\n");
	/* A newer version is read while its tables are as they were... */
	char *v71 = strdup(v68);
	memcpy(strstr(v71, "68"), "71", 2);
	check(GECKO, v71, NULL, "t;m;f 1\nt;m;f;m 2\n");
	free(v71);
	/* ...and refused, naming its version, when they are not. */
	check_error(GECKO,
	        "{\"meta\":{\"preprocessedProfileVersion\":75},\"threads\":[{\"samples\":{"
	        "\"stack\":[0]}}],\"shared\":{\"stacks\":{}}}",
	        "f.json: a sample's stack is not in the stack table (the Firefox Profiler's "
	        "processed format version 75 is newer than the versions difffold reads, 0 to 70, "
	        "and its tables are not where they were)");
	check_error(GECKO,
	        "{\"meta\":{},\"threads\":[],\"shared\":{\"stackTable\":{\"prefixOffset\":[0,\n2]}}"
	        "}",
	        "f.json:2: a stack's prefixOffset reaches before the table");
}

/*
 * An empty name is `[unknown]`, as in the callgrind and perf readers: a
 * folded line cannot end in an empty frame, so -f folded could not write
 * it back (a speedscope frame named "" alone gave the line " 1").
 */
static void
test_empty_names_unknown(void **state)
{
	(void)state;
	check(SPEEDSCOPE,
	        "{\"$schema\":\"speedscope\",\"shared\":{\"frames\":[{\"name\":\"\"},"
	        "{\"name\":\"b\"}]},\"profiles\":[{\"type\":\"sampled\",\"samples\":[[0],[1,0]]}]}",
	        NULL, "[unknown] 1\nb;[unknown] 1\n");
	check(GECKO,
	        "{\"meta\":{},\"threads\":[{\"name\":\"t\",\"samples\":{\"stack\":[0,2]}," GK_TABLES
	        "}],\"shared\":{\"stringArray\":[\"\",\"m\"]}}",
	        NULL, "t;m 1\nt;m;[unknown];[unknown] 1\n");
}

static void
test_gecko_errors(void **state)
{
	(void)state;
	check_error(GECKO,
	        "{\"meta\":{},\"threads\":[{\"stackTable\":{\"prefix\":[null,\n2,1],\"frame\":[0,1,"
	        "2]}}]}",
	        "f.json:2: a stack's prefix does not come before it");
	check_error(GECKO,
	        "{\"meta\":{},\"threads\":[{\"samples\":{\"stack\":[5]}," GK_TABLES
	        "}],\"shared\":{\"stringArray\":[\"f\",\"m\"]}}",
	        "f.json: a sample's stack is not in the stack table");
	check_error(GECKO,
	        "{\"meta\":{},\"threads\":[{\"samples\":{\"stack\":[2]},\"stackTable\":{\"prefix\":"
	        "[null,0,1],\"frame\":[0,1,2]},\"frameTable\":{\"func\":[0,1,9]},\"funcTable\":{"
	        "\"name\":[1,0]}}],\"shared\":{\"stringArray\":[\"f\",\"m\"]}}",
	        "f.json: a frame has no function name in the tables");
	check_error(GECKO, "{\"meta\":{},\"threads\":[]}", "f.json: no thread in the profile");
}

#define DH_FTBL                                                                                    \
	",\"ftbl\":[\"[root]\",\"0x1: operator new(unsigned long) (vg_replace_malloc.c:1)\","      \
	"\"0x2: main (a.c:3)\",\"0x3: ???\",\"0x4: f (in /lib/x.so)\"]}"

static void
test_dhat_names_and_metrics(void **state)
{
	(void)state;
	const char *f = "{\"dhatFileVersion\":2,\"tu\":\"instrs\",\"pps\":["
	                "{\"tb\":10,\"tbk\":1,\"tl\":7,\"fs\":[1,2]},"
	                "{\"fs\":[3,4,2],\"tb\":5,\"tbk\":2,\"tl\":1}]" DH_FTBL;
	check(DHAT, f, NULL, "main;f;??? 5\nmain;operator new(unsigned long) 10\n");
	check(DHAT, f, "tbk", "main;f;??? 2\nmain;operator new(unsigned long) 1\n");
	struct tree_options to = {.min_delta = 0.001};
	struct tree *t = tree_create(&to);
	struct read_result di;
	struct diag err;
	assert_true(read_named(DHAT, t, "f", f, strlen(f), "tl", &di, &err));
	assert_string_equal(di.unit, "instructions");
	assert_string_equal(di.note, "DHAT: total lifetime of the blocks (tl)");
	tree_destroy(t);
	/* --mode=copy counts bytes copied in the same field: said so, and so
	 * never compared with heap mode's bytes allocated. */
	static const char copy[] = "{\"dhatFileVersion\":2,\"mode\":\"copy\",\"pps\":[{\"tb\":4,"
	                           "\"tbk\":1,\"fs\":[2]}]" DH_FTBL;
	t = tree_create(&to);
	assert_true(read_named(DHAT, t, "f", copy, strlen(copy), NULL, &di, &err));
	assert_string_equal(di.measure, "total bytes copied");
	assert_string_equal(di.note, "DHAT: total bytes copied (tb)");
	tree_destroy(t);
}

static void
test_dhat_errors(void **state)
{
	(void)state;
	check_error(DHAT, "{\"dhatFileVersion\":2,\"mode\":\"copy\",\"pps\":[\n{\"tb\":1}]" DH_FTBL,
	        "f.json:2: a program point has no frame");
	check_error(DHAT, "{\"dhatFileVersion\":2,\"pps\":[{\"tbk\":1,\"fs\":[1]}]" DH_FTBL,
	        "f.json:1: a program point has no \"tb\" (choose another --event)");
	check_error(DHAT, "{\"dhatFileVersion\":2,\"pps\":[{\"tb\":1,\"fs\":[9]}]" DH_FTBL,
	        "f.json: frame 9 has no name in the frame table");
	struct tree_options to = {.min_delta = 0.001};
	struct tree *t = tree_create(&to);
	struct read_result di;
	struct diag err;
	assert_false(read_named(DHAT, t, "f", "{}", 2, "cycles", &di, &err));
	assert_non_null(strstr(err.msg, "--event for DHAT"));
	tree_destroy(t);
}

/*
 * A stack table of one chain DEEP stacks long, every stack sampled once:
 * 8 bytes a stack, but DEEP^2/2 frames as paths.
 */
#define DEEP 20000

static char *
deep_gecko(void)
{
	struct buf b;
	buf_init(&b);
	buf_adds(&b, "{\"meta\":{},\"threads\":[{\"name\":\"t\",\"samples\":{\"stack\":[");
	for (int i = 0; i < DEEP; i++) {
		buf_printf(&b, "%s%d", i ? "," : "", i);
	}
	buf_adds(&b, "]}}],\"shared\":{\"stackTable\":{\"prefix\":[null");
	for (int i = 1; i < DEEP; i++) {
		buf_printf(&b, ",%d", i - 1);
	}
	buf_adds(&b, "],\"frame\":[");
	for (int i = 0; i < DEEP; i++) {
		buf_adds(&b, i ? ",0" : "0");
	}
	buf_adds(&b, "]},\"frameTable\":{\"func\":[0]},\"funcTable\":{\"name\":[0]},"
	             "\"stringArray\":[\"f\"]}}");
	size_t len;
	return buf_detach(&b, &len);
}

/* Each stack is named once, by cursor: the tree is the chain, every node counted once. */
static void
test_deep_stacks_linear(void **state)
{
	(void)state;
	char *doc = deep_gecko();
	struct tree_options to = {.min_delta = 0.001};
	struct tree *t = tree_create(&to);
	struct read_result gi;
	struct diag err;
	assert_true(read_named(GECKO, t, "deep", doc, strlen(doc), NULL, &gi, &err));
	tree_finish(t, false);
	assert_int_equal(t->node_count, DEEP + 2); /* the root, the thread, the chain */
	assert_int_equal(t->nodes[0].total_units[SIDE_HEAD], DEEP);
	tree_destroy(t);

	/* --reverse needs whole paths: refused before any is built. */
	to.reverse = true;
	t = tree_create(&to);
	assert_false(read_named(GECKO, t, "deep", doc, strlen(doc), NULL, &gi, &err));
	assert_non_null(strstr(err.msg, "too deep to merge from the leaf end"));
	tree_destroy(t);
	free(doc);
}

static void
test_json_count(void **state)
{
	(void)state;
	struct count c;
	assert_true(json_count("12.5", 4, &c));
	assert_true(c.units == 12 && c.nanos == 500000000);
	assert_true(json_count("1.5e3", 5, &c));
	assert_true(c.units == 1500 && c.nanos == 0);
	assert_true(json_count("2E-1", 4, &c));
	assert_true(c.units == 0 && c.nanos == 200000000);
	assert_false(json_count("-1", 2, &c));
	assert_false(json_count("1e400", 5, &c));
	uint32_t i;
	assert_true(json_index("7", 1, &i) && i == 7);
	assert_false(json_index("1.5", 3, &i));
	assert_false(json_index("4294967295", 10, &i));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_speedscope_weights_after_samples),
	        cmocka_unit_test(test_speedscope_no_weights_count_one),
	        cmocka_unit_test(test_speedscope_frames_last),
	        cmocka_unit_test(test_speedscope_evented_self_time),
	        cmocka_unit_test(test_speedscope_errors),
	        cmocka_unit_test(test_malformed_json_line),
	        cmocka_unit_test(test_gecko_shared_strings_and_weights),
	        cmocka_unit_test(test_gecko_thread_strings),
	        cmocka_unit_test(test_gecko_shared_tables),
	        cmocka_unit_test(test_gecko_errors),
	        cmocka_unit_test(test_empty_names_unknown),
	        cmocka_unit_test(test_dhat_names_and_metrics),
	        cmocka_unit_test(test_dhat_errors),
	        cmocka_unit_test(test_deep_stacks_linear),
	        cmocka_unit_test(test_json_count),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
