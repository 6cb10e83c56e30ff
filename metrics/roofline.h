/*
 * metrics/roofline.h: the roofline of a run (docs/roofline.md).
 *
 * Performance P = FLOPs / time against operational intensity I_x = FLOPs /
 * bytes moved at memory level x, under the machine's roofs: compute peaks
 * per precision and vector width (pi) and bandwidths per level (beta).
 * P <= min(pi, I_x * beta_x) for every level (Williams et al. 2009); the
 * roof giving the smallest bound at the run's point is the binding one.
 * The extensions of Cabezas and Püschel 2014 that counters allow tighten
 * these: roofs scaled by a measured utilization U (U*pi, U*beta) and stall
 * roofs (1 - stalled cycles / cycles) for the out-of-order buffers.
 *
 * Three parts, one file each: the machine's peaks (metrics/roofline-peaks.c),
 * the run's quantities from its counts (metrics/roofline-eval.c, with the
 * candidate formulas in metrics/roofline.json), and the analysis that puts
 * the two together (metrics/roofline.c).  Peaks never come from counters:
 * they come from 'tdperf calibrate' (a per-machine cache file,
 * docs/calibration.md) or a table value.
 *
 * Ownership: struct td_peaks and struct td_rl_result own their strings and
 * arrays (td_peaks_release(), td_rl_result_release()); notes in a
 * struct td_rl_input point into the formulas file they were evaluated
 * from.  td_rl_formulas_builtin() is loaded once and owned by the library.
 *
 * Errors: loading fails with -1 or NULL and "FILE: what is wrong" in 'err'.
 * A quantity that was not measured is NAN; an analysis without a point has
 * a reason, never an invented value.
 *
 * Name prefix: td_rl_, td_peaks_.
 */
#ifndef TD_METRICS_ROOFLINE_H
#define TD_METRICS_ROOFLINE_H

#include <stddef.h>

#include "metrics/expr.h"
#include "util/util.h"

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
/*
 * $XDG_CACHE_HOME/tdperf (or ~/.cache/tdperf, ~ being $HOME when absolute,
 * else the passwd entry's home); caller frees.  NULL when there is no
 * home: never a directory relative to the current one.
 */
char *td_peaks_cache_dir(void);
/* The calibration file of a CPU key: td_peaks_cache_dir()/calibration-KEY.json, or NULL. */
char *td_peaks_cache_path(const char *cpu_key);
/* Why td_peaks_cache_dir() gave NULL, appended to sb. */
void td_peaks_no_cache_dir(struct strbuf *sb);
/*
 * Read the entry for 'threads' threads (0: the single-thread entry, else the
 * closest count) from a calibration file.  Returns 0, or -1 with
 * "FILE: what is wrong" in err (missing file: errno ENOENT kept; a NULL
 * path, no cache directory: ENOENT, and why in err).
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

#endif /* TD_METRICS_ROOFLINE_H */
