/*
 * The diff beyond Top-Down (analyze/diff-counts.c builds it) as text and
 * as HTML tables: elapsed time, the counts both sides have, per-thread
 * stack fractions.
 */
#include "report/render.h"
#include "report/html.h"

#include <math.h>
#include <string.h>

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

	fprintf(out, "  %-30.30s", td_printable(td_json_str_or(p, "name", "?")));
	value_cell(out, td_json_num(json_object_get(p, "a")), unit);
	value_cell(out, td_json_num(json_object_get(p, "b")), unit);
	if (unit && !strcmp(unit, "fraction"))
		fprintf(out, " %+9.1f pts", d * 100);
	else if (!isnan(ratio))
		fprintf(out, " %12.3fx", ratio);
	fprintf(out, "%s%s\n", unit && strcmp(unit, "fraction") ? "  " : "",
		unit && strcmp(unit, "fraction") ? td_printable(unit) : "");
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
