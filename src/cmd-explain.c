/*
 * tdperf explain: what a Top-Down node or metric means and how it is
 * computed; with a run, the formula with the run's measured values.
 */
#include "src/builtin.h"
#include "collect/sched.h"
#include "metrics/expr.h"
#include "metrics/guidance.h"
#include "metrics/table.h"
#include "analyze/report.h"
#include "analyze/compare.h"
#include "report/render.h"
#include "report/html.h"
#include "util/parse-options.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <ctype.h>

static const char *const explain_usage[] = {
	"tdperf explain [--cpu NAME | --table FILE] NODE [RUN]",
	"",
	"Print what NODE (a Top-Down node or metric id, e.g. memory_bound, ipc,",
	"or perf's name for it, e.g. tma_ms_uops) means: its place in the tree,",
	"description, formula and alternatives, correction terms, threshold and",
	"the events it needs, and for a Top-Down node its guidance: common",
	"causes, what to try, what to measure next and the sources",
	"(metrics/guidance/, docs/guidance.md).  With RUN (a run directory or a",
	"perf stat / perf.data file) also the formula with the run's measured",
	"values substituted, the value, its uncertainty, any out-of-range",
	"finding and the causes its siblings below their thresholds rule out.",
	"NODE may also be a stack as --stacks names it (cpi, multistage, flops,",
	"frontend): what it shows, its metrics and events, and with RUN its parts.",
	NULL,
};

/* ---- names a metric needs, expanded through the metrics it references ---- */

struct needs {
	const struct td_table *t;
	struct strbuf events, literals;
	char **seen;
	size_t nr, alloc;
};

static int is_metric(void *ctx, const char *name)
{
	return td_table_find_metric(((struct needs *)ctx)->t, name) != NULL;
}

static void need(void *ctx, const char *name, enum td_name_kind kind)
{
	struct needs *n = ctx;
	size_t i;

	for (i = 0; i < n->nr; i++)
		if (!strcmp(n->seen[i], name))
			return;
	TD_GROW(n->seen, n->alloc, n->nr + 1);
	n->seen[n->nr++] = xstrdup(name);
	if (kind == TD_NAME_METRIC) {
		const struct td_metric *m = td_table_find_metric(n->t, name);

		td_expr_names(m->expr, NULL, is_metric, n, need, n);
		return;
	}
	strbuf_addf(kind == TD_NAME_LITERAL ? &n->literals : &n->events, "%s%s",
		    (kind == TD_NAME_LITERAL ? n->literals.len : n->events.len) ? ", " : "", name);
}

static void print_path(const struct td_table *t, const struct td_metric *m)
{
	const struct td_metric *chain[16];
	int n = 0;

	while (m && n < 16) {
		chain[n++] = m;
		m = m->parent ? td_table_find_metric(t, m->parent) : NULL;
	}
	printf("path:        ");
	while (n-- > 0)
		printf("%s%s", chain[n]->name, n ? " > " : "\n");
}

static void print_children(const struct td_table *t, const struct td_metric *m)
{
	size_t i;
	int first = 1;

	for (i = 0; i < td_table_nr_metrics(t); i++) {
		const struct td_metric *c = td_table_metric(t, i);

		if (c->parent && !strcmp(c->parent, m->id)) {
			printf("%s%s", first ? "children:    " : ", ", c->id);
			first = 0;
		}
	}
	if (!first)
		printf("\n");
}

/* "- item" lines under a label, wrapped by the terminal. */
static void print_items(const char *label, json_t *items)
{
	json_t *v;
	size_t i;

	json_array_foreach(items, i, v)
		printf("%-13s- %s\n", i ? "" : label, json_string_value(v));
}

/*
 * What the node means and what to do about it (metrics/guidance/, see
 * docs/guidance.md), and which file said so.  A guidance file that cannot
 * be read is bad input: one line, exit 2.
 */
static void explain_guidance(const struct td_table *t, const struct td_metric *m)
{
	const struct td_table_info *info = td_table_info(t);
	struct strbuf err = STRBUF_INIT;
	json_t *g;
	int r = td_guidance_find(info->name, info->vendor, m->id, &g, &err);

	if (r < 0)
		die("%s", err.buf);
	strbuf_release(&err);
	if (!r) {
		printf("guidance:    none (no file under metrics/guidance has text for %s)\n", m->id);
		return;
	}
	printf("guidance:    %s\n", json_string_value(json_object_get(g, "from")));
	printf("means:       %s\n", json_string_value(json_object_get(g, "meaning")));
	print_items("causes:", json_object_get(g, "causes"));
	print_items("what to try:", json_object_get(g, "try"));
	print_items("next:", json_object_get(g, "next"));
	print_items("sources:", json_object_get(g, "refs"));
	json_decref(g);
}

/* With a run: the siblings below their thresholds that rule causes out. */
static void explain_ruled_out(json_t *scope, const struct td_metric *m)
{
	json_t *n, *g = NULL, *r, *c;
	size_t i, k;

	json_array_foreach(json_object_get(scope, "nodes"), i, n)
		if (td_json_str(n, "id") && !strcmp(td_json_str(n, "id"), m->id))
			g = json_object_get(n, "guidance");
	if (!json_is_object(g)) {
		printf("ruled out:   - (the node is not flagged in this scope)\n");
		return;
	}
	if (!json_array_size(json_object_get(g, "ruled_out")))
		printf("ruled out:   nothing: no sibling is decidedly below its threshold\n");
	json_array_foreach(json_object_get(g, "ruled_out"), i, r) {
		printf("%-13s- %s %.1f %%%s, below its threshold (%s), so not:", i ? "" : "ruled out:",
		       td_json_str(r, "name"), td_json_num(json_object_get(r, "value")) * 100,
		       json_is_true(json_object_get(r, "approximate")) ? " ~" : "", td_json_str(r, "threshold"));
		json_array_foreach(json_object_get(r, "causes"), k, c)
			printf("%s %s", k ? ";" : "", json_string_value(c));
		printf("\n");
	}
}

static void explain_static(const struct td_table *t, const struct td_metric *m)
{
	struct needs n = { t, STRBUF_INIT, STRBUF_INIT, NULL, 0, 0 };
	size_t i;

	printf("%s: %s (table %s, ", m->id, m->name, td_table_info(t)->name);
	if (m->level > 0)
		printf("Top-Down Level %d, fraction of %s", m->level, m->domain ? m->domain : "slots");
	else
		printf("info metric, unit %s", m->unit ? m->unit : "-");
	printf("%s%s)\n", m->area ? ", area " : "", m->area ? m->area : "");
	if (m->level > 0)
		print_path(t, m);
	if (m->description)
		printf("description: %s\n", m->description);
	printf("formula:     %s\n", m->formula);
	if (m->formulas[0].note)
		printf("             (%s)\n", m->formulas[0].note);
	for (i = 1; i < m->nr_formulas; i++) {
		printf("alternative: %s\n", m->formulas[i].text);
		printf("             (used when the formula above cannot be computed%s%s%s)\n",
		       m->formulas[i].approximate ? "; approximate" : "",
		       m->formulas[i].note ? ": " : "", m->formulas[i].note ? m->formulas[i].note : "");
	}
	printf("threshold:   %s\n", m->threshold ? m->threshold : "none");
	if (m->locate_with)
		printf("locate with: %s\n", m->locate_with);
	td_expr_names(m->expr, NULL, is_metric, &n, need, &n);
	printf("events:      %s\n", n.events.len ? n.events.buf : "none");
	if (n.literals.len)
		printf("literals:    %s\n", n.literals.buf);
	if (m->level > 0) {
		print_children(t, m);
		explain_guidance(t, m);
	}
	for (i = 0; i < n.nr; i++)
		free(n.seen[i]);
	free(n.seen);
	strbuf_release(&n.events);
	strbuf_release(&n.literals);
}

/* ---- with a run: counts from the report document ---- */

/* A formula name's value in the scope (json_t *) of the document. */
static int run_lookup(void *ctx, const char *name, double *value)
{
	return td_scope_lookup(ctx, name, value);
}

/* The formula again, each input followed by its measured value. */
static void print_inputs(const struct td_table *t, const struct td_metric *m,
			 const struct td_env *env)
{
	struct needs n = { t, STRBUF_INIT, STRBUF_INIT, NULL, 0, 0 };
	size_t i;

	td_expr_names(m->expr, NULL, is_metric, &n, need, &n);
	for (i = 0; i < n.nr; i++) {
		const struct td_metric *ref = td_table_find_metric(t, n.seen[i]);
		struct strbuf why = STRBUF_INIT;
		struct strbuf err = STRBUF_INIT;
		struct td_expr *e;
		double v;
		int approx = 0;

		e = td_expr_parse(n.seen[i][0] == '#' || !ref ? "0" : n.seen[i], &err);
		if (ref && e) {
			v = td_table_eval_expr(t, e, env, &why, &approx);
			if (isnan(v))
				printf("  %-44s   n/a: %s\n", n.seen[i],
				       why.len ? why.buf : "not computable from this run's counts");
			else
				printf("  %-44s = %.6g%s\n", n.seen[i], ref->level > 0 ? v * 100 : v,
				       ref->level > 0 ? " %" : "");
		} else if (env->lookup(env->ctx, n.seen[i], &v) == 0) {
			printf("  %-44s = %.15g\n", n.seen[i], v);
		} else {
			printf("  %-44s   not measured in this run\n", n.seen[i]);
		}
		td_expr_free(e);
		strbuf_release(&why);
		strbuf_release(&err);
		free(n.seen[i]);
	}
	free(n.seen);
	strbuf_release(&n.events);
	strbuf_release(&n.literals);
}

/* ---- stacks, by the names 'tdperf record --stacks' takes ---- */

static const char *const stack_about[][2] = {
	{ "cpi", "CPI stack: cycles per instruction split by the Top-Down Level-1 and Level-2 "
		 "fractions (Eyerman, Heirman, Du Bois and Hur, 2018)" },
	{ "multistage", "multi-stage CPI stacks: the same components taken at allocation, execute and "
			"retire; the spread per component bounds what removing it can gain (Eyerman, "
			"Heirman, Du Bois and Hur, 2018)" },
	{ "flops", "FLOPS stack: the peak FLOPs per cycle split into what kept the FP units from it "
		   "(non-FMA, narrow vectors, masks, frontend, memory, dependences; Eyerman, Heirman, "
		   "Du Bois and Hur, 2018), with the IPC stack beside it" },
	{ "frontend", "frontend delivery: uops per delivery path (DSB, MITE, MS, LSD), each path's "
		      "coverage and rate, and the delivery ceiling they set (Forte, 2021)" },
};

/* What stack 'name' shows, or NULL when --stacks does not take that name. */
static const char *stack_description(const char *name)
{
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(stack_about); i++)
		if (!strcasecmp(name, stack_about[i][0]))
			return stack_about[i][1];
	return NULL;
}

/* The stack's metrics with their formulas, and the events they need. */
static int explain_stack(const struct td_table *t, const char *stack)
{
	struct needs n = { t, STRBUF_INIT, STRBUF_INIT, NULL, 0, 0 };
	size_t i, count = 0;

	printf("%s: %s\n", stack, stack_description(stack));
	printf("table:       %s\nmetrics:\n", td_table_info(t)->name);
	for (i = 0; i < td_table_nr_metrics(t); i++) {
		const struct td_metric *m = td_table_metric(t, i);

		if (!td_sched_metric_in_stack(m, stack))
			continue;
		printf("  %-34s %s\n  %-34s = %s\n", m->id, m->name, "", m->formula);
		td_expr_names(m->expr, NULL, is_metric, &n, need, &n);
		count++;
	}
	if (!count)
		printf("  none: table %s cannot measure this stack\n", td_table_info(t)->name);
	if (n.events.len)
		printf("events:      %s\n", n.events.buf);
	printf("record it:   tdperf record --stacks %s -- COMMAND\n", stack);
	for (i = 0; i < n.nr; i++)
		free(n.seen[i]);
	free(n.seen);
	strbuf_release(&n.events);
	strbuf_release(&n.literals);
	return count ? 0 : 1;
}

/* One part of a stack in a run: its value, or its min-max over stages. */
static void print_part(json_t *p)
{
	json_t *v = json_object_get(p, "value");
	json_t *lo = json_object_get(p, "min"), *hi = json_object_get(p, "max");
	const char *id = td_json_str(p, "id") ? td_json_str(p, "id") : "?";
	const char *mark = json_is_true(json_object_get(p, "approximate")) ? " ~" : "";

	if (!json_is_number(v) && json_is_number(json_object_get(p, "coverage")))
		v = json_object_get(p, "coverage");
	if (json_is_number(v))
		printf("  %-24s %12.4g%s\n", id, json_number_value(v), mark);
	else if (json_is_number(lo) && json_is_number(hi))
		printf("  %-24s %12.4g - %.4g (min - max over the stages)\n", id, json_number_value(lo),
		       json_number_value(hi));
	else
		printf("  %-24s %12s%s\n", id, "n/a", td_json_str(p, "reason") ? "  (see the report)" : "");
}

/* The stack's parts in a report scope. */
static void explain_stack_run(json_t *scope, const char *stack)
{
	json_t *st = json_object_get(json_object_get(scope, "stacks"), stack), *parts, *p;
	const char *reason = td_json_str(st, "reason");
	size_t i;

	if (!json_is_object(st) || (json_is_false(json_object_get(st, "available")) && reason)) {
		printf("in this run: not computable%s%s\n", reason ? ": " : "", reason ? reason : "");
		return;
	}
	parts = json_object_get(st, "range");
	if (!json_is_array(parts))
		parts = json_object_get(st, "components");
	if (!json_is_array(parts))
		parts = json_object_get(st, "parts");
	if (!json_is_array(parts))
		parts = json_object_get(st, "paths");
	printf("in this run (%s):\n", td_json_str(st, "unit") ? td_json_str(st, "unit") :
	       !strcmp(stack, "frontend") ? "share of delivered uops" : "see the report");
	json_array_foreach(parts, i, p)
		print_part(p);
}

/* The node's error bar and out-of-range finding as the report has them. */
static void explain_trust(json_t *scope, const struct td_metric *m, double v)
{
	json_t *nodes = json_object_get(scope, "nodes"), *n, *u;
	const char *method = td_json_str(json_object_get(scope, "uncertainty"), "text");
	size_t i;

	json_array_foreach(nodes, i, n) {
		if (!td_json_str(n, "id") || strcmp(td_json_str(n, "id"), m->id))
			continue;
		if (json_is_number(json_object_get(n, "value")) && isnan(v))
			printf("report:      %.1f %% of %s, %s\n", json_number_value(json_object_get(n, "value")) * 100,
			       m->domain ? m->domain : "slots", td_json_str(n, "reason") ? td_json_str(n, "reason") : "");
		u = json_object_get(n, "uncertainty");
		if (json_is_number(u))
			printf("uncertainty: \xc2\xb1 %.2f points%s (%s)\n", json_number_value(u) * 100,
			       json_is_true(json_object_get(n, "undecided")) ?
			       ", not decided: the error bar reaches across the threshold" : "",
			       method ? method : "?");
		else
			printf("uncertainty: none (%s)\n", method ? method : "no spreads in the input");
		if (td_json_str(n, "estimate"))
			printf("estimate:    %s\n", td_json_str(n, "estimate"));
		if (td_json_str(n, "sanity"))
			printf("out of range: %s\n", td_json_str(n, "sanity"));
		return;
	}
}

/* ---- a node the table does not have: the name meant, or the node in its place ---- */

/* "DRAM Bound" and "tma_dram_bound" compared as "dram_bound" is */
static char *comparable(const char *name)
{
	char *c = xstrdup(name), *p;

	for (p = c; *p; p++)
		*p = *p == ' ' || *p == '-' ? '_' : (char)tolower((unsigned char)*p);
	return strncmp(c, "tma_", 4) ? c : memmove(c, c + 4, strlen(c + 4) + 1);
}

/* Does m have a child of that id in t? */
static int has_child(const struct td_table *t, const struct td_metric *m, const char *id)
{
	const struct td_metric *c = td_table_find_metric(t, id);

	return c && c->parent && !strcmp(c->parent, m->id);
}

/*
 * The node of t standing where 'id' stands in another table: the same
 * parent and a child of the same id (Sapphire Rapids' L3 Miss Bound
 * holds MEM Bandwidth and MEM Latency, which older tables put under DRAM
 * Bound).
 */
static const struct td_metric *same_place(const struct td_table *t, const char *id)
{
	const char *const *names = td_table_names();
	struct strbuf err = STRBUF_INIT;
	size_t i, k, j;

	for (i = 0; names[i]; i++) {
		const struct td_table *o = td_table_find(names[i], &err);
		const struct td_metric *there = o ? td_table_find_metric(o, id) : NULL;

		strbuf_reset(&err);
		if (!there || there->level < 1)
			continue;
		for (k = 0; k < td_table_nr_metrics(t); k++) {
			const struct td_metric *m = td_table_metric(t, k);

			if (m->level != there->level || !td_str_same(m->parent, there->parent))
				continue;
			for (j = 0; j < td_table_nr_metrics(o); j++) {
				const struct td_metric *c = td_table_metric(o, j);

				if (c->parent && !strcmp(c->parent, there->id) && has_child(t, m, c->id)) {
					strbuf_release(&err);
					return m;
				}
			}
		}
	}
	strbuf_release(&err);
	return NULL;
}

/* "table X has no metric 'N'", with the node meant when one is near or in N's place. */
static void no_such_node(const struct td_table *t, const char *node)
{
	const char *tn = td_table_info(t)->name;
	char *word = comparable(node), **names;
	const struct td_metric *m = NULL;
	struct td_suggest sg;
	size_t i, nr = td_table_nr_metrics(t);

	names = xcalloc(nr * 2 + 1, sizeof(*names));
	td_suggest_init(&sg, word);
	for (i = 0; i < nr; i++) {
		const struct td_metric *c = td_table_metric(t, i);

		names[2 * i] = comparable(c->id);
		names[2 * i + 1] = comparable(c->name ? c->name : c->id);
		td_suggest_offer(&sg, names[2 * i], c);
		td_suggest_offer(&sg, names[2 * i + 1], c);
	}
	if (td_suggest_result(&sg))
		m = sg.what;
	if (m) {
		error("table %s has no metric '%s': did you mean %s (%s)?", tn, node, m->id,
		      m->name ? m->name : m->id);
	} else if ((m = same_place(t, word))) {
		error("table %s has no metric '%s': in its place %s has %s (%s); "
		      "see tdperf list --cpu %s", tn, node, tn, m->id, m->name ? m->name : m->id, tn);
	} else {
		error("table %s has no metric '%s' (see tdperf list --cpu %s --info)", tn, node, tn);
	}
	for (i = 0; i < 2 * nr; i++)
		free(names[i]);
	free(names);
	free(word);
}

static int explain_run(const char *cpu, const char *table_file, const char *node,
		       const char *run, const char *scope_id)
{
	struct td_report_opts ro = { 0 };
	struct strbuf err = STRBUF_INIT, why = STRBUF_INIT;
	struct td_table *own = NULL;
	const struct td_table *t;
	const struct td_metric *m;
	json_t *doc, *scopes, *scope = NULL, *s;
	struct td_env env = { run_lookup, NULL };
	struct td_expr *e;
	size_t i;
	double v;
	int approx = 0, rc = 0;

	ro.cpu = cpu;
	ro.table = table_file;
	doc = td_report_open(run, &ro, &err);
	if (!doc) {
		error("%s", err.buf);
		strbuf_release(&err);
		return 2;
	}
	if (table_file) {
		own = td_table_load(table_file, &err);
		t = own;
	} else {
		const char *name = cpu ? cpu : td_json_str(json_object_get(doc, "table"), "name");

		t = name ? td_table_find(name, &err) : NULL;
		if (!name)
			strbuf_addf(&err, "%s: the run names no formula table; give --cpu", run);
	}
	if (!t) {
		error("%s", err.buf);
		rc = 2;
		goto out;
	}
	m = td_table_find_perf_metric(t, node);
	if (!m && !stack_description(node)) {
		no_such_node(t, node);
		rc = 2;
		goto out;
	}
	scopes = json_object_get(doc, "scopes");
	json_array_foreach(scopes, i, s)
		if (!scope_id || (td_json_str(s, "id") && !strcmp(td_json_str(s, "id"), scope_id))) {
			scope = s;
			break;
		}
	if (!scope) {
		error("%s: no scope %s in the report", run, scope_id ? scope_id : "at all");
		rc = 2;
		goto out;
	}
	if (!m) {
		explain_stack(t, node);
		printf("\n");
		explain_stack_run(scope, node);
		goto out;
	}
	explain_static(t, m);
	env.ctx = scope;
	printf("\nin %s, scope %s:\n", run, td_json_str(scope, "id") ? td_json_str(scope, "id") : "?");
	print_inputs(t, m, &env);
	e = td_expr_parse(m->id, &err);
	v = e ? td_table_eval_expr(t, e, &env, &why, &approx) : NAN;
	td_expr_free(e);
	if (isnan(v))
		printf("value:       not computable: %s\n", why.len ? why.buf : "?");
	else if (m->level > 0)
		printf("value:       %.1f %% of %s%s%s\n", v * 100, m->domain ? m->domain : "slots",
		       approx ? "  (approximate: " : "", approx ? why.buf : "");
	else if (m->scale > 0 && m->scale != 1)
		printf("value:       %.6g %s (formula value %.6g x %g)%s%s\n", v * m->scale,
		       m->unit ? m->unit : "", v, m->scale, approx ? "  (approximate: " : "",
		       approx ? why.buf : "");
	else
		printf("value:       %.6g%s%s%s%s\n", v, m->unit ? " " : "", m->unit ? m->unit : "",
		       approx ? "  (approximate: " : "", approx ? why.buf : "");
	if (approx && !isnan(v))
		printf(")\n");
	explain_trust(scope, m, v);
	if (m->level > 0)
		explain_ruled_out(scope, m);
	if (stack_description(node)) {
		printf("\n");
		explain_stack(t, node);
		explain_stack_run(scope, node);
	}
out:
	json_decref(doc);
	td_table_free(own);
	strbuf_release(&err);
	strbuf_release(&why);
	return rc;
}

int cmd_explain(int argc, char **argv)
{
	const char *cpu = NULL, *file = NULL, *scope = NULL, *node, *run;
	struct strbuf err = STRBUF_INIT;
	struct td_table *own = NULL;
	const struct td_table *t;
	const struct td_metric *m;
	const struct td_option options[] = {
		TD_OPT_STRING(0, "cpu", &cpu, "NAME",
			      "table name, perf pmu-events name or CPUID string "
			      "(default: the run's table; without RUN, that of tdperf.data when the "
			      "current directory has one, else required)"),
		TD_OPT_STRING(0, "table", &file, "FILE", "a formula table file"),
		TD_OPT_STRING(0, "scope", &scope, "ID", "with RUN: the report scope to use (default: the first)"),
		TD_OPT_END(),
	};

	argc = td_parse_options(argc, argv, options, explain_usage, 0);
	if (argc < 1 || argc > 2)
		return td_usage_error(explain_usage, "needs NODE and at most one RUN");
	node = argv[0];
	run = argc > 1 ? argv[1] : NULL;
	/* in the directory of a run, that run tells the CPU (and its values go with the formula) */
	if (!run && !cpu && !file && td_is_dir(TD_RUN_DEFAULT))
		run = TD_RUN_DEFAULT;
	if (run)
		return explain_run(cpu, file, node, run, scope);
	if (!cpu && !file)
		return td_usage_error(explain_usage, "without a run (or a tdperf.data here) it needs "
				      "--cpu NAME or --table FILE");
	if (file) {
		own = td_table_load(file, &err);
		t = own;
	} else {
		t = td_table_find(cpu, &err);
	}
	if (!t) {
		error("%s", err.buf);
		strbuf_release(&err);
		return 2;
	}
	m = td_table_find_perf_metric(t, node);
	if (!m && stack_description(node)) {
		int r = explain_stack(t, node);

		td_table_free(own);
		return r ? 2 : 0;
	}
	if (!m) {
		no_such_node(t, node);
		td_table_free(own);
		strbuf_release(&err);
		return 2;
	}
	explain_static(t, m);
	if (stack_description(node)) {
		printf("\n");
		explain_stack(t, node);
	}
	td_table_free(own);
	strbuf_release(&err);
	return 0;
}
