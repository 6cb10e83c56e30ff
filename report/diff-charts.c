/*
 * The comparison charts of tdperf diff: Level 1 and 2 bars of A and B side
 * by side, their absolute CPI stacks, and the change in CPI per component.
 */
#include "config.h"
#include "report/render.h"
#include "report/chart.h"

#include <math.h>
#include <string.h>

/* "A: skylake" / "B: icelake": how a side is named on chart axes. */
static void side_label(struct strbuf *sb, json_t *diff, const char *tag)
{
	json_t *s = json_object_get(diff, tag);
	const char *what = td_json_str(s, "microarchitecture");

	if (!what)
		what = td_json_str(s, "table");
	strbuf_addf(sb, "%s%s%s", !strcmp(tag, "a") ? "A" : "B", what ? ": " : "", what ? what : "");
}

/* A scope-like object for one side, its nodes valued by 'key' of each entry. */
static json_t *side_scope(json_t *diff, const char *tag, json_t *entries, const char *key)
{
	struct strbuf label = STRBUF_INIT;
	json_t *nodes = json_array(), *e, *scope;
	size_t i;

	json_array_foreach(entries, i, e) {
		json_t *v = json_object_get(e, key);
		const char *only = td_json_str(e, "only_in");

		/* absent on this side: left out; present but not computable: kept as null */
		if (only && strcmp(only, tag))
			continue;
		json_t *why = json_object_get(e, !strcmp(tag, "a") ? "a_reason" : "b_reason");

		/* the side's reason goes with it: the chart notes say why a value is missing */
		json_array_append_new(nodes, json_pack("{s:O, s:O, s:O, s:O, s:O, s:b, s:O}", "id", json_object_get(e, "id"),
						       "name", json_object_get(e, "name"),
						       "parent", json_object_get(e, "parent") ? json_object_get(e, "parent") : json_null(),
						       "level", json_object_get(e, "level") ? json_object_get(e, "level") : json_null(),
						       "value", v ? v : json_null(),
						       "approximate", json_is_true(json_object_get(e, !strcmp(tag, "a") ? "a_approximate" : "b_approximate")),
						       "reason", why ? why : json_null()));
	}
	side_label(&label, diff, tag);
	scope = json_pack("{s:s, s:s, s:s, s:o}", "id", tag, "kind", "total", "label", label.buf, "nodes", nodes);
	strbuf_release(&label);
	return scope;
}

/* The CPI stack of the deepest level both sides have. */
json_t *td_diff_deepest_cpi(json_t *diff)
{
	json_t *stacks = json_object_get(diff, "cpi_stacks"), *st, *best = NULL;
	size_t i;

	json_array_foreach(stacks, i, st)
		if (json_is_array(json_object_get(st, "components")))
			best = st;
	return best;
}

void td_charts_for_diff(json_t *diff, struct td_chart_list *out)
{
	json_t *pair = json_array(), *st = td_diff_deepest_cpi(diff), *cpair;
	struct td_chart *c;
	int level;

	json_array_append_new(pair, side_scope(diff, "a", json_object_get(diff, "nodes"), "a"));
	json_array_append_new(pair, side_scope(diff, "b", json_object_get(diff, "nodes"), "b"));
	for (level = 1; level <= 2; level++) {
		char stem[32], title[64];

		snprintf(stem, sizeof(stem), "compare-l%d", level);
		snprintf(title, sizeof(title), "Top-Down Level %d: A and B", level);
		c = td_chart_topdown(pair, level, stem, title);
		if (c && c->nrows == 2)
			td_chart_list_add(out, c);
		else
			td_chart_free(c);
	}
	json_decref(pair);
	if (!st)
		return;
	level = td_json_int(json_object_get(st, "level"), 0);
	cpair = json_array();
	json_array_append_new(cpair, side_scope(diff, "a", json_object_get(st, "components"), "a"));
	json_array_append_new(cpair, side_scope(diff, "b", json_object_get(st, "components"), "b"));
	c = td_chart_stack(cpair, level, "compare-cpi", "CPI stacks: A and B", 1.0);
	if (c) {
		struct td_chart *d = td_chart_new("cpi-delta", "Change in CPI by component (B - A)", TD_CHART_SIGNED);
		size_t j;

		c->ylabel = xstrdup("cycles per instruction");
		td_chart_list_add(out, c);
		d->ylabel = xstrdup("change in cycles per instruction");
		td_chart_add_series(d, "delta", "B - A", NULL);
		for (j = 0; j < c->nseries; j++) {
			struct td_chart_row *r = td_chart_add_row(d, c->series[j].name);

			r->values[0] = c->rows[1].values[j] - c->rows[0].values[j];
			r->colour = c->series[j].colour;
			if (isnan(r->values[0]))
				strbuf_addf(&d->notes, "%s: not computable on one side\n", c->series[j].name);
		}
		td_chart_list_add(out, d);
	}
	json_decref(cpair);
}

