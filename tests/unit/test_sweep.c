/*
 * Unit tests for collect/sweep.c, the pieces 'tdperf record --sweep' is
 * made of: the PARAM=V1,V2,... list, the substitution of {PARAM}, and
 * the sweep's sweep.json and meta.json.  The loop over the values is
 * record's own (src/cmd-record.c), tested end to end in
 * tests/e2e/t0804-record-sweep.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect/sweep.h"
#include "util/util.h"

static void specs_parse_into_values_and_labels(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct td_sweep s;
	char *dir;

	assert_int_equal(td_sweep_parse("threads=1,2,4.5,08", &s, &err), 0);
	assert_string_equal(s.param, "threads");
	assert_int_equal(s.nr, 4);
	assert_true(s.values[2] == 4.5);
	assert_true(s.values[3] == 8);
	assert_string_equal(s.labels[3], "08"); /* as written: it names the directory */
	dir = td_sweep_dirname(&s, 3);
	assert_string_equal(dir, "threads-08");
	free(dir);
	td_sweep_release(&s);
	strbuf_release(&err);
}

static void bad_specs_say_what_is_wrong(void **state)
{
	static const char *const bad[][2] = {
		{ "threads", "--sweep 'threads': expected PARAM=V1,V2,... (e.g. threads=1,2,4,8)" },
		{ "=1,2", "--sweep '=1,2': expected PARAM=V1,V2,... (e.g. threads=1,2,4,8)" },
		{ "threads=", "--sweep 'threads=': expected PARAM=V1,V2,... (e.g. threads=1,2,4,8)" },
		{ "threads=0", "--sweep 'threads=0': '0' is not a positive number" },
		{ "threads=1,x", "--sweep 'threads=1,x': 'x' is not a positive number" },
		{ "threads=1,,2", "--sweep 'threads=1,,2': '' is not a positive number" },
		{ "threads=2,2.0", "--sweep 'threads=2,2.0': 2.0 is given twice" },
		{ "a-b=1", "--sweep 'a-b=1': the parameter name may only hold letters, digits and _" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct strbuf err = STRBUF_INIT;
		struct td_sweep s;

		assert_int_equal(td_sweep_parse(bad[i][0], &s, &err), -1);
		assert_string_equal(err.buf, bad[i][1]);
		assert_null(s.param); /* released */
		strbuf_release(&err);
	}
}

static void every_placeholder_is_substituted(void **state)
{
	char *a = td_sweep_substitute("x{threads}y{threads}", "threads", "4");
	char *b = td_sweep_substitute("{thread}{size}", "threads", "4");

	assert_string_equal(a, "x4y4");
	assert_string_equal(b, "{thread}{size}");
	free(a);
	free(b);
}

static char *slurp(const char *dir, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	char *p = td_path_join(dir, name);

	if (td_read_file(&sb, p) < 0)
		fail_msg("cannot read %s", p);
	free(p);
	return strbuf_detach(&sb, NULL);
}

static void the_index_lists_the_runs(void **state)
{
	const char *tmpdir = getenv("TMPDIR") ? getenv("TMPDIR") : P_tmpdir;
	char *tmpl = td_path_join(tmpdir, "td-sweep-XXXXXX");
	char *tmp = mkdtemp(tmpl), *out, *text;
	char a[][12] = { "record", "-l", "1", "--sweep", "size=10,20", "--", "./app", "{size}", "10", "20" };
	char *argv[] = { a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], NULL };
	char *w10[] = { a[6], a[8], NULL }, *w20[] = { a[6], a[9], NULL };
	struct strbuf err = STRBUF_INIT;
	struct td_rundir rd;
	struct td_sweep s;
	json_t *j, *runs;

	assert_non_null(tmp);
	out = td_path_join(tmp, "run");
	assert_int_equal(td_sweep_parse("size=10,20", &s, &err), 0);
	td_sweep_add_run(&s, 0, 2, w10, 0);
	td_sweep_add_run(&s, 1, 2, w20, 3);
	assert_int_equal(td_rundir_begin(&rd, out), 0);
	assert_int_equal(td_sweep_write_index(&rd, &s, 8, argv, 6, "2026-01-02T03:04:05Z", &err), 0);
	assert_int_equal(td_rundir_commit(&rd), 0);

	text = slurp(out, "sweep.json");
	j = json_loads(text, 0, NULL);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "format")), "tdperf-sweep");
	assert_string_equal(json_string_value(json_object_get(j, "parameter")), "size");
	assert_string_equal(json_string_value(json_array_get(json_object_get(j, "command_line"), 0)), "tdperf");
	assert_int_equal(json_array_size(json_object_get(j, "command_line")), 9);
	assert_int_equal(json_array_size(json_object_get(j, "workload")), 2);
	runs = json_object_get(j, "runs");
	assert_int_equal(json_array_size(runs), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(runs, 1), "dir")), "size-20");
	assert_true(json_number_value(json_object_get(json_array_get(runs, 1), "value")) == 20.0);
	assert_string_equal(json_string_value(json_array_get(
		json_object_get(json_array_get(runs, 1), "workload"), 1)), "20");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(runs, 1), "exit_status")), 3);
	json_decref(j);
	free(text);

	text = slurp(out, "meta.json");
	j = json_loads(text, 0, NULL);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "kind")), "sweep");
	assert_string_equal(json_string_value(json_object_get(j, "start_time")), "2026-01-02T03:04:05Z");
	assert_int_equal(json_array_size(json_object_get(j, "files")), 3);
	json_decref(j);
	free(text);

	td_sweep_release(&s);
	strbuf_release(&err);
	td_remove_tree(tmp);
	free(out);
	free(tmpl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(specs_parse_into_values_and_labels),
		cmocka_unit_test(bad_specs_say_what_is_wrong),
		cmocka_unit_test(every_placeholder_is_substituted),
		cmocka_unit_test(the_index_lists_the_runs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
