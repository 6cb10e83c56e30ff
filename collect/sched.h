/*
 * collect/sched.h: the event scheduler.
 *
 * From what the user asks (Top-Down depth, nodes, info metrics, stacks) to
 * the events each formula of the table needs, to perf event groups that
 * fit the counters of one PMU.  All events of one formula go into one
 * group whenever they fit, because perf multiplexes groups and a ratio of
 * events counted over different time windows is skewed (collect/sched.c
 * lists the hardware rules a group must obey).
 *
 * Ownership: struct td_sched owns its groups, names and messages
 * (td_sched_release()); 'table' and the budget's strings are borrowed and
 * must outlive it.
 *
 * Errors: td_sched_build() returns -1 with one line in 'err' for a request
 * the table cannot satisfy; what could be scheduled only with compromises
 * (a formula split across groups) is a warning, not an error.
 *
 * Name prefix: td_sched_.
 */
#ifndef TD_COLLECT_SCHED_H
#define TD_COLLECT_SCHED_H

#include <stddef.h>

#include "metrics/table.h"
#include "util/util.h"

struct td_cpu_info;  /* collect/cpu.h */

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
	int extra;               /* given by record -e, not needed by a formula */
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
/*
 * record -e: add perf's event list 'spec' (its syntax: events separated
 * by commas, {a,b} a group) beside the formulas' events.  A single event
 * goes into the first group of the core PMU with a general counter free,
 * else into a new group; a {...} group stays a group of its own.  The
 * events are marked 'extra'.  -1 with err set for a list perf's syntax
 * does not allow (an empty name, unbalanced braces, a nested group).
 * Whether perf knows each event is for perf to say (collect/sched-extra.c).
 */
int td_sched_add_extra(struct td_sched *s, const char *spec, struct strbuf *err);
/* The events of such a list one by one, braces left out, into 'out'. */
void td_sched_extra_names(const char *spec, struct strvec *out);
/* The -e argument for group i ("{a,b,c}"), or all groups when i < 0. */
void td_sched_group_spec(const struct td_sched *s, long i, struct strbuf *sb);

#endif /* TD_COLLECT_SCHED_H */
