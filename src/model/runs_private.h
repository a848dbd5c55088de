/*
 * runs_private: what runs.c (repeated runs, and what both modes share) and
 * runs_single.c (one profile a side) hold in common: the struct itself,
 * the demotion of the statuses the tests do not confirm, and which nodes
 * add their total to their function's. For those two files only.
 */
#ifndef DIFFFOLD_RUNS_PRIVATE_H
#define DIFFFOLD_RUNS_PRIVATE_H

#include "runs.h"

/* Per node after testing: [0] self, [1] total. Floats: 24 bytes a node. */
struct node_stat {
	float p[2];
	float lo[2], hi[2];
};

struct single_functions; /* runs_single.c: the names' sums, worked out when asked */

struct runs {
	double alpha;
	/* One profile a side: nodes are tested from the tree's counts (their
	 * verdicts kept, two bits a node), their exposures the side totals in
	 * samples (counts over the side's sample weight). */
	const struct tree *single;
	double weight[2], exposure[2];
	bool plain; /* whole counts of weight 1: a count in samples is its units */
	uint8_t *node_sig; /* one profile: bit 2 (id % 4) + total of byte id / 4 */
	uint8_t *fn_sig; /* one profile, by name: bit 0 self, bit 1 total */
	struct single_functions *fn; /* one profile: filled in through const when asked */
	bool identical[2]; /* every run of the side held the same counts */
	/* --runs, while reading: each run summed into its side's counts as it
	 * ends (stats_acc), by node and by name, [side][total]; freed after
	 * testing. Only the runs' totals are kept one a run. */
	struct stats_acc *node_acc[2][2], *fn_acc[2][2];
	size_t acc_nodes, acc_names;
	double *run_total[2];
	double exposure_sum[2]; /* the side's run totals summed in run order */
	size_t n[2], cap[2];
	double *prev[2]; /* the side's self counts summed so far */
	size_t prev_len[2];
	double *first[2]; /* the side's first run's self counts, to tell identical runs */
	size_t first_len[2];
	bool differ[2]; /* a run of the side differed from its first */
	bool *outer; /* by node so far: adds its total to its function's */
	size_t outer_len;
	struct node_stat *nodes;
	size_t node_count;
	struct stats_counts *fns[2]; /* by intern id: [0] self, [1] total */
	uint32_t nnames;
	struct stats_counts whole;
	/* Benjamini-Hochberg: the largest significant p of each family, -1: none. */
	double node_cut[2], fn_cut[2];
};

/* Draws unchanged every changed frame whose change the tests do not confirm. */
void runs_demote(const struct runs *r, struct tree *t);
/*
 * Which nodes add their total to their function's: those with no ancestor
 * of the same name (the reports' rule). Freed by the caller.
 */
bool *runs_outermost(const struct tree *t, uint32_t nnames);
/* One profile a side (runs_single.c): frees what it allocated; the accessors. */
void runs_single_free(struct runs *r);
/* Inline: the demotion asks it of every changed frame. */
static inline bool
runs_single_node_significant(const struct runs *r, uint32_t id, bool total)
{
	return id < r->node_count && (r->node_sig[id / 4] >> (2 * (id % 4) + total) & 1);
}
void runs_single_node_interval(
        const struct runs *r, uint32_t id, bool total, double *lo, double *hi, double *p);
void runs_single_function(
        const struct runs *r, uint32_t name, bool total, struct stats_counts *out);
bool runs_single_function_significant(const struct runs *r, uint32_t name, bool total);

#endif
