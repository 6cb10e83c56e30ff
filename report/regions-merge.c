/*
 * Regions across runs and ranks, as text (report/regions.h): the
 * comparison of two --regions runs (analyze/regions-merge.c,
 * td_regions_diff) and a job's regions over its ranks (td_job_regions).
 */
#include "report/regions.h"

#include <math.h>
#include <string.h>

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/* A number in a column of width w ("-" when there is none). */
static void cell(FILE *out, int w, int prec, double v)
{
	if (isfinite(v))
		fprintf(out, " %*.*f", w, prec, v);
	else
		fprintf(out, " %*s", w, "-");
}

static void ratio_cell(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "  x%-6.2f", v);
	else
		fprintf(out, "  %-7s", "-");
}

/* The region's name, "~" after it when its counts are an estimate (multiplexed or sampled). */
static const char *estimate_name(const char *name, int estimate)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s%s", td_printable(name), estimate ? " ~" : "");
	return sb.buf;
}

/* One region's row; whether it is an estimate. */
static int diff_row(json_t *r, FILE *out)
{
	json_t *a = json_object_get(r, "a"), *b = json_object_get(r, "b"), *ratio = json_object_get(r, "ratio");

	int est = json_is_true(json_object_get(a, "estimate")) || json_is_true(json_object_get(b, "estimate"));

	fprintf(out, "%-24s", estimate_name(str(r, "name"), est));
	if (!json_is_object(a) || !json_is_object(b)) {
		fprintf(out, " only in %s\n", json_is_object(a) ? "A" : "B");
		return est;
	}
	cell(out, 8, 0, num(a, "calls"));
	cell(out, 8, 0, num(b, "calls"));
	cell(out, 9, 4, num(a, "time_s"));
	cell(out, 9, 4, num(b, "time_s"));
	ratio_cell(out, num(ratio, "time_s"));
	cell(out, 9, 4, num(a, "cpu_s"));
	cell(out, 9, 4, num(b, "cpu_s"));
	ratio_cell(out, num(ratio, "cpu_s"));
	cell(out, 6, 1, 100 * num(a, "share"));
	cell(out, 6, 1, 100 * num(b, "share"));
	fputc('\n', out);
	return est;
}

/* Each region's Level 1 in A and B, where the runs computed it. */
static void diff_level1(json_t *regions, FILE *out)
{
	json_t *r, *v;
	const char *id;
	size_t i;
	int header = 0;

	json_array_foreach(regions, i, r) {
		json_t *la = json_object_get(json_object_get(r, "a"), "level1");
		json_t *lb = json_object_get(json_object_get(r, "b"), "level1");

		if (!json_object_size(la) || !json_object_size(lb))
			continue;
		if (!header++)
			fputs("\nLevel 1 per region, A -> B (percent of slots):\n", out);
		fprintf(out, "  %s\n", td_printable(str(r, "name")));
		json_object_foreach(la, id, v)
			fprintf(out, "    %-30s %6.1f -> %6.1f  (%+.1f points)\n", td_printable(id),
				100 * num(la, id), 100 * num(lb, id), 100 * (num(lb, id) - num(la, id)));
	}
}

void td_regions_diff_text(json_t *diff, FILE *out)
{
	json_t *a = json_object_get(diff, "a"), *b = json_object_get(diff, "b");
	json_t *big = json_object_get(diff, "largest_change"), *r;
	size_t i;
	int any_estimate = 0;

	fprintf(out, "Regions: A = %s (%s), B = %s (%s)\n", td_printable(str(a, "name")),
		json_is_string(json_object_get(a, "cpu")) ? td_printable(str(a, "cpu")) : "CPU unknown",
		td_printable(str(b, "name")),
		json_is_string(json_object_get(b, "cpu")) ? td_printable(str(b, "cpu")) : "CPU unknown");
	fprintf(out, "\n%-24s %8s %8s %9s %9s  %-7s %9s %9s  %-7s %6s %6s\n", "region", "calls A", "calls B",
		"time A s", "time B s", "B/A", "cpu A s", "cpu B s", "B/A", "%A", "%B");
	json_array_foreach(json_object_get(diff, "regions"), i, r)
		any_estimate |= diff_row(r, out);
	if (json_is_object(big))
		fprintf(out, "\nLargest change: region %s, %s x%.2f (B over A)\n", td_printable(str(big, "region")),
			!strcmp(str(big, "metric"), "cpu_s") ? "CPU time" : "wall time", num(big, "ratio"));
	else
		fputs("\nLargest change: none (no region other than the root in both runs)\n", out);
	if (any_estimate)
		fputs("~ estimate: multiplexed or sampled counts, scaled (each run's region report says why)\n", out);
	diff_level1(json_object_get(diff, "regions"), out);
}

static void stat_cells(json_t *s, int prec, FILE *out)
{
	cell(out, 9, prec, num(s, "min"));
	cell(out, 9, prec, num(s, "mean"));
	cell(out, 9, prec, num(s, "max"));
}

void td_job_regions_text(json_t *doc, FILE *out)
{
	json_t *regions = json_object_get(json_object_get(doc, "job"), "regions"), *r;
	size_t i;
	int any_estimate = 0;

	if (!json_array_size(regions))
		return;
	fprintf(out, "\nRegions over ranks (min / mean / max; outlier: the rank farthest from the median):\n");
	fprintf(out, "%-24s %5s %9s %9s %9s %9s %9s %9s  %s\n", "region", "ranks", "cpu min", "cpu mean",
		"cpu max", "time min", "time mean", "time max", "outlier");
	json_array_foreach(regions, i, r) {
		json_t *st = json_object_get(r, "stats"), *o = json_object_get(r, "outlier");

		any_estimate |= json_is_true(json_object_get(r, "estimate"));
		fprintf(out, "%-24s %5lld", estimate_name(str(r, "name"), json_is_true(json_object_get(r, "estimate"))),
			(long long)json_integer_value(json_object_get(r, "ranks")));
		stat_cells(json_object_get(st, "cpu_s"), 4, out);
		stat_cells(json_object_get(st, "time_s"), 4, out);
		if (json_is_object(o))
			fprintf(out, "  rank %lld (x%.2f the median %s)%s\n",
				(long long)json_integer_value(json_object_get(o, "rank")), num(o, "ratio_to_median"),
				!strcmp(str(o, "metric"), "cpu_s") ? "CPU time" : "wall time",
				json_is_true(json_object_get(o, "imbalanced")) ? " imbalanced" : "");
		else
			fputs("  -\n", out);
		if (json_array_size(json_object_get(r, "missing_in"))) {
			json_t *m;
			size_t j;

			fputs("  not entered in ranks", out);
			json_array_foreach(json_object_get(r, "missing_in"), j, m)
				fprintf(out, " %lld", (long long)json_integer_value(m));
			fputc('\n', out);
		}
	}
	if (any_estimate)
		fputs("~ estimate: multiplexed or sampled counts in some rank, scaled (the rank's region report says why)\n", out);
}
