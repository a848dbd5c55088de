/* detect: each profile format by its first bytes; folded text stays folded. */
#include "detect.h"
#include "readers.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define DETECT(lit, whole) detect_format(lit, sizeof(lit) - 1, whole)

static void
test_folded_stays_folded(void **state)
{
	(void)state;
	assert_int_equal(DETECT("main;a;b 12\nmain;c 3\n", true), INPUT_FOLDED);
	assert_int_equal(DETECT("main;a 1 2\n", true), INPUT_FOLDED);
	/* Frames that look like other formats' first bytes. */
	assert_int_equal(DETECT("[unknown];main 3\n", true), INPUT_FOLDED);
	assert_int_equal(DETECT("{closure};main 3\n", true), INPUT_FOLDED);
	assert_int_equal(DETECT("events: 3\n", true), INPUT_FOLDED);
	assert_int_equal(DETECT("<lambda>;main 3\n", true), INPUT_FOLDED);
	assert_int_equal(DETECT("\nmain 1\n", true), INPUT_FOLDED);
	assert_int_equal(DETECT("", true), INPUT_FOLDED);
	assert_int_equal(DETECT("\xef\xbb\xbfmain;a 1\n", true), INPUT_FOLDED);
	/* One NUL in a text file is a bad line, not a binary file. */
	assert_int_equal(DETECT("main;a b 1\nmain;c\0 2\nmain;d 3\n", true), INPUT_FOLDED);
	/* async-profiler and py-spy frames. */
	assert_int_equal(DETECT("java/lang/Thread.run;Foo.bar_[j] 5\n"
	                        "process 123:\"MainThread\";<module> (a.py:1) 7\n",
	                         true),
	        INPUT_FOLDED);
}

static void
test_callgrind(void **state)
{
	(void)state;
	assert_int_equal(DETECT("# callgrind format\nversion: 1\n", false), INPUT_CALLGRIND);
	assert_int_equal(
	        DETECT("version: 1\ncreator: callgrind-3.19.0\npid: 1\ncmd: ./a\npart: 1\n\n"
	               "positions: line\nevents: Ir\nsummary: 10\n\nob=(1) /bin/a\nfl=(1) a.c\n"
	               "fn=(1) main\n3 10\n",
	                true),
	        INPUT_CALLGRIND);
	/* cachegrind's subset: no calls, same header. */
	assert_int_equal(
	        DETECT("desc: I1 cache\ncmd: ./a\nevents: Ir\nfl=a.c\nfn=main\n1 2\n", true),
	        INPUT_CALLGRIND);
	/* A header key without the body is not enough. */
	assert_int_equal(DETECT("events: Ir\nmain;a 3\n", true), INPUT_FOLDED);
}

static void
test_perf(void **state)
{
	(void)state;
	assert_int_equal(DETECT("PERFILE2\x68\0\0\0", true), INPUT_PERF_DATA);
	assert_int_equal(DETECT("# ========\n# captured on: x\n# ========\n#\n"
	                        "bench 1234 [001] 5678.123456:     250000 cpu-clock:ppp: \n"
	                        "\t    55d4a1b2c3d4 main+0x14 (/usr/bin/bench)\n"
	                        "\t    7f0011223344 __libc_start_main+0xf3 (/lib/libc.so.6)\n\n",
	                         true),
	        INPUT_PERF_SCRIPT);
	assert_int_equal(DETECT("perf 77 1.000001: cycles: \n"
	                        "        ffffffff81000000 do_syscall_64 ([kernel.kallsyms])\n",
	                         true),
	        INPUT_PERF_SCRIPT);
	/* The 64 KiB window cut inside the first stack line, or a long
	 * --header banner filling it: still perf script, not folded. */
	assert_int_equal(DETECT("prog 1 [000] 1.0: 1 cycles:\n\t1000 T<T<T<T<T<T<T<", false),
	        INPUT_PERF_SCRIPT);
	assert_int_equal(DETECT("# ========\n# captured on: x\n# cpudesc : x\n# cpudesc", false),
	        INPUT_PERF_SCRIPT);
	/* Without call chains: a sample a line, its frame after the event. */
	assert_int_equal(DETECT("            prog  1 [000]  1.1:   1 cycles:  1157 main+0x1e "
	                        "(/tmp/prog)\n"
	                        "            prog  1 [000]  1.2:   1 cycles:  1157 main+0x1e "
	                        "(/tmp/prog)\n",
	                         true),
	        INPUT_PERF_SCRIPT);
	assert_int_equal(DETECT("prog 1 1.1: 1 cycles:  1157 main+0x1e (/tmp/prog)\n", true),
	        INPUT_PERF_SCRIPT);
	/* One such line among folded stacks is a malformed folded line. */
	assert_int_equal(DETECT("a;b 1\nprog 1 1.1: 1 cycles:  1157 main (/p)\na;c 2\n", true),
	        INPUT_FOLDED);
	/* Without the time (-F comm,tid,event,ip,sym), a short address, frames
	 * flush left (old perf). */
	assert_int_equal(
	        DETECT("func_ab 15294 cpu-clock: \n\t  400570 func_b (/root/func_ab)\n", true),
	        INPUT_PERF_SCRIPT);
	assert_int_equal(
	        DETECT("emulator 4152 75695.008865: 1 cycles:u: \n\t d70 _start+0x10 (/ld.so)\n",
	                true),
	        INPUT_PERF_SCRIPT);
	assert_int_equal(
	        DETECT("java 19983 cycles:\nffffffff8103d0ca native_write ([kernel.kallsyms])\n",
	                true),
	        INPUT_PERF_SCRIPT);
	assert_int_equal(DETECT("prog [003] 5734.290180:\n\t1157 leaf (/tmp/prog)\n", true),
	        INPUT_PERF_SCRIPT);
	/* `COMM TID` alone (-F comm,tid,ip,sym,dso) is a header only before an
	 * indented frame with its dso: else it is a folded line. */
	assert_int_equal(DETECT("java  3244\n\t7f1e214c24d9 SpinPause (/lib/libjvm.so)\n", true),
	        INPUT_PERF_SCRIPT);
	assert_int_equal(DETECT("a;b 16\n\tabc def 7\n", true), INPUT_FOLDED);
	assert_int_equal(DETECT("a;b 16\n\t \t 7\n", true), INPUT_FOLDED);
	assert_int_equal(DETECT("a;b 16\nabc def (x)\n", true), INPUT_FOLDED);
}

/*
 * Selections whose header has no time and no event (or nothing at all):
 * known by whole samples, header, perf's frame lines (a tab, the address
 * right-aligned in 16 columns), a blank line. As perf 6.1 prints them.
 */
#define F1 "\t            1147 leaf (/tmp/prog)\n\t            11db main (/tmp/prog)\n"
#define F2 "\t            1155 leaf\n\t            11af right\n"
static void
test_perf_weak_headers(void **state)
{
	(void)state;
	/* -F comm,pid,tid,ip,sym,dso; -F comm,tid,ip,sym; -F pid,ip,sym. */
	assert_int_equal(DETECT("prog 23429/23429 \n" F1 "\nprog 23429/23429 \n" F1 "\n", false),
	        INPUT_PERF_SCRIPT);
	assert_int_equal(
	        DETECT("prog 23429 \n" F2 "\nprog 23429 \n" F2 "\n", false), INPUT_PERF_SCRIPT);
	assert_int_equal(DETECT("23429 \n" F2 "\n23429 \n" F2 "\n", false), INPUT_PERF_SCRIPT);
	/* -F ip,sym: the header is empty; -F comm,ip,sym: the command alone;
	 * -F period,ip,sym: right-aligned; -F +misc: a letter. */
	assert_int_equal(DETECT("\n" F2 "\n\n" F2 "\n", false), INPUT_PERF_SCRIPT);
	assert_int_equal(DETECT("prog \n" F2 "\nprog \n" F2 "\n", false), INPUT_PERF_SCRIPT);
	assert_int_equal(
	        DETECT("    250000 \n" F2 "\n    250000 \n" F2 "\n", false), INPUT_PERF_SCRIPT);
	assert_int_equal(DETECT("U     \n" F2 "\nK     \n" F2 "\n", false), INPUT_PERF_SCRIPT);
	/* +srcline, +insn (no blank line then), +srccode. */
	assert_int_equal(
	        DETECT("prog \n" F2 "  prog.c:3\n\nprog \n" F2 "\n", false), INPUT_PERF_SCRIPT);
	assert_int_equal(DETECT("\n" F2 " ilen: 6 insn: 81 fe\nU \n" F2 " ilen: 6\n", true),
	        INPUT_PERF_SCRIPT);
	/* -F ip,sym,insnlen: the blank line after ` ilen:` is the next
	 * sample's empty header, its frames follow at once; a sample with no
	 * frames is its empty header and its ` ilen:` line. */
	assert_int_equal(DETECT("\n ilen: 6\n\n" F2 " ilen: 0\n\n" F2 " ilen: 2\n", false),
	        INPUT_PERF_SCRIPT);
	assert_int_equal(DETECT("\n" F2 " ilen: 6\n\n" F2 " ilen: 0\n\n" F2 " ilen: 2\n", false),
	        INPUT_PERF_SCRIPT);
	assert_int_equal(
	        DETECT("prog \n" F2 "\n|3   int x;\nprog \n" F2 "\n", false), INPUT_PERF_SCRIPT);
	/* The whole file of one sample. */
	assert_int_equal(DETECT("prog \n" F2, true), INPUT_PERF_SCRIPT);
	/* Folded text is none of these: stacks, tab-indented lines that are
	 * no perf frames, a frame under a folded line, a long first line. */
	assert_int_equal(DETECT("prog 23429\nprog;a 12\n", true), INPUT_FOLDED);
	assert_int_equal(
	        DETECT("a 1\n\t1155 leaf 3\n\na 1\n\t1155 leaf 3\n\n", true), INPUT_FOLDED);
	assert_int_equal(DETECT("a;b 1\n" F2 "a;c 2\n", true), INPUT_FOLDED);
	assert_int_equal(DETECT("main;a_long_function_name;b\n" F2 "\n", true), INPUT_FOLDED);
	assert_int_equal(DETECT("\n\n\n", true), INPUT_FOLDED);
}

static void
test_pprof(void **state)
{
	(void)state;
	/* sample_type {type: 1, unit: 2}, sample {location_id: 1, value: 5}. */
	static const char proto[] = "\x0a\x04\x08\x01\x10\x02\x12\x04\x08\x01\x10\x05";
	assert_int_equal(detect_format(proto, sizeof proto - 1, true), INPUT_PPROF);
	/* A newline-first text file is not protobuf, even when its bytes read
	 * as well-formed fields. */
	assert_int_equal(DETECT("\nmain;a 12\n", true), INPUT_FOLDED);
	assert_int_equal(DETECT("\n<&>;a 0.59\r\nd .5;ab;<&> 12\r\n", true), INPUT_FOLDED);
	assert_int_equal(DETECT("\n\t;x\t2;\t27\r\na_[k];7; sp .5\r\n1.5;x\x01y;0x  5.\r\n", true),
	        INPUT_FOLDED);
	/* Go's runtime/pprof writes time_nanos (field 9) first; google/pprof's
	 * sample.cpu starts with a mapping (field 3). */
	static const char go[] = "\x48\x86\xdb\xbd\xcf\x83\x81\xcd\x17\x0a\x04\x08\x01\x10\x02";
	assert_int_equal(detect_format(go, sizeof go - 1, true), INPUT_PPROF);
	static const char mapping[] = "\x1a\x04\x08\x01\x10\x02\x0a\x04\x08\x01\x10\x02";
	assert_int_equal(detect_format(mapping, sizeof mapping - 1, true), INPUT_PPROF);
	/* A field profile.proto does not have (16), or a wrong wire type. */
	static const char other[] = "\x82\x01\x02\x08\x01\x0a\x04\x08\x01\x10\x02";
	assert_int_equal(detect_format(other, sizeof other - 1, true), INPUT_BINARY);
	static const char wire[] = "\x4a\x02\x08\x01\x0a\x04\x08\x01\x10\x02\x01\x02";
	assert_int_equal(detect_format(wire, sizeof wire - 1, true), INPUT_BINARY);
	/* The legacy formats are named, so their refusal can say what to run. */
	static const char cpu[] = "\0\0\0\0\0\0\0\0\x03\0\0\0\0\0\0\0\0\0\0\0";
	assert_int_equal(detect_format(cpu, sizeof cpu - 1, true), INPUT_PPROF_LEGACY);
	assert_int_equal(DETECT("heap profile:    1:  8 [   1:  8] @ heapz_v2/524288\n", true),
	        INPUT_PPROF_LEGACY);
	assert_int_equal(
	        DETECT("--- contentionz 1 ---\ncycles/second = 3\n", true), INPUT_PPROF_LEGACY);
	/* One control character in a short text is a bad line, not binary. */
	assert_int_equal(DETECT("x\x01y\t4\r\n\r\n", true), INPUT_FOLDED);
}

static void
test_json(void **state)
{
	(void)state;
	assert_int_equal(DETECT("{\"dhatFileVersion\":2,\"mode\":\"heap\"}", true), INPUT_DHAT);
	assert_int_equal(
	        DETECT("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\"}",
	                true),
	        INPUT_SPEEDSCOPE);
	assert_int_equal(
	        DETECT("{\"meta\":{\"interval\":1,\"product\":\"samply\"},\"threads\":[]}", true),
	        INPUT_GECKO);
	assert_int_equal(DETECT("[{\"ph\":\"X\",\"name\":\"a\"}]", true), INPUT_CHROME_TRACE);
	assert_int_equal(DETECT("{\"traceEvents\":[]}", true), INPUT_CHROME_TRACE);
	assert_int_equal(DETECT("{\"nodes\":[{\"id\":1,\"callFrame\":{}}],\"samples\":[]}", true),
	        INPUT_CPUPROFILE);
	assert_int_equal(DETECT("  {\n  \"name\": \"all\"\n}\n", true), INPUT_JSON);
	assert_int_equal(DETECT("[]", true), INPUT_JSON);
}

static void
test_other_formats(void **state)
{
	(void)state;
	assert_int_equal(DETECT("desc: --time-unit=B\ncmd: ./a\ntime_unit: B\n#-----------\n"
	                        "snapshot=0\n#-----------\ntime=0\n",
	                         true),
	        INPUT_MASSIF);
	assert_int_equal(DETECT("v 10000 3\nX ./a\ns 4 main\n", true), INPUT_HEAPTRACK);
	assert_int_equal(DETECT("FLR\0\0\x02\0\x01", true), INPUT_JFR);
	assert_int_equal(DETECT("\xff\xfem\0a\0i\0n\0 \0"
	                        "1\0",
	                         true),
	        INPUT_UTF16);
	assert_int_equal(DETECT("m\0a\0i\0n\0;\0a\0 \0"
	                        "1\0\n\0",
	                         true),
	        INPUT_UTF16);
	assert_int_equal(DETECT("<?xml version=\"1.0\"?>\n<svg>", true), INPUT_MARKUP);
	assert_int_equal(DETECT("\x28\xb5\x2f\xfd\0\0", true), INPUT_COMPRESSED);
	assert_int_equal(DETECT("\x7f"
	                        "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0",
	                         true),
	        INPUT_BINARY);
}

/* Other tools' formats are named, so their refusal says how to fold them. */
static void
test_other_tools(void **state)
{
	(void)state;
	assert_int_equal(DETECT("Analysis of sampling rg (pid 1) every 1 millisecond\n", true),
	        INPUT_MACOS_SAMPLE);
	assert_int_equal(DETECT("Function Stack,CPU Time:Self,Module\nTotal,0.0,[Unknown]\n", true),
	        INPUT_VTUNE_CSV);
	assert_int_equal(DETECT("\xef\xbb\xbfLevel,Function Name,Number of Calls\n", true),
	        INPUT_VSPROF_CSV);
	assert_int_equal(DETECT("CPU     ID                    FUNCTION:NAME\n\n"
	                        "              genunix`kmem_free+0x20\n"
	                        "              unix`thread_start+0x8\n               17\n",
	                         true),
	        INPUT_DTRACE);
	assert_int_equal(
	        DETECT("\tSun Aug  6 2023 Time and Allocation Profiling Report  (Final)\n\n"
	               "COST CENTRE MODULE SRC %time %alloc\n",
	                true),
	        INPUT_GHC_PROF);
	assert_int_equal(DETECT("{\"label\":\"a\",\"duration\":7.1,\"markers\":[],\"ticks\":[],"
	                        "\"allocations\":{},\"profile\":{\"meta\":{}}}",
	                         true),
	        INPUT_FIREFOX_DEVTOOLS);
	/* A trace that mentions speedscope is still a trace. */
	assert_int_equal(DETECT("{\"traceEvents\": [{\"ph\": \"M\", \"args\": "
	                        "{\"url\": \"https://speedscope.app\"}}]}",
	                         true),
	        INPUT_CHROME_TRACE);
	/* Indented counts alone, or backticks alone, are not DTrace. */
	assert_int_equal(DETECT("a;b 1\n  7\n", true), INPUT_FOLDED);
	assert_int_equal(DETECT("a`b;c 1\nd 2\n", true), INPUT_FOLDED);
}

static void
test_names_and_readers(void **state)
{
	(void)state;
	assert_int_equal(readers_find("callgrind")->format, INPUT_CALLGRIND);
	assert_int_equal(readers_find("folded")->format, INPUT_FOLDED);
	assert_int_equal(readers_find("pprof")->format, INPUT_PPROF);
	assert_null(readers_find("heaptrack"));
	for (int i = INPUT_FOLDED; i <= INPUT_BINARY; i++) {
		assert_non_null(detect_format_name((enum input_format)i));
		/* Every format is either readable or comes with advice. */
		assert_true((readers_for((enum input_format)i) != NULL) !=
		            (detect_advice((enum input_format)i) != NULL));
	}
	/* Every reader reads a format of its own, found by its name. */
	for (size_t i = 0; readers_at(i); i++) {
		assert_ptr_equal(readers_for(readers_at(i)->format), readers_at(i));
		assert_ptr_equal(readers_find(readers_at(i)->name), readers_at(i));
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_folded_stays_folded),
	        cmocka_unit_test(test_callgrind),
	        cmocka_unit_test(test_perf),
	        cmocka_unit_test(test_perf_weak_headers),
	        cmocka_unit_test(test_pprof),
	        cmocka_unit_test(test_json),
	        cmocka_unit_test(test_other_formats),
	        cmocka_unit_test(test_other_tools),
	        cmocka_unit_test(test_names_and_readers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
