/*
 * Text and CSV rendering of a job document (analyze/job.c): the job's
 * header, the comparison across ranks (min / mean / max, max over mean),
 * the outliers and what grows in them, then one line per node and one per
 * rank.  Past MAX_RANK_LINES ranks only the outliers and the extremes are
 * listed per rank: the per-node lines carry the rest.
 */
#include "config.h"
#include "report/render.h"
#include "report/regions.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RANK_LINES 64

/* A metric id as a heading ("sched.running" -> "running s"), printable. */
static void metric_label(struct strbuf *sb, const char *id)
{
	if (!strncmp(id, "sched.", 6)) {
		strbuf_add_printable(sb, id + 6);
		strbuf_addstr(sb, " s");
	} else if (!strncmp(id, "topdown.", 8)) {
		strbuf_add_printable(sb, id + 8);
	} else {
		strbuf_add_printable(sb, id);
	}
}

static void value(FILE *out, double v, int width)
{
	if (!isfinite(v))
		fprintf(out, " %*s", width, "n/a");
	else if (fabs(v) >= 1e6)
		fprintf(out, " %*.4g", width, v);
	else
		fprintf(out, " %*.3f", width, v);
}

/* A ratio: two decimals, or %g where that would be a long row of digits. */
static void ratio(FILE *out, double v)
{
	fprintf(out, fabs(v) < 1e6 ? "%.2f" : "%.3g", v);
}

/* Seconds: three decimals, or %g where that would be a long row of digits. */
static void seconds(FILE *out, double v)
{
	fprintf(out, fabs(v) < 1e6 ? "%.3f" : "%.4g", v);
}

/* A fraction as a percentage ("12.3 %"), or %g where that would be a long row of digits. */
static void percent(FILE *out, double fraction, int width)
{
	fprintf(out, fabs(fraction) < 1e4 ? "%*.1f %%" : "%*.4g %%", width, 100 * fraction);
}

static void header(json_t *doc, FILE *out)
{
	json_t *job = json_object_get(doc, "job"), *run = json_object_get(doc, "run"), *w, *m;
	size_t i;

	fprintf(out, "Job %s (%s): %lld rank%s", td_printable(td_json_str_or(job, "job_id", "without id")),
		td_printable(td_json_str_or(job, "launcher", "launcher unknown")),
		(long long)json_integer_value(json_object_get(job, "ranks_found")),
		json_integer_value(json_object_get(job, "ranks_found")) == 1 ? "" : "s");
	if (json_is_integer(json_object_get(job, "ranks_expected")))
		fprintf(out, " of %lld", (long long)json_integer_value(json_object_get(job, "ranks_expected")));
	fprintf(out, " on %zu node%s\n", json_array_size(json_object_get(doc, "nodes")),
		json_array_size(json_object_get(doc, "nodes")) == 1 ? "" : "s");
	if (json_array_size(json_object_get(run, "workload"))) {
		fputs("Command:", out);
		json_array_foreach(json_object_get(run, "workload"), i, w)
			fprintf(out, " %s", td_printable(json_string_value(w)));
		fputc('\n', out);
	}
	fputs("CPU:", out);
	json_array_foreach(json_object_get(job, "cpu_models"), i, m)
		fprintf(out, "%s %s", i ? "," : "", td_printable(json_string_value(m)));
	fputc('\n', out);
	json_array_foreach(json_object_get(doc, "warnings"), i, w)
		fprintf(out, "warning: %s\n", td_printable(td_json_str(w, "text")));
}

static void stats_table(json_t *doc, FILE *out)
{
	json_t *stats = json_object_get(json_object_get(doc, "job"), "stats"), *s;
	const char *id;

	fprintf(out, "\n%-28s %10s %10s %10s %9s %5s  %s\n", "Across ranks", "min", "mean", "max", "max/mean",
		"ranks", "(min rank, max rank)");
	json_object_foreach(stats, id, s) {
		struct strbuf label = STRBUF_INIT;

		metric_label(&label, id);
		fprintf(out, "  %-26s", label.buf);
		value(out, td_json_num(json_object_get(s, "min")), 10);
		value(out, td_json_num(json_object_get(s, "mean")), 10);
		value(out, td_json_num(json_object_get(s, "max")), 10);
		value(out, td_json_num(json_object_get(s, "max_over_mean")), 9);
		fprintf(out, " %5lld  (%lld, %lld)\n", (long long)json_integer_value(json_object_get(s, "ranks")),
			(long long)json_integer_value(json_object_get(s, "min_rank")),
			(long long)json_integer_value(json_object_get(s, "max_rank")));
		strbuf_release(&label);
	}
}

static void outliers(json_t *doc, FILE *out)
{
	json_t *imb = json_object_get(doc, "imbalance"), *d, *g;
	double mom = td_json_num(json_object_get(json_object_get(imb, "max_over_mean"), "cpu_s"));
	size_t i;

	if (isfinite(mom)) {
		fputs("\nImbalance: CPU time max/mean ", out);
		ratio(out, mom);
	} else
		fputs("\nImbalance: CPU time not counted (no task-clock in any rank)", out);
	mom = td_json_num(json_object_get(json_object_get(imb, "max_over_mean"), "elapsed_s"));
	if (isfinite(mom)) {
		fputs(", elapsed max/mean ", out);
		ratio(out, mom);
	}
	fputc('\n', out);
	if (isfinite(td_json_num(json_object_get(json_object_get(imb, "max_over_mean"), "cpu_s"))) &&
	    !json_array_size(json_object_get(imb, "outlier_details")))
		fputs("Outliers: none (no rank's CPU time is 1.2 x the median or more)\n", out);
	json_array_foreach(json_object_get(imb, "outlier_details"), i, d) {
		fprintf(out, "Outlier: rank %lld (%s): CPU time ",
			(long long)json_integer_value(json_object_get(d, "rank")),
			td_printable(td_json_str_or(d, "host", "?")));
		seconds(out, td_json_num(json_object_get(d, "value")));
		fputs(" s, ", out);
		ratio(out, td_json_num(json_object_get(d, "ratio")));
		fputs(" x the median ", out);
		seconds(out, td_json_num(json_object_get(d, "median")));
		fputs(" s", out);
		if (json_is_object(g = json_object_get(d, "sched_grows"))) {
			fprintf(out, "; %s grows by ", td_printable(td_json_str(g, "component")));
			seconds(out, td_json_num(json_object_get(g, "over_median")));
			fputs(" s", out);
		}
		if (json_is_object(g = json_object_get(d, "topdown_grows"))) {
			fprintf(out, "; Top-Down %s grows by ", td_printable(td_json_str(g, "component")));
			percent(out, td_json_num(json_object_get(g, "over_median")), 0);
		}
		fputc('\n', out);
	}
}

/* The MPI library's share of the ranks' samples (record --hotspots). */
static void mpi_share(json_t *doc, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;

	if (td_job_mpi_sentence(doc, &sb))
		fprintf(out, "%s\n", td_printable(sb.buf));
	strbuf_release(&sb);
}

static int compare_ints(const void *a, const void *b)
{
	json_int_t x = *(const json_int_t *)a, y = *(const json_int_t *)b;

	return x < y ? -1 : x > y;
}

/* The outliers' rank numbers, sorted (a quarter of 100,000 ranks can be outliers). */
static json_int_t *sorted_outliers(json_t *doc, size_t *nr)
{
	json_t *list = json_object_get(json_object_get(doc, "imbalance"), "outliers"), *o;
	json_int_t *v = xcalloc(json_array_size(list) + 1, sizeof(*v));
	size_t i;

	json_array_foreach(list, i, o)
		v[i] = json_integer_value(o);
	*nr = json_array_size(list);
	qsort(v, *nr, sizeof(*v), compare_ints);
	return v;
}

/* Is this rank worth a line when there are too many ranks to list all? */
static int notable(json_t *doc, const json_int_t *outliers, size_t nr_outliers, json_t *r)
{
	json_t *s = json_object_get(json_object_get(json_object_get(doc, "job"), "stats"), "cpu_s");
	json_int_t rank = json_integer_value(json_object_get(r, "rank"));

	if (bsearch(&rank, outliers, nr_outliers, sizeof(*outliers), compare_ints))
		return 1;
	return rank == json_integer_value(json_object_get(s, "min_rank")) ||
	       rank == json_integer_value(json_object_get(s, "max_rank"));
}

/* The per-rank columns: times, then the scheduler components and Top-Down nodes any rank has. */
static int rank_column(const char *id)
{
	static const char *const skip[] = { "sched.unknown", "sched.imbalance" };
	size_t i;

	for (i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strcmp(id, skip[i]))
			return 0;
	return !strcmp(id, "elapsed_s") || !strcmp(id, "cpu_s") || !strcmp(id, "mpi_share") ||
	       !strncmp(id, "sched.", 6) || !strncmp(id, "topdown.", 8);
}

/* A column's width: its heading's, at least 10. */
static int column_width(const char *id)
{
	struct strbuf label = STRBUF_INIT;
	int width;

	metric_label(&label, id);
	width = label.len > 10 ? (int)label.len : 10;
	strbuf_release(&label);
	return width;
}

/* The column headings of rank_column's metrics, and the end of the line. */
static void rank_header(json_t *stats, FILE *out)
{
	struct strbuf label = STRBUF_INIT;
	json_t *s;
	const char *id;

	json_object_foreach(stats, id, s)
		if (rank_column(id)) {
			strbuf_reset(&label);
			metric_label(&label, id);
			fprintf(out, " %*s", column_width(id), label.buf);
		}
	fputc('\n', out);
	strbuf_release(&label);
}

/* The values under rank_header: of a rank summary, or of a node's "means". */
static void rank_values(json_t *stats, json_t *means, json_t *rank, FILE *out)
{
	json_t *s;
	const char *id;

	json_object_foreach(stats, id, s)
		if (rank_column(id))
			value(out, rank ? td_job_rank_value(rank, id) : td_json_num(json_object_get(means, id)),
			      column_width(id));
	fputc('\n', out);
}

static void per_node_and_rank(json_t *doc, FILE *out)
{
	json_t *stats = json_object_get(json_object_get(doc, "job"), "stats");
	json_t *ranks = json_object_get(doc, "ranks"), *n, *r;
	size_t i, nr = json_array_size(ranks), nr_outliers;
	json_int_t *outliers = sorted_outliers(doc, &nr_outliers);

	fprintf(out, "\nPer node %20s %8s %12s %12s  %s\n", "host", "ranks", "cpu s", "elapsed s", "CPU");
	json_array_foreach(json_object_get(doc, "nodes"), i, n) {
		fprintf(out, "  node %-5lld %17s %8lld", (long long)json_integer_value(json_object_get(n, "node")),
			td_printable(td_json_str_or(n, "host", "?")),
			(long long)json_integer_value(json_object_get(n, "nr_ranks")));
		value(out, td_json_num(json_object_get(n, "cpu_s")), 12);
		value(out, td_json_num(json_object_get(n, "elapsed_s")), 12);
		fprintf(out, "  %s\n", td_printable(td_json_str_or(n, "cpu_model", "?")));
	}
	fprintf(out, "\nPer node, mean over its ranks\n  %-10s %17s", "node", "host");
	rank_header(stats, out);
	json_array_foreach(json_object_get(doc, "nodes"), i, n) {
		fprintf(out, "  node %-5lld %17s", (long long)json_integer_value(json_object_get(n, "node")),
			td_printable(td_json_str_or(n, "host", "?")));
		rank_values(stats, json_object_get(n, "means"), NULL, out);
	}
	fprintf(out, "\nPer rank%s\n  %-10s %9s %5s", nr > MAX_RANK_LINES ? " (outliers and extremes only)" : "",
		"rank", "host", "node");
	rank_header(stats, out);
	json_array_foreach(ranks, i, r) {
		if (nr > MAX_RANK_LINES && !notable(doc, outliers, nr_outliers, r))
			continue;
		fprintf(out, "  rank %-5lld %9s %5lld", (long long)json_integer_value(json_object_get(r, "rank")),
			td_printable(td_json_str_or(r, "host", "?")),
			(long long)json_integer_value(json_object_get(r, "node")));
		rank_values(stats, NULL, r, out);
	}
	free(outliers);
}

void td_report_job_text(json_t *doc, FILE *out)
{
	json_t *tree = json_object_get(json_object_get(doc, "job"), "tree"), *v;
	const char *key;

	header(doc, out);
	stats_table(doc, out);
	outliers(doc, out);
	mpi_share(doc, out);
	if (json_is_object(tree)) {
		fputs("\nJob-wide Top-Down (ranks weighted by cycles):\n", out);
		json_object_foreach(tree, key, v) {
			fprintf(out, "  %-30s ", td_printable(key));
			percent(out, td_json_num(v), 6);
			fputc('\n', out);
		}
	} else {
		fprintf(out, "\nJob-wide Top-Down: not available: %s\n",
			td_printable(td_json_str_or(json_object_get(doc, "job"), "tree_reason", "no counts")));
	}
	per_node_and_rank(doc, out);
	td_job_regions_text(doc, out); /* report/regions-merge.c */
}

/* A CSV text cell then its separator (util/message.c: quoting, formulas neutralised). */
static void csv_text(FILE *out, const char *s, char end)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_csv(&sb, s);
	strbuf_addch(&sb, end);
	fwrite(sb.buf, 1, sb.len, out);
	strbuf_release(&sb);
}

/* CSV: one row per rank and metric, then one per metric's statistic. */
void td_report_job_csv(json_t *doc, FILE *out)
{
	json_t *stats = json_object_get(json_object_get(doc, "job"), "stats"), *r, *s;
	const char *id;
	size_t i;

	fputs("kind,rank,host,node,metric,value\n", out);
	json_array_foreach(json_object_get(doc, "ranks"), i, r)
		json_object_foreach(stats, id, s) {
			double v = td_job_rank_value(r, id);

			fprintf(out, "rank,%lld,", (long long)json_integer_value(json_object_get(r, "rank")));
			csv_text(out, td_json_str_or(r, "host", ""), ',');
			fprintf(out, "%lld,", (long long)json_integer_value(json_object_get(r, "node")));
			csv_text(out, id, ',');
			if (isfinite(v))
				fprintf(out, "%.10g", v);
			fputc('\n', out);
		}
	json_object_foreach(stats, id, s) {
		static const char *const what[] = { "min", "mean", "median", "max", "max_over_mean" };
		size_t k;

		for (k = 0; k < sizeof(what) / sizeof(what[0]); k++) {
			double v = td_json_num(json_object_get(s, what[k]));

			fprintf(out, "%s,,,,", what[k]);
			csv_text(out, id, ',');
			if (isfinite(v))
				fprintf(out, "%.10g", v);
			fputc('\n', out);
		}
	}
	td_job_regions_csv(doc, out); /* report/regions-job.c */
}
