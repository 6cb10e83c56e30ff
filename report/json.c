/*
 * The JSON renderer: the report document (docs/report-schema.md),
 * indented, written member by member so that its "scopes" array is
 * written one scope at a time as analyze/ builds them (analyze/stream.c).
 *
 * Per-interval, per-CPU and per-thread scopes are folded unless every
 * scope is asked for in full: each carries its nodes' values and flags as
 * columns, while what is the same in every such scope (the nodes' names,
 * parents, levels and units; the text of reasons) is written once, in the
 * document's "columns" and "strings" tables after the scopes.  An hour of
 * 'perf stat -I 100' would otherwise repeat the same descriptions and
 * sentences 36,000 times.
 */
#include "report/render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Flags of every JSON the report writes. */
#define DOC_JSON_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10))

/*
 * Write v as json_dumpf() would at nesting depth 'depth': every line
 * after the first indented by two spaces a level.  A newline inside a
 * JSON text is always a line break of the layout (strings escape theirs).
 */
static void put_nested(FILE *out, json_t *v, int depth)
{
	char *text = json_dumps(v, DOC_JSON_FLAGS | JSON_ENCODE_ANY), *p;

	for (p = text; p && *p; p++) {
		fputc(*p, out);
		if (*p == '\n')
			fprintf(out, "%*s", 2 * depth, "");
	}
	free(text);
}

/* ---------------- values written by hand ---------------- */

/* A JSON string: quotes, backslashes and control characters escaped. */
static void put_string(struct strbuf *sb, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t plain;

	if (!s) {
		strbuf_addstr(sb, "null");
		return;
	}
	strbuf_addch(sb, '"');
	for (;;) {
		for (plain = 0; s[plain] && s[plain] != '"' && s[plain] != '\\' &&
				(unsigned char)s[plain] >= 0x20; plain++)
			;
		strbuf_add(sb, s, plain);
		s += plain;
		if (!*s)
			break;
		if (*s == '"' || *s == '\\') {
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, *s);
		} else {
			strbuf_addstr(sb, "\\u00");
			strbuf_addch(sb, hex[(unsigned char)*s >> 4]);
			strbuf_addch(sb, hex[*s & 15]);
		}
		s++;
	}
	strbuf_addch(sb, '"');
}

/*
 * A number as the rest of the document writes its reals (jansson with
 * ten significant digits): "%.10g", ".0" added to a whole number, the
 * exponent without '+' or leading zeros; null for NAN and infinities.
 */
static void put_real(struct strbuf *sb, double v)
{
	char buf[40], *e, *from, *to;
	size_t n;

	if (isnan(v) || isinf(v)) {
		strbuf_addstr(sb, "null");
		return;
	}
	if (fabs(v) < 1e10 && v == (double)(long long)v && !(v == 0 && signbit(v))) {
		strbuf_addf(sb, "%lld.0", (long long)v);
		return;
	}
	n = (size_t)snprintf(buf, sizeof(buf), "%.10g", v);
	if (!strchr(buf, '.') && !strchr(buf, 'e')) {
		strbuf_add(sb, buf, n);
		strbuf_addstr(sb, ".0");
		return;
	}
	if ((e = strchr(buf, 'e')) != NULL) {
		from = to = e + 1;
		if (*from == '-')
			from = ++to;
		else if (*from == '+')
			from++;
		while (*from == '0' && from[1])
			from++;
		memmove(to, from, strlen(from) + 1);
	}
	strbuf_addstr(sb, buf);
}

/* ---------------- the tables written after the scopes ---------------- */

struct fold_tables {
	json_t *columns;       /* the "columns" array */
	struct strbuf *shapes; /* one signature per entry of columns */
	size_t nr_shapes, alloc_shapes;
	size_t last_shape;     /* consecutive scopes mostly share one */
	json_t *strings;       /* the "strings" array */
	json_t *string_index;  /* string -> its index in strings */
};

/* The index of s in the strings table, added when new; -1 for NULL. */
static long string_id(struct fold_tables *t, const char *s)
{
	json_t *i;
	long n;

	if (!s)
		return -1;
	if ((i = json_object_get(t->string_index, s)) != NULL)
		return (long)json_integer_value(i);
	n = (long)json_array_size(t->strings);
	json_array_append_new(t->strings, json_string_nocheck(s));
	json_object_set_new_nocheck(t->string_index, s, json_integer(n));
	return n;
}

static void add_field(struct strbuf *sig, const char *s)
{
	strbuf_addstr(sig, s ? s : "\x02");
	strbuf_addch(sig, '\x1f');
}

/* What a scope's columns describe: its nodes, else its events. */
static void shape_signature(const struct td_scope_rows *r, struct strbuf *sig)
{
	size_t k;

	strbuf_reset(sig);
	add_field(sig, r->pmu);
	for (k = 0; k < r->nr_nodes; k++) {
		const struct td_node_row *n = &r->nodes[k];

		add_field(sig, n->id);
		add_field(sig, n->name);
		add_field(sig, n->parent);
		strbuf_addf(sig, "%d\x1f", n->level);
		add_field(sig, n->unit);
	}
	strbuf_addch(sig, '\x1e');
	for (k = 0; !r->nr_nodes && k < r->nr_events; k++) {
		add_field(sig, r->events[k].name);
		add_field(sig, r->events[k].unit);
	}
}

static json_t *shape_json(const struct td_scope_rows *r)
{
	json_t *o = json_object(), *list = json_array();
	size_t k;

	json_object_set_new(o, "pmu", r->pmu ? json_string_nocheck(r->pmu) : json_null());
	for (k = 0; k < r->nr_nodes; k++) {
		const struct td_node_row *n = &r->nodes[k];

		json_array_append_new(list, json_pack("{s:s?, s:s?, s:s?, s:i, s:s?}", "id", n->id, "name", n->name,
						      "parent", n->parent, "level", n->level, "unit", n->unit));
	}
	json_object_set_new(o, "nodes", list);
	list = json_array();
	for (k = 0; !r->nr_nodes && k < r->nr_events; k++)
		json_array_append_new(list, json_pack("{s:s?, s:s?}", "name", r->events[k].name,
						      "unit", r->events[k].unit));
	json_object_set_new(o, "events", list);
	return o;
}

/* The index in the columns table of the scope's shape, added when new. */
static size_t shape_id(struct fold_tables *t, const struct td_scope_rows *r)
{
	struct strbuf sig = STRBUF_INIT;
	size_t i;

	shape_signature(r, &sig);
	if (t->nr_shapes && !strcmp(t->shapes[t->last_shape].buf, sig.buf)) {
		strbuf_release(&sig);
		return t->last_shape;
	}
	for (i = 0; i < t->nr_shapes; i++)
		if (!strcmp(t->shapes[i].buf, sig.buf))
			break;
	if (i == t->nr_shapes) {
		TD_GROW(t->shapes, t->alloc_shapes, t->nr_shapes + 1);
		t->shapes[t->nr_shapes++] = sig;
		json_array_append_new(t->columns, shape_json(r));
	} else {
		strbuf_release(&sig);
	}
	t->last_shape = i;
	return i;
}

/* ---------------- a folded scope ---------------- */

/*
 * A column: one value per node (or event).  null when every one is null
 * (or false), the value itself when all are the same, else an array.
 */
enum column_kind { COL_REAL, COL_BOOL, COL_INT, COL_STRING };

struct column {
	const char *name;
	enum column_kind kind;
	double (*real)(const struct td_scope_rows *r, size_t k);
	long (*integer)(const struct td_scope_rows *r, size_t k); /* bools, ints; -1 int: null */
	const char *(*string)(const struct td_scope_rows *r, size_t k);
};

#define NODE_REAL(f) static double node_##f(const struct td_scope_rows *r, size_t k) { return r->nodes[k].f; }
#define NODE_INT(f) static long node_##f(const struct td_scope_rows *r, size_t k) { return r->nodes[k].f; }
#define NODE_STR(f) static const char *node_##f(const struct td_scope_rows *r, size_t k) { return r->nodes[k].f; }
NODE_REAL(value)
NODE_REAL(perf_value)
NODE_REAL(perf_resolution)
NODE_REAL(uncertainty)
NODE_REAL(counted_pct)
NODE_INT(flagged)
NODE_INT(bottleneck)
NODE_INT(approximate)
NODE_INT(undecided)
NODE_INT(group)
NODE_STR(reason)
NODE_STR(source)
NODE_STR(perf_name)
NODE_STR(perf_kind)
NODE_STR(estimate)
NODE_STR(sanity)

static double event_value(const struct td_scope_rows *r, size_t k) { return r->events[k].value; }
static double event_running_pct(const struct td_scope_rows *r, size_t k) { return r->events[k].running_pct; }
static long event_scaled(const struct td_scope_rows *r, size_t k) { return r->events[k].scaled; }
static const char *event_status(const struct td_scope_rows *r, size_t k) { return r->events[k].status; }

/* The node fields of docs/report-schema.md's nodes[], in their order there. */
static const struct column node_columns[] = {
	{ "value", COL_REAL, node_value, NULL, NULL },
	{ "source", COL_STRING, NULL, NULL, node_source },
	{ "flagged", COL_BOOL, NULL, node_flagged, NULL },
	{ "bottleneck", COL_BOOL, NULL, node_bottleneck, NULL },
	{ "approximate", COL_BOOL, NULL, node_approximate, NULL },
	{ "reason", COL_STRING, NULL, NULL, node_reason },
	{ "perf_value", COL_REAL, node_perf_value, NULL, NULL },
	{ "perf_resolution", COL_REAL, node_perf_resolution, NULL, NULL },
	{ "perf_name", COL_STRING, NULL, NULL, node_perf_name },
	{ "perf_kind", COL_STRING, NULL, NULL, node_perf_kind },
	{ "group", COL_INT, NULL, node_group, NULL },
	{ "uncertainty", COL_REAL, node_uncertainty, NULL, NULL },
	{ "undecided", COL_BOOL, NULL, node_undecided, NULL },
	{ "counted_pct", COL_REAL, node_counted_pct, NULL, NULL },
	{ "estimate", COL_STRING, NULL, NULL, node_estimate },
	{ "sanity", COL_STRING, NULL, NULL, node_sanity },
};

static const struct column event_columns[] = {
	{ "value", COL_REAL, event_value, NULL, NULL },
	{ "status", COL_STRING, NULL, NULL, event_status },
	{ "running_pct", COL_REAL, event_running_pct, NULL, NULL },
	{ "scaled", COL_BOOL, NULL, event_scaled, NULL },
};

/* Cell k of a column, as an integer that compares like the value written. */
static long cell_id(struct fold_tables *t, const struct column *c, const struct td_scope_rows *r, size_t k)
{
	return c->kind == COL_STRING ? string_id(t, c->string(r, k)) : c->integer(r, k);
}

static int same_real(double a, double b)
{
	return !memcmp(&a, &b, sizeof(a)) || (isnan(a) && isnan(b));
}

static void put_cell(struct strbuf *sb, struct fold_tables *t, const struct column *c,
		     const struct td_scope_rows *r, size_t k)
{
	long v;

	if (c->kind == COL_REAL) {
		put_real(sb, c->real(r, k));
		return;
	}
	v = cell_id(t, c, r, k);
	if (c->kind == COL_BOOL)
		strbuf_addstr(sb, v ? "true" : "false");
	else if (v < 0)
		strbuf_addstr(sb, "null");
	else
		strbuf_addf(sb, "%ld", v);
}

static void put_column(struct strbuf *sb, struct fold_tables *t, const struct column *c,
		       const struct td_scope_rows *r, size_t n)
{
	size_t k, same = 1;

	for (k = 1; k < n && same; k++)
		same = c->kind == COL_REAL ? same_real(c->real(r, 0), c->real(r, k))
					   : cell_id(t, c, r, 0) == cell_id(t, c, r, k);
	strbuf_addf(sb, ", \"%s\": ", c->name);
	if (!n) {
		strbuf_addstr(sb, "null");
	} else if (same && c->kind == COL_BOOL && !cell_id(t, c, r, 0)) {
		strbuf_addstr(sb, "false");
	} else if (same) {
		put_cell(sb, t, c, r, 0);
	} else {
		strbuf_addch(sb, '[');
		for (k = 0; k < n; k++) {
			if (k)
				strbuf_addstr(sb, ", ");
			put_cell(sb, t, c, r, k);
		}
		strbuf_addch(sb, ']');
	}
}

/* One folded scope, on one line. */
static void put_folded(struct strbuf *sb, struct fold_tables *t, const struct td_scope_rows *r)
{
	size_t k;

	strbuf_addstr(sb, "{\"id\": ");
	put_string(sb, r->id);
	strbuf_addf(sb, ", \"session\": %ld, \"kind\": ", r->session);
	put_string(sb, r->kind);
	strbuf_addstr(sb, ", \"label\": ");
	put_string(sb, r->label);
	strbuf_addstr(sb, ", \"pmu\": ");
	put_string(sb, r->pmu);
	strbuf_addstr(sb, ", \"time\": ");
	put_real(sb, r->time);
	strbuf_addf(sb, ", \"multiplexed\": %s, \"folded\": true, \"columns\": %zu, \"bottleneck_leaf\": ",
		    r->multiplexed ? "true" : "false", shape_id(t, r));
	put_string(sb, r->bottleneck_leaf);
	if (r->nr_nodes)
		for (k = 0; k < sizeof(node_columns) / sizeof(*node_columns); k++)
			put_column(sb, t, &node_columns[k], r, r->nr_nodes);
	else
		for (k = 0; k < sizeof(event_columns) / sizeof(*event_columns); k++)
			put_column(sb, t, &event_columns[k], r, r->nr_events);
	strbuf_addch(sb, '}');
}

/* ---------------- the document ---------------- */

struct json_scope_writer {
	FILE *out;
	size_t written;
	int fold;
	struct fold_tables tables;
	struct strbuf line;
};

static void separate(struct json_scope_writer *w)
{
	fputs(w->written++ ? ",\n    " : "\n    ", w->out);
}

static void put_rows(const struct td_scope_rows *r, void *ctx)
{
	struct json_scope_writer *w = ctx;

	separate(w);
	strbuf_reset(&w->line);
	put_folded(&w->line, &w->tables, r);
	fwrite(w->line.buf, 1, w->line.len, w->out);
}

/* The scopes folded: every one but the run's totals and the sums derived from the others. */
static int is_folded(json_t *scope)
{
	const char *kind = td_json_str(scope, "kind");
	json_t *derived = json_object_get(scope, "derived");

	return (!derived || json_is_null(derived)) &&
	       (!kind || strcmp(kind, "total") || json_is_number(json_object_get(scope, "time")));
}

static void put_scope(json_t *scope, void *ctx)
{
	struct json_scope_writer *w = ctx;
	struct td_scope_rows r;

	if (w->fold && is_folded(scope)) {
		td_scope_rows_from_json(scope, &r);
		put_rows(&r, w);
		td_scope_rows_release(&r);
		return;
	}
	separate(w);
	put_nested(w->out, scope, 2);
}

/* "key": value, after a separator unless it is the document's first member */
static void put_member(FILE *out, const char *key, json_t *v, int *first)
{
	json_t *name = json_string(key);

	fputs(*first ? "{\n  " : ",\n  ", out);
	*first = 0;
	put_nested(out, name, 1);
	json_decref(name);
	fputs(": ", out);
	if (v)
		put_nested(out, v, 1);
}

void td_report_render_json(json_t *doc, int all_scopes, FILE *out)
{
	struct json_scope_writer w = { out, 0, !all_scopes, { 0 }, STRBUF_INIT };
	const char *key;
	json_t *v;
	size_t i;
	int first = 1;

	w.tables.columns = json_array();
	w.tables.strings = json_array();
	w.tables.string_index = json_object();
	json_object_foreach(doc, key, v) {
		if (strcmp(key, "scopes")) {
			put_member(out, key, v, &first);
			continue;
		}
		put_member(out, key, NULL, &first);
		fputc('[', out);
		if (w.fold)
			td_report_each_scope_in_order_rows(doc, put_scope, put_rows, &w);
		else
			td_report_each_scope_in_order(doc, put_scope, &w);
		fputs(w.written ? "\n  ]" : "]", out);
	}
	/* what the folded scopes refer to, known once they are all written */
	if (json_object_get(doc, "scopes")) {
		put_member(out, "columns", w.tables.columns, &first);
		put_member(out, "strings", w.tables.strings, &first);
	}
	fputs(first ? "{}\n" : "\n}\n", out);
	json_decref(w.tables.columns);
	json_decref(w.tables.strings);
	json_decref(w.tables.string_index);
	for (i = 0; i < w.tables.nr_shapes; i++)
		strbuf_release(&w.tables.shapes[i]);
	free(w.tables.shapes);
	strbuf_release(&w.line);
}
