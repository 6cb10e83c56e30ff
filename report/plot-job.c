/*
 * Charts of a job document (analyze/job.c, docs/report-schema.md "Jobs"),
 * one bar per rank (per node past TD_JOB_CHART_MAX_RANKS ranks, each the
 * mean of the node's ranks, as the heat map of the job page does):
 *
 *   job-sched     where each rank's threads spent their time (seconds),
 *                 the components of the thread analysis stacked, in the
 *                 colours of every other thread chart (td_thread_colour);
 *   job-topdown   each rank's Top-Down Level 1, stacked to 100 %;
 *   job-cpu       each rank's CPU time (task-clock), the outlier rule's
 *                 input.
 *
 * A chart is made only when some rank has its values.  A value a rank
 * lacks is NAN in its row (the chart notes it), never 0.  The job page
 * draws the same charts as CSS bars (report/job-html.c) and
 * 'tdperf report JOB --plot DIR' writes them with gnuplot.
 */
#include "config.h"
#include "report/render.h"
#include "report/chart.h"
#include "analyze/compare.h"

#include <math.h>
#include <string.h>

/* The Level-1 nodes, bottom to top as every Top-Down chart stacks them. */
static const struct {
	const char *id, *name;
} level1[] = {
	{ "retiring", "Retiring" },
	{ "bad_speculation", "Bad Speculation" },
	{ "frontend_bound", "Frontend Bound" },
	{ "backend_bound", "Backend Bound" },
};

int td_job_chart_by_node(json_t *doc)
{
	return json_array_size(json_object_get(doc, "ranks")) > TD_JOB_CHART_MAX_RANKS;
}

/* The rows of a job chart: ranks, or nodes with their means. */
static json_t *chart_rows(json_t *doc)
{
	return json_object_get(doc, td_job_chart_by_node(doc) ? "nodes" : "ranks");
}

/* Metric 'id' of a row: a rank's own value or a node's mean. */
static double row_value(json_t *doc, json_t *row, const char *id)
{
	if (td_job_chart_by_node(doc))
		return td_json_num(json_object_get(json_object_get(row, "means"), id));
	return td_job_rank_value(row, id);
}

static struct td_chart_row *add_row(json_t *doc, struct td_chart *c, json_t *row)
{
	struct strbuf label = STRBUF_INIT;
	struct td_chart_row *r;

	if (td_job_chart_by_node(doc))
		strbuf_addstr(&label, td_json_str_or(row, "host", "?"));
	else
		strbuf_addf(&label, "rank %lld", (long long)json_integer_value(json_object_get(row, "rank")));
	r = td_chart_add_row(c, label.buf);
	strbuf_release(&label);
	return r;
}

/* Add a note naming the rows that lack a value, once per chart. */
static void note_missing(struct td_chart *c, const char *what)
{
	size_t i, k, missing = 0;

	for (i = 0; i < c->nrows; i++)
		for (k = 0; k < c->nseries; k++)
			if (isnan(c->rows[i].values[k])) {
				missing++;
				break;
			}
	if (missing)
		strbuf_addf(&c->notes, "%zu of %zu bars lack %s: not measured there, not drawn as 0\n",
			    missing, c->nrows, what);
}

/*
 * One bar per rank, one segment per series of c: the rank's value of
 * "PREFIX.SERIES" (sched.running, topdown.retiring).  NULL (c freed) when
 * no rank has any; bars that lack a segment are noted (what: why).
 */
static struct td_chart *fill_by_series(json_t *doc, struct td_chart *c, const char *prefix,
				       const char *what)
{
	struct strbuf id = STRBUF_INIT;
	json_t *row;
	size_t i, k;
	int any = 0;

	json_array_foreach(chart_rows(doc), i, row) {
		struct td_chart_row *r = add_row(doc, c, row);

		for (k = 0; k < c->nseries; k++) {
			strbuf_reset(&id);
			strbuf_addf(&id, "%s.%s", prefix, c->series[k].id);
			r->values[k] = row_value(doc, row, id.buf);
			any |= !isnan(r->values[k]);
		}
	}
	strbuf_release(&id);
	if (!any) {
		td_chart_free(c);
		return NULL;
	}
	note_missing(c, what);
	return c;
}

static struct td_chart *sched_chart(json_t *doc)
{
	struct td_chart *c;
	int k;

	c = td_chart_new("job-sched", "Where each rank's threads spent their time", TD_CHART_STACKED);
	c->ylabel = xstrdup("seconds (summed over the rank's threads)");
	c->ymin = 0;
	c->ymax = NAN;
	for (k = 0; k < td_thread_nr_components(); k++)
		td_chart_add_series(c, td_thread_component_id(k), td_thread_component_name(td_thread_component_id(k)),
				    td_thread_colour(td_thread_component_id(k)));
	return fill_by_series(doc, c, "sched", "a thread component (scheduler data not recorded: --threads)");
}

static struct td_chart *topdown_chart(json_t *doc)
{
	struct td_chart *c;
	size_t k;

	c = td_chart_new("job-topdown", "Top-Down Level 1 of each rank", TD_CHART_STACKED);
	c->ylabel = xstrdup("share of pipeline slots");
	c->ymin = 0;
	c->ymax = 1;
	for (k = 0; k < TD_ARRAY_SIZE(level1); k++)
		td_chart_add_series(c, level1[k].id, level1[k].name, td_component_colour(level1[k].id, NULL, 1, 0));
	return fill_by_series(doc, c, "topdown", "a Level-1 node (no hardware PMU, or not measured)");
}

static struct td_chart *cpu_chart(json_t *doc)
{
	struct td_chart *c = td_chart_new("job-cpu", "CPU time of each rank", TD_CHART_STACKED);
	json_t *row;
	size_t i;
	int any = 0;

	c->ylabel = xstrdup("CPU seconds (task-clock)");
	c->ymin = 0;
	c->ymax = NAN;
	td_chart_add_series(c, "cpu_s", "CPU time", "#1f4f99");
	json_array_foreach(chart_rows(doc), i, row) {
		struct td_chart_row *r = add_row(doc, c, row);

		r->values[0] = row_value(doc, row, "cpu_s");
		any |= !isnan(r->values[0]);
	}
	if (!any) {
		td_chart_free(c);
		return NULL;
	}
	note_missing(c, "CPU time");
	return c;
}

void td_charts_job(json_t *doc, struct td_chart_list *out)
{
	struct td_chart *c;

	if ((c = cpu_chart(doc)))
		td_chart_list_add(out, c);
	if ((c = sched_chart(doc)))
		td_chart_list_add(out, c);
	if ((c = topdown_chart(doc)))
		td_chart_list_add(out, c);
}

int td_report_job_plot(json_t *doc, const char *dir, const char *format, struct strbuf *err)
{
	struct td_chart_list list = { 0 };
	int ret;

	td_charts_job(doc, &list);
	if (!list.nr) {
		strbuf_addstr(err, "--plot: the job's ranks have no CPU time, scheduler data or Top-Down to chart");
		return -1;
	}
	ret = td_charts_plot(&list, dir, format, err);
	if (ret > 0) { /* no gnuplot: the data and scripts are there */
		warning("%s", err->buf);
		strbuf_reset(err);
		ret = 0;
	}
	td_chart_list_release(&list);
	return ret;
}
