/*
 * Unit tests for metrics/stats.c.  The expected values are scipy 1.10.1's
 * (scipy.special.betainc, scipy.stats.t.cdf; quantiles as the root of
 * scipy.special.stdtr found by scipy.optimize.brentq to 1e-15, since
 * scipy.stats.t.ppf itself is off by up to 2.4e-9 relative in the far
 * tail; printed with 17 digits) and closed forms, over a wider range of degrees of freedom, levels and
 * tails than the run directories of t1210 reach; the pooled samples are
 * worked out by hand in the comments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>

#include "metrics/stats.h"

static void assert_rel(double got, double want, double rel)
{
	if (!(fabs(got - want) <= rel * fabs(want)))
		fail_msg("got %.17g, want %.17g", got, want);
}

static void test_beta_inc(void **state)
{
	static const struct { double a, b, x, want; } c[] = {
		{ 0.5, 0.5, 0.3, 0.36901011956554541 },
		{ 2, 3, 0.9, 0.99629999999999996 },
		{ 10, 0.5, 0.99, 0.65792817515678426 },
		{ 0.5, 20, 0.01, 0.4713699354850156 },
		{ 100, 100, 0.5, 0.50000000000001321 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		assert_rel(td_beta_inc(c[i].a, c[i].b, c[i].x), c[i].want, 1e-10);
	assert_true(td_beta_inc(1, 1, 0) == 0 && td_beta_inc(1, 1, 1) == 1);
	assert_true(isnan(td_beta_inc(0, 1, 0.5)) && isnan(td_beta_inc(1, 1, 1.5)));
}

static void test_t_cdf(void **state)
{
	static const struct { double t, df, want; } c[] = {
		{ 0.5, 1, 0.64758361765043326 },
		{ 2, 2.5, 0.92130425212101708 },
		{ -3, 7.2, 0.0096451516467821255 },
		{ 12, 3, 0.99937749209960536 },
		{ 50, 3, 0.9999911914239793 },
		{ 1.96, 10000, 0.97498823988408345 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		assert_rel(td_student_t_cdf(c[i].t, c[i].df), c[i].want, 1e-10);
	assert_true(td_student_t_cdf(0, 4) == 0.5);
}

static void test_t_quantile(void **state)
{
	static const double p[4] = { 0.9, 0.975, 0.995, 0.9995 };
	static const struct { double df, want[4]; } c[] = {
		{ 1.5, { 2.1963984175655384, 6.0166631044279235, 17.820310514462815, 82.847446703664332 } },
		{ 3.7, { 1.5575658388615081, 2.867520707191189, 4.8692522532278266, 9.474240137124804 } },
		{ 10, { 1.372183641110335, 2.2281388519862739, 3.1692726726169513, 4.5868938587026218 } },
		{ 100, { 1.2900747613465158, 1.9839715185235525, 2.6258905214380222, 3.3904913111642441 } },
		{ 10000, { 1.281636229730478, 1.960201239890625, 2.5763210466685291, 3.2914999659416724 } },
	};
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		for (k = 0; k < 4; k++) {
			assert_rel(td_student_t_quantile(p[k], c[i].df), c[i].want[k], 1e-11);
			assert_rel(td_student_t_quantile(1 - p[k], c[i].df), -c[i].want[k], 1e-11);
		}
	/*
	 * df 1 (Cauchy) and 2 have closed forms: tan(pi (p - 1/2)) and
	 * (2p - 1) / sqrt(2 p (1 - p)) (scipy's ppf gives 636.61924943 for
	 * 636.61924877 at df 1, p = 0.9995).
	 */
	for (k = 0; k < 4; k++) {
		assert_rel(td_student_t_quantile(p[k], 1), tan(M_PI * (p[k] - 0.5)), 1e-11);
		assert_rel(td_student_t_quantile(p[k], 2), (2 * p[k] - 1) / sqrt(2 * p[k] * (1 - p[k])), 1e-11);
	}
	assert_true(td_student_t_quantile(0.5, 3) == 0);
	assert_true(isnan(td_student_t_quantile(1, 3)) && isnan(td_student_t_quantile(0.9, 0)));
}

/* Pooling: a group given by its mean and standard error is the same as its values. */
static void test_sample_pooling(void **state)
{
	struct td_sample raw = TD_SAMPLE_INIT, pooled = TD_SAMPLE_INIT;
	/* 1, 2, 3: mean 2, sd 1, sem 1/sqrt(3); then 10 alone */
	double values[] = { 1, 2, 3, 10 };
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++)
		td_sample_add(&raw, values[i]);
	td_sample_add_group(&pooled, 3, 2, 1 / sqrt(3));
	td_sample_add(&pooled, 10);
	/* mean 4, squares 9 + 4 + 1 + 36 = 50, variance 50 / 3 */
	assert_rel(raw.mean, 4, 1e-15);
	assert_rel(td_sample_var(&raw), 50.0 / 3, 1e-14);
	assert_rel(pooled.mean, 4, 1e-15);
	assert_rel(td_sample_var(&pooled), 50.0 / 3, 1e-14);
	assert_true(pooled.n == 4);
}

/* Both sides without spread: the difference is certain, or there is none. */
static void test_welch_no_spread(void **state)
{
	struct td_sample a = TD_SAMPLE_INIT, b = TD_SAMPLE_INIT, one = TD_SAMPLE_INIT;
	struct td_welch w;

	(void)state;
	td_sample_add(&a, 5);
	td_sample_add(&a, 5);
	td_sample_add(&b, 6);
	td_sample_add(&b, 6);
	assert_int_equal(td_welch_test(&a, &b, 0.95, &w), 0);
	assert_true(isinf(w.t) && w.t > 0 && w.p == 0 && w.lo == 1 && w.hi == 1 && isnan(w.df));
	assert_int_equal(td_welch_test(&a, &a, 0.95, &w), 0);
	assert_true(w.t == 0 && w.p == 1);
	td_sample_add(&one, 5);
	assert_int_equal(td_welch_test(&one, &b, 0.95, &w), -1);
	assert_true(isnan(w.t) && isnan(w.p));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_beta_inc),
		cmocka_unit_test(test_t_cdf),
		cmocka_unit_test(test_t_quantile),
		cmocka_unit_test(test_sample_pooling),
		cmocka_unit_test(test_welch_no_spread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
