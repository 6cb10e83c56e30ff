/*
 * Pieces shared by the HTML report and the HTML diff: numbers, CSS stacked
 * bars, warnings, and the gnuplot charts rendered to SVG and inlined.
 * Every string that comes from the document is escaped here.
 */
#include "config.h"
#include "report/render.h"
#include "report/html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void td_html_pct(struct strbuf *sb, double frac)
{
	if (isnan(frac))
		strbuf_addstr(sb, "n/a");
	else
		strbuf_addf(sb, "%.1f%%", frac * 100.0);
}

void td_html_short(struct strbuf *sb, double v)
{
	static const char *const suffix[] = { "", "k", "M", "G", "T", "P" };
	size_t k = 0;

	if (isnan(v) || fabs(v) < 100000) {
		td_html_num(sb, v);
		return;
	}
	while (fabs(v) >= 1000 && k + 1 < TD_ARRAY_SIZE(suffix)) {
		v /= 1000;
		k++;
	}
	strbuf_addf(sb, "%.3g&thinsp;%s", v, suffix[k]);
}

void td_html_num(struct strbuf *sb, double v)
{
	if (isnan(v))
		strbuf_addstr(sb, "n/a");
	else if (fabs(v) >= 10000 && fabs(v) == floor(fabs(v)))
		td_format_count(sb, v);
	else if (fabs(v) >= 100)
		strbuf_addf(sb, "%.1f", v);
	else
		strbuf_addf(sb, "%.3g", v);
}

/*
 * One CSS stacked bar for row 'row' of chart c; segments in the chart's
 * fixed order, each with its value as a tooltip.  scale maps a value to a
 * percentage of the bar's width (1 for charts in %, 100/total for CPI).
 */
/* Hatched grey, dark text: a segment that stands for components not measured. */
const char *td_html_not_measured_style =
	"background:repeating-linear-gradient(45deg,#b8bec8,#b8bec8 4px,#e6e9ee 4px,#e6e9ee 8px);color:#39414d";

void td_html_stackbar(struct strbuf *sb, const struct td_chart *c, size_t row, double scale,
		      const char *cls)
{
	const struct td_chart_row *r = &c->rows[row];
	int pct = c->ymax == 100, drawn = 0;
	size_t j;

	strbuf_addf(sb, "<div class=\"stackbar%s%s\">", cls ? " " : "", cls ? cls : "");
	for (j = 0; j < c->nseries; j++) {
		double v = r->values[j], w = v * scale;

		if (isnan(v) || !(w > 0))
			continue;
		drawn++;
		if (!strcmp(c->series[j].id, TD_CHART_NOT_MEASURED))
			strbuf_addf(sb, "<span class=\"not-measured\" style=\"width:%.3f%%;%s\" title=\"", w,
				    td_html_not_measured_style);
		else
			strbuf_addf(sb, "<span style=\"width:%.3f%%;background:%s\" title=\"", w, c->series[j].colour);
		strbuf_add_html(sb, c->series[j].name);
		strbuf_addf(sb, pct ? ": %.1f%%\">" : ": %.3g\">", v);
		strbuf_addstr(sb, "<em>");
		/* the name where it fits in a page-wide bar; else the number; CSS clips the rest */
		if (w >= 0.75 * strlen(c->series[j].name) + 4) {
			strbuf_add_html(sb, c->series[j].name);
			strbuf_addf(sb, pct ? " %.0f%%" : " %.2g", v);
		} else if (w >= 3) {
			strbuf_addf(sb, pct ? "%.0f" : "%.2g", v);
		}
		strbuf_addstr(sb, "</em>");
		strbuf_addstr(sb, "</span>");
	}
	if (!drawn)
		strbuf_addf(sb, "<span class=\"not-measured\" style=\"width:100%%;%s\"><em>n/a: not measured</em></span>",
			    td_html_not_measured_style);
	strbuf_addstr(sb, "</div>");
}

/* Legend of chart c with the values of row 'row' (row < 0: no values). */
void td_html_legend(struct strbuf *sb, const struct td_chart *c, long row)
{
	size_t j;

	strbuf_addstr(sb, "<div class=\"legend\">");
	for (j = 0; j < c->nseries; j++) {
		/* "not measured n/a" would say nothing: that bar has all it needs */
		if (!strcmp(c->series[j].id, TD_CHART_NOT_MEASURED) && row >= 0 && isnan(c->rows[row].values[j]))
			continue;
		if (!strcmp(c->series[j].id, TD_CHART_NOT_MEASURED))
			strbuf_addf(sb, "<span class=\"not-measured\"><i class=\"sw\" style=\"%s\"></i>",
				    td_html_not_measured_style);
		else
			strbuf_addf(sb, "<span><i class=\"sw\" style=\"background:%s\"></i>", c->series[j].colour);
		strbuf_add_html(sb, c->series[j].name);
		if (row >= 0) {
			double v = c->rows[row].values[j];

			strbuf_addstr(sb, " <b>");
			if (isnan(v))
				strbuf_addstr(sb, "n/a");
			else if (c->ymax == 100)
				strbuf_addf(sb, "%.1f%%", v);
			else
				strbuf_addf(sb, "%.3g", v);
			strbuf_addstr(sb, "</b>");
		}
		strbuf_addstr(sb, "</span>");
	}
	strbuf_addstr(sb, "</div>");
}

/* Checks failed for one likely cause: their list, then the cause once. */
static void cause_group(struct strbuf *sb, json_t *g)
{
	json_t *item;
	size_t i;

	strbuf_addf(sb, "<li>%zu checks failed, with one likely cause:<ul>",
		    json_array_size(json_object_get(g, "items")));
	json_array_foreach(json_object_get(g, "items"), i, item) {
		strbuf_addstr(sb, "<li>");
		strbuf_add_html(sb, json_string_value(item));
		strbuf_addstr(sb, "</li>");
	}
	strbuf_addstr(sb, "</ul>");
	strbuf_add_html(sb, td_json_str(g, "cause"));
	strbuf_addstr(sb, "</li>");
}

/* What 'tdperf record' warned of, in the words of the text report (report/text-repeat.c). */
static void recorded_warnings(struct strbuf *sb, json_t *list)
{
	struct strbuf line = STRBUF_INIT;

	if (td_report_recorded_warnings_line(&line, list)) {
		strbuf_addstr(sb, "<li class=\"recorded\">");
		strbuf_add_html(sb, line.buf);
		strbuf_addstr(sb, "</li>");
	}
	strbuf_release(&line);
}

/* Warnings: strings, or objects {"severity", "text"}; one likely cause said once. */
void td_html_warnings(struct strbuf *sb, json_t *list)
{
	json_t *w, *groups, *rest;
	size_t i;

	if (!json_array_size(list))
		return;
	rest = json_array();
	/* recorded ones in one line first, as the text report says them */
	json_array_foreach(list, i, w)
		if (!td_report_warning_recorded(w))
			json_array_append(rest, w);
	groups = td_warnings_by_cause(rest);
	strbuf_addstr(sb, "<ul class=\"warnings\">");
	recorded_warnings(sb, list);
	json_array_foreach(groups, i, w) {
		const char *text = json_is_string(w) ? json_string_value(w) : td_json_str(w, "text");
		const char *sev = td_json_str(w, "severity");

		if (td_json_str(w, "cause")) {
			cause_group(sb, w);
			continue;
		}
		if (!text)
			continue;
		strbuf_addstr(sb, "<li");
		if (sev && (!strcmp(sev, "error") || !strcmp(sev, "info")))
			strbuf_addf(sb, " class=\"%s\"", sev);
		strbuf_addch(sb, '>');
		strbuf_add_html(sb, text);
		strbuf_addstr(sb, "</li>");
	}
	strbuf_addstr(sb, "</ul>");
	json_decref(groups);
	json_decref(rest);
}

/* ---- charts as inline SVG ---- */

void td_html_charts_render(struct td_html_charts *hc)
{
	struct strbuf err = STRBUF_INIT, *images;
	size_t i;

	hc->svg = xcalloc(hc->list.nr + 1, sizeof(char *));
	strbuf_init(&hc->status, 0);
	if (!hc->list.nr)
		return;
	images = xcalloc(hc->list.nr, sizeof(*images));
	for (i = 0; i < hc->list.nr; i++)
		strbuf_init(&images[i], 0);
	if (td_charts_draw(&hc->list, "svg", images, &err)) {
		strbuf_addf(&hc->status, "Charts left out: %s. Everything else in this report is complete; "
			    "the stacked bars above are drawn without gnuplot.", err.buf);
		warning("%s: the HTML report has no charts", err.buf);
	} else {
		for (i = 0; i < hc->list.nr; i++) {
			struct strbuf out = STRBUF_INIT;

			td_svg_inline(&out, images[i].buf, hc->list.items[i]->stem);
			hc->svg[i] = out.len ? strbuf_detach(&out, NULL) : NULL;
			strbuf_release(&out);
		}
	}
	for (i = 0; i < hc->list.nr; i++)
		strbuf_release(&images[i]);
	free(images);
	strbuf_release(&err);
}

/* "ROW: NAME not computable: WHY" -> NAME (borrowed up to *end), or NULL. */
static const char *not_computable_name(const char *line, const char **end)
{
	const char *colon = strstr(line, ": "), *nc = strstr(line, " not computable: ");

	if (!colon || !nc || nc < colon + 2)
		return NULL;
	*end = nc;
	return colon + 2;
}

/*
 * A chart's notes: the "not computable" ones grouped once (which
 * components, the details on demand), the others one per line.
 */
static void figure_notes(struct strbuf *sb, const char *notes)
{
	struct strbuf names = STRBUF_INIT, list = STRBUF_INIT, other = STRBUF_INIT;
	const char *p, *end, *name;
	size_t nr = 0;

	for (p = notes; *p; ) {
		const char *nl = strchrnul(p, '\n');
		char *line = xstrndup(p, nl - p);

		name = not_computable_name(line, &end);
		if (name) {
			struct strbuf key = STRBUF_INIT;

			/* names is ", A, B, ": ", NAME, " in it means said already */
			if (!names.len)
				strbuf_addstr(&names, ", ");
			strbuf_addstr(&key, ", ");
			strbuf_add(&key, name, end - name);
			strbuf_addstr(&key, ", ");
			if (!strstr(names.buf, key.buf)) {
				strbuf_add(&names, name, end - name);
				strbuf_addstr(&names, ", ");
				nr++;
			}
			strbuf_release(&key);
		}
		strbuf_addstr(name ? &list : &other, "<li>");
		strbuf_add_html(name ? &list : &other, line);
		strbuf_addstr(name ? &list : &other, "</li>");
		free(line);
		p = *nl ? nl + 1 : nl;
	}
	if (other.len)
		strbuf_addf(sb, "<ul>%s</ul>", other.buf);
	if (nr) {
		strbuf_setlen(&names, names.len - 2);
		strbuf_addf(sb, "<details class=\"na-notes\"><summary>%zu component%s not computable, shown as n/a or "
			    "inside the hatched part: ", nr, nr > 1 ? "s" : "");
		strbuf_add_html(sb, names.buf + 2);
		strbuf_addf(sb, "</summary><ul>%s</ul></details>", list.buf);
	}
	strbuf_release(&names);
	strbuf_release(&list);
	strbuf_release(&other);
}

/* Render the chart 'stem' as a figure with its notes; nothing when absent. */
int td_html_figure(struct strbuf *sb, const struct td_html_charts *hc, const char *stem)
{
	size_t i;

	for (i = 0; i < hc->list.nr; i++) {
		const struct td_chart *c = hc->list.items[i];

		if (strcmp(c->stem, stem) || !hc->svg || !hc->svg[i])
			continue;
		strbuf_addf(sb, "<figure class=\"chart\" id=\"fig-%s\" style=\"max-width:%dpx\">", stem,
			    td_chart_width(c));
		/* wider than the card: scrolled at its own size, its text not shrunk */
		if (td_chart_width(c) > TD_CHART_CARD_WIDTH)
			strbuf_addf(sb, "<div style=\"overflow-x:auto\"><div style=\"width:%dpx\">",
				    td_chart_width(c));
		strbuf_addstr(sb, hc->svg[i]);
		if (td_chart_width(c) > TD_CHART_CARD_WIDTH)
			strbuf_addstr(sb, "</div></div>");
		strbuf_addstr(sb, "<figcaption>gnuplot data and script: <code>tdperf report --plot DIR</code> writes <code>");
		strbuf_add_html(sb, stem);
		strbuf_addstr(sb, ".dat</code> and <code>");
		strbuf_add_html(sb, stem);
		strbuf_addstr(sb, ".gp</code>.");
		if (c->notes.len)
			figure_notes(sb, c->notes.buf);
		strbuf_addstr(sb, "</figcaption></figure>");
		return 1;
	}
	return 0;
}

void td_html_charts_release(struct td_html_charts *hc)
{
	size_t i;

	for (i = 0; hc->svg && i < hc->list.nr; i++)
		free(hc->svg[i]);
	free(hc->svg);
	td_chart_list_release(&hc->list);
	strbuf_release(&hc->status);
}

void td_html_reason(struct strbuf *sb, const char *reason)
{
	struct strbuf txt = STRBUF_INIT;

	if (!reason)
		return;
	td_reason_short(&txt, reason, 3);
	if (strcmp(txt.buf, reason)) {
		struct strbuf all = STRBUF_INIT;

		strbuf_addstr(sb, "<span title=\"");
		td_reason_missing_list(&all, reason);
		strbuf_add_html(sb, all.len ? all.buf : reason);
		strbuf_addstr(sb, "\">");
		strbuf_add_html(sb, txt.buf);
		strbuf_addstr(sb, "</span>");
		strbuf_release(&all);
	} else {
		strbuf_add_html(sb, txt.buf);
	}
	strbuf_release(&txt);
}
