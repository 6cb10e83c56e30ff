/*
 * The HTML of repeated runs (record -r N, analyze/repeat.c): below the
 * tree of the runs' mean counts, what its values are and a table of the
 * spread over the runs of Level 1 and the flagged nodes, with each run's
 * value.
 */
#include "config.h"
#include "report/render.h"
#include "report/html.h"

#include <math.h>
#include <string.h>

static int node_in_table(json_t *n)
{
	return json_is_object(json_object_get(n, "repeat")) &&
	       (td_node_level(n) == 1 || json_is_true(json_object_get(n, "flagged")));
}

static void spread_row(struct strbuf *sb, json_t *n)
{
	json_t *r = json_object_get(n, "repeat"), *v;
	size_t i;

	strbuf_addf(sb, "<tr><td style=\"padding-left:%dem\">", (td_node_level(n) - 1) * 1);
	strbuf_add_html(sb, td_json_str_or(n, "name", "?"));
	strbuf_addstr(sb, "</td><td>");
	td_html_pct(sb, td_json_num(json_object_get(r, "mean")));
	strbuf_addstr(sb, "</td><td>");
	if (isnan(td_json_num(json_object_get(r, "stddev"))))
		strbuf_addstr(sb, "n/a");
	else
		strbuf_addf(sb, "%.2f", td_json_num(json_object_get(r, "stddev")) * 100);
	strbuf_addstr(sb, "</td><td>");
	td_html_pct(sb, td_json_num(json_object_get(r, "min")));
	strbuf_addstr(sb, " &ndash; ");
	td_html_pct(sb, td_json_num(json_object_get(r, "max")));
	strbuf_addstr(sb, "</td><td>");
	json_array_foreach(json_object_get(r, "values"), i, v) {
		strbuf_addstr(sb, i ? " &middot; " : "");
		td_html_pct(sb, td_json_num(v));
	}
	strbuf_addstr(sb, "</td></tr>");
}

void td_html_repeat(struct strbuf *sb, json_t *scope)
{
	json_t *n, *first = NULL;
	size_t i;

	json_array_foreach(json_object_get(scope, "nodes"), i, n)
		if (!first && json_is_object(json_object_get(n, "repeat")))
			first = json_object_get(n, "repeat");
	if (!first)
		return;
	strbuf_addf(sb, "<div class=\"repeat-spread\"><p class=\"muted\">Mean of %zu runs (record -r): "
		    "values from the runs' mean counts; &plusmn; from their standard errors, as perf stat -r "
		    "prints them. Spread over the runs, each run on its own counts (sd: sample standard "
		    "deviation, in points):</p>", json_array_size(json_object_get(first, "values")));
	strbuf_addstr(sb, "<table class=\"events\" style=\"border-spacing:14px 2px;margin-left:-14px\"><tr><th>node</th><th>mean</th><th>sd</th><th>range</th>"
		      "<th>each run</th></tr>");
	json_array_foreach(json_object_get(scope, "nodes"), i, n)
		if (node_in_table(n))
			spread_row(sb, n);
	strbuf_addstr(sb, "</table></div>");
}
