/*
 * tdperf diff JOB1 JOB2: two merged job reports (analyze/job.c) side by
 * side, e.g. the same program on two node counts: per compared metric the
 * mean and max over ranks and max over mean in each job, the change of
 * the mean, and each job's outliers.
 */
#include "config.h"
#include "analyze/analyze-int.h"

#include <math.h>
#include <string.h>

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* One metric's numbers of one job, or null when the job lacks it. */
static json_t *side(json_t *stats)
{
	if (!json_is_object(stats))
		return json_null();
	return json_pack("{s:O, s:O, s:O, s:O}", "mean", json_object_get(stats, "mean"),
			 "max", json_object_get(stats, "max"), "max_over_mean",
			 json_object_get(stats, "max_over_mean"), "ranks", json_object_get(stats, "ranks"));
}

static json_t *job_side(json_t *doc, const char *name)
{
	json_t *job = json_object_get(doc, "job");

	return json_pack("{s:s, s:O, s:O, s:O, s:I, s:O}", "name", name,
			 "job_id", json_object_get(job, "job_id"), "launcher", json_object_get(job, "launcher"),
			 "ranks", json_object_get(job, "ranks_found"),
			 "nodes", (json_int_t)json_array_size(json_object_get(doc, "nodes")),
			 "outliers", json_object_get(json_object_get(doc, "imbalance"), "outliers"));
}

json_t *td_report_job_diff(json_t *a, const char *name_a, json_t *b, const char *name_b)
{
	json_t *sa = json_object_get(json_object_get(a, "job"), "stats");
	json_t *sb = json_object_get(json_object_get(b, "job"), "stats");
	json_t *metrics = json_array(), *s;
	const char *id;

	json_object_foreach(sa, id, s) {
		json_t *other = json_object_get(sb, id);
		double ma = td_json_num(json_object_get(s, "mean")), mb = td_json_num(json_object_get(other, "mean"));

		json_array_append_new(metrics, json_pack("{s:s, s:o, s:o, s:o}", "id", id, "a", side(s),
			"b", side(other), "mean_change", num_or_null(ma != 0 ? mb / ma - 1 : NAN)));
	}
	json_object_foreach(sb, id, s)
		if (!json_object_get(sa, id))
			json_array_append_new(metrics, json_pack("{s:s, s:n, s:o, s:n}", "id", id, "a", "b",
								 side(s), "mean_change"));
	return json_pack("{s:s, s:i, s:o, s:o, s:o}", "schema", "tdperf-job-diff", "version", 1,
			 "a", job_side(a, name_a), "b", job_side(b, name_b), "metrics", metrics);
}
