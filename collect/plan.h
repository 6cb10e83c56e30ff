/*
 * collect/plan.h: what 'tdperf record' measures and how many times it
 * runs the workload for it.
 *
 * A plan is a list of runs (executions of the workload), each with the
 * perf processes attached to it (jobs: perf stat counting the scheduled
 * groups, perf record for sched tracepoints, hotspots or locate samples).
 * It is built from the record options and the detected machine: the
 * formula table, the event scheduler's groups for the counters there are
 * (collect/sched.h; on hybrid Intel parts also the E-cores', on big.LITTLE
 * Arm each cluster's), and -r, --no-multiplex, --hotspots, --locate.
 * td_plan_print is the dry run: the groups and the perf command lines.
 *
 * Ownership: the options and the CPU description are borrowed and must
 * outlive the plan (clusters point into ci's PMUs); everything else in
 * struct td_plan belongs to it until td_plan_release.
 *
 * Errors: td_plan_build returns -1 with one line in 'err' (nothing that
 * fits the counters, a table that cannot serve the request).  Warnings
 * (a cluster without a table, nodes the E-cores lack, options ignored)
 * are kept in 'warnings', in the order they arose, for the caller to
 * print and to keep in meta.json; a table without a tree says what it
 * measures instead with note() (util.h).
 *
 * Name prefix: td_plan_.
 */
#ifndef TD_COLLECT_PLAN_H
#define TD_COLLECT_PLAN_H

#include "collect/cpu.h"
#include "collect/sched.h"
#include "metrics/table.h"
#include "util/util.h"

#include <stdio.h>

/* The options of 'tdperf record' that decide what is measured and how. */
struct td_plan_opts {
	struct td_sched_request req;
	const char *cpu;         /* --cpu: the table named, not the detected CPU's */
	int level_given;         /* -l was on the command line */
	int sched;               /* --sched/--no-sched, -1 auto */
	int no_multiplex;        /* one run per group */
	int repeats;             /* -r */
	int interval_ms;         /* -I, 0: none */
	int system_wide;         /* -a */
	const char *cpu_list;    /* -C */
	int pid;                 /* -p, 0: none */
	int per_thread;
	int per_core;            /* --per-core: perf stat's per-core counts (with -a or -C) */
	int no_aggr;             /* -A: perf stat's per-CPU counts (with -a or -C) */
	int dry_run;             /* plan without a hardware PMU (another machine's) */
	int smt, nmi, counters;  /* -1: as detected */
	int hotspots, callgraph, locate; /* --hotspots, -g, --locate */
	int freq;                /* -F, 0: perf's default */
	int drilldown;           /* --drilldown[=N]: steps down the tree, 0: none */
	const char *events;      /* -e: perf's event list counted beside the tree, or NULL */
	char **workload;         /* NULL-terminated, or NULL */
};

/* One perf process of one run, and the file it writes. */
struct td_plan_job {
	const char *role;        /* "perf-stat", "sched", "hotspots", "locate" */
	char *file;              /* output file name inside the run dir */
	struct strvec argv;      /* perf argv without the target; its -o names 'file' */
	long group;              /* --no-multiplex: the group counted, -1 all */
};

/* One execution of the workload. */
struct td_plan_run {
	struct td_plan_job *jobs;
	size_t nr_jobs;
	int repeat;              /* 1.. */
	long group;              /* --no-multiplex group, -1 all */
};

/* A cluster of a big.LITTLE Arm system counted besides the detected CPU's. */
struct td_plan_cluster {
	const struct td_pmu *pmu;   /* its core PMU (name, CPUs, MIDR) */
	const struct td_table *table;
	struct td_sched_budget budget;
};

struct td_plan {
	const struct td_plan_opts *o;
	const struct td_cpu_info *ci;
	const struct td_table *table;      /* ci's: the detected or --cpu table, or NULL */
	struct td_sched_request req;       /* o->req as measured (a table without a
					    * tree: all its info metrics) */
	int hardware;                      /* counting hardware events */
	struct td_sched sched;             /* the groups, when have_sched */
	int have_sched;
	const struct td_table *atom_table; /* hybrid: the E-core (cpu_atom) table, or NULL */
	struct td_sched_budget atom_budget;
	int arm_clusters;                  /* big.LITTLE Arm: each cluster on its own PMU */
	struct td_plan_cluster *clusters;  /* the other clusters counted */
	size_t nr_clusters;
	int sched_tracepoints;             /* a job records sched tracepoints */
	struct td_plan_run *runs;
	size_t nr_runs, alloc_runs;
	struct strvec warnings;
	/* private */
	struct strbuf info_metrics;
	size_t nr_stat_files;
};

/* Plan for the options on the machine ci describes; see above for errors. */
int td_plan_build(struct td_plan *p, const struct td_plan_opts *o, const struct td_cpu_info *ci,
		  struct strbuf *err);
/*
 * record --drilldown, planned after the first runs were counted
 * (collect/drilldown.c chooses the events): a run of perf record of
 * 'events' into 'file' with job role 'role' (a string literal), and a
 * counting run of the Top-Down nodes 'ids' into the CSV 'file' (role
 * "drilldown-count").  They return the new run's index; the second -1
 * with err set when the nodes cannot be scheduled.
 */
size_t td_plan_add_sample_run(struct td_plan *p, const char *role, const char *file, const char *events);
long td_plan_add_count_run(struct td_plan *p, const char *ids, const char *file, struct strbuf *err);
/* Frees what the plan owns (also after a failed td_plan_build). */
void td_plan_release(struct td_plan *p);
/* Do groups of one PMU share its counters in time (perf multiplexes them)? */
int td_plan_multiplexed(const struct td_plan *p);
/* The perf command equivalent to job j, as a user would type it: its argv and the target. */
void td_plan_job_command(const struct td_plan *p, const struct td_plan_job *j, struct strvec *out);
/* The dry run: the groups, the perf command line of each job, the hotspots' warnings. */
void td_plan_print(const struct td_plan *p, FILE *out);

#endif /* TD_COLLECT_PLAN_H */
