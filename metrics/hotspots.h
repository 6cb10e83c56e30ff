/*
 * metrics/hotspots.h: where the samples of a recording fall, per function
 * and per call path, and Top-Down per function.
 *
 * A call-path tree is fed one sample at a time: its frame ids (leaf first,
 * from parse/'s td_sym_resolve), its weight (the sample period, as perf
 * report weighs) and, for leader-sampled groups, what the group's counters
 * advanced since the previous sample of the same stream.  Memory grows
 * with the number of distinct call paths, never with the number of
 * samples.  Per-function self and inclusive sums come from the tree once
 * td_hot_finish() has run; inclusive sums count a recursive function's
 * sample once, as perf does.
 *
 * Top-Down per function (metrics/hotspots-topdown.c) evaluates a table's
 * tree on one function's summed group counts, with a 95 % confidence
 * interval from the spread over interleaved batches of its samples (the
 * batch-means method, Student's t).
 *
 * Ownership: the accumulator (td_hot_new/td_hot_free) owns everything its
 * accessors return; those pointers stay valid until it is freed.  A
 * struct td_hot_topdown owns its arrays (td_hot_topdown_release()); its
 * nodes point at the table's metrics.
 *
 * Errors: none.  A counter that went backwards gives a sample no deltas;
 * a function with too few samples gets no values, only 'why'.
 *
 * Name prefix: td_hot_, TD_HOT_.
 */
#ifndef TD_METRICS_HOTSPOTS_H
#define TD_METRICS_HOTSPOTS_H

#include <stddef.h>
#include <stdint.h>

#include "metrics/table.h"

struct td_hot;
struct td_hot_node {
	int frame, parent;      /* parent node index; the root is node 0, frame -1 */
	uint64_t self_period, self_samples;
	uint64_t total_period, total_samples; /* subtree, after td_hot_finish */
};
struct td_hot_func {
	int frame, index;
	uint64_t self_period, self_samples;
	uint64_t total_period, total_samples; /* each sample once (recursion) */
};
struct td_hot *td_hot_new(size_t nr_counts);
void td_hot_free(struct td_hot *h);
void td_hot_add(struct td_hot *h, const int *frames, size_t n, uint64_t period, const double *counts);
/* The same in two steps, for callers that cache a call path's node:
 * the node of a path (created when new), then a sample on it. */
uint32_t td_hot_path(struct td_hot *h, const int *frames, size_t n);
void td_hot_add_at(struct td_hot *h, uint32_t node, uint64_t period, const double *counts);
/* Deltas of a counter stream's group values (stream: the leader's sample
 * id, per thread or per CPU) since its previous sample, or since the
 * counters started for its first: 1 with deltas set, 0 when a value went
 * backwards (no interval can be attributed). */
int td_hot_deltas(struct td_hot *h, uint64_t stream, const uint64_t *values, double *deltas);
void td_hot_finish(struct td_hot *h);
uint64_t td_hot_total_period(const struct td_hot *h);
uint64_t td_hot_total_samples(const struct td_hot *h);
const double *td_hot_total_counts(const struct td_hot *h); /* NULL without a group */
/* Functions sorted by self period, largest first. */
size_t td_hot_nr_funcs(const struct td_hot *h);
const struct td_hot_func *td_hot_func(const struct td_hot *h, size_t i);
const double *td_hot_func_counts(const struct td_hot *h, size_t i);
/* The self counts of function i split into TD_HOT_BATCHES interleaved
 * batches of its samples (TD_HOT_BATCHES x nr_counts), or NULL. */
#define TD_HOT_BATCHES 8
const double *td_hot_func_batches(const struct td_hot *h, size_t i);
size_t td_hot_nr_nodes(const struct td_hot *h);
const struct td_hot_node *td_hot_node(const struct td_hot *h, size_t i);
const double *td_hot_node_counts(const struct td_hot *h, size_t i);

/*
 * Top-Down of one function (metrics/hotspots-topdown.c): the table's tree
 * (down to max_level) evaluated on the function's summed group counts,
 * named as the group members are; each node with a 95 % confidence
 * interval from the spread of the TD_HOT_BATCHES batch values (Student's
 * t; none when batches is NULL).  Fewer than TD_HOT_MIN_SAMPLES samples
 * give no values, only 'why'.
 */
#define TD_HOT_MIN_SAMPLES 40
struct td_hot_td_node {
	const struct td_metric *metric;
	double value, low, high;        /* NAN when not computable */
	int bottleneck;
};
struct td_hot_topdown {
	struct td_hot_td_node *nodes;
	size_t nr_nodes;
	char *why;                      /* set when there are no values */
};
void td_hot_topdown(const struct td_table *t, const char *const *names, size_t nr_names,
		    const double *counts, const double *batches, uint64_t samples, int max_level,
		    int smt_on, struct td_hot_topdown *out);
void td_hot_topdown_release(struct td_hot_topdown *td);
/* The slots the counts cover (the table's info_thread_slots), or NAN. */
double td_hot_slots(const struct td_table *t, const char *const *names, size_t nr_names,
		    const double *counts, int smt_on);

#endif /* TD_METRICS_HOTSPOTS_H */
