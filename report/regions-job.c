/*
 * A job's regions over its ranks (analyze/regions-merge.c, td_job_regions)
 * in the job's CSV and HTML reports (report/regions.h).  The text report's
 * table is report/regions-merge.c's; these draw the same "job.regions"
 * and the ranks' own "regions" briefs, nothing computed anew.
 */
#include "report/regions.h"
#include "util/util.h"

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

static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* One row: KIND,RANK,HOST,NODE,REGION:METRIC,VALUE (rank < 0, host NULL: empty). */
static void csv_row(FILE *out, const char *kind, json_int_t rank, const char *host, json_t *node,
		    const char *region, const char *metric, double v)
{
	struct strbuf m = STRBUF_INIT;

	fprintf(out, "%s,", kind);
	if (rank >= 0)
		fprintf(out, "%lld", (long long)rank);
	fputc(',', out);
	csv_field(out, host ? host : "");
	fputc(',', out);
	if (json_is_integer(node))
		fprintf(out, "%lld", (long long)json_integer_value(node));
	fputc(',', out);
	strbuf_addf(&m, "%s:%s", region, metric);
	csv_field(out, m.buf);
	fputc(',', out);
	if (isfinite(v))
		fprintf(out, "%.10g", v);
	fputc('\n', out);
	strbuf_release(&m);
}

/* Each rank's own values of a region: calls, time_s, cpu_s, share, level1.ID. */
static void rank_rows(FILE *out, json_t *rank)
{
	static const char *const metrics[] = { "calls", "time_s", "cpu_s", "share" };
	json_int_t nr = json_integer_value(json_object_get(rank, "rank"));
	const char *host = str(rank, "host"), *id;
	json_t *node = json_object_get(rank, "node"), *r, *v;
	size_t i, k;

	json_array_foreach(json_object_get(rank, "regions"), i, r) {
		for (k = 0; k < sizeof(metrics) / sizeof(metrics[0]); k++)
			csv_row(out, "region", nr, host, node, str(r, "name"), metrics[k], num(r, metrics[k]));
		json_object_foreach(json_object_get(r, "level1"), id, v) {
			struct strbuf key = STRBUF_INIT;

			strbuf_addf(&key, "level1.%s", id);
			csv_row(out, "region", nr, host, node, str(r, "name"), key.buf,
				json_is_number(v) ? json_number_value(v) : NAN);
			strbuf_release(&key);
		}
	}
}

void td_job_regions_csv(json_t *doc, FILE *out)
{
	static const char *const what[] = { "min", "mean", "median", "max" };
	json_t *regions = json_object_get(json_object_get(doc, "job"), "regions"), *r, *s, *o;
	const char *metric;
	size_t i, k;

	if (!json_array_size(regions))
		return;
	json_array_foreach(json_object_get(doc, "ranks"), i, r)
		rank_rows(out, r);
	json_array_foreach(regions, i, r) {
		json_object_foreach(json_object_get(r, "stats"), metric, s) {
			if (!json_is_object(s))
				continue;
			for (k = 0; k < sizeof(what) / sizeof(what[0]); k++) {
				struct strbuf kind = STRBUF_INIT;
				json_t *at = json_object_get(s, !strcmp(what[k], "min") ? "min_rank"
							     : !strcmp(what[k], "max") ? "max_rank" : "");

				strbuf_addf(&kind, "region_%s", what[k]);
				csv_row(out, kind.buf, json_is_integer(at) ? json_integer_value(at) : -1, NULL,
					NULL, str(r, "name"), metric, num(s, what[k]));
				strbuf_release(&kind);
			}
		}
		o = json_object_get(r, "outlier");
		if (json_is_object(o))
			csv_row(out, json_is_true(json_object_get(o, "imbalanced")) ? "region_outlier_imbalanced"
				: "region_outlier", json_integer_value(json_object_get(o, "rank")), NULL, NULL,
				str(r, "name"), str(o, "metric"), num(o, "ratio_to_median"));
	}
}

/* ---------------- HTML ---------------- */

static void stat_cells(struct strbuf *sb, json_t *s)
{
	static const char *const what[] = { "min", "mean", "max" };
	size_t k;

	for (k = 0; k < sizeof(what) / sizeof(what[0]); k++)
		if (isfinite(num(s, what[k])))
			strbuf_addf(sb, "<td class=\"num\">%.4f</td>", num(s, what[k]));
		else
			strbuf_addstr(sb, "<td class=\"num\">-</td>");
}

static void outlier_cell(struct strbuf *sb, json_t *r)
{
	json_t *o = json_object_get(r, "outlier"), *m;
	size_t j;

	strbuf_addstr(sb, "<td>");
	if (json_is_object(o))
		strbuf_addf(sb, "%srank %lld, x%.2f the median %s%s", json_is_true(json_object_get(o, "imbalanced"))
			    ? "<strong>" : "", (long long)json_integer_value(json_object_get(o, "rank")),
			    num(o, "ratio_to_median"), !strcmp(str(o, "metric"), "cpu_s") ? "CPU time" : "wall time",
			    json_is_true(json_object_get(o, "imbalanced")) ? " (imbalanced)</strong>" : "");
	else
		strbuf_addstr(sb, "-");
	json_array_foreach(json_object_get(r, "missing_in"), j, m)
		strbuf_addf(sb, "%s%lld", j ? " " : "<br><span class=\"hint\">not entered in ranks ",
			    (long long)json_integer_value(m));
	if (json_array_size(json_object_get(r, "missing_in")))
		strbuf_addstr(sb, "</span>");
	strbuf_addstr(sb, "</td>");
}

void td_job_regions_html(struct strbuf *sb, json_t *doc)
{
	json_t *regions = json_object_get(json_object_get(doc, "job"), "regions"), *r;
	size_t i;
	int any_estimate = 0;

	if (!json_array_size(regions))
		return;
	strbuf_addstr(sb, "<section id=\"regions\" class=\"card\">\n<h2>Regions over ranks</h2>\n"
		      "<p class=\"hint\">Each region marked with &lt;tdperf.h&gt;, merged by name over the ranks "
		      "that entered it: min, mean and max of its CPU time (task-clock) and wall time, and the "
		      "rank farthest from the median by ratio (imbalanced at 1.2 or more).</p>\n"
		      "<table class=\"data\"><thead><tr><th>Region</th><th class=\"num\">Ranks</th>"
		      "<th class=\"num\">CPU s min</th><th class=\"num\">mean</th><th class=\"num\">max</th>"
		      "<th class=\"num\">Wall s min</th><th class=\"num\">mean</th><th class=\"num\">max</th>"
		      "<th>Outlier</th></tr></thead><tbody>\n");
	json_array_foreach(regions, i, r) {
		json_t *st = json_object_get(r, "stats");
		int est = json_is_true(json_object_get(r, "estimate"));

		any_estimate |= est;
		strbuf_addstr(sb, "<tr><td>");
		strbuf_add_html(sb, str(r, "name"));
		strbuf_addf(sb, "%s</td><td class=\"num\">%lld</td>", est ? " ~" : "",
			    (long long)json_integer_value(json_object_get(r, "ranks")));
		stat_cells(sb, json_object_get(st, "cpu_s"));
		stat_cells(sb, json_object_get(st, "time_s"));
		outlier_cell(sb, r);
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody></table>\n");
	if (any_estimate)
		strbuf_addstr(sb, "<p class=\"hint\">~ estimate: multiplexed or sampled counts in some rank, "
			      "scaled (the rank's region report says why).</p>\n");
	strbuf_addstr(sb, "</section>\n");
}
