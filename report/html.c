/*
 * The HTML report: one self-contained file (CSS and SVG inline, no script,
 * nothing fetched from the network) rendered from templates/report.html.
 *
 * Order of the page: the summary (bottleneck path in one sentence, Level-1
 * and Level-2 bars, key metrics, data quality, warnings), the Top-Down tree,
 * stacks and charts, the per-scope and per-interval sections when the data
 * has them, the raw events with multiplexing, and the run's metadata.
 */
#include "config.h"
#include "report/render.h"
#include "report/html.h"

#include <math.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>

/* ---- title and chips ---- */

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

/* What the report is about: the workload, else the imported file. */
static void report_title(struct strbuf *sb, json_t *run)
{
	json_t *workload = json_object_get(run, "workload"), *w, *files, *f;
	size_t i;

	if (td_json_str(run, "title")) { /* a sweep's: analyze/threads-json.c */
		strbuf_addstr(sb, td_json_str(run, "title"));
		return;
	}
	if (json_array_size(workload)) {
		json_array_foreach(workload, i, w) {
			if (!json_is_string(w))
				continue;
			if (sb->len)
				strbuf_addch(sb, ' ');
			strbuf_addstr(sb, i ? json_string_value(w) : base_name(json_string_value(w)));
			if (sb->len > 100) {
				strbuf_addstr(sb, " ...");
				break;
			}
		}
		return;
	}
	if (td_json_str(run, "input")) {
		strbuf_addstr(sb, base_name(td_json_str(run, "input")));
		return;
	}
	files = json_object_get(run, "files");
	json_array_foreach(files, i, f) {
		const char *role = td_json_str(f, "role"), *name = td_json_str(f, "name");

		if (role && name && strstr(role, "input")) {
			strbuf_addstr(sb, base_name(name));
			return;
		}
	}
	strbuf_addstr(sb, "Top-Down report");
}

static void chip(struct strbuf *sb, const char *key, const char *value)
{
	if (!value || !*value)
		return;
	strbuf_addstr(sb, "<span class=\"chip\">");
	if (key) {
		strbuf_add_html(sb, key);
		strbuf_addstr(sb, " ");
	}
	strbuf_addstr(sb, "<b>");
	strbuf_add_html(sb, value);
	strbuf_addstr(sb, "</b></span>");
}

static void chips(struct strbuf *sb, json_t *doc)
{
	json_t *run = json_object_get(doc, "run"), *cpu = json_object_get(run, "cpu");
	json_t *table = json_object_get(doc, "table"), *smt = json_object_get(run, "smt");
	const char *kind = td_json_str(run, "kind");
	double width = td_json_num(json_object_get(table, "slots_per_cycle"));
	char buf[64];

	chip(sb, NULL, td_json_str(cpu, "name") ? td_json_str(cpu, "name") : td_json_str(table, "display"));
	chip(sb, "table", td_json_str(table, "name"));
	if (!isnan(width)) {
		snprintf(buf, sizeof(buf), "%g", width);
		chip(sb, "slots/cycle", buf);
	}
	if (json_is_boolean(json_object_get(smt, "on")))
		chip(sb, "SMT", json_is_true(json_object_get(smt, "on")) ? "on" : "off");
	if (kind)
		chip(sb, NULL, !strcmp(kind, "import") ? "imported perf stat output" : "recorded by tdperf");
	chip(sb, "started", td_json_str(run, "start_time"));
	chip(sb, "perf", td_json_str(json_object_get(run, "host"), "perf_version"));
	chip(sb, "host", td_json_str(json_object_get(run, "host"), "hostname"));
}

/* ---- summary ---- */

static json_t *find_node(json_t *scope, const char *id)
{
	json_t *n;
	size_t i;

	json_array_foreach(json_object_get(scope, "nodes"), i, n) {
		const char *nid = td_json_str(n, "id");

		if (nid && !strcmp(nid, id))
			return n;
	}
	return NULL;
}

/* Is some Level-1 node without a value?  Then no bottleneck is no news. */
static int level1_unknown(json_t *scope)
{
	json_t *n;
	size_t i;

	json_array_foreach(json_object_get(scope, "nodes"), i, n)
		if (td_json_int(json_object_get(n, "level"), 0) == 1 && isnan(td_json_num(json_object_get(n, "value"))))
			return 1;
	return 0;
}

static void verdict(struct strbuf *sb, json_t *scope)
{
	json_t *bn = json_object_get(scope, "bottleneck"), *path = json_object_get(bn, "path"), *p;
	const char *sentence = td_json_str(bn, "sentence");
	size_t i;

	if (!json_array_size(path)) {
		int any = json_array_size(json_object_get(scope, "nodes")) > 0;

		/* "none" (nothing flagged) is good news; not measured is not */
		if (json_is_false(json_object_get(scope, "hardware_counts")) && !td_html_scope_has_values(scope))
			any = 0;
		if (level1_unknown(scope))
			any = 0;
		/* "no clear bottleneck" (two Level-1 nodes within 5 points) is no good news either */
		if (json_is_true(json_object_get(bn, "ambiguous")) || (sentence && !strncmp(sentence, "no clear", 8)))
			any = 0;
		strbuf_addf(sb, "<div class=\"verdict %s\"><div class=\"sentence\">", any ? "none" : "unknown");
		if (sentence)
			strbuf_add_html(sb, sentence);
		else if (any)
			strbuf_addstr(sb, "No bottleneck: no Level-1 node is above its threshold.");
		else
			strbuf_addstr(sb, "No Top-Down values: the events of the Top-Down tree were not counted.");
		strbuf_addstr(sb, "</div></div>");
		return;
	}
	strbuf_addstr(sb, "<div class=\"verdict\"><div class=\"path\">");
	json_array_foreach(path, i, p) {
		const char *id = json_string_value(p);
		json_t *n = id ? find_node(scope, id) : NULL;
		const char *name = n ? td_json_str(n, "name") : NULL;
		const char *parent = n ? td_json_str(n, "parent") : NULL;
		int level = n ? td_json_int(json_object_get(n, "level"), 0) : (int)i + 1;

		if (!id)
			continue;
		if (i)
			strbuf_addstr(sb, "<span class=\"sep\">&rsaquo;</span>");
		strbuf_addf(sb, "<span class=\"pathnode\" style=\"background:%s\">",
			    td_component_colour(id, parent, level > 1 ? 2 : 1, 0));
		strbuf_add_html(sb, name ? name : id);
		if (n) {
			strbuf_addstr(sb, " ");
			td_html_pct(sb, td_json_num(json_object_get(n, "value")));
		}
		strbuf_addstr(sb, "</span>");
	}
	strbuf_addstr(sb, "</div><div class=\"sentence\">");
	if (sentence)
		strbuf_add_html(sb, sentence);
	if (json_is_true(json_object_get(bn, "ambiguous")))
		strbuf_addstr(sb, " <span class=\"badge approx\">ambiguous: the top siblings are too close to call</span>");
	strbuf_addstr(sb, "</div></div>");
}

/* CSS bars of the main scope at Level 1 and 2, with legends. */
static void summary_bars(struct strbuf *sb, json_t *main_scope)
{
	json_t *one = json_array();
	int level;

	json_array_append(one, main_scope);
	for (level = 1; level <= 2; level++) {
		char title[32];
		struct td_chart *c;

		snprintf(title, sizeof(title), "Level %d", level);
		c = td_chart_topdown(one, level, "summary", title);
		if (!c)
			continue;
		strbuf_addf(sb, "<div class=\"stackrow\"><div class=\"lbl\">%s</div>", title);
		td_html_stackbar(sb, c, 0, 1.0, "big");
		strbuf_addstr(sb, "</div>");
		td_html_legend(sb, c, 0);
		td_chart_free(c);
	}
	json_decref(one);
}

static void metric_card(struct strbuf *sb, const char *key, double v, const char *unit, const char *note)
{
	strbuf_addstr(sb, "<div class=\"metric\"><div class=\"k\">");
	strbuf_add_html(sb, key);
	strbuf_addstr(sb, "</div><div class=\"v\"");
	if (!isnan(v) && fabs(v) >= 100000)
		strbuf_addf(sb, " title=\"%.0f\"", v);
	strbuf_addch(sb, '>');
	td_html_short(sb, v);
	strbuf_addstr(sb, "</div>");
	if (unit || note) {
		strbuf_addstr(sb, "<div class=\"u\">");
		if (unit)
			strbuf_add_html(sb, unit);
		if (note) {
			strbuf_addstr(sb, unit ? " &middot; " : "");
			strbuf_add_html(sb, note);
		}
		strbuf_addstr(sb, "</div>");
	}
	strbuf_addstr(sb, "</div>");
}

/*
 * The info metrics a reader looks at first, in this order, when the
 * table has them and they are computable (ids common to our tables).
 */
static const char *const key_metric_ids[] = {
	"ipc", "cpi", "uops_per_instr", "branch_mpki", "dsb_coverage", "info_core_ilp",
	"info_memory_l1mpki", "info_memory_l2mpki", "info_memory_l3mpki",
	"info_memory_load_miss_real_latency", "info_bad_spec_ipmispredict", "info_core_flopc",
	"info_system_cpus_utilized", "info_system_core_frequency", NULL,
};

static const char *metric_label(json_t *m)
{
	return td_json_str(m, "name") ? td_json_str(m, "name") : td_json_str_or(m, "id", "?");
}

static int metric_computed(json_t *m)
{
	return !isnan(td_json_num(json_object_get(m, "value")));
}

/* Metrics that are inputs of other views rather than findings: the CPI stack's parts. */
static int metric_is_plumbing(const char *id)
{
	return !id || !strncmp(id, "stack_", 6);
}

static json_t *metric_by_id(json_t *metrics, const char *id)
{
	json_t *m;
	size_t i;

	json_array_foreach(metrics, i, m)
		if (td_json_str(m, "id") && !strcmp(td_json_str(m, "id"), id))
			return m;
	return NULL;
}

/* One "approximate" note or nothing, reasons cut to a few names. */
static void metric_card_of(struct strbuf *sb, json_t *m)
{
	struct strbuf note = STRBUF_INIT;

	if (json_is_true(json_object_get(m, "approximate")))
		strbuf_addstr(&note, "approximate");
	metric_card(sb, metric_label(m), td_json_num(json_object_get(m, "value")), td_json_str(m, "unit"),
		    note.len ? note.buf : NULL);
	strbuf_release(&note);
}

/*
 * Why a metric is not computable, short: "needs 12 events that were not
 * measured" with the events on demand, or the evaluator's reason cut short.
 */
static void na_reason(struct strbuf *sb, const char *reason)
{
	size_t missing = td_reason_missing_count(reason);

	if (missing > 1) {
		strbuf_addf(sb, "<details class=\"why\"><summary>n/a: needs %zu events that were not measured</summary>",
			    missing);
		td_reason_missing_list(sb, reason);
		strbuf_addstr(sb, "</details>");
	} else {
		strbuf_addstr(sb, "n/a: ");
		td_html_reason(sb, reason ? reason : "not computable");
	}
}

/*
 * The key metrics: the computable ones of key_metric_ids (at most eight),
 * CPI and counts as cards; then every computable info metric and, apart
 * and collapsed, the ones that are not computable with why.
 */
static void key_metrics(struct strbuf *sb, json_t *scope)
{
	json_t *metrics = json_object_get(scope, "metrics"), *m;
	json_t *cpi = td_report_cpi_stack(scope, 1);
	size_t i, shown = 0, computed = 0, na = 0;
	int have_cpi = 0;

	strbuf_addstr(sb, "<div class=\"metrics\">");
	for (i = 0; key_metric_ids[i] && shown < 8; i++) {
		m = metric_by_id(metrics, key_metric_ids[i]);
		if (!m || !metric_computed(m))
			continue;
		if (!strcmp(key_metric_ids[i], "cpi"))
			have_cpi = 1;
		metric_card_of(sb, m);
		shown++;
	}
	/* a table without our usual ids: its first computable findings */
	json_array_foreach(metrics, i, m) {
		const char *id = td_json_str(m, "id");

		if (shown >= 4)
			break;
		if (!metric_computed(m) || metric_is_plumbing(id) || !strncmp(id, "bottleneck_", 11))
			continue;
		for (size_t k = 0; key_metric_ids[k]; k++)
			if (!strcmp(key_metric_ids[k], id))
				goto next;
		if (!strcasecmp(id, "cpi") || strstr(id, "_cpi"))
			have_cpi = 1;
		metric_card_of(sb, m);
		shown++;
next:;
	}
	if (!have_cpi && !isnan(td_json_num(json_object_get(cpi, "cpi"))))
		metric_card(sb, "CPI", td_json_num(json_object_get(cpi, "cpi")), "cycles per instruction",
			    td_json_str(cpi, "cpi_from"));
	if (!isnan(td_json_num(json_object_get(cpi, "cycles"))))
		metric_card(sb, "Cycles", td_json_num(json_object_get(cpi, "cycles")), NULL, NULL);
	if (!isnan(td_json_num(json_object_get(cpi, "instructions"))))
		metric_card(sb, "Instructions", td_json_num(json_object_get(cpi, "instructions")), NULL, NULL);
	/* perf stat's software figures: all a run without hardware counts has */
	json_array_foreach(json_object_get(scope, "software"), i, m) {
		const char *unit = td_json_str(m, "unit");

		if (shown >= 8)
			break;
		metric_card(sb, metric_label(m), td_json_num(json_object_get(m, "value")),
			    unit && !strcmp(unit, "per_sec") ? "per second of task time" : unit, NULL);
		shown++;
	}
	strbuf_addstr(sb, "</div>");

	json_array_foreach(metrics, i, m) {
		if (metric_computed(m))
			computed++;
		else
			na++;
	}
	if (computed) {
		strbuf_addf(sb, "<details class=\"scope\"><summary>All %zu computed info metrics</summary><table class=\"data\">"
			    "<thead><tr><th>Metric</th><th class=\"num\">Value</th><th>Unit</th><th>Note</th></tr></thead><tbody>",
			    computed);
		json_array_foreach(metrics, i, m) {
			if (!metric_computed(m))
				continue;
			strbuf_addstr(sb, "<tr><td>");
			strbuf_add_html(sb, metric_label(m));
			strbuf_addstr(sb, "</td><td class=\"num\">");
			td_html_num(sb, td_json_num(json_object_get(m, "value")));
			strbuf_addstr(sb, "</td><td>");
			if (td_json_str(m, "unit"))
				strbuf_add_html(sb, td_json_str(m, "unit"));
			strbuf_addstr(sb, "</td><td class=\"muted\">");
			if (json_is_true(json_object_get(m, "approximate"))) {
				strbuf_addstr(sb, "approximate");
				if (td_json_str(m, "reason")) {
					strbuf_addstr(sb, ": ");
					td_html_reason(sb, td_json_str(m, "reason"));
				}
			}
			strbuf_addstr(sb, "</td></tr>");
		}
		strbuf_addstr(sb, "</tbody></table></details>");
	}
	if (na) {
		/* a quiet line, not a card: what was not measured is no finding (issue 32) */
		strbuf_addf(sb, "<details class=\"na-list\" style=\"margin:6px 2px;font-size:13px;color:var(--muted)\">"
			    "<summary>%zu info metric%s not computable from these events</summary>"
			    "<table class=\"data\"><thead><tr><th>Metric</th><th>Why</th></tr></thead><tbody>",
			    na, na > 1 ? "s" : "");
		json_array_foreach(metrics, i, m) {
			if (metric_computed(m))
				continue;
			strbuf_addstr(sb, "<tr><td>");
			strbuf_add_html(sb, metric_label(m));
			strbuf_addstr(sb, "</td><td class=\"muted\">");
			na_reason(sb, td_json_str(m, "reason"));
			strbuf_addstr(sb, "</td></tr>");
		}
		strbuf_addstr(sb, "</tbody></table></details>");
	}
	json_decref(cpi);
}

/* Badges saying how much to trust the numbers: multiplexing, approximations, gaps. */
static void data_quality(struct strbuf *sb, json_t *scope)
{
	json_t *n, *e;
	size_t i, approx = 0, na = 0, muxed = 0, events = 0, printed = 0;
	double lowest = 100;

	json_array_foreach(json_object_get(scope, "nodes"), i, n) {
		if (isnan(td_json_num(json_object_get(n, "value"))))
			na++;
		else if (json_is_true(json_object_get(n, "approximate")))
			approx++;
		if (!isnan(td_json_num(json_object_get(n, "value"))) && td_html_node_source(n))
			printed++;
	}
	json_array_foreach(json_object_get(scope, "events"), i, e) {
		double run = td_json_num(json_object_get(e, "running_pct"));
		const char *status = td_json_str(e, "status");

		if (status && strcmp(status, "ok"))
			continue; /* not counted at all: not multiplexing */
		events++;
		if ((!isnan(run) && run < 100) || json_is_true(json_object_get(e, "scaled"))) {
			muxed++;
			if (!isnan(run) && run < lowest)
				lowest = run;
		}
	}
	strbuf_addstr(sb, "<div class=\"quality\">");
	if (muxed)
		strbuf_addf(sb, "<span class=\"badge mux\">multiplexed: %zu of %zu events, lowest %.1f%% of the time</span>",
			    muxed, events, lowest);
	else if (events)
		strbuf_addf(sb, "<span class=\"badge ok\">no multiplexing: all %zu events counted all the time</span>", events);
	if (approx)
		strbuf_addf(sb, "<span class=\"badge approx\">&#8776; %zu approximate node%s</span>", approx, approx > 1 ? "s" : "");
	if (printed)
		strbuf_addf(sb, "<span class=\"badge src\" title=\"the counts do not give them: perf's printed "
			    "values (p), or a Level 1 summed from its children (s)\">%zu node%s printed by perf, "
			    "not computed</span>", printed, printed > 1 ? "s" : "");
	if (na)
		strbuf_addf(sb, "<span class=\"badge na\">%zu node%s not computable</span>", na, na > 1 ? "s" : "");
	strbuf_addstr(sb, "</div>");
}

/* "session 2 (perf stat './benchmark', line 35)" */
static void session_name(struct strbuf *sb, json_t *doc, int index)
{
	json_t *se;
	size_t i;

	strbuf_addf(sb, "session %d", index);
	json_array_foreach(json_object_get(doc, "sessions"), i, se) {
		if (td_json_int(json_object_get(se, "index"), -1) != index)
			continue;
		strbuf_addstr(sb, " (");
		if (td_json_str(se, "target")) {
			/* perf stat -p: "process 31443", no command (parse/stat-lines.c) */
			strbuf_addstr(sb, strncmp(td_json_str(se, "target"), "process ", 8) &&
					  strncmp(td_json_str(se, "target"), "thread ", 7) ? "perf stat " : "perf stat of ");
			strbuf_add_html(sb, td_json_str(se, "target"));
			strbuf_addstr(sb, ", ");
		}
		strbuf_addf(sb, "line %d)", td_json_int(json_object_get(se, "line"), 0));
	}
}

/*
 * A file with several perf stat sessions: say which one the summary
 * shows (the most complete Level 1, then the most nodes) and list the others.
 */
static void session_choice(struct strbuf *sb, json_t *doc, json_t *main_scope)
{
	json_t *scopes = json_object_get(doc, "scopes"), *s;
	int shown = td_json_int(json_object_get(main_scope, "session"), 0), listed = 0;
	size_t i, nr = json_array_size(json_object_get(doc, "sessions"));

	if (nr < 2 || !shown)
		return;
	strbuf_addf(sb, "<p class=\"hint sessions\">This file holds %zu perf stat sessions; the summary shows the most "
		    "complete one, ", nr);
	session_name(sb, doc, shown);
	strbuf_addf(sb, ", with %d Level-1 nodes and %d Top-Down nodes in all computable. Others:",
		    td_scope_computable_level1(main_scope), td_scope_computable_nodes(main_scope));
	json_array_foreach(scopes, i, s) {
		const char *kind = td_json_str(s, "kind");
		int session = td_json_int(json_object_get(s, "session"), 0);

		if (!kind || strcmp(kind, "total") || session == shown || session <= listed)
			continue;
		listed = session;
		strbuf_addch(sb, ' ');
		session_name(sb, doc, session);
		strbuf_addf(sb, ": %d Level-1, %d in all;", td_scope_computable_level1(s), td_scope_computable_nodes(s));
	}
	if (sb->buf[sb->len - 1] == ';')
		strbuf_setlen(sb, sb->len - 1);
	strbuf_addstr(sb, " (each in full under Tree).</p>");
}

/*
 * The other core type's total of the main scope's session on a hybrid
 * CPU (cpu_atom beside cpu_core), or NULL.
 */
static json_t *hybrid_sibling(json_t *doc, json_t *main_scope)
{
	json_t *s;
	size_t i;
	const char *pmu = td_json_str(main_scope, "pmu");
	int session = td_json_int(json_object_get(main_scope, "session"), 0);

	if (!td_pmu_core_type(pmu))
		return NULL;
	json_array_foreach(json_object_get(doc, "scopes"), i, s) {
		const char *other = td_json_str(s, "pmu"), *kind = td_json_str(s, "kind");

		if (s != main_scope && td_pmu_core_type(other) && strcmp(other, pmu) && kind &&
		    !strcmp(kind, "total") && !td_scope_is_interval(s) &&
		    td_json_int(json_object_get(s, "session"), 0) == session &&
		    json_array_size(json_object_get(s, "nodes")))
			return s;
	}
	return NULL;
}

/* "session 2 (perf stat ..., line 43) · P-core (cpu_core)": a box's title. */
static void scope_title(struct strbuf *sb, json_t *doc, json_t *scope)
{
	const char *pmu = td_json_str(scope, "pmu");
	struct strbuf label = STRBUF_INIT;

	if (json_array_size(json_object_get(doc, "sessions")) > 1) {
		session_name(sb, doc, td_json_int(json_object_get(scope, "session"), 0));
		strbuf_addstr(sb, " &middot; ");
	}
	if (td_pmu_core_type(pmu)) {
		strbuf_addf(sb, "<b>%s</b> (", td_pmu_core_type(pmu));
		strbuf_add_html(sb, pmu);
		strbuf_addch(sb, ')');
		if (td_json_str(scope, "label")) {
			strbuf_addch(sb, ' ');
			strbuf_add_html(sb, td_json_str(scope, "label"));
		}
	} else {
		td_scope_label(&label, scope);
		strbuf_add_html(sb, label.buf);
	}
	if (td_json_str(scope, "derived")) {
		strbuf_addstr(sb, " &middot; ");
		strbuf_add_html(sb, td_json_str(scope, "derived"));
	}
	strbuf_release(&label);
}

/* One core type's verdict and bars, in a column of the hybrid pair. */
static void hybrid_column(struct strbuf *sb, json_t *doc, json_t *scope)
{
	strbuf_addstr(sb, "<div class=\"hybrid-col\" style=\"min-width:0\"><h3 class=\"scope-title\">");
	scope_title(sb, doc, scope);
	strbuf_addstr(sb, "</h3>");
	td_html_phases(sb, scope);
	verdict(sb, scope);
	summary_bars(sb, scope);
	strbuf_addstr(sb, "</div>");
}

/*
 * Without Top-Down values (no hardware PMU) but with a thread analysis, the
 * thread finding is what the run says: it heads the summary, and why there
 * is no tree follows it in one line.  Returns 1 when it did.
 */
static int thread_headline(struct strbuf *sb, json_t *doc, json_t *scope)
{
	json_t *agg = json_object_get(json_object_get(doc, "threads"), "aggregate");
	const char *finding = td_json_str(agg, "sentence"), *why;

	if (!finding || !json_array_size(json_object_get(doc, "sessions")) || td_html_scope_has_values(scope))
		return 0;
	strbuf_addstr(sb, "<div class=\"verdict threads\"><div class=\"sentence\">Threads: ");
	strbuf_add_html(sb, finding);
	strbuf_addstr(sb, " (<a href=\"#threads\">per thread</a>)</div></div>\n<p class=\"muted\">");
	why = td_json_str(json_object_get(scope, "bottleneck"), "sentence");
	strbuf_add_html(sb, why ? why : "No Top-Down values: the events of the Top-Down tree were not counted.");
	strbuf_addstr(sb, "</p>\n");
	return 1;
}

static void summary(struct strbuf *sb, json_t *doc, json_t *main_scope)
{
	json_t *all = json_array(), *sibling = hybrid_sibling(doc, main_scope);

	session_choice(sb, doc, main_scope);
	if (sibling) {
		/* a hybrid CPU: both core types on the first screen, P first */
		int p_first = !strcmp(td_json_str(main_scope, "pmu"), "cpu_core");

		strbuf_addstr(sb, "<div class=\"hybrid-pair\" style=\"display:grid;"
			      "grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:8px 24px\">");
		hybrid_column(sb, doc, p_first ? main_scope : sibling);
		hybrid_column(sb, doc, p_first ? sibling : main_scope);
		strbuf_addstr(sb, "</div>");
		/* the guidance under the pair, so that both columns' bars stay level */
		td_html_guidance_of_core(sb, p_first ? main_scope : sibling,
					 td_pmu_core_type(td_json_str(p_first ? main_scope : sibling, "pmu")));
		td_html_guidance_of_core(sb, p_first ? sibling : main_scope,
					 td_pmu_core_type(td_json_str(p_first ? sibling : main_scope, "pmu")));
	} else {
		td_html_phases(sb, main_scope);
		if (!thread_headline(sb, doc, main_scope))
			verdict(sb, main_scope);
		td_html_guidance(sb, main_scope);
		summary_bars(sb, main_scope);
	}
	key_metrics(sb, main_scope);
	data_quality(sb, main_scope);
	json_array_extend(all, json_object_get(doc, "warnings"));
	json_array_extend(all, json_object_get(main_scope, "warnings"));
	td_html_warnings(sb, all);
	td_html_tree_warned_scope(main_scope);
	json_decref(all);
}

/* ---- tree, events: the main scope open, the others folded ---- */

static void per_scope(struct strbuf *sb, json_t *doc, json_t *main_scope,
		      void (*render)(struct strbuf *, json_t *))
{
	json_t *s;
	size_t i;

	/* which session and core type the open one is, where the others could be taken for it */
	if (td_pmu_core_type(td_json_str(main_scope, "pmu")) ||
	    json_array_size(json_object_get(doc, "sessions")) > 1) {
		strbuf_addstr(sb, "<h3 class=\"scope-title\">");
		scope_title(sb, doc, main_scope);
		strbuf_addstr(sb, "</h3>");
	}
	render(sb, main_scope);
	json_array_foreach(json_object_get(doc, "scopes"), i, s) {
		if (s == main_scope || td_scope_is_interval(s))
			continue;
		strbuf_addstr(sb, "<details class=\"scope\"><summary>");
		scope_title(sb, doc, s);
		strbuf_addstr(sb, "</summary>");
		render(sb, s);
		strbuf_addstr(sb, "</details>");
	}
}

/* Which CPI components are fractions perf printed (or summed), not computed from counts. */
static void cpi_sources(struct strbuf *sb, json_t *stack)
{
	json_t *c;
	size_t i;
	int n = 0;

	json_array_foreach(json_object_get(stack, "components"), i, c) {
		if (!td_html_node_source(c))
			continue;
		strbuf_addstr(sb, n++ ? ", " : "<p class=\"hint\"><span class=\"badge src\">not from the counts</span> ");
		strbuf_add_html(sb, td_json_str_or(c, "name", "?"));
		strbuf_addf(sb, " (%s)", td_html_node_source(c) == 'p' ? "the fraction perf printed"
			    : "the sum of its Level-2 children");
	}
	if (n)
		strbuf_addstr(sb, ": the counts do not give these fractions; the CPI is from cycles and instructions.</p>");
}

/* ---- charts and stacks ---- */

static void cpi_table(struct strbuf *sb, json_t *scope)
{
	json_t *stack = td_report_cpi_stack(scope, 2), *one = json_array();
	double cpi = td_json_num(json_object_get(stack, "cpi"));
	struct td_chart *c;
	size_t j;

	strbuf_addstr(sb, "<h3>CPI stack</h3>");
	if (isnan(cpi)) {
		strbuf_addstr(sb, "<p class=\"muted\">Not computable: ");
		td_html_reason(sb, td_json_str(stack, "reason") ? td_json_str(stack, "reason") : "CPI unknown");
		strbuf_addstr(sb, "</p>");
		json_decref(stack);
		json_decref(one);
		return;
	}
	strbuf_addf(sb, "<p class=\"hint\" style=\"margin-top:0\">Cycles per instruction split by Top-Down component "
		    "(CPI &times; fraction of slots): absolute, so runs on different CPUs compare. CPI %.3f", cpi);
	if (td_json_str(stack, "cpi_from")) {
		strbuf_addstr(sb, " from ");
		strbuf_add_html(sb, td_json_str(stack, "cpi_from"));
	}
	if (!strcmp(td_json_str(stack, "source") ? td_json_str(stack, "source") : "", "stacks.cpi"))
		strbuf_addstr(sb, " (the CPI stack analysis)");
	strbuf_addstr(sb, ".</p>");
	json_array_append(one, scope);
	c = td_chart_cpi(one, 2, "cpi", "CPI stack");
	if (c) {
		strbuf_addstr(sb, "<div class=\"stackrow\"><div class=\"lbl\">CPI ");
		td_html_num(sb, cpi);
		strbuf_addstr(sb, "</div>");
		td_html_stackbar(sb, c, 0, 100.0 / cpi, "big");
		strbuf_addstr(sb, "</div><table class=\"data\" style=\"margin-top:12px\"><thead><tr><th>Component</th>"
			      "<th class=\"num\">Fraction of slots</th><th class=\"num\">Cycles per instruction</th></tr></thead><tbody>");
		for (j = c->nseries; j-- > 0; ) {
			double v = c->rows[0].values[j];

			strbuf_addf(sb, "<tr><td><i class=\"sw\" style=\"background:%s\"></i>", c->series[j].colour);
			strbuf_add_html(sb, c->series[j].name);
			strbuf_addstr(sb, "</td><td class=\"num\">");
			td_html_pct(sb, v / cpi);
			strbuf_addstr(sb, "</td><td class=\"num\">");
			td_html_num(sb, v);
			strbuf_addstr(sb, "</td></tr>");
		}
		strbuf_addf(sb, "<tr><td><b>total</b></td><td class=\"num\"></td><td class=\"num\"><b>%.3f</b></td></tr>"
			    "</tbody></table>", cpi);
		td_chart_free(c);
	}
	if (json_is_true(json_object_get(stack, "approximate")))
		strbuf_addstr(sb, "<p><span class=\"badge approx\">&#8776; approximate: built from approximate nodes</span></p>");
	cpi_sources(sb, stack);
	json_decref(stack);
	json_decref(one);
}

static void charts_section(struct strbuf *sb, json_t *doc, json_t *main_scope, struct td_html_charts *hc)
{
	int any = 0;
	size_t i;

	(void)doc;
	any |= td_html_figure(sb, hc, "topdown-l1");
	any |= td_html_figure(sb, hc, "topdown-l2");
	cpi_table(sb, main_scope);
	any |= td_html_figure(sb, hc, "cpi-stack");
	for (i = 0; i < hc->list.nr; i++)
		any |= hc->svg && hc->svg[i] != NULL;
	if (!any && hc->status.len) {
		strbuf_addstr(sb, "<p class=\"nocharts\">");
		strbuf_add_html(sb, hc->status.buf);
		strbuf_addstr(sb, "</p>");
	}
	/* multi-stage, IPC/FLOPS and frontend tables with their figures (report/html-stacks.c) */
	td_html_stacks(sb, json_object_get(main_scope, "stacks"), hc);
	td_html_stacks_sessions(sb, doc); /* several sessions: report/stacks-sessions.c */
}

static void extra_section(struct strbuf *sb, json_t *doc)
{
	td_html_roofline(sb, doc); /* report/html-threads.c */
}

static void threads_section(struct strbuf *sb, json_t *doc, const struct td_html_charts *hc)
{
	td_html_threads(sb, doc, hc); /* report/html-threads.c */
}

static void intervals_section(struct strbuf *sb, json_t *doc, struct td_html_charts *hc)
{
	size_t i, n = 0;

	for (i = 0; i < hc->list.nr; i++)
		if (!strncmp(hc->list.items[i]->stem, "timeline", 8))
			n += td_html_figure(sb, hc, hc->list.items[i]->stem);
	if (!n && hc->status.len) {
		strbuf_addstr(sb, "<p class=\"nocharts\">");
		strbuf_add_html(sb, hc->status.buf);
		strbuf_addstr(sb, "</p>");
	}
	td_html_interval_table(sb, doc);
}

/* ---- run metadata ---- */

static void meta_row(struct strbuf *sb, const char *key, const char *value)
{
	if (!value)
		return;
	strbuf_addstr(sb, "<dt>");
	strbuf_add_html(sb, key);
	strbuf_addstr(sb, "</dt><dd>");
	strbuf_add_html(sb, value);
	strbuf_addstr(sb, "</dd>");
}

static void join_args(struct strbuf *sb, json_t *array)
{
	json_t *a;
	size_t i;

	json_array_foreach(array, i, a) {
		if (!json_is_string(a))
			continue;
		if (i)
			strbuf_addch(sb, ' ');
		strbuf_addstr(sb, json_string_value(a));
	}
}

static void meta_section(struct strbuf *sb, json_t *doc)
{
	json_t *run = json_object_get(doc, "run"), *cpu = json_object_get(run, "cpu");
	json_t *host = json_object_get(run, "host"), *table = json_object_get(doc, "table"), *f;
	struct strbuf tmp = STRBUF_INIT;
	double v;
	size_t i;

	strbuf_addstr(sb, "<dl class=\"meta\">");
	join_args(&tmp, json_object_get(run, "command_line"));
	meta_row(sb, "command line", tmp.len ? tmp.buf : NULL);
	strbuf_reset(&tmp);
	join_args(&tmp, json_object_get(run, "workload"));
	meta_row(sb, "workload", tmp.len ? tmp.buf : NULL);
	meta_row(sb, "kind", td_json_str(run, "kind"));
	meta_row(sb, "input", td_json_str(run, "input"));
	meta_row(sb, "started", td_json_str(run, "start_time"));
	meta_row(sb, "ended", td_json_str(run, "end_time"));
	v = td_json_num(json_object_get(run, "exit_status"));
	if (!isnan(v)) {
		strbuf_reset(&tmp);
		strbuf_addf(&tmp, "%d", td_json_int(json_object_get(run, "exit_status"), -1));
		meta_row(sb, "exit status", tmp.buf);
	}
	meta_row(sb, "signal", td_json_str(run, "signal"));
	meta_row(sb, "host", td_json_str(host, "hostname"));
	meta_row(sb, "kernel", td_json_str(host, "kernel"));
	meta_row(sb, "perf version", td_json_str(host, "perf_version"));
	meta_row(sb, "CPU", td_json_str(cpu, "name"));
	meta_row(sb, "CPU id", td_json_str(cpu, "cpuid"));
	meta_row(sb, "microarchitecture", td_json_str(cpu, "microarchitecture"));
	strbuf_reset(&tmp);
	if (td_json_str(cpu, "source"))
		strbuf_addstr(&tmp, td_json_str(cpu, "source"));
	if (td_json_str(cpu, "confidence"))
		strbuf_addf(&tmp, "%s%s", tmp.len ? "; " : "", td_json_str(cpu, "confidence"));
	meta_row(sb, "CPU known from", tmp.len ? tmp.buf : NULL);
	if (json_is_boolean(json_object_get(json_object_get(run, "smt"), "on"))) {
		strbuf_reset(&tmp);
		strbuf_addstr(&tmp, json_is_true(json_object_get(json_object_get(run, "smt"), "on")) ? "on" : "off");
		if (td_json_str(json_object_get(run, "smt"), "source"))
			strbuf_addf(&tmp, " (%s)", td_json_str(json_object_get(run, "smt"), "source"));
		meta_row(sb, "SMT", tmp.buf);
	}
	meta_row(sb, "CPUs online", td_json_str(run, "cpus_online"));
	if (json_is_boolean(json_object_get(run, "hardware_pmu")))
		meta_row(sb, "hardware PMU", json_is_true(json_object_get(run, "hardware_pmu")) ? "yes" : "no");
	strbuf_reset(&tmp);
	if (td_json_str(table, "display"))
		strbuf_addstr(&tmp, td_json_str(table, "display"));
	if (td_json_str(table, "name"))
		strbuf_addf(&tmp, "%s(%s)", tmp.len ? " " : "", td_json_str(table, "name"));
	v = td_json_num(json_object_get(table, "slots_per_cycle"));
	if (!isnan(v))
		strbuf_addf(&tmp, ", %g slots per cycle", v);
	meta_row(sb, "formula table", tmp.len ? tmp.buf : NULL);
	meta_row(sb, "table source", td_json_str(table, "source"));
	json_array_foreach(json_object_get(run, "files"), i, f) {
		strbuf_reset(&tmp);
		strbuf_addstr(&tmp, td_json_str(f, "name") ? td_json_str(f, "name") : "?");
		if (td_json_str(f, "role"))
			strbuf_addf(&tmp, " (%s)", td_json_str(f, "role"));
		if (json_array_size(json_object_get(f, "perf_command"))) {
			strbuf_addstr(&tmp, ": ");
			join_args(&tmp, json_object_get(f, "perf_command"));
		}
		meta_row(sb, i ? "" : "files", tmp.buf);
	}
	strbuf_addstr(sb, "</dl>");
	strbuf_release(&tmp);
}

/* ---- the page ---- */

static const char *scopes_title(json_t *doc)
{
	json_t *s;
	size_t i;
	const char *kind = NULL;

	json_array_foreach(json_object_get(doc, "scopes"), i, s) {
		const char *k = td_json_str(s, "kind");

		if (td_scope_is_interval(s) || !k)
			continue;
		if (!kind)
			kind = k;
		else if (strcmp(kind, k))
			return "Per scope";
	}
	if (!kind)
		return "Per scope";
	if (!strcmp(kind, "thread"))
		return "Per thread";
	if (!strcmp(kind, "cpu"))
		return "Per CPU";
	if (!strcmp(kind, "core"))
		return "Per core";
	if (!strcmp(kind, "socket"))
		return "Per socket";
	if (!strcmp(kind, "total"))
		return "Per PMU and run";
	return "Per scope";
}

static void nav_link(struct strbuf *sb, const char *id, const char *text)
{
	strbuf_addf(sb, "<a href=\"#%s\">%s</a>", id, text);
}

static int check_document(json_t *doc, struct strbuf *err)
{
	const char *schema = td_json_str(doc, "schema");
	double version = td_json_num(json_object_get(doc, "version"));

	if (!json_is_object(doc) || !schema || strcmp(schema, "tdperf-report")) {
		strbuf_addstr(err, "not a tdperf report document (no \"schema\": \"tdperf-report\")");
		return -1;
	}
	if (!(version >= 1 && version <= TD_REPORT_SCHEMA_VERSION)) {
		strbuf_addf(err, "report document version %g is not supported (this tdperf reads versions 1 to %d)",
			    version, TD_REPORT_SCHEMA_VERSION);
		return -1;
	}
	if (!json_is_array(json_object_get(doc, "scopes"))) {
		strbuf_addstr(err, "report document has no \"scopes\" array");
		return -1;
	}
	return 0;
}

int td_report_render_html(json_t *doc, const char *path, struct strbuf *err)
{
	struct td_template *t;
	struct td_html_charts hc;
	struct strbuf sb = STRBUF_INIT, nav = STRBUF_INIT;
	json_t *main_scope, *placeholder = NULL;
	struct td_chart *l1;
	time_t now = time(NULL);
	char date[64];
	int ret = -1;

	if (check_document(doc, err) < 0)
		return -1;
	main_scope = td_report_main_scope(doc);
	if (!main_scope && (json_is_object(json_object_get(doc, "sweep")) ||
			    json_is_object(json_object_get(doc, "threads")))) {
		/*
		 * A sweep directory (or a perf.data with only sched events) has no
		 * counts of its own: the summary says what its analysis found.
		 */
		const char *sentence = td_json_str(json_object_get(json_object_get(doc, "sweep"), "growing"),
						   "sentence");
		if (!sentence)
			sentence = td_json_str(json_object_get(json_object_get(doc, "threads"), "aggregate"),
					       "sentence");
		placeholder = json_pack("{s:s, s:s, s:[], s:[], s:[], s:[], s:{s:[], s:s}}", "id", "none",
					"kind", "total", "nodes", "metrics", "events", "warnings", "bottleneck",
					"path", "sentence", sentence ? sentence : "no perf stat counts in this run");
		main_scope = placeholder;
	}
	if (!main_scope) {
		strbuf_addstr(err, "report document has no scope to show");
		return -1;
	}
	memset(&hc, 0, sizeof(hc));
	t = td_template_new();
	td_charts_for_report(doc, &hc.list);
	td_html_charts_render(&hc);

	report_title(&sb, json_object_get(doc, "run"));
	td_template_set_text(t, "title", sb.buf);
	strbuf_reset(&sb);
	chips(&sb, doc);
	td_template_set_html(t, "chips", sb.buf);

	nav_link(&nav, "summary", "Summary");
	strbuf_reset(&sb);
	summary(&sb, doc, main_scope);
	/* a sweep has no counts of its own: no tree, chart or event cards, one line saying where they are */
	if (placeholder)
		strbuf_addstr(&sb, "<p class=\"muted\">This sweep has no counts of its own: "
			      "<code>tdperf report DIR/PARAM-V</code> shows the Top-Down tree of one value; "
			      "the charts of the threads and of the sweep are in <a href=\"#threads\">Threads</a>.</p>");
	td_template_set_html(t, "summary", sb.buf);
	strbuf_reset(&sb);
	if (!placeholder) {
		nav_link(&nav, "tree", "Tree");
		per_scope(&sb, doc, main_scope, td_html_tree);
	}
	td_template_set_html(t, "tree", sb.buf);
	strbuf_reset(&sb);
	if (!placeholder) {
		charts_section(&sb, doc, main_scope, &hc);
		nav_link(&nav, "charts", "Charts");
	}
	td_template_set_html(t, "charts", sb.buf);

	strbuf_reset(&sb);
	l1 = td_chart_topdown(json_object_get(doc, "scopes"), 1, "scopes", "scopes");
	if (l1 && l1->nrows > 1) {
		td_html_scope_table(&sb, doc, l1);
		nav_link(&nav, "scopes", scopes_title(doc));
	}
	td_chart_free(l1);
	td_template_set_html(t, "scopes", sb.buf);
	td_template_set_text(t, "scopes_title", scopes_title(doc));

	strbuf_reset(&sb);
	{
		json_t *s;
		size_t i;
		int any = 0;

		json_array_foreach(json_object_get(doc, "scopes"), i, s)
			any |= td_scope_is_interval(s);
		if (any) {
			intervals_section(&sb, doc, &hc);
			nav_link(&nav, "intervals", "Over time");
		}
	}
	td_template_set_html(t, "intervals", sb.buf);
	strbuf_reset(&sb);
	td_html_drilldown(&sb, doc); /* record --drilldown: report/drilldown.c */
	if (sb.len)
		nav_link(&nav, "drilldown", "Drill-down");
	td_template_set_html(t, "drilldown", sb.buf);
	strbuf_reset(&sb);
	td_html_extra_events(&sb, doc); /* record -e: report/extra-events.c */
	if (sb.len)
		nav_link(&nav, "extra-events", "Extra events");
	td_template_set_html(t, "extra_events", sb.buf);
	strbuf_reset(&sb);
	threads_section(&sb, doc, &hc);
	if (sb.len)
		nav_link(&nav, "threads", "Threads");
	td_template_set_html(t, "threads", sb.buf);
	strbuf_reset(&sb);
	extra_section(&sb, doc);
	if (sb.len)
		nav_link(&nav, "analyses", "More");
	td_template_set_html(t, "extra", sb.buf);
	strbuf_reset(&sb);
	if (!placeholder) {
		per_scope(&sb, doc, main_scope, td_html_events);
		nav_link(&nav, "events", "Events");
	}
	td_template_set_html(t, "events", sb.buf);
	strbuf_reset(&sb);
	meta_section(&sb, doc);
	td_template_set_html(t, "meta", sb.buf);
	nav_link(&nav, "run", "Run");
	td_template_set_html(t, "nav", nav.buf);

	strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", gmtime(&now));
	strbuf_reset(&sb);
	/* the version of the document drawn, not a constant that ages (issue 32) */
	strbuf_addf(&sb, "Generated by tdperf %s on %s from a report document (schema v%d). "
		    "One self-contained file: no script, nothing loaded from the network.", PACKAGE_VERSION, date,
		    td_json_int(json_object_get(doc, "version"), TD_REPORT_SCHEMA_VERSION));
	td_template_set_text(t, "footer", sb.buf);

	ret = td_template_write(t, "report.html", path, err);
	td_template_free(t);
	td_html_charts_release(&hc);
	json_decref(placeholder);
	strbuf_release(&sb);
	strbuf_release(&nav);
	return ret;
}
