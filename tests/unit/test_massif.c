/* The massif reader through its public API, on hand-written files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "buf.h"
#include "export.h"
#include "massif.h"
#include "output.h"
#include "readers.h"
#include "tree.h"
#include "tree_build.h"

#define HEADER "desc: --depth=3\ncmd: ./prog\ntime_unit: i\n"
#define SNAPSHOT(n, kind)                                                                          \
	"#-----------\nsnapshot=" #n "\n#-----------\ntime=" #n "\nmem_heap_B=0\n"                 \
	"mem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=" kind "\n"

/* Reads text with --snapshot snapshot; its folded stacks into folded. */
static bool
read_massif(const char *text, long snapshot, struct buf *folded, struct diag *err)
{
	struct tree_options topt = {0};
	struct tree *t = tree_create(&topt);
	struct read_options ro;
	readers_options_init(&ro);
	ro.snapshot = snapshot;
	struct read_result res;
	bool ok = readers_read_mem(readers_find("massif"), t, FOLDED_HEAD, "m.out", text,
	        strlen(text), &ro, &res, err);
	if (ok) {
		tree_finish(t, false);
		struct out out;
		out_init_memory(&out);
		export_folded(&out, t);
		buf_reset(folded);
		buf_add(folded, out.b.data, out.b.len);
		buf_finish(&out.b);
	}
	tree_destroy(t);
	return ok;
}

/* C++ names with parentheses, ';' in a name, an object for ???, self bytes
 * at a node whose stack ends there (--depth), threshold lines. */
static const char deep_tree[] = HEADER SNAPSHOT(0, "empty") SNAPSHOT(
        1, "peak") "n4: 1000 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n"
                   " n2: 700 0x10: operator new(unsigned long) (vg_replace_malloc.c:342)\n"
                   "  n1: 500 0x20: std::vector<int;int>::grow() (vector.h:10)\n"
                   "   n0: 500 0x30: main (m.cpp:3)\n"
                   "  n0: 150 in 3 places, all below massif's threshold (1.00%)\n"
                   " n0: 200 0x40: ??? (in /usr/lib/x86_64-linux-gnu/libz.so.1)\n"
                   " n0: 50 0x44: #hash (h.c:1)\n"
                   " n0: 50 in 2 places, all below massif's threshold (1.00%)\n" SNAPSHOT(
                           2, "detailed") "n1: 10 (heap allocation functions) malloc/new/new[], "
                                          "--alloc-fns, etc.\n"
                                          " n0: 10 0x50: f (f.c:1)\n";

static void
test_peak_tree(void **state)
{
	(void)state;
	struct buf folded;
	buf_init(&folded);
	struct diag err;
	assert_true(read_massif(deep_tree, MASSIF_PEAK, &folded, &err));
	assert_string_equal(folded.data,
	        " #hash 50\n"
	        "[below massif's threshold] 50\n"
	        "[below massif's threshold];operator new(unsigned long) 150\n"
	        "[libz.so.1] 200\n"
	        "main;std::vector<int:int>::grow();operator new(unsigned long) 500\n"
	        "operator new(unsigned long) 50\n");
	assert_true(read_massif(deep_tree, 2, &folded, &err));
	assert_string_equal(folded.data, "f 10\n");
	buf_finish(&folded);
}

static void
test_snapshot_without_tree(void **state)
{
	(void)state;
	struct buf folded;
	buf_init(&folded);
	struct diag err;
	assert_false(read_massif(deep_tree, 0, &folded, &err));
	assert_string_equal(err.msg,
	        "m.out: snapshot 0 has no heap tree (massif keeps one for detailed snapshots and "
	        "the peak only); snapshots with a heap tree: 1, 2");
	assert_false(read_massif(deep_tree, 7, &folded, &err));
	assert_string_equal(err.msg, "m.out: no snapshot 7; snapshots with a heap tree: 1, 2");
	buf_finish(&folded);
}

static void
test_children_checked(void **state)
{
	(void)state;
	struct buf folded;
	buf_init(&folded);
	struct diag err;
	const char *more = HEADER SNAPSHOT(0, "peak") "n1: 10 (heap allocation functions)\n"
	                                              " n0: 11 0x1: f (f.c:1)\n";
	assert_false(read_massif(more, MASSIF_PEAK, &folded, &err));
	assert_non_null(strstr(err.msg, "m.out:13: a node holds more bytes"));
	const char *jump = HEADER SNAPSHOT(0, "peak") "n1: 10 (heap allocation functions)\n"
	                                              "  n0: 10 0x1: f (f.c:1)\n";
	assert_false(read_massif(jump, MASSIF_PEAK, &folded, &err));
	assert_non_null(strstr(err.msg, "indented deeper"));
	buf_finish(&folded);
}

/*
 * A node whose function is empty (nothing after its bytes, or nothing
 * after its address) is refused with its line: massif never writes one,
 * and an empty name leaves push_name no byte to write its frame into.
 */
static void
test_empty_function(void **state)
{
	(void)state;
	struct buf folded;
	buf_init(&folded);
	static const char *const nodes[] = {" n0: 10\n", " n0: 10 \n", " n0: 10 0x1: \n"};
	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		struct buf text;
		buf_init(&text);
		buf_adds(&text, HEADER SNAPSHOT(0, "peak") "n1: 10 (heap allocation functions)\n");
		buf_adds(&text, nodes[i]);
		struct diag err;
		assert_false(read_massif(text.data, MASSIF_PEAK, &folded, &err));
		assert_non_null(strstr(err.msg, "m.out:13: a heap tree node has no function name"));
		buf_finish(&text);
	}
	buf_finish(&folded);
}

/* A path deeper than the first buffer: the written-backwards path moves. */
static void
test_deep_path(void **state)
{
	(void)state;
	struct buf text, want, folded;
	buf_init(&text);
	buf_init(&want);
	buf_init(&folded);
	buf_adds(&text, HEADER SNAPSHOT(0, "peak"));
	buf_adds(&text, "n1: 7 (heap allocation functions)\n");
	for (int d = 1; d <= 2000; d++) {
		buf_printf(
		        &text, "%*sn%d: 7 0x1: function_number_%d (f.c:1)\n", d, "", d < 2000, d);
	}
	for (int d = 2000; d >= 1; d--) {
		buf_printf(&want, "function_number_%d%s", d, d > 1 ? ";" : " 7\n");
	}
	struct diag err;
	assert_true(read_massif(text.data, MASSIF_PEAK, &folded, &err));
	assert_string_equal(folded.data, want.data);
	buf_finish(&text);
	buf_finish(&want);
	buf_finish(&folded);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_peak_tree),
	        cmocka_unit_test(test_snapshot_without_tree),
	        cmocka_unit_test(test_children_checked),
	        cmocka_unit_test(test_empty_function),
	        cmocka_unit_test(test_deep_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
