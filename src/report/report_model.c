/*
 * report_model: the report computed once (struct report, report_private.h)
 * for every format it is written in.
 */
#include "report.h"

#include <stdlib.h>

#include "report_private.h"
#include "xalloc.h"

struct report *
report_create(const struct tree *t, const struct report_options *opt)
{
	struct report *r = xcalloc(1, sizeof(*r));
	r->opt = opt;
	report_summary_init(&r->sum, t, true);
	report_summary_name_counts(&r->sum, opt);
	report_signals_init(&r->signals, &r->sum, opt);
	r->ngates = report_gates_count(opt);
	if (r->sum.differential && r->ngates > 0) {
		r->gates = xcalloc(r->ngates, sizeof(*r->gates));
		for (size_t i = 0; i < r->ngates; i++) {
			report_gate_eval(&r->sum, opt, i, &r->gates[i]);
			r->failed += r->gates[i].count > 0;
		}
	}
	r->verdict = r->sum.differential ? report_verdict(&r->sum, r->ngates, r->failed)
	                                 : VERDICT_NEUTRAL;
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
	report_summary_finish(&r->sum);
	free(r);
}
