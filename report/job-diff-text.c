/*
 * The text of a job diff (analyze/job-diff.c builds it): both jobs' outliers,
 * then each metric's mean and max on both sides.
 */
#include "report/render.h"

#include <math.h>

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

	fprintf(out, "A: %s, job %s: %lld ranks on %lld nodes; outliers:", td_printable(td_json_str(a, "name")),
		td_printable(td_json_str_or(a, "job_id", "?")),
		(long long)json_integer_value(json_object_get(a, "ranks")),
		(long long)json_integer_value(json_object_get(a, "nodes")));
	outlier_list(out, a);
	fprintf(out, "\nB: %s, job %s: %lld ranks on %lld nodes; outliers:", td_printable(td_json_str(b, "name")),
		td_printable(td_json_str_or(b, "job_id", "?")),
		(long long)json_integer_value(json_object_get(b, "ranks")),
		(long long)json_integer_value(json_object_get(b, "nodes")));
	outlier_list(out, b);
	fprintf(out, "\n\n%-22s %10s %10s %10s %10s %10s %10s %8s\n", "metric", "A mean", "B mean",
		"A max", "B max", "A max/mean", "B max/mean", "mean");
	json_array_foreach(json_object_get(diff, "metrics"), i, m) {
		json_t *x = json_object_get(m, "a"), *y = json_object_get(m, "b");
		double c = td_json_num(json_object_get(m, "mean_change"));

		fprintf(out, "%-22s", td_printable(td_json_str(m, "id")));
		number(out, json_object_get(x, "mean"));
		number(out, json_object_get(y, "mean"));
		number(out, json_object_get(x, "max"));
		number(out, json_object_get(y, "max"));
		number(out, json_object_get(x, "max_over_mean"));
		number(out, json_object_get(y, "max_over_mean"));
		if (isfinite(c))
			fprintf(out, fabs(c) < 1e4 ? " %+7.1f%%\n" : " %+7.2g%%\n", 100 * c);
		else
			fprintf(out, " %8s\n", "n/a");
	}
}
