/*
 * metrics/tree.h: evaluating a table's Top-Down tree on one set of counts.
 *
 * Every node and info metric of a table is computed (each at most once,
 * with the first alternative formula whose names can all be looked up),
 * then its threshold is tested with hierarchical gating: a node is
 * flagged only when every node on its path from the root is (Yasin 2014).
 * From the flagged nodes comes the bottleneck path: from Level 1 down,
 * into the highest flagged sibling, stopping where no child is flagged or
 * where the top two are too close to call.  Sanity checks (Level 1 not
 * summing to 1, a child above its parent, ...) become warnings that name
 * the likely cause.
 *
 * Ownership: the result owns its arrays and strings (release them with
 * td_tree_result_release()); node values point at the table's metrics,
 * so the table must outlive the result.
 *
 * Errors: none for the caller to handle.  A node that cannot be computed
 * is NAN with its reason; the whole evaluation always completes.
 *
 * Name prefix: td_tree_.
 */
#ifndef TD_METRICS_TREE_H
#define TD_METRICS_TREE_H

#include <stddef.h>

#include "metrics/expr.h"
#include "metrics/table.h"

struct td_node_value {
	const struct td_metric *metric;
	double value;            /* NAN when not computable */
	char *reason;            /* why NAN (or why approximate), else NULL */
	int flagged;             /* above threshold with its whole path flagged */
	int bottleneck;          /* on the bottleneck path */
	int approximate;         /* computed without a correction term, etc. */
	const char *formula_used; /* text of the formula that produced value */
	int formula_index;       /* index into metric->formulas */
	int threshold_met;       /* own threshold true (before gating) */
};

struct td_tree_result {
	struct td_node_value *nodes; /* tree nodes in table (pre-)order */
	size_t nr_nodes;
	struct td_node_value *info;  /* info metrics */
	size_t nr_info;
	const char **path;           /* bottleneck path, ids from level 1 down */
	size_t nr_path;
	int ambiguous;               /* path stopped at two siblings within 5 points */
	/*
	 * Divisions by zero and count-dependent 'if' conditions met: while 0,
	 * every reason follows from which names the env could look up alone
	 * (another count set with the same names gets the same reasons).
	 */
	int value_dependent;
	char **warnings;             /* sanity-check failures with likely causes */
	size_t nr_warnings;
};

struct td_tree_opts {
	int max_level;           /* 0 = all levels */
	int no_info;             /* skip info metrics */
	int no_reasons;          /* leave every reason NULL: values, flags and path only */
	/*
	 * The env may give any metric's value by its id (a node perf printed
	 * where the counts do not give it): it is taken as it is, and the
	 * metrics built on it are computed from it.
	 */
	int env_sets_metrics;
};

/*
 * Optional literals the env may know, used by the sanity checks to name
 * the likely cause: "#multiplexed" (1 when counters were time-shared),
 * "#nmi_watchdog", "#virtualized", "#smt_on".  "#slots" falls back to the
 * table's slots_per_cycle.
 */

/*
 * Evaluate a table's tree and info metrics.  env resolves events and
 * literals; metric references are resolved by the evaluator itself.
 */
int td_tree_eval(const struct td_table *t, const struct td_env *env,
		 const struct td_tree_opts *opts, struct td_tree_result *out);
void td_tree_result_release(struct td_tree_result *r);

#endif /* TD_METRICS_TREE_H */
