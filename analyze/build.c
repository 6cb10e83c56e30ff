/*
 * Building the report document (docs/report-schema.md) from a run or an
 * imported file: every scope of every session is evaluated with the
 * formula table of its PMU, and perf's own printed values are put next to
 * ours so that any difference shows.
 *
 * Event groups.  perf prints a group's events together and schedules each
 * group on its own, so counts of different groups come from different
 * time slices when counters are multiplexed.  perf evaluates a metric on
 * the counts of its own group, the one it prints the value in; so do we:
 * the tree is evaluated on each group's counts, and each node takes its
 * value from its metric's group (node_group).  When one group has
 * everything (the usual case) this is just one evaluation.
 *
 * Legacy topdown.  perf <= 6.2 printed "--topdown" style L1 values as
 * each topdown event over the sum of the four, without the correction
 * terms newer formulas add (INT_MISC.UOP_DROPPING, INT_MISC.CLEARS_COUNT),
 * which it did not measure.  In such sessions those two events, when the
 * scope has no count of them, read as 0 and the nodes using them are
 * marked approximate, naming them.
 */
#include "analyze/analyze-int.h"
#include "metrics/tree.h"
#include "metrics/uncertainty.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------- evaluation environment ---------------- */

struct evalctx {
	const struct td_stat *st;
	const struct td_scope *s;
	const char *pmu;              /* "cpu_core"/"cpu_atom" on hybrid, else NULL */
	int group;                    /* -1: any group (first occurrence) */
	int smt, core_wide;
	int slots;                    /* #slots from the run's PMU caps/slots (Arm), 0 unknown */
	const struct td_table *events_table; /* for raw spellings of table events (r11) */
	int legacy_zero;              /* legacy session: missing correction terms read 0 */
	/* multi-group recomputation: metric values by id */
	const struct td_table *table;
	const double *node_values;    /* indexed like td_table_metric, or NULL */
	int multiplexed;              /* some count of the scope ran less than all the time */
	int has_running_pct;          /* perf said how long the counts ran */
};

static int is_legacy_correction(const char *name)
{
	struct strbuf pmu = STRBUF_INIT, key = STRBUF_INIT;
	int r;

	td_event_key(name, &pmu, &key);
	r = !strcmp(key.buf, "int_misc.uop_dropping") || !strcmp(key.buf, "int_misc.clears_count");
	strbuf_release(&pmu);
	strbuf_release(&key);
	return r;
}

/* Is name the slots count ("slots", "TOPDOWN.SLOTS", "cpu_core/slots/")? */
static int is_slots(const char *name)
{
	struct strbuf pmu = STRBUF_INIT, key = STRBUF_INIT;
	int r;

	td_event_key(name, &pmu, &key);
	r = !strcmp(key.buf, "slots");
	strbuf_release(&pmu);
	strbuf_release(&key);
	return r;
}

/*
 * perf <= 6.2 --topdown without a slots count (Ice Lake era perf, interval
 * mode): perf divided each topdown event by the sum of the four, so that
 * sum stands for the slots.  NAN when one of the four is missing.
 */
static double legacy_slots_sum(const struct td_scope *s, const char *pmu, int group)
{
	static const char *const four[] = {
		"topdown-retiring", "topdown-bad-spec", "topdown-fe-bound", "topdown-be-bound"
	};
	double sum = 0;
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(four); i++) {
		const struct td_count *c = td_scope_find_group(s, pmu, four[i], group);

		if (!c || c->status != TD_COUNT_OK || isnan(c->value))
			return NAN;
		sum += c->value;
	}
	return sum;
}

static int scope_multiplexed(const struct td_scope *s)
{
	size_t i;

	for (i = 0; i < s->nr_counts; i++)
		if (!isnan(s->counts[i].running_pct) && s->counts[i].running_pct < 99.995)
			return 1;
	return 0;
}

static int count_in_section(const struct td_count *c, const char *pmu);

/*
 * The same for one PMU's section: on a hybrid CPU the E-core events may be
 * multiplexed while the P-core ones ran all the time (case-45), and the
 * P-core section must not say otherwise.
 */
static int section_multiplexed(const struct td_scope *s, const char *pmu)
{
	size_t i;

	for (i = 0; i < s->nr_counts; i++)
		if (count_in_section(&s->counts[i], pmu) && !isnan(s->counts[i].running_pct) &&
		    s->counts[i].running_pct < 99.995)
			return 1;
	return 0;
}

/*
 * The pipeline width the kernel reported for the run: caps/slots of a
 * core PMU in meta.json (Arm's PMMIR_EL1.SLOTS, as perf reads it for
 * #slots); 0 when the run does not say (then the table's width is used).
 */
static int meta_slots(json_t *meta, const char *section_pmu)
{
	json_t *p;
	size_t i;

	json_array_foreach(json_object_get(meta, "pmus"), i, p) {
		json_t *caps = json_object_get(p, "caps");
		const char *v = json_string_value(json_object_get(caps, "slots"));
		const char *name = json_string_value(json_object_get(p, "name"));

		/*
		 * Arm core PMUs only (armv8_pmuv3_0, armv9_...): PMMIR_EL1.SLOTS;
		 * on big.LITTLE systems the width of the section's cluster
		 */
		if (json_is_true(json_object_get(p, "core")) && name && td_arm_is_core_pmu(name) &&
		    (!section_pmu || !strcmp(name, section_pmu)) && v && strtol(v, NULL, 0) > 0)
			return (int)strtol(v, NULL, 0);
	}
	return 0;
}

/*
 * A table event counted under a raw spelling, as perf accepts it and
 * prints it back: "armv8_pmuv3_0/event=0x11/" (the table's perf_name),
 * "r11" or "r0011" (Arm's event number; x86's config event | umask << 8).
 */
static const struct td_count *find_raw_spelling(const struct evalctx *cx, const char *name)
{
	const struct td_event *e = td_table_find_event(cx->events_table, name);
	const struct td_count *c = NULL;
	unsigned long config;
	char buf[64];

	if (!e)
		return NULL;
	/* perf's spelling names the PMU: msr/tsc/ (no event code) in a hybrid cpu_core section */
	if (e->perf_name)
		c = td_scope_find_group(cx->s, cx->pmu, e->perf_name, cx->group);
	if (!e->event_code && !e->umask)
		return c;
	config = e->event_code | (unsigned long)e->umask << 8 | (unsigned long)e->edge << 18 |
		 (unsigned long)e->inv << 23 | (unsigned long)e->cmask << 24;
	if (!c && !e->msr) {
		snprintf(buf, sizeof(buf), "r%lx", config);
		c = td_scope_find_group(cx->s, cx->pmu, buf, cx->group);
	}
	if (!c && !e->msr) {
		snprintf(buf, sizeof(buf), "r%04lx", config);
		c = td_scope_find_group(cx->s, cx->pmu, buf, cx->group);
	}
	return c;
}

/*
 * The count a formula's event name stands for in the scope, or NULL:
 * perf's spelling, else a raw one; remembered while the scopes keep
 * their shape (analyze/count-memo.c).
 */
static const struct td_count *memo_find_count(const struct evalctx *cx, const char *name)
{
	const struct td_count *c;
	long idx;

	if (td_count_memo_get(cx->events_table, cx->pmu, name, cx->group, &idx))
		return idx >= 0 ? &cx->s->counts[idx] : NULL;
	c = td_scope_find_group(cx->s, cx->pmu, name, cx->group);
	if (!c && cx->events_table)
		c = find_raw_spelling(cx, name);
	c = td_scope_group_outsider(cx->s, cx->pmu, name, cx->group, c);
	td_count_memo_put(cx->events_table, cx->pmu, name, cx->group, c ? (long)(c - cx->s->counts) : -1);
	return c;
}

/* Has the scope a count of event name, in any group? */
static int measured_in_scope(const struct evalctx *cx, const char *name)
{
	struct evalctx any = *cx;
	const struct td_count *c;

	any.group = -1;
	c = memo_find_count(&any, name);
	return c && c->status == TD_COUNT_OK && !isnan(c->value);
}

static int env_lookup(void *vctx, const char *name, double *v)
{
	struct evalctx *cx = vctx;
	const struct td_count *c;

	if (name[0] == '#') {
		if (!strcasecmp(name, "#smt_on")) {
			if (cx->smt < 0)
				return -1;
			*v = cx->smt;
			return 0;
		}
		if (!strcasecmp(name, "#slots") && cx->slots > 0) {
			*v = cx->slots;
			return 0;
		}
		if (!strcasecmp(name, "#core_wide")) {
			*v = cx->core_wide;
			return 0;
		}
		if (!strcasecmp(name, "#multiplexed")) {
			*v = scope_multiplexed(cx->s);
			return 0;
		}
		return -1;
	}
	if (!strcasecmp(name, "duration_time")) {
		if (isnan(cx->st->elapsed_s))
			return -1;
		*v = cx->st->elapsed_s;
		return 0;
	}
	if (cx->node_values && cx->table) {
		size_t i, n = td_table_nr_metrics(cx->table);
		for (i = 0; i < n; i++)
			if (!strcmp(td_table_metric(cx->table, i)->id, name)) {
				if (isnan(cx->node_values[i]))
					return -1;
				*v = cx->node_values[i];
				return 0;
			}
	}
	c = memo_find_count(cx, name);
	if (c && c->status == TD_COUNT_OK && !isnan(c->value)) {
		*v = c->value;
		return 0;
	}
	/*
	 * What perf <= 6.2 did without the count, only where the scope has
	 * none: one measured in another group leaves this group's evaluation
	 * without it, so that the node takes its value from that group.
	 */
	if (cx->legacy_zero && is_slots(name) && !measured_in_scope(cx, name) &&
	    !isnan(legacy_slots_sum(cx->s, cx->pmu, cx->group))) {
		*v = legacy_slots_sum(cx->s, cx->pmu, cx->group);
		return 0;
	}
	if (cx->legacy_zero && is_legacy_correction(name) && !measured_in_scope(cx, name)) {
		*v = 0;
		return 0;
	}
	return -1;
}

/* ---------------- the events a node needs ---------------- */

struct names {
	char **v;
	size_t n, alloc;
	const struct td_table *t;
	const char **visited;
	size_t nv, av;
};

static int names_is_metric(void *ctx, const char *name)
{
	struct names *ns = ctx;
	return td_table_find_metric(ns->t, name) != NULL;
}

static void names_add_expr(struct names *ns, const struct td_expr *e);

static void names_fn(void *ctx, const char *name, enum td_name_kind kind)
{
	struct names *ns = ctx;
	size_t i;

	if (kind == TD_NAME_EVENT) {
		for (i = 0; i < ns->n; i++)
			if (!strcmp(ns->v[i], name))
				return;
		TD_GROW(ns->v, ns->alloc, ns->n + 1);
		ns->v[ns->n++] = xstrdup(name);
	} else if (kind == TD_NAME_METRIC) {
		const struct td_metric *m = td_table_find_metric(ns->t, name);
		for (i = 0; i < ns->nv; i++)
			if (!strcmp(ns->visited[i], name))
				return;
		TD_GROW(ns->visited, ns->av, ns->nv + 1);
		ns->visited[ns->nv++] = name;
		if (m && m->expr)
			names_add_expr(ns, m->expr);
	}
}

static void names_add_expr(struct names *ns, const struct td_expr *e)
{
	td_expr_names(e, NULL, names_is_metric, ns, names_fn, ns);
}

static void names_release(struct names *ns)
{
	size_t i;

	for (i = 0; i < ns->n; i++)
		free(ns->v[i]);
	free(ns->v);
	free(ns->visited);
}

/* ---------------- perf's printed names -> our node ids ---------------- */

/*
 * Did perf print m as a share of the slots (or cycles) a node can be
 * compared with: "%", Arm's "percent of slots" / "percent of cycles"
 * (perf 6.5 on), or perf 5.x's bare 0..1 ratios (a table metric whose
 * unit is its name)?  A blank one too: perf printed no number for it.
 */
static int is_fraction_metric(const struct td_perf_metric *pm)
{
	if (!pm->unit)
		return 0;
	return !strcmp(pm->unit, "%") || !strncmp(pm->unit, "percent of ", 11) ||
	       pm->blank || !isnan(td_perf_metric_share(pm, NULL));
}

/*
 * The names perf printed its metrics under in one scope, normalised and
 * with perf's aliases applied, NULL for a metric that is no fraction:
 * perf_value_for compares them with every node, so they are made once
 * per scope.  scope_json forgets them before and after each scope (a
 * freed scope's address can come back).
 */
static struct {
	const struct td_scope *s;
	char **names;
} printed;

static void printed_names_forget(void)
{
	size_t i;

	for (i = 0; printed.s && i < printed.s->nr_perf_metrics; i++)
		free(printed.names[i]);
	free(printed.names);
	printed.s = NULL;
	printed.names = NULL;
}

static const char *printed_name(const struct td_scope *s, size_t i)
{
	struct strbuf n = STRBUF_INIT;
	size_t k;

	if (printed.s != s) {
		printed_names_forget();
		printed.s = s;
		printed.names = xcalloc(s->nr_perf_metrics + 1, sizeof(char *));
		for (k = 0; k < s->nr_perf_metrics; k++) {
			const char *alias;

			if (!is_fraction_metric(&s->perf_metrics[k]))
				continue;
			strbuf_reset(&n);
			td_perf_name_normalize(s->perf_metrics[k].name, &n);
			alias = td_perf_name_alias(n.buf);
			printed.names[k] = xstrdup(alias ? alias : n.buf);
		}
		strbuf_release(&n);
	}
	return printed.names[i];
}

/* What printed_match looks for. */
enum {
	PM_TABLE = 1,    /* a metric of perf's tables (tma_frontend_bound) */
	PM_BUILTIN = 2,  /* perf's built-in Top-Down value ("Frontend Bound") */
	PM_NUMBER = 4,   /* with a number: a blank is perf printing none */
	PM_OWN_PMU = 8,  /* of the scope's own PMU: on a hybrid CPU never a guess */
};

/* The first metric perf printed for node m in this scope/PMU that is what 'want' says, or NULL. */
static const struct td_perf_metric *printed_match(const struct td_scope *s, const char *pmu,
						  const struct td_metric *m, unsigned want)
{
	const char *n;
	size_t i;

	for (i = 0; i < s->nr_perf_metrics; i++) {
		const struct td_perf_metric *pm = &s->perf_metrics[i];

		if (pmu && pm->pmu && strcmp(pm->pmu, pmu))
			continue;
		if ((want & PM_OWN_PMU) && pmu && !pm->pmu)
			continue;
		if (!(want & (pm->kind == TD_PM_BUILTIN ? PM_BUILTIN : PM_TABLE)))
			continue;
		if ((want & PM_NUMBER) && isnan(pm->value))
			continue;
		n = printed_name(s, i);
		if (n && (!strcmp(n, m->id) || td_perf_name_is(n, m->name)))
			return pm;
	}
	return NULL;
}

/*
 * The value perf printed for node m, to take as the node's: builtin 1
 * only perf's built-in Top-Down values (perf's own formula, which may
 * differ from the table's), 0 only its table metrics; with a number, of
 * the scope's own PMU.
 */
static const struct td_perf_metric *perf_printed_for(const struct td_scope *s, const char *pmu,
						     const struct td_metric *m, int builtin)
{
	return printed_match(s, pmu, m, (builtin ? PM_BUILTIN : PM_TABLE) | PM_NUMBER | PM_OWN_PMU);
}

/*
 * The perf metric printed for node m in this scope/PMU, or NULL: to show
 * beside ours and to find the group perf evaluated it in.  The table's
 * metric first (ours follows its definition), perf's built-in value
 * where it printed none; one with a number before a blank.
 */
static const struct td_perf_metric *perf_value_for(const struct td_scope *s, const char *pmu,
						   const struct td_metric *m)
{
	const struct td_perf_metric *pm;

	pm = printed_match(s, pmu, m, PM_TABLE | PM_NUMBER);
	if (!pm)
		pm = printed_match(s, pmu, m, PM_BUILTIN | PM_NUMBER);
	if (!pm)
		pm = printed_match(s, pmu, m, PM_TABLE | PM_BUILTIN);
	return pm;
}

/*
 * perf's printed value of an info metric it prints as a percentage (E-core
 * tma_resource_bound is an info metric of ours): in the metric's unit when
 * that is percent.
 */
static void info_perf_value(json_t *o, const struct td_scope *s, const char *pmu,
			    const struct td_metric *m)
{
	const struct td_perf_metric *pm = NULL;

	if (m->unit && !strcmp(m->unit, "percent") && m->scale == 100)
		pm = perf_value_for(s, pmu, m);
	json_object_set_new(o, "perf_value", pm ? json_real(pm->value) : json_null());
	json_object_set_new(o, "perf_name", pm ? json_string(pm->name) : json_null());
}

/* ---------------- JSON helpers ---------------- */

static json_t *jnum(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

static const char *status_name(enum td_count_status st)
{
	return st == TD_COUNT_OK ? "ok" : st == TD_COUNT_NOT_COUNTED ? "not counted" : "not supported";
}

/* Is c a count of the section of PMU pmu (NULL: the whole scope)? */
static int count_in_section(const struct td_count *c, const char *pmu)
{
	return !pmu || (c->pmu && !strcmp(c->pmu, pmu));
}

/* Did perf scale c from the share of time it was counted? */
static int count_scaled(const struct td_count *c)
{
	return !isnan(c->running_pct) && c->running_pct < 99.995;
}

static json_t *events_json(const struct td_scope *s, const char *pmu)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < s->nr_counts; i++) {
		const struct td_count *c = &s->counts[i];
		json_t *e;
		if (!count_in_section(c, pmu))
			continue;
		e = json_object();
		json_object_set_new(e, "name", json_string(c->event));
		json_object_set_new(e, "pmu", jstr(c->pmu));
		json_object_set_new(e, "modifiers", jstr(c->modifiers));
		json_object_set_new(e, "value", jnum(c->value));
		json_object_set_new(e, "unit", jstr(c->unit));
		json_object_set_new(e, "status", json_string(status_name(c->status)));
		json_object_set_new(e, "enabled_ns", jnum(c->enabled_ns));
		json_object_set_new(e, "running_ns", jnum(c->running_ns));
		json_object_set_new(e, "running_pct", jnum(c->running_pct));
		json_object_set_new(e, "scaled", json_boolean(count_scaled(c)));
		json_object_set_new(e, "variance_pct", jnum(c->variance_pct));
		json_object_set_new(e, "group", c->group >= 0 ? json_integer(c->group) : json_null());
		json_object_set_new(e, "line", c->line ? json_integer(c->line) : json_null());
		json_array_append_new(a, e);
	}
	return a;
}

static json_t *perf_metrics_json(const struct td_scope *s, const char *pmu)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < s->nr_perf_metrics; i++) {
		const struct td_perf_metric *m = &s->perf_metrics[i];
		json_t *e;
		if (pmu && m->pmu && strcmp(m->pmu, pmu))
			continue;
		e = json_object();
		json_object_set_new(e, "name", json_string(m->name));
		json_object_set_new(e, "pmu", jstr(m->pmu));
		json_object_set_new(e, "value", jnum(m->value));
		json_object_set_new(e, "unit", jstr(m->unit));
		json_object_set_new(e, "threshold", jstr(m->threshold));
		json_object_set_new(e, "group", m->group >= 0 ? json_integer(m->group) : json_null());
		json_object_set_new(e, "line", m->line ? json_integer(m->line) : json_null());
		json_array_append_new(a, e);
	}
	return a;
}

/* ---------------- one scope ---------------- */

struct scope_job {
	const struct td_import *imp;
	const struct td_report_opts *opts;
	const struct td_stat *st;
	const struct td_scope *s;
	size_t session;
	const char *pmu;             /* hybrid section */
	const struct td_table *table;
	const char *derived;         /* "sum of 8 cpu scopes" */
};

/* Flag and bottleneck recomputation when values come from several groups. */
static void regate(const struct td_table *t, struct evalctx *cx, struct td_node_value *nodes,
		   size_t nr, double *values, json_t *path_out, int *ambiguous)
{
	const char *parent = NULL;
	size_t i, j;

	for (i = 0; i < nr; i++) {
		const struct td_metric *m = nodes[i].metric;
		int parent_flagged = 1;
		nodes[i].flagged = 0;
		nodes[i].bottleneck = 0;
		if (m->parent)
			for (j = 0; j < i; j++)
				if (!strcmp(nodes[j].metric->id, m->parent))
					parent_flagged = nodes[j].flagged;
		if (m->threshold_expr && !isnan(nodes[i].value) && parent_flagged) {
			struct td_env env = { env_lookup, cx };
			double v;
			cx->node_values = values;
			cx->table = t;
			cx->group = -1;
			v = td_expr_eval(m->threshold_expr, &env, NULL);
			cx->node_values = NULL;
			nodes[i].flagged = !isnan(v) && v != 0;
		}
	}
	*ambiguous = 0;
	for (;;) {
		int best = -1, second = -1;
		for (i = 0; i < nr; i++) {
			const struct td_metric *m = nodes[i].metric;
			if (!nodes[i].flagged)
				continue;
			if (parent ? !m->parent || strcmp(m->parent, parent) : m->parent != NULL)
				continue;
			if (best < 0 || nodes[i].value > nodes[best].value) {
				second = best;
				best = (int)i;
			} else if (second < 0 || nodes[i].value > nodes[second].value) {
				second = (int)i;
			}
		}
		if (best < 0)
			return;
		if (second >= 0 && nodes[best].value - nodes[second].value < 0.05) {
			*ambiguous = 1;
			return;
		}
		nodes[best].bottleneck = 1;
		json_array_append_new(path_out, json_string(nodes[best].metric->id));
		parent = nodes[best].metric->id;
	}
}

/*
 * m's index in the table, or the number of metrics when m is not one of
 * its own: the table keeps its metrics in one array, so a subtraction
 * tells (this runs for every node of every scope).
 */
static size_t metric_index(const struct td_table *t, const struct td_metric *m)
{
	size_t n = td_table_nr_metrics(t);
	const struct td_metric *first = n ? td_table_metric(t, 0) : NULL;

	if (first && m >= first && m < first + n)
		return (size_t)(m - first);
	return n;
}

/* "s1/interval@2.000103288", "s1/total/sum#cpu_core": unique in the document. */
static void scope_id(struct strbuf *id, const struct scope_job *j)
{
	strbuf_addf(id, "s%zu/%s", j->session + 1, td_scope_kind_name(j->s->kind));
	if (j->s->label)
		strbuf_addf(id, "/%s", j->s->label);
	if (!isnan(j->s->time))
		strbuf_addf(id, "@%.9f", j->s->time);
	if (j->derived)
		strbuf_addstr(id, "/sum");
	if (j->pmu)
		strbuf_addf(id, "#%s", j->pmu);
}

static void add_scope_id(json_t *o, const struct scope_job *j)
{
	struct strbuf id = STRBUF_INIT;

	scope_id(&id, j);
	json_object_set_new(o, "id", json_string(id.buf));
	strbuf_release(&id);
}

/*
 * The uncertainty of every node and info metric: on the evaluation of all
 * groups, and on each group's own where a node takes its value from one.
 */
struct errorbars {
	double *nodes, *info;        /* per node of 'all' / per info metric */
	double **group_nodes;        /* per group, NULL when no node chose it */
	int inputs;
};

static void errorbars_compute(struct errorbars *eb, const struct td_table *t, struct evalctx *cx,
			      const struct td_tree_opts *topts, const struct td_tree_result *all,
			      const struct td_tree_result *per_group, const int *chosen, int groups)
{
	struct td_env env = { env_lookup, cx };
	struct td_spread_ctx sc = { cx->s, cx->pmu, -1 };
	size_t i;
	int g;

	eb->nodes = xcalloc(all->nr_nodes + 1, sizeof(double));
	eb->info = xcalloc(all->nr_info + 1, sizeof(double));
	eb->group_nodes = xcalloc(groups + 1, sizeof(double *));
	cx->group = -1;
	eb->inputs = td_tree_uncertainty(t, &env, topts, td_report_count_spread, &sc, all,
					 eb->nodes, eb->info);
	for (g = 0; per_group && g < groups; g++) {
		double *info;

		for (i = 0; i < all->nr_nodes && chosen[i] != g; i++)
			;
		if (i == all->nr_nodes)
			continue;
		eb->group_nodes[g] = xcalloc(per_group[g].nr_nodes + 1, sizeof(double));
		info = xcalloc(per_group[g].nr_info + 1, sizeof(double));
		cx->group = sc.group = g;
		td_tree_uncertainty(t, &env, topts, td_report_count_spread, &sc, &per_group[g],
				    eb->group_nodes[g], info);
		free(info);
	}
	cx->group = -1;
}

static void errorbars_release(struct errorbars *eb, int groups)
{
	int g;

	for (g = 0; eb->group_nodes && g < groups; g++)
		free(eb->group_nodes[g]);
	free(eb->group_nodes);
	free(eb->nodes);
	free(eb->info);
}

/* Node i's uncertainty, from the evaluation its value came from. */
static double errorbars_node(const struct errorbars *eb, const int *chosen, size_t i)
{
	if (!eb->nodes)
		return NAN;
	if (chosen[i] >= 0 && eb->group_nodes[chosen[i]])
		return eb->group_nodes[chosen[i]][i];
	return eb->nodes[i];
}

/*
 * Is node m's threshold true with its own value at x (the others as
 * computed)?  -1 when it cannot be evaluated.
 */
static int threshold_at(const struct td_table *t, struct evalctx *cx, double *values,
			const struct td_metric *m, double x)
{
	struct td_env env = { env_lookup, cx };
	size_t idx = metric_index(t, m);
	double keep = values[idx], v;

	values[idx] = x;
	cx->node_values = values;
	cx->table = t;
	cx->group = -1;
	v = td_expr_eval(m->threshold_expr, &env, NULL);
	cx->node_values = NULL;
	values[idx] = keep;
	return isnan(v) ? -1 : v != 0;
}

/* Does [v - u, v + u] reach across node m's threshold? */
static int threshold_undecided(const struct td_table *t, struct evalctx *cx, double *values,
			       const struct td_metric *m, double v, double u)
{
	int lo, hi;

	if (!m->threshold_expr || isnan(v) || isnan(u) || u <= 0)
		return 0;
	lo = threshold_at(t, cx, values, m, v - u);
	hi = threshold_at(t, cx, values, m, v + u);
	return lo >= 0 && hi >= 0 && lo != hi;
}

/*
 * The least share of time node m's events were counted (group g, -1 any).
 * Without multiplexing every count ran all the time: 100 when perf said
 * so, unknown when it did not (no need to walk the formula).
 */
static double node_counted_pct(const struct td_table *t, const struct evalctx *cx,
			       const struct td_metric *m, int g)
{
	struct names ns = { 0 };
	double pct;

	if (!cx->multiplexed)
		return cx->has_running_pct ? 100 : NAN;
	ns.t = t;
	names_add_expr(&ns, m->expr);
	pct = td_scope_counted_pct(cx->s, cx->pmu, g, ns.v, ns.n);
	names_release(&ns);
	return pct;
}


/*
 * Does the table use counts of whole cores (any-thread, :percore, SMT
 * formulas)?  Asked for every scope: the answer for the last table asked
 * is kept (a table lives for the whole build, td_report_build forgets it).
 */
static int table_scan_needs_core(const struct td_table *t);
static const struct td_table *needs_core_table;
static int needs_core_answer;

static int table_needs_core(const struct td_table *t)
{
	if (t != needs_core_table) {
		needs_core_table = t;
		needs_core_answer = table_scan_needs_core(t);
	}
	return needs_core_answer;
}

/* table_needs_core, read from the formulas. */
static int table_scan_needs_core(const struct td_table *t)
{
	size_t i, n = td_table_nr_metrics(t);

	for (i = 0; i < n; i++) {
		const char *f = td_table_metric(t, i)->formula;

		if (f && (strstr(f, "THREAD_ANY") || strstr(f, "percore") || strstr(f, "SMT_on") ||
			  strstr(f, "smt_on")))
			return 1;
	}
	return 0;
}

/* What the sanity checks know of the scope to name likely causes. */
static void sanity_scope(const struct scope_job *j, const struct td_table *t, const struct evalctx *cx,
			 int groups, struct td_sanity_scope *ss)
{
	memset(ss, 0, sizeof(*ss));
	ss->nr_groups = groups;
	ss->legacy_topdown = j->st->legacy_topdown;
	ss->pre_icelake = td_scope_find(j->s, j->pmu, "topdown-total-slots") != NULL;
	ss->smt = cx->smt;
	ss->core_wide = cx->core_wide;
	ss->needs_core = table_needs_core(t);
}

/* Is a Level-1 node below 0 or above 1 (its sanity says so)? */
static int level1_out_of_range(const struct td_sanity_node *sn, char **sanity, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (sn[i].m->level == 1 && sanity[i] &&
		    (!strncmp(sanity[i], "below 0", 7) || !strncmp(sanity[i], "above 1", 7)))
			return 1;
	return 0;
}

/*
 * Level-1 nodes the table could not compute, from the kernel's pre-Ice
 * Lake topdown events as perf computed them (analyze/legacy-topdown.c).
 * Returns whether any was filled; *cause names a known fault of the input.
 */
static int legacy_level1_fill(const struct td_table *t, const struct td_tree_result *all,
			      double *values, const struct td_legacy_l1 *l1, char **cause)
{
	size_t i;
	int filled = 0;

	for (i = 0; i < all->nr_nodes; i++) {
		const struct td_metric *m = all->nodes[i].metric;
		double v = td_legacy_level1_value(l1, m->id);
		size_t idx = metric_index(t, m);

		if (m->level != 1 || isnan(v) || !isnan(values[idx]))
			continue;
		values[idx] = v;
		filled = 1;
	}
	if (filled && l1->total_below_issued) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "topdown-total-slots (%.0f) is below topdown-slots-issued (%.0f): it holds "
			    "cycles, not slots (the kernel's .scale, the issue width, was not applied), so "
			    "every Level-1 value is off by that factor", l1->total, l1->issued);
		*cause = strbuf_detach(&sb, NULL);
	}
	return filled;
}

/*
 * Where a node's value comes from (docs/report-schema.md, nodes[].source):
 * computed from the counts (or not computable), the value perf printed for
 * it, or the sum of its Level-2 children.
 */
enum node_source { SRC_COUNTS, SRC_PERF, SRC_PERF_BUILTIN, SRC_CHILDREN };

static const char *source_name(enum node_source src)
{
	return src == SRC_PERF || src == SRC_PERF_BUILTIN ? "perf" : src == SRC_CHILDREN ? "children" : "counts";
}

/*
 * Interval, CPU and thread scopes leave out the trust fields that say
 * nothing (null, false), as they do thresholds and descriptions: a
 * 1,000-interval document stays small.  Readers take a missing field as
 * null.
 */
static void drop_empty_trust_fields(json_t *n)
{
	static const char *const keys[] = {
		"uncertainty", "undecided", "counted_pct", "estimate", "sanity", "perf_resolution"
	};
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(keys); i++) {
		json_t *v = json_object_get(n, keys[i]);

		if (json_is_null(v) || json_is_false(v))
			json_object_del(n, keys[i]);
	}
}

/* How many scopes the session has, those a streamed import did not keep included. */
static size_t session_scopes(const struct scope_job *j)
{
	size_t nr;

	return td_import_streamed_sum(j->imp, &nr) ? nr : j->st->nr_scopes;
}

/* The scope's "uncertainty" object: where its error bars come from. */
static json_t *uncertainty_json(const struct scope_job *j, const struct errorbars *eb)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *o;

	if (!eb->nodes)
		strbuf_addstr(&sb, j->st->interval && !j->derived ? "none: one interval is one measurement"
			      : "none: a single run (perf stat -r N or -I gives error bars)");
	else if (j->derived && j->st->interval)
		strbuf_addf(&sb, "intervals: each count's standard error of the mean over the %zu intervals "
			    "(taken as repeated measurements), propagated first-order through the formulas "
			    "as independent", session_scopes(j));
	else
		strbuf_addf(&sb, "repeats: perf's relative standard error of each count over %d runs (-r), "
			    "propagated first-order through the formulas as independent", j->st->repeats);
	o = json_pack("{s:s,s:s,s:i}", "method", eb->nodes ? (j->derived && j->st->interval ?
			"intervals" : "repeats") : "none", "text", sb.buf, "inputs", eb->inputs);
	strbuf_release(&sb);
	return o;
}

/*
 * What an evaluation's lookups depend on besides the counts' values
 * (analyze/reason-memo.c): the table, PMU and level, the literals, and
 * per count its name, PMU, modifiers, group and whether it has a value.
 */
static void scope_layout(const struct scope_job *j, const struct evalctx *cx,
			 const struct td_tree_opts *topts, struct strbuf *sb)
{
	size_t i;

	strbuf_addf(sb, "%p|%s|%s|%d|%d|%d|%d|%d|%d\n", (const void *)j->table, td_table_info(j->table)->name,
		    j->pmu ? j->pmu : "", topts->max_level, cx->smt, cx->slots, cx->core_wide,
		    cx->multiplexed, isnan(j->st->elapsed_s));
	for (i = 0; i < j->s->nr_counts; i++) {
		const struct td_count *c = &j->s->counts[i];

		strbuf_addf(sb, "%s|%s|%s|%d|%d\n", c->event ? c->event : "", c->pmu ? c->pmu : "",
			    c->modifiers ? c->modifiers : "", c->group,
			    c->status == TD_COUNT_OK && !isnan(c->value));
	}
}

/*
 * One scope's evaluation, shared by the phases that build its JSON:
 * the counts' environment, the tree on all groups and on each group, the
 * value each node takes (from the group that holds all its events), its
 * error bar and its sanity finding.
 */
struct scope_eval {
	const struct scope_job *j;
	const struct td_table *t;
	struct evalctx cx;
	struct td_env env;
	struct td_tree_opts topts;
	struct td_tree_result all, *per_group;
	int groups;
	int full_nodes;              /* the run's own total: nodes with descriptions */
	int lean;                    /* a streamed scope for folded text or CSV */
	int rows_take_reasons;       /* typed rows: each node's row takes its reason string
					(the JSON's stacks read the reasons after the nodes) */
	int nohw;                    /* a table but no hardware count */
	int treeless;                /* a table without a Top-Down tree (Zen 1-3) */
	struct strbuf nohw_reason;
	double *values;              /* per table metric, the value shown */
	int *chosen;                 /* per node, the group its value is from, -1 all */
	int mixed;                   /* some node's value is from one group only */
	int legacy_l1;               /* Level 1 filled from perf's pre-Ice Lake formulas */
	char *legacy_cause;
	/* nodes the counts do not give, taken from what perf printed (perf_fill) */
	unsigned char *source;       /* per node, enum node_source */
	double *source_u;            /* per node not from counts: its error bar */
	char **source_reason;        /* per node not from counts: where its value is from */
	int perf_filled;
	struct errorbars eb;
	struct td_sanity_node *sn;
	char **sanity;               /* per node, the out-of-range sentence or NULL */
	json_t *path;                /* the bottleneck path, ids */
	int ambiguous, out_of_range;
	json_t *warnings;
};

/* The scope's identity and what kind of counts it has. */
static void scope_head_json(json_t *o, const struct scope_eval *se, int hw)
{
	const struct scope_job *j = se->j;

	add_scope_id(o, j);
	json_object_set_new(o, "session", json_integer((json_int_t)j->session + 1));
	json_object_set_new(o, "kind", json_string(td_scope_kind_name(j->s->kind)));
	json_object_set_new(o, "label", jstr(j->s->label));
	json_object_set_new(o, "pmu", jstr(j->pmu));
	json_object_set_new(o, "time", jnum(j->s->time));
	json_object_set_new(o, "cpus", j->s->cpus ? json_integer(j->s->cpus) : json_null());
	json_object_set_new(o, "derived", jstr(j->derived));
	json_object_set_new(o, "table", se->t ? json_string(td_table_info(se->t)->name) : json_null());
	json_object_set_new(o, "multiplexed", json_boolean(section_multiplexed(j->s, j->pmu)));
	json_object_set_new(o, "hardware_counts", json_boolean(hw));
	if (!se->lean)
		json_object_set_new(o, "software", td_software_metrics(j->st, j->s, j->pmu));
}

static void scope_evalctx_init(struct scope_eval *se)
{
	const struct scope_job *j = se->j;
	struct evalctx *cx = &se->cx;
	size_t i;

	memset(cx, 0, sizeof(*cx));
	cx->st = j->st;
	cx->s = j->s;
	cx->pmu = j->pmu;
	cx->group = -1;
	cx->smt = j->imp->smt;
	cx->core_wide = j->imp->guess.core_wide;
	cx->slots = meta_slots(j->imp->meta, j->imp->nr_clusters ? j->pmu : NULL);
	cx->events_table = j->table;
	cx->legacy_zero = j->st->legacy_topdown;
	cx->multiplexed = scope_multiplexed(j->s);
	for (i = 0; i < j->s->nr_counts && !cx->has_running_pct; i++)
		cx->has_running_pct = !isnan(j->s->counts[i].running_pct);
	se->env.lookup = env_lookup;
	se->env.ctx = cx;
}

/*
 * The literals the formulas saw, so 'tdperf explain NODE RUN' can
 * substitute them as the report did.
 */
static json_t *literals_json(const struct scope_eval *se)
{
	json_t *lit = json_object();

	if (se->cx.smt >= 0)
		json_object_set_new(lit, "#smt_on", json_integer(se->cx.smt));
	json_object_set_new(lit, "#core_wide", json_real(se->cx.core_wide));
	if (se->cx.slots > 0)
		json_object_set_new(lit, "#slots", json_integer(se->cx.slots));
	if (!isnan(se->j->st->elapsed_s))
		json_object_set_new(lit, "duration_time", json_real(se->j->st->elapsed_s));
	return lit;
}

/* The tree on all counts, and on each event group's own when there are several. */
static void evaluate_tree(struct scope_eval *se)
{
	const struct scope_job *j = se->j;
	int g;

	se->topts.max_level = j->opts ? j->opts->max_level : 0;
	se->topts.no_reasons = se->lean && j->opts->streamed_no_reasons;
	if (se->groups == 1 && !se->cx.legacy_zero && !se->topts.no_reasons) {
		struct strbuf layout = STRBUF_INIT;

		scope_layout(j, &se->cx, &se->topts, &layout);
		td_reason_memo_eval(se->t, &se->env, &se->topts, &layout, se->lean, &se->all);
		strbuf_release(&layout);
	} else {
		td_tree_eval(se->t, &se->env, &se->topts, &se->all);
	}
	if (se->groups > 1) {
		se->per_group = xcalloc(se->groups, sizeof(*se->per_group));
		for (g = 0; g < se->groups; g++) {
			se->cx.group = g;
			td_tree_eval(se->t, &se->env, &se->topts, &se->per_group[g]);
		}
		se->cx.group = -1;
	}
}

/*
 * The value perf printed for node m, to take its group from: under perf's
 * tma_ name first, then any other name that stands for the node
 * (perf_value_for); perf's built-in "Frontend Bound" is evaluated on the
 * topdown events' group, with another definition.
 */
static const struct td_perf_metric *printed_own_metric(const struct td_scope *s, const char *pmu,
							const struct td_metric *m)
{
	size_t i;

	for (i = 0; i < s->nr_perf_metrics; i++) {
		const struct td_perf_metric *pm = &s->perf_metrics[i];

		if (pmu && pm->pmu && strcmp(pm->pmu, pmu))
			continue;
		if (!strncasecmp(pm->name, "tma_", 4) && !strcasecmp(pm->name + 4, m->id))
			return pm;
	}
	return perf_value_for(s, pmu, m);
}

/*
 * The group node i takes its value from, -1 for each event's first count.
 * perf evaluates a metric on the counts of its own group, the one it
 * prints the value in (perf 6.1 looks a metric's events up among those
 * sharing its group's leader; perf 5.x repeats the events in a group per
 * metric): when the node can be computed on that group's counts alone, it
 * is the one.  Which of a node's alternative formulas applies follows
 * from the events perf grouped, so "can be computed" is the group's own
 * evaluation, not a list of names.  Otherwise (a metric perf did not
 * print, or printed apart from its events) the first group that computes
 * it no more approximately than all counts do; failing that, the first
 * counts.  The threshold's events play no part: perf never groups them,
 * and flags are decided on the values chosen here (regate).
 */
static int node_group(struct scope_eval *se, size_t i)
{
	const struct td_node_value *all = &se->all.nodes[i];
	const struct td_perf_metric *pm = printed_own_metric(se->j->s, se->j->pmu, all->metric);
	int g = pm ? td_scope_printed_group(se->j->s, se->j->pmu, pm) : -1;

	/*
	 * Not where that group gives it only with a correction term taken as
	 * 0 that another group of the scope measured (perf's built-in
	 * "Frontend Bound" sits with the topdown events, INT_MISC.UOP_DROPPING
	 * may be elsewhere): perf's tma_ formula reads the measured term.
	 */
	if (g >= 0 && g < se->groups && !isnan(se->per_group[g].nodes[i].value) &&
	    (!se->per_group[g].nodes[i].approximate || all->approximate))
		return g;
	for (g = 0; g < se->groups; g++) {
		const struct td_node_value *own = &se->per_group[g].nodes[i];

		if (!isnan(own->value) && (!own->approximate || all->approximate))
			return g;
	}
	return -1;
}

/* The value each metric shows: a node's from its group, as perf computes it. */
static void choose_values(struct scope_eval *se)
{
	const struct td_tree_result *all = &se->all;
	size_t i, n = td_table_nr_metrics(se->t);

	se->values = xcalloc(n + 1, sizeof(*se->values));
	for (i = 0; i < n; i++)
		se->values[i] = NAN;
	for (i = 0; i < all->nr_info; i++)
		se->values[metric_index(se->t, all->info[i].metric)] = all->info[i].value;
	se->chosen = xcalloc(all->nr_nodes + 1, sizeof(*se->chosen));
	for (i = 0; i < all->nr_nodes; i++) {
		int g = se->groups > 1 ? node_group(se, i) : -1;

		se->chosen[i] = g;
		if (g >= 0 && (isnan(all->nodes[i].value) || se->per_group[g].nodes[i].value != all->nodes[i].value))
			se->mixed = 1;
		se->values[metric_index(se->t, all->nodes[i].metric)] =
			g >= 0 ? se->per_group[g].nodes[i].value : all->nodes[i].value;
	}
}

/* ---------------- perf's printed values as a source ---------------- */

/* Node i's error bar: its counts' spread, or what its source gives. */
static double node_u(const struct scope_eval *se, size_t i)
{
	if (se->source && se->source[i] != SRC_COUNTS)
		return se->source_u[i];
	return errorbars_node(&se->eb, se->chosen, i);
}

/* pm's number with as many digits as perf printed, and its unit: "42.7 %", "0.96". */
static void add_as_printed(struct strbuf *sb, const struct td_perf_metric *pm)
{
	int digits = isnan(pm->resolution) || pm->resolution <= 0 ? 1 :
		     (int)lround(-log10(pm->resolution));

	strbuf_addf(sb, "%.*f", digits < 0 ? 0 : digits > 6 ? 6 : digits, pm->value);
	if (strcmp(pm->unit, pm->name))
		strbuf_addf(sb, " %s", pm->unit);
}

/*
 * Node i takes the value perf printed for it, when the counts do not
 * give it (builtin: only perf's built-in Top-Down values, else only its
 * table metrics).  Its error bar is half the printed resolution: perf
 * rounded the value to it.
 */
static void take_printed(struct scope_eval *se, size_t i, int builtin)
{
	const struct td_metric *m = se->all.nodes[i].metric;
	size_t idx = metric_index(se->t, m);
	const struct td_perf_metric *pm;
	struct strbuf sb = STRBUF_INIT;
	double res, v;

	if (!isnan(se->values[idx]))
		return;
	pm = perf_printed_for(se->j->s, se->j->pmu, m, builtin);
	if (!pm)
		return;
	v = td_perf_metric_share(pm, &res);
	if (isnan(v))
		return;
	se->values[idx] = v;
	se->source[i] = builtin ? SRC_PERF_BUILTIN : SRC_PERF;
	se->source_u[i] = res / 2;
	/* one reason item: no "; " (it would split it) and no ", " (read as a list of events) */
	if (builtin && td_is_perf_topdown_table(se->t)) {
		/* the tree of perf's built-in values: perf's number is the node's definition */
		se->source[i] = SRC_PERF;
		strbuf_addf(&sb, "value printed by perf: its built-in Top-Down \"%s\" ", pm->name);
		add_as_printed(&sb, pm);
		strbuf_addstr(&sb, " (no CPU table was picked: the node is perf's own number and its error bar "
			      "half the printed resolution)");
	} else if (builtin) {
		strbuf_addf(&sb, "value printed by perf: its built-in Top-Down \"%s\" ", pm->name);
		add_as_printed(&sb, pm);
		strbuf_addf(&sb, " (perf's own formula: it may differ from the table's %s; taken as perf "
			    "printed no %s value and the counts do not give it)", m->id, m->id);
	} else {
		strbuf_addf(&sb, "value printed by perf: %s ", pm->name);
		add_as_printed(&sb, pm);
		strbuf_addstr(&sb, " (taken as the counts do not give it: error bar half the printed resolution)");
	}
	se->source_reason[i] = strbuf_detach(&sb, NULL);
	se->perf_filled = 1;
}

/*
 * A Level-1 node the counts do not give, as the sum of its Level-2
 * children when every one has a value in the same domain: Level 2
 * divides Level 1 (Yasin 2014; on Intel's E-cores TOPDOWN_FE_BOUND.ALL is
 * the sum of its FRONTEND_LATENCY and FRONTEND_BANDWIDTH slots, and
 * TOPDOWN_BAD_SPECULATION.ALL that of MISPREDICT and MACHINE_CLEARS).
 * perf printed only the children when its Level-2 group left out the
 * Level-1 event.  Approximate: the children were counted apart.
 */
static void derive_from_children(struct scope_eval *se, size_t i)
{
	const struct td_metric *m = se->all.nodes[i].metric;
	size_t idx = metric_index(se->t, m), k;
	struct strbuf terms = STRBUF_INIT;
	double sum = 0, u = 0;
	int kids = 0, ok = 1;

	if (m->level != 1 || !isnan(se->values[idx]) || !m->domain)
		return;
	for (k = 0; k < se->all.nr_nodes && ok; k++) {
		const struct td_metric *c = se->all.nodes[k].metric;
		double cv;

		if (!c->parent || strcmp(c->parent, m->id))
			continue;
		cv = se->values[metric_index(se->t, c)];
		ok = !isnan(cv) && c->domain && !strcmp(c->domain, m->domain);
		sum += cv;
		u += node_u(se, k);
		strbuf_addf(&terms, "%s%s %.1f %%%s", kids ? " + " : "", c->name, cv * 100,
			    se->source[k] != SRC_COUNTS ? " (printed by perf)" : "");
		kids++;
	}
	if (ok && kids >= 2) {
		se->values[idx] = sum;
		se->source[i] = SRC_CHILDREN;
		se->source_u[i] = u;
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "the sum of its Level-2 children %s (taken as the counts do not give it and "
			    "perf did not print it: Level 2 divides Level 1 but the children were counted apart)",
			    terms.buf);
		se->source_reason[i] = strbuf_detach(&sb, NULL);
		se->perf_filled = 1;
	}
	strbuf_release(&terms);
}

/*
 * Nodes the counts do not give take what perf printed: its table metric
 * (tma_frontend_bound) first; a Level 1 from its children next; perf's
 * built-in value ("Frontend Bound") only where neither exists.
 */
static void perf_fill(struct scope_eval *se)
{
	size_t i, n = se->all.nr_nodes;

	se->source = xcalloc(n + 1, sizeof(*se->source));
	se->source_u = xcalloc(n + 1, sizeof(*se->source_u));
	se->source_reason = xcalloc(n + 1, sizeof(*se->source_reason));
	if (se->nohw || !se->j->s->nr_perf_metrics)
		return;
	for (i = 0; i < n; i++)
		take_printed(se, i, 0);
	for (i = 0; i < n; i++)
		derive_from_children(se, i);
	for (i = 0; i < n; i++)
		take_printed(se, i, 1);
	for (i = 0; i < n; i++)
		derive_from_children(se, i);
}

/* Does perf print a value for any node of the scope (a metric-only output)? */
static int scope_prints_nodes(const struct scope_job *j)
{
	size_t i, n;

	if (!j->table || !j->s->nr_perf_metrics)
		return 0;
	n = td_table_nr_metrics(j->table);
	for (i = 0; i < n; i++) {
		const struct td_metric *m = td_table_metric(j->table, i);

		if (m->level >= 1 && perf_value_for(j->s, j->pmu, m))
			return 1;
	}
	return 0;
}

/* Flags and the bottleneck path: the evaluator's, or again on the values chosen. */
static void flags_and_path(struct scope_eval *se)
{
	struct td_tree_result *all = &se->all;
	size_t i;

	if (se->nohw)
		return;
	if (se->mixed || se->legacy_l1 || se->perf_filled) {
		struct td_node_value *nv = xcalloc(all->nr_nodes + 1, sizeof(*nv));

		for (i = 0; i < all->nr_nodes; i++) {
			nv[i] = se->chosen[i] >= 0 ? se->per_group[se->chosen[i]].nodes[i] : all->nodes[i];
			nv[i].value = se->values[metric_index(se->t, all->nodes[i].metric)];
		}
		regate(se->t, &se->cx, nv, all->nr_nodes, se->values, se->path, &se->ambiguous);
		for (i = 0; i < all->nr_nodes; i++) {
			all->nodes[i].flagged = nv[i].flagged;
			all->nodes[i].bottleneck = nv[i].bottleneck;
		}
		free(nv);
		return;
	}
	for (i = 0; i < all->nr_path; i++)
		json_array_append_new(se->path, json_string(all->path[i]));
	se->ambiguous = all->ambiguous;
}

/* Values below 0, above 1 or above their parent, named with their likely cause. */
static void check_sanity(struct scope_eval *se)
{
	struct td_sanity_scope ss;
	size_t i, n = se->all.nr_nodes;

	se->sn = xcalloc(n + 1, sizeof(*se->sn));
	se->sanity = xcalloc(n + 1, sizeof(*se->sanity));
	for (i = 0; i < n; i++) {
		struct td_sanity_node *sn = &se->sn[i];

		sn->m = se->all.nodes[i].metric;
		sn->value = se->nohw ? NAN : se->values[metric_index(se->t, sn->m)];
		sn->u = node_u(se, i);
		sn->group = se->chosen[i];
		sn->counted_pct = node_counted_pct(se->t, &se->cx, sn->m, se->chosen[i]);
	}
	sanity_scope(se->j, se->t, &se->cx, se->groups, &ss);
	ss.known_cause = se->legacy_cause;
	td_report_sanity(&ss, se->sn, n, se->sanity, se->warnings);
}

/*
 * In a perf <= 6.2 --topdown session, the counts node i read as perf did
 * because the scope has none (env_lookup): the correction terms its
 * formula uses, through the metrics it references, taken as 0, and the
 * slots count, the sum of the four topdown-* events standing for it.
 * Said into 'reason'; returns whether there was any.  A term measured in
 * any group of the scope was used as measured, and is not named.
 */
static int legacy_substitution_reason(struct scope_eval *se, size_t i, struct strbuf *reason)
{
	struct names ns = { 0 };
	struct strbuf terms = STRBUF_INIT;
	size_t k;
	int slots = 0, any;

	ns.t = se->t;
	names_add_expr(&ns, se->all.nodes[i].metric->expr);
	for (k = 0; k < ns.n; k++) {
		if (measured_in_scope(&se->cx, ns.v[k]))
			continue;
		if (is_legacy_correction(ns.v[k]))
			strbuf_addf(&terms, "%s%s", terms.len ? " / " : "", ns.v[k]);
		else if (is_slots(ns.v[k]) &&
			 !isnan(legacy_slots_sum(se->cx.s, se->cx.pmu, se->chosen[i])))
			slots = 1;
	}
	any = terms.len || slots;
	if (terms.len)
		strbuf_addf(reason, "%sperf <= 6.2 --topdown style: %s not measured, taken as 0 as perf did",
			    reason->len ? "; " : "", terms.buf);
	if (slots)
		strbuf_addf(reason, "%sTOPDOWN.SLOTS not printed: the sum of the four topdown-* events "
			    "stands for it, as perf normalised", reason->len ? "; " : "");
	strbuf_release(&terms);
	names_release(&ns);
	return any;
}

/*
 * Why node i has no value or an approximate one into 'reason'; returns
 * whether it is approximate.  v is its value (NAN for a scope without
 * hardware counts).
 */
static int node_reason(struct scope_eval *se, size_t i, double v, struct strbuf *reason)
{
	struct td_node_value *src = se->chosen[i] >= 0 ? &se->per_group[se->chosen[i]].nodes[i]
							     : &se->all.nodes[i];
	const struct td_metric *m = se->all.nodes[i].metric;
	int approx = src->approximate;

	if (se->nohw) {
		strbuf_add(reason, se->nohw_reason.buf, se->nohw_reason.len);
		return 0;
	}
	if (se->source && se->source[i] != SRC_COUNTS) {
		strbuf_addstr(reason, se->source_reason[i]);
		if (src->reason)
			strbuf_addf(reason, "; %s", src->reason);
		/* perf's own value of the table's metric is no approximation */
		return se->source[i] != SRC_PERF;
	}
	if (se->legacy_l1 && m->level == 1 && td_legacy_level1_formula(m->id) && isnan(src->value)) {
		strbuf_addf(reason, "perf's Level 1 from the kernel's pre-Ice Lake topdown events: %s",
			    td_legacy_level1_formula(m->id));
		return 1;
	}
	/* td_reason_merge kept each item once */
	if (src->reason && se->rows_take_reasons) {
		strbuf_attach(reason, src->reason);
		src->reason = NULL;
	} else if (src->reason) {
		strbuf_addstr(reason, src->reason);
	}
	if (se->cx.legacy_zero && !isnan(v) && m->level >= 1 && !(se->legacy_l1 && m->level == 1))
		approx |= legacy_substitution_reason(se, i, reason);
	return approx;
}

/* A string the rows own. */
static const char *rows_own(struct td_scope_rows *r, char *s)
{
	if (!s)
		return NULL;
	TD_GROW(r->owned, r->alloc_owned, r->nr_owned + 1);
	r->owned[r->nr_owned++] = s;
	return s;
}

/* Node i of the scope, typed; its strings belong to 'own' or to the table. */
static void node_row(struct scope_eval *se, size_t i, struct td_node_row *row, struct td_scope_rows *own)
{
	const struct td_metric *m = se->all.nodes[i].metric;
	struct td_node_value *nv = &se->all.nodes[i];
	const struct td_perf_metric *pm;
	double v = se->nohw ? NAN : se->values[metric_index(se->t, m)];
	double u;
	struct strbuf sb = STRBUF_INIT;

	memset(row, 0, sizeof(*row));
	if (se->nohw)
		nv->flagged = nv->bottleneck = 0;
	row->id = m->id;
	row->name = m->name;
	row->parent = m->parent;
	row->unit = m->domain ? m->domain : m->unit;
	row->level = m->level;
	row->value = v;
	row->flagged = nv->flagged;
	row->bottleneck = nv->bottleneck;
	row->group = se->chosen[i];
	row->perf_value = row->perf_resolution = row->uncertainty = row->counted_pct = NAN;
	row->source = source_name(se->source ? se->source[i] : SRC_COUNTS);
	if (se->topts.no_reasons)
		return; /* a folded text line shows the value and its flags, nothing else */
	row->approximate = node_reason(se, i, v, &sb);
	row->reason = sb.len ? rows_own(own, strbuf_detach(&sb, NULL)) : NULL;
	pm = perf_value_for(se->j->s, se->j->pmu, m);
	if (pm) {
		row->perf_value = td_perf_metric_share(pm, &row->perf_resolution);
		row->perf_name = pm->name;
		row->perf_kind = pm->kind == TD_PM_BUILTIN ? "builtin" : "table";
	}
	u = node_u(se, i);
	row->uncertainty = isnan(v) ? NAN : u;
	row->undecided = threshold_undecided(se->t, &se->cx, se->values, m, v, u);
	row->counted_pct = se->sn[i].counted_pct;
	if (!isnan(row->counted_pct) && row->counted_pct < 99.995) {
		strbuf_reset(&sb);
		td_estimate_sentence(&sb, row->counted_pct);
		row->estimate = rows_own(own, strbuf_detach(&sb, NULL));
	}
	row->sanity = se->sanity[i] ? rows_own(own, xstrdup(se->sanity[i])) : NULL;
	strbuf_release(&sb);
}

/* Node i of the scope (docs/report-schema.md). */
/*
 * How an older perf computes this node, where its expression is not ours
 * (metrics/compat/perf-6.1/): explains a value that differs from the one
 * that perf printed.  null where the table names no difference.
 */
static json_t *perf_formula_json(const struct td_metric *m)
{
	if (!m->perf_formula_expr)
		return json_null();
	return json_pack("{s:s, s:s, s:s, s:b}", "perf_version", m->perf_formula_version,
			 "expr", m->perf_formula_expr, "why", m->perf_formula_why,
			 "perf_only", m->perf_only);
}

static json_t *node_json(struct scope_eval *se, size_t i)
{
	const struct td_metric *m = se->all.nodes[i].metric;
	struct td_scope_rows own = { 0 };
	struct td_node_row row;
	json_t *n = json_object();

	node_row(se, i, &row, &own);
	json_object_set_new(n, "id", json_string(row.id));
	json_object_set_new(n, "name", json_string(row.name));
	if (se->topts.no_reasons) {
		json_object_set_new(n, "level", json_integer(row.level));
		json_object_set_new(n, "value", jnum(row.value));
		json_object_set_new(n, "flagged", json_boolean(row.flagged));
		json_object_set_new(n, "bottleneck", json_boolean(row.bottleneck));
		return n;
	}
	json_object_set_new(n, "parent", jstr(row.parent));
	json_object_set_new(n, "level", json_integer(row.level));
	json_object_set_new(n, "value", jnum(row.value));
	json_object_set_new(n, "source", json_string(row.source));
	json_object_set_new(n, "unit", jstr(row.unit));
	json_object_set_new(n, "flagged", json_boolean(row.flagged));
	json_object_set_new(n, "bottleneck", json_boolean(row.bottleneck));
	json_object_set_new(n, "approximate", json_boolean(row.approximate));
	json_object_set_new(n, "reason", jstr(row.reason));
	json_object_set_new(n, "perf_value", jnum(row.perf_value));
	json_object_set_new(n, "perf_resolution", jnum(row.perf_resolution));
	json_object_set_new(n, "perf_name", jstr(row.perf_name));
	json_object_set_new(n, "perf_kind", jstr(row.perf_kind));
	json_object_set_new(n, "group", row.group >= 0 ? json_integer(row.group) : json_null());
	json_object_set_new(n, "uncertainty", jnum(row.uncertainty));
	json_object_set_new(n, "undecided", json_boolean(row.undecided));
	json_object_set_new(n, "counted_pct", jnum(row.counted_pct));
	json_object_set_new(n, "estimate", jstr(row.estimate));
	json_object_set_new(n, "sanity", jstr(row.sanity));
	if (se->full_nodes) {
		/* the same in every scope: only on totals, to keep interval documents small */
		json_object_set_new(n, "threshold", jstr(m->threshold));
		json_object_set_new(n, "area", jstr(m->area));
		json_object_set_new(n, "description", jstr(m->description));
		json_object_set_new(n, "locate_with", jstr(m->locate_with));
		json_object_set_new(n, "perf_formula", perf_formula_json(m));
	} else {
		drop_empty_trust_fields(n);
	}
	td_scope_rows_release(&own);
	return n;
}

/*
 * An out-of-range Level 1 names no bottleneck: no node of it can be
 * trusted.  Returns whether the path was dropped (the caller clears the
 * nodes' bottleneck marks).
 */
static int drop_path_if_out_of_range(struct scope_eval *se)
{
	if (!level1_out_of_range(se->sn, se->sanity, se->all.nr_nodes))
		return 0;
	json_array_clear(se->path);
	se->ambiguous = 0;
	se->out_of_range = 1;
	return 1;
}

/*
 * Why a table without a tree names no bottleneck: its own word on what the
 * PMU cannot count, else the table's name.  Never "no node above its
 * threshold", which would read as good news.
 */
static void treeless_sentence(const struct td_table *t, const char *lead, struct strbuf *sb)
{
	const struct td_table_info *info = td_table_info(t);

	strbuf_addstr(sb, lead);
	if (info->missing)
		strbuf_addf(sb, ". %s", info->missing);
	else
		strbuf_addf(sb, ": the formula table %s has no Level-1 node; only its info metrics are computed",
			    info->name);
}

/* How many Level-1 nodes have no value. */
static int level1_missing(const struct scope_eval *se)
{
	size_t i;
	int n = 0;

	for (i = 0; i < se->all.nr_nodes; i++) {
		const struct td_metric *m = se->all.nodes[i].metric;

		if (m->level == 1 && isnan(se->values[metric_index(se->t, m)]))
			n++;
	}
	return n;
}

/* "Backend Bound > Memory Bound: 41.2 % of slots", or why there is no path. */
static void bottleneck_sentence(const struct scope_eval *se, struct strbuf *sb)
{
	size_t i, np = json_array_size(se->path);

	for (i = 0; i < np; i++) {
		const char *id = json_string_value(json_array_get(se->path, i));
		const struct td_metric *m = td_table_find_metric(se->t, id);

		strbuf_addf(sb, "%s%s", i ? " > " : "", m ? m->name : id);
	}
	if (se->out_of_range) {
		strbuf_addstr(sb, "no bottleneck named: Level 1 is out of range (see the warnings), "
			      "so no node of it can be trusted");
	} else if (se->nohw) {
		strbuf_addstr(sb, "Top-Down ");
		strbuf_add(sb, se->nohw_reason.buf, se->nohw_reason.len);
		if (se->treeless)
			treeless_sentence(se->t, "; and this CPU has no Top-Down tree to measure", sb);
	} else if (se->treeless) {
		treeless_sentence(se->t, "no Top-Down tree on this CPU", sb);
	} else if (np) {
		const char *id = json_string_value(json_array_get(se->path, np - 1));
		const struct td_metric *m = td_table_find_metric(se->t, id);
		double v = m ? se->values[metric_index(se->t, m)] : NAN;

		strbuf_addf(sb, ": %.1f %% of %s%s", v * 100, m && m->domain ? m->domain : "slots",
			    se->ambiguous ? " (the next level is a tie within 5 points)" : "");
	} else if (se->ambiguous) {
		strbuf_addstr(sb, "no clear bottleneck: the top Level-1 nodes are within 5 points");
	} else if (level1_missing(se)) {
		/* nothing above its threshold among what is known is no good news */
		strbuf_addf(sb, "no bottleneck named: %d Level-1 node%s not computable from this input, and "
			    "perf printed no value for %s", level1_missing(se), level1_missing(se) == 1 ? " is" : "s are",
			    level1_missing(se) == 1 ? "it" : "them");
	} else {
		strbuf_addstr(sb, "no node above its threshold");
	}
}

static json_t *bottleneck_json(struct scope_eval *se)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *bn = json_object();

	bottleneck_sentence(se, &sb);
	json_object_set_new(bn, "path", se->path);
	se->path = NULL;
	json_object_set_new(bn, "ambiguous", json_boolean(se->ambiguous));
	json_object_set_new(bn, "sentence", json_string(sb.buf));
	strbuf_release(&sb);
	return bn;
}

/*
 * The info metrics in their own unit (perf's ScaleUnit applied); outside
 * the run's own total, those without a value are only counted in
 * *omitted (the total lists them with their reasons).
 */
static json_t *info_metrics_json(const struct scope_eval *se, int *omitted)
{
	json_t *metrics = json_array();
	size_t i;

	for (i = 0; i < se->all.nr_info && !se->lean; i++) {
		const struct td_node_value *nv = &se->all.info[i];
		double scale = nv->metric->scale > 0 ? nv->metric->scale : 1;
		double mv = se->nohw ? NAN : nv->value * scale;
		json_t *m;

		if (!se->full_nodes && isnan(mv)) {
			(*omitted)++;
			continue;
		}
		m = json_object();
		json_object_set_new(m, "id", json_string(nv->metric->id));
		json_object_set_new(m, "name", json_string(nv->metric->name));
		json_object_set_new(m, "value", jnum(mv));
		json_object_set_new(m, "uncertainty", se->eb.info && !isnan(mv) ? jnum(se->eb.info[i] * scale)
									       : json_null());
		json_object_set_new(m, "unit", jstr(nv->metric->unit));
		info_perf_value(m, se->j->s, se->j->pmu, nv->metric);
		json_object_set_new(m, "approximate", json_boolean(!se->nohw && nv->approximate));
		json_object_set_new(m, "reason", se->nohw ? json_string(se->nohw_reason.buf) :
				    jstr(isnan(nv->value) || nv->approximate ? nv->reason : NULL));
		json_array_append_new(metrics, m);
	}
	return metrics;
}

/*
 * Everything the nodes need: the tree, the values chosen per group,
 * perf's pre-Ice Lake Level 1, error bars, flags and path, sanity.
 */
static void evaluate_scope(struct scope_eval *se)
{
	struct td_legacy_l1 l1;

	evaluate_tree(se);
	choose_values(se);
	if (!se->nohw && td_legacy_level1(se->j->s, se->j->pmu, &l1) == 0)
		se->legacy_l1 = legacy_level1_fill(se->t, &se->all, se->values, &l1, &se->legacy_cause);
	if (!se->nohw && td_scope_has_spread(se->j->s))
		errorbars_compute(&se->eb, se->t, &se->cx, &se->topts, &se->all, se->per_group, se->chosen,
				  se->groups);
	perf_fill(se);
	flags_and_path(se);
	check_sanity(se);
}

/* Is node i shown?  A folded text line shows Level 1 and the path's last id. */
static int node_shown(const struct scope_eval *se, size_t i)
{
	return !se->topts.no_reasons || se->all.nodes[i].metric->level == 1;
}

/* The Top-Down part of a scope with a table: nodes, bottleneck, info metrics. */
static void tree_json(json_t *o, struct scope_eval *se)
{
	json_t *nodes = json_array();
	size_t i;
	int omitted = 0;

	evaluate_scope(se);
	json_object_set_new(o, "uncertainty", uncertainty_json(se->j, &se->eb));
	for (i = 0; i < se->all.nr_nodes; i++)
		if (node_shown(se, i))
			json_array_append_new(nodes, node_json(se, i));
	json_object_set_new(o, "nodes", nodes);
	if (drop_path_if_out_of_range(se)) {
		json_t *n;

		json_array_foreach(nodes, i, n)
			json_object_set_new(n, "bottleneck", json_false());
	}
	json_object_set_new(o, "bottleneck", bottleneck_json(se));
	json_object_set_new(o, "metrics", info_metrics_json(se, &omitted));
	json_object_set_new(o, "metrics_omitted", json_integer(omitted));
	if (se->mixed && !se->nohw)
		json_array_append_new(se->warnings, json_string(
			"events come from several perf event groups: each node is computed on the group "
			"that holds all its events, as perf does"));
}

/*
 * The stacks of a scope some of whose nodes perf printed (perf_fill): the
 * tree again, each metric the chosen values give taken as given, so the
 * stacks' own metrics (stack_base = retiring x cycles, ...) are built on
 * perf's values too; each CPI component of such a node says so
 * ("source").
 */
static int fill_stacks_with_printed(json_t *o, struct scope_eval *se)
{
	struct td_tree_opts topts = se->topts;
	struct td_tree_result tr;
	json_t *comps, *c;
	size_t i;
	int ret;

	topts.env_sets_metrics = 1;
	se->cx.node_values = se->values;
	se->cx.table = se->t;
	td_tree_eval(se->t, &se->env, &topts, &tr);
	se->cx.node_values = NULL;
	for (i = 0; i < tr.nr_nodes && i < se->all.nr_nodes; i++) {
		if (se->source[i] == SRC_COUNTS)
			continue;
		free(tr.nodes[i].reason);
		tr.nodes[i].reason = xstrdup(se->source_reason[i]);
		tr.nodes[i].approximate = se->source[i] != SRC_PERF;
	}
	ret = td_report_fill_stacks(o, se->t, &se->env, &tr);
	comps = json_object_get(json_object_get(json_object_get(o, "stacks"), "cpi"), "components");
	json_array_foreach(comps, i, c) {
		const char *id = td_json_str(c, "id");
		size_t k;

		for (k = 0; id && k < se->all.nr_nodes; k++)
			if (se->source[k] != SRC_COUNTS && !strcmp(se->all.nodes[k].metric->id, id))
				json_object_set_new(c, "source", json_string(source_name(se->source[k])));
	}
	td_tree_result_release(&tr);
	return ret;
}

static int fill_stacks(json_t *o, struct scope_eval *se)
{
	if (se->perf_filled)
		return fill_stacks_with_printed(o, se);
	return td_report_fill_stacks(o, se->t, &se->env, &se->all);
}

/* The raw counts, perf's own metrics, the stacks and the warnings. */
static void scope_tail_json(json_t *o, struct scope_eval *se)
{
	const struct scope_job *j = se->j;

	if (!se->lean || !json_array_size(json_object_get(o, "nodes")))
		json_object_set_new(o, "events", events_json(j->s, j->pmu));
	if (!se->lean)
		json_object_set_new(o, "perf_metrics", perf_metrics_json(j->s, j->pmu));
	if (!se->lean && (!se->t || se->nohw || fill_stacks(o, se) < 0))
		json_object_set_new(o, "stacks", json_object());
	if (section_multiplexed(j->s, j->pmu))
		json_array_append_new(se->warnings, json_string(
			"counters were multiplexed: perf scaled the counts from the time each was running "
			"(see running_pct); values are estimates"));
	json_object_set_new(o, "warnings", se->warnings);
	se->warnings = NULL;
}

static void scope_eval_release(struct scope_eval *se)
{
	size_t i;
	int g;

	/* before 'all' is released: its node count bounds the sentences */
	for (i = 0; se->sanity && i < se->all.nr_nodes; i++)
		free(se->sanity[i]);
	for (i = 0; se->source_reason && i < se->all.nr_nodes; i++)
		free(se->source_reason[i]);
	if (se->t) {
		td_tree_result_release(&se->all);
		for (g = 0; se->per_group && g < se->groups; g++)
			td_tree_result_release(&se->per_group[g]);
	}
	errorbars_release(&se->eb, se->groups);
	free(se->legacy_cause);
	free(se->source_reason);
	free(se->source_u);
	free(se->source);
	free(se->sanity);
	free(se->sn);
	free(se->per_group);
	free(se->values);
	free(se->chosen);
	strbuf_release(&se->nohw_reason);
	json_decref(se->path);
	json_decref(se->warnings);
}

/* Start one scope's evaluation; hw: it has hardware counts. */
static void scope_eval_init(struct scope_eval *se, const struct scope_job *j, int hw)
{
	memset(se, 0, sizeof(*se));
	se->j = j;
	se->t = j->table;
	se->groups = j->s->nr_groups > 1 ? j->s->nr_groups : 1;
	se->full_nodes = j->s->kind == TD_SCOPE_TOTAL && isnan(j->s->time);
	se->lean = j->opts && j->opts->stream_scopes && j->opts->streamed_nodes_only && !se->full_nodes;
	/* a metric-only output: no count, but perf printed the nodes (perf_fill) */
	se->nohw = se->t && !hw && !scope_prints_nodes(j);
	se->treeless = se->t && !td_table_has_tree(se->t);
	strbuf_init(&se->nohw_reason, 0);
	se->path = json_array();
	se->warnings = json_array();
	td_count_memo_enter(j->s);
	if (se->nohw && j->derived && j->st->metric_only)
		/* perf's percentages of two CPUs or intervals do not add: each is of its own slots */
		strbuf_addstr(&se->nohw_reason, "not measured: perf printed its values without the counts "
			    "(a --metric-only or --topdown output) and percentages of different scopes do not "
			    "add (each is of its own slots): see each scope");
	else if (se->nohw)
		td_nohw_reason(&se->nohw_reason, j->imp->meta);
	scope_evalctx_init(se);
}

/* A scope's raw counts as rows (CSV lists them where there are no nodes). */
static void event_rows(const struct scope_job *j, struct td_scope_rows *r)
{
	size_t i;

	r->events = xcalloc(j->s->nr_counts + 1, sizeof(*r->events));
	for (i = 0; i < j->s->nr_counts; i++) {
		const struct td_count *c = &j->s->counts[i];
		struct td_event_row *e;

		if (!count_in_section(c, j->pmu))
			continue;
		e = &r->events[r->nr_events++];
		e->name = c->event;
		e->unit = c->unit;
		e->status = status_name(c->status);
		e->value = c->value;
		e->running_pct = c->running_pct;
		e->scaled = count_scaled(c);
	}
}

/*
 * The scope as typed rows, evaluated as scope_json_grouped evaluates it
 * (the same phases), without building its JSON.  Strings belong to r,
 * to the table or to the parsed counts.
 */
static void scope_rows_grouped(const struct scope_job *j, struct td_scope_rows *r)
{
	struct scope_eval se;
	struct strbuf id = STRBUF_INIT;
	size_t i;

	scope_eval_init(&se, j, td_scope_hardware_counts(j->s, j->pmu) > 0);
	se.rows_take_reasons = 1;
	memset(r, 0, sizeof(*r));
	scope_id(&id, j);
	r->id = rows_own(r, strbuf_detach(&id, NULL));
	r->session = (long)j->session + 1;
	r->kind = td_scope_kind_name(j->s->kind);
	r->label = j->s->label;
	r->pmu = j->pmu;
	r->time = j->s->time;
	r->multiplexed = section_multiplexed(j->s, j->pmu);
	if (se.t) {
		evaluate_scope(&se);
		r->nodes = xcalloc(se.all.nr_nodes + 1, sizeof(*r->nodes));
		for (i = 0; i < se.all.nr_nodes; i++)
			if (node_shown(&se, i))
				node_row(&se, i, &r->nodes[r->nr_nodes++], r);
		if (drop_path_if_out_of_range(&se))
			for (i = 0; i < r->nr_nodes; i++)
				r->nodes[i].bottleneck = 0;
		if (json_array_size(se.path))
			r->bottleneck_leaf = rows_own(r, xstrdup(json_string_value(
				json_array_get(se.path, json_array_size(se.path) - 1))));
	}
	if (!r->nr_nodes)
		event_rows(j, r);
	scope_eval_release(&se);
}

static json_t *scope_json_grouped(const struct scope_job *j)
{
	struct scope_eval se;
	json_t *o = json_object();
	/* no hardware count: nothing of the tree was measured (analyze/software.c) */
	int hw = td_scope_hardware_counts(j->s, j->pmu) > 0;

	scope_eval_init(&se, j, hw);
	scope_head_json(o, &se, hw);
	json_object_set_new(o, "literals", literals_json(&se));
	if (se.t) {
		tree_json(o, &se);
	} else {
		json_object_set_new(o, "nodes", json_array());
		json_object_set_new(o, "bottleneck", json_null());
		json_object_set_new(o, "metrics", json_array());
	}
	scope_tail_json(o, &se);
	scope_eval_release(&se);
	return o;
}

/*
 * The scope with its group boundaries where perf's printed metrics put
 * them (analyze/groups.c), or NULL when they stay.  A hint per printed
 * metric matched to a node: its line and its formula's events.
 */
static struct td_scope *regroup_by_metrics(const struct scope_job *j)
{
	const struct td_table *t = j->table;
	size_t i, n = td_table_nr_metrics(t), nh = 0;
	struct names *ns = xcalloc(j->s->nr_perf_metrics + 1, sizeof(*ns));
	struct td_group_hint *h = xcalloc(j->s->nr_perf_metrics + 1, sizeof(*h));
	struct td_scope *copy;

	for (i = 0; i < n; i++) {
		const struct td_metric *m = td_table_metric(t, i);
		const struct td_perf_metric *pm;

		if (m->level < 1 || nh >= j->s->nr_perf_metrics)
			continue;
		pm = perf_value_for(j->s, j->pmu, m);
		if (!pm || !pm->line)
			continue;
		ns[nh].t = t;
		names_add_expr(&ns[nh], m->expr);
		h[nh].line = pm->line;
		h[nh].events = ns[nh].v;
		h[nh].nr = ns[nh].n;
		nh++;
	}
	copy = td_scope_regroup(j->s, j->pmu, h, nh);
	for (i = 0; i < nh; i++)
		names_release(&ns[i]);
	free(ns);
	free(h);
	return copy;
}

/* One scope, on the groups perf's printed metrics show. */
/*
 * Call fn on the scope with its group boundaries where perf's printed
 * metrics put them (regroup_by_metrics), else as it is.
 */
static void with_perf_groups(const struct scope_job *j, void (*fn)(const struct scope_job *j, void *ctx),
			     void *ctx)
{
	struct scope_job copy = *j;
	struct td_scope *regrouped = NULL;

	printed_names_forget();
	if (j->table && j->s->nr_groups > 1 && j->s->nr_perf_metrics)
		regrouped = regroup_by_metrics(j);
	if (regrouped)
		copy.s = regrouped;
	printed_names_forget();
	fn(&copy, ctx);
	printed_names_forget();
	td_scope_regroup_free(regrouped);
}

static void append_scope_json(const struct scope_job *j, void *scopes)
{
	json_array_append_new(scopes, scope_json_grouped(j));
}

struct rows_emit {
	void (*fn)(const struct td_scope_rows *rows, void *ctx);
	void *ctx;
};

static void emit_scope_rows(const struct scope_job *j, void *vctx)
{
	struct rows_emit *e = vctx;
	struct td_scope_rows r;

	scope_rows_grouped(j, &r);
	e->fn(&r, e->ctx);
	td_scope_rows_release(&r);
}

/* ---------------- derived totals ---------------- */

/*
 * Sessions with only per-CPU, per-thread or per-interval scopes get a
 * total: the sum of each event over the scopes (counts add up; the
 * running percentage is the lowest seen, so a scaled input stays marked).
 */
struct td_scope *td_scope_sum_new(void)
{
	struct td_scope *sum = xcalloc(1, sizeof(*sum));

	sum->kind = TD_SCOPE_TOTAL;
	sum->time = NAN;
	return sum;
}

/* The count of sum that c adds up into, made when there is none yet. */
static struct td_count *sum_count(struct td_scope *sum, const struct td_count *c)
{
	struct td_count *d;
	size_t m;

	for (m = 0; m < sum->nr_counts; m++)
		if (sum->counts[m].group == c->group && !strcmp(sum->counts[m].key, c->key ? c->key : "") &&
		    !strcmp(sum->counts[m].pmu ? sum->counts[m].pmu : "", c->pmu ? c->pmu : ""))
			return &sum->counts[m];
	TD_GROW(sum->counts, sum->alloc_counts, sum->nr_counts + 1);
	d = &sum->counts[sum->nr_counts++];
	memset(d, 0, sizeof(*d));
	d->event = xstrdup(c->event);
	d->pmu = c->pmu ? xstrdup(c->pmu) : NULL;
	d->modifiers = c->modifiers ? xstrdup(c->modifiers) : NULL;
	d->unit = c->unit ? xstrdup(c->unit) : NULL;
	d->key = xstrdup(c->key ? c->key : "");
	d->group = c->group;
	d->status = c->status;
	d->value = c->status == TD_COUNT_OK ? 0 : NAN;
	d->running_pct = c->running_pct;
	d->enabled_ns = d->running_ns = d->variance_pct = NAN;
	d->line = c->line;
	if (c->group + 1 > sum->nr_groups)
		sum->nr_groups = c->group + 1;
	return d;
}

void td_scope_sum_add(struct td_scope *sum, const struct td_scope *s)
{
	size_t k;

	for (k = 0; k < s->nr_counts; k++) {
		const struct td_count *c = &s->counts[k];
		struct td_count *d = sum_count(sum, c);

		if (c->status == TD_COUNT_OK) {
			if (d->status != TD_COUNT_OK) {
				d->status = TD_COUNT_OK;
				d->value = 0;
			}
			d->value += c->value;
		}
		if (!isnan(c->running_pct) && (isnan(d->running_pct) || c->running_pct < d->running_pct))
			d->running_pct = c->running_pct;
	}
}

static struct td_scope *sum_scopes(const struct td_stat *st, int *n_out)
{
	struct td_scope *sum = td_scope_sum_new();
	size_t i;

	for (i = 0; i < st->nr_scopes; i++)
		td_scope_sum_add(sum, &st->scopes[i]);
	*n_out = (int)st->nr_scopes;
	return sum;
}

static void free_sum(struct td_scope *s)
{
	td_scope_release(s);
	free(s);
}

/*
 * The derived total of a session without one, with its interval spreads
 * (n: scopes summed); a streamed import's is the import's own.
 */
static const struct td_scope *session_sum(const struct td_import *imp, const struct td_stat *st, int *n,
					  struct td_scope **owned)
{
	const struct td_scope *streamed;
	size_t nr;

	*owned = NULL;
	if ((streamed = td_import_streamed_sum(imp, &nr))) {
		*n = (int)nr;
		return streamed;
	}
	*owned = sum_scopes(st, n);
	td_scope_spread_from_intervals(*owned, st);
	return *owned;
}

/* ---------------- the document ---------------- */

/*
 * How this CPU's Level 1 is defined, one sentence: the table's own
 * "topdown.method" (Arm cores differ from each other), else the
 * vendor's method, so a diff across vendors can say where the same ids
 * measure different things.
 */
static const char *topdown_method(const struct td_table *t)
{
	const char *m = td_table_param_string(t, "topdown.method");
	const char *v = td_table_info(t)->vendor;

	if (m)
		return m;
	if (v && !strcmp(v, "GenuineIntel"))
		return "Intel TMA: fractions of the issue (allocation) slots, 4-8 per cycle; Bad Speculation "
		       "includes the slots lost recovering from mispredictions and clears.";
	if (v && !strcmp(v, "AuthenticAMD"))
		return "AMD: fractions of the dispatch slots (6 or 8 per cycle); Bad Speculation = dispatched "
		       "operations that did not retire, with no recovery slots; SMT Contention is its own node.";
	return NULL;
}

static json_t *table_json(const struct td_table *t, const char *pmu)
{
	const struct td_table_info *info = td_table_info(t);
	json_t *o = json_object();

	json_object_set_new(o, "name", jstr(info->name));
	json_object_set_new(o, "display", jstr(info->display));
	json_object_set_new(o, "vendor", jstr(info->vendor));
	json_object_set_new(o, "pmu", jstr(pmu ? pmu : info->pmu));
	json_object_set_new(o, "core_type", jstr(info->core_type));
	/* null: a width no CPU gives (the perf-topdown table of perf's printed values) */
	json_object_set_new(o, "slots_per_cycle", jnum(info->slots_per_cycle > 0 ? info->slots_per_cycle : NAN));
	json_object_set_new(o, "source", jstr(info->source));
	json_object_set_new(o, "topdown_method", jstr(topdown_method(t)));
	return o;
}

/*
 * Call fn on each section of parsed scope s: one per big.LITTLE cluster,
 * cpu_core and cpu_atom on hybrid Intel, else the scope itself.
 */
static void each_section(const struct td_import *imp, const struct td_report_opts *opts, size_t si,
			 const struct td_scope *s, const char *derived,
			 void (*fn)(const struct scope_job *j, void *ctx), void *ctx)
{
	struct scope_job j;
	const struct td_stat *st = &imp->stat->sessions[si];

	memset(&j, 0, sizeof(j));
	j.imp = imp;
	j.opts = opts;
	j.st = st;
	j.s = s;
	j.session = si;
	j.derived = derived;
	if (imp->nr_clusters && imp->table) {
		size_t c;

		for (c = 0; c < imp->nr_clusters; c++) {
			j.pmu = imp->clusters[c].pmu;
			j.table = imp->clusters[c].table;
			with_perf_groups(&j, fn, ctx);
		}
	} else if (st->hybrid && imp->table) {
		j.pmu = "cpu_core";
		j.table = imp->table;
		with_perf_groups(&j, fn, ctx);
		j.pmu = "cpu_atom";
		j.table = imp->atom_table;
		with_perf_groups(&j, fn, ctx);
	} else {
		j.table = imp->table;
		with_perf_groups(&j, fn, ctx);
	}
}

void td_report_add_scopes(json_t *scopes, const struct td_import *imp,
			  const struct td_report_opts *opts, size_t si, const struct td_scope *s, const char *derived,
			  json_t *warnings)
{
	(void)warnings;
	each_section(imp, opts, si, s, derived, append_scope_json, scopes);
}

void td_report_scope_rows(const struct td_import *imp, const struct td_report_opts *opts, size_t si,
			  const struct td_scope *s, void (*fn)(const struct td_scope_rows *rows, void *ctx),
			  void *ctx)
{
	struct rows_emit e = { fn, ctx };

	each_section(imp, opts, si, s, NULL, emit_scope_rows, &e);
}

static json_t *session_json(const struct td_stat *st, size_t i)
{
	json_t *o = json_object();

	json_object_set_new(o, "index", json_integer((json_int_t)i + 1));
	json_object_set_new(o, "format", json_string(st->format));
	json_object_set_new(o, "line", st->line ? json_integer(st->line) : json_null());
	json_object_set_new(o, "target", jstr(st->target));
	json_object_set_new(o, "perf_version", jstr(st->perf_version));
	json_object_set_new(o, "repeats", json_integer(st->repeats));
	json_object_set_new(o, "interval", json_boolean(st->interval));
	json_object_set_new(o, "hybrid", json_boolean(st->hybrid));
	json_object_set_new(o, "legacy_topdown", json_boolean(st->legacy_topdown));
	json_object_set_new(o, "elided", json_boolean(st->elided));
	json_object_set_new(o, "elapsed_s", jnum(st->elapsed_s));
	json_object_set_new(o, "elapsed_source", isnan(st->elapsed_s) ? json_null() :
			    json_string(st->elapsed_from_run ? "run" : "perf"));
	json_object_set_new(o, "user_s", jnum(st->user_s));
	json_object_set_new(o, "sys_s", jnum(st->sys_s));
	return o;
}

static json_t *td_report_build(const struct td_import *imp, const struct td_report_opts *opts)
{
	json_t *doc = json_object(), *scopes = json_array(), *warnings = json_array();
	json_t *sessions = json_array(), *tables = json_array(), *w;
	size_t i, k;

	json_object_set_new(doc, "schema", json_string("tdperf-report"));
	json_object_set_new(doc, "version", json_integer(TD_REPORT_SCHEMA_VERSION));
	json_object_set_new(doc, "run", json_deep_copy(imp->meta));
	json_object_set_new(doc, "table", imp->table ? table_json(imp->table, NULL) : json_null());
	if (imp->table)
		json_array_append_new(tables, table_json(imp->table, imp->atom_table ? "cpu_core" :
							 imp->nr_clusters ? imp->clusters[0].pmu : NULL));
	for (i = 1; i < imp->nr_clusters; i++)
		json_array_append_new(tables, table_json(imp->clusters[i].table, imp->clusters[i].pmu));
	if (imp->atom_table)
		json_array_append_new(tables, table_json(imp->atom_table, "cpu_atom"));
	json_object_set_new(doc, "tables", tables);
	json_object_set_new(doc, "options", json_pack("{s:i}", "max_level", opts ? opts->max_level : 0));
	td_count_memo_reset();
	td_reason_memo_reset();
	needs_core_table = NULL;
	for (i = 0; i < imp->stat->nr_sessions; i++) {
		const struct td_stat *st = &imp->stat->sessions[i];
		int has_total = 0;

		json_array_append_new(sessions, session_json(st, i));
		for (k = 0; k < st->nr_scopes; k++)
			if (st->scopes[k].kind == TD_SCOPE_TOTAL && isnan(st->scopes[k].time))
				has_total = 1;
		if (!has_total && st->nr_scopes > 0) {
			int n;
			struct td_scope *owned;
			const struct td_scope *sum = session_sum(imp, st, &n, &owned);
			struct strbuf d = STRBUF_INIT;
			strbuf_addf(&d, "sum of %d %s scopes", n, st->interval ?
				    (st->scopes[0].kind == TD_SCOPE_TOTAL ? "interval" :
				     td_scope_kind_name(st->scopes[0].kind)) :
				    td_scope_kind_name(st->scopes[0].kind));
			td_report_add_scopes(scopes, imp, opts, i, sum, d.buf, warnings);
			strbuf_release(&d);
			if (owned)
				free_sum(owned);
		}
		for (k = 0; k < st->nr_scopes; k++)
			if (!(opts && opts->stream_scopes) || td_scope_is_main(&st->scopes[k]))
				td_report_add_scopes(scopes, imp, opts, i, &st->scopes[k], NULL, warnings);
		if (st->hybrid && !imp->atom_table && imp->table)
			json_array_append_new(warnings, json_pack("{s:s,s:s}", "severity", "warning", "text",
				"hybrid CPU but no table for the cpu_atom PMU: its events are shown as counts only"));
	}
	td_count_memo_reset();
	td_reason_memo_reset();
	needs_core_table = NULL;
	json_object_set_new(doc, "sessions", sessions);
	json_object_set_new(doc, "scopes", scopes);
	json_object_set_new(doc, "threads", json_null());
	json_object_set_new(doc, "roofline", json_null());
	json_array_foreach(imp->warnings, i, w)
		json_array_append_new(warnings, json_pack("{s:s,s:O}", "severity", "warning", "text", w));
	json_object_set_new(doc, "warnings", warnings);
	return doc;
}

/*
 * An input imported on the fly has no run directory: of the files that
 * 'tdperf import' would write (meta.json, table.json, input/...) none
 * exists.  The run lists the one file there is, as it was named.
 */
static void only_the_input_file(json_t *doc, const char *path)
{
	json_t *run = json_object_get(doc, "run"), *files, *f, *input = NULL;
	size_t i;

	files = json_object_get(run, "files");
	json_array_foreach(files, i, f)
		if (td_json_str(f, "role") && !strcmp(td_json_str(f, "role"), "input"))
			input = f;
	if (!json_is_object(run) || !input)
		return;
	input = json_pack("{s:s, s:s, s:O}", "name", path, "role", "input",
			  "format", json_object_get(input, "format") ? json_object_get(input, "format") : json_null());
	json_object_set_new(run, "files", json_pack("[o]", input));
}

/* The document, with the runs of 'record -r N' as one (analyze/repeat.c). */
static json_t *build_combining_repeats(struct td_import *imp, const struct td_report_opts *opts)
{
	int runs = opts && opts->keep_runs ? 0 : td_repeat_runs(imp);
	struct td_report_opts whole;
	json_t *runs_doc, *doc;

	if (!runs) {
		doc = td_report_build(imp, opts);
		td_repeat_note_perf(doc);
		td_repeat_mark_recorded_warnings(doc);
		return doc;
	}
	/* no intervals here: the document is kept whole, each scope with its spread */
	if (opts) {
		whole = *opts;
		whole.stream_scopes = 0;
		opts = &whole;
	}
	runs_doc = td_report_build(imp, opts);
	td_repeat_combine(imp, runs);
	doc = td_report_build(imp, opts);
	td_repeat_annotate(doc, runs_doc, runs);
	td_repeat_mark_recorded_warnings(doc);
	json_decref(runs_doc);
	return doc;
}

/* Were the runs of record -r combined (the document then is whole)? */
static int runs_combined(json_t *doc)
{
	const char *src = td_json_str(json_object_get(doc, "repeat"), "source");

	return src && !strcmp(src, "record");
}

json_t *td_report_load(const char *run_or_file, const struct td_report_opts *opts,
		       struct strbuf *err)
{
	return td_report_load_data(run_or_file, NULL, opts, err);
}

json_t *td_report_load_data(const char *run_or_file, struct strbuf *data,
			    const struct td_report_opts *opts, struct strbuf *err)
{
	struct td_import imp;
	json_t *doc;
	char prog[] = "tdperf", cmd[] = "report";
	char *argv[] = { prog, cmd, (char *)run_or_file, NULL };
	int r;

	int on_the_fly;

	on_the_fly = data || !td_is_dir(run_or_file);
	if (data)
		r = opts->argv ? td_import_data(run_or_file, data, opts, opts->argc, opts->argv, &imp, err)
			       : td_import_data(run_or_file, data, opts, 3, argv, &imp, err);
	else if (!on_the_fly)
		r = td_run_load(run_or_file, opts, &imp, err);
	else if (opts->argv)
		r = td_import_load(run_or_file, opts, opts->argc, opts->argv, &imp, err);
	else
		r = td_import_load(run_or_file, opts, 3, argv, &imp, err);
	if (r < 0) {
		td_import_release(&imp);
		return NULL;
	}
	doc = build_combining_repeats(&imp, opts);
	if (doc && opts->stream_scopes && !runs_combined(doc))
		td_report_stream_keep(doc, &imp, opts); /* analyze/stream.c: imp moves there */
	else
		td_import_release(&imp);
	if (doc)
		td_report_add_phases(doc); /* analyze/phases.c: after the stream, which holds the intervals */
	if (doc && on_the_fly)
		only_the_input_file(doc, run_or_file);
	if (doc)
		td_report_threads_or_warn(doc, run_or_file); /* threads work: analyze/threads-json.c */
	if (doc && !on_the_fly)
		td_report_add_drilldown(doc, run_or_file, err); /* analyze/drilldown.c */
	if (doc)
		td_report_add_extra_events(doc); /* record -e: analyze/extra-events.c */
	/*
	 * The roofline places the run against this CPU's calibrated roofs;
	 * without a calibration it says so inside the document.  Only an
	 * unreadable formula file is an error.
	 */
	if (doc && td_report_add_roofline(doc, err) < 0) {
		json_decref(doc);
		return NULL;
	}
	if (doc && td_report_add_guidance(doc, err) < 0) { /* analyze/guidance.c */
		json_decref(doc);
		return NULL;
	}
	return doc;
}
