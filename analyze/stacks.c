/*
 * The "stacks" object of a report scope (docs/report-schema.md, "stacks"):
 * the stacks of metrics/stacks.c turned into JSON.  Every renderer (text,
 * HTML, gnuplot, diff) reads this object, never the C structures, so all
 * formats show the same numbers with the same marks.
 *
 * JSON conventions: numbers that are not known are null and the object
 * carries a "reason"; parts that the CPU cannot measure have
 * "measurable": false; approximations have "approximate": true.
 */
#include <math.h>
#include <string.h>

#include "metrics/expr.h"
#include "metrics/stacks.h"
#include "metrics/table.h"
#include "metrics/tree.h"
#include "analyze/analyze-int.h"

static json_t *num(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *str(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *part_json(const struct td_stack_part *p)
{
	json_t *o = json_object();

	json_object_set_new(o, "id", json_string(p->id));
	json_object_set_new(o, "name", json_string(p->name));
	json_object_set_new(o, "value", p->measurable ? num(p->value) : json_null());
	json_object_set_new(o, "cycles", p->measurable ? num(p->cycles) : json_null());
	json_object_set_new(o, "measurable", json_boolean(p->measurable));
	json_object_set_new(o, "approximate", json_boolean(p->approximate));
	json_object_set_new(o, "reason", str(p->reason));
	json_object_set_new(o, "formula", str(p->formula));
	return o;
}

static json_t *parts_json(const struct td_stack_part *parts, int n)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, part_json(&parts[i]));
	return a;
}

/* The Top-Down CPI stack, in the shape the chart code reads. */
static json_t *cpi_json(const struct td_stacks *s)
{
	json_t *o = json_object(), *a = json_array();
	int approximate = 0;
	size_t i;

	json_object_set_new(o, "unit", json_string("cycles per instruction"));
	json_object_set_new(o, "cpi", num(s->cpi));
	json_object_set_new(o, "cycles", num(s->cycles));
	json_object_set_new(o, "instructions", num(s->instructions));
	for (i = 0; i < s->nr_cpi_parts; i++) {
		const struct td_cpi_part *cp = &s->cpi_parts[i];
		json_t *c = json_object();

		json_object_set_new(c, "id", json_string(cp->id));
		json_object_set_new(c, "name", str(cp->name));
		json_object_set_new(c, "level", json_integer(cp->level));
		json_object_set_new(c, "parent", str(cp->parent));
		json_object_set_new(c, "fraction", num(cp->fraction));
		json_object_set_new(c, "value", num(cp->cpi));
		json_object_set_new(c, "approximate", json_boolean(cp->approximate));
		json_object_set_new(c, "reason", str(cp->reason));
		json_array_append_new(a, c);
		approximate |= cp->approximate;
	}
	json_object_set_new(o, "approximate", json_boolean(approximate));
	json_object_set_new(o, "reason", str(s->reason ? s->reason
					     : !s->nr_cpi_parts ? "no Level-1/2 Top-Down nodes evaluated"
					     : NULL));
	json_object_set_new(o, "components", a);
	return o;
}

static json_t *multistage_json(const struct td_stacks *s)
{
	json_t *o = json_object(), *stages = json_array(), *comps = json_array();
	json_t *range = json_array();
	struct strbuf voc = STRBUF_INIT;
	int st, c;

	json_object_set_new(o, "unit", json_string("cycles per instruction"));
	for (c = 0; c < TD_SC__NR; c++) {
		json_t *cj = json_object();

		json_object_set_new(cj, "id", json_string(s->stages[0].parts[c].id));
		json_object_set_new(cj, "name", json_string(s->stages[0].parts[c].name));
		json_array_append_new(comps, cj);
	}
	json_object_set_new(o, "components", comps);
	for (st = 0; st < TD_STAGE__NR; st++) {
		const struct td_stage_stack *sg = &s->stages[st];
		json_t *sj = json_object();

		json_object_set_new(sj, "id", json_string(sg->id));
		json_object_set_new(sj, "name", json_string(sg->name));
		json_object_set_new(sj, "paper_term", json_string(sg->paper_term));
		json_object_set_new(sj, "vendor_term", json_string(sg->vendor_term));
		json_object_set_new(sj, "available", json_boolean(sg->available));
		json_object_set_new(sj, "reason", str(sg->reason));
		json_object_set_new(sj, "sum", sg->available ? num(sg->sum_cpi) : json_null());
		json_object_set_new(sj, "parts", parts_json(sg->parts, TD_SC__NR));
		json_array_append_new(stages, sj);
		strbuf_addf(&voc, "%s%s = Eyerman et al.'s \"%s\" = %s", st ? "; " : "",
			    sg->id, sg->paper_term, sg->vendor_term);
	}
	strbuf_addstr(&voc, ". Eyerman et al. (2018) call the allocation point \"dispatch\" and the start of "
		      "execution \"issue\"; Intel calls them the other way round (UOPS_ISSUED at "
		      "allocation, UOPS_DISPATCHED at execution).");
	json_object_set_new(o, "vocabulary", json_string(voc.buf));
	strbuf_release(&voc);
	json_object_set_new(o, "stages", stages);
	for (c = 0; c < TD_SC__NR; c++) {
		json_t *r = json_object();

		json_object_set_new(r, "id", json_string(s->stages[0].parts[c].id));
		json_object_set_new(r, "min", num(s->range_min[c]));
		json_object_set_new(r, "max", num(s->range_max[c]));
		json_array_append_new(range, r);
	}
	json_object_set_new(o, "range", range);
	return o;
}

static json_t *flops_json(const struct td_stacks *s)
{
	const struct td_flops_stack *f = &s->flops;
	json_t *o = json_object();

	json_object_set_new(o, "available", json_boolean(f->available));
	json_object_set_new(o, "reason", str(f->reason));
	if (!f->available)
		return o;
	json_object_set_new(o, "unit", json_string(f->unit));
	json_object_set_new(o, "precision", json_string(f->precision));
	json_object_set_new(o, "mixed_precision", json_boolean(f->mixed_precision));
	json_object_set_new(o, "flops", num(f->flops));
	json_object_set_new(o, "flops_sp", num(f->flops_sp));
	json_object_set_new(o, "flops_dp", num(f->flops_dp));
	json_object_set_new(o, "peak_per_cycle", num(f->peak_per_cycle));
	json_object_set_new(o, "seconds", num(f->seconds));
	json_object_set_new(o, "freq_ghz", num(f->freq_ghz));
	json_object_set_new(o, "peak", num(f->peak));
	json_object_set_new(o, "achieved", num(f->achieved));
	json_object_set_new(o, "order", json_string(f->order));
	json_object_set_new(o, "mix_stage", f->mix_stage >= 0
			    ? json_string(td_stack_stage_id(f->mix_stage)) : json_null());
	json_object_set_new(o, "parts", parts_json(f->parts, TD_FC__NR));
	return o;
}

static json_t *ipc_json(const struct td_stacks *s)
{
	const struct td_ipc_stack *ip = &s->ipc;
	json_t *o = json_object();

	json_object_set_new(o, "available", json_boolean(ip->available));
	json_object_set_new(o, "reason", str(ip->reason));
	if (!ip->available)
		return o;
	json_object_set_new(o, "unit", json_string("uops per cycle"));
	json_object_set_new(o, "stage", json_string(td_stack_stage_id(ip->stage)));
	json_object_set_new(o, "max", num(ip->max_ipc));
	json_object_set_new(o, "upc", num(ip->upc));
	json_object_set_new(o, "ipc", num(ip->ipc));
	json_object_set_new(o, "parts", parts_json(ip->parts, TD_SC__NR));
	return o;
}

static json_t *frontend_json(const struct td_stacks *s)
{
	const struct td_frontend *fe = &s->frontend;
	json_t *o = json_object(), *paths, *c, *hints;
	size_t i;

	json_object_set_new(o, "available", json_boolean(fe->available));
	json_object_set_new(o, "reason", str(fe->reason));
	if (!fe->available)
		return o;
	paths = json_array();
	for (i = 0; i < TD_FE__NR; i++) {
		const struct td_fe_path_value *pv = &fe->paths[i];
		json_t *p = json_object();

		json_object_set_new(p, "id", json_string(pv->id));
		json_object_set_new(p, "name", json_string(pv->name));
		json_object_set_new(p, "measured", json_boolean(pv->measured));
		json_object_set_new(p, "uops", num(pv->uops));
		json_object_set_new(p, "coverage", num(pv->coverage));
		json_object_set_new(p, "active_cycles", num(pv->active_cycles));
		json_object_set_new(p, "rate_active", num(pv->rate_active));
		json_object_set_new(p, "rate_overall", num(pv->rate_overall));
		json_object_set_new(p, "best_case_rate", num(pv->nominal_rate));
		json_object_set_new(p, "reason", str(pv->reason));
		json_array_append_new(paths, p);
	}
	json_object_set_new(o, "paths", paths);
	json_object_set_new(o, "delivered_uops", num(fe->delivered_uops));
	json_object_set_new(o, "uops_per_instruction", num(fe->uops_per_insn));
	json_object_set_new(o, "avg_instruction_bytes", num(fe->avg_insn_bytes));
	json_object_set_new(o, "avg_instruction_bytes_assumed", json_boolean(fe->avg_insn_assumed));
	json_object_set_new(o, "code_beyond_l2_share", num(fe->code_beyond_l2_share));
	c = json_object();
	json_object_set_new(c, "unit", json_string("uops per cycle"));
	json_object_set_new(c, "path_limit", num(fe->path_limit));
	json_object_set_new(c, "fetch_limit", num(fe->fetch_limit));
	json_object_set_new(c, "fetch_level", str(fe->fetch_level));
	json_object_set_new(c, "retire_width", num(fe->retire_width));
	json_object_set_new(c, "value", num(fe->ceiling));
	json_object_set_new(c, "binding", str(fe->binding));
	json_object_set_new(c, "measured_upc", num(fe->measured_upc));
	json_object_set_new(c, "headroom", num(fe->headroom));
	json_object_set_new(c, "approximate", json_boolean(fe->avg_insn_assumed));
	json_object_set_new(c, "reason", str(fe->ceiling_reason ? fe->ceiling_reason
		: fe->avg_insn_assumed ? "the average instruction size is assumed, not measured"
		: NULL));
	json_object_set_new(o, "ceiling", c);
	hints = json_array();
	for (i = 0; i < fe->nr_hints; i++)
		json_array_append_new(hints, json_string(fe->hints[i]));
	json_object_set_new(o, "hints", hints);
	return o;
}

json_t *td_report_stacks_json(const struct td_stacks *s)
{
	json_t *o = json_object(), *w = json_array();
	size_t i;

	json_object_set_new(o, "cycles", num(s->cycles));
	json_object_set_new(o, "instructions", num(s->instructions));
	json_object_set_new(o, "uops_retired", num(s->uops_retired));
	json_object_set_new(o, "reason", str(s->reason));
	json_object_set_new(o, "cpi", cpi_json(s));
	json_object_set_new(o, "multistage", multistage_json(s));
	json_object_set_new(o, "flops", flops_json(s));
	json_object_set_new(o, "ipc", ipc_json(s));
	json_object_set_new(o, "frontend", frontend_json(s));
	for (i = 0; i < s->nr_warnings; i++)
		json_array_append_new(w, json_string(s->warnings[i]));
	json_object_set_new(o, "warnings", w);
	return o;
}

int td_report_fill_stacks(json_t *scope, const struct td_table *t, const struct td_env *env,
			  const struct td_tree_result *tree)
{
	struct td_stacks s;

	if (td_stacks_compute(t, env, tree, &s) < 0)
		return -1;
	json_object_set_new(scope, "stacks", td_report_stacks_json(&s));
	td_stacks_release(&s);
	return 0;
}

int td_stack_stage_computed(json_t *stage)
{
	json_t *p;
	size_t j;

	if (!json_is_true(json_object_get(stage, "available")))
		return 0;
	json_array_foreach(json_object_get(stage, "parts"), j, p) {
		const char *id = td_json_str_or(p, "id", "");

		if (strcmp(id, "base") && strcmp(id, "other") && !isnan(td_json_num(json_object_get(p, "value"))))
			return 1;
	}
	return 0;
}
