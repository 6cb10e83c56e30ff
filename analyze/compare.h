/*
 * Documents built from other documents or from other inputs than one
 * perf stat session: the diff of two reports, the merged report of a job
 * directory (one run per rank) and its diff, and the hotspots document of
 * a perf.data file and its diff.
 */
#ifndef TD_ANALYZE_COMPARE_H
#define TD_ANALYZE_COMPARE_H

#include "analyze/report.h"

/* ---- tdperf diff (analyze/diff*.c, JSON documented in docs/diff-schema.md) ---- */
/*
 * Compare two report documents: the common Level-1/2 schema side by side,
 * the absolute CPI stacks and the attribution of the CPI and cycle
 * differences to components, one-sided nodes, approximation and
 * multiplexing changes.  scope_a/scope_b pick scopes by id (NULL = main).
 * Returns the diff document, or NULL with err set.
 */
json_t *td_diff_build(json_t *a, const char *label_a, const char *scope_a,
		      json_t *b, const char *label_b, const char *scope_b, struct strbuf *err);

/* ---- jobs: one run directory per rank of srun/mpirun (analyze/job*.c) ---- */

/* Is 'path' a job directory (meta.json of format "tdperf-job")? */
int td_report_is_job(const char *path);
/*
 * The merged report of a job directory: the document with "job",
 * "ranks", "nodes" and "imbalance" (docs/report-schema.md).  NULL with
 * err set when no rank can be read.
 */
json_t *td_report_job_doc(const char *dir, const struct td_report_opts *opts, struct strbuf *err);
/*
 * Write RANKDIR/summary.json: what the merge needs of one rank, taken
 * from its report document (analyze/job-rank.c).  0, or -1 with err set.
 */
int td_report_rank_summary_write(const char *rankdir, const struct td_report_opts *opts,
				 struct strbuf *err);
/* A metric of a rank summary: "cpu_s", "sched.running", "topdown.retiring"; NAN when absent. */
double td_job_rank_value(json_t *rank, const char *metric);
/* The sentence on the MPI library's share across ranks (job.mpi_share),
 * appended to sb; 0 when the job has none (no rank recorded --hotspots). */
int td_job_mpi_sentence(json_t *doc, struct strbuf *sb);
/* tdperf diff of two job documents (analyze/job-diff.c). */
json_t *td_report_job_diff(json_t *a, const char *name_a, json_t *b, const char *name_b);

/* ---- hotspots: samples per function (analyze/hotspots-*.c) ---- */
/* The "hotspots" document of a run's perf.data or of a perf.data file;
 * NULL with a one-line message in err.  TD_HOT_CALLPATHS: with the
 * call-path tree (profile.frames, profile.callpaths; JSON and HTML). */
#define TD_HOT_CALLPATHS 1
#define TD_HOT_NO_FILES 2       /* resolve no symbols (fuzzing) */
#define TD_HOT_NO_DEMANGLE 4    /* C++ names left mangled (perf's --no-demangle) */
json_t *td_hotspots_load(const char *run_or_file, const struct td_report_opts *opts,
			 unsigned flags, struct strbuf *err);
/* The same from an open perf.data (path names it in messages). */
struct td_pd;
json_t *td_hotspots_load_pd(struct td_pd *pd, const char *path, const struct td_report_opts *opts,
			    unsigned flags, struct strbuf *err);
/* Two hotspot documents compared per function (analyze/hotspots-diff.c). */
json_t *td_hotspots_diff(json_t *a, const char *name_a, json_t *b, const char *name_b, struct strbuf *err);

#endif /* TD_ANALYZE_COMPARE_H */
