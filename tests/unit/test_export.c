/* export: folded (2/3 columns) and JSON output. */
#include "export.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "json_check.h"

static void
test_json_checker(void **state)
{
	(void)state;
	/* The checker itself must be able to say no. */
	const char *good[] = {
	        "{}", "[]", "{\"a\":[1,2.5,-3e2,true,false,null]}", " \"x\" ", "[{\"a\":{}},[]]"};
	const char *bad[] = {"", "{", "{\"a\":1,}", "[1,]", "[1 2]", "{a:1}", "\"\x01\"",
	        "\"\xff\"", "[01]", "[1.]", "{\"a\":1}x", "[\"\\x\"]", "{\"a\"}", "[}"};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_true(json_valid(good[i], strlen(good[i])));
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (json_valid(bad[i], strlen(bad[i]))) {
			fail_msg("accepted: %s", bad[i]);
		}
	}
}

static char *
folded_of(const char *in, enum folded_mode mode, bool differential, const struct tree_options *opt)
{
	struct tree *t = tree_from(in, mode, opt);
	tree_finish(t, differential);
	char *s = dump_tree(t);
	tree_destroy(t);
	return s;
}

static void
test_folded_columns(void **state)
{
	(void)state;
	char *s = folded_of("b;y 2\na;x 1.5\nb 3\n", FOLDED_AUTO, false, NULL);
	assert_string_equal(s, "a;x 1.5\nb 3\nb;y 2\n");
	free(s);
	s = folded_of("b;y 2 0\na;x 1.5 4\nb 0 3\n", FOLDED_AUTO, true, NULL);
	assert_string_equal(s, "a;x 1.5 4\nb 0 3\nb;y 2 0\n");
	free(s);
	/* Normalised base counts are printed scaled (head total / base total). */
	struct tree_options opt = {.normalize = true, .min_delta = 0.001};
	s = folded_of("a 1 3\nb 3 3\n", FOLDED_AUTO, true, &opt);
	assert_string_equal(s, "a 1.5 3\nb 4.5 3\n");
	free(s);
}

static char *
json_of(const char *in, enum folded_mode mode, bool differential)
{
	struct tree *t = tree_from(in, mode, NULL);
	tree_finish(t, differential);
	struct options o;
	options_init(&o);
	struct report_options r;
	settings_report(&o, &r);
	struct report *rep = t->differential ? report_create(t, &r) : NULL;
	struct out out;
	out_init_memory(&out);
	export_json(&out, t, o.json_layout, rep);
	report_destroy(rep);
	options_finish(&o);
	tree_destroy(t);
	size_t len;
	char *s = buf_detach(&out.b, &len);
	if (!json_valid(s, len)) {
		fail_msg("invalid JSON: %s", s);
	}
	return s;
}

static void
test_json_single(void **state)
{
	(void)state;
	char *s = json_of("m;b 2\nm;a 1\n", FOLDED_HEAD, false);
	assert_string_equal(s,
	        "{\"base_total\":0,\"head_total\":3,\"normalized\":false,\"base_scale\":1,"
	        "\"differential\":false,\"root\":"
	        "{\"name\":\"all\",\"base\":0,\"head\":3,\"base_self\":0,\"head_self\":0,"
	        "\"status\":\"same\",\"children\":["
	        "{\"name\":\"m\",\"base\":0,\"head\":3,\"base_self\":0,\"head_self\":0,"
	        "\"status\":\"same\",\"children\":["
	        "{\"name\":\"a\",\"base\":0,\"head\":1,\"base_self\":0,\"head_self\":1,"
	        "\"status\":\"same\",\"children\":[]},"
	        "{\"name\":\"b\",\"base\":0,\"head\":2,\"base_self\":0,\"head_self\":2,"
	        "\"status\":\"same\",\"children\":[]}]}]}}\n");
	free(s);
}

static void
test_json_differential(void **state)
{
	(void)state;
	char *s = json_of("m;old 5 0\nm;new 0 5\nm;same 100 100\nm;slow 10 50\nm;fast 50 10\n"
	                  "m;q\"\\\x01\xff\xe2\x80\xa8 1 1\n",
	        FOLDED_AUTO, true);
	const char *root = strstr(s, "\"root\":");
	assert_non_null(root);
	const char *head = "{\"base_total\":166,\"head_total\":166,\"normalized\":false,";
	assert_true(strncmp(s, head, strlen(head)) == 0);
	assert_non_null(strstr(root, "{\"name\":\"old\",\"base\":5,\"head\":0,\"base_self\":5,"
	                             "\"head_self\":0,\"status\":\"removed\",\"children\":[]}"));
	assert_non_null(strstr(root, "{\"name\":\"new\",\"base\":0,\"head\":5,\"base_self\":0,"
	                             "\"head_self\":5,\"status\":\"new\",\"children\":[]}"));
	assert_non_null(strstr(root, "\"name\":\"same\",\"base\":100,\"head\":100,"
	                             "\"base_self\":100,\"head_self\":100,\"status\":\"same\""));
	assert_non_null(strstr(root, "\"name\":\"slow\",\"base\":10,\"head\":50,\"base_self\":10,"
	                             "\"head_self\":50,\"status\":\"slower\""));
	assert_non_null(strstr(root, "\"name\":\"fast\",\"base\":50,\"head\":10,\"base_self\":50,"
	                             "\"head_self\":10,\"status\":\"faster\""));
	assert_non_null(strstr(root, "\"name\":\"q\\\"\\\\\\u0001\\ufffd\\u2028\""));
	/* The differential object carries the report summary after the tree. */
	assert_non_null(strstr(s, "[]}]}]},\"summary\":{"));
	free(s);
}

static void
test_json_deep(void **state)
{
	(void)state;
	/* Siblings after a deep branch close the right number of brackets. */
	char *s = json_of("a;b;c;d 1\na;e 2\nf 3\n", FOLDED_HEAD, false);
	const char *p = strstr(s, "\"name\":\"d\"");
	assert_non_null(p);
	assert_non_null(strstr(p, "\"children\":[]}]}]},{\"name\":\"e\""));
	p = strstr(s, "\"name\":\"e\"");
	assert_non_null(strstr(p, "\"children\":[]}]},{\"name\":\"f\""));
	assert_non_null(strstr(s, "\"name\":\"f\",\"base\":0,\"head\":3,\"base_self\":0,"
	                          "\"head_self\":3,\"status\":\"same\",\"children\":[]}]}}\n"));
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_json_checker),
	        cmocka_unit_test(test_folded_columns),
	        cmocka_unit_test(test_json_single),
	        cmocka_unit_test(test_json_differential),
	        cmocka_unit_test(test_json_deep),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
