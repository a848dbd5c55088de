/*
 * options_check: the rules between options that hold only once every
 * option is parsed (options_parse calls them last), each a usage error
 * that names what to give instead.
 */
#include "options.h"

#include <string.h>

#include "options_private.h"

bool
options_stdin_used_twice(const struct options *o)
{
	int n = o->single && strcmp(o->single, "-") == 0;
	for (size_t i = 0; i < o->base_count; i++) {
		n += strcmp(o->base[i], "-") == 0;
	}
	for (size_t i = 0; i < o->head_count; i++) {
		n += strcmp(o->head[i], "-") == 0;
	}
	return n > 1;
}

/* A spread needs two runs a side. */
bool
options_runs_usable(const struct options *o, struct diag *err)
{
	if (o->runs && (o->single || o->base_count < 2 || o->head_count < 2)) {
		return options_usage(err,
		        "--runs needs two or more files a side (--base A --base B "
		        "--head C --head D)",
		        NULL);
	}
	return true;
}

/*
 * --flamechart: one profile, its stacks in time order. Two profiles have
 * two time axes, whose frames at one x are no pair to compare.
 */
bool
options_chart_usable(const struct options *o, struct diag *err)
{
	if (!o->tree.chart) {
		return true;
	}
	if (!o->single) {
		return options_usage(err,
		        "--flamechart draws one profile in time order; two profiles have two time "
		        "axes and nothing to compare at one x (draw each alone, or drop "
		        "--flamechart for the differential flame graph)",
		        NULL);
	}
	if (o->tree.reverse || o->tree.strip_hex) {
		return options_usage(err,
		        o->tree.reverse
		                ? "--flamechart draws stacks from the root: not with --reverse"
		                : "--flamechart keeps frames as read: not with --strip-hex",
		        NULL);
	}
	return true;
}
