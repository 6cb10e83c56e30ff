/*
 * analyze/guidance.c: "What to try" for the flagged nodes of a report.
 *
 * Each flagged node of a run's total scopes gets the guidance text of its
 * table (metrics/guidance.h) and the causes its measured siblings rule
 * out: a sibling below its threshold says its own causes are not what
 * holds the parent up (Yasin 2014: a node matters only above its
 * threshold, and siblings split their parent's share).  A sibling counts
 * only with a value, a threshold, and a threshold decision its error bar
 * does not overturn ("undecided" siblings are left out, not ruled out).
 */
#include "analyze/report.h"
#include "analyze/doc.h"
#include "metrics/guidance.h"

#include <math.h>
#include <string.h>

/* The vendor of the document's table 'name', or NULL. */
static const char *table_vendor(json_t *doc, const char *name)
{
	json_t *t;
	size_t i;

	json_array_foreach(json_object_get(doc, "tables"), i, t)
		if (td_json_str(t, "name") && name && !strcmp(td_json_str(t, "name"), name))
			return td_json_str(t, "vendor");
	return NULL;
}

/* Nodes of total scopes carry the table's fields (threshold, description). */
static int has_full_nodes(json_t *scope)
{
	json_t *nodes = json_object_get(scope, "nodes");

	return json_array_size(nodes) && json_object_get(json_array_get(nodes, 0), "threshold");
}

static int is_sibling(json_t *a, json_t *b)
{
	return a != b && td_str_same(td_json_str(a, "parent"), td_json_str(b, "parent"));
}

/* Below its threshold, decidedly, with a value: its causes are ruled out. */
static int below_threshold(json_t *n)
{
	return !json_is_true(json_object_get(n, "flagged")) &&
	       !isnan(td_json_num(json_object_get(n, "value"))) &&
	       td_json_str(n, "threshold") && !json_is_true(json_object_get(n, "undecided"));
}

static int ruled_out(json_t *nodes, json_t *node, const char *table, const char *vendor,
		     json_t **out, struct strbuf *err)
{
	json_t *s, *g;
	size_t i;

	*out = json_array();
	json_array_foreach(nodes, i, s) {
		json_t *e;

		if (!is_sibling(node, s) || !below_threshold(s))
			continue;
		if (td_guidance_find(table, vendor, td_json_str(s, "id"), &g, err) < 0)
			return -1;
		e = json_pack("{s:s, s:O, s:O, s:s, s:O, s:O}", "id", td_json_str(s, "id"),
			      "name", json_object_get(s, "name"), "value", json_object_get(s, "value"),
			      "threshold", td_json_str(s, "threshold"),
			      "approximate", json_object_get(s, "approximate") ?
			      json_object_get(s, "approximate") : json_false(),
			      "causes", g ? json_object_get(g, "causes") : json_null());
		json_decref(g);
		json_array_append_new(*out, e);
	}
	return 0;
}

static int scope_guidance(json_t *doc, json_t *scope, struct strbuf *err)
{
	const char *table = td_json_str(scope, "table");
	const char *vendor = table_vendor(doc, table);
	json_t *nodes = json_object_get(scope, "nodes"), *n;
	size_t i;

	json_array_foreach(nodes, i, n) {
		json_t *g = NULL, *ro;

		if (json_is_true(json_object_get(n, "flagged")) &&
		    td_guidance_find(table, vendor, td_json_str(n, "id"), &g, err) < 0)
			return -1;
		if (g) {
			if (ruled_out(nodes, n, table, vendor, &ro, err) < 0) {
				json_decref(g);
				return -1;
			}
			json_object_set_new(g, "ruled_out", ro);
		}
		json_object_set_new(n, "guidance", g ? g : json_null());
	}
	return 0;
}

/*
 * When the bottleneck is not one node: the fallback
 * ---------------------------------------------------
 * The path names one node per level, but a reader should not act on one
 * cause when the measurement does not separate it from another: the path
 * stopped at two flagged siblings within 5 points (metrics/tree.c's tie),
 * a level's choice is within the two nodes' error bars (one standard error
 * each: the bars overlap), or the deepest node is approximate (computed
 * without a term of its formula).  Then the bottleneck gets "fallback":
 * why, and the two candidates, whose own "guidance" the renderers show.
 */

static json_t *find_node(json_t *nodes, const char *id)
{
	json_t *n;
	size_t i;

	json_array_foreach(nodes, i, n)
		if (td_str_same(td_json_str(n, "id"), id))
			return n;
	return NULL;
}

static double node_value(json_t *n)
{
	return td_json_num(json_object_get(n, "value"));
}

/* The flagged children of 'parent' (NULL: Level 1) but 'except', largest first in top[0..1]. */
static void top_flagged(json_t *nodes, const char *parent, json_t *except, json_t *top[2])
{
	json_t *n;
	size_t i;

	top[0] = top[1] = NULL;
	json_array_foreach(nodes, i, n) {
		if (n == except || !json_is_true(json_object_get(n, "flagged")) || isnan(node_value(n)) ||
		    !td_str_same(td_json_str(n, "parent"), parent))
			continue;
		if (!top[0] || node_value(n) > node_value(top[0])) {
			top[1] = top[0];
			top[0] = n;
		} else if (!top[1] || node_value(n) > node_value(top[1])) {
			top[1] = n;
		}
	}
}

/* Do the error bars of a and b (one standard error each) overlap? */
static int within_error_bars(json_t *a, json_t *b)
{
	double ua = td_json_num(json_object_get(a, "uncertainty"));
	double ub = td_json_num(json_object_get(b, "uncertainty"));

	if (isnan(ua) || isnan(ub))
		return 0;
	return fabs(node_value(a) - node_value(b)) <= ua + ub;
}

static json_t *candidate(json_t *n)
{
	json_t *u = json_object_get(n, "uncertainty");

	return json_pack("{s:O, s:O, s:O, s:O, s:b, s:b}", "id", json_object_get(n, "id"),
			 "name", json_object_get(n, "name"), "value", json_object_get(n, "value"),
			 "uncertainty", u ? u : json_null(),
			 "approximate", json_is_true(json_object_get(n, "approximate")),
			 "has_guidance", json_is_object(json_object_get(n, "guidance")));
}

static json_t *fallback_json(const char *reason, struct strbuf *sentence, json_t *a, json_t *b)
{
	json_t *fb = json_pack("{s:s, s:s, s:[]}", "reason", reason, "sentence", sentence->buf, "candidates");

	json_array_append_new(json_object_get(fb, "candidates"), candidate(a));
	json_array_append_new(json_object_get(fb, "candidates"), candidate(b));
	strbuf_release(sentence);
	return fb;
}

static void add_pct(struct strbuf *sb, json_t *n)
{
	double u = td_json_num(json_object_get(n, "uncertainty"));

	strbuf_addf(sb, "%s %.1f %%", td_json_str(n, "name"), node_value(n) * 100);
	if (!isnan(u))
		strbuf_addf(sb, " \xc2\xb1 %.1f", u * 100);
}

/* The fallback of the scope's bottleneck, or NULL when its path names one node. */
static json_t *bottleneck_fallback(json_t *scope)
{
	json_t *bn = json_object_get(scope, "bottleneck"), *path = json_object_get(bn, "path");
	json_t *nodes = json_object_get(scope, "nodes"), *top[2], *last = NULL, *n;
	struct strbuf sb = STRBUF_INIT;
	size_t k, np = json_array_size(path);

	if (!json_is_object(bn))
		return NULL;
	/* a level whose choice the error bars do not decide: the rest of the path hangs on it */
	for (k = 0; k < np; k++) {
		n = find_node(nodes, json_string_value(json_array_get(path, k)));
		if (!n)
			return NULL;
		top_flagged(nodes, td_json_str(n, "parent"), n, top);
		if (top[0] && within_error_bars(n, top[0])) {
			add_pct(&sb, n);
			strbuf_addstr(&sb, " and ");
			add_pct(&sb, top[0]);
			strbuf_addstr(&sb, " are within their error bars of each other: the measurement does not "
				      "say which holds the slots, so both candidates' guidance follows");
			return fallback_json("error_bars", &sb, n, top[0]);
		}
		last = n;
	}
	if (json_is_true(json_object_get(bn, "ambiguous"))) {
		top_flagged(nodes, last ? td_json_str(last, "id") : NULL, NULL, top);
		if (!top[0] || !top[1])
			return NULL;
		add_pct(&sb, top[0]);
		strbuf_addstr(&sb, " and ");
		add_pct(&sb, top[1]);
		strbuf_addf(&sb, " are both above their thresholds and within 5 points of each other%s%s: "
			    "no single bottleneck, so both candidates' guidance follows",
			    last ? ", under " : "", last ? td_json_str(last, "name") : "");
		return fallback_json("tie", &sb, top[0], top[1]);
	}
	if (last && json_is_true(json_object_get(last, "approximate"))) {
		json_t *other;

		/* the runner-up beside it, else its parent: what is known for sure */
		top_flagged(nodes, td_json_str(last, "parent"), last, top);
		other = top[0] ? top[0] : find_node(nodes, td_json_str(last, "parent"));
		if (!other)
			return NULL;
		strbuf_addf(&sb, "the path stops at %s, an approximate value (computed without a term of its "
			    "formula), so %s's guidance follows too", td_json_str(last, "name"),
			    td_json_str(other, "name"));
		return fallback_json("approximate", &sb, last, other);
	}
	return NULL;
}

int td_report_add_guidance(json_t *doc, struct strbuf *err)
{
	json_t *scope;
	size_t i;

	json_array_foreach(json_object_get(doc, "scopes"), i, scope)
		if (td_json_str(scope, "table") && !json_is_true(json_object_get(scope, "folded")) &&
		    has_full_nodes(scope)) {
			json_t *fb;

			if (scope_guidance(doc, scope, err) < 0)
				return -1;
			fb = bottleneck_fallback(scope);
			if (fb)
				json_object_set_new(json_object_get(scope, "bottleneck"), "fallback", fb);
		}
	return 0;
}
