/*
 * The report of a --regions run (analyze/regions.h).
 */
#include "analyze/regions.h"
#include "metrics/table.h"
#include "metrics/tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ROOT_NAME "(root)"

/* The groups of the spec, as the library wrote them. */
struct layout {
	size_t nr_groups, nr_events, width;
	size_t *group_of;        /* event -> group */
	json_t *names;           /* event names, in spec order */
};

/* One region name, summed over processes and threads. */
struct agg {
	const char *name, *parent;
	double calls, measured;
	int threads;
	double *incl, *excl;     /* raw values, layout order */
	double *sin, *sex;       /* scaled counts per event, summed over threads */
	int *never_ran;          /* per group: threads whose passes it never ran in */
	json_t *per_thread;
	double **thread_sums;    /* per entry of per_thread: scaled counts, layout order */
	size_t nr_thread_sums, alloc_thread_sums;
	int depth;
	int done;
};

struct regions {
	struct layout l;
	struct agg *a;
	size_t nr, alloc;
	unsigned long sample;
	const struct td_table *table;
	int smt;                 /* #smt_on, -1 unknown */
	int max_level;
	json_t *warnings;
	json_t *timeline;        /* per thread: its logged passes (add_instances) */
	double dropped;          /* passes past the library's log bound */
	json_int_t log_limit;    /* that bound, passes per thread */
};

static size_t enabled_at(size_t g)
{
	return 1 + 2 * g;
}

static size_t count_at(const struct layout *l, size_t e)
{
	return 1 + 2 * l->nr_groups + e;
}

/* The layout of the first file; every other must have the same groups. */
static int read_layout(struct regions *rs, json_t *groups, const char *file, struct strbuf *err)
{
	struct layout *l = &rs->l;
	size_t g, e, n = 0;
	json_t *grp;

	if (!json_is_array(groups) || !json_array_size(groups))
		return strbuf_addf(err, "%s: no groups", file), -1;
	if (l->names) {
		json_t *names = json_array();
		int same;

		json_array_foreach(groups, g, grp)
			json_array_extend(names, json_object_get(grp, "events"));
		same = json_equal(names, l->names) && json_array_size(groups) == l->nr_groups;
		json_decref(names);
		if (!same)
			return strbuf_addf(err, "%s: other groups than the run's other regions files", file), -1;
		return 0;
	}
	l->names = json_array();
	l->nr_groups = json_array_size(groups);
	json_array_foreach(groups, g, grp)
		n += json_array_size(json_object_get(grp, "events"));
	l->group_of = xcalloc(n + 1, sizeof(*l->group_of));
	json_array_foreach(groups, g, grp) {
		json_t *ev = json_object_get(grp, "events"), *name;

		json_array_foreach(ev, e, name) {
			if (!json_is_string(name))
				return strbuf_addf(err, "%s: an event name is not a string", file), -1;
			l->group_of[l->nr_events++] = g;
			json_array_append(l->names, name);
		}
	}
	l->width = 1 + 2 * l->nr_groups + l->nr_events;
	return 0;
}

/* A region's "inclusive" or "exclusive" object into w raw values. */
static int read_values(const struct layout *l, json_t *o, double *v)
{
	json_t *en = json_object_get(o, "enabled_ns"), *run = json_object_get(o, "running_ns"),
	       *counts = json_object_get(o, "counts");
	size_t g, e;

	if (!json_is_integer(json_object_get(o, "time_ns")) || json_array_size(en) != l->nr_groups ||
	    json_array_size(run) != l->nr_groups || json_array_size(counts) != l->nr_events)
		return -1;
	v[0] = (double)json_integer_value(json_object_get(o, "time_ns"));
	for (g = 0; g < l->nr_groups; g++) {
		v[enabled_at(g)] = (double)json_integer_value(json_array_get(en, g));
		v[enabled_at(g) + 1] = (double)json_integer_value(json_array_get(run, g));
	}
	for (e = 0; e < l->nr_events; e++)
		v[count_at(l, e)] = (double)json_integer_value(json_array_get(counts, e));
	return 0;
}

static struct agg *find_agg(struct regions *rs, const char *name, const char *parent)
{
	size_t i;

	for (i = 0; i < rs->nr; i++)
		if (!strcmp(rs->a[i].name, name))
			return &rs->a[i];
	TD_GROW(rs->a, rs->alloc, rs->nr + 1);
	memset(&rs->a[rs->nr], 0, sizeof(rs->a[rs->nr]));
	rs->a[rs->nr].name = name;
	rs->a[rs->nr].parent = parent;
	rs->a[rs->nr].incl = xcalloc(rs->l.width, sizeof(double));
	rs->a[rs->nr].excl = xcalloc(rs->l.width, sizeof(double));
	rs->a[rs->nr].sin = xcalloc(rs->l.nr_events + 1, sizeof(double));
	rs->a[rs->nr].sex = xcalloc(rs->l.nr_events + 1, sizeof(double));
	rs->a[rs->nr].never_ran = xcalloc(rs->l.nr_groups + 1, sizeof(int));
	rs->a[rs->nr].per_thread = json_array();
	return &rs->a[rs->nr++];
}

/* ---------------- scaled counts and trees ---------------- */

/*
 * Event e's count over the passes v sums: the raw count times its group's
 * enabled / running time (the kernel's multiplexing estimate), times
 * calls / measured passes (--region-sample).  NAN when never counted.
 */
static double scaled(const struct layout *l, const double *v, size_t e, double factor)
{
	size_t g = l->group_of[e];
	double en = v[enabled_at(g)], run = v[enabled_at(g) + 1];

	if (run <= 0)
		return NAN;
	return v[count_at(l, e)] * (en / run) * factor;
}

static json_t *number_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

/*
 * Counts by name.  An event in several groups (the cycles each group
 * repeats) is counted once per group; the count shown is its first
 * counted copy, the one the tree's all-counts evaluation reads (a short
 * region may have seen some groups never run).  The tree's nodes take
 * their own group's copies (own_group).
 */
static json_t *sums_json(const struct layout *l, const double *sums)
{
	json_t *o = json_object();
	size_t e, k;

	for (e = 0; e < l->nr_events; e++) {
		const char *name = json_string_value(json_array_get(l->names, e));
		double v = NAN;

		if (json_object_get(o, name))
			continue;
		for (k = e; k < l->nr_events && isnan(v); k++)
			if (!strcmp(name, json_string_value(json_array_get(l->names, k))))
				v = sums[k];
		json_object_set_new(o, name, number_or_null(v));
	}
	return o;
}

/* Every event's scaled count over the passes v sums (a new array). */
static double *scaled_all(const struct layout *l, const double *v, double factor)
{
	double *sums = xcalloc(l->nr_events + 1, sizeof(double));
	size_t e;

	for (e = 0; e < l->nr_events; e++)
		sums[e] = scaled(l, v, e, factor);
	return sums;
}

/* The share of its time a region's least-counted group ran (1: never multiplexed). */
static double min_running_share(const struct layout *l, const double *v)
{
	double min = 1;
	size_t g;

	for (g = 0; g < l->nr_groups; g++)
		if (v[enabled_at(g)] > 0 && v[enabled_at(g) + 1] / v[enabled_at(g)] < min)
			min = v[enabled_at(g) + 1] / v[enabled_at(g)];
	return min;
}

/*
 * The evaluator's view of one set of scaled counts (layout order): all of
 * them (group -1: each name's first counted copy, as the perf stat path
 * reads counts of no particular group), or one group's alone; with
 * metrics set, the chosen value of every node by its id.
 */
struct lookup_ctx {
	const struct layout *l;
	const double *sums;
	long group;
	const struct td_table *table;
	const double *metrics;   /* by table index, or NULL */
	int smt;
	double seconds;
};

static int lookup(void *vctx, const char *name, double *v)
{
	struct lookup_ctx *cx = vctx;
	size_t e;

	if (!strcasecmp(name, "#smt_on")) {
		if (cx->smt < 0)
			return -1;
		*v = cx->smt;
		return 0;
	}
	if (!strcasecmp(name, "duration_time")) {
		*v = cx->seconds;
		return cx->seconds > 0 ? 0 : -1;
	}
	if (cx->metrics) {
		size_t i, n = td_table_nr_metrics(cx->table);

		for (i = 0; i < n; i++)
			if (!strcmp(td_table_metric(cx->table, i)->id, name)) {
				if (isnan(cx->metrics[i]))
					return -1;
				*v = cx->metrics[i];
				return 0;
			}
	}
	for (e = 0; e < cx->l->nr_events; e++)
		if ((cx->group < 0 || cx->l->group_of[e] == (size_t)cx->group) && !isnan(cx->sums[e]) &&
		    !strcmp(name, json_string_value(json_array_get(cx->l->names, e)))) {
			*v = cx->sums[e];
			return 0;
		}
	return -1;
}

static void eval_on(const struct regions *rs, struct lookup_ctx *cx, int env_sets_metrics,
		    int with_info, struct td_tree_result *res)
{
	struct td_env env = { lookup, cx };
	struct td_tree_opts topts = { 0 };

	topts.max_level = rs->max_level;
	topts.no_info = !with_info;
	topts.env_sets_metrics = env_sets_metrics;
	td_tree_eval(rs->table, &env, &topts, res);
}

/*
 * The group node i takes its value from, -1 for all counts.  perf
 * evaluates a metric on the counts of its own group (issue 30; the perf
 * stat path's node_group in analyze/build.c): the first group whose
 * counts alone compute the node, no more approximately than all counts
 * do.  An event several groups repeat (the clocks) is so never regated
 * across groups that ran at different times; a node no group computes
 * alone takes each name's first counted copy.
 */
static int own_group(const struct td_tree_result *all, const struct td_tree_result *per_group,
		     size_t groups, size_t i)
{
	size_t g;

	for (g = 0; g < groups; g++) {
		const struct td_node_value *own = &per_group[g].nodes[i];

		if (!isnan(own->value) && (!own->approximate || all->nodes[i].approximate))
			return (int)g;
	}
	return -1;
}

static size_t metric_index(const struct td_table *t, const struct td_metric *m)
{
	return (size_t)(m - td_table_metric(t, 0));
}

/*
 * The tree on one set of scaled counts: "nodes" (each with the "group"
 * its value came from) and "bottleneck" into o.  When nodes take values
 * from different groups, the flags and the path are decided again on the
 * values chosen.  With stacks, the CPI stack and the others (the run's
 * "stacks" object, analyze/stacks.c) on those values, the info metrics
 * (CPI) on all counts.
 */
static void add_tree(const struct regions *rs, json_t *o, const double *sums, double seconds,
		     int with_stacks)
{
	struct lookup_ctx cx = { &rs->l, sums, -1, rs->table, NULL, rs->smt, seconds };
	struct td_tree_result all, final, *per_group;
	json_t *nodes = json_array(), *path = json_array();
	size_t i, g, groups = rs->l.nr_groups;
	double *values;
	int *chosen, regated = 0; /* flags and path decided again on the chosen values */

	if (!rs->table || !td_table_has_tree(rs->table)) {
		json_object_set_new(o, "nodes", nodes);
		json_object_set_new(o, "bottleneck", path);
		return;
	}
	eval_on(rs, &cx, 0, 0, &all);
	per_group = xcalloc(groups + 1, sizeof(*per_group));
	for (g = 0; g < groups; g++) {
		cx.group = (long)g;
		eval_on(rs, &cx, 0, 0, &per_group[g]);
	}
	values = xcalloc(td_table_nr_metrics(rs->table) + 1, sizeof(*values));
	for (i = 0; i < td_table_nr_metrics(rs->table); i++)
		values[i] = NAN;
	chosen = xcalloc(all.nr_nodes + 1, sizeof(*chosen));
	for (i = 0; i < all.nr_nodes; i++) {
		const struct td_node_value *src;

		chosen[i] = own_group(&all, per_group, groups, i);
		src = chosen[i] >= 0 ? &per_group[chosen[i]].nodes[i] : &all.nodes[i];
		values[metric_index(rs->table, all.nodes[i].metric)] = src->value;
		if (src->value != all.nodes[i].value && !(isnan(src->value) && isnan(all.nodes[i].value)))
			regated = 1;
	}
	cx.group = -1;
	cx.metrics = values;
	regated |= with_stacks;
	if (regated)
		eval_on(rs, &cx, 1, with_stacks, &final);
	for (i = 0; i < all.nr_nodes; i++) {
		const struct td_node_value *src = chosen[i] >= 0 ? &per_group[chosen[i]].nodes[i] : &all.nodes[i];
		const struct td_node_value *gate = regated ? &final.nodes[i] : &all.nodes[i];
		json_t *node = json_pack("{s:s, s:s, s:o, s:i, s:o, s:b, s:b, s:o}", "id", src->metric->id,
					 "name", src->metric->name,
					 "parent", src->metric->parent ? json_string(src->metric->parent) : json_null(),
					 "level", src->metric->level, "value", number_or_null(src->value),
					 "flagged", gate->flagged, "bottleneck", gate->bottleneck,
					 "group", chosen[i] >= 0 ? json_integer(chosen[i]) : json_null());

		if (src->reason)
			json_object_set_new(node, "reason", json_string(src->reason));
		json_array_append_new(nodes, node);
	}
	for (i = 0; i < (regated ? final.nr_path : all.nr_path); i++)
		json_array_append_new(path, json_string(regated ? final.path[i] : all.path[i]));
	json_object_set_new(o, "nodes", nodes);
	json_object_set_new(o, "bottleneck", path);
	json_object_set_new(o, "ambiguous", json_boolean(regated ? final.ambiguous : all.ambiguous));
	if (with_stacks) {
		struct td_env env = { lookup, &cx };

		td_report_fill_stacks(o, rs->table, &env, &final);
	}
	if (regated)
		td_tree_result_release(&final);
	for (g = 0; g < groups; g++)
		td_tree_result_release(&per_group[g]);
	td_tree_result_release(&all);
	free(per_group);
	free(values);
	free(chosen);
}

/* ---------------- the timeline: each logged pass ---------------- */

/*
 * Level 1 of the table's tree on one pass's scaled counts (layout order):
 * {node name: value}, from each name's first counted copy (a pass is too
 * short for the own-group choice the region's totals get).
 */
static json_t *level1_json(const struct regions *rs, const double *sums, double seconds)
{
	struct lookup_ctx cx = { &rs->l, sums, -1, rs->table, NULL, rs->smt, seconds };
	struct td_env env = { lookup, &cx };
	struct td_tree_opts topts = { 0 };
	struct td_tree_result res;
	json_t *o = json_object();
	size_t i;

	if (!rs->table || !td_table_has_tree(rs->table))
		return o;
	topts.max_level = 1;
	topts.no_info = 1;
	topts.no_reasons = 1;
	td_tree_eval(rs->table, &env, &topts, &res);
	for (i = 0; i < res.nr_nodes; i++)
		if (res.nodes[i].metric->level == 1)
			json_object_set_new(o, res.nodes[i].metric->name, number_or_null(res.nodes[i].value));
	td_tree_result_release(&res);
	return o;
}

/* Passes by begin time; a pass nested in one that began at the same time after it. */
static int by_begin(const void *pa, const void *pb)
{
	json_t *a = *(json_t *const *)pa, *b = *(json_t *const *)pb;
	json_int_t ta = json_integer_value(json_object_get(a, "begin_ns"));
	json_int_t tb = json_integer_value(json_object_get(b, "begin_ns"));

	if (ta != tb)
		return ta < tb ? -1 : 1;
	return (int)(json_integer_value(json_object_get(a, "depth")) -
		     json_integer_value(json_object_get(b, "depth")));
}

/*
 * The thread's logged passes (regions/tdperf.c logs each measured pass,
 * up to its bound): name, depth, begin (CLOCK_MONOTONIC, made relative to
 * the run's first pass in finish_timeline), duration, scaled counts and
 * Level 1.  A pass whose groups were multiplexed is an estimate.
 */
static int add_instances(struct regions *rs, json_t *thread, int pid, const char *file,
			 struct strbuf *err)
{
	json_t *regions = json_object_get(thread, "regions"), *list = json_array(), *x;
	double *v = xcalloc(rs->l.width, sizeof(double));
	json_t **sorted;
	size_t i, g;
	int ret = 0;

	rs->dropped += (double)json_integer_value(json_object_get(thread, "instances_dropped"));
	json_array_foreach(json_object_get(thread, "instances"), i, x) {
		json_t *r = json_array_get(regions, (size_t)json_integer_value(json_object_get(x, "region")));
		const char *name = json_string_value(json_object_get(r, "name"));
		json_t *o, *counts;
		double *sums;
		int estimate = 0;

		if (!name || !json_is_integer(json_object_get(x, "begin_ns")) ||
		    read_values(&rs->l, json_object_get(x, "values"), v) < 0) {
			strbuf_addf(err, "%s: instance %zu of thread %lld is malformed", file, i + 1,
				    (long long)json_integer_value(json_object_get(thread, "tid")));
			ret = -1;
			break;
		}
		for (g = 0; g < rs->l.nr_groups; g++)
			if (v[enabled_at(g)] > v[enabled_at(g) + 1])
				estimate = 1;
		sums = scaled_all(&rs->l, v, 1);
		counts = sums_json(&rs->l, sums);
		o = json_pack("{s:s, s:O, s:O, s:f, s:b}", "name", name, "depth", json_object_get(x, "depth"),
			      "begin_ns", json_object_get(x, "begin_ns"), "time_s", v[0] / 1e9,
			      "estimate", estimate);
		json_object_set_new(o, "level1", level1_json(rs, sums, v[0] / 1e9));
		free(sums);
		json_object_set_new(o, "counts", counts);
		json_array_append_new(list, o);
	}
	free(v);
	sorted = xcalloc(json_array_size(list) + 1, sizeof(*sorted));
	json_array_foreach(list, i, x)
		sorted[i] = json_incref(x);
	qsort(sorted, json_array_size(list), sizeof(*sorted), by_begin);
	json_array_clear(list);
	for (i = 0; sorted[i]; i++)
		json_array_append_new(list, sorted[i]);
	free(sorted);
	if (json_array_size(list))
		json_array_append_new(rs->timeline, json_pack("{s:i, s:I, s:o}", "pid", pid, "tid",
			json_integer_value(json_object_get(thread, "tid")), "instances", list));
	else
		json_decref(list);
	return ret;
}

/* Begin times as seconds from the run's first logged pass (one clock for all processes). */
static json_t *finish_timeline(struct regions *rs)
{
	json_int_t origin = 0;
	json_t *th, *x;
	size_t i, k;
	int first = 1;

	json_array_foreach(rs->timeline, i, th)
		json_array_foreach(json_object_get(th, "instances"), k, x) {
			json_int_t b = json_integer_value(json_object_get(x, "begin_ns"));

			if (first || b < origin)
				origin = b;
			first = 0;
		}
	json_array_foreach(rs->timeline, i, th)
		json_array_foreach(json_object_get(th, "instances"), k, x) {
			json_int_t b = json_integer_value(json_object_get(x, "begin_ns"));

			json_object_set_new(x, "start_s", json_real((double)(b - origin) / 1e9));
			json_object_del(x, "begin_ns");
		}
	return json_pack("{s:O, s:I, s:I}", "threads", rs->timeline, "dropped", (json_int_t)rs->dropped,
			 "per_thread_limit", rs->log_limit);
}

/* ---------------- reading the files ---------------- */

static int add_thread(struct regions *rs, json_t *thread, int pid, const char *file, struct strbuf *err)
{
	json_t *regions = json_object_get(thread, "regions"), *r;
	double *in = xcalloc(rs->l.width, sizeof(double)), *ex = xcalloc(rs->l.width, sizeof(double));
	size_t i, k;
	int ret = 0;

	if (!json_is_array(regions)) {
		ret = -1;
		strbuf_addf(err, "%s: a thread without regions", file);
	}
	json_array_foreach(regions, i, r) {
		const char *name = json_string_value(json_object_get(r, "name"));
		const char *parent = json_string_value(json_object_get(r, "parent"));
		double calls = (double)json_integer_value(json_object_get(r, "calls"));
		double measured = (double)json_integer_value(json_object_get(r, "measured"));
		struct agg *a;
		json_t *t;

		if (!name || read_values(&rs->l, json_object_get(r, "inclusive"), in) < 0 ||
		    read_values(&rs->l, json_object_get(r, "exclusive"), ex) < 0) {
			strbuf_addf(err, "%s: region %zu of thread %lld is malformed", file, i + 1,
				    (long long)json_integer_value(json_object_get(thread, "tid")));
			ret = -1;
			break;
		}
		a = find_agg(rs, name, parent);
		a->calls += calls;
		a->measured += measured;
		a->threads++;
		for (k = 0; k < rs->l.width; k++) {
			a->incl[k] += in[k];
			a->excl[k] += ex[k];
		}
		for (k = 0; k < rs->l.nr_groups; k++)
			if (in[enabled_at(k)] > 0 && in[enabled_at(k) + 1] <= 0)
				a->never_ran[k]++;
		/* each thread scaled by its own groups' times: they multiplex apart */
		for (k = 0; k < rs->l.nr_events; k++) {
			a->sin[k] += scaled(&rs->l, in, k, measured > 0 ? calls / measured : 1);
			a->sex[k] += scaled(&rs->l, ex, k, 1);
		}
		t = json_pack("{s:i, s:I, s:I, s:I, s:f}", "pid", pid,
			      "tid", json_integer_value(json_object_get(thread, "tid")),
			      "calls", (json_int_t)calls, "measured_calls", (json_int_t)measured, "time_s", in[0] / 1e9);
		TD_GROW(a->thread_sums, a->alloc_thread_sums, a->nr_thread_sums + 1);
		a->thread_sums[a->nr_thread_sums] = scaled_all(&rs->l, in, measured > 0 ? calls / measured : 1);
		json_object_set_new(t, "counts", sums_json(&rs->l, a->thread_sums[a->nr_thread_sums++]));
		json_array_append_new(a->per_thread, t);
	}
	free(in);
	free(ex);
	return ret;
}

static int read_file(struct regions *rs, const char *dir, const char *name, json_t *docs,
		     struct strbuf *err)
{
	char *path = td_path_join(dir, name);
	json_error_t je;
	json_t *doc = json_load_file(path, 0, &je), *threads, *t, *w;
	size_t i;
	int ret = -1;

	if (!doc) {
		strbuf_addf(err, "%s: %s (line %d)", path, je.text, je.line);
		goto out;
	}
	if (strcmp(json_string_value(json_object_get(doc, "format")) ?
		   json_string_value(json_object_get(doc, "format")) : "", "tdperf-regions") ||
	    json_integer_value(json_object_get(doc, "version")) != 1) {
		strbuf_addf(err, "%s: not a regions file of libtdperf.so version 1", path);
		goto out;
	}
	if (read_layout(rs, json_object_get(doc, "groups"), path, err) < 0)
		goto out;
	rs->log_limit = json_integer_value(json_object_get(doc, "instances"));
	json_array_foreach(json_object_get(doc, "warnings"), i, w)
		json_array_append_new(rs->warnings, json_sprintf("process %lld: %s",
			(long long)json_integer_value(json_object_get(doc, "pid")), json_string_value(w)));
	threads = json_object_get(doc, "threads");
	json_array_foreach(threads, i, t) {
		json_t *en = json_object_get(t, "errno"), *x;
		size_t g;

		json_array_foreach(en, g, x)
			if (json_integer_value(x))
				json_array_append_new(rs->warnings, json_sprintf(
					"process %lld thread %lld: group %zu (%s) could not be opened "
					"(errno %lld): its events were not counted",
					(long long)json_integer_value(json_object_get(doc, "pid")),
					(long long)json_integer_value(json_object_get(t, "tid")), g + 1,
					json_string_value(json_object_get(json_array_get(
						json_object_get(doc, "groups"), g), "pmu")),
					(long long)json_integer_value(x)));
		if (add_thread(rs, t, (int)json_integer_value(json_object_get(doc, "pid")), path, err) < 0 ||
		    add_instances(rs, t, (int)json_integer_value(json_object_get(doc, "pid")), path, err) < 0)
			goto out;
	}
	ret = 0;
out:
	/* region names point into doc: it lives as long as the aggregate */
	if (ret < 0)
		json_decref(doc);
	else
		json_array_append_new(docs, doc);
	free(path);
	return ret < 0 ? -1 : 0;
}

/* ---------------- the document ---------------- */

static const struct agg *find_name(const struct regions *rs, const char *name)
{
	size_t i;

	for (i = 0; i < rs->nr; i++)
		if (!strcmp(rs->a[i].name, name))
			return &rs->a[i];
	return NULL;
}

static double task_clock(const struct regions *rs, const double *sums)
{
	size_t e;

	for (e = 0; e < rs->l.nr_events; e++)
		if (!strcmp(json_string_value(json_array_get(rs->l.names, e)), "task-clock"))
			return sums[e];
	return NAN;
}

static json_t *region_json(struct regions *rs, struct agg *a, double root_cpu)
{
	double factor = a->measured > 0 ? a->calls / a->measured : 1;
	double share = min_running_share(&rs->l, a->incl);
	json_t *o = json_object(), *incl, *excl, *why = json_array(), *t;
	size_t i, e;

	json_object_set_new(o, "name", json_string(a->name));
	json_object_set_new(o, "parent", a->parent ? json_string(a->parent) : json_null());
	json_object_set_new(o, "depth", json_integer(a->depth));
	json_object_set_new(o, "calls", json_integer((json_int_t)a->calls));
	json_object_set_new(o, "measured_calls", json_integer((json_int_t)a->measured));
	json_object_set_new(o, "threads", json_integer(a->threads));
	json_object_set_new(o, "time_s", json_real(a->incl[0] / 1e9 * factor));
	incl = sums_json(&rs->l, a->sin);
	if (rs->sample > 1) {
		/* unmeasured passes of nested regions are inside this one's unmeasured time */
		excl = json_deep_copy(incl);
		for (i = 0; i < rs->nr; i++) {
			struct agg *c = &rs->a[i];

			if (!c->parent || strcmp(c->parent, a->name) || c == a)
				continue;
			for (e = 0; e < rs->l.nr_events; e++) {
				const char *n = json_string_value(json_array_get(rs->l.names, e));
				double v = json_number_value(json_object_get(excl, n)) - c->sin[e];

				json_object_set_new(excl, n, number_or_null(v));
			}
		}
		json_array_append_new(why, json_sprintf("one pass in %lu counted: counts are the measured "
							"passes' times calls / measured passes", rs->sample));
	} else {
		excl = sums_json(&rs->l, a->sex);
	}
	json_object_set_new(o, "exclusive_time_s", json_real(a->excl[0] / 1e9 * (rs->sample > 1 ? factor : 1)));
	json_object_set_new(o, "share", number_or_null(task_clock(rs, a->sin) / root_cpu));
	if (share < 1)
		json_array_append_new(why, json_sprintf("multiplexed: a group counted %.1f %% of the region's "
							"time, its counts are scaled up", 100 * share));
	for (i = 0; i < rs->l.nr_groups; i++)
		if (a->never_ran[i])
			json_array_append_new(why, json_sprintf("multiplexed: group %zu never ran during it in %d "
				"thread(s): its events are unknown there (not counted, not zero)", i + 1,
				a->never_ran[i]));
	json_object_set_new(o, "estimate", json_boolean(json_array_size(why) > 0));
	json_object_set_new(o, "estimate_reasons", why);
	add_tree(rs, o, a->sin, a->incl[0] / 1e9 * factor, 1);
	json_object_set_new(o, "counts", incl);
	json_object_set_new(o, "exclusive_counts", excl);
	json_array_foreach(a->per_thread, i, t)
		add_tree(rs, t, a->thread_sums[i], json_number_value(json_object_get(t, "time_s")), 0);
	json_object_set_new(o, "per_thread", json_incref(a->per_thread));
	return o;
}

/* Depth first from the root, the children of a region by inclusive time. */
static void order(struct regions *rs, const char *parent, int depth, json_t *out, double root_cpu)
{
	for (;;) {
		struct agg *best = NULL;
		size_t i;

		for (i = 0; i < rs->nr; i++) {
			struct agg *a = &rs->a[i];

			if (a->done || (parent ? !a->parent || strcmp(a->parent, parent) : !!a->parent))
				continue;
			if (!best || a->incl[0] * (a->calls / (a->measured ? a->measured : 1)) >
					     best->incl[0] * (best->calls / (best->measured ? best->measured : 1)))
				best = a;
		}
		if (!best)
			return;
		best->done = 1;
		best->depth = depth;
		json_array_append_new(out, region_json(rs, best, root_cpu));
		order(rs, best->name, depth + 1, out, root_cpu);
	}
}

int td_regions_is_run(const char *dir)
{
	char *path = td_path_join(dir, "meta.json");
	json_t *meta = td_is_dir(dir) ? json_load_file(path, 0, NULL) : NULL;
	int yes = json_is_object(json_object_get(meta, "regions"));

	json_decref(meta);
	free(path);
	return yes;
}

json_t *td_regions_load(const char *dir, const struct td_report_opts *opts, struct strbuf *err)
{
	char *path = td_path_join(dir, "meta.json");
	json_t *meta = json_load_file(path, 0, NULL), *files, *f, *doc = NULL, *list, *docs = json_array();
	struct td_table *own = NULL;
	struct regions rs;
	size_t i;
	double root_cpu;

	memset(&rs, 0, sizeof(rs));
	rs.warnings = json_array();
	rs.timeline = json_array();
	/* the depth recorded (-l), unless --level says otherwise: deeper nodes were not counted */
	rs.max_level = opts->max_level ? opts->max_level : (int)json_integer_value(json_object_get(meta, "level"));
	rs.smt = json_is_boolean(json_object_get(json_object_get(meta, "smt"), "on"))
		 ? json_is_true(json_object_get(json_object_get(meta, "smt"), "on")) : -1;
	files = json_object_get(json_object_get(meta, "regions"), "files");
	rs.sample = (unsigned long)json_integer_value(json_object_get(json_object_get(meta, "regions"), "sample"));
	if (!rs.sample)
		rs.sample = 1;
	if (!json_array_size(files)) {
		strbuf_addf(err, "%s: no regions were written: the workload is not linked with -ltdperf, "
			    "or it crashed (docs/regions.md)", dir);
		goto out;
	}
	if (json_is_string(json_object_get(json_object_get(meta, "table"), "file"))) {
		char *tpath = td_path_join(dir, json_string_value(json_object_get(json_object_get(meta, "table"), "file")));

		own = td_table_load(tpath, err);
		free(tpath);
		if (!own)
			goto out;
		rs.table = own;
	}
	json_array_foreach(files, i, f) {
		if (!json_is_string(f)) {
			strbuf_addf(err, "%s: meta.json: regions.files holds a non-string", dir);
			goto out;
		}
		if (read_file(&rs, dir, json_string_value(f), docs, err) < 0)
			goto out;
	}
	root_cpu = NAN;
	{
		const struct agg *root = find_name(&rs, ROOT_NAME);

		if (root)
			root_cpu = task_clock(&rs, root->sin);
	}
	list = json_array();
	order(&rs, NULL, 0, list, root_cpu);
	doc = json_pack("{s:s, s:i, s:s, s:o, s:o, s:s, s:i, s:O, s:o}", "format", "tdperf-regions-report",
			"version", 1, "run", dir,
			"cpu", json_incref(json_object_get(json_object_get(meta, "cpu"), "name")),
			"table", rs.table ? json_string(td_table_info(rs.table)->name) : json_null(),
			"mode", json_string_value(json_object_get(meta, "mode")) ?
				json_string_value(json_object_get(meta, "mode")) : "software",
			"sample", (int)rs.sample, "events", rs.l.names, "regions", list);
	json_object_set_new(doc, "processes", json_integer((json_int_t)json_array_size(files)));
	json_object_set_new(doc, "warnings", json_incref(rs.warnings));
	json_object_set_new(doc, "timeline", finish_timeline(&rs));
out:
	for (i = 0; i < rs.nr; i++) {
		free(rs.a[i].incl);
		free(rs.a[i].excl);
		free(rs.a[i].sin);
		free(rs.a[i].sex);
		free(rs.a[i].never_ran);
		json_decref(rs.a[i].per_thread);
		while (rs.a[i].nr_thread_sums)
			free(rs.a[i].thread_sums[--rs.a[i].nr_thread_sums]);
		free(rs.a[i].thread_sums);
	}
	free(rs.a);
	free(rs.l.group_of);
	json_decref(rs.l.names);
	json_decref(rs.warnings);
	json_decref(rs.timeline);
	if (own)
		td_table_free(own);
	json_decref(docs);
	json_decref(meta);
	free(path);
	return doc;
}
