/*
 * HTML tables of the stack analyses of one scope (the "stacks" object,
 * docs/report-schema.md): the multi-stage CPI stacks side by side with their
 * range, the IPC and FLOPS stacks, and frontend delivery by path.  The same
 * content as the text report (report/text-stacks.c), as tables; values that
 * could not be computed say why (title on hover, and a note), parts the CPU
 * cannot measure say so, approximations carry the badge.
 */
#include "config.h"
#include "report/render.h"
#include "report/html.h"

#include <math.h>
#include <string.h>

static int jtrue(json_t *o, const char *k)
{
	return json_is_true(json_object_get(o, k));
}

static double jnum(json_t *o, const char *k)
{
	return td_json_num(json_object_get(o, k));
}

/* One part value: the number, "n/m" (not measurable) or "n/a", with the reason on hover. */
static void part_cell(struct strbuf *sb, json_t *part, const char *fmt)
{
	double v = jnum(part, "value");
	const char *why = td_json_str(part, "reason");

	strbuf_addstr(sb, "<td class=\"num\"");
	if (why) {
		strbuf_addstr(sb, " title=\"");
		strbuf_add_html(sb, why);
		strbuf_addch(sb, '"');
	}
	strbuf_addch(sb, '>');
	if (!part)
		strbuf_addstr(sb, "&ndash;");
	else if (json_is_false(json_object_get(part, "measurable")))
		strbuf_addstr(sb, "<span class=\"muted\">n/m</span>");
	else if (isnan(v))
		strbuf_addstr(sb, "<span class=\"muted\">n/a</span>");
	else
		strbuf_addf(sb, fmt, v);
	if (part && jtrue(part, "approximate") && !isnan(v))
		strbuf_addstr(sb, " <span class=\"badge approx\" title=\"approximate\">&#8776;</span>");
	strbuf_addstr(sb, "</td>");
}

static json_t *part_by_id(json_t *parts, const char *id)
{
	json_t *p;
	size_t i;

	json_array_foreach(parts, i, p)
		if (td_json_str(p, "id") && id && !strcmp(td_json_str(p, "id"), id))
			return p;
	return NULL;
}

static void para(struct strbuf *sb, const char *cls, const char *text)
{
	strbuf_addf(sb, "<p class=\"%s\">", cls);
	strbuf_add_html(sb, text);
	strbuf_addstr(sb, "</p>");
}

/* Why a stage has no column: its reason, or what its parts miss. */
static void stage_reason(struct strbuf *sb, json_t *st)
{
	json_t *p;
	size_t j;
	struct strbuf why = STRBUF_INIT;

	if (td_json_str(st, "reason"))
		strbuf_addstr(&why, td_json_str(st, "reason"));
	else
		json_array_foreach(json_object_get(st, "parts"), j, p)
			if (td_json_str(p, "reason") && isnan(jnum(p, "value")) &&
			    !strstr(why.buf, td_json_str(p, "reason")))
				strbuf_addf(&why, "%s%s", why.len ? "; " : "", td_json_str(p, "reason"));
	strbuf_addstr(sb, "<p class=\"muted\">");
	strbuf_add_html(sb, td_json_str_or(st, "name", "?"));
	strbuf_addstr(sb, " stage: not computable from these counts: ");
	td_html_reason(sb, why.len ? why.buf : "unknown");
	strbuf_addstr(sb, "</p>");
	strbuf_release(&why);
}

static void multistage(struct strbuf *sb, json_t *ms)
{
	json_t *stages = json_object_get(ms, "stages"), *comps = json_object_get(ms, "components");
	json_t *c, *st;
	size_t i, k, shown = 0;

	json_array_foreach(stages, k, st)
		shown += td_stack_stage_computed(st);
	strbuf_addstr(sb, "<h3>Multi-stage CPI stacks</h3>");
	if (!shown) {
		para(sb, "muted", "No stage is computable from these counts (tdperf record --stacks multistage "
		     "measures them).");
		return;
	}
	strbuf_addstr(sb, "<div class=\"tablewrap\"><table class=\"data\"><thead><tr><th>Component</th>");
	json_array_foreach(stages, k, st) {
		strbuf_addstr(sb, "<th class=\"num\" title=\"");
		strbuf_add_html(sb, td_json_str_or(st, "vendor_term", ""));
		strbuf_addstr(sb, "\">");
		strbuf_add_html(sb, td_json_str_or(st, "name", "?"));
		strbuf_addstr(sb, "<br><span class=\"muted\">paper: ");
		strbuf_add_html(sb, td_json_str_or(st, "paper_term", "?"));
		strbuf_addstr(sb, "</span></th>");
	}
	strbuf_addstr(sb, "<th class=\"num\">Range (min&ndash;max)</th></tr></thead><tbody>");
	json_array_foreach(comps, i, c) {
		const char *id = td_json_str(c, "id");
		json_t *range = part_by_id(json_object_get(ms, "range"), id);

		strbuf_addstr(sb, "<tr><td>");
		strbuf_add_html(sb, td_json_str_or(c, "name", id ? id : "?"));
		strbuf_addstr(sb, "</td>");
		json_array_foreach(stages, k, st) {
			if (!td_stack_stage_computed(st))
				strbuf_addstr(sb, "<td class=\"num muted\">&ndash;</td>");
			else
				part_cell(sb, part_by_id(json_object_get(st, "parts"), id), "%.3f");
		}
		strbuf_addstr(sb, "<td class=\"num\">");
		if (range && !isnan(jnum(range, "min")))
			strbuf_addf(sb, "%.3f &ndash; %.3f", jnum(range, "min"), jnum(range, "max"));
		else
			strbuf_addstr(sb, "&ndash;");
		strbuf_addstr(sb, "</td></tr>");
	}
	strbuf_addstr(sb, "<tr class=\"total\"><td><b>total</b></td>");
	json_array_foreach(stages, k, st) {
		strbuf_addstr(sb, "<td class=\"num\">");
		if (td_stack_stage_computed(st) && !isnan(jnum(st, "sum")))
			strbuf_addf(sb, "<b>%.3f</b>", jnum(st, "sum"));
		else
			strbuf_addstr(sb, "&ndash;");
		strbuf_addstr(sb, "</td>");
	}
	strbuf_addstr(sb, "<td></td></tr></tbody></table></div>");
	json_array_foreach(stages, k, st)
		if (!td_stack_stage_computed(st))
			stage_reason(sb, st);
	if (td_json_str(ms, "vocabulary"))
		para(sb, "muted", td_json_str(ms, "vocabulary"));
}

static void parts_table(struct strbuf *sb, const char *title, json_t *stack, const char *fmt)
{
	json_t *p;
	size_t i;

	strbuf_addstr(sb, "<div class=\"half\"><h4>");
	strbuf_add_html(sb, title);
	strbuf_addstr(sb, "</h4>");
	if (!jtrue(stack, "available")) {
		strbuf_addstr(sb, "<p class=\"muted\">");
		td_html_reason(sb, td_json_str_or(stack, "reason", "not available"));
		strbuf_addstr(sb, "</p></div>");
		return;
	}
	strbuf_addstr(sb, "<table class=\"data\"><thead><tr><th>Component</th><th class=\"num\">");
	strbuf_add_html(sb, td_json_str_or(stack, "unit", ""));
	strbuf_addstr(sb, "</th></tr></thead><tbody>");
	json_array_foreach(json_object_get(stack, "parts"), i, p) {
		strbuf_addstr(sb, "<tr><td>");
		strbuf_add_html(sb, td_json_str_or(p, "name", "?"));
		strbuf_addstr(sb, "</td>");
		part_cell(sb, p, fmt);
		strbuf_addstr(sb, "</tr>");
	}
	strbuf_addstr(sb, "</tbody></table></div>");
}

static void ipc_flops(struct strbuf *sb, json_t *ipc, json_t *fl)
{
	if (!json_is_object(ipc) && !json_is_object(fl))
		return;
	strbuf_addstr(sb, "<h3>IPC and FLOPS stacks</h3>");
	if (!jtrue(ipc, "available") && !jtrue(fl, "available")) {
		strbuf_addstr(sb, "<p class=\"muted\">Not computable: ");
		td_html_reason(sb, td_json_str_or(fl, "reason", td_json_str_or(ipc, "reason", "no counts")));
		strbuf_addstr(sb, "</p>");
		return;
	}
	strbuf_addstr(sb, "<p>");
	if (jtrue(ipc, "available"))
		strbuf_addf(sb, "IPC stack: uops per cycle at the %s stage, at most %.2f; achieved %.2f uops "
			    "(%.2f instructions) per cycle. ", td_json_str_or(ipc, "stage", "?"), jnum(ipc, "max"),
			    jnum(ipc, "upc"), jnum(ipc, "ipc"));
	if (jtrue(fl, "available"))
		strbuf_addf(sb, "FLOPS stack: %s peak %.4g %s, achieved %.4g %s.",
			    td_json_str_or(fl, "precision", "?"), jnum(fl, "peak"), td_json_str_or(fl, "unit", ""),
			    jnum(fl, "achieved"), td_json_str_or(fl, "unit", ""));
	strbuf_addstr(sb, "</p><div class=\"pair\">");
	parts_table(sb, "IPC stack", ipc, "%.2f");
	parts_table(sb, "FLOPS stack", fl, "%.4g");
	strbuf_addstr(sb, "</div>");
}

static void frontend(struct strbuf *sb, json_t *fe)
{
	json_t *p, *c = json_object_get(fe, "ceiling"), *h;
	size_t i;

	if (!json_is_object(fe))
		return;
	strbuf_addstr(sb, "<h3>Frontend delivery</h3>");
	if (!jtrue(fe, "available") || isnan(jnum(fe, "delivered_uops"))) {
		strbuf_addstr(sb, "<p class=\"muted\">");
		td_html_reason(sb, td_json_str_or(fe, "reason", "Not computable from these counts (tdperf record "
						 "--stacks frontend measures it)."));
		strbuf_addstr(sb, "</p>");
		return;
	}
	strbuf_addstr(sb, "<div class=\"tablewrap\"><table class=\"data\"><thead><tr><th>Path</th>"
		      "<th class=\"num\">Coverage</th><th class=\"num\">Uops/cycle while active</th>"
		      "<th class=\"num\">Uops/cycle overall</th><th class=\"num\">Best case</th></tr></thead><tbody>");
	json_array_foreach(json_object_get(fe, "paths"), i, p) {
		strbuf_addstr(sb, "<tr><td>");
		strbuf_add_html(sb, td_json_str_or(p, "name", "?"));
		strbuf_addstr(sb, "</td>");
		if (!jtrue(p, "measured")) {
			strbuf_addstr(sb, "<td colspan=\"4\" class=\"muted\">");
			td_html_reason(sb, td_json_str_or(p, "reason", "not measurable on this CPU"));
			strbuf_addstr(sb, "</td></tr>");
			continue;
		}
		strbuf_addstr(sb, "<td class=\"num\">");
		td_html_pct(sb, jnum(p, "coverage"));
		strbuf_addstr(sb, "</td><td class=\"num\">");
		td_html_num(sb, jnum(p, "rate_active"));
		strbuf_addstr(sb, "</td><td class=\"num\">");
		td_html_num(sb, jnum(p, "rate_overall"));
		strbuf_addstr(sb, "</td><td class=\"num\">");
		td_html_num(sb, jnum(p, "best_case_rate"));
		strbuf_addstr(sb, "</td></tr>");
	}
	strbuf_addstr(sb, "</tbody></table></div><p>");
	if (isnan(jnum(c, "value"))) {
		strbuf_addstr(sb, "Ceiling: not computable: ");
		td_html_reason(sb, td_json_str_or(c, "reason", "unknown"));
	} else {
		strbuf_addf(sb, "Ceiling %.2f uops/cycle = min(path %.2f, fetch %.2f from ", jnum(c, "value"),
			    jnum(c, "path_limit"), jnum(c, "fetch_limit"));
		strbuf_add_html(sb, td_json_str_or(c, "fetch_level", "?"));
		strbuf_addf(sb, ", retire %.2f), bound by ", jnum(c, "retire_width"));
		strbuf_add_html(sb, td_json_str_or(c, "binding", "?"));
		strbuf_addf(sb, "; measured %.2f, headroom %.2f.", jnum(c, "measured_upc"), jnum(c, "headroom"));
		if (jtrue(c, "approximate"))
			strbuf_addstr(sb, " <span class=\"badge approx\">&#8776; approximate</span>");
	}
	strbuf_addstr(sb, "</p>");
	if (json_array_size(json_object_get(fe, "hints"))) {
		strbuf_addstr(sb, "<ul>");
		json_array_foreach(json_object_get(fe, "hints"), i, h) {
			strbuf_addstr(sb, "<li>");
			strbuf_add_html(sb, json_string_value(h) ? json_string_value(h) : "");
			strbuf_addstr(sb, "</li>");
		}
		strbuf_addstr(sb, "</ul>");
	}
}

void td_html_stacks(struct strbuf *sb, json_t *stacks, const struct td_html_charts *hc)
{
	json_t *w;
	size_t i;

	if (!json_is_object(stacks) || !json_object_size(stacks))
		return;
	/* figures come right after their tables */
	if (json_is_object(json_object_get(stacks, "multistage")))
		multistage(sb, json_object_get(stacks, "multistage"));
	td_html_figure(sb, hc, "multistage-stack");
	ipc_flops(sb, json_object_get(stacks, "ipc"), json_object_get(stacks, "flops"));
	td_html_figure(sb, hc, "ipc-flops-stack");
	frontend(sb, json_object_get(stacks, "frontend"));
	json_array_foreach(json_object_get(stacks, "warnings"), i, w) {
		strbuf_addstr(sb, "<p class=\"warn\">");
		strbuf_add_html(sb, json_string_value(w) ? json_string_value(w) : "");
		strbuf_addstr(sb, "</p>");
	}
}
