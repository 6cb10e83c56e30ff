/*
 * Unit tests of the typed model (analyze/model.h) against what we did not
 * make:
 *  - the values perf 6.1 itself printed for every tma_ metric of an
 *    all-levels run on the emulated Skylake-X
 *    (tests/fixtures/perf-oracle/skylakex/all.txt): each node's perf_value
 *    is the number perf printed, and its own value agrees with it but where
 *    tests/fixtures/perf-oracle/expected-differences says why not;
 *  - Intel's Top-Down tree (tests/fixtures/intel-tma-tree/tree.tsv, read
 *    from Intel's data by a reader of its own): each node's parent_index
 *    names the parent Intel gives it.
 * And the model built from the document written as JSON and read back is
 * the same, field by field, as the one built from the report.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/report.h"
#include "report/render.h"

#define FIXTURES TD_ABS_SRCDIR "/tests/fixtures/"
#define ORACLE FIXTURES "perf-oracle/skylakex/all.txt"

static json_t *load(const char *path)
{
	struct td_report_opts opts;
	struct strbuf err = STRBUF_INIT;
	json_t *doc;

	memset(&opts, 0, sizeof(opts));
	doc = td_report_open(path, &opts, &err);
	if (!doc)
		fail_msg("%s: %s", path, err.buf);
	strbuf_release(&err);
	return doc;
}

/* The run's own total: the scope perf printed the metrics in. */
static const struct td_scope_rows *main_scope(const struct td_model *m)
{
	size_t i;

	for (i = 0; i < td_model_nr_scopes(m); i++) {
		const struct td_scope_rows *s = td_model_scope(m, i);

		if (s->kind && !strcmp(s->kind, "total") && isnan(s->time) && s->nr_nodes)
			return s;
	}
	fail_msg("no total scope with nodes");
	return NULL;
}

static const struct td_node_row *node_by_perf_name(const struct td_scope_rows *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nr_nodes; i++)
		if (s->nodes[i].perf_name && !strcmp(s->nodes[i].perf_name, name))
			return &s->nodes[i];
	return NULL;
}

/* Does expected-differences list this metric of all.txt, and as what ("n/a", "differ")? */
static int expected_difference(const char *metric, const char *what)
{
	FILE *f = fopen(FIXTURES "perf-oracle/expected-differences", "r");
	char line[1024], cpu[64], file[64], pmu[64], name[128], kind[32];
	int found = 0;

	assert_non_null(f);
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%63s %63s %63s %127s %31s", cpu, file, pmu, name, kind) == 5 &&
			!strcmp(cpu, "skylakex") && !strcmp(file, "all.txt") && !strcmp(name, metric) &&
			!strcmp(kind, what);
	fclose(f);
	return found;
}

/* "   ...   #     32.3 %  tma_fp_arith   (1.78%)": the value and name perf printed. */
static int printed_metric(const char *line, double *pct, char *name, size_t size)
{
	const char *hash = strchr(line, '#');
	char fmt[32];

	if (!hash)
		return 0;
	snprintf(fmt, sizeof(fmt), "# %%lf %%%% %%%zus", size - 1);
	return sscanf(hash, fmt, pct, name) == 2 && !strncmp(name, "tma_", 4);
}

static void perf_values_are_the_printed_ones(void **state)
{
	json_t *doc = load(ORACLE);
	struct td_model *m = td_model_new(doc);
	const struct td_scope_rows *s = main_scope(m);
	FILE *f = fopen(ORACLE, "r");
	char line[1024], name[128];
	double pct;
	int printed = 0, matched = 0, lacking = 0, agree = 0;

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		const struct td_node_row *n;

		if (!printed_metric(line, &pct, name, sizeof(name)))
			continue;
		printed++;
		n = node_by_perf_name(s, name);
		if (!n) {
			if (!expected_difference(name, "n/a"))
				fail_msg("%s: perf printed %.1f %%, no node carries it", name, pct);
			lacking++;
			continue;
		}
		matched++;
		if (fabs(n->perf_value - pct / 100) > 1e-12 * fmax(1, fabs(pct)))
			fail_msg("%s: perf printed %.1f %%, the model says %g", name, pct, n->perf_value);
		assert_true(fabs(n->perf_resolution - 0.001) < 1e-12);
		if (expected_difference(name, "differ"))
			continue;
		/* half the printed resolution, and a little for perf's rounding of its inputs */
		if (isnan(n->value) || fabs(n->value - n->perf_value) > 0.0006 * fmax(1, fabs(n->perf_value)))
			fail_msg("%s: perf printed %.1f %%, our value is %g", name, pct, n->value);
		agree++;
	}
	fclose(f);
	print_message("# perf printed %d tma_ values: %d on nodes (%d agree), %d of nodes the table lacks\n",
		      printed, matched, agree, lacking);
	assert_true(printed >= 80);
	assert_int_equal(matched + lacking, printed);
	td_model_free(m);
	json_decref(doc);
}

/* Intel's parent of skylakex's node 'id' ("-" at Level 1), or NULL when Intel has no such node. */
static char *intel_parent(const char *id, int *level)
{
	FILE *f = fopen(FIXTURES "intel-tma-tree/tree.tsv", "r");
	char line[512], table[64], node[128], parent[128], from[16];
	char *out = NULL;

	assert_non_null(f);
	while (!out && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %127s %d %127s %15s", table, node, level, parent, from) == 5 &&
		    !strcmp(table, "skylakex") && !strcmp(node, id))
			out = xstrdup(parent);
	fclose(f);
	return out;
}

static void parents_are_intels(void **state)
{
	json_t *doc = load(ORACLE);
	struct td_model *m = td_model_new(doc);
	const struct td_scope_rows *s = main_scope(m);
	size_t i;

	(void)state;
	assert_true(s->nr_nodes >= 100);
	for (i = 0; i < s->nr_nodes; i++) {
		const struct td_node_row *n = &s->nodes[i], *p = td_node_parent(s, n);
		int level = 0;
		char *want;

		/* perf 6.1's own nodes (local/remote_dram): perf's tree, t0212 */
		if (n->perf_only)
			continue;
		want = intel_parent(n->id, &level);
		if (!want)
			fail_msg("%s: not in Intel's tree", n->id);
		assert_int_equal(n->level, level);
		if (!strcmp(want, "-")) {
			assert_int_equal(n->parent_index, -1);
			assert_null(p);
		} else {
			if (!p)
				fail_msg("%s: no parent, Intel's is %s", n->id, want);
			assert_string_equal(p->id, want);
			assert_true(n->parent_index < (long)i); /* pre-order */
		}
		free(want);
	}
	td_model_free(m);
	json_decref(doc);
}

#define SAME_STR(a, b) do { \
	if ((a) || (b)) { assert_non_null(a); assert_non_null(b); assert_string_equal(a, b); } \
} while (0)
/* the document writes ten significant digits (report/json.c) */
#define SAME_NUM(a, b) do { \
	if (!(isnan(a) && isnan(b))) assert_true(fabs((a) - (b)) <= 1e-9 * fabs(a)); \
} while (0)

static void same_node(const struct td_node_row *a, const struct td_node_row *b)
{
	SAME_STR(a->id, b->id);
	SAME_STR(a->name, b->name);
	SAME_STR(a->parent, b->parent);
	SAME_STR(a->unit, b->unit);
	assert_int_equal(a->level, b->level);
	assert_int_equal(a->parent_index, b->parent_index);
	SAME_NUM(a->value, b->value);
	SAME_STR(a->source, b->source);
	assert_int_equal(a->flagged, b->flagged);
	assert_int_equal(a->bottleneck, b->bottleneck);
	assert_int_equal(a->approximate, b->approximate);
	SAME_STR(a->reason, b->reason);
	SAME_STR(a->threshold, b->threshold);
	SAME_NUM(a->perf_value, b->perf_value);
	SAME_NUM(a->perf_resolution, b->perf_resolution);
	SAME_STR(a->perf_name, b->perf_name);
	SAME_STR(a->perf_kind, b->perf_kind);
	SAME_STR(a->perf_formula_expr, b->perf_formula_expr);
	assert_int_equal(a->group, b->group);
	SAME_NUM(a->uncertainty, b->uncertainty);
	assert_int_equal(a->undecided, b->undecided);
	SAME_NUM(a->counted_pct, b->counted_pct);
	SAME_STR(a->estimate, b->estimate);
	SAME_STR(a->sanity, b->sanity);
}

/* The same scope in two models: its header, its counts' shape and every node. */
static void same_scope(const struct td_scope_rows *a, const struct td_scope_rows *b)
{
	size_t i;

	SAME_STR(a->id, b->id);
	SAME_STR(a->kind, b->kind);
	SAME_STR(a->label, b->label);
	SAME_STR(a->pmu, b->pmu);
	assert_int_equal(a->session, b->session);
	SAME_NUM(a->time, b->time);
	assert_int_equal(a->multiplexed, b->multiplexed);
	SAME_STR(a->bottleneck_leaf, b->bottleneck_leaf);
	assert_int_equal(a->nr_nodes, b->nr_nodes);
	for (i = 0; i < a->nr_nodes; i++)
		same_node(&a->nodes[i], &b->nodes[i]);
}

/*
 * The document written as JSON (report --format json: interval scopes
 * folded into columns) and read back as tdperf diff reads it gives the
 * same model.
 */
static void saved_json_reads_back_the_same(const char *input, size_t min_scopes, size_t min_folded)
{
	json_t *doc = load(input), *back;
	struct td_model *m = td_model_new(doc), *mb;
	struct strbuf err = STRBUF_INIT;
	const char *tmp = getenv("TMPDIR");
	char path[4096];
	FILE *f;
	int fd;
	size_t i, folded;

	snprintf(path, sizeof(path), "%s/test-model-XXXXXX.json", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemps(path, 5);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	td_report_render_json(doc, 0, f);
	fclose(f);
	/* as tdperf diff reads a saved document (src/cmd-diff.c) */
	back = json_load_file(path, 0, NULL);
	unlink(path);
	assert_non_null(back);
	assert_int_equal(td_report_unfold(back, &err), 0);
	for (i = 0, folded = 0; i < json_array_size(json_object_get(back, "scopes")); i++)
		folded += json_is_true(json_object_get(json_array_get(json_object_get(back, "scopes"), i), "folded"));
	assert_true(folded >= min_folded);
	mb = td_model_new(back);
	assert_true(td_model_nr_scopes(m) >= min_scopes);
	assert_int_equal(td_model_nr_scopes(m), td_model_nr_scopes(mb));
	assert_int_equal(td_model_nr_sessions(m), td_model_nr_sessions(mb));
	SAME_STR(td_model_run(m)->cpu_name, td_model_run(mb)->cpu_name);
	for (i = 0; i < td_model_nr_scopes(m); i++)
		same_scope(td_model_scope(m, i), td_model_scope(mb, i));
	assert_int_equal(main_scope(m)->nr_warnings, main_scope(mb)->nr_warnings);
	SAME_STR(main_scope(m)->bottleneck_sentence, main_scope(mb)->bottleneck_sentence);
	td_model_free(mb);
	td_model_free(m);
	strbuf_release(&err);
	json_decref(back);
	json_decref(doc);
}

static void saved_total_reads_back_the_same(void **state)
{
	(void)state;
	saved_json_reads_back_the_same(ORACLE, 1, 0);
}

/* perf stat -I CSV of an Ice Lake (case 27 of the published outputs): folded interval scopes */
static void saved_intervals_read_back_the_same(void **state)
{
	(void)state;
	saved_json_reads_back_the_same(FIXTURES "perf-stat-published/case-27-iclclass-irogers-csv-interval-topdownL1.txt", 2, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(perf_values_are_the_printed_ones),
		cmocka_unit_test(parents_are_intels),
		cmocka_unit_test(saved_total_reads_back_the_same),
		cmocka_unit_test(saved_intervals_read_back_the_same),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
