/*
 * Charts of the thread analysis (Heirman et al. 2011), from the report document's
 * "threads" and "sweep" objects (docs/report-schema.md):
 *
 *   threads         one stacked bar per thread: its time in the region as
 *                   running, runnable, sync, I/O, sleep, unknown, imbalance
 *                   (or "thread-groups", a bar per thread name, when there
 *                   are too many threads for one bar each);
 *   sweep-stacks    a sweep: the aggregated threads' time per parameter
 *                   value, each bar 100 %;
 *   sweep-time      the same in summed thread time, normalized to the
 *                   baseline run (1 = the smallest run's thread time), so a
 *                   component that grows with the thread count stands out;
 *   sweep-speedup   speedup per value against ideal scaling.
 *
 * The component colours are fixed (td_thread_colour), like the Top-Down
 * palette, so "sync" is the same purple in every chart and in the HTML bars.
 */
#include "config.h"
#include "report/render.h"
#include "report/chart.h"

#include <math.h>
#include <string.h>

/* Past this many threads the chart shows one bar per thread name. */
#define MAX_THREAD_BARS 32

/*
 * Chart name and colour of each component, by the id the document gives
 * it; the order of the series is the document's (td_thread_component_id).
 */
static const struct {
	const char *id, *name, *colour;
} thread_components[] = {
	{ "running", "running", "#2f9e5a" },
	{ "runnable", "runnable (waiting for a CPU)", "#e8a23b" },
	{ "sync", "sync (waiting for another thread)", "#8a63d2" },
	{ "io", "I/O (uninterruptible)", "#b5651d" },
	{ "sleep", "sleep (timer, other process)", "#7a9cc6" },
	{ "unknown", "unknown", "#b0b0b0" },
	{ "imbalance", "imbalance (not started / ended)", "#e4e4e4" },
};

/* The entry of component id, or -1. */
static int component_entry(const char *id)
{
	size_t c;

	for (c = 0; id && c < TD_ARRAY_SIZE(thread_components); c++)
		if (!strcmp(thread_components[c].id, id))
			return (int)c;
	return -1;
}

const char *td_thread_colour(const char *id)
{
	int c = component_entry(id);

	return c >= 0 ? thread_components[c].colour : "#888888";
}

const char *td_thread_component_name(const char *id)
{
	int c = component_entry(id);

	return c >= 0 ? thread_components[c].name : id;
}

static void add_component_series(struct td_chart *c)
{
	int k;

	for (k = 0; k < td_thread_nr_components(); k++) {
		const char *id = td_thread_component_id(k);
		int e = component_entry(id);

		td_chart_add_series(c, id, e >= 0 ? thread_components[e].name : id, td_thread_colour(id));
	}
}

/* Fill a row from an object of component values, each x 'scale'. */
static void fill_components(struct td_chart_row *r, json_t *values, double scale)
{
	int k;

	for (k = 0; k < td_thread_nr_components(); k++)
		r->values[k] = td_json_num(json_object_get(values, td_thread_component_id(k))) * scale;
}

static void chart_note(struct td_chart *c, const char *fmt, const char *a)
{
	strbuf_addf(&c->notes, fmt, a);
	strbuf_addch(&c->notes, '\n');
}

static struct td_chart *threads_chart(json_t *threads)
{
	json_t *list = json_object_get(threads, "threads"), *groups = json_object_get(threads, "groups");
	json_t *t;
	struct td_chart *c;
	size_t i;
	int by_group = json_array_size(list) > MAX_THREAD_BARS;

	if (!json_array_size(by_group ? groups : list))
		return NULL;
	c = td_chart_new(by_group ? "thread-groups" : "threads",
			 by_group ? "Time of the threads, by thread name" : "Time of each thread",
			 TD_CHART_STACKED);
	c->ylabel = xstrdup("% of the region");
	c->ymin = 0;
	c->ymax = 100;
	add_component_series(c);
	json_array_foreach(by_group ? groups : list, i, t) {
		struct strbuf label = STRBUF_INIT;
		const char *name = td_json_str_or(t, "name", "?");

		if (by_group)
			strbuf_addf(&label, "%s (%d)", name, td_json_int(json_object_get(t, "threads"), 0));
		else
			strbuf_addf(&label, "%s %d%s", name, td_json_int(json_object_get(t, "tid"), 0),
				    json_is_true(json_object_get(t, "excluded")) ? " *" : "");
		fill_components(td_chart_add_row(c, label.buf), json_object_get(t, "fractions"), 100.0);
		strbuf_release(&label);
	}
	if (!by_group) {
		json_array_foreach(list, i, t)
			if (json_is_true(json_object_get(t, "excluded"))) {
				chart_note(c, "%s", "*: more than half of the thread's time in sync: shown, but left out of "
				     "the aggregate (as in Heirman et al. 2011)");
				break;
			}
	} else {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%zu threads: one bar per thread name (the name's threads summed)",
			    json_array_size(list));
		chart_note(c, "%s", sb.buf);
		strbuf_release(&sb);
	}
	if (td_json_str(threads, "oncpu_reason"))
		chart_note(c, "%s", td_json_str(threads, "oncpu_reason"));
	return c;
}

static void sweep_charts(json_t *sweep, struct td_chart_list *out)
{
	json_t *runs = json_object_get(sweep, "runs"), *r;
	const char *param = td_json_str_or(sweep, "parameter", "value");
	double baseline = td_json_num(json_object_get(sweep, "baseline"));
	struct td_chart *stacks, *time, *speed;
	struct strbuf label = STRBUF_INIT, title = STRBUF_INIT;
	size_t i, analysed = 0;

	json_array_foreach(runs, i, r)
		if (json_is_true(json_object_get(r, "analysed")))
			analysed++;
	if (!analysed)
		return;
	strbuf_addf(&title, "Threads' time per %s (100 %% each)", param);
	stacks = td_chart_new("sweep-stacks", title.buf, TD_CHART_STACKED);
	stacks->ylabel = xstrdup("% of the aggregated threads' time");
	stacks->ymin = 0;
	stacks->ymax = 100;
	add_component_series(stacks);
	strbuf_reset(&title);
	strbuf_addf(&title, "Thread time per %s / baseline", param);
	time = td_chart_new("sweep-time", title.buf, TD_CHART_STACKED);
	time->ylabel = xstrdup("thread time / baseline run's thread time");
	time->ymin = 0;
	add_component_series(time);
	strbuf_reset(&title);
	strbuf_addf(&title, "Speedup over %s=%g", param, baseline);
	speed = td_chart_new("sweep-speedup", title.buf, TD_CHART_LINE);
	speed->xlabel = xstrdup(param);
	speed->ylabel = xstrdup("speedup (baseline elapsed / elapsed)");
	speed->ymin = 0;
	td_chart_add_series(speed, "speedup", "measured", "#3578d4");
	td_chart_add_series(speed, "ideal", "ideal (linear in the value)", "#999999");
	speed->series[1].dashed = 1;
	json_array_foreach(runs, i, r) {
		double v = td_json_num(json_object_get(r, "value"));
		struct td_chart_row *row;

		strbuf_reset(&label);
		strbuf_addf(&label, "%s=%g", param, v);
		if (!json_is_true(json_object_get(r, "analysed"))) {
			strbuf_addf(&stacks->notes, "%s: not analysed: %s\n", label.buf,
				    td_json_str_or(r, "reason", "no sched events"));
			continue;
		}
		fill_components(td_chart_add_row(stacks, label.buf), json_object_get(r, "fractions"), 100.0);
		fill_components(td_chart_add_row(time, label.buf), json_object_get(r, "normalized"), 1.0);
		row = td_chart_add_row(speed, label.buf);
		row->x = v;
		row->values[0] = td_json_num(json_object_get(r, "speedup"));
		row->values[1] = baseline > 0 ? v / baseline : NAN;
	}
	if (td_json_str(json_object_get(sweep, "growing"), "sentence"))
		chart_note(time, "%s", td_json_str(json_object_get(sweep, "growing"), "sentence"));
	td_chart_list_add(out, stacks);
	td_chart_list_add(out, time);
	if (speed->nrows >= 2)
		td_chart_list_add(out, speed);
	else
		td_chart_free(speed);
	strbuf_release(&label);
	strbuf_release(&title);
}

void td_charts_threads(json_t *doc, struct td_chart_list *out)
{
	json_t *threads = json_object_get(doc, "threads"), *sweep = json_object_get(doc, "sweep");
	struct td_chart *c;

	if (json_is_object(threads) && (c = threads_chart(threads)))
		td_chart_list_add(out, c);
	if (json_is_object(sweep))
		sweep_charts(sweep, out);
}
