/*
 * perf: the folding rules of perf script text one at a time, on
 * hand-written files. Real files made by perf are checked in tests/profilers/perf/.
 */
#include "perf.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "readers.h"

/* The readers' options with perf's --event and --weight period set, the
 * C runtime's frames kept (--show-below-main): the folding rules alone. */
static struct read_options
perf_options(const char *event, bool weight_period)
{
	struct read_options ro;
	readers_options_init(&ro);
	ro.event = event;
	ro.weight_period = weight_period;
	ro.below_main = true;
	return ro;
}

/* The folded export of a file read with opt; fails the test on error. */
static char *
read_as(const char *data, const struct read_options *opt, struct read_result *info)
{
	const struct read_options defaults = perf_options(NULL, false);
	struct tree_options to = {.min_delta = 0.001};
	struct tree *t = tree_create(&to);
	struct read_result ignored;
	struct diag err;
	if (!readers_read_mem(readers_find("perf"), t, FOLDED_HEAD, "mem", data, strlen(data),
	            opt ? opt : &defaults, info ? info : &ignored, &err)) {
		fail_msg("read failed: %s", err.msg);
	}
	tree_finish(t, false);
	char *s = dump_tree(t);
	tree_destroy(t);
	return s;
}

static void
check(const char *data, const char *want)
{
	char *got = read_as(data, NULL, NULL);
	assert_string_equal(got, want);
	free(got);
}

/* The read fails with a message containing `want`. */
static void
check_error(const char *data, const struct read_options *opt, const char *want)
{
	const struct read_options defaults = perf_options(NULL, false);
	struct tree_options to = {.min_delta = 0.001};
	struct tree *t = tree_create(&to);
	struct read_result info;
	struct diag err;
	assert_false(readers_read_mem(readers_find("perf"), t, FOLDED_HEAD, "f.perf", data,
	        strlen(data), opt ? opt : &defaults, &info, &err));
	if (!strstr(err.msg, want)) {
		fail_msg("message \"%s\" lacks \"%s\"", err.msg, want);
	}
	tree_destroy(t);
}

#define SAMPLE_A                                                                                   \
	"prog  7998  5734.290180:     250000 cpu-clock:ppp: \n"                                    \
	"\t            1157 leaf+0x1e (/tmp/prog)\n"                                               \
	"\t            11a7 main+0x18 (/tmp/prog)\n"                                               \
	"\t           2724a __libc_start_call_main+0x7a (/usr/lib/libc.so.6)\n"                    \
	"\n"

/* The leaf comes first in perf script: the stack is reversed under the command. */
static void
test_order(void **state)
{
	(void)state;
	check(SAMPLE_A SAMPLE_A, "prog;__libc_start_call_main;main;leaf 2\n");
}

/*
 * By default the C runtime's frames under main are one frame, (below main),
 * counts unchanged; a run of them only at the stack's root (after the
 * command), and never a name that merely contains one.
 */
static void
test_below_main(void **state)
{
	(void)state;
	struct read_options ro;
	readers_options_init(&ro);
	const char *data = "prog 1 [000] 1.000001: 3 cycles: \n"
	                   "\t    1157 leaf+0x1e (/tmp/prog)\n"
	                   "\t    1170 main+0x9 (/tmp/prog)\n"
	                   "\t   29d90 __libc_start_call_main+0x80 (/usr/lib/libc.so.6)\n"
	                   "\t   29e40 __libc_start_main_impl+0x80 (/usr/lib/libc.so.6)\n"
	                   "\t    1075 _start+0x25 (/tmp/prog)\n\n"
	                   "prog 1 [000] 1.000002: 3 cycles: \n"
	                   "\t    1157 _start_worker+0x1e (/tmp/prog)\n"
	                   "\t    1075 _start+0x25 (/tmp/prog)\n\n"
	                   "prog 1 [000] 1.000003: 3 cycles: \n"
	                   "\t    1157 _start+0x1e (/tmp/prog)\n"
	                   "\t    1170 main+0x9 (/tmp/prog)\n\n";
	char *got = read_as(data, &ro, NULL);
	assert_string_equal(got, "prog;(below main);_start_worker 1\n"
	                         "prog;(below main);main;leaf 1\n"
	                         "prog;main;_start 1\n");
	free(got);
	ro.below_main = true; /* --show-below-main */
	got = read_as(data, &ro, NULL);
	assert_string_equal(got,
	        "prog;_start;__libc_start_main_impl;__libc_start_call_main;main;leaf 1\n"
	        "prog;_start;_start_worker 1\n"
	        "prog;main;_start 1\n");
	free(got);
}

static void
test_kernel(void **state)
{
	(void)state;
	/* By dso, and by address for a module or an unknown dso. */
	check("prog 1 [000] 1.000001: 1 cycles: \n"
	      "\tffffffff821e8bb6 copy_page+0x6 ([kernel.kallsyms])\n"
	      "\tffffffffc0a01234 nf_hook+0x4 ([nf_conntrack])\n"
	      "\t    7ffa2f991538 write+0x8 ([vdso])\n"
	      "\t            1157 main+0x1e (/tmp/prog)\n"
	      "\n",
	        "prog;main;write;nf_hook_[k];copy_page_[k] 1\n");
	check("prog 1 [000] 1.000001: 1 cycles: \n"
	      "\t        81000000 start_kernel (/boot/vmlinux)\n\n",
	        "prog;start_kernel_[k] 1\n");
}

static void
test_unknown_and_offsets(void **state)
{
	(void)state;
	check("prog 1 1.000001: 1 cycles: \n"
	      "\t            999a _dl_lookup+0x2a (/lib/ld.so)\n"
	      "\t    7ffa2f991538 [unknown] ([unknown])\n"
	      "\t               0 [unknown] ([unknown])\n\n",
	        "prog;[unknown];[unknown];_dl_lookup 1\n");
	/* Only a trailing +0xHEX is an offset; C++ names keep their '+' and parentheses. */
	check("prog 1 1.000001: 1 cycles: \n"
	      "\t10 operator+(int)+0x10 (/tmp/prog (deleted))\n"
	      "\t20 a+b (/tmp/prog)\n\n",
	        "prog;a+b;operator+(int) 1\n");
}

static void
test_inlined_and_names(void **state)
{
	(void)state;
	/* perf script --inline prints inlined frames as lines of their own. */
	check("my prog 5/6 [001] 1.000001: 1 cycles: \n"
	      "\t1157 inner (inlined)\n"
	      "\t1157 outer+0x1e (/tmp/prog)\n"
	      "\t1200 f;g+0x1 (/tmp/prog)\n\n",
	        "my_prog;f:g;outer;inner 1\n");
}

static void
test_period(void **state)
{
	(void)state;
	struct read_options po = perf_options(NULL, true);
	struct read_result info;
	char *got = read_as(SAMPLE_A SAMPLE_A "prog 1 1.1: 7 cpu-clock:ppp: \n\n", &po, &info);
	assert_string_equal(got, "prog 7\nprog;__libc_start_call_main;main;leaf 500000\n");
	assert_string_equal(info.key, "cpu-clock:ppp");
	assert_int_equal(info.samples, 3);
	free(got);
	check_error(
	        "prog 1 1.1: cycles: \n\n", &po, "f.perf:1: --weight period: this sample has no");
}

static void
test_events(void **state)
{
	(void)state;
	const char *two = "prog 1 1.1: 1 cycles:u: \n\t10 a (/p)\n\n"
	                  "prog 1 1.2: 1 instructions:u: \n\t10 b (/p)\n\n"
	                  "prog 1 1.3: 1 cycles:u: \n\t10 c (/p)\n\n";
	check_error(two, NULL, "several events were recorded (cycles:u, instructions:u); choose");
	struct read_options po = perf_options("cycles", false);
	char *got = read_as(two, &po, NULL);
	assert_string_equal(got, "prog;a 1\nprog;c 1\n");
	free(got);
	po.event = "instructions:u";
	got = read_as(two, &po, NULL);
	assert_string_equal(got, "prog;b 1\n");
	free(got);
	po.event = "cache-misses";
	check_error(two, &po, "no sample of event cache-misses (cycles:u, instructions:u were");
	/* A tracepoint is not cycles with modifiers; two events matching one name are refused. */
	po.event = "sched";
	check_error("p 1 1.1: 1 sched:sched_switch: prev_comm=a\n\n", &po, "no sample of event");
	po.event = "cycles";
	check_error("p 1 1.1: 1 cycles:u: \n\np 1 1.2: 1 cycles:k: \n\n", &po,
	        "f.perf:3: --event matches several events");
}

static void
test_without_stack(void **state)
{
	(void)state;
	/* No call chain: the command alone, or the frame the header line names. */
	check("prog 1 1.1: 1 cycles: \n\nprog 1 1.2: 1 cycles: \n", "prog 2\n");
	check("            prog     1 [000]     1.1:          1 cycles:  1157 main+0x1e "
	      "(/tmp/prog)\n"
	      "            prog     1 [000]     1.2:          1 cycles:  ffffffff81000000 "
	      "idle+0x3 ([kernel.kallsyms])\n",
	        "prog;idle_[k] 1\nprog;main 1\n");
	/* A tracepoint's fields after the event are no frame. */
	check("prog 1 1.1: 1 sched:sched_switch: prev_comm=a prev_pid=1\n"
	      "\t1157 schedule+0x1e ([kernel.kallsyms])\n\n",
	        "prog;schedule_[k] 1\n");
}

static void
test_comments_and_crlf(void **state)
{
	(void)state;
	check("# ========\r\n# captured on: today\r\n# ========\r\n#\r\n"
	      "prog 1 1.1: 1 cycles: \r\n\t10 a+0x1 (/p)\r\n\r\n"
	      "prog 1 1.2: 1 cycles: \r\n\t10 a+0x1 (/p)\r\n",
	        "prog;a 2\n");
	/* Indented too: a command `#x` would start a folded line read as a comment. */
	check("  # comment\nprog 1 1.1: 1 cycles: \n\t10 a (/p)\n\n   #x 2 1.2: 1 cycles: \n\n",
	        "prog;a 1\n");
}

/*
 * Every field selection of perf script -F: the command, then any of
 * [PID/]TID, [CPU], TIME:, PERIOD and EVENT:, frames at any indentation
 * and with addresses of any width.
 */
/* Each header, followed by frames, `samples` times, reads as want. */
static void
check_headers(
        const char *const *headers, size_t n, const char *frames, int samples, const char *want)
{
	for (size_t i = 0; i < n; i++) {
		struct buf in;
		buf_init(&in);
		for (int k = 0; k < samples; k++) {
			buf_printf(&in, "%s%s", headers[i], frames);
		}
		char *got = read_as(in.data, NULL, NULL);
		if (strcmp(got, want) != 0) {
			fail_msg("header \"%s\" read as \"%s\"", headers[i], got);
		}
		free(got);
		buf_finish(&in);
	}
}

static void
test_field_selections(void **state)
{
	(void)state;
	static const char *const headers[] = {
	        "prog  7998  5734.290180:     250000 cpu-clock:ppp: ",
	        "prog 7998/7999 [003] 5734.290180: 250000 cycles:u: ",
	        "prog  7998 [003] 5734.290180: cycles: ",
	        "prog  7998  5734.290180: ",
	        "prog  7998 cpu-clock: ",
	        "prog [003] 5734.290180: cycles: ",
	        "prog 5734.290180: 250000 cycles: ",
	        "prog cycles: ",
	        "prog  7998",
	        "prog  7998  1000",
	};
	check_headers(headers, sizeof headers / sizeof headers[0],
	        "\n\t     1157 leaf+0x1e (/tmp/prog)\n\td70 _start (/lib/ld.so)\n\n", 1,
	        "prog;_start;leaf 1\n");
	/* Without the command (-F pid,ip,sym; tid; -F +misc; -F ip,sym, whose
	 * header is empty): the outermost frame is the root. */
	static const char *const bare[] = {"  7998 ", "7998/7999", "U     ", "    250000 ", ""};
	check_headers(bare, sizeof bare / sizeof bare[0],
	        "\n\t            1157 leaf+0x1e\n\t             d70 _start\n\n", 2,
	        "_start;leaf 2\n");
	/* The command alone (-F comm,ip,sym); the lines perf prints beside
	 * the frames: +srcline under each, +insn after them (no blank line
	 * then: the next sample's empty header follows), +srccode after. */
	check("prog \n\t    1157 leaf\n  prog.c:3\n\t     d70 _start\n  ??:0\n\n|3   int x;\n"
	      "prog \n\t    1157 leaf\n\n",
	        "prog;_start;leaf 1\nprog;leaf 1\n");
	check("\n\t    1157 leaf\n ilen: 6 insn: 81 fe\n\n\t    1157 leaf\n ilen: 6\n", "leaf 2\n");
	/* A sample with no frames under +insnlen is its empty header and its
	 * ` ilen:` line: nothing to draw, and the next sample still reads. */
	check("\n ilen: 6\n\n\t    1157 leaf\n ilen: 0\n\n\t    1157 leaf\n ilen: 2\n", "leaf 2\n");
	/* A command of several words, and frames with no indentation. */
	check("Web Content 77 1.5: 1 cycles:\nffffffff8103d0ca native_write ([kernel.kallsyms])\n"
	      "4005b1 main (/bin/x)\n\n",
	        "Web_Content;main;native_write_[k] 1\n");
}

/*
 * Names as the folders make them: a perf-map-agent chain `a->b->c` is a
 * caller and the functions inlined into it (`_[i]`), Java's `Lpkg/Class;`
 * loses its `L` under a java command; with --perf-names stackcollapse, as
 * stackcollapse-perf.pl's defaults: argument lists and quotes dropped
 * (not Go's `.(*T).` nor `(anonymous namespace)`), an unresolved symbol
 * named after its dso, no `_[k]`, frames whose symbol starts with `(` left out.
 */
static void
test_folder_names(void **state)
{
	(void)state;
	static const char java[] =
	        "java 10488 9962.5: 1 cpu-clock: \n"
	        "\t7f89cc467bf0 Ljava/io/PrintStream;::println->Ljava/io/PrintStream;::print+0x0 "
	        "(/tmp/perf-1.map)\n"
	        "\t7f89cc46a890 LCounter;::countTo+0x50 (/tmp/perf-1.map)\n"
	        "\tffffffffaee8017b fput+0xb ([kernel.kallsyms])\n\n";
	check(java, "java;fput_[k];LCounter:::countTo;java/io/PrintStream:::println;"
	            "java/io/PrintStream:::print_[i] 1\n");
	/* Only a java command's names lose the L. */
	check("prog 1 1.5: 1 cycles: \n\t10 Lpkg/A;::f (/p)\n\n", "prog;Lpkg/A:::f 1\n");
	struct read_options sc = perf_options(NULL, false);
	sc.stackcollapse = true;
	char *got = read_as(java, &sc, NULL);
	assert_string_equal(got, "java;fput;LCounter:::countTo;java/io/PrintStream:::println;"
	                         "java/io/PrintStream:::print_[i] 1\n");
	free(got);
	got = read_as("prog 1 1.5: 1 cycles: \n"
	              "\t10 f(int, char const*) (/p)\n"
	              "\t11 ns::(anonymous namespace)::g(long) (/p)\n"
	              "\t12 net/http.(*Client).Do (/p)\n"
	              "\t13 RegExp:[&<>\\\"\\'] (/tmp/perf-7.map)\n"
	              "\t14 [unknown] (/usr/lib/libc.so.6)\n"
	              "\t15 [unknown] ([unknown])\n"
	              "\t16 (/usr/bin/prog) (/usr/bin/prog)\n\n",
	        &sc, NULL);
	assert_string_equal(got,
	        "prog;[unknown];[libc.so.6];RegExp:[&<>\\\\];net/http.(*Client).Do;"
	        "ns::(anonymous namespace)::g;f 1\n");
	free(got);
}

/* `--event cycles:` is cycles without modifiers, beside cycles:u. */
static void
test_event_exact(void **state)
{
	(void)state;
	static const char two[] = "prog 1 1.1: 1 cycles:u: \n\t10 a (/p)\n\n"
	                          "prog 1 1.2: 1 cycles: \n\t10 b (/p)\n\n";
	struct read_options po = perf_options("cycles:", false);
	char *got = read_as(two, &po, NULL);
	assert_string_equal(got, "prog;b 1\n");
	free(got);
	po = perf_options("cycles:u", false);
	got = read_as(two, &po, NULL);
	assert_string_equal(got, "prog;a 1\n");
	free(got);
	po = perf_options("cycles", false);
	check_error(two, &po, "f.perf:4: --event matches several events");
}

static void
test_malformed(void **state)
{
	(void)state;
	check_error("# header\nnot a sample\n", NULL, "f.perf:2: not a perf script sample");
	check_error("prog 1 1.1: 1 cycles: \n\t10 a (/p)\n\tzz a (/p)\n\n", NULL,
	        "f.perf:3: not a stack frame");
	check_error("prog 1 1.1: 1 cycles: \n\t10 a (/p)\n\t\n\tzz\n", NULL,
	        "f.perf:4: not a perf script sample");
	check_error("prog 1 1.1: 1 cycles: \n\t10 a (/p)\n\nprog x y\n", NULL,
	        "f.perf:4: not a perf script sample");
	check_error("prog 1 1.1: 1 cycles\n", NULL, "f.perf:1: not a perf script sample");
	/* A short line is the command alone only above frames. */
	check_error(
	        "prog \n\t10 a (/p)\n\nnot a sample\n", NULL, "f.perf:4: not a perf script sample");
	/* Frames with no header after a sample's blank line: not -F ip,sym,
	 * whose empty header is a second blank line. */
	check_error("prog 1 1.1: 1 cycles: \n\n\t10 a (/p)\n", NULL,
	        "f.perf:3: not a perf script sample");
	check_error("# only comments\n\n", NULL, "f.perf: no sample in the input");
	/* A sample's frames make one folded line: at most 16 MiB, like a folded line. */
	struct buf big;
	buf_init(&big);
	buf_adds(&big, "\n\nprog 1 1.1: 1 cycles: \n");
	while (big.len < ((size_t)24 << 20)) {
		buf_adds(
		        &big, "\t1010 abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz (/p)\n");
	}
	check_error(big.data, NULL, "f.perf:3: the sample's stack is longer than 16 MiB");
	buf_finish(&big);
	check_error("", NULL, "f.perf: no sample in the input");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_order),
	        cmocka_unit_test(test_below_main),
	        cmocka_unit_test(test_kernel),
	        cmocka_unit_test(test_unknown_and_offsets),
	        cmocka_unit_test(test_inlined_and_names),
	        cmocka_unit_test(test_period),
	        cmocka_unit_test(test_events),
	        cmocka_unit_test(test_without_stack),
	        cmocka_unit_test(test_comments_and_crlf),
	        cmocka_unit_test(test_field_selections),
	        cmocka_unit_test(test_folder_names),
	        cmocka_unit_test(test_event_exact),
	        cmocka_unit_test(test_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
