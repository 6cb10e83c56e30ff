/*
 * collect/: everything that touches the live machine: CPU and PMU
 * detection, the event scheduler (events -> groups that fit the counters),
 * driving perf (fork/exec, never a shell), and writing run directories
 * (docs/run-format.md).
 *
 * Name prefix: td_cpu_, td_sched_, td_perf_, td_meta_, td_run_ (and td_cal_).
 */
#ifndef TD_COLLECT_H
#define TD_COLLECT_H

#include <sys/types.h>
#include <jansson.h>

#include "util/util.h"

/* ==================== calibration (collect/calibrate*.c) ==================== */
/*
 * 'tdperf calibrate' measures the roofs of the roofline model on the live
 * machine with built-in micro-benchmarks (no PMU needed) and keeps them in
 * a per-CPU cache file (docs/calibration.md).  Name prefix: td_cal_.
 */
#include <stdint.h>
#include "metrics/roofline.h"

/* ---- kernels (collect/calibrate-kernels.c) ---- */
/* Whether the FP kernel of this width runs here; *uses_fma says which kind. */
int td_cal_fp_supported(enum td_rl_width w, int *uses_fma);
/* Run iters iterations of an FP kernel; returns the FLOPs done. */
double td_cal_fp_run(enum td_rl_prec p, enum td_rl_width w, uint64_t iters, double *sink);
/* Vector width (bits) of the bandwidth kernels. */
unsigned td_cal_mem_vector_bits(void);
/* Read / write 'bytes' (a multiple of 8 vectors, aligned) 'passes' times. */
uint64_t td_cal_load(const void *buf, size_t bytes, uint64_t passes);
void td_cal_store(void *buf, size_t bytes, uint64_t passes);
/* Follow 'hops' (a multiple of 8) pointers from start. */
void *td_cal_chase(void *start, uint64_t hops);
/* 100 * iters dependent one-cycle integer adds (x86); 0 when unsupported. */
uint64_t td_cal_clock_chain(uint64_t iters);
int td_cal_clock_supported(void);
/* Evict buf from all caches; -1 where the architecture cannot. */
int td_cal_flush(const void *buf, size_t bytes);

/* ---- the measurement (collect/calibrate.c) ---- */
struct td_cal_cpu {
	char *vendor;      /* "GenuineIntel" */
	int family, model, stepping;
	char *name;        /* model name */
	char *cpuid;       /* "GenuineIntel-6-CF-2", as perf spells it */
	char *key;         /* td_peaks_cpu_key() */
};
/* Identify this CPU from /proc/cpuinfo; -1 with err set when it cannot. */
int td_cal_cpu_detect(struct td_cal_cpu *cpu, struct strbuf *err);
void td_cal_cpu_release(struct td_cal_cpu *cpu);

struct td_cal_opts {
	int threads;       /* benchmark threads, each pinned to its own CPU */
	int quick;         /* ~3 s: shorter and fewer repetitions, no sweep */
	int verbose;       /* progress on stderr */
};

struct td_cal_sweep_point {
	double working_set;              /* bytes per thread */
	struct td_measurement load_gbs;
	struct td_measurement latency_ns;
};

struct td_cal_result {
	struct td_peaks peaks;
	double cache_size[TD_RL_NR_LEVEL]; /* bytes (L1d, L2, L3 from sysfs); NAN unknown */
	int fma;                           /* FP kernels used FMA */
	unsigned mem_vector_bits;
	double target_s;                   /* seconds per repetition */
	struct td_cal_sweep_point *sweep;
	size_t nr_sweep;
	char **warnings;
	size_t nr_warnings;
	double duration_s;                 /* how long the calibration took */
	double load_average;               /* 1-minute load average before it */
};

/* Measure; 0, or -1 with err set (e.g. out of memory for the DRAM buffer). */
int td_calibrate(const struct td_cal_opts *opts, struct td_cal_result *r, struct strbuf *err);
void td_cal_result_release(struct td_cal_result *r);

/*
 * The calibration file document for 'path' with this result merged in
 * (entries of other thread counts already there are kept), as JSON text
 * in out.  -1 with err set when an existing file is unreadable.
 */
/* 0 when path is absent or a calibration file we may update, else -1 + err. */
int td_cal_check_file(const char *path, struct strbuf *err);
int td_cal_document(const char *path, const struct td_cal_cpu *cpu,
		    const struct td_cal_result *r, struct strbuf *out, struct strbuf *err);

struct td_table;

/* ==================== detection (collect/cpu.c) ==================== */

/* One PMU under /sys/bus/event_source/devices. */
struct td_pmu {
	char *name;              /* "cpu", "cpu_core", "software", "msr", ... */
	int type;                /* perf_event_attr.type, -1 when unreadable */
	int core;                /* a CPU core PMU (cpu, cpu_core, cpu_atom, armv8_*) */
	int hybrid;              /* cpu_core / cpu_atom */
	char *cpus;              /* Arm core PMUs: the CPUs it counts on ("0-3"), or NULL */
	char *cpuid;             /* Arm core PMUs: the MIDR of those CPUs, or NULL */
	json_t *caps;            /* caps/ files as {"name": "value"}, or NULL */
};

/* A tri-state for things we could not find out. */
enum { TD_UNKNOWN = -1 };

/*
 * What this machine is and what it lets perf measure.  Every field that
 * could not be determined is NULL / TD_UNKNOWN, with a reason where one
 * helps the user.
 */
struct td_cpu_info {
	/* identification (/proc/cpuinfo) */
	char *vendor;            /* "GenuineIntel", "AuthenticAMD" */
	int family, model, stepping;
	char *name;              /* "Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz" */
	char *cpuid;             /* perf's form: "GenuineIntel-6-55-4" */
	int hypervisor;          /* "hypervisor" cpu flag: we run in a VM */

	/* formula table for this CPU, when one matches */
	const struct td_table *table;
	char *table_error;       /* why none matched, or NULL */

	/* PMUs */
	struct td_pmu *pmus;
	size_t nr_pmus;
	int hybrid;              /* cpu_core + cpu_atom present */
	int core_pmu;            /* a core PMU directory exists (cpu, cpu_core, ...) */

	/* counters */
	int arch_perfmon_version;/* CPUID.0AH:EAX[7:0] on Intel, TD_UNKNOWN elsewhere */
	int gp_counters;         /* general counters per logical CPU, TD_UNKNOWN */
	int fixed_counters;
	const char *counters_source; /* "cpuid", "table", NULL */

	/* state */
	int smt;                 /* 1 on, 0 off, TD_UNKNOWN */
	char *smt_control;       /* /sys/devices/system/cpu/smt/control */
	int nmi_watchdog;        /* 1 on, 0 off, TD_UNKNOWN */
	int paranoid;            /* kernel.perf_event_paranoid, or -100 when unknown */
	int root;                /* effective uid 0 (or CAP_PERFMON assumed) */
	char *cpus_online;       /* "0-7" */
	int nr_cpus_online;

	/* perf */
	char *perf_path;         /* resolved perf program, NULL when not found */
	char *perf_version;      /* "6.1.187", NULL when unknown */

	/* tracefs, for sched tracepoints */
	char *tracefs;           /* mount point in use, NULL when none */
	int tracepoints_ok;      /* sched:sched_switch usable by us */
	char *tracepoints_why;   /* why not, when !tracepoints_ok */

	/* the test open of 'cycles' */
	int cycles_ok;           /* a hardware cycles counter opened */
	int cycles_errno;        /* errno of the failed open, 0 when it worked */
	char *cycles_why;        /* what the failure means */
	int hardware_pmu;        /* counting hardware events works here */

	/* host */
	char *hostname;
	char *kernel;            /* uname -r */
};

/*
 * Detect everything above.  'cpu_override' (may be NULL) is a --cpu
 * argument: the table is taken from it instead of the CPUID.  Never fails:
 * what cannot be found is left unknown.
 */
void td_cpu_detect(struct td_cpu_info *ci, const char *cpu_override);
void td_cpu_info_release(struct td_cpu_info *ci);
/* Arm: the core PMUs whose cluster's core is known (cpuid); two or more on big.LITTLE. */
size_t td_cpu_arm_clusters(const struct td_cpu_info *ci);
/* The core PMUs to schedule for ("cpu", or "cpu_core" and "cpu_atom"). */
const struct td_pmu *td_cpu_find_pmu(const struct td_cpu_info *ci, const char *name);

/*
 * Arm identification (collect/cpu-arm.c): perf's CPUID is the MIDR as
 * "0x%016lx".  root is the file system root ("" on the machine itself; a
 * directory holding proc/cpuinfo and sys/devices/system/cpu in tests).
 */
int td_arm_cpuid_from_cpuinfo(const char *cpuinfo, struct strbuf *out);
int td_arm_cpuid_from_midr(const char *text, struct strbuf *out);
/* Implementer of a MIDR CPUID ("ARM", "Ampere", "HiSilicon"), NULL when not one. */
const char *td_arm_implementer(const char *cpuid);
/* Distinct MIDRs of the CPUs under root's sysfs, sorted (caller frees); their count. */
size_t td_arm_sysfs_cpuids(const char *root, char ***out);
/* The CPUID: sysfs midr_el1 first, else /proc/cpuinfo; -1 when neither tells. */
int td_arm_identify(const char *root, struct strbuf *cpuid, struct strbuf *why);
/*
 * The MIDR CPUID of the cluster whose CPUs a core PMU's sysfs "cpus" file
 * lists ("4-7": CPU 4's midr_el1); -1 when sysfs does not tell.
 */
int td_arm_cluster_cpuid(const char *root, const char *cpus, struct strbuf *cpuid);

/* Machine part of meta.json: "host", "cpu", "smt", "cpus_online", "pmus"... */
void td_meta_add_machine(json_t *meta, const struct td_cpu_info *ci);
/* The same as one JSON object for 'tdperf check --json'. */
json_t *td_cpu_info_json(const struct td_cpu_info *ci);

/* Run a program with argv and capture its stdout (no shell).  0 on exit 0. */
int td_capture_output(char *const argv[], struct strbuf *out);

/* ==================== scheduler (collect/sched.c) ==================== */

/* What the user asked to measure. */
struct td_sched_request {
	int level;               /* Top-Down depth, 0 = none (default 2) */
	const char *nodes;       /* comma-separated node ids, or NULL */
	const char *metrics;     /* comma-separated info metric ids, or NULL */
	const char *stacks;      /* comma-separated stack names, or NULL */
};

/* Counter budget of one PMU. */
struct td_sched_budget {
	int gp;                  /* general counters usable by one group */
	int fixed;               /* fixed counters */
	int smt;                 /* SMT state assumed (for #smt_on) */
	int nmi_watchdog;        /* one general counter taken by the watchdog */
	const char *gp_source;   /* "cpuid", "table", "--counters" */
	const char *pmu_name;    /* Arm: this machine's name of the table's core PMU
				  * (armv8_pmuv3, armv8_neoverse_n1, ...) when it differs, else NULL */
	int name_pmu;            /* Arm with several clusters: each event's name= term
				  * carries its PMU ("armv8_cortex_a76.CPU_CYCLES") so that
				  * perf prints the clusters' counts apart */
};

struct td_sched_event {
	char *name;              /* table name: "INST_RETIRED.ANY" */
	char *perf_name;         /* what perf is asked for */
	const char *pmu;
	int fixed;               /* fixed counter index or -1 */
	int counter;             /* general counter assigned, -1 for fixed/none */
};

struct td_sched_group {
	const char *pmu;
	struct td_sched_event *events;
	size_t nr_events;
	int gp_used;
	char **metrics;          /* ids of the metrics whose formula is whole here */
	size_t nr_metrics;
};

struct td_sched {
	const struct td_table *table;
	struct td_sched_budget budget;
	struct td_sched_group *groups;
	size_t nr_groups;
	char **ungrouped;        /* events outside groups (duration_time, software) */
	size_t nr_ungrouped;
	char **metrics;          /* every metric measured (ids) */
	size_t nr_metrics;
	char **split;            /* metrics whose events did not fit in one group */
	size_t nr_split;
	char **warnings;
	size_t nr_warnings;
};

/*
 * Does metric m belong to the stack --stacks names so ("cpi", "multistage",
 * "flops", "frontend"; by its groups or area: "Stack_CPI", "stack.cpi", ...)?
 */
struct td_metric;
int td_sched_metric_in_stack(const struct td_metric *m, const char *stack);
/*
 * Turn a request into groups for 'table' under 'budget'.  Returns 0, or
 * -1 with err set (unknown node/metric/stack, an event the table does
 * not describe, an event that fits no counter).
 */
int td_sched_build(const struct td_table *table, const struct td_sched_request *req,
		   const struct td_sched_budget *budget, struct td_sched *out, struct strbuf *err);
void td_sched_release(struct td_sched *s);
/*
 * Hybrid CPUs: append the groups of 'from' (another PMU's schedule) to
 * 'into', with its metric ids, split formulas and warnings prefixed by
 * that PMU ("cpu_atom: ..."); 'from' is left empty.
 */
void td_sched_append(struct td_sched *into, struct td_sched *from);
/* Budget for a table on this machine (ci may be NULL: table values, SMT on). */
void td_sched_default_budget(const struct td_table *table, const struct td_cpu_info *ci,
			     struct td_sched_budget *b);
/* The -e argument for group i ("{a,b,c}"), or all groups when i < 0. */
void td_sched_group_spec(const struct td_sched *s, long i, struct strbuf *sb);

/* ==================== running perf (collect/run.c) ==================== */

/* One perf process attached to the workload. */
struct td_perf_job {
	char **argv;             /* perf argv, NULL-terminated, without the target */
	char *stderr_path;       /* where perf's stderr goes */
	pid_t pid;
	int ctl_fd, ack_fd;      /* our ends of perf's --control fds */
	int status;              /* waitpid status of perf */
	int started;
};

struct td_run_spec {
	char *const *workload;   /* argv to run, or NULL (then -p/-a until Ctrl-C) */
	pid_t attach_pid;        /* -p PID, 0 when none */
	int system_wide;         /* -a or -C: perf is not attached to a task */
	struct td_perf_job *jobs;
	size_t nr_jobs;
	/* called about every 200 ms while the workload runs (record --live) */
	void (*tick)(void *ctx);
	void *tick_ctx;
};

struct td_run_result {
	int exited;              /* the workload exited normally */
	int exit_status;         /* its exit status when exited */
	int signo;               /* the signal that ended it, 0 none */
	int interrupted;         /* tdperf got SIGINT/SIGTERM */
	int exec_errno;          /* the workload could not be started */
	double seconds;          /* wall time of the workload */
	char *start_time, *end_time; /* ISO 8601 UTC */
};

/*
 * Run the workload once with every job attached: the workload is forked
 * held, each perf attaches with "-p PID --control fd:.. -D -1" (or runs
 * system-wide), is enabled and acknowledged, and only then is the
 * workload released.  SIGINT/SIGTERM are forwarded to the workload; perf
 * is stopped with SIGINT after the workload ends so that it writes
 * complete output.  Returns 0, or -1 with err set when perf could not
 * start (nothing was measured).
 */
int td_run_workload(struct td_run_spec *spec, struct td_run_result *res, struct strbuf *err);
void td_run_result_release(struct td_run_result *res);
/* True while/after tdperf was asked to stop (SIGINT/SIGTERM). */
int td_run_interrupted(void);
/* Last non-empty line of a file (perf's stderr), for error messages. */
void td_last_line(const char *path, struct strbuf *sb);
/* Append argv shell-quoted, for printing commands. */
void td_quote_argv(struct strbuf *sb, char *const argv[]);
/* "SIGINT" for 2 (a static buffer). */
const char *td_signal_name(int signo);
/* ISO 8601 UTC time now. */
char *td_iso_time_now(void);

/* ==================== sweeps (collect/sweep.c, threads work) ==================== */

/* True when the record command line asks for --sweep (before any "--"). */
int td_sweep_wanted(int argc, char **argv);
/*
 * tdperf record --sweep PARAM=V1,V2,... [options] [--] COMMAND...: call
 * 'record' (cmd_record) once per value with "-o DIR/PARAM-V --sched" and
 * the command's "{PARAM}" replaced by V (and OMP_NUM_THREADS=V when PARAM
 * is "threads"), then write sweep.json and meta.json (kind "sweep") and
 * publish the sweep directory atomically.  Returns the first nonzero exit
 * status of the workload runs, else 0; 2 on bad usage or when a value could
 * not be recorded (then nothing is published).
 */
int td_sweep_record(int argc, char **argv, int (*record)(int argc, char **argv));

/* ==================== jobs: one rank of srun/mpirun (collect/job.c) ==================== */

/* Who this process is in a parallel job, from its launcher's environment. */
struct td_job_rank {
	const char *launcher;    /* "slurm", "openmpi", "mvapich", "pmix", "mpich" */
	long rank;               /* 0.. */
	long size;               /* ranks in the job, -1 unknown */
	long local_rank;         /* rank among those of this node, -1 unknown */
	long node;               /* the node's index (Slurm's SLURM_NODEID), -1 unknown */
	char *job_id;            /* SLURM_JOB_ID.STEP, Open MPI's jobid, PMIx namespace; or NULL */
	char *host;              /* this node's short host name */
	int system_wide;         /* this rank counts its node's CPUs (-a/-C, local rank 0) */
};
typedef const char *(*td_getenv_fn)(const char *name);
/*
 * Recognise a rank from the environment read through 'env' (getenv, or a
 * test's table).  Returns 1 with r filled (host left NULL), 0 when no
 * launcher's variables are set, -1 with err set when one holds garbage.
 */
int td_job_rank_detect(struct td_job_rank *r, td_getenv_fn env, struct strbuf *err);
void td_job_rank_release(struct td_job_rank *r);
/* "rank-00003.HOST": the rank's run directory inside the job directory. */
char *td_job_rank_dirname(const struct td_job_rank *r);
/* The rank's "job" object of its meta.json (docs/job-format.md). */
json_t *td_job_rank_json(const struct td_job_rank *r);
/*
 * Should this 'tdperf record' record one rank of a job?  1 with r filled
 * (host too), 0 (not under a launcher, TDPERF_JOB=0, or already inside
 * td_job_record), -1 after printing an error.
 */
int td_job_wanted(struct td_job_rank *r);
/*
 * Record this rank: call 'record' (cmd_record) with "-o JOB/rank-N.HOST",
 * system-wide options kept only by the node's local rank 0; rank 0 writes
 * JOB/meta.json; 'summarise' (may be NULL) adds the rank's summary to its
 * directory; "--gather DIR" then copies the rank's directory into DIR.
 * Returns record's exit status, or 2.
 */
int td_job_record(int argc, char **argv, struct td_job_rank *r,
		  int (*record)(int argc, char **argv), void (*summarise)(const char *rankdir));
/* The rank being recorded (inside td_job_record), else NULL. */
const struct td_job_rank *td_job_current(void);
/* Does this option of 'tdperf record' take a separate argument? (collect/sweep.c) */
int td_record_option_takes_argument(const char *opt);
/* ==================== hotspots (collect/hotspots.c) ==================== */
/*
 * The -e argument of 'perf record' for hotspots: without a table (no
 * PMU) cpu-clock; else one leader-sampled group "{cycles-or-slots,...}:S"
 * with the events of Top-Down Level 1..level that fit one group.  Returns
 * the level sampled (0 without a table), -1 with err set; note says what
 * was given up.
 */
int td_hotspots_events(const struct td_table *t, const struct td_sched_budget *b, int level,
		       struct strbuf *events, struct strbuf *note, struct strbuf *err);
/* The precise events the table locates its Level 1..level nodes with
 * (LocateWith), comma-separated into events; returns how many. */
int td_hotspots_locate_events(const struct td_table *t, int level, struct strbuf *events);

#endif /* TD_COLLECT_H */
