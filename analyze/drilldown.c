/*
 * record --drilldown, the analysis side: which Top-Down node a counting
 * run points at (the deepest flagged node of the bottleneck path), and the
 * report's "drilldown" object from the samples taken for it
 * (docs/report-schema.md): the functions and source lines that carry the
 * node's locate-with events, their share of those events and, where the
 * sampled group held the node's events, the node's value in each.
 */
#include "analyze/analyze-int.h"
#include "analyze/compare.h"
#include "analyze/report.h"
#include "metrics/hotspots.h"
#include "metrics/table.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DRILL_FUNCTIONS 10

/* The main scope's node 'id', or NULL. */
static json_t *main_node(json_t *doc, const char *id)
{
	json_t *nodes = json_object_get(td_report_main_scope(doc), "nodes"), *n;
	size_t i;

	json_array_foreach(nodes, i, n)
		if (!strcmp(td_json_str_or(n, "id", ""), id))
			return n;
	return NULL;
}

const char *td_report_drilldown_node(json_t *doc)
{
	json_t *path = json_object_get(json_object_get(td_report_main_scope(doc), "bottleneck"), "path");
	const char *deepest = NULL;
	json_t *id;
	size_t i;

	json_array_foreach(path, i, id) {
		json_t *n = json_is_string(id) ? main_node(doc, json_string_value(id)) : NULL;

		if (n && json_is_true(json_object_get(n, "flagged")))
			deepest = json_string_value(id);
	}
	return deepest;
}

const char *td_report_drilldown_child(json_t *doc, const char *parent)
{
	json_t *nodes = json_object_get(td_report_main_scope(doc), "nodes"), *n;
	const char *best = NULL;
	double best_v = -INFINITY;
	size_t i;

	json_array_foreach(nodes, i, n) {
		double v = td_json_num(json_object_get(n, "value"));

		if (strcmp(td_json_str_or(n, "parent", ""), parent) ||
		    !json_is_true(json_object_get(n, "flagged")) || !isfinite(v) || v <= best_v)
			continue;
		best = td_json_str(n, "id");
		best_v = v;
	}
	return best;
}

/* The node's value (and its path's) in one function, from its group counts. */
static json_t *function_topdown(const struct td_table *t, const struct td_metric *m, json_t *counts,
				json_t *fn, int smt_on)
{
	size_t nr = json_object_size(counts), k = 0, i;
	const char **names;
	double *vals;
	const char *key;
	json_t *v, *out = NULL;
	struct td_hot_topdown td;

	if (!nr)
		return NULL;
	names = xcalloc(nr, sizeof(*names));
	vals = xcalloc(nr, sizeof(*vals));
	json_object_foreach(counts, key, v) {
		names[k] = key;
		vals[k++] = td_json_num(v);
	}
	td_hot_topdown(t, names, nr, vals, NULL, (uint64_t)td_json_int(json_object_get(fn, "samples"), 0),
		       m->level, smt_on, &td);
	if (td.why) {
		json_object_set_new(fn, "topdown_note", json_string(td.why));
	} else {
		out = json_object();
		for (i = 0; i < td.nr_nodes; i++)
			if (isfinite(td.nodes[i].value))
				json_object_set_new(out, td.nodes[i].metric->id, json_real(td.nodes[i].value));
		if (!json_object_size(out)) {
			json_decref(out);
			out = NULL;
		}
	}
	td_hot_topdown_release(&td);
	free(names);
	free(vals);
	return out;
}

/* One function of the samples, as the drill-down shows it. */
static json_t *drill_function(json_t *fn, const struct td_table *t, const struct td_metric *m, int smt_on)
{
	json_t *o = json_object(), *lines = json_array(), *l, *td;
	size_t i;

	json_object_set(o, "symbol", json_object_get(fn, "symbol"));
	json_object_set(o, "dso", json_object_get(fn, "dso"));
	json_object_set(o, "source", json_object_get(fn, "source") ? json_object_get(fn, "source") : json_null());
	json_object_set(o, "samples", json_object_get(fn, "samples"));
	json_object_set(o, "share", json_object_get(fn, "percent"));
	json_array_foreach(json_object_get(fn, "lines"), i, l)
		json_array_append_new(lines, json_pack("{s:O, s:O, s:O}", "source", json_object_get(l, "source"),
						       "samples", json_object_get(l, "samples"),
						       "share", json_object_get(l, "percent")));
	json_object_set_new(o, "lines", lines);
	td = t && m ? function_topdown(t, m, json_object_get(fn, "counts"), o, smt_on) : NULL;
	json_object_set_new(o, "topdown", td ? td : json_null());
	return o;
}

/*
 * A step's samples are a file of the run directory that record named
 * (drilldown.data, drilldown-N.data): a name with a path in it would
 * make a report read any perf.data on the machine.
 */
static int drill_file_ok(const char *rundir, const char *name)
{
	char *dir, *path, *real;
	size_t n;
	int ok;

	if (!name || strncmp(name, "drilldown", 9) || strchr(name, '/') || strstr(name, ".."))
		return 0;
	/* nor a link out of it */
	dir = realpath(rundir, NULL);
	path = td_path_join(rundir, name);
	real = realpath(path, NULL);
	n = dir ? strlen(dir) : 0;
	ok = dir && (!real || (!strncmp(real, dir, n) && real[n] == '/'));
	free(dir);
	free(path);
	free(real);
	return ok;
}

/* A step of meta.json's "drilldown" with its samples read: the report's form of it. */
static json_t *drill_step(const char *rundir, json_t *step, const struct td_table *t, int smt_on,
			  struct strbuf *err)
{
	struct td_report_opts opts = { 0 };
	const char *name = td_json_str_or(step, "file", "(none)");
	char *file = td_path_join(rundir, name);
	char *table = td_path_join(rundir, "table.json");
	const struct td_metric *m = t && td_json_str(step, "node") ? td_table_find_metric(t, td_json_str(step, "node")) : NULL;
	json_t *hot, *out, *fns = json_array(), *fn;
	size_t i;

	if (td_file_exists(table))
		opts.table = table;
	if (drill_file_ok(rundir, name))
		hot = td_hotspots_load(file, &opts, 0, err);
	else {
		strbuf_addf(err, "meta.json drilldown[].file names no drill-down file of the run directory: %s",
			    name);
		hot = NULL;
	}
	out = json_deep_copy(step);
	json_object_set_new(out, "file", json_string(name));
	if (!hot) {
		json_object_set_new(out, "samples", json_integer(0));
		json_object_set_new(out, "error", json_string(err->buf));
		json_object_set_new(out, "functions", fns);
		strbuf_reset(err);
		goto done;
	}
	json_object_set(out, "samples", json_object_get(json_object_get(hot, "profile"), "samples"));
	json_array_foreach(json_object_get(hot, "hotspots"), i, fn) {
		if (i >= DRILL_FUNCTIONS)
			break;
		json_array_append_new(fns, drill_function(fn, t, m, smt_on));
	}
	json_object_set_new(out, "functions", fns);
	json_decref(hot);
done:
	free(file);
	free(table);
	return out;
}

int td_report_add_drilldown(json_t *doc, const char *rundir, struct strbuf *err)
{
	char *meta_path = td_path_join(rundir, "meta.json"), *table_path = td_path_join(rundir, "table.json");
	json_t *meta = NULL, *steps, *step, *out;
	struct td_table *t = NULL;
	int smt_on;
	size_t i;

	if (td_is_dir(rundir) && td_file_exists(meta_path))
		meta = json_load_file(meta_path, 0, NULL);
	steps = json_object_get(meta, "drilldown");
	if (!json_is_array(steps) || !json_array_size(steps)) {
		json_decref(meta);
		free(meta_path);
		free(table_path);
		return 0;
	}
	if (td_file_exists(table_path))
		t = td_table_load(table_path, err);
	strbuf_reset(err);
	smt_on = json_is_true(json_object_get(json_object_get(meta, "smt"), "on"));
	out = json_array();
	json_array_foreach(steps, i, step)
		if (json_is_object(step)) /* record writes objects: anything else is no step */
			json_array_append_new(out, drill_step(rundir, step, t, smt_on, err));
	json_object_set_new(doc, "drilldown", json_pack("{s:o}", "steps", out));
	td_table_free(t);
	json_decref(meta);
	free(meta_path);
	free(table_path);
	return 0;
}
