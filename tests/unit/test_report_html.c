/*
 * Unit tests for the chart data, the CPI stack, the template expander,
 * SVG inlining, the diff and the HTML report (report/plot*.c, html*.c,
 * diff*.c).
 *
 * The report documents here are SYNTHETIC: built by make_scope()/make_doc()
 * below from the layout documented in docs/report-schema.md, with values
 * chosen so that the expected results can be worked out by hand in each
 * test.  The end-to-end tests (t06xx) run the same code on documents that
 * tdperf builds from the real perf outputs in tests/fixtures.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/report.h"
#include "analyze/compare.h"
#include "report/render.h"
#include "report/html.h"

/* ---- the generator ---- */

struct gen_node {
	const char *id, *name, *parent;
	int level;
	double value; /* NAN: not computable */
};

static const struct gen_node level12[] = {
	{ "frontend_bound", "Frontend Bound", NULL, 1, 0.10 },
	{ "bad_speculation", "Bad Speculation", NULL, 1, 0.05 },
	{ "backend_bound", "Backend Bound", NULL, 1, 0.50 },
	{ "retiring", "Retiring", NULL, 1, 0.35 },
	{ "fetch_latency", "Fetch Latency", "frontend_bound", 2, 0.06 },
	{ "fetch_bandwidth", "Fetch Bandwidth", "frontend_bound", 2, 0.04 },
	{ "branch_mispredicts", "Branch Mispredicts", "bad_speculation", 2, 0.04 },
	{ "machine_clears", "Machine Clears", "bad_speculation", 2, 0.01 },
	{ "memory_bound", "Memory Bound", "backend_bound", 2, 0.30 },
	{ "core_bound", "Core Bound", "backend_bound", 2, 0.20 },
	{ "light_operations", "Light Operations", "retiring", 2, 0.30 },
	{ "heavy_operations", "Heavy Operations", "retiring", 2, 0.05 },
};

static json_t *make_node(const struct gen_node *g, double value)
{
	json_t *n = json_pack("{s:s, s:s, s:s?, s:i, s:s, s:b, s:b, s:b}", "id", g->id, "name", g->name,
			      "parent", g->parent, "level", g->level, "unit", "slots",
			      "flagged", value > 0.15, "bottleneck", 0, "approximate", 0);

	json_object_set_new(n, "value", isnan(value) ? json_null() : json_real(value));
	json_object_set_new(n, "reason", isnan(value) ? json_string("needs EVENT_X (not counted)") : json_null());
	return n;
}

/* A scope with Level 1 (and 2 when levels == 2); values scaled from level12[]. */
static json_t *make_scope(const char *id, const char *kind, const char *label, int levels, double time)
{
	json_t *nodes = json_array();
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(level12); i++)
		if (level12[i].level <= levels)
			json_array_append_new(nodes, make_node(&level12[i], level12[i].value));
	return json_pack("{s:s, s:s, s:s?, s:n, s:o, s:o, s:o, s:o, s:o, s:o}", "id", id, "kind", kind,
			 "label", label, "pmu", "time", isnan(time) ? json_null() : json_real(time),
			 "nodes", nodes, "metrics", json_array(), "events", json_array(), "stacks", json_object(),
			 "warnings", json_array());
}

static json_t *make_doc(json_t *scopes, const char *uarch, double width)
{
	return json_pack("{s:s, s:i, s:{s:s, s:[s, s], s:{s:s, s:s}}, s:{s:s, s:s, s:f}, s:o, s:n, s:n, s:[]}",
			 "schema", "tdperf-report", "version", 1,
			 "run", "kind", "import", "workload", "./app", "--size=<big> & \"fast\"",
			 "cpu", "microarchitecture", uarch, "name", "Test CPU",
			 "table", "name", uarch, "display", uarch, "slots_per_cycle", width,
			 "scopes", scopes, "threads", "roofline", "warnings");
}

static json_t *node_of(json_t *scope, const char *id)
{
	json_t *n;
	size_t i;

	json_array_foreach(json_object_get(scope, "nodes"), i, n)
		if (!strcmp(td_json_str(n, "id"), id))
			return n;
	return NULL;
}

static void set_value(json_t *scope, const char *id, double v)
{
	json_object_set_new(node_of(scope, id), "value", isnan(v) ? json_null() : json_real(v));
	json_object_set_new(node_of(scope, id), "reason",
			    isnan(v) ? json_string("needs EVENT_X (not counted)") : json_null());
}

static void add_metric(json_t *scope, const char *id, double v)
{
	json_array_append_new(json_object_get(scope, "metrics"),
			      json_pack("{s:s, s:s, s:f, s:n}", "id", id, "name", id, "value", v, "reason"));
}

static void add_event(json_t *scope, const char *name, double v, double running)
{
	json_array_append_new(json_object_get(scope, "events"),
			      json_pack("{s:s, s:f, s:s, s:f, s:b}", "name", name, "value", v, "status", "ok",
					"running_pct", running, "scaled", running < 100));
}

static struct td_chart *chart_named(struct td_chart_list *l, const char *stem)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (!strcmp(l->items[i]->stem, stem))
			return l->items[i];
	return NULL;
}

static int series_of(struct td_chart *c, const char *id)
{
	size_t i;

	for (i = 0; i < c->nseries; i++)
		if (!strcmp(c->series[i].id, id))
			return (int)i;
	return -1;
}

static char *scratch_dir(void)
{
	char tmpl[] = "/tmp/td-unit-html-XXXXXX";

	assert_non_null(mkdtemp(tmpl));
	return xstrdup(tmpl);
}

static char *read_whole(const char *dir, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = td_path_join(dir, name);

	assert_int_equal(td_read_file(&sb, path), 0);
	free(path);
	return strbuf_detach(&sb, NULL);
}

/* ---- palette ---- */

static void palette_is_fixed_per_component(void **state)
{
	const char *l1[] = { "retiring", "bad_speculation", "frontend_bound", "backend_bound" };
	size_t i, j;

	assert_int_equal(td_component_family("tma_Backend_Bound", NULL), TD_FAMILY_BACKEND);
	assert_int_equal(td_component_family("memory_bound", NULL), TD_FAMILY_BACKEND);
	assert_int_equal(td_component_family("whatever_l3", "backend_bound"), TD_FAMILY_BACKEND);
	assert_int_equal(td_component_family("frontend_bound_latency", NULL), TD_FAMILY_FRONTEND);
	assert_int_equal(td_component_family("mystery", NULL), TD_FAMILY_OTHER);
	/* four different Level-1 colours, the same every time */
	for (i = 0; i < 4; i++) {
		assert_string_equal(td_component_colour(l1[i], NULL, 1, 0), td_component_colour(l1[i], NULL, 1, 3));
		for (j = 0; j < i; j++)
			assert_string_not_equal(td_component_colour(l1[i], NULL, 1, 0),
						td_component_colour(l1[j], NULL, 1, 0));
	}
	/* Level-2 siblings get different shades of the family */
	assert_string_not_equal(td_component_colour("memory_bound", "backend_bound", 2, 0),
				td_component_colour("core_bound", "backend_bound", 2, 1));
	assert_string_not_equal(td_component_colour("memory_bound", "backend_bound", 2, 0),
				td_component_colour("backend_bound", NULL, 1, 0));
}

/* ---- chart data ---- */

static void topdown_bars_keep_fixed_order_and_values(void **state)
{
	json_t *scopes = json_array(), *t2, *doc;
	struct td_chart_list charts = { 0 };
	struct td_chart *l1, *l2;
	int ret, fe;

	json_array_append_new(scopes, make_scope("total", "total", NULL, 2, NAN));
	json_array_append_new(scopes, make_scope("t1", "thread", "worker-1", 1, NAN));
	t2 = make_scope("t2", "thread", "worker-2", 1, NAN);
	/* the document order must not matter: reverse this scope's nodes */
	json_array_insert(json_object_get(t2, "nodes"), 0, json_array_get(json_object_get(t2, "nodes"), 3));
	json_array_remove(json_object_get(t2, "nodes"), 4);
	set_value(t2, "frontend_bound", 0.25);
	json_array_append_new(scopes, t2);
	doc = make_doc(scopes, "skylake", 4);
	td_charts_for_report(doc, &charts);

	l1 = chart_named(&charts, "topdown-l1");
	assert_non_null(l1);
	assert_int_equal(l1->nrows, 3);
	assert_int_equal(l1->nseries, 4);
	/* bottom to top: Retiring, Bad Speculation, Frontend Bound, Backend Bound */
	assert_string_equal(l1->series[0].id, "retiring");
	assert_string_equal(l1->series[1].id, "bad_speculation");
	assert_string_equal(l1->series[2].id, "frontend_bound");
	assert_string_equal(l1->series[3].id, "backend_bound");
	assert_string_equal(l1->rows[1].label, "worker-1");
	fe = series_of(l1, "frontend_bound");
	assert_true(fabs(l1->rows[0].values[fe] - 10.0) < 1e-9);
	assert_true(fabs(l1->rows[2].values[fe] - 25.0) < 1e-9);
	ret = series_of(l1, "retiring");
	assert_true(fabs(l1->rows[2].values[ret] - 35.0) < 1e-9);

	/* Level 2: only the scope that has it; eight children, grouped by family */
	l2 = chart_named(&charts, "topdown-l2");
	assert_non_null(l2);
	assert_int_equal(l2->nrows, 1);
	assert_int_equal(l2->nseries, 8);
	assert_string_equal(l2->series[0].id, "light_operations");
	assert_string_equal(l2->series[7].id, "core_bound");
	assert_true(fabs(l2->rows[0].values[series_of(l2, "memory_bound")] - 30.0) < 1e-9);
	assert_null(chart_named(&charts, "timeline"));
	json_decref(doc);
	td_chart_list_release(&charts);
}

static void not_computable_stays_missing_with_a_note(void **state)
{
	json_t *scopes = json_array(), *s = make_scope("total", "total", NULL, 1, NAN);
	struct td_chart_list charts = { 0 };
	struct td_chart *l1;
	char *dir = scratch_dir(), *dat, *gp;
	struct strbuf err = STRBUF_INIT;
	json_t *doc;

	set_value(s, "bad_speculation", NAN);
	json_array_append_new(scopes, s);
	doc = make_doc(scopes, "skylake", 4);
	td_charts_for_report(doc, &charts);
	l1 = chart_named(&charts, "topdown-l1");
	assert_non_null(l1);
	assert_true(isnan(l1->rows[0].values[series_of(l1, "bad_speculation")]));
	assert_non_null(strstr(l1->notes.buf, "Bad Speculation not computable: needs EVENT_X (not counted)"));

	assert_int_equal(td_chart_write(l1, dir, "svg", &err), 0);
	dat = read_whole(dir, "topdown-l1.dat");
	gp = read_whole(dir, "topdown-l1.gp");
	/*
	 * "?" in the data, never a zero; the note travels with the data; the
	 * 5 % the measured components leave is a "not measured" column, so
	 * the bar is not drawn as if whole (issue 32)
	 */
	assert_non_null(strstr(dat, "total\t35\t?\t10\t50\t5\n"));
	assert_non_null(strstr(gp, "title 'not measured' lc rgb \"#8a929e\" fs pattern 4"));
	assert_non_null(strstr(dat, "# note: total: Bad Speculation not computable"));
	assert_non_null(strstr(gp, "set datafile missing \"?\""));
	assert_non_null(strstr(gp, "plot \"topdown-l1.dat\" using 2:xtic(1) title 'Retiring' lc rgb \"#"));
	assert_non_null(strstr(gp, "if (!exists(\"to_stdout\")) set output \"topdown-l1.\" . fmt"));
	td_remove_tree(dir);
	free(dir);
	free(dat);
	free(gp);
	json_decref(doc);
	td_chart_list_release(&charts);
	strbuf_release(&err);
}

static void chart_labels_cannot_break_the_data_file(void **state)
{
	struct td_chart *c = td_chart_new("x", "a \"quoted\" 'title' `date` @m\nnext\\", TD_CHART_STACKED);
	struct td_chart_row *r;
	struct strbuf err = STRBUF_INIT;
	char *dir = scratch_dir(), *dat, *gp;

	td_chart_add_series(c, "retiring", "Retiring", "#000000");
	r = td_chart_add_row(c, "#comm\twith \"tab\"\nnewline");
	r->values[0] = 1.5;
	assert_int_equal(td_chart_write(c, dir, "png", &err), 0);
	dat = read_whole(dir, "x.dat");
	gp = read_whole(dir, "x.gp");
	assert_non_null(strstr(dat, "\n #comm with 'tab' newline\t1.5\n"));
	/* single quotes: gnuplot substitutes no `command` and expands no @macro
	 * there; a quote is a double-quoted string of its own, joined with '.' */
	assert_non_null(strstr(gp, "set title 'a \"quoted\" '.\"'\".'title'.\"'\".' `date` @m next\\' font"));
	/* the comment stays one line and does not continue onto the next */
	assert_non_null(strstr(gp, "# tdperf chart: a \"quoted\" 'title' `date` @m\n# tdperf chart: next/\n"));
	assert_non_null(strstr(gp, "if (!exists(\"fmt\")) fmt = \"png\""));
	td_remove_tree(dir);
	free(dir);
	free(dat);
	free(gp);
	td_chart_free(c);
	strbuf_release(&err);
}

/* Labels starting with quotes reach gnuplot as text; controls and bad UTF-8 never reach an SVG. */
static void chart_labels_are_text_an_svg_may_hold(void **state)
{
	struct td_chart *c = td_chart_new("q", "'lead", TD_CHART_STACKED);
	struct td_chart_row *r;
	struct strbuf err = STRBUF_INIT;
	char *dir = scratch_dir(), *dat, *gp;

	td_chart_add_series(c, "retiring", "'''", "#000000");
	td_chart_add_series(c, "other", "", "#000000");
	r = td_chart_add_row(c, "\033]0;PWN\a\302\233x\377\355\240\200\357\277\276\303\251");
	r->values[0] = 1;
	assert_int_equal(td_chart_write(c, dir, "svg", &err), 0);
	dat = read_whole(dir, "q.dat");
	gp = read_whole(dir, "q.gp");
	assert_non_null(strstr(gp, "set title \"'\".'lead' font"));
	assert_non_null(strstr(gp, "title \"'''\" lc rgb"));
	assert_non_null(strstr(gp, "title '' lc rgb"));
	/* ESC, BEL and C1 become spaces; bad bytes, a surrogate and U+FFFE become U+FFFD; é stays */
	assert_non_null(strstr(dat, "\n ]0;PWN  x\357\277\275\357\277\275\357\277\275\357\277\275"
			       "\357\277\275\357\277\275\357\277\275\303\251\t1\t?\n"));
	td_remove_tree(dir);
	free(dir);
	free(dat);
	free(gp);
	td_chart_free(c);
	strbuf_release(&err);
}

static void intervals_make_a_timeline(void **state)
{
	json_t *scopes = json_array(), *doc;
	struct td_chart_list charts = { 0 };
	struct td_chart *t;
	int i;

	json_array_append_new(scopes, make_scope("total", "total", NULL, 1, NAN));
	for (i = 1; i <= 5; i++) {
		char id[16];
		json_t *s;

		snprintf(id, sizeof(id), "i%d", i);
		s = make_scope(id, "interval", NULL, 1, i * 0.5);
		set_value(s, "backend_bound", 0.40 + 0.02 * i);
		set_value(s, "retiring", 0.45 - 0.02 * i);
		json_array_append_new(scopes, s);
	}
	doc = make_doc(scopes, "icelake", 5);
	td_charts_for_report(doc, &charts);
	t = chart_named(&charts, "timeline");
	assert_non_null(t);
	assert_int_equal(t->kind, TD_CHART_AREA);
	assert_int_equal(t->nrows, 5);
	assert_true(fabs(t->rows[4].x - 2.5) < 1e-9);
	assert_true(fabs(t->rows[4].values[series_of(t, "backend_bound")] - 50.0) < 1e-9);
	/* intervals are not bars */
	assert_int_equal(chart_named(&charts, "topdown-l1")->nrows, 1);
	td_chart_list_release(&charts);
	json_decref(doc);

	/* one interval is a point, not a timeline */
	scopes = json_array();
	json_array_append_new(scopes, make_scope("i1", "interval", NULL, 1, 1.0));
	doc = make_doc(scopes, "icelake", 5);
	td_charts_for_report(doc, &charts);
	assert_null(chart_named(&charts, "timeline"));
	td_chart_list_release(&charts);
	json_decref(doc);
}

/* ---- CPI stack ---- */

static void cpi_stack_from_metric_ipc_or_events(void **state)
{
	json_t *s = make_scope("total", "total", NULL, 2, NAN), *k, *c;
	double sum = 0;
	size_t i;

	k = td_report_cpi_stack(s, 1);
	assert_true(json_is_null(json_object_get(k, "cpi")));
	assert_non_null(td_json_str(k, "reason"));
	json_decref(k);

	add_event(s, "cpu_core/cycles/", 3e9, 100);
	add_event(s, "INST_RETIRED.ANY:u", 2e9, 100);
	k = td_report_cpi_stack(s, 1);
	assert_true(fabs(td_json_num(json_object_get(k, "cpi")) - 1.5) < 1e-12);
	assert_string_equal(td_json_str(k, "cpi_from"), "cycles / instructions events");
	json_array_foreach(json_object_get(k, "components"), i, c)
		sum += td_json_num(json_object_get(c, "value"));
	/* the fractions sum to 1, so the components sum to the CPI */
	assert_true(fabs(sum - 1.5) < 1e-12);
	json_decref(k);

	add_metric(s, "ipc", 0.5);
	k = td_report_cpi_stack(s, 2);
	assert_true(fabs(td_json_num(json_object_get(k, "cpi")) - 2.0) < 1e-12);
	assert_int_equal(json_array_size(json_object_get(k, "components")), 8);
	/* Memory Bound: CPI 2 x 0.30 */
	json_array_foreach(json_object_get(k, "components"), i, c)
		if (!strcmp(td_json_str(c, "id"), "memory_bound"))
			assert_true(fabs(td_json_num(json_object_get(c, "value")) - 0.6) < 1e-12);
	json_decref(k);

	add_metric(s, "tma_info_thread_cpi", 4.0);
	k = td_report_cpi_stack(s, 1);
	assert_true(fabs(td_json_num(json_object_get(k, "cpi")) - 4.0) < 1e-12);
	json_decref(k);

	/* the stack analyses' own CPI stack wins when present */
	json_object_set_new(json_object_get(s, "stacks"), "cpi",
			    json_pack("{s:f, s:[{s:s, s:s, s:i, s:f}]}", "cpi", 7.0, "components", "id", "retiring",
				      "name", "Retiring", "level", 1, "value", 7.0));
	k = td_report_cpi_stack(s, 1);
	assert_string_equal(td_json_str(k, "source"), "stacks.cpi");
	assert_true(fabs(td_json_num(json_object_get(k, "cpi")) - 7.0) < 1e-12);
	json_decref(k);
	json_decref(s);
}

/* ---- templates and SVG ---- */

static void write_template(const char *dir, const char *name, const char *text)
{
	struct strbuf rel = STRBUF_INIT;
	char *tdir = td_path_join(dir, "templates"), *path;

	td_mkdir_p(tdir);
	strbuf_addf(&rel, "templates/%s", name);
	path = td_path_join(dir, rel.buf);
	assert_int_equal(td_write_file_atomic(path, text, strlen(text)), 0);
	free(path);
	free(tdir);
	strbuf_release(&rel);
}

static void templates_fill_slots_blocks_and_includes(void **state)
{
	char *dir = scratch_dir();
	struct td_template *t = td_template_new();
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	setenv("TDPERF_DATADIR", dir, 1);
	write_template(dir, "page.html", "{{! a comment }}<h1>{{title}}</h1>{{?opt}}[{{opt}}]{{/opt}}{{?none}}X{{/none}}\n"
		       "<style>{{>part.css}}</style>");
	write_template(dir, "part.css", "b { c: {{colour}} }");
	write_template(dir, "bad.html", "line 1\nline 2\n  {{typo}}\n");
	td_template_set_text(t, "title", "<script>&");
	td_template_set_html(t, "opt", "<b>yes</b>");
	td_template_set_html(t, "none", "");
	td_template_set_text(t, "colour", "red");
	assert_int_equal(td_template_expand(t, "page.html", &out, &err), 0);
	assert_string_equal(out.buf, "<h1>&lt;script&gt;&amp;</h1>[<b>yes</b>]\n<style>b { c: red }</style>");
	strbuf_reset(&out);
	assert_int_equal(td_template_expand(t, "bad.html", &out, &err), -1);
	assert_string_equal(err.buf, "templates/bad.html:3: slot 'typo' is not set");
	strbuf_reset(&err);
	assert_int_equal(td_template_expand(t, "absent.html", &out, &err), -1);
	assert_non_null(strstr(err.buf, "absent.html: cannot read template"));
	unsetenv("TDPERF_DATADIR");
	td_remove_tree(dir);
	free(dir);
	td_template_free(t);
	strbuf_release(&out);
	strbuf_release(&err);
}

static void svg_inline_drops_prolog_and_prefixes_ids(void **state)
{
	struct strbuf out = STRBUF_INIT;

	td_svg_inline(&out, "<?xml version=\"1.0\"?>\n<svg viewBox=\"0 0 1 1\">\n<g id=\"gnuplot_canvas\">"
		      "<path id='gpPt0'/><use xlink:href='#gpPt0'/><rect clip-path=\"url(#clip1)\"/></g></svg>\n",
		      "l1");
	assert_string_equal(out.buf, "<svg class=\"chart\" role=\"img\" viewBox=\"0 0 1 1\">\n<g id=\"l1-gnuplot_canvas\">"
			    "<path id='l1-gpPt0'/><use xlink:href='#l1-gpPt0'/><rect clip-path=\"url(#l1-clip1)\"/></g></svg>\n");
	strbuf_release(&out);
}

/* ---- diff ---- */

static void diff_attributes_the_cpi_change(void **state)
{
	json_t *sa = make_scope("total", "total", NULL, 2, NAN), *sb = make_scope("total", "total", NULL, 1, NAN);
	json_t *a, *b, *diff, *st, *c, *n;
	struct strbuf err = STRBUF_INIT;
	double sum = 0;
	size_t i;

	/* A: CPI 2 (IPC metric); B: CPI 1 from events, less Backend Bound, one approximate node */
	add_metric(sa, "ipc", 0.5);
	add_event(sb, "cycles", 1e9, 60.0);
	add_event(sb, "instructions", 1e9, 100.0);
	set_value(sb, "backend_bound", 0.30);
	set_value(sb, "retiring", 0.55);
	json_object_set_new(node_of(sb, "frontend_bound"), "approximate", json_true());
	json_array_append_new(json_object_get(sb, "nodes"),
			      json_pack("{s:s, s:s, s:s, s:i, s:f}", "id", "dsb_switches", "name", "DSB Switches",
					"parent", "frontend_bound", "level", 3, "value", 0.01));
	a = make_doc(json_pack("[o]", sa), "skylake", 4);
	b = make_doc(json_pack("[o]", sb), "icelake", 5);
	diff = td_diff_build(a, "A-run", NULL, b, "B-run", NULL, &err);
	assert_non_null(diff);
	assert_string_equal(td_json_str(diff, "schema"), "tdperf-diff");

	/* Level 1 is common: deltas; Level 2 only in A */
	json_array_foreach(json_object_get(diff, "nodes"), i, n) {
		if (!strcmp(td_json_str(n, "id"), "backend_bound"))
			assert_true(fabs(td_json_num(json_object_get(n, "delta")) + 0.20) < 1e-12);
		if (!strcmp(td_json_str(n, "id"), "memory_bound"))
			assert_string_equal(td_json_str(n, "only_in"), "a");
	}
	assert_int_equal(json_array_size(json_object_get(diff, "only_in_a")), 8);
	assert_int_equal(json_array_size(json_object_get(diff, "only_in_b")), 1);

	/* CPI 2 -> 1: Backend 1.0 -> 0.30, Retiring 0.70 -> 0.55, ...; the parts sum to -1 */
	st = json_array_get(json_object_get(diff, "cpi_stacks"), 0);
	assert_int_equal(json_array_size(json_object_get(diff, "cpi_stacks")), 1);
	assert_true(fabs(td_json_num(json_object_get(st, "delta")) + 1.0) < 1e-12);
	json_array_foreach(json_object_get(st, "components"), i, c) {
		sum += td_json_num(json_object_get(c, "delta"));
		if (!strcmp(td_json_str(c, "id"), "backend_bound")) {
			assert_true(fabs(td_json_num(json_object_get(c, "delta")) + 0.70) < 1e-12);
			assert_true(fabs(td_json_num(json_object_get(c, "share")) - 0.70) < 1e-12);
		}
	}
	assert_true(fabs(sum + 1.0) < 1e-12);
	assert_true(fabs(td_json_num(json_object_get(st, "unattributed"))) < 1e-12);
	/* A has no cycle count: no cycle attribution, with a reason */
	assert_true(json_is_null(json_object_get(json_object_get(diff, "cycles"), "components")));
	assert_non_null(td_json_str(json_object_get(diff, "cycles"), "reason"));

	assert_int_equal(json_array_size(json_object_get(diff, "approximations")), 1);
	assert_true(json_is_true(json_object_get(json_array_get(json_object_get(diff, "approximations"), 0), "changed")));
	assert_true(fabs(td_json_num(json_object_get(json_object_get(json_object_get(diff, "b"), "multiplexing"),
						     "lowest_running_pct")) - 60.0) < 1e-12);
	{
		char *w = json_dumps(json_object_get(diff, "warnings"), 0);

		assert_non_null(strstr(w, "different CPUs"));
		free(w);
	}

	/* a scope that does not exist is an error naming it */
	json_decref(diff);
	assert_null(td_diff_build(a, "A-run", "nope", b, "B-run", NULL, &err));
	assert_non_null(strstr(err.buf, "A: no scope 'nope'"));
	json_decref(a);
	json_decref(b);
	strbuf_release(&err);
}

/* ---- the HTML report ---- */

static void html_report_escapes_and_works_without_gnuplot(void **state)
{
	json_t *scopes = json_array(), *doc;
	char *dir = scratch_dir(), *path = td_path_join(dir, "r.html"), *html;
	struct strbuf err = STRBUF_INIT;

	json_array_append_new(scopes, make_scope("total", "total", NULL, 2, NAN));
	json_array_append_new(scopes, make_scope("t1", "thread", "<script>alert(1)</script>", 1, NAN));
	doc = make_doc(scopes, "skylake", 4);
	setenv("TDPERF_GNUPLOT", "/nonexistent/gnuplot", 1);
	assert_int_equal(td_report_render_html(doc, path, &err), 0);
	unsetenv("TDPERF_GNUPLOT");
	html = read_whole(dir, "r.html");
	assert_null(strstr(html, "<script>"));
	assert_non_null(strstr(html, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	assert_non_null(strstr(html, "app --size=&lt;big&gt; &amp; &quot;fast&quot;"));
	assert_non_null(strstr(html, "Charts left out: gnuplot not found"));
	/* the CSS bars need no gnuplot */
	assert_non_null(strstr(html, "class=\"stackbar big\""));
	assert_null(strstr(html, "{{"));
	free(html);

	/* not a report document: an error, nothing written */
	assert_int_equal(td_report_render_html(scopes, path, &err), -1);
	assert_non_null(strstr(err.buf, "not a tdperf report document"));
	td_remove_tree(dir);
	free(dir);
	free(path);
	json_decref(doc);
	strbuf_release(&err);
}

/* Reasons: the event names once each, a few of them, the count of the rest. */
static void reasons_are_short_and_name_each_event_once(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const char *many = "A.X not measured; B.Y not measured; A.X not measured; C not measured; "
			   "correction term K not measured, taken as 0; D not measured; E not measured";

	(void)state;
	assert_int_equal(td_reason_missing_count(many), 5);
	td_reason_short(&sb, many, 3);
	assert_string_equal(sb.buf, "A.X, B.Y, C and 2 more not measured; "
			    "correction term K not measured, taken as 0");
	strbuf_reset(&sb);
	/* one more than the limit: the name itself, not "and 1 more" */
	td_reason_short(&sb, "A not measured; B not measured; C not measured; D not measured", 3);
	assert_string_equal(sb.buf, "A, B, C, D not measured");
	strbuf_reset(&sb);
	td_reason_short(&sb, "approximate formula: no SMT", 3);
	assert_string_equal(sb.buf, "approximate formula: no SMT");
	strbuf_reset(&sb);
	td_reason_missing_list(&sb, many);
	assert_string_equal(sb.buf, "A.X, B.Y, C, D, E");
	strbuf_reset(&sb);
	td_html_reason(&sb, many);
	assert_non_null(strstr(sb.buf, "title=\"A.X, B.Y, C, D, E\""));
	assert_non_null(strstr(sb.buf, ">A.X, B.Y, C and 2 more not measured;"));
	strbuf_release(&sb);
}

/* Several sessions: the total scope with the most computable nodes, the first on a tie. */
static void main_scope_is_the_most_complete_session(void **state)
{
	json_t *s1 = make_scope("s1/total", "total", NULL, 1, NAN);
	json_t *s2 = make_scope("s2/total", "total", NULL, 2, NAN);
	json_t *s2b = make_scope("s2/total-atom", "total", NULL, 2, NAN);
	json_t *s3 = make_scope("s3/total", "total", NULL, 2, NAN);
	json_t *doc;

	(void)state;
	json_object_set_new(s1, "session", json_integer(1));
	json_object_set_new(s2, "session", json_integer(2));
	json_object_set_new(s2b, "session", json_integer(2));
	json_object_set_new(s3, "session", json_integer(3));
	set_value(s2, "fetch_latency", NAN);
	set_value(s3, "fetch_latency", NAN);
	set_value(s3, "retiring", NAN);
	doc = make_doc(json_pack("[o, o, o, o]", s1, s2, s2b, s3), "skylake", 4);
	assert_int_equal(td_scope_computable_nodes(s1), 4);
	assert_int_equal(td_scope_computable_nodes(s2), 11);
	/* s2b has all 12 but is the second total of session 2 (another PMU) */
	assert_ptr_equal(td_report_main_scope(doc), s2);
	set_value(s2, "retiring", NAN);
	set_value(s2, "frontend_bound", NAN);
	set_value(s2, "backend_bound", NAN);
	set_value(s2, "bad_speculation", NAN);
	set_value(s2, "fetch_bandwidth", NAN);
	set_value(s2, "machine_clears", NAN);
	set_value(s2, "branch_mispredicts", NAN);
	set_value(s2, "core_bound", NAN);
	/* s2: 3 left, s3: 10 but Retiring missing, s1: 4, all of Level 1 (case-11) */
	assert_ptr_equal(td_report_main_scope(doc), s1);
	set_value(s1, "retiring", NAN);
	/* all three lack a Level-1 node: then the most nodes, s3 */
	assert_ptr_equal(td_report_main_scope(doc), s3);
	json_decref(doc);
}

/* Field k of a CSV line, unquoted as RFC 4180 says, into out. */
static void csv_field(const char *p, int k, char *out, size_t size)
{
	size_t n = 0;
	int quoted = 0;

	for (; *p && k > 0; p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (*p == ',' && !quoted)
			k--;
	}
	if (*p == '"') {
		for (p++; *p && n + 1 < size; p++) {
			if (*p == '"' && p[1] != '"')
				break;
			if (*p == '"')
				p++;
			out[n++] = *p;
		}
	} else {
		for (; *p && *p != ',' && n + 1 < size; p++)
			out[n++] = *p;
	}
	out[n] = '\0';
}

/*
 * The CSV writer formats numbers itself for speed: every value must read
 * as printf's %.10g prints it, and fields with commas or quotes are
 * quoted as RFC 4180 says.
 */
static void csv_numbers_match_printf_and_fields_are_quoted(void **state)
{
	static const double values[] = { -0.0, 0.0, 1e10, 9999999999.0, -9999999999.0, 12345678901.0,
					 0.1, 100.0, 3.0, -7.0, 1e-7, 0.5102564484 };
	json_t *scopes = json_array(), *scope = make_scope("s1/total", "total", "a,\"b\"", 2, 1.5);
	json_t *nodes = json_object_get(scope, "nodes"), *doc;
	char *buf = NULL, *line, *save = NULL, want[64], got[256];
	size_t len = 0, i, row = 0;
	FILE *f = open_memstream(&buf, &len);
	struct td_model *model;

	(void)state;
	assert_int_equal(json_array_size(nodes), TD_ARRAY_SIZE(values));
	for (i = 0; i < TD_ARRAY_SIZE(values); i++) {
		json_t *n = json_array_get(nodes, i);

		json_object_set_new(n, "value", json_real(values[i]));
		json_object_set_new(n, "reason", json_string("A,B not \"measured\""));
	}
	json_object_set_new(scope, "session", json_integer(1));
	json_array_append_new(scopes, scope);
	doc = make_doc(scopes, "icelake", 5);
	json_object_set_new(doc, "sessions", json_pack("[{s:i}]", "index", 1));
	model = td_model_new(doc);
	td_report_render_csv(model, f);
	td_model_free(model);
	fclose(f);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save), row++) {
		if (!row)
			continue; /* the header */
		csv_field(line, 3, got, sizeof(got));
		assert_string_equal(got, "a,\"b\"");
		csv_field(line, 5, got, sizeof(got));
		assert_string_equal(got, "1.5");
		csv_field(line, 10, got, sizeof(got));
		snprintf(want, sizeof(want), "%.10g", values[row - 1]);
		assert_string_equal(got, want);
		csv_field(line, 17, got, sizeof(got));
		assert_string_equal(got, "A,B not \"measured\"");
	}
	assert_int_equal(row, TD_ARRAY_SIZE(values) + 1);
	free(buf);
	json_decref(doc);
}

/* The node fields a folded scope carries, as docs/report-schema.md lists them. */
static const char *const folded_fields[] = {
	"value", "flagged", "bottleneck", "approximate", "reason", "perf_value", "perf_resolution",
	"perf_name", "group", "uncertainty", "undecided", "counted_pct", "estimate", "sanity",
	"source", "perf_kind",
};

/* A node field as a reader sees it: absent and null (or false) are the same. */
static json_t *field_or_default(json_t *node, const char *key)
{
	json_t *v = json_object_get(node, key);

	return v ? v : json_null();
}

static int same_field(json_t *a, json_t *b)
{
	if ((json_is_null(a) || json_is_false(a)) && (json_is_null(b) || json_is_false(b)))
		return 1;
	return json_equal(a, b);
}

/*
 * JSON folds the interval scopes into columns and tables; a reader that
 * unfolds them gets every node field the whole scope had, whatever the
 * values (null, -0, 1e10, tiny ones) and texts (quotes, newlines,
 * control characters, non-ASCII), while the run's total is written as is.
 */
static void json_folds_and_unfolds_interval_scopes(void **state)
{
	static const double values[] = { 0.1, NAN, -0.0, 1e10, 1e-7, 0.5102564484, 12345678901.0,
					 100.0, 3.0, -7.0, 0.25, 0.75 };
	json_t *scopes = json_array(), *doc, *saved, *sc, *expected, *n;
	char *buf = NULL, *text;
	size_t len = 0, i, k, folded = 0;
	FILE *f = open_memstream(&buf, &len);
	struct strbuf err = STRBUF_INIT;

	(void)state;
	json_array_append_new(scopes, make_scope("s1/total", "total", NULL, 2, NAN));
	for (i = 0; i < 3; i++) {
		char id[32];

		snprintf(id, sizeof(id), "s1/total@%zu.5", i + 1);
		sc = make_scope(id, "total", NULL, 2, (double)i + 1.5);
		json_array_foreach(json_object_get(sc, "nodes"), k, n) {
			double v = i == 2 ? 0.5 : values[(k + i) % TD_ARRAY_SIZE(values)];

			json_object_set_new(n, "value", isnan(v) ? json_null() : json_real(v));
			json_object_set_new(n, "flagged", json_boolean(k % 3 == i));
			json_object_set_new(n, "reason", k % 2 ? json_string(k % 4 == 1 ? "A \"quoted\"\nline\t\x01 ok"
										      : "\xc3\xa9v\xc3\xa9nement not measured")
							      : json_null());
			json_object_set_new(n, "perf_value", k == 0 ? json_real(0.51) : json_null());
			json_object_set_new(n, "perf_name", k == 0 ? json_string("tma_frontend_bound") : json_null());
			/* as the builder writes every node: where its value came from */
			json_object_set_new(n, "source", json_string(k == 0 && i == 1 ? "perf" : "counts"));
			json_object_set_new(n, "perf_kind", k == 0 ? json_string("table") : json_null());
			json_object_set_new(n, "group", k < 4 ? json_integer((json_int_t)k) : json_null());
			json_object_set_new(n, "counted_pct", json_real(i == 1 && k == 3 ? 62.5 : 100.0));
		}
		json_object_set_new(sc, "session", json_integer(1));
		json_array_append_new(scopes, sc);
	}
	json_object_set_new(json_array_get(scopes, 0), "session", json_integer(1));
	doc = make_doc(scopes, "icelake", 5);
	td_report_render_json(doc, 0, f);
	fclose(f);
	saved = json_loads(buf, 0, NULL);
	assert_non_null(saved);
	/* a reader of the whole document sees it through the same number format */
	text = json_dumps(doc, JSON_REAL_PRECISION(10));
	expected = json_loads(text, 0, NULL);
	free(text);
	assert_true(json_equal(json_array_get(json_object_get(saved, "scopes"), 0),
			       json_array_get(json_object_get(expected, "scopes"), 0)));
	json_array_foreach(json_object_get(saved, "scopes"), i, sc)
		folded += json_is_true(json_object_get(sc, "folded"));
	assert_int_equal(folded, 3);
	/* the third interval has one value for every node: written once */
	assert_true(json_is_real(json_object_get(json_array_get(json_object_get(saved, "scopes"), 3), "value")));
	assert_int_equal(json_array_size(json_object_get(saved, "columns")), 1);
	/* the two reasons, perf's name, its kind and the two sources */
	assert_int_equal(json_array_size(json_object_get(saved, "strings")), 6);
	assert_int_equal(td_report_unfold(saved, &err), 0);
	json_array_foreach(json_object_get(saved, "scopes"), i, sc) {
		json_t *want = json_array_get(json_object_get(expected, "scopes"), i);

		assert_string_equal(td_json_str(sc, "id"), td_json_str(want, "id"));
		assert_int_equal(json_array_size(json_object_get(sc, "nodes")),
				 json_array_size(json_object_get(want, "nodes")));
		json_array_foreach(json_object_get(want, "nodes"), k, n) {
			json_t *got = json_array_get(json_object_get(sc, "nodes"), k);
			size_t j;

			assert_string_equal(td_json_str(got, "id"), td_json_str(n, "id"));
			for (j = 0; j < TD_ARRAY_SIZE(folded_fields); j++)
				if (!same_field(field_or_default(got, folded_fields[j]),
						field_or_default(n, folded_fields[j])))
					fail_msg("scope %zu node %zu: %s differs", i, k, folded_fields[j]);
		}
	}
	/* a folded scope naming a columns entry the document lacks is refused */
	json_object_set_new(json_array_get(json_object_get(expected, "scopes"), 1), "folded", json_true());
	json_object_set_new(json_array_get(json_object_get(expected, "scopes"), 1), "columns", json_integer(7));
	json_object_del(json_array_get(json_object_get(expected, "scopes"), 1), "nodes");
	assert_int_equal(td_report_unfold(expected, &err), -1);
	assert_non_null(strstr(err.buf, "columns entry 7"));
	strbuf_release(&err);
	free(buf);
	json_decref(saved);
	json_decref(expected);
	json_decref(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(palette_is_fixed_per_component),
		cmocka_unit_test(topdown_bars_keep_fixed_order_and_values),
		cmocka_unit_test(not_computable_stays_missing_with_a_note),
		cmocka_unit_test(chart_labels_cannot_break_the_data_file),
		cmocka_unit_test(chart_labels_are_text_an_svg_may_hold),
		cmocka_unit_test(intervals_make_a_timeline),
		cmocka_unit_test(cpi_stack_from_metric_ipc_or_events),
		cmocka_unit_test(templates_fill_slots_blocks_and_includes),
		cmocka_unit_test(svg_inline_drops_prolog_and_prefixes_ids),
		cmocka_unit_test(diff_attributes_the_cpi_change),
		cmocka_unit_test(html_report_escapes_and_works_without_gnuplot),
		cmocka_unit_test(reasons_are_short_and_name_each_event_once),
		cmocka_unit_test(main_scope_is_the_most_complete_session),
		cmocka_unit_test(csv_numbers_match_printf_and_fields_are_quoted),
		cmocka_unit_test(json_folds_and_unfolds_interval_scopes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
