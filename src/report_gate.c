#include "report.h"

#include "numfmt.h"
#include "report_private.h"

/* ---- gate ------------------------------------------------------------- */

static void
gate_line(
        struct buf *why, const char *what, size_t len, struct amount delta, double base, double pct)
{
	buf_adds(why, "regression: ");
	report_add_name(why, what, len, MD_NAME_CAP, false);
	buf_adds(why, " total ");
	if (base > 0) {
		numfmt_report_percent(why, delta.v / base * 100, true);
		buf_adds(why, " of base total");
	} else {
		report_add_amount(why, delta, true);
		buf_adds(why, " over an empty base");
	}
	buf_adds(why, " (");
	report_add_amount(why, delta, true);
	buf_adds(why, ", limit ");
	numfmt_report_number(why, pct, 6, true, false);
	buf_adds(why, "%)\n");
}

bool
report_gate(const struct tree *t, double pct, struct buf *why)
{
	if (!t->differential) {
		return false;
	}
	/* The gate's threshold is the user's, not the noise floor. */
	struct summary s;
	report_summary_init(&s, t, false);
	/* delta * 100 > pct * base avoids rounding pct / 100 at the threshold. */
	double limit = pct * s.base_total.v;
	bool failed = false;
	double d = s.change.v;
	if (d > 0 && d * 100 > limit) {
		gate_line(why, "whole profile", 13, s.change, s.base_total.v, pct);
		failed = true;
	}
	size_t lines = 0, over = 0;
	for (size_t i = 0; i < s.count[LIST_REG_TOTAL]; i++) {
		const struct row *r = &s.rows[LIST_REG_TOTAL][i];
		if (!(r->delta.v * 100 > limit)) {
			break;
		}
		failed = true;
		over++;
		if (lines++ < GATE_MAX_LINES) {
			size_t len;
			const char *name = intern_name(t->names, r->id, &len);
			gate_line(why, name, len, r->delta, s.base_total.v, pct);
		}
	}
	if (over > GATE_MAX_LINES) {
		buf_printf(why, "regression: %zu more functions over the limit\n",
		        over - GATE_MAX_LINES);
	}
	report_summary_finish(&s);
	return failed;
}
