/*
 * One rank of a job, summed up for the merge (analyze/job.c): its place in
 * the job (the "job" object of its meta.json), elapsed and CPU time, the
 * software counts, the per-thread scheduler stack summed over its threads,
 * its Level 1-2 Top-Down fractions and cycles when counted, and the MPI
 * library's share of its samples when it recorded them (--hotspots).
 *
 * The summary is taken from the rank's full report document, so it says
 * what 'tdperf report RANKDIR' says.  Each rank writes it as summary.json
 * at the end of its recording (src/cmd-record.c), in parallel on its node;
 * merging a thousand ranks then reads a thousand small files instead of
 * analysing a thousand perf.data files.  A summary from another tdperf
 * version is ignored and the rank analysed again.
 */
#include "config.h"
#include "analyze/analyze-int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Events that count core cycles, by the names perf and the tables use. */
static const char *const cycle_events[] = {
	"cycles", "cpu-cycles", "CPU_CLK_UNHALTED.THREAD", "CPU_CLK_UNHALTED.CORE",
	"CPU_CLK_UNHALTED.THREAD_P", "CPU_CLK_UNHALTED.THREAD_ANY", "ls_not_halted_cyc", "CPU_CYCLES",
};

/* A count of the scope's events by name (first match), NAN when absent or not counted. */
static double scope_count(json_t *scope, const char *name)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(scope, "events"), i, e)
		if (td_json_str(e, "name") && !strcmp(td_json_str(e, "name"), name) &&
		    !td_json_str(e, "pmu"))
			return td_json_num(json_object_get(e, "value"));
	json_array_foreach(json_object_get(scope, "events"), i, e)
		if (td_json_str(e, "name") && !strcmp(td_json_str(e, "name"), name))
			return td_json_num(json_object_get(e, "value"));
	return NAN;
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* Level 1-2 Top-Down fractions of the scope, {} when none were computed. */
static json_t *topdown_levels(json_t *scope)
{
	json_t *out = json_object(), *n;
	size_t i;

	json_array_foreach(json_object_get(scope, "nodes"), i, n)
		if (td_json_int(json_object_get(n, "level"), 99) <= 2 && td_json_str(n, "id") &&
		    isfinite(td_json_num(json_object_get(n, "value"))))
			json_object_set_new(out, td_json_str(n, "id"),
					    json_real(td_json_num(json_object_get(n, "value"))));
	return out;
}

/* Seconds per scheduler component summed over the rank's threads, or null. */
static json_t *sched_seconds(json_t *doc)
{
	json_t *secs = json_object_get(json_object_get(json_object_get(doc, "threads"), "aggregate"),
				       "seconds");

	return json_is_object(secs) ? json_deep_copy(secs) : json_null();
}

json_t *td_report_rank_summary(json_t *doc)
{
	json_t *run = json_object_get(doc, "run"), *job = json_object_get(run, "job");
	json_t *scope = td_report_main_scope(doc), *runs = json_object_get(run, "runs"), *r, *out;
	double elapsed = 0, task_ms, cycles = NAN;
	size_t i;

	json_array_foreach(runs, i, r) /* -r N: the workload's runs together */
		elapsed += td_json_num(json_object_get(r, "seconds"));
	task_ms = scope ? scope_count(scope, "task-clock") : NAN;
	for (i = 0; scope && i < sizeof(cycle_events) / sizeof(cycle_events[0]) && !isfinite(cycles); i++)
		cycles = scope_count(scope, cycle_events[i]);
	out = json_pack("{s:s, s:o, s:o, s:O, s:O, s:O, s:o, s:o}", "tdperf_version", PACKAGE_VERSION,
			"rank", json_incref(json_is_object(job) ? json_object_get(job, "rank") : json_null()),
			"job_id", json_incref(json_object_get(job, "job_id")),
			"launcher", json_object_get(job, "launcher") ? json_object_get(job, "launcher") : json_null(),
			"size", json_object_get(job, "size") ? json_object_get(job, "size") : json_null(),
			"node", json_object_get(job, "node") ? json_object_get(job, "node") : json_null(),
			"host", json_incref(json_object_get(job, "host") ? json_object_get(job, "host")
					    : json_object_get(json_object_get(run, "host"), "hostname")),
			"scope", json_incref(json_object_get(job, "scope")));
	json_object_set_new(out, "elapsed_s", num_or_null(json_array_size(runs) ? elapsed : NAN));
	json_object_set_new(out, "cpu_s", num_or_null(task_ms / 1000.0));
	json_object_set_new(out, "context_switches", num_or_null(scope ? scope_count(scope, "context-switches") : NAN));
	json_object_set_new(out, "cpu_migrations", num_or_null(scope ? scope_count(scope, "cpu-migrations") : NAN));
	json_object_set_new(out, "page_faults", num_or_null(scope ? scope_count(scope, "page-faults") : NAN));
	json_object_set_new(out, "exit_status", json_incref(json_object_get(run, "exit_status")));
	json_object_set_new(out, "signal", json_incref(json_object_get(run, "signal")));
	json_object_set_new(out, "interrupted", json_boolean(json_is_true(json_object_get(run, "interrupted"))));
	json_object_set_new(out, "mode", json_incref(json_object_get(run, "mode")));
	json_object_set_new(out, "cpu", json_pack("{s:o, s:o}",
		"name", json_incref(json_object_get(json_object_get(run, "cpu"), "name")),
		"microarchitecture", json_incref(json_object_get(json_object_get(run, "cpu"), "microarchitecture"))));
	json_object_set_new(out, "sched", sched_seconds(doc));
	json_object_set_new(out, "topdown", scope ? topdown_levels(scope) : json_object());
	json_object_set_new(out, "cycles", num_or_null(cycles));
	json_object_set_new(out, "mpi_share", json_null());
	json_object_set_new(out, "mpi_share_with_callees", json_null());
	return out;
}

/*
 * The MPI library's share of the rank's samples, when it recorded
 * per-function samples (tdperf record --hotspots: hotspots.data), as
 * fractions: in the library's own functions, and with what they call.
 * Left null without samples; a hotspots file that cannot be read is said.
 */
static int add_mpi_share(json_t *sum, const char *rankdir, const struct td_report_opts *opts,
			 struct strbuf *err)
{
	char *path = td_path_join(rankdir, "hotspots.data");
	json_t *doc, *mpi;
	int have = td_file_exists(path);

	free(path);
	if (!have)
		return 0;
	doc = td_hotspots_load(rankdir, opts, 0, err);
	if (!doc)
		return -1;
	mpi = json_object_get(json_object_get(doc, "profile"), "mpi");
	json_object_set_new(sum, "mpi_share", json_real(td_json_num(json_object_get(mpi, "percent")) / 100));
	json_object_set_new(sum, "mpi_share_with_callees",
			    json_real(td_json_num(json_object_get(mpi, "children_percent")) / 100));
	json_object_set(sum, "mpi_dsos", json_object_get(mpi, "dsos"));
	json_decref(doc);
	return 0;
}

/* The summary of the rank in rankdir from its report document. */
static json_t *rank_summary_of(json_t *doc, const char *rankdir, const struct td_report_opts *opts,
			       struct strbuf *err)
{
	json_t *sum = td_report_rank_summary(doc);

	if (add_mpi_share(sum, rankdir, opts, err) < 0) {
		json_decref(sum);
		return NULL;
	}
	return sum;
}

int td_report_rank_summary_write(const char *rankdir, const struct td_report_opts *opts,
				 struct strbuf *err)
{
	json_t *doc = td_report_load(rankdir, opts, err), *sum;
	char *path, *text;
	int ret;

	if (!doc)
		return -1;
	sum = rank_summary_of(doc, rankdir, opts, err);
	json_decref(doc);
	if (!sum)
		return -1;
	text = json_dumps(sum, JSON_INDENT(1) | JSON_REAL_PRECISION(12));
	json_decref(sum);
	path = td_path_join(rankdir, "summary.json");
	ret = td_write_file_atomic(path, text, strlen(text));
	if (ret < 0)
		strbuf_addf(err, "%s: %s", path, strerror(errno));
	free(path);
	free(text);
	return ret;
}

json_t *td_report_rank_summary_load(const char *rankdir, const struct td_report_opts *opts,
				    struct strbuf *err)
{
	char *path = td_path_join(rankdir, "summary.json");
	json_t *sum = td_file_exists(path) ? json_load_file(path, 0, NULL) : NULL, *doc;

	free(path);
	if (sum && json_is_object(sum) && td_json_str(sum, "tdperf_version") &&
	    !strcmp(td_json_str(sum, "tdperf_version"), PACKAGE_VERSION) && !opts->cpu && !opts->table &&
	    !opts->smt)
		return sum;
	json_decref(sum);
	doc = td_report_load(rankdir, opts, err);
	if (!doc)
		return NULL;
	sum = rank_summary_of(doc, rankdir, opts, err);
	json_decref(doc);
	return sum;
}
