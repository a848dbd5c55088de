/*
 * report_model: the report computed once (struct report, report_private.h)
 * for every format it is written in: each row, figure and sentence the
 * formats share is chosen here, and the renderers only format it.
 */
#include "report.h"

#include <stdlib.h>

#include "escape.h"
#include "report_private.h"
#include "runs.h"
#include "transform.h"
#include "xalloc.h"

/*
 * The transforms as the reports quote them. The patterns are the user's,
 * but a report may travel: terminal-safe, and in Markdown a fenced block,
 * where nothing is markup and '|' needs no escape. The one line starts
 * with "--", so it never closes the fence.
 */
static char *
describe_transforms(const struct report_options *opt)
{
	if (!transform_active(opt->transform)) {
		return NULL;
	}
	struct buf desc, shown;
	buf_init(&desc);
	buf_init(&shown);
	transform_describe(opt->transform, &desc);
	escape_terminal(&shown, desc.data, desc.len, 4096);
	char *s = xmemdup(shown.data, shown.len);
	buf_finish(&shown);
	buf_finish(&desc);
	return s;
}

static void
evaluate_gates(struct report *r)
{
	r->ngates = report_gates_count(r->opt);
	size_t top = report_top(r->opt);
	if (!r->sum.differential || r->ngates == 0) {
		return;
	}
	r->gates = xcalloc(r->ngates, sizeof(*r->gates));
	for (size_t i = 0; i < r->ngates; i++) {
		report_gate_eval(&r->sum, r->opt, i, &r->gates[i]);
		report_gate_reach(&r->sum, r->opt, &r->gates[i]);
		r->gates[i].listed = r->gates[i].count < top ? r->gates[i].count : top;
		r->failed += r->gates[i].count > 0;
	}
}

struct report *
report_create(const struct tree *t, const struct report_options *opt)
{
	struct report *r = xcalloc(1, sizeof(*r));
	r->opt = opt;
	report_summary_init(&r->sum, t, true);
	report_summary_name_counts(&r->sum, opt);
	size_t top = report_top(opt);
	for (size_t l = 0; l < LIST_COUNT; l++) {
		r->shown[l] = r->sum.count[l] < top ? r->sum.count[l] : top;
	}
	r->tested = t->runs != NULL;
	r->alpha = t->runs ? runs_alpha(t->runs) : 0;
	report_signals_init(&r->signals, &r->sum, opt);
	evaluate_gates(r);
	r->verdict = r->sum.differential ? report_verdict(&r->sum, r->ngates, r->failed)
	                                 : VERDICT_NEUTRAL;
	report_verdict_init(r);
	report_sections_init(&r->sections, r);
	report_runs_init(&r->runs, &r->sum, opt);
	r->transforms = describe_transforms(opt);
	return r;
}

void
report_destroy(struct report *r)
{
	if (!r) {
		return;
	}
	for (size_t i = 0; r->gates && i < r->ngates; i++) {
		report_gate_finish(&r->gates[i]);
	}
	free(r->gates);
	free(r->transforms);
	report_runs_finish(&r->runs);
	report_sections_finish(&r->sections);
	report_summary_finish(&r->sum);
	free(r);
}
