/*
 * Unit tests for the roofline analysis (metrics/roofline.c) and the
 * calibration file reader (metrics/roofline-peaks.c).  Every expected value
 * is worked out by hand in the comments from the peaks and counts the test
 * builds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "metrics/expr.h"
#include "metrics/roofline.h"

#define EPS 1e-9

/*
 * The machine of these tests: DP scalar 10, DP 256-bit 40, DP 512-bit 80
 * and SP 512-bit 160 GFLOP/s; load bandwidth L1 200, L2 100, L3 30, DRAM
 * 15 GB/s.
 */
static void test_peaks(struct td_peaks *pk)
{
	td_peaks_init(pk);
	pk->gflops[TD_RL_DP][TD_RL_SCALAR].value = 10;
	pk->gflops[TD_RL_DP][TD_RL_V256].value = 40;
	pk->gflops[TD_RL_DP][TD_RL_V512].value = 80;
	pk->gflops[TD_RL_SP][TD_RL_V512].value = 160;
	pk->load_gbs[TD_RL_L1].value = 200;
	pk->load_gbs[TD_RL_L2].value = 100;
	pk->load_gbs[TD_RL_L3].value = 30;
	pk->load_gbs[TD_RL_DRAM].value = 15;
	for (int l = 0; l < TD_RL_NR_LEVEL; l++)
		pk->load_gbs[l].reps = 3;
}

static const struct td_rl_roof *roof(const struct td_rl_result *r, const char *id)
{
	for (size_t i = 0; i < r->nr_roofs; i++)
		if (!strcmp(r->roofs[i].id, id))
			return &r->roofs[i];
	return NULL;
}

static int has_note(const struct td_rl_result *r, const char *part)
{
	for (size_t i = 0; i < r->nr_notes; i++)
		if (strstr(r->notes[i], part))
			return 1;
	return 0;
}

/*
 * A DP run of 2 s: 8e9 FLOPs in 512-bit vectors and 2e9 scalar.
 *   W = 1e10, P = 1e10 / 2 s = 5 GFLOP/s.
 *   pi_mix = W / (8e9 / 80e9 + 2e9 / 10e9) = 1e10 / 0.3 s = 33.33 GFLOP/s.
 * Traffic L1 40 GB, L2 10 GB, L3 4 GB, DRAM 5 GB:
 *   I = 0.25, 1, 2.5, 2 FLOP/byte; bounds 0.25*200 = 50, 1*100 = 100,
 *   2.5*30 = 75, 2*15 = 30 GFLOP/s.
 *   attainable = min(33.33, 50, 100, 75, 30) = 30: DRAM bandwidth binds,
 *   efficiency 5 / 30 = 1/6.
 * Utilization: DRAM busy 50 % -> 0.5 * 30 = 15; L2 busy 10 % -> 0.1 * 100 = 10.
 * Stalls over 6e9 cycles: ROB full 4.5e9 -> (1 - 0.75) * 30 = 7.5;
 *   SB full 5.7e9 -> 0.05 * 30 = 1.5 < 5: violated.
 *   tightest = lowest roof not violated = stall_rob at 7.5.
 */
static void dram_bound_run_with_cabezas_roofs(void **state)
{
	struct td_peaks pk;
	struct td_rl_input in;
	struct td_rl_result r;
	const struct td_rl_roof *x;

	test_peaks(&pk);
	td_rl_input_init(&in);
	in.v[TD_RL_Q_SECONDS] = 2;
	in.v[TD_RL_Q_CYCLES] = 6e9;
	in.v[TD_RL_Q_FLOPS_PW(TD_RL_DP, TD_RL_V512)] = 8e9;
	in.v[TD_RL_Q_FLOPS_PW(TD_RL_DP, TD_RL_SCALAR)] = 2e9;
	in.v[TD_RL_Q_BYTES + TD_RL_L1] = 40e9;
	in.note[TD_RL_Q_BYTES + TD_RL_L1] = "L1 traffic assumes 8-byte accesses";
	in.v[TD_RL_Q_BYTES + TD_RL_L2] = 10e9;
	in.v[TD_RL_Q_BYTES + TD_RL_L3] = 4e9;
	in.v[TD_RL_Q_BYTES + TD_RL_DRAM] = 5e9;
	in.v[TD_RL_Q_UTIL + TD_RL_U_DRAM] = 0.5;
	in.v[TD_RL_Q_UTIL + TD_RL_U_L2] = 0.1;
	in.v[TD_RL_Q_STALL + TD_RL_ROB] = 4.5e9;
	in.v[TD_RL_Q_STALL + TD_RL_SB] = 5.7e9;

	assert_int_equal(td_rl_analyze(&pk, &in, &r), 0);
	assert_true(fabs(r.gflops - 5) < EPS);
	assert_true(fabs(r.flops - 1e10) < 1);
	assert_true(fabs(r.intensity[TD_RL_L1] - 0.25) < EPS);
	assert_true(fabs(r.intensity[TD_RL_L2] - 1) < EPS);
	assert_true(fabs(r.intensity[TD_RL_L3] - 2.5) < EPS);
	assert_true(fabs(r.intensity[TD_RL_DRAM] - 2) < EPS);

	x = roof(&r, "fp_mix");
	assert_non_null(x);
	assert_true(x->classic && !x->reference);
	assert_true(fabs(x->bound - 1e10 / 0.3 / 1e9) < 1e-6);
	assert_true(fabs(roof(&r, "bw_L1")->bound - 50) < EPS);
	assert_true(fabs(roof(&r, "bw_L2")->bound - 100) < EPS);
	assert_true(fabs(roof(&r, "bw_L3")->bound - 75) < EPS);
	assert_true(fabs(roof(&r, "bw_DRAM")->bound - 30) < EPS);
	assert_string_equal(r.roofs[r.binding].id, "bw_DRAM");
	assert_true(fabs(r.attainable - 30) < EPS);
	assert_true(fabs(r.efficiency - 5.0 / 30) < EPS);

	/* every calibrated peak is drawn for reference, never binding */
	x = roof(&r, "fp_dp_512");
	assert_non_null(x);
	assert_true(x->reference && !x->classic && x->bound == 80);
	assert_non_null(roof(&r, "fp_sp_512"));
	assert_null(roof(&r, "fp_sp_scalar"));

	assert_true(fabs(roof(&r, "util_dram")->bound - 15) < EPS);
	assert_true(fabs(roof(&r, "util_l2")->bound - 10) < EPS);
	assert_true(fabs(roof(&r, "util_l2")->scale - 0.1) < EPS);
	assert_true(fabs(roof(&r, "stall_rob")->bound - 7.5) < 1e-6);
	x = roof(&r, "stall_sb");
	assert_true(fabs(x->bound - 1.5) < 1e-6);
	assert_true(x->violated);
	assert_string_equal(r.roofs[r.tightest].id, "stall_rob");
	assert_false(roof(&r, "stall_rob")->violated);

	/* approximations are said, the input's own included */
	assert_true(has_note(&r, "8-byte accesses"));
	assert_true(has_note(&r, "FMA peaks"));
	assert_true(has_note(&r, "stall_sb roof"));
	assert_true(has_note(&r, "nothing useful issues"));
	td_rl_result_release(&r);
}

/*
 * One kind of FP work only: all of it DP 256-bit, so the compute roof is
 * that peak, 40 GFLOP/s.  1.2e10 FLOPs in 1 s = 12 GFLOP/s; L2 traffic
 * 1e9 bytes -> I = 12, bound 1200; nothing else counted.  Binding: the
 * compute roof (40 < 1200), efficiency 12 / 40 = 0.3.
 */
static void compute_bound_single_kind(void **state)
{
	struct td_peaks pk;
	struct td_rl_input in;
	struct td_rl_result r;

	test_peaks(&pk);
	td_rl_input_init(&in);
	in.v[TD_RL_Q_SECONDS] = 1;
	in.v[TD_RL_Q_FLOPS_PW(TD_RL_DP, TD_RL_V256)] = 1.2e10;
	in.v[TD_RL_Q_FLOPS_PW(TD_RL_DP, TD_RL_SCALAR)] = 0;
	in.v[TD_RL_Q_BYTES + TD_RL_L2] = 1e9;
	assert_int_equal(td_rl_analyze(&pk, &in, &r), 0);
	assert_true(fabs(r.gflops - 12) < EPS);
	assert_string_equal(r.roofs[r.binding].id, "fp_mix");
	assert_true(fabs(r.attainable - 40) < EPS);
	assert_true(fabs(r.efficiency - 0.3) < EPS);
	assert_true(fabs(roof(&r, "bw_L2")->bound - 1200) < 1e-6);
	/* levels without counts: a roof line, no bound, a reason */
	assert_true(isnan(roof(&r, "bw_DRAM")->bound));
	assert_true(isnan(r.intensity[TD_RL_DRAM]));
	assert_true(has_note(&r, "traffic at this level not counted"));
	assert_null(roof(&r, "stall_rob"));
	td_rl_result_release(&r);
}

/*
 * AMD-style total only: 3e9 FLOPs in 1.5 s = 2 GFLOP/s, against the
 * highest calibrated peak (SP 512-bit, 160) with a note.  DRAM traffic
 * 4e9 -> I = 0.75, bound 11.25: DRAM binds.  L3 traffic 0: no constraint.
 */
static void total_flops_only_uses_highest_peak(void **state)
{
	struct td_peaks pk;
	struct td_rl_input in;
	struct td_rl_result r;

	test_peaks(&pk);
	td_rl_input_init(&in);
	in.v[TD_RL_Q_SECONDS] = 1.5;
	in.v[TD_RL_Q_FLOPS] = 3e9;
	in.v[TD_RL_Q_BYTES + TD_RL_DRAM] = 4e9;
	in.v[TD_RL_Q_BYTES + TD_RL_L3] = 0;
	assert_int_equal(td_rl_analyze(&pk, &in, &r), 0);
	assert_true(fabs(r.gflops - 2) < EPS);
	assert_true(fabs(roof(&r, "fp_mix")->bound - 160) < EPS);
	assert_true(has_note(&r, "not split by precision"));
	assert_true(fabs(roof(&r, "bw_DRAM")->bound - 11.25) < EPS);
	assert_true(isinf(roof(&r, "bw_L3")->bound));
	assert_string_equal(r.roofs[r.binding].id, "bw_DRAM");
	td_rl_result_release(&r);
}

/* No FP counts: no point, a reason, but the machine's roofs are still there. */
static void no_flops_no_point(void **state)
{
	struct td_peaks pk;
	struct td_rl_input in;
	struct td_rl_result r;

	test_peaks(&pk);
	td_rl_input_init(&in);
	in.v[TD_RL_Q_SECONDS] = 1;
	in.v[TD_RL_Q_BYTES + TD_RL_DRAM] = 4e9;
	assert_int_equal(td_rl_analyze(&pk, &in, &r), -1);
	assert_true(isnan(r.gflops));
	assert_non_null(strstr(r.reason, "FP_ARITH_INST_RETIRED"));
	assert_int_equal(r.binding, -1);
	assert_non_null(roof(&r, "fp_dp_512"));
	assert_non_null(roof(&r, "bw_DRAM"));
	td_rl_result_release(&r);

	/* zero FLOPs is a number, but not a point on a log-log plot */
	in.v[TD_RL_Q_FLOPS] = 0;
	assert_int_equal(td_rl_analyze(&pk, &in, &r), -1);
	assert_non_null(strstr(r.reason, "no FP operations"));
	td_rl_result_release(&r);
}

/*
 * 9e10 DP 512-bit FLOPs in 1 s = 90 GFLOP/s > the 80 calibrated: the
 * compute roof is violated and the note asks about the calibration.
 * A DP 128-bit count without a calibrated 128-bit peak falls back to the
 * highest peak with a note naming the missing one.
 */
static void run_above_calibration_is_flagged(void **state)
{
	struct td_peaks pk;
	struct td_rl_input in;
	struct td_rl_result r;

	test_peaks(&pk);
	td_rl_input_init(&in);
	in.v[TD_RL_Q_SECONDS] = 1;
	in.v[TD_RL_Q_FLOPS_PW(TD_RL_DP, TD_RL_V512)] = 9e10;
	assert_int_equal(td_rl_analyze(&pk, &in, &r), 0);
	assert_true(roof(&r, "fp_mix")->violated);
	assert_true(has_note(&r, "another machine"));
	assert_int_equal(r.tightest, -1);
	td_rl_result_release(&r);

	in.v[TD_RL_Q_FLOPS_PW(TD_RL_DP, TD_RL_V512)] = 1e9;
	in.v[TD_RL_Q_FLOPS_PW(TD_RL_DP, TD_RL_V128)] = 1e9;
	assert_int_equal(td_rl_analyze(&pk, &in, &r), 0);
	assert_true(fabs(roof(&r, "fp_mix")->bound - 160) < EPS);
	assert_true(has_note(&r, "no DP 128-bit peak"));
	td_rl_result_release(&r);
}

/* A utilization outside 0..1 or more stalled cycles than cycles: no roof, a note. */
static void inconsistent_counts_give_notes_not_roofs(void **state)
{
	struct td_peaks pk;
	struct td_rl_input in;
	struct td_rl_result r;

	test_peaks(&pk);
	td_rl_input_init(&in);
	in.v[TD_RL_Q_SECONDS] = 1;
	in.v[TD_RL_Q_CYCLES] = 1e9;
	in.v[TD_RL_Q_FLOPS_PW(TD_RL_DP, TD_RL_V512)] = 1e9;
	in.v[TD_RL_Q_BYTES + TD_RL_DRAM] = 1e9;
	in.v[TD_RL_Q_UTIL + TD_RL_U_DRAM] = 1.5;
	in.v[TD_RL_Q_STALL + TD_RL_RS] = 2e9;
	assert_int_equal(td_rl_analyze(&pk, &in, &r), 0);
	assert_null(roof(&r, "util_dram"));
	assert_null(roof(&r, "stall_rs"));
	assert_true(has_note(&r, "outside 0..1"));
	assert_true(has_note(&r, "rs full for 2000000000 of 1000000000 cycles"));
	td_rl_result_release(&r);
}

static void quantity_names_round_trip(void **state)
{
	assert_string_equal(td_rl_qty_name(TD_RL_Q_FLOPS_PW(TD_RL_DP, TD_RL_V512)), "flops_dp_512");
	assert_string_equal(td_rl_qty_name(TD_RL_Q_BYTES + TD_RL_DRAM), "bytes_dram");
	assert_string_equal(td_rl_qty_name(TD_RL_Q_STALL + TD_RL_LFB), "stall_lfb");
	assert_string_equal(td_rl_qty_name(TD_RL_Q_UTIL + TD_RL_U_L2), "util_l2");
	for (int q = 0; q < TD_RL_NR_QTY; q++)
		assert_int_equal(td_rl_qty_lookup(td_rl_qty_name(q)), q);
	assert_int_equal(td_rl_qty_lookup("flops_qp_1024"), -1);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* The reader takes the entry of the closest thread count and refuses junk. */
static void peaks_file_reader(void **state)
{
	char path[] = "/tmp/tdperf-test-peaks-XXXXXX";
	int fd = mkstemp(path);
	struct td_peaks pk;
	struct strbuf err = STRBUF_INIT;

	assert_true(fd >= 0);
	close(fd);
	write_text(path,
		   "{\"format\": \"tdperf-calibration\", \"version\": 1,\n"
		   " \"cpu\": {\"key\": \"K\", \"name\": \"N\"},\n"
		   " \"entries\": [\n"
		   "  {\"threads\": 1, \"date\": \"D1\", \"mode\": \"quick\",\n"
		   "   \"flops\": [{\"precision\": \"dp\", \"width\": \"512\", \"gflops\": {\"value\": 80, \"spread\": 0.02, \"reps\": 3}}],\n"
		   "   \"memory\": [{\"level\": \"DRAM\", \"working_set\": 1e9, \"load_gbs\": {\"value\": 15, \"reps\": 3}}]},\n"
		   "  {\"threads\": 4, \"date\": \"D4\",\n"
		   "   \"flops\": [{\"precision\": \"dp\", \"width\": \"512\", \"gflops\": 320}]}]}\n");
	assert_int_equal(td_peaks_load(path, 1, &pk, &err), 0);
	assert_int_equal(pk.threads, 1);
	assert_string_equal(pk.date, "D1");
	assert_true(pk.gflops[TD_RL_DP][TD_RL_V512].value == 80);
	assert_true(pk.gflops[TD_RL_DP][TD_RL_V512].spread == 0.02);
	assert_true(pk.load_gbs[TD_RL_DRAM].value == 15);
	assert_true(pk.working_set[TD_RL_DRAM] == 1e9);
	assert_true(isnan(pk.load_gbs[TD_RL_L1].value));
	assert_string_equal(pk.cpu_key, "K");
	td_peaks_release(&pk);
	assert_int_equal(td_peaks_load(path, 3, &pk, &err), 0);
	assert_int_equal(pk.threads, 4);
	assert_true(pk.gflops[TD_RL_DP][TD_RL_V512].value == 320);
	td_peaks_release(&pk);

	write_text(path, "{\"format\": \"something else\"}");
	assert_int_equal(td_peaks_load(path, 1, &pk, &err), -1);
	assert_non_null(strstr(err.buf, "not a tdperf calibration file"));
	strbuf_reset(&err);
	write_text(path, "{\"format\": \"tdperf-calibration\", \"version\": 2, \"entries\": []}");
	assert_int_equal(td_peaks_load(path, 1, &pk, &err), -1);
	assert_non_null(strstr(err.buf, "version 2"));
	strbuf_reset(&err);
	write_text(path, "{\"format\": \"tdperf-calibration\",\n \"entries\": [ oops");
	assert_int_equal(td_peaks_load(path, 1, &pk, &err), -1);
	assert_non_null(strstr(err.buf, ":2:"));
	unlink(path);
	strbuf_reset(&err);
	assert_int_equal(td_peaks_load(path, 1, &pk, &err), -1);
	assert_non_null(strstr(err.buf, "No such file"));
	strbuf_release(&err);
}

static void cpu_key_and_cache_path(void **state)
{
	char *key = td_peaks_cpu_key("GenuineIntel", 6, 85, 4, "Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz");
	char *path;

	assert_string_equal(key, "GenuineIntel-6-55-4_Intel-R-Xeon-R-Gold-6130-CPU-2.10GHz");
	setenv("XDG_CACHE_HOME", "/x/cache", 1);
	path = td_peaks_cache_path(key);
	assert_string_equal(path, "/x/cache/tdperf/calibration-GenuineIntel-6-55-4_Intel-R-Xeon-R-Gold-6130-CPU-2.10GHz.json");
	free(path);
	/* a relative XDG_CACHE_HOME is invalid per the spec: ~/.cache */
	setenv("XDG_CACHE_HOME", "rel", 1);
	setenv("HOME", "/home/u", 1);
	path = td_peaks_cache_path("k");
	assert_string_equal(path, "/home/u/.cache/tdperf/calibration-k.json");
	free(path);
	free(key);
}

/* A count set: event name -> value, looked up the way formulas name them. */
struct counts {
	const char *const *names;
	const double *values;
	size_t n;
};

static int counts_lookup(void *ctx, const char *name, double *v)
{
	const struct counts *c = ctx;

	for (size_t i = 0; i < c->n; i++)
		if (!strcasecmp(c->names[i], name)) {
			*v = c->values[i];
			return 0;
		}
	return -1;
}

/*
 * The built-in formulas on an Intel count set (a Skylake-SP-like run of
 * 2 s): FP_ARITH 512B_PACKED_DOUBLE 1e9 -> 8e9 FLOPs, SCALAR_DOUBLE 2e9
 * -> 2e9; loads 3e9 + stores 1e9 -> L1 8 * 4e9 = 3.2e10 bytes (8-byte
 * assumption noted); L1D.REPLACEMENT 1e8 -> L2 6.4e9 bytes; L2_LINES_IN
 * 5e7 -> L3 3.2e9; LONGEST_LAT_CACHE.MISS 2e7 -> DRAM 1.28e9 (approx);
 * RESOURCE_STALLS.SB 1e9 of cycles 5e9.
 * Against the test machine: W = 1e10, P = 5 GFLOP/s; I_DRAM = 1e10 /
 * 1.28e9 = 7.8125 -> bound 7.8125 * 15 = 117.19; pi_mix = 1e10 / (8e9 /
 * 80e9 + 2e9 / 10e9) = 33.33 binds; SB stall roof (1 - 0.2) * 33.33 = 26.67.
 */
static void builtin_formulas_on_intel_counts(void **state)
{
	static const char *const names[] = {
		"duration_time", "cycles", "FP_ARITH_INST_RETIRED.512B_PACKED_DOUBLE",
		"FP_ARITH_INST_RETIRED.SCALAR_DOUBLE", "MEM_INST_RETIRED.ALL_LOADS",
		"MEM_INST_RETIRED.ALL_STORES", "L1D.REPLACEMENT", "L2_LINES_IN.ALL",
		"LONGEST_LAT_CACHE.MISS", "RESOURCE_STALLS.SB",
	};
	static const double values[] = { 2, 5e9, 1e9, 2e9, 3e9, 1e9, 1e8, 5e7, 2e7, 1e9 };
	struct counts c = { names, values, TD_ARRAY_SIZE(names) };
	struct td_env env = { counts_lookup, &c };
	struct strbuf err = STRBUF_INIT;
	const struct td_rl_formulas *f = td_rl_formulas_builtin(&err);
	const char *used[TD_RL_NR_QTY];
	struct td_rl_input in;
	struct td_peaks pk;
	struct td_rl_result r;

	assert_non_null(f);
	td_rl_input_init(&in);
	td_rl_input_eval(f, &env, &in, used);
	assert_true(in.v[TD_RL_Q_FLOPS_PW(TD_RL_DP, TD_RL_V512)] == 8e9);
	assert_true(in.v[TD_RL_Q_FLOPS_PW(TD_RL_DP, TD_RL_SCALAR)] == 2e9);
	assert_true(isnan(in.v[TD_RL_Q_FLOPS_PW(TD_RL_SP, TD_RL_V256)]));
	assert_true(isnan(in.v[TD_RL_Q_FLOPS]));
	assert_true(in.v[TD_RL_Q_BYTES + TD_RL_L1] == 3.2e10);
	assert_non_null(strstr(in.note[TD_RL_Q_BYTES + TD_RL_L1], "8 bytes"));
	assert_true(in.v[TD_RL_Q_BYTES + TD_RL_L2] == 6.4e9);
	assert_true(in.v[TD_RL_Q_BYTES + TD_RL_L3] == 3.2e9);
	assert_true(in.v[TD_RL_Q_BYTES + TD_RL_DRAM] == 1.28e9);
	assert_string_equal(used[TD_RL_Q_BYTES + TD_RL_DRAM], "64 * LONGEST_LAT_CACHE.MISS");
	assert_true(in.v[TD_RL_Q_STALL + TD_RL_SB] == 1e9);
	assert_null(used[TD_RL_Q_STALL + TD_RL_ROB]);

	test_peaks(&pk);
	assert_int_equal(td_rl_analyze(&pk, &in, &r), 0);
	assert_true(fabs(r.gflops - 5) < EPS);
	assert_true(fabs(r.intensity[TD_RL_DRAM] - 7.8125) < EPS);
	assert_true(fabs(roof(&r, "bw_DRAM")->bound - 117.1875) < 1e-6);
	assert_string_equal(r.roofs[r.binding].id, "fp_mix");
	assert_true(fabs(roof(&r, "stall_sb")->bound - 0.8 * 1e10 / 0.3 / 1e9) < 1e-6);
	assert_true(has_note(&r, "last-level cache misses"));
	assert_true(has_note(&r, "not counted for flops_sp_scalar"));
	td_rl_result_release(&r);
	strbuf_release(&err);
}

/*
 * AMD Zen 4 counts: fp_ret_sse_avx_ops.all 6e9 in 3 s = 2 GFLOP/s, total
 * only; DRAM from the UMC 1e8 + 5e7 CAS -> 64 * 1.5e8 = 9.6e9 bytes;
 * L3 = 64 * (4e8 - 3e8) = 6.4e9.  Against the test machine: compute roof
 * 160 (highest peak), DRAM 6e9 / 9.6e9 * 15 = 9.375 binds.
 */
static void builtin_formulas_on_amd_counts(void **state)
{
	static const char *const names[] = {
		"duration_time", "fp_ret_sse_avx_ops.all", "umc_cas_cmd.rd", "umc_cas_cmd.wr",
		"ls_any_fills_from_sys.all", "ls_any_fills_from_sys.local_l2",
	};
	static const double values[] = { 3, 6e9, 1e8, 5e7, 4e8, 3e8 };
	struct counts c = { names, values, TD_ARRAY_SIZE(names) };
	struct td_env env = { counts_lookup, &c };
	struct strbuf err = STRBUF_INIT;
	struct td_rl_input in;
	struct td_peaks pk;
	struct td_rl_result r;

	td_rl_input_init(&in);
	td_rl_input_eval(td_rl_formulas_builtin(&err), &env, &in, NULL);
	assert_true(in.v[TD_RL_Q_FLOPS] == 6e9);
	assert_true(in.v[TD_RL_Q_BYTES + TD_RL_DRAM] == 9.6e9);
	assert_true(in.v[TD_RL_Q_BYTES + TD_RL_L3] == 6.4e9);
	assert_true(in.v[TD_RL_Q_BYTES + TD_RL_L2] == 64 * 4e8);
	test_peaks(&pk);
	assert_int_equal(td_rl_analyze(&pk, &in, &r), 0);
	assert_true(fabs(r.gflops - 2) < EPS);
	assert_string_equal(r.roofs[r.binding].id, "bw_DRAM");
	assert_true(fabs(r.attainable - 9.375) < 1e-9);
	assert_true(has_note(&r, "whole socket"));
	td_rl_result_release(&r);
	strbuf_release(&err);
}

/* A formulas file with an unknown quantity or a bad formula is refused, named. */
static void formulas_file_errors(void **state)
{
	char path[] = "/tmp/tdperf-test-formulas-XXXXXX";
	int fd = mkstemp(path);
	struct strbuf err = STRBUF_INIT;

	assert_true(fd >= 0);
	close(fd);
	write_text(path, "{\"quantities\": {\"flops_qp_1024\": []}}");
	assert_null(td_rl_formulas_load(path, &err));
	assert_non_null(strstr(err.buf, "unknown quantity \"flops_qp_1024\""));
	strbuf_reset(&err);
	write_text(path, "{\"quantities\": {\"flops\": [{\"formula\": \"2 * (\"}]}}");
	assert_null(td_rl_formulas_load(path, &err));
	assert_non_null(strstr(err.buf, "flops candidate 1"));
	unlink(path);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dram_bound_run_with_cabezas_roofs),
		cmocka_unit_test(compute_bound_single_kind),
		cmocka_unit_test(total_flops_only_uses_highest_peak),
		cmocka_unit_test(no_flops_no_point),
		cmocka_unit_test(run_above_calibration_is_flagged),
		cmocka_unit_test(inconsistent_counts_give_notes_not_roofs),
		cmocka_unit_test(quantity_names_round_trip),
		cmocka_unit_test(peaks_file_reader),
		cmocka_unit_test(cpu_key_and_cache_path),
		cmocka_unit_test(builtin_formulas_on_intel_counts),
		cmocka_unit_test(builtin_formulas_on_amd_counts),
		cmocka_unit_test(formulas_file_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
