/*
 * The report document's "threads" and "sweep" objects (schema in
 * docs/report-schema.md, section "threads"), built from the thread
 * analysis of metrics/threads.c.
 *
 * Times in the document are seconds relative to the first event of the
 * recording; components are given both in seconds and as fractions.
 */
#include "analyze/analyze-int.h"
#include "metrics/threads.h"
#include "parse/parse.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char no_pmu_reason[] =
	"no hardware PMU in this recording: on-CPU time is not split into Top-Down components "
	"(scheduler components only)";
static const char no_split_reason[] =
	"per-thread Top-Down counts were not recorded: on-CPU time is not split "
	"(scheduler components only)";

/* A JSON number, or null for NAN (the schema's rule). */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* {"running": s, ...} for the components of c[]. */
static json_t *comp_object(const double *c, double scale)
{
	json_t *o = json_object();
	int i;

	for (i = 0; i < TD_TC_NR; i++)
		json_object_set_new(o, td_thread_comp_id(i), num(scale > 0 ? c[i] / scale : NAN));
	return o;
}

static double comp_total(const double *c)
{
	double t = 0;
	int i;

	for (i = 0; i < TD_TC_NR; i++)
		t += c[i];
	return t;
}

static json_t *components_legend(void)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < TD_TC_NR; i++)
		json_array_append_new(a, json_pack("{s:s, s:s}", "id", td_thread_comp_id(i),
						   "description", td_thread_comp_description(i)));
	return a;
}

/* The sentence naming the dominant component of the aggregate. */
static char *dominant_sentence(const struct td_threads_result *r)
{
	struct strbuf sb = STRBUF_INIT;
	double total = comp_total(r->aggregate);

	if (!(total > 0)) {
		strbuf_addstr(&sb, "no thread time was recorded");
		return strbuf_detach(&sb, NULL);
	}
	strbuf_addf(&sb, "%s dominates: %.1f %% of the time of the %zu aggregated thread%s (%s)",
		    td_thread_comp_id(r->dominant), 100.0 * r->aggregate[r->dominant] / total,
		    r->nr_aggregated, r->nr_aggregated == 1 ? "" : "s",
		    td_thread_comp_description(r->dominant));
	if (r->dominant_own != r->dominant)
		strbuf_addf(&sb, "; the CPUs were oversubscribed (by this workload or other load): "
			    "of the workload's own components %s is largest, %.1f %%",
			    td_thread_comp_id(r->dominant_own),
			    100.0 * r->aggregate[r->dominant_own] / total);
	if (r->dominant_own == TD_TC_SYNC)
		strbuf_addstr(&sb, "; the threads wait for each other: a contended lock or a barrier");
	return strbuf_detach(&sb, NULL);
}

json_t *td_threads_json(const struct td_threads_result *r, const char *oncpu_reason)
{
	json_t *o = json_object(), *threads = json_array(), *groups = json_array(), *notes;
	double t0 = r->trace_start, span = r->region_end - r->region_start;
	double total = comp_total(r->aggregate);
	char *sentence;
	size_t i;

	json_object_set_new(o, "source", json_string("sched tracepoints"));
	json_object_set_new(o, "components", components_legend());
	json_object_set_new(o, "oncpu_split", json_null());
	json_object_set_new(o, "oncpu_reason", json_string(oncpu_reason ? oncpu_reason : no_split_reason));
	json_object_set_new(o, "events", json_integer((json_int_t)r->nr_events));
	json_object_set_new(o, "trace", json_pack("{s:o, s:o}", "start", num(0.0),
						  "end", num(r->trace_end - t0)));
	json_object_set_new(o, "region", json_pack("{s:o, s:o, s:o}",
						   "start", num(r->region_start - t0),
						   "end", num(r->region_end - t0),
						   "span", num(span)));
	for (i = 0; i < r->nr_threads; i++) {
		const struct td_thread *t = &r->threads[i];
		json_t *jt = json_object();

		json_object_set_new(jt, "tid", json_integer(t->tid));
		json_object_set_new(jt, "pid", t->pid > 0 ? json_integer(t->pid) : json_null());
		json_object_set_new(jt, "name", json_string(t->comm));
		json_object_set_new(jt, "start", num(t->start - t0));
		json_object_set_new(jt, "end", num(t->end - t0));
		json_object_set_new(jt, "sync_fraction", num(t->sync_fraction));
		json_object_set_new(jt, "created_threads", json_integer(t->nr_created));
		json_object_set_new(jt, "excluded", json_boolean(t->excluded));
		json_object_set_new(jt, "switch_ins", json_integer((json_int_t)t->nr_switch_in));
		json_object_set_new(jt, "inferred_switch_ins", json_integer((json_int_t)t->nr_inferred_in));
		json_object_set_new(jt, "life", comp_object(t->life, 1.0));
		json_object_set_new(jt, "seconds", comp_object(t->comp, 1.0));
		json_object_set_new(jt, "fractions", comp_object(t->comp, span));
		json_array_append_new(threads, jt);
	}
	json_object_set_new(o, "threads", threads);
	for (i = 0; i < r->nr_groups; i++) {
		const struct td_thread_group *g = &r->groups[i];
		json_array_append_new(groups, json_pack("{s:s, s:I, s:I, s:o, s:o}",
			"name", g->name, "threads", (json_int_t)g->nr_threads,
			"excluded", (json_int_t)g->nr_excluded,
			"seconds", comp_object(g->comp, 1.0),
			"fractions", comp_object(g->comp, comp_total(g->comp))));
	}
	json_object_set_new(o, "groups", groups);
	sentence = dominant_sentence(r);
	json_object_set_new(o, "aggregate", json_pack("{s:I, s:b, s:o, s:o, s:o, s:s, s:o, s:s}",
		"threads", (json_int_t)r->nr_aggregated,
		"all_sync_fallback", r->all_sync_fallback,
		"thread_seconds", num(total),
		"seconds", comp_object(r->aggregate, 1.0),
		"fractions", comp_object(r->aggregate, total),
		"dominant", total > 0 ? td_thread_comp_id(r->dominant) : "none",
		"dominant_fraction", num(total > 0 ? r->aggregate[r->dominant] / total : NAN),
		"sentence", sentence));
	json_object_set_new(json_object_get(o, "aggregate"), "dominant_own",
			    json_string(total > 0 ? td_thread_comp_id(r->dominant_own) : "none"));
	json_object_set_new(json_object_get(o, "aggregate"), "dominant_own_fraction",
			    num(total > 0 ? r->aggregate[r->dominant_own] / total : NAN));
	free(sentence);
	notes = json_array();
	json_array_append_new(notes, json_string(oncpu_reason ? oncpu_reason : no_split_reason));
	for (i = 0; i < r->nr_notes; i++)
		json_array_append_new(notes, json_string(r->notes[i]));
	json_object_set_new(o, "notes", notes);
	return o;
}

/* Why on-CPU time is not split, from the run's meta.json in the document. */
static const char *oncpu_reason_of(json_t *doc)
{
	json_t *run = json_object_get(doc, "run");
	json_t *pmu = run ? json_object_get(run, "hardware_pmu") : NULL;

	if (pmu && json_is_false(pmu))
		return no_pmu_reason;
	return no_split_reason;
}

/* Elapsed time of the whole workload: first start to last end, any thread. */
static double workload_elapsed(const struct td_threads_result *r)
{
	double a = INFINITY, z = -INFINITY;
	size_t i;

	for (i = 0; i < r->nr_threads; i++) {
		if (r->threads[i].start < a)
			a = r->threads[i].start;
		if (r->threads[i].end > z)
			z = r->threads[i].end;
	}
	return z > a ? z - a : NAN;
}

struct sweep_run {
	double value;
	char *dir;
	struct td_threads_result r;
	int loaded;
	long nr_cpus;            /* online CPUs when it was recorded (its meta.json), 0 unknown */
};

/*
 * A sweep point's share of runnable time (waiting for a CPU) above which,
 * with no more threads than CPUs, the machine was busy with other work
 * while it was recorded: the workload alone would find a CPU free.
 */
#define BUSY_RUNNABLE 0.20

/* The number of online CPUs a run directory's meta.json states, 0 when it says none. */
static long run_nr_cpus(const char *rundir)
{
	char *path = td_path_join(rundir, "meta.json");
	json_t *meta = json_load_file(path, 0, NULL);
	json_t *n = json_object_get(meta, "nr_cpus_online");
	long nr = json_is_integer(n) && json_integer_value(n) > 0 ? (long)json_integer_value(n) : 0;

	json_decref(meta);
	free(path);
	return nr;
}

/*
 * What the CPUs say about each point: a point with more threads than
 * CPUs waits for a CPU by construction (its speedup says so more than any
 * component's growth); a point with no more threads than CPUs that still
 * waited for one ran on a busy machine.  Notes for the sweep, the busy
 * ones also as warnings of the document.
 */
static void cpu_notes(json_t *doc, json_t *notes, json_t *jruns, const struct sweep_run *sr, size_t n,
		      const char *param)
{
	struct strbuf sb = STRBUF_INIT, busy = STRBUF_INIT;
	size_t i;

	for (i = 0; i < n; i++) {
		json_t *o = json_array_get(jruns, i);
		double runq = td_json_num(json_object_get(json_object_get(o, "fractions"), "runnable"));
		json_int_t threads = json_integer_value(json_object_get(o, "aggregated_threads"));

		json_object_set_new(o, "cpus", sr[i].nr_cpus ? json_integer(sr[i].nr_cpus) : json_null());
		if (!sr[i].loaded || !sr[i].nr_cpus) {
			json_object_set_new(o, "oversubscribed", json_null());
			continue;
		}
		json_object_set_new(o, "oversubscribed", json_boolean(threads > sr[i].nr_cpus));
		if (threads > sr[i].nr_cpus) {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s=%g runs %lld threads on %ld CPUs: more threads than CPUs take "
				    "turns, so its runnable time (waiting for a CPU)", param, sr[i].value,
				    (long long)threads, sr[i].nr_cpus);
			if (isfinite(td_json_num(json_object_get(o, "speedup"))))
				strbuf_addf(&sb, " and its speedup of %.2f", td_json_num(json_object_get(o, "speedup")));
			strbuf_addf(&sb, " reflect the %ld CPUs more than the program's scaling", sr[i].nr_cpus);
			json_array_append_new(notes, json_string(sb.buf));
		} else if (runq >= BUSY_RUNNABLE) {
			strbuf_addf(&busy, "%s%.0f %% at %s=%g (%lld thread%s on %ld CPUs)", busy.len ? ", " : "",
				    100 * runq, param, sr[i].value, (long long)threads, threads == 1 ? "" : "s",
				    sr[i].nr_cpus);
		}
	}
	if (busy.len) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "the machine was busy during the sweep: with no more threads than CPUs the "
			    "threads still spent this share of their time waiting for a CPU (runnable): %s; "
			    "other load took the CPUs, so the speedups and components are not the program's alone (record the "
			    "sweep on a quiet machine)", busy.buf);
		json_array_insert_new(notes, 0, json_string(sb.buf));
		if (!json_is_array(json_object_get(doc, "warnings")))
			json_object_set_new(doc, "warnings", json_array());
		json_array_append_new(json_object_get(doc, "warnings"),
				      json_pack("{s:s, s:s}", "severity", "warning", "text", sb.buf));
	}
	strbuf_release(&sb);
	strbuf_release(&busy);
}

static int load_json_file(const char *path, json_t **out, struct strbuf *err)
{
	json_error_t je;

	*out = json_load_file(path, 0, &je);
	if (!*out) {
		strbuf_addf(err, "%s:%d: %s", path, je.line, je.text);
		return -1;
	}
	return 0;
}

/*
 * Build doc.sweep from a sweep run directory (sweep.json, one run directory
 * per value), and doc.threads from its largest run.
 */
static int add_sweep(json_t *doc, const char *dir, const char *sweep_path, struct strbuf *err)
{
	json_t *sw, *runs, *jruns, *o, *notes;
	struct sweep_run *sr;
	size_t n, i, first = 0, last = 0;
	const char *param;
	double base_total = NAN, base_elapsed = NAN;
	int c, grow = -1, ret = -1;
	double best_growth = -INFINITY;

	if (load_json_file(sweep_path, &sw, err) < 0)
		return -1;
	runs = json_object_get(sw, "runs");
	param = json_string_value(json_object_get(sw, "parameter"));
	if (!json_is_array(runs) || !json_array_size(runs) || !param) {
		strbuf_addf(err, "%s: not a sweep description (needs \"parameter\" and \"runs\")",
			    sweep_path);
		json_decref(sw);
		return -1;
	}
	n = json_array_size(runs);
	sr = xcalloc(n, sizeof(*sr));
	for (i = 0; i < n; i++) {
		json_t *jr = json_array_get(runs, i);
		const char *sub = json_string_value(json_object_get(jr, "dir"));
		char *subdir, *pd;
		int got;

		if (!sub || !json_is_number(json_object_get(jr, "value")) || strstr(sub, "..") ||
		    sub[0] == '/') {
			strbuf_addf(err, "%s: run %zu has no usable \"value\" and \"dir\"", sweep_path, i + 1);
			goto out;
		}
		sr[i].value = json_number_value(json_object_get(jr, "value"));
		sr[i].dir = xstrdup(sub);
		subdir = td_path_join(dir, sub);
		sr[i].nr_cpus = run_nr_cpus(subdir);
		pd = td_path_join(subdir, "perf.data");
		free(subdir);
		got = td_threads_load(pd, &sr[i].r, err);
		free(pd);
		if (got < 0)
			goto out;
		sr[i].loaded = got > 0;
		if (sr[i].loaded && (!sr[first].loaded || sr[i].value < sr[first].value))
			first = i;
		if (sr[i].loaded && (!sr[last].loaded || sr[i].value > sr[last].value))
			last = i;
	}
	if (sr[first].loaded) {
		base_total = comp_total(sr[first].r.aggregate);
		base_elapsed = workload_elapsed(&sr[first].r);
	}
	jruns = json_array();
	for (i = 0; i < n; i++) {
		struct td_threads_result *r = &sr[i].r;
		double total = sr[i].loaded ? comp_total(r->aggregate) : NAN;
		double elapsed = sr[i].loaded ? workload_elapsed(r) : NAN;
		double speedup = base_elapsed / elapsed;
		double scale_up = sr[first].value > 0 ? sr[i].value / sr[first].value : NAN;

		o = json_pack("{s:f, s:s, s:b}", "value", sr[i].value, "dir", sr[i].dir,
			      "analysed", sr[i].loaded);
		json_object_set_new(o, "elapsed", num(elapsed));
		json_object_set_new(o, "speedup", num(speedup));
		json_object_set_new(o, "efficiency", num(speedup / scale_up));
		json_object_set_new(o, "threads", json_integer(sr[i].loaded ? (json_int_t)r->nr_threads : 0));
		json_object_set_new(o, "aggregated_threads",
				    json_integer(sr[i].loaded ? (json_int_t)r->nr_aggregated : 0));
		json_object_set_new(o, "thread_seconds", num(total));
		json_object_set_new(o, "seconds", sr[i].loaded ? comp_object(r->aggregate, 1.0) : json_null());
		json_object_set_new(o, "fractions", sr[i].loaded ? comp_object(r->aggregate, total) : json_null());
		json_object_set_new(o, "normalized", sr[i].loaded ? comp_object(r->aggregate, base_total)
								  : json_null());
		json_object_set_new(o, "dominant", sr[i].loaded && total > 0
				    ? json_string(td_thread_comp_id(r->dominant)) : json_null());
		if (!sr[i].loaded)
			json_object_set_new(o, "reason", json_string("no sched events in this run's perf.data"));
		json_array_append_new(jruns, o);
	}
	o = json_object();
	json_object_set_new(o, "parameter", json_string(param));
	json_object_set_new(o, "baseline", num(sr[first].loaded ? sr[first].value : NAN));
	json_object_set_new(o, "runs", jruns);
	notes = json_array();
	if (first != last && sr[first].loaded && sr[last].loaded && base_total > 0) {
		struct strbuf sb = STRBUF_INIT;
		double g_total = comp_total(sr[last].r.aggregate) / base_total;

		int grow_own = -1;
		double best_own = -INFINITY;

		for (c = 0; c < TD_TC_NR; c++) {
			double g = (sr[last].r.aggregate[c] - sr[first].r.aggregate[c]) / base_total;
			if (g > best_growth) {
				best_growth = g;
				grow = c;
			}
			if (c != TD_TC_RUNNABLE && c != TD_TC_UNKNOWN && g > best_own) {
				best_own = g;
				grow_own = c;
			}
		}
		strbuf_addf(&sb, "from %s=%g to %s=%g the summed thread time grows %.2fx; %s grows most, "
			    "by %.2f of the %s=%g total", param, sr[first].value, param, sr[last].value,
			    g_total, td_thread_comp_id(grow), best_growth, param, sr[first].value);
		if (grow_own != grow)
			strbuf_addf(&sb, "; besides runnable (waiting for a CPU), %s grows most, by %.2f",
				    td_thread_comp_id(grow_own), best_own);
		json_object_set_new(o, "growing", json_pack("{s:s, s:o, s:s, s:o, s:o, s:s}",
			"component", td_thread_comp_id(grow), "growth", num(best_growth),
			"component_own", td_thread_comp_id(grow_own), "growth_own", num(best_own),
			"total_growth", num(g_total), "sentence", sb.buf));
		strbuf_release(&sb);
	} else {
		json_object_set_new(o, "growing", json_null());
		json_array_append_new(notes, json_string("fewer than two analysable runs: nothing to compare"));
	}
	cpu_notes(doc, notes, jruns, sr, n, param);
	json_object_set_new(o, "notes", notes);
	json_object_set_new(doc, "sweep", o);
	if (sr[last].loaded) {
		json_t *t = td_threads_json(&sr[last].r, oncpu_reason_of(doc));
		json_object_set_new(t, "run", json_string(sr[last].dir));
		json_object_set_new(doc, "threads", t);
	}
	ret = 0;
out:
	for (i = 0; i < n; i++) {
		if (sr[i].loaded)
			td_threads_result_release(&sr[i].r);
		free(sr[i].dir);
	}
	free(sr);
	json_decref(sw);
	return ret;
}

/* Does the file start like a perf.data file?  (Unreadable: no.) */
static int looks_like_perf_data(const char *path)
{
	unsigned char head[16];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f)
		return 0;
	n = fread(head, 1, sizeof(head), f);
	fclose(f);
	return td_pd_is_perf_data(head, n);
}

/*
 * 'record -r N' runs the workload N times but records the scheduler in
 * one of them only (meta.json: the "sched" file's "run"): say which, so
 * that the threads section is not read as the runs' mean
 * ("recorded_run", "runs").
 */
static void add_recorded_run(json_t *threads, json_t *meta)
{
	size_t runs = json_array_size(json_object_get(meta, "runs")), i;
	json_t *f;

	if (runs < 2)
		return;
	json_array_foreach(json_object_get(meta, "files"), i, f)
		if (td_json_str(f, "role") && !strcmp(td_json_str(f, "role"), "sched") &&
		    json_is_integer(json_object_get(f, "run"))) {
			json_object_set(threads, "recorded_run", json_object_get(f, "run"));
			json_object_set_new(threads, "runs", json_integer((json_int_t)runs));
			return;
		}
}

int td_report_add_threads(json_t *doc, const char *run_or_file, struct strbuf *err)
{
	struct td_threads_result r;
	char *sweep = NULL, *pd;
	int got, ret = 0;

	if (!json_object_get(doc, "threads"))
		json_object_set_new(doc, "threads", json_null());
	if (!json_object_get(doc, "sweep"))
		json_object_set_new(doc, "sweep", json_null());
	if (td_is_dir(run_or_file)) {
		sweep = td_path_join(run_or_file, "sweep.json");
		if (td_file_exists(sweep)) {
			ret = add_sweep(doc, run_or_file, sweep, err);
			free(sweep);
			return ret;
		}
		free(sweep);
		pd = td_path_join(run_or_file, "perf.data");
		if (!td_file_exists(pd)) {
			free(pd);
			return 0;
		}
	} else {
		/* a FIFO or pipe was read once already; it has no threads to give */
		if (!td_is_regular_file(run_or_file) || !looks_like_perf_data(run_or_file))
			return 0; /* perf stat output or other input: no threads */
		pd = xstrdup(run_or_file);
	}
	got = td_threads_load(pd, &r, err);
	free(pd);
	if (got < 0)
		return -1;
	if (got > 0) {
		json_object_set_new(doc, "threads", td_threads_json(&r, oncpu_reason_of(doc)));
		td_threads_result_release(&r);
		add_recorded_run(json_object_get(doc, "threads"), json_object_get(doc, "run"));
	}
	return 0;
}

void td_report_threads_or_warn(json_t *doc, const char *run_or_file)
{
	struct strbuf err = STRBUF_INIT;
	json_t *warnings;

	if (td_report_add_threads(doc, run_or_file, &err) < 0) {
		warnings = json_object_get(doc, "warnings");
		if (!json_is_array(warnings)) {
			warnings = json_array();
			json_object_set_new(doc, "warnings", warnings);
		}
		json_array_append_new(warnings, json_pack("{s:s, s:s+}", "severity", "warning",
			"text", "no thread analysis: ", err.buf));
	}
	strbuf_release(&err);
}

int td_report_is_sweep(const char *path)
{
	char *p;
	int yes;

	if (!td_is_dir(path))
		return 0;
	p = td_path_join(path, "sweep.json");
	yes = td_file_exists(p);
	free(p);
	return yes;
}

/*
 * The sweep's meta.json says what was typed; the machine it ran on (CPU,
 * SMT, host, online CPUs) is in each value's own meta.json: take the first
 * value's, so that the report knows the CPU.
 */
static void add_machine(json_t *run, const char *dir)
{
	static const char *const keys[] = { "cpu", "smt", "host", "cpus_online", "nr_cpus_online" };
	char *sp = td_path_join(dir, "sweep.json"), *sub, *mp;
	json_t *sw = json_load_file(sp, 0, NULL), *meta;
	const char *first = td_json_str(json_array_get(json_object_get(sw, "runs"), 0), "dir");
	size_t i;

	free(sp);
	if (!json_is_object(run) || !first || strstr(first, "..") || first[0] == '/') {
		json_decref(sw);
		return;
	}
	sub = td_path_join(dir, first);
	mp = td_path_join(sub, "meta.json");
	meta = json_load_file(mp, 0, NULL);
	for (i = 0; i < TD_ARRAY_SIZE(keys); i++)
		if (!json_object_get(run, keys[i]) && json_object_get(meta, keys[i]))
			json_object_set(run, keys[i], json_object_get(meta, keys[i]));
	json_decref(meta);
	json_decref(sw);
	free(mp);
	free(sub);
}

/*
 * The page title of a sweep: its workload with the swept "{PARAM}" words
 * left out and the values said, "tw-lock (threads = 1, 2, 4)", rather than
 * the workload as typed with its placeholder.
 */
static void add_title(json_t *doc)
{
	json_t *run = json_object_get(doc, "run"), *sweep = json_object_get(doc, "sweep"), *w, *r;
	const char *param = td_json_str(sweep, "parameter");
	struct strbuf sb = STRBUF_INIT, key = STRBUF_INIT;
	size_t i;

	if (!json_is_object(run) || !param)
		return;
	strbuf_addf(&key, "{%s}", param);
	json_array_foreach(json_object_get(run, "workload"), i, w) {
		const char *word = json_string_value(w);

		if (!word || !strcmp(word, key.buf))
			continue;
		if (sb.len)
			strbuf_addch(&sb, ' ');
		if (!i && strrchr(word, '/') && strrchr(word, '/')[1])
			word = strrchr(word, '/') + 1;
		strbuf_addstr(&sb, word);
	}
	strbuf_addf(&sb, "%s(%s = ", sb.len ? " " : "", param);
	json_array_foreach(json_object_get(sweep, "runs"), i, r)
		strbuf_addf(&sb, "%s%g", i ? ", " : "", td_json_num(json_object_get(r, "value")));
	strbuf_addch(&sb, ')');
	json_object_set_new(run, "title", json_string(sb.buf));
	strbuf_release(&sb);
	strbuf_release(&key);
}

json_t *td_report_sweep_doc(const char *dir, struct strbuf *err)
{
	json_t *doc = json_object(), *meta = NULL;
	char *mp = td_path_join(dir, "meta.json");

	if (td_file_exists(mp) && load_json_file(mp, &meta, err) < 0) {
		free(mp);
		json_decref(doc);
		return NULL;
	}
	free(mp);
	json_object_set_new(doc, "schema", json_string("tdperf-report"));
	json_object_set_new(doc, "version", json_integer(TD_REPORT_SCHEMA_VERSION));
	json_object_set_new(doc, "run", meta ? meta : json_null());
	json_object_set_new(doc, "sessions", json_array());
	json_object_set_new(doc, "scopes", json_array());
	json_object_set_new(doc, "roofline", json_null());
	json_object_set_new(doc, "warnings", json_array());
	add_machine(meta, dir);
	if (td_report_add_threads(doc, dir, err) < 0) {
		json_decref(doc);
		return NULL;
	}
	add_title(doc);
	return doc;
}

int td_thread_nr_components(void)
{
	return TD_TC_NR;
}

const char *td_thread_component_id(int k)
{
	return td_thread_comp_id((enum td_thread_comp)k);
}
