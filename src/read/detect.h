/*
 * detect: what kind of profile a file holds, judged by its first bytes
 * (decompressed already when the file is gzip), never by its name. The
 * folded reader is the fallback for text that looks like nothing else; for
 * every format difffold cannot read, detect_advice says what to do instead,
 * so a file we do not understand is refused instead of drawn.
 */
#ifndef DIFFFOLD_DETECT_H
#define DIFFFOLD_DETECT_H

#include <stdbool.h>
#include <stddef.h>

enum input_format {
	INPUT_FOLDED,
	INPUT_CALLGRIND,
	INPUT_PERF_DATA,
	INPUT_PERF_SCRIPT,
	INPUT_PPROF,
	INPUT_PPROF_LEGACY, /* gperftools' binary CPU profile, the text heap and others */
	INPUT_SPEEDSCOPE,
	INPUT_GECKO, /* the Firefox Profiler's format, as samply saves it */
	INPUT_CHROME_TRACE,
	INPUT_CPUPROFILE, /* Chrome / V8 / Node .cpuprofile */
	INPUT_FIREFOX_DEVTOOLS, /* Firefox's old performance panel export */
	INPUT_GHC_PROF, /* GHC's +RTS -p report */
	INPUT_MACOS_SAMPLE, /* macOS `sample`'s call graph */
	INPUT_VTUNE_CSV, /* Intel VTune's call stacks as CSV */
	INPUT_VSPROF_CSV, /* Visual Studio's call tree summary as CSV */
	INPUT_DTRACE, /* DTrace stack aggregations */
	INPUT_DHAT,
	INPUT_JSON, /* JSON of no kind we know */
	INPUT_MASSIF,
	INPUT_HEAPTRACK,
	INPUT_JFR,
	INPUT_UTF16,
	INPUT_FLAMEGRAPH, /* a flame graph drawn by a tool whose frames we read back */
	INPUT_MARKUP, /* SVG, HTML or XML: a drawn graph, not a profile */
	INPUT_COMPRESSED, /* zstd, xz, bzip2: not decompressed by difffold */
	INPUT_BINARY,
};

/*
 * The format of a file whose first len bytes are data. `whole` says the
 * file ends there (so a last line without newline is complete).
 */
enum input_format detect_format(const char *data, size_t len, bool whole);
/* A short name for messages: "callgrind", "perf.data", "pprof (protobuf)"... */
const char *detect_format_name(enum input_format f);
/* What to do with a file of that format instead; NULL for readable ones. */
const char *detect_advice(enum input_format f);

#endif
