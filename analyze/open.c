/*
 * The entry of every command that reads what tdperf recorded: a job
 * directory, a sweep or one run.  A job is a set of runs and a sweep a set
 * of thread counts, each read through td_report_load, so this dispatch
 * sits above the one-run builder (analyze/build.c) and the builder never
 * reaches back up into jobs.
 */
#include "analyze/report.h"
#include "analyze/compare.h"

json_t *td_report_open(const char *path, const struct td_report_opts *opts, struct strbuf *err)
{
	if (td_report_is_job(path)) /* srun/mpirun: analyze/job.c */
		return td_report_job_doc(path, opts, err);
	if (td_report_is_sweep(path)) /* record --sweep: analyze/threads-json.c */
		return td_report_sweep_doc(path, err);
	return td_report_load(path, opts, err);
}
