/*
 * Unit tests for collect/job.c: recognising one rank of a job from the
 * environment each launcher sets.  The environments are the variables
 * the launchers set, as Open MPI 4.1's mpirun, Slurm 22.05's srun (with
 * and without --mpi=pmix), MPICH's hydra and MVAPICH2 document them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "collect/job.h"

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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
