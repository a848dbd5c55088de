/* placeholder: being written (issue 5) */
#include "report.h"

void
report_write_md(struct out *o, const struct tree *t, const struct options *opt)
{
	(void)o;
	(void)t;
	(void)opt;
}

void
report_write_text(struct out *o, const struct tree *t, const struct options *opt, bool color)
{
	(void)o;
	(void)t;
	(void)opt;
	(void)color;
}

void
report_json_summary(struct buf *b, const struct tree *t, const struct options *opt)
{
	(void)t;
	(void)opt;
	buf_adds(b, "\"summary\":{}");
}

bool
report_gate(const struct tree *t, double pct, struct buf *why)
{
	(void)t;
	(void)pct;
	(void)why;
	return false;
}
