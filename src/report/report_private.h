/*
 * report_private: what the parts of the report module share. report.c
 * builds the summary (functions summed over call sites, sorted lists) and
 * formats its cells; report_model.c computes struct report once from it
 * (every figure, row and line each format says); report_md.c,
 * report_text.c and report_json.c write that report. The sections Markdown
 * and text share are written once, through a struct report_style: the
 * format's primitives, never a test of which format it is. Not for use
 * outside src/report*.c.
 */
#ifndef DIFFFOLD_REPORT_PRIVATE_H
#define DIFFFOLD_REPORT_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "count.h"
#include "report_options.h"
#include "stats.h"
#include "tree.h"

/*
 * Size limits. GitHub rejects comments over 65,536 characters; every row of
 * a Markdown table is charged against its table's byte budget (bytes bound
 * characters from above), so no input can push the report past the limit.
 */
#define MD_NAME_CAP 120 /* code points of a function name */
#define MD_FRAME_CAP 40 /* code points of each frame of a call path */
#define MD_LABEL_CAP 120
#define MD_TABLE_BUDGET 7000 /* bytes of rows per table */
#define MD_URL_MAX 1024 /* bytes of the encoded image URL */
#define TEXT_NAME_CAP 80
#define GATE_MAX_LINES 20
#define DEFAULT_TOP 10
#define NCOL 6

struct report;

/* ---- how a format writes (report_md.c, report_text.c) ------------------ */

/* The notes whose words differ between Markdown and text. */
enum report_note {
	NOTE_NONE, /* an empty section */
	NOTE_NONE_BEYOND_FLOOR, /* hot-path changes: nothing beyond the noise floor */
	NOTE_NOTHING_STANDS_OUT, /* what to investigate: nothing */
	NOTE_SHOWING, /* lines cut by a budget: "shown of all" */
	NOTE_AND_MORE, /* a gate's offenders past those listed */
	NOTE_GATES_NOT_SHOWN, /* gates past the section's budget */
	NOTE_COUNT,
};

/*
 * A format, as cmark's renderers are: the sections Markdown and text share
 * (report_sections.c, report_signals.c, report_runs.c, report_verdict.c,
 * report_gate.c) are written once with these, and which format it is is
 * never asked. Text from a file goes through `code` (already
 * terminal-safe: a code span in Markdown) or `inert` (prose).
 */
struct report_style {
	/* A section heading; detail: words only a terminal heading adds. */
	void (*heading)(struct buf *b, const char *title, const char *detail);
	/* Terminal-safe text (escape_terminal) as a code span, or as it is. */
	void (*code)(struct buf *b, const char *s, size_t len);
	/* A label or other string from a file or the command line as prose,
	 * at most cap code points. */
	void (*inert)(struct buf *b, const char *s, size_t len, size_t cap);
	/* A table of nrows x ncol cells (row-major) under head, the columns
	 * whose bit is set in left aligned left; returns the rows written
	 * (Markdown: within MD_TABLE_BUDGET). */
	size_t (*grid)(struct buf *b, const char *const *head, const struct buf *cells,
	        size_t nrows, size_t ncol, unsigned left);
	const char *strong; /* around strong words: "**", or nothing */
	const char *emph; /* around emphasised words: "*", or nothing */
	const char *item, *subitem; /* a line of a list, and of a list in it */
	const char *bullet; /* a line of a list of sentences */
	const char *sentence_break; /* between sentences of one paragraph */
	const char *paragraph_break; /* before a table after a paragraph */
	const char *reach_open, *reach_close; /* around a gate's reach line */
	size_t name_cap, frame_cap; /* code points of a function name, of a path's frame */
	/* Each note's words; its first "%zu" is written as report_note's n,
	 * the next as of (no printf: the words are data). */
	const char *notes[NOTE_COUNT];
};

extern const struct report_style report_md_style;
extern const struct report_style report_text_style;

/* A note of st in its words, with its counts n and of when it has any. */
void report_note(
        struct buf *b, const struct report_style *st, enum report_note note, size_t n, size_t of);

enum list {
	LIST_REG_SELF,
	LIST_IMP_SELF,
	LIST_REG_TOTAL,
	LIST_IMP_TOTAL,
	LIST_NEW,
	LIST_REMOVED,
	LIST_PATHS,
	LIST_COUNT,
};

/* The order of the tables in the Markdown and text reports (issue 19):
 * regressions, improvements, then new, removed and the call paths. */
extern const enum list report_list_order[LIST_COUNT];

/* A table row: a function (id = intern id) or a call path (id = node id). */
/*
 * A count or a change as the reports print it: exact (c, with a sign for
 * changes) unless normalisation scaled a base count; v is the value as a
 * double for ranking and percentages.
 */
struct amount {
	struct count c;
	bool negative;
	bool exact;
	double v;
};

struct row {
	uint32_t id;
	uint32_t order; /* tie-break independent of input order */
	struct amount base, head, delta;
	double key; /* sorted by key, largest first */
};

/* One function (intern id), summed over all its call sites, exactly. */
struct fn {
	struct count self[2];
	struct count total[2]; /* each sample once, however deep the recursion */
	bool seen;
};

/*
 * How the summary keeps a struct fn, one for every name: the whole units,
 * and their nanos in fn_nanos only when the tree has some (as struct
 * tree_node keeps them; 36 bytes a name instead of 52).
 */
struct __attribute__((packed, aligned(4))) fn_units {
	uint64_t self[2];
	uint64_t total[2];
	bool seen;
};

struct summary {
	const struct tree *t;
	bool differential;
	struct amount base_total, head_total, change, larger;
	double floor;
	/* By intern id, every function (the gates need all): read with report_fn. */
	struct fn_units *fns;
	struct tree_nanos *fn_nanos; /* NULL when the tree's counts are whole */
	uint32_t nnames;
	const uint32_t *ranks; /* intern_ranks: a tie-break independent of input order */
	struct row *rows[LIST_COUNT];
	size_t count[LIST_COUNT];
	size_t cap[LIST_COUNT];
	/* The single-profile count column: the count name, capitalised
	 * ("Samples", "Instructions"); set by report_summary_name_counts. */
	char count_title[64];
};

/* noise_floor: drop changes within --min-delta, as the colours do. */
void report_summary_init(struct summary *s, const struct tree *t, bool noise_floor);
void report_summary_finish(struct summary *s);

/* Function id's sums. */
static inline struct fn
report_fn(const struct summary *s, uint32_t id)
{
	const struct fn_units *u = &s->fns[id];
	const struct tree_nanos *n = s->fn_nanos ? &s->fn_nanos[id] : NULL;
	struct fn f = {.seen = u->seen};
	for (int side = 0; side < 2; side++) {
		f.self[side] = (struct count){u->self[side], n ? n->self[side] : 0};
		f.total[side] = (struct count){u->total[side], n ? n->total[side] : 0};
	}
	return f;
}
/* Titles the count column after the profile's unit (--countname, or the
 * unit a reader named: instructions for callgrind's Ir). */
void report_summary_name_counts(struct summary *s, const struct report_options *opt);
/* A side's count as compared: exact, or scaled for a normalised base. */
struct amount report_amount(const struct summary *s, struct count c, enum side side);
/* head - base: a sign and an exact magnitude when both are exact. */
struct amount report_change(struct amount base, struct amount head);
/* Rows per list: --top, or DEFAULT_TOP. */
size_t report_top(const struct report_options *opt);
/* The list's heading, or NULL when the list is not shown for this summary. */
const char *report_title(const struct summary *s, enum list l);
size_t report_columns(const struct summary *s);
void report_header_cells(const struct summary *s, enum list l, const char **h);
/* Fills cell[0..NCOL) for one row in style st; cell[0] is the name. */
void report_row_cells(const struct summary *s, enum list l, const struct row *r,
        const struct report_style *st, struct buf *cell);
/* A count with up to 2 decimals and separators; '+' on positive when plus. */
void report_add_count(struct buf *b, double v, bool plus);
/* The same for an amount, digit for digit when it is exact. */
void report_add_amount(struct buf *b, struct amount a, bool plus);
/* A change in percentage points of the larger total. */
double report_points(const struct summary *s, double delta);
/* A label or unit cut to MD_LABEL_CAP code points, as the style's prose. */
void report_add_label(struct buf *b, const struct report_style *st, const char *s);
/* Any string of a file (a frame name, a description quoting names) cut to
 * cap code points, terminal-safe, as the style's code span. */
void report_add_code(
        struct buf *b, const struct report_style *st, const char *raw, size_t len, size_t cap);
/* A function name: report_add_code at the style's name_cap. */
void report_add_code_name(
        struct buf *b, const struct report_style *st, const char *raw, size_t len);
/* --base-label / --head-label, or "base" / "head". */
const char *report_label(const struct report_options *opt, enum side side);
const char *report_countname(const struct report_options *opt);
/* The rule used, shared word for word by the Markdown and text reports. */
void report_add_rule(struct buf *b, const struct summary *s, const struct report_style *st);

/* ---- gates and verdict (report_gate.c) ---------------------------------- */

enum gate_kind {
	GATE_REGRESSION, /* --fail-on-regression */
	GATE_FUNCTION, /* --fail-on-function-regression */
	GATE_NEW, /* --fail-on-new */
	GATE_PATTERN, /* --fail-on, one gate per pattern */
};

#define GATE_WHOLE UINT32_MAX /* an offender that is the whole profile */

/* What tripped a gate: a function (intern id) or GATE_WHOLE. */
struct offender {
	uint32_t id;
	uint32_t order;
	double key; /* sorted by key, largest first */
	struct amount base, head, delta;
};

/*
 * What a gate on tested counts can see, for its heaviest member (or the
 * whole profile): it trips 4 times in 5 once that grows by about +grows%,
 * the limit and a noise margin of margin%; past the limit, factor times
 * the samples (one profile a side) or `runs` runs a side would bring the
 * margin down to it. Figures in percent.
 */
struct gate_reach {
	bool shown;
	uint32_t id; /* GATE_WHOLE, or the member (intern id) */
	double share; /* the member's share of the samples */
	double grows, margin;
	bool more; /* the margin is past the limit: factor or runs follows */
	bool single; /* one profile a side: factor, else runs */
	double factor, runs;
	/* The any-function gate, one profile a side: a function at
	 * --gate-min-share (min_share %) trips it once it grows by min_grows %. */
	bool min_shown;
	double min_share, min_grows;
};

struct gate_eval {
	enum gate_kind kind;
	const struct gate_pattern *pattern; /* GATE_PATTERN only */
	double limit; /* PCT, or SHARE for GATE_NEW */
	struct offender *o; /* sorted */
	size_t count, cap;
	size_t examined; /* the functions (and whole profile) the gate looked at */
	size_t family; /* those its test was corrected over (report_gate.c) */
	size_t unconfirmed; /* over the limit, but not confirmed by the test */
	size_t listed; /* offenders the JSON summary lists: --top at most */
	struct gate_reach reach; /* report_gate_reach fills it */
};

/* The gates opt asks for, in a fixed order: regression, function, new, patterns. */
size_t report_gates_count(const struct report_options *opt);
/* Evaluates gate i of report_gates_count on s; report_gate_finish frees it. */
void report_gate_eval(
        const struct summary *s, const struct report_options *opt, size_t i, struct gate_eval *ev);
void report_gate_finish(struct gate_eval *ev);
/* The reach figures of an evaluated gate (nothing without a test). */
void report_gate_reach(
        const struct summary *s, const struct report_options *opt, struct gate_eval *ev);
/* The gate as the user gave it: `--fail-on-regression 5`. */
void report_gate_title(struct buf *b, const struct gate_eval *ev, const struct report_style *st);
/* One line (no newline) on why an offender tripped the gate; named: the
 * line also names the gate (except --fail-on-regression, as always). */
void report_gate_line(struct buf *b, const struct summary *s, const struct gate_eval *ev,
        const struct offender *o, const struct report_style *st, bool named);

enum verdict {
	VERDICT_NEUTRAL,
	VERDICT_REGRESSION,
	VERDICT_IMPROVEMENT,
};

enum verdict report_verdict(const struct summary *s, size_t gates, size_t failed);
/* Whether base and head share no root frame though both hold samples. */
bool report_roots_differ(const struct summary *s);
/* Above the verdict when the roots differ: the warning and its advice. */
void report_add_roots_warning(struct buf *b, const struct report *r, const struct report_style *st);
/* "`name` (12.3%": function id and its share of the samples (percent). */
void report_add_share_name(struct buf *b, const struct summary *s, const struct report_style *st,
        uint32_t id, double share);
/* A function's share of the samples its test counts (c), in percent. */
double report_tested_share(const struct stats_counts *c);
/* The power at which the reports quote the change a test can detect. */
#define REPORT_POWER 0.8
const char *report_verdict_name(enum verdict v);
/* The row with the largest self change beyond the noise floor, or NULL. */
const struct row *report_largest_self(const struct summary *s, enum list *l);

/*
 * After a neutral verdict on tested counts: with `samples` samples a side
 * (a run, unless single), function id (share % of them, the heaviest)
 * would have to change by about change % to be seen.
 */
struct detectable {
	bool shown;
	uint32_t id;
	bool single;
	double samples, share, change;
};

/* The verdict's figures: the largest self change and what was detectable. */
void report_verdict_init(struct report *r);
/* The verdict sentence after "Verdict: WORD", shared by Markdown and text. */
void report_add_verdict(struct buf *b, const struct report *r, const struct report_style *st);
/* The gates section of the Markdown and text reports (nothing without gates). */
void report_add_gates(struct buf *b, const struct report *r, const struct report_style *st);

/* ---- signals (report_signals.c) ------------------------------------- */

#define SIGNAL_TOP 5 /* functions named per category, and new hot paths */

enum signal_kind {
	SIGNAL_ALLOC,
	SIGNAL_IO,
};

/* Allocation or I/O: the share of all samples in matching functions' self. */
struct signal_category {
	double share[2];
	uint32_t fns[SIGNAL_TOP]; /* intern ids whose self share grew most (confirmed by --runs) */
	size_t nfns;
	bool present; /* the category grew beyond the noise floor */
};

struct signals {
	struct signal_category cat[2]; /* by enum signal_kind */
	uint32_t hot[SIGNAL_TOP]; /* outermost new frames (node ids), heaviest first */
	size_t nhot, hot_total;
	double hot_min; /* --gate-min-share: the share a new hot path reaches */
	double depth[2]; /* sample-weighted mean stack depth per side */
	bool depth_present; /* it moved by 1% of the base or more */
};

void report_signals_init(
        struct signals *sg, const struct summary *s, const struct report_options *opt);
bool report_signals_any(const struct signals *sg);
/* The Signals section of the Markdown and text reports. */
void report_add_signals(struct buf *b, const struct report *r, const struct report_style *st);
/* The glob list of a signal: the user's, or the defaults. */
const char *const *report_signal_patterns(
        const struct report_options *opt, enum signal_kind k, size_t *n);

/* ---- repeated runs (report_runs.c) ----------------------------------- */

/* A listed function's test: the Repeated runs section's row, the JSON's "functions". */
struct runs_row {
	uint32_t id; /* intern id */
	bool total; /* its total, else its self */
	struct stats_counts c;
};

/* What the tests of sampled counts or --runs say beside the lists. */
struct runs_report {
	bool shown; /* a tested pair of profiles */
	bool single; /* one profile a side */
	size_t runs[2]; /* by side */
	bool identical[2]; /* a side's runs are all the same */
	double alpha;
	size_t not_significant; /* self beyond the noise floor, not confirmed */
	struct stats_counts whole;
	struct runs_row *rows; /* the tables' functions, in their order */
	size_t nrows;
};

/* Whether row id may be listed in l: always without --runs; with it, only
 * a change the test confirms (functions, or nodes for LIST_PATHS). */
bool report_runs_keep(const struct summary *s, enum list l, uint32_t id);
/* The verdict without gates under --runs: the test on the runs' totals. */
enum verdict report_runs_verdict(const struct summary *s);
void report_runs_init(
        struct runs_report *rr, const struct summary *s, const struct report_options *opt);
void report_runs_finish(struct runs_report *rr);
/* The "Repeated runs" section of the Markdown and text reports (nothing without --runs). */
void report_add_runs(struct buf *b, const struct report *r, const struct report_style *st);
/* The ,"runs":{...} member of the JSON summary (nothing without --runs). */
void report_runs_json(struct buf *b, const struct report *r);

/* ---- the sections of issue 19 (report_sections.c) -------------------- */

#define TOP_FUNCTIONS 5
#define INVESTIGATE_MAX 5

/* A hot-path line: a regression or improvement by self, or new or removed. */
struct hot {
	enum list l;
	const struct row *r;
};

/* The things to investigate, each one sentence. */
enum investigate_kind {
	INVESTIGATE_GATES, /* gates failed */
	INVESTIGATE_REGRESSION, /* the largest self growth (and its path) */
	INVESTIGATE_HOT_PATH, /* the heaviest new hot path */
	INVESTIGATE_ALLOC,
	INVESTIGATE_IO,
	INVESTIGATE_DEPTH,
};

struct investigate {
	enum investigate_kind kind;
	const struct row *path; /* REGRESSION: its largest call path, or NULL */
	double share; /* HOT_PATH: its share of head, percent */
};

/* The sections' rows: hot-path lines, heaviest functions, what to
 * investigate, the baseline command (report_sections_init). */
struct sections {
	struct hot *hot; /* largest change first, --top at most */
	size_t nhot;
	uint32_t top[2][TOP_FUNCTIONS]; /* each side's heaviest by self */
	size_t ntop[2];
	struct investigate investigate[INVESTIGATE_MAX];
	size_t ninvestigate;
	bool baseline; /* after an improvement: how to update the baseline */
	char *baseline_command; /* cp -- 'head' 'base' ..., NULL when none is safe */
};

/* ---- the report, computed once (report_model.c) ------------------------ */

/*
 * Everything the reports say, computed once from the tree and the options:
 * the summary (totals, functions, the ranked lists and how many rows of
 * each are shown), the signals, every gate evaluated with its reach, the
 * verdict and its figures, the sections' rows and the runs' tests. The
 * renderers (report_md.c, report_text.c, report_json.c and the sections
 * they share) format it: they choose no row and compute no figure beyond
 * a share or a difference of two of these. Only the byte budgets of the
 * Markdown report, which measure what is written, are kept while writing.
 */
struct report {
	struct summary sum;
	const struct report_options *opt;
	size_t shown[LIST_COUNT]; /* rows listed: --top at most */
	struct signals signals;
	/* The gates opt asks for, in report_gates_count's order, evaluated on
	 * sum; NULL for one profile, which no gate judges. */
	struct gate_eval *gates;
	size_t ngates, failed; /* gates asked for, and those that tripped */
	enum verdict verdict;
	bool roots_differ;
	uint32_t roots[2]; /* when they differ: each side's largest root (node id) */
	const struct row *largest; /* the largest self change, or NULL */
	enum list largest_list;
	struct detectable detectable;
	bool tested; /* sampled counts or --runs: a test confirms each change */
	double alpha; /* its significance */
	struct sections sections;
	struct runs_report runs;
	/* The transforms, described and terminal-safe; NULL for none. */
	char *transforms;
};

/* "B → H UNIT (+d, +x%, +y pp)", "new (H UNIT)" or "removed (B UNIT in
 * base)", for c[2]; unit NULL: no unit. */
void report_add_change_words(struct buf *b, const struct summary *s, const struct report_style *st,
        const struct count *c, const char *unit);
/* A call path as the tables write it (`a;…;y;z`). */
void report_add_path(
        struct buf *b, const struct summary *s, const struct report_style *st, uint32_t id);
void report_sections_init(struct sections *sc, const struct report *r);
void report_sections_finish(struct sections *sc);
/* One thing to investigate as a sentence without a newline. */
void report_add_investigate_item(struct buf *b, const struct report *r,
        const struct report_style *st, const struct investigate *it);
/*
 * The last guard of the comment limit: past MD_REPORT_MAX bytes the report
 * is cut after its last whole line and says so. The per-table budgets keep
 * it under the limit for any input; this holds it for any options too.
 */
#define MD_REPORT_MAX 60000
void report_md_fit(struct buf *b);

/* Before the tables: baseline command, hot-path changes, most expensive functions. */
void report_add_opening(struct buf *b, const struct report *r, const struct report_style *st);
/* After them: signals, repeated runs, what to investigate, gates. */
void report_add_closing(struct buf *b, const struct report *r, const struct report_style *st);
#define GRID_MAX_COLUMNS 8
/* The JSON summary's schema: 2 added the members below and "runs", 3 the
 * gates' "tested" and "unconfirmed", "runs" for one profile a side of
 * sampled counts with "p_up" and "dispersion", and "roots_differ"
 * (docs/reports.md). */
#define REPORT_SCHEMA_VERSION "3"
/* One ROW of the JSON summary: {"name" (or "path"), "base", ...}. */
void report_json_row(struct buf *b, const struct summary *s, enum list l, const struct row *r);
/* The JSON members of all of the above (leading commas). */
void report_sections_json(struct buf *b, const struct report *r);

#endif
