/*
 * Repeated runs of one measurement, reported as one.
 *
 * 'tdperf record -r N' writes one perf stat session per run.  Reported
 * as they are, the N sessions read as N measurements of different
 * things.  perf stat -r N itself prints one block: the mean of each count
 * over the runs and "+- x%", the standard error of that mean relative to
 * it (perf's util/stat.c: the sample variance over n - 1, divided by n,
 * square-rooted, in percent of the mean), and its metrics computed on the
 * mean counts.  We do the same: the runs' counts are combined into one
 * session of mean counts whose variance_pct is that standard error, so
 * the tree, its gating and its error bars (method "repeats") follow from
 * the same code that reads perf's own -r outputs.  Each node then gets
 * the spread of its own per-run values (mean, sample standard deviation,
 * min, max, the values), evaluated on each run's counts alone.
 *
 * Runs are combined only when they are plainly repeats: meta.json says
 * repeats > 1 without --no-multiplex, there is one session per repeat, no
 * session is an interval run, and every session has the same scopes with
 * the same events in the same order.  Otherwise nothing changes.
 */
#include "analyze/analyze-int.h"
#include "analyze/report.h"
#include "metrics/stats.h"

#include <math.h>
#include <string.h>

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static int same_counts(const struct td_scope *a, const struct td_scope *b)
{
	size_t i;

	if (a->kind != b->kind || !same_str(a->label, b->label) || a->nr_counts != b->nr_counts)
		return 0;
	for (i = 0; i < a->nr_counts; i++)
		if (!same_str(a->counts[i].event, b->counts[i].event) ||
		    !same_str(a->counts[i].pmu, b->counts[i].pmu) ||
		    !same_str(a->counts[i].modifiers, b->counts[i].modifiers))
			return 0;
	return 1;
}

static int sessions_are_repeats(const struct td_stat_file *f)
{
	size_t s, k;

	for (s = 0; s < f->nr_sessions; s++) {
		const struct td_stat *st = &f->sessions[s];

		if (st->interval || st->repeats > 1 || st->nr_scopes != f->sessions[0].nr_scopes)
			return 0;
		for (k = 0; k < st->nr_scopes; k++)
			if (!isnan(st->scopes[k].time) || !same_counts(&st->scopes[k], &f->sessions[0].scopes[k]))
				return 0;
	}
	return 1;
}

int td_repeat_runs(const struct td_import *imp)
{
	json_t *meta = imp->meta;
	json_int_t n = json_integer_value(json_object_get(meta, "repeats"));

	if (!imp->stat || n < 2 || json_is_true(json_object_get(meta, "no_multiplex")) ||
	    imp->stat->nr_sessions != (size_t)n || !sessions_are_repeats(imp->stat))
		return 0;
	return (int)n;
}

/*
 * Count i of scope k: the mean over the runs that counted it, and perf's
 * "+- x%".  A count some run did not give keeps that run's status: a mean
 * over fewer runs than the others would be a different measurement.
 */
static void combine_count(struct td_stat_file *f, size_t k, size_t i)
{
	struct td_count *c = &f->sessions[0].scopes[k].counts[i];
	struct td_sample v = TD_SAMPLE_INIT, run = TD_SAMPLE_INIT, en = TD_SAMPLE_INIT, rn = TD_SAMPLE_INIT;
	size_t s;

	for (s = 0; s < f->nr_sessions; s++) {
		const struct td_count *o = &f->sessions[s].scopes[k].counts[i];

		if (o->status != TD_COUNT_OK) {
			c->status = o->status;
			c->value = NAN;
			c->variance_pct = NAN;
			return;
		}
		td_sample_add(&v, o->value);
		td_sample_add(&run, o->running_pct);
		td_sample_add(&en, o->enabled_ns);
		td_sample_add(&rn, o->running_ns);
	}
	c->value = v.mean;
	c->running_pct = run.mean;
	c->enabled_ns = en.mean;
	c->running_ns = rn.mean;
	/* perf's "+- x%": the standard error of the mean, in % of the mean */
	c->variance_pct = v.mean ? 100.0 * sqrt(td_sample_var(&v) / v.n) / fabs(v.mean) : 0;
}

void td_repeat_combine(struct td_import *imp, int runs)
{
	struct td_stat_file *f = imp->stat;
	struct td_stat *st = &f->sessions[0];
	struct td_sample el = TD_SAMPLE_INIT, us = TD_SAMPLE_INIT, sy = TD_SAMPLE_INIT;
	size_t s, k, i;

	for (k = 0; k < st->nr_scopes; k++)
		for (i = 0; i < st->scopes[k].nr_counts; i++)
			combine_count(f, k, i);
	for (s = 0; s < f->nr_sessions; s++) {
		td_sample_add(&el, f->sessions[s].elapsed_s);
		td_sample_add(&us, f->sessions[s].user_s);
		td_sample_add(&sy, f->sessions[s].sys_s);
	}
	st->elapsed_s = el.mean;
	st->user_s = us.mean;
	st->sys_s = sy.mean;
	st->repeats = runs;
	st->has_variance = 1;
	while (f->nr_sessions > 1)
		td_stat_file_drop_last(f);
}

/* The scope of session 'session' in runs_doc that matches 'id' ("s1/..."). */
static json_t *run_scope(json_t *runs_doc, const char *id, int session)
{
	const char *rest = strchr(id, '/');
	json_t *sc;
	size_t i;
	char want[64];

	if (!rest)
		return NULL;
	snprintf(want, sizeof(want), "s%d", session);
	json_array_foreach(json_object_get(runs_doc, "scopes"), i, sc) {
		const char *sid = td_json_str(sc, "id");
		size_t n = strlen(want);

		if (sid && !strncmp(sid, want, n) && !strcmp(sid + n, rest))
			return sc;
	}
	return NULL;
}

static json_t *node_by_id(json_t *scope, const char *id)
{
	json_t *n;
	size_t i;

	json_array_foreach(json_object_get(scope, "nodes"), i, n)
		if (td_json_str(n, "id") && !strcmp(td_json_str(n, "id"), id))
			return n;
	return NULL;
}

static json_t *number_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* The node's "repeat" object: its value in each run and their spread. */
static json_t *node_repeat(json_t *runs_doc, const char *scope_id, const char *node_id, int runs)
{
	struct td_sample v = TD_SAMPLE_INIT;
	json_t *values = json_array();
	double lo = INFINITY, hi = -INFINITY;
	int s, missing = 0;

	for (s = 1; s <= runs; s++) {
		json_t *n = node_by_id(run_scope(runs_doc, scope_id, s), node_id);
		json_t *val = json_object_get(n, "value");

		if (!json_is_number(val)) {
			json_array_append_new(values, json_null());
			missing = 1;
			continue;
		}
		td_sample_add(&v, json_number_value(val));
		lo = fmin(lo, json_number_value(val));
		hi = fmax(hi, json_number_value(val));
		json_array_append_new(values, json_real(json_number_value(val)));
	}
	if (!v.n) {
		json_decref(values);
		return json_null();
	}
	return json_pack("{s:i,s:o,s:o,s:o,s:o,s:o,s:b}", "runs", (int)v.n, "mean", json_real(v.mean),
			 "stddev", number_or_null(td_sample_sd(&v)), "min", json_real(lo), "max", json_real(hi),
			 "values", values, "incomplete", missing);
}

void td_repeat_annotate(json_t *doc, json_t *runs_doc, int runs)
{
	json_t *sc, *n;
	size_t i, j;

	json_array_foreach(json_object_get(doc, "scopes"), i, sc) {
		const char *sid = td_json_str(sc, "id");

		if (!sid)
			continue;
		json_array_foreach(json_object_get(sc, "nodes"), j, n)
			if (td_json_str(n, "id"))
				json_object_set_new(n, "repeat", node_repeat(runs_doc, sid, td_json_str(n, "id"), runs));
	}
	json_object_set_new(doc, "repeat", json_pack("{s:i,s:s,s:s,s:s}", "runs", runs, "source", "record",
		"counts", "each count is the mean over the runs; its spread is perf stat -r's: "
		"the standard error of the mean (sample standard deviation / sqrt(runs))",
		"nodes", "each node's repeat.stddev is the sample standard deviation of its values "
		"in the runs, each run evaluated on its own counts"));
}

void td_repeat_note_perf(json_t *doc)
{
	json_t *s;
	size_t i;

	json_array_foreach(json_object_get(doc, "sessions"), i, s)
		if (json_integer_value(json_object_get(s, "repeats")) > 1)
			break;
	if (i == json_array_size(json_object_get(doc, "sessions")))
		return;
	/* runs: each session's "repeats" (pasted perf outputs may differ) */
	json_object_set_new(doc, "repeat", json_pack("{s:n,s:s,s:s,s:n}", "runs", "source", "perf",
		"counts", "perf stat -r printed each count's mean over the runs and "
		"\"+- x%\": the standard error of the mean, relative to it",
		"nodes"));
}

/*
 * The warnings 'tdperf record' gave when it measured (meta.json
 * "warnings") are facts about the recording, said then: mark them
 * "source": "record" so that the report says them once, as such, rather
 * than as new findings.
 */
void td_repeat_mark_recorded_warnings(json_t *doc)
{
	json_t *run = json_object_get(doc, "run");
	json_t *recorded = json_object_get(run, "warnings"), *w, *r;
	const char *kind = td_json_str(run, "kind");
	size_t i, j;

	/* an import's meta.json holds what this very reading found */
	if (!kind || strcmp(kind, "record"))
		return;

	json_array_foreach(json_object_get(doc, "warnings"), i, w)
		json_array_foreach(recorded, j, r)
			if (json_is_string(r) && td_json_str(w, "text") &&
			    !strcmp(td_json_str(w, "text"), json_string_value(r)))
				json_object_set_new(w, "source", json_string("record"));
}
