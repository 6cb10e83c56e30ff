/*
 * Top-Down per function: the table's tree evaluated on the group counts
 * that the samples of one function accumulated (each sample carries what
 * the group's counters advanced since the previous sample of its thread,
 * metrics/hotspots.c).  The sum over a function's samples is a sample of
 * its execution, so the value comes with a confidence interval: the
 * samples are split into interleaved batches, the tree is evaluated on
 * each batch, and the spread of the batch values gives a 95 % interval
 * by Student's t (the batch-means method).
 */
#include "metrics/expr.h"
#include "metrics/hotspots.h"
#include "metrics/table.h"
#include "metrics/tree.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Student's t, two-sided 95 %, for TD_HOT_BATCHES - 1 = 7 degrees of freedom. */
#define T95_7 2.365

struct group_env {
	const struct td_table *t;
	const char *const *names;
	size_t nr;
	const double *counts;
	int smt_on;                  /* #smt_on: the formulas' events differ with SMT */
};

/* An event of the formulas is a group member when both name the same table event. */
static int group_lookup(void *ctx, const char *name, double *value)
{
	const struct group_env *g = ctx;
	const struct td_event *want;
	size_t i;

	if (name[0] == '#')
		return !strcmp(name, "#smt_on") ? (*value = g->smt_on, 0) : -1;
	want = td_table_find_event(g->t, name);
	for (i = 0; i < g->nr; i++) {
		if (!strcasecmp(g->names[i], name) || (want && td_table_find_event(g->t, g->names[i]) == want)) {
			*value = g->counts[i];
			return 0;
		}
	}
	return -1;
}

static int eval_tree(const struct td_table *t, const char *const *names, size_t nr, const double *counts,
		     int max_level, int smt_on, struct td_tree_result *res)
{
	struct group_env g = { t, names, nr, counts, smt_on };
	struct td_env env = { group_lookup, &g };
	struct td_tree_opts o = { .max_level = max_level, .no_info = 1 };

	return td_tree_eval(t, &env, &o, res);
}

void td_hot_topdown(const struct td_table *t, const char *const *names, size_t nr_names,
		    const double *counts, const double *batches, uint64_t samples, int max_level,
		    int smt_on, struct td_hot_topdown *out)
{
	struct td_tree_result all, part[TD_HOT_BATCHES];
	struct strbuf why = STRBUF_INIT;
	size_t i, b, any = 0;

	memset(out, 0, sizeof(*out));
	if (samples < TD_HOT_MIN_SAMPLES) {
		strbuf_addf(&why, "too few samples (%llu < %d) for a Top-Down estimate",
			    (unsigned long long)samples, TD_HOT_MIN_SAMPLES);
		out->why = strbuf_detach(&why, NULL);
		return;
	}
	memset(&all, 0, sizeof(all));
	if (eval_tree(t, names, nr_names, counts, max_level, smt_on, &all) < 0) {
		out->why = xstrdup("the table's tree cannot be evaluated");
		return;
	}
	for (b = 0; b < TD_HOT_BATCHES; b++) {
		memset(&part[b], 0, sizeof(part[b]));
		if (batches)
			eval_tree(t, names, nr_names, batches + b * nr_names, max_level, smt_on, &part[b]);
	}
	out->nodes = xcalloc(all.nr_nodes + 1, sizeof(*out->nodes));
	for (i = 0; i < all.nr_nodes; i++) {
		struct td_hot_td_node *n = &out->nodes[out->nr_nodes++];
		double vals[TD_HOT_BATCHES], mean = 0, var = 0, half;
		size_t k = 0, j;

		n->metric = all.nodes[i].metric;
		n->value = all.nodes[i].value;
		n->bottleneck = all.nodes[i].bottleneck;
		n->low = n->high = NAN;
		if (!isfinite(n->value))
			continue;
		any++;
		for (b = 0; b < TD_HOT_BATCHES; b++)
			if (i < part[b].nr_nodes && isfinite(part[b].nodes[i].value))
				vals[k++] = part[b].nodes[i].value;
		if (k < TD_HOT_BATCHES)
			continue; /* a batch without a value: no interval claimed */
		for (j = 0; j < k; j++)
			mean += vals[j] / k;
		for (j = 0; j < k; j++)
			var += (vals[j] - mean) * (vals[j] - mean) / (k - 1);
		half = T95_7 * sqrt(var) / sqrt((double)k);
		n->low = n->value - half;
		n->high = n->value + half;
	}
	if (!any) {
		free(out->nodes);
		out->nodes = NULL;
		out->nr_nodes = 0;
		out->why = xstrdup("the recorded group holds none of the events the table's Top-Down formulas need");
	}
	td_tree_result_release(&all);
	for (b = 0; b < TD_HOT_BATCHES; b++)
		td_tree_result_release(&part[b]);
}

void td_hot_topdown_release(struct td_hot_topdown *td)
{
	free(td->nodes);
	free(td->why);
	memset(td, 0, sizeof(*td));
}

/*
 * The pipeline slots the counts cover: the table's info_thread_slots
 * (Intel's "SLOTS", the denominator of the slots-domain nodes; perfmon's
 * TMA metrics), NAN when the table has none (AMD, Arm) or it cannot be
 * evaluated on the group.
 */
double td_hot_slots(const struct td_table *t, const char *const *names, size_t nr_names,
		    const double *counts, int smt_on)
{
	struct group_env g = { t, names, nr_names, counts, smt_on };
	struct td_env env = { group_lookup, &g };
	struct td_expr *e = td_expr_parse("info_thread_slots", NULL);
	double v = e ? td_table_eval_expr(t, e, &env, NULL, NULL) : NAN;

	td_expr_free(e);
	return v > 0 ? v : NAN;
}
