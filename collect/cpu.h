/*
 * collect/cpu.h: what this machine is and what it lets perf measure.
 *
 * CPU identification (/proc/cpuinfo, CPUID on x86, the MIDR on Arm), the
 * formula table that matches it, the PMUs under sysfs, the counters, SMT,
 * the NMI watchdog, perf_event_paranoid, perf's version, tracefs, and one
 * test open of 'cycles' (the only reliable way to tell a guest without a
 * virtual PMU from a host).  The same facts go into meta.json
 * (docs/run-format.md) and 'tdperf check --json'.
 *
 * Ownership: struct td_cpu_info owns its strings and PMU array
 * (td_cpu_info_release()); its table is one of metrics/'s cached tables and
 * is not freed.  Strings from the td_arm_ readers go into the caller's
 * strbufs, or are caller-freed where said.
 *
 * Errors: detection never fails.  What cannot be found is NULL or
 * TD_UNKNOWN, with a reason where one helps the user.  The Arm readers
 * return -1 when the files do not tell.
 *
 * Name prefix: td_cpu_, td_arm_, td_meta_.
 */
#ifndef TD_COLLECT_CPU_H
#define TD_COLLECT_CPU_H

#include <stddef.h>
#include <jansson.h>

#include "util/util.h"

struct td_table;  /* metrics/table.h */

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

/*
 * Does perf count 'event' here (perf stat -e EVENT true exits 0)?  For
 * record -e: an unknown name is refused before the workload runs.
 */
int td_perf_knows_event(const char *event);

#endif /* TD_COLLECT_CPU_H */
