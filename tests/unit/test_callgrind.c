/*
 * callgrind: the format's rules one at a time on hand-written files, the
 * expansion of the call graph into stacks, and the exactness of self costs.
 * Real files made by valgrind are checked in tests/profilers/callgrind/.
 */
#include "callgrind.h"
#include "readers.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include <cmocka.h>

#include "helpers.h"

/* The readers' options with callgrind's event, --objects and floor set. */
#define OPTIONS(event_, objects_, floor_)                                                          \
	{                                                                                          \
		.event = (event_), .objects = (objects_), .floor = (floor_), .snapshot = -1        \
	}

static const struct read_options defaults = OPTIONS(NULL, false, CALLGRIND_DEFAULT_FLOOR);

#define CALLGRIND readers_find("callgrind")

/* The folded export of a file read with opt; fails the test on error. */
static char *
read_as(const char *data, const struct read_options *opt, struct read_result *info)
{
	struct tree_options to = {.min_delta = 0.001};
	struct tree *t = tree_create(&to);
	struct read_result ignored;
	struct diag err;
	if (!readers_read_mem(CALLGRIND, t, FOLDED_HEAD, "mem", data, strlen(data), opt,
	            info ? info : &ignored, &err)) {
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
	char *got = read_as(data, &defaults, NULL);
	assert_string_equal(got, want);
	free(got);
}

/* The read fails with a message containing `want`. */
static void
check_error(const char *data, const struct read_options *opt, const char *want)
{
	struct tree_options to = {.min_delta = 0.001};
	struct tree *t = tree_create(&to);
	struct read_result info;
	struct diag err;
	assert_false(readers_read_mem(CALLGRIND, t, FOLDED_HEAD, "f.out", data, strlen(data),
	        opt ? opt : &defaults, &info, &err));
	if (!strstr(err.msg, want)) {
		fail_msg("message \"%s\" lacks \"%s\"", err.msg, want);
	}
	tree_destroy(t);
}

#define HEADER "# callgrind format\nversion: 1\npositions: line\nevents: Ir\n"

static void
test_self_and_calls(void **state)
{
	(void)state;
	/* main: self 3 + call to work (inclusive 10); work: self 10. */
	check(HEADER "fl=a.c\nfn=main\n1 3\ncfn=work\ncalls=1 5\n2 10\n"
	             "fn=work\n5 10\ntotals: 13\n",
	        "main 3\nmain;work 10\n");
}

static void
test_name_compression(void **state)
{
	(void)state;
	/* (id) name defines, (id) alone refers; fn and cfn share the space. */
	check(HEADER "fl=(1) a.c\nfn=(1) main\n1 2\ncfn=(2) leaf\ncalls=2 9\n1 8\n"
	             "fn=(2)\n9 8\n",
	        "main 2\nmain;leaf 8\n");
	check_error(HEADER "fl=(1) a.c\nfn=(7)\n1 2\n", NULL, "used before it was defined");
	/* "(" and a digit start an id; "(below main)" is a plain name. */
	check_error(HEADER "fl=(1x) a.c\n", NULL, "bad name compression");
	/* Names but no function: nothing to draw, never an empty graph with exit 0. */
	check_error(HEADER "ob=(1) /bin/x\nfl=(1) a.c\ncfn=(3) work\n", NULL, "no function");
}

static void
test_positions(void **state)
{
	(void)state;
	/* Relative, absolute, hex and "*" positions; two of them per line. */
	check("events: Ir Dr\npositions: instr line\nfl=a.c\nfn=f\n0x10 3 4 1\n+2 * 5\n-1 +1 6 2\n"
	      "* -2 1\n",
	        "f 16\n");
	/* Fewer counts than events: the rest are zero. */
	struct read_options dr = OPTIONS("Dr", false, CALLGRIND_DEFAULT_FLOOR);
	char *s = read_as("events: Ir Dr\nfl=a.c\nfn=f\n1 3\n2 4 7\n", &dr, NULL);
	assert_string_equal(s, "f 7\n");
	free(s);
	check_error("events: Ir\nfl=a.c\nfn=f\nx 3\n", NULL, "not a callgrind line");
	check_error("events: Ir\npositions: line\nfl=a.c\nfn=f\n1 3x\n", NULL, "bad cost");
	check_error("events: Ir\npositions: line column\n", NULL, "positions:");
}

/*
 * Cost lines at the edges of the reader's fast path for the usual line:
 * what it leaves to the general path must read the same as before.
 */
static void
test_cost_line_edges(void **state)
{
	(void)state;
	/* Tabs, doubled and trailing blanks, CRLF, a position without counts. */
	check(HEADER "fl=a.c\nfn=f\n1\t5\n+1  5 \n2 5\r\n+1 \n-1\n", "f 15\n");
	/* 20 digits: read when under 2^64, refused above; unread events only checked. */
	check(HEADER "fl=a.c\nfn=f\n1 10000000000000000000\n", "f 10000000000000000000\n");
	check_error(HEADER "fl=a.c\nfn=f\n1 18446744073709551616\n", NULL, "bad cost");
	check("events: Ir Dr\nfl=a.c\nfn=f\n1 5 1234567890123456789012345\n", "f 5\n");
	check_error(HEADER "fl=a.c\nfn=f\n1 5 6\n", NULL, "bad cost");
	check_error(HEADER "fl=a.c\nfn=f\n1 18446744073709551615\n+1 1\n", NULL, "cost over");
	/* The second position missing. */
	check_error("events: Ir\npositions: instr line\nfl=a.c\nfn=f\n+1 \n", NULL,
	        "cost line without its positions");
	check_error("events: Ir\npositions: instr line\nfl=a.c\nfn=f\n+1\n", NULL,
	        "cost line without its positions");
	/* A chosen count of 19 digits, a blank after the last count, no counts. */
	check("events: Ir Dr\nfl=a.c\nfn=f\n1 1234567890123456789\n* 5 7 \n+2\n",
	        "f 1234567890123456794\n");
	/* The chosen count after another, or missing. */
	struct read_options dr = OPTIONS("Dr", false, CALLGRIND_DEFAULT_FLOOR);
	char *s = read_as("events: Ir Dr\nfl=a.c\nfn=f\n1 5 7\n+1 3\n-1 2 10 \n", &dr, NULL);
	assert_string_equal(s, "f 17\n");
	free(s);
	check_error(
	        "events: Ir Dr\nfl=a.c\nfn=f\n1 5 7\n+1 3 99999999999999999999\n", &dr, "bad cost");
	/* A cost line before fn=, and before events:. */
	check_error(HEADER "fl=a.c\n1 5\n", NULL, "before any fn=");
	check_error("positions: line\nfl=a.c\nfn=f\n1 5\n", NULL, "before the events");
}

static void
test_events(void **state)
{
	(void)state;
	static const char file[] = "events: Ir I1mr ILmr\nfl=a.c\nfn=f\n1 100 2 1\nfn=g\n1 10\n";
	struct read_result info;
	char *s = read_as(file, &defaults, &info);
	assert_string_equal(s, "f 100\ng 10\n");
	assert_string_equal(info.key, "Ir");
	assert_string_equal(info.unit, "instructions");
	free(s);
	/* The cycle estimate: Ir + 10 L1 misses + 100 LL misses. */
	struct read_options cest = OPTIONS("CEst", false, CALLGRIND_DEFAULT_FLOOR);
	s = read_as(file, &cest, &info);
	assert_string_equal(s, "f 220\ng 10\n");
	assert_string_equal(info.unit, "estimated cycles");
	free(s);
	struct read_options bad = OPTIONS("Bc", false, CALLGRIND_DEFAULT_FLOOR);
	check_error(file, &bad, "no event Bc in this file (it has: Ir I1mr ILmr)");
	/* KCachegrind's whole formula: Ir + 10 Bm + 10 L1m + 20 Ge + 100 L2m
	 * + 100 LLm, Bm = Bim + Bcm (--branch-sim=yes), L2m the misses of
	 * valgrind before 3.6 (I2mr D2mr D2mw), LLm those of later ones. */
	s = read_as("events: Ir Bc Bcm Bi Bim Ge\nfl=a.c\nfn=f\n1 100 50 3 7 2 1\n", &cest, &info);
	assert_string_equal(s, "f 170\n"); /* 100 + 10 * (3 + 2) + 20 * 1 */
	free(s);
	s = read_as("events: Ir I1mr D1mr D1mw I2mr D2mr D2mw\nfl=a.c\nfn=f\n1 1000 1 2 3 4 5 6\n",
	        &cest, &info);
	assert_string_equal(s, "f 2560\n"); /* 1000 + 10 * 6 + 100 * 15 */
	free(s);
}

static void
test_totals(void **state)
{
	(void)state;
	/* Several parts: costs and totals add up. */
	check(HEADER "summary: 5\nfl=a.c\nfn=f\n1 5\ntotals: 5\npart: 2\nfn=f\n1 2\ntotals: 2\n",
	        "f 7\n");
	check_error(HEADER "fl=a.c\nfn=f\n1 5\ntotals: 6\n", NULL,
	        "the cost lines add up to 5 but the file's totals: say 6");
	/* A cut file: the summary of the header says more than was read. */
	check_error(HEADER "summary: 9\nfl=a.c\nfn=f\n1 5\n", NULL, "summary: says 9");
	check_error(HEADER "fl=a.c\nfn=f\ncfn=g\ncalls=1 2\n", NULL, "inside a call");
	check_error("fl=a.c\nfn=f\n1 2\n", NULL, "before the events: line");
	check_error(HEADER "1 2\n", NULL, "before any fn=");
}

/* b is called from a (cost 30) and from c (cost 10): b's own 8 splits 3:1. */
static void
test_split_among_callers(void **state)
{
	(void)state;
	check(HEADER "fl=x.c\nfn=main\n1 1\ncfn=a\ncalls=1 1\n1 30\ncfn=c\ncalls=1 1\n1 10\n"
	             "fn=a\n1 2\ncfn=b\ncalls=1 1\n1 28\n"
	             "fn=c\n1 2\ncfn=b\ncalls=1 1\n1 8\n"
	             "fn=b\n1 8\ncfn=d\ncalls=2 1\n1 28\n"
	             "fn=d\n1 28\n",
	        "main 1\nmain;a 2\nmain;a;b 6\nmain;a;b;d 22\nmain;c 2\nmain;c;b 2\nmain;c;b;d "
	        "6\n");
}

/* Cycles are not entered again; direct recursion stays in the function. */
static void
test_recursion_and_cycles(void **state)
{
	(void)state;
	check(HEADER "fl=x.c\nfn=main\n1 1\ncfn=f\ncalls=1 1\n1 9\n"
	             "fn=f\n1 9\ncfn=f\ncalls=3 1\n1 6\n",
	        "main 1\nmain;f 9\n");
	/* ping -> pong -> ping: the inner call's cost is in ping's and pong's already. */
	check(HEADER "fl=x.c\nfn=main\n1 1\ncfn=ping\ncalls=1 1\n1 10\n"
	             "fn=ping\n1 6\ncfn=pong\ncalls=1 1\n1 7\n"
	             "fn=pong\n1 4\ncfn=ping\ncalls=1 1\n1 3\n",
	        "main 1\nmain;ping 6\nmain;ping;pong 4\n");
}

/* With --separate-callers, a'b is a called from b: the stack is exact. */
static void
test_contexts(void **state)
{
	(void)state;
	struct read_result info;
	char *s = read_as(HEADER "fl=x.c\nfn=main\n1 1\ncfn=a'main\ncalls=1 1\n1 5\n"
	                         "cfn=b'main\ncalls=1 1\n1 4\n"
	                         "fn=a'main\n1 2\ncfn=c'a'main\ncalls=1 1\n1 3\n"
	                         "fn=b'main\n1 1\ncfn=c'b'main\ncalls=1 1\n1 3\n"
	                         "fn=c'a'main\n1 3\nfn=c'b'main\n1 3\n",
	        &defaults, &info);
	assert_string_equal(s, "main 1\nmain;a 2\nmain;a;c 3\nmain;b 1\nmain;b;c 3\n");
	assert_false(info.flag);
	free(s);
	/* Recursion levels ('2) are not contexts. */
	s = read_as(HEADER "fl=x.c\nfn=f\n1 1\ncfn=f'2\ncalls=1 1\n1 2\nfn=f'2\n1 2\n", &defaults,
	        &info);
	assert_string_equal(s, "f 1\nf;f 2\n");
	assert_true(info.flag);
	free(s);
}

/*
 * The C runtime's frames at the root are one frame, (below main), in both
 * ways of adding stacks (frame by frame, and whole paths with --reverse);
 * --show-below-main keeps them; counts are the same either way.
 */
static void
test_below_main(void **state)
{
	(void)state;
	static const char file[] =
	        HEADER "fn=(1) 0x000000000001ab70\n1 1\ncfn=(2) (below main)\ncalls=1 1\n1 24\n"
	               "cfn=(5) _dl_start\ncalls=1 1\n1 4\n"
	               "fn=(2)\n1 2\ncfn=(3) __libc_start_main@@GLIBC_2.34\ncalls=1 1\n1 22\n"
	               "fn=(3)\n1 2\ncfn=(4) main\ncalls=1 1\n1 20\n"
	               "fn=(4)\n1 10\ncfn=(6) _start\ncalls=1 1\n1 10\n"
	               "fn=(6)\n1 10\nfn=(5)\n1 4\n";
	check(file, "(below main) 5\n(below main);_dl_start 4\n(below main);main 10\n"
	            "(below main);main;_start 10\n");
	struct read_options keep = defaults;
	keep.below_main = true;
	char *s = read_as(file, &keep, NULL);
	assert_string_equal(s,
	        "0x000000000001ab70 1\n0x000000000001ab70;(below main) 2\n"
	        "0x000000000001ab70;(below main);__libc_start_main@@GLIBC_2.34 2\n"
	        "0x000000000001ab70;(below main);__libc_start_main@@GLIBC_2.34;main 10\n"
	        "0x000000000001ab70;(below main);__libc_start_main@@GLIBC_2.34;main;_start 10\n"
	        "0x000000000001ab70;_dl_start 4\n");
	free(s);
	struct tree_options to = {.min_delta = 0.001, .reverse = true};
	struct tree *t = tree_create(&to);
	struct read_result info;
	struct diag err;
	assert_true(readers_read_mem(
	        CALLGRIND, t, FOLDED_HEAD, "f.out", file, strlen(file), &defaults, &info, &err));
	tree_finish(t, false);
	s = dump_tree(t);
	assert_string_equal(s,
	        "(below main) 5\n_dl_start;(below main) 4\n_start;main;(below main) 10\n"
	        "main;(below main) 10\n");
	free(s);
	tree_destroy(t);
}

/* Static functions of one name in two files: file:name; ids tell them apart. */
static void
test_names(void **state)
{
	(void)state;
	check(HEADER "fl=(1) a.c\nfn=(1) main\n1 1\ncfi=(2) b.c\ncfn=(2) init\ncalls=1 1\n1 2\n"
	             "cfi=(3) c.c\ncfn=(3) init\ncalls=1 1\n1 3\n"
	             "fl=(2)\nfn=(2)\n1 2\nfl=(3)\nfn=(3)\n1 3\n",
	        "main 1\nmain;b.c:init 2\nmain;c.c:init 3\n");
	struct read_options objects = OPTIONS(NULL, true, CALLGRIND_DEFAULT_FLOOR);
	char *s =
	        read_as(HEADER "ob=/usr/lib/libc.so.6\nfl=a.c\nfn=memcpy;x\n1 4\n", &objects, NULL);
	assert_string_equal(s, "memcpy:x [libc.so.6] 4\n");
	free(s);
	/* An object's ';' is made ':' as a name's is: one frame, not two. */
	struct tree_options to = {.min_delta = 0.001};
	struct tree *t = tree_create(&to);
	struct read_result info;
	struct diag err;
	static const char semi[] = HEADER "ob=/lib/a;b.so\nfl=a.c\nfn=f\n1 4\n";
	assert_true(readers_read_mem(
	        CALLGRIND, t, FOLDED_HEAD, "mem", semi, strlen(semi), &objects, &info, &err));
	tree_finish(t, false);
	assert_int_equal(t->node_count, 2); /* all, "f [a:b.so]" */
	tree_destroy(t);
	/* Every ';' of a name, the first and last bytes too, is made ':'. */
	check(HEADER "fl=a.c\nfn=;a;;b;\n1 4\n", ":a::b: 4\n");
	/* Without cfi=, the callee is in the caller's file: uncompressed names of
	 * two static functions g in two files stay apart. */
	check(HEADER "fl=a.c\nfn=main\n1 1\ncfn=g\ncalls=1 1\n1 2\nfn=g\n1 2\nfl=b.c\nfn=g\n1 5\n",
	        "b.c:g 5\nmain 1\nmain;a.c:g 2\n");
	/* A call from inlined code (fi=) names the inlining file: still one function. */
	check(HEADER "fl=a.c\nfn=main\n1 1\nfi=h.h\ncfn=g\ncalls=1 1\n1 2\nfl=b.c\nfn=g\n1 2\n",
	        "main 1\nmain;g 2\n");
}

/* A branch under the floor stays unexpanded; totals stay exact. */
static void
test_floor(void **state)
{
	(void)state;
	struct read_options coarse = OPTIONS(NULL, false, 0.1);
	struct read_result info;
	char *s = read_as(HEADER "fl=x.c\nfn=main\n1 95\ncfn=tiny\ncalls=1 1\n1 5\nfn=tiny\n1 5\n",
	        &coarse, &info);
	assert_string_equal(s, "[unexpanded];tiny 5\nmain 95\n");
	free(s);
	/* With call contexts the file holds the path: exact under any floor. */
	s = read_as(HEADER "fl=x.c\nfn=main\n1 95\ncfn=tiny'main\ncalls=1 1\n1 5\n"
	                   "fn=tiny'main\n1 5\n",
	        &coarse, &info);
	assert_string_equal(s, "main 95\nmain;tiny 5\n");
	free(s);
}

static void
test_file_gzip(void **state)
{
	(void)state;
	static const char data[] = HEADER "fl=a.c\nfn=f\n1 5\r\ntotals: 5";
	char path[] = "/tmp/difffold-cg-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	gzFile gz = gzdopen(fd, "wb");
	gzwrite(gz, data, sizeof data - 1);
	gzclose(gz);
	struct tree_options to = {.min_delta = 0.001};
	struct tree *t = tree_create(&to);
	struct read_result info;
	struct diag err;
	assert_true(readers_read_file(CALLGRIND, t, FOLDED_BASE, path, &defaults, &info, &err));
	tree_finish(t, true);
	assert_int_equal(tree_node(t, TREE_ROOT)->total_units[SIDE_BASE], 5);
	tree_destroy(t);
	unlink(path);
	assert_false(readers_read_file(CALLGRIND, NULL, FOLDED_BASE, path, &defaults, &info, &err));
	assert_non_null(strstr(err.msg, "No such file"));
}

/*
 * The whole read, or its message; lines_one_by_one feeds each line to
 * callgrind_line, the strict reading, instead of the fast walk over a
 * chunk that the reader does.
 */
static char *
read_outcome(const char *data, const char *event, bool lines_one_by_one)
{
	struct tree_options to = {.min_delta = 0.001};
	struct tree *t = tree_create(&to);
	struct diag err = {{0}};
	struct read_options opt = defaults;
	bool ok;
	opt.event = event;
	if (lines_one_by_one) {
		struct callgrind_options co = {
		        event, false, CALLGRIND_DEFAULT_FLOOR, opt.below_main};
		struct callgrind_info info;
		struct callgrind *cg = callgrind_create("f.out", &co);
		const char *p = data, *nl;
		ok = true;
		while (ok && (nl = strchr(p, '\n'))) {
			ok = callgrind_line(cg, p, (size_t)(nl - p), &err);
			p = nl + 1;
		}
		ok = ok && (!*p || callgrind_line(cg, p, strlen(p), &err)) &&
		     callgrind_finish(cg, t, SIDE_HEAD, &info, &err);
		callgrind_destroy(cg);
	} else {
		struct read_result info;
		ok = readers_read_mem(
		        CALLGRIND, t, FOLDED_HEAD, "f.out", data, strlen(data), &opt, &info, &err);
	}
	char *s;
	if (ok) {
		tree_finish(t, false);
		s = dump_tree(t);
	} else {
		s = strdup(err.msg);
	}
	tree_destroy(t);
	return s;
}

/*
 * The fast walk takes the usual lines itself and leaves the others to
 * callgrind_line: either way a file reads the same, or fails with the same
 * message on the same line.
 */
static void
test_fast_paths_agree(void **state)
{
	(void)state;
#define BODY "fl=(1) a.c\nfn=(1) main\n"
	static const char *const files[] = {
	        HEADER BODY "+3 5\n-1 2\n* 4\ncfi=(1)\ncfn=(2) w\ncalls=2 9\n+1 8\nfn=(2)\n1 8\n",
	        HEADER BODY "1 5\nfn=(1)  main\n2 1\n", /* two blanks: part of no name */
	        HEADER BODY "1 5\r\nfn=(1)\r\n2 1\r\ncfn=(3) x\r\ncalls=1 2\r\n3 4\r\n"
	                    "fn=(3)\r\n1 4\r\n",
	        HEADER BODY "1 5\nfn=(3) \tb\n1 2\nfn=(4)b\n1 1\n",
	        HEADER BODY "1 5\nfn=(7)\n", /* an id never defined */
	        HEADER BODY "1 5\nfn=(1234567890123456789)\n",
	        HEADER BODY "1 5\nfn=( 1)\n",
	        HEADER BODY "1 5\ncfn=(2) w\ncalls=18446744073709551616 1\n1 1\n",
	        HEADER BODY "1 5\ncfn=(2) w\ncalls= 3 1\n1 1\nfn=(2)\n1 1\n",
	        HEADER BODY "1 5\ncfn=(2) w\ncalls=3 1\nfn=(2)\n1 1\n",
	        HEADER BODY "1 5\ncalls=3 1\n1 1\n", /* calls= without cfn= */
	        HEADER BODY "1 5\ncfe=(2) x.h\n",
	        HEADER BODY "1 5\nfe=(2) x.h\n2 3\nfi=(2)\n3 1\nfx=(2)\n",
	        HEADER BODY "+3 5 6\n", /* more counts than events */
	        HEADER BODY "+3 12345678901234567890\n",
	        HEADER BODY "+3 18446744073709551615\n+1 1\n",
	        HEADER BODY "+3\n+4 \n+5 7 \n0x12 3\n+ 4\n+3  5\n",
	        HEADER BODY "+3\t5\n",
	        HEADER BODY "+3 5x\n",
	        /* Short lines read at once: up to the 16th byte, and past it. */
	        HEADER BODY "+1 23456789012\n+1 234567890123\n+1 2345678901234\n",
	        HEADER BODY "-\n*\n* \n+ \n- 5\n7 5 \n12345 6\n",
	        HEADER BODY "+3 5 6 \n", /* more counts than events, a blank after */
	        HEADER BODY "+3 5/\n", /* the bytes around the digits */
	        HEADER BODY "+3 5:\n",
	        HEADER BODY "+3 5\xc3\xa9\n",
	        HEADER BODY "+3 \x80\n",
	        "# callgrind format\nversion: 1\npositions: instr line\nevents: Ir Dr\n" BODY
	        "0x10 +1 5 2\n+2 * 3\n+2 -1 4 1 9\n+2\n",
	        "# callgrind format\nversion: 1\nevents: Ir Dr\n" BODY "1 5 2\n2 7\n3\n",
	        HEADER "fn=(1) main\n1 5\n", /* a cost line before fl= is fine */
	        HEADER "1 5\n", /* a cost line before fn= is not */
	        "# callgrind format\nfl=(1) a.c\nfn=(1) main\n1 5\n", /* nor before events: */
	        HEADER BODY
	        "1 5\nob=(1) /bin/x\ncob=(2) /lib/y\ncfl=(1)\ncfn=(2) w\n"
	        "calls=1 1\n1 3\ncob=(2)\ncfn=(2)\ncalls=1 1\n1 2\nob=(2)\nfn=(2)\n1 5\n",
	};
#undef BODY
	/*
	 * And three events, read as CEst (Ir + 10 D1mr + 100 ILmr, made of
	 * others) and as D1mr (one, not the first).
	 */
#define CACHE "# callgrind format\nversion: 1\nevents: Ir D1mr ILmr\nfl=a.c\nfn=main\n"
	static const char *const derived[] = {
	        CACHE "1 5 2 1\n2 1\n3\n4 1 1 1 \n+5 7 \n",
	        CACHE "1 5 2 1 7\n", /* more counts than events */
	        CACHE "1 5 2 12345678901234567890\n",
	        CACHE "1 5 2 x\n",
	        CACHE "+3  5 6\n1 2  3\n-1 4 5  \n",
	        CACHE "+3 5 6 7 \n+1 2 3 4 5\n",
	        CACHE "1 5\n2\n3 4 \n+1 2 34 5\n",
	        CACHE "1 5 2 1 \n-2 1 2 3 4\n",
	        CACHE "1 5 2  \n",
	        CACHE "1 5 2 1 7 \n",
	};
#undef CACHE
	/*
	 * Each as it is and with a comment after it: a line read 16 bytes at
	 * a time needs them there, so the last lines of a file go the other
	 * way.
	 */
	size_t count = sizeof files / sizeof files[0];
	size_t nd = sizeof derived / sizeof derived[0], all = count + 2 * nd;
	for (size_t i = 0; i < 2 * all; i++) {
		size_t k = i % all;
		const char *data = k < count ? files[k] : derived[(k - count) % nd];
		const char *event = k < count ? NULL : k < count + nd ? "CEst" : "D1mr";
		char padded[1024];
		snprintf(padded, sizeof padded, "%s%s", data,
		        i < all ? "" : "# and sixteen bytes or more after\n");
		char *fast = read_outcome(padded, event, false);
		char *strict = read_outcome(padded, event, true);
		if (strcmp(fast, strict) != 0) {
			fail_msg(
			        "file %zu: fast walk \"%s\", line by line \"%s\"", i, fast, strict);
		}
		free(fast);
		free(strict);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_self_and_calls),
	        cmocka_unit_test(test_name_compression),
	        cmocka_unit_test(test_positions),
	        cmocka_unit_test(test_cost_line_edges),
	        cmocka_unit_test(test_events),
	        cmocka_unit_test(test_totals),
	        cmocka_unit_test(test_split_among_callers),
	        cmocka_unit_test(test_recursion_and_cycles),
	        cmocka_unit_test(test_contexts),
	        cmocka_unit_test(test_names),
	        cmocka_unit_test(test_below_main),
	        cmocka_unit_test(test_floor),
	        cmocka_unit_test(test_file_gzip),
	        cmocka_unit_test(test_fast_paths_agree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
