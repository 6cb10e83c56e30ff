/*
 * Unit tests for the perf stat parser: numbers in every locale's
 * grouping, event name keys and aliases, groups, wrapped lines, and the
 * CPU inference.  The small inputs here are synthetic, built from the
 * layouts perf documents and prints (columns as in perf's stat-display.c
 * output); the real outputs are tested end to end in tests/e2e/t030x.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse/parse.h"
#include "parse/stat-lines.h"

static double count_of(const char *s)
{
	double v = NAN;
	const char *e = td_stat_scan_count(s, &v);
	assert_non_null(e);
	return v;
}

static void counts_in_every_grouping(void **state)
{
	(void)state;
	assert_true(count_of("1,234,567") == 1234567);
	assert_true(count_of("1.234.567") == 1234567);          /* de, pt_BR */
	assert_true(count_of("1 234 567") == 1234567);          /* plain space */
	assert_true(count_of("1\xc2\xa0" "234\xc2\xa0" "567") == 1234567);  /* NBSP */
	assert_true(count_of("1\xe2\x80\xaf" "234") == 1234);   /* NNBSP (fr_FR) */
	assert_true(count_of("1'234'567") == 1234567);          /* de_CH */
	assert_true(count_of("1,4784,0455") == 147840455);      /* 4-digit groups */
	assert_true(count_of("12,34,567") == 1234567);          /* hi_IN */
	assert_true(count_of("1234567") == 1234567);            /* none */
	assert_true(fabs(count_of("129,06") - 129.06) < 1e-9);  /* msec, ',' decimal */
	assert_true(fabs(count_of("1.234,56") - 1234.56) < 1e-9);
	assert_true(fabs(count_of("1,234.56") - 1234.56) < 1e-9);
	assert_true(count_of("1.088") == 1088);                 /* pt_BR page-faults */
	/* a space followed by a lone digit is the next column, not a group */
	assert_true(count_of("1 2") == 1);
}

static void decimals_take_either_point(void **state)
{
	double v;

	(void)state;
	assert_non_null(td_stat_scan_decimal("0,127164454", &v));
	assert_true(fabs(v - 0.127164454) < 1e-12);
	assert_non_null(td_stat_scan_decimal("56.1", &v));
	assert_true(fabs(v - 56.1) < 1e-12);
	assert_null(td_stat_scan_decimal("x", &v));
}

static void key_is(const char *name, const char *want_pmu, const char *want_key)
{
	struct strbuf pmu = STRBUF_INIT, key = STRBUF_INIT;

	td_event_key(name, &pmu, &key);
	assert_string_equal(pmu.buf, want_pmu);
	assert_string_equal(key.buf, want_key);
	strbuf_release(&pmu);
	strbuf_release(&key);
}

static void event_keys_fold_perf_spellings(void **state)
{
	(void)state;
	key_is("TOPDOWN.SLOTS", "", "slots");
	key_is("cpu_core/slots/", "cpu_core", "slots");
	key_is("cpu_core@TOPDOWN.SLOTS@", "cpu_core", "slots");
	key_is("topdown-fe-bound", "", "topdown-fe-bound");
	key_is("PERF_METRICS.FRONTEND_BOUND", "", "topdown-fe-bound");
	key_is("topdown\\-fe\\-bound", "", "topdown-fe-bound");
	key_is("cycles:u", "", "cycles");
	key_is("cpu/UOPS_DECODED.DEC0,cmask=1/", "", "uops_decoded.dec0,cmask=1");
	key_is("cpu@UOPS_DECODED.DEC0\\,cmask\\=1@", "", "uops_decoded.dec0,cmask=1");
	key_is("UOPS_DECODED.DEC0:c1", "", "uops_decoded.dec0,cmask=1");
	/* tdperf record's quoted names for events with modifiers (name='X:c1:e1') */
	key_is("ICACHE_16B.IFDATA_STALL:c1:e1", "", "icache_16b.ifdata_stall,cmask=1,edge=1");
	key_is("FP_ARITH_INST_RETIRED.128B_PACKED_DOUBLE:u0xfc", "",
	       "fp_arith_inst_retired.128b_packed_double,umask=252");
	key_is("cpu_core.UOPS_RETIRED.MS:c1", "cpu_core", "uops_retired.ms,cmask=1");
	key_is("cpu/de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6/", "",
	       "de_no_dispatch_per_slot.no_ops_from_frontend,cmask=6");
	key_is("cpu/event=0x3c,umask=0x0,name=CPU_CLK_UNHALTED.THREAD_P/", "",
	       "cpu_clk_unhalted.thread_p");
	key_is("INT_MISC.CLEARS_COUNT", "", "int_misc.clears_count");
	key_is("cpu@INT_MISC.RECOVERY_CYCLES\\,cmask\\=1\\,edge@", "", "int_misc.clears_count");
	key_is("cpu/event=0x3c,umask=0x0/", "", "event=60");
	/* tdperf record's names for hybrid PMUs */
	key_is("cpu_atom.TOPDOWN_RETIRING.ALL", "cpu_atom", "topdown_retiring.all");
	key_is("cpu_core.TOPDOWN.SLOTS", "cpu_core", "slots");
	key_is("cpu_atom/event=0xc2,umask=0x0,name=cpu_atom.TOPDOWN_RETIRING.ALL/", "cpu_atom",
	       "topdown_retiring.all");
	key_is("cpu_atomic.X", "", "cpu_atomic.x");
	/* and for the cluster PMUs of big.LITTLE Arm systems */
	key_is("armv9_neoverse_v2.STALL_SLOT", "armv9_neoverse_v2", "stall_slot");
	key_is("armv8_cortex_a55/event=0x11,name=armv8_cortex_a55.CPU_CYCLES/", "armv8_cortex_a55",
	       "cpu_cycles");
	key_is("armv8_pmuv3_0/event=0x11,name=CPU_CYCLES/", "armv8_pmuv3_0", "cpu_cycles");
	key_is("armv8_x.", "", "armv8_x.");
	key_is("armv8-x.Y", "", "armv8-x.y");
	/* modifiers after pmu/.../ in one or more ':' runs (found by fuzz-stat) */
	key_is("cpu_core/topdown-fe-bound/u", "cpu_core", "topdown-fe-bound");
	key_is("cpu_core/topdown-fe-bound/RR:RR", "cpu_core", "topdown-fe-bound");
	key_is("cpu_core/topdown-fe-bound/:u", "cpu_core", "topdown-fe-bound");
	assert_string_equal(td_event_weak_class("ls_not_halted_cyc"), "cycles");
	assert_string_equal(td_event_weak_class("inst_retired.any"), "instructions");
	assert_null(td_event_weak_class("cpu_clk_unhalted.thread_any"));
}

/*
 * A qualifier name longer than the parser's key buffer with a short value
 * (found by fuzz-stat): the value is read from its own bytes, not past the
 * end of the term.  The sanitizer build would catch a read beyond it.
 */
static void long_qualifier_keeps_its_value(void **state)
{
	struct strbuf pmu = STRBUF_INIT, key = STRBUF_INIT, name = STRBUF_INIT;
	size_t i;

	(void)state;
	strbuf_addstr(&name, "cpu/event=0x3c,");
	for (i = 0; i < 150; i++)
		strbuf_addch(&name, 'q');
	strbuf_addstr(&name, "=7/");
	td_event_key(name.buf, &pmu, &key);
	assert_string_equal(pmu.buf, "");
	assert_non_null(strstr(key.buf, "event=60"));
	assert_non_null(strstr(key.buf, "q=7"));
	strbuf_release(&pmu);
	strbuf_release(&key);
	strbuf_release(&name);
}

static struct td_stat_file *parse(const char *text)
{
	struct strbuf err = STRBUF_INIT;
	struct td_stat_file *f = td_stat_parse(text, strlen(text), "t", &err);

	if (!f)
		fail_msg("parse failed: %s", err.buf);
	strbuf_release(&err);
	return f;
}

static void finds_counts_by_alias_and_pmu(void **state)
{
	struct td_stat_file *f = parse(
		"\n Performance counter stats for 'system wide':\n\n"
		"     7,782,334,296      cpu_core/TOPDOWN.SLOTS/\n"
		"       279,769,310      cpu_atom/CPU_CLK_UNHALTED.CORE/\n"
		"     1,000,000,000      cpu_core/cycles/\n"
		"\n       1.004103365 seconds time elapsed\n");
	const struct td_scope *s = &f->sessions[0].scopes[0];

	(void)state;
	assert_true(f->sessions[0].hybrid);
	assert_true(td_scope_find(s, "cpu_core", "slots")->value == 7782334296.0);
	assert_true(td_scope_find(s, NULL, "cpu_core@TOPDOWN.SLOTS@")->value == 7782334296.0);
	assert_null(td_scope_find(s, "cpu_atom", "slots"));
	/* weak alias: the generic name finds the model's cycle event of that PMU */
	assert_true(td_scope_find(s, "cpu_atom", "cycles")->value == 279769310.0);
	assert_true(td_scope_find(s, "cpu_core", "CPU_CLK_UNHALTED.THREAD")->value == 1e9);
	td_stat_file_free(f);
}

/* A :percore sum and a thread's count are different numbers: neither stands for the other. */
static void percore_only_matches_percore(void **state)
{
	struct td_stat_file *f = parse(
		"\n Performance counter stats for 'system wide':\n\n"
		"     8,000,000,000      TOPDOWN.SLOTS\n"
		"\n       1.004103365 seconds time elapsed\n");
	struct td_stat_file *g = parse(
		"\n Performance counter stats for 'system wide':\n\n"
		"     8,000,000,000      TOPDOWN.SLOTS\n"
		"    14,000,000,000      TOPDOWN.SLOTS:percore\n"
		"\n       1.004103365 seconds time elapsed\n");
	const struct td_scope *s = &f->sessions[0].scopes[0], *t = &g->sessions[0].scopes[0];

	(void)state;
	assert_true(td_scope_find(s, NULL, "TOPDOWN.SLOTS")->value == 8e9);
	assert_null(td_scope_find(s, NULL, "TOPDOWN.SLOTS:percore"));
	assert_true(td_scope_find(t, NULL, "TOPDOWN.SLOTS:percore")->value == 14e9);
	assert_true(td_scope_find(t, NULL, "TOPDOWN.SLOTS")->value == 8e9);
	td_stat_file_free(f);
	td_stat_file_free(g);
}

static void repeated_event_starts_a_group(void **state)
{
	struct td_stat_file *f = parse(
		"     62,366,721,033      de_src_op_disp.all\n"
		"     30,857,165,236      ls_not_halted_cyc\n"
		"      2,266,091,111      de_no_dispatch_per_slot.backend_stalls\n"
		"     30,840,562,367      ls_not_halted_cyc\n"
		"\n       6.306886961 seconds time elapsed\n");
	const struct td_scope *s = &f->sessions[0].scopes[0];

	(void)state;
	assert_int_equal(s->nr_groups, 2);
	assert_int_equal(s->counts[2].group, 0);
	assert_int_equal(s->counts[3].group, 1);
	assert_true(td_scope_find_group(s, NULL, "ls_not_halted_cyc", 1)->value == 30840562367.0);
	td_stat_file_free(f);
}

static void wrapped_metric_lines_rejoin(void **state)
{
	/* a mailer wrapped the metric name and the "(71.07%)" onto the next line */
	struct td_stat_file *f = parse(
		"> Performance counter stats for 'system wide':\n>\n"
		">       500,145,019      INST_RETIRED.ANY                 #     14.2 %\n"
		"> tma_retiring             (71.07%)\n"
		">     1,976,769,761      IDQ_UOPS_NOT_DELIVERED.CORE\n"
		">                         (85.81%)\n");
	const struct td_scope *s = &f->sessions[0].scopes[0];

	(void)state;
	assert_int_equal(s->nr_counts, 2);
	assert_true(s->counts[0].running_pct == 71.07);
	assert_true(s->counts[1].running_pct == 85.81);
	assert_int_equal(s->nr_perf_metrics, 1);
	assert_string_equal(s->perf_metrics[0].name, "tma_retiring");
	assert_true(s->perf_metrics[0].value == 14.2);
	td_stat_file_free(f);
}

static void csv_with_other_separator_and_variance(void **state)
{
	struct td_stat_file *f = parse(
		"1.18;msec;task-clock;2.93%;1184881;100.00;0.771;CPUs utilized\n"
		"0;;context-switches;0.00%;1184881;100.00;0.000;/sec\n"
		"<not supported>;;cycles;;0;100.00;;\n");
	const struct td_scope *s = &f->sessions[0].scopes[0];

	(void)state;
	assert_string_equal(f->sessions[0].format, "csv");
	assert_int_equal(s->nr_counts, 3);
	assert_true(fabs(s->counts[0].value - 1.18) < 1e-9);
	assert_true(s->counts[0].variance_pct == 2.93);
	assert_int_equal(s->counts[2].status, TD_COUNT_NOT_SUPPORTED);
	assert_true(isnan(s->counts[2].value));
	td_stat_file_free(f);
}

static void infers_cpu_and_smt(void **state)
{
	struct td_stat_file *f = parse(
		" Performance counter stats for 'system wide':\n\n"
		"    2,402,640,337      CPU_CLK_UNHALTED.THREAD_ANY\n"
		"    1,976,769,761      IDQ_UOPS_NOT_DELIVERED.CORE\n");
	struct td_cpu_guess g;

	(void)state;
	td_stat_infer_cpu(f, &g);
	assert_string_equal(g.table, "skylake");
	assert_int_equal(g.smt, 1);
	assert_int_equal(g.core_wide, 1);
	assert_int_equal(g.line, 3);
	td_cpu_guess_release(&g);
	td_stat_file_free(f);
}

static void refuses_what_is_not_perf(void **state)
{
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_null(td_stat_parse("just prose\n4 apples\n", 20, "p.txt", &err));
	assert_non_null(strstr(err.buf, "p.txt:1: no perf stat output"));
	strbuf_release(&err);
}

/* The parse error for input s, named "n.txt": one line, or NULL when s is read. */
static char *parse_error(const char *s)
{
	struct strbuf err = STRBUF_INIT;
	struct td_stat_file *f = td_stat_parse(s, strlen(s), "n.txt", &err);

	if (f) {
		td_stat_file_free(f);
		strbuf_release(&err);
		return NULL;
	}
	return strbuf_detach(&err, NULL);
}

static void assert_refused(const char *s, const char *want)
{
	char *e = parse_error(s);

	assert_non_null(e);
	assert_string_equal(e, want);
	free(e);
}

static void printed_step_of_every_form(void **state)
{
	static const char *const nums[] = { "41.1", "0.96", "30.000000", "56,1", "42", "1.5e-3" };
	static const double steps[] = { 0.1, 0.01, 1e-6, 0.1, 1, 1e-4 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		assert_true(fabs(rec_printed_step(nums[i], nums[i] + strlen(nums[i])) - steps[i]) <
			    steps[i] * 1e-9);
	assert_true(isnan(rec_printed_step("nan", "nan" + 3)));
}

/* The share of slots a printed value stands for, by its unit. */
static void share_by_unit(void **state)
{
	struct td_scope s = { 0 };
	struct td_perf_metric *m;
	double res;

	(void)state;
	m = td_scope_add_perf_metric(&s, "tma_retiring", "%", 41.1);
	m->resolution = 0.1;
	assert_true(fabs(td_perf_metric_share(m, &res) - 0.411) < 1e-12 && fabs(res - 0.001) < 1e-12);
	assert_int_equal(m->kind, TD_PM_TMA);
	m = td_scope_add_perf_metric(&s, "backend_bound", "percent of slots", 85.8);
	assert_true(fabs(td_perf_metric_share(m, NULL) - 0.858) < 1e-12);
	m = td_scope_add_perf_metric(&s, "Backend_Bound", "Backend_Bound", 0.96);
	m->resolution = 0.01;
	assert_true(td_perf_metric_share(m, &res) == 0.96 && res == 0.01);
	m = td_scope_add_perf_metric(&s, "insn per cycle", "insn per cycle", 1.9);
	assert_int_equal(m->kind, TD_PM_OTHER);
	assert_true(isnan(td_perf_metric_share(m, &res)) && isnan(res));
	m = td_scope_add_perf_metric(&s, "Frontend Bound", "%", 25);
	assert_int_equal(m->kind, TD_PM_BUILTIN);
	m = td_scope_add_perf_metric(&s, "tma_fetch_bandwidth", "%", NAN);
	assert_true(m->blank && isnan(td_perf_metric_share(m, NULL)));
	td_scope_release(&s);
}

/*
 * perf 6.1's CSV keeps only digits and '.' of a metric value: a negative
 * one prints as nothing, and the row is still perf's.
 */
static void csv_blank_metric_is_no_number(void **state)
{
	struct td_stat_file *f = parse(
		"67123245,,CPU_CLK_UNHALTED.THREAD,3838451,13.00,0.9,%  tma_mite\n"
		",,,,,%  tma_fetch_bandwidth\n"
		",,,,,\n"
		"93890662,,MEM_LOAD_RETIRED.LOCAL_PMM,32000000,21.00,,%  tma_dram_bound\n"
		"167539032,,topdown-bad-spec,20000000,13.00,10.0,Bad Speculation\n");
	const struct td_scope *s;

	(void)state;
	assert_int_equal(f->nr_sessions, 1);
	s = &f->sessions[0].scopes[0];
	assert_int_equal(s->nr_counts, 3);
	assert_int_equal(s->nr_perf_metrics, 4);
	assert_string_equal(s->perf_metrics[1].name, "tma_fetch_bandwidth");
	assert_true(s->perf_metrics[1].blank && isnan(s->perf_metrics[1].value));
	assert_true(s->perf_metrics[2].blank && !strcmp(s->perf_metrics[2].unit, "%"));
	assert_true(!s->perf_metrics[0].blank && s->perf_metrics[0].resolution == 0.1);
	/* perf's built-in value: 10 %, not a ratio of 10 */
	assert_string_equal(s->perf_metrics[3].unit, "%");
	assert_int_equal(s->perf_metrics[3].kind, TD_PM_BUILTIN);
	assert_true(fabs(td_perf_metric_share(&s->perf_metrics[3], NULL) - 0.1) < 1e-12);
	td_stat_file_free(f);
}

static void refuses_numbers_perf_cannot_print(void **state)
{
	const char *neg = "n.txt:1: count out of range for CPU_CLK_UNHALTED.THREAD: -5 is negative "
			  "(perf's counters never go below 0)";
	char *e;

	(void)state;
	/* the same count in all three forms, refused by the same check */
	assert_refused("-5,,CPU_CLK_UNHALTED.THREAD,1000,100.00,,\n", neg);
	assert_refused("{\"counter-value\" : \"-5\", \"unit\" : \"\", "
		       "\"event\" : \"CPU_CLK_UNHALTED.THREAD\", \"event-runtime\" : 1000, "
		       "\"pcnt-running\" : 100.00}\n", neg);
	assert_refused("               -5      CPU_CLK_UNHALTED.THREAD\n"
		       "            1,000      INST_RETIRED.ANY\n", neg);
	assert_refused("5,,cycles,1000,100.01,,\n",
		       "n.txt:1: running percentage out of range for cycles: 100.01 is above 100 % "
		       "(a counter runs at most all of the time it is enabled)");
	assert_refused("5,,cycles,-1,100.00,,\n", "n.txt:1: run time out of range for cycles: -1 is negative");
	assert_refused("5,,cycles,-1.5%,1000,100.00,,\n",
		       "n.txt:1: variance out of range for cycles: -1.5 is negative");
	assert_refused("1.000000000,5,,cycles,1000,100.00,,\n"
		       "{\"interval\" : nan, \"counter-value\" : \"5\", \"event\" : \"cycles\"}\n",
		       "n.txt:2: interval time out of range for cycles: nan is not a finite number");
	/* a negative metric value is perf's (a formula over noisy counts) */
	e = parse_error("5,,cycles,1000,100.00,-3.5,%  tma_backend_bound\n");
	assert_null(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counts_in_every_grouping),
		cmocka_unit_test(decimals_take_either_point),
		cmocka_unit_test(event_keys_fold_perf_spellings),
		cmocka_unit_test(long_qualifier_keeps_its_value),
		cmocka_unit_test(finds_counts_by_alias_and_pmu),
		cmocka_unit_test(percore_only_matches_percore),
		cmocka_unit_test(repeated_event_starts_a_group),
		cmocka_unit_test(wrapped_metric_lines_rejoin),
		cmocka_unit_test(csv_with_other_separator_and_variance),
		cmocka_unit_test(infers_cpu_and_smt),
		cmocka_unit_test(refuses_what_is_not_perf),
		cmocka_unit_test(refuses_numbers_perf_cannot_print),
		cmocka_unit_test(printed_step_of_every_form),
		cmocka_unit_test(share_by_unit),
		cmocka_unit_test(csv_blank_metric_is_no_number),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
