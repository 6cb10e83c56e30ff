/*
 * Private to metrics/: the parsed form of an expression, shared by the
 * parser (expr.c), the table loader (table.c), the tree evaluator (tree.c)
 * and the table importer.  Everyone else uses metrics/expr.h.
 */
#ifndef TD_METRICS_EXPR_INT_H
#define TD_METRICS_EXPR_INT_H

#include "metrics/expr.h"

enum td_op {
	TD_OP_NUM, TD_OP_NAME,
	TD_OP_NEG, TD_OP_NOT,
	TD_OP_ADD, TD_OP_SUB, TD_OP_MUL, TD_OP_DIV, TD_OP_MOD,
	TD_OP_LT, TD_OP_GT, TD_OP_LE, TD_OP_GE, TD_OP_EQ, TD_OP_NE,
	TD_OP_AND, TD_OP_OR, TD_OP_XOR,
	TD_OP_IF,        /* a if b else c: kid[0]=a, kid[1]=b, kid[2]=c */
	TD_OP_MIN, TD_OP_MAX, TD_OP_DRATIO,
	TD_OP_SOURCE_COUNT, TD_OP_HAS_EVENT, /* kid[0] is a TD_OP_NAME */
};

struct td_expr {
	enum td_op op;
	double num;              /* TD_OP_NUM */
	char *name;              /* TD_OP_NAME: unescaped; literals lower-cased */
	enum td_name_kind kind;  /* TD_OP_NAME: event or literal (metric once bound) */
	int metric;              /* TD_OP_NAME bound to metric index, else -1 */
	int correction;          /* TD_OP_NAME: a correction-only term (0 when missing) */
	int slot;                /* TD_OP_NAME: per-table input slot for the lookup cache, -1 none */
	struct td_expr *kid[3];
	int height;              /* longest path to a leaf, set by the parser */
	int literal_only;        /* numbers and #literals only: its value is the same
	                            for every count set of one run */
};

/*
 * The evaluator, printer and walkers recurse over the tree, one stack frame
 * per level: the parser refuses deeper trees, so that a 100,000-term sum in a
 * table file is a one-line error instead of a stack overflow.  Real formulas
 * (Intel's TMA, perf's metrics) stay below 40.
 */
#define TD_EXPR_MAX_HEIGHT 2000

/*
 * State of one evaluation, for the tree evaluator: it resolves bound
 * metric references itself and learns whether a name was missing or a
 * correction term was dropped.
 */
struct td_eval_ctx {
	const struct td_env *env;
	/* resolves a bound metric; NULL: metrics go through env->lookup by name */
	double (*metric)(struct td_eval_ctx *cx, int index);
	void *owner;
	double *cache;           /* per-evaluation lookup cache indexed by slot, or NULL */
	unsigned char *cached;   /* 0 not looked up, 1 found, 2 not found */
	int missing;             /* a name could not be looked up */
	int approximate;         /* a correction term was taken as 0, or a used metric was approximate */
	struct strbuf *why;      /* reasons (may be NULL) */
	/*
	 * Counted with or without 'why': a division by zero, or an 'if' whose
	 * condition depends on counts.  While it stays 0, which names were
	 * looked up, and so every reason, follows from which names the
	 * environment has, not from their values.
	 */
	int value_dependent;
};

double td_expr_eval_cx(const struct td_expr *e, struct td_eval_ctx *cx);
/*
 * Append the "; "-separated reasons of 'items' to 'why', each only if
 * 'why' does not hold it yet, so a reason names an event once however
 * many metrics on the way use it.
 */
void td_reason_merge(struct strbuf *why, const char *items);

/* Does the name start a literal (#smt_on, duration_time)? */
int td_name_is_literal(const char *name);
/* Build nodes (the importer rewrites trees). */
struct td_expr *td_expr_new(enum td_op op);
/* Fold constant sub-expressions (numbers only) in place. */
void td_expr_fold(struct td_expr *e);
/* Print 'name' escaped as the parser expects it. */
void td_expr_print_name(struct strbuf *sb, const char *name);

#endif
