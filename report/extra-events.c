/*
 * record -e: the extra events of a scope ("extra_events", filled by
 * analyze/extra-events.c) beside the tree, in text, HTML and CSV.  A
 * count perf scaled (its counter ran part of the time) is marked 'm', as
 * the tree marks a multiplexed node: it is perf's estimate, not a count.
 */
#include "config.h"
#include "analyze/doc.h"
#include "report/html.h"
#include "report/render.h"
#include "util/util.h"

#include <math.h>
#include <string.h>

static double number(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void format_count(struct strbuf *sb, json_t *e)
{
	double v = number(e, "value");
	const char *status = json_string_value(json_object_get(e, "status"));

	if (isnan(v))
		strbuf_addf(sb, "<%s>", status ? status : "no count");
	else if (v != floor(v))
		strbuf_addf(sb, "%.2f", v);
	else
		td_format_count(sb, v);
}

void td_text_extra_events(FILE *f, json_t *scope)
{
	json_t *list = json_object_get(scope, "extra_events"), *e;
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (!json_array_size(list))
		return;
	fprintf(f, "  Extra events (record -e):\n");
	json_array_foreach(list, i, e) {
		const char *unit = json_string_value(json_object_get(e, "unit"));
		double pct = number(e, "running_pct");

		strbuf_reset(&sb);
		format_count(&sb, e);
		fprintf(f, "    %20s %-5s %s", td_printable(sb.buf), unit ? td_printable(unit) : "",
			td_printable(json_string_value(json_object_get(e, "event"))));
		if (!isnan(pct))
			fprintf(f, "  %.2f%% running%s", pct,
				json_is_true(json_object_get(e, "scaled")) ? ", m scaled by perf" : "");
		fputc('\n', f);
	}
	strbuf_release(&sb);
}

static void html_scope_table(struct strbuf *sb, json_t *scope)
{
	json_t *e;
	size_t i;

	strbuf_addstr(sb, "<table class=\"data extra-events\"><thead><tr><th>Event</th><th class=\"num\">Count</th>"
			  "<th>Unit</th><th class=\"num\">Running</th></tr></thead><tbody>\n");
	json_array_foreach(json_object_get(scope, "extra_events"), i, e) {
		const char *unit = json_string_value(json_object_get(e, "unit"));
		double pct = number(e, "running_pct");
		struct strbuf count = STRBUF_INIT;

		format_count(&count, e);
		strbuf_addstr(sb, "<tr><td><code>");
		strbuf_add_html(sb, json_string_value(json_object_get(e, "event")));
		strbuf_addstr(sb, "</code></td><td class=\"num\">");
		strbuf_add_html(sb, count.buf);
		strbuf_addstr(sb, "</td><td>");
		strbuf_add_html(sb, unit ? unit : "");
		strbuf_addstr(sb, "</td><td class=\"num\">");
		if (!isnan(pct))
			strbuf_addf(sb, "%.2f %%", pct);
		if (json_is_true(json_object_get(e, "scaled")))
			strbuf_addstr(sb, " <span class=\"badge\" title=\"the counter ran part of the time: "
					  "perf scaled the count, an estimate\">m multiplexed</span>");
		strbuf_addstr(sb, "</td></tr>\n");
		strbuf_release(&count);
	}
	strbuf_addstr(sb, "</tbody></table>\n");
}

void td_html_extra_events(struct strbuf *sb, json_t *doc)
{
	json_t *scope;
	size_t i;

	json_array_foreach(json_object_get(doc, "scopes"), i, scope) {
		const char *label = json_string_value(json_object_get(scope, "label"));
		const char *pmu = json_string_value(json_object_get(scope, "pmu"));

		if (!json_array_size(json_object_get(scope, "extra_events")) ||
		    strcmp(json_string_value(json_object_get(scope, "kind")) ?: "", "total") ||
		    json_is_number(json_object_get(scope, "time")))
			continue;
		strbuf_addstr(sb, "<h3>");
		strbuf_add_html(sb, label ? label : "Whole run");
		if (pmu) {
			strbuf_addstr(sb, " (");
			strbuf_add_html(sb, pmu);
			strbuf_addstr(sb, ")");
		}
		strbuf_addstr(sb, "</h3>\n");
		html_scope_table(sb, scope);
	}
	if (sb->len)
		strbuf_addstr(sb, "<p class=\"note\">Counted beside the tree with <code>tdperf record -e</code>, "
				  "as perf printed them. <b>m</b>: the counter ran part of the time and perf "
				  "scaled the count (an estimate).</p>\n");
}
