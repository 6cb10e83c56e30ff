/*
 * tdperf diff as HTML (templates/diff.html): the verdict, both sides'
 * cards, the comparison charts (report/diff-charts.c) and the tables.
 */
#include "config.h"
#include "report/render.h"
#include "report/html.h"

#include <math.h>
#include <string.h>
#include <time.h>

/* ---- HTML ---- */

static void side_card(struct strbuf *sb, json_t *diff, const char *tag, struct td_chart *l1, size_t row)
{
	json_t *s = json_object_get(diff, tag);
	double cpi = td_json_num(json_object_get(s, "cpi"));

	strbuf_addf(sb, "<div class=\"sidecard\"><h3><span class=\"tag\">%s</span>", !strcmp(tag, "a") ? "A" : "B");
	strbuf_add_html(sb, td_json_str(s, "label"));
	strbuf_addstr(sb, "</h3><p class=\"muted\" style=\"margin:0 0 8px\">");
	strbuf_add_html(sb, td_json_str(s, "cpu") ? td_json_str(s, "cpu") : "CPU unknown");
	if (td_json_str(s, "table")) {
		strbuf_addstr(sb, " &middot; table ");
		strbuf_add_html(sb, td_json_str(s, "table"));
	}
	if (!isnan(td_json_num(json_object_get(s, "slots_per_cycle"))))
		strbuf_addf(sb, " &middot; %g slots/cycle", td_json_num(json_object_get(s, "slots_per_cycle")));
	strbuf_addstr(sb, " &middot; scope ");
	strbuf_add_html(sb, td_json_str(s, "scope"));
	strbuf_addstr(sb, "</p>");
	if (l1 && row < l1->nrows)
		td_html_stackbar(sb, l1, row, 1.0, NULL);
	strbuf_addstr(sb, "<div class=\"metrics\" style=\"margin:12px 0 4px\"><div class=\"metric\"><div class=\"k\">CPI</div><div class=\"v\">");
	td_html_num(sb, cpi);
	strbuf_addstr(sb, "</div><div class=\"u\">");
	if (isnan(cpi))
		strbuf_add_html(sb, td_json_str(s, "cpi_reason") ? td_json_str(s, "cpi_reason") : "unknown");
	else if (td_json_str(s, "cpi_from"))
		strbuf_add_html(sb, td_json_str(s, "cpi_from"));
	strbuf_addstr(sb, "</div></div><div class=\"metric\"><div class=\"k\">Cycles</div><div class=\"v\">");
	td_html_short(sb, td_json_num(json_object_get(s, "cycles")));
	strbuf_addstr(sb, "</div></div></div>");
	if (td_json_str(s, "bottleneck")) {
		strbuf_addstr(sb, "<p style=\"margin:8px 0 0\"><b>Bottleneck:</b> ");
		strbuf_add_html(sb, td_json_str(s, "bottleneck"));
		strbuf_addstr(sb, "</p>");
	}
	strbuf_addstr(sb, "</div>");
}

/* One sentence: how CPI changed and which component explains most of it. */
static void diff_verdict(struct strbuf *sb, json_t *diff)
{
	json_t *st = td_diff_deepest_cpi(diff), *c, *top = NULL;
	double ca = td_json_num(json_object_get(json_object_get(diff, "a"), "cpi"));
	double cb = td_json_num(json_object_get(json_object_get(diff, "b"), "cpi"));
	size_t i;

	strbuf_addstr(sb, "<div class=\"verdict\"><div class=\"sentence\">");
	if (st && !isnan(ca) && !isnan(cb)) {
		json_array_foreach(json_object_get(st, "components"), i, c) {
			double d = td_json_num(json_object_get(c, "delta"));

			if (!isnan(d) && (!top || fabs(d) > fabs(td_json_num(json_object_get(top, "delta")))))
				top = c;
		}
		strbuf_addf(sb, "B takes <b>%.3f</b> cycles per instruction against <b>%.3f</b> for A (%+.0f%%).", cb, ca,
			    (cb - ca) / ca * 100);
		if (top) {
			double d = td_json_num(json_object_get(top, "delta"));
			double share = td_json_num(json_object_get(top, "share"));

			strbuf_addstr(sb, " The largest part of the change is <b>");
			strbuf_add_html(sb, td_json_str(top, "name"));
			strbuf_addf(sb, "</b>: %+.3f cycles per instruction", d);
			if (!isnan(share))
				strbuf_addf(sb, " (%.0f%% of the change)", share * 100);
			strbuf_addstr(sb, ".");
		}
	} else {
		json_array_foreach(json_object_get(diff, "nodes"), i, c) {
			double d = td_json_num(json_object_get(c, "delta"));

			if (td_json_num(json_object_get(c, "level")) == 1 && !isnan(d) &&
			    (!top || fabs(d) > fabs(td_json_num(json_object_get(top, "delta")))))
				top = c;
		}
		strbuf_addstr(sb, "The CPI of one side is unknown, so the runs compare in fractions of slots only.");
		if (top) {
			strbuf_addstr(sb, " The Level-1 node that changed most is <b>");
			strbuf_add_html(sb, td_json_str(top, "name"));
			strbuf_addf(sb, "</b>: %+.1f points.", td_json_num(json_object_get(top, "delta")) * 100);
		}
	}
	strbuf_addstr(sb, "</div></div>");
}

/* Rank of entry e among the entries of 'list' with the same parent (for its colour shade). */
static int rank_in(json_t *list, json_t *e)
{
	const char *parent = td_json_str(e, "parent");
	json_t *x;
	size_t i;
	int rank = 0;

	json_array_foreach(list, i, x) {
		const char *p = td_json_str(x, "parent");

		if (x == e)
			break;
		if ((!p && !parent) || (p && parent && !strcmp(p, parent)))
			rank++;
	}
	return rank;
}

static void pct_td(struct strbuf *sb, double v, int approx, const char *source)
{
	strbuf_addstr(sb, "<td class=\"num\">");
	if (approx && !isnan(v))
		strbuf_addstr(sb, "&#8776;");
	td_html_pct(sb, v);
	/* nodes[].source: perf's printed value, or the sum of the node's Level-2 children */
	if (source && !isnan(v) && !strcmp(source, "perf"))
		strbuf_addstr(sb, "<sup class=\"src\" title=\"the value perf printed: the counts do not give it\">p</sup>");
	else if (source && !isnan(v) && !strcmp(source, "children"))
		strbuf_addstr(sb, "<sup class=\"src\" title=\"the sum of its Level-2 children: the counts do not "
			      "give it\">s</sup>");
	strbuf_addstr(sb, "</td>");
}

static void nodes_table(struct strbuf *sb, json_t *diff)
{
	json_t *n;
	size_t i;

	strbuf_addstr(sb, "<div class=\"tablewrap\"><table class=\"data\"><thead><tr><th>Node</th><th class=\"num\">A</th>"
		      "<th class=\"num\">B</th><th class=\"num\">B &minus; A</th><th>Notes</th></tr></thead><tbody>");
	json_array_foreach(json_object_get(diff, "nodes"), i, n) {
		int level = td_json_int(json_object_get(n, "level"), 0);
		double d = td_json_num(json_object_get(n, "delta"));
		const char *only = td_json_str(n, "only_in");
		const char *id = td_json_str(n, "id");

		strbuf_addf(sb, "<tr><td style=\"padding-left:%dpx\"><i class=\"sw\" style=\"background:%s\"></i>",
			    8 + (level - 1) * 22,
			    td_component_colour(id ? id : "", td_json_str(n, "parent"), level,
						rank_in(json_object_get(diff, "nodes"), n)));
		if (level <= 1)
			strbuf_addstr(sb, "<b>");
		strbuf_add_html(sb, td_json_str(n, "name") ? td_json_str(n, "name") : id ? id : "?");
		if (level <= 1)
			strbuf_addstr(sb, "</b>");
		strbuf_addstr(sb, "</td>");
		pct_td(sb, td_json_num(json_object_get(n, "a")), json_is_true(json_object_get(n, "a_approximate")),
		       td_json_str(n, "a_source"));
		pct_td(sb, td_json_num(json_object_get(n, "b")), json_is_true(json_object_get(n, "b_approximate")),
		       td_json_str(n, "b_source"));
		strbuf_addstr(sb, "<td class=\"num\">");
		if (!isnan(d)) {
			/* more Retiring is good news, more of anything else is not */
			int good = td_component_family(id, td_json_str(n, "parent")) == TD_FAMILY_RETIRING ? d > 0 : d < 0;

			strbuf_addf(sb, "<span class=\"delta %s\">%s %+.1f pts</span>", d == 0 ? "" : good ? "down" : "up",
				    d > 0 ? "&#9650;" : d < 0 ? "&#9660;" : "", d * 100);
		}
		strbuf_addstr(sb, "</td><td>");
		if (only)
			strbuf_addf(sb, "<span class=\"badge na\">only in %s</span> ", !strcmp(only, "a") ? "A" : "B");
		if (json_is_true(json_object_get(n, "a_approximate")) != json_is_true(json_object_get(n, "b_approximate")))
			strbuf_addstr(sb, "<span class=\"badge approx\">approximation changed</span> ");
		if (td_json_str(n, "a_reason") && isnan(td_json_num(json_object_get(n, "a")))) {
			strbuf_addstr(sb, "<span class=\"muted\">A: ");
			td_html_reason(sb, td_json_str(n, "a_reason"));
			strbuf_addstr(sb, "</span> ");
		}
		if (td_json_str(n, "b_reason") && isnan(td_json_num(json_object_get(n, "b")))) {
			strbuf_addstr(sb, "<span class=\"muted\">B: ");
			td_html_reason(sb, td_json_str(n, "b_reason"));
			strbuf_addstr(sb, "</span>");
		}
		strbuf_addstr(sb, "</td></tr>");
	}
	strbuf_addstr(sb, "</tbody></table></div><p class=\"hint\" style=\"margin-top:6px\">&#9650;/&#9660;: the share grew/shrank from A to B, green where that is an improvement (more Retiring, fewer stalls), red where not; &#8776;: approximate; <sup>p</sup>: the value perf printed, <sup>s</sup>: the sum of its Level-2 children (the counts did not give it).</p>");
}

static void attribution_table(struct strbuf *sb, json_t *st, const char *title, int cycles)
{
	json_t *c;
	size_t i;
	double un = td_json_num(json_object_get(st, "unattributed"));

	strbuf_addstr(sb, "<h3>");
	strbuf_add_html(sb, title);
	strbuf_addstr(sb, "</h3>");
	if (!json_is_array(json_object_get(st, "components"))) {
		strbuf_addstr(sb, "<p class=\"muted\">Not computable: ");
		td_html_reason(sb, td_json_str(st, "reason") ? td_json_str(st, "reason") : "?");
		strbuf_addstr(sb, "</p>");
		return;
	}
	strbuf_addstr(sb, "<div class=\"tablewrap\"><table class=\"data\"><thead><tr><th>Component</th><th class=\"num\">A</th>"
		      "<th class=\"num\">B</th><th class=\"num\">B &minus; A</th><th class=\"num\">Share of the change</th></tr></thead><tbody>");
	json_array_foreach(json_object_get(st, "components"), i, c) {
		const char *id = td_json_str(c, "id");
		int level = td_json_int(json_object_get(c, "level"), 0);
		double v[3] = { td_json_num(json_object_get(c, "a")), td_json_num(json_object_get(c, "b")),
				td_json_num(json_object_get(c, "delta")) };
		double share = td_json_num(json_object_get(c, "share"));
		int k;

		strbuf_addf(sb, "<tr><td><i class=\"sw\" style=\"background:%s\"></i>",
			    td_component_colour(id ? id : "", td_json_str(c, "parent"), level,
						rank_in(json_object_get(st, "components"), c)));
		strbuf_add_html(sb, td_json_str(c, "name") ? td_json_str(c, "name") : id ? id : "?");
		strbuf_addstr(sb, "</td>");
		for (k = 0; k < 3; k++) {
			strbuf_addstr(sb, "<td class=\"num\">");
			if (isnan(v[k]))
				strbuf_addstr(sb, "n/a");
			else if (cycles)
				td_html_short(sb, v[k]);
			else
				strbuf_addf(sb, k == 2 ? "%+.4f" : "%.4f", v[k]);
			strbuf_addstr(sb, "</td>");
		}
		strbuf_addstr(sb, "<td class=\"num\">");
		if (!isnan(share))
			strbuf_addf(sb, "%.0f%%", share * 100);
		strbuf_addstr(sb, "</td></tr>");
	}
	strbuf_addstr(sb, "<tr><td><b>total</b></td>");
	{
		double t[3] = { td_json_num(json_object_get(st, "a_total")), td_json_num(json_object_get(st, "b_total")),
				td_json_num(json_object_get(st, "delta")) };
		int k;

		for (k = 0; k < 3; k++) {
			strbuf_addstr(sb, "<td class=\"num\"><b>");
			if (cycles)
				td_html_short(sb, t[k]);
			else
				strbuf_addf(sb, k == 2 ? "%+.4f" : "%.4f", t[k]);
			strbuf_addstr(sb, "</b></td>");
		}
	}
	strbuf_addstr(sb, "<td></td></tr></tbody></table></div>");
	if (!isnan(un) && fabs(un) > 1e-9 * fmax(1, fabs(td_json_num(json_object_get(st, "delta")))))
		strbuf_addf(sb, "<p class=\"hint\" style=\"margin-top:6px\">Not attributed (the fractions do not sum to 1): %+.4g.</p>", un);
	if (td_json_str(st, "reason")) {
		strbuf_addstr(sb, "<p class=\"hint\" style=\"margin-top:6px\">");
		td_html_reason(sb, td_json_str(st, "reason"));
		strbuf_addstr(sb, "</p>");
	}
	if (json_is_true(json_object_get(st, "approximate")))
		strbuf_addstr(sb, "<p><span class=\"badge approx\">&#8776; built from approximate nodes</span></p>");
}

static void id_list(struct strbuf *sb, const char *what, json_t *list)
{
	json_t *x;
	size_t i;

	if (!json_array_size(list))
		return;
	strbuf_addstr(sb, "<p><b>");
	strbuf_add_html(sb, what);
	strbuf_addstr(sb, ":</b> ");
	json_array_foreach(list, i, x) {
		if (i)
			strbuf_addstr(sb, ", ");
		strbuf_addstr(sb, "<code>");
		strbuf_add_html(sb, td_json_str(x, "id") ? td_json_str(x, "id") : "?");
		strbuf_addf(sb, "</code> <span class=\"muted\">L%d</span>", td_json_int(json_object_get(x, "level"), 0));
	}
	strbuf_addstr(sb, "</p>");
}

static void mux_item(struct strbuf *sb, const char *tag, json_t *m)
{
	double n = td_json_num(json_object_get(m, "multiplexed")), low = td_json_num(json_object_get(m, "lowest_running_pct"));

	strbuf_addf(sb, "<p><span class=\"tag\">%s</span>", tag);
	if (n > 0) {
		strbuf_addf(sb, "<span class=\"badge mux\">%g of %g events multiplexed", n, td_json_num(json_object_get(m, "events")));
		if (!isnan(low))
			strbuf_addf(sb, ", lowest %.1f%% of the time", low);
		strbuf_addstr(sb, "</span>");
	} else {
		strbuf_addf(sb, "<span class=\"badge ok\">no multiplexing (%g events)</span>", td_json_num(json_object_get(m, "events")));
	}
	strbuf_addstr(sb, "</p>");
}

static void details(struct strbuf *sb, json_t *diff)
{
	json_t *x;
	size_t i;

	strbuf_addstr(sb, "<h3>Nodes on one side only</h3>");
	if (!json_array_size(json_object_get(diff, "only_in_a")) && !json_array_size(json_object_get(diff, "only_in_b")))
		strbuf_addstr(sb, "<p class=\"muted\">None: both sides have the same nodes.</p>");
	id_list(sb, "only in A", json_object_get(diff, "only_in_a"));
	id_list(sb, "only in B", json_object_get(diff, "only_in_b"));
	strbuf_addstr(sb, "<h3>Approximations</h3>");
	if (!json_array_size(json_object_get(diff, "approximations")))
		strbuf_addstr(sb, "<p class=\"muted\">No Level 1-2 node is approximate on either side.</p>");
	json_array_foreach(json_object_get(diff, "approximations"), i, x) {
		strbuf_addstr(sb, "<p>");
		strbuf_add_html(sb, td_json_str(x, "name") ? td_json_str(x, "name") : "?");
		strbuf_addf(sb, ": %s in A, %s in B%s</p>", json_is_true(json_object_get(x, "a")) ? "approximate" : "exact",
			    json_is_true(json_object_get(x, "b")) ? "approximate" : "exact",
			    json_is_true(json_object_get(x, "changed")) ? " <span class=\"badge approx\">changed</span>" : "");
	}
	strbuf_addstr(sb, "<h3>Multiplexing</h3>");
	mux_item(sb, "A", json_object_get(json_object_get(diff, "a"), "multiplexing"));
	mux_item(sb, "B", json_object_get(json_object_get(diff, "b"), "multiplexing"));
}

static void fig_or_note(struct strbuf *sb, struct td_html_charts *hc, const char *stem, int *noted)
{
	if (td_html_figure(sb, hc, stem) || *noted || !hc->status.len)
		return;
	strbuf_addstr(sb, "<p class=\"nocharts\">");
	strbuf_add_html(sb, hc->status.buf);
	strbuf_addstr(sb, "</p>");
	*noted = 1;
}

int td_diff_render_html(json_t *diff, const char *path, struct strbuf *err)
{
	struct td_template *t = td_template_new();
	struct td_html_charts hc;
	struct strbuf sb = STRBUF_INIT;
	json_t *st;
	struct td_chart *l1;
	time_t now = time(NULL);
	char date[64];
	size_t i;
	int ret = -1, noted = 0;

	memset(&hc, 0, sizeof(hc));
	td_charts_for_diff(diff, &hc.list);
	td_html_charts_render(&hc);

	strbuf_addstr(&sb, td_json_str(json_object_get(diff, "a"), "label"));
	strbuf_addstr(&sb, " vs ");
	strbuf_addstr(&sb, td_json_str(json_object_get(diff, "b"), "label"));
	td_template_set_text(t, "title", sb.buf);
	strbuf_reset(&sb);
	for (i = 0; i < 2; i++) {
		json_t *s = json_object_get(diff, i ? "b" : "a");

		strbuf_addf(&sb, "<span class=\"chip\">%s <b>", i ? "B" : "A");
		strbuf_add_html(&sb, td_json_str(s, "cpu") ? td_json_str(s, "cpu") : td_json_str(s, "label"));
		strbuf_addstr(&sb, "</b></span>");
	}
	td_template_set_html(t, "chips", sb.buf);

	strbuf_reset(&sb);
	diff_verdict(&sb, diff);
	strbuf_addstr(&sb, "<div class=\"side\">");
	l1 = NULL;
	for (i = 0; i < hc.list.nr; i++)
		if (!strcmp(hc.list.items[i]->stem, "compare-l1"))
			l1 = hc.list.items[i];
	side_card(&sb, diff, "a", l1, 0);
	side_card(&sb, diff, "b", l1, 1);
	strbuf_addstr(&sb, "</div>");
	if (l1)
		td_html_legend(&sb, l1, -1);
	td_html_warnings(&sb, json_object_get(diff, "warnings"));
	td_template_set_html(t, "summary", sb.buf);

	strbuf_reset(&sb);
	if (!json_is_false(json_object_get(diff, "topdown_measured"))) {
		fig_or_note(&sb, &hc, "compare-l1", &noted);
		td_html_figure(&sb, &hc, "compare-l2");
		nodes_table(&sb, diff);
	} else {
		td_diff_render_counts_html(&sb, diff); /* in Top-Down's place: analyze/diff-counts.c */
	}
	td_template_set_html(t, "levels", sb.buf);

	strbuf_reset(&sb);
	fig_or_note(&sb, &hc, "compare-cpi", &noted);
	td_html_figure(&sb, &hc, "cpi-delta");
	json_array_foreach(json_object_get(diff, "cpi_stacks"), i, st) {
		char title[96];

		snprintf(title, sizeof(title), "CPI stack, Level %d: cycles per instruction by component",
			 td_json_int(json_object_get(st, "level"), 0));
		attribution_table(&sb, st, title, 0);
	}
	attribution_table(&sb, json_object_get(diff, "cycles"), "Cycles by component (instructions x CPI stack)", 1);
	td_template_set_html(t, "cpi", sb.buf);

	strbuf_reset(&sb);
	details(&sb, diff);
	if (!json_is_false(json_object_get(diff, "topdown_measured")))
		td_diff_render_counts_html(&sb, diff);
	td_template_set_html(t, "details", sb.buf);

	strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", gmtime(&now));
	strbuf_reset(&sb);
	strbuf_addf(&sb, "Generated by tdperf %s on %s (diff schema v1). One self-contained file: no script, "
		    "nothing loaded from the network.", PACKAGE_VERSION, date);
	td_template_set_text(t, "footer", sb.buf);

	ret = td_template_write(t, "diff.html", path, err);
	td_template_free(t);
	td_html_charts_release(&hc);
	strbuf_release(&sb);
	return ret;
}
