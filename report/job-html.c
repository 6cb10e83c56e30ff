/*
 * The HTML page of a job document (analyze/job.c), on templates/job.html:
 * the summary with min / mean / max across ranks, the outliers and what
 * grows in them, a rank x component heat map and the per-node summary.
 *
 * Past HEAT_MAX_RANKS ranks the heat map has one row per node (each
 * component's mean over the node's ranks) so that the page stays usable
 * for thousands of ranks; the outliers are still named one by one.
 */
#include "config.h"
#include "report/render.h"
#include "report/html.h"

#include <math.h>
#include <string.h>
#include <time.h>

#define HEAT_MAX_RANKS 256

static void cell(struct strbuf *sb, double v)
{
	if (isfinite(v))
		strbuf_addf(sb, "<td class=\"num\">%.4g</td>", v);
	else
		strbuf_addstr(sb, "<td class=\"num muted\">n/a</td>");
}

static void summary(struct strbuf *sb, json_t *doc)
{
	json_t *job = json_object_get(doc, "job"), *stats = json_object_get(job, "stats"), *s, *w;
	const char *id;
	size_t i;

	strbuf_addf(sb, "<p>%lld rank(s) found", (long long)json_integer_value(json_object_get(job, "ranks_found")));
	if (json_is_integer(json_object_get(job, "ranks_expected")))
		strbuf_addf(sb, " of %lld", (long long)json_integer_value(json_object_get(job, "ranks_expected")));
	strbuf_addf(sb, " on %zu node(s); launcher ", json_array_size(json_object_get(doc, "nodes")));
	strbuf_add_html(sb, td_json_str_or(job, "launcher", "unknown"));
	strbuf_addstr(sb, ", CPU ");
	json_array_foreach(json_object_get(job, "cpu_models"), i, w) {
		if (i)
			strbuf_addstr(sb, ", ");
		strbuf_add_html(sb, json_string_value(w));
	}
	strbuf_addstr(sb, ".</p>\n");
	if (json_array_size(json_object_get(doc, "warnings"))) {
		strbuf_addstr(sb, "<ul class=\"warnings\">");
		json_array_foreach(json_object_get(doc, "warnings"), i, w) {
			strbuf_addstr(sb, "<li>");
			strbuf_add_html(sb, td_json_str(w, "text"));
			strbuf_addstr(sb, "</li>");
		}
		strbuf_addstr(sb, "</ul>\n");
	}
	strbuf_addstr(sb, "<table class=\"data\"><thead><tr><th>metric</th><th class=\"num\">min</th>"
		      "<th class=\"num\">mean</th><th class=\"num\">max</th><th class=\"num\">max / mean</th>"
		      "<th class=\"num\">min rank</th><th class=\"num\">max rank</th></tr></thead><tbody>\n");
	json_object_foreach(stats, id, s) {
		strbuf_addstr(sb, "<tr><td>");
		strbuf_add_html(sb, id);
		strbuf_addstr(sb, "</td>");
		cell(sb, td_json_num(json_object_get(s, "min")));
		cell(sb, td_json_num(json_object_get(s, "mean")));
		cell(sb, td_json_num(json_object_get(s, "max")));
		cell(sb, td_json_num(json_object_get(s, "max_over_mean")));
		strbuf_addf(sb, "<td class=\"num\">%lld</td><td class=\"num\">%lld</td></tr>\n",
			    (long long)json_integer_value(json_object_get(s, "min_rank")),
			    (long long)json_integer_value(json_object_get(s, "max_rank")));
	}
	strbuf_addstr(sb, "</tbody></table>\n");
	if (!json_is_object(json_object_get(job, "tree"))) {
		strbuf_addstr(sb, "<p class=\"muted\">Job-wide Top-Down: ");
		strbuf_add_html(sb, td_json_str_or(job, "tree_reason", "not available"));
		strbuf_addstr(sb, ".</p>\n");
	}
}

/* The MPI library's share of the ranks' samples (record --hotspots). */
static void mpi_share(struct strbuf *sb, json_t *doc)
{
	struct strbuf text = STRBUF_INIT;

	if (td_job_mpi_sentence(doc, &text)) {
		strbuf_addstr(sb, "<p class=\"mpi-share\">");
		strbuf_add_html(sb, text.buf);
		strbuf_addstr(sb, ".</p>\n");
	}
	strbuf_release(&text);
}

static void outliers(struct strbuf *sb, json_t *doc)
{
	json_t *imb = json_object_get(doc, "imbalance"), *d, *g;
	size_t i;

	strbuf_addf(sb, "<p>CPU time max / mean: <b>%.3g</b>; elapsed max / mean: <b>%.3g</b>.</p>\n",
		    td_json_num(json_object_get(json_object_get(imb, "max_over_mean"), "cpu_s")),
		    td_json_num(json_object_get(json_object_get(imb, "max_over_mean"), "elapsed_s")));
	mpi_share(sb, doc);
	if (!json_array_size(json_object_get(imb, "outlier_details"))) {
		strbuf_addstr(sb, "<p>No outlier: no rank's CPU time is 1.2 &times; the median or more.</p>\n");
		return;
	}
	strbuf_addstr(sb, "<ul>\n");
	json_array_foreach(json_object_get(imb, "outlier_details"), i, d) {
		strbuf_addf(sb, "<li class=\"outlier\">rank <b>%lld</b> (", (long long)json_integer_value(json_object_get(d, "rank")));
		strbuf_add_html(sb, td_json_str_or(d, "host", "?"));
		strbuf_addf(sb, "): CPU time %.4g s, %.3g &times; the median %.4g s",
			    td_json_num(json_object_get(d, "value")), td_json_num(json_object_get(d, "ratio")),
			    td_json_num(json_object_get(d, "median")));
		if (json_is_object(g = json_object_get(d, "sched_grows"))) {
			strbuf_addstr(sb, "; <b>");
			strbuf_add_html(sb, td_json_str(g, "component"));
			strbuf_addf(sb, "</b> grows by %.4g s", td_json_num(json_object_get(g, "over_median")));
		}
		strbuf_addstr(sb, "</li>\n");
	}
	strbuf_addstr(sb, "</ul>\n");
}

/* Background colour for v in [lo, hi]: light to dark blue. */
static void heat_cell(struct strbuf *sb, double v, double lo, double hi)
{
	double t = hi > lo ? (v - lo) / (hi - lo) : 0;

	if (!isfinite(v)) {
		strbuf_addstr(sb, "<td class=\"num muted\">n/a</td>");
		return;
	}
	strbuf_addf(sb, "<td class=\"num heat\" style=\"background:hsl(215,70%%,%d%%)\">%.3g</td>",
		    (int)(92 - 55 * t), v);
}

/* The heat map's columns: CPU and elapsed time, then every compared component. */
static json_t *heat_columns(json_t *doc)
{
	json_t *cols = json_array(), *s;
	const char *id;

	json_object_foreach(json_object_get(json_object_get(doc, "job"), "stats"), id, s)
		if (!strcmp(id, "cpu_s") || !strcmp(id, "elapsed_s") || !strcmp(id, "mpi_share") ||
		    !strncmp(id, "sched.", 6) || !strncmp(id, "topdown.", 8))
			json_array_append_new(cols, json_string(id));
	return cols;
}

/* One row: the label, then each column's value (per node: the mean over its ranks). */
static void heat_row(struct strbuf *sb, json_t *doc, json_t *cols, json_t *rank, json_t *node)
{
	json_t *stats = json_object_get(json_object_get(doc, "job"), "stats"), *c;
	size_t i;

	if (rank)
		strbuf_addf(sb, "<tr><th>%lld</th>", (long long)json_integer_value(json_object_get(rank, "rank")));
	else {
		strbuf_addstr(sb, "<tr><th>");
		strbuf_add_html(sb, td_json_str_or(node, "host", "?"));
		strbuf_addstr(sb, "</th>");
	}
	json_array_foreach(cols, i, c) {
		json_t *s = json_object_get(stats, json_string_value(c));
		double v = rank ? td_job_rank_value(rank, json_string_value(c))
				: td_json_num(json_object_get(json_object_get(node, "means"), json_string_value(c)));

		heat_cell(sb, v, td_json_num(json_object_get(s, "min")), td_json_num(json_object_get(s, "max")));
	}
	strbuf_addstr(sb, "</tr>\n");
}

static void heat_map(struct strbuf *sb, json_t *doc, int by_node)
{
	json_t *cols = heat_columns(doc), *c, *x;
	size_t i;

	strbuf_addf(sb, "<table class=\"data heatmap\"><thead><tr><th>%s</th>", by_node ? "node" : "rank");
	json_array_foreach(cols, i, c) {
		strbuf_addstr(sb, "<th class=\"num\">");
		strbuf_add_html(sb, json_string_value(c));
		strbuf_addstr(sb, "</th>");
	}
	strbuf_addstr(sb, "</tr></thead><tbody>\n");
	json_array_foreach(json_object_get(doc, by_node ? "nodes" : "ranks"), i, x)
		heat_row(sb, doc, cols, by_node ? NULL : x, by_node ? x : NULL);
	strbuf_addstr(sb, "</tbody></table>\n");
	json_decref(cols);
}

static void nodes_table(struct strbuf *sb, json_t *doc)
{
	json_t *n;
	size_t i;

	strbuf_addstr(sb, "<table class=\"data\"><thead><tr><th>node</th><th>host</th><th class=\"num\">ranks</th>"
		      "<th class=\"num\">CPU s</th><th class=\"num\">elapsed s (max)</th><th>CPU</th></tr></thead><tbody>\n");
	json_array_foreach(json_object_get(doc, "nodes"), i, n) {
		strbuf_addf(sb, "<tr><td>%lld</td><td>", (long long)json_integer_value(json_object_get(n, "node")));
		strbuf_add_html(sb, td_json_str_or(n, "host", "?"));
		strbuf_addf(sb, "</td><td class=\"num\">%lld</td>", (long long)json_integer_value(json_object_get(n, "nr_ranks")));
		cell(sb, td_json_num(json_object_get(n, "cpu_s")));
		cell(sb, td_json_num(json_object_get(n, "elapsed_s")));
		strbuf_addstr(sb, "<td>");
		strbuf_add_html(sb, td_json_str_or(n, "cpu_model", "?"));
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</tbody></table>\n");
}

int td_report_job_html(json_t *doc, const char *path, struct strbuf *err)
{
	struct td_template *t = td_template_new();
	struct strbuf sb = STRBUF_INIT;
	json_t *job = json_object_get(doc, "job");
	int by_node = json_array_size(json_object_get(doc, "ranks")) > HEAT_MAX_RANKS, ret = -1;

	strbuf_addstr(&sb, "Job ");
	strbuf_addstr(&sb, td_json_str_or(job, "job_id", "without id"));
	td_template_set_text(t, "title", sb.buf);
	strbuf_reset(&sb);
	summary(&sb, doc);
	td_template_set_html(t, "summary", sb.buf);
	strbuf_reset(&sb);
	outliers(&sb, doc);
	td_template_set_html(t, "outliers", sb.buf);
	strbuf_reset(&sb);
	heat_map(&sb, doc, by_node);
	td_template_set_html(t, "heat", sb.buf);
	td_template_set_text(t, "heat_title", by_node ? "Nodes x components (mean over each node's ranks)"
						       : "Ranks x components");
	strbuf_reset(&sb);
	nodes_table(&sb, doc);
	td_template_set_html(t, "nodes", sb.buf);
	td_template_set_text(t, "footer", "Generated by tdperf " PACKAGE_VERSION " from a job report document "
			     "(schema v1). One self-contained file: no script, nothing loaded from the network.");
	ret = td_template_write(t, "job.html", path, err);
	td_template_free(t);
	strbuf_release(&sb);
	return ret;
}
