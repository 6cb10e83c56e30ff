/*
 * What a diff compares besides Top-Down: the elapsed time, the counts both
 * sides have (software events on a machine without hardware counters) and
 * the per-thread stacks.  Two runs recorded where no PMU is usable (most
 * VMs) have nothing else in common, and a table of n/a would tell nothing.
 */
#include "config.h"
#include "report/report.h"
#include "report/report-int.h"

#include <math.h>
#include <string.h>

static json_t *num_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

/* One compared figure: both values, B - A and B / A (when A is not 0). */
static json_t *pair(const char *name, const char *unit, double a, double b)
{
	return json_pack("{s:s, s:s?, s:o, s:o, s:o, s:o}", "name", name, "unit", unit,
			 "a", num_or_null(a), "b", num_or_null(b),
			 "delta", num_or_null(b - a), "ratio", num_or_null(a != 0 ? b / a : NAN));
}

/* The elapsed time of the session a scope belongs to. */
static double scope_elapsed(json_t *doc, json_t *scope)
{
	json_int_t idx = json_integer_value(json_object_get(scope, "session"));
	json_t *s;
	size_t i;

	json_array_foreach(json_object_get(doc, "sessions"), i, s)
		if (json_integer_value(json_object_get(s, "index")) == idx)
			return td_json_num(json_object_get(s, "elapsed_s"));
	return NAN;
}

static json_t *find_event(json_t *scope, const char *name)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(scope, "events"), i, e) {
		const char *n = td_json_str(e, "name"), *st = td_json_str(e, "status");

		if (n && !strcmp(n, name) && (!st || !strcmp(st, "ok")))
			return e;
	}
	return NULL;
}

/* Counts of the events both scopes counted, in A's order. */
static json_t *common_counts(json_t *sa, json_t *sb)
{
	json_t *out = json_array(), *e, *f;
	size_t i;

	json_array_foreach(json_object_get(sa, "events"), i, e) {
		const char *name = td_json_str(e, "name");

		if (!name || find_event(sa, name) != e || !(f = find_event(sb, name)))
			continue;
		json_array_append_new(out, pair(name, td_json_str(e, "unit"), td_json_num(json_object_get(e, "value")),
						td_json_num(json_object_get(f, "value"))));
	}
	return out;
}

/* The per-thread stack fractions of both sides, by component. */
static json_t *thread_fractions(json_t *a, json_t *b)
{
	json_t *fa = json_object_get(json_object_get(json_object_get(a, "threads"), "aggregate"), "fractions");
	json_t *fb = json_object_get(json_object_get(json_object_get(b, "threads"), "aggregate"), "fractions");
	json_t *out, *v;
	const char *comp;

	if (!json_is_object(fa) || !json_is_object(fb))
		return json_null();
	out = json_array();
	json_object_foreach(fa, comp, v) {
		double x = td_json_num(v), y = td_json_num(json_object_get(fb, comp));

		if ((x > 0 || y > 0) && !isnan(y))
			json_array_append_new(out, pair(comp, "fraction", x, y));
	}
	return out;
}

/* Whether any node of the diff has a value on either side. */
static int topdown_measured(json_t *diff)
{
	json_t *n;
	size_t i;

	json_array_foreach(json_object_get(diff, "nodes"), i, n)
		if (!isnan(td_json_num(json_object_get(n, "a"))) || !isnan(td_json_num(json_object_get(n, "b"))))
			return 1;
	return 0;
}

void td_diff_add_counts(json_t *diff, json_t *a, json_t *sa, json_t *b, json_t *sb)
{
	json_object_set_new(diff, "topdown_measured", json_boolean(topdown_measured(diff)));
	json_object_set_new(diff, "elapsed", pair("elapsed time", "s", scope_elapsed(a, sa), scope_elapsed(b, sb)));
	json_object_set_new(diff, "counts", common_counts(sa, sb));
	json_object_set_new(diff, "thread_fractions", thread_fractions(a, b));
}

/* A value in a column 14 wide, printed as perf prints it (msec with 2 decimals). */
static void value_cell(FILE *out, double v, const char *unit)
{
	if (isnan(v))
		fprintf(out, " %14s", "n/a");
	else if (unit && !strcmp(unit, "fraction"))
		fprintf(out, " %13.1f%%", v * 100);
	else if (unit && !strcmp(unit, "msec"))
		fprintf(out, " %14.2f", v);
	else if (v == floor(v) && fabs(v) < 1e15)
		fprintf(out, " %14.0f", v);
	else
		fprintf(out, " %14.6g", v);
}

static void pair_row(FILE *out, json_t *p)
{
	const char *unit = td_json_str(p, "unit");
	double ratio = td_json_num(json_object_get(p, "ratio")), d = td_json_num(json_object_get(p, "delta"));

	fprintf(out, "  %-30.30s", td_json_str_or(p, "name", "?"));
	value_cell(out, td_json_num(json_object_get(p, "a")), unit);
	value_cell(out, td_json_num(json_object_get(p, "b")), unit);
	if (unit && !strcmp(unit, "fraction"))
		fprintf(out, " %+9.1f pts", d * 100);
	else if (!isnan(ratio))
		fprintf(out, " %12.3fx", ratio);
	fprintf(out, "%s%s\n", unit && strcmp(unit, "fraction") ? "  " : "",
		unit && strcmp(unit, "fraction") ? unit : "");
}

void td_diff_render_counts_text(json_t *diff, FILE *out)
{
	json_t *p;
	size_t i;

	fprintf(out, "\n%-32s %14s %14s %13s\n", "Elapsed time, common counts", "A", "B", "B / A");
	pair_row(out, json_object_get(diff, "elapsed"));
	json_array_foreach(json_object_get(diff, "counts"), i, p)
		pair_row(out, p);
	if (json_array_size(json_object_get(diff, "thread_fractions"))) {
		fprintf(out, "\n%-32s %14s %14s %13s\n", "Per-thread stacks, time share", "A", "B", "B - A");
		json_array_foreach(json_object_get(diff, "thread_fractions"), i, p)
			pair_row(out, p);
	}
}

/* One compared figure as an HTML table row. */
static void pair_html_row(struct strbuf *sb, json_t *p)
{
	const char *unit = td_json_str(p, "unit");
	int frac = unit && !strcmp(unit, "fraction");
	double v[2] = { td_json_num(json_object_get(p, "a")), td_json_num(json_object_get(p, "b")) };
	double d = td_json_num(json_object_get(p, "delta")), ratio = td_json_num(json_object_get(p, "ratio"));
	int k;

	strbuf_addstr(sb, "<tr><td>");
	strbuf_add_html(sb, td_json_str_or(p, "name", "?"));
	if (unit && !frac) {
		strbuf_addstr(sb, " <span class=\"muted\">");
		strbuf_add_html(sb, unit);
		strbuf_addstr(sb, "</span>");
	}
	strbuf_addstr(sb, "</td>");
	for (k = 0; k < 2; k++) {
		strbuf_addstr(sb, "<td class=\"num\">");
		if (frac && !isnan(v[k]))
			strbuf_addf(sb, "%.1f%%", v[k] * 100);
		else
			td_html_num(sb, v[k]);
		strbuf_addstr(sb, "</td>");
	}
	strbuf_addstr(sb, "<td class=\"num\">");
	if (frac && !isnan(d))
		strbuf_addf(sb, "%+.1f pts", d * 100);
	else if (!frac && !isnan(ratio))
		strbuf_addf(sb, "%.3f&times;", ratio);
	strbuf_addstr(sb, "</td></tr>");
}

static void pairs_table(struct strbuf *sb, const char *title, const char *last, json_t *first, json_t *rows)
{
	json_t *p;
	size_t i;

	strbuf_addf(sb, "<h3>%s</h3><div class=\"tablewrap\"><table class=\"data counts\"><thead><tr><th></th>"
		    "<th class=\"num\">A</th><th class=\"num\">B</th><th class=\"num\">%s</th></tr></thead><tbody>",
		    title, last);
	if (first)
		pair_html_row(sb, first);
	json_array_foreach(rows, i, p)
		pair_html_row(sb, p);
	strbuf_addstr(sb, "</tbody></table></div>");
}

void td_diff_render_counts_html(struct strbuf *sb, json_t *diff)
{
	if (json_is_false(json_object_get(diff, "topdown_measured")))
		strbuf_addstr(sb, "<p class=\"hint\">Top-Down was not measured on either side (no hardware "
			      "counters): compared instead are the elapsed time, the counts both sides have and "
			      "the per-thread stacks.</p>");
	pairs_table(sb, "Elapsed time, common counts", "B / A", json_object_get(diff, "elapsed"),
		    json_object_get(diff, "counts"));
	if (json_array_size(json_object_get(diff, "thread_fractions")))
		pairs_table(sb, "Per-thread stacks, time share", "B &minus; A", NULL,
			    json_object_get(diff, "thread_fractions"));
}
