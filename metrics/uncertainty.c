/*
 * Error bars: first-order propagation of the counts' spreads through a
 * table's formulas.
 *
 * perf stat -r N prints beside each count the relative standard error of
 * its mean over the N runs ("+- 0.12 %").  For a metric f(x_1 .. x_n) of
 * independent counts, first order gives
 *
 *	u(f)^2 = sum_i (df/dx_i * x_i * rel_i)^2
 *
 * The partial derivatives are those of the formula as the table writes it
 * (with its referenced metrics, conditions, min/max, alternative
 * formulas): each input is scaled by 1 +- h and the whole tree evaluated
 * again, so x_i df/dx_i = (f(x_i (1+h)) - f(x_i (1-h))) / 2h.  This keeps
 * the evaluator the only place that knows what a formula means; a
 * symmetric difference is exact for the sums, products and ratios these
 * formulas are made of up to O(h^2).
 *
 * An input is identified by what the caller's spread function returns for
 * it (a count), not by its spelling: "TOPDOWN.SLOTS" and
 * "cpu_core@TOPDOWN.SLOTS@" in two formulas are one count, moved together.
 */
#include "metrics/expr.h"
#include "metrics/table.h"
#include "metrics/tree.h"
#include "metrics/uncertainty.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Relative step: small against any spread perf prints, far above rounding. */
#define STEP 1e-4

struct input {
	const void *id;
	double rel;
};

struct probe {
	const struct td_env *base;
	td_spread_fn spread;
	void *sctx;
	struct input *inputs;    /* recording: every input with a spread */
	size_t nr, alloc;
	const void *target;      /* perturbing: the input to scale, or NULL */
	double factor;
};

/* Remember an input with a spread once, keyed by its identity. */
static void record_input(struct probe *p, const void *id, double rel)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		if (p->inputs[i].id == id)
			return;
	TD_GROW(p->inputs, p->alloc, p->nr + 1);
	p->inputs[p->nr].id = id;
	p->inputs[p->nr].rel = rel;
	p->nr++;
}

/*
 * The base lookup, recording inputs with a spread (first pass) or scaling
 * the target input (perturbed passes).
 */
static int probe_lookup(void *ctx, const char *name, double *v)
{
	struct probe *p = ctx;
	const void *id = NULL;
	double rel;

	if (p->base->lookup(p->base->ctx, name, v) < 0)
		return -1;
	if (name[0] == '#' || p->spread(p->sctx, name, &rel, &id) < 0 || !id)
		return 0;
	if (!p->target) {
		if (rel > 0 && isfinite(rel))
			record_input(p, id, rel);
	} else if (id == p->target) {
		*v *= p->factor;
	}
	return 0;
}

/* Evaluate the tree with p's lookup (recording or perturbing). */
static void eval_with(const struct td_table *t, struct probe *p, const struct td_tree_opts *opts,
		      struct td_tree_result *r)
{
	struct td_env env = { probe_lookup, p };

	td_tree_eval(t, &env, opts, r);
}

/* Add input i's contribution (x df/dx * rel)^2 to each value's sum. */
static void add_terms(const struct td_node_value *plus, const struct td_node_value *minus,
		      size_t n, double rel, double *sum)
{
	size_t k;

	for (k = 0; k < n; k++) {
		double d = (plus[k].value - minus[k].value) / (2 * STEP);

		if (isfinite(d))
			sum[k] += d * rel * d * rel;
	}
}

int td_tree_uncertainty(const struct td_table *t, const struct td_env *env,
			const struct td_tree_opts *opts, td_spread_fn spread, void *sctx,
			const struct td_tree_result *r, double *u_nodes, double *u_info)
{
	struct probe p = { 0 };
	struct td_tree_result rec;
	size_t i;

	p.base = env;
	p.spread = spread;
	p.sctx = sctx;
	for (i = 0; i < r->nr_nodes; i++)
		u_nodes[i] = 0;
	for (i = 0; i < r->nr_info; i++)
		u_info[i] = 0;
	eval_with(t, &p, opts, &rec);
	td_tree_result_release(&rec);
	for (i = 0; i < p.nr; i++) {
		struct td_tree_result plus, minus;

		p.target = p.inputs[i].id;
		p.factor = 1 + STEP;
		eval_with(t, &p, opts, &plus);
		p.factor = 1 - STEP;
		eval_with(t, &p, opts, &minus);
		if (plus.nr_nodes == r->nr_nodes && minus.nr_nodes == r->nr_nodes)
			add_terms(plus.nodes, minus.nodes, r->nr_nodes, p.inputs[i].rel, u_nodes);
		if (plus.nr_info == r->nr_info && minus.nr_info == r->nr_info)
			add_terms(plus.info, minus.info, r->nr_info, p.inputs[i].rel, u_info);
		td_tree_result_release(&plus);
		td_tree_result_release(&minus);
	}
	for (i = 0; i < r->nr_nodes; i++)
		u_nodes[i] = isnan(r->nodes[i].value) ? NAN : sqrt(u_nodes[i]);
	for (i = 0; i < r->nr_info; i++)
		u_info[i] = isnan(r->info[i].value) ? NAN : sqrt(u_info[i]);
	free(p.inputs);
	return (int)p.nr;
}
