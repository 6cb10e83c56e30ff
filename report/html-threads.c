/*
 * HTML sections of the thread analysis, the scaling sweep and the roofline:
 * what each found in a sentence, the gnuplot charts (report/plot-threads.c,
 * report/plot-roofline.c) inline, and tables with the numbers behind them.
 * The per-thread and per-value bars are also drawn in CSS, so the section
 * reads without gnuplot.  Every string from the run (thread names, the
 * command) is escaped.
 */
#include "config.h"
#include "report/render.h"
#include "report/html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void pct_cell(struct strbuf *sb, double frac)
{
	strbuf_addstr(sb, "<td class=\"num\">");
	td_html_pct(sb, frac);
	strbuf_addstr(sb, "</td>");
}

static void num_cell(struct strbuf *sb, const char *fmt, double v)
{
	strbuf_addstr(sb, "<td class=\"num\">");
	if (isnan(v))
		strbuf_addstr(sb, "n/a");
	else
		strbuf_addf(sb, fmt, v);
	strbuf_addstr(sb, "</td>");
}

static void text_cell(struct strbuf *sb, const char *s)
{
	strbuf_addstr(sb, "<td>");
	strbuf_add_html(sb, s ? s : "");
	strbuf_addstr(sb, "</td>");
}

static const struct td_chart *find_chart(const struct td_html_charts *hc, const char *stem)
{
	size_t i;

	for (i = 0; i < hc->list.nr; i++)
		if (!strcmp(hc->list.items[i]->stem, stem))
			return hc->list.items[i];
	return NULL;
}

static void component_header(struct strbuf *sb, json_t *components)
{
	json_t *c;
	size_t i;

	json_array_foreach(components, i, c) {
		const char *id = td_json_str(c, "id");

		strbuf_addf(sb, "<th class=\"num\" title=\"");
		strbuf_add_html(sb, td_json_str_or(c, "description", id ? id : ""));
		strbuf_addf(sb, "\"><i class=\"sw\" style=\"background:%s\"></i>", td_thread_colour(id));
		strbuf_add_html(sb, id ? id : "?");
		strbuf_addstr(sb, "</th>");
	}
}

static void component_cells(struct strbuf *sb, json_t *components, json_t *fractions)
{
	json_t *c;
	size_t i;

	json_array_foreach(components, i, c)
		pct_cell(sb, td_json_num(json_object_get(fractions, td_json_str_or(c, "id", ""))));
}

static void notes_list(struct strbuf *sb, json_t *notes)
{
	json_t *n;
	size_t i;

	if (!json_array_size(notes))
		return;
	strbuf_addstr(sb, "<ul class=\"notes\">");
	json_array_foreach(notes, i, n) {
		strbuf_addstr(sb, "<li>");
		strbuf_add_html(sb, json_string_value(n) ? json_string_value(n) : "");
		strbuf_addstr(sb, "</li>");
	}
	strbuf_addstr(sb, "</ul>");
}

static void threads_part(struct strbuf *sb, json_t *threads, const struct td_html_charts *hc)
{
	json_t *components = json_object_get(threads, "components");
	json_t *list = json_object_get(threads, "threads"), *groups = json_object_get(threads, "groups");
	json_t *agg = json_object_get(threads, "aggregate"), *t;
	const struct td_chart *bars = find_chart(hc, "threads");
	size_t i;

	strbuf_addstr(sb, "<div class=\"verdict none\"><div class=\"sentence\">");
	strbuf_add_html(sb, td_json_str_or(agg, "sentence", "no thread was aggregated"));
	strbuf_addstr(sb, "</div></div>");
	if (td_json_str(threads, "run")) {
		strbuf_addstr(sb, "<p class=\"muted\">Per-thread detail of the run <code>");
		strbuf_add_html(sb, td_json_str(threads, "run"));
		strbuf_addstr(sb, "</code>.</p>");
	}
	if (json_is_integer(json_object_get(threads, "recorded_run")))
		strbuf_addf(sb, "<p class=\"muted recorded-run\">From run %lld of %lld: the scheduler was recorded "
			    "in that run only.</p>", (long long)json_integer_value(json_object_get(threads, "recorded_run")),
			    (long long)json_integer_value(json_object_get(threads, "runs")));
	if (!td_html_figure(sb, hc, "threads"))
		td_html_figure(sb, hc, "thread-groups");

	strbuf_addf(sb, "<h3>Threads (%zu)</h3><div class=\"tablewrap\"><table class=\"data threads\"><thead><tr>"
		    "<th>Thread</th><th class=\"num\">TID</th><th class=\"num\">Life (ms)</th>"
		    "<th class=\"num\">Switch-ins</th><th>Time in the region</th>", json_array_size(list));
	component_header(sb, components);
	strbuf_addstr(sb, "</tr></thead><tbody>");
	json_array_foreach(list, i, t) {

		strbuf_addf(sb, "<tr%s>", json_is_true(json_object_get(t, "excluded")) ? " class=\"excluded\"" : "");
		strbuf_addstr(sb, "<td>");
		strbuf_add_html(sb, td_json_str_or(t, "name", "?"));
		if (json_is_true(json_object_get(t, "excluded")))
			strbuf_addf(sb, " <span class=\"badge\" title=\"more than half of its time in sync: "
				    "left out of the aggregate, as in Heirman et al. 2011\">excluded, %.0f%% sync</span>",
				    100 * td_json_num(json_object_get(t, "sync_fraction")));
		strbuf_addstr(sb, "</td>");
		num_cell(sb, "%.0f", td_json_num(json_object_get(t, "tid")));
		num_cell(sb, "%.2f", 1000 * (td_json_num(json_object_get(t, "end")) -
					     td_json_num(json_object_get(t, "start"))));
		num_cell(sb, "%.0f", td_json_num(json_object_get(t, "switch_ins")));
		strbuf_addstr(sb, "<td class=\"barcell\">");
		if (bars && i < bars->nrows) /* its rows follow the document's threads */
			td_html_stackbar(sb, bars, i, 1.0, "small");
		strbuf_addstr(sb, "</td>");
		component_cells(sb, components, json_object_get(t, "fractions"));
		strbuf_addstr(sb, "</tr>");
	}
	strbuf_addstr(sb, "</tbody></table></div>");

	strbuf_addstr(sb, "<h3>By thread name</h3><div class=\"tablewrap\"><table class=\"data\"><thead><tr>"
		      "<th>Name</th><th class=\"num\">Threads</th><th class=\"num\">Excluded</th>");
	component_header(sb, components);
	strbuf_addstr(sb, "</tr></thead><tbody>");
	json_array_foreach(groups, i, t) {
		strbuf_addstr(sb, "<tr>");
		text_cell(sb, td_json_str(t, "name"));
		num_cell(sb, "%.0f", td_json_num(json_object_get(t, "threads")));
		num_cell(sb, "%.0f", td_json_num(json_object_get(t, "excluded")));
		component_cells(sb, components, json_object_get(t, "fractions"));
		strbuf_addstr(sb, "</tr>");
	}
	strbuf_addf(sb, "<tr class=\"total\"><td><b>aggregate</b></td>");
	num_cell(sb, "%.0f", td_json_num(json_object_get(agg, "threads")));
	strbuf_addstr(sb, "<td></td>");
	component_cells(sb, components, json_object_get(agg, "fractions"));
	strbuf_addstr(sb, "</tr></tbody></table></div>");
	notes_list(sb, json_object_get(threads, "notes"));
}

static void sweep_part(struct strbuf *sb, json_t *sweep, const struct td_html_charts *hc)
{
	json_t *runs = json_object_get(sweep, "runs"), *r;
	const char *param = td_json_str_or(sweep, "parameter", "value");
	const struct td_chart *bars = find_chart(hc, "sweep-stacks");
	size_t i, row = 0;

	strbuf_addstr(sb, "<h3>Scaling: ");
	strbuf_add_html(sb, param);
	strbuf_addstr(sb, "</h3>");
	if (td_json_str(json_object_get(sweep, "growing"), "sentence")) {
		strbuf_addstr(sb, "<div class=\"verdict none\"><div class=\"sentence\">");
		strbuf_add_html(sb, td_json_str(json_object_get(sweep, "growing"), "sentence"));
		strbuf_addstr(sb, "</div></div>");
	}
	strbuf_addstr(sb, "<div class=\"tablewrap\"><table class=\"data\"><thead><tr><th>");
	strbuf_add_html(sb, param);
	strbuf_addstr(sb, "</th><th class=\"num\">Elapsed (s)</th><th class=\"num\">Speedup</th>"
		      "<th class=\"num\">Efficiency</th><th class=\"num\">Aggregated threads</th>"
		      "<th class=\"num\">Thread time / baseline</th><th>Dominant</th><th>Time of the threads</th>"
		      "</tr></thead><tbody>");
	json_array_foreach(runs, i, r) {
		int analysed = json_is_true(json_object_get(r, "analysed"));

		strbuf_addstr(sb, "<tr>");
		num_cell(sb, "%g", td_json_num(json_object_get(r, "value")));
		if (!analysed) {
			strbuf_addstr(sb, "<td colspan=\"7\" class=\"muted\">not analysed: ");
			strbuf_add_html(sb, td_json_str_or(r, "reason", "no sched events"));
			strbuf_addstr(sb, "</td></tr>");
			continue;
		}
		num_cell(sb, "%.4f", td_json_num(json_object_get(r, "elapsed")));
		num_cell(sb, "%.2f", td_json_num(json_object_get(r, "speedup")));
		pct_cell(sb, td_json_num(json_object_get(r, "efficiency")));
		num_cell(sb, "%.0f", td_json_num(json_object_get(r, "aggregated_threads")));
		{
			json_t *norm = json_object_get(r, "normalized"), *v;
			const char *k;
			double sum = 0;

			json_object_foreach(norm, k, v)
				sum += td_json_num(v);
			num_cell(sb, "%.2f", json_object_size(norm) ? sum : NAN);
		}
		text_cell(sb, td_json_str(r, "dominant"));
		strbuf_addstr(sb, "<td class=\"barcell\">");
		if (bars && row < bars->nrows)
			td_html_stackbar(sb, bars, row, 1.0, "small");
		row++;
		strbuf_addstr(sb, "</td></tr>");
	}
	strbuf_addstr(sb, "</tbody></table></div>");
	td_html_figure(sb, hc, "sweep-speedup");
	td_html_figure(sb, hc, "sweep-stacks");
	td_html_figure(sb, hc, "sweep-time");
	notes_list(sb, json_object_get(sweep, "notes"));
}

void td_html_threads(struct strbuf *sb, json_t *doc, const struct td_html_charts *hc)
{
	json_t *threads = json_object_get(doc, "threads"), *sweep = json_object_get(doc, "sweep");

	if (json_is_object(sweep))
		sweep_part(sb, sweep, hc);
	if (json_is_object(threads))
		threads_part(sb, threads, hc);
}

/* ---- roofline ---- */

/* The roofline SVG, drawn by gnuplot (td_charts_draw()); NULL with 'why' set when none. */
static char *roofline_svg(json_t *doc, struct strbuf *why)
{
	struct td_chart_list list = { 0 };
	struct td_chart *c = td_chart_roofline(doc);
	struct strbuf svg = STRBUF_INIT, out = STRBUF_INIT;
	char *ret = NULL;

	if (!c) {
		strbuf_addstr(why, "no roofline to draw: no calibrated roofs in the document");
		return NULL;
	}
	td_chart_list_add(&list, c);
	if (td_charts_draw(&list, "svg", &svg, why) == 0) {
		td_svg_inline(&out, svg.buf, "roofline");
		if (out.len)
			ret = strbuf_detach(&out, NULL);
	}
	td_chart_list_release(&list);
	strbuf_release(&svg);
	strbuf_release(&out);
	return ret;
}

void td_html_roofline(struct strbuf *sb, json_t *doc)
{
	json_t *rl = json_object_get(doc, "roofline"), *points, *p;
	struct strbuf why = STRBUF_INIT;
	char *svg;
	size_t i, placed = 0;

	if (!json_is_object(rl))
		return;
	points = json_object_get(rl, "points");
	strbuf_addstr(sb, "<h3>Roofline</h3>");
	json_array_foreach(points, i, p)
		placed += !isnan(td_json_num(json_object_get(p, "gflops")));
	if (!placed) {
		strbuf_addstr(sb, "<p class=\"muted\">No point to place: ");
		strbuf_add_html(sb, td_json_str_or(rl, "reason", "no FP operations were counted"));
		strbuf_addstr(sb, "</p>");
		return;
	}
	svg = roofline_svg(doc, &why);
	if (svg) {
		strbuf_addstr(sb, "<figure class=\"chart\" id=\"fig-roofline\">");
		strbuf_addstr(sb, svg);
		strbuf_addstr(sb, "<figcaption>Log-log roofline: the machine's roofs from <code>tdperf calibrate</code>, "
			      "the run and its intervals as points.</figcaption></figure>");
		free(svg);
	} else {
		strbuf_addstr(sb, "<p class=\"nocharts\">Roofline chart left out: ");
		strbuf_add_html(sb, why.buf);
		strbuf_addstr(sb, "</p>");
	}
	if (td_json_str(rl, "reason")) {
		strbuf_addstr(sb, "<p class=\"muted\">");
		strbuf_add_html(sb, td_json_str(rl, "reason"));
		strbuf_addstr(sb, "</p>");
	}
	strbuf_addstr(sb, "<div class=\"tablewrap\"><table class=\"data\"><thead><tr><th>Point</th>"
		      "<th class=\"num\">GFLOP/s</th><th class=\"num\">Attainable</th><th class=\"num\">Efficiency</th>"
		      "<th>Binding roof</th><th>Tightest bound</th><th>Notes</th></tr></thead><tbody>");
	json_array_foreach(points, i, p) {
		json_t *n;
		size_t k;

		strbuf_addstr(sb, "<tr><td>");
		strbuf_add_html(sb, td_json_str_or(p, "scope", "?"));
		if (!isnan(td_json_num(json_object_get(p, "time"))))
			strbuf_addf(sb, " @ %.3f s", td_json_num(json_object_get(p, "time")));
		if (json_is_true(json_object_get(p, "approximate")))
			strbuf_addstr(sb, " <span class=\"badge approx\">&#8776;</span>");
		strbuf_addstr(sb, "</td>");
		num_cell(sb, "%.3g", td_json_num(json_object_get(p, "gflops")));
		num_cell(sb, "%.3g", td_json_num(json_object_get(p, "attainable")));
		pct_cell(sb, td_json_num(json_object_get(p, "efficiency")));
		text_cell(sb, td_json_str(json_object_get(p, "binding"), "label"));
		text_cell(sb, td_json_str(json_object_get(p, "tightest"), "label"));
		strbuf_addstr(sb, "<td>");
		if (td_json_str(p, "reason"))
			strbuf_add_html(sb, td_json_str(p, "reason"));
		json_array_foreach(json_object_get(p, "notes"), k, n) {
			strbuf_addstr(sb, k || td_json_str(p, "reason") ? "<br>" : "");
			strbuf_add_html(sb, json_string_value(n) ? json_string_value(n) : "");
		}
		strbuf_addstr(sb, "</td></tr>");
	}
	strbuf_addstr(sb, "</tbody></table></div>");
	strbuf_release(&why);
}
