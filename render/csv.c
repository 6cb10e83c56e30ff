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

static void num(FILE *f, json_t *v, int last)
{
	if (json_is_integer(v))
		fprintf(f, "%lld", (long long)json_integer_value(v));
	else if (json_is_number(v))
		fprintf(f, "%.10g", json_number_value(v));
	fputc(last ? '\n' : ',', f);
}

static void boolean(FILE *f, json_t *v)
{
	fputs(json_is_true(v) ? "1," : "0,", f);
}

static void scope_cols(FILE *f, json_t *sc)
{
	field(f, json_string_value(json_object_get(sc, "id")), 0);
	num(f, json_object_get(sc, "session"), 0);
	field(f, json_string_value(json_object_get(sc, "kind")), 0);
	field(f, json_string_value(json_object_get(sc, "label")), 0);
	field(f, json_string_value(json_object_get(sc, "pmu")), 0);
	num(f, json_object_get(sc, "time"), 0);
}

/* The rows of one scope: one per node, or one per count when no node was computed. */
static void scope_rows(json_t *sc, void *ctx)
{
	FILE *f = ctx;
	json_t *n, *e, *mux = json_object_get(sc, "multiplexed");
	size_t k;

	if (json_array_size(json_object_get(sc, "nodes"))) {
		json_array_foreach(json_object_get(sc, "nodes"), k, n) {
			scope_cols(f, sc);
			field(f, json_string_value(json_object_get(n, "id")), 0);
			field(f, json_string_value(json_object_get(n, "name")), 0);
			field(f, json_string_value(json_object_get(n, "parent")), 0);
			num(f, json_object_get(n, "level"), 0);
			num(f, json_object_get(n, "value"), 0);
			field(f, json_string_value(json_object_get(n, "unit")), 0);
			boolean(f, json_object_get(n, "flagged"));
			boolean(f, json_object_get(n, "bottleneck"));
			boolean(f, json_object_get(n, "approximate"));
			boolean(f, mux);
			num(f, json_object_get(n, "perf_value"), 0);
			field(f, json_string_value(json_object_get(n, "reason")), 0);
			num(f, json_object_get(n, "uncertainty"), 0);
			boolean(f, json_object_get(n, "undecided"));
			num(f, json_object_get(n, "counted_pct"), 0);
			field(f, json_string_value(json_object_get(n, "sanity")), 1);
		}
		return;
	}
	json_array_foreach(json_object_get(sc, "events"), k, e) {
		const char *st = json_string_value(json_object_get(e, "status"));
		scope_cols(f, sc);
		field(f, "", 0);
		field(f, json_string_value(json_object_get(e, "name")), 0);
		field(f, "", 0);
		field(f, "0", 0);
		num(f, json_object_get(e, "value"), 0);
		field(f, json_string_value(json_object_get(e, "unit")), 0);
		fputs("0,0,0,", f);
		boolean(f, json_object_get(e, "scaled"));
		field(f, "", 0);
		field(f, st && strcmp(st, "ok") ? st : NULL, 0);
		fputs(",0,", f);
		num(f, json_object_get(e, "running_pct"), 0);
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
		td_report_each_scope(doc, json_integer_value(json_object_get(sess, "index")), scope_rows, f);
}
