/*
 * tdperf record: run a command under perf and keep what was measured in a
 * run directory (docs/run-format.md).
 *
 * The work is split in three steps that later features hook into:
 *   plan    (collect/plan.c)    what to measure: groups from the
 *                                scheduler, or the software-only set on a
 *                                machine without a hardware PMU;
 *   runs    (record_one_run)    one execution of the workload with its
 *                                perf processes attached (several runs
 *                                for -r and --no-multiplex);
 *   finish  (record_finish)     meta.json, table.json, commit.
 */
#include "config.h"
#include "collect/cpu.h"
#include "collect/drilldown.h"
#include "collect/job.h"
#include "collect/plan.h"
#include "collect/regions.h"
#include "collect/run.h"
#include "collect/sched.h"
#include "collect/sweep.h"
#include "metrics/table.h"
#include "analyze/report.h"
#include "analyze/compare.h"
#include "report/render.h"
#include "report/html.h"
#include "src/builtin.h"
#include "util/parse-options.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const record_usage[] = {
	"tdperf record [options] [--] <command> [<args>]",
	"tdperf record [options] -p PID | -a",
	"tdperf record --dry-run [--cpu CPU] [options] [--] [<command>]",
	"",
	"Run a command under perf and write what was measured into a run directory",
	"(default tdperf.data; an existing one is kept as tdperf.data.old).",
	"",
	"The exit status is the workload's (128+N when signal N ended it); 127 when the",
	"command does not exist, 2 on bad usage or when perf cannot measure.",
	NULL,
};

struct record_opts {
	struct td_plan_opts plan; /* what to measure, how, and the target */
	int tolerance_pct;       /* --no-multiplex: allowed spread between the runs */
	int live;                /* --live: draw each interval as perf writes it */
	const char *output;
	const char *gather;      /* --gather DIR, under a launcher */
	struct td_sweep sweep;   /* --sweep PARAM=V1,V2,..., or no values */
	const char *sweep_value; /* recording one value of a sweep: "threads=4" */
	int assume_pmu;          /* skip the hardware PMU test (replay perf) */
	int verbose;             /* -v, added to td_verbose */
	int regions;             /* --regions: the marker library counts (collect/regions.h) */
	int region_sample;       /* --region-sample N */
	struct strbuf events;    /* -e EV[,EV...], repeated -e joined by commas */
	int argc;                /* the command line as typed, for meta.json */
	char **argv;
};

struct record {
	struct record_opts o;
	struct td_cpu_info ci;
	struct td_plan plan;     /* runs x perf jobs (collect/plan.h) */
	struct td_rundir rd;
	json_t *files;           /* meta.json "files" */
	json_t *run_list;        /* meta.json "runs" */
	json_t *warnings;
	json_t *regions;         /* meta.json "regions" (--regions) */
	json_t *drilldown;       /* meta.json "drilldown": the steps sampled, or NULL */
	struct td_run_result last;
	int any_run;
	int exit_code;
};

/* ---------------- meta.json helpers ---------------- */

static json_t *argv_json(char *const *v)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; v && v[i]; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

/* record -e: the events one by one, as perf names them in its output (report matches them). */
static json_t *extra_events_json(const char *spec)
{
	struct strvec names = STRVEC_INIT;
	json_t *a = json_array();
	size_t i;

	if (spec)
		td_sched_extra_names(spec, &names);
	for (i = 0; i < names.nr; i++)
		json_array_append_new(a, json_string(names.v[i]));
	strvec_clear(&names);
	return a;
}

static void add_warning(struct record *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void add_warning(struct record *r, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (!r->o.plan.dry_run)
		warning("%s", sb.buf);
	json_array_append_new(r->warnings, json_string(sb.buf));
	strbuf_release(&sb);
}

/* ---------------- running ---------------- */

/*
 * record --live: the interval file perf is writing, read as it grows and
 * drawn (report/live.c).  perf flushes its output after every interval.
 */
struct live_tail {
	struct td_live *lv;
	struct strvec clusters;  /* big.LITTLE Arm: "PMU=TABLE" per cluster counted */
	char *path;
	off_t offset;
	int failed;
};

static void live_tail_read(void *ctx)
{
	struct live_tail *t = ctx;
	struct strbuf err = STRBUF_INIT;
	char buf[65536];
	ssize_t n;
	int fd;

	if (t->failed || (fd = open(t->path, O_RDONLY)) < 0)
		return;         /* perf has not created it yet */
	while ((n = pread(fd, buf, sizeof(buf), t->offset)) > 0) {
		t->offset += n;
		if (td_live_feed(t->lv, buf, (size_t)n, &err) < 0) {
			warning("--live: %s", err.buf);
			t->failed = 1;
			break;
		}
	}
	close(fd);
	strbuf_release(&err);
}

static void live_tail_start(struct record *r, const struct td_plan_run *run, struct live_tail *t)
{
	struct td_report_opts opts = { 0 };
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < run->nr_jobs && !t->path; i++)
		if (!strcmp(run->jobs[i].role, "perf-stat"))
			t->path = td_rundir_file(&r->rd, run->jobs[i].file);
	if (!t->path)
		return;
	opts.cpu = r->plan.table ? td_table_info(r->plan.table)->name : NULL;
	opts.max_level = r->plan.req.level;
	if (r->plan.arm_clusters) {
		strvec_pushf(&t->clusters, "%s=%s", r->plan.sched.budget.pmu_name,
			     td_table_info(r->plan.table)->name);
		for (i = 0; i < r->plan.nr_clusters; i++)
			strvec_pushf(&t->clusters, "%s=%s", r->plan.clusters[i].pmu->name,
				     td_table_info(r->plan.clusters[i].table)->name);
		opts.clusters = t->clusters.v;
	}
	t->lv = td_live_new(&opts, stdout, isatty(1));
}

static void live_tail_finish(struct live_tail *t)
{
	struct strbuf err = STRBUF_INIT;

	if (!t->lv)
		return;
	live_tail_read(t);
	if (!t->failed && td_live_finish(t->lv, &err) < 0)
		warning("--live: %s", err.buf);
	td_live_free(t->lv);
	free(t->path);
	strvec_clear(&t->clusters);
	strbuf_release(&err);
}

/* Run the workload once with the jobs of 'run'; 0, or -1 (nothing measured). */
static int record_one_run(struct record *r, struct td_plan_run *run, size_t index)
{
	struct td_perf_job *jobs = xcalloc(run->nr_jobs, sizeof(*jobs));
	struct strvec *argvs = xcalloc(run->nr_jobs, sizeof(*argvs));
	struct td_run_spec spec = { 0 };
	struct live_tail live = { 0 };
	struct strbuf err = STRBUF_INIT;
	struct td_run_result res;
	json_t *rj, *rfiles;
	size_t i;
	int ret = 0;

	/* perf writes into the run directory: run it there */
	for (i = 0; i < run->nr_jobs; i++) {
		struct strbuf sb = STRBUF_INIT;
		char **argv = run->jobs[i].argv.v;
		size_t k;

		for (k = 0; argv[k]; k++) {
			if (k > 0 && !strcmp(argv[k - 1], "-o")) {
				char *out_path = td_rundir_file(&r->rd, run->jobs[i].file);

				strvec_push(&argvs[i], out_path); /* strvec_push copies */
				free(out_path);
			} else
				strvec_push(&argvs[i], argv[k]);
		}
		jobs[i].argv = argvs[i].v;
		strbuf_addf(&sb, "perf-stderr-%zu%s%s.txt", index + 1,
			    strcmp(run->jobs[i].role, "perf-stat") ? "-" : "",
			    strcmp(run->jobs[i].role, "perf-stat") ? run->jobs[i].role : "");
		jobs[i].stderr_path = td_rundir_file(&r->rd, sb.buf);
		strbuf_release(&sb);
	}
	spec.workload = r->o.plan.workload;
	spec.attach_pid = (pid_t)r->o.plan.pid;
	spec.system_wide = r->o.plan.system_wide || r->o.plan.cpu_list;
	spec.jobs = jobs;
	spec.nr_jobs = run->nr_jobs;
	if (r->o.live) {
		live_tail_start(r, run, &live);
		spec.tick = live_tail_read;
		spec.tick_ctx = &live;
	}
	if (td_run_workload(&spec, &res, &err) < 0) {
		live_tail_finish(&live);
		error("perf failed: %s", err.buf);
		ret = -1;
		goto out;
	}
	live_tail_finish(&live);
	if (res.exec_errno) {
		error("cannot run '%s': %s", r->o.plan.workload[0], strerror(res.exec_errno));
		r->exit_code = res.exec_errno == ENOENT ? 127 : 126;
		ret = -1;
		goto out;
	}
	r->any_run = 1;
	rj = json_pack("{s:i, s:i, s:o, s:s, s:s, s:f}", "index", (int)index + 1,
		       "repeat", run->repeat,
		       "group", run->group < 0 ? json_null() : json_integer(run->group + 1),
		       "start_time", res.start_time, "end_time", res.end_time,
		       "seconds", res.seconds);
	json_object_set_new(rj, "exit_status",
			    res.exited ? json_integer(res.exit_status) : json_null());
	json_object_set_new(rj, "signal",
			    res.signo ? json_string(td_signal_name(res.signo)) : json_null());
	rfiles = json_array();
	for (i = 0; i < run->nr_jobs; i++) {
		struct td_plan_job *j = &run->jobs[i];
		struct strvec a = STRVEC_INIT;
		json_t *f;
		const char *stderr_name = strrchr(jobs[i].stderr_path, '/') + 1;
		char *written = td_rundir_file(&r->rd, j->file);
		int exists = td_file_exists(written);

		free(written);
		td_plan_job_command(&r->plan, j, &a);
		if (!exists) {
			struct strbuf why = STRBUF_INIT;

			td_last_line(jobs[i].stderr_path, &why);
			add_warning(r, "%s wrote no %s: %s", j->role, j->file,
				    why.len ? why.buf : "no message");
			strbuf_release(&why);
			strvec_clear(&a);
			continue;
		}
		f = json_pack("{s:s, s:s, s:s, s:o, s:i, s:o}", "name", j->file, "role", j->role,
			      "format", strstr(j->file, ".csv") ? "csv" : "perf.data",
			      "perf_command", argv_json(a.v), "run", (int)index + 1,
			      "group", j->group < 0 ? json_null() : json_integer(j->group + 1));
		json_object_set_new(f, "stderr", json_string(stderr_name));
		json_array_append_new(r->files, f);
		json_array_append_new(r->files,
			json_pack("{s:s, s:s, s:i}", "name", stderr_name, "role", "perf-stderr",
				  "run", (int)index + 1));
		json_array_append_new(rfiles, json_string(j->file));
		strvec_clear(&a);
	}
	json_object_set_new(rj, "files", rfiles);
	json_array_append_new(r->run_list, rj);
	td_run_result_release(&r->last);
	r->last = res;
	memset(&res, 0, sizeof(res));
out:
	td_run_result_release(&res);
	for (i = 0; i < run->nr_jobs; i++) {
		strvec_clear(&argvs[i]);
		free(jobs[i].stderr_path);
	}
	free(argvs);
	free(jobs);
	strbuf_release(&err);
	return ret;
}

/* ---------------- comparability of --no-multiplex runs ---------------- */

/* instructions counted in a run's CSV, NAN when absent. */
static double run_instructions(struct record *r, const char *file)
{
	char *path = td_rundir_file(&r->rd, file);
	double v = td_report_file_count(path, "instructions");

	free(path);
	return v;
}

/*
 * With --no-multiplex each group is counted in its own run, so ratios
 * across groups assume the runs did the same work in the same time:
 * check instructions and wall time against the first run.
 */
static void check_comparable(struct record *r)
{
	size_t i, n = json_array_size(r->run_list);
	double ins0 = NAN, t0 = NAN, tol = r->o.tolerance_pct / 100.0;
	int bad = 0;

	if (!r->o.plan.no_multiplex || n < 2)
		return;
	for (i = 0; i < n; i++) {
		json_t *run = json_array_get(r->run_list, i);
		const char *file = json_string_value(json_array_get(json_object_get(run, "files"), 0));
		double secs = json_number_value(json_object_get(run, "seconds"));
		double ins = file ? run_instructions(r, file) : NAN;

		json_object_set_new(run, "instructions", isnan(ins) ? json_null() : json_real(ins));
		if (!i) {
			ins0 = ins;
			t0 = secs;
			continue;
		}
		if (!isnan(ins0) && !isnan(ins) && fabs(ins - ins0) > tol * ins0) {
			add_warning(r, "runs not comparable: run %zu retired %.0f instructions, run 1 %.0f "
				    "(more than %d %% apart); ratios across groups are unreliable",
				    i + 1, ins, ins0, r->o.tolerance_pct);
			bad = 1;
		}
		/* 10 ms of slack: short runs jitter by scheduling alone */
		if (fabs(secs - t0) > tol * t0 + 0.01) {
			add_warning(r, "runs not comparable: run %zu took %.3f s, run 1 %.3f s (more than "
				    "%d %% apart)", i + 1, secs, t0, r->o.tolerance_pct);
			bad = 1;
		}
		if (isnan(ins) && !isnan(ins0))
			add_warning(r, "run %zu: instructions not counted, comparability unchecked", i + 1);
	}
	json_object_set_new(json_array_get(r->run_list, 0), "comparable", json_boolean(!bad));
}

/* ---------------- --regions (collect/regions.h) ---------------- */

/* The spec of the run's groups in the run directory, named in the workload's environment. */
static int regions_start(struct record *r)
{
	struct strbuf err = STRBUF_INIT;
	char *path = td_rundir_file(&r->rd, TD_REGIONS_SPEC);
	int ret = td_regions_spec_write(&r->plan, path,
					(unsigned long)(r->o.region_sample ? r->o.region_sample : 1), &err);

	if (ret < 0)
		error("--regions: %s", err.buf);
	else
		setenv(TD_REGIONS_ENV, path, 1);
	free(path);
	strbuf_release(&err);
	return ret;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The regions-PID.json files the workload's processes wrote, into meta.json. */
static json_t *regions_finish(struct record *r)
{
	char *spec = td_rundir_file(&r->rd, TD_REGIONS_SPEC), *slash = strrchr(spec, '/');
	json_t *files = json_array(), *o;
	struct strvec names = STRVEC_INIT;
	struct dirent *d;
	DIR *dir;
	size_t i;

	unsetenv(TD_REGIONS_ENV);
	*slash = '\0';
	dir = opendir(spec);
	while (dir && (d = readdir(dir)))
		if (!strncmp(d->d_name, "regions-", 8) && strlen(d->d_name) > 13 &&
		    !strcmp(d->d_name + strlen(d->d_name) - 5, ".json"))
			strvec_push(&names, d->d_name);
	if (dir)
		closedir(dir);
	if (names.nr)
		qsort(names.v, names.nr, sizeof(*names.v), cmp_names);
	for (i = 0; i < names.nr; i++) {
		json_array_append_new(files, json_string(names.v[i]));
		json_array_append_new(r->files, json_pack("{s:s, s:s}", "name", names.v[i],
							  "role", "regions"));
	}
	if (!names.nr)
		add_warning(r, "--regions: the workload wrote no regions: is it linked with "
			    "-ltdperf (pkg-config tdperf), or did it crash?");
	json_array_append_new(r->files, json_pack("{s:s, s:s}", "name", TD_REGIONS_SPEC,
						  "role", "regions-spec"));
	o = json_pack("{s:s, s:i, s:o}", "spec", TD_REGIONS_SPEC, "sample",
		      r->o.region_sample ? r->o.region_sample : 1, "files", files);
	strvec_clear(&names);
	free(spec);
	return o;
}

/* ---------------- finishing ---------------- */

static json_t *analysis(const char *status, const char *reason)
{
	json_t *o = json_pack("{s:s}", "status", status);

	if (reason)
		json_object_set_new(o, "reason", json_string(reason));
	return o;
}

/* Which analyses this run allows, and why not the others. */
static json_t *record_analyses(const struct record *r)
{
	static const char *const hw[] = { "topdown", "cpi_stacks", "flops", "frontend", "roofline" };
	json_t *a = json_object();
	struct strbuf why = STRBUF_INIT;
	size_t i;

	if (!r->plan.hardware) {
		if (!r->plan.table && r->ci.hardware_pmu)
			strbuf_addf(&why, "no formula table for this CPU (%s): choose one with --cpu",
				    r->ci.table_error ? r->ci.table_error : "unknown CPU");
		else
			strbuf_addf(&why, "no hardware PMU: %s",
				    r->ci.cycles_why ? r->ci.cycles_why : "cycles cannot be counted");
	}
	for (i = 0; i < TD_ARRAY_SIZE(hw); i++) {
		if (!r->plan.hardware)
			json_object_set_new(a, hw[i], analysis("impossible", why.buf));
		else if (!strcmp(hw[i], "topdown") && !td_table_has_tree(r->plan.table))
			json_object_set_new(a, hw[i], analysis("impossible",
							       td_table_info(r->plan.table)->missing
							       ? td_table_info(r->plan.table)->missing
							       : "the formula table has no Top-Down tree"));
		else if (!strcmp(hw[i], "topdown"))
			json_object_set_new(a, hw[i], analysis(r->plan.req.level > 0 || r->plan.req.nodes
							       ? "ok" : "not_recorded",
							       NULL));
		else
			json_object_set_new(a, hw[i], analysis(r->plan.req.stacks ? "ok" : "not_recorded",
							       r->plan.req.stacks ? NULL
							       : "not asked for: use --stacks"));
	}
	json_object_set_new(a, "software_counts", analysis("ok", NULL));
	if (r->plan.sched_tracepoints)
		json_object_set_new(a, "threads", analysis("ok", NULL));
	else if (!r->ci.tracepoints_ok)
		json_object_set_new(a, "threads", analysis("impossible", r->ci.tracepoints_why));
	else
		json_object_set_new(a, "threads", analysis("not_recorded",
							   "sched tracepoints not asked for: use --sched"));
	strbuf_release(&why);
	return a;
}

static json_t *schedule_json(const struct td_sched *s)
{
	json_t *groups = json_array();
	size_t g, e;

	for (g = 0; g < s->nr_groups; g++) {
		json_t *ev = json_array(), *m = json_array();

		for (e = 0; e < s->groups[g].nr_events; e++)
			json_array_append_new(ev, json_string(s->groups[g].events[e].name));
		for (e = 0; e < s->groups[g].nr_metrics; e++)
			json_array_append_new(m, json_string(s->groups[g].metrics[e]));
		json_array_append_new(groups, json_pack("{s:s, s:o, s:o}", "pmu", s->groups[g].pmu,
							"events", ev, "metrics", m));
	}
	return groups;
}

/* Copy a table file into the run directory as 'name'. */
static int copy_table_file(struct record *r, const struct td_table *t, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	char *dst;
	int ret;

	if (td_read_file(&sb, td_table_path(t)) < 0) {
		error("%s: %s", td_table_path(t), strerror(errno));
		strbuf_release(&sb);
		return -1;
	}
	dst = td_rundir_file(&r->rd, name);
	ret = td_write_file_atomic(dst, sb.buf, sb.len);
	if (ret < 0)
		error("%s: %s", dst, strerror(errno));
	free(dst);
	strbuf_release(&sb);
	return ret;
}

/*
 * big.LITTLE Arm: meta.json "table" names the detected CPU's cluster PMU
 * ("pmu") and holds one entry per other cluster counted, keyed by its
 * PMU, with the table copied beside the first.
 */
static int write_cluster_tables(struct record *r, json_t *meta)
{
	json_t *table = json_object_get(meta, "table");
	struct strbuf name = STRBUF_INIT;
	size_t i;

	json_object_set_new(table, "pmu", json_string(r->plan.sched.budget.pmu_name));
	for (i = 0; i < r->plan.nr_clusters; i++) {
		const struct td_plan_cluster *c = &r->plan.clusters[i];

		strbuf_reset(&name);
		strbuf_addf(&name, "table-%s.json", c->pmu->name);
		if (copy_table_file(r, c->table, name.buf) < 0) {
			strbuf_release(&name);
			return -1;
		}
		json_array_append_new(r->files, json_pack("{s:s, s:s}", "name", name.buf,
							  "role", "table"));
		json_object_set_new(table, c->pmu->name, json_pack("{s:s, s:s, s:s?, s:s?}",
			"name", td_table_info(c->table)->name, "file", name.buf,
			"cpus", c->pmu->cpus, "cpuid", c->pmu->cpuid));
	}
	strbuf_release(&name);
	return 0;
}

/*
 * meta.json for the runs done so far; the last run gives the exit
 * status (they differ only if the workload is not deterministic).
 */
static int record_finish(struct record *r)
{
	json_t *meta = json_object();
	const struct td_run_result *res = &r->last;
	char *path, *text;
	int ret = 0;

	json_object_set_new(meta, "format", json_string("tdperf-run"));
	json_object_set_new(meta, "version", json_integer(TD_RUN_FORMAT_VERSION));
	json_object_set_new(meta, "tdperf_version", json_string(PACKAGE_VERSION));
	json_object_set_new(meta, "kind", json_string("record"));
	{
		struct strvec cl = STRVEC_INIT;
		int i;

		strvec_push(&cl, "tdperf");
		for (i = 0; i < r->o.argc; i++)
			strvec_push(&cl, r->o.argv[i]);
		json_object_set_new(meta, "command_line", argv_json(cl.v));
		strvec_clear(&cl);
	}
	json_object_set_new(meta, "workload", r->o.plan.workload ? argv_json(r->o.plan.workload) : json_null());
	json_object_set_new(meta, "target",
		r->o.plan.pid > 0 ? json_pack("{s:I}", "pid", (json_int_t)r->o.plan.pid)
		: r->o.plan.system_wide || r->o.plan.cpu_list
			? json_pack("{s:s}", "cpus", r->o.plan.cpu_list ? r->o.plan.cpu_list : "all")
			: json_null());
	json_object_set_new(meta, "extra_events", extra_events_json(r->o.plan.events));
	json_object_set_new(meta, "start_time", json_string(json_string_value(
		json_object_get(json_array_get(r->run_list, 0), "start_time"))));
	json_object_set_new(meta, "end_time", json_string(res->end_time));
	json_object_set_new(meta, "exit_status", res->exited ? json_integer(res->exit_status)
							     : json_null());
	json_object_set_new(meta, "signal", res->signo ? json_string(td_signal_name(res->signo))
						       : json_null());
	json_object_set_new(meta, "interrupted", json_boolean(td_run_interrupted()));
	if (td_job_current()) /* one rank of a job (collect/job.c) */
		json_object_set_new(meta, "job", td_job_rank_json(td_job_current()));
	td_meta_add_machine(meta, &r->ci);
	if (r->o.plan.smt >= 0)
		json_object_set_new(json_object_get(meta, "smt"), "source", json_string("--smt"));
	if (r->o.assume_pmu)
		json_object_set_new(meta, "hardware_pmu_source", json_string("--assume-pmu"));
	if (r->o.plan.cpu && r->plan.table) {
		json_t *cpu = json_object_get(meta, "cpu");

		json_object_set_new(cpu, "microarchitecture",
				    json_string(td_table_info(r->plan.table)->name));
		json_object_set_new(cpu, "source", json_string("--cpu"));
	}
	json_object_set_new(meta, "mode", json_string(r->plan.hardware ? "hardware" : "software"));
	if (r->plan.hardware) {
		if (copy_table_file(r, r->plan.table, "table.json") < 0) {
			json_decref(meta);
			return -1;
		}
		json_array_append_new(r->files, json_pack("{s:s, s:s}", "name", "table.json",
							  "role", "table"));
		json_object_set_new(meta, "table", json_pack("{s:s, s:s}", "name",
			td_table_info(r->plan.table)->name, "file", "table.json"));
		if (r->plan.atom_table) {
			if (copy_table_file(r, r->plan.atom_table, "table-cpu_atom.json") < 0) {
				json_decref(meta);
				return -1;
			}
			json_array_append_new(r->files, json_pack("{s:s, s:s}", "name",
				"table-cpu_atom.json", "role", "table"));
			json_object_set_new(json_object_get(meta, "table"), "cpu_atom", json_pack("{s:s, s:s}",
				"name", td_table_info(r->plan.atom_table)->name, "file", "table-cpu_atom.json"));
		}
		if (r->plan.arm_clusters && write_cluster_tables(r, meta) < 0) {
			json_decref(meta);
			return -1;
		}
		json_object_set_new(meta, "level", json_integer(r->plan.req.level));
		json_object_set_new(meta, "groups", schedule_json(&r->plan.sched));
		json_object_set_new(meta, "multiplexed",
				    json_boolean(td_plan_multiplexed(&r->plan)));
	} else {
		json_object_set_new(meta, "table", json_null());
	}
	json_object_set_new(meta, "repeats", json_integer(r->o.plan.repeats));
	json_object_set_new(meta, "no_multiplex", json_boolean(r->o.plan.no_multiplex));
	json_object_set_new(meta, "interval_ms",
			    r->o.plan.interval_ms > 0 ? json_integer(r->o.plan.interval_ms) : json_null());
	json_object_set_new(meta, "runs", json_incref(r->run_list));
	json_object_set_new(meta, "files", json_incref(r->files));
	json_object_set_new(meta, "analyses", record_analyses(r));
	if (r->regions)
		json_object_set_new(meta, "regions", json_incref(r->regions));
	json_object_set_new(meta, "warnings", json_incref(r->warnings));
	if (r->drilldown)
		json_object_set_new(meta, "drilldown", json_incref(r->drilldown));

	text = json_dumps(meta, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	path = td_rundir_file(&r->rd, "meta.json");
	{
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, text);
		strbuf_addch(&sb, '\n');
		if (td_write_file_atomic(path, sb.buf, sb.len) < 0)
			ret = error("%s: %s", path, strerror(errno));
		strbuf_release(&sb);
	}
	free(path);
	free(text);
	json_decref(meta);
	return ret;
}

/* ---------------- the command ---------------- */

/* Is argv[0] something we can run?  Checked before anything is written. */
static int workload_runnable(const char *prog)
{
	char *path = td_which(prog);
	int ok;

	if (!path && strchr(prog, '/') && td_file_exists(prog))
		path = xstrdup(prog); /* there, but not executable: said below */
	if (!path) {
		error("'%s': command not found", prog);
		return 127;
	}
	ok = !access(path, X_OK);
	if (!ok)
		error("'%s': %s", path, strerror(errno));
	free(path);
	return ok ? 0 : 126;
}

/* --smt and --nmi-watchdog: on or off (1 or 0) into the int at opt->value. */
static int parse_on_off(const struct td_option *opt, const char *arg, struct strbuf *err)
{
	int *out = opt->value;

	if (!strcmp(arg, "on") || !strcmp(arg, "1"))
		*out = 1;
	else if (!strcmp(arg, "off") || !strcmp(arg, "0"))
		*out = 0;
	else
		return strbuf_addf(err, "--%s takes on or off, not '%s'", opt->long_name, arg), -1;
	return 0;
}

/* -e: perf's event list; a repeated -e adds to it, as in perf. */
static int parse_events(const struct td_option *opt, const char *arg, struct strbuf *err)
{
	struct strbuf *sb = opt->value;

	if (!*arg)
		return strbuf_addstr(err, "-e takes an event list"), -1;
	if (sb->len)
		strbuf_addch(sb, ',');
	strbuf_addstr(sb, arg);
	return 0;
}

/* --drilldown[=N]: how many levels below the flagged node to go (1 without a value). */
static int parse_drilldown(const struct td_option *opt, const char *arg, struct strbuf *err)
{
	int *out = opt->value;
	char *end;
	long v;

	if (!arg) {
		*out = 1;
		return 0;
	}
	v = strtol(arg, &end, 10);
	if (end == arg || *end || v < 1 || v > 8)
		return strbuf_addf(err, "--drilldown takes a number of steps from 1 to 8, not '%s'", arg), -1;
	*out = (int)v;
	return 0;
}

static int parse_sweep(const struct td_option *opt, const char *arg, struct strbuf *err)
{
	struct td_sweep *sweep = opt->value;

	td_sweep_release(sweep); /* the last --sweep counts */
	return td_sweep_parse(arg, sweep, err);
}

/*
 * -C LIST must name online CPUs: perf would say only "failed to parse
 * CPUs map" or fail to open its events, after tdperf has started.
 */
static int check_cpu_list(const char *list, int check_online)
{
	unsigned char want[4096 / 8] = { 0 }, online[4096 / 8] = { 0 };
	struct strbuf sb = STRBUF_INIT;
	int c, ok = 1;

	if (td_cpu_list_parse(list, want, 4096) < 0)
		return td_usage_error(record_usage, "-C takes a CPU list such as 0-3,8, not '%s'", list) ? -1 : -1;
	if (!check_online || td_read_file(&sb, "/sys/devices/system/cpu/online") < 0 ||
	    td_cpu_list_parse(sb.buf, online, 4096) < 0) {
		strbuf_release(&sb);
		return 0;       /* nothing to check against: perf will say */
	}
	strbuf_trim(&sb);
	for (c = 0; c < 4096 && ok; c++)
		if ((want[c / 8] & (1u << (c % 8))) && !(online[c / 8] & (1u << (c % 8)))) {
			error("record: -C %s: CPU %d is not online (the online CPUs are %s)", list, c, sb.buf);
			ok = 0;
		}
	strbuf_release(&sb);
	return ok ? 0 : -1;
}

/* -p PID must be a running process: perf says only "Problems finding threads of monitor". */
static int check_pid(int pid)
{
	if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		return error("record: -p %d: no such process", pid);
	return 0;
}

/* What the options mean together, once parsed. */
static int check_options(const struct record_opts *o)
{
	if (o->region_sample && !o->regions)
		return td_usage_error(record_usage, "--region-sample goes with --regions") ? -1 : -1;
	if (o->regions && (o->plan.pid || o->plan.system_wide || o->plan.cpu_list || o->plan.repeats > 1 ||
			   o->plan.no_multiplex || o->plan.interval_ms > 0 || o->plan.hotspots || o->sweep.nr))
		return td_usage_error(record_usage, "--regions counts one run of a command in the "
				      "command's own threads: not with -p, -a, -C, -r, --no-multiplex, -I, "
				      "--hotspots or --sweep") ? -1 : -1;
	if (o->gather)
		return td_usage_error(record_usage, "--gather applies only under srun or mpirun "
				      "(no rank found in the environment)") ? -1 : -1;
	if (o->live && o->plan.interval_ms <= 0)
		return td_usage_error(record_usage, "--live needs -I MS (it draws each interval)") ? -1 : -1;
	if (o->plan.locate && !o->plan.hotspots)
		return td_usage_error(record_usage, "--locate goes with --hotspots") ? -1 : -1;
	if ((o->plan.callgraph || o->plan.freq) && !o->plan.hotspots && !o->plan.drilldown)
		return td_usage_error(record_usage, "-g and -F go with --hotspots or --drilldown") ? -1 : -1;
	if (o->plan.drilldown && (o->plan.dry_run || o->plan.no_multiplex || o->plan.repeats > 1 ||
				  o->plan.interval_ms > 0 || o->plan.pid))
		return td_usage_error(record_usage, "--drilldown chooses its second run from the first: "
				      "it cannot be used with %s", o->plan.dry_run ? "--dry-run"
				      : o->plan.no_multiplex ? "--no-multiplex" : o->plan.repeats > 1 ? "-r"
				      : o->plan.interval_ms > 0 ? "-I" : "-p") ? -1 : -1;
	if (o->sweep.nr && (o->plan.pid || o->plan.system_wide))
		return td_usage_error(record_usage, "--sweep runs a command once per value: "
				      "it cannot be used with %s", o->plan.pid ? "-p" : "-a") ? -1 : -1;
	if (o->sweep.nr && !o->plan.workload)
		return td_usage_error(record_usage, "--sweep needs a command to run") ? -1 : -1;
	if (!o->plan.workload && !o->plan.pid && !o->plan.system_wide && !o->plan.cpu_list && !o->plan.dry_run)
		return td_usage_error(record_usage, "no command to run (or -p PID, -a)") ? -1 : -1;
	if (o->plan.workload && o->plan.pid)
		return td_usage_error(record_usage, "-p and a command exclude each other") ? -1 : -1;
	/* perf stat aggregates per core or CPU only what it counts on CPUs: system wide */
	if ((o->plan.per_core || o->plan.no_aggr) && !o->plan.system_wide && !o->plan.cpu_list)
		return td_usage_error(record_usage, "%s counts per %s on the CPUs of -a or -C: add one",
				      o->plan.per_core ? "--per-core" : "-A",
				      o->plan.per_core ? "core" : "CPU") ? -1 : -1;
	if (o->plan.per_core + o->plan.no_aggr + o->plan.per_thread > 1)
		return td_usage_error(record_usage, "--per-core, -A and --per-thread exclude each other") ? -1 : -1;
	if (o->plan.per_thread && !o->plan.pid && !o->plan.workload)
		return td_usage_error(record_usage, "--per-thread needs a command or -p") ? -1 : -1;
	/* --dry-run may plan for another machine (--cpu NAME): only the list's form is checked */
	if (o->plan.cpu_list && check_cpu_list(o->plan.cpu_list, !o->plan.dry_run) < 0)
		return -1;
	if (o->plan.pid && !o->plan.dry_run && check_pid(o->plan.pid) < 0)
		return -1;
	return 0;
}

static void record_release(struct record *r)
{
	td_plan_release(&r->plan); /* zeroed, or built */
	td_run_result_release(&r->last);
	td_cpu_info_release(&r->ci);
	json_decref(r->files);
	json_decref(r->run_list);
	json_decref(r->warnings);
	json_decref(r->regions);
	json_decref(r->drilldown);
}

/* The exit status that forwards the workload's. */
static int forwarded_status(const struct td_run_result *res)
{
	if (res->exited)
		return res->exit_status;
	if (res->signo)
		return 128 + res->signo;
	return 0;
}

/* ---------------- --drilldown: sample the node the counts point at ---------------- */

/* The report of one counting file of this run, read before the run is committed. */
static json_t *counted_report(struct record *r, const char *file)
{
	struct td_report_opts opts = { 0 };
	struct strbuf err = STRBUF_INIT;
	char *path = td_rundir_file(&r->rd, file);
	json_t *doc;

	opts.cpu = td_table_info(r->plan.table)->name;
	opts.smt = r->plan.sched.budget.smt ? "on" : "off";
	doc = td_report_load(path, &opts, &err);
	if (!doc)
		add_warning(r, "--drilldown: %s: %s", file, err.buf);
	free(path);
	strbuf_release(&err);
	return doc;
}

/* The node's value and name in a report, into the step. */
static void step_node(json_t *step, json_t *doc, const char *id)
{
	json_t *nodes = json_object_get(td_report_main_scope(doc), "nodes"), *n;
	size_t i;

	json_array_foreach(nodes, i, n)
		if (!strcmp(td_json_str_or(n, "id", ""), id)) {
			json_object_set(step, "name", json_object_get(n, "name"));
			json_object_set(step, "level", json_object_get(n, "level"));
			json_object_set(step, "value", json_object_get(n, "value"));
		}
}

/*
 * --drilldown=2 and further: count the node's children (with its path,
 * whose values their flags need) in a run of their own, and return the
 * flagged child with the largest value (a string of the document kept in
 * *doc), or NULL with a warning.
 */
static const char *count_children(struct record *r, const char *node, int step, json_t **doc)
{
	struct strbuf ids = STRBUF_INIT, err = STRBUF_INIT, file = STRBUF_INIT;
	const char *child = NULL;
	long run;

	if (!td_drilldown_count_nodes(r->plan.table, node, &ids)) {
		add_warning(r, "--drilldown: step %d: %s has no child nodes in table %s: the drill-down "
			    "stops at it", step, node, td_table_info(r->plan.table)->name);
		goto out;
	}
	strbuf_addf(&file, "drilldown-count-%d.csv", step);
	run = td_plan_add_count_run(&r->plan, ids.buf, file.buf, &err);
	if (run < 0) {
		add_warning(r, "--drilldown: step %d: cannot count the children of %s: %s", step, node, err.buf);
		goto out;
	}
	if (record_one_run(r, &r->plan.runs[run], (size_t)run) < 0 || !(*doc = counted_report(r, file.buf)))
		goto out;
	child = td_report_drilldown_child(*doc, node);
	if (!child)
		add_warning(r, "--drilldown: step %d: no child of %s is flagged: the drill-down stops at it",
			    step, node);
out:
	strbuf_release(&ids);
	strbuf_release(&err);
	strbuf_release(&file);
	return child;
}

/* The core PMU's caps/max_precise: precise sampling (PEBS) or not. */
static int core_max_precise(const struct record *r)
{
	size_t i;

	for (i = 0; i < r->ci.nr_pmus; i++)
		if (r->ci.pmus[i].core)
			return td_drilldown_max_precise(r->ci.pmus[i].name);
	return 0;
}

/* Sample node 'id' (NULL: no hardware counters) in a run of its own; the step goes into meta.json. */
static int sample_node(struct record *r, const char *id, int step, json_t *counted)
{
	struct td_drilldown d;
	struct strbuf file = STRBUF_INIT;
	json_t *j;
	size_t run;
	struct strbuf why = STRBUF_INIT;
	int ret;

	if (!r->plan.table)
		strbuf_addf(&why, "no formula table for this CPU (%s)",
			    r->ci.table_error ? r->ci.table_error : "unknown CPU");
	else
		strbuf_addf(&why, "no hardware PMU: %s",
			    r->ci.cycles_why ? r->ci.cycles_why : "cycles cannot be counted");
	td_drilldown_plan(r->plan.hardware ? r->plan.table : NULL, id, &r->plan.sched.budget,
			  core_max_precise(r), why.buf, &d);
	strbuf_release(&why);
	if (d.note.len)
		add_warning(r, "--drilldown: %s", d.note.buf);
	if (step > 1)
		strbuf_addf(&file, "drilldown-%d.data", step);
	else
		strbuf_addstr(&file, "drilldown.data");
	run = td_plan_add_sample_run(&r->plan, "drilldown", file.buf, d.events.buf);
	j = json_pack("{s:i, s:o, s:s}", "step", step, "node", id ? json_string(id) : json_null(),
		      "file", file.buf);
	if (counted && id)
		step_node(j, counted, id);
	json_object_set_new(j, "sampled", json_pack("{s:s, s:s, s:b, s:s, s:o}",
		"kind", td_drilldown_kind_name(d.kind), "event", d.leader, "precise", d.precise,
		"events", d.events.buf, "note", d.note.len ? json_string(d.note.buf) : json_null()));
	json_array_append_new(r->drilldown, j);
	ret = record_one_run(r, &r->plan.runs[run], run);
	td_drilldown_release(&d);
	strbuf_release(&file);
	return ret;
}

/*
 * record --drilldown[=N], after the counting runs: the report of the
 * first run names the deepest flagged node of its bottleneck path
 * (analyze/drilldown.c), whose locate-with event is sampled in one more
 * run (collect/drilldown.c); each further step counts that node's
 * children and samples the flagged one.  Without hardware counters the
 * step samples cpu-clock and says why.  A failed step is a warning: the
 * counts stand.  Returns 0, or the exit status of a run that failed.
 */
static int record_drilldown(struct record *r)
{
	json_t *doc = NULL, *more = NULL;
	const char *node = NULL;
	int step;

	r->drilldown = json_array();
	if (!r->plan.hardware)
		return sample_node(r, NULL, 1, NULL) < 0 ? (r->exit_code ? r->exit_code : 2) : 0;
	if (!td_table_has_tree(r->plan.table)) {
		add_warning(r, "--drilldown: table %s has no Top-Down tree: nothing to drill into",
			    td_table_info(r->plan.table)->name);
		return 0;
	}
	doc = counted_report(r, r->plan.runs[0].jobs[0].file);
	node = doc ? td_report_drilldown_node(doc) : NULL;
	if (doc && !node)
		add_warning(r, "--drilldown: no node of the bottleneck path is flagged: nothing to drill into");
	for (step = 1; node && step <= r->o.plan.drilldown; step++) {
		if (step > 1) {
			json_t *next = NULL;

			node = count_children(r, node, step, &next);
			json_decref(more);
			more = next;
			if (!node)
				break;
		}
		if (sample_node(r, node, step, step > 1 ? more : doc) < 0)
			break;
	}
	json_decref(doc);
	json_decref(more);
	return 0;
}

static int record_run_all(struct record *r)
{
	size_t i;
	int ret = 0, had_previous;

	if (td_rundir_begin(&r->rd, r->o.output) < 0) {
		if (errno == EBUSY)
			error("%s: another tdperf is writing this run now (%s.tmp-PID exists); "
			      "wait for it or record into another -o", r->o.output, r->o.output);
		else
			error("cannot create the run directory next to '%s': %s", r->o.output, strerror(errno));
		return 2;
	}
	if (r->o.regions && regions_start(r) < 0) {
		td_rundir_abort(&r->rd);
		return 2;
	}
	for (i = 0; i < r->plan.nr_runs; i++) {
		if (i && td_run_interrupted()) {
			add_warning(r, "interrupted: %zu of %zu runs done", i, r->plan.nr_runs);
			break;
		}
		if (td_verbose && r->plan.nr_runs > 1)
			note("run %zu of %zu", i + 1, r->plan.nr_runs);
		if (record_one_run(r, &r->plan.runs[i], i) < 0) {
			ret = r->exit_code ? r->exit_code : 2;
			break;
		}
	}
	if (!r->any_run) {
		td_rundir_abort(&r->rd);
		return ret ? ret : 2;
	}
	if (ret)
		add_warning(r, "run %zu failed; the run directory keeps the %zu run(s) before it",
			    i + 1, i);
	if (r->last.interrupted)
		add_warning(r, "interrupted: the counts cover the workload up to the interruption");
	if (r->last.signo)
		add_warning(r, "the workload was killed by %s", td_signal_name(r->last.signo));
	else if (r->last.exited && r->last.exit_status)
		add_warning(r, "the workload exited with status %d", r->last.exit_status);
	if (!ret && r->o.plan.drilldown)
		ret = record_drilldown(r);
	check_comparable(r);
	if (r->o.regions)
		r->regions = regions_finish(r);
	had_previous = td_file_exists(r->o.output);
	if (record_finish(r) < 0 || td_rundir_commit(&r->rd) < 0) {
		error("cannot write the run directory '%s': %s", r->o.output, strerror(errno));
		td_rundir_abort(&r->rd);
		return 2;
	}
	if (!ret)
		ret = forwarded_status(&r->last);
	/*
	 * always said: where the run went, and that the previous one was kept;
	 * a sweep's value is in a directory published only with the whole
	 * sweep, so its temporary name is not given to the user
	 */
	if (r->o.sweep_value) {
		note("sweep: %s recorded (%zu run%s)", r->o.sweep_value, r->plan.nr_runs,
		     r->plan.nr_runs > 1 ? "s" : "");
		return ret;
	}
	note("wrote %s (%zu run%s)%s%s%s; see it with: tdperf report%s%s", r->o.output, r->plan.nr_runs,
	     r->plan.nr_runs > 1 ? "s" : "", had_previous ? "; the previous run is kept as " : "",
	     had_previous ? r->o.output : "", had_previous ? ".old" : "",
	     strcmp(r->o.output, TD_RUN_DEFAULT) ? " " : "", strcmp(r->o.output, TD_RUN_DEFAULT) ? r->o.output : "");
	return ret;
}

/*
 * What to measure and how many runs it takes (collect/plan.c); the
 * plan's warnings are said (a dry run only lists them) and kept for
 * meta.json, before its error if any.
 */
static int record_plan(struct record *r)
{
	struct strbuf err = STRBUF_INIT;
	int ret = td_plan_build(&r->plan, &r->o.plan, &r->ci, &err);
	size_t i;

	for (i = 0; i < r->plan.warnings.nr; i++)
		add_warning(r, "%s", r->plan.warnings.v[i]);
	if (ret < 0)
		error("%s", err.buf);
	strbuf_release(&err);
	return ret;
}

/* Record with the options parsed: plan, run the workload, write the run directory. */
/* record -e: is an event perf cannot count here?  Said before the workload runs. */
static int unknown_extra_event(const struct record_opts *o)
{
	struct strvec names = STRVEC_INIT;
	size_t i;
	int bad = 0;

	if (o->plan.events)
		td_sched_extra_names(o->plan.events, &names);
	for (i = 0; i < names.nr && !bad; i++)
		if (!td_perf_knows_event(names.v[i])) {
			error("-e %s: perf cannot count this event here (perf stat -e %s fails)",
			      names.v[i], names.v[i]);
			bad = 1;
		}
	strvec_clear(&names);
	return bad;
}

static int record(const struct record_opts *o)
{
	struct record r;
	int ret;

	memset(&r, 0, sizeof(r));
	r.o = *o;
	if (!r.o.plan.dry_run && r.o.plan.workload && (ret = workload_runnable(r.o.plan.workload[0])))
		return ret;

	r.files = json_array();
	r.run_list = json_array();
	r.warnings = json_array();
	td_cpu_detect(&r.ci, r.o.plan.cpu);
	if (r.o.assume_pmu)
		r.ci.hardware_pmu = 1;
	if (r.o.plan.smt >= 0)
		r.ci.smt = r.o.plan.smt;
	if (r.o.plan.cpu && !r.ci.table) {
		error("--cpu %s: %s", r.o.plan.cpu, r.ci.table_error);
		record_release(&r);
		return 2;
	}
	if (r.o.plan.dry_run && !r.ci.table) {
		error("--dry-run needs a formula table: %s; choose one with --cpu",
		      r.ci.table_error ? r.ci.table_error : "none for this CPU");
		record_release(&r);
		return 2;
	}
	if (!r.o.plan.dry_run && !r.ci.perf_path) {
		error("perf not found ('%s'): install it (Debian: apt-get install linux-perf) "
		      "or set TDPERF_PERF", td_perf_program());
		record_release(&r);
		return 2;
	}
	if (!r.o.plan.dry_run && !r.ci.hardware_pmu)
		note("no hardware PMU, recording software counts%s only (see 'tdperf check'): %s",
		     r.ci.tracepoints_ok ? " and sched tracepoints" : "",
		     r.ci.cycles_why ? r.ci.cycles_why : "cycles cannot be counted");
	if (record_plan(&r) < 0) {
		record_release(&r);
		return 2;
	}
	if (r.o.regions)
		td_regions_drop_perf_jobs(&r.plan);
	if (!r.o.plan.dry_run && unknown_extra_event(&r.o)) {
		record_release(&r);
		return 2;
	}
	if (r.o.plan.dry_run) {
		td_plan_print(&r.plan, stdout);
		ret = 0;
	} else {
		ret = record_run_all(&r);
	}
	record_release(&r);
	return ret;
}

/* ---------------- --sweep: one recording per value ---------------- */

/* A value's recording has the options typed, less --sweep and -o. */
static int sweep_drops(const struct td_option *opt, void *data)
{
	const struct record_opts *o = data;

	return opt->value == &o->sweep || opt->value == &o->output;
}

/*
 * Record value i into the sweep directory's PARAM-V, with {PARAM} in the
 * workload replaced.  Its meta.json states the command line that records
 * it alone: "--sched -o DIR --" and the workload after the other options.
 */
static int record_value(struct record_opts *o, const struct td_option *options,
			const struct td_rundir *rd, size_t i)
{
	const struct td_sweep *sw = &o->sweep;
	struct record_opts one = *o;
	struct strvec cl = STRVEC_INIT, wl = STRVEC_INIT;
	char *dir = td_sweep_dirname(sw, i), *path = td_rundir_file(rd, dir);
	char *final = td_path_join(o->output, dir);
	struct strbuf value = STRBUF_INIT;
	char **w;
	int ret;

	strvec_push(&cl, o->argv[0]);
	td_options_filter(o->argc, o->argv, options, TD_PARSE_STOP_AT_NON_OPTION, sweep_drops, o, &cl);
	strvec_push(&cl, "--sched"); /* the thread analysis needs the tracepoints */
	strvec_push(&cl, "-o");
	strvec_push(&cl, final); /* where the value is once the sweep is published */
	strvec_push(&cl, "--");
	for (w = o->plan.workload; *w; w++) {
		char *arg = td_sweep_substitute(*w, sw->param, sw->labels[i]);

		strvec_push(&wl, arg);
		strvec_push(&cl, arg);
		free(arg);
	}
	one.plan.sched = 1;
	one.output = path;
	one.plan.workload = wl.v;
	one.argc = (int)cl.nr;
	one.argv = cl.v;
	strbuf_addf(&value, "%s=%s", sw->param, sw->labels[i]);
	one.sweep_value = value.buf;
	if (!strcmp(sw->param, "threads"))
		setenv("OMP_NUM_THREADS", sw->labels[i], 1);
	note("sweep: %s=%s", sw->param, sw->labels[i]);
	ret = record(&one);
	td_sweep_add_run(&o->sweep, i, (int)wl.nr, wl.v, ret);
	if (!td_is_dir(path)) {
		error("sweep: %s=%s was not recorded (exit status %d): the sweep is abandoned",
		      sw->param, sw->labels[i], ret);
		ret = -1;
	}
	strvec_clear(&cl);
	strvec_clear(&wl);
	strbuf_release(&value);
	free(final);
	free(path);
	free(dir);
	return ret;
}

/*
 * The same workload recorded once per value (collect/sweep.c), into one
 * sweep directory published when every value is recorded.  Returns the
 * first nonzero exit status of the workload, else 0; 2 when a value could
 * not be recorded.
 */
static int record_sweep(struct record_opts *o, const struct td_option *options)
{
	struct strbuf err = STRBUF_INIT, values = STRBUF_INIT;
	struct td_rundir rd;
	char *start_time;
	size_t i;
	int ret = 0, rc, nr_workload = 0;

	if (td_rundir_begin(&rd, o->output) < 0) {
		error("%s: cannot create the run directory: %s", o->output, strerror(errno));
		return 2;
	}
	start_time = td_iso_time_now();
	for (i = 0; i < o->sweep.nr; i++) {
		rc = record_value(o, options, &rd, i);
		if (rc < 0)
			goto fail;
		if (rc && !ret)
			ret = rc;
	}
	while (o->plan.workload[nr_workload])
		nr_workload++;
	if (td_sweep_write_index(&rd, &o->sweep, o->argc, o->argv, o->argc - nr_workload, start_time,
				 &err) < 0) {
		error("%s", err.buf);
		goto fail;
	}
	if (td_rundir_commit(&rd) < 0) {
		error("%s: cannot publish the run directory: %s", o->output, strerror(errno));
		goto fail;
	}
	for (i = 0; i < o->sweep.nr; i++)
		strbuf_addf(&values, "%s%s", i ? "," : "", o->sweep.labels[i]);
	note("wrote %s (%s=%s); see it with: tdperf report %s", o->output, o->sweep.param, values.buf,
	     o->output);
	goto out;
fail:
	td_rundir_abort(&rd);
	ret = 2;
out:
	free(start_time);
	strbuf_release(&err);
	strbuf_release(&values);
	return ret;
}

/* ---------------- one rank of a job (collect/job.c) ---------------- */

/* A rank records with the options typed, less -o and --gather; -a and -C at local rank 0 only. */
struct rank_drops {
	const struct record_opts *o;
	int keep_system_wide;
};

static int rank_drops(const struct td_option *opt, void *data)
{
	const struct rank_drops *d = data;

	if (opt->value == &d->o->output || opt->value == &d->o->gather)
		return 1;
	return !d->keep_system_wide && (opt->value == &d->o->plan.system_wide || opt->value == &d->o->plan.cpu_list);
}

/*
 * After a rank's recording: its summary for the merged job report
 * (analyze/job-rank.c), computed here on the rank's own node so that
 * merging many ranks reads small files.  Without it the merge analyses
 * the rank itself, so a failure is only a warning.
 */
static void summarise_rank(const char *rankdir)
{
	struct td_report_opts opts = { 0 };
	struct strbuf err = STRBUF_INIT;

	if (td_report_rank_summary_write(rankdir, &opts, &err) < 0)
		warning("%s: no summary for the job report: %s", rankdir, err.buf);
	strbuf_release(&err);
}

static int record_rank(const struct record_opts *o, const struct td_option *options,
		       struct td_job_rank *rank)
{
	/* the node's local rank 0 counts its CPUs; the other ranks their own process */
	struct rank_drops d = { o, rank->local_rank <= 0 };
	struct strvec rank_argv = STRVEC_INIT;
	struct td_job_command c = { o->output, o->gather, NULL, o->argc, o->argv, 0 };
	int ret;

	strvec_push(&rank_argv, o->argv[0]);
	c.first_cmd = td_options_filter(o->argc, o->argv, options, TD_PARSE_STOP_AT_NON_OPTION,
					rank_drops, &d, &rank_argv);
	c.rank_argv = rank_argv.v;
	rank->system_wide = (o->plan.system_wide || o->plan.cpu_list) && d.keep_system_wide;
	ret = td_job_record(&c, rank, cmd_record, summarise_rank);
	strvec_clear(&rank_argv);
	return ret;
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o;
	struct td_job_rank rank;
	char **args = xcalloc(argc + 1, sizeof(*args));
	int nr, job, ret;
	const struct td_option options[] = {
		TD_OPT_GROUP("What to measure:"),
		TD_OPT_INT_RANGE('l', "level", &o.plan.req.level, 0, INT_MAX, "N", "Top-Down depth (default 2; without a tree in the table, as on AMD Zen 1-3: its info metrics)"),
		TD_OPT_STRING(0, "nodes", &o.plan.req.nodes, "LIST", "Top-Down nodes to measure (comma-separated ids)"),
		TD_OPT_STRING(0, "metrics", &o.plan.req.metrics, "LIST", "info metrics to measure (comma-separated ids)"),
		TD_OPT_STRING(0, "stacks", &o.plan.req.stacks, "LIST", "stacks to measure (cpi, flops, frontend, ...)"),
		TD_OPT_STRING(0, "cpu", &o.plan.cpu, "CPU", "formula table to use (name or CPUID string)"),
		TD_OPT_CALLBACK('e', "event", &o.events, "EV[,EV...]",
				"also count these events (perf's syntax, {a,b} a group; -e may be repeated): "
				"packed into the tree's groups where a counter is free, a {...} group on its "
				"own; report shows them as Extra events", parse_events),
		TD_OPT_SET_INT(0, "sched", &o.plan.sched, 1,
			       "record sched tracepoints for per-thread run/wait time (default: only when "
			       "there is no hardware PMU)"),
		TD_OPT_SET_INT(0, "no-sched", &o.plan.sched, 0, "do not record them"),
		TD_OPT_SET_INT(0, "threads", &o.plan.sched, 1, "the same as --sched (per-thread stacks)"),
		TD_OPT_BOOL(0, "hotspots", &o.plan.hotspots,
			    "also sample where the time goes (perf record into hotspots.data): a "
			    "leader-sampled group of the Top-Down Level 1-2 events with a PMU, cpu-clock "
			    "without one"),
		TD_OPT_BOOL('g', NULL, &o.plan.callgraph, "with --hotspots: record call chains"),
		TD_OPT_INT_RANGE('F', "freq", &o.plan.freq, 1, INT_MAX, "FREQ",
				 "with --hotspots: samples per second (perf's -F)"),
		TD_OPT_BOOL(0, "locate", &o.plan.locate,
			    "with --hotspots: one more run sampling the precise events the table locates "
			    "its nodes with (locate.data)"),
		TD_OPT_BOOL(0, "regions", &o.regions,
			    "count the regions the program marks with <tdperf.h> (-ltdperf): the groups go "
			    "to the program's marker library instead of perf stat (docs/regions.md)"),
		TD_OPT_INT_RANGE(0, "region-sample", &o.region_sample, 1, INT_MAX, "N",
				 "with --regions: count one pass in N of each region (for regions "
				 "entered very often)"),
		TD_OPT_CALLBACK_F(0, "drilldown", &o.plan.drilldown, "N",
				  "after counting, sample the deepest flagged node of the bottleneck path "
				  "by its locate-with event in one more run (drilldown.data): the functions "
				  "and lines that carry it; =N goes N-1 levels further down, counting the "
				  "children of each node and sampling the flagged one",
				  TD_OPTION_OPTARG, parse_drilldown),
		TD_OPT_CALLBACK(0, "sweep", &o.sweep, "PARAM=V1,V2,...",
				"record once per value into DIR/PARAM-V: {PARAM} in the command is replaced, "
				"threads also sets OMP_NUM_THREADS", parse_sweep),
		TD_OPT_GROUP("How to measure:"),
		TD_OPT_BOOL(0, "no-multiplex", &o.plan.no_multiplex,
			    "run the workload once per group (no time sharing of counters) and check that "
			    "the runs are comparable"),
		TD_OPT_INT_RANGE(0, "tolerance", &o.tolerance_pct, 0, INT_MAX, "PCT",
				 "allowed spread of instructions and time between the runs of "
				 "--no-multiplex (default 5)"),
		TD_OPT_INT_RANGE('r', "repeat", &o.plan.repeats, 1, INT_MAX, "N", "run the workload N times (reported as one: mean counts, spread per node)"),
		TD_OPT_INT_RANGE('I', "interval-print", &o.plan.interval_ms, 10, INT_MAX, "MS",
				 "print counts every MS milliseconds"),
		TD_OPT_BOOL(0, "live", &o.live,
			    "with -I: draw each interval's Top-Down tree as it comes (redrawn on a "
			    "terminal, else a line per interval)"),
		TD_OPT_BOOL('a', "all-cpus", &o.plan.system_wide, "count on all CPUs (system wide)"),
		TD_OPT_STRING('C', "cpu-list", &o.plan.cpu_list, "LIST", "count on these CPUs only"),
		TD_OPT_INT_RANGE('p', "pid", &o.plan.pid, 1, INT_MAX, "PID",
				 "attach to a running process instead of a command"),
		TD_OPT_BOOL(0, "per-thread", &o.plan.per_thread, "counts per thread"),
		TD_OPT_BOOL(0, "per-core", &o.plan.per_core,
			    "with -a or -C: counts per physical core as well (perf stat --per-core); "
			    "report shows one tree per core"),
		TD_OPT_BOOL('A', "no-aggr", &o.plan.no_aggr,
			    "with -a or -C: counts per CPU (perf stat -A); report shows one tree per CPU"),
		TD_OPT_STRING('o', "output", &o.output, "DIR",
			      "run directory (default tdperf.data); under srun or mpirun the job "
			      "directory, one DIR/rank-N.HOST per rank"),
		TD_OPT_STRING(0, "gather", &o.gather, "DIR",
			      "under a launcher: copy each rank's directory into the job directory DIR "
			      "afterwards (-o node-local, DIR shared)"),
		TD_OPT_CALLBACK(0, "smt", &o.plan.smt, "on|off",
				"override the SMT state the scheduler assumes (for dry runs)", parse_on_off),
		TD_OPT_CALLBACK(0, "nmi-watchdog", &o.plan.nmi, "on|off",
				"override whether the scheduler assumes the NMI watchdog holds a counter", parse_on_off),
		TD_OPT_INT_RANGE(0, "counters", &o.plan.counters, 1, INT_MAX, "N",
				 "override the number of general counters the scheduler assumes"),
		TD_OPT_BOOL(0, "assume-pmu", &o.assume_pmu,
			    "skip the hardware PMU test and count hardware events (for a perf test "
			    "double, or where the test is blocked)"),
		TD_OPT_BOOL('n', "dry-run", &o.plan.dry_run, "print groups and perf command lines, run nothing"),
		TD_OPT_COUNT('v', "verbose", &o.verbose, "say more"),
		TD_OPT_END(),
	};

	memset(&o, 0, sizeof(o));
	o.plan.req.level = -1; /* 2 unless -l says otherwise */
	o.plan.sched = o.plan.smt = o.plan.nmi = o.plan.counters = -1;
	o.plan.repeats = 1;
	o.tolerance_pct = 5;
	o.output = TD_RUN_DEFAULT;
	/*
	 * Parsing gathers the workload at the front of the array: argv stays
	 * as typed, for meta.json and the recordings of a sweep or a job (and
	 * for the caller, when a job's rank calls this again).
	 */
	memcpy(args, argv, argc * sizeof(*argv));
	o.argc = argc;
	o.argv = argv;
	nr = td_parse_options(argc, args, options, record_usage, TD_PARSE_STOP_AT_NON_OPTION);
	o.plan.workload = nr ? args : NULL;
	o.plan.events = o.events.len ? o.events.buf : NULL;
	o.plan.level_given = o.plan.req.level >= 0;
	if (o.regions && o.plan.sched < 0)
		o.plan.sched = 0; /* the regions are the point; --sched still adds the tracepoints */
	if (!o.plan.level_given)
		o.plan.req.level = 2;

	job = td_job_wanted(&rank); /* under srun/mpirun: collect/job.c */
	if (job < 0) {
		ret = 2;
	} else if (job && o.sweep.nr) {
		error("--sweep under a launcher (rank %ld) is not supported: "
		      "sweep the launcher instead", rank.rank);
		ret = 2;
	} else if (job) {
		ret = record_rank(&o, options, &rank); /* the rank's own record checks the options */
	} else if (check_options(&o) < 0) {
		ret = 2;
	} else {
		td_verbose += o.verbose;
		ret = o.sweep.nr ? record_sweep(&o, options) : record(&o);
	}
	if (job > 0)
		td_job_rank_release(&rank);
	td_sweep_release(&o.sweep);
	strbuf_release(&o.events);
	free(args);
	return ret;
}
