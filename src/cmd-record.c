/*
 * tdperf record: run a command under perf and keep what was measured in a
 * run directory (docs/run-format.md).
 *
 * The work is split in three steps that later features hook into:
 *   plan    (record_plan)       what to measure: groups from the
 *                                scheduler, or the software-only set on a
 *                                machine without a hardware PMU;
 *   runs    (record_one_run)    one execution of the workload with its
 *                                perf processes attached (several runs
 *                                for -r and --no-multiplex);
 *   finish  (record_finish)     meta.json, table.json, commit.
 */
#include "config.h"
#include "collect/cpu.h"
#include "collect/hotspots.h"
#include "collect/job.h"
#include "collect/run.h"
#include "collect/sched.h"
#include "collect/sweep.h"
#include "metrics/table.h"
#include "analyze/report.h"
#include "analyze/compare.h"
#include "render/render.h"
#include "render/html.h"
#include "src/builtin.h"
#include "util/parse-options.h"
#include "util/util.h"

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
	struct td_sched_request req;
	const char *cpu;
	int sched;               /* -1 auto */
	int no_multiplex;
	int tolerance_pct;       /* --no-multiplex: allowed spread between the runs */
	int repeats;
	int interval_ms;
	int live;                /* --live: draw each interval as perf writes it */
	int system_wide;
	const char *cpu_list;
	int pid;
	int per_thread;
	const char *output;
	const char *gather;      /* --gather DIR, under a launcher */
	struct td_sweep sweep;   /* --sweep PARAM=V1,V2,..., or no values */
	int dry_run;
	int smt, nmi, counters;  /* -1: as detected */
	int assume_pmu;          /* skip the hardware PMU test (replay perf) */
	int hotspots, callgraph, locate; /* --hotspots, -g, --locate */
	int freq;                /* -F, 0: perf's default */
	int verbose;             /* -v, added to td_verbose */
	int level_given;         /* -l was on the command line */
	char **workload;         /* NULL-terminated, or NULL */
	int argc;                /* the command line as typed, for meta.json */
	char **argv;
};

/* One perf process of one run, and the file it writes. */
struct planned_job {
	const char *role;        /* "perf-stat", "sched", "hotspots", "locate" */
	char *file;              /* output file name inside the run dir */
	char **argv;             /* perf argv without the target */
	long group;              /* --no-multiplex: the group counted, -1 all */
};

/* A cluster of a big.LITTLE Arm system counted besides the detected CPU's. */
struct arm_cluster {
	const struct td_pmu *pmu;   /* its core PMU (name, CPUs, MIDR) */
	const struct td_table *table;
	struct td_sched_budget budget;
};

/* One execution of the workload. */
struct planned_run {
	struct planned_job *jobs;
	size_t nr_jobs;
	int repeat;              /* 1.. */
	long group;              /* --no-multiplex group, -1 all */
};

struct record {
	struct record_opts o;
	struct td_cpu_info ci;
	const struct td_table *table;
	const struct td_table *atom_table; /* hybrid: the E-core (cpu_atom) table, or NULL */
	struct td_sched_budget atom_budget;
	int arm_clusters;        /* big.LITTLE Arm: each cluster on its own PMU */
	struct arm_cluster *clusters; /* the other clusters counted */
	size_t nr_clusters;
	int hardware;            /* counting hardware events */
	int sched_tracepoints;
	struct td_sched sched;
	int have_sched;
	struct strbuf info_metrics; /* a table without a tree: all its info metrics */
	struct planned_run *runs;
	size_t nr_runs, alloc_runs;
	size_t nr_stat_files;
	struct td_rundir rd;
	json_t *files;           /* meta.json "files" */
	json_t *run_list;        /* meta.json "runs" */
	json_t *warnings;
	struct td_run_result last;
	int any_run;
	int exit_code;
};

/* ---------------- argv helpers ---------------- */

struct argv_builder {
	char **v;
	size_t nr, alloc;
};

static void av_push(struct argv_builder *a, const char *s)
{
	TD_GROW(a->v, a->alloc, a->nr + 2);
	a->v[a->nr++] = xstrdup(s);
	a->v[a->nr] = NULL;
}

static void av_pushf(struct argv_builder *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void av_pushf(struct argv_builder *a, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	TD_GROW(a->v, a->alloc, a->nr + 2);
	a->v[a->nr++] = strbuf_detach(&sb, NULL);
	a->v[a->nr] = NULL;
}

static void free_argv(char **v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

static json_t *argv_json(char *const *v)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; v && v[i]; i++)
		json_array_append_new(a, json_string(v[i]));
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
	if (!r->o.dry_run)
		warning("%s", sb.buf);
	json_array_append_new(r->warnings, json_string(sb.buf));
	strbuf_release(&sb);
}

/* ---------------- planning ---------------- */

static const char software_events[] = "task-clock,context-switches,cpu-migrations,page-faults";
/* What the thread analysis reads (analyze/threads-load.c says why each). */
static const char sched_events[] =
	"sched:sched_switch,sched:sched_waking,sched:sched_wakeup,sched:sched_wakeup_new,"
	"sched:sched_process_fork,sched:sched_process_exit";

/* perf stat's options shared by every counting run. */
static void stat_common_args(const struct record *r, struct argv_builder *a, const char *file)
{
	av_push(a, td_perf_program());
	av_push(a, "stat");
	av_push(a, "-x,");
	av_push(a, "--no-big-num");
	av_push(a, "-o");
	av_push(a, file);
	if (r->o.interval_ms > 0)
		av_pushf(a, "-I%d", r->o.interval_ms);
	if (r->o.system_wide && !r->o.cpu_list)
		av_push(a, "-a");
	if (r->o.cpu_list) {
		av_push(a, "-C");
		av_push(a, r->o.cpu_list);
	}
	if (r->o.per_thread)
		av_push(a, "--per-thread");
}

/* The perf stat job of one run: software events, then group(s). */
static void plan_stat_job(struct record *r, struct planned_job *j, long group)
{
	struct argv_builder a = { 0 };
	struct strbuf ev = STRBUF_INIT;
	struct strbuf name = STRBUF_INIT;
	size_t i;

	strbuf_addf(&name, "perf-stat-%zu.csv", ++r->nr_stat_files);
	j->role = "perf-stat";
	j->file = strbuf_detach(&name, NULL);
	j->group = group;
	stat_common_args(r, &a, j->file);
	strbuf_addstr(&ev, software_events);
	/* one group per run: instructions tell whether the runs did the same work */
	if (r->hardware && r->o.no_multiplex && group >= 0)
		strbuf_addstr(&ev, ",instructions");
	if (r->hardware && r->have_sched) {
		/*
		 * duration_time is left out: attached with -D -1, perf counts it
		 * from its own start, not the workload's; meta.json runs[].seconds
		 * has the workload's wall time instead.
		 */
		for (i = 0; i < r->sched.nr_ungrouped; i++)
			if (strcmp(r->sched.ungrouped[i], "duration_time"))
				strbuf_addf(&ev, ",%s", r->sched.ungrouped[i]);
		strbuf_addch(&ev, ',');
		td_sched_group_spec(&r->sched, group, &ev);
	}
	av_push(&a, "-e");
	av_push(&a, ev.buf);
	strbuf_release(&ev);
	j->argv = a.v;
}

static void plan_sched_job(struct record *r, struct planned_job *j)
{
	struct argv_builder a = { 0 };

	j->role = "sched";
	j->file = xstrdup("perf.data");
	j->group = -1;
	av_push(&a, td_perf_program());
	av_push(&a, "record");
	av_push(&a, "-q");
	av_push(&a, "-o");
	av_push(&a, j->file);
	av_push(&a, "-e");
	av_push(&a, sched_events);
	av_push(&a, "--switch-events"); /* switch-ins of a per-task recording */
	if (r->o.system_wide && !r->o.cpu_list)
		av_push(&a, "-a");
	if (r->o.cpu_list) {
		av_push(&a, "-C");
		av_push(&a, r->o.cpu_list);
	}
	j->argv = a.v;
}

static struct planned_run *new_run(struct record *r, int repeat, long group)
{
	struct planned_run *run;

	TD_GROW(r->runs, r->alloc_runs, r->nr_runs + 1);
	run = &r->runs[r->nr_runs++];
	memset(run, 0, sizeof(*run));
	run->repeat = repeat;
	run->group = group;
	run->jobs = xcalloc(3, sizeof(*run->jobs));
	return run;
}

/* The scheduler's budget: detected, then the command line's overrides. */
static void plan_budget(struct record *r, struct td_sched_budget *b)
{
	const struct td_cpu_info *ci = r->table == r->ci.table && !r->o.cpu ? &r->ci : NULL;

	/* a --cpu that names this very machine still uses what was detected */
	if (!ci && r->ci.table == r->table && r->ci.hardware_pmu)
		ci = &r->ci;
	td_sched_default_budget(r->table, ci, b);
	if (r->o.smt >= 0 && r->o.smt != b->smt) {
		const struct td_table_info *ti = td_table_info(r->table);

		b->smt = r->o.smt;
		b->gp = b->smt ? ti->gp_counters_smt : ti->gp_counters;
		b->gp -= b->nmi_watchdog;
		b->gp_source = "table";
	}
	if (r->o.nmi >= 0 && r->o.nmi != b->nmi_watchdog) {
		b->gp += b->nmi_watchdog - r->o.nmi;
		b->nmi_watchdog = r->o.nmi;
	}
	if (r->o.counters > 0) {
		b->gp = r->o.counters - b->nmi_watchdog;
		b->gp_source = "--counters";
	}
}

/* Do groups share one PMU's counters in time (perf multiplexes them)?  Each PMU counts apart. */
static int time_shared(const struct td_sched *s)
{
	size_t g, h;

	for (g = 0; g < s->nr_groups; g++)
		for (h = g + 1; h < s->nr_groups; h++)
			if (!strcmp(s->groups[g].pmu, s->groups[h].pmu))
				return 1;
	return 0;
}

/*
 * The counters of a second core PMU's groups (hybrid E-cores, another
 * Arm cluster): its table's, since CPUID leaf 0xA describes only the core
 * tdperf runs on, less the one the NMI watchdog holds on every core.
 */
static void partner_budget(const struct record *r, const struct td_table *t,
			   struct td_sched_budget *b)
{
	td_sched_default_budget(t, NULL, b);
	b->nmi_watchdog = r->o.nmi >= 0 ? r->o.nmi : r->ci.nmi_watchdog > 0;
	b->gp -= b->nmi_watchdog;
	if (r->o.counters > 0)
		b->gp = r->o.counters - b->nmi_watchdog;
}

/*
 * Hybrid CPUs (Alder Lake, Raptor Lake): the E-cores have a PMU of their
 * own (cpu_atom) with other events and another tree.  A workload moves
 * between core types, so both are counted, each PMU in groups of its own
 * (the scheduler cannot mix them), and the run keeps both tables.  Done
 * when this machine has both PMUs, or when --cpu names a hybrid P-core
 * table (a dry run or a perf test double shows what such a machine gets).
 */
static int plan_atom(struct record *r)
{
	const struct td_table *atom = td_table_atom_partner(r->table);
	struct td_sched s;
	struct strbuf err = STRBUF_INIT;
	struct td_sched_request req = r->o.req;

	if (!atom || !(r->ci.hybrid || r->o.cpu))
		return 0;
	partner_budget(r, atom, &r->atom_budget);
	if (td_sched_build(atom, &req, &r->atom_budget, &s, &err) < 0) {
		/* nodes, metrics or stacks of the P-core tree the E-core tree lacks */
		add_warning(r, "cpu_atom (%s): %s; the E-cores get Top-Down Level 1-%d only",
			    td_table_info(atom)->name, err.buf, req.level ? req.level : 2);
		strbuf_reset(&err);
		req.nodes = req.metrics = req.stacks = NULL;
		if (!req.level)
			req.level = 2;
		if (td_sched_build(atom, &req, &r->atom_budget, &s, &err) < 0) {
			error("cpu_atom (%s): %s", td_table_info(atom)->name, err.buf);
			strbuf_release(&err);
			return -1;
		}
	}
	r->atom_table = atom;
	td_sched_append(&r->sched, &s);
	strbuf_release(&err);
	return 0;
}

/* Is this big.LITTLE Arm machine's detected table the one recorded with? */
static int count_arm_clusters(const struct record *r)
{
	return r->table == r->ci.table && td_cpu_arm_clusters(&r->ci) > 1 && !r->o.cpu &&
	       td_table_info(r->table)->vendor && !strcmp(td_table_info(r->table)->vendor, "ARM");
}

/*
 * big.LITTLE Arm systems (phones, laptops, boards): each cluster's core
 * PMU counts only while the workload runs on that cluster's CPUs, and
 * each core type has events and formulas of its own.  As on hybrid Intel
 * parts, every cluster is counted on its own PMU with its core's table
 * and gets a tree of its own.  The detected CPU's cluster was scheduled
 * in record_plan; here the others.  A cluster whose core tdperf has no
 * table for is not counted, and the run says so: its time is missing from
 * every tree.
 */
static int plan_arm_clusters(struct record *r, const struct td_sched_budget *first)
{
	size_t i;

	for (i = 0; i < r->ci.nr_pmus; i++) {
		const struct td_pmu *p = &r->ci.pmus[i];
		struct strbuf err = STRBUF_INIT;
		struct arm_cluster *c;
		const struct td_table *t;
		struct td_sched s;

		if (!p->cpuid || (first->pmu_name && !strcmp(p->name, first->pmu_name)))
			continue;
		t = td_table_find(p->cpuid, &err);
		if (!t) {
			add_warning(r, "cluster %s (CPUs %s, MIDR %s) not counted: tdperf has no "
				    "table for its core (tdperf list shows the tables; tdperf tables "
				    "import builds one); the trees cover the time on the other "
				    "clusters only", p->name, p->cpus ? p->cpus : "?", p->cpuid);
			strbuf_release(&err);
			continue;
		}
		r->clusters = xrealloc(r->clusters, (r->nr_clusters + 1) * sizeof(*r->clusters));
		c = &r->clusters[r->nr_clusters];
		c->pmu = p;
		c->table = t;
		partner_budget(r, t, &c->budget);
		c->budget.pmu_name = p->name;
		c->budget.name_pmu = 1;
		if (td_sched_build(t, &r->o.req, &c->budget, &s, &err) < 0) {
			error("cluster %s (%s): %s", p->name, td_table_info(t)->name, err.buf);
			strbuf_release(&err);
			return -1;
		}
		r->nr_clusters++;
		td_sched_append(&r->sched, &s);
		strbuf_release(&err);
	}
	return 0;
}

/* perf record's target options shared by the sampling jobs. */
static void record_common_args(const struct record *r, struct argv_builder *a, const char *file)
{
	av_push(a, td_perf_program());
	av_push(a, "record");
	av_push(a, "-q");
	av_push(a, "-o");
	av_push(a, file);
	if (r->o.callgraph)
		av_push(a, "-g");
	if (r->o.freq > 0)
		av_pushf(a, "-F%d", r->o.freq);
	if (r->o.system_wide && !r->o.cpu_list)
		av_push(a, "-a");
	if (r->o.cpu_list) {
		av_push(a, "-C");
		av_push(a, r->o.cpu_list);
	}
}

/*
 * --hotspots (collect/hotspots.c says what is sampled): with hardware
 * counters a run of its own, so the sampled group does not share counters
 * with perf stat's groups; without them, cpu-clock samples ride along
 * with the first run.  --locate adds a run sampling the precise events.
 */
static int plan_hotspots(struct record *r)
{
	struct strbuf ev = STRBUF_INIT, note = STRBUF_INIT, err = STRBUF_INIT;
	struct td_sched_budget b;
	struct argv_builder a = { 0 };
	struct planned_run *run;
	struct planned_job *j;
	int lv;

	if (r->hardware)
		plan_budget(r, &b);
	lv = td_hotspots_events(r->hardware ? r->table : NULL, &b, r->o.req.level, &ev, &note, &err);
	if (lv < 0) {
		error("--hotspots: %s", err.buf);
		strbuf_release(&ev);
		strbuf_release(&note);
		strbuf_release(&err);
		return -1;
	}
	if (note.len && r->hardware)
		add_warning(r, "--hotspots: %s", note.buf);
	run = r->hardware || !r->nr_runs ? new_run(r, 1, -1) : &r->runs[0];
	j = &run->jobs[run->nr_jobs++];
	j->role = "hotspots";
	j->file = xstrdup("hotspots.data");
	j->group = -1;
	record_common_args(r, &a, j->file);
	av_push(&a, "-e");
	av_push(&a, ev.buf);
	j->argv = a.v;
	strbuf_reset(&ev);
	if (r->o.locate && !r->hardware)
		add_warning(r, "--locate ignored: precise events need hardware counters");
	else if (r->o.locate && !td_hotspots_locate_events(r->table, r->o.req.level ? r->o.req.level : 2, &ev))
		add_warning(r, "--locate: table %s names no events to locate its nodes with (no LocateWith)",
			    td_table_info(r->table)->name);
	else if (r->o.locate) {
		struct argv_builder l = { 0 };

		run = new_run(r, 1, -1);
		j = &run->jobs[run->nr_jobs++];
		j->role = "locate";
		j->file = xstrdup("locate.data");
		j->group = -1;
		record_common_args(r, &l, j->file);
		av_push(&l, "-e");
		av_push(&l, ev.buf);
		j->argv = l.v;
	}
	strbuf_release(&ev);
	strbuf_release(&note);
	strbuf_release(&err);
	return 0;
}

/*
 * A table without a Top-Down tree (AMD Zen 1-3, Neoverse N1: their PMUs
 * count no slots) still has info metrics.  When nothing was asked for
 * explicitly, measure all of them rather than refuse; an explicit -l or
 * --nodes is still refused by the scheduler, with what to ask instead.
 */
static void plan_treeless(struct record *r)
{
	const struct td_table *t = r->table;
	size_t i;

	if (td_table_has_tree(t) || r->o.level_given || r->o.req.nodes || r->o.req.metrics ||
	    r->o.req.stacks)
		return;
	for (i = 0; i < td_table_nr_metrics(t); i++)
		strbuf_addf(&r->info_metrics, "%s%s", r->info_metrics.len ? "," : "",
			    td_table_metric(t, i)->id);
	if (!r->info_metrics.len)
		return;
	r->o.req.level = 0;
	r->o.req.metrics = r->info_metrics.buf;
	note("no Top-Down tree on this CPU (table %s): measuring its %zu info metrics instead. %s",
	     td_table_info(t)->name, td_table_nr_metrics(t),
	     td_table_info(t)->missing ? td_table_info(t)->missing : "");
}

/* Decide what to measure and how many runs it takes. */
static int record_plan(struct record *r)
{
	struct strbuf err = STRBUF_INIT;
	int rep;
	size_t g;

	r->hardware = r->table && (r->ci.hardware_pmu || r->o.dry_run);
	if (r->hardware) {
		struct td_sched_budget b;

		plan_budget(r, &b);
		b.name_pmu = count_arm_clusters(r);
		plan_treeless(r);
		if (td_sched_build(r->table, &r->o.req, &b, &r->sched, &err) < 0) {
			error("%s", err.buf);
			strbuf_release(&err);
			return -1;
		}
		r->have_sched = 1;
		if (plan_atom(r) < 0)
			return -1;
		r->arm_clusters = b.name_pmu;
		if (r->arm_clusters && plan_arm_clusters(r, &b) < 0)
			return -1;
		for (g = 0; g < r->sched.nr_warnings; g++)
			add_warning(r, "%s", r->sched.warnings[g]);
	}
	if (r->o.sched >= 0)
		r->sched_tracepoints = r->o.sched;
	else
		r->sched_tracepoints = !r->hardware && r->ci.tracepoints_ok;
	if (r->sched_tracepoints && !r->ci.tracepoints_ok && !r->o.dry_run) {
		add_warning(r, "sched tracepoints not recorded: %s", r->ci.tracepoints_why);
		r->sched_tracepoints = 0;
	}
	if (r->o.no_multiplex && !r->hardware)
		add_warning(r, "--no-multiplex ignored: nothing is multiplexed without hardware counters");

	for (rep = 1; rep <= r->o.repeats; rep++) {
		if (r->hardware && r->o.no_multiplex && time_shared(&r->sched)) {
			for (g = 0; g < r->sched.nr_groups; g++) {
				struct planned_run *run = new_run(r, rep, (long)g);

				plan_stat_job(r, &run->jobs[run->nr_jobs++], (long)g);
				/* tracepoints once, with the first group */
				if (r->sched_tracepoints && rep == 1 && g == 0)
					plan_sched_job(r, &run->jobs[run->nr_jobs++]);
			}
		} else {
			struct planned_run *run = new_run(r, rep, -1);

			plan_stat_job(r, &run->jobs[run->nr_jobs++], -1);
			if (r->sched_tracepoints && rep == 1)
				plan_sched_job(r, &run->jobs[run->nr_jobs++]);
		}
	}
	if (r->o.hotspots && plan_hotspots(r) < 0)
		return -1;
	return 0;
}

/* The perf command equivalent to a job, as a user would type it. */
static void job_command(const struct record *r, const struct planned_job *j, struct argv_builder *a)
{
	size_t i;

	for (i = 0; j->argv[i]; i++)
		av_push(a, j->argv[i]);
	if (r->o.pid > 0) {
		av_push(a, "-p");
		av_pushf(a, "%d", r->o.pid);
	}
	if (r->o.workload) {
		av_push(a, "--");
		for (i = 0; r->o.workload[i]; i++)
			av_push(a, r->o.workload[i]);
	}
}

/* ---------------- dry run ---------------- */

/* The counters a group was scheduled for: its PMU's. */
static const struct td_sched_budget *group_budget(const struct record *r,
						   const struct td_sched_group *gr)
{
	size_t i;

	if (r->atom_table && gr->pmu && !strcmp(gr->pmu, "cpu_atom"))
		return &r->atom_budget;
	for (i = 0; i < r->nr_clusters; i++)
		if (gr->pmu && !strcmp(gr->pmu, r->clusters[i].pmu->name))
			return &r->clusters[i].budget;
	return &r->sched.budget;
}

/* The CPUs of the detected CPU's cluster (its core PMU's "cpus"). */
static const char *primary_cluster_cpus(const struct record *r)
{
	const struct td_pmu *p = r->sched.budget.pmu_name ?
				 td_cpu_find_pmu(&r->ci, r->sched.budget.pmu_name) : NULL;

	return p && p->cpus ? p->cpus : "?";
}

static void print_schedule(const struct record *r)
{
	const struct td_table_info *ti = td_table_info(r->table);
	const struct td_sched *s = &r->sched;
	size_t g, e, m;

	printf("table %s (%s), level %d%s%s%s%s\n", ti->name, ti->display ? ti->display : "",
	       r->o.req.level, r->o.req.nodes ? ", nodes " : "", r->o.req.nodes ? r->o.req.nodes : "",
	       r->o.req.metrics ? ", metrics " : "", r->o.req.metrics ? r->o.req.metrics : "");
	if (r->o.req.stacks)
		printf("stacks %s\n", r->o.req.stacks);
	printf("counters: %d general per group (%s, SMT %s, NMI watchdog %s), %d fixed\n",
	       s->budget.gp, s->budget.gp_source, s->budget.smt ? "on" : "off",
	       s->budget.nmi_watchdog ? "on: one counter less" : "off", s->budget.fixed);
	if (r->atom_table)
		printf("hybrid: E-cores (cpu_atom) with table %s: %d general per group, %d fixed\n",
		       td_table_info(r->atom_table)->name, r->atom_budget.gp, r->atom_budget.fixed);
	if (r->arm_clusters)
		printf("cluster %s (CPUs %s): table %s\n", s->budget.pmu_name,
		       primary_cluster_cpus(r), ti->name);
	for (g = 0; g < r->nr_clusters; g++)
		printf("cluster %s (CPUs %s): table %s, %d general per group, %d fixed\n",
		       r->clusters[g].pmu->name, r->clusters[g].pmu->cpus ? r->clusters[g].pmu->cpus : "?",
		       td_table_info(r->clusters[g].table)->name, r->clusters[g].budget.gp,
		       r->clusters[g].budget.fixed);
	printf("metrics: %zu, events: ", s->nr_metrics);
	{
		size_t n = 0;

		for (g = 0; g < s->nr_groups; g++)
			n += s->groups[g].nr_events;
		printf("%zu in groups, %zu outside groups\n", n, s->nr_ungrouped);
	}
	for (g = 0; g < s->nr_groups; g++) {
		const struct td_sched_group *gr = &s->groups[g];

		printf("group %zu (%s): %d/%d general counters\n", g + 1, gr->pmu, gr->gp_used,
		       group_budget(r, gr)->gp);
		for (e = 0; e < gr->nr_events; e++) {
			const struct td_sched_event *ev = &gr->events[e];

			if (ev->fixed >= 0)
				printf("  %-40s fixed %d\n", ev->name, ev->fixed);
			else if (ev->counter >= 0)
				printf("  %-40s counter %d\n", ev->name, ev->counter);
			else
				printf("  %-40s %s\n", ev->name, "no counter (PERF_METRICS)");
		}
		if (!gr->nr_metrics) {
			/* never an empty list: say what the group is for */
			printf("  no formula whole here%s\n",
			       s->nr_split ? ": its events serve formulas split over groups" : "");
			continue;
		}
		printf("  formulas whole here:");
		for (m = 0; m < gr->nr_metrics; m++)
			printf(" %s", gr->metrics[m]);
		printf("\n");
	}
	if (s->nr_ungrouped) {
		printf("outside groups:");
		for (e = 0; e < s->nr_ungrouped; e++)
			printf(" %s", s->ungrouped[e]);
		printf("\n");
	}
	if (s->nr_split) {
		printf("formulas split over groups (too many events for one group):");
		for (e = 0; e < s->nr_split; e++)
			printf(" %s", s->split[e]);
		printf("\n");
	}
}

static int record_dry_run(struct record *r)
{
	size_t i, j;

	if (r->have_sched)
		print_schedule(r);
	else
		printf("no hardware counters: software events%s only\n",
		       r->sched_tracepoints ? " and sched tracepoints" : "");
	for (i = 0; i < r->nr_runs; i++) {
		for (j = 0; j < r->runs[i].nr_jobs; j++) {
			struct argv_builder a = { 0 };
			struct strbuf sb = STRBUF_INIT;

			job_command(r, &r->runs[i].jobs[j], &a);
			td_quote_argv(&sb, a.v);
			printf("run %zu: %s\n", i + 1, sb.buf);
			strbuf_release(&sb);
			free_argv(a.v);
		}
	}
	{
		size_t w;
		json_t *v;

		json_array_foreach(r->warnings, w, v)
			if (!strncmp(json_string_value(v), "--hotspots", 10) || !strncmp(json_string_value(v), "--locate", 8))
				printf("%s\n", json_string_value(v));
	}
	printf("groups: %zu, runs: %zu%s\n", r->have_sched ? r->sched.nr_groups : (size_t)0,
	       r->nr_runs,
	       r->have_sched && time_shared(&r->sched) && !r->o.no_multiplex ? " (multiplexed)" : "");
	return 0;
}

/* ---------------- running ---------------- */

/*
 * record --live: the interval file perf is writing, read as it grows and
 * drawn (render/live.c).  perf flushes its output after every interval.
 */
struct live_tail {
	struct td_live *lv;
	char **clusters;         /* big.LITTLE Arm: "PMU=TABLE" per cluster counted */
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

static void live_tail_start(struct record *r, const struct planned_run *run, struct live_tail *t)
{
	struct td_report_opts opts = { 0 };
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < run->nr_jobs && !t->path; i++)
		if (!strcmp(run->jobs[i].role, "perf-stat"))
			t->path = td_rundir_file(&r->rd, run->jobs[i].file);
	if (!t->path)
		return;
	opts.cpu = r->table ? td_table_info(r->table)->name : NULL;
	opts.max_level = r->o.req.level;
	if (r->arm_clusters) {
		struct strbuf sb = STRBUF_INIT;

		t->clusters = xcalloc(r->nr_clusters + 2, sizeof(*t->clusters));
		strbuf_addf(&sb, "%s=%s", r->sched.budget.pmu_name, td_table_info(r->table)->name);
		t->clusters[0] = strbuf_detach(&sb, NULL);
		for (i = 0; i < r->nr_clusters; i++) {
			strbuf_addf(&sb, "%s=%s", r->clusters[i].pmu->name,
				    td_table_info(r->clusters[i].table)->name);
			t->clusters[i + 1] = strbuf_detach(&sb, NULL);
		}
		opts.clusters = t->clusters;
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
	free_argv(t->clusters);
	strbuf_release(&err);
}

/* Run the workload once with the jobs of 'run'; 0, or -1 (nothing measured). */
static int record_one_run(struct record *r, struct planned_run *run, size_t index)
{
	struct td_perf_job *jobs = xcalloc(run->nr_jobs, sizeof(*jobs));
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
		struct argv_builder a = { 0 };
		size_t k;

		for (k = 0; run->jobs[i].argv[k]; k++) {
			if (k > 0 && !strcmp(run->jobs[i].argv[k - 1], "-o")) {
				char *out_path = td_rundir_file(&r->rd, run->jobs[i].file);

				av_push(&a, out_path); /* av_push copies */
				free(out_path);
			} else
				av_push(&a, run->jobs[i].argv[k]);
		}
		jobs[i].argv = a.v;
		strbuf_addf(&sb, "perf-stderr-%zu%s%s.txt", index + 1,
			    strcmp(run->jobs[i].role, "perf-stat") ? "-" : "",
			    strcmp(run->jobs[i].role, "perf-stat") ? run->jobs[i].role : "");
		jobs[i].stderr_path = td_rundir_file(&r->rd, sb.buf);
		strbuf_release(&sb);
	}
	spec.workload = r->o.workload;
	spec.attach_pid = (pid_t)r->o.pid;
	spec.system_wide = r->o.system_wide || r->o.cpu_list;
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
		error("cannot run '%s': %s", r->o.workload[0], strerror(res.exec_errno));
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
		struct planned_job *j = &run->jobs[i];
		struct argv_builder a = { 0 };
		json_t *f;
		const char *stderr_name = strrchr(jobs[i].stderr_path, '/') + 1;
		char *written = td_rundir_file(&r->rd, j->file);
		int exists = td_file_exists(written);

		free(written);
		job_command(r, j, &a);
		if (!exists) {
			struct strbuf why = STRBUF_INIT;

			td_last_line(jobs[i].stderr_path, &why);
			add_warning(r, "%s wrote no %s: %s", j->role, j->file,
				    why.len ? why.buf : "no message");
			strbuf_release(&why);
			free_argv(a.v);
			continue;
		}
		f = json_pack("{s:s, s:s, s:s, s:o, s:i, s:o}", "name", j->file, "role", j->role,
			      "format", strcmp(j->role, "perf-stat") ? "perf.data" : "csv",
			      "perf_command", argv_json(a.v), "run", (int)index + 1,
			      "group", j->group < 0 ? json_null() : json_integer(j->group + 1));
		json_object_set_new(f, "stderr", json_string(stderr_name));
		json_array_append_new(r->files, f);
		json_array_append_new(r->files,
			json_pack("{s:s, s:s, s:i}", "name", stderr_name, "role", "perf-stderr",
				  "run", (int)index + 1));
		json_array_append_new(rfiles, json_string(j->file));
		free_argv(a.v);
	}
	json_object_set_new(rj, "files", rfiles);
	json_array_append_new(r->run_list, rj);
	td_run_result_release(&r->last);
	r->last = res;
	memset(&res, 0, sizeof(res));
out:
	td_run_result_release(&res);
	for (i = 0; i < run->nr_jobs; i++) {
		free_argv(jobs[i].argv);
		free(jobs[i].stderr_path);
	}
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

	if (!r->o.no_multiplex || n < 2)
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

	if (!r->hardware) {
		if (!r->table && r->ci.hardware_pmu)
			strbuf_addf(&why, "no formula table for this CPU (%s): choose one with --cpu",
				    r->ci.table_error ? r->ci.table_error : "unknown CPU");
		else
			strbuf_addf(&why, "no hardware PMU: %s",
				    r->ci.cycles_why ? r->ci.cycles_why : "cycles cannot be counted");
	}
	for (i = 0; i < TD_ARRAY_SIZE(hw); i++) {
		if (!r->hardware)
			json_object_set_new(a, hw[i], analysis("impossible", why.buf));
		else if (!strcmp(hw[i], "topdown") && !td_table_has_tree(r->table))
			json_object_set_new(a, hw[i], analysis("impossible",
							       td_table_info(r->table)->missing
							       ? td_table_info(r->table)->missing
							       : "the formula table has no Top-Down tree"));
		else if (!strcmp(hw[i], "topdown"))
			json_object_set_new(a, hw[i], analysis(r->o.req.level > 0 || r->o.req.nodes
							       ? "ok" : "not_recorded",
							       NULL));
		else
			json_object_set_new(a, hw[i], analysis(r->o.req.stacks ? "ok" : "not_recorded",
							       r->o.req.stacks ? NULL
							       : "not asked for: use --stacks"));
	}
	json_object_set_new(a, "software_counts", analysis("ok", NULL));
	if (r->sched_tracepoints)
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

	json_object_set_new(table, "pmu", json_string(r->sched.budget.pmu_name));
	for (i = 0; i < r->nr_clusters; i++) {
		const struct arm_cluster *c = &r->clusters[i];

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
	json_object_set_new(meta, "workload", r->o.workload ? argv_json(r->o.workload) : json_null());
	json_object_set_new(meta, "target",
		r->o.pid > 0 ? json_pack("{s:I}", "pid", (json_int_t)r->o.pid)
		: r->o.system_wide || r->o.cpu_list
			? json_pack("{s:s}", "cpus", r->o.cpu_list ? r->o.cpu_list : "all")
			: json_null());
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
	if (r->o.smt >= 0)
		json_object_set_new(json_object_get(meta, "smt"), "source", json_string("--smt"));
	if (r->o.assume_pmu)
		json_object_set_new(meta, "hardware_pmu_source", json_string("--assume-pmu"));
	if (r->o.cpu && r->table) {
		json_t *cpu = json_object_get(meta, "cpu");

		json_object_set_new(cpu, "microarchitecture",
				    json_string(td_table_info(r->table)->name));
		json_object_set_new(cpu, "source", json_string("--cpu"));
	}
	json_object_set_new(meta, "mode", json_string(r->hardware ? "hardware" : "software"));
	if (r->hardware) {
		if (copy_table_file(r, r->table, "table.json") < 0) {
			json_decref(meta);
			return -1;
		}
		json_array_append_new(r->files, json_pack("{s:s, s:s}", "name", "table.json",
							  "role", "table"));
		json_object_set_new(meta, "table", json_pack("{s:s, s:s}", "name",
			td_table_info(r->table)->name, "file", "table.json"));
		if (r->atom_table) {
			if (copy_table_file(r, r->atom_table, "table-cpu_atom.json") < 0) {
				json_decref(meta);
				return -1;
			}
			json_array_append_new(r->files, json_pack("{s:s, s:s}", "name",
				"table-cpu_atom.json", "role", "table"));
			json_object_set_new(json_object_get(meta, "table"), "cpu_atom", json_pack("{s:s, s:s}",
				"name", td_table_info(r->atom_table)->name, "file", "table-cpu_atom.json"));
		}
		if (r->arm_clusters && write_cluster_tables(r, meta) < 0) {
			json_decref(meta);
			return -1;
		}
		json_object_set_new(meta, "level", json_integer(r->o.req.level));
		json_object_set_new(meta, "groups", schedule_json(&r->sched));
		json_object_set_new(meta, "multiplexed",
				    json_boolean(time_shared(&r->sched) && !r->o.no_multiplex));
	} else {
		json_object_set_new(meta, "table", json_null());
	}
	json_object_set_new(meta, "repeats", json_integer(r->o.repeats));
	json_object_set_new(meta, "no_multiplex", json_boolean(r->o.no_multiplex));
	json_object_set_new(meta, "interval_ms",
			    r->o.interval_ms > 0 ? json_integer(r->o.interval_ms) : json_null());
	json_object_set_new(meta, "runs", json_incref(r->run_list));
	json_object_set_new(meta, "files", json_incref(r->files));
	json_object_set_new(meta, "analyses", record_analyses(r));
	json_object_set_new(meta, "warnings", json_incref(r->warnings));

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
	if (o->gather)
		return td_usage_error(record_usage, "--gather applies only under srun or mpirun "
				      "(no rank found in the environment)") ? -1 : -1;
	if (o->live && o->interval_ms <= 0)
		return td_usage_error(record_usage, "--live needs -I MS (it draws each interval)") ? -1 : -1;
	if ((o->callgraph || o->freq || o->locate) && !o->hotspots)
		return td_usage_error(record_usage, "-g, -F and --locate go with --hotspots") ? -1 : -1;
	if (o->sweep.nr && (o->pid || o->system_wide))
		return td_usage_error(record_usage, "--sweep runs a command once per value: "
				      "it cannot be used with %s", o->pid ? "-p" : "-a") ? -1 : -1;
	if (o->sweep.nr && !o->workload)
		return td_usage_error(record_usage, "--sweep needs a command to run") ? -1 : -1;
	if (!o->workload && !o->pid && !o->system_wide && !o->cpu_list && !o->dry_run)
		return td_usage_error(record_usage, "no command to run (or -p PID, -a)") ? -1 : -1;
	if (o->workload && o->pid)
		return td_usage_error(record_usage, "-p and a command exclude each other") ? -1 : -1;
	if (o->per_thread && !o->pid && !o->workload)
		return td_usage_error(record_usage, "--per-thread needs a command or -p") ? -1 : -1;
	/* --dry-run may plan for another machine (--cpu NAME): only the list's form is checked */
	if (o->cpu_list && check_cpu_list(o->cpu_list, !o->dry_run) < 0)
		return -1;
	if (o->pid && !o->dry_run && check_pid(o->pid) < 0)
		return -1;
	return 0;
}

static void record_release(struct record *r)
{
	size_t i, j;

	for (i = 0; i < r->nr_runs; i++) {
		for (j = 0; j < r->runs[i].nr_jobs; j++) {
			free(r->runs[i].jobs[j].file);
			free_argv(r->runs[i].jobs[j].argv);
		}
		free(r->runs[i].jobs);
	}
	free(r->runs);
	free(r->clusters);
	strbuf_release(&r->info_metrics);
	if (r->have_sched)
		td_sched_release(&r->sched);
	td_run_result_release(&r->last);
	td_cpu_info_release(&r->ci);
	json_decref(r->files);
	json_decref(r->run_list);
	json_decref(r->warnings);
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
	for (i = 0; i < r->nr_runs; i++) {
		if (i && td_run_interrupted()) {
			add_warning(r, "interrupted: %zu of %zu runs done", i, r->nr_runs);
			break;
		}
		if (td_verbose && r->nr_runs > 1)
			note("run %zu of %zu", i + 1, r->nr_runs);
		if (record_one_run(r, &r->runs[i], i) < 0) {
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
	check_comparable(r);
	had_previous = td_file_exists(r->o.output);
	if (record_finish(r) < 0 || td_rundir_commit(&r->rd) < 0) {
		error("cannot write the run directory '%s': %s", r->o.output, strerror(errno));
		td_rundir_abort(&r->rd);
		return 2;
	}
	if (!ret)
		ret = forwarded_status(&r->last);
	/* always said: where the run went, and that the previous one was kept */
	note("wrote %s (%zu run%s)%s%s%s; see it with: tdperf report%s%s", r->o.output, r->nr_runs,
	     r->nr_runs > 1 ? "s" : "", had_previous ? "; the previous run is kept as " : "",
	     had_previous ? r->o.output : "", had_previous ? ".old" : "",
	     strcmp(r->o.output, TD_RUN_DEFAULT) ? " " : "", strcmp(r->o.output, TD_RUN_DEFAULT) ? r->o.output : "");
	return ret;
}

/* Record with the options parsed: plan, run the workload, write the run directory. */
static int record(const struct record_opts *o)
{
	struct record r;
	int ret;

	memset(&r, 0, sizeof(r));
	r.o = *o;
	strbuf_init(&r.info_metrics, 0);
	if (!r.o.dry_run && r.o.workload && (ret = workload_runnable(r.o.workload[0])))
		return ret;

	r.files = json_array();
	r.run_list = json_array();
	r.warnings = json_array();
	td_cpu_detect(&r.ci, r.o.cpu);
	r.table = r.ci.table;
	if (r.o.assume_pmu)
		r.ci.hardware_pmu = 1;
	if (r.o.smt >= 0)
		r.ci.smt = r.o.smt;
	if (r.o.cpu && !r.table) {
		error("--cpu %s: %s", r.o.cpu, r.ci.table_error);
		record_release(&r);
		return 2;
	}
	if (r.o.dry_run && !r.table) {
		error("--dry-run needs a formula table: %s; choose one with --cpu",
		      r.ci.table_error ? r.ci.table_error : "none for this CPU");
		record_release(&r);
		return 2;
	}
	if (!r.o.dry_run && !r.ci.perf_path) {
		error("perf not found ('%s'): install it (Debian: apt-get install linux-perf) "
		      "or set TDPERF_PERF", td_perf_program());
		record_release(&r);
		return 2;
	}
	if (!r.o.dry_run && !r.ci.hardware_pmu)
		note("no hardware PMU, recording software counts%s only (see 'tdperf check'): %s",
		     r.ci.tracepoints_ok ? " and sched tracepoints" : "",
		     r.ci.cycles_why ? r.ci.cycles_why : "cycles cannot be counted");
	if (record_plan(&r) < 0) {
		record_release(&r);
		return 2;
	}
	if (r.o.dry_run)
		ret = record_dry_run(&r);
	else
		ret = record_run_all(&r);
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
	char **w;
	int ret;

	strvec_push(&cl, o->argv[0]);
	td_options_filter(o->argc, o->argv, options, TD_PARSE_STOP_AT_NON_OPTION, sweep_drops, o, &cl);
	strvec_push(&cl, "--sched"); /* the thread analysis needs the tracepoints */
	strvec_push(&cl, "-o");
	strvec_push(&cl, path);
	strvec_push(&cl, "--");
	for (w = o->workload; *w; w++) {
		char *arg = td_sweep_substitute(*w, sw->param, sw->labels[i]);

		strvec_push(&wl, arg);
		strvec_push(&cl, arg);
		free(arg);
	}
	one.sched = 1;
	one.output = path;
	one.workload = wl.v;
	one.argc = (int)cl.nr;
	one.argv = cl.v;
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
	struct strbuf err = STRBUF_INIT;
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
	while (o->workload[nr_workload])
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
	goto out;
fail:
	td_rundir_abort(&rd);
	ret = 2;
out:
	free(start_time);
	strbuf_release(&err);
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
	return !d->keep_system_wide && (opt->value == &d->o->system_wide || opt->value == &d->o->cpu_list);
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
	rank->system_wide = (o->system_wide || o->cpu_list) && d.keep_system_wide;
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
		TD_OPT_INT_RANGE('l', "level", &o.req.level, 0, INT_MAX, "N", "Top-Down depth (default 2; without a tree in the table, as on AMD Zen 1-3: its info metrics)"),
		TD_OPT_STRING(0, "nodes", &o.req.nodes, "LIST", "Top-Down nodes to measure (comma-separated ids)"),
		TD_OPT_STRING(0, "metrics", &o.req.metrics, "LIST", "info metrics to measure (comma-separated ids)"),
		TD_OPT_STRING(0, "stacks", &o.req.stacks, "LIST", "stacks to measure (cpi, flops, frontend, ...)"),
		TD_OPT_STRING(0, "cpu", &o.cpu, "CPU", "formula table to use (name or CPUID string)"),
		TD_OPT_SET_INT(0, "sched", &o.sched, 1,
			       "record sched tracepoints for per-thread run/wait time (default: only when "
			       "there is no hardware PMU)"),
		TD_OPT_SET_INT(0, "no-sched", &o.sched, 0, "do not record them"),
		TD_OPT_SET_INT(0, "threads", &o.sched, 1, "the same as --sched (per-thread stacks)"),
		TD_OPT_BOOL(0, "hotspots", &o.hotspots,
			    "also sample where the time goes (perf record into hotspots.data): a "
			    "leader-sampled group of the Top-Down Level 1-2 events with a PMU, cpu-clock "
			    "without one"),
		TD_OPT_BOOL('g', NULL, &o.callgraph, "with --hotspots: record call chains"),
		TD_OPT_INT_RANGE('F', "freq", &o.freq, 1, INT_MAX, "FREQ",
				 "with --hotspots: samples per second (perf's -F)"),
		TD_OPT_BOOL(0, "locate", &o.locate,
			    "with --hotspots: one more run sampling the precise events the table locates "
			    "its nodes with (locate.data)"),
		TD_OPT_CALLBACK(0, "sweep", &o.sweep, "PARAM=V1,V2,...",
				"record once per value into DIR/PARAM-V: {PARAM} in the command is replaced, "
				"threads also sets OMP_NUM_THREADS", parse_sweep),
		TD_OPT_GROUP("How to measure:"),
		TD_OPT_BOOL(0, "no-multiplex", &o.no_multiplex,
			    "run the workload once per group (no time sharing of counters) and check that "
			    "the runs are comparable"),
		TD_OPT_INT_RANGE(0, "tolerance", &o.tolerance_pct, 0, INT_MAX, "PCT",
				 "allowed spread of instructions and time between the runs of "
				 "--no-multiplex (default 5)"),
		TD_OPT_INT_RANGE('r', "repeat", &o.repeats, 1, INT_MAX, "N", "run the workload N times"),
		TD_OPT_INT_RANGE('I', "interval-print", &o.interval_ms, 10, INT_MAX, "MS",
				 "print counts every MS milliseconds"),
		TD_OPT_BOOL(0, "live", &o.live,
			    "with -I: draw each interval's Top-Down tree as it comes (redrawn on a "
			    "terminal, else a line per interval)"),
		TD_OPT_BOOL('a', "all-cpus", &o.system_wide, "count on all CPUs (system wide)"),
		TD_OPT_STRING('C', "cpu-list", &o.cpu_list, "LIST", "count on these CPUs only"),
		TD_OPT_INT_RANGE('p', "pid", &o.pid, 1, INT_MAX, "PID",
				 "attach to a running process instead of a command"),
		TD_OPT_BOOL(0, "per-thread", &o.per_thread, "counts per thread"),
		TD_OPT_STRING('o', "output", &o.output, "DIR",
			      "run directory (default tdperf.data); under srun or mpirun the job "
			      "directory, one DIR/rank-N.HOST per rank"),
		TD_OPT_STRING(0, "gather", &o.gather, "DIR",
			      "under a launcher: copy each rank's directory into the job directory DIR "
			      "afterwards (-o node-local, DIR shared)"),
		TD_OPT_CALLBACK(0, "smt", &o.smt, "on|off",
				"override the SMT state the scheduler assumes (for dry runs)", parse_on_off),
		TD_OPT_CALLBACK(0, "nmi-watchdog", &o.nmi, "on|off",
				"override whether the scheduler assumes the NMI watchdog holds a counter", parse_on_off),
		TD_OPT_INT_RANGE(0, "counters", &o.counters, 1, INT_MAX, "N",
				 "override the number of general counters the scheduler assumes"),
		TD_OPT_BOOL(0, "assume-pmu", &o.assume_pmu,
			    "skip the hardware PMU test and count hardware events (for a perf test "
			    "double, or where the test is blocked)"),
		TD_OPT_BOOL('n', "dry-run", &o.dry_run, "print groups and perf command lines, run nothing"),
		TD_OPT_COUNT('v', "verbose", &o.verbose, "say more"),
		TD_OPT_END(),
	};

	memset(&o, 0, sizeof(o));
	o.req.level = -1; /* 2 unless -l says otherwise */
	o.sched = o.smt = o.nmi = o.counters = -1;
	o.repeats = 1;
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
	o.workload = nr ? args : NULL;
	o.level_given = o.req.level >= 0;
	if (!o.level_given)
		o.req.level = 2;

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
	free(args);
	return ret;
}
