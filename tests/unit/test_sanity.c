/*
 * Unit tests of the out-of-range checks (analyze/sanity.c) on values perf
 * printed on real machines, where no published output carries the counts
 * behind them:
 *  - perf 4.15 --topdown on a Xeon Gold 6230 (Cascade Lake), one core
 *    (-C 0 -x,): retiring 151.0, bad speculation 3.9, frontend bound 26.0
 *    (github.com/andikleen/pmu-tools issue 203, 2019);
 *  - toplev on a Skylake: Memory_Bound 57.41 %, its child chain reaching
 *    DTLB_Load 196.05 % (pmu-tools issue 47, 2016).
 * And on a constructed case for the parent check with an error bar.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze-int.h"

static struct td_metric metric(const char *id, const char *name, const char *parent, int level)
{
	struct td_metric m;

	memset(&m, 0, sizeof(m));
	m.id = id;
	m.name = name;
	m.parent = parent;
	m.level = level;
	m.domain = "slots";
	return m;
}

/* The four Level-1 nodes, in the order the tests give their values. */
static void level1(struct td_metric m[4])
{
	m[0] = metric("retiring", "Retiring", NULL, 1);
	m[1] = metric("bad_speculation", "Bad Speculation", NULL, 1);
	m[2] = metric("frontend_bound", "Frontend Bound", NULL, 1);
	m[3] = metric("backend_bound", "Backend Bound", NULL, 1);
}

static struct td_sanity_node node(const struct td_metric *m, double v)
{
	struct td_sanity_node n = { m, v, NAN, -1, NAN };
	return n;
}

static void free_all(char **s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(s[i]);
}

/* perf 4.15 --topdown, Cascade Lake, SMT on, one CPU of a core (-C 0). */
static void test_pre_icelake_topdown_above_one(void **state)
{
	struct td_metric m[4];
	struct td_sanity_node n[4];
	struct td_sanity_scope sc = { 1, 1, 1, 1, 0, 1, NULL };
	char *s[4] = { 0 };
	json_t *w = json_array();

	(void)state;
	level1(m);
	n[0] = node(&m[0], 1.510);
	n[1] = node(&m[1], 0.039);
	n[2] = node(&m[2], 0.260);
	n[3] = node(&m[3], 1 - 1.510 - 0.039 - 0.260); /* perf left it blank: the remainder */
	td_report_sanity(&sc, n, 4, s, w);
	assert_non_null(s[0]);
	assert_non_null(strstr(s[0], "above 1: Retiring = 151.0 % of slots"));
	assert_non_null(strstr(s[0], "by 51.0 points"));
	assert_non_null(strstr(s[0], "topdown-total-slots is cycles times the issue width"));
	assert_non_null(strstr(s[0], "SMT without :percore"));
	assert_non_null(strstr(s[0], "perf stat -a --per-core"));
	assert_non_null(s[3]);
	assert_non_null(strstr(s[3], "below 0: Backend Bound = -80.9 % of slots"));
	assert_null(s[1]);
	assert_null(s[2]);
	assert_int_equal(json_array_size(w), 2);
	free_all(s, 4);
	json_decref(w);
}

/* A child above its parent, named with both values and how far. */
static void test_child_above_parent(void **state)
{
	struct td_metric m[3] = {
		metric("backend_bound", "Backend Bound", NULL, 1),
		metric("memory_bound", "Memory Bound", "backend_bound", 2),
		metric("l1_bound", "L1 Bound", "memory_bound", 3),
	};
	struct td_sanity_node n[3];
	struct td_sanity_scope sc = { 1, 0, 0, 0, 0, 0, NULL };
	char *s[3] = { 0 };
	json_t *w = json_array();

	(void)state;
	n[0] = node(&m[0], 0.8225);
	n[1] = node(&m[1], 0.5741);
	n[2] = node(&m[2], 0.6000);
	n[2].counted_pct = 42.0;
	n[2].u = 0.01;
	n[1].u = 0.01;
	td_report_sanity(&sc, n, 3, s, w);
	assert_null(s[0]);
	assert_null(s[1]);
	assert_non_null(s[2]);
	assert_non_null(strstr(s[2], "larger than its parent: L1 Bound = 60.0 % > Memory Bound = 57.4 %"));
	assert_non_null(strstr(s[2], "by 2.6 points (beyond its error bar of 1.4)"));
	assert_non_null(strstr(s[2], "multiplexing (its events were counted 42.0 % of the time"));
	assert_non_null(strstr(s[2], "tdperf record --no-multiplex"));
	assert_int_equal(json_array_size(w), 1);
	assert_non_null(strstr(json_string_value(json_array_get(w, 0)), "l1_bound: larger than its parent"));
	free_all(s, 3);
	json_decref(w);
}

/* Level 1 not adding up, all four in range: named once in the warnings. */
static void test_level1_sum(void **state)
{
	struct td_metric m[4];
	struct td_sanity_node n[4];
	struct td_sanity_scope sc = { 3, 0, 0, 0, 1, 0, NULL };
	char *s[4] = { 0 };
	json_t *w = json_array();
	size_t i;

	(void)state;
	level1(m);
	n[0] = node(&m[0], 0.30);
	n[1] = node(&m[1], 0.10);
	n[2] = node(&m[2], 0.35);
	n[3] = node(&m[3], 0.30);
	n[3].group = -1; /* its events in no one group */
	for (i = 0; i < 3; i++)
		n[i].group = 0;
	td_report_sanity(&sc, n, 4, s, w);
	for (i = 0; i < 4; i++) {
		assert_non_null(s[i]);
		assert_non_null(strstr(s[i], "Level 1 sums to 105.0 %, not 100 %: over by 5.0 points"));
		assert_non_null(strstr(s[i], "events from different groups"));
	}
	assert_int_equal(json_array_size(w), 1);
	free_all(s, 4);
	json_decref(w);
}

/* Values within perf's printing resolution are not out of range. */
static void test_rounding_is_not_out_of_range(void **state)
{
	struct td_metric m[2] = {
		metric("retiring", "Retiring", NULL, 1),
		metric("heavy_operations", "Heavy Operations", "retiring", 2),
	};
	struct td_sanity_node n[2];
	struct td_sanity_scope sc = { 1, 0, 0, 0, 0, 0, NULL };
	char *s[2] = { 0 };
	json_t *w = json_array();

	(void)state;
	n[0] = node(&m[0], 0.0000);
	n[1] = node(&m[1], 0.0004);
	td_report_sanity(&sc, n, 2, s, w);
	assert_null(s[0]);
	assert_null(s[1]);
	assert_int_equal(json_array_size(w), 0);
	json_decref(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pre_icelake_topdown_above_one),
		cmocka_unit_test(test_child_above_parent),
		cmocka_unit_test(test_level1_sum),
		cmocka_unit_test(test_rounding_is_not_out_of_range),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
