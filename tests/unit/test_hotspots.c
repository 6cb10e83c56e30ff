/*
 * Unit tests for the hotspot analysis (metrics/hotspots.c) and Top-Down
 * per function (metrics/hotspots-topdown.c), on call paths and counts
 * written here whose answers follow from the definitions:
 *
 *  - self share: the samples whose leaf is the function; inclusive share:
 *    the samples with the function anywhere on the path, once per sample
 *    even when it recurses;
 *  - group deltas: what each counter advanced since the previous sample of
 *    the same stream, the first interval counted from zero;
 *  - Top-Down on Intel Skylake's published Level-1 formulas
 *    (Yasin 2014): slots = 4 x CPU_CLK_UNHALTED.THREAD,
 *    Frontend = IDQ_UOPS_NOT_DELIVERED.CORE / slots,
 *    Retiring = UOPS_RETIRED.RETIRE_SLOTS / slots,
 *    Bad Speculation = (UOPS_ISSUED.ANY - RETIRE_SLOTS + 4 RECOVERY_CYCLES) / slots,
 *    Backend = the rest.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "metrics/hotspots.h"
#include "metrics/table.h"

enum { MAIN, OUTER, A, B, REC };

static const struct td_hot_func *func_of(struct td_hot *h, int frame)
{
	size_t i;

	for (i = 0; i < td_hot_nr_funcs(h); i++)
		if (td_hot_func(h, i)->frame == frame)
			return td_hot_func(h, i);
	return NULL;
}

static void self_and_inclusive_shares(void **state)
{
	struct td_hot *h = td_hot_new(0);
	int p1[] = { A, OUTER, MAIN };         /* leaf first */
	int p2[] = { B, OUTER, MAIN };
	int p3[] = { REC, REC, REC, MAIN };    /* recursion: counted once inclusive */
	int p4[] = { MAIN };
	int i;

	(void)state;
	for (i = 0; i < 6; i++)
		td_hot_add(h, p1, 3, 10, NULL);
	for (i = 0; i < 3; i++)
		td_hot_add(h, p2, 3, 10, NULL);
	td_hot_add(h, p3, 4, 10, NULL);
	td_hot_add(h, p4, 1, 20, NULL); /* a heavier sample */
	td_hot_finish(h);
	assert_int_equal(td_hot_total_samples(h), 11);
	assert_int_equal(td_hot_total_period(h), 120);
	assert_int_equal(td_hot_func(h, 0)->frame, A); /* sorted by self */
	assert_int_equal(func_of(h, A)->self_period, 60);
	assert_int_equal(func_of(h, A)->total_period, 60);
	assert_int_equal(func_of(h, OUTER)->self_period, 0);
	assert_int_equal(func_of(h, OUTER)->total_period, 90);
	assert_int_equal(func_of(h, MAIN)->self_period, 20);
	assert_int_equal(func_of(h, MAIN)->total_period, 120);
	assert_int_equal(func_of(h, REC)->self_period, 10);
	assert_int_equal(func_of(h, REC)->total_period, 10);
	assert_int_equal(func_of(h, REC)->total_samples, 1);
	/* nodes: root, MAIN, OUTER, A, B, REC x3 */
	assert_int_equal(td_hot_nr_nodes(h), 8);
	td_hot_free(h);
}

static void deltas_per_stream(void **state)
{
	struct td_hot *h = td_hot_new(2);
	uint64_t v1[] = { 100, 7 }, v2[] = { 250, 9 }, w1[] = { 40, 1 }, back[] = { 10, 9 };
	double d[2];

	(void)state;
	assert_int_equal(td_hot_deltas(h, 1, v1, d), 1);
	assert_true(d[0] == 100 && d[1] == 7);     /* from the counters' start */
	assert_int_equal(td_hot_deltas(h, 2, w1, d), 1);
	assert_true(d[0] == 40 && d[1] == 1);      /* another stream apart */
	assert_int_equal(td_hot_deltas(h, 1, v2, d), 1);
	assert_true(d[0] == 150 && d[1] == 2);
	assert_int_equal(td_hot_deltas(h, 1, back, d), 0); /* went backwards */
	td_hot_free(h);
}

static const char *const sky_names[] = {
	"CPU_CLK_UNHALTED.THREAD", "IDQ_UOPS_NOT_DELIVERED.CORE", "UOPS_ISSUED.ANY",
	"UOPS_RETIRED.RETIRE_SLOTS", "INT_MISC.RECOVERY_CYCLES",
};

static double node_value(const struct td_hot_topdown *td, const char *id, double *low, double *high)
{
	size_t i;

	for (i = 0; i < td->nr_nodes; i++)
		if (!strcmp(td->nodes[i].metric->id, id)) {
			*low = td->nodes[i].low;
			*high = td->nodes[i].high;
			return td->nodes[i].value;
		}
	return NAN;
}

/* 80 samples of one function through the tree: batches and intervals. */
static void topdown_of_a_function(void **state)
{
	struct strbuf err = STRBUF_INIT;
	const struct td_table *t = td_table_find("skylake", &err);
	/* per sample: 1000 cycles = 4000 slots; FE 800 (0.2), RET 800 (0.2),
	 * issued 1000 + 4 x 50 recovery -> BAD (1000 - 800 + 200) / 4000 = 0.1,
	 * BE = 1 - 0.2 - 1200 / 4000 = 0.5 */
	double one[] = { 1000, 800, 1000, 800, 50 };
	struct td_hot *h = td_hot_new(5);
	int leaf[] = { A };
	struct td_hot_topdown td;
	double lo = NAN, hi = NAN, v;
	int i, k;

	(void)state;
	assert_non_null(t);
	for (i = 0; i < 80; i++) {
		double c[5];

		for (k = 0; k < 5; k++)
			c[k] = one[k];
		if ((i / 8) % 2) /* every other round of 8 moves 100 slots from backend to frontend */
			c[1] += 100;
		td_hot_add(h, leaf, 1, 1, c);
	}
	td_hot_finish(h);
	td_hot_topdown(t, sky_names, 5, td_hot_func_counts(h, 0), td_hot_func_batches(h, 0),
		       td_hot_func(h, 0)->self_samples, 2, 0, &td);
	assert_null(td.why);
	v = node_value(&td, "frontend_bound", &lo, &hi);
	assert_true(fabs(v - 0.2125) < 1e-9);
	/* sample i is in batch i % 8: every batch holds 5 plain and 5 moved samples, no spread */
	assert_true(fabs(hi - lo) < 1e-6);
	assert_true(fabs(node_value(&td, "retiring", &lo, &hi) - 0.2) < 1e-9);
	assert_true(fabs(node_value(&td, "bad_speculation", &lo, &hi) - 0.1) < 1e-9);
	assert_true(fabs(node_value(&td, "backend_bound", &lo, &hi) - 0.4875) < 1e-9);
	for (i = 0; i < (int)td.nr_nodes; i++)
		if (td.nodes[i].metric->level == 1 && td.nodes[i].bottleneck)
			assert_string_equal(td.nodes[i].metric->id, "backend_bound");
	td_hot_topdown_release(&td);
	td_hot_free(h);
	strbuf_release(&err);
}

/* Batches that differ give an interval around the value. */
static void interval_from_batch_spread(void **state)
{
	struct strbuf err = STRBUF_INIT;
	const struct td_table *t = td_table_find("skylake", &err);
	struct td_hot *h = td_hot_new(5);
	int leaf[] = { A };
	struct td_hot_topdown td;
	double lo = NAN, hi = NAN, v;
	int i;

	(void)state;
	for (i = 0; i < 64; i++) {
		/* sample i falls in batch i % 8: frontend 0.1 .. 0.45 by batch */
		double c[] = { 1000, 400 + 200 * (i % 8), 1000, 800, 50 };

		td_hot_add(h, leaf, 1, 1, c);
	}
	td_hot_finish(h);
	td_hot_topdown(t, sky_names, 5, td_hot_func_counts(h, 0), td_hot_func_batches(h, 0), 64, 1, 0, &td);
	v = node_value(&td, "frontend_bound", &lo, &hi);
	assert_true(fabs(v - 0.275) < 1e-9);
	/* sd of 0.1, 0.15, ..., 0.45 is 0.1225; t(7) 2.365 x sd / sqrt(8) = 0.1024 */
	assert_true(fabs((hi - v) - 0.1024) < 0.0005);
	assert_true(fabs((v - lo) - 0.1024) < 0.0005);
	td_hot_topdown_release(&td);
	/* too few samples: a reason instead of numbers */
	td_hot_topdown(t, sky_names, 5, td_hot_func_counts(h, 0), td_hot_func_batches(h, 0), 12, 1, 0, &td);
	assert_non_null(td.why);
	assert_int_equal(td.nr_nodes, 0);
	td_hot_topdown_release(&td);
	td_hot_free(h);
	strbuf_release(&err);
}

/*
 * With SMT on, tdperf record --hotspots samples Skylake's SMT-on events
 * (CPU_CLK_UNHALTED.THREAD_ANY, INT_MISC.RECOVERY_CYCLES_ANY, counting
 * both threads): only #smt_on = 1 reads them, halving the core clocks.
 */
static void smt_on_reads_the_any_thread_events(void **state)
{
	static const char *const any_names[] = {
		"CPU_CLK_UNHALTED.THREAD_ANY", "IDQ_UOPS_NOT_DELIVERED.CORE", "UOPS_ISSUED.ANY",
		"UOPS_RETIRED.RETIRE_SLOTS", "INT_MISC.RECOVERY_CYCLES_ANY",
	};
	struct strbuf err = STRBUF_INIT;
	const struct td_table *t = td_table_find("skylakex", &err);
	/* 2000 any-thread cycles = 1000 core clocks = 4000 slots: FE 0.2, RET 0.2,
	 * BAD (1000 - 800 + 4 x 100 / 2) / 4000 = 0.1 */
	double c[] = { 2000, 800, 1000, 800, 100 };
	struct td_hot *h = td_hot_new(5);
	int leaf[] = { A };
	struct td_hot_topdown td;
	double lo, hi;
	int i;

	(void)state;
	assert_non_null(t);
	for (i = 0; i < 64; i++)
		td_hot_add(h, leaf, 1, 1, c);
	td_hot_finish(h);
	td_hot_topdown(t, any_names, 5, td_hot_func_counts(h, 0), td_hot_func_batches(h, 0), 64, 1, 1, &td);
	assert_null(td.why);
	assert_true(fabs(node_value(&td, "frontend_bound", &lo, &hi) - 0.2) < 1e-9);
	assert_true(fabs(node_value(&td, "bad_speculation", &lo, &hi) - 0.1) < 1e-9);
	assert_true(fabs(node_value(&td, "backend_bound", &lo, &hi) - 0.5) < 1e-9);
	td_hot_topdown_release(&td);
	/* SMT off: the formulas want the per-thread events, which the group lacks */
	td_hot_topdown(t, any_names, 5, td_hot_func_counts(h, 0), td_hot_func_batches(h, 0), 64, 1, 0, &td);
	assert_non_null(td.why);
	td_hot_topdown_release(&td);
	td_hot_free(h);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(self_and_inclusive_shares),
		cmocka_unit_test(deltas_per_stream),
		cmocka_unit_test(topdown_of_a_function),
		cmocka_unit_test(interval_from_batch_spread),
		cmocka_unit_test(smt_on_reads_the_any_thread_events),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
