/*
 * Unit tests for the metric expression language (metrics/expr.c): every
 * construct of perf's MetricExpr dialect, NaN handling, names and printing.
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

struct kv {
	const char *name;
	double value;
};

static int kv_lookup(void *ctx, const char *name, double *value)
{
	const struct kv *kv = ctx;

	for (; kv->name; kv++)
		if (!strcmp(kv->name, name)) {
			*value = kv->value;
			return 0;
		}
	return -1;
}

static const struct kv vars[] = {
	{ "INST_RETIRED.ANY", 1000 },
	{ "CPU_CLK_UNHALTED.THREAD", 500 },
	{ "#smt_on", 1 },
	{ "#slots", 4 },
	{ "topdown-fe-bound", 30 },
	{ "cpu@INST_DECODED.DECODERS,cmask=1@", 7 },
	{ "cpu_core@TOPDOWN.SLOTS@", 100 },
	{ "INST_RETIRED.ANY:k", 11 },
	{ "zero", 0 },
	{ "duration_time", 2 },
	{ "4k_aliasing", 0.25 },
	{ NULL, 0 },
};

/* Evaluate text with vars; fail the test on a parse error. */
static double ev(const char *text)
{
	struct strbuf err = STRBUF_INIT;
	struct td_expr *e = td_expr_parse(text, &err);
	struct td_env env = { kv_lookup, (void *)vars };
	double v;

	if (!e)
		fail_msg("parse failed: %s", err.buf);
	v = td_expr_eval(e, &env, NULL);
	td_expr_free(e);
	strbuf_release(&err);
	return v;
}

static void numbers_and_arithmetic(void **state)
{
	assert_true(ev("1 + 2 * 3") == 7);
	assert_true(ev("(1 + 2) * 3") == 9);
	assert_true(ev("10 - 4 - 3") == 3);        /* left associative */
	assert_true(ev("2 * 3 / 4") == 1.5);
	assert_true(ev("7 % 4") == 3);
	assert_true(ev("1e9") == 1e9);
	assert_true(ev("2.5e-3") == 2.5e-3);
	assert_true(ev("0x10 + 1") == 17);
	assert_true(ev("-3 + 5") == 2);
	assert_true(ev("- -3") == 3);
	assert_true(ev(".5 * 4") == 2);
}

static void comparisons_and_logic(void **state)
{
	assert_true(ev("1 < 2") == 1);
	assert_true(ev("2 < 1") == 0);
	assert_true(ev("3 > 2 & 1 > 2") == 0);
	assert_true(ev("3 > 2 | 1 > 2") == 1);
	assert_true(ev("1 ^ 1") == 0);
	assert_true(ev("1 ^ 0") == 1);
	/* '&' binds tighter than '|': 1 | (0 & 0) */
	assert_true(ev("1 | 0 & 0") == 1);
	assert_true(ev("1 + 1 > 1") == 1);
	assert_true(ev("!0") == 1);
}

static void conditionals(void **state)
{
	assert_true(ev("1 if 0 else 2") == 2);
	assert_true(ev("1 if 1 else 2") == 1);
	assert_true(ev("(1 if 0 else 2) + 1") == 3);
	/* right associative: 1 if 0 else (2 if 0 else 3) */
	assert_true(ev("1 if 0 else 2 if 0 else 3") == 3);
	assert_true(ev("INST_RETIRED.ANY / 2 if #smt_on else INST_RETIRED.ANY") == 500);
	/* the branch not taken may be missing */
	assert_true(ev("1 if #smt_on else NOT_THERE") == 1);
}

static void functions(void **state)
{
	assert_true(ev("min(3, 2)") == 2);
	assert_true(ev("max(3, 2 + 5)") == 7);
	assert_true(ev("d_ratio(1, 0)") == 0);
	assert_true(ev("d_ratio(3, 2)") == 1.5);
	assert_true(ev("has_event(INST_RETIRED.ANY)") == 1);
	assert_true(ev("has_event(NOT_THERE)") == 0);
	assert_true(ev("source_count(INST_RETIRED.ANY)") == 1);
}

static void names_and_escapes(void **state)
{
	assert_true(ev("INST_RETIRED.ANY / CPU_CLK_UNHALTED.THREAD") == 2);
	assert_true(ev("topdown\\-fe\\-bound") == 30);
	assert_true(ev("cpu@INST_DECODED.DECODERS\\,cmask\\=1@") == 7);
	assert_true(ev("cpu_core@TOPDOWN.SLOTS@") == 100);
	assert_true(ev("INST_RETIRED.ANY:k") == 11);
	assert_true(ev("#SMT_on") == 1);             /* literals are case-insensitive */
	assert_true(ev("#slots * 2") == 8);
	assert_true(ev("duration_time") == 2);
	assert_true(ev("4k_aliasing * 4") == 1);
}

static void nan_and_reasons(void **state)
{
	struct strbuf err = STRBUF_INIT, why = STRBUF_INIT;
	struct td_env env = { kv_lookup, (void *)vars };
	struct td_expr *e;
	double v;

	e = td_expr_parse("INST_RETIRED.ANY / zero", &err);
	assert_non_null(e);
	v = td_expr_eval(e, &env, &why);
	assert_true(isnan(v));
	assert_non_null(strstr(why.buf, "division by zero"));
	td_expr_free(e);

	strbuf_reset(&why);
	e = td_expr_parse("1 + MISSING.EVENT * 2", &err);
	v = td_expr_eval(e, &env, &why);
	assert_true(isnan(v));
	assert_non_null(strstr(why.buf, "MISSING.EVENT not measured"));
	td_expr_free(e);

	/* NaN propagates through every operator */
	assert_true(isnan(ev("min(1, 1 / zero)")));
	assert_true(isnan(ev("(1 / zero) > 1")));
	/* but a deciding side of & and | wins */
	assert_true(ev("0 & (1 / zero)") == 0);
	assert_true(ev("1 | (1 / zero)") == 1);
	strbuf_release(&err);
	strbuf_release(&why);
}

static void parse_errors(void **state)
{
	static const char *bad[] = {
		"", "1 +", "(1", "1)", "min(1)", "1 if 2", "1 else 2", "a @b", "\\",
		"1 $ 2", "cpu@UNTERMINATED", "0x", "has_event(1)", "max(1,,2)",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct strbuf err = STRBUF_INIT;
		struct td_expr *e = td_expr_parse(bad[i], &err);

		if (e)
			fail_msg("'%s' parsed", bad[i]);
		assert_true(err.len > 0);
		assert_non_null(strstr(err.buf, "offset"));
		strbuf_release(&err);
	}
}

static void deep_nesting_is_an_error_not_a_crash(void **state)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	int i;

	for (i = 0; i < 10000; i++)
		strbuf_addch(&text, '(');
	assert_null(td_expr_parse(text.buf, &err));
	assert_non_null(strstr(err.buf, "nested too deeply"));
	strbuf_release(&text);
	strbuf_release(&err);
}

struct seen {
	char names[16][64];
	int kinds[16];
	int n;
};

static void note_name(void *ctx, const char *name, enum td_name_kind kind)
{
	struct seen *s = ctx;

	snprintf(s->names[s->n], sizeof(s->names[0]), "%s", name);
	s->kinds[s->n++] = kind;
}

static int metric_x(void *ctx, const char *name)
{
	return !strcmp(name, "tma_x");
}

static void names_fold_constant_conditions(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct td_expr *e = td_expr_parse(
		"(A.ANY / 2 if #smt_on else B.ONE) + tma_x + A.ANY + duration_time", &err);
	struct td_env env = { kv_lookup, (void *)vars };
	struct seen s = { 0 };

	assert_non_null(e);
	td_expr_names(e, &env, metric_x, NULL, note_name, &s);
	/* #smt_on is 1: B.ONE is not needed; A.ANY once */
	assert_int_equal(s.n, 4);
	assert_string_equal(s.names[0], "#smt_on");   /* the condition comes first */
	assert_int_equal(s.kinds[0], TD_NAME_LITERAL);
	assert_string_equal(s.names[1], "A.ANY");
	assert_string_equal(s.names[2], "tma_x");
	assert_int_equal(s.kinds[2], TD_NAME_METRIC);
	assert_string_equal(s.names[3], "duration_time");
	/* without an env both branches are needed */
	memset(&s, 0, sizeof(s));
	td_expr_names(e, NULL, NULL, NULL, note_name, &s);
	assert_int_equal(s.n, 5);
	td_expr_free(e);
	strbuf_release(&err);
}

static void print_round_trips(void **state)
{
	static const char *texts[] = {
		"a - (b - c)", "(a + b) * c", "x if c > 1 else y", "min(a, b) / d_ratio(c, d)",
		"topdown\\-fe\\-bound / slots", "cpu@INST_DECODED.DECODERS\\,cmask\\=1@ * 2",
		"-(a + b)", "(1 if a else 2) if b else 3", "a < b & c > d | e", "#smt_on",
		"4k_aliasing + 1e-05", "has_event(X.Y)",
	};
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct strbuf err = STRBUF_INIT, out = STRBUF_INIT, out2 = STRBUF_INIT;
		struct td_expr *e = td_expr_parse(texts[i], &err), *e2;

		assert_non_null(e);
		td_expr_print(e, &out);
		e2 = td_expr_parse(out.buf, &err);
		if (!e2)
			fail_msg("printed '%s' as '%s', which does not parse: %s", texts[i], out.buf, err.buf);
		td_expr_print(e2, &out2);
		assert_string_equal(out.buf, out2.buf);
		td_expr_free(e);
		td_expr_free(e2);
		strbuf_release(&err);
		strbuf_release(&out);
		strbuf_release(&out2);
	}
}

static void print_keeps_meaning(void **state)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct td_expr *e = td_expr_parse("10 - (4 - 3)", &err);

	td_expr_print(e, &out);
	assert_string_equal(out.buf, "10 - (4 - 3)");
	assert_true(ev(out.buf) == 9);
	td_expr_free(e);
	strbuf_release(&out);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(numbers_and_arithmetic),
		cmocka_unit_test(comparisons_and_logic),
		cmocka_unit_test(conditionals),
		cmocka_unit_test(functions),
		cmocka_unit_test(names_and_escapes),
		cmocka_unit_test(nan_and_reasons),
		cmocka_unit_test(parse_errors),
		cmocka_unit_test(deep_nesting_is_an_error_not_a_crash),
		cmocka_unit_test(names_fold_constant_conditions),
		cmocka_unit_test(print_round_trips),
		cmocka_unit_test(print_keeps_meaning),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
