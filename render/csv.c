/*
 * The CSV report: one row per scope and node, with a header row.  Values
 * are fractions like in the JSON document; an empty field is "not
 * computable" (the reason column says why) or "perf printed nothing".
 * Scopes without a formula table get one row per event instead (node_id
 * empty, the event in the name column), so no count is lost.
 */
#include "render/render.h"

#include <math.h>
#include <string.h>

/* RFC 4180 quoting when needed. */
static void field(FILE *f, const char *s, int last)
{
	if (s && strpbrk(s, ",\"\n\r")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else if (s) {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}

/* A number, empty when NAN or infinite (the JSON's null). */
static void num(FILE *f, double v, int last)
{
	if (!isnan(v) && !isinf(v))
		fprintf(f, "%.10g", v);
	fputc(last ? '\n' : ',', f);
}

static void boolean(FILE *f, int v)
{
	fputs(v ? "1," : "0,", f);
}

static void scope_cols(FILE *f, const struct td_scope_rows *r)
{
	field(f, r->id, 0);
	fprintf(f, "%ld,", r->session);
	field(f, r->kind, 0);
	field(f, r->label, 0);
	field(f, r->pmu, 0);
	num(f, r->time, 0);
}

/* The rows of one scope: one per node, or one per count when no node was computed. */
static void scope_rows(const struct td_scope_rows *r, void *ctx)
{
	FILE *f = ctx;
	size_t k;

	for (k = 0; k < r->nr_nodes; k++) {
		const struct td_node_row *n = &r->nodes[k];

		scope_cols(f, r);
		field(f, n->id, 0);
		field(f, n->name, 0);
		field(f, n->parent, 0);
		fprintf(f, "%d,", n->level);
		num(f, n->value, 0);
		field(f, n->unit, 0);
		boolean(f, n->flagged);
		boolean(f, n->bottleneck);
		boolean(f, n->approximate);
		boolean(f, r->multiplexed);
		num(f, n->perf_value, 0);
		field(f, n->reason, 0);
		num(f, n->uncertainty, 0);
		boolean(f, n->undecided);
		num(f, n->counted_pct, 0);
		field(f, n->sanity, 1);
	}
	for (k = 0; !r->nr_nodes && k < r->nr_events; k++) {
		const struct td_event_row *e = &r->events[k];

		scope_cols(f, r);
		field(f, "", 0);
		field(f, e->name, 0);
		field(f, "", 0);
		field(f, "0", 0);
		num(f, e->value, 0);
		field(f, e->unit, 0);
		fputs("0,0,0,", f);
		boolean(f, e->scaled);
		field(f, "", 0);
		field(f, e->status && strcmp(e->status, "ok") ? e->status : NULL, 0);
		fputs(",0,", f);
		num(f, e->running_pct, 0);
		field(f, NULL, 1);
	}
}

void td_report_render_csv(json_t *doc, FILE *f)
{
	json_t *sess;
	size_t i;

	fputs("scope,session,kind,label,pmu,time,node,name,parent,level,value,unit,flagged,"
	      "bottleneck,approximate,multiplexed,perf_value,reason,uncertainty,undecided,counted_pct,sanity\n", f);
	/* session by session, as the document orders its scopes */
	json_array_foreach(json_object_get(doc, "sessions"), i, sess)
		td_report_each_scope_rows(doc, json_integer_value(json_object_get(sess, "index")), scope_rows, f);
}
