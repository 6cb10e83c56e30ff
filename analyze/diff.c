/*
 * tdperf diff: compare two report documents (docs/diff-schema.md).
 *
 * Level 1 and 2 are defined on every generation and vendor (the formula
 * tables map vendor names onto the same ids), so they are the common
 * schema: fractions side by side with their deltas.  Fractions alone hide
 * a faster core, so each side also gets its absolute CPI stack (CPI x
 * fraction) and the change in CPI, and in cycles when both sides counted
 * them, is attributed to components: delta_k = CPI_B f_B,k - CPI_A f_A,k,
 * which sums to the CPI change when each side's fractions sum to 1 (any
 * remainder is reported, not spread).
 */
#include "config.h"
#include "analyze/analyze-int.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

/* Node ids compare without case and without perf's "tma_" prefix. */
static int same_id(const char *a, const char *b)
{
	if (!a || !b)
		return 0;
	if (!strncasecmp(a, "tma_", 4))
		a += 4;
	if (!strncasecmp(b, "tma_", 4))
		b += 4;
	return !strcasecmp(a, b);
}

static json_t *find_by_id(json_t *array, const char *id)
{
	json_t *n;
	size_t i;

	json_array_foreach(array, i, n)
		if (same_id(td_json_str(n, "id"), id))
			return n;
	return NULL;
}

static json_t *num_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static json_t *pick_scope(json_t *doc, const char *id, const char *side, struct strbuf *err)
{
	json_t *s;
	size_t i;

	if (!id)
		return td_report_main_scope(doc);
	json_array_foreach(json_object_get(doc, "scopes"), i, s) {
		const char *sid = td_json_str(s, "id");

		if (sid && !strcmp(sid, id))
			return s;
	}
	strbuf_addf(err, "%s: no scope '%s'; scopes are:", side, id);
	json_array_foreach(json_object_get(doc, "scopes"), i, s) {
		if (i >= 12) {
			strbuf_addstr(err, " ...");
			break;
		}
		strbuf_addf(err, " %s", td_json_str(s, "id") ? td_json_str(s, "id") : "?");
	}
	return NULL;
}

/* Multiplexing of one scope: how many events ran part of the time, the lowest share. */
static json_t *multiplexing(json_t *scope)
{
	json_t *e, *list = json_array();
	size_t i, n = 0;
	double lowest = NAN;

	json_array_foreach(json_object_get(scope, "events"), i, e) {
		double run = td_json_num(json_object_get(e, "running_pct"));
		const char *status = td_json_str(e, "status");

		if (status && strcmp(status, "ok"))
			continue;
		n++;
		if ((!isnan(run) && run < 100) || json_is_true(json_object_get(e, "scaled"))) {
			json_array_append_new(list, json_pack("{s:s?, s:o}", "name", td_json_str(e, "name"),
							      "running_pct", num_or_null(run)));
			if (!isnan(run) && (isnan(lowest) || run < lowest))
				lowest = run;
		}
	}
	return json_pack("{s:i, s:i, s:o, s:o}", "events", (int)n, "multiplexed", (int)json_array_size(list),
			 "lowest_running_pct", num_or_null(lowest), "multiplexed_events", list);
}

/*
 * How the side's CPI was had, in words for the page: the stack's own
 * account, else where the document took it from ("stacks.cpi", the CPI
 * stack analysis of the run, is a JSON path, not words for a reader).
 */
static const char *cpi_from_words(json_t *cpi)
{
	const char *src = td_json_str(cpi, "source");

	if (td_json_str(cpi, "cpi_from"))
		return td_json_str(cpi, "cpi_from");
	if (src && !strcmp(src, "stacks.cpi"))
		return "the run's CPI stack";
	return src;
}

static json_t *side_info(json_t *doc, json_t *scope, const char *label)
{
	json_t *run = json_object_get(doc, "run"), *cpu = json_object_get(run, "cpu");
	json_t *table = json_object_get(doc, "table");
	json_t *cpi = td_report_cpi_stack(scope, 1);
	json_t *bn = json_object_get(scope, "bottleneck");
	const char *cpu_name = td_json_str(cpu, "name");
	struct strbuf sl = STRBUF_INIT;
	json_t *side;

	if (!cpu_name)
		cpu_name = td_json_str(table, "display");
	td_scope_label(&sl, scope);
	side = json_pack("{s:s, s:s?, s:s?, s:s?, s:s, s:o, s:o, s:o, s:o, s:s?, s:s?, s:o}",
			 "label", label, "cpu", cpu_name,
			 "microarchitecture", td_json_str(cpu, "microarchitecture"),
			 "table", td_json_str(table, "name"), "scope", sl.buf,
			 "slots_per_cycle", num_or_null(td_json_num(json_object_get(table, "slots_per_cycle"))),
			 "cpi", num_or_null(td_json_num(json_object_get(cpi, "cpi"))),
			 "cycles", num_or_null(td_json_num(json_object_get(cpi, "cycles"))),
			 "instructions", num_or_null(td_json_num(json_object_get(cpi, "instructions"))),
			 "cpi_from", cpi_from_words(cpi),
			 "bottleneck", td_json_str(bn, "sentence"),
			 "multiplexing", multiplexing(scope));
	if (td_json_str(table, "topdown_method"))
		json_object_set_new(side, "topdown_method", json_string(td_json_str(table, "topdown_method")));
	if (td_json_str(cpi, "reason"))
		json_object_set_new(side, "cpi_reason", json_string(td_json_str(cpi, "reason")));
	json_decref(cpi);
	strbuf_release(&sl);
	return side;
}

static json_t *node_entry(json_t *na, json_t *nb)
{
	json_t *n = na ? na : nb;
	double a = na ? td_json_num(json_object_get(na, "value")) : NAN;
	double b = nb ? td_json_num(json_object_get(nb, "value")) : NAN;
	json_t *e = json_pack("{s:O, s:O, s:O, s:O}", "id", json_object_get(n, "id"),
			      "name", json_object_get(n, "name") ? json_object_get(n, "name") : json_object_get(n, "id"),
			      "level", json_object_get(n, "level") ? json_object_get(n, "level") : json_null(),
			      "parent", json_object_get(n, "parent") ? json_object_get(n, "parent") : json_null());

	json_object_set_new(e, "a", num_or_null(a));
	json_object_set_new(e, "b", num_or_null(b));
	json_object_set_new(e, "delta", num_or_null(b - a));
	json_object_set_new(e, "a_approximate", json_boolean(na && json_is_true(json_object_get(na, "approximate"))));
	json_object_set_new(e, "b_approximate", json_boolean(nb && json_is_true(json_object_get(nb, "approximate"))));
	json_object_set_new(e, "a_source", na ? json_string(td_json_str_or(na, "source", "counts")) : json_null());
	json_object_set_new(e, "b_source", nb ? json_string(td_json_str_or(nb, "source", "counts")) : json_null());
	json_object_set_new(e, "a_reason", na && td_json_str(na, "reason") ? json_string(td_json_str(na, "reason")) : json_null());
	json_object_set_new(e, "b_reason", nb && td_json_str(nb, "reason") ? json_string(td_json_str(nb, "reason")) : json_null());
	json_object_set_new(e, "only_in", na && nb ? json_null() : json_string(na ? "a" : "b"));
	return e;
}

/* Each node followed by its children, recursively (A's order, then B's extras). */
static void append_subtree(json_t *out, json_t *nodes, const char *parent, int depth)
{
	json_t *n;
	size_t i;

	if (depth > 12)
		return;
	json_array_foreach(nodes, i, n) {
		const char *p = td_json_str(n, "parent");

		if (parent ? !p || !same_id(p, parent) : p && find_by_id(nodes, p))
			continue;
		json_array_append(out, n);
		append_subtree(out, nodes, td_json_str(n, "id"), depth + 1);
	}
}

static json_t *tree_order(json_t *nodes)
{
	json_t *out = json_array();

	append_subtree(out, nodes, NULL, 0);
	json_decref(nodes);
	return out;
}

/* Level 1-2 nodes side by side; deeper nodes only to list one-sided ones. */
static void compare_nodes(json_t *diff, json_t *sa, json_t *sb)
{
	json_t *na = json_object_get(sa, "nodes"), *nb = json_object_get(sb, "nodes"), *n;
	json_t *nodes = json_array(), *only_a = json_array(), *only_b = json_array(), *approx = json_array();
	size_t i;

	json_array_foreach(na, i, n) {
		json_t *other = find_by_id(nb, td_json_str(n, "id"));
		double level = td_json_num(json_object_get(n, "level"));

		if (!other)
			json_array_append_new(only_a, json_pack("{s:O, s:O}", "id", json_object_get(n, "id"),
								"level", json_object_get(n, "level") ? json_object_get(n, "level") : json_null()));
		if (level <= 2)
			json_array_append_new(nodes, node_entry(n, other));
	}
	json_array_foreach(nb, i, n) {
		double level = td_json_num(json_object_get(n, "level"));

		if (find_by_id(na, td_json_str(n, "id")))
			continue;
		json_array_append_new(only_b, json_pack("{s:O, s:O}", "id", json_object_get(n, "id"),
							"level", json_object_get(n, "level") ? json_object_get(n, "level") : json_null()));
		if (level <= 2)
			json_array_append_new(nodes, node_entry(NULL, n));
	}
	json_array_foreach(nodes, i, n) {
		int a = json_is_true(json_object_get(n, "a_approximate"));
		int b = json_is_true(json_object_get(n, "b_approximate"));

		if (a || b)
			json_array_append_new(approx, json_pack("{s:O, s:O, s:b, s:b, s:b}", "id", json_object_get(n, "id"),
								"name", json_object_get(n, "name"), "a", a, "b", b,
								"changed", a != b));
	}
	json_object_set_new(diff, "nodes", tree_order(nodes));
	json_object_set_new(diff, "only_in_a", only_a);
	json_object_set_new(diff, "only_in_b", only_b);
	json_object_set_new(diff, "approximations", approx);
}

/*
 * Per-component attribution of B - A for stacks whose components are
 * 'unit' per instruction (scale 1) or per run (scale = cycles).
 */
static json_t *attribute(json_t *ca, json_t *cb, double scale_a, double scale_b, double total_a,
			 double total_b, const char *unit)
{
	json_t *comps = json_array(), *c, *out;
	double sum = 0, delta = total_b - total_a;
	int complete = 1;
	size_t i;

	json_array_foreach(ca, i, c) {
		json_t *o = find_by_id(cb, td_json_str(c, "id"));
		double a = td_json_num(json_object_get(c, "value")) * scale_a;
		double b = o ? td_json_num(json_object_get(o, "value")) * scale_b : NAN;
		json_t *e = json_pack("{s:O, s:O, s:O, s:O}", "id", json_object_get(c, "id"),
				      "name", json_object_get(c, "name") ? json_object_get(c, "name") : json_object_get(c, "id"),
				      "parent", json_object_get(c, "parent") ? json_object_get(c, "parent") : json_null(),
				      "level", json_object_get(c, "level") ? json_object_get(c, "level") : json_null());

		json_object_set_new(e, "a", num_or_null(a));
		json_object_set_new(e, "b", num_or_null(b));
		json_object_set_new(e, "delta", num_or_null(b - a));
		json_object_set_new(e, "share", num_or_null(delta != 0 ? (b - a) / delta : NAN));
		if (!o)
			json_object_set_new(e, "only_in", json_string("a"));
		if (isnan(b - a))
			complete = 0;
		else
			sum += b - a;
		json_array_append_new(comps, e);
	}
	json_array_foreach(cb, i, c) {
		json_t *e;
		double b;

		if (find_by_id(ca, td_json_str(c, "id")))
			continue;
		b = td_json_num(json_object_get(c, "value")) * scale_b;
		e = json_pack("{s:O, s:O, s:O, s:O, s:n, s:o, s:n, s:n, s:s}", "id", json_object_get(c, "id"),
			      "name", json_object_get(c, "name") ? json_object_get(c, "name") : json_object_get(c, "id"),
			      "parent", json_object_get(c, "parent") ? json_object_get(c, "parent") : json_null(),
			      "level", json_object_get(c, "level") ? json_object_get(c, "level") : json_null(),
			      "a", "b", num_or_null(b), "delta", "share", "only_in", "b");
		complete = 0;
		json_array_append_new(comps, e);
	}
	out = json_pack("{s:s, s:o, s:o, s:o, s:o}", "unit", unit, "a_total", num_or_null(total_a),
			"b_total", num_or_null(total_b), "delta", num_or_null(delta), "components", comps);
	/* what the components do not explain: fractions not summing to 1, or a missing one */
	json_object_set_new(out, "unattributed", complete ? num_or_null(delta - sum) : json_null());
	if (!complete)
		json_object_set_new(out, "reason", json_string("a component is missing or not computable on one side; "
							       "its change is not attributed"));
	return out;
}

static json_t *cpi_attribution(json_t *sa, json_t *sb, int level, json_t *side_a, json_t *side_b)
{
	json_t *ka = td_report_cpi_stack(sa, level), *kb = td_report_cpi_stack(sb, level), *out;
	double ca = td_json_num(json_object_get(ka, "cpi")), cb = td_json_num(json_object_get(kb, "cpi"));

	if (isnan(ca) || isnan(cb)) {
		out = json_pack("{s:n, s:s}", "components", "reason",
				isnan(ca) ? "A has no CPI: neither a CPI/IPC metric nor thread cycles and instructions"
					  : "B has no CPI: neither a CPI/IPC metric nor thread cycles and instructions");
	} else {
		out = attribute(json_object_get(ka, "components"), json_object_get(kb, "components"), 1, 1, ca, cb,
				"cycles per instruction");
		json_object_set_new(out, "a_source", json_string(td_json_str(ka, "source") ? td_json_str(ka, "source") : "computed"));
		json_object_set_new(out, "b_source", json_string(td_json_str(kb, "source") ? td_json_str(kb, "source") : "computed"));
		json_object_set_new(out, "approximate", json_boolean(json_is_true(json_object_get(ka, "approximate")) ||
								     json_is_true(json_object_get(kb, "approximate"))));
	}
	json_object_set_new(out, "level", json_integer(level));
	json_decref(ka);
	json_decref(kb);
	(void)side_a;
	(void)side_b;
	return out;
}

/* Cycles per component: instructions x CPI component; needs both sides' instruction counts. */
static json_t *cycle_attribution(json_t *sa, json_t *sb, int level)
{
	json_t *ka = td_report_cpi_stack(sa, level), *kb = td_report_cpi_stack(sb, level), *out;
	double ia = td_json_num(json_object_get(ka, "instructions")), ib = td_json_num(json_object_get(kb, "instructions"));
	double ya = td_json_num(json_object_get(ka, "cycles")), yb = td_json_num(json_object_get(kb, "cycles"));

	if (isnan(ia) || isnan(ib) || isnan(ya) || isnan(yb))
		out = json_pack("{s:n, s:s}", "components", "reason",
				"cycles and instructions are not both known on each side");
	else
		out = attribute(json_object_get(ka, "components"), json_object_get(kb, "components"), ia, ib, ya, yb,
				"cycles");
	json_object_set_new(out, "level", json_integer(level));
	json_decref(ka);
	json_decref(kb);
	return out;
}

static int has_level(json_t *scope, int level)
{
	json_t *n;
	size_t i;

	json_array_foreach(json_object_get(scope, "nodes"), i, n)
		if (td_json_num(json_object_get(n, "level")) == level &&
		    !isnan(td_json_num(json_object_get(n, "value"))))
			return 1;
	return 0;
}

static void add_warnings(json_t *diff)
{
	json_t *w = json_array(), *a = json_object_get(diff, "a"), *b = json_object_get(diff, "b"), *x;
	const char *ua = td_json_str(a, "microarchitecture"), *ub = td_json_str(b, "microarchitecture");
	double wa = td_json_num(json_object_get(a, "slots_per_cycle")), wb = td_json_num(json_object_get(b, "slots_per_cycle"));
	json_t *ma = json_object_get(a, "multiplexing"), *mb = json_object_get(b, "multiplexing");
	size_t i, na = 0;
	struct strbuf sb = STRBUF_INIT;

	if ((ua && ub && strcmp(ua, ub)) || (!isnan(wa) && !isnan(wb) && wa != wb)) {
		strbuf_addf(&sb, "different CPUs (%s, %g slots/cycle vs %s, %g slots/cycle): a fraction of slots is "
			    "not the same amount of time on both; compare the absolute CPI stacks",
			    ua ? ua : "?", wa, ub ? ub : "?", wb);
		json_array_append_new(w, json_string(sb.buf));
	}
	if (td_json_str(a, "topdown_method") && td_json_str(b, "topdown_method") &&
	    strcmp(td_json_str(a, "topdown_method"), td_json_str(b, "topdown_method"))) {
		/* the same ids, measured differently: say how on each side */
		strbuf_reset(&sb);
		strbuf_addf(&sb, "Level 1 is defined differently on the two CPUs; A (%s): %s", ua ? ua : "?",
			    td_json_str(a, "topdown_method"));
		json_array_append_new(w, json_string(sb.buf));
		strbuf_reset(&sb);
		strbuf_addf(&sb, "B (%s): %s", ub ? ub : "?", td_json_str(b, "topdown_method"));
		json_array_append_new(w, json_string(sb.buf));
	}
	if (json_array_size(json_object_get(diff, "only_in_a")) || json_array_size(json_object_get(diff, "only_in_b")))
		json_array_append_new(w, json_string("some nodes exist on one side only: they are listed, not compared"));
	json_array_foreach(json_object_get(diff, "approximations"), i, x)
		na += json_is_true(json_object_get(x, "changed"));
	if (na) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%zu node%s approximate on one side only: part of the change may be the approximation",
			    na, na > 1 ? "s are" : " is");
		json_array_append_new(w, json_string(sb.buf));
	}
	if (!!td_json_num(json_object_get(ma, "multiplexed")) != !!td_json_num(json_object_get(mb, "multiplexed"))) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "only %s was multiplexed: its ratios mix counts from different time windows",
			    td_json_num(json_object_get(ma, "multiplexed")) ? "A" : "B");
		json_array_append_new(w, json_string(sb.buf));
	} else if (td_json_num(json_object_get(ma, "multiplexed"))) {
		json_array_append_new(w, json_string("both sides were multiplexed: ratios mix counts from different time windows"));
	}
	if (json_is_true(json_object_get(diff, "topdown_measured")) &&
	    (json_is_null(json_object_get(a, "cpi")) || json_is_null(json_object_get(b, "cpi"))))
		json_array_append_new(w, json_string("the CPI of one side is unknown: the change is compared in fractions only"));
	json_object_set_new(diff, "warnings", w);
	strbuf_release(&sb);
}

json_t *td_diff_build(json_t *a, const char *label_a, const char *scope_a,
		      json_t *b, const char *label_b, const char *scope_b, struct strbuf *err)
{
	json_t *sa, *sb, *diff, *stacks;
	int level;

	sa = pick_scope(a, scope_a, "A", err);
	if (!sa)
		return NULL;
	sb = pick_scope(b, scope_b, "B", err);
	if (!sb)
		return NULL;
	diff = json_pack("{s:s, s:i}", "schema", "tdperf-diff", "version", 1);
	json_object_set_new(diff, "a", side_info(a, sa, label_a));
	json_object_set_new(diff, "b", side_info(b, sb, label_b));
	compare_nodes(diff, sa, sb);
	stacks = json_array();
	for (level = 1; level <= 2; level++) {
		if (level == 2 && !(has_level(sa, 2) && has_level(sb, 2)))
			break;
		json_array_append_new(stacks, cpi_attribution(sa, sb, level, json_object_get(diff, "a"),
							      json_object_get(diff, "b")));
	}
	json_object_set_new(diff, "cpi_stacks", stacks);
	json_object_set_new(diff, "cycles", cycle_attribution(sa, sb, 1));
	td_diff_add_counts(diff, a, sa, b, sb);
	add_warnings(diff);
	return diff;
}
