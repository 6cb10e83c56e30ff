/*
 * Charts of the main scope's stacks (analyze/stacks.c): the multi-stage CPI
 * stacks side by side (one bar per pipeline stage, Eyerman et al. 2018 Fig. 3) and
 * the IPC and FLOPS stacks side by side (Eyerman et al. 2018 Fig. 5), as td_chart
 * data that report/plot.c turns into gnuplot scripts.  Components a CPU
 * cannot measure are NAN with a note, never zero.
 */
#include <math.h>
#include <string.h>

#include "report/render.h"
#include "report/chart.h"

/* Colour of a shared stack component, in the Top-Down palette. */
static const char *comp_colour(const char *id)
{
	if (!strcmp(id, "base"))
		return td_component_colour("retiring", NULL, 1, 0);
	if (!strcmp(id, "frontend"))
		return td_component_colour("frontend_bound", NULL, 1, 0);
	if (!strcmp(id, "branch"))
		return td_component_colour("bad_speculation", NULL, 1, 0);
	if (!strcmp(id, "memory"))
		return td_component_colour("memory_bound", "backend_bound", 2, 0);
	if (!strcmp(id, "long_latency"))
		return td_component_colour("core_bound", "backend_bound", 2, 1);
	if (!strcmp(id, "dependence"))
		return td_component_colour("core_bound", "backend_bound", 2, 2);
	if (!strcmp(id, "non_fma"))
		return td_component_colour("retiring", NULL, 2, 0);
	if (!strcmp(id, "narrow"))
		return td_component_colour("retiring", NULL, 2, 1);
	if (!strcmp(id, "masked"))
		return td_component_colour("retiring", NULL, 2, 2);
	if (!strcmp(id, "non_vfp"))
		return td_component_colour("smt_contention", NULL, 1, 0);
	return td_component_colour("other", NULL, 1, 0);
}

static int series_of(const struct td_chart *c, const char *id)
{
	size_t i;

	for (i = 0; i < c->nseries; i++)
		if (!strcmp(c->series[i].id, id))
			return (int)i;
	return -1;
}

/* Put the parts of one stack in a row, scaled; notes for what is missing. */
static void fill_row(struct td_chart *c, struct td_chart_row *r, json_t *parts, double scale,
		     const char *what)
{
	json_t *p;
	size_t i;

	json_array_foreach(parts, i, p) {
		const char *id = td_json_str(p, "id");
		double v = td_json_num(json_object_get(p, "value"));
		int s;

		if (!id)
			continue;
		s = series_of(c, id);
		if (s < 0) {
			td_chart_add_series(c, id, td_json_str_or(p, "name", id), comp_colour(id));
			s = (int)c->nseries - 1;
		}
		if (json_is_false(json_object_get(p, "measurable")))
			strbuf_addf(&c->notes, "%s %s: not measurable on this CPU\n", what,
				    td_json_str_or(p, "name", id));
		else if (isnan(v)) {
			struct strbuf why = STRBUF_INIT;

			td_reason_short(&why, td_json_str_or(p, "reason", "unknown"), 3);
			strbuf_addf(&c->notes, "%s %s: not computable (%s)\n", what,
				    td_json_str_or(p, "name", id), why.buf);
			strbuf_release(&why);
		}
		else if (json_is_true(json_object_get(p, "approximate")))
			strbuf_addf(&c->notes, "%s %s: approximate\n", what, td_json_str_or(p, "name", id));
		r->values[s] = v * scale;
	}
}

static struct td_chart *multistage_chart(json_t *ms)
{
	struct td_chart *c;
	json_t *st, *comp, *range;
	size_t i;

	if (!json_is_object(ms))
		return NULL;
	c = td_chart_new("multistage-stack", "Multi-stage CPI stacks (stage / Eyerman et al.'s name)",
			 TD_CHART_STACKED);
	c->ylabel = xstrdup("cycles per instruction");
	json_array_foreach(json_object_get(ms, "components"), i, comp)
		td_chart_add_series(c, td_json_str_or(comp, "id", "?"), td_json_str_or(comp, "name", NULL),
				    comp_colour(td_json_str_or(comp, "id", "?")));
	json_array_foreach(json_object_get(ms, "stages"), i, st) {
		struct strbuf label = STRBUF_INIT;

		if (!json_is_true(json_object_get(st, "available"))) {
			strbuf_addf(&c->notes, "%s stage: %s\n", td_json_str_or(st, "id", "?"),
				    td_json_str_or(st, "reason", "not available"));
			continue;
		}
		if (!td_stack_stage_computed(st)) {
			strbuf_addf(&c->notes, "%s stage: not computable from these counts\n",
				    td_json_str_or(st, "id", "?"));
			continue;
		}
		strbuf_addf(&label, "%s/%s", td_json_str_or(st, "id", "?"),
			    td_json_str_or(st, "paper_term", "?"));
		fill_row(c, td_chart_add_row(c, label.buf), json_object_get(st, "parts"), 1.0,
			 td_json_str_or(st, "id", "?"));
		strbuf_release(&label);
	}
	json_array_foreach(json_object_get(ms, "range"), i, range) {
		double lo = td_json_num(json_object_get(range, "min"));
		double hi = td_json_num(json_object_get(range, "max"));

		if (!isnan(lo) && hi > lo)
			strbuf_addf(&c->notes, "range of %s over the stages: %.3f - %.3f CPI\n",
				    td_json_str_or(range, "id", "?"), lo, hi);
	}
	if (!c->nrows) {
		td_chart_free(c);
		return NULL;
	}
	return c;
}

/* IPC and FLOPS stacks as shares of their peaks, so the two bars compare. */
static struct td_chart *ipc_flops_chart(json_t *ipc, json_t *fl)
{
	struct td_chart *c;
	int any = 0;

	static const struct { const char *id, *name; } order[] = {
		{ "base", "Base (achieved)" }, { "non_fma", "Non-FMA (FLOPS)" },
		{ "narrow", "Narrow vectors (FLOPS)" }, { "masked", "Masked lanes (FLOPS)" },
		{ "frontend", "Frontend (FLOPS: no vector-FP work)" }, { "branch", "Branch mispredictions" },
		{ "non_vfp", "Non-FP use of vector units (FLOPS)" }, { "memory", "Data cache / memory" },
		{ "long_latency", "Long-latency ops" }, { "dependence", "Dependences" },
		{ "other", "Other" },
	};
	size_t i;

	c = td_chart_new("ipc-flops-stack", "IPC and FLOPS stacks (% of each peak)", TD_CHART_STACKED);
	c->ylabel = xstrdup("% of peak");
	c->ymin = 0;
	c->ymax = 100;
	for (i = 0; i < TD_ARRAY_SIZE(order); i++)
		td_chart_add_series(c, order[i].id, order[i].name, comp_colour(order[i].id));
	if (json_is_true(json_object_get(ipc, "available"))) {
		double max = td_json_num(json_object_get(ipc, "max"));

		strbuf_addf(&c->notes, "IPC bar: 100 %% = %g uops per cycle\n", max);
		fill_row(c, td_chart_add_row(c, "IPC"), json_object_get(ipc, "parts"), 100.0 / max, "IPC");
		any = 1;
	} else {
		strbuf_addf(&c->notes, "IPC stack: %s\n", td_json_str_or(ipc, "reason", "not available"));
	}
	if (json_is_true(json_object_get(fl, "available"))) {
		double peak = td_json_num(json_object_get(fl, "peak"));

		strbuf_addf(&c->notes, "FLOPS bar: 100 %% = %.4g %s\n", peak, td_json_str_or(fl, "unit", ""));
		if (peak > 0) {
			fill_row(c, td_chart_add_row(c, "FLOPS"), json_object_get(fl, "parts"),
				 100.0 / peak, "FLOPS");
			any = 1;
		}
	} else {
		strbuf_addf(&c->notes, "FLOPS stack: %s\n", td_json_str_or(fl, "reason", "not available"));
	}
	if (!any) {
		td_chart_free(c);
		return NULL;
	}
	return c;
}

void td_charts_stacks(json_t *doc, struct td_chart_list *out)
{
	json_t *scope = td_report_main_scope(doc);
	json_t *stacks = json_object_get(scope, "stacks");
	struct td_chart *c;

	if (!json_is_object(stacks))
		return;
	if ((c = multistage_chart(json_object_get(stacks, "multistage"))))
		td_chart_list_add(out, c);
	if ((c = ipc_flops_chart(json_object_get(stacks, "ipc"), json_object_get(stacks, "flops"))))
		td_chart_list_add(out, c);
}
