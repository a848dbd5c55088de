/*
 * report_private: what the parts of the report module share. report.c
 * builds the summary (functions summed over call sites, sorted lists) and
 * formats its cells; report_model.c computes struct report once from it
 * (signals, gates, verdict); report_md.c, report_text.c and report_json.c
 * write that report, with the sections the first two share. Not for use
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
/* Fills cell[0..NCOL) for one row (md: Markdown escaping); cell[0] is the name. */
void report_row_cells(
        const struct summary *s, enum list l, const struct row *r, bool md, struct buf *cell);
/* A count with up to 2 decimals and separators; '+' on positive when plus. */
void report_add_count(struct buf *b, double v, bool plus);
/* The same for an amount, digit for digit when it is exact. */
void report_add_amount(struct buf *b, struct amount a, bool plus);
/* A change in percentage points of the larger total. */
double report_points(const struct summary *s, double delta);
/* A label or unit cut to MD_LABEL_CAP code points: Markdown-inert
 * (escape_md_inert), or terminal-safe text. */
void report_add_label(struct buf *b, const char *s, bool md);
/* Any string of a file (a frame name, a description quoting names) cut to
 * cap code points, terminal-safe, in a Markdown code span for a table cell. */
void report_add_md_code(struct buf *b, const char *raw, size_t len, size_t cap);
/* A function name cut and escaped: a Markdown code span, or terminal-safe text. */
void report_add_code_name(struct buf *b, const char *raw, size_t len, bool md);
/* --base-label / --head-label, or "base" / "head". */
const char *report_label(const struct report_options *opt, enum side side);
const char *report_countname(const struct report_options *opt);
/* "Transforms: --replace '...' ..." and a newline, when any (report_md.c). */
void report_add_transforms(struct buf *b, const struct report_options *opt, bool md);
/* The rule used, shared word for word by the Markdown and text reports. */
void report_add_rule(struct buf *b, const struct summary *s, bool md);

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

struct gate_eval {
	enum gate_kind kind;
	const struct gate_pattern *pattern; /* GATE_PATTERN only */
	double limit; /* PCT, or SHARE for GATE_NEW */
	struct offender *o; /* sorted */
	size_t count, cap;
	size_t examined; /* the functions (and whole profile) the gate looked at */
	size_t family; /* those its test was corrected over (report_gate.c) */
	size_t unconfirmed; /* over the limit, but not confirmed by the test */
};

/* The gates opt asks for, in a fixed order: regression, function, new, patterns. */
size_t report_gates_count(const struct report_options *opt);
/* Evaluates gate i of report_gates_count on s; report_gate_finish frees it. */
void report_gate_eval(
        const struct summary *s, const struct report_options *opt, size_t i, struct gate_eval *ev);
void report_gate_finish(struct gate_eval *ev);
/* The gate as the user gave it: `--fail-on-regression 5`. */
void report_gate_title(struct buf *b, const struct gate_eval *ev, bool md);
/* One line (no newline) on why an offender tripped the gate; named: the
 * line also names the gate (except --fail-on-regression, as always). */
void report_gate_line(struct buf *b, const struct summary *s, const struct gate_eval *ev,
        const struct offender *o, bool md, bool named);

enum verdict {
	VERDICT_NEUTRAL,
	VERDICT_REGRESSION,
	VERDICT_IMPROVEMENT,
};

enum verdict report_verdict(const struct summary *s, size_t gates, size_t failed);
/* Whether base and head share no root frame though both hold samples. */
bool report_roots_differ(const struct summary *s);
/* Above the verdict when the roots differ: the warning and its advice. */
void report_add_roots_warning(struct buf *b, const struct summary *s, bool md);
/* The function with the largest base self, UINT32_MAX when none. */
uint32_t report_heaviest(const struct summary *s);
struct stats_counts;
/* "`name` (12.3%": function id and its base share of the samples tested by c. */
void report_add_share_name(
        struct buf *b, const struct summary *s, uint32_t id, const struct stats_counts *c, bool md);
/* The power at which the reports quote the change a test can detect. */
#define REPORT_POWER 0.8
const char *report_verdict_name(enum verdict v);
/* The row with the largest self change beyond the noise floor, or NULL. */
const struct row *report_largest_self(const struct summary *s, enum list *l);
/* The verdict sentence after "Verdict: WORD", shared by Markdown and text. */
void report_add_verdict(struct buf *b, const struct report *r, bool md);
/* The gates section of the Markdown and text reports (nothing without gates). */
void report_add_gates(struct buf *b, const struct report *r, bool md);

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
void report_add_signals(struct buf *b, const struct summary *s, const struct signals *sg,
        const struct report_options *opt, bool md);
/* The glob list of a signal: the user's, or the defaults. */
const char *const *report_signal_patterns(
        const struct report_options *opt, enum signal_kind k, size_t *n);

/* ---- the report, computed once (report_model.c) ------------------------ */

/*
 * Everything the reports say, computed once from the tree and the options:
 * the summary (totals, functions, the ranked lists), the signals, every
 * gate evaluated and the verdict. The renderers (report_md.c,
 * report_text.c, report_json.c and the sections they share) format it and
 * compute nothing that needs a threshold.
 */
struct report {
	struct summary sum;
	const struct report_options *opt;
	struct signals signals;
	/* The gates opt asks for, in report_gates_count's order, evaluated on
	 * sum; NULL for one profile, which no gate judges. */
	struct gate_eval *gates;
	size_t ngates, failed; /* gates asked for, and those that tripped */
	enum verdict verdict;
};

/* ---- the sections of issue 19 (report_sections.c) -------------------- */

/* "B → H UNIT (+d, +x%, +y pp)", "new (H UNIT)" or "removed (B UNIT in
 * base)", for c[2]; unit NULL: no unit. */
void report_add_change_words(
        struct buf *b, const struct summary *s, const struct count *c, const char *unit, bool md);
/* A call path as the tables write it (`a;…;y;z`). */
void report_add_path(struct buf *b, const struct summary *s, uint32_t id, bool md);
/* Hot-path changes: one line a function, largest self change first. */
void report_add_hot_changes(
        struct buf *b, const struct summary *s, const struct report_options *opt, bool md);
/* The five most expensive functions (self) of base and head side by side. */
void report_add_top_functions(struct buf *b, const struct summary *s, bool md);
/* What to investigate: a few bullets from the lists, signals and gates. */
void report_add_investigate(struct buf *b, const struct report *r, bool md);
/* After an improvement: the sentence and the command that updates the baseline. */
void report_add_baseline(struct buf *b, const struct report *r, bool md);
/*
 * The last guard of the comment limit: past MD_REPORT_MAX bytes the report
 * is cut after its last whole line and says so. The per-table budgets keep
 * it under the limit for any input; this holds it for any options too.
 */
#define MD_REPORT_MAX 60000
void report_md_fit(struct buf *b);

/* Before the tables: baseline command, hot-path changes, most expensive functions. */
void report_add_opening(struct buf *b, const struct report *r, bool md);
/* After them: signals, repeated runs, what to investigate, gates. */
void report_add_closing(struct buf *b, const struct report *r, bool md);
/*
 * A table of nrows x ncol cells (row-major) under head: Markdown with the
 * alignment row `align` ("|:--|--:|"), within MD_TABLE_BUDGET (returns the
 * rows written); or aligned text, the columns whose bit is set in left
 * aligned left.
 */
#define GRID_MAX_COLUMNS 8
size_t report_md_grid(struct buf *b, const char *const *head, const char *align,
        const struct buf *cells, size_t nrows, size_t ncol);
void report_text_grid(struct buf *b, const char *const *head, const struct buf *cells, size_t nrows,
        size_t ncol, unsigned left);
/* The JSON summary's schema: 2 added the members below and "runs", 3 the
 * gates' "tested" and "unconfirmed", "runs" for one profile a side of
 * sampled counts with "p_up" and "dispersion", and "roots_differ"
 * (docs/reports.md). */
#define REPORT_SCHEMA_VERSION "3"
/* One ROW of the JSON summary: {"name" (or "path"), "base", ...}. */
void report_json_row(struct buf *b, const struct summary *s, enum list l, const struct row *r);
/* The JSON members of all of the above (leading commas). */
void report_sections_json(struct buf *b, const struct report *r);

/* ---- repeated runs (report_runs.c) ----------------------------------- */

/* Whether row id may be listed in l: always without --runs; with it, only
 * a change the test confirms (functions, or nodes for LIST_PATHS). */
bool report_runs_keep(const struct summary *s, enum list l, uint32_t id);
/* The verdict without gates under --runs: the test on the runs' totals. */
enum verdict report_runs_verdict(const struct summary *s);
/* The "Repeated runs" section of the Markdown and text reports (nothing without --runs). */
void report_add_runs(
        struct buf *b, const struct summary *s, const struct report_options *opt, bool md);
/* The ,"runs":{...} member of the JSON summary (nothing without --runs). */
void report_runs_json(struct buf *b, const struct summary *s, const struct report_options *opt);

#endif
