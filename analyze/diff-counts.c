/*
 * What a diff compares besides Top-Down: the elapsed time, the counts both
 * sides have (software events on a machine without hardware counters) and
 * the per-thread stacks.  Two runs recorded where no PMU is usable (most
 * VMs) have nothing else in common, and a table of n/a would tell nothing.
 */
#include "config.h"
#include "analyze/analyze-int.h"

#include <math.h>
#include <string.h>

static json_t *num_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

/* One compared figure: both values, B - A and B / A (when A is not 0). */
static json_t *pair(const char *name, const char *unit, double a, double b)
{
	return json_pack("{s:s, s:s?, s:o, s:o, s:o, s:o}", "name", name, "unit", unit,
			 "a", num_or_null(a), "b", num_or_null(b),
			 "delta", num_or_null(b - a), "ratio", num_or_null(a != 0 ? b / a : NAN));
}

/* The elapsed time of the session a scope belongs to. */
static double scope_elapsed(json_t *doc, json_t *scope)
{
	json_int_t idx = json_integer_value(json_object_get(scope, "session"));
	json_t *s;
	size_t i;

	json_array_foreach(json_object_get(doc, "sessions"), i, s)
		if (json_integer_value(json_object_get(s, "index")) == idx)
			return td_json_num(json_object_get(s, "elapsed_s"));
	return NAN;
}

static json_t *find_event(json_t *scope, const char *name)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(scope, "events"), i, e) {
		const char *n = td_json_str(e, "name"), *st = td_json_str(e, "status");

		if (n && !strcmp(n, name) && (!st || !strcmp(st, "ok")))
			return e;
	}
	return NULL;
}

/* Counts of the events both scopes counted, in A's order. */
static json_t *common_counts(json_t *sa, json_t *sb)
{
	json_t *out = json_array(), *e, *f;
	size_t i;

	json_array_foreach(json_object_get(sa, "events"), i, e) {
		const char *name = td_json_str(e, "name");

		if (!name || find_event(sa, name) != e || !(f = find_event(sb, name)))
			continue;
		json_array_append_new(out, pair(name, td_json_str(e, "unit"), td_json_num(json_object_get(e, "value")),
						td_json_num(json_object_get(f, "value"))));
	}
	return out;
}

/* The per-thread stack fractions of both sides, by component. */
static json_t *thread_fractions(json_t *a, json_t *b)
{
	json_t *fa = json_object_get(json_object_get(json_object_get(a, "threads"), "aggregate"), "fractions");
	json_t *fb = json_object_get(json_object_get(json_object_get(b, "threads"), "aggregate"), "fractions");
	json_t *out, *v;
	const char *comp;

	if (!json_is_object(fa) || !json_is_object(fb))
		return json_null();
	out = json_array();
	json_object_foreach(fa, comp, v) {
		double x = td_json_num(v), y = td_json_num(json_object_get(fb, comp));

		if ((x > 0 || y > 0) && !isnan(y))
			json_array_append_new(out, pair(comp, "fraction", x, y));
	}
	return out;
}

/* Whether any node of the diff has a value on either side. */
static int topdown_measured(json_t *diff)
{
	json_t *n;
	size_t i;

	json_array_foreach(json_object_get(diff, "nodes"), i, n)
		if (!isnan(td_json_num(json_object_get(n, "a"))) || !isnan(td_json_num(json_object_get(n, "b"))))
			return 1;
	return 0;
}

void td_diff_add_counts(json_t *diff, json_t *a, json_t *sa, json_t *b, json_t *sb)
{
	json_object_set_new(diff, "topdown_measured", json_boolean(topdown_measured(diff)));
	json_object_set_new(diff, "elapsed", pair("elapsed time", "s", scope_elapsed(a, sa), scope_elapsed(b, sb)));
	json_object_set_new(diff, "counts", common_counts(sa, sb));
	json_object_set_new(diff, "thread_fractions", thread_fractions(a, b));
}
