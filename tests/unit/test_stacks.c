/*
 * Unit tests for metrics/stacks.c.
 *
 * Part 1 feeds the stack arithmetic hand-made metric values (as a table's
 * "stack_*" metrics would evaluate) and checks every stack against values
 * worked out by hand in the comments, plus the identities of Eyerman et al.
 * 2018: each stage sums to CPI, each FLOPS-stack cycle contributes exactly
 * 1 (the stack sums to the cycles, its height is the peak), the IPC
 * stack's height is the pipeline width.
 *
 * Part 2 (further below) evaluates the real tables' stack formulas on
 * count sets built here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "metrics/expr.h"
#include "metrics/stacks.h"
#include "metrics/table.h"
#include "metrics/tree.h"
#include "metrics/stacks-int.h"
#include "analyze/report.h"
#include "analyze/compare.h"
#include "report/render.h"
#include "report/html.h"

/* ---- a fake source: metric values and parameters from arrays ---- */

struct kv_num {
	const char *key;
	double value;
};
struct kv_str {
	const char *key;
	const char *value;
};
struct fake {
	const struct td_stack_metric *metrics;
	size_t nr_metrics;
	const struct kv_num *nums;
	size_t nr_nums;
	const struct kv_str *strs;
	size_t nr_strs;
};

static const struct td_stack_metric *fake_metric(void *ctx, const char *id)
{
	struct fake *f = ctx;
	size_t i;

	for (i = 0; i < f->nr_metrics; i++)
		if (!strcmp(f->metrics[i].id, id))
			return &f->metrics[i];
	return NULL;
}

static int fake_num(void *ctx, const char *key, double *v)
{
	struct fake *f = ctx;
	size_t i;

	for (i = 0; i < f->nr_nums; i++)
		if (!strcmp(f->nums[i].key, key)) {
			*v = f->nums[i].value;
			return 1;
		}
	return 0;
}

static const char *fake_str(void *ctx, const char *key)
{
	struct fake *f = ctx;
	size_t i;

	for (i = 0; i < f->nr_strs; i++)
		if (!strcmp(f->strs[i].key, key))
			return f->strs[i].value;
	return NULL;
}

#define M(id, v) { id, v, NULL, id, NULL, 0, NULL }
#define FAKE(ms, ns, ss) { ms, TD_ARRAY_SIZE(ms), ns, TD_ARRAY_SIZE(ns), ss, TD_ARRAY_SIZE(ss) }

static void run(struct fake *f, const char *vendor, double width, struct td_stacks *out)
{
	struct td_stack_input in = { 0 };

	in.vendor = vendor;
	in.slots_per_cycle = width;
	in.metric = fake_metric;
	in.param_num = fake_num;
	in.param_str = fake_str;
	in.ctx = f;
	assert_int_equal(td_stacks_assemble(&in, out), 0);
}

static void assert_near_at(double a, double b, const char *file, int line)
{
	if (!(fabs(a - b) <= 1e-9 * (fabs(b) + 1)))
		fail_msg("%s:%d: %.12g != %.12g", file, line, a, b);
}
#define assert_near(a, b) assert_near_at((a), (b), __FILE__, __LINE__)

/*
 * An Intel-like scope: 1,000,000 cycles, 800,000 instructions, so
 * CPI = 1.25.  Allocation stage from Top-Down slots, execute stage from
 * stall cycles (no long-latency metric), no retire-stage metrics.
 */
static const struct td_stack_metric intel_metrics[] = {
	M("stack_cycles", 1e6),
	M("stack_instructions", 8e5),
	M("stack_uops_retired", 1.2e6),
	M("stack_seconds", 0.0005),
	/* base = retired uops / W = 1.2e6 / 4 = 300,000 cycles */
	M("stack_base", 3e5),
	M("stack_alloc_frontend", 2e5),
	M("stack_alloc_branch", 1e5),
	M("stack_alloc_memory", 2.5e5),
	M("stack_alloc_long_latency", 5e4),
	M("stack_alloc_dependence", 1e5),
	M("stack_execute_frontend", 8e4),
	M("stack_execute_branch", 2e4),
	M("stack_execute_memory", 3e5),
	M("stack_execute_dependence", 1e5),
	/* FLOPS: 8,000,000 DP FLOPs; narrow-vector loss 100,000 cycles */
	M("stack_flops_sp", 0),
	M("stack_flops_dp", 8e6),
	M("stack_flops_narrow", 1e5),
	/* frontend paths */
	M("stack_fe_dsb_uops", 9e5),
	M("stack_fe_dsb_cycles", 2e5),
	M("stack_fe_mite_uops", 2.5e5),
	M("stack_fe_mite_cycles", 1e5),
	M("stack_fe_ms_uops", 5e4),
	M("stack_fe_ms_cycles", 2.5e4),
	M("stack_fe_switch_cycles", 6e4),
	M("stack_fe_code_l2_miss_bytes", 64 * 1e4),
};
static const struct kv_num intel_nums[] = {
	{ "flops.peak_sp", 64 }, { "flops.peak_dp", 32 },
	{ "frontend.dsb.rate", 5.33 }, { "frontend.mite.rate", 4 }, { "frontend.ms.rate", 4 },
	{ "frontend.mite_bytes_per_cycle", 16 }, { "frontend.l3_bytes_per_cycle", 13.6 },
	{ "frontend.dram_bytes_per_cycle", 3.5 }, { "frontend.retire_width", 4 },
};
static const struct kv_str intel_strs[] = {
	{ "stage.retire.unavailable", "test: no retire events" },
	{ "notmeasurable.stack_execute_long_latency", "test: no divider cycles" },
};

static void cpi_and_allocation_stage_by_hand(void **state)
{
	struct fake f = FAKE(intel_metrics, intel_nums, intel_strs);
	struct td_stacks s;
	const struct td_stage_stack *a;

	run(&f, "GenuineIntel", 4, &s);
	assert_null(s.reason);
	assert_near(s.cpi, 1.25);	/* 1e6 / 8e5 */
	a = &s.stages[TD_STAGE_ALLOC];
	assert_true(a->available);
	assert_string_equal(a->paper_term, "dispatch");
	/* each part = cycles / 800,000 instructions */
	assert_near(a->parts[TD_SC_BASE].value, 0.375);		/* 3e5 / 8e5 */
	assert_near(a->parts[TD_SC_FRONTEND].value, 0.25);	/* 2e5 / 8e5 */
	assert_near(a->parts[TD_SC_BRANCH].value, 0.125);	/* 1e5 / 8e5 */
	assert_near(a->parts[TD_SC_MEMORY].value, 0.3125);	/* 2.5e5 / 8e5 */
	assert_near(a->parts[TD_SC_LONG_LATENCY].value, 0.0625);	/* 5e4 / 8e5 */
	assert_near(a->parts[TD_SC_DEPENDENCE].value, 0.125);	/* 1e5 / 8e5 */
	/* other = 1e6 - (3e5 + 2e5 + 1e5 + 2.5e5 + 5e4 + 1e5) = 0 */
	assert_near(a->parts[TD_SC_OTHER].cycles, 0);
	/* identity: the stage sums to CPI */
	assert_near(a->sum_cpi, s.cpi);
	assert_int_equal(s.nr_warnings, 0);
	td_stacks_release(&s);
}

static void execute_stage_residual_and_not_measurable(void **state)
{
	struct fake f = FAKE(intel_metrics, intel_nums, intel_strs);
	struct td_stacks s;
	const struct td_stage_stack *e, *r;

	run(&f, "GenuineIntel", 4, &s);
	e = &s.stages[TD_STAGE_EXECUTE];
	assert_true(e->available);
	assert_string_equal(e->paper_term, "issue");
	assert_false(e->parts[TD_SC_LONG_LATENCY].measurable);
	assert_true(isnan(e->parts[TD_SC_LONG_LATENCY].value));
	assert_string_equal(e->parts[TD_SC_LONG_LATENCY].reason,
			    "not measurable on this CPU: test: no divider cycles");
	/*
	 * other = 1e6 - (3e5 base + 8e4 + 2e4 + 3e5 + 1e5) = 2e5 cycles,
	 * 2e5 / 8e5 = 0.25 CPI
	 */
	assert_near(e->parts[TD_SC_OTHER].cycles, 2e5);
	assert_near(e->parts[TD_SC_OTHER].value, 0.25);
	assert_near(e->sum_cpi, 1.25);
	/* retire: not available, with the table's reason */
	r = &s.stages[TD_STAGE_RETIRE];
	assert_false(r->available);
	assert_string_equal(r->reason, "cannot be built on this CPU: test: no retire events");
	/* ranges: memory alloc 0.3125, execute 3e5/8e5 = 0.375 */
	assert_near(s.range_min[TD_SC_MEMORY], 0.3125);
	assert_near(s.range_max[TD_SC_MEMORY], 0.375);
	/* frontend alloc 0.25, execute 8e4/8e5 = 0.1 */
	assert_near(s.range_min[TD_SC_FRONTEND], 0.1);
	assert_near(s.range_max[TD_SC_FRONTEND], 0.25);
	/* long latency only at allocation: 0.0625 both ways */
	assert_near(s.range_min[TD_SC_LONG_LATENCY], 0.0625);
	assert_near(s.range_max[TD_SC_LONG_LATENCY], 0.0625);
	td_stacks_release(&s);
}

static void flops_stack_each_cycle_counts_once(void **state)
{
	struct fake f = FAKE(intel_metrics, intel_nums, intel_strs);
	struct td_stacks s;
	const struct td_flops_stack *fl;
	double sum_cycles = 0, sum_value = 0;
	int c;

	run(&f, "GenuineIntel", 4, &s);
	fl = &s.flops;
	assert_true(fl->available);
	assert_string_equal(fl->precision, "dp");
	assert_false(fl->mixed_precision);
	assert_near(fl->peak_per_cycle, 32);
	/* base = 8e6 DP FLOPs / 32 FLOPs per cycle = 250,000 cycles */
	assert_near(fl->parts[TD_FC_BASE].cycles, 2.5e5);
	assert_near(fl->parts[TD_FC_NARROW].cycles, 1e5);
	assert_false(fl->parts[TD_FC_NON_FMA].measurable);	/* no metric */
	assert_false(fl->parts[TD_FC_MASKED].measurable);
	assert_false(fl->parts[TD_FC_NON_VFP].measurable);
	/*
	 * idle = 1e6 - 2.5e5 - 1e5 = 6.5e5, split by the execute stage:
	 *   frontend   (3e5 base + 8e4 + 2e4) / 1e6 = 0.4 -> 260,000
	 *   memory      3e5 / 1e6 = 0.3                 -> 195,000
	 *   dependence  1e5 / 1e6 = 0.1 (long latency not measurable) -> 65,000
	 *   other       2e5 / 1e6 = 0.2                 -> 130,000
	 */
	assert_int_equal(fl->mix_stage, TD_STAGE_EXECUTE);
	assert_near(fl->parts[TD_FC_FRONTEND].cycles, 2.6e5);
	assert_near(fl->parts[TD_FC_MEMORY].cycles, 1.95e5);
	assert_near(fl->parts[TD_FC_DEPENDENCE].cycles, 6.5e4);
	assert_near(fl->parts[TD_FC_OTHER].cycles, 1.3e5);
	assert_true(fl->parts[TD_FC_MEMORY].approximate);
	/*
	 * Units: 1e6 cycles in 0.5 ms = 2 GHz; peak = 32 x 2 = 64 GFLOP/s;
	 * achieved = 8e6 / 0.0005 = 16 GFLOP/s = the base part.
	 */
	assert_string_equal(fl->unit, "GFLOP/s");
	assert_near(fl->freq_ghz, 2);
	assert_near(fl->peak, 64);
	assert_near(fl->achieved, 16);
	assert_near(fl->parts[TD_FC_BASE].value, 16);
	/* identity: each cycle contributes exactly 1; height = peak */
	for (c = 0; c < TD_FC__NR; c++) {
		if (!fl->parts[c].measurable)
			continue;
		sum_cycles += fl->parts[c].cycles;
		sum_value += fl->parts[c].value;
	}
	assert_near(sum_cycles, s.cycles);
	assert_near(sum_value, fl->peak);
	td_stacks_release(&s);
}

static void ipc_stack_height_is_width(void **state)
{
	struct fake f = FAKE(intel_metrics, intel_nums, intel_strs);
	struct td_stacks s;
	double sum = 0;
	int c;

	run(&f, "GenuineIntel", 4, &s);
	assert_true(s.ipc.available);
	assert_int_equal(s.ipc.stage, TD_STAGE_EXECUTE);
	/* base = 3e5 / 1e6 x 4 = 1.2 = retired uops per cycle (1.2e6 / 1e6) */
	assert_near(s.ipc.parts[TD_SC_BASE].value, 1.2);
	assert_near(s.ipc.upc, 1.2);
	assert_near(s.ipc.ipc, 0.8);	/* 8e5 / 1e6 */
	/* memory 3e5 / 1e6 x 4 = 1.2 */
	assert_near(s.ipc.parts[TD_SC_MEMORY].value, 1.2);
	for (c = 0; c < TD_SC__NR; c++)
		if (s.ipc.parts[c].measurable)
			sum += s.ipc.parts[c].value;
	assert_near(sum, 4);
	td_stacks_release(&s);
}

static void frontend_coverage_rates_ceiling_hints(void **state)
{
	struct fake f = FAKE(intel_metrics, intel_nums, intel_strs);
	struct td_stacks s;
	const struct td_frontend *fe;
	double t_path, t_fetch;

	run(&f, "GenuineIntel", 4, &s);
	fe = &s.frontend;
	assert_true(fe->available);
	/* delivered = 9e5 + 2.5e5 + 5e4 = 1.2e6 uops */
	assert_near(fe->delivered_uops, 1.2e6);
	assert_near(fe->paths[TD_FE_DSB].coverage, 0.75);
	assert_near(fe->paths[TD_FE_MITE].coverage, 2.5e5 / 1.2e6);
	assert_near(fe->paths[TD_FE_MS].coverage, 5e4 / 1.2e6);
	assert_false(fe->paths[TD_FE_LSD].measured);
	/* rates while active: 9e5/2e5 = 4.5, 2.5e5/1e5 = 2.5, 5e4/2.5e4 = 2 */
	assert_near(fe->paths[TD_FE_DSB].rate_active, 4.5);
	assert_near(fe->paths[TD_FE_MITE].rate_active, 2.5);
	assert_near(fe->paths[TD_FE_MS].rate_active, 2);
	assert_near(fe->paths[TD_FE_DSB].rate_overall, 0.9);	/* 9e5 / 1e6 */
	/* uops per instruction 1.2e6 / 8e5 = 1.5; MITE best case
	 * min(4 decoders, 16 B / 4 B x 1.5 = 6) = 4 */
	assert_near(fe->uops_per_insn, 1.5);
	assert_true(fe->avg_insn_assumed);
	assert_near(fe->paths[TD_FE_MITE].nominal_rate, 4);
	/* path limit = 1 / (0.75/5.33 + (2.5e5/1.2e6)/4 + (5e4/1.2e6)/4) */
	t_path = 0.75 / 5.33 + (2.5e5 / 1.2e6) / 4 + (5e4 / 1.2e6) / 4;
	assert_near(fe->path_limit, 1 / t_path);	/* about 4.92 */
	/*
	 * code from beyond L2: 640,000 bytes of 8e5 x 4 = 3.2e6 -> 0.2;
	 * fetch time per MITE instruction = 0.8 x 4/16 + 0.2 x 4/13.6;
	 * fetch limit = 1.5 uops/insn / (that x MITE coverage)
	 */
	assert_near(fe->code_beyond_l2_share, 0.2);
	t_fetch = 0.8 * 4 / 16 + 0.2 * 4 / 13.6;
	assert_near(fe->fetch_limit, 1.5 / (t_fetch * (2.5e5 / 1.2e6)));	/* about 27.8 */
	assert_string_equal(fe->fetch_level, "L1/L2");
	/* ceiling = min(4.92, 27.8, 4) = 4, the retirement width */
	assert_near(fe->ceiling, 4);
	assert_string_equal(fe->binding, "retire");
	assert_near(fe->measured_upc, 1.2);
	assert_near(fe->headroom, 2.8);
	/* hints: switches 6e4/1e6 = 6% > 5%; code beyond L2 20% > 1%;
	 * DSB coverage 75% >= 70% and MS 4.2% <= 5%: no hints for those */
	assert_int_equal(fe->nr_hints, 2);
	assert_non_null(strstr(fe->hints[0], "6.0% of cycles"));
	assert_non_null(strstr(fe->hints[1], "20.0%"));
	td_stacks_release(&s);
}

/*
 * The example of Forte 2021 (eq. 4.1): 7-byte instructions, one uop each, all
 * from legacy decode and all fetched from L3 at 13.6 bytes/cycle:
 * 13.6 / 7 = 1.94 instructions per cycle, below the path and retire caps.
 */
static const struct td_stack_metric l3code_metrics[] = {
	M("stack_cycles", 1e6),
	M("stack_instructions", 1e6),
	M("stack_uops_retired", 1e6),
	M("stack_fe_mite_uops", 1e6),
	M("stack_fe_mite_cycles", 5.2e5),
	M("stack_fe_code_l2_miss_bytes", 7e6),
};
static const struct kv_num l3code_nums[] = {
	{ "frontend.mite.rate", 4 }, { "frontend.mite_bytes_per_cycle", 16 },
	{ "frontend.l3_bytes_per_cycle", 13.6 }, { "frontend.dram_bytes_per_cycle", 3.5 },
	{ "frontend.avg_insn_bytes", 7 }, { "frontend.retire_width", 4 },
};
static const struct kv_str no_strs[] = { { "none", "none" } };

static void frontend_ceiling_from_l3_fetch_bandwidth(void **state)
{
	struct fake f = FAKE(l3code_metrics, l3code_nums, no_strs);
	struct td_stacks s;

	run(&f, "GenuineIntel", 4, &s);
	assert_near(s.frontend.code_beyond_l2_share, 1);	/* 7e6 / (1e6 x 7) */
	/* MITE best case min(4, 16/7 x 1) = 2.2857 */
	assert_near(s.frontend.paths[TD_FE_MITE].nominal_rate, 16.0 / 7);
	assert_near(s.frontend.path_limit, 16.0 / 7);
	assert_near(s.frontend.fetch_limit, 13.6 / 7);	/* 1.943 */
	assert_string_equal(s.frontend.fetch_level, "L3");
	assert_string_equal(s.frontend.binding, "fetch");
	assert_near(s.frontend.ceiling, 13.6 / 7);
	/* no stage metrics: every stage says why */
	assert_false(s.stages[TD_STAGE_ALLOC].available);
	assert_false(s.flops.available);
	assert_non_null(strstr(s.flops.reason, "not measurable on this CPU"));
	assert_false(s.ipc.available);
	td_stacks_release(&s);
}

/*
 * An AMD-like scope: FLOPs without precision (assumed double), the
 * non-FMA loss measured, no narrow-vector metric, only the allocation
 * stage; 1e6 cycles, 5e5 instructions.
 */
static const struct td_stack_metric amd_metrics[] = {
	M("stack_cycles", 1e6),
	M("stack_instructions", 5e5),
	M("stack_uops_retired", 1.8e6),
	M("stack_base", 3e5),	/* 1.8e6 ops / 6 slots */
	M("stack_alloc_frontend", 1e5),
	M("stack_alloc_branch", 5e4),
	M("stack_alloc_memory", 3e5),
	M("stack_alloc_dependence", 1.5e5),
	M("stack_flops_all", 4e6),
	M("stack_flops_non_fma", 5e4),
	M("stack_fe_dsb_uops", 1.5e6),
	M("stack_fe_mite_uops", 3e5),
};
static const struct kv_num amd_nums[] = { { "flops.peak_sp", 32 }, { "flops.peak_dp", 16 } };
static const struct kv_str amd_strs[] = {
	{ "flops.order", "fma_first" },
	{ "frontend.dsb.name", "Op cache" },
	{ "stage.execute.unavailable", "test: no execute-stage events" },
};

static void amd_flops_with_non_fma_and_allocation_mix(void **state)
{
	struct fake f = FAKE(amd_metrics, amd_nums, amd_strs);
	struct td_stacks s;
	const struct td_flops_stack *fl;
	double sum = 0;
	int c;

	run(&f, "AuthenticAMD", 6, &s);
	assert_string_equal(s.stages[TD_STAGE_ALLOC].vendor_term,
			    "dispatch (Top-Down dispatch slots)");
	/* allocation other = 1e6 - (3e5 + 1e5 + 5e4 + 3e5 + 1.5e5) = 1e5 */
	assert_near(s.stages[TD_STAGE_ALLOC].parts[TD_SC_OTHER].cycles, 1e5);
	assert_near(s.stages[TD_STAGE_ALLOC].sum_cpi, 2);	/* 1e6 / 5e5 */
	fl = &s.flops;
	assert_true(fl->available);
	assert_string_equal(fl->order, "fma_first");
	assert_string_equal(fl->precision, "dp");
	assert_true(fl->parts[TD_FC_BASE].approximate);	/* precision assumed */
	assert_string_equal(fl->unit, "FLOP/cycle");	/* no duration */
	/* base = 4e6 / 16 = 250,000; non-FMA 50,000; idle 700,000 */
	assert_near(fl->parts[TD_FC_BASE].cycles, 2.5e5);
	assert_near(fl->parts[TD_FC_NON_FMA].cycles, 5e4);
	assert_false(fl->parts[TD_FC_NARROW].measurable);
	assert_int_equal(fl->mix_stage, TD_STAGE_ALLOC);
	/* frontend (3e5 + 1e5 + 5e4)/1e6 = .45 -> 315,000; memory .3 -> 210,000;
	 * dependence .15 -> 105,000; other .1 -> 70,000 */
	assert_near(fl->parts[TD_FC_FRONTEND].cycles, 3.15e5);
	assert_near(fl->parts[TD_FC_MEMORY].cycles, 2.1e5);
	assert_near(fl->parts[TD_FC_DEPENDENCE].cycles, 1.05e5);
	assert_near(fl->parts[TD_FC_OTHER].cycles, 7e4);
	/* FLOP/cycle: base = 2.5e5 / 1e6 x 16 = 4 = 4e6 FLOPs / 1e6 cycles */
	assert_near(fl->parts[TD_FC_BASE].value, 4);
	assert_near(fl->achieved, 4);
	for (c = 0; c < TD_FC__NR; c++)
		if (fl->parts[c].measurable)
			sum += fl->parts[c].value;
	assert_near(sum, 16);	/* height = peak FLOPs per cycle */
	/* frontend: op cache 1.5e6 / 1.8e6 delivered; no cycle counters */
	assert_string_equal(s.frontend.paths[TD_FE_DSB].name, "Op cache");
	assert_near(s.frontend.paths[TD_FE_DSB].coverage, 1.5e6 / 1.8e6);
	assert_true(isnan(s.frontend.paths[TD_FE_DSB].rate_active));
	assert_non_null(strstr(s.frontend.paths[TD_FE_DSB].reason, "not measurable"));
	td_stacks_release(&s);
}

/* Components that overlap so much that Other goes negative are reported. */
static const struct td_stack_metric overlap_metrics[] = {
	M("stack_cycles", 1e6),
	M("stack_instructions", 1e6),
	M("stack_base", 5e5),
	M("stack_execute_memory", 6e5),
};

static void negative_residual_is_reported_not_clamped(void **state)
{
	struct fake f = FAKE(overlap_metrics, intel_nums, no_strs);
	struct td_stacks s;

	run(&f, "GenuineIntel", 4, &s);
	/* other = 1e6 - 5e5 - 6e5 = -1e5, shown as is, with a warning */
	assert_near(s.stages[TD_STAGE_EXECUTE].parts[TD_SC_OTHER].cycles, -1e5);
	assert_int_equal(s.nr_warnings, 1);
	assert_non_null(strstr(s.warnings[0], "exceed the cycles by 10.0%"));
	td_stacks_release(&s);
}

/* A NAN input spreads as NAN with a reason, never as a number. */
static const struct td_stack_metric nan_metrics[] = {
	M("stack_cycles", 1e6),
	M("stack_instructions", 1e6),
	M("stack_base", 5e5),
	{ "stack_execute_memory", NAN, "CYCLE_ACTIVITY.STALLS_MEM_ANY not counted",
	  "CYCLE_ACTIVITY.STALLS_MEM_ANY", NULL, 0, NULL },
	M("stack_execute_dependence", 1e5),
};

static void missing_count_gives_nan_with_reason(void **state)
{
	struct fake f = FAKE(nan_metrics, intel_nums, no_strs);
	struct td_stacks s;
	const struct td_stage_stack *e;

	run(&f, "GenuineIntel", 4, &s);
	e = &s.stages[TD_STAGE_EXECUTE];
	assert_true(isnan(e->parts[TD_SC_MEMORY].value));
	assert_string_equal(e->parts[TD_SC_MEMORY].reason, "CYCLE_ACTIVITY.STALLS_MEM_ANY not counted");
	assert_true(isnan(e->parts[TD_SC_OTHER].value));
	assert_non_null(strstr(e->parts[TD_SC_OTHER].reason, "memory is not known"));
	assert_true(isnan(e->sum_cpi));
	assert_near(e->parts[TD_SC_DEPENDENCE].value, 0.1);
	/* the incomplete stage cannot split FLOPS or draw the IPC stack */
	assert_false(s.ipc.available);
	td_stacks_release(&s);
}

/* CPI stack: CPI x Level-1/2 node fractions, from the evaluated tree. */
static void cpi_stack_from_tree_nodes(void **state)
{
	static const struct td_metric l1fe = { .id = "frontend_bound", .name = "Frontend Bound", .level = 1 };
	static const struct td_metric l1be = { .id = "backend_bound", .name = "Backend Bound", .level = 1 };
	static const struct td_metric l2mem = { .id = "memory_bound", .name = "Memory Bound",
						 .parent = "backend_bound", .level = 2 };
	static const struct td_metric l3 = { .id = "l1_bound", .name = "L1 Bound",
					      .parent = "memory_bound", .level = 3 };
	struct td_node_value nodes[] = {
		{ .metric = &l1fe, .value = 0.25 },
		{ .metric = &l1be, .value = 0.75 },
		{ .metric = &l2mem, .value = 0.5 },
		{ .metric = &l3, .value = 0.1 },
	};
	struct fake f = FAKE(overlap_metrics, intel_nums, no_strs);
	struct td_stack_input in = { 0 };
	struct td_stacks s;

	in.slots_per_cycle = 4;
	in.metric = fake_metric;
	in.param_num = fake_num;
	in.param_str = fake_str;
	in.ctx = &f;
	in.nodes = nodes;
	in.nr_nodes = TD_ARRAY_SIZE(nodes);
	td_stacks_assemble(&in, &s);
	/* CPI = 1e6 / 1e6 = 1; Level 3 is not part of the CPI stack */
	assert_int_equal(s.nr_cpi_parts, 3);
	assert_string_equal(s.cpi_parts[2].id, "memory_bound");
	assert_string_equal(s.cpi_parts[2].parent, "backend_bound");
	assert_near(s.cpi_parts[0].cpi, 0.25);
	assert_near(s.cpi_parts[1].cpi, 0.75);
	assert_near(s.cpi_parts[2].cpi, 0.5);
	td_stacks_release(&s);
}

/* The JSON object: nulls for unknown numbers, flags for the marks. */
static void json_object_carries_marks_and_nulls(void **state)
{
	struct fake f = FAKE(intel_metrics, intel_nums, intel_strs);
	struct td_stacks s;
	json_t *o, *stages, *ex, *ll, *other;

	run(&f, "GenuineIntel", 4, &s);
	o = td_report_stacks_json(&s);
	stages = json_object_get(json_object_get(o, "multistage"), "stages");
	assert_int_equal(json_array_size(stages), 3);
	ex = json_array_get(stages, 1);
	assert_string_equal(json_string_value(json_object_get(ex, "id")), "execute");
	assert_string_equal(json_string_value(json_object_get(ex, "paper_term")), "issue");
	ll = json_array_get(json_object_get(ex, "parts"), TD_SC_LONG_LATENCY);
	assert_true(json_is_false(json_object_get(ll, "measurable")));
	assert_true(json_is_null(json_object_get(ll, "value")));
	other = json_array_get(json_object_get(ex, "parts"), TD_SC_OTHER);
	assert_true(json_is_true(json_object_get(other, "approximate")));
	assert_near(json_number_value(json_object_get(other, "value")), 0.25);
	assert_false(json_is_true(json_object_get(json_array_get(stages, 2), "available")));
	assert_near(json_number_value(json_object_get(json_object_get(o, "flops"), "peak")), 64);
	assert_true(json_is_string(json_object_get(json_object_get(o, "multistage"), "vocabulary")));
	json_decref(o);
	td_stacks_release(&s);
}

static void text_rendering_shows_stages_side_by_side(void **state)
{
	struct fake f = FAKE(intel_metrics, intel_nums, intel_strs);
	struct strbuf sb = STRBUF_INIT;
	struct td_stacks s;
	json_t *o;

	run(&f, "GenuineIntel", 4, &s);
	o = td_report_stacks_json(&s);
	td_report_text_stacks(&sb, o, 0);
	/* memory: 0.3125 (alloc), 0.375 (execute), retire not available */
	assert_non_null(strstr(sb.buf, "Data cache / memory          0.312      0.375           -"));
	assert_non_null(strstr(sb.buf, "0.312 -   0.375"));
	assert_non_null(strstr(sb.buf, "retire stage: cannot be built on this CPU: test: no retire events"));
	assert_non_null(strstr(sb.buf, "Long-latency ops             0.062      n/m[1]"));
	assert_non_null(strstr(sb.buf, "[1] execute long_latency: not measurable on this CPU: "
			       "test: no divider cycles"));
	assert_non_null(strstr(sb.buf, "total                        1.250      1.250           -"));
	assert_non_null(strstr(sb.buf, "Eyerman et al.'s \"issue\""));
	assert_non_null(strstr(sb.buf, "ceiling (~): 4.00 uops/cycle"));
	assert_non_null(strstr(sb.buf, "FLOPS stack: GFLOP/s, dp peak 64"));
	strbuf_release(&sb);
	json_decref(o);
	td_stacks_release(&s);
}


/*
 * A stack with nothing computed takes one line of text, with the reason;
 * two or more are named together in one block, grouped by reason.
 */
static void text_is_short_for_what_was_not_recorded(void **state)
{
	struct fake f = FAKE(l3code_metrics, l3code_nums, no_strs);
	struct strbuf sb = STRBUF_INIT;
	struct td_stacks s;
	json_t *o;

	run(&f, "GenuineIntel", 4, &s);
	o = td_report_stacks_json(&s);
	td_report_text_stacks(&sb, o, 0);
	assert_non_null(strstr(sb.buf, "Stacks not computable from these counts:\n"));
	assert_non_null(strstr(sb.buf, "\n  multi-stage CPI: not measured\n"));
	assert_non_null(strstr(sb.buf, "\n  IPC and FLOPS: not measurable on this CPU: the table has no "
			       "FP-arithmetic counters\n"));
	assert_null(strstr(sb.buf, "IPC and FLOPS stacks: not computable"));
	assert_non_null(strstr(sb.buf, "ceiling (~): 1.94 uops/cycle"));
	assert_null(strstr(sb.buf, "component "));	/* no empty table */
	strbuf_release(&sb);
	json_decref(o);
	td_stacks_release(&s);
}

/* The charts: stages side by side, IPC and FLOPS as shares of their peaks. */
static void charts_of_the_main_scope(void **state)
{
	struct fake f = FAKE(intel_metrics, intel_nums, intel_strs);
	struct td_chart_list list = { 0 };
	struct strbuf err = STRBUF_INIT;
	struct td_stacks s;
	json_t *doc = json_object(), *scopes = json_array(), *scope = json_object();
	const struct td_chart *ms, *ipf;
	char dir[] = "/tmp/tdperf-test-stacks-XXXXXX";
	double sum = 0;
	size_t i;

	run(&f, "GenuineIntel", 4, &s);
	json_object_set_new(scope, "id", json_string("total"));
	json_object_set_new(scope, "kind", json_string("total"));
	json_object_set_new(scope, "stacks", td_report_stacks_json(&s));
	json_array_append_new(scopes, scope);
	json_object_set_new(doc, "scopes", scopes);
	td_charts_stacks(doc, &list);
	assert_int_equal(list.nr, 2);
	ms = list.items[0];
	ipf = list.items[1];
	assert_string_equal(ms->stem, "multistage-stack");
	/* two available stages (retire is not), seven components */
	assert_int_equal(ms->nrows, 2);
	assert_int_equal(ms->nseries, 7);
	assert_string_equal(ms->rows[1].label, "execute/issue");
	assert_near(ms->rows[1].values[TD_SC_MEMORY], 0.375);
	assert_true(isnan(ms->rows[1].values[TD_SC_LONG_LATENCY]));
	assert_non_null(strstr(ms->notes.buf, "execute Long-latency ops: not measurable on this CPU"));
	assert_non_null(strstr(ms->notes.buf, "retire stage: cannot be built"));
	assert_non_null(strstr(ms->notes.buf, "range of memory over the stages: 0.312 - 0.375 CPI"));
	/* IPC bar: base 1.2 of 4 uops/cycle = 30 %; FLOPS bar: base 16 of 64 = 25 % */
	assert_string_equal(ipf->stem, "ipc-flops-stack");
	assert_int_equal(ipf->nrows, 2);
	assert_near(ipf->rows[0].values[0], 30);
	assert_near(ipf->rows[1].values[0], 25);
	for (i = 0; i < ipf->nseries; i++)
		if (!isnan(ipf->rows[1].values[i]))
			sum += ipf->rows[1].values[i];
	assert_near(sum, 100);	/* the FLOPS bar reaches the peak exactly */
	/* gnuplot data and script are written */
	assert_non_null(mkdtemp(dir));
	assert_int_equal(td_chart_write(ms, dir, "svg", &err), 0);
	{
		char *gp = td_path_join(dir, "multistage-stack.gp");
		char *dat = td_path_join(dir, "multistage-stack.dat");

		assert_true(td_file_exists(gp) && td_file_exists(dat));
		free(gp);
		free(dat);
	}
	td_remove_tree(dir);
	td_chart_list_release(&list);
	strbuf_release(&err);
	json_decref(doc);
	td_stacks_release(&s);
}

/* ==== Part 2: the real tables' stack formulas on count sets built here ==== */

struct count {
	const char *name;
	double value;
};
struct counts {
	const struct count *c;
	size_t n;
};

static int counts_lookup(void *ctx, const char *name, double *value)
{
	struct counts *cs = ctx;
	size_t i;

	for (i = 0; i < cs->n; i++)
		if (!strcasecmp(cs->c[i].name, name)) {
			*value = cs->c[i].value;
			return 0;
		}
	return -1;
}

static const struct td_table *table(const char *name)
{
	struct strbuf err = STRBUF_INIT;
	const struct td_table *t = td_table_find(name, &err);

	if (!t)
		fail_msg("%s", err.buf);
	strbuf_release(&err);
	return t;
}

/*
 * Skylake, SMT off: 1,000,000 cycles, 800,000 instructions (CPI 1.25).
 * Top-Down (slots = 4 x cycles = 4,000,000):
 *   retiring  = 1,200,000 / 4e6 = 0.3
 *   frontend  =   800,000 / 4e6 = 0.2
 *   bad spec  = (1.5e6 - 1.2e6 + 4 x 25,000) / 4e6 = 0.1
 *   backend   = 1 - 0.2 - (1.5e6 + 1e5) / 4e6 = 0.4
 *   memory    = (200,000 + 50,000) / (400,000 + 20,000 + 0.3 x 100,000 + 50,000) x 0.4 = 0.2
 *   core      = 0.2;  divider = 30,000 / 1e6 = 0.03
 */
static const struct count skl_counts[] = {
	{ "CPU_CLK_UNHALTED.THREAD", 1e6 }, { "INST_RETIRED.ANY", 8e5 },
	{ "UOPS_RETIRED.RETIRE_SLOTS", 1.2e6 }, { "IDQ_UOPS_NOT_DELIVERED.CORE", 8e5 },
	{ "UOPS_ISSUED.ANY", 1.5e6 }, { "INT_MISC.RECOVERY_CYCLES", 2.5e4 },
	{ "CYCLE_ACTIVITY.STALLS_TOTAL", 4e5 }, { "CYCLE_ACTIVITY.STALLS_MEM_ANY", 2e5 },
	{ "EXE_ACTIVITY.BOUND_ON_STORES", 5e4 }, { "EXE_ACTIVITY.1_PORTS_UTIL", 2e4 },
	{ "EXE_ACTIVITY.2_PORTS_UTIL", 1e5 }, { "ARITH.DIVIDER_ACTIVE", 3e4 },
	{ "RS_EVENTS.EMPTY_CYCLES", 6e4 }, { "UOPS_RETIRED.STALL_CYCLES", 3e5 },
	{ "FP_ARITH_INST_RETIRED.256B_PACKED_DOUBLE", 1e6 },
	{ "FP_ARITH_INST_RETIRED.SCALAR_DOUBLE", 2e5 },
	{ "FP_ARITH_INST_RETIRED.128B_PACKED_DOUBLE", 0 },
	{ "FP_ARITH_INST_RETIRED.SCALAR_SINGLE", 0 },
	{ "FP_ARITH_INST_RETIRED.128B_PACKED_SINGLE", 0 },
	{ "FP_ARITH_INST_RETIRED.256B_PACKED_SINGLE", 0 },
	{ "IDQ.DSB_UOPS", 9e5 }, { "IDQ.DSB_CYCLES", 2e5 },
	{ "IDQ.MITE_UOPS", 2.5e5 }, { "IDQ.MITE_CYCLES", 1e5 },
	{ "IDQ.MS_UOPS", 5e4 }, { "IDQ.MS_CYCLES", 2.5e4 },
	{ "LSD.UOPS", 0 }, { "LSD.CYCLES_ACTIVE", 0 },
	{ "DSB2MITE_SWITCHES.PENALTY_CYCLES", 6e4 }, { "ICACHE_16B.IFDATA_STALL", 1e4 },
	{ "ICACHE_64B.IFTAG_STALL", 5e3 }, { "L2_RQSTS.CODE_RD_MISS", 1e4 },
	{ "#smt_on", 0 }, { "duration_time", 0.0005 },
};

static void skylake_table_stacks_by_hand(void **state)
{
	struct counts cs = { skl_counts, TD_ARRAY_SIZE(skl_counts) };
	struct td_env env = { counts_lookup, &cs };
	const struct td_table *t = table("skylake");
	const struct td_stage_stack *a, *e, *r;
	struct td_stacks s;
	double sum = 0;
	size_t i;
	int c;

	assert_int_equal(td_stacks_compute(t, &env, NULL, &s), 0);
	assert_null(s.reason);
	assert_near(s.cpi, 1.25);
	/* CPI stack: Level 1 x 1.25; memory bound 0.2 x 1.25 = 0.25 */
	for (i = 0; i < s.nr_cpi_parts; i++) {
		if (!strcmp(s.cpi_parts[i].id, "retiring"))
			assert_near(s.cpi_parts[i].cpi, 0.375);
		if (!strcmp(s.cpi_parts[i].id, "memory_bound"))
			assert_near(s.cpi_parts[i].cpi, 0.25);
		if (s.cpi_parts[i].level == 1)
			sum += s.cpi_parts[i].cpi;
	}
	assert_near(sum, 1.25);	/* the Level-1 components add up to CPI */

	/* allocation: base 0.3, fe 0.2, bs 0.1, mem 0.2, div 0.03, dep 0.17 (x 1e6 / 8e5) */
	a = &s.stages[TD_STAGE_ALLOC];
	assert_near(a->parts[TD_SC_BASE].cycles, 3e5);
	assert_near(a->parts[TD_SC_FRONTEND].value, 0.25);
	assert_near(a->parts[TD_SC_BRANCH].value, 0.125);
	assert_near(a->parts[TD_SC_MEMORY].value, 0.25);
	assert_near(a->parts[TD_SC_LONG_LATENCY].cycles, 3e4);
	assert_near(a->parts[TD_SC_DEPENDENCE].cycles, 1.7e5);
	assert_near(a->parts[TD_SC_OTHER].cycles, 0);

	/*
	 * execute: RS empty 60,000 split 1/3 branch (0.1 / (0.1 + 0.2)):
	 * branch 20,000, frontend 40,000; memory 200,000 + 50,000;
	 * non-memory stalls 400,000 - 60,000 - 250,000 = 90,000: long
	 * latency min(30,000, 90,000), dependence 60,000;
	 * other = 1e6 - 3e5 - 4e5 = 300,000
	 */
	e = &s.stages[TD_STAGE_EXECUTE];
	assert_near(e->parts[TD_SC_BRANCH].cycles, 2e4);
	assert_near(e->parts[TD_SC_FRONTEND].cycles, 4e4);
	assert_true(e->parts[TD_SC_FRONTEND].approximate);
	assert_near(e->parts[TD_SC_MEMORY].cycles, 2.5e5);
	assert_near(e->parts[TD_SC_LONG_LATENCY].cycles, 3e4);
	assert_near(e->parts[TD_SC_DEPENDENCE].cycles, 6e4);
	assert_near(e->parts[TD_SC_OTHER].cycles, 3e5);
	assert_near(e->sum_cpi, 1.25);

	/* retire: 300,000 retire-stall cycles split like the 400,000 execute stalls */
	r = &s.stages[TD_STAGE_RETIRE];
	assert_near(r->parts[TD_SC_FRONTEND].cycles, 3e4);	/* 40/400 x 300,000 */
	assert_near(r->parts[TD_SC_BRANCH].cycles, 1.5e4);
	assert_near(r->parts[TD_SC_MEMORY].cycles, 1.875e5);
	assert_near(r->parts[TD_SC_LONG_LATENCY].cycles, 2.25e4);
	assert_near(r->parts[TD_SC_DEPENDENCE].cycles, 4.5e4);
	assert_near(r->parts[TD_SC_OTHER].cycles, 4e5);
	assert_near(r->sum_cpi, 1.25);
	/* memory range: retire 187,500 / 8e5 = 0.234375 .. execute 0.3125 */
	assert_near(s.range_min[TD_SC_MEMORY], 0.234375);
	assert_near(s.range_max[TD_SC_MEMORY], 0.3125);

	/*
	 * FLOPS (Skylake: 2 FMA units x 4 DP lanes x 2 = 16 DP FLOP/cycle):
	 * FLOPs = 4 x 1e6 + 200,000 = 4.2e6; base = 4.2e6 / 16 = 262,500;
	 * narrow = scalar DP 200,000 x (1/4 - 1/16) = 37,500 (256-bit: 0);
	 * idle 700,000 split by execute: (3e5 + 4e4 + 2e4)/1e6 = 0.36 ->
	 * 252,000 frontend, 0.25 -> 175,000 memory, 0.09 -> 63,000
	 * dependence, 0.3 -> 210,000 other.
	 */
	assert_near(s.flops.flops_dp, 4.2e6);
	assert_near(s.flops.parts[TD_FC_BASE].cycles, 2.625e5);
	assert_near(s.flops.parts[TD_FC_NARROW].cycles, 3.75e4);
	assert_false(s.flops.parts[TD_FC_NON_FMA].measurable);
	assert_near(s.flops.parts[TD_FC_FRONTEND].cycles, 2.52e5);
	assert_near(s.flops.parts[TD_FC_MEMORY].cycles, 1.75e5);
	assert_near(s.flops.parts[TD_FC_DEPENDENCE].cycles, 6.3e4);
	assert_near(s.flops.parts[TD_FC_OTHER].cycles, 2.1e5);
	/* 2 GHz x 16 = 32 GFLOP/s peak; 4.2e6 FLOPs in 0.5 ms = 8.4 GFLOP/s */
	assert_near(s.flops.peak, 32);
	assert_near(s.flops.parts[TD_FC_BASE].value, 8.4);
	sum = 0;
	for (c = 0; c < TD_FC__NR; c++)
		if (s.flops.parts[c].measurable)
			sum += s.flops.parts[c].cycles;
	assert_near(sum, 1e6);	/* each cycle exactly once */

	/* frontend: as in part 1 (DSB 75%, ceiling 4 = retire width) */
	assert_near(s.frontend.paths[TD_FE_DSB].coverage, 0.75);
	assert_near(s.frontend.paths[TD_FE_LSD].coverage, 0);
	assert_near(s.frontend.paths[TD_FE_MITE].rate_active, 2.5);
	assert_near(s.frontend.code_beyond_l2_share, 0.2);	/* 64 x 1e4 / (8e5 x 4) */
	assert_near(s.frontend.ceiling, 4);
	assert_int_equal(s.nr_warnings, 0);
	td_stacks_release(&s);
}

/*
 * Zen 4: 1,000,000 cycles, 500,000 instructions (CPI 2), 6 dispatch
 * slots per cycle (6e6 slots): retiring 1.8e6/6e6 = 0.3, frontend
 * 1.2e6/6e6 = 0.2, bad speculation (2.1e6 - 1.8e6)/6e6 = 0.05, backend
 * 2.4e6/6e6 = 0.4, SMT contention 3e5/6e6 = 0.05; memory = 0.4 x
 * 150,000/300,000 = 0.2, core 0.2.
 */
static const struct count zen4_counts[] = {
	{ "ls_not_halted_cyc", 1e6 }, { "ex_ret_instr", 5e5 }, { "ex_ret_ops", 1.8e6 },
	{ "de_no_dispatch_per_slot.no_ops_from_frontend", 1.2e6 },
	{ "de_src_op_disp.all", 2.1e6 }, { "de_no_dispatch_per_slot.backend_stalls", 2.4e6 },
	{ "de_no_dispatch_per_slot.smt_contention", 3e5 },
	{ "ex_no_retire.load_not_complete", 1.5e5 }, { "ex_no_retire.not_complete", 3e5 },
	{ "ex_no_retire.empty", 8e4 },
	{ "fp_ret_sse_avx_ops.all", 4e6 }, { "fp_ret_sse_avx_ops.mac_flops", 3e6 },
	{ "de_src_op_disp.op_cache", 1.5e6 }, { "de_src_op_disp.decoder", 3e5 },
	{ "de_src_op_disp.loop_buffer", 3e5 }, { "ic_cache_fill_sys", 0 },
	{ "#smt_on", 0 },
};

static void zen4_table_stacks_by_hand(void **state)
{
	struct counts cs = { zen4_counts, TD_ARRAY_SIZE(zen4_counts) };
	struct td_env env = { counts_lookup, &cs };
	const struct td_table *t = table("zen4");
	const struct td_stage_stack *a, *r;
	struct td_stacks s;
	double sum = 0;
	int c;

	assert_int_equal(td_stacks_compute(t, &env, NULL, &s), 0);
	assert_near(s.cpi, 2);
	/* allocation: base 300k, fe 200k, bs 50k, mem 200k, dep 200k; other = SMT 50k */
	a = &s.stages[TD_STAGE_ALLOC];
	assert_string_equal(a->vendor_term, "dispatch (Top-Down dispatch slots)");
	assert_near(a->parts[TD_SC_BASE].cycles, 3e5);
	assert_near(a->parts[TD_SC_BRANCH].cycles, 5e4);
	assert_near(a->parts[TD_SC_DEPENDENCE].cycles, 2e5);
	assert_false(a->parts[TD_SC_LONG_LATENCY].measurable);
	assert_near(a->parts[TD_SC_OTHER].cycles, 5e4);
	/* execute: no events on AMD */
	assert_false(s.stages[TD_STAGE_EXECUTE].available);
	assert_non_null(strstr(s.stages[TD_STAGE_EXECUTE].reason, "AMD has no counters"));
	/*
	 * retire: empty 80,000 split 0.05/(0.05 + 0.2) = 0.2 -> branch 16,000,
	 * frontend 64,000; memory 150,000; dependence 300,000 - 150,000;
	 * other = 1e6 - 3e5 - 8e4 - 3e5 = 320,000
	 */
	r = &s.stages[TD_STAGE_RETIRE];
	assert_near(r->parts[TD_SC_BRANCH].cycles, 1.6e4);
	assert_near(r->parts[TD_SC_FRONTEND].cycles, 6.4e4);
	assert_near(r->parts[TD_SC_MEMORY].cycles, 1.5e5);
	assert_near(r->parts[TD_SC_DEPENDENCE].cycles, 1.5e5);
	assert_near(r->parts[TD_SC_OTHER].cycles, 3.2e5);
	/*
	 * FLOPS (precision not counted: double assumed, 16 FLOP/cycle):
	 * base 4e6/16 = 250,000; non-FMA (4e6 - 3e6)/16 = 62,500; idle
	 * 687,500 split by allocation: (3e5+2e5+5e4)/1e6 = .55 -> 378,125;
	 * memory .2 -> 137,500; dependence .2 -> 137,500; other .05 -> 34,375
	 */
	assert_true(s.flops.available);
	assert_string_equal(s.flops.order, "fma_first");
	assert_near(s.flops.parts[TD_FC_BASE].cycles, 2.5e5);
	assert_near(s.flops.parts[TD_FC_NON_FMA].cycles, 6.25e4);
	assert_true(s.flops.parts[TD_FC_NON_FMA].approximate);
	assert_near(s.flops.parts[TD_FC_FRONTEND].cycles, 3.78125e5);
	assert_near(s.flops.parts[TD_FC_OTHER].cycles, 3.4375e4);
	for (c = 0; c < TD_FC__NR; c++)
		if (s.flops.parts[c].measurable)
			sum += s.flops.parts[c].cycles;
	assert_near(sum, 1e6);
	assert_string_equal(s.flops.unit, "FLOP/cycle");	/* no duration counted */
	/*
	 * frontend: 2.1e6 ops: op cache 5/7, decoder 1/7, loop buffer 1/7;
	 * best cases 9, min(4, 32/4 x 3.6) = 4, 6 (dispatch width):
	 * path limit = 1 / (5/7/9 + 1/7/4 + 1/7/6) = 1 / 0.13889 = 7.2,
	 * ceiling = min(7.2, fetch (no code beyond L2: 32/4 x 3.6 / (1/7)),
	 * 6) = 6, the dispatch width
	 */
	assert_string_equal(s.frontend.paths[TD_FE_DSB].name, "Op cache");
	assert_near(s.frontend.paths[TD_FE_DSB].coverage, 5.0 / 7);
	assert_near(s.frontend.path_limit, 1 / (5.0 / 7 / 9 + 1.0 / 7 / 4 + 1.0 / 7 / 6));
	assert_near(s.frontend.path_limit, 7.2);
	assert_near(s.frontend.fetch_limit, 3.6 / (4.0 / 32 / 7));	/* 201.6 */
	assert_near(s.frontend.ceiling, 6);
	assert_string_equal(s.frontend.binding, "retire");
	td_stacks_release(&s);
}

/* Every table loads its stack metrics and parameters consistently. */
static void every_table_has_consistent_stack_data(void **state)
{
	const char *const *names = td_table_names();
	size_t i;

	for (i = 0; names[i]; i++) {
		const struct td_table *t = table(names[i]);
		double sp = td_table_param(t, "flops.peak_sp", NAN);
		double dp = td_table_param(t, "flops.peak_dp", NAN);
		size_t j, nr = 0;

		for (j = 0; j < td_table_nr_metrics(t); j++) {
			const struct td_metric *m = td_table_metric(t, j);

			if (strncmp(m->id, "stack_", 6))
				continue;
			nr++;
			/* tagged for tdperf record --stacks, described for tdperf explain */
			if (!m->groups || !strstr(m->groups, "Stack_") || !m->description)
				fail_msg("%s: %s lacks groups or description", names[i], m->id);
		}
		if (!td_table_find_metric(t, "stack_cycles"))
			fail_msg("%s: no stack_cycles", names[i]);
		/* M = 2 x lanes x units: SP peak is twice the DP peak */
		if (!isnan(sp) && !(fabs(sp - 2 * dp) < 1e-9))
			fail_msg("%s: peak_sp %g is not twice peak_dp %g", names[i], sp, dp);
		if (isnan(sp) && !td_table_param_string(t, "flops.unavailable"))
			fail_msg("%s: no peak FLOPs and no reason", names[i]);
		assert_true(nr >= 4);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cpi_and_allocation_stage_by_hand),
		cmocka_unit_test(execute_stage_residual_and_not_measurable),
		cmocka_unit_test(flops_stack_each_cycle_counts_once),
		cmocka_unit_test(ipc_stack_height_is_width),
		cmocka_unit_test(frontend_coverage_rates_ceiling_hints),
		cmocka_unit_test(frontend_ceiling_from_l3_fetch_bandwidth),
		cmocka_unit_test(amd_flops_with_non_fma_and_allocation_mix),
		cmocka_unit_test(negative_residual_is_reported_not_clamped),
		cmocka_unit_test(missing_count_gives_nan_with_reason),
		cmocka_unit_test(cpi_stack_from_tree_nodes),
		cmocka_unit_test(json_object_carries_marks_and_nulls),
		cmocka_unit_test(text_rendering_shows_stages_side_by_side),
		cmocka_unit_test(text_is_short_for_what_was_not_recorded),
		cmocka_unit_test(charts_of_the_main_scope),
		cmocka_unit_test(skylake_table_stacks_by_hand),
		cmocka_unit_test(zen4_table_stacks_by_hand),
		cmocka_unit_test(every_table_has_consistent_stack_data),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
