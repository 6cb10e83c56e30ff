/*
 * The typed model of a report document (analyze/model.h): read once from
 * the document's JSON, the only place the text and CSV renderers' fields
 * are named as keys.
 */
#include "analyze/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct td_model {
	json_t *doc;
	struct td_model_run run;
	struct td_model_table *tables;
	size_t nr_tables;
	struct td_model_session *sessions;
	size_t nr_sessions;
	struct td_model_warning *warnings;
	size_t nr_warnings;
	struct td_scope_rows *scopes;
	size_t nr_scopes;
};

static double num_field(json_t *o, const char *key)
{
	return td_json_num(json_object_get(o, key));
}

static int bool_field(json_t *o, const char *key)
{
	return json_is_true(json_object_get(o, key));
}

/* An integer member as the document holds it (0 when absent or not an integer). */
static long int_field(json_t *o, const char *key)
{
	return (long)json_integer_value(json_object_get(o, key));
}

/* ---- a scope ---- */

/* The spread of a node over the runs of record -r (analyze/repeat.c). */
static void node_row_repeat(json_t *rep, struct td_node_row *row)
{
	row->repeat_runs = json_is_object(rep) ? td_json_int(json_object_get(rep, "runs"), 0) : 0;
	row->repeat_mean = num_field(rep, "mean");
	row->repeat_stddev = num_field(rep, "stddev");
	row->repeat_min = num_field(rep, "min");
	row->repeat_max = num_field(rep, "max");
}

static void node_row_from_json(json_t *n, struct td_node_row *row)
{
	json_t *g = json_object_get(n, "group"), *pf = json_object_get(n, "perf_formula");

	row->id = td_json_str(n, "id");
	row->name = td_json_str(n, "name");
	row->parent = td_json_str(n, "parent");
	row->unit = td_json_str(n, "unit");
	row->level = td_json_int(json_object_get(n, "level"), 0);
	row->parent_index = -1;
	row->value = num_field(n, "value");
	row->source = td_json_str_or(n, "source", "counts");
	row->flagged = bool_field(n, "flagged");
	row->bottleneck = bool_field(n, "bottleneck");
	row->approximate = bool_field(n, "approximate");
	row->reason = td_json_str(n, "reason");
	row->threshold = td_json_str(n, "threshold");
	row->perf_value = num_field(n, "perf_value");
	row->perf_resolution = num_field(n, "perf_resolution");
	row->perf_name = td_json_str(n, "perf_name");
	row->perf_kind = td_json_str(n, "perf_kind");
	if (json_is_object(pf)) {
		row->perf_formula_version = td_json_str(pf, "perf_version");
		row->perf_formula_expr = td_json_str(pf, "expr");
		row->perf_formula_why = td_json_str(pf, "why");
		row->perf_only = json_is_true(json_object_get(pf, "perf_only"));
	}
	row->group = json_is_integer(g) ? (int)json_integer_value(g) : -1;
	row->uncertainty = num_field(n, "uncertainty");
	row->undecided = bool_field(n, "undecided");
	row->counted_pct = num_field(n, "counted_pct");
	row->estimate = td_json_str(n, "estimate");
	row->sanity = td_json_str(n, "sanity");
	node_row_repeat(json_object_get(n, "repeat"), row);
}

/* events[] ('key' "name") or extra_events[] ("event": as given to -e) */
static struct td_event_row *event_rows(json_t *events, const char *key, size_t *nr)
{
	struct td_event_row *rows = xcalloc(json_array_size(events) + 1, sizeof(*rows));
	json_t *v;
	size_t i;

	*nr = 0;
	json_array_foreach(events, i, v) {
		struct td_event_row *e = &rows[(*nr)++];

		e->name = td_json_str(v, key);
		e->unit = td_json_str(v, "unit");
		e->status = td_json_str(v, "status");
		e->pmu = td_json_str(v, "pmu");
		e->value = num_field(v, "value");
		e->running_pct = num_field(v, "running_pct");
		e->variance_pct = num_field(v, "variance_pct");
		e->scaled = bool_field(v, "scaled");
	}
	return rows;
}

void td_scope_rows_add_extra(struct td_scope_rows *r, json_t *scope)
{
	r->extra = event_rows(json_object_get(scope, "extra_events"), "event", &r->nr_extra);
}

static void metric_rows(struct td_scope_rows *r, json_t *metrics)
{
	json_t *v;
	size_t i;

	r->metrics = xcalloc(json_array_size(metrics) + 1, sizeof(*r->metrics));
	json_array_foreach(metrics, i, v) {
		struct td_model_metric *m = &r->metrics[r->nr_metrics++];

		m->name = td_json_str(v, "name");
		m->unit = td_json_str(v, "unit");
		m->perf_name = td_json_str(v, "perf_name");
		m->value = num_field(v, "value");
		m->uncertainty = num_field(v, "uncertainty");
		m->perf_value = num_field(v, "perf_value");
		m->approximate = bool_field(v, "approximate");
	}
}

static void software_rows(struct td_scope_rows *r, json_t *software)
{
	json_t *v;
	size_t i;

	r->software = xcalloc(json_array_size(software) + 1, sizeof(*r->software));
	json_array_foreach(software, i, v) {
		struct td_model_software *s = &r->software[r->nr_software++];

		s->name = td_json_str(v, "name");
		s->unit = td_json_str(v, "unit");
		s->basis = td_json_str(v, "basis");
		s->value = num_field(v, "value");
	}
}

/* A warning is a string, or an object {"severity", "text"}. */
static const char *warning_text(json_t *w)
{
	return json_is_string(w) ? json_string_value(w) : td_json_str(w, "text");
}

static void warning_rows(struct td_scope_rows *r, json_t *warnings)
{
	json_t *w;
	size_t i;

	r->warnings = xcalloc(json_array_size(warnings) + 1, sizeof(*r->warnings));
	json_array_foreach(warnings, i, w)
		r->warnings[r->nr_warnings++] = warning_text(w);
}

void td_scope_rows_link(struct td_scope_rows *r)
{
	size_t i, k;

	/* pre-order: a parent comes before its children, mostly just before */
	for (i = 0; i < r->nr_nodes; i++) {
		struct td_node_row *n = &r->nodes[i];

		n->parent_index = -1;
		for (k = i; n->parent && k-- > 0;)
			if (r->nodes[k].id && !strcmp(r->nodes[k].id, n->parent)) {
				n->parent_index = (long)k;
				break;
			}
		/* a document written in another order */
		for (k = i + 1; n->parent && n->parent_index < 0 && k < r->nr_nodes; k++)
			if (r->nodes[k].id && !strcmp(r->nodes[k].id, n->parent))
				n->parent_index = (long)k;
	}
}

const struct td_node_row *td_node_parent(const struct td_scope_rows *r, const struct td_node_row *n)
{
	return n->parent_index >= 0 && (size_t)n->parent_index < r->nr_nodes ? &r->nodes[n->parent_index] : NULL;
}

void td_scope_rows_from_json(json_t *scope, struct td_scope_rows *r)
{
	json_t *nodes = json_object_get(scope, "nodes"), *bn = json_object_get(scope, "bottleneck");
	json_t *path = json_object_get(bn, "path"), *v;
	size_t i;

	memset(r, 0, sizeof(*r));
	r->json = scope;
	r->id = td_json_str(scope, "id");
	r->kind = td_json_str(scope, "kind");
	r->label = td_json_str(scope, "label");
	r->pmu = td_json_str(scope, "pmu");
	r->session = int_field(scope, "session");
	r->time = num_field(scope, "time");
	r->multiplexed = bool_field(scope, "multiplexed");
	r->derived = td_json_str(scope, "derived");
	r->table = td_json_str(scope, "table");
	r->hardware_counts = !json_is_false(json_object_get(scope, "hardware_counts"));
	r->nodes = xcalloc(json_array_size(nodes) + 1, sizeof(*r->nodes));
	json_array_foreach(nodes, i, v)
		node_row_from_json(v, &r->nodes[r->nr_nodes++]);
	td_scope_rows_link(r);
	r->events = event_rows(json_object_get(scope, "events"), "name", &r->nr_events);
	td_scope_rows_add_extra(r, scope);
	metric_rows(r, json_object_get(scope, "metrics"));
	software_rows(r, json_object_get(scope, "software"));
	warning_rows(r, json_object_get(scope, "warnings"));
	r->stacks_json = json_object_get(scope, "stacks");
	r->has_bottleneck = json_is_object(bn);
	r->bottleneck_sentence = td_json_str(bn, "sentence");
	if (json_array_size(path))
		r->bottleneck_leaf = json_string_value(json_array_get(path, json_array_size(path) - 1));
}

void td_scope_rows_release(struct td_scope_rows *r)
{
	size_t i;

	for (i = 0; i < r->nr_owned; i++)
		free(r->owned[i]);
	free(r->owned);
	free(r->nodes);
	free(r->events);
	free(r->extra);
	free(r->metrics);
	free(r->software);
	free(r->warnings);
	memset(r, 0, sizeof(*r));
}

/* ---- the document ---- */

static void run_facts(struct td_model_run *run, json_t *doc)
{
	json_t *r = json_object_get(doc, "run"), *cpu = json_object_get(r, "cpu");
	json_t *smt = json_object_get(r, "smt"), *on = json_object_get(smt, "on");

	run->cpu_name = td_json_str(cpu, "name");
	run->cpu_source = td_json_str(cpu, "source");
	run->cpu_confidence = td_json_str(cpu, "confidence");
	run->has_smt = json_is_object(smt);
	run->smt_on = json_is_true(on) ? 1 : json_is_false(on) ? 0 : -1;
	run->smt_source = td_json_str(smt, "source");
}

static void read_tables(struct td_model *m, json_t *tables)
{
	json_t *t;
	size_t i;

	m->tables = xcalloc(json_array_size(tables) + 1, sizeof(*m->tables));
	json_array_foreach(tables, i, t) {
		struct td_model_table *mt = &m->tables[m->nr_tables++];

		mt->name = td_json_str(t, "name");
		mt->display = td_json_str(t, "display");
		mt->pmu = td_json_str(t, "pmu");
		mt->slots_per_cycle = num_field(t, "slots_per_cycle");
	}
}

static void read_sessions(struct td_model *m, json_t *sessions)
{
	json_t *s;
	size_t i;

	m->sessions = xcalloc(json_array_size(sessions) + 1, sizeof(*m->sessions));
	json_array_foreach(sessions, i, s) {
		struct td_model_session *ms = &m->sessions[m->nr_sessions++];

		ms->index = int_field(s, "index");
		ms->target = td_json_str(s, "target");
		ms->format = td_json_str(s, "format");
		ms->elapsed_source = td_json_str(s, "elapsed_source");
		ms->repeats = int_field(s, "repeats");
		ms->line = int_field(s, "line");
		ms->elapsed_s = num_field(s, "elapsed_s");
		ms->legacy_topdown = bool_field(s, "legacy_topdown");
	}
}

static void read_warnings(struct td_model *m, json_t *warnings)
{
	json_t *w, *src;
	size_t i;

	m->warnings = xcalloc(json_array_size(warnings) + 1, sizeof(*m->warnings));
	json_array_foreach(warnings, i, w) {
		struct td_model_warning *mw = &m->warnings[m->nr_warnings++];

		src = json_object_get(w, "source");
		mw->text = td_json_str(w, "text");
		mw->recorded = json_is_string(src) && !strcmp(json_string_value(src), "record");
	}
}

struct td_model *td_model_new(json_t *doc)
{
	struct td_model *m = xcalloc(1, sizeof(*m));
	json_t *scopes = json_object_get(doc, "scopes"), *sc;
	size_t i;

	m->doc = doc;
	run_facts(&m->run, doc);
	read_tables(m, json_object_get(doc, "tables"));
	read_sessions(m, json_object_get(doc, "sessions"));
	read_warnings(m, json_object_get(doc, "warnings"));
	m->scopes = xcalloc(json_array_size(scopes) + 1, sizeof(*m->scopes));
	json_array_foreach(scopes, i, sc)
		td_scope_rows_from_json(sc, &m->scopes[m->nr_scopes++]);
	return m;
}

void td_model_free(struct td_model *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nr_scopes; i++)
		td_scope_rows_release(&m->scopes[i]);
	free(m->scopes);
	free(m->tables);
	free(m->sessions);
	free(m->warnings);
	free(m);
}

const struct td_model_run *td_model_run(const struct td_model *m)
{
	return &m->run;
}

size_t td_model_nr_tables(const struct td_model *m)
{
	return m->nr_tables;
}

const struct td_model_table *td_model_table(const struct td_model *m, size_t i)
{
	return i < m->nr_tables ? &m->tables[i] : NULL;
}

size_t td_model_nr_sessions(const struct td_model *m)
{
	return m->nr_sessions;
}

const struct td_model_session *td_model_session(const struct td_model *m, size_t i)
{
	return i < m->nr_sessions ? &m->sessions[i] : NULL;
}

size_t td_model_nr_warnings(const struct td_model *m)
{
	return m->nr_warnings;
}

const struct td_model_warning *td_model_warning(const struct td_model *m, size_t i)
{
	return i < m->nr_warnings ? &m->warnings[i] : NULL;
}

size_t td_model_nr_scopes(const struct td_model *m)
{
	return m->nr_scopes;
}

const struct td_scope_rows *td_model_scope(const struct td_model *m, size_t i)
{
	return i < m->nr_scopes ? &m->scopes[i] : NULL;
}

json_t *td_model_doc(const struct td_model *m)
{
	return m->doc;
}

size_t td_model_streamed_scopes(const struct td_model *m, long session)
{
	return td_report_streamed_scopes(m->doc, session);
}

/* ---- walking a session's scopes, the streamed ones built on the way ---- */

struct walk {
	const struct td_model *m;
	void (*fn)(const struct td_scope_rows *s, void *ctx);
	void *ctx;
};

/* The model's own scope for one of the document's, else the rows linked here. */
static void pass_rows(const struct td_scope_rows *rows, void *vctx)
{
	struct walk *w = vctx;
	struct td_scope_rows r = *rows;
	size_t i;

	for (i = 0; i < w->m->nr_scopes; i++)
		if (rows->json && w->m->scopes[i].json == rows->json) {
			w->fn(&w->m->scopes[i], w->ctx);
			return;
		}
	/* built by the evaluation (analyze/build.c): parents by id only */
	r.nodes = xcalloc(rows->nr_nodes + 1, sizeof(*r.nodes));
	if (rows->nr_nodes) /* nodes may be NULL when there are none */
		memcpy(r.nodes, rows->nodes, rows->nr_nodes * sizeof(*r.nodes));
	td_scope_rows_link(&r);
	w->fn(&r, w->ctx);
	free(r.nodes);
}

/* A streamed scope built whole as JSON (--scopes all): read once, then dropped. */
static void pass_json(json_t *scope, void *vctx)
{
	struct td_scope_rows r;

	td_scope_rows_from_json(scope, &r);
	pass_rows(&r, vctx);
	td_scope_rows_release(&r);
}

void td_model_each_scope(const struct td_model *m, long session, int full,
			 void (*fn)(const struct td_scope_rows *s, void *ctx), void *ctx)
{
	struct walk w = { m, fn, ctx };
	size_t i;

	if (!td_report_is_streamed(m->doc)) {
		for (i = 0; i < m->nr_scopes; i++)
			if (m->scopes[i].session == session)
				fn(&m->scopes[i], ctx);
		return;
	}
	if (full)
		td_report_each_scope(m->doc, session, pass_json, &w);
	else
		td_report_each_scope_rows(m->doc, session, pass_rows, &w);
}
