/*
 * analyze/regions.h: the report of a 'tdperf record --regions' run.
 *
 * The regions-PID.json files libtdperf.so wrote (regions/tdperf.c) hold
 * raw counts per region and thread, with each group's enabled and running
 * times over the same passes.  Here they are summed over the run's
 * processes and threads per region name, scaled (count x enabled /
 * running: an estimate where a group was multiplexed, and count x calls /
 * measured passes with --region-sample), and the run's formula table's
 * Top-Down tree and bottleneck path are evaluated on each region's counts
 * (metrics/tree.h), for the region as a whole and for each thread.
 *
 * The document (docs/report-schema.md, "Regions") is drawn by
 * report/regions.c.  Ownership: the caller owns the returned document.
 * Errors: NULL with one line in err (a file missing or not of this
 * format, a table that does not load).
 *
 * Name prefix: td_regions_.
 */
#ifndef TD_ANALYZE_REGIONS_H
#define TD_ANALYZE_REGIONS_H

#include <jansson.h>

#include "analyze/report.h"
#include "util/util.h"

/* Is dir a run directory recorded with --regions? */
int td_regions_is_run(const char *dir);
/* The regions document of run directory dir (opts: --level). */
json_t *td_regions_load(const char *dir, const struct td_report_opts *opts, struct strbuf *err);

/*
 * analyze/regions-merge.c.  A --regions rank's summary for its job's merge
 * (the run's meta.json, the root region's counts, and "regions": each
 * region's calls, threads, time_s, cpu_s, share, estimate, level1).
 */
json_t *td_regions_rank_summary(const char *rankdir, const struct td_report_opts *opts, struct strbuf *err);
/* The job document's job.regions: per region name, min/mean/median/max over the ranks and the outlier rank. */
void td_job_regions(json_t *doc);
/* Two region reports compared by region name (format "tdperf-regions-diff"). */
json_t *td_regions_diff(json_t *a, const char *name_a, json_t *b, const char *name_b);

#endif /* TD_ANALYZE_REGIONS_H */
