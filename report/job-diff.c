/*
 * tdperf diff JOB1 JOB2: two merged job reports (report/job.c) side by
 * side, e.g. the same program on two node counts: per compared metric the
 * mean and max over ranks and max over mean in each job, the change of
 * the mean, and each job's outliers.
 */
#include "config.h"
#include "report/report-int.h"

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

static void outlier_list(FILE *out, json_t *side)
{
	json_t *o;
	size_t i;

	if (!json_array_size(json_object_get(side, "outliers")))
		fputs(" none", out);
	json_array_foreach(json_object_get(side, "outliers"), i, o)
		fprintf(out, "%s %lld", i ? "," : "", (long long)json_integer_value(o));
}

static void number(FILE *out, json_t *v)
{
	if (json_is_number(v))
		fprintf(out, " %10.4g", json_number_value(v));
	else
		fprintf(out, " %10s", "n/a");
}

void td_report_job_diff_text(json_t *diff, FILE *out)
{
	json_t *a = json_object_get(diff, "a"), *b = json_object_get(diff, "b"), *m;
	size_t i;

	fprintf(out, "A: %s, job %s: %lld ranks on %lld nodes; outliers:", td_json_str(a, "name"),
		td_json_str_or(a, "job_id", "?"), (long long)json_integer_value(json_object_get(a, "ranks")),
		(long long)json_integer_value(json_object_get(a, "nodes")));
	outlier_list(out, a);
	fprintf(out, "\nB: %s, job %s: %lld ranks on %lld nodes; outliers:", td_json_str(b, "name"),
		td_json_str_or(b, "job_id", "?"), (long long)json_integer_value(json_object_get(b, "ranks")),
		(long long)json_integer_value(json_object_get(b, "nodes")));
	outlier_list(out, b);
	fprintf(out, "\n\n%-22s %10s %10s %10s %10s %10s %10s %8s\n", "metric", "A mean", "B mean",
		"A max", "B max", "A max/mean", "B max/mean", "mean");
	json_array_foreach(json_object_get(diff, "metrics"), i, m) {
		json_t *x = json_object_get(m, "a"), *y = json_object_get(m, "b");
		double c = td_json_num(json_object_get(m, "mean_change"));

		fprintf(out, "%-22s", td_json_str(m, "id"));
		number(out, json_object_get(x, "mean"));
		number(out, json_object_get(y, "mean"));
		number(out, json_object_get(x, "max"));
		number(out, json_object_get(y, "max"));
		number(out, json_object_get(x, "max_over_mean"));
		number(out, json_object_get(y, "max_over_mean"));
		if (isfinite(c))
			fprintf(out, " %+7.1f%%\n", 100 * c);
		else
			fprintf(out, " %8s\n", "n/a");
	}
}
