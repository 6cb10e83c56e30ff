/*
 * Unit tests for collect/job.c: recognising one rank of a job from the
 * environment each launcher sets.  The environments are the variables
 * the launchers set, as Open MPI 4.1's mpirun, Slurm 22.05's srun (with
 * and without --mpi=pmix), MPICH's hydra and MVAPICH2 document them.
 * And for the reading side (analyze/job*.c): a rank summary's numbers
 * checked, missing ranks as ranges.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "collect/job.h"
#include "analyze/analyze-int.h"

static const char *const *fake_env; /* NAME, VALUE, ..., NULL */

static const char *table_env(const char *name)
{
	const char *const *p;

	for (p = fake_env; p && *p; p += 2)
		if (!strcmp(p[0], name))
			return p[1];
	return NULL;
}

/* Detect with 'env'; the return value of td_job_rank_detect. */
static int detect(const char *const *env, struct td_job_rank *r, struct strbuf *err)
{
	fake_env = env;
	return td_job_rank_detect(r, table_env, err);
}

static void test_no_launcher(void **state)
{
	static const char *const env[] = { "HOME", "/root", "OMPI_MCA_foo", "1", NULL };
	struct strbuf err = STRBUF_INIT;
	struct td_job_rank r;

	(void)state;
	assert_int_equal(detect(env, &r, &err), 0);
	strbuf_release(&err);
}

static void test_openmpi(void **state)
{
	static const char *const env[] = {
		"OMPI_COMM_WORLD_RANK", "3", "OMPI_COMM_WORLD_SIZE", "4",
		"OMPI_COMM_WORLD_LOCAL_RANK", "1", "OMPI_MCA_ess_base_jobid", "351862785",
		"PMIX_RANK", "3", "PMIX_NAMESPACE", "351862785", NULL };
	struct strbuf err = STRBUF_INIT;
	struct td_job_rank r;

	(void)state;
	assert_int_equal(detect(env, &r, &err), 1);
	assert_string_equal(r.launcher, "openmpi");
	assert_int_equal(r.rank, 3);
	assert_int_equal(r.size, 4);
	assert_int_equal(r.local_rank, 1);
	assert_int_equal(r.node, -1);
	assert_string_equal(r.job_id, "351862785");
	td_job_rank_release(&r);
	strbuf_release(&err);
}

/* mpirun inside a Slurm allocation: SLURM_PROCID numbers mpirun's daemons, not the ranks */
static void test_openmpi_inside_slurm(void **state)
{
	static const char *const env[] = {
		"SLURM_PROCID", "0", "SLURM_NTASKS", "1", "SLURM_JOB_ID", "77", "SLURM_NODEID", "0",
		"OMPI_COMM_WORLD_RANK", "5", "OMPI_COMM_WORLD_SIZE", "8",
		"OMPI_COMM_WORLD_LOCAL_RANK", "5", NULL };
	struct strbuf err = STRBUF_INIT;
	struct td_job_rank r;

	(void)state;
	assert_int_equal(detect(env, &r, &err), 1);
	assert_string_equal(r.launcher, "openmpi");
	assert_int_equal(r.rank, 5);
	assert_int_equal(r.size, 8);
	td_job_rank_release(&r);
	strbuf_release(&err);
}

static void test_slurm(void **state)
{
	static const char *const env[] = {
		"SLURM_PROCID", "2", "SLURM_NTASKS", "4", "SLURM_LOCALID", "0", "SLURM_NODEID", "1",
		"SLURM_JOB_ID", "1234", "SLURM_STEP_ID", "0", NULL };
	struct strbuf err = STRBUF_INIT;
	struct td_job_rank r;
	json_t *j;

	(void)state;
	assert_int_equal(detect(env, &r, &err), 1);
	assert_string_equal(r.launcher, "slurm");
	assert_int_equal(r.rank, 2);
	assert_int_equal(r.size, 4);
	assert_int_equal(r.local_rank, 0);
	assert_int_equal(r.node, 1);
	assert_string_equal(r.job_id, "1234.0");
	r.host = strdup("n01");
	{
		char *name = td_job_rank_dirname(&r);

		assert_string_equal(name, "rank-00002.n01");
		free(name);
	}
	j = td_job_rank_json(&r);
	assert_int_equal(json_integer_value(json_object_get(j, "node")), 1);
	assert_string_equal(json_string_value(json_object_get(j, "scope")), "process");
	json_decref(j);
	td_job_rank_release(&r);
	strbuf_release(&err);
}

/* srun --mpi=pmix: PMIx and Slurm both number the rank; Slurm started it */
static void test_srun_pmix(void **state)
{
	static const char *const env[] = {
		"PMIX_RANK", "1", "PMIX_NAMESPACE", "slurm.pmix.12.0",
		"SLURM_PROCID", "1", "SLURM_NTASKS", "2", "SLURM_LOCALID", "1", "SLURM_NODEID", "0",
		"SLURM_JOB_ID", "12", "SLURM_STEP_ID", "0", NULL };
	struct strbuf err = STRBUF_INIT;
	struct td_job_rank r;

	(void)state;
	assert_int_equal(detect(env, &r, &err), 1);
	assert_string_equal(r.launcher, "slurm");
	assert_int_equal(r.rank, 1);
	assert_string_equal(r.job_id, "12.0");
	td_job_rank_release(&r);
	strbuf_release(&err);
}

static void test_mpich_and_mvapich(void **state)
{
	static const char *const hydra[] = {
		"PMI_RANK", "6", "PMI_SIZE", "8", "MPI_LOCALRANKID", "2", NULL };
	static const char *const mv2[] = {
		"MV2_COMM_WORLD_RANK", "1", "MV2_COMM_WORLD_SIZE", "2",
		"MV2_COMM_WORLD_LOCAL_RANK", "1", NULL };
	struct strbuf err = STRBUF_INIT;
	struct td_job_rank r;

	(void)state;
	assert_int_equal(detect(hydra, &r, &err), 1);
	assert_string_equal(r.launcher, "mpich");
	assert_int_equal(r.rank, 6);
	assert_int_equal(r.size, 8);
	assert_int_equal(r.local_rank, 2);
	assert_null(r.job_id);
	td_job_rank_release(&r);
	assert_int_equal(detect(mv2, &r, &err), 1);
	assert_string_equal(r.launcher, "mvapich");
	assert_int_equal(r.local_rank, 1);
	td_job_rank_release(&r);
	strbuf_release(&err);
}

static void test_bad_values(void **state)
{
	static const char *const word[] = { "SLURM_PROCID", "two", NULL };
	static const char *const beyond[] = { "PMI_RANK", "4", "PMI_SIZE", "4", NULL };
	struct strbuf err = STRBUF_INIT;
	struct td_job_rank r;

	(void)state;
	assert_int_equal(detect(word, &r, &err), -1);
	assert_non_null(strstr(err.buf, "SLURM_PROCID='two'"));
	strbuf_reset(&err);
	assert_int_equal(detect(beyond, &r, &err), -1);
	assert_non_null(strstr(err.buf, "not below the job's size 4"));
	strbuf_release(&err);
}

/* A summary as 'record' writes it, with one field replaced by JSON text. */
static json_t *summary_with(const char *key, const char *value)
{
	json_t *sum = json_pack("{s:s, s:i, s:s, s:i, s:s, s:f, s:f, s:f, s:f, s:f, s:i, s:b, s:{s:f, s:f},"
				" s:{s:f, s:f}, s:f, s:f, s:f}",
				"tdperf_version", "0.1.0", "rank", 1, "job_id", "7", "size", 4, "host", "h1",
				"elapsed_s", 1.5, "cpu_s", 1.2, "context_switches", 10.0, "cpu_migrations", 1.0,
				"page_faults", 100.0, "exit_status", 0, "interrupted", 0,
				"sched", "running", 1.0, "runnable", 0.1,
				"topdown", "retiring", 0.3, "backend_bound", 0.5,
				"cycles", 1e9, "mpi_share", 0.2, "mpi_share_with_callees", 0.3);
	json_t *v;

	if (key) {
		v = json_loads(value, JSON_DECODE_ANY, NULL);
		assert_non_null(v);
		if (!strncmp(key, "topdown.", 8))
			json_object_set_new(json_object_get(sum, "topdown"), key + 8, v);
		else
			json_object_set_new(sum, key, v);
	}
	return sum;
}

/* The summary with key = value is refused, the message naming the file and the field. */
static void assert_refused(const char *key, const char *value)
{
	struct strbuf err = STRBUF_INIT;
	json_t *sum = summary_with(key, value);

	assert_int_equal(td_rank_summary_check(sum, "J/rank-00001.h1/summary.json", &err), -1);
	assert_non_null(strstr(err.buf, "J/rank-00001.h1/summary.json: "));
	assert_non_null(strstr(err.buf, key));
	assert_null(strchr(err.buf, '\n'));
	assert_true(err.len < 200);
	json_decref(sum);
	strbuf_release(&err);
}

static void test_summary_numbers(void **state)
{
	struct strbuf err = STRBUF_INIT;
	json_t *sum = summary_with(NULL, NULL);

	(void)state;
	assert_int_equal(td_rank_summary_check(sum, "s.json", &err), 0);
	json_decref(sum);
	assert_refused("cpu_s", "-3");
	assert_refused("mpi_share", "-2");
	assert_refused("mpi_share_with_callees", "1.5");
	assert_refused("topdown.retiring", "1e300");
	assert_refused("elapsed_s", "1e300");
	assert_refused("cycles", "1e20");
	assert_refused("context_switches", "-1");
	assert_refused("sched", "{\"running\": -0.5}");
	assert_refused("rank", "4");           /* not below the size 4 */
	assert_refused("rank", "-1");
	assert_refused("rank", "1.5");
	assert_refused("size", "16777217");
	assert_refused("exit_status", "300");
	assert_refused("host", "3");
	assert_refused("interrupted", "\"yes\"");
	/*
	 * A Top-Down fraction outside [0, 1] is what the formula gave from the
	 * counts (multiplexing, skew; the emulated PMU gives -381 %): kept as
	 * measured, and named by the merge, not refused.
	 */
	sum = summary_with("topdown.retiring", "7.5");
	assert_int_equal(td_rank_summary_check(sum, "s.json", &err), 0);
	json_decref(sum);
	sum = summary_with("topdown.backend_bound", "-3.8");
	assert_int_equal(td_rank_summary_check(sum, "s.json", &err), 0);
	json_decref(sum);
	strbuf_release(&err);
}

/* The ranges as text: "0-3,5" */
static void ranges_text(json_t *ranges, struct strbuf *sb)
{
	json_t *r;
	size_t i;

	json_array_foreach(ranges, i, r)
		strbuf_addf(sb, "%s%lld-%lld", i ? "," : "", (long long)json_integer_value(json_array_get(r, 0)),
			    (long long)json_integer_value(json_array_get(r, 1)));
}

static void assert_missing(const long *seen, size_t nr, long size, const char *want, long want_count)
{
	struct strbuf sb = STRBUF_INIT;
	long count;
	json_t *ranges = td_job_missing_ranges(seen, nr, size, &count);

	ranges_text(ranges, &sb);
	assert_string_equal(sb.buf, want);
	assert_int_equal(count, want_count);
	json_decref(ranges);
	strbuf_release(&sb);
}

static void test_missing_ranges(void **state)
{
	static const long zero[] = { 0 }, some[] = { 0, 2, 2, 3, 7 }, beyond[] = { 1, 9, 20 };

	(void)state;
	assert_missing(zero, 1, 16777216, "1-16777215", 16777215);
	assert_missing(some, 5, 8, "1-1,4-6", 4);
	assert_missing(some, 5, 4, "1-1", 1);
	assert_missing(beyond, 3, 4, "0-0,2-3", 3);
	assert_missing(some, 0, 3, "0-2", 3);
	assert_missing(zero, 1, 1, "", 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_launcher),
		cmocka_unit_test(test_openmpi),
		cmocka_unit_test(test_openmpi_inside_slurm),
		cmocka_unit_test(test_slurm),
		cmocka_unit_test(test_srun_pmix),
		cmocka_unit_test(test_mpich_and_mvapich),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_summary_numbers),
		cmocka_unit_test(test_missing_ranges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
