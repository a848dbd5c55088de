/*
 * runs: the test of every change against sampling noise, with one
 * profile a side (runs_attach_single: the tree's own counts) or repeated
 * runs (--runs). Each --base and each --head file is one
 * run of the same workload; the tree still sums them all, and this module
 * keeps what summing loses: after each file (runs_take), each frame's and
 * each function's count in that run (self and total) and its share of the
 * run's total, added to that count's sums (stats_acc), so that memory
 * follows the tree, not runs times frames. After tree_finish, runs_attach
 * tests the head runs against the base runs from those sums
 * (stats_counts_acc: exact at the Poisson floor, the runs' spread above
 * it), demotes the self status of every frame whose change is not
 * significant to STATUS_SAME, and hands itself to the tree (t->runs,
 * freed with it).
 *
 * Memory: while reading, four stats_acc (48 bytes each) per node and per
 * function name, the side's self counts so far and its first run's (one
 * double a node each) and one double a run; afterwards 24 bytes per node
 * and two stats_counts per function name. One profile a side keeps nothing a node and 40 bytes a
 * name: a test is worked out from the tree, or the names' sums, when asked. Nothing is spent
 * without --runs. Node ids must be those of the finished tree, so a tree read with runs is read on
 * one thread.
 */
#ifndef DIFFFOLD_RUNS_H
#define DIFFFOLD_RUNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats.h"
#include "tree.h"

struct runs;

/* alpha: the significance level (--significance). */
struct runs *runs_create(double alpha);
void runs_destroy(struct runs *r);
/*
 * Call after each file of a side is read into t (unfinished): it is one
 * run. False when the run's total is 0: each count is a share of its run's
 * total, which such a run does not have (it would count as a share of 0
 * everywhere); the caller refuses the file.
 */
bool runs_take(struct runs *r, const struct tree *t, enum side side);
/*
 * After tree_finish(t): tests, demotes statuses, and points t->runs at r,
 * which stays the caller's: it frees r (runs_destroy(t->runs)) with t.
 */
void runs_attach(struct runs *r, struct tree *t);
/*
 * One profile a side of sampled counts (a differential, finished tree
 * without runs): each count against its side's total, as one run each;
 * demotes statuses as runs_attach does and hands the result to t.
 * per_sample[side], when over 0: the side's counts per sample, as the
 * profile says them (pprof's samples beside its CPU nanoseconds); else,
 * with weighted, the counts may weigh each sample (time units) and are
 * divided by the largest unit they all share; else a count is a sample.
 */
void runs_attach_single(struct tree *t, double alpha, bool weighted, const double per_sample[2]);
bool runs_single(const struct runs *r);
/* Whether every run of a side held the same counts (the spread is then the Poisson floor's). */
bool runs_identical(const struct runs *r, enum side side);
/* A side's samples, all runs together (over the sample weight with one profile). */
double runs_samples(const struct runs *r, enum side side);

size_t runs_count(const struct runs *r, enum side side);
double runs_alpha(const struct runs *r);
/* Whether node id's change in share (self or total) is significant. */
bool runs_node_significant(const struct runs *r, uint32_t id, bool total);
/*
 * Node id's p value and the (1 - alpha) interval of its change in share
 * (head mean - base mean, as a fraction of the run total).
 */
void runs_node_interval(
        const struct runs *r, uint32_t id, bool total, double *lo, double *hi, double *p);
/* Function name's (intern id) test on its share, self or total (summed as
 * the reports sum it: each sample once under recursion). */
void runs_function(const struct runs *r, uint32_t name, bool total, struct stats_counts *out);
bool runs_function_significant(const struct runs *r, uint32_t name, bool total);
/*
 * The direction of name's change in share (self or total) that the test
 * confirms: 1 rose, -1 fell, 0 not significant. When the totals differ a
 * count that grew can hold a share that fell; a list of regressions
 * keeps only 1, of improvements only -1, as the picture colours frames.
 */
int runs_function_direction(const struct runs *r, uint32_t name, bool total);
/* The test on the runs' whole totals (absolute counts, not shares). */
const struct stats_counts *runs_whole(const struct runs *r);

#endif
