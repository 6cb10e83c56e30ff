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

int td_report_add_guidance(json_t *doc, struct strbuf *err)
{
	json_t *scope;
	size_t i;

	json_array_foreach(json_object_get(doc, "scopes"), i, scope)
		if (td_json_str(scope, "table") && !json_is_true(json_object_get(scope, "folded")) &&
		    has_full_nodes(scope) && scope_guidance(doc, scope, err) < 0)
			return -1;
	return 0;
}
