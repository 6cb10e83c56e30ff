/*
 * Cycle stacks (Eyerman et al. 2018 and Forte 2021): the Top-Down CPI stack, the
 * multi-stage CPI stacks, the FLOPS and IPC stacks, and the frontend
 * delivery analysis.
 *
 * The formulas are data: each table carries "stack_*" metrics (cycles,
 * counts) and "stacks" parameters (peak FLOPs, fetch bandwidths, ...),
 * documented in docs/stacks.md.  This file only combines evaluated
 * metrics: it never names an event.  What a CPU cannot count is absent
 * from its table, and shows here as "not measurable on this CPU".
 *
 * Conventions: every part has its cycles for the scope and its value in
 * the stack's unit; NAN always comes with a reason; the "other" part of a
 * stage is the residual (cycles not attributed to a measured component),
 * so every stage sums to CPI by construction and a negative residual is
 * reported, not hidden.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/expr.h"
#include "metrics/stacks.h"
#include "metrics/table.h"
#include "metrics/tree.h"
#include "metrics/stacks-int.h"

/* ---- names ---- */

static const struct {
	const char *id, *name;
} comp_names[TD_SC__NR] = {
	[TD_SC_BASE] = { "base", "Base" },
	[TD_SC_FRONTEND] = { "frontend", "Frontend / i-cache" },
	[TD_SC_BRANCH] = { "branch", "Branch mispredictions" },
	[TD_SC_MEMORY] = { "memory", "Data cache / memory" },
	[TD_SC_LONG_LATENCY] = { "long_latency", "Long-latency ops" },
	[TD_SC_DEPENDENCE] = { "dependence", "Dependences" },
	[TD_SC_OTHER] = { "other", "Other" },
};

static const struct {
	const char *id, *name, *paper, *intel, *amd;
} stage_names[TD_STAGE__NR] = {
	[TD_STAGE_ALLOC] = { "alloc", "Allocation", "dispatch",
		"issue / allocation (UOPS_ISSUED, Top-Down slots)",
		"dispatch (Top-Down dispatch slots)" },
	[TD_STAGE_EXECUTE] = { "execute", "Execute", "issue",
		"dispatch / execute (CYCLE_ACTIVITY, EXE_ACTIVITY, RS_EVENTS)",
		"issue / execute (schedulers)" },
	[TD_STAGE_RETIRE] = { "retire", "Retire", "commit",
		"retire (UOPS_RETIRED.STALL_CYCLES)",
		"retire (ex_no_retire)" },
};

static const struct {
	const char *id, *name;
} flops_names[TD_FC__NR] = {
	[TD_FC_BASE] = { "base", "Base (achieved)" },
	[TD_FC_NON_FMA] = { "non_fma", "Non-FMA" },
	[TD_FC_NARROW] = { "narrow", "Narrow vectors" },
	[TD_FC_MASKED] = { "masked", "Masked lanes" },
	[TD_FC_FRONTEND] = { "frontend", "No vector-FP work (frontend)" },
	[TD_FC_NON_VFP] = { "non_vfp", "Non-FP use of vector units" },
	[TD_FC_MEMORY] = { "memory", "Memory" },
	[TD_FC_DEPENDENCE] = { "dependence", "Dependences" },
	[TD_FC_OTHER] = { "other", "Other" },
};

static const struct {
	const char *id, *name;
} path_names[TD_FE__NR] = {
	[TD_FE_DSB] = { "dsb", "DSB (decoded uop cache)" },
	[TD_FE_MITE] = { "mite", "MITE (legacy decode)" },
	[TD_FE_MS] = { "ms", "MS (microcode sequencer)" },
	[TD_FE_LSD] = { "lsd", "LSD (loop stream detector)" },
};

const char *td_stack_comp_id(enum td_stack_comp c)
{
	return c < TD_SC__NR ? comp_names[c].id : NULL;
}

const char *td_stack_stage_id(enum td_stack_stage s)
{
	return s < TD_STAGE__NR ? stage_names[s].id : NULL;
}

/* ---- small helpers ---- */

static char *xstrfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xstrfmt(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb, NULL);
}

static void add_warning(struct td_stacks *s, char *msg)
{
	s->warnings = xrealloc(s->warnings, (s->nr_warnings + 1) * sizeof(*s->warnings));
	s->warnings[s->nr_warnings++] = msg;
}

static void add_hint(struct td_frontend *fe, char *msg)
{
	fe->hints = xrealloc(fe->hints, (fe->nr_hints + 1) * sizeof(*fe->hints));
	fe->hints[fe->nr_hints++] = msg;
}

static const struct td_stack_metric *get_metric(const struct td_stack_input *in, const char *id)
{
	return in->metric ? in->metric(in->ctx, id) : NULL;
}

static double param_num(const struct td_stack_input *in, const char *key, double dflt)
{
	double v;

	if (in->param_num && in->param_num(in->ctx, key, &v))
		return v;
	return dflt;
}

static const char *param_str(const struct td_stack_input *in, const char *key)
{
	return in->param_str ? in->param_str(in->ctx, key) : NULL;
}

/* The metric's value, or NAN when it is absent. */
static double metric_value(const struct td_stack_input *in, const char *id)
{
	const struct td_stack_metric *m = get_metric(in, id);

	return m ? m->value : NAN;
}

static void part_init(struct td_stack_part *p, const char *id, const char *name)
{
	memset(p, 0, sizeof(*p));
	p->id = id;
	p->name = name;
	p->cycles = NAN;
	p->value = NAN;
	p->measurable = 1;
}

static void part_release(struct td_stack_part *p)
{
	free(p->reason);
	free(p->formula);
	p->reason = p->formula = NULL;
}

static void part_set_reason(struct td_stack_part *p, char *reason)
{
	free(p->reason);
	p->reason = reason;
}

/*
 * Fill a part from table metric 'id'.  Absent: not measurable on this CPU
 * (with the table's parameter "notmeasurable.<id>" as the reason when it
 * has one).  Present: its cycles, formula, and the approximation note of
 * the formula used (or the parameter "approximate.<id>").  Returns 1 when
 * the metric exists.
 */
static int part_from_metric(const struct td_stack_input *in, struct td_stack_part *p,
			    const char *id)
{
	const struct td_stack_metric *m = get_metric(in, id);
	struct strbuf key = STRBUF_INIT;
	const char *note;

	if (!m) {
		strbuf_addf(&key, "notmeasurable.%s", id);
		note = param_str(in, key.buf);
		p->measurable = 0;
		part_set_reason(p, note ? xstrfmt("not measurable on this CPU: %s", note)
				       : xstrdup("not measurable on this CPU"));
		strbuf_release(&key);
		return 0;
	}
	p->cycles = m->value;
	p->formula = xstrdup(m->formula ? m->formula : id);
	if (isnan(m->value)) {
		part_set_reason(p, xstrdup(m->reason ? m->reason : "could not be computed"));
	} else {
		strbuf_addf(&key, "approximate.%s", id);
		note = param_str(in, key.buf);
		if (m->approximate || note) {
			p->approximate = 1;
			if (m->approximate && m->note)
				note = m->note;
			part_set_reason(p, xstrfmt("approximation: %s",
						   note ? note : "formula marked approximate"));
		}
	}
	strbuf_release(&key);
	return 1;
}

/* ---- Top-Down CPI stack ---- */

/*
 * CPI x each Level-1 and Level-2 node of the tree (Yasin 2014): absolute
 * cycles per instruction, comparable across CPUs where the fractions alone
 * would hide that one core is faster (docs/stacks.md).
 */
static void build_cpi_stack(const struct td_stack_input *in, struct td_stacks *s)
{
	double l1_sum = 0;
	int l1_n = 0;
	size_t i;

	for (i = 0; i < in->nr_nodes; i++) {
		const struct td_node_value *nv = &in->nodes[i];
		struct td_cpi_part *cp;

		if (!nv->metric || nv->metric->level < 1 || nv->metric->level > 2)
			continue;
		s->cpi_parts = xrealloc(s->cpi_parts, (s->nr_cpi_parts + 1) * sizeof(*s->cpi_parts));
		cp = &s->cpi_parts[s->nr_cpi_parts++];
		cp->id = nv->metric->id;
		cp->name = nv->metric->name;
		cp->parent = nv->metric->parent;
		cp->level = nv->metric->level;
		cp->fraction = nv->value;
		cp->cpi = nv->value * s->cpi;
		cp->approximate = nv->approximate;
		cp->reason = nv->reason ? xstrdup(nv->reason) : NULL;
		if (cp->level == 1 && !isnan(nv->value)) {
			l1_sum += nv->value;
			l1_n++;
		}
	}
	if (l1_n && fabs(l1_sum - 1.0) > 0.05)
		add_warning(s, xstrfmt("CPI stack: the Level-1 fractions sum to %.3f, not 1; "
				       "the CPI components do not add up to CPI "
				       "(multiplexed or mismatched counts?)", l1_sum));
}

/* ---- multi-stage CPI stacks ---- */

static const char *stage_vendor_term(const struct td_stack_input *in, int st)
{
	struct strbuf key = STRBUF_INIT;
	const char *v;

	strbuf_addf(&key, "stage.%s.vendor_term", stage_names[st].id);
	v = param_str(in, key.buf);
	strbuf_release(&key);
	if (v)
		return v;
	if (in->vendor && !strcmp(in->vendor, "AuthenticAMD"))
		return stage_names[st].amd;
	return stage_names[st].intel;
}

/*
 * One stage: base (shared), the measured components from the table's
 * "stack_<stage>_<comp>" metrics, and Other = cycles - sum(the rest).
 */
static void build_stage(const struct td_stack_input *in, struct td_stacks *s, int st)
{
	struct td_stage_stack *sg = &s->stages[st];
	struct strbuf id = STRBUF_INIT, sum_text = STRBUF_INIT;
	double attributed = 0;
	const char *missing = NULL;
	int c, any = 0;

	sg->id = stage_names[st].id;
	sg->name = stage_names[st].name;
	sg->paper_term = stage_names[st].paper;
	sg->vendor_term = stage_vendor_term(in, st);
	sg->sum_cpi = NAN;
	for (c = 0; c < TD_SC__NR; c++)
		part_init(&sg->parts[c], comp_names[c].id, comp_names[c].name);

	for (c = TD_SC_FRONTEND; c < TD_SC_OTHER; c++) {
		strbuf_reset(&id);
		strbuf_addf(&id, "stack_%s_%s", sg->id, comp_names[c].id);
		if (get_metric(in, id.buf))
			any = 1;
	}
	if (!any) {
		const char *why;

		strbuf_reset(&id);
		strbuf_addf(&id, "stage.%s.unavailable", sg->id);
		why = param_str(in, id.buf);
		sg->available = 0;
		sg->reason = why ? xstrfmt("cannot be built on this CPU: %s", why)
				 : xstrfmt("cannot be built on this CPU: the table has no %s-stage "
					   "stall metrics", sg->id);
		for (c = 0; c < TD_SC__NR; c++) {
			sg->parts[c].measurable = 0;
			part_set_reason(&sg->parts[c], xstrdup("stage not available"));
		}
		goto out;
	}
	sg->available = 1;

	for (c = TD_SC_BASE; c < TD_SC_OTHER; c++) {
		struct td_stack_part *p = &sg->parts[c];

		strbuf_reset(&id);
		if (c == TD_SC_BASE)
			strbuf_addstr(&id, "stack_base");
		else
			strbuf_addf(&id, "stack_%s_%s", sg->id, comp_names[c].id);
		if (!part_from_metric(in, p, id.buf)) {
			if (c == TD_SC_BASE)
				missing = "base";
			continue;
		}
		strbuf_addf(&sum_text, "%s%s", sum_text.len ? " + " : "", comp_names[c].id);
		if (isnan(p->cycles)) {
			if (!missing)
				missing = comp_names[c].id;
			continue;
		}
		attributed += p->cycles;
	}

	/* Other: what no measured component claims. */
	{
		struct td_stack_part *o = &sg->parts[TD_SC_OTHER];

		o->formula = xstrfmt("cycles - (%s)", sum_text.len ? sum_text.buf : "0");
		o->approximate = 1;
		if (isnan(s->cycles)) {
			part_set_reason(o, xstrdup("cycles not known"));
		} else if (missing) {
			part_set_reason(o, xstrfmt("residual not computable: %s is not known", missing));
		} else {
			o->cycles = s->cycles - attributed;
			part_set_reason(o, xstrdup("residual: cycles not attributed to a measured "
						   "component (partial-width cycles, and components "
						   "not measurable on this CPU)"));
			if (o->cycles < -0.01 * s->cycles)
				add_warning(s, xstrfmt("%s stack: measured components exceed the cycles "
						       "by %.1f%%, so Other is negative (counters overlap, "
						       "or counts from different time windows)",
						       sg->name, -100.0 * o->cycles / s->cycles));
		}
	}

	sg->sum_cpi = 0;
	for (c = 0; c < TD_SC__NR; c++) {
		struct td_stack_part *p = &sg->parts[c];

		if (!p->measurable)
			continue;
		p->value = p->cycles / s->instructions;
		if (isnan(p->value))
			sg->sum_cpi = NAN;
		else
			sg->sum_cpi += p->value;
	}
out:
	strbuf_release(&id);
	strbuf_release(&sum_text);
}

/* Per-component min and max over the stages that have it (Eyerman et al. 2018, Fig. 3). */
static void build_ranges(struct td_stacks *s)
{
	int c, st;

	for (c = 0; c < TD_SC__NR; c++) {
		s->range_min[c] = s->range_max[c] = NAN;
		for (st = 0; st < TD_STAGE__NR; st++) {
			const struct td_stage_stack *sg = &s->stages[st];
			double v = sg->parts[c].value;

			if (!sg->available || !sg->parts[c].measurable || isnan(v))
				continue;
			if (isnan(s->range_min[c]) || v < s->range_min[c])
				s->range_min[c] = v;
			if (isnan(s->range_max[c]) || v > s->range_max[c])
				s->range_max[c] = v;
		}
	}
}

/*
 * The stage whose mix splits cycles that counters cannot attribute by
 * themselves (FLOPS stack) and that the IPC stack is drawn from: the
 * execute stage (Eyerman et al. 2018's issue stage, where FLOPS stacks live), else
 * allocation, else retire; it must be complete.  -1 when none is.
 */
static int pick_mix_stage(const struct td_stacks *s)
{
	static const int order[] = { TD_STAGE_EXECUTE, TD_STAGE_ALLOC, TD_STAGE_RETIRE };
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(order); i++) {
		const struct td_stage_stack *sg = &s->stages[order[i]];
		int c, ok = sg->available;

		for (c = 0; ok && c < TD_SC__NR; c++)
			if (sg->parts[c].measurable && isnan(sg->parts[c].cycles))
				ok = 0;
		if (ok)
			return order[i];
	}
	return -1;
}

/* ---- IPC stack ---- */

/*
 * The mix stage's components divided by cycles and multiplied by the
 * maximum IPC (Eyerman et al. 2018, section V-B): the base is the achieved uops per
 * cycle, the height the pipeline width.
 */
static void build_ipc(const struct td_stack_input *in, struct td_stacks *s, int mix)
{
	struct td_ipc_stack *ip = &s->ipc;
	int c;

	ip->stage = mix;
	ip->max_ipc = param_num(in, "ipc.max", in->slots_per_cycle);
	ip->upc = s->uops_retired / s->cycles;
	ip->ipc = s->instructions / s->cycles;
	for (c = 0; c < TD_SC__NR; c++)
		part_init(&ip->parts[c], comp_names[c].id, comp_names[c].name);
	if (mix < 0) {
		ip->reason = xstrdup("no complete stage stack to draw it from");
		return;
	}
	if (!(ip->max_ipc > 0)) {
		ip->reason = xstrdup("the table gives no pipeline width");
		return;
	}
	ip->available = 1;
	for (c = 0; c < TD_SC__NR; c++) {
		const struct td_stack_part *sp = &s->stages[mix].parts[c];
		struct td_stack_part *p = &ip->parts[c];

		p->measurable = sp->measurable;
		p->approximate = sp->approximate;
		p->cycles = sp->cycles;
		p->value = sp->cycles / s->cycles * ip->max_ipc;
		p->formula = xstrfmt("%s-stage %s cycles / cycles x %g",
				     s->stages[mix].id, comp_names[c].id, ip->max_ipc);
		if (sp->reason)
			p->reason = xstrdup(sp->reason);
	}
}

/* ---- FLOPS stack ---- */

/*
 * Eyerman et al. 2018, Table III, with counters.  Each cycle contributes exactly 1:
 * base = FLOPs / M (width-equivalent when both precisions occur), the
 * measurable losses (narrow vectors, non-FMA) come from table metrics, and
 * the cycles left (FP units idle) are split by the mix stage: its base,
 * frontend and branch cycles mean "no vector-FP work delivered", memory
 * means waiting on loads, long latency and dependence mean dependences.
 */
static void build_flops(const struct td_stack_input *in, struct td_stacks *s, int mix)
{
	struct td_flops_stack *f = &s->flops;
	double peak_sp = param_num(in, "flops.peak_sp", NAN);
	double peak_dp = param_num(in, "flops.peak_dp", NAN);
	const struct td_stack_metric *m_sp = get_metric(in, "stack_flops_sp");
	const struct td_stack_metric *m_dp = get_metric(in, "stack_flops_dp");
	const struct td_stack_metric *m_all = get_metric(in, "stack_flops_all");
	const char *order = param_str(in, "flops.order");
	const char *note;
	double idle, base_cycles, scale;
	int c, i;

	for (c = 0; c < TD_FC__NR; c++)
		part_init(&f->parts[c], flops_names[c].id, flops_names[c].name);
	f->flops = f->flops_sp = f->flops_dp = NAN;
	f->peak_per_cycle = f->seconds = f->freq_ghz = f->peak = f->achieved = NAN;
	f->mix_stage = -1;
	f->order = order ? order : "narrow_first";

	if (!m_sp && !m_dp && !m_all) {
		note = param_str(in, "flops.unavailable");
		f->reason = note ? xstrfmt("not measurable on this CPU: %s", note)
				 : xstrdup("not measurable on this CPU: the table has no "
					   "FP-arithmetic counters");
		return;
	}
	if (isnan(peak_sp) && isnan(peak_dp)) {
		f->reason = xstrdup("the table gives no peak FLOPs per cycle (flops.peak_sp/peak_dp)");
		return;
	}
	if (isnan(s->cycles) || !(s->cycles > 0)) {
		f->reason = xstrdup("cycles not known");
		return;
	}

	/* FLOP counts and the precision the stack is drawn against. */
	if (m_sp || m_dp) {
		f->flops_sp = m_sp ? m_sp->value : 0;
		f->flops_dp = m_dp ? m_dp->value : 0;
		f->flops = f->flops_sp + f->flops_dp;
		if (isnan(f->flops)) {
			const struct td_stack_metric *bad = m_sp && isnan(m_sp->value) ? m_sp : m_dp;

			f->reason = xstrfmt("FLOPs not known: %s", bad->reason ? bad->reason : bad->id);
			return;
		}
		f->precision = f->flops_dp > f->flops_sp ? "dp" : "sp";
		if (isnan(peak_sp) || isnan(peak_dp)) {
			f->reason = xstrdup("the table gives the peak of one precision only");
			return;
		}
		f->mixed_precision = f->flops_sp > 0.01 * f->flops && f->flops_dp > 0.01 * f->flops;
		base_cycles = f->flops_sp / peak_sp + f->flops_dp / peak_dp;
		f->peak_per_cycle = !strcmp(f->precision, "dp") ? peak_dp : peak_sp;
	} else {
		const char *prec = param_str(in, "flops.precision_assumed");

		f->flops = m_all->value;
		if (isnan(f->flops)) {
			f->reason = xstrfmt("FLOPs not known: %s", m_all->reason ? m_all->reason : m_all->id);
			return;
		}
		f->precision = prec && !strcmp(prec, "sp") ? "sp" : "dp";
		f->peak_per_cycle = !strcmp(f->precision, "dp") ? peak_dp : peak_sp;
		if (isnan(f->peak_per_cycle)) {
			f->reason = xstrdup("the table gives no peak for the assumed precision");
			return;
		}
		base_cycles = f->flops / f->peak_per_cycle;
	}
	f->available = 1;

	f->seconds = metric_value(in, "stack_seconds");
	if (f->seconds > 0) {
		f->freq_ghz = s->cycles / f->seconds / 1e9;
		scale = f->peak_per_cycle / f->seconds / 1e9;	/* GFLOP/s per cycle of the stack */
		f->unit = "GFLOP/s";
		f->achieved = f->flops / f->seconds / 1e9;
	} else {
		f->seconds = NAN;
		scale = f->peak_per_cycle / s->cycles;
		f->unit = "FLOP/cycle";
		f->achieved = f->flops / s->cycles;
	}
	f->peak = s->cycles * scale;

	/* Base. */
	f->parts[TD_FC_BASE].cycles = base_cycles;
	f->parts[TD_FC_BASE].formula = (m_sp || m_dp)
		? xstrfmt("stack_flops_sp / %g + stack_flops_dp / %g", peak_sp, peak_dp)
		: xstrfmt("stack_flops_all / %g", f->peak_per_cycle);
	if (m_all && !m_sp && !m_dp) {
		f->parts[TD_FC_BASE].approximate = 1;
		f->parts[TD_FC_BASE].reason = xstrfmt("this CPU does not count the precision of "
			"FLOPs: the stack assumes %s (peak %g FLOP/cycle)",
			!strcmp(f->precision, "dp") ? "double precision" : "single precision",
			f->peak_per_cycle);
	} else if (f->mixed_precision) {
		f->parts[TD_FC_BASE].approximate = 1;
		f->parts[TD_FC_BASE].reason = xstrfmt("both precisions occur: each FLOP takes the "
			"time of its own precision's peak, and the stack is drawn against the %s peak",
			f->precision);
	}

	/* Measurable FP-work losses. */
	idle = s->cycles - base_cycles;
	part_from_metric(in, &f->parts[TD_FC_NARROW], "stack_flops_narrow");
	part_from_metric(in, &f->parts[TD_FC_NON_FMA], "stack_flops_non_fma");
	for (i = TD_FC_NON_FMA; i <= TD_FC_NARROW; i++) {
		if (f->parts[i].measurable)
			idle -= f->parts[i].cycles;
	}
	note = param_str(in, "notmeasurable.stack_flops_masked");
	f->parts[TD_FC_MASKED].measurable = 0;
	f->parts[TD_FC_MASKED].reason = xstrfmt("not measurable on this CPU: %s",
		note ? note : "counters count instructions or FLOPs, not the lanes a mask disables");
	note = param_str(in, "notmeasurable.stack_flops_non_vfp");
	f->parts[TD_FC_NON_VFP].measurable = 0;
	f->parts[TD_FC_NON_VFP].reason = xstrfmt("not measurable on this CPU: %s",
		note ? note : "no counter gives the vector-unit cycles taken by non-FP instructions");

	/* Idle FP-unit cycles, split by the mix stage. */
	f->mix_stage = mix;
	if (isnan(idle)) {
		for (i = TD_FC_FRONTEND; i <= TD_FC_OTHER; i++)
			if (i != TD_FC_NON_VFP)
				f->parts[i].reason = xstrdup("idle FP-unit cycles not known");
	} else if (mix < 0) {
		for (i = TD_FC_FRONTEND; i <= TD_FC_DEPENDENCE; i++) {
			if (i == TD_FC_NON_VFP)
				continue;
			f->parts[i].measurable = 0;
			f->parts[i].reason = xstrdup("not measurable on this CPU: no complete stage "
						     "stack to split the idle FP-unit cycles");
		}
		f->parts[TD_FC_OTHER].cycles = idle;
		f->parts[TD_FC_OTHER].formula = xstrdup("cycles - base - narrow - non_fma");
		f->parts[TD_FC_OTHER].reason = xstrdup("FP units idle for reasons these counters "
						       "cannot separate");
	} else {
		const struct td_stage_stack *sg = &s->stages[mix];
		static const struct {
			int fc;
			int sc[3];
			const char *text;
		} map[] = {
			{ TD_FC_FRONTEND, { TD_SC_BASE, TD_SC_FRONTEND, TD_SC_BRANCH },
			  "base + frontend + branch" },
			{ TD_FC_MEMORY, { TD_SC_MEMORY, -1, -1 }, "memory" },
			{ TD_FC_DEPENDENCE, { TD_SC_LONG_LATENCY, TD_SC_DEPENDENCE, -1 },
			  "long_latency + dependence" },
			{ TD_FC_OTHER, { TD_SC_OTHER, -1, -1 }, "other" },
		};
		size_t k;

		for (k = 0; k < TD_ARRAY_SIZE(map); k++) {
			struct td_stack_part *p = &f->parts[map[k].fc];
			double share = 0;
			int j;

			for (j = 0; j < 3 && map[k].sc[j] >= 0; j++) {
				const struct td_stack_part *sp = &sg->parts[map[k].sc[j]];

				if (sp->measurable)
					share += sp->cycles / s->cycles;
			}
			p->cycles = idle * share;
			p->approximate = 1;
			p->formula = xstrfmt("(cycles - base - narrow - non_fma) x (%s-stage %s) / cycles",
					     sg->id, map[k].text);
			p->reason = xstrfmt("approximation: counters cannot tell what the FP units "
					    "waited for, so the idle FP-unit cycles follow the %s-stage "
					    "CPI stack", sg->id);
		}
	}
	if (idle < -0.01 * s->cycles)
		add_warning(s, xstrfmt("FLOPS stack: base and measured losses exceed the cycles by "
				       "%.1f%% (peak FLOPs/cycle in the table too low, or counts from "
				       "different time windows)", -100.0 * idle / s->cycles));

	for (c = 0; c < TD_FC__NR; c++) {
		struct td_stack_part *p = &f->parts[c];

		if (p->measurable)
			p->value = p->cycles * scale;
	}
}

/* ---- frontend delivery (Forte 2021) ---- */

static double fe_param(const struct td_stack_input *in, const char *key, double dflt)
{
	struct strbuf k = STRBUF_INIT;
	double v;

	strbuf_addf(&k, "frontend.%s", key);
	v = param_num(in, k.buf, dflt);
	strbuf_release(&k);
	return v;
}

/*
 * What each delivery path (DSB, MITE, MS, LSD) did: its uops, the cycles
 * it was active and its rates.  A path the table has no uop metric for is
 * not measurable on this CPU.  Returns whether any path was measured.
 */
static int frontend_paths(const struct td_stack_input *in, struct td_stacks *s)
{
	struct td_frontend *fe = &s->frontend;
	double cycles = s->cycles;
	int p, any = 0;

	for (p = 0; p < TD_FE__NR; p++) {
		struct td_fe_path_value *pv = &fe->paths[p];
		struct strbuf k = STRBUF_INIT;
		const char *name;

		pv->id = path_names[p].id;
		strbuf_addf(&k, "frontend.%s.name", pv->id);
		name = param_str(in, k.buf);
		pv->name = name ? name : path_names[p].name;
		pv->uops = pv->coverage = pv->active_cycles = NAN;
		pv->rate_active = pv->rate_overall = NAN;
		strbuf_reset(&k);
		strbuf_addf(&k, "%s.rate", pv->id);
		pv->nominal_rate = fe_param(in, k.buf, NAN);
		strbuf_reset(&k);
		strbuf_addf(&k, "stack_fe_%s_uops", pv->id);
		if (!get_metric(in, k.buf)) {
			strbuf_reset(&k);
			strbuf_addf(&k, "notmeasurable.stack_fe_%s_uops", pv->id);
			name = param_str(in, k.buf);
			pv->reason = name ? xstrfmt("not measurable on this CPU: %s", name)
					  : xstrdup("not measurable on this CPU");
			strbuf_release(&k);
			continue;
		}
		pv->measured = 1;
		any = 1;
		pv->uops = metric_value(in, k.buf);
		if (!isnan(pv->uops))
			fe->delivered_uops += pv->uops;
		else
			fe->delivered_uops = NAN;
		strbuf_reset(&k);
		strbuf_addf(&k, "stack_fe_%s_cycles", pv->id);
		if (get_metric(in, k.buf)) {
			pv->active_cycles = metric_value(in, k.buf);
			if (pv->active_cycles == 0)
				pv->reason = xstrdup("the path delivered nothing: no rate while active");
			else
				pv->rate_active = pv->uops / pv->active_cycles;
		} else {
			pv->reason = xstrdup("rate while active not measurable on this CPU: "
					     "no cycle counter for this path");
		}
		pv->rate_overall = pv->uops / cycles;
		strbuf_release(&k);
	}
	return any;
}

/*
 * Each path's coverage, and the path limit: the uops per cycle the paths
 * deliver at their best-case rates (Forte 2021), weighted by how much of
 * the code each one delivered.
 */
static void frontend_path_limit(const struct td_stack_input *in, struct td_frontend *fe)
{
	double time_per_uop = 0;
	const char *why_path = NULL;
	int p;

	for (p = 0; p < TD_FE__NR; p++) {
		struct td_fe_path_value *pv = &fe->paths[p];
		double r;

		if (!pv->measured)
			continue;
		pv->coverage = pv->uops / fe->delivered_uops;
		/*
		 * Forte 2021's best-case rate of the path; MITE's is the fetch
		 * window over the instruction size, capped by the decoders.
		 */
		r = pv->nominal_rate;
		if (p == TD_FE_MITE) {
			double window = fe_param(in, "mite_bytes_per_cycle", NAN);
			double by_bytes = window / fe->avg_insn_bytes * fe->uops_per_insn;

			if (!isnan(by_bytes) && (isnan(r) || by_bytes < r))
				r = by_bytes;
			pv->nominal_rate = r;
		}
		if (!(pv->coverage > 0))
			continue;
		if (isnan(r) || r <= 0)
			r = pv->rate_active;	/* no best case known: what it did */
		if (isnan(r) || r <= 0) {
			why_path = pv->id;
			continue;
		}
		time_per_uop += pv->coverage / r;
	}
	if (why_path)
		fe->ceiling_reason = xstrfmt("no delivery rate known for the %s path", why_path);
	else if (time_per_uop > 0)
		fe->path_limit = 1.0 / time_per_uop;
}

/*
 * Fetch limit: only legacy-decoded uops need instruction bytes; the
 * bytes come from L1/L2 at the MITE window, from L3 or DRAM at their
 * fetch bandwidths, in the shares the code misses say.
 */
static void frontend_fetch_limit(const struct td_stack_input *in, struct td_stacks *s)
{
	struct td_frontend *fe = &s->frontend;
	double mite_bw = fe_param(in, "mite_bytes_per_cycle", NAN);
	double l3_bw = fe_param(in, "l3_bytes_per_cycle", NAN);
	double dram_bw = fe_param(in, "dram_bytes_per_cycle", NAN);
	double beyond_l2 = metric_value(in, "stack_fe_code_l2_miss_bytes");
	double beyond_l3 = metric_value(in, "stack_fe_code_l3_miss_bytes");
	double bytes = s->instructions * fe->avg_insn_bytes;
	double s2 = beyond_l2 / bytes, s3 = beyond_l3 / bytes;
	double t12, t3, td, mite_cov = fe->paths[TD_FE_MITE].coverage;

	if (isnan(s3))
		s3 = 0;
	if (s2 > 1) {
		add_warning(s, xstrfmt("frontend: code fetched from beyond L2 (%.0f bytes) exceeds "
				       "the executed code bytes (%.0f, at %.1f bytes per "
				       "instruction): taking all code from L3 or beyond",
				       beyond_l2, bytes, fe->avg_insn_bytes));
		s2 = 1;
	}
	if (s3 > s2)
		s3 = s2;
	fe->code_beyond_l2_share = s2;
	if (isnan(s2))
		s2 = 0;	/* not counted here: treat all code as L1/L2 resident */
	t12 = (1 - s2) * fe->avg_insn_bytes / mite_bw;
	t3 = (s2 - s3) * fe->avg_insn_bytes / l3_bw;
	td = s3 > 0 ? s3 * fe->avg_insn_bytes / dram_bw : 0;
	if (isnan(mite_cov) || !fe->paths[TD_FE_MITE].measured) {
		if (!fe->ceiling_reason)
			fe->ceiling_reason = xstrdup("legacy-decode share not measured");
	} else if (mite_cov <= 0) {
		fe->fetch_limit = INFINITY;	/* nothing needs fetching */
		fe->fetch_level = "L1/L2";
	} else if (!isnan(t12 + (s2 - s3 > 0 ? t3 : 0) + td)) {
		double t = t12 + (s2 - s3 > 0 ? t3 : 0) + td;

		/* cycles per MITE instruction -> uops per cycle over all uops */
		fe->fetch_limit = fe->uops_per_insn / (t * mite_cov);
		fe->fetch_level = t3 > t12 && t3 >= td ? "L3" : td > t12 && td > t3 ? "DRAM" : "L1/L2";
	} else if (!fe->ceiling_reason) {
		fe->ceiling_reason = xstrdup("the table gives no fetch bandwidths");
	}
}

/* The ceiling: the lowest of the path limit, the fetch limit and the retire width. */
static void frontend_ceiling(struct td_frontend *fe)
{
	if (!isnan(fe->path_limit) && !isnan(fe->fetch_limit) && fe->retire_width > 0) {
		fe->ceiling = fe->retire_width;
		fe->binding = "retire";
		if (fe->path_limit < fe->ceiling) {
			fe->ceiling = fe->path_limit;
			fe->binding = "path";
		}
		if (fe->fetch_limit < fe->ceiling) {
			fe->ceiling = fe->fetch_limit;
			fe->binding = "fetch";
		}
		fe->headroom = fe->ceiling - fe->measured_upc;
	} else if (!fe->ceiling_reason) {
		fe->ceiling_reason = xstrdup("retirement width not known");
	}
}

/* Hints (thresholds are table parameters, TMA's defaults otherwise). */
static void frontend_hints(const struct td_stack_input *in, struct td_stacks *s)
{
	struct td_frontend *fe = &s->frontend;
	double cycles = s->cycles;
	double dsb = fe->paths[TD_FE_DSB].coverage, mite = fe->paths[TD_FE_MITE].coverage;
	double ms = fe->paths[TD_FE_MS].coverage;
	double sw = metric_value(in, "stack_fe_switch_cycles") / cycles;
	double ic = metric_value(in, "stack_fe_icache_cycles") / cycles;
	double itlb = metric_value(in, "stack_fe_itlb_cycles") / cycles;
	const char *dsb_name = fe->paths[TD_FE_DSB].name, *mite_name = fe->paths[TD_FE_MITE].name;

	if (dsb < fe_param(in, "hint.dsb_coverage_min", 0.7) &&
	    mite > fe_param(in, "hint.mite_coverage_min", 0.2))
		add_hint(fe, xstrfmt("low %s coverage: %.0f%% of uops come from it and %.0f%% from "
				     "%s; hot code may exceed the uop cache or straddle its lines "
				     "(align hot loops, shrink hot code)",
				     dsb_name, 100 * dsb, 100 * mite, mite_name));
	if (sw > fe_param(in, "hint.switch_cycles_max", 0.05))
		add_hint(fe, xstrfmt("switches between the uop cache and legacy decode cost %.1f%% "
				     "of cycles", 100 * sw));
	if (ms > fe_param(in, "hint.ms_coverage_max", 0.05))
		add_hint(fe, xstrfmt("%.0f%% of uops come from the microcode sequencer (complex "
				     "instructions or assists)", 100 * ms));
	if (ic > fe_param(in, "hint.icache_cycles_max", 0.05) ||
	    itlb > fe_param(in, "hint.itlb_cycles_max", 0.05))
		add_hint(fe, xstrfmt("big code: instruction-cache stalls %.1f%% and ITLB stalls "
				     "%.1f%% of cycles; the code footprint exceeds L1i/L2 or the "
				     "ITLB (profile-guided layout, huge pages for code)",
				     isnan(ic) ? 0.0 : 100 * ic, isnan(itlb) ? 0.0 : 100 * itlb));
	if (fe->code_beyond_l2_share > fe_param(in, "hint.code_beyond_l2_max", 0.01))
		add_hint(fe, xstrfmt("big code: %.1f%% of the executed code bytes came from beyond "
				     "L2", 100 * fe->code_beyond_l2_share));
}

/*
 * The frontend delivery analysis of Forte 2021: coverage and rates per
 * path, the ceiling (min of coverage-weighted path rate, fetch bandwidth
 * of the level holding the code / average instruction size, retirement
 * width, in uops per cycle) and hints.
 */
static void build_frontend(const struct td_stack_input *in, struct td_stacks *s)
{
	struct td_frontend *fe = &s->frontend;

	fe->delivered_uops = 0;
	fe->uops_per_insn = s->uops_retired / s->instructions;
	fe->avg_insn_bytes = metric_value(in, "stack_fe_avg_insn_bytes");
	fe->avg_insn_assumed = 0;
	if (isnan(fe->avg_insn_bytes)) {
		fe->avg_insn_bytes = fe_param(in, "avg_insn_bytes", 4.0);
		fe->avg_insn_assumed = 1;
	}
	fe->code_beyond_l2_share = NAN;
	fe->path_limit = fe->fetch_limit = fe->ceiling = fe->headroom = NAN;
	fe->retire_width = fe_param(in, "retire_width", in->slots_per_cycle);
	fe->measured_upc = s->uops_retired / s->cycles;

	if (!frontend_paths(in, s)) {
		const char *note = param_str(in, "frontend.unavailable");

		fe->reason = note ? xstrfmt("not measurable on this CPU: %s", note)
				  : xstrdup("not measurable on this CPU: no per-path uop counters");
		return;
	}
	fe->available = 1;
	frontend_path_limit(in, fe);
	frontend_fetch_limit(in, s);
	frontend_ceiling(fe);
	frontend_hints(in, s);
}

/* ---- entry points ---- */

/* The table and one scope's evaluated metrics, seen as a td_stack_input. */
struct table_source {
	const struct td_table *t;
	const struct td_tree_result *r;
	struct td_stack_metric *metrics;	/* parallel to r->info */
};

static const struct td_stack_metric *table_metric(void *ctx, const char *id)
{
	struct table_source *src = ctx;
	size_t i;

	for (i = 0; i < src->r->nr_info; i++)
		if (!strcmp(src->metrics[i].id, id))
			return &src->metrics[i];
	return NULL;
}

static int table_param_num(void *ctx, const char *key, double *value)
{
	struct table_source *src = ctx;
	double v = td_table_param(src->t, key, NAN);

	if (isnan(v))
		return 0;
	*value = v;
	return 1;
}

static const char *table_param_str(void *ctx, const char *key)
{
	struct table_source *src = ctx;

	return td_table_param_string(src->t, key);
}

int td_stacks_compute(const struct td_table *t, const struct td_env *env,
		      const struct td_tree_result *tree, struct td_stacks *out)
{
	const struct td_table_info *info = td_table_info(t);
	struct td_tree_result own;
	struct table_source src;
	struct td_stack_input in;
	size_t i;

	if (!tree) {
		struct td_tree_opts opts = { 0 };

		memset(&own, 0, sizeof(own));
		if (td_tree_eval(t, env, &opts, &own) < 0) {
			td_tree_result_release(&own);
			memset(out, 0, sizeof(*out));
			return -1;
		}
		tree = &own;
	}
	src.t = t;
	src.r = tree;
	src.metrics = xcalloc(tree->nr_info + 1, sizeof(*src.metrics));
	for (i = 0; i < tree->nr_info; i++) {
		const struct td_node_value *nv = &tree->info[i];
		struct td_stack_metric *m = &src.metrics[i];

		m->id = nv->metric->id;
		m->value = nv->value;
		m->reason = nv->reason;
		m->formula = nv->formula_used ? nv->formula_used : nv->metric->formula;
		m->description = nv->metric->description;
		m->approximate = nv->approximate;
		if (nv->metric->formulas && nv->formula_index >= 0 &&
		    (size_t)nv->formula_index < nv->metric->nr_formulas)
			m->note = nv->metric->formulas[nv->formula_index].note;
	}
	memset(&in, 0, sizeof(in));
	in.vendor = info->vendor;
	in.slots_per_cycle = info->slots_per_cycle;
	in.metric = table_metric;
	in.param_num = table_param_num;
	in.param_str = table_param_str;
	in.ctx = &src;
	in.nodes = tree->nodes;
	in.nr_nodes = tree->nr_nodes;
	td_stacks_assemble(&in, out);
	free(src.metrics);
	if (tree == &own)
		td_tree_result_release(&own);
	return 0;
}

int td_stacks_assemble(const struct td_stack_input *in, struct td_stacks *s)
{
	int st, mix;

	memset(s, 0, sizeof(*s));
	s->cycles = metric_value(in, "stack_cycles");
	s->instructions = metric_value(in, "stack_instructions");
	s->uops_retired = metric_value(in, "stack_uops_retired");
	s->cpi = s->cycles / s->instructions;
	if (!get_metric(in, "stack_cycles") || !get_metric(in, "stack_instructions"))
		s->reason = xstrdup("the table defines no stack metrics (stack_cycles, "
				    "stack_instructions)");
	else if (isnan(s->cpi) || isinf(s->cpi))
		s->reason = xstrfmt("CPI not computable: %s", isnan(s->cycles) ? "cycles not known"
				    : isnan(s->instructions) ? "instructions not known"
				    : "no instructions retired");

	build_cpi_stack(in, s);
	for (st = 0; st < TD_STAGE__NR; st++)
		build_stage(in, s, st);
	build_ranges(s);
	mix = pick_mix_stage(s);
	build_ipc(in, s, mix);
	build_flops(in, s, mix);
	build_frontend(in, s);
	return 0;
}

void td_stacks_release(struct td_stacks *s)
{
	size_t i;
	int st, c;

	free(s->reason);
	for (i = 0; i < s->nr_cpi_parts; i++)
		free(s->cpi_parts[i].reason);
	free(s->cpi_parts);
	for (st = 0; st < TD_STAGE__NR; st++) {
		free(s->stages[st].reason);
		for (c = 0; c < TD_SC__NR; c++)
			part_release(&s->stages[st].parts[c]);
	}
	free(s->ipc.reason);
	for (c = 0; c < TD_SC__NR; c++)
		part_release(&s->ipc.parts[c]);
	free(s->flops.reason);
	for (c = 0; c < TD_FC__NR; c++)
		part_release(&s->flops.parts[c]);
	free(s->frontend.reason);
	free(s->frontend.ceiling_reason);
	for (i = 0; i < TD_FE__NR; i++)
		free(s->frontend.paths[i].reason);
	for (i = 0; i < s->frontend.nr_hints; i++)
		free(s->frontend.hints[i]);
	free(s->frontend.hints);
	for (i = 0; i < s->nr_warnings; i++)
		free(s->warnings[i]);
	free(s->warnings);
	memset(s, 0, sizeof(*s));
}
