/*
 * The HTML page of a job document (analyze/job.c), on templates/job.html:
 * the summary with min / mean / max across ranks, the outliers and what
 * grows in them, a rank x component heat map coloured by deviation from
 * the median, per-rank component charts and the per-node summary.
 *
 * Past TD_JOB_CHART_MAX_RANKS ranks the heat map and the charts have one
 * row per node (each component's mean over the node's ranks) so that the
 * page stays usable
 * for thousands of ranks; the outliers are still named one by one.
 */
#include "config.h"
#include "report/render.h"
#include "report/html.h"
#include "report/regions.h"
#include "report/chart.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void cell(struct strbuf *sb, double v)
{
	if (isfinite(v))
		strbuf_addf(sb, "<td class=\"num\">%.4g</td>", v);
	else
		strbuf_addstr(sb, "<td class=\"num muted\">n/a</td>");
}

/*
 * What a reader calls a compared metric (analyze/job.c's ids: a rank
 * field, "sched.KEY" or "topdown.KEY"), with its unit.
 */
static void metric_label(struct strbuf *sb, const char *id)
{
	static const struct {
		const char *id, *label;
	} fixed[] = {
		{ "elapsed_s", "Elapsed time (s)" },
		{ "cpu_s", "CPU time (s)" },
		{ "context_switches", "Context switches" },
		{ "cpu_migrations", "CPU migrations" },
		{ "page_faults", "Page faults" },
		{ "mpi_share", "Time in MPI (share of samples)" },
		{ "mpi_share_with_callees", "Time in MPI with its callees (share)" },
		{ "cycles", "Cycles" },
	};
	const char *p;
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(fixed); i++)
		if (!strcmp(id, fixed[i].id)) {
			strbuf_addstr(sb, fixed[i].label);
			return;
		}
	if (!strncmp(id, "sched.", 6)) {
		const char *name = td_thread_component_name(id + 6);

		strbuf_addch(sb, *name >= 'a' && *name <= 'z' ? *name - 'a' + 'A' : *name);
		strbuf_addf(sb, "%s (s)", name + 1);
		return;
	}
	if (!strncmp(id, "topdown.", 8)) { /* "backend_bound" -> "Top-Down: Backend Bound" */
		strbuf_addstr(sb, "Top-Down: ");
		for (p = id + 8; *p; p++) {
			int word_start = p == id + 8 || p[-1] == '_';

			if (*p == '_')
				strbuf_addch(sb, ' ');
			else
				strbuf_addch(sb, word_start && *p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
		}
		return;
	}
	strbuf_addstr(sb, id);
}

/* A metric's label, HTML-escaped, with its id as the tooltip. */
static void metric_label_html(struct strbuf *sb, const char *id, const char *tag, const char *cls)
{
	struct strbuf label = STRBUF_INIT;

	metric_label(&label, id);
	strbuf_addf(sb, "<%s%s%s%s title=\"", tag, cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	strbuf_add_html(sb, id);
	strbuf_addstr(sb, "\">");
	strbuf_add_html(sb, label.buf);
	strbuf_addf(sb, "</%s>", tag);
	strbuf_release(&label);
}

/* The command that recorded the job, as rank 0 wrote it into the job's meta.json. */
static void command_line(struct strbuf *sb, json_t *doc)
{
	json_t *cl = json_object_get(json_object_get(doc, "run"), "command_line"), *w;
	size_t i;

	if (!json_array_size(cl))
		return;
	strbuf_addstr(sb, "<p class=\"cmdline\">Recorded with <code>");
	json_array_foreach(cl, i, w) {
		if (i)
			strbuf_addch(sb, ' ');
		strbuf_add_html(sb, json_string_value(w) ? json_string_value(w) : "?");
	}
	strbuf_addstr(sb, "</code> in every rank.</p>\n");
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
	command_line(sb, doc);
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
		strbuf_addstr(sb, "<tr>");
		metric_label_html(sb, id, "td", NULL);
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

/*
 * The heat map colours a cell by its deviation from its column's median,
 * in per cent, so that equal spreads look alike in every column and a 1 %
 * spread stays neutral: within +-NEUTRAL_PCT of the median no colour, then
 * three steps each way (warm above the median, cool below).  Each band's
 * text colour is chosen for a contrast of at least 4.5:1 (WCAG 2.1, 1.4.3)
 * in templates/job.html.
 */
#define NEUTRAL_PCT 5.0
static const double band_pct[] = { NEUTRAL_PCT, 20, 50 };

/* "dev0", "devp1".."devp3" above the median, "devm1".."devm3" below. */
static void deviation_class(struct strbuf *sb, double v, double median)
{
	double pct, mag;
	int step = 0;

	if (median != 0)
		pct = 100 * (v - median) / fabs(median);
	else
		pct = v == 0 ? 0 : (v > 0 ? INFINITY : -INFINITY);
	mag = fabs(pct);
	while (step < (int)TD_ARRAY_SIZE(band_pct) && mag >= band_pct[step])
		step++;
	if (!step)
		strbuf_addstr(sb, "dev0");
	else
		strbuf_addf(sb, "dev%c%d", pct > 0 ? 'p' : 'm', step);
}

static void heat_cell(struct strbuf *sb, double v, double median)
{
	if (!isfinite(v)) {
		strbuf_addstr(sb, "<td class=\"num muted\">n/a</td>");
		return;
	}
	strbuf_addstr(sb, "<td class=\"num heat ");
	deviation_class(sb, v, median);
	if (median != 0)
		strbuf_addf(sb, "\" title=\"%+.1f %% from the median %.4g\">%.4g</td>",
			    100 * (v - median) / fabs(median), median, v);
	else
		strbuf_addf(sb, "\" title=\"the median is 0\">%.4g</td>", v);
}

static void heat_legend(struct strbuf *sb)
{
	static const struct {
		const char *cls, *text;
	} bands[] = {
		{ "devm3", "50 % or more below" }, { "devm2", "20-50 % below" }, { "devm1", "5-20 % below" },
		{ "dev0", "within 5 % of the median" },
		{ "devp1", "5-20 % above" }, { "devp2", "20-50 % above" }, { "devp3", "50 % or more above" },
	};
	size_t i;

	strbuf_addstr(sb, "<div class=\"heatlegend\">");
	for (i = 0; i < TD_ARRAY_SIZE(bands); i++)
		strbuf_addf(sb, "<span class=\"heat %s\">%s</span>", bands[i].cls, bands[i].text);
	strbuf_addstr(sb, "</div>\n");
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

/* A heat map row's value: the rank's, or per node the mean over its ranks. */
static double heat_value(json_t *row, int by_node, const char *id)
{
	if (by_node)
		return td_json_num(json_object_get(json_object_get(row, "means"), id));
	return td_job_rank_value(row, id);
}

static int compare_values(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of a column over the rows shown (NAN when none has it). */
static double column_median(json_t *rows, int by_node, const char *id)
{
	double *v = xcalloc(json_array_size(rows) + 1, sizeof(double)), median = NAN;
	size_t i, n = 0;
	json_t *row;

	json_array_foreach(rows, i, row) {
		double x = heat_value(row, by_node, id);

		if (isfinite(x))
			v[n++] = x;
	}
	if (n) {
		qsort(v, n, sizeof(double), compare_values);
		median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}
	free(v);
	return median;
}

static void heat_map(struct strbuf *sb, json_t *doc, int by_node)
{
	json_t *cols = heat_columns(doc), *rows = json_object_get(doc, by_node ? "nodes" : "ranks"), *c, *x;
	double *median = xcalloc(json_array_size(cols) + 1, sizeof(double));
	size_t i, j;

	heat_legend(sb);
	strbuf_addf(sb, "<div class=\"tablewrap\"><table class=\"data heatmap\"><thead><tr><th>%s</th>",
		    by_node ? "node" : "rank");
	json_array_foreach(cols, i, c) {
		metric_label_html(sb, json_string_value(c), "th", "num");
		median[i] = column_median(rows, by_node, json_string_value(c));
	}
	strbuf_addstr(sb, "</tr></thead><tbody>\n");
	json_array_foreach(rows, j, x) {
		if (by_node) {
			strbuf_addstr(sb, "<tr><th>");
			strbuf_add_html(sb, td_json_str_or(x, "host", "?"));
			strbuf_addstr(sb, "</th>");
		} else
			strbuf_addf(sb, "<tr><th>%lld</th>", (long long)json_integer_value(json_object_get(x, "rank")));
		json_array_foreach(cols, i, c)
			heat_cell(sb, heat_value(x, by_node, json_string_value(c)), median[i]);
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody><tfoot><tr class=\"median\"><th>median</th>");
	for (i = 0; i < json_array_size(cols); i++)
		cell(sb, median[i]);
	strbuf_addstr(sb, "</tr></tfoot></table></div>\n");
	free(median);
	json_decref(cols);
}

/*
 * One chart of report/plot-job.c as CSS bars: a row per rank, each
 * series a segment as wide as its share of the largest bar; a value a
 * rank lacks is said, not drawn.
 */
static void css_chart(struct strbuf *sb, const struct td_chart *c)
{
	double top = 0;
	size_t i, k;

	for (i = 0; i < c->nrows; i++) {
		double sum = 0;

		for (k = 0; k < c->nseries; k++)
			if (isfinite(c->rows[i].values[k]))
				sum += c->rows[i].values[k];
		if (sum > top)
			top = sum;
	}
	if (isfinite(c->ymax) && c->ymax > top)
		top = c->ymax;
	strbuf_addf(sb, "<figure class=\"jobchart\" id=\"chart-%s\"><figcaption>", c->stem);
	strbuf_add_html(sb, c->title);
	strbuf_addstr(sb, " <span class=\"muted\">(");
	strbuf_add_html(sb, c->ylabel);
	strbuf_addstr(sb, ")</span></figcaption>");
	if (c->nseries > 1) {
		strbuf_addstr(sb, "<div class=\"legend\">");
		for (k = 0; k < c->nseries; k++) {
			strbuf_addf(sb, "<span><i class=\"sw\" style=\"background:%s\"></i>", c->series[k].colour);
			strbuf_add_html(sb, c->series[k].name);
			strbuf_addstr(sb, "</span> ");
		}
		strbuf_addstr(sb, "</div>");
	}
	for (i = 0; i < c->nrows; i++) {
		const struct td_chart_row *r = &c->rows[i];
		double sum = 0;
		int missing = 0;

		strbuf_addstr(sb, "<div class=\"stackrow\"><div class=\"lbl\">");
		strbuf_add_html(sb, r->label);
		strbuf_addstr(sb, "</div><div class=\"jbar\">");
		for (k = 0; k < c->nseries; k++) {
			double v = r->values[k];

			if (!isfinite(v)) {
				missing = 1;
				continue;
			}
			sum += v;
			if (top > 0 && v > 0) {
				strbuf_addf(sb, "<i class=\"seg\" data-series=\"%s\" style=\"width:%.2f%%;background:%s\" title=\"",
					    c->series[k].id, 100 * v / top, c->series[k].colour);
				strbuf_add_html(sb, c->series[k].name);
				strbuf_addf(sb, ": %.4g\"></i>", v);
			}
		}
		strbuf_addstr(sb, "</div><div class=\"val\">");
		if (missing && sum == 0)
			strbuf_addstr(sb, "not measured");
		else if (missing)
			strbuf_addf(sb, "%.3g, partly not measured", sum);
		else
			strbuf_addf(sb, "%.3g", sum);
		strbuf_addstr(sb, "</div></div>\n");
	}
	if (c->notes.len) {
		strbuf_addstr(sb, "<p class=\"hint\">");
		strbuf_add_html(sb, c->notes.buf);
		strbuf_addstr(sb, "</p>");
	}
	strbuf_addstr(sb, "</figure>\n");
}

static void charts(struct strbuf *sb, json_t *doc)
{
	struct td_chart_list list = { 0 };
	size_t i;

	td_charts_job(doc, &list);
	if (!list.nr)
		strbuf_addstr(sb, "<p class=\"muted\">No rank has CPU time, scheduler data or Top-Down to chart.</p>\n");
	for (i = 0; i < list.nr; i++)
		css_chart(sb, list.items[i]);
	td_chart_list_release(&list);
}

int td_report_job_html(json_t *doc, const char *path, struct strbuf *err)
{
	struct td_template *t = td_template_new();
	struct strbuf sb = STRBUF_INIT;
	json_t *job = json_object_get(doc, "job");
	int by_node = td_job_chart_by_node(doc), ret = -1;

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
	td_job_regions_html(&sb, doc); /* report/regions-job.c */
	td_template_set_html(t, "regions", sb.buf);
	strbuf_reset(&sb);
	heat_map(&sb, doc, by_node);
	td_template_set_html(t, "heat", sb.buf);
	strbuf_reset(&sb);
	charts(&sb, doc);
	td_template_set_html(t, "charts", sb.buf);
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
