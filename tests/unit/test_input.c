#include "input.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "buf.h"
#include "helpers.h"
#include "options.h"
#include "settings.h"
#include "tree.h"

static const char callgrind[] = "events: Ir\nfl=a.c\nfn=main\n1 10\n";
static const char perf[] = "prog 1 1.5: 1 cycles:u: \n\t1157 main (/tmp/prog)\n\n";
static const char massif[] =
        "desc: (none)\ncmd: ./a\ntime_unit: i\n#-----------\nsnapshot=0\n#-----------\n"
        "time=0\nmem_heap_B=8\nmem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=peak\n"
        "n1: 8 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n"
        " n0: 8 0x1: main (a.c:1)\n";
static const char dhat[] = "{\"dhatFileVersion\":2,\"mode\":\"heap\",\"pps\":[{\"tb\":8,"
                           "\"fs\":[1]}],\"ftbl\":[\"[root]\",\"0x1: main (a.c:1)\"]}";

/* What input_read said of base and head files of these contents. */
struct outcome {
	bool ok;
	struct input_info info;
	char messages[1024];
};

static void
read_pair(struct outcome *r, const char *base, const char *head, bool comparable)
{
	char *bp = temp_file(".b", base, strlen(base));
	char *hp = temp_file(".h", head, strlen(head));
	struct options o;
	options_init(&o);
	char *argv[] = {
	        "difffold", "-f", "folded", bp, hp, comparable ? "--comparable" : NULL, NULL};
	struct diag err;
	assert_int_equal(options_parse(&o, comparable ? 6 : 5, argv, &err), OPTIONS_OK);
	struct tree *t;
	struct buf msg;
	buf_init(&msg);
	struct input_options in;
	settings_input(&o, &in);
	r->ok = input_read(&in, &t, &r->info, &msg);
	snprintf(r->messages, sizeof(r->messages), "%s", msg.data ? msg.data : "");
	buf_finish(&msg);
	input_tree_destroy(t);
	options_finish(&o);
	unlink(bp);
	unlink(hp);
	free(bp);
	free(hp);
}

/* Callgrind's counts are exact, perf's sampled; each side says its own. */
static void
test_exact_and_measure(void **state)
{
	(void)state;
	struct outcome r;
	read_pair(&r, callgrind, callgrind, false);
	assert_true(r.ok);
	assert_true(input_side_exact(&r.info, SIDE_BASE));
	assert_true(input_side_exact(&r.info, SIDE_HEAD));
	assert_string_equal(input_side_measure(&r.info, SIDE_HEAD), "instructions");
	assert_string_equal(input_side_reader(&r.info, SIDE_BASE), "callgrind");
	assert_non_null(strstr(r.info.note, "; base and head: callgrind (instructions)"));

	read_pair(&r, "main 3\n", perf, false);
	assert_true(r.ok);
	assert_false(input_side_exact(&r.info, SIDE_BASE));
	assert_false(input_side_exact(&r.info, SIDE_HEAD));
	assert_null(input_side_measure(&r.info, SIDE_BASE));
	assert_string_equal(input_side_measure(&r.info, SIDE_HEAD), "samples of cycles");
	assert_string_equal(input_side_reader(&r.info, SIDE_BASE), "folded");
	assert_non_null(strstr(r.info.note, "base: folded, head: perf (samples of cycles)"));
}

/* Sides of different measures are refused, naming both, unless comparable. */
static void
test_different_measures(void **state)
{
	(void)state;
	struct outcome r;
	read_pair(&r, massif, dhat, false);
	assert_false(r.ok);
	assert_non_null(strstr(r.messages, "counts heap bytes in use (massif)"));
	assert_non_null(strstr(r.messages, "counts total bytes allocated (dhat)"));

	read_pair(&r, callgrind, perf, false);
	assert_false(r.ok);
	assert_non_null(strstr(r.messages, "counts instructions (callgrind)"));
	assert_non_null(strstr(r.messages, "counts samples of cycles (perf)"));

	read_pair(&r, callgrind, perf, true);
	assert_true(r.ok);
	assert_non_null(strstr(r.info.note,
	        "base: callgrind (instructions), head: perf (samples of cycles), compared as "
	        "asked (--comparable)"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_exact_and_measure),
	        cmocka_unit_test(test_different_measures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
