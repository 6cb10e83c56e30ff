/*
 * The stacks of a file of several perf stat sessions (a published hybrid
 * run has four, each with a P-core and an E-core scope): said once per
 * distinct content, after the sessions, instead of the same block under
 * every session and PMU.  Scopes whose stacks render the same are one
 * group, labelled with all their sessions; groups that differ follow each
 * other in one place, so that they can be compared.  Text prints each
 * group's block (report/text-stacks.c); HTML a table, a row per group and
 * a column per stack: its headline number, or why it is not computable.
 */
#include <math.h>
#include <string.h>

#include "report/render.h"
#include "report/html.h"

static int stacks_shown(json_t *sc)
{
	json_t *st = json_object_get(sc, "stacks");

	return td_str_same(json_string_value(json_object_get(sc, "kind")), "total") &&
	       !json_is_number(json_object_get(sc, "time")) && !json_is_true(json_object_get(sc, "folded")) &&
	       json_array_size(json_object_get(sc, "nodes")) && json_is_object(st) && json_object_size(st);
}

/* "session 1, 2, 3, 4, PMU cpu_core" or "session 1 PMU cpu_core; session 2 PMU cpu_atom" */
static char *group_label(json_t *scopes)
{
	struct strbuf sb = STRBUF_INIT;
	const char *pmu0 = json_string_value(json_object_get(json_array_get(scopes, 0), "pmu"));
	int same_pmu = 1;
	json_t *sc;
	size_t i;

	json_array_foreach(scopes, i, sc)
		same_pmu &= td_str_same(json_string_value(json_object_get(sc, "pmu")), pmu0);
	json_array_foreach(scopes, i, sc) {
		long long s = json_integer_value(json_object_get(sc, "session"));
		const char *pmu = json_string_value(json_object_get(sc, "pmu"));

		if (same_pmu)
			strbuf_addf(&sb, i ? ", %lld" : json_array_size(scopes) > 1 ? "sessions %lld" : "session %lld", s);
		else
			strbuf_addf(&sb, "%ssession %lld%s%s%s%s%s", i ? "; " : "", s, pmu ? " PMU " : "", pmu ? pmu : "",
				    td_pmu_core_type(pmu) ? " (" : "", td_pmu_core_type(pmu) ? td_pmu_core_type(pmu) : "",
				    td_pmu_core_type(pmu) ? ")" : "");
	}
	if (same_pmu && pmu0)
		strbuf_addf(&sb, ", PMU %s", pmu0);
	/* a hybrid CPU's PMU said as the core type a reader knows */
	if (same_pmu && td_pmu_core_type(pmu0))
		strbuf_addf(&sb, " (%s)", td_pmu_core_type(pmu0));
	return strbuf_detach(&sb, NULL);
}

json_t *td_report_stacks_by_session(json_t *doc, int verbose)
{
	json_t *groups, *sc, *g = NULL;
	size_t i, k;

	if (json_array_size(json_object_get(doc, "sessions")) < 2)
		return NULL;
	groups = json_array();
	json_array_foreach(json_object_get(doc, "scopes"), i, sc) {
		struct strbuf text = STRBUF_INIT;

		if (!stacks_shown(sc))
			continue;
		td_report_text_stacks(&text, json_object_get(sc, "stacks"), verbose);
		json_array_foreach(groups, k, g)
			if (!strcmp(json_string_value(json_object_get(g, "text")), text.buf))
				break;
		if (k == json_array_size(groups)) {
			g = json_pack("{s:s, s:[]}", "text", text.buf, "scopes");
			json_array_append_new(groups, g);
		}
		json_array_append(json_object_get(g, "scopes"), sc);
		strbuf_release(&text);
	}
	json_array_foreach(groups, k, g) {
		char *label = group_label(json_object_get(g, "scopes"));

		json_object_set_new(g, "label", json_string(label));
		free(label);
	}
	return groups;
}

void td_report_text_stacks_sessions(FILE *f, json_t *doc, int verbose)
{
	json_t *groups = td_report_stacks_by_session(doc, verbose), *g;
	size_t i;

	if (!json_array_size(groups)) {
		json_decref(groups);
		return;
	}
	fprintf(f, "\n== stacks of the %zu sessions (each different set once, with the sessions it is of) ==\n",
		json_array_size(json_object_get(doc, "sessions")));
	json_array_foreach(groups, i, g) {
		fprintf(f, "\n-- %s --", td_printable(json_string_value(json_object_get(g, "label"))));
		/* the block starts with its own empty line; its names are made printable already */
		fputs(json_string_value(json_object_get(g, "text")), f);
	}
	json_decref(groups);
}

/* A stack's headline where it is computed: CPI, the multi-stage range, IPC, delivered uops per cycle. */
static void headline(struct strbuf *sb, json_t *stacks, int which)
{
	json_t *cpi = json_object_get(stacks, "cpi");

	switch (which) {
	case 0:
		strbuf_addf(sb, "CPI %.3f", json_number_value(json_object_get(cpi, "cpi")));
		if (json_is_true(json_object_get(cpi, "approximate")))
			strbuf_addstr(sb, " <span class=\"badge approx\">approximate</span>");
		break;
	default:
		strbuf_addstr(sb, "computed");
		break;
	}
}

void td_html_stacks_sessions(struct strbuf *sb, json_t *doc)
{
	json_t *groups = td_report_stacks_by_session(doc, 0), *g;
	size_t i;
	int k;

	if (json_array_size(groups) < 1) {
		json_decref(groups);
		return;
	}
	strbuf_addf(sb, "<h3 id=\"stacks-by-session\">Stacks of the %zu sessions</h3><p class=\"hint\" "
		    "style=\"margin-top:0\">Each different set of stacks once, with the sessions and PMUs it is of "
		    "(the tables above are those of the summarised scope).</p>"
		    "<table class=\"data stacks-sessions\"><thead><tr><th>Sessions</th>",
		    json_array_size(json_object_get(doc, "sessions")));
	for (k = 0; k < TD_NR_STACKS; k++) {
		strbuf_addstr(sb, "<th>");
		strbuf_add_html(sb, td_report_stack_names[k]);
		strbuf_addstr(sb, "</th>");
	}
	strbuf_addstr(sb, "</tr></thead><tbody>");
	json_array_foreach(groups, i, g) {
		json_t *stacks = json_object_get(json_array_get(json_object_get(g, "scopes"), 0), "stacks");
		char *cause[TD_NR_STACKS];

		td_report_stack_causes(stacks, cause);
		strbuf_addstr(sb, "<tr><td>");
		strbuf_add_html(sb, json_string_value(json_object_get(g, "label")));
		strbuf_addstr(sb, "</td>");
		for (k = 0; k < TD_NR_STACKS; k++) {
			strbuf_addstr(sb, cause[k] ? "<td class=\"muted\">n/a: " : "<td>");
			if (cause[k])
				strbuf_add_html(sb, cause[k]);
			else
				headline(sb, stacks, k);
			strbuf_addstr(sb, "</td>");
			free(cause[k]);
		}
		strbuf_addstr(sb, "</tr>");
	}
	strbuf_addstr(sb, "</tbody></table>");
	json_decref(groups);
}
