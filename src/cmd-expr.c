/*
 * tdperf expr: evaluate a metric expression (perf's MetricExpr dialect),
 * or list the events it needs.
 */
#include "src/builtin.h"
#include "metrics/expr.h"
#include "metrics/table.h"
#include "util/util.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char usage[] =
	"usage: tdperf expr [options] 'EXPRESSION'\n"
	"\n"
	"Evaluate EXPRESSION (Linux perf's MetricExpr dialect: events, #literals,\n"
	"metric names of the table) and print its value, or with --events the\n"
	"names it needs.\n"
	"\n"
	"  --cpu NAME          use this CPU's formula table for metric names\n"
	"                      (perf name like skylakex, our name, or CPUID string)\n"
	"  --table FILE        use a formula table file instead\n"
	"  --var NAME=VALUE    give a value to an event, literal (#smt_on) or metric;\n"
	"                      repeatable\n"
	"  --events            print the events (and literals) needed, one per line,\n"
	"                      metric references expanded through the table\n"
	"\n"
	"Exit status: 0 with a value, 1 when the value is not computable (the reason\n"
	"is printed), 2 for bad usage or a malformed expression.\n";

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
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "table", required_argument, NULL, 't' },
		{ "var", required_argument, NULL, 'V' },
		{ "events", no_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vars vs = { 0 };
	const char *cpu = NULL, *table_file = NULL;
	struct td_table *own = NULL;
	const struct td_table *t = NULL;
	struct strbuf err = STRBUF_INIT, why = STRBUF_INIT;
	struct td_expr *e;
	struct td_env env;
	int c, want_events = 0, rc = 0;
	size_t i;

	optind = 1;
	while ((c = td_getopt(argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 'c': cpu = optarg; break;
		case 't': table_file = optarg; break;
		case 'e': want_events = 1; break;
		case 'V': {
			const char *eq = strrchr(optarg, '=');
			char *end;
			double v;

			if (!eq || eq == optarg)
				return td_usage_error(usage, "--var takes NAME=VALUE, not '%s'", optarg);
			v = strtod(eq + 1, &end);
			if (end == eq + 1 || *end)
				return td_usage_error(usage, "--var %s: not a number", optarg);
			TD_GROW(vs.v, vs.alloc, vs.nr + 1);
			vs.v[vs.nr].name = xstrndup(optarg, (size_t)(eq - optarg));
			vs.v[vs.nr++].value = v;
			break;
		}
		case 'h': return td_usage_ok(usage);
		default: return td_usage_error(usage, NULL);
		}
	}
	if (optind != argc - 1)
		return td_usage_error(usage, "needs exactly one EXPRESSION");
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
	e = td_expr_parse(argv[optind], &err);
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
