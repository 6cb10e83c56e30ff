/*
 * The CSV report's sections after its node rows (docs/report-schema.md,
 * "CSV sections"): "guidance", what to do about each flagged node and why
 * there is no single bottleneck, and "drilldown", the functions and source
 * lines a --drilldown run sampled.  Each section is an empty line, its own
 * header row, then its rows, whose first field names the section; a
 * section with no rows is left out, so a report without guidance or
 * drill-down is the node table alone, as before.
 */
#include "report/render.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void cell(struct strbuf *row, const char *s)
{
	if (row->len && row->buf[row->len - 1] != '\n')
		strbuf_addch(row, ',');
	strbuf_add_csv(row, s ? s : "");
}

static void cell_num(struct strbuf *row, json_t *v)
{
	char buf[32] = "";

	if (json_is_number(v) && isfinite(json_number_value(v)))
		snprintf(buf, sizeof(buf), "%.10g", json_number_value(v));
	cell(row, buf);
}

static void cell_int(struct strbuf *row, long long v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%lld", v);
	cell(row, buf);
}

/* Start a section on its first row: the empty line and the header. */
static void section_start(FILE *f, int *started, const char *header)
{
	if (!*started)
		fprintf(f, "\n%s\n", header);
	*started = 1;
}

#define GUIDANCE_HEADER "section,scope,session,pmu,node,name,role,field,item,value,text"

struct guidance_out {
	FILE *f;
	int started;
	json_t *scope;
};

/* guidance,SCOPE,SESSION,PMU,NODE,NAME,ROLE,FIELD,ITEM,VALUE,TEXT */
static void guidance_row(struct guidance_out *o, json_t *node, const char *role, const char *field,
			 long long item, json_t *value, const char *text)
{
	struct strbuf row = STRBUF_INIT;

	cell(&row, "guidance");
	cell(&row, json_string_value(json_object_get(o->scope, "id")));
	cell_int(&row, json_integer_value(json_object_get(o->scope, "session")));
	cell(&row, json_string_value(json_object_get(o->scope, "pmu")));
	cell(&row, json_string_value(json_object_get(node, "id")));
	cell(&row, json_string_value(json_object_get(node, "name")));
	cell(&row, role);
	cell(&row, field);
	cell_int(&row, item);
	cell_num(&row, value);
	cell(&row, text);
	strbuf_addch(&row, '\n');
	section_start(o->f, &o->started, GUIDANCE_HEADER);
	fwrite(row.buf, 1, row.len, o->f);
	strbuf_release(&row);
}

static void guidance_list(struct guidance_out *o, json_t *n, const char *role, const char *field, json_t *list)
{
	json_t *v;
	size_t i;

	json_array_foreach(list, i, v)
		guidance_row(o, n, role, field, (long long)i + 1, NULL, json_string_value(v));
}

/* "candidate" when the bottleneck's fallback names n, "shown" when the reports show its guidance. */
static const char *node_role(json_t *scope, json_t *n)
{
	json_t *fb = json_object_get(json_object_get(scope, "bottleneck"), "fallback"), *c;
	size_t i;

	json_array_foreach(json_object_get(fb, "candidates"), i, c)
		if (json_equal(json_object_get(c, "id"), json_object_get(n, "id")))
			return "candidate";
	if (!json_is_object(fb) && td_report_guidance_node(scope) == n)
		return "shown";
	return "flagged";
}

static void node_guidance(struct guidance_out *o, json_t *n)
{
	json_t *g = json_object_get(n, "guidance"), *r, *c;
	const char *role = node_role(o->scope, n);
	size_t i, k;

	guidance_row(o, n, role, "meaning", 1, json_object_get(n, "value"),
		     json_string_value(json_object_get(g, "meaning")));
	guidance_list(o, n, role, "cause", json_object_get(g, "causes"));
	guidance_list(o, n, role, "try", json_object_get(g, "try"));
	guidance_list(o, n, role, "next", json_object_get(g, "next"));
	/* a ruled-out sibling: its name in the text, its value, then the causes it rules out */
	json_array_foreach(json_object_get(g, "ruled_out"), i, r) {
		struct strbuf t = STRBUF_INIT;

		strbuf_addf(&t, "%s (%s) below its threshold %s%s", json_string_value(json_object_get(r, "name")),
			    json_string_value(json_object_get(r, "id")),
			    json_string_value(json_object_get(r, "threshold")),
			    json_is_true(json_object_get(r, "approximate")) ? " (approximate value)" : "");
		json_array_foreach(json_object_get(r, "causes"), k, c)
			strbuf_addf(&t, "%s%s", k ? "; " : ", so not: ", json_string_value(c));
		guidance_row(o, n, role, "ruled_out", (long long)i + 1, json_object_get(r, "value"), t.buf);
		strbuf_release(&t);
	}
	guidance_list(o, n, role, "ref", json_object_get(g, "refs"));
}

static void scope_guidance(struct guidance_out *o)
{
	json_t *bn = json_object_get(o->scope, "bottleneck"), *fb = json_object_get(bn, "fallback");
	json_t *n;
	size_t i;

	if (json_is_object(fb)) {
		json_t *none = json_object();

		guidance_row(o, none, "fallback", json_string_value(json_object_get(fb, "reason")), 1, NULL,
			     json_string_value(json_object_get(fb, "sentence")));
		json_decref(none);
	}
	json_array_foreach(json_object_get(o->scope, "nodes"), i, n)
		if (json_is_object(json_object_get(n, "guidance")))
			node_guidance(o, n);
}

#define DRILLDOWN_HEADER "section,step,node,name,event,kind,precise,rank,symbol,dso,source,samples,share"

/* drilldown,STEP,NODE,NAME,EVENT,KIND,PRECISE,RANK,SYMBOL,DSO,SOURCE,SAMPLES,SHARE */
static void drilldown_row(FILE *f, int *started, json_t *step, long long rank, json_t *fn, json_t *line)
{
	json_t *sampled = json_object_get(step, "sampled");
	struct strbuf row = STRBUF_INIT;
	json_t *what = line ? line : fn;

	cell(&row, "drilldown");
	cell_int(&row, json_integer_value(json_object_get(step, "step")));
	cell(&row, json_string_value(json_object_get(step, "node")));
	cell(&row, json_string_value(json_object_get(step, "name")));
	cell(&row, json_string_value(json_object_get(sampled, "event")));
	cell(&row, json_string_value(json_object_get(sampled, "kind")));
	cell(&row, json_is_true(json_object_get(sampled, "precise")) ? "1" : "0");
	cell_int(&row, rank);
	cell(&row, json_string_value(json_object_get(fn, "symbol")));
	cell(&row, json_string_value(json_object_get(fn, "dso")));
	cell(&row, json_string_value(json_object_get(what, "source")));
	cell_num(&row, json_object_get(what, "samples"));
	cell_num(&row, json_object_get(what, "share"));
	strbuf_addch(&row, '\n');
	section_start(f, started, DRILLDOWN_HEADER);
	fwrite(row.buf, 1, row.len, f);
	strbuf_release(&row);
}

static void drilldown_rows(json_t *doc, FILE *f)
{
	json_t *step, *fn, *line;
	size_t i, k, l;
	int started = 0;

	json_array_foreach(json_object_get(json_object_get(doc, "drilldown"), "steps"), i, step)
		json_array_foreach(json_object_get(step, "functions"), k, fn) {
			drilldown_row(f, &started, step, (long long)k + 1, fn, NULL);
			json_array_foreach(json_object_get(fn, "lines"), l, line)
				drilldown_row(f, &started, step, (long long)k + 1, fn, line);
		}
}

void td_report_csv_sections(json_t *doc, FILE *f)
{
	struct guidance_out o = { f, 0, NULL };
	json_t *scope;
	size_t i;

	json_array_foreach(json_object_get(doc, "scopes"), i, scope) {
		o.scope = scope;
		scope_guidance(&o);
	}
	drilldown_rows(doc, f);
}
