/*
 * The phases of an interval run (analyze/phases.c found them) in words:
 * one sentence for the text report and the HTML summary, and a band of
 * coloured spans on the HTML page, so that a run which changed its
 * bottleneck is not summarised by its average.
 */
#include "report/render.h"
#include "report/html.h"
#include "report/chart.h"

#include <math.h>

/* "0-20.0 s Frontend Bound 54 %; 20.0-30.0 s Backend Bound 60 %; ..." */
int td_phases_sentence(struct strbuf *sb, json_t *scope)
{
	json_t *phases = json_object_get(scope, "phases"), *p;
	size_t i;

	if (json_array_size(phases) < 2)
		return 0;
	json_array_foreach(phases, i, p) {
		double mean = td_json_num(json_object_get(p, "mean"));

		strbuf_addf(sb, "%s%.1f-%.1f s %s", i ? "; " : "",
			    td_json_num(json_object_get(p, "start_s")),
			    td_json_num(json_object_get(p, "end_s")),
			    td_json_str_or(p, "name", "?"));
		if (!isnan(mean))
			strbuf_addf(sb, " %.0f %%", mean * 100);
	}
	return 1;
}

const char *td_phases_rule =
	"a phase is the largest Level-1 node held for at least 3 intervals and 10 % of them; "
	"shorter runs (noise, transitions) count in a neighbouring phase";

void td_text_phases(FILE *f, json_t *scope)
{
	struct strbuf sb = STRBUF_INIT;

	if (td_phases_sentence(&sb, scope))
		fprintf(f, "  Phases: the bottleneck changes over time: %s\n  (%s)\n",
			td_printable(sb.buf), td_phases_rule);
	strbuf_release(&sb);
}

/* The summary's phase band: one span per phase, as wide as its time. */
void td_html_phases(struct strbuf *sb, json_t *scope)
{
	json_t *phases = json_object_get(scope, "phases"), *p;
	double end = 0;
	size_t i;

	if (json_array_size(phases) < 2)
		return;
	end = td_json_num(json_object_get(json_array_get(phases, json_array_size(phases) - 1), "end_s"));
	strbuf_addstr(sb, "<div class=\"phases\"><p class=\"verdict phases-verdict\">The bottleneck changes over "
		      "time: ");
	json_array_foreach(phases, i, p) {
		double mean = td_json_num(json_object_get(p, "mean"));

		strbuf_addf(sb, "%s<b>%.1f&ndash;%.1f s</b> ", i ? "; " : "",
			    td_json_num(json_object_get(p, "start_s")), td_json_num(json_object_get(p, "end_s")));
		strbuf_add_html(sb, td_json_str_or(p, "name", "?"));
		if (!isnan(mean))
			strbuf_addf(sb, " %.0f&nbsp;%%", mean * 100);
	}
	strbuf_addstr(sb, ".</p><div class=\"stackbar phase-band\" role=\"img\" aria-label=\"phases over time\">");
	json_array_foreach(phases, i, p) {
		double a = td_json_num(json_object_get(p, "start_s"));
		double b = td_json_num(json_object_get(p, "end_s"));
		const char *node = td_json_str_or(p, "node", "");

		strbuf_addf(sb, "<span class=\"phase\" style=\"width:%.2f%%;background:%s\" title=\"%.1f-%.1f s\"><em>",
			    end > 0 ? 100 * (b - a) / end : 0, td_component_colour(node, NULL, 1, 0), a, b);
		strbuf_add_html(sb, td_json_str_or(p, "name", "?"));
		strbuf_addf(sb, " &middot; %.0f&ndash;%.0f s", a, b);
		strbuf_addstr(sb, "</em></span>");
	}
	strbuf_addstr(sb, "</div><p class=\"hint\" style=\"margin:6px 0 14px\">");
	strbuf_add_html(sb, td_phases_rule);
	strbuf_addstr(sb, ". The verdict and bars below are of the whole run, all phases together.</p></div>");
}
