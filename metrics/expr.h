/*
 * metrics/expr.h: the metric expression language.
 *
 * Formulas are written in Linux perf's MetricExpr dialect (the syntax of
 * perf's and Intel's metric tables; grammar in metrics/expr.c).  A formula
 * is parsed once into a tree and evaluated many times.  The evaluator knows
 * nothing about where counts come from: every name (an event, a #literal,
 * another metric) is resolved through a lookup function the caller passes
 * in a struct td_env.
 *
 * Ownership: td_expr_parse() returns a tree the caller frees with
 * td_expr_free(); names handed to callbacks point into the tree and live as
 * long as it does.
 *
 * Errors: a syntax error is a NULL tree with one line in 'err'.  Evaluation
 * never fails: a value that cannot be computed (a name not found, a
 * division by zero) is NAN, and its reason is appended to 'why'.
 *
 * Name prefix: td_expr_.
 */
#ifndef TD_METRICS_EXPR_H
#define TD_METRICS_EXPR_H

#include "util/util.h"

struct td_expr;

/*
 * Resolves a name to a value.  'name' is an event ("INST_RETIRED.ANY",
 * "cpu_core@TOPDOWN.SLOTS@", "topdown-fe-bound"), a literal ("#smt_on",
 * "#slots", "duration_time"), or a metric id.  Returns 0 and sets *value,
 * or -1 when the name is unknown/not measured (the expression then
 * evaluates to NAN with a reason naming it).
 */
typedef int (*td_lookup_fn)(void *ctx, const char *name, double *value);

struct td_env {
	td_lookup_fn lookup;
	void *ctx;
};

/* Parse an expression; NULL with a one-line message in err on failure. */
struct td_expr *td_expr_parse(const char *text, struct strbuf *err);
void td_expr_free(struct td_expr *e);
/*
 * Evaluate.  Division by zero gives NAN (d_ratio gives 0); a NAN result
 * gets its reason appended to 'why' when why != NULL.
 */
double td_expr_eval(const struct td_expr *e, const struct td_env *env, struct strbuf *why);

/* What a name in an expression is. */
enum td_name_kind { TD_NAME_EVENT, TD_NAME_LITERAL, TD_NAME_METRIC };
/*
 * Call fn once per distinct name the expression needs.  'env' (may be NULL)
 * is used to fold constant conditions such as "x if #smt_on else y", so
 * only the events of the branch taken are reported.  'is_metric' (may be
 * NULL) tells metric references from events.
 */
void td_expr_names(const struct td_expr *e, const struct td_env *env,
		   int (*is_metric)(void *ctx, const char *name), void *is_metric_ctx,
		   void (*fn)(void *ctx, const char *name, enum td_name_kind kind), void *ctx);
/* Print the expression back (normalized) into sb. */
void td_expr_print(const struct td_expr *e, struct strbuf *sb);
/*
 * An event name of a formula as a user writes it on perf's command line:
 * perf's metric escapes undone ("topdown\-mem\-bound" is
 * topdown-mem-bound, "cpu@EVENT,cmask=0x6@" is cpu/EVENT,cmask=0x6/).
 */
void td_expr_user_name(struct strbuf *sb, const char *name);

#endif /* TD_METRICS_EXPR_H */
