/*
 * Reading the report document (docs/report-schema.md): typed access to
 * its fields, which scope a summary talks about, and the CPI stack of a
 * scope.  Every renderer and the analyses that compare documents (diff,
 * jobs, roofline) read the document through these.
 */
#include "analyze/doc.h"

#include <ctype.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

double td_json_num(json_t *v)
{
	return v && json_is_number(v) ? json_number_value(v) : NAN;
}

int td_json_int(json_t *v, int fallback)
{
	double d = td_json_num(v);

	/* a document is input: a level of 1e300 or NaN must not become UB */
	return d >= -1e6 && d <= 1e6 ? (int)d : fallback;
}

const char *td_json_str_or(json_t *obj, const char *key, const char *fallback)
{
	const char *s = td_json_str(obj, key);

	return s ? s : fallback;
}

const char *td_json_str(json_t *obj, const char *key)
{
	json_t *v = obj ? json_object_get(obj, key) : NULL;

	return v && json_is_string(v) ? json_string_value(v) : NULL;
}

/* ---- scopes ---- */

int td_scope_is_interval(json_t *scope)
{
	const char *kind = td_json_str(scope, "kind");

	return (kind && !strcmp(kind, "interval")) || json_is_number(json_object_get(scope, "time"));
}

int td_scope_computable_nodes(json_t *scope)
{
	json_t *n;
	size_t i;
	int count = 0;

	json_array_foreach(json_object_get(scope, "nodes"), i, n)
		if (!isnan(td_json_num(json_object_get(n, "value"))))
			count++;
	return count;
}

static int is_total(json_t *s)
{
	const char *kind = td_json_str(s, "kind");

	return kind && !strcmp(kind, "total") && !td_scope_is_interval(s);
}

/* Is s the first total scope of its session (a hybrid session has one per PMU)? */
static int first_total_of_session(json_t *scopes, size_t at)
{
	json_t *s = json_array_get(scopes, at), *t;
	int session = td_json_int(json_object_get(s, "session"), 0);
	size_t i;

	for (i = 0; i < at; i++) {
		t = json_array_get(scopes, i);
		if (is_total(t) && td_json_int(json_object_get(t, "session"), 0) == session)
			return 0;
	}
	return 1;
}

int td_scope_computable_level1(json_t *scope)
{
	json_t *n;
	size_t i;
	int count = 0;

	json_array_foreach(json_object_get(scope, "nodes"), i, n)
		if (td_node_level(n) == 1 && !isnan(td_json_num(json_object_get(n, "value"))))
			count++;
	return count;
}

json_t *td_report_main_scope(json_t *doc)
{
	json_t *scopes = json_object_get(doc, "scopes"), *s, *best = NULL;
	size_t i;
	int best_l1 = -1, best_count = -1;

	/*
	 * Several sessions (L1 only, then L2 of one branch, ...): the one
	 * whose Level 1 is most complete, since the summary's verdict is a
	 * Level-1 comparison (case-11: session 2 has more nodes, but only 2
	 * of its 4 Level-1 nodes); among those, the one with most nodes.
	 */
	json_array_foreach(scopes, i, s) {
		int l1, count;

		if (!is_total(s) || !first_total_of_session(scopes, i))
			continue;
		l1 = td_scope_computable_level1(s);
		count = td_scope_computable_nodes(s);
		if (l1 > best_l1 || (l1 == best_l1 && count > best_count)) {
			best = s;
			best_l1 = l1;
			best_count = count;
		}
	}
	if (best)
		return best;
	json_array_foreach(scopes, i, s)
		if (!td_scope_is_interval(s))
			return s;
	return json_array_get(scopes, 0);
}

/* The core type a hybrid CPU's PMU counts, as Intel names it, or NULL. */
const char *td_pmu_core_type(const char *pmu)
{
	if (!pmu)
		return NULL;
	if (!strcmp(pmu, "cpu_core"))
		return "P-core";
	if (!strcmp(pmu, "cpu_atom"))
		return "E-core";
	if (!strcmp(pmu, "cpu_lowpower"))
		return "LP E-core";
	return NULL;
}

/* How a scope is called on a chart axis: "P-core cpu_core CPU3", "app-1234", "total". */
void td_scope_label(struct strbuf *sb, json_t *scope)
{
	const char *pmu = td_json_str(scope, "pmu");
	const char *label = td_json_str(scope, "label");

	if (td_pmu_core_type(pmu))
		strbuf_addf(sb, "%s ", td_pmu_core_type(pmu));
	if (pmu)
		strbuf_addstr(sb, pmu);
	if (label) {
		if (sb->len)
			strbuf_addch(sb, ' ');
		strbuf_addstr(sb, label);
	}
	if (!sb->len) {
		const char *id = td_json_str(scope, "id");

		strbuf_addstr(sb, id ? id : "total");
	}
}

/* ---- which nodes form a stack ---- */

int td_node_level(json_t *node)
{
	return td_json_int(json_object_get(node, "level"), 0);
}

static int has_child_up_to(json_t *nodes, const char *id, int level)
{
	json_t *n;
	size_t i;

	json_array_foreach(nodes, i, n) {
		const char *parent = td_json_str(n, "parent");

		if (parent && !strcmp(parent, id) && td_node_level(n) <= level)
			return 1;
	}
	return 0;
}

/*
 * A node belongs to the Level-'level' stack when it sits at that level, or
 * above it with no child at or above it (AMD's SMT contention has no Level
 * 2, so it stays whole in a Level-2 stack and the stack still sums to 1).
 */
int td_node_in_stack(json_t *nodes, json_t *node, int level)
{
	int l = td_node_level(node);
	const char *id = td_json_str(node, "id");

	if (l < 1 || l > level || !id)
		return 0;
	return l == level || !has_child_up_to(nodes, id, level);
}


/* ---- CPI ---- */

/* Event name without a PMU wrapper ("cpu_core/X/") or modifiers (":u"), lower case. */
static void plain_event_name(char *buf, size_t size, const char *name)
{
	const char *slash = strchr(name, '/');
	size_t i = 0;

	if (slash && slash[1])
		name = slash + 1;
	for (; *name && *name != '/' && *name != ':' && i + 1 < size; name++)
		buf[i++] = tolower((unsigned char)*name);
	buf[i] = '\0';
}

static double event_value(json_t *scope, const char *const *names)
{
	json_t *e;
	size_t i, k;
	char buf[128];

	for (k = 0; names[k]; k++)
		json_array_foreach(json_object_get(scope, "events"), i, e) {
			const char *name = td_json_str(e, "name");

			if (!name)
				continue;
			plain_event_name(buf, sizeof(buf), name);
			if (!strcmp(buf, names[k]))
				return td_json_num(json_object_get(e, "value"));
		}
	return NAN;
}

static const char *const cycle_events[] = {
	"cycles", "cpu-cycles", "cpu_clk_unhalted.thread", "cpu_clk_unhalted.thread_p",
	"cpu_clk_unhalted.core", "cpu_clk_unhalted.core_p", "ls_not_halted_cyc", NULL
};
static const char *const instruction_events[] = {
	"instructions", "inst_retired.any", "inst_retired.any_p", "ex_ret_instr", NULL
};

/* An info metric by id or name ("cpi", "tma_info_thread_cpi", "CPI"). */
static double metric_value(json_t *scope, const char *want)
{
	json_t *m;
	size_t i;
	size_t wl = strlen(want);

	json_array_foreach(json_object_get(scope, "metrics"), i, m) {
		const char *id = td_json_str(m, "id");
		const char *name = td_json_str(m, "name");
		size_t l = id ? strlen(id) : 0;

		if ((id && l >= wl && !strcasecmp(id + l - wl, want) &&
		     (l == wl || id[l - wl - 1] == '_')) ||
		    (name && !strcasecmp(name, want)))
			return td_json_num(json_object_get(m, "value"));
	}
	return NAN;
}

/* The stack analyses' own CPI stack, when they put one in the scope. */
static json_t *cpi_stack_from_stacks(json_t *scope, int level)
{
	json_t *cpi = json_object_get(json_object_get(scope, "stacks"), "cpi");
	json_t *comps, *c, *out, *list;
	size_t i;

	if (!json_is_object(cpi))
		return NULL;
	comps = json_object_get(cpi, "components");
	if (!json_is_array(comps) || !json_array_size(comps) ||
	    isnan(td_json_num(json_object_get(cpi, "cpi"))))
		return NULL;
	out = json_object();
	list = json_array();
	json_object_set_new(out, "cpi", json_real(td_json_num(json_object_get(cpi, "cpi"))));
	json_object_set(out, "cycles", json_object_get(cpi, "cycles") ? json_object_get(cpi, "cycles") : json_null());
	json_object_set(out, "instructions",
			json_object_get(cpi, "instructions") ? json_object_get(cpi, "instructions") : json_null());
	json_object_set_new(out, "source", json_string("stacks.cpi"));
	json_object_set_new(out, "approximate", json_boolean(json_is_true(json_object_get(cpi, "approximate"))));
	json_array_foreach(comps, i, c) {
		json_t *lv = json_object_get(c, "level");

		/* a stack with per-level components: keep the asked level's leaves */
		if (json_is_number(lv) && !td_node_in_stack(comps, c, level))
			continue;
		json_array_append(list, c);
	}
	json_object_set_new(out, "components", list);
	return out;
}

json_t *td_report_cpi_stack(json_t *scope, int level)
{
	json_t *from_stacks = cpi_stack_from_stacks(scope, level);
	json_t *nodes = json_object_get(scope, "nodes"), *n, *out, *list;
	double cpi, cycles, insns;
	const char *how;
	int approximate = 0;
	size_t i;

	if (from_stacks)
		return from_stacks;
	cycles = event_value(scope, cycle_events);
	insns = event_value(scope, instruction_events);
	cpi = metric_value(scope, "cpi");
	how = "the CPI info metric";
	if (isnan(cpi)) {
		double ipc = metric_value(scope, "ipc");

		if (!isnan(ipc) && ipc > 0) {
			cpi = 1.0 / ipc;
			how = "1 / the IPC info metric";
		}
	}
	if (isnan(cpi) && cycles > 0 && insns > 0) {
		cpi = cycles / insns;
		how = "cycles / instructions events";
	}
	out = json_object();
	if (isnan(cpi) || !(cpi > 0)) {
		json_object_set_new(out, "cpi", json_null());
		json_object_set_new(out, "reason",
				    json_string("no CPI: neither a CPI or IPC info metric nor both thread "
						"cycles and instructions were counted"));
		return out;
	}
	if (isnan(cycles) && insns > 0)
		cycles = cpi * insns;
	if (isnan(insns) && cycles > 0)
		insns = cycles / cpi;
	json_object_set_new(out, "cpi", json_real(cpi));
	json_object_set_new(out, "cycles", isnan(cycles) ? json_null() : json_real(cycles));
	json_object_set_new(out, "instructions", isnan(insns) ? json_null() : json_real(insns));
	json_object_set_new(out, "cpi_from", json_string(how));
	json_object_set_new(out, "source", json_string("computed"));
	list = json_array();
	json_array_foreach(nodes, i, n) {
		json_t *c;
		double f;

		if (!td_node_in_stack(nodes, n, level))
			continue;
		f = td_json_num(json_object_get(n, "value"));
		c = json_pack("{s:O, s:O, s:O, s:i}", "id", json_object_get(n, "id"),
			      "name", json_object_get(n, "name") ? json_object_get(n, "name") : json_object_get(n, "id"),
			      "parent", json_object_get(n, "parent") ? json_object_get(n, "parent") : json_null(),
			      "level", td_node_level(n));
		json_object_set_new(c, "value", isnan(f) ? json_null() : json_real(cpi * f));
		json_object_set_new(c, "fraction", isnan(f) ? json_null() : json_real(f));
		if (isnan(f))
			json_object_set(c, "reason", json_object_get(n, "reason") ? json_object_get(n, "reason") : json_null());
		if (json_is_true(json_object_get(n, "approximate")))
			approximate = 1;
		json_array_append_new(list, c);
	}
	json_object_set_new(out, "approximate", json_boolean(approximate));
	json_object_set_new(out, "components", list);
	return out;
}

/* ---------------- folded scopes (schema version 2) ---------------- */

/* Cell k of a folded column: the array's element, or the one value all share. */
static json_t *column_cell(json_t *column, size_t k)
{
	return json_is_array(column) ? json_array_get(column, k) : column;
}

/* A string column's cell: its text in the document's "strings" table. */
static json_t *string_cell(json_t *strings, json_t *column, size_t k)
{
	json_t *i = column_cell(column, k), *s;

	if (!json_is_integer(i) || !(s = json_array_get(strings, (size_t)json_integer_value(i))))
		return json_null();
	return json_incref(s);
}

static json_t *plain_cell(json_t *column, size_t k)
{
	json_t *v = column_cell(column, k);

	return v ? json_incref(v) : json_null();
}

static const char *const folded_strings[] = { "reason", "source", "perf_name", "perf_kind", "estimate", "sanity", "status", NULL };

static int is_string_column(const char *key)
{
	size_t i;

	for (i = 0; folded_strings[i]; i++)
		if (!strcmp(key, folded_strings[i]))
			return 1;
	return 0;
}

/* What a folded scope says of itself as a whole scope does (copied when unfolded). */
static const char *const scope_header[] = { "id", "session", "kind", "label", "pmu", "time", "multiplexed", NULL };

/* The members a folded scope has besides its columns. */
static int is_scope_member(const char *key)
{
	size_t i;

	for (i = 0; scope_header[i]; i++)
		if (!strcmp(key, scope_header[i]))
			return 1;
	return !strcmp(key, "folded") || !strcmp(key, "columns") || !strcmp(key, "bottleneck_leaf");
}

/* nodes[] or events[] of a folded scope: the table's descriptions, the scope's columns. */
static json_t *unfold_list(json_t *scope, json_t *described, json_t *strings)
{
	json_t *list = json_array(), *d, *item, *col;
	const char *key;
	size_t k;

	json_array_foreach(described, k, d) {
		item = json_deep_copy(d);
		json_object_foreach(scope, key, col) {
			if (is_scope_member(key))
				continue;
			json_object_set_new(item, key, is_string_column(key) ? string_cell(strings, col, k)
									   : plain_cell(col, k));
		}
		json_array_append_new(list, item);
	}
	return list;
}

static json_t *unfold_scope(json_t *scope, json_t *columns, json_t *strings)
{
	json_t *shape = json_array_get(columns, (size_t)json_integer_value(json_object_get(scope, "columns")));
	json_t *out = json_object(), *nodes, *path = json_array(), *n;
	size_t k;

	for (k = 0; scope_header[k]; k++) {
		json_t *v = json_object_get(scope, scope_header[k]);

		json_object_set_new(out, scope_header[k], v ? json_incref(v) : json_null());
	}
	json_object_set_new(out, "derived", json_null());
	json_object_set_new(out, "folded", json_true());
	nodes = unfold_list(scope, json_object_get(shape, "nodes"), strings);
	json_array_foreach(nodes, k, n)
		if (json_is_true(json_object_get(n, "bottleneck")))
			json_array_append(path, json_object_get(n, "id"));
	json_object_set_new(out, "nodes", nodes);
	json_object_set_new(out, "bottleneck", json_pack("{s:o}", "path", path));
	json_object_set_new(out, "events", json_array_size(nodes) ? json_array() :
			    unfold_list(scope, json_object_get(shape, "events"), strings));
	return out;
}

int td_report_unfold(json_t *doc, struct strbuf *err)
{
	json_t *scopes = json_object_get(doc, "scopes"), *columns = json_object_get(doc, "columns");
	json_t *strings = json_object_get(doc, "strings"), *sc;
	size_t i;

	json_array_foreach(scopes, i, sc) {
		json_int_t c = json_integer_value(json_object_get(sc, "columns"));

		if (!json_is_true(json_object_get(sc, "folded")) || json_is_array(json_object_get(sc, "nodes")))
			continue;
		if (!json_is_integer(json_object_get(sc, "columns")) || c < 0 ||
		    !json_is_object(json_array_get(columns, (size_t)c))) {
			strbuf_addf(err, "folded scope %s names columns entry %lld, which the document does not have",
				    td_json_str_or(sc, "id", "?"), (long long)c);
			return -1;
		}
		json_array_set_new(scopes, i, unfold_scope(sc, columns, strings));
	}
	return 0;
}

/* Do the scopes come from more than one perf stat session? */
static int several_sessions(json_t *scopes)
{
	json_t *s;
	size_t i;
	int first = -1;

	json_array_foreach(scopes, i, s) {
		int session = td_json_int(json_object_get(s, "session"), 0);

		if (first < 0)
			first = session;
		else if (session != first)
			return 1;
	}
	return 0;
}

/*
 * A scope's name among 'scopes': its label, after "s2 " when they come
 * from several sessions (a hybrid file of 4 runs has 8 "total" scopes:
 * only the session and core type tell them apart).
 */
void td_scope_label_among(struct strbuf *sb, json_t *scopes, json_t *scope)
{
	if (several_sessions(scopes))
		strbuf_addf(sb, "s%d ", td_json_int(json_object_get(scope, "session"), 0));
	td_scope_label(sb, scope);
}
