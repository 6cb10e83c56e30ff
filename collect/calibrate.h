/*
 * collect/calibrate.h: 'tdperf calibrate', the roofs of the roofline model
 * measured on the live machine.
 *
 * Built-in micro-benchmarks (no PMU needed) time FP throughput per
 * precision and vector width, load and store bandwidth and latency per
 * memory level, and the core clock.  Each figure is repeated; the best
 * repetition is the roof and (max - min) / median its spread.  The result
 * goes into a per-CPU cache file (docs/calibration.md) that the roofline
 * (metrics/roofline.h) reads back as struct td_peaks.
 *
 * Ownership: struct td_cal_cpu and struct td_cal_result own their strings
 * and arrays (td_cal_cpu_release(), td_cal_result_release()).
 *
 * Errors: -1 with one line in 'err' (a CPU that cannot be identified, a
 * buffer that cannot be allocated, a cache file that is not ours).  A
 * figure that cannot be measured here (no AVX-512) is NAN, not an error.
 *
 * Name prefix: td_cal_.
 */
#ifndef TD_COLLECT_CALIBRATE_H
#define TD_COLLECT_CALIBRATE_H

#include <stddef.h>
#include <stdint.h>

#include "metrics/roofline.h"
#include "util/util.h"

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

/* 0 when path is absent or a calibration file we may update, else -1 + err. */
int td_cal_check_file(const char *path, struct strbuf *err);
/*
 * The calibration file document for 'path' with this result merged in
 * (entries of other thread counts already there are kept), as JSON text
 * in out.  -1 with err set when an existing file is unreadable.
 */
int td_cal_document(const char *path, const struct td_cal_cpu *cpu,
		    const struct td_cal_result *r, struct strbuf *out, struct strbuf *err);

#endif /* TD_COLLECT_CALIBRATE_H */
