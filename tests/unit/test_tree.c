/*
 * Unit tests for tree evaluation (metrics/tree.c) and the built-in tables:
 *
 *  - a small table written here (a documented synthetic input) checks
 *    values, thresholds with gating, the bottleneck path, "ambiguous",
 *    formula alternatives, correction terms and the sanity checks;
 *  - the real perf stat outputs in tests/fixtures/perf-stat-published are
 *    read with the project's parser and every Top-Down value perf printed
 *    is recomputed from the printed counts with the built-in tables; they
 *    must agree within 0.06 points.
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
#include "metrics/table.h"
#include "metrics/tree.h"
#include "parse/parse.h"

/* ---------------- a synthetic table ---------------- */

/*
 * Two Level-1 nodes a and b (sum 1), children of a: a1 (with an
 * alternative formula) and a2 (with a correction term); c is an info
 * metric.  Counts come from kv pairs set per test.
 */
static const char synthetic_table[] =
	"{\"tdperf_table\": 1, \"name\": \"synthetic\", \"slots_per_cycle\": 4,\n"
	" \"metrics\": [\n"
	"  {\"id\": \"a\", \"level\": 1, \"domain\": \"slots\", \"formula\": \"A / (A + B)\", \"threshold\": \"a > 0.2\"},\n"
	"  {\"id\": \"a1\", \"parent\": \"a\", \"level\": 2, \"domain\": \"slots\", \"formula\": \"A1 / (A + B)\",\n"
	"   \"alternatives\": [{\"formula\": \"A1X * #slots / (A + B)\", \"approximate\": true, \"note\": \"test\"}],\n"
	"   \"threshold\": \"a1 > 0.1 & a > 0.2\"},\n"
	"  {\"id\": \"a2\", \"parent\": \"a\", \"level\": 2, \"domain\": \"slots\", \"formula\": \"(A2 - CORR) / (A + B)\",\n"
	"   \"corrections\": [\"CORR\"], \"threshold\": \"a2 > 0.1\"},\n"
	"  {\"id\": \"b\", \"level\": 1, \"domain\": \"slots\", \"formula\": \"B / (A + B)\", \"threshold\": \"b > 0.2\"},\n"
	"  {\"id\": \"c\", \"level\": 0, \"formula\": \"a * 100\"}\n"
	" ]}\n";

struct kv {
	const char *name;
	double value;
};

static struct kv kvs[16];

static int kv_lookup(void *ctx, const char *name, double *value)
{
	size_t i;

	for (i = 0; i < 16 && kvs[i].name; i++)
		if (!strcmp(kvs[i].name, name)) {
			*value = kvs[i].value;
			return 0;
		}
	return -1;
}

static void set_counts(const struct kv *list)
{
	size_t i;

	memset(kvs, 0, sizeof(kvs));
	for (i = 0; list[i].name; i++)
		kvs[i] = list[i];
}

static struct td_table *load_synthetic(void)
{
	char path[] = "/tmp/tdperf-test-tableXXXXXX";
	int fd = mkstemp(path);
	struct strbuf err = STRBUF_INIT;
	struct td_table *t;
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs(synthetic_table, f);
	fclose(f);
	t = td_table_load(path, &err);
	if (!t)
		fail_msg("%s", err.buf);
	unlink(path);
	strbuf_release(&err);
	return t;
}

static const struct td_node_value *node(const struct td_tree_result *r, const char *id)
{
	size_t i;

	for (i = 0; i < r->nr_nodes; i++)
		if (!strcmp(r->nodes[i].metric->id, id))
			return &r->nodes[i];
	for (i = 0; i < r->nr_info; i++)
		if (!strcmp(r->info[i].metric->id, id))
			return &r->info[i];
	fail_msg("no node %s", id);
	return NULL;
}

static void values_order_and_path(void **state)
{
	struct td_table *t = load_synthetic();
	struct td_env env = { kv_lookup, NULL };
	struct td_tree_result r;
	static const struct kv counts[] = {
		{ "A", 70 }, { "B", 30 }, { "A1", 40 }, { "A2", 20 }, { "CORR", 5 }, { NULL, 0 } };

	set_counts(counts);
	td_tree_eval(t, &env, NULL, &r);
	assert_int_equal(r.nr_nodes, 4);
	/* pre-order: a, a1, a2, b */
	assert_string_equal(r.nodes[0].metric->id, "a");
	assert_string_equal(r.nodes[1].metric->id, "a1");
	assert_string_equal(r.nodes[2].metric->id, "a2");
	assert_string_equal(r.nodes[3].metric->id, "b");
	assert_true(fabs(node(&r, "a")->value - 0.7) < 1e-12);
	assert_true(fabs(node(&r, "a2")->value - 0.15) < 1e-12);
	assert_false(node(&r, "a2")->approximate);
	assert_true(fabs(node(&r, "c")->value - 70) < 1e-9);
	/* a and b flagged; a is higher by more than 5 points; then a1 (0.40) over a2 (0.15) */
	assert_true(node(&r, "a")->flagged && node(&r, "b")->flagged);
	assert_int_equal(r.nr_path, 2);
	assert_string_equal(r.path[0], "a");
	assert_string_equal(r.path[1], "a1");
	assert_false(r.ambiguous);
	assert_true(node(&r, "a1")->bottleneck);
	assert_int_equal(r.nr_warnings, 0);
	td_tree_result_release(&r);
	td_table_free(t);
}

static void gating_needs_the_whole_path(void **state)
{
	struct td_table *t = load_synthetic();
	struct td_env env = { kv_lookup, NULL };
	struct td_tree_result r;
	/* a = 0.15 is below its threshold: a2 (0.15 of slots, own threshold met) is not flagged */
	static const struct kv counts[] = {
		{ "A", 15 }, { "B", 85 }, { "A1", 0 }, { "A2", 15 }, { "CORR", 0 }, { NULL, 0 } };

	set_counts(counts);
	td_tree_eval(t, &env, NULL, &r);
	assert_false(node(&r, "a")->flagged);
	assert_true(node(&r, "a2")->threshold_met);
	assert_false(node(&r, "a2")->flagged);
	assert_int_equal(r.nr_path, 1);
	assert_string_equal(r.path[0], "b");
	td_tree_result_release(&r);
	td_table_free(t);
}

static void close_siblings_are_ambiguous(void **state)
{
	struct td_table *t = load_synthetic();
	struct td_env env = { kv_lookup, NULL };
	struct td_tree_result r;
	static const struct kv counts[] = {
		{ "A", 52 }, { "B", 48 }, { "A1", 0 }, { "A2", 0 }, { "CORR", 0 }, { NULL, 0 } };

	set_counts(counts);
	td_tree_eval(t, &env, NULL, &r);
	assert_true(r.ambiguous);
	assert_int_equal(r.nr_path, 0);
	assert_false(node(&r, "a")->bottleneck);
	td_tree_result_release(&r);
	td_table_free(t);
}

static void alternatives_and_corrections(void **state)
{
	struct td_table *t = load_synthetic();
	struct td_env env = { kv_lookup, NULL };
	struct td_tree_result r;
	/* A1 missing: the alternative with A1X * #slots (table default 4) is used */
	static const struct kv counts[] = {
		{ "A", 70 }, { "B", 30 }, { "A1X", 5 }, { "A2", 20 }, { NULL, 0 } };
	const struct td_node_value *a1, *a2;

	set_counts(counts);
	td_tree_eval(t, &env, NULL, &r);
	a1 = node(&r, "a1");
	assert_true(fabs(a1->value - 0.2) < 1e-12);
	assert_int_equal(a1->formula_index, 1);
	assert_string_equal(a1->formula_used, "A1X * #slots / (A + B)");
	assert_true(a1->approximate);
	assert_non_null(a1->reason);
	/* CORR missing: a2 is computed without it and flagged approximate */
	a2 = node(&r, "a2");
	assert_true(fabs(a2->value - 0.2) < 1e-12);
	assert_true(a2->approximate);
	assert_non_null(strstr(a2->reason, "CORR"));
	td_tree_result_release(&r);
	td_table_free(t);
}

static void missing_counts_give_nan_with_reason(void **state)
{
	struct td_table *t = load_synthetic();
	struct td_env env = { kv_lookup, NULL };
	struct td_tree_result r;
	static const struct kv counts[] = { { "A", 70 }, { NULL, 0 } };

	set_counts(counts);
	td_tree_eval(t, &env, NULL, &r);
	assert_true(isnan(node(&r, "a")->value));
	assert_non_null(strstr(node(&r, "a")->reason, "B not measured"));
	assert_false(node(&r, "a")->flagged);
	assert_true(isnan(node(&r, "c")->value));
	td_tree_result_release(&r);
	td_table_free(t);
}

static void sanity_checks_name_causes(void **state)
{
	struct td_table *t = load_synthetic();
	struct td_env env = { kv_lookup, NULL };
	struct td_tree_result r;
	/* a2 above its parent; a2 outside [-5 %, 105 %] */
	static const struct kv counts[] = {
		{ "A", 10 }, { "B", 90 }, { "A1", 0 }, { "A2", 120 }, { "CORR", 0 },
		{ "#multiplexed", 1 }, { NULL, 0 } };
	size_t i;
	int above = 0, outside = 0;

	set_counts(counts);
	td_tree_eval(t, &env, NULL, &r);
	for (i = 0; i < r.nr_warnings; i++) {
		if (strstr(r.warnings[i], "a2 = 120.0 % is above its parent a"))
			above = 1;
		if (strstr(r.warnings[i], "outside [-5 %, 105 %]"))
			outside = 1;
		assert_non_null(strstr(r.warnings[i], "multiplexing"));
	}
	assert_true(above && outside);
	td_tree_result_release(&r);
	td_table_free(t);
}

/* ---------------- the real fixtures ---------------- */

struct fixture_env {
	const struct td_scope *scope;
	const char *pmu;
	int group;
	double smt_on;
};

static int fixture_lookup(void *ctx, const char *name, double *value)
{
	struct fixture_env *fe = ctx;
	const struct td_count *c = NULL;

	if (name[0] == '#') {
		if (!strcmp(name, "#smt_on") && !isnan(fe->smt_on)) {
			*value = fe->smt_on;
			return 0;
		}
		return -1;
	}
	if (fe->group >= 0)
		c = td_scope_find_group(fe->scope, fe->pmu, name, fe->group);
	if (!c)
		c = td_scope_find(fe->scope, fe->pmu, name);
	if (!c || c->status != TD_COUNT_OK || isnan(c->value))
		return -1;
	*value = c->value;
	return 0;
}

/* perf's printed metric name -> our id */
static const char *our_id(const char *printed, char *buf, size_t n)
{
	static const struct { const char *perf, *ours; } names[] = {
		{ "retiring", "retiring" }, { "bad speculation", "bad_speculation" },
		{ "frontend bound", "frontend_bound" }, { "backend bound", "backend_bound" },
		{ "frontend_bound_latency", "fetch_latency" }, { "frontend_bound_bandwidth", "fetch_bandwidth" },
		{ "retiring_fastpath", "light_operations" }, { "retiring_microcode", "heavy_operations" },
		{ "bad_speculation_mispredicts", "branch_mispredicts" },
		{ "bad_speculation_pipeline_restarts", "machine_clears" },
		{ "backend_bound_memory", "memory_bound" }, { "backend_bound_cpu", "core_bound" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(printed, names[i].perf))
			return names[i].ours;
	if (!strncmp(printed, "tma_", 4))
		printed += 4;
	snprintf(buf, n, "%s", printed);
	return buf;
}

struct fixture_case {
	const char *file;
	const char *table;        /* table for the default / cpu_core PMU */
	const char *atom_table;   /* hybrid E-core table, or NULL */
	double smt_on;            /* as the fixture's header states; NAN unknown */
	int min_checked;          /* values that must be recomputed at least */
};

static const struct fixture_case cases[] = {
	{ "case-01-spr-kanliang-default-metricgroup.txt", "sapphirerapids", NULL, NAN, 4 },
	{ "case-05-skl-irogers-topdownL1-systemwide.txt", "skylake", NULL, 1, 4 },
	{ "case-10-icl-tgl-ffmpeg-aac-4runs.txt", "icelake", NULL, NAN, 16 },
	{ "case-11-zen4-ckl-blog-pipelineL1-L2.txt", "zen4", NULL, NAN, 6 },
	{ "case-17-adl-hybrid-irogers-topdownL1-4runs.txt", "alderlake", "alderlake_atom", NAN, 24 },
	{ "case-23-cml-multidim-topdownL1-L2-L3.txt", "skylake", NULL, 1, 12 },
	{ "case-26-intel-namhyung-v613-json-topdownL1.txt", "icelake", NULL, NAN, 1 },
	{ "case-27-iclclass-irogers-csv-interval-topdownL1.txt", "icelake", NULL, NAN, 4 },
};

static int tree_value(const struct td_table *t, struct fixture_env *fe, const char *id,
		      double *value, int *approximate)
{
	struct td_env env = { fixture_lookup, fe };
	struct td_tree_result r;
	size_t i;
	int found = 0;

	td_tree_eval(t, &env, NULL, &r);
	for (i = 0; i < r.nr_nodes; i++)
		if (!strcmp(r.nodes[i].metric->id, id)) {
			*value = r.nodes[i].value;
			*approximate = r.nodes[i].approximate;
			found = 1;
		}
	td_tree_result_release(&r);
	return found;
}

static void fixtures_reproduce_perf(void **state)
{
	const char *srcdir = getenv("TD_SRCDIR");
	size_t k;

	if (!srcdir)
		srcdir = ".";
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct fixture_case *fc = &cases[k];
		struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
		const struct td_table *t, *atom = NULL;
		struct td_stat_file *f;
		size_t s, sc, m;
		int checked = 0;

		strbuf_addf(&path, "%s/tests/fixtures/perf-stat-published/%s", srcdir, fc->file);
		f = td_stat_parse_file(path.buf, &err);
		if (!f)
			fail_msg("%s", err.buf);
		t = td_table_find(fc->table, &err);
		assert_non_null(t);
		if (fc->atom_table)
			atom = td_table_find(fc->atom_table, &err);
		for (s = 0; s < f->nr_sessions; s++) {
			const struct td_stat *st = &f->sessions[s];

			for (sc = 0; sc < st->nr_scopes; sc++) {
				const struct td_scope *scope = &st->scopes[sc];

				for (m = 0; m < scope->nr_perf_metrics; m++) {
					const struct td_perf_metric *pm = &scope->perf_metrics[m];
					struct fixture_env fe = { scope, pm->pmu, pm->group, fc->smt_on };
					const struct td_table *use = t;
					char buf[128];
					const char *id = our_id(pm->name, buf, sizeof(buf));
					double v = NAN;
					int approx = 0;

					if (!pm->unit || !strchr(pm->unit, '%'))
						continue;
					if (pm->pmu && !strcmp(pm->pmu, "cpu_atom"))
						use = atom;
					if (!use || !td_table_find_metric(use, id) ||
					    td_table_find_metric(use, id)->level < 1)
						continue;
					if (!tree_value(use, &fe, id, &v, &approx) || isnan(v))
						continue; /* counts not printed (e.g. the L3 block) */
					if (st->elided && approx)
						continue; /* the author cut the correction counts */
					if (fabs(v * 100 - pm->value) > 0.06)
						fail_msg("%s line %d: %s%s%s: perf printed %.2f, we compute %.3f%s",
							 fc->file, pm->line, pm->pmu ? pm->pmu : "",
							 pm->pmu ? "/" : "", id, pm->value, v * 100,
							 approx ? " (approximate)" : "");
					checked++;
				}
			}
		}
		if (checked < fc->min_checked)
			fail_msg("%s: only %d values recomputed, expected at least %d",
				 fc->file, checked, fc->min_checked);
		print_message("# %s: %d Top-Down values recomputed within 0.06 points\n", fc->file, checked);
		td_stat_file_free(f);
		strbuf_release(&path);
		strbuf_release(&err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(values_order_and_path),
		cmocka_unit_test(gating_needs_the_whole_path),
		cmocka_unit_test(close_siblings_are_ambiguous),
		cmocka_unit_test(alternatives_and_corrections),
		cmocka_unit_test(missing_counts_give_nan_with_reason),
		cmocka_unit_test(sanity_checks_name_causes),
		cmocka_unit_test(fixtures_reproduce_perf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
