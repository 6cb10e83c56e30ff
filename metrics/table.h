/*
 * metrics/table.h: formula tables.
 *
 * A table describes one microarchitecture (metrics/tables/NAME.json,
 * format in docs/tables.md): how to recognise the CPU, its pipeline width
 * and counter resources, the encodings of the events its formulas use, its
 * Top-Down nodes (Yasin 2014, with the formulas of Intel's TMA tables and
 * perf's pmu-events) and its info metrics.  This header loads tables, finds
 * the one for a CPU, and reads what is in them.
 *
 * Ownership: a table from td_table_load() or td_table_load_data() belongs to
 * the caller (td_table_free()); one from td_table_find() and friends is
 * cached by the library for the life of the process and is never freed.
 * Every string and struct reached through a table (metrics, events, info)
 * lives as long as the table.
 *
 * Errors: loading and lookup fail with NULL and one line in 'err' naming
 * the file (or, for a CPU no table matches, the closest table and how to
 * force one with --cpu).  Values of Top-Down nodes are fractions of their
 * domain (0.25 = 25 % of slots).
 *
 * Name prefix: td_table_.
 */
#ifndef TD_METRICS_TABLE_H
#define TD_METRICS_TABLE_H

#include <stddef.h>

#include "metrics/expr.h"
#include "util/util.h"

struct td_table;
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
	/*
	 * Where an older perf computes this node with another expression
	 * (metrics/compat/perf-6.1/): that perf's version, its expression as
	 * 'perf list --details metric' prints it, and what changed; all NULL
	 * when perf's expression is ours or nobody compared them.
	 */
	const char *perf_formula_version;
	const char *perf_formula_expr;
	const char *perf_formula_why;
	/*
	 * The node itself is that perf's and Intel's current data has none
	 * (a renamed or dropped node): the table computes it with perf's
	 * expression, kept so that perf's printed value has a node.
	 */
	int perf_only;
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
/* Names of all built-in tables (NULL-terminated, owned by the library). */
const char *const *td_table_names(void);
/* Path of the file a table was loaded from (to copy into run directories). */
const char *td_table_path(const struct td_table *t);

const struct td_table_info *td_table_info(const struct td_table *t);
size_t td_table_nr_metrics(const struct td_table *t);
/*
 * Does the table have a Top-Down tree (a metric of level 1 or deeper)?
 * AMD Zen 1-3 have none: their PMUs count no dispatch slots, and
 * td_table_info()->missing says so; only info metrics apply.
 */
int td_table_has_tree(const struct td_table *t);
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

#endif /* TD_METRICS_TABLE_H */
