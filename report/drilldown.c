/*
 * The "drilldown" object of a report (tdperf record --drilldown) in text
 * and HTML: per step, the node drilled into, what was sampled for it (and
 * what instead, and why), and the functions that carry its events with
 * their share, their own value of the node where the group measured it,
 * and their hottest source lines.
 */
#include "config.h"
#include "analyze/doc.h"
#include "report/html.h"
#include "report/render.h"
#include "util/util.h"

#include <math.h>
#include <string.h>

#define LINES_SHOWN 3
/* text: the top functions (JSON and HTML keep 10), the lines of the first few */
#define TEXT_FUNCTIONS 6
#define TEXT_FUNCTIONS_WITH_LINES 3

/* "Fetch Latency" or the id. */
static const char *step_name(json_t *step)
{
	return td_json_str_or(step, "name", td_json_str_or(step, "node", "cpu-clock"));
}

/* "FRONTEND_RETIRED.LATENCY_GE_16 (precise), leading a group with the node's events" */
static void sampled_sentence(struct strbuf *sb, json_t *step)
{
	json_t *s = json_object_get(step, "sampled");
	const char *kind = td_json_str_or(s, "kind", "");

	strbuf_addstr(sb, td_json_str_or(s, "event", "?"));
	if (json_is_true(json_object_get(s, "precise")))
		strbuf_addstr(sb, " (precise)");
	if (!strcmp(kind, "locate_group"))
		strbuf_addstr(sb, ", leading a group with the node's events");
	else if (!strcmp(kind, "locate_event"))
		strbuf_addstr(sb, ", with cycles only, not the node's events");
	else if (!strcmp(kind, "cycles_group"))
		strbuf_addstr(sb, " (the table gives no event to locate the node with)");
	else
		strbuf_addstr(sb, " (no hardware counters)");
	strbuf_addf(sb, "; %lld samples", (long long)td_json_int(json_object_get(step, "samples"), 0));
}

/* The node's own value in a function, NAN where the samples did not measure it. */
static double function_node_value(json_t *step, json_t *fn)
{
	const char *node = td_json_str(step, "node");

	return node ? td_json_num(json_object_get(json_object_get(fn, "topdown"), node)) : NAN;
}

/* Does any function of the step have its own value of the node?  Else the column is left out. */
static int any_own_value(json_t *step)
{
	json_t *fn;
	size_t i;

	json_array_foreach(json_object_get(step, "functions"), i, fn)
		if (isfinite(function_node_value(step, fn)))
			return 1;
	return 0;
}

/* "tw-hot.c:51" from a source path: the lines of one function share its file. */
static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path ? path : "";
}

static void text_step(json_t *step, FILE *f)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *fn, *line;
	size_t i, k;
	int own_column;
	double v = td_json_num(json_object_get(step, "value"));

	fprintf(f, "  step %lld: %s", (long long)td_json_int(json_object_get(step, "step"), 1), step_name(step));
	if (json_is_integer(json_object_get(step, "level")))
		fprintf(f, " (Level %lld", (long long)json_integer_value(json_object_get(step, "level")));
	if (json_is_integer(json_object_get(step, "level")) && isfinite(v))
		fprintf(f, ", %.1f %% in the counting run", 100 * v);
	fprintf(f, "%s\n", json_is_integer(json_object_get(step, "level")) ? ")" : "");
	sampled_sentence(&sb, step);
	fprintf(f, "    sampled: %s\n", sb.buf);
	if (td_json_str(json_object_get(step, "sampled"), "note"))
		fprintf(f, "    instead: %s\n", td_json_str(json_object_get(step, "sampled"), "note"));
	if (td_json_str(step, "error")) {
		fprintf(f, "    no samples: %s\n", td_json_str(step, "error"));
		strbuf_release(&sb);
		return;
	}
	own_column = any_own_value(step);
	fprintf(f, "    %7s %8s %10s  %s\n", "share", "samples", own_column ? "own value" : "", "function (source)");
	json_array_foreach(json_object_get(step, "functions"), i, fn) {
		double own = function_node_value(step, fn);
		char ownbuf[32] = "";

		if (i >= TEXT_FUNCTIONS)
			break;

		if (isfinite(own))
			snprintf(ownbuf, sizeof(ownbuf), "%.1f %%", 100 * own);
		else if (own_column)
			snprintf(ownbuf, sizeof(ownbuf), "n/a");
		fprintf(f, "    %5.1f %% %8lld %10s  %s", td_json_num(json_object_get(fn, "share")),
			(long long)td_json_int(json_object_get(fn, "samples"), 0), ownbuf,
			td_json_str_or(fn, "symbol", "?"));
		if (td_json_str(fn, "source"))
			fprintf(f, " (%s)", td_json_str(fn, "source"));
		fputc('\n', f);
		json_array_foreach(json_object_get(fn, "lines"), k, line) {
			if (k >= LINES_SHOWN || i >= TEXT_FUNCTIONS_WITH_LINES)
				break;
			fprintf(f, "    %5.1f %% %8lld %10s    line %s\n", td_json_num(json_object_get(line, "share")),
				(long long)td_json_int(json_object_get(line, "samples"), 0), "",
				base_name(td_json_str(line, "source")));
		}
	}
	strbuf_release(&sb);
}

void td_report_text_drilldown(json_t *doc, FILE *f)
{
	json_t *steps = json_object_get(json_object_get(doc, "drilldown"), "steps"), *step;
	size_t i;

	if (!json_array_size(steps))
		return;
	fprintf(f, "\nDrill-down (record --drilldown): the functions that carry the flagged node's events\n");
	fprintf(f, "  share: of the sampled event's count; own value: the node in that function, where the "
		   "sampled group held its events\n");
	json_array_foreach(steps, i, step)
		text_step(step, f);
}

static void html_step(struct strbuf *sb, json_t *step)
{
	struct strbuf s = STRBUF_INIT;
	json_t *fn, *line;
	size_t i, k;
	int own_column;
	double v = td_json_num(json_object_get(step, "value"));

	strbuf_addf(sb, "<h3>Step %lld: ", (long long)td_json_int(json_object_get(step, "step"), 1));
	strbuf_add_html(sb, step_name(step));
	if (json_is_integer(json_object_get(step, "level")) && isfinite(v))
		strbuf_addf(sb, " <span class=\"muted\">(Level %lld, %.1f %% in the counting run)</span>",
			    (long long)json_integer_value(json_object_get(step, "level")), 100 * v);
	strbuf_addstr(sb, "</h3>\n<p>Sampled: ");
	sampled_sentence(&s, step);
	strbuf_add_html(sb, s.buf);
	strbuf_addstr(sb, "</p>\n");
	if (td_json_str(json_object_get(step, "sampled"), "note")) {
		strbuf_addstr(sb, "<p class=\"muted\">Instead: ");
		strbuf_add_html(sb, td_json_str(json_object_get(step, "sampled"), "note"));
		strbuf_addstr(sb, "</p>\n");
	}
	if (td_json_str(step, "error")) {
		strbuf_addstr(sb, "<p>No samples: ");
		strbuf_add_html(sb, td_json_str(step, "error"));
		strbuf_addstr(sb, "</p>\n");
		strbuf_release(&s);
		return;
	}
	own_column = any_own_value(step);
	strbuf_addf(sb, "<table class=\"data\"><thead><tr><th class=\"num\">share of the event</th>"
		    "<th class=\"num\">samples</th>%s<th>function</th><th>hottest lines</th></tr></thead>"
		    "<tbody>\n", own_column ? "<th class=\"num\">own value of the node</th>" : "");
	json_array_foreach(json_object_get(step, "functions"), i, fn) {
		double own = function_node_value(step, fn);

		strbuf_addf(sb, "<tr><td class=\"num\">%.1f %%</td><td class=\"num\">%lld</td>",
			    td_json_num(json_object_get(fn, "share")),
			    (long long)td_json_int(json_object_get(fn, "samples"), 0));
		if (own_column && isfinite(own))
			strbuf_addf(sb, "<td class=\"num\">%.1f %%</td>", 100 * own);
		else if (own_column)
			strbuf_addstr(sb, "<td class=\"num\"><span class=\"muted\">n/a</span></td>");
		strbuf_addstr(sb, "<td><code>");
		strbuf_add_html(sb, td_json_str_or(fn, "symbol", "?"));
		strbuf_addstr(sb, "</code>");
		if (td_json_str(fn, "source")) {
			strbuf_addstr(sb, " <span class=\"muted\">");
			strbuf_add_html(sb, td_json_str(fn, "source"));
			strbuf_addstr(sb, "</span>");
		}
		strbuf_addstr(sb, "</td><td>");
		json_array_foreach(json_object_get(fn, "lines"), k, line) {
			if (k >= LINES_SHOWN)
				break;
			if (td_json_num(json_object_get(line, "share")) < 0.05)
				continue; /* "0.0 %" says nothing */
			strbuf_addf(sb, "%s", k ? ", " : "");
			strbuf_add_html(sb, base_name(td_json_str(line, "source")));
			strbuf_addf(sb, " %.1f %%", td_json_num(json_object_get(line, "share")));
		}
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</tbody></table>\n");
	strbuf_release(&s);
}

void td_html_drilldown(struct strbuf *sb, json_t *doc)
{
	json_t *steps = json_object_get(json_object_get(doc, "drilldown"), "steps"), *step;
	size_t i;

	if (!json_array_size(steps))
		return;
	strbuf_addstr(sb, "<p class=\"muted\">Recorded with <code>tdperf record --drilldown</code>: the deepest "
		      "flagged node of the bottleneck path, sampled by its locate-with event. Share: of the "
		      "sampled event's count; own value: the node in that function, where the sampled group "
		      "held its events.</p>\n");
	json_array_foreach(steps, i, step)
		html_step(sb, step);
}
