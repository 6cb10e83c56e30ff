/*
 * metrics/uncertainty.h: error bars on tree values.
 *
 * perf stat -r N prints the relative standard error of each count; this
 * module propagates those spreads through a table's formulas to first
 * order, with the partial derivatives taken numerically on the formulas
 * as the table writes them (metrics/uncertainty.c says how), so the
 * evaluator stays the only code that knows what a formula means.
 *
 * Ownership: the caller owns the output arrays (sized by the tree result
 * it passes); nothing is allocated for it.
 *
 * Errors: none.  A node whose value is NAN gets a NAN uncertainty, and a
 * node none of whose inputs has a spread gets 0.
 */
#ifndef TD_METRICS_UNCERTAINTY_H
#define TD_METRICS_UNCERTAINTY_H

#include "metrics/expr.h"
#include "metrics/table.h"
#include "metrics/tree.h"

/*
 * The spread of an input name: its relative standard error (0.0012 for
 * perf's "+- 0.12 %") into *rel and what identifies the count behind the
 * name into *id (two spellings of one count give the same id).  Returns
 * -1 when the name has no count.
 */
typedef int (*td_spread_fn)(void *ctx, const char *name, double *rel, const void **id);

/*
 * First-order error propagation over independent counts: for each tree
 * node and info metric of r (the result of td_tree_eval on the same t,
 * env and opts), u = sqrt(sum_i (x_i df/dx_i * rel_i)^2), the partials
 * taken on the formulas themselves.  Writes r->nr_nodes values to u_nodes
 * and r->nr_info to u_info (same unit as the value, NAN where the value
 * is).  Returns the number of inputs with a spread.
 */
int td_tree_uncertainty(const struct td_table *t, const struct td_env *env,
			const struct td_tree_opts *opts, td_spread_fn spread, void *sctx,
			const struct td_tree_result *r, double *u_nodes, double *u_info);

#endif /* TD_METRICS_UNCERTAINTY_H */
