/*
 * metrics/: formula tables and the evaluator.
 *
 *  - td_expr: Linux perf's MetricExpr dialect, parsed once into a tree and
 *    evaluated many times.  Names (events, #literals, other metrics) are
 *    resolved through a caller-supplied lookup, so the evaluator knows
 *    nothing about where counts come from.
 *  - td_table: one microarchitecture's formula table (metrics/tables/NAME.json,
 *    format in docs/tables.md): identification, pipeline width, counter
 *    resources, event encodings, Top-Down nodes and info metrics.
 *  - td_tree: evaluation of a table's Top-Down tree on one set of counts:
 *    values, thresholds with hierarchical gating, the bottleneck path and
 *    sanity checks.
 *
 * Name prefix: td_expr_, td_table_, td_tree_.  Values of Top-Down nodes
 * are fractions of their domain (0.25 = 25 % of slots); NAN means "not
 * computable" and always comes with a reason.
 */
#ifndef TD_METRICS_H
#define TD_METRICS_H

#include <stddef.h>

#include "util/util.h"

/* ==================== expressions ==================== */

struct td_expr;

/*
 * Resolves a name to a value.  'name' is an event ("INST_RETIRED.ANY",
 * "cpu_core@TOPDOWN.SLOTS@", "topdown-fe-bound"), a literal ("#smt_on",
 * "#slots", "duration_time"), or a metric id.  Returns 0 and sets *value,
 * or -1 when the name is unknown/not measured (the expression then
 * evaluates to NAN with a reason naming it).
 */
typedef int (*td_lookup_fn)(void *ctx, const char *name, double *value);

struct td_env {
	td_lookup_fn lookup;
	void *ctx;
};

/* Parse an expression; NULL with a one-line message in err on failure. */
struct td_expr *td_expr_parse(const char *text, struct strbuf *err);
void td_expr_free(struct td_expr *e);
/*
 * Evaluate.  Division by zero gives NAN (d_ratio gives 0); a NAN result
 * gets its reason appended to 'why' when why != NULL.
 */
double td_expr_eval(const struct td_expr *e, const struct td_env *env, struct strbuf *why);

/* What a name in an expression is. */
enum td_name_kind { TD_NAME_EVENT, TD_NAME_LITERAL, TD_NAME_METRIC };
/*
 * Call fn once per distinct name the expression needs.  'env' (may be NULL)
 * is used to fold constant conditions such as "x if #smt_on else y", so
 * only the events of the branch taken are reported.  'is_metric' (may be
 * NULL) tells metric references from events.
 */
void td_expr_names(const struct td_expr *e, const struct td_env *env,
		   int (*is_metric)(void *ctx, const char *name), void *is_metric_ctx,
		   void (*fn)(void *ctx, const char *name, enum td_name_kind kind), void *ctx);
/* Print the expression back (normalized) into sb. */
void td_expr_print(const struct td_expr *e, struct strbuf *sb);

/* ==================== tables ==================== */

struct td_table;

/*
 * One way to compute a metric.  A metric lists one or more; the evaluator
 * uses the first whose names can all be looked up (docs/tables.md).
 */
struct td_formula {
	const char *text;        /* MetricExpr dialect */
	const struct td_expr *expr;
	int approximate;         /* drops a term of the exact definition */
	const char *note;        /* where it comes from / what differs, or NULL */
};

/* One Top-Down node (level >= 1) or info metric (level 0). */
struct td_metric {
	const char *id;          /* canonical id: "frontend_bound", "l1_bound", "ipc" */
	const char *name;        /* display name: "Frontend Bound" */
	const char *parent;      /* parent id, NULL at level 1 and for info metrics */
	int level;               /* 1.. for tree nodes, 0 for info metrics */
	const char *formula;     /* MetricExpr dialect, events by name */
	const char *threshold;   /* boolean expression, may use metric ids; NULL none */
	const char *unit;        /* "slots", "clocks", "per_instr", "GHz", ... */
	double scale;            /* info metrics: shown as value x scale in 'unit' (perf's
	                            ScaleUnit factor, 100 for "100%"); 1 otherwise.
	                            References and thresholds use the raw value. */
	const char *area;        /* "FE", "BAD", "BE/Mem", "RET", "Info.Core", ... */
	const char *description; /* one line, our own words */
	const char *locate_with; /* precise events to sample it by, or NULL */
	const char *groups;      /* ';'-separated metric groups, or NULL */
	int is_fraction;         /* value is a fraction of its domain (tree nodes) */
	const struct td_expr *expr;           /* == formulas[0].expr */
	const struct td_expr *threshold_expr;
	const struct td_formula *formulas;    /* formulas[0] is 'formula' */
	size_t nr_formulas;
	const char *domain;      /* tree nodes: "slots", "clocks", ...; else NULL */
};

/* Counter placement of one event. */
enum td_event_resource {
	TD_RES_NONE = 0,
	TD_RES_OFFCORE,   /* offcore_rsp MSR (0x1a6/0x1a7) */
	TD_RES_LDLAT,     /* load latency MSR 0x3f6 */
	TD_RES_FRONTEND,  /* frontend MSR 0x3f7 */
	TD_RES_PERF_METRICS, /* topdown-* from the PERF_METRICS MSR (needs slots leader) */
};

struct td_event {
	const char *name;        /* "INST_RETIRED.ANY", "ex_ret_ops" */
	const char *pmu;         /* "cpu", "cpu_core", "cpu_atom" */
	const char *perf_name;   /* how to ask perf for it: "cpu/event=0xc0,umask=0x0,name=INST_RETIRED.ANY/" */
	unsigned long long counters; /* bitmask of general counters allowed, 0 = any */
	int fixed;               /* fixed counter index, -1 when general */
	enum td_event_resource resource;
	int taken_alone;         /* must be alone in its group */
	int group_leader;        /* must lead its group (slots) */
	const char *description;
	/* raw encoding (0 / NULL when not applicable) */
	unsigned event_code, umask, cmask;
	int inv, edge, any;
	const char *msr;         /* "0x1a6" ... or NULL */
	const char *msr_value;
	int retire_latency;      /* a ":retire_latency" input (sampled, not counted) */
	double default_value;    /* retire latency default; NAN when none */
};

struct td_table_info {
	const char *name;        /* our table name: "skylake", "sapphirerapids", "zen4" */
	const char *display;     /* "Intel Skylake (client)" */
	const char *vendor;      /* "GenuineIntel", "AuthenticAMD" */
	const char *perf_name;   /* perf pmu-events directory: "skylakex", "amdzen4" */
	const char *core_type;   /* hybrid: "core" / "atom", else NULL */
	double slots_per_cycle;  /* pipeline width W */
	int gp_counters;         /* general counters per thread with SMT off */
	int gp_counters_smt;     /* ... with SMT on */
	int fixed_counters;
	const char *source;      /* where the formulas came from, with version */
	const char *pmu;         /* "cpu", "cpu_core", "cpu_atom" */
	const char *missing;     /* what this PMU cannot measure, or NULL */
};

/* Load a table file; NULL with "FILE: what is wrong" in err. */
struct td_table *td_table_load(const char *path, struct strbuf *err);
/* The same from memory; 'name' stands for the file in messages. */
struct td_table *td_table_load_data(const char *data, size_t len, const char *name,
				    struct strbuf *err);
void td_table_free(struct td_table *t);
/*
 * Find a built-in table by name ("skylakex"), our table name, or CPUID
 * string ("GenuineIntel-6-55-4", "AuthenticAMD-25-61").  On failure err
 * names the closest known table and says how to force one (--cpu).
 * The result is owned by the library (cached); do not free.
 */
const struct td_table *td_table_find(const char *cpu, struct strbuf *err);
/*
 * Same for hybrid parts: core_type "core" (P-core) or "atom" (E-core)
 * picks among the tables matching cpu; NULL behaves as td_table_find.
 * cpu may also carry the PMU as "alderlake/cpu_atom".
 */
const struct td_table *td_table_find_core(const char *cpu, const char *core_type,
					  struct strbuf *err);
/*
 * The E-core (cpu_atom) table of a hybrid P-core table ("alderlake" ->
 * "alderlake_atom"), or NULL when t is not the P-core table of a hybrid
 * family tdperf has both tables of.
 */
const struct td_table *td_table_atom_partner(const struct td_table *t);
/* Does the table's CPUID pattern list match this CPUID string? */
int td_table_matches_cpuid(const struct td_table *t, const char *cpuid);
/* Per-microarchitecture facts merged from an extra file ("params"). */
double td_table_param(const struct td_table *t, const char *name, double dflt);
const char *td_table_param_string(const struct td_table *t, const char *name);

/* ==================== importer (tdperf tables import) ==================== */

struct td_import_opts {
	const char *output;      /* table file to write (atomically) */
	const char *name, *display, *vendor, *perf_name, *core_type, *pmu;
	const char *source;      /* provenance line stored in the table */
	const char *missing;     /* what the PMU cannot measure */
	const char *unit;        /* perf metrics: take only this "Unit" (cpu_atom) */
	const char *mapfile, *map_key; /* CPUID patterns: rows whose file contains key */
	double slots;            /* pipeline width */
	int gp, gp_smt, fixed;   /* counters when the event lists do not say (0: from the lists) */
	const char **perfmon; size_t nr_perfmon;           /* Intel metrics JSON */
	const char *tma_csv, *tma_column; /* Intel's TMA spreadsheet and platform column */
	const char **perf_metrics; size_t nr_perf_metrics; /* perf JSON files/dirs */
	const char **events; size_t nr_events;             /* event lists */
	const char **extra; size_t nr_extra;               /* merged last */
	const char **cpuid; size_t nr_cpuid;
	const char **aliases; size_t nr_aliases;
	const char *arm_core, *arm_root; /* Arm: perf's core directory and arch/arm64 root */
};
/* Build a table from the sources; -1 with the reason in err. */
int td_table_import(const struct td_import_opts *o, struct strbuf *err);
/* Names of all built-in tables (NULL-terminated, owned by the library). */
const char *const *td_table_names(void);
/* Path of the file a table was loaded from (to copy into run directories). */
const char *td_table_path(const struct td_table *t);

const struct td_table_info *td_table_info(const struct td_table *t);
size_t td_table_nr_metrics(const struct td_table *t);
const struct td_metric *td_table_metric(const struct td_table *t, size_t i);
const struct td_metric *td_table_find_metric(const struct td_table *t, const char *id);
size_t td_table_nr_events(const struct td_table *t);
const struct td_event *td_table_event(const struct td_table *t, size_t i);
/*
 * Find an event by its formula name (case-insensitive), its perf_name, or
 * perf's spelling of it ("cpu_core/topdown-fe-bound/", "TOPDOWN.SLOTS:u").
 */
const struct td_event *td_table_find_event(const struct td_table *t, const char *name);

/*
 * Evaluate an ad-hoc expression against a table: names are looked up in
 * env first (so env can override metrics), then resolved as the table's
 * metrics (evaluated recursively with alternatives).  Sets *approximate
 * when a correction term or approximate formula was used (may be NULL).
 */
double td_table_eval_expr(const struct td_table *t, const struct td_expr *e,
			  const struct td_env *env, struct strbuf *why, int *approximate);

/* ==================== tree evaluation ==================== */

struct td_node_value {
	const struct td_metric *metric;
	double value;            /* NAN when not computable */
	char *reason;            /* why NAN (or why approximate), else NULL */
	int flagged;             /* above threshold with its whole path flagged */
	int bottleneck;          /* on the bottleneck path */
	int approximate;         /* computed without a correction term, etc. */
	const char *formula_used; /* text of the formula that produced value */
	int formula_index;       /* index into metric->formulas */
	int threshold_met;       /* own threshold true (before gating) */
};

struct td_tree_result {
	struct td_node_value *nodes; /* tree nodes in table (pre-)order */
	size_t nr_nodes;
	struct td_node_value *info;  /* info metrics */
	size_t nr_info;
	const char **path;           /* bottleneck path, ids from level 1 down */
	size_t nr_path;
	int ambiguous;               /* path stopped at two siblings within 5 points */
	/*
	 * Divisions by zero and count-dependent 'if' conditions met: while 0,
	 * every reason follows from which names the env could look up alone
	 * (another count set with the same names gets the same reasons).
	 */
	int value_dependent;
	char **warnings;             /* sanity-check failures with likely causes */
	size_t nr_warnings;
};

struct td_tree_opts {
	int max_level;           /* 0 = all levels */
	int no_info;             /* skip info metrics */
	int no_reasons;          /* leave every reason NULL: values, flags and path only */
};

/*
 * Optional literals the env may know, used by the sanity checks to name
 * the likely cause: "#multiplexed" (1 when counters were time-shared),
 * "#nmi_watchdog", "#virtualized", "#smt_on".  "#slots" falls back to the
 * table's slots_per_cycle.
 */

/*
 * Evaluate a table's tree and info metrics.  env resolves events and
 * literals; metric references are resolved by the evaluator itself.
 */
int td_tree_eval(const struct td_table *t, const struct td_env *env,
		 const struct td_tree_opts *opts, struct td_tree_result *out);
void td_tree_result_release(struct td_tree_result *r);

/* ==================== uncertainty (metrics/uncertainty.c) ==================== */

/*
 * The spread of an input name: its relative standard error (0.0012 for
 * perf's "+- 0.12 %") into *rel and what identifies the count behind the
 * name into *id (two spellings of one count give the same id).  Returns
 * -1 when the name has no count.
 */
typedef int (*td_spread_fn)(void *ctx, const char *name, double *rel, const void **id);

/*
 * First-order error propagation over independent counts: for each tree
 * node and info metric of r (the result of td_tree_eval on the same t,
 * env and opts), u = sqrt(sum_i (x_i df/dx_i * rel_i)^2), the partials
 * taken on the formulas themselves.  Writes r->nr_nodes values to u_nodes
 * and r->nr_info to u_info (same unit as the value, NAN where the value
 * is).  Returns the number of inputs with a spread.
 */
int td_tree_uncertainty(const struct td_table *t, const struct td_env *env,
			const struct td_tree_opts *opts, td_spread_fn spread, void *sctx,
			const struct td_tree_result *r, double *u_nodes, double *u_info);

/* ==================== threads: per-thread cycle stacks (Heirman et al. 2011) ==================== */
/*
 * The multi-threaded analysis (metrics/threads.c) works on a small event
 * model of its own, not on perf.data directly, so that it can be unit-tested
 * with event sequences built by hand (tests/unit/test_threads.c) and fed
 * from any source: the perf.data reader (report/threads-load.c), or a test.
 *
 * Name prefix: td_threads_, td_thread_, TD_TEV_ (event kinds), TD_TC_ (components).
 */
#include <stdint.h>

/* What happened, as far as the thread analysis cares. */
enum td_thread_event_kind {
	TD_TEV_SWITCH,     /* sched:sched_switch: prev_tid leaves its CPU in
	                        prev_state, next_tid enters it */
	TD_TEV_SWITCH_IN,  /* PERF_RECORD_SWITCH "in": tid enters a CPU
	                        (per-task recordings see no switch-ins otherwise) */
	TD_TEV_SWITCH_OUT, /* PERF_RECORD_SWITCH "out": tid leaves; 'preempt'
	                        set when it was still runnable */
	TD_TEV_WAKEUP,     /* sched_waking / sched_wakeup / sched_wakeup_new:
	                        the current task (pid/tid) wakes target_tid */
	TD_TEV_FORK,       /* sched_process_fork or PERF_RECORD_FORK: the
	                        current task creates target_tid (target_pid when
	                        known, else -1), named 'comm' */
	TD_TEV_EXIT,       /* sched_process_exit or PERF_RECORD_EXIT: tid ends */
	TD_TEV_COMM,       /* PERF_RECORD_COMM: tid is now called 'comm' */
};

/*
 * One event.  pid/tid name the task that was current on the CPU when the
 * event was recorded (the sample's PERF_SAMPLE_TID: pid is the process,
 * tid the thread); for TD_TEV_COMM they name the renamed thread.
 * -1 means unknown; tid 0 is the idle task and is never a workload thread.
 */
struct td_thread_event {
	enum td_thread_event_kind kind;
	uint64_t time;       /* ns, perf clock; 0 = unknown (synthesized records) */
	int cpu;             /* -1 unknown */
	int pid, tid;        /* current task */
	int prev_tid, next_tid; /* TD_TEV_SWITCH */
	char prev_state;     /* TD_TEV_SWITCH: 'R' (preempted), 'S' (sleeping),
	                        'D' (uninterruptible), 'X'/'Z' (dead), 'T', 'I',
	                        'P', ... as perf script prints it; '?' unknown */
	int preempt;         /* TD_TEV_SWITCH_OUT */
	int target_tid;      /* TD_TEV_WAKEUP: woken; TD_TEV_FORK: created */
	int target_pid;      /* TD_TEV_FORK: process of the new task, -1 unknown */
	int wakeup_new;      /* TD_TEV_WAKEUP from sched_wakeup_new */
	int exec;            /* TD_TEV_COMM caused by exec() */
	const char *comm;    /* TD_TEV_FORK, TD_TEV_COMM (copied) */
};

/*
 * Where a thread's time went.  The first six partition the thread's own
 * lifetime; imbalance is its absence from the region (below).
 */
enum td_thread_comp {
	TD_TC_RUNNING = 0, /* on a CPU */
	TD_TC_RUNNABLE,    /* ready but waiting for a CPU: preempted, or woken
	                      and not yet switched in */
	TD_TC_SYNC,        /* sleeping (state S) until woken by another thread of
	                      its own process: futex, mutex, barrier, condvar, join */
	TD_TC_IO,          /* uninterruptible sleep (state D): disk I/O, page-in,
	                      some kernel locks */
	TD_TC_SLEEP,       /* sleeping until woken from outside the process:
	                      timers, other processes, devices, signals */
	TD_TC_UNKNOWN,     /* cannot be told (events lost or not recorded) */
	TD_TC_IMBALANCE,   /* started late or ended early against the region */
	TD_TC_NR
};
/* "running", "runnable", "sync", "io", "sleep", "unknown", "imbalance" */
const char *td_thread_comp_id(enum td_thread_comp c);
/* One-line description for reports and 'tdperf explain'. */
const char *td_thread_comp_description(enum td_thread_comp c);

/* One thread's stack.  Times are seconds. */
struct td_thread {
	int tid, pid;
	char *comm;              /* last name seen */
	double start, end;       /* first and last moment known alive (trace clock) */
	double life[TD_TC_NR];   /* seconds over [start, end]; imbalance is 0 */
	double comp[TD_TC_NR];   /* the same clipped to the region, plus imbalance:
	                            sums to the region's span */
	double sync_fraction;    /* life[SYNC] / (end - start); NAN for a zero life */
	int excluded;            /* sync_fraction > 0.5: shown, not aggregated */
	unsigned long nr_switch_in;   /* recorded switch-ins */
	unsigned long nr_inferred_in; /* switch-ins inferred from a later event */
};

/* Threads of one name, summed (all members, excluded ones too). */
struct td_thread_group {
	char *name;
	size_t nr_threads, nr_excluded;
	double comp[TD_TC_NR];
};

struct td_threads_result {
	struct td_thread *threads;   /* ordered by start time, then tid */
	size_t nr_threads;
	struct td_thread_group *groups; /* ordered by first start */
	size_t nr_groups;
	double trace_start, trace_end;  /* first and last event */
	double region_start, region_end;/* span of the aggregated threads */
	double aggregate[TD_TC_NR];     /* thread-seconds, aggregated threads only */
	size_t nr_aggregated;
	int all_sync_fallback;          /* every thread was > 50 % sync: all aggregated */
	enum td_thread_comp dominant;   /* largest aggregate component */
	enum td_thread_comp dominant_own; /* largest besides runnable and unknown:
	                                   the workload's own bottleneck when the
	                                   CPUs were oversubscribed */
	unsigned long nr_events;
	char **notes;                   /* approximations and gaps, one sentence each */
	size_t nr_notes;
};

struct td_threads;
struct td_threads *td_threads_new(void);
/* Feed one event; any order (they are sorted by time in td_threads_finish). */
void td_threads_add(struct td_threads *b, const struct td_thread_event *ev);
/* Replay the events, build the stacks into out and free the builder. */
void td_threads_finish(struct td_threads *b, struct td_threads_result *out);
void td_threads_result_release(struct td_threads_result *r);

/* ==================== roofline (metrics/roofline*.c) ==================== */
/*
 * The roofline of a run (docs/roofline.md): performance P = FLOPs / time
 * against operational intensity I_x = FLOPs / bytes moved at memory level x,
 * under the machine's roofs: compute peaks per precision and vector width
 * (pi) and bandwidths per level (beta).  P <= min(pi, I_x * beta_x) for
 * every level; the roof giving the smallest bound at the run's point is the
 * binding one.  The extensions of Cabezas and Püschel (2014) that counters allow tighten these:
 * roofs scaled by a measured utilization U (U*pi, U*beta) and stall roofs
 * (1 - stalled cycles / cycles) for the out-of-order buffers.
 *
 * Peaks never come from counters: they come from 'tdperf calibrate' (a
 * per-machine cache file, docs/calibration.md) or a table value.
 *
 * Name prefix: td_rl_, td_peaks_.
 */
enum td_rl_prec { TD_RL_SP, TD_RL_DP, TD_RL_NR_PREC };
enum td_rl_width { TD_RL_SCALAR, TD_RL_V128, TD_RL_V256, TD_RL_V512, TD_RL_NR_WIDTH };
enum td_rl_level { TD_RL_L1, TD_RL_L2, TD_RL_L3, TD_RL_DRAM, TD_RL_NR_LEVEL };
/* Out-of-order buffers whose "full" cycles give stall roofs (Cabezas and Püschel 2014). */
enum td_rl_buffer { TD_RL_ROB, TD_RL_RS, TD_RL_SB, TD_RL_LB, TD_RL_LFB, TD_RL_NR_BUFFER };
/* Resources whose measured utilization scales a roof. */
enum td_rl_resource { TD_RL_U_FP, TD_RL_U_L1, TD_RL_U_L2, TD_RL_U_L3, TD_RL_U_DRAM, TD_RL_NR_RESOURCE };

/* Names used in files and JSON: "sp", "dp"; "scalar", "128", "256", "512";
 * "L1", "L2", "L3", "DRAM"; "rob", "rs", "sb", "lb", "lfb"; "fp", "l1".. */
const char *td_rl_prec_name(enum td_rl_prec p);
const char *td_rl_width_name(enum td_rl_width w);
const char *td_rl_level_name(enum td_rl_level l);
const char *td_rl_buffer_name(enum td_rl_buffer b);
const char *td_rl_resource_name(enum td_rl_resource r);

/*
 * One calibrated figure over several repetitions: 'value' is the best one
 * (highest throughput, lowest latency: noise on a shared machine only ever
 * makes a benchmark slower), 'spread' is (max - min) / median.  value is
 * NAN when not measured (e.g. no AVX-512 on this CPU).
 */
struct td_measurement {
	double value, median, min, max, spread;
	int reps;
};

/* The machine's roofs for one thread count, as read from a calibration. */
struct td_peaks {
	char *source;            /* file it came from, or "table" */
	char *cpu_key;           /* cache key, see td_peaks_cpu_key() */
	char *cpu_name;          /* "Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz" */
	char *date;              /* ISO 8601 UTC of the measurement */
	char *mode;              /* "default" or "quick" */
	int threads;
	struct td_measurement clock_ghz;                     /* core clock while measuring */
	struct td_measurement gflops[TD_RL_NR_PREC][TD_RL_NR_WIDTH];
	struct td_measurement load_gbs[TD_RL_NR_LEVEL];      /* GB/s = 1e9 bytes/s */
	struct td_measurement store_gbs[TD_RL_NR_LEVEL];
	struct td_measurement latency_ns[TD_RL_NR_LEVEL];
	double working_set[TD_RL_NR_LEVEL];                  /* bytes per thread */
};

void td_peaks_init(struct td_peaks *p);
void td_peaks_release(struct td_peaks *p);
/*
 * The cache key of a CPU: "<vendor>-<family>-<MODEL hex>-<stepping>_<name
 * with every run of other characters than [A-Za-z0-9.] made one '-'>", e.g.
 * "GenuineIntel-6-55-4_Intel-R-Xeon-R-Gold-6130-CPU-2.10GHz".  Caller frees.
 */
char *td_peaks_cpu_key(const char *vendor, int family, int model, int stepping, const char *name);
/* $XDG_CACHE_HOME/tdperf (or ~/.cache/tdperf); caller frees. */
char *td_peaks_cache_dir(void);
/* The calibration file of a CPU key: td_peaks_cache_dir()/calibration-KEY.json. */
char *td_peaks_cache_path(const char *cpu_key);
/*
 * Read the entry for 'threads' threads (0: the single-thread entry, else the
 * closest count) from a calibration file.  Returns 0, or -1 with
 * "FILE: what is wrong" in err (missing file: errno ENOENT kept).
 */
int td_peaks_load(const char *path, int threads, struct td_peaks *p, struct strbuf *err);

/* ---- the analysis (metrics/roofline.c) ---- */

/* What a run (or one interval) gives the roofline; names in td_rl_qty_name(). */
enum td_rl_qty {
	TD_RL_Q_SECONDS,      /* "seconds": wall time */
	TD_RL_Q_CYCLES,       /* "cycles": core cycles (stall fractions) */
	TD_RL_Q_FLOPS,        /* "flops": all FP operations, when not split */
	TD_RL_Q_FLOPS_SPLIT,  /* "flops_sp_scalar" .. "flops_dp_512": 8 of them, */
	TD_RL_Q_BYTES = TD_RL_Q_FLOPS_SPLIT + TD_RL_NR_PREC * TD_RL_NR_WIDTH, /* index prec * 4 + width */
	TD_RL_Q_STALL = TD_RL_Q_BYTES + TD_RL_NR_LEVEL,     /* "bytes_l1" .. "bytes_dram" */
	TD_RL_Q_UTIL = TD_RL_Q_STALL + TD_RL_NR_BUFFER,     /* "stall_rob" .. "stall_lfb": cycles full */
	TD_RL_NR_QTY = TD_RL_Q_UTIL + TD_RL_NR_RESOURCE,    /* "util_fp" .. "util_dram": 0..1 */
};
#define TD_RL_Q_FLOPS_PW(p, w) (TD_RL_Q_FLOPS_SPLIT + (p) * TD_RL_NR_WIDTH + (w))
/* "seconds", "flops_dp_512", "bytes_l2", "stall_rob", "util_dram", ... */
const char *td_rl_qty_name(enum td_rl_qty q);
/* The quantity of a name, -1 when unknown. */
int td_rl_qty_lookup(const char *name);

struct td_rl_input {
	double v[TD_RL_NR_QTY];        /* NAN = not measured */
	const char *note[TD_RL_NR_QTY]; /* approximation made by the formula used, or NULL */
};
void td_rl_input_init(struct td_rl_input *in);

enum td_rl_roof_kind {
	TD_RL_ROOF_COMPUTE,  /* horizontal: GFLOP/s */
	TD_RL_ROOF_MEMORY,   /* diagonal: GB/s times intensity */
	TD_RL_ROOF_UTIL,     /* a roof scaled by a measured utilization (Cabezas and Püschel 2014) */
	TD_RL_ROOF_STALL,    /* the roofline scaled by 1 - cycles a buffer was full / cycles */
};
const char *td_rl_roof_kind_name(enum td_rl_roof_kind k); /* "compute", "memory", "utilization", "stall" */

struct td_rl_roof {
	char *id;            /* "fp_dp_512", "fp_mix", "bw_L2", "util_dram", "stall_rob" */
	char *label;         /* "L2 bandwidth 113.5 GB/s" */
	enum td_rl_roof_kind kind;
	int level;           /* memory level (memory roofs, level utilizations), else -1 */
	double peak;         /* the line: GFLOP/s (compute) or GB/s (memory) before scaling */
	double scale;        /* utilization or stall factor applied (1 for the original roofs) */
	double bound;        /* GFLOP/s this roof allows at the run's point; INFINITY when it does
	                        not constrain (no traffic), NAN when not computable */
	int classic;         /* one of the roofs of the original model that decide 'binding' */
	int reference;       /* drawn for reference only (peaks of other precisions/widths) */
	int violated;        /* bound < measured performance: its approximation does not hold */
	char *note;          /* approximation or reason, or NULL */
};

struct td_rl_result {
	double gflops;       /* measured performance, NAN with 'reason' when not computable */
	double flops, seconds;
	double intensity[TD_RL_NR_LEVEL]; /* FLOP/byte per level, NAN when traffic not counted */
	double attainable;   /* min over the classic roofs at the point (GFLOP/s) */
	double efficiency;   /* gflops / attainable */
	int binding;         /* index in roofs of the binding classic roof, -1 none */
	int tightest;        /* index of the lowest roof of any kind not violated, -1 none */
	struct td_rl_roof *roofs;
	size_t nr_roofs;
	char **notes;        /* every approximation made, one sentence each */
	size_t nr_notes;
	char *reason;        /* why there is no point, when gflops is NAN */
};

/*
 * Place a run on the roofline of 'peaks' (docs/roofline.md): its
 * performance and intensities, the roofs (per precision and width, per
 * level, utilization and stall roofs where the input has them), the
 * binding roof and the tightest one.  Always fills out (release it);
 * returns 0 when there is a point, -1 when not (out->reason says why).
 */
int td_rl_analyze(const struct td_peaks *peaks, const struct td_rl_input *in,
		  struct td_rl_result *out);
void td_rl_result_release(struct td_rl_result *r);

/* ---- the inputs from counts (metrics/roofline-eval.c, metrics/roofline.json) ---- */
/*
 * Candidate formulas per quantity (docs/roofline.md); the first candidate
 * whose events were all counted is used.
 */
struct td_rl_formulas;
/* Load a formulas file; NULL with "FILE: what is wrong" in err. */
struct td_rl_formulas *td_rl_formulas_load(const char *path, struct strbuf *err);
/* The built-in metrics/roofline.json (loaded once, owned by the library). */
const struct td_rl_formulas *td_rl_formulas_builtin(struct strbuf *err);
void td_rl_formulas_free(struct td_rl_formulas *f);
/*
 * Evaluate every quantity on env into in (td_rl_input_init first); notes
 * point into f.  used[q] (when used != NULL) gets the formula text used,
 * NULL when no candidate could be evaluated.
 */
void td_rl_input_eval(const struct td_rl_formulas *f, const struct td_env *env,
		      struct td_rl_input *in, const char *used[TD_RL_NR_QTY]);

/* ==================== stacks (metrics/stacks.c) ==================== */
/*
 * Cycle stacks of Eyerman et al. 2018 (multi-stage CPI stacks, FLOPS stacks)
 * and Forte 2021 (frontend delivery), computed for one scope from a table's stack
 * metrics (ids "stack_*", groups Stack_CPI / Stack_Multistage /
 * Stack_FLOPS / Stack_Frontend) and its "stacks" parameters.  The data
 * contract (metric ids, units, parameters) is docs/stacks.md.
 *
 * Every part carries its cycles (absolute, for the scope) and its value in
 * the stack's unit.  A part that this CPU's counters cannot measure has
 * measurable == 0 and a reason; a part that could not be computed here
 * (missing count) has value NAN and a reason.  Approximations are marked.
 */

/* Components shared by the three stage stacks (Eyerman et al. 2018, section III). */
enum td_stack_comp {
	TD_SC_BASE, TD_SC_FRONTEND, TD_SC_BRANCH, TD_SC_MEMORY,
	TD_SC_LONG_LATENCY, TD_SC_DEPENDENCE, TD_SC_OTHER, TD_SC__NR
};
/* Pipeline stages, named in our vocabulary (docs/stacks.md maps them). */
enum td_stack_stage { TD_STAGE_ALLOC, TD_STAGE_EXECUTE, TD_STAGE_RETIRE, TD_STAGE__NR };
/* FLOPS-stack components (Eyerman et al. 2018, Table III). */
enum td_flops_comp {
	TD_FC_BASE, TD_FC_NON_FMA, TD_FC_NARROW, TD_FC_MASKED, TD_FC_FRONTEND,
	TD_FC_NON_VFP, TD_FC_MEMORY, TD_FC_DEPENDENCE, TD_FC_OTHER, TD_FC__NR
};
/* Frontend delivery paths (Forte 2021). */
enum td_fe_path { TD_FE_DSB, TD_FE_MITE, TD_FE_MS, TD_FE_LSD, TD_FE__NR };

struct td_stack_part {
	const char *id;          /* "memory" */
	const char *name;        /* "Data cache / memory" */
	double cycles;           /* cycles of the scope, NAN when unknown */
	double value;            /* in the stack's unit, NAN when unknown */
	int measurable;          /* 0: not measurable on this CPU */
	int approximate;
	char *reason;            /* why NAN / not measurable, or how approximated */
	char *formula;           /* how it was computed (table formula or derivation) */
};

struct td_stage_stack {
	const char *id;          /* "alloc", "execute", "retire" */
	const char *name;        /* "Allocation" */
	const char *paper_term;  /* Eyerman et al. 2018's name: "dispatch", "issue", "commit" */
	const char *vendor_term; /* the vendor's name for the same point */
	int available;
	char *reason;            /* why the stage cannot be built on this CPU */
	struct td_stack_part parts[TD_SC__NR]; /* value = cycles per instruction */
	double sum_cpi;          /* sum of the parts (equals CPI by construction) */
};

struct td_cpi_part {
	const char *id, *name, *parent;
	int level;               /* 1 or 2 */
	double fraction;         /* the Top-Down node's value */
	double cpi;              /* fraction x CPI */
	int approximate;
	char *reason;            /* NULL, or why NAN / how approximated */
};

struct td_flops_stack {
	int available;
	char *reason;
	double flops, flops_sp, flops_dp; /* FLOPs counted (FMA counts 2) */
	const char *precision;   /* "sp", "dp": the peak the stack is drawn against */
	int mixed_precision;     /* both precisions present: base is width-equivalent */
	double peak_per_cycle;   /* M = fma x lanes x units, of 'precision' */
	double seconds;          /* NAN when the scope's duration is unknown */
	double freq_ghz;         /* cycles / seconds / 1e9 */
	double peak;             /* stack height in 'unit' */
	double achieved;         /* FLOPs / seconds (or per cycle) in 'unit' */
	const char *unit;        /* "GFLOP/s", or "FLOP/cycle" without a duration */
	const char *order;       /* "narrow_first" or "fma_first" */
	int mix_stage;           /* stage whose mix split the idle FP-unit cycles, -1 none */
	struct td_stack_part parts[TD_FC__NR];
};

struct td_ipc_stack {
	int available;
	char *reason;
	int stage;               /* the stage stack it is drawn from */
	double max_ipc;          /* the stack's height: W uops per cycle */
	double upc, ipc;         /* retired uops and instructions per cycle */
	struct td_stack_part parts[TD_SC__NR]; /* value = uops per cycle */
};

struct td_fe_path_value {
	const char *id, *name;
	int measured;            /* 0: this CPU has no counter for the path */
	double uops;
	double coverage;         /* share of delivered uops */
	double active_cycles;
	double rate_active;      /* uops per cycle while delivering (P_Only) */
	double rate_overall;     /* uops per cycle over all cycles (P_Overall) */
	double nominal_rate;     /* the table's (or the thesis's) best case, NAN unknown */
	char *reason;
};

struct td_frontend {
	int available;
	char *reason;
	struct td_fe_path_value paths[TD_FE__NR];
	double delivered_uops;
	double uops_per_insn;
	double avg_insn_bytes;
	int avg_insn_assumed;    /* the parameter's default, not measured */
	double code_beyond_l2_share; /* share of MITE-fetched bytes from L3 or DRAM, NAN unknown */
	double path_limit;       /* uops/cycle, coverage-weighted over the paths */
	double fetch_limit;      /* uops/cycle the fetch bandwidth allows */
	double retire_width;
	double ceiling;          /* min of the three */
	const char *binding;     /* "path", "fetch" or "retire" */
	const char *fetch_level; /* "L1/L2", "L3" */
	double measured_upc;     /* retired uops per cycle */
	double headroom;         /* ceiling - measured_upc */
	char *ceiling_reason;    /* why the ceiling is NAN, else NULL */
	char **hints;
	size_t nr_hints;
};

struct td_stacks {
	double cycles, instructions, cpi, uops_retired;
	char *reason;            /* why nothing could be computed, else NULL */
	struct td_cpi_part *cpi_parts;
	size_t nr_cpi_parts;
	struct td_stage_stack stages[TD_STAGE__NR];
	double range_min[TD_SC__NR], range_max[TD_SC__NR]; /* CPI, NAN when no stage has it */
	struct td_flops_stack flops;
	struct td_ipc_stack ipc;
	struct td_frontend frontend;
	char **warnings;
	size_t nr_warnings;
};

/*
 * Compute every stack of one scope.  'tree' is the scope's evaluated tree
 * (td_tree_eval with the same env), or NULL to evaluate it here.  Returns
 * 0 (parts that cannot be computed are NAN with reasons), or -1 when the
 * tree itself cannot be evaluated.  Release with td_stacks_release().
 */
int td_stacks_compute(const struct td_table *t, const struct td_env *env,
		      const struct td_tree_result *tree, struct td_stacks *out);
void td_stacks_release(struct td_stacks *s);
/* Names of the shared component ids, in stack order (bottom first). */
const char *td_stack_comp_id(enum td_stack_comp c);
const char *td_stack_stage_id(enum td_stack_stage s);

/* ==================== hotspots: samples per function and call path ==================== */
/*
 * metrics/hotspots.c: a call-path tree fed one sample at a time (frame ids
 * leaf first, from parse/'s td_sym_resolve), weighted by the sample period;
 * optional group-count deltas per sample for per-function Top-Down.
 * Memory grows with distinct call paths, not with samples.
 */
struct td_hot;
struct td_hot_node {
	int frame, parent;      /* parent node index; the root is node 0, frame -1 */
	uint64_t self_period, self_samples;
	uint64_t total_period, total_samples; /* subtree, after td_hot_finish */
};
struct td_hot_func {
	int frame, index;
	uint64_t self_period, self_samples;
	uint64_t total_period, total_samples; /* each sample once (recursion) */
};
struct td_hot *td_hot_new(size_t nr_counts);
void td_hot_free(struct td_hot *h);
void td_hot_add(struct td_hot *h, const int *frames, size_t n, uint64_t period, const double *counts);
/* The same in two steps, for callers that cache a call path's node:
 * the node of a path (created when new), then a sample on it. */
uint32_t td_hot_path(struct td_hot *h, const int *frames, size_t n);
void td_hot_add_at(struct td_hot *h, uint32_t node, uint64_t period, const double *counts);
/* Deltas of a counter stream's group values (stream: the leader's sample
 * id, per thread or per CPU) since its previous sample, or since the
 * counters started for its first: 1 with deltas set, 0 when a value went
 * backwards (no interval can be attributed). */
int td_hot_deltas(struct td_hot *h, uint64_t stream, const uint64_t *values, double *deltas);
void td_hot_finish(struct td_hot *h);
uint64_t td_hot_total_period(const struct td_hot *h);
uint64_t td_hot_total_samples(const struct td_hot *h);
const double *td_hot_total_counts(const struct td_hot *h); /* NULL without a group */
/* Functions sorted by self period, largest first. */
size_t td_hot_nr_funcs(const struct td_hot *h);
const struct td_hot_func *td_hot_func(const struct td_hot *h, size_t i);
const double *td_hot_func_counts(const struct td_hot *h, size_t i);
/* The self counts of function i split into TD_HOT_BATCHES interleaved
 * batches of its samples (TD_HOT_BATCHES x nr_counts), or NULL. */
#define TD_HOT_BATCHES 8
const double *td_hot_func_batches(const struct td_hot *h, size_t i);
size_t td_hot_nr_nodes(const struct td_hot *h);
const struct td_hot_node *td_hot_node(const struct td_hot *h, size_t i);
const double *td_hot_node_counts(const struct td_hot *h, size_t i);

/*
 * Top-Down of one function (metrics/hotspots-topdown.c): the table's tree
 * (down to max_level) evaluated on the function's summed group counts,
 * named as the group members are; each node with a 95 % confidence
 * interval from the spread of the TD_HOT_BATCHES batch values (Student's
 * t; none when batches is NULL).  Fewer than TD_HOT_MIN_SAMPLES samples
 * give no values, only 'why'.
 */
#define TD_HOT_MIN_SAMPLES 40
struct td_hot_td_node {
	const struct td_metric *metric;
	double value, low, high;        /* NAN when not computable */
	int bottleneck;
};
struct td_hot_topdown {
	struct td_hot_td_node *nodes;
	size_t nr_nodes;
	char *why;                      /* set when there are no values */
};
void td_hot_topdown(const struct td_table *t, const char *const *names, size_t nr_names,
		    const double *counts, const double *batches, uint64_t samples, int max_level,
		    int smt_on, struct td_hot_topdown *out);
void td_hot_topdown_release(struct td_hot_topdown *td);

#endif /* TD_METRICS_H */
