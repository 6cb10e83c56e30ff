/*
 * metrics/stacks-int.h: what the stack arithmetic reads, separated from
 * where it comes from.
 *
 * td_stacks_compute() (metrics/stacks.h) adapts a loaded table plus one scope's
 * evaluated metrics to this interface; the unit tests build it from
 * numbers worked out by hand, so the arithmetic of every stack is checked
 * without depending on how tables are stored.  Not a public interface.
 */
#ifndef TD_STACKS_INT_H
#define TD_STACKS_INT_H

#include "metrics/stacks.h"
#include "metrics/tree.h"

/* One evaluated table metric, as the stacks see it. */
struct td_stack_metric {
	const char *id;
	double value;            /* NAN when it could not be computed */
	const char *reason;      /* why NAN, or NULL */
	const char *formula;     /* the table's formula text */
	const char *description; /* the table's description, may be NULL */
	int approximate;         /* computed by a formula marked approximate */
	const char *note;        /* that formula's note (what it approximates) */
};

struct td_stack_input {
	const char *vendor;      /* "GenuineIntel", "AuthenticAMD", or NULL */
	double slots_per_cycle;  /* the table's pipeline width W */
	/* Look up a metric of the table; NULL when the table does not define it. */
	const struct td_stack_metric *(*metric)(void *ctx, const char *id);
	/*
	 * Look up a stack parameter by dotted key ("flops.peak_sp").  Return 1
	 * and set *value / *str when present (a number or a string), else 0.
	 */
	int (*param_num)(void *ctx, const char *key, double *value);
	const char *(*param_str)(void *ctx, const char *key);
	void *ctx;
	/* The evaluated Top-Down tree (Level 1 and 2 make the CPI stack). */
	const struct td_node_value *nodes;
	size_t nr_nodes;
};

/* Build every stack from 'in'; see td_stacks_compute(). */
int td_stacks_assemble(const struct td_stack_input *in, struct td_stacks *out);

#endif /* TD_STACKS_INT_H */
