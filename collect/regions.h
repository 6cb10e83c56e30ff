/*
 * collect/regions.h: 'tdperf record --regions': the run's event groups
 * handed to the marker library (regions/tdperf.c) instead of perf stat.
 *
 * The groups the plan scheduled (collect/plan.h) are resolved to
 * perf_event_attr fields (type, config, config1, config2) from each PMU's
 * sysfs directory (type, format/, events/), as perf resolves its
 * "pmu/term=value,.../" spellings, and written as a spec file the library
 * reads at load (TDPERF_REGIONS names it; its format is in
 * docs/regions.md).  A software group (task-clock, context switches, page
 * faults) always comes first, so that a machine without a PMU still
 * counts something per region.
 *
 * Ownership: the caller's; nothing is kept.
 *
 * Errors: -1 with one line in 'err' (an event sysfs cannot spell, a file
 * that cannot be written).
 *
 * Name prefix: td_regions_.
 */
#ifndef TD_COLLECT_REGIONS_H
#define TD_COLLECT_REGIONS_H

#include "collect/plan.h"
#include "util/util.h"

/* The environment variable naming the spec (read once by libtdperf.so). */
#define TD_REGIONS_ENV "TDPERF_REGIONS"
/* The spec's name in the run directory. */
#define TD_REGIONS_SPEC "regions-spec.txt"
/*
 * The measured passes libtdperf.so logs per thread with their times, for
 * the timeline: (3 + W) words each, W = 1 + 2 x groups + events (about
 * 1 KiB a pass at Level 3), so at most about 1 MiB per thread.
 */
#define TD_REGION_INSTANCES 1024

/* Resolve one perf spelling ("cpu/event=0x3c,umask=0x0,name=X/", "instructions")
 * to "TYPE CONFIG CONFIG1 CONFIG2" in out; sysfs is the PMUs' directory. */
int td_regions_resolve(const char *sysfs, const char *perf_name, struct strbuf *out,
		       struct strbuf *err);
/* Write the spec of plan p's groups to path (sample: count 1 pass in N). */
int td_regions_spec_write(const struct td_plan *p, const char *path, unsigned long sample,
			  struct strbuf *err);
/* Drop the perf stat jobs of the plan's runs: the library counts instead. */
void td_regions_drop_perf_jobs(struct td_plan *p);

#endif /* TD_COLLECT_REGIONS_H */
