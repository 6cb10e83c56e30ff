/*
 * metrics/stacks.h: cycle stacks of one scope (docs/stacks.md).
 *
 * The Top-Down CPI stack (Level 1 and 2 fractions times CPI), the
 * multi-stage CPI stacks, FLOPS and IPC stacks of Eyerman et al. 2018, and
 * the frontend delivery analysis of Forte 2021 (DSB, MITE, MS and LSD
 * paths against the fetch and retire limits).  They are computed from a
 * table's stack metrics (ids "stack_*", groups Stack_CPI /
 * Stack_Multistage / Stack_FLOPS / Stack_Frontend) and its "stacks"
 * parameters: the formulas are data, this module never names an event.
 * The data contract (metric ids, units, parameters) is docs/stacks.md.
 *
 * Every part carries its cycles (absolute, for the scope) and its value in
 * the stack's unit.  A part that this CPU's counters cannot measure has
 * measurable == 0 and a reason; a part that could not be computed here
 * (missing count) has value NAN and a reason.  Approximations are marked.
 *
 * Ownership: struct td_stacks owns its char * strings and arrays
 * (td_stacks_release()); its const char * fields are static names or
 * point into the table, which must outlive the result.
 *
 * Errors: td_stacks_compute() fails only when the tree itself cannot be
 * evaluated; everything below that is a NAN with its reason.
 *
 * Name prefix: td_stacks_, td_stack_, TD_SC_ / TD_FC_ / TD_FE_ (components).
 */
#ifndef TD_METRICS_STACKS_H
#define TD_METRICS_STACKS_H

#include <stddef.h>

#include "metrics/expr.h"
#include "metrics/table.h"
#include "metrics/tree.h"

/* Components shared by the three stage stacks (Eyerman et al. 2018, section III). */
enum td_stack_comp {
	TD_SC_BASE, TD_SC_FRONTEND, TD_SC_BRANCH, TD_SC_MEMORY,
	TD_SC_LONG_LATENCY, TD_SC_DEPENDENCE, TD_SC_OTHER, TD_SC__NR
};
/* Pipeline stages, named in our vocabulary (docs/stacks.md maps them). */
enum td_stack_stage { TD_STAGE_ALLOC, TD_STAGE_EXECUTE, TD_STAGE_RETIRE, TD_STAGE__NR };
/* FLOPS-stack components (Eyerman et al. 2018, Table III). */
enum td_flops_comp {
	TD_FC_BASE, TD_FC_NON_FMA, TD_FC_NARROW, TD_FC_MASKED, TD_FC_FRONTEND,
	TD_FC_NON_VFP, TD_FC_MEMORY, TD_FC_DEPENDENCE, TD_FC_OTHER, TD_FC__NR
};
/* Frontend delivery paths (Forte 2021). */
enum td_fe_path { TD_FE_DSB, TD_FE_MITE, TD_FE_MS, TD_FE_LSD, TD_FE__NR };

struct td_stack_part {
	const char *id;          /* "memory" */
	const char *name;        /* "Data cache / memory" */
	double cycles;           /* cycles of the scope, NAN when unknown */
	double value;            /* in the stack's unit, NAN when unknown */
	int measurable;          /* 0: not measurable on this CPU */
	int approximate;
	char *reason;            /* why NAN / not measurable, or how approximated */
	char *formula;           /* how it was computed (table formula or derivation) */
};

struct td_stage_stack {
	const char *id;          /* "alloc", "execute", "retire" */
	const char *name;        /* "Allocation" */
	const char *paper_term;  /* Eyerman et al. 2018's name: "dispatch", "issue", "commit" */
	const char *vendor_term; /* the vendor's name for the same point */
	int available;
	char *reason;            /* why the stage cannot be built on this CPU */
	struct td_stack_part parts[TD_SC__NR]; /* value = cycles per instruction */
	double sum_cpi;          /* sum of the parts (equals CPI by construction) */
};

struct td_cpi_part {
	const char *id, *name, *parent;
	int level;               /* 1 or 2 */
	double fraction;         /* the Top-Down node's value */
	double cpi;              /* fraction x CPI */
	int approximate;
	char *reason;            /* NULL, or why NAN / how approximated */
};

struct td_flops_stack {
	int available;
	char *reason;
	double flops, flops_sp, flops_dp; /* FLOPs counted (FMA counts 2) */
	const char *precision;   /* "sp", "dp": the peak the stack is drawn against */
	int mixed_precision;     /* both precisions present: base is width-equivalent */
	double peak_per_cycle;   /* M = fma x lanes x units, of 'precision' */
	double seconds;          /* NAN when the scope's duration is unknown */
	double freq_ghz;         /* cycles / seconds / 1e9 */
	double peak;             /* stack height in 'unit' */
	double achieved;         /* FLOPs / seconds (or per cycle) in 'unit' */
	const char *unit;        /* "GFLOP/s", or "FLOP/cycle" without a duration */
	const char *order;       /* "narrow_first" or "fma_first" */
	int mix_stage;           /* stage whose mix split the idle FP-unit cycles, -1 none */
	struct td_stack_part parts[TD_FC__NR];
};

struct td_ipc_stack {
	int available;
	char *reason;
	int stage;               /* the stage stack it is drawn from */
	double max_ipc;          /* the stack's height: W uops per cycle */
	double upc, ipc;         /* retired uops and instructions per cycle */
	struct td_stack_part parts[TD_SC__NR]; /* value = uops per cycle */
};

struct td_fe_path_value {
	const char *id, *name;
	int measured;            /* 0: this CPU has no counter for the path */
	double uops;
	double coverage;         /* share of delivered uops */
	double active_cycles;
	double rate_active;      /* uops per cycle while delivering (P_Only) */
	double rate_overall;     /* uops per cycle over all cycles (P_Overall) */
	double nominal_rate;     /* the table's (or Forte 2021's) best case, NAN unknown */
	char *reason;
};

struct td_frontend {
	int available;
	char *reason;
	struct td_fe_path_value paths[TD_FE__NR];
	double delivered_uops;
	double uops_per_insn;
	double avg_insn_bytes;
	int avg_insn_assumed;    /* the parameter's default, not measured */
	double code_beyond_l2_share; /* share of MITE-fetched bytes from L3 or DRAM, NAN unknown */
	double path_limit;       /* uops/cycle, coverage-weighted over the paths */
	double fetch_limit;      /* uops/cycle the fetch bandwidth allows */
	double retire_width;
	double ceiling;          /* min of the three */
	const char *binding;     /* "path", "fetch" or "retire" */
	const char *fetch_level; /* "L1/L2", "L3" */
	double measured_upc;     /* retired uops per cycle */
	double headroom;         /* ceiling - measured_upc */
	char *ceiling_reason;    /* why the ceiling is NAN, else NULL */
	char **hints;
	size_t nr_hints;
};

struct td_stacks {
	double cycles, instructions, cpi, uops_retired;
	char *reason;            /* why nothing could be computed, else NULL */
	struct td_cpi_part *cpi_parts;
	size_t nr_cpi_parts;
	struct td_stage_stack stages[TD_STAGE__NR];
	double range_min[TD_SC__NR], range_max[TD_SC__NR]; /* CPI, NAN when no stage has it */
	struct td_flops_stack flops;
	struct td_ipc_stack ipc;
	struct td_frontend frontend;
	char **warnings;
	size_t nr_warnings;
};

/*
 * Compute every stack of one scope.  'tree' is the scope's evaluated tree
 * (td_tree_eval with the same env), or NULL to evaluate it here.  Returns
 * 0 (parts that cannot be computed are NAN with reasons), or -1 when the
 * tree itself cannot be evaluated.  Release with td_stacks_release().
 */
int td_stacks_compute(const struct td_table *t, const struct td_env *env,
		      const struct td_tree_result *tree, struct td_stacks *out);
void td_stacks_release(struct td_stacks *s);
/* Names of the shared component ids, in stack order (bottom first). */
const char *td_stack_comp_id(enum td_stack_comp c);
const char *td_stack_stage_id(enum td_stack_stage s);

#endif /* TD_METRICS_STACKS_H */
