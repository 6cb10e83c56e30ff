/*
 * HTML for the per-scope parts of the report: the collapsible Top-Down
 * tree, the raw events with their multiplexing, and the tables comparing
 * scopes (threads, CPUs, PMUs) and intervals.
 *
 * The tree uses <details> so it folds without any script.  A node is
 * "dim" when it or an ancestor is below its threshold (hierarchical
 * safety: only nodes whose whole path is flagged count), and open when it
 * lies on the bottleneck path.
 */
#include "config.h"
#include "report/render.h"
#include "report/html.h"

#include <math.h>
#include <string.h>

/*
 * 'p' for a node whose value is the one perf printed, 's' for one summed
 * from its Level-2 children (nodes[].source), 0 for one from the counts.
 */
int td_html_node_source(json_t *n)
{
	const char *src = td_json_str(n, "source");

	return !src ? 0 : !strcmp(src, "perf") ? 'p' : !strcmp(src, "children") ? 's' : 0;
}

/* Has any node of the scope a value (perf printed some without counts)? */
int td_html_scope_has_values(json_t *scope)
{
	json_t *n;
	size_t i;

	json_array_foreach(json_object_get(scope, "nodes"), i, n)
		if (!isnan(td_json_num(json_object_get(n, "value"))))
			return 1;
	return 0;
}

static int on_path(json_t *scope, const char *id)
{
	json_t *path = json_object_get(json_object_get(scope, "bottleneck"), "path"), *p;
	size_t i;

	json_array_foreach(path, i, p)
		if (json_is_string(p) && !strcmp(json_string_value(p), id))
			return 1;
	return 0;
}

static void node_badges(struct strbuf *sb, json_t *n, double v, int bn)
{
	double perf = td_json_num(json_object_get(n, "perf_value"));

	strbuf_addstr(sb, "<span class=\"badges\">");
	if (bn)
		strbuf_addstr(sb, "<span class=\"badge bn\">bottleneck</span>");
	if (json_is_true(json_object_get(n, "flagged")))
		strbuf_addstr(sb, "<span class=\"badge flag\" title=\"above its threshold\">&#9650; above threshold</span>");
	if (isnan(v))
		strbuf_addstr(sb, "<span class=\"badge na\">not computable</span>");
	if (json_is_true(json_object_get(n, "approximate")))
		strbuf_addstr(sb, "<span class=\"badge approx\">&#8776; approximate</span>");
	if (td_html_node_source(n) == 'p')
		strbuf_addstr(sb, "<span class=\"badge src\" title=\"the counts do not give this node: its value "
			      "is the one perf printed, its error bar half the printed resolution\">printed by perf</span>");
	else if (td_html_node_source(n) == 's')
		strbuf_addstr(sb, "<span class=\"badge src\" title=\"neither the counts nor perf give this node: "
			      "its value is the sum of its Level-2 children\">sum of Level 2</span>");
	if (json_is_true(json_object_get(n, "undecided")))
		strbuf_addstr(sb, "<span class=\"badge undecided\" title=\"the error bar reaches across the "
			      "node's threshold\">? not decided</span>");
	if (td_json_str(n, "sanity"))
		strbuf_addstr(sb, "<span class=\"badge sanity\" title=\"out of range: see the detail\">"
			      "&#10007; out of range</span>");
	if (!isnan(perf)) {
		strbuf_addstr(sb, "<span class=\"badge perf\" title=\"the value perf printed for this node\">perf ");
		td_html_pct(sb, perf);
		strbuf_addstr(sb, "</span>");
	}
	strbuf_addstr(sb, "</span>");
}

static json_t *warned_scope;

void td_html_tree_warned_scope(json_t *scope)
{
	warned_scope = scope;
}

/*
 * The node's out-of-range message and how its value was estimated; a
 * likely cause the page's warnings say (once for all the nodes it
 * explains) is pointed to, not repeated.
 */
static void node_trust(struct strbuf *sb, json_t *n, json_t *scope)
{
	const char *sanity = td_json_str(n, "sanity"), *estimate = td_json_str(n, "estimate");

	if (sanity) {
		size_t head = strlen(sanity);
		char *text;

		if (scope == warned_scope && td_cause_shared(json_object_get(scope, "warnings"), sanity))
			td_cause_split(sanity, &head);
		strbuf_addstr(sb, "<p class=\"reason sanity\">Out of range: ");
		text = xstrndup(sanity, head);
		strbuf_add_html(sb, text);
		free(text);
		if (head < strlen(sanity))
			strbuf_addstr(sb, "; likely cause: in the warnings at the top");
		strbuf_addstr(sb, "</p>");
	}
	if (estimate) {
		strbuf_addstr(sb, "<p class=\"reason approx\">");
		strbuf_add_html(sb, estimate);
		strbuf_addstr(sb, "</p>");
	}
}

static void node_detail(struct strbuf *sb, json_t *n, double v, json_t *scope)
{
	const char *desc = td_json_str(n, "description");
	const char *thr = td_json_str(n, "threshold");
	const char *formula = td_json_str(n, "formula");
	const char *reason = td_json_str(n, "reason");
	const char *unit = td_json_str(n, "unit");
	int level = td_json_int(json_object_get(n, "level"), 0);

	strbuf_addstr(sb, "<div class=\"detail\">");
	if (desc) {
		strbuf_addstr(sb, "<p>");
		strbuf_add_html(sb, desc);
		strbuf_addstr(sb, "</p>");
	}
	if (isnan(v))
		strbuf_addstr(sb, "<p class=\"reason\">Not computable: ");
	else if (td_html_node_source(n))
		strbuf_addstr(sb, "<p class=\"reason src\">Not from the counts");
	else if (json_is_true(json_object_get(n, "approximate")))
		strbuf_addstr(sb, "<p class=\"reason approx\">Approximate");
	if (isnan(v) || td_html_node_source(n) || json_is_true(json_object_get(n, "approximate"))) {
		if (reason) {
			strbuf_addstr(sb, isnan(v) ? "" : ": ");
			td_html_reason(sb, reason);
		} else if (isnan(v)) {
			strbuf_addstr(sb, "no reason recorded");
		}
		strbuf_addstr(sb, "</p>");
	}
	node_trust(sb, n, scope);
	strbuf_addstr(sb, "<p class=\"muted\">");
	if (level > 0)
		strbuf_addf(sb, "Level %d", level);
	if (unit) {
		strbuf_addstr(sb, " &middot; fraction of ");
		strbuf_add_html(sb, unit);
	}
	if (thr) {
		strbuf_addstr(sb, " &middot; threshold <code>");
		strbuf_add_html(sb, thr);
		strbuf_addstr(sb, "</code>");
	}
	strbuf_addstr(sb, " &middot; id <code>");
	strbuf_add_html(sb, td_json_str(n, "id"));
	strbuf_addstr(sb, "</code></p>");
	if (formula) {
		strbuf_addstr(sb, "<details class=\"formula\"><summary>Formula</summary><pre class=\"formula\">");
		strbuf_add_html(sb, formula);
		strbuf_addstr(sb, "</pre></details>");
	}
	strbuf_addstr(sb, "</div>");
}

static int has_children(json_t *nodes, const char *id)
{
	json_t *n;
	size_t i;

	json_array_foreach(nodes, i, n) {
		const char *p = td_json_str(n, "parent");

		if (p && !strcmp(p, id))
			return 1;
	}
	return 0;
}

/* The children of 'parent' (NULL: the roots), recursively. */
static void tree_level(struct strbuf *sb, json_t *scope, json_t *nodes, const char *parent,
		       int safe, int depth)
{
	json_t *n;
	size_t i;
	int rank = 0;

	if (depth > 12)
		return; /* a cycle in parent links: the document is wrong, stop */
	json_array_foreach(nodes, i, n) {
		const char *p = td_json_str(n, "parent"), *id = td_json_str(n, "id");
		const char *name = td_json_str(n, "name");
		double v = td_json_num(json_object_get(n, "value"));
		int level = td_json_int(json_object_get(n, "level"), 0);
		int flagged = json_is_true(json_object_get(n, "flagged"));
		int bn = on_path(scope, id ? id : "") || json_is_true(json_object_get(n, "bottleneck"));
		int kids, node_safe = safe && flagged;
		const char *colour;

		if (!id || (parent ? !p || strcmp(p, parent) : !!p))
			continue;
		colour = td_component_colour(id, p, level, rank++);
		kids = has_children(nodes, id);
		strbuf_addf(sb, "<details class=\"node%s%s%s\"%s id=\"node-", kids ? "" : " leaf",
			    node_safe ? "" : " dim", bn ? " bnpath" : "", bn ? " open" : "");
		strbuf_add_html(sb, td_json_str(scope, "id") ? td_json_str(scope, "id") : "scope");
		strbuf_addch(sb, '-');
		strbuf_add_html(sb, id);
		strbuf_addstr(sb, "\"><summary><span class=\"name\">");
		strbuf_addf(sb, "<i class=\"sw\" style=\"background:%s\"></i>", colour);
		strbuf_add_html(sb, name ? name : id);
		strbuf_addf(sb, "</span><span class=\"val%s\">", isnan(v) ? " na" : "");
		if (json_is_true(json_object_get(n, "approximate")) && !isnan(v))
			strbuf_addstr(sb, "&#8776;");
		td_html_pct(sb, v);
		if (td_html_node_source(n) && !isnan(v))
			strbuf_addf(sb, "<sup class=\"src\" title=\"%s\">%c</sup>",
				    td_html_node_source(n) == 'p' ? "printed by perf" : "sum of its Level-2 children",
				    td_html_node_source(n));
		if (!isnan(v) && json_is_number(json_object_get(n, "uncertainty")))
			strbuf_addf(sb, " <small class=\"unc\">&plusmn; %.2f</small>",
				    td_json_num(json_object_get(n, "uncertainty")) * 100);
		strbuf_addstr(sb, "</span><span class=\"bar\">");
		if (!isnan(v) && v > 0)
			strbuf_addf(sb, "<i style=\"width:%.2f%%;background:%s\"></i>", fmin(v, 1.0) * 100, colour);
		strbuf_addstr(sb, "</span>");
		node_badges(sb, n, v, bn);
		strbuf_addstr(sb, "</summary>");
		node_detail(sb, n, v, scope);
		if (kids) {
			strbuf_addstr(sb, "<div class=\"children\">");
			tree_level(sb, scope, nodes, id, node_safe, depth + 1);
			strbuf_addstr(sb, "</div>");
		}
		strbuf_addstr(sb, "</details>");
	}
}

void td_html_tree(struct strbuf *sb, json_t *scope)
{
	json_t *nodes = json_object_get(scope, "nodes");
	const char *sentence = td_json_str(json_object_get(scope, "bottleneck"), "sentence");

	if (json_is_false(json_object_get(scope, "hardware_counts")) && !td_html_scope_has_values(scope)) {
		/* a tree of n/a would only repeat this sentence per node */
		strbuf_addstr(sb, "<p class=\"muted nohw\">");
		strbuf_add_html(sb, sentence ? sentence : "Top-Down not measured: no hardware counts in this scope.");
		strbuf_addstr(sb, "</p>");
		return;
	}
	if (!json_array_size(nodes)) {
		/* a table without a tree (AMD Zen 1-3) says why; no table says nothing */
		strbuf_addstr(sb, sentence ? "<p class=\"muted notree\">" : "<p class=\"muted\">");
		strbuf_add_html(sb, sentence ? sentence : "No Top-Down nodes in this scope.");
		strbuf_addstr(sb, "</p>");
		return;
	}
	strbuf_addstr(sb, "<div class=\"tree\">");
	tree_level(sb, scope, nodes, NULL, 1, 0);
	strbuf_addstr(sb, "</div>");
	td_html_repeat(sb, scope);
}

/* ---- raw events ---- */

void td_html_events(struct strbuf *sb, json_t *scope)
{
	json_t *events = json_object_get(scope, "events"), *e;
	size_t i, muxed = 0;

	if (!json_array_size(events)) {
		strbuf_addstr(sb, "<p class=\"muted\">No raw events in this scope.</p>");
		return;
	}
	strbuf_addstr(sb, "<div class=\"tablewrap\"><table class=\"data events\"><thead><tr><th>Event</th><th>PMU</th>"
		      "<th class=\"num\">Count</th><th>Status</th><th>Counted</th><th class=\"num\">&plusmn; variance</th>"
		      "</tr></thead><tbody>");
	json_array_foreach(events, i, e) {
		const char *name = td_json_str(e, "name"), *pmu = td_json_str(e, "pmu");
		const char *status = td_json_str(e, "status");
		double v = td_json_num(json_object_get(e, "value"));
		double run = td_json_num(json_object_get(e, "running_pct"));
		double var = td_json_num(json_object_get(e, "variance_pct"));
		int scaled = json_is_true(json_object_get(e, "scaled"));
		int ok = !status || !strcmp(status, "ok");
		int mux = ok && ((!isnan(run) && run < 100.0) || scaled);

		muxed += mux;
		strbuf_addf(sb, "<tr class=\"%s\"><td class=\"mono\">", !ok ? "na" : mux ? "mux" : "");
		strbuf_add_html(sb, name ? name : "?");
		strbuf_addstr(sb, "</td><td>");
		if (pmu)
			strbuf_add_html(sb, pmu);
		strbuf_addstr(sb, "</td><td class=\"num\">");
		td_html_num(sb, v);
		strbuf_addstr(sb, "</td><td>");
		strbuf_addf(sb, "<span class=\"badge %s\">", ok ? "ok" : "na");
		strbuf_add_html(sb, status ? status : "ok");
		strbuf_addstr(sb, "</span></td><td>");
		if (!isnan(run)) {
			strbuf_addf(sb, "<span class=\"runbar\"><i class=\"%s\" style=\"width:%.1f%%\"></i></span>%.1f%%",
				    run >= 100.0 ? "full" : "", fmin(fmax(run, 0), 100), run);
			if (mux)
				strbuf_addstr(sb, " <span class=\"badge mux\">multiplexed, scaled</span>");
		} else if (ok) {
			/*
			 * perf stat's text output gives the share of time counted only
			 * when it is below 100 % (running < enabled): an event counted
			 * without one ran all the time.  Said in words, not as a number
			 * perf did not print.
			 */
			strbuf_addstr(sb, "<span class=\"runbar\"><i class=\"full\" style=\"width:100%\"></i></span>"
				      "all the time <span class=\"muted\">(perf printed no share: it prints one "
				      "only for an event counted part of the time)</span>");
		} else {
			strbuf_addstr(sb, "<span class=\"muted\">not counted</span>");
		}
		strbuf_addstr(sb, "</td><td class=\"num\">");
		if (!isnan(var))
			strbuf_addf(sb, "%.2f%%", var);
		strbuf_addstr(sb, "</td></tr>");
	}
	strbuf_addstr(sb, "</tbody></table></div>");
	if (muxed)
		strbuf_addf(sb, "<p class=\"hint\" style=\"margin-top:8px\">%zu of %zu events were counted only part of "
			    "the time (multiplexed) and scaled by perf; ratios between events of different groups "
			    "are less exact.</p>", muxed, json_array_size(events));
}

/* ---- scope comparison (threads, CPUs, PMUs, runs) ---- */

static double metric(json_t *scope, const char *id)
{
	json_t *m;
	size_t i;

	json_array_foreach(json_object_get(scope, "metrics"), i, m) {
		const char *mid = td_json_str(m, "id");

		if (mid && !strcasecmp(mid, id))
			return td_json_num(json_object_get(m, "value"));
	}
	return NAN;
}

void td_html_scope_table(struct strbuf *sb, json_t *doc, struct td_chart *l1)
{
	json_t *scopes = json_object_get(doc, "scopes"), *s;
	size_t i, row = 0;

	strbuf_addstr(sb, "<div class=\"tablewrap\"><table class=\"data\"><thead><tr><th>Scope</th>"
		      "<th>Top-Down Level 1</th><th class=\"num\">IPC</th><th>Bottleneck</th></tr></thead><tbody>");
	json_array_foreach(scopes, i, s) {
		json_t *bn = json_object_get(s, "bottleneck");
		const char *sentence = td_json_str(bn, "sentence");
		struct strbuf label = STRBUF_INIT;

		if (td_scope_is_interval(s) || row >= l1->nrows)
			continue;
		td_scope_label_among(&label, scopes, s);
		if (strcmp(label.buf, l1->rows[row].label)) {
			strbuf_release(&label);
			continue; /* a scope without Level 1 has no row in the chart */
		}
		strbuf_addstr(sb, "<tr><td><b>");
		strbuf_add_html(sb, label.buf);
		strbuf_addstr(sb, "</b><br><span class=\"muted\">");
		strbuf_add_html(sb, td_json_str(s, "kind") ? td_json_str(s, "kind") : "");
		strbuf_addstr(sb, "</span></td><td>");
		td_html_stackbar(sb, l1, row, 1.0, NULL);
		strbuf_addstr(sb, "</td><td class=\"num\">");
		td_html_num(sb, metric(s, "ipc"));
		strbuf_addstr(sb, "</td><td>");
		if (sentence)
			strbuf_add_html(sb, sentence);
		else
			strbuf_addstr(sb, "<span class=\"muted\">none found</span>");
		strbuf_addstr(sb, "</td></tr>");
		strbuf_release(&label);
		row++;
	}
	strbuf_addstr(sb, "</tbody></table></div>");
	td_html_legend(sb, l1, -1);
}

/* ---- intervals ---- */

/* White text on the component colour, its opacity following the value. */
void td_html_interval_table(struct strbuf *sb, json_t *doc)
{
	json_t *scopes = json_object_get(doc, "scopes"), *s, *ivals = json_array();
	struct td_chart *c;
	size_t i, j;

	json_array_foreach(scopes, i, s)
		if (td_scope_is_interval(s)) {
			json_t *copy = json_copy(s);

			/* label rows by time */
			json_object_set_new(copy, "kind", json_string("total"));
			json_object_set_new(copy, "time", json_null());
			json_object_set_new(copy, "pmu", json_null());
			json_object_set_new(copy, "label", json_null());
			json_array_append_new(ivals, copy);
		}
	c = td_chart_topdown(ivals, 1, "intervals", "intervals");
	if (!c) {
		json_decref(ivals);
		return;
	}
	strbuf_addstr(sb, "<details class=\"scope\"><summary>Level 1 per interval (table)</summary>"
		      "<div class=\"tablewrap\"><table class=\"data\"><thead><tr><th class=\"num\">time (s)</th>");
	if (json_array_size(ivals) != c->nrows)
		goto done; /* not every interval has Level 1: rows would not line up */
	for (j = 0; j < c->nseries; j++) {
		strbuf_addstr(sb, "<th class=\"num\">");
		strbuf_add_html(sb, c->series[j].name);
		strbuf_addstr(sb, "</th>");
	}
	strbuf_addstr(sb, "<th>PMU / scope</th></tr></thead><tbody>");
	j = 0;
	json_array_foreach(scopes, i, s) {
		size_t k;
		struct strbuf label = STRBUF_INIT;

		if (!td_scope_is_interval(s))
			continue;
		strbuf_addf(sb, "<tr><td class=\"num\">%.3f</td>", td_json_num(json_object_get(s, "time")));
		for (k = 0; k < c->nseries; k++) {
			double v = c->rows[j].values[k];

			if (isnan(v))
				strbuf_addstr(sb, "<td class=\"num muted\">n/a</td>");
			else
				strbuf_addf(sb, "<td class=\"heat\" style=\"background:%s;opacity:%.2f\">%.1f%%</td>",
					    c->series[k].colour, 0.35 + 0.65 * fmin(v, 100) / 100.0, v);
		}
		strbuf_addstr(sb, "<td class=\"muted\">");
		if (td_json_str(s, "pmu") || td_json_str(s, "label")) {
			json_t *copy = json_copy(s);

			json_object_set_new(copy, "id", json_string(""));
			td_scope_label(&label, copy);
			strbuf_add_html(sb, label.buf);
			json_decref(copy);
		}
		strbuf_addstr(sb, "</td></tr>");
		strbuf_release(&label);
		j++;
	}
	strbuf_addstr(sb, "</tbody>");
done:
	strbuf_addstr(sb, "</table></div></details>");
	td_chart_free(c);
	json_decref(ivals);
}
