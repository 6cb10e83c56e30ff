/*
 * tdperf diff --hotspots: two hotspot documents side by side.  Functions
 * are matched by name and the file name of their DSO (the directories of
 * two builds differ); for each, the self and inclusive weight (the sampled
 * event's count: nanoseconds for cpu-clock, cycles for a cycles leader) of
 * A and B and the change, so the functions that got slower or faster come
 * first; and, where both sides have Top-Down per function, how each node
 * moved.
 *
 * Functions are compared by the innermost function a sample fell in: the
 * self samples debug info puts in an inlined function ("inlined") move out
 * of their caller into an entry of that function's own, so that an -O2
 * build whose hot loop was inlined into main compares with an -O0 build
 * where the loop is a function of its own, loop with loop, rather than
 * saying "main faster".  The weight moved is the caller's self weight in
 * proportion to the samples (each sample's own weight is not kept per
 * inlined function), so such a row is marked approximate.
 */
#include "analyze/analyze-int.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The DSO's file name; JIT maps (/tmp/perf-PID.map) of any process as one. */
static const char *base_name(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;

	if (path && !strncmp(path, "/tmp/perf-", 10) && strspn(path + 10, "0123456789") &&
	    !strcmp(path + 10 + strspn(path + 10, "0123456789"), ".map"))
		return "perf-PID.map";
	return s ? s + 1 : path ? path : "?";
}

static void function_key(json_t *fn, struct strbuf *key)
{
	strbuf_reset(key);
	if (json_object_get(fn, "offset"))
		strbuf_addf(key, "[unknown]+0x%llx", (unsigned long long)json_integer_value(json_object_get(fn, "offset")));
	else
		strbuf_addstr(key, td_json_str_or(fn, "symbol", "?"));
	strbuf_addch(key, '\t');
	strbuf_addstr(key, base_name(td_json_str(fn, "dso")));
}

/* The function's Level 1-2 values by node id, or NULL. */
static json_t *topdown_values(json_t *fn)
{
	json_t *nodes = json_object_get(json_object_get(fn, "topdown"), "nodes"), *n, *out;
	size_t i;

	if (!nodes)
		return NULL;
	out = json_object();
	json_array_foreach(nodes, i, n)
		json_object_set(out, td_json_str_or(n, "id", "?"), json_object_get(n, "value"));
	return out;
}

static json_t *side(json_t *fn)
{
	if (!fn)
		return json_null();
	return json_pack("{s:O, s:O, s:O, s:O, s:O}", "samples", json_object_get(fn, "samples"),
			 "period", json_object_get(fn, "period"), "children_period", json_object_get(fn, "children_period"),
			 "percent", json_object_get(fn, "percent"), "children_percent", json_object_get(fn, "children_percent"));
}

/* How each Top-Down node of the function moved from A to B. */
static json_t *topdown_change(json_t *fa, json_t *fb)
{
	json_t *ta = fa ? topdown_values(fa) : NULL, *tb = fb ? topdown_values(fb) : NULL, *out, *v;
	const char *id;

	if (!ta || !tb) {
		json_decref(ta);
		json_decref(tb);
		return NULL;
	}
	out = json_array();
	json_object_foreach(ta, id, v) {
		double a = td_json_num(v), b = td_json_num(json_object_get(tb, id));

		json_array_append_new(out, json_pack("{s:s, s:o, s:o, s:o}", "id", id,
						      "a", isfinite(a) ? json_real(a) : json_null(),
						      "b", isfinite(b) ? json_real(b) : json_null(),
						      "change", isfinite(a) && isfinite(b) ? json_real(b - a) : json_null()));
	}
	json_decref(ta);
	json_decref(tb);
	return out;
}

/* Say in a row where a side's weight was moved out of callers it was inlined in. */
static void mark_inlined(json_t *row, json_t *fa, json_t *fb)
{
	if (fa && json_object_get(fa, "inlined_in"))
		json_object_set(row, "inlined_in_a", json_object_get(fa, "inlined_in"));
	if (fb && json_object_get(fb, "inlined_in"))
		json_object_set(row, "inlined_in_b", json_object_get(fb, "inlined_in"));
	if (json_object_get(row, "inlined_in_a") || json_object_get(row, "inlined_in_b"))
		json_object_set_new(row, "approximate", json_true());
}

static double period_of(json_t *fn, const char *key)
{
	return fn ? (double)json_integer_value(json_object_get(fn, key)) : 0;
}

static int by_change(const void *x, const void *y)
{
	double a = fabs(td_json_num(json_object_get(*(json_t *const *)x, "change")));
	double b = fabs(td_json_num(json_object_get(*(json_t *const *)y, "change")));

	return a < b ? 1 : a > b ? -1 : 0;
}

/* Add 'n' x the integer field 'key' of 'from' to that of 'to'. */
static void add_int(json_t *to, const char *key, double v)
{
	json_object_set_new(to, key, json_integer(json_integer_value(json_object_get(to, key)) + (json_int_t)llround(v)));
}

/*
 * The functions of a hotspots document by innermost function: each
 * inlined function's share of its caller's self samples and weight moved
 * into an entry of its own (same DSO), merged with the function of that
 * name if the document has one.  Percentages follow the weights.
 */
static json_t *by_innermost(json_t *hot, double total)
{
	json_t *out = json_array(), *index = json_object(), *fn, *e;
	struct strbuf key = STRBUF_INIT;
	size_t i, k;

	json_array_foreach(hot, i, fn) {
		json_t *c = json_deep_copy(fn);

		json_object_del(c, "inlined");
		function_key(c, &key);
		json_object_set(index, key.buf, c);
		json_array_append_new(out, c);
	}
	json_array_foreach(hot, i, fn) {
		double samples = td_json_num(json_object_get(fn, "samples"));
		double period = (double)json_integer_value(json_object_get(fn, "period"));
		json_t *self;

		if (!json_array_size(json_object_get(fn, "inlined")) || !(samples > 0))
			continue;
		function_key(fn, &key);
		self = json_object_get(index, key.buf);
		json_array_foreach(json_object_get(fn, "inlined"), k, e) {
			double share = td_json_num(json_object_get(e, "samples")) / samples;
			json_t *to, *probe = json_pack("{s:s, s:s}", "symbol", td_json_str_or(e, "symbol", "?"),
						       "dso", td_json_str_or(fn, "dso", "?"));

			if (!(share > 0)) {
				json_decref(probe);
				continue;
			}
			function_key(probe, &key);
			to = json_object_get(index, key.buf);
			if (!to) { /* the array takes the reference */
				to = probe;
				json_object_set_new(to, "samples", json_integer(0));
				json_object_set_new(to, "period", json_integer(0));
				json_object_set_new(to, "children_period", json_integer(0));
				json_object_set(index, key.buf, to);
				json_array_append_new(out, to);
			} else {
				json_decref(probe);
			}
			add_int(to, "samples", share * samples);
			add_int(to, "period", share * period);
			add_int(to, "children_period", share * period);
			add_int(self, "samples", -share * samples);
			add_int(self, "period", -share * period);
			json_object_set_new(to, "approximate", json_true());
			if (!json_is_array(json_object_get(to, "inlined_in")))
				json_object_set_new(to, "inlined_in", json_array());
			json_array_append_new(json_object_get(to, "inlined_in"),
					      json_string(td_json_str_or(fn, "symbol", "?")));
		}
	}
	json_array_foreach(out, i, fn)
		if (total > 0) {
			json_object_set_new(fn, "percent", json_real(100.0 * (double)json_integer_value(
				json_object_get(fn, "period")) / total));
			json_object_set_new(fn, "children_percent", json_real(100.0 * (double)json_integer_value(
				json_object_get(fn, "children_period")) / total));
		}
	json_decref(index);
	strbuf_release(&key);
	return out;
}

json_t *td_hotspots_diff(json_t *a, const char *name_a, json_t *b, const char *name_b, struct strbuf *err)
{
	json_t *index = json_object(), *fn, *rows = json_array(), *out, **sorted, *ha, *hb;
	json_t *pa = json_object_get(a, "profile"), *pb = json_object_get(b, "profile");
	const char *ea = td_json_str(pa, "event"), *eb = td_json_str(pb, "event");
	struct strbuf key = STRBUF_INIT;
	size_t i, n;

	if (!json_is_array(json_object_get(a, "hotspots")) || !json_is_array(json_object_get(b, "hotspots"))) {
		strbuf_addf(err, "%s: not a hotspots recording", json_is_array(json_object_get(a, "hotspots")) ? name_b : name_a);
		json_decref(index);
		json_decref(rows);
		return NULL;
	}
	ha = by_innermost(json_object_get(a, "hotspots"), (double)json_integer_value(json_object_get(pa, "period")));
	hb = by_innermost(json_object_get(b, "hotspots"), (double)json_integer_value(json_object_get(pb, "period")));
	json_array_foreach(hb, i, fn) {
		function_key(fn, &key);
		json_object_set(index, key.buf, fn);
	}
	json_array_foreach(ha, i, fn) {
		json_t *fb, *row, *td;

		function_key(fn, &key);
		fb = json_object_get(index, key.buf);
		row = json_pack("{s:s, s:s, s:o, s:o, s:f, s:f}", "symbol", td_json_str_or(fn, "symbol", "?"),
				"dso", base_name(td_json_str(fn, "dso")), "a", side(fn), "b", side(fb),
				"change", period_of(fb, "period") - period_of(fn, "period"),
				"children_change", period_of(fb, "children_period") - period_of(fn, "children_period"));
		if ((td = topdown_change(fn, fb)))
			json_object_set_new(row, "topdown", td);
		mark_inlined(row, fn, fb);
		json_array_append_new(rows, row);
		json_object_del(index, key.buf);
	}
	json_array_foreach(hb, i, fn) { /* in B only */
		json_t *row;

		function_key(fn, &key);
		if (!json_object_get(index, key.buf))
			continue;
		row = json_pack("{s:s, s:s, s:n, s:o, s:f, s:f}", "symbol",
				td_json_str_or(fn, "symbol", "?"), "dso", base_name(td_json_str(fn, "dso")),
				"a", "b", side(fn), "change", period_of(fn, "period"),
				"children_change", period_of(fn, "children_period"));
		mark_inlined(row, NULL, fn);
		json_array_append_new(rows, row);
	}
	json_decref(ha);
	json_decref(hb);
	n = json_array_size(rows);
	sorted = xmalloc((n + 1) * sizeof(*sorted));
	for (i = 0; i < n; i++)
		sorted[i] = json_incref(json_array_get(rows, i));
	qsort(sorted, n, sizeof(*sorted), by_change);
	json_array_clear(rows);
	for (i = 0; i < n; i++)
		json_array_append_new(rows, sorted[i]);
	free(sorted);
	out = json_pack("{s:s, s:s, s:s, s:s, s:O, s:O, s:b, s:o}", "a", name_a, "b", name_b,
			"event_a", ea ? ea : "?", "event_b", eb ? eb : "?",
			"period_a", json_object_get(pa, "period"), "period_b", json_object_get(pb, "period"),
			"same_event", ea && eb && !strcmp(ea, eb), "functions", rows);
	json_object_set_new(out, "by", json_string("innermost function: the samples debug info puts in an "
						   "inlined function are that function's, not its caller's"));
	json_decref(index);
	strbuf_release(&key);
	return out;
}
