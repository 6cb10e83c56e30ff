/*
 * tdperf expr: evaluate a metric expression (perf's MetricExpr dialect),
 * or list the events it needs.
 */
#include "src/builtin.h"
#include "metrics/expr.h"
#include "metrics/table.h"
#include "util/parse-options.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const expr_usage[] = {
	"tdperf expr [options] 'EXPRESSION'",
	"",
	"Evaluate EXPRESSION (Linux perf's MetricExpr dialect: events, #literals,",
	"metric names of the table) and print its value, or with --events the",
	"names it needs.",
	"",
	"Exit status: 0 with a value, 1 when the value is not computable (the reason",
	"is printed), 2 for bad usage or a malformed expression.",
	NULL,
};

struct var {
	char *name;
	double value;
};

struct vars {
	struct var *v;
	size_t nr, alloc;
};

static int var_lookup(void *ctx, const char *name, double *value)
{
	struct vars *vs = ctx;
	size_t i;

	for (i = 0; i < vs->nr; i++)
		if (!strcasecmp(vs->v[i].name, name)) {
			*value = vs->v[i].value;
			return 0;
		}
	return -1;
}

/* --var NAME=VALUE, into the struct vars at opt->value. */
static int parse_var(const struct td_option *opt, const char *arg, struct strbuf *err)
{
	struct vars *vs = opt->value;
	const char *eq = strrchr(arg, '=');
	char *end;
	double v;

	if (!eq || eq == arg) {
		strbuf_addf(err, "--var takes NAME=VALUE, not '%s'", arg);
		return -1;
	}
	v = strtod(eq + 1, &end);
	if (end == eq + 1 || *end) {
		strbuf_addf(err, "--var %s: not a number", arg);
		return -1;
	}
	TD_GROW(vs->v, vs->alloc, vs->nr + 1);
	vs->v[vs->nr].name = xstrndup(arg, (size_t)(eq - arg));
	vs->v[vs->nr++].value = v;
	return 0;
}

struct names_out {
	const struct td_table *t;
	const struct td_env *env;
	char **seen;
	size_t nr, alloc;
};

static int is_metric(void *ctx, const char *name)
{
	struct names_out *no = ctx;

	return no->t && td_table_find_metric(no->t, name) != NULL;
}

static void collect(void *ctx, const char *name, enum td_name_kind kind);

/* Expand metric references through the table; print each input once. */
static void collect(void *ctx, const char *name, enum td_name_kind kind)
{
	struct names_out *no = ctx;
	size_t i;
	double v;

	for (i = 0; i < no->nr; i++)
		if (!strcmp(no->seen[i], name))
			return;
	TD_GROW(no->seen, no->alloc, no->nr + 1);
	no->seen[no->nr++] = xstrdup(name);
	if (kind == TD_NAME_METRIC && no->t &&
	    !(no->env && no->env->lookup(no->env->ctx, name, &v) == 0)) {
		const struct td_metric *m = td_table_find_metric(no->t, name);

		td_expr_names(m->expr, no->env, is_metric, no, collect, no);
		return;
	}
	printf("%s%s\n", kind == TD_NAME_LITERAL ? "literal " : kind == TD_NAME_METRIC ? "metric " : "",
	       name);
}

int cmd_expr(int argc, char **argv)
{
	struct vars vs = { 0 };
	const char *cpu = NULL, *table_file = NULL;
	struct td_table *own = NULL;
	const struct td_table *t = NULL;
	struct strbuf err = STRBUF_INIT, why = STRBUF_INIT;
	struct td_expr *e;
	struct td_env env;
	int want_events = 0, rc = 0;
	size_t i;
	const struct td_option options[] = {
		TD_OPT_STRING(0, "cpu", &cpu, "NAME",
			      "use this CPU's formula table for metric names (perf name like "
			      "skylakex, our name, or CPUID string)"),
		TD_OPT_STRING(0, "table", &table_file, "FILE", "use a formula table file instead"),
		TD_OPT_CALLBACK(0, "var", &vs, "NAME=VALUE",
				"give a value to an event, literal (#smt_on) or metric; repeatable", parse_var),
		TD_OPT_BOOL(0, "events", &want_events,
			    "print the events (and literals) needed, one per line, metric references "
			    "expanded through the table"),
		TD_OPT_END(),
	};

	argc = td_parse_options(argc, argv, options, expr_usage, 0);
	if (argc != 1) {
		rc = td_usage_error(expr_usage, "needs exactly one EXPRESSION");
		goto out;
	}
	if (table_file) {
		own = td_table_load(table_file, &err);
		if (!own)
			goto bad;
		t = own;
	} else if (cpu) {
		t = td_table_find(cpu, &err);
		if (!t)
			goto bad;
	}
	e = td_expr_parse(argv[0], &err);
	if (!e)
		goto bad;
	env.lookup = var_lookup;
	env.ctx = &vs;
	if (want_events) {
		struct names_out no = { t, &env, NULL, 0, 0 };

		td_expr_names(e, &env, is_metric, &no, collect, &no);
		for (i = 0; i < no.nr; i++)
			free(no.seen[i]);
		free(no.seen);
	} else {
		int approx = 0;
		double v = t ? td_table_eval_expr(t, e, &env, &why, &approx)
			     : td_expr_eval(e, &env, &why);

		if (isnan(v)) {
			printf("not computable: %s\n", why.len ? why.buf : "NaN");
			rc = 1;
		} else if (isinf(v)) {
			printf("not computable: the result overflows a double (%s)\n", v > 0 ? "+inf" : "-inf");
			rc = 1;
		} else {
			if (v == 0)
				v = 0; /* -0 (0 * -1) prints as 0 */
			printf("%.10g", v);
			if (approx)
				printf("  (approximate: %s)", why.len ? why.buf : "approximate formula");
			printf("\n");
		}
	}
	td_expr_free(e);
	goto out;
bad:
	error("%s", err.buf);
	rc = 2;
out:
	for (i = 0; i < vs.nr; i++)
		free(vs.v[i].name);
	free(vs.v);
	td_table_free(own);
	strbuf_release(&err);
	strbuf_release(&why);
	return rc;
}
