/*
 * Tree evaluation: every metric of a table on one set of counts.
 *
 * Metric references are resolved through a per-evaluation cache indexed
 * by metric number, so each metric is computed at most once.  A metric
 * with alternative formulas uses the first one whose names can all be
 * looked up.  Then come the thresholds with hierarchical gating, the
 * bottleneck path and the sanity checks.
 */
#include "metrics/table-int.h"
#include "metrics/tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { M_TODO, M_BUSY, M_DONE };

struct mstate {
	double value;
	unsigned char state, missing, approximate;
	int formula;
	char *reason;
};

struct eval_state {
	const struct td_table *t;
	const struct td_env *user;
	struct td_env env;       /* user env plus table defaults (#slots) */
	struct mstate *ms;
	double *cache;           /* input lookups of this evaluation */
	unsigned char *cached;
	int env_overrides;       /* ad-hoc expressions: env may set metrics */
	int no_reasons;          /* values and flags only (td_tree_opts.no_reasons) */
	int value_dependent;     /* td_eval_ctx.value_dependent over every metric */
	struct strbuf causes;    /* likely causes, built on the first warning */
	struct strbuf *why;      /* ad-hoc expressions: reasons of the metrics used */
};

/* The user's lookup, with #slots defaulting to the table's width. */
static int table_lookup(void *ctx, const char *name, double *v)
{
	struct eval_state *st = ctx;

	if (st->user && st->user->lookup && st->user->lookup(st->user->ctx, name, v) == 0)
		return 0;
	if (name[0] == '#' && !strcmp(name, "#slots") && st->t->info.slots_per_cycle > 0) {
		*v = st->t->info.slots_per_cycle;
		return 0;
	}
	return -1;
}

static double resolve_metric(struct td_eval_ctx *cx, int index);

static void compute_metric(struct eval_state *st, int index)
{
	const struct td_metric *m = &st->t->metrics[index];
	struct mstate *s = &st->ms[index];
	struct strbuf first_why = STRBUF_INIT;
	double first_value = NAN;
	size_t i;

	s->state = M_BUSY;
	if (st->env_overrides && st->user && st->user->lookup &&
	    st->user->lookup(st->user->ctx, m->id, &s->value) == 0) {
		s->state = M_DONE;
		return;
	}
	for (i = 0; i < m->nr_formulas; i++) {
		struct strbuf why = STRBUF_INIT;
		struct td_eval_ctx cx = { 0 };
		double v;

		cx.env = &st->env;
		cx.metric = resolve_metric;
		cx.owner = st;
		cx.why = st->no_reasons ? NULL : &why;
		cx.cache = st->cache;
		cx.cached = st->cached;
		v = td_expr_eval_cx(m->formulas[i].expr, &cx);
		st->value_dependent += cx.value_dependent;
		if (!cx.missing) {
			s->value = v;
			s->formula = (int)i;
			s->approximate = cx.approximate || m->formulas[i].approximate;
			if (s->approximate && m->formulas[i].approximate && !why.len)
				strbuf_addf(&why, "approximate formula: %s",
					    m->formulas[i].note ? m->formulas[i].note : m->formulas[i].text);
			s->reason = why.len ? strbuf_detach(&why, NULL) : NULL;
			strbuf_release(&why);
			strbuf_release(&first_why);
			s->state = M_DONE;
			return;
		}
		if (i == 0) {
			first_value = v;
			strbuf_addstr(&first_why, why.buf);
		}
		strbuf_release(&why);
	}
	s->value = first_value;
	s->missing = 1;
	s->formula = 0;
	s->reason = first_why.len ? strbuf_detach(&first_why, NULL) : NULL;
	strbuf_release(&first_why);
	s->state = M_DONE;
}

static double resolve_metric(struct td_eval_ctx *cx, int index)
{
	struct eval_state *st = cx->owner;
	struct mstate *s = &st->ms[index];

	if (s->state == M_TODO)
		compute_metric(st, index);
	if (s->state == M_BUSY) {
		/* the loader rejects cycles; an override env cannot create one */
		cx->missing = 1;
		return NAN;
	}
	if (s->missing)
		cx->missing = 1;
	if (s->approximate)
		cx->approximate = 1;
	if ((s->missing || s->approximate) && s->reason)
		td_reason_merge(cx->why, s->reason);
	return s->value;
}

static void state_init(struct eval_state *st, const struct td_table *t, const struct td_env *env)
{
	memset(st, 0, sizeof(*st));
	st->t = t;
	st->user = env;
	st->env.lookup = table_lookup;
	st->env.ctx = st;
	st->ms = xcalloc(t->nr_metrics + 1, sizeof(*st->ms));
	st->cache = xmalloc((t->nr_slots + 1) * sizeof(*st->cache));
	st->cached = xcalloc(t->nr_slots + 1, 1);
	strbuf_init(&st->causes, 0);
}

static void state_release(struct eval_state *st)
{
	size_t i;

	for (i = 0; i < st->t->nr_metrics; i++)
		free(st->ms[i].reason);
	free(st->ms);
	free(st->cache);
	free(st->cached);
	strbuf_release(&st->causes);
}

/* Ad-hoc names that are metric ids but unbound in e: look them up by id. */
struct adhoc {
	struct eval_state *st;
};

static int adhoc_lookup(void *ctx, const char *name, double *v)
{
	struct eval_state *st = ctx;
	int idx;

	if (table_lookup(st, name, v) == 0)
		return 0;
	idx = td_table_metric_index(st->t, name);
	if (idx < 0)
		return -1;
	if (st->ms[idx].state == M_TODO)
		compute_metric(st, idx);
	if (st->ms[idx].state != M_DONE || st->ms[idx].missing)
		return -1;
	if (st->ms[idx].approximate && st->ms[idx].reason)
		td_reason_merge(st->why, st->ms[idx].reason);
	*v = st->ms[idx].value;
	return 0;
}

double td_table_eval_expr(const struct td_table *t, const struct td_expr *e,
			  const struct td_env *env, struct strbuf *why, int *approximate)
{
	struct eval_state st;
	struct td_env adhoc_env;
	struct td_eval_ctx cx = { 0 };
	double v;
	size_t i;

	state_init(&st, t, env);
	st.env_overrides = 1;
	st.why = why;
	adhoc_env.lookup = adhoc_lookup;
	adhoc_env.ctx = &st;
	cx.env = &adhoc_env;
	cx.why = why;
	v = td_expr_eval_cx(e, &cx);
	/* a missing metric: say why it is missing */
	if (cx.missing && why) {
		for (i = 0; i < t->nr_metrics; i++)
			if (st.ms[i].state == M_DONE && st.ms[i].missing && st.ms[i].reason &&
			    !strstr(why->buf, st.ms[i].reason))
				strbuf_addf(why, "%s%s: %s", why->len ? "; " : "",
					    t->metrics[i].id, st.ms[i].reason);
	}
	for (i = 0; i < t->nr_metrics; i++)
		if (st.ms[i].state == M_DONE && st.ms[i].approximate)
			cx.approximate = 1;
	if (approximate)
		*approximate = cx.approximate;
	state_release(&st);
	return v;
}

/* ---- thresholds, gating, path, sanity ---- */

static int threshold_true(struct eval_state *st, const struct td_metric *m)
{
	struct td_eval_ctx cx = { 0 };
	double v;

	if (!m->threshold_expr)
		return 0;
	cx.env = &st->env;
	cx.metric = resolve_metric;
	cx.owner = st;
	cx.cache = st->cache;
	cx.cached = st->cached;
	v = td_expr_eval_cx(m->threshold_expr, &cx);
	return !isnan(v) && v != 0;
}

static void fill_value(struct eval_state *st, int index, struct td_node_value *nv)
{
	const struct td_metric *m = &st->t->metrics[index];
	struct mstate *s = &st->ms[index];

	if (s->state == M_TODO)
		compute_metric(st, index);
	nv->metric = m;
	nv->value = s->value;
	nv->approximate = s->approximate;
	nv->formula_index = s->formula;
	nv->formula_used = m->formulas[s->formula].text;
	if (s->reason)
		nv->reason = xstrdup(s->reason);
	else if (isnan(s->value) && !st->no_reasons)
		nv->reason = xstrdup("not computable");
}

static void add_warning(struct td_tree_result *r, size_t *alloc, struct strbuf *sb)
{
	TD_GROW(r->warnings, *alloc, r->nr_warnings + 1);
	r->warnings[r->nr_warnings++] = strbuf_detach(sb, NULL);
}

/*
 * Name the likely causes of an inconsistent tree from what the env knows
 * (built once per evaluation, on the first warning).
 */
static void likely_causes(struct eval_state *st, struct strbuf *sb)
{
	double v;
	int named = 0;

	if (!st->causes.len) {
		struct strbuf *c = &st->causes;

		strbuf_addstr(c, "; likely cause: ");
		if (table_lookup(st, "#multiplexed", &v) == 0 && v != 0) {
			strbuf_addstr(c, "multiplexing (the formula's events were counted in different time windows)");
			named++;
		}
		if (table_lookup(st, "#smt_on", &v) == 0 && v != 0)
			strbuf_addf(c, "%sa busy SMT sibling (per-thread counts of core-wide events)", named++ ? ", " : "");
		if (table_lookup(st, "#nmi_watchdog", &v) == 0 && v != 0)
			strbuf_addf(c, "%sthe NMI watchdog holding a counter", named++ ? ", " : "");
		if (table_lookup(st, "#virtualized", &v) == 0 && v != 0)
			strbuf_addf(c, "%sa virtualized PMU", named++ ? ", " : "");
		if (!named)
			strbuf_addstr(c, "multiplexing, a busy SMT sibling, the NMI watchdog holding a counter, "
				      "or a virtualized PMU");
	}
	strbuf_addstr(sb, st->causes.buf);
}

static void sanity_checks(struct eval_state *st, struct td_tree_result *r)
{
	const struct td_table *t = st->t;
	size_t alloc = 0, i;
	double sum = 0;
	int nr_l1 = 0, l1_nan = 0;

	for (i = 0; i < t->nr_nodes; i++) {
		int idx = t->order[i];
		const struct td_metric *m = &t->metrics[idx];
		double v = st->ms[idx].value;

		if (st->ms[idx].state != M_DONE)
			continue;
		if (m->level == 1) {
			nr_l1++;
			if (isnan(v))
				l1_nan = 1;
			else
				sum += v;
		}
		if (!isnan(v) && (v < -0.05 || v > 1.05)) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addf(&sb, "%s = %.1f %% is outside [-5 %%, 105 %%] of its domain",
				    m->id, v * 100);
			likely_causes(st, &sb);
			add_warning(r, &alloc, &sb);
		}
		if (t->parent[idx] >= 0 && !isnan(v)) {
			int p = t->parent[idx];
			const struct td_metric *pm = &t->metrics[p];
			double pv = st->ms[p].value;

			if (!isnan(pv) && m->domain && pm->domain && !strcmp(m->domain, "slots") &&
			    !strcmp(pm->domain, "slots") && v > pv + 0.01) {
				struct strbuf sb = STRBUF_INIT;

				strbuf_addf(&sb, "%s = %.1f %% is above its parent %s = %.1f %%",
					    m->id, v * 100, pm->id, pv * 100);
				likely_causes(st, &sb);
				add_warning(r, &alloc, &sb);
			}
		}
	}
	if (nr_l1 > 1 && !l1_nan && fabs(sum - 1) > 0.01) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "Level 1 sums to %.1f %% instead of 100 %% (tolerance 1 point)", sum * 100);
		likely_causes(st, &sb);
		add_warning(r, &alloc, &sb);
	}
}

/* Descend from the roots into the highest flagged sibling. */
static void bottleneck_path(struct eval_state *st, struct td_tree_result *r,
			    struct td_node_value *by_index[])
{
	const struct td_table *t = st->t;
	const char *parent = NULL;
	size_t alloc = 0;

	for (;;) {
		int best = -1, second = -1;
		size_t i;

		for (i = 0; i < t->nr_nodes; i++) {
			int idx = t->order[i];
			const struct td_metric *m = &t->metrics[idx];
			double v;

			if (!by_index[idx] || !by_index[idx]->flagged)
				continue;
			if (parent ? !m->parent || strcmp(m->parent, parent) : m->parent != NULL)
				continue;
			v = st->ms[idx].value;
			if (best < 0 || v > st->ms[best].value) {
				second = best;
				best = idx;
			} else if (second < 0 || v > st->ms[second].value) {
				second = idx;
			}
		}
		if (best < 0)
			return;
		if (second >= 0 && st->ms[best].value - st->ms[second].value < 0.05) {
			r->ambiguous = 1;
			return;
		}
		by_index[best]->bottleneck = 1;
		TD_GROW(r->path, alloc, r->nr_path + 1);
		r->path[r->nr_path++] = t->metrics[best].id;
		parent = t->metrics[best].id;
	}
}

int td_tree_eval(const struct td_table *t, const struct td_env *env,
		 const struct td_tree_opts *opts, struct td_tree_result *out)
{
	struct eval_state st;
	struct td_node_value **by_index;
	int max_level = opts ? opts->max_level : 0;
	size_t i, n = 0;

	memset(out, 0, sizeof(*out));
	state_init(&st, t, env);
	st.no_reasons = opts && opts->no_reasons;
	st.env_overrides = opts && opts->env_sets_metrics;
	by_index = xcalloc(t->nr_metrics + 1, sizeof(*by_index));
	out->nodes = xcalloc(t->nr_nodes + 1, sizeof(*out->nodes));
	for (i = 0; i < t->nr_nodes; i++) {
		int idx = t->order[i];
		const struct td_metric *m = &t->metrics[idx];
		struct td_node_value *nv;
		int parent_flagged = 1;

		if (max_level && m->level > max_level)
			continue;
		nv = &out->nodes[n++];
		fill_value(&st, idx, nv);
		by_index[idx] = nv;
		nv->threshold_met = !isnan(nv->value) && threshold_true(&st, m);
		if (t->parent[idx] >= 0) {
			int p = t->parent[idx];

			parent_flagged = by_index[p] && by_index[p]->flagged;
		}
		nv->flagged = nv->threshold_met && parent_flagged;
	}
	out->nr_nodes = n;
	if (!(opts && opts->no_info)) {
		out->info = xcalloc(t->nr_metrics + 1, sizeof(*out->info));
		for (i = 0; i < t->nr_metrics; i++) {
			struct td_node_value *nv;

			if (t->metrics[i].level != 0)
				continue;
			nv = &out->info[out->nr_info++];
			fill_value(&st, (int)i, nv);
			nv->threshold_met = !isnan(nv->value) && threshold_true(&st, &t->metrics[i]);
			nv->flagged = nv->threshold_met;
		}
	}
	bottleneck_path(&st, out, by_index);
	sanity_checks(&st, out);
	free(by_index);
	out->value_dependent = st.value_dependent;
	state_release(&st);
	return 0;
}

void td_tree_result_release(struct td_tree_result *r)
{
	size_t i;

	for (i = 0; i < r->nr_nodes; i++)
		free(r->nodes[i].reason);
	for (i = 0; i < r->nr_info; i++)
		free(r->info[i].reason);
	for (i = 0; i < r->nr_warnings; i++)
		free(r->warnings[i]);
	free(r->nodes);
	free(r->info);
	free((void *)r->path);
	free(r->warnings);
	memset(r, 0, sizeof(*r));
}
