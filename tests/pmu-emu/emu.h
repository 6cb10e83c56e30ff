/*
 * pmu-emu: an emulated CPU PMU for tests, loaded into perf (and tdperf)
 * with LD_PRELOAD by tests/pmu-emu/pmu-emu.  The description of one CPU
 * (its PMUs, counters, constraints and count model) is read from the file
 * named by PMU_EMU_CPU_FILE; see tests/pmu-emu/README.md.
 */
#ifndef PMU_EMU_H
#define PMU_EMU_H

#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#define EMU_MAX_PMUS 4
#define EMU_MAX_FIXED 8
#define EMU_FIXED_BIT 32  /* counter mask bit of fixed counter 0 */

struct emu_constraint {
	uint64_t key;      /* event select and umask (config & key_mask) */
	uint64_t counters; /* allowed counters: bit n = general counter n */
};

struct emu_rate {
	uint64_t config;
	double per_cycle;  /* events per core cycle */
};

struct emu_fixed {
	uint64_t config;
	int index;
	int also_gp;       /* may also go on any general counter */
};

struct emu_pmu {
	char name[32];
	uint32_t type;
	int gp, fixed;               /* general counters per thread with SMT on; fixed */
	int gp_nosmt;                /* general counters with SMT off (0: as gp) */
	int mux_ms;
	uint64_t config_mask, config1_mask, config2_mask;
	uint64_t fixed_ignore;       /* config bits a fixed counter takes as well */
	uint64_t key_mask;           /* config bits naming an event for constraints */
	uint64_t hw_config[PERF_COUNT_HW_MAX];
	int hw_ok[PERF_COUNT_HW_MAX];
	struct emu_fixed fixeds[EMU_MAX_FIXED];
	int nr_fixeds;
	uint64_t slots_config;       /* 0: no PERF_METRICS */
	int has_slots;
	struct emu_rate *metrics;    /* topdown metric events: share of slots */
	int nr_metrics;
	struct emu_constraint *cons;
	int nr_cons;
	struct emu_rate *rates;
	int nr_rates;
	double rate_lo, rate_hi;     /* range of the pseudo-random default rates */
	char cpus[64];               /* "" = every CPU */
};

struct emu_cpu {
	char name[64];
	double ghz;                  /* core cycles per nanosecond */
	int nmi_watchdog;
	struct emu_pmu pmus[EMU_MAX_PMUS];
	int nr_pmus;
};

/* cpu-file.c */
int emu_cpu_load(struct emu_cpu *cpu, const char *path, char *err, size_t errlen);
struct emu_pmu *emu_cpu_pmu_by_type(struct emu_cpu *cpu, uint32_t type);
double emu_pmu_rate(const struct emu_pmu *pmu, uint64_t config, uint64_t config1);
uint64_t emu_pmu_counters(const struct emu_pmu *pmu, uint64_t config);
int emu_pmu_metric(const struct emu_pmu *pmu, uint64_t config, double *share);

/* sched.c: whether events with these counter masks fit on distinct counters */
int emu_counters_fit(const uint64_t *masks, int n);

/* sample.c: leader-sampled groups (perf's {a,b}:S) and their READ values */
void emu_sample_init(double core_ghz, void (*log)(const char *fmt, ...));
void emu_sample_leader(int fd, const struct perf_event_attr *a, uint64_t config,
		       uint64_t counters, double rate);
int emu_sample_member(int leader_fd, const struct perf_event_attr *a, uint64_t config,
		      uint64_t counters, double rate, pid_t pid, int on_cpu, unsigned long flags,
		      long (*sys)(long, ...));
void emu_sample_log(void);

#endif
