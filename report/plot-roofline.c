/*
 * The roofline chart: a log-log gnuplot plot of the document's "roofline"
 * object.  Lines: one roof per memory level (min(beta * I, highest peak))
 * and every calibrated compute peak; points: the run at each level's
 * intensity (same performance, one point per level, as in the
 * hierarchical roofline) and the intervals, small; the roofs of Cabezas and Püschel 2014
 * (utilization, stalls) as dashed segments at the run's point; the binding
 * roof named in the title and next to the point.
 */
#include "config.h"
#include "report/render.h"
#include "report/chart.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ROOFLINE_HEIGHT 640

static const char *const level_colour[] = { "#1f77b4", "#2ca02c", "#ff7f0e", "#d62728" };

/* The run's point: the first non-interval point with a performance. */
static json_t *main_point(json_t *points)
{
	json_t *p;
	size_t i;

	json_array_foreach(points, i, p)
		if (!json_is_true(json_object_get(p, "interval")) && td_json_num(json_object_get(p, "gflops")) > 0)
			return p;
	return NULL;
}

int td_roofline_script(json_t *doc, struct strbuf *gp, struct strbuf *notes)
{
	json_t *rl = json_object_get(doc, "roofline"), *peaks = json_object_get(rl, "peaks");
	json_t *roofs = json_object_get(peaks, "roofs"), *points = json_object_get(rl, "points");
	json_t *run, *x, *p, *b;
	double top = 0, xmin = 0.01, xmax = 100, ymin = INFINITY, ymax = 0, P;
	size_t i, n_plot = 0;
	const char *binding_label = NULL;
	struct strbuf plot = STRBUF_INIT, text = STRBUF_INIT;

	if (!json_is_array(roofs) || !json_array_size(roofs))
		return -1;
	json_array_foreach(roofs, i, x)
		if (!strcmp(td_json_str(x, "kind"), "compute"))
			top = fmax(top, td_json_num(json_object_get(x, "value")));
	if (!(top > 0))
		return -1;
	ymax = top * 3;
	run = main_point(points);
	/* ranges around every point */
	json_array_foreach(points, i, p) {
		double g = td_json_num(json_object_get(p, "gflops"));
		json_t *inten = json_object_get(p, "intensity");
		const char *lv;
		json_t *v;
		if (!(g > 0))
			continue;
		ymin = fmin(ymin, g);
		json_object_foreach(inten, lv, v) {
			double I = td_json_num(v);
			if (I > 0) {
				xmin = fmin(xmin, I / 4);
				xmax = fmax(xmax, I * 4);
			}
		}
	}
	if (!isfinite(ymin))
		ymin = top;
	ymin = fmin(ymin / 4, top / 1000);

	strbuf_addstr(gp, "# tdperf roofline chart (report/plot-roofline.c)\n"
		      "if (!exists(\"fmt\")) fmt = \"svg\"\n");
	/* as wide as the HTML card, like the other charts (report/chart.h) */
	strbuf_addf(gp, "if (fmt eq \"png\") { set terminal pngcairo size %d,%d noenhanced font \"sans,10\" } "
		    "else { set terminal svg size %d,%d dynamic noenhanced font \"sans,12\" background \"#ffffff\" }\n",
		    TD_CHART_CARD_WIDTH, ROOFLINE_HEIGHT, TD_CHART_CARD_WIDTH, ROOFLINE_HEIGHT);
	strbuf_addstr(gp, "if (!exists(\"to_stdout\")) set output \"roofline.\" . fmt\n"
		      "set logscale xy\n"
		      "set grid xtics ytics mxtics mytics lc rgb \"#dddddd\"\n"
		      "set key outside right top box\n"
		      "set xlabel \"Operational intensity (FLOP/byte)\"\n"
		      "set ylabel \"Performance (GFLOP/s)\"\n");
	strbuf_addf(gp, "set xrange [%g:%g]\nset yrange [%g:%g]\nset samples 400\n", xmin, xmax, ymin, ymax);

	if (run) {
		b = json_object_get(run, "binding");
		binding_label = td_json_str(b, "label");
	}
	strbuf_addstr(&text, "Roofline");
	if (binding_label)
		strbuf_addf(&text, ": bound by %s (%.3g GFLOP/s attainable, run at %.3g)", binding_label,
			    td_json_num(json_object_get(b, "bound")), td_json_num(json_object_get(run, "gflops")));
	strbuf_addstr(gp, "set title ");
	td_gp_string(gp, text.buf);
	strbuf_addstr(gp, "\n");

	/* memory roofs up to the highest peak, each level in its colour */
	json_array_foreach(roofs, i, x) {
		const char *lv = td_json_str(x, "level");
		double beta = td_json_num(json_object_get(x, "value"));
		int l;
		if (strcmp(td_json_str(x, "kind"), "memory") || !(beta > 0) || !lv)
			continue;
		for (l = 0; l < td_roofline_nr_levels() && strcmp(td_roofline_level_name(l), lv); l++)
			;
		if (l == td_roofline_nr_levels())
			continue;
		strbuf_addf(&plot, "%s(%g * x < %g ? %g * x : 1/0) with lines lw 2 lc rgb \"%s\" title \"%s bandwidth %.3g GB/s\"",
			    n_plot++ ? ", \\\n     " : "plot ", beta, top, beta, level_colour[l], lv, beta);
	}
	/* compute peaks: horizontal lines, the highest solid */
	json_array_foreach(roofs, i, x) {
		double v = td_json_num(json_object_get(x, "value"));
		if (strcmp(td_json_str(x, "kind"), "compute") || !(v > 0))
			continue;
		strbuf_addf(&plot, "%s%g with lines lw %d dt %d lc rgb \"#444444\" title ",
			    n_plot++ ? ", \\\n     " : "plot ", v, v == top ? 2 : 1, v == top ? 1 : 3);
		strbuf_reset(&text);
		strbuf_addf(&text, "%s %.3g GFLOP/s", td_json_str(x, "label") ? td_json_str(x, "label") : "", v);
		td_gp_string(&plot, text.buf);
	}

	/* the run's own compute roof (its mix of precisions and widths) */
	json_array_foreach(run ? json_object_get(run, "bounds") : NULL, i, x) {
		double v = td_json_num(json_object_get(x, "bound"));
		if (strcmp(td_json_str(x, "id"), "fp_mix") || !(v > 0))
			continue;
		strbuf_addf(&plot, "%s%g with lines lw 2 dt 4 lc rgb \"#000000\" title \"compute roof at the run's mix %.3g GFLOP/s\"",
			    n_plot++ ? ", \\\n     " : "plot ", v, v);
	}

	/* the run: one point per level, same performance */
	if (run) {
		json_t *inten = json_object_get(run, "intensity");
		P = td_json_num(json_object_get(run, "gflops"));
		strbuf_addstr(gp, "$run << EOD\n");
		for (int l = 0; l < td_roofline_nr_levels(); l++) {
			double I = td_json_num(json_object_get(inten, td_roofline_level_name(l)));
			if (I > 0)
				strbuf_addf(gp, "%g %g %s %d\n", I, P, td_roofline_level_name(l), l);
		}
		strbuf_addstr(gp, "EOD\n");
		strbuf_addf(&plot, "%s$run using 1:2:($4 == 0 ? 0x1f77b4 : $4 == 1 ? 0x2ca02c : $4 == 2 ? 0xff7f0e : 0xd62728) "
			    "with points pt 7 ps 1.6 lc rgb variable title \"run at each level's intensity\", \\\n"
			    "     $run using 1:2:3 with labels offset 0,1.2 notitle",
			    n_plot++ ? ", \\\n     " : "plot ");
		/* Cabezas and Püschel 2014 roofs at the point, dashed */
		json_array_foreach(json_object_get(run, "bounds"), i, x) {
			const char *kind = td_json_str(x, "kind");
			double v = td_json_num(json_object_get(x, "bound"));
			double I = td_json_num(json_object_get(inten, "DRAM"));
			if (!(v > 0) || (strcmp(kind, "stall") && strcmp(kind, "utilization")))
				continue;
			if (!(I > 0))
				I = sqrt(xmin * xmax);
			strbuf_addf(gp, "set arrow from %g,%g to %g,%g nohead dt 2 lw 1.5 lc rgb \"%s\"\n",
				    I / 3, v, I * 3, v,
				    json_is_true(json_object_get(x, "violated")) ? "#bbbbbb" : "#9467bd");
			strbuf_reset(&text);
			strbuf_addf(&text, "%s%s", td_json_str(x, "id") ? td_json_str(x, "id") : "",
				    json_is_true(json_object_get(x, "violated")) ? " (violated)" : "");
			strbuf_addstr(gp, "set label ");
			td_gp_string(gp, text.buf);
			strbuf_addf(gp, " at %g,%g left offset 0.5,0.4 font \",9\" tc rgb \"#9467bd\"\n", I * 3, v);
		}
		if (binding_label) {
			strbuf_reset(&text);
			strbuf_addf(&text, "binding: %s", binding_label);
			strbuf_addstr(gp, "set label ");
			td_gp_string(gp, text.buf);
			strbuf_addstr(gp, " at graph 0.02, graph 0.95 font \",11\"\n");
		}
	}
	/* intervals: small points at each level's intensity */
	{
		int any = 0;
		json_array_foreach(points, i, p) {
			json_t *inten = json_object_get(p, "intensity");
			double g = td_json_num(json_object_get(p, "gflops"));
			if (!json_is_true(json_object_get(p, "interval")) || !(g > 0))
				continue;
			if (!any++)
				strbuf_addstr(gp, "$intervals << EOD\n");
			for (int l = 0; l < td_roofline_nr_levels(); l++) {
				double I = td_json_num(json_object_get(inten, td_roofline_level_name(l)));
				if (I > 0)
					strbuf_addf(gp, "%g %g %d\n", I, g, l);
			}
		}
		if (any) {
			strbuf_addstr(gp, "EOD\n");
			strbuf_addf(&plot, "%s$intervals using 1:2:($3 == 0 ? 0x1f77b4 : $3 == 1 ? 0x2ca02c : $3 == 2 ? 0xff7f0e : 0xd62728) "
				    "with points pt 6 ps 0.8 lc rgb variable title \"intervals (%d)\"",
				    n_plot++ ? ", \\\n     " : "plot ", any);
		}
	}
	strbuf_addstr(gp, plot.buf);
	strbuf_addstr(gp, "\n");
	if (notes && run) {
		json_array_foreach(json_object_get(run, "notes"), i, x)
			strbuf_addf(notes, "%s\n", json_string_value(x));
	}
	strbuf_release(&plot);
	strbuf_release(&text);
	return 0;
}

struct td_chart *td_chart_roofline(json_t *doc)
{
	struct strbuf gp = STRBUF_INIT;
	struct td_chart *c;

	if (td_roofline_script(doc, &gp, NULL) < 0) {
		strbuf_release(&gp);
		return NULL;
	}
	c = td_chart_new("roofline", "Roofline", TD_CHART_STACKED);
	c->script = strbuf_detach(&gp, NULL);
	return c;
}

int td_report_plot_roofline(json_t *doc, const char *dir, const char *format, struct strbuf *err)
{
	struct td_chart_list list = { 0 };
	struct td_chart *c = td_chart_roofline(doc);
	int ret;

	if (!c) {
		strbuf_addstr(err, "no roofline to draw: no calibrated roofs in the document");
		return 1;
	}
	td_chart_list_add(&list, c);
	ret = td_charts_plot(&list, dir, format ? format : "svg", err);
	td_chart_list_release(&list);
	return ret;
}
