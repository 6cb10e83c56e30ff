/*
 * The CSV report: one row per scope and node, with a header row.  Values
 * are fractions like in the JSON document; an empty field is "not
 * computable" (the reason column says why) or "perf printed nothing".
 * Scopes without a formula table get one row per event instead (node_id
 * empty, the event in the name column), so no count is lost.
 */
#include "report/render.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/*
 * A long interval run writes a million rows; each row is put together in
 * one buffer and written at once, and the columns a scope's rows share
 * are formatted once per scope.
 */

/* n bytes of s and the separator that ends the field */
static void put(struct strbuf *row, const char *s, size_t n, char end)
{
	if (row->alloc < row->len + n + 2)
		strbuf_grow(row, n + 1);
	memcpy(row->buf + row->len, s, n);
	row->buf[row->len + n] = end;
	strbuf_setlen(row, row->len + n + 1);
}

/*
 * A text cell: quoted as RFC 4180 and spreadsheet programs require, a
 * formula start neutralised, control characters escaped (util/message.c).
 */
static void field(struct strbuf *row, const char *s, int last)
{
	strbuf_add_csv(row, s);
	put(row, "", 0, last ? '\n' : ',');
}

/* v in decimal, as %lld prints it (printf costs more than the rest of a row) */
static size_t decimal(char *buf, long long v)
{
	char digits[24];
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	size_t n = 0, len = 0;

	do
		digits[n++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		buf[len++] = '-';
	while (n)
		buf[len++] = digits[--n];
	return len;
}

/*
 * A number as %.10g, empty when NAN or infinite (the JSON's null).  Whole
 * numbers of up to ten digits, most of a row's (0, 100), print as their
 * digits under %.10g; they skip printf's exact decimal conversion.
 */
static void num(struct strbuf *row, double v, int last)
{
	char buf[32];
	size_t n;

	if (isnan(v) || isinf(v))
		n = 0;
	else if (fabs(v) < 1e10 && v == (double)(long long)v && !(v == 0 && signbit(v)))
		n = decimal(buf, (long long)v);
	else
		n = (size_t)snprintf(buf, sizeof(buf), "%.10g", v);
	put(row, buf, n, last ? '\n' : ',');
}

static void integer(struct strbuf *row, long v)
{
	char buf[24];

	put(row, buf, decimal(buf, v), ',');
}

static void boolean(struct strbuf *row, int v)
{
	put(row, v ? "1" : "0", 1, ',');
}

/* scope,session,kind,label,pmu,time: the same on every row of a scope */
static void scope_cols(struct strbuf *cols, const struct td_scope_rows *r)
{
	field(cols, r->id, 0);
	integer(cols, r->session);
	field(cols, r->kind, 0);
	field(cols, r->label, 0);
	field(cols, r->pmu, 0);
	num(cols, r->time, 0);
}

/* record -r: the node's spread over the runs; empty fields otherwise */
static void repeat_cols(struct strbuf *row, const struct td_node_row *n)
{
	if (!n->repeat_runs) {
		strbuf_addstr(row, ",,,,\n");
		return;
	}
	integer(row, n->repeat_runs);
	num(row, n->repeat_mean, 0);
	num(row, n->repeat_stddev, 0);
	num(row, n->repeat_min, 0);
	num(row, n->repeat_max, 1);
}

static void node_cols(struct strbuf *row, const struct td_scope_rows *r, const struct td_node_row *n)
{
	field(row, n->id, 0);
	field(row, n->name, 0);
	field(row, n->parent, 0);
	integer(row, n->level);
	num(row, n->value, 0);
	field(row, n->unit, 0);
	boolean(row, n->flagged);
	boolean(row, n->bottleneck);
	boolean(row, n->approximate);
	boolean(row, r->multiplexed);
	num(row, n->perf_value, 0);
	field(row, n->reason, 0);
	num(row, n->uncertainty, 0);
	boolean(row, n->undecided);
	num(row, n->counted_pct, 0);
	field(row, n->sanity, 0);
	field(row, n->source, 0);
	repeat_cols(row, n);
}

static void event_cols(struct strbuf *row, const struct td_event_row *e, const char *source)
{
	field(row, "", 0);
	field(row, e->name, 0);
	field(row, "", 0);
	field(row, "0", 0);
	num(row, e->value, 0);
	field(row, e->unit, 0);
	strbuf_addstr(row, "0,0,0,");
	boolean(row, e->scaled);
	field(row, "", 0);
	field(row, e->status && strcmp(e->status, "ok") ? e->status : NULL, 0);
	strbuf_addstr(row, ",0,");
	num(row, e->running_pct, 0);
	field(row, NULL, 0);
	field(row, source, 0);
	strbuf_addstr(row, ",,,,\n");
}

/* The rows of one scope: one per node, or one per count when no node was computed. */
static void scope_rows(const struct td_scope_rows *r, void *ctx)
{
	FILE *f = ctx;
	struct strbuf row = STRBUF_INIT;
	size_t k, common;

	scope_cols(&row, r);
	common = row.len;
	for (k = 0; k < r->nr_nodes; k++) {
		strbuf_setlen(&row, common);
		node_cols(&row, r, &r->nodes[k]);
		fwrite(row.buf, 1, row.len, f);
	}
	for (k = 0; !r->nr_nodes && k < r->nr_events; k++) {
		strbuf_setlen(&row, common);
		event_cols(&row, &r->events[k], NULL);
		fwrite(row.buf, 1, row.len, f);
	}
	/* record -e: counted beside the tree, marked by their source */
	for (k = 0; k < r->nr_extra; k++) {
		strbuf_setlen(&row, common);
		event_cols(&row, &r->extra[k], "extra event (record -e)");
		fwrite(row.buf, 1, row.len, f);
	}
	strbuf_release(&row);
}

void td_report_render_csv(const struct td_model *m, FILE *f)
{
	size_t i;

	fputs("scope,session,kind,label,pmu,time,node,name,parent,level,value,unit,flagged,"
	      "bottleneck,approximate,multiplexed,perf_value,reason,uncertainty,undecided,counted_pct,sanity,source,"
	      "repeat_runs,repeat_mean,repeat_stddev,repeat_min,repeat_max\n", f);
	/* session by session, as the document orders its scopes */
	for (i = 0; i < td_model_nr_sessions(m); i++)
		td_model_each_scope(m, td_model_session(m, i)->index, 0, scope_rows, f);
	td_report_csv_sections(td_model_doc(m), f);
}

/*
 * CSV with another separator (report -x SEP, as perf stat -x): the rows
 * written with commas, each field then ended by sep instead.  A quoted
 * field stays as it is; a bare one holding sep is quoted, so that a
 * reader splitting on sep gets the same fields.
 */
void td_csv_reseparate(const char *csv, size_t len, char sep, FILE *out)
{
	const char *p = csv, *end = csv + len;

	while (p < end) {
		const char *start = p;

		if (*p == '"') {
			for (p++; p < end; p++)
				if (*p == '"' && (p + 1 >= end || p[1] != '"'))
					break;
				else if (*p == '"')
					p++;
			p += p < end;
			fwrite(start, 1, (size_t)(p - start), out);
		} else {
			p += strcspn(p, ",\n");
			if (p > end)
				p = end;
			if (memchr(start, sep, (size_t)(p - start))) {
				fputc('"', out);
				fwrite(start, 1, (size_t)(p - start), out);
				fputc('"', out);
			} else {
				fwrite(start, 1, (size_t)(p - start), out);
			}
		}
		if (p < end)
			fputc(*p == ',' ? sep : *p, out);
		p++;
	}
}
