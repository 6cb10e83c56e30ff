/*
 * Unit tests for collect/sweep.c: 'tdperf record --sweep'.  The record
 * command is replaced by a fake that writes a run directory holding what
 * it was called with (its argv and OMP_NUM_THREADS), so the tests check
 * the sweep's own work: the per-value command lines, the substitution of
 * {PARAM}, the environment, sweep.json, and atomic publication.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect/sweep.h"
#include "util/util.h"

static int fake_calls;
static int fake_fail_at = -1; /* call number that records nothing */
static int fake_status;       /* what the fake returns */

/* Stand-in for cmd_record: "-o DIR" gets a file "args" with argv and env. */
static int fake_record(int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT;
	const char *out = NULL;
	const char *omp = getenv("OMP_NUM_THREADS");
	char *file;
	int i;

	if (fake_calls++ == fake_fail_at)
		return 2;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[i + 1];
		strbuf_addf(&sb, "%s\n", argv[i]);
	}
	strbuf_addf(&sb, "OMP_NUM_THREADS=%s\n", omp ? omp : "");
	assert_non_null(out);
	assert_int_equal(td_mkdir_p(out), 0);
	file = td_path_join(out, "args");
	assert_int_equal(td_write_file_atomic(file, sb.buf, sb.len), 0);
	free(file);
	strbuf_release(&sb);
	return fake_status;
}

static char *slurp(const char *dir, const char *sub, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	char *d = td_path_join(dir, sub), *p = td_path_join(d, name);

	if (td_read_file(&sb, p) < 0)
		fail_msg("cannot read %s", p);
	free(d);
	free(p);
	return strbuf_detach(&sb, NULL);
}

static char tmpdir[64];

static int make_tmp(void **state)
{
	strcpy(tmpdir, "/tmp/td-sweep-XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	fake_calls = 0;
	fake_fail_at = -1;
	fake_status = 0;
	unsetenv("OMP_NUM_THREADS");
	return 0;
}

static int remove_tmp(void **state)
{
	td_remove_tree(tmpdir);
	return 0;
}

static void sweep_records_each_value_with_substitution(void **state)
{
	char *out = td_path_join(tmpdir, "run");
	char *argv[] = { "record", "-l", "1", "--sweep", "threads=1,2,4", "-o", out, "--",
			 "./app", "-n", "{threads}", "x{threads}y", NULL };
	char *args, *sw;
	json_t *j;
	json_error_t je;

	assert_true(td_sweep_wanted(12, argv));
	assert_int_equal(td_sweep_record(12, argv, fake_record), 0);
	assert_int_equal(fake_calls, 3);
	args = slurp(out, "threads-4", "args");
	/* record's own options pass through, --sched is added, the command substituted */
	assert_non_null(strstr(args, "-l\n1\n--sched\n-o\n"));
	assert_non_null(strstr(args, "--\n./app\n-n\n4\nx4y\nOMP_NUM_THREADS=4\n"));
	assert_null(strstr(args, "--sweep"));
	free(args);
	args = slurp(out, "threads-1", "args");
	assert_non_null(strstr(args, "OMP_NUM_THREADS=1\n"));
	free(args);
	sw = slurp(out, "", "sweep.json");
	j = json_loads(sw, 0, &je);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "parameter")), "threads");
	assert_int_equal(json_array_size(json_object_get(j, "runs")), 3);
	assert_string_equal(json_string_value(json_object_get(
		json_array_get(json_object_get(j, "runs"), 2), "dir")), "threads-4");
	assert_true(json_number_value(json_object_get(
		json_array_get(json_object_get(j, "runs"), 1), "value")) == 2.0);
	json_decref(j);
	free(sw);
	sw = slurp(out, "", "meta.json");
	assert_non_null(strstr(sw, "\"kind\": \"sweep\""));
	free(sw);
	free(out);
}

static void other_parameters_substitute_without_omp(void **state)
{
	char *out = td_path_join(tmpdir, "run");
	char *argv[] = { "record", "--sweep=size=10,20", "-o", out, "./app", "{size}", NULL };
	char *args;

	assert_int_equal(td_sweep_record(6, argv, fake_record), 0);
	args = slurp(out, "size-20", "args");
	assert_non_null(strstr(args, "./app\n20\nOMP_NUM_THREADS=\n"));
	free(args);
	free(out);
}

static void a_failed_value_publishes_nothing(void **state)
{
	char *out = td_path_join(tmpdir, "run");
	char *argv[] = { "record", "--sweep", "threads=1,2", "-o", out, "--", "./app", NULL };

	fake_fail_at = 1;
	assert_int_equal(td_sweep_record(7, argv, fake_record), 2);
	assert_false(td_file_exists(out));
	free(out);
}

static void workload_failure_is_forwarded_but_kept(void **state)
{
	char *out = td_path_join(tmpdir, "run");
	char *argv[] = { "record", "--sweep", "threads=1,2", "-o", out, "--", "./app", NULL };
	char *sw;

	fake_status = 3;
	assert_int_equal(td_sweep_record(7, argv, fake_record), 3);
	sw = slurp(out, "", "sweep.json");
	assert_non_null(strstr(sw, "\"exit_status\": 3"));
	free(sw);
	free(out);
}

static void bad_specs_are_usage_errors(void **state)
{
	static const char *const bad[] = { "threads", "=1,2", "threads=", "threads=0",
					   "threads=1,x", "threads=2,2", "a-b=1" };
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *argv[] = { "record", "--sweep", (char *)bad[i], "--", "./app", NULL };
		assert_int_equal(td_sweep_record(5, argv, fake_record), 2);
	}
	{
		char *argv[] = { "record", "--sweep", "threads=1", "-a", NULL };
		assert_int_equal(td_sweep_record(4, argv, fake_record), 2);
	}
	{
		char *argv[] = { "record", "--sweep", "threads=1", NULL };
		assert_int_equal(td_sweep_record(3, argv, fake_record), 2);
	}
	assert_int_equal(fake_calls, 0);
}

static void sweep_is_only_wanted_before_the_command(void **state)
{
	char *a[] = { "record", "--", "./app", "--sweep", "x=1", NULL };
	char *b[] = { "record", "-l", "2", NULL };

	assert_false(td_sweep_wanted(5, a));
	assert_false(td_sweep_wanted(3, b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(sweep_records_each_value_with_substitution, make_tmp, remove_tmp),
		cmocka_unit_test_setup_teardown(other_parameters_substitute_without_omp, make_tmp, remove_tmp),
		cmocka_unit_test_setup_teardown(a_failed_value_publishes_nothing, make_tmp, remove_tmp),
		cmocka_unit_test_setup_teardown(workload_failure_is_forwarded_but_kept, make_tmp, remove_tmp),
		cmocka_unit_test_setup_teardown(bad_specs_are_usage_errors, make_tmp, remove_tmp),
		cmocka_unit_test(sweep_is_only_wanted_before_the_command),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
