/*
 * Unit tests for the identity-only table load (metrics/table.c,
 * td_table_load_identity) that metrics/find.c matches CPUs against before
 * it loads a table in full.  The oracle is the full loader, td_table_load():
 * for every built-in table both must agree on everything a lookup compares,
 * and text the light reader cannot follow must make it give up (so that
 * find.c falls back to the full loader) rather than guess.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "metrics/table-int.h"

static int same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static void assert_same_identity(const struct td_table *full, const struct td_table *id)
{
	size_t i;

	assert_true(same_str(full->info.name, id->info.name));
	assert_true(same_str(full->info.display, id->info.display));
	assert_true(same_str(full->info.vendor, id->info.vendor));
	assert_true(same_str(full->info.perf_name, id->info.perf_name));
	assert_true(same_str(full->info.core_type, id->info.core_type));
	assert_true(same_str(full->info.pmu, id->info.pmu));
	assert_int_equal(full->nr_cpuid, id->nr_cpuid);
	for (i = 0; i < full->nr_cpuid; i++)
		assert_string_equal(full->cpuid[i], id->cpuid[i]);
	assert_int_equal(full->nr_aliases, id->nr_aliases);
	for (i = 0; i < full->nr_aliases; i++)
		assert_string_equal(full->aliases[i], id->aliases[i]);
	assert_int_equal(full->info.gp_counters, id->info.gp_counters);
	assert_true(full->info.slots_per_cycle == id->info.slots_per_cycle);
	assert_int_equal(id->nr_metrics, 0);
	assert_int_equal(id->nr_events, 0);
}

static void every_builtin_table_agrees(void **state)
{
	const char *const *names = td_table_names();
	char *dir = td_data_path("metrics/tables");
	size_t n;

	(void)state;
	for (n = 0; names[n]; n++) {
		struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
		struct td_table *full, *id;

		strbuf_addf(&path, "%s/%s.json", dir, names[n]);
		full = td_table_load(path.buf, &err);
		id = td_table_load_identity(path.buf);
		assert_non_null(full);
		assert_non_null(id);
		assert_same_identity(full, id);
		td_table_free(full);
		td_table_free(id);
		strbuf_release(&path);
		strbuf_release(&err);
	}
	assert_true(n >= 30);
	free(dir);
}

static char tmp[256];

static struct td_table *identity_of(const char *text)
{
	char path[300];
	FILE *f;

	snprintf(path, sizeof(path), "%s/t.json", tmp);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return td_table_load_identity(path);
}

#define HEAD "\"tdperf_table\": 1, \"name\": \"t\", \"cpuid\": [\"GenuineIntel-6-55\"]"

/* Brackets and quotes inside strings of the skipped parts are not structure. */
static void skips_strings_with_brackets(void **state)
{
	struct td_table *t;

	(void)state;
	t = identity_of("{ \"metrics\": [ { \"id\": \"a]}\\\"[{\", \"formula\": \"x\\\\\" } ],"
			" \"events\": [], " HEAD ", \"aliases\": [\"tee\"] }");
	assert_non_null(t);
	assert_string_equal(t->info.name, "t");
	assert_int_equal(t->nr_aliases, 1);
	assert_string_equal(t->aliases[0], "tee");
	assert_int_equal(t->nr_cpuid, 1);
	td_table_free(t);
}

/* What the full loader refuses, or the light one cannot follow: NULL. */
static void gives_up_on_what_it_cannot_read(void **state)
{
	static const char *const bad[] = {
		"{ " HEAD ", \"metrics\": [ { \"id\": \"a\" } ",            /* ends early */
		"{ " HEAD ", \"metrics\": [ \"]\" ",                          /* ends in a string */
		"{ " HEAD ", \"metrics\": 5 }",                               /* not an array */
		"{ " HEAD ", \"metrics\": [], \"metrics\": [] }",             /* key twice */
		"{ " HEAD ", \"name\": \"u\", \"metrics\": [] }",             /* key twice */
		"{ \"name\": \"t\", \"metrics\": [] }",                       /* not a table */
		"{ \"tdperf_table\": 1, \"metrics\": [] }",                   /* no name */
		"[ " HEAD " ]",
		"{ " HEAD " \"metrics\": [] }",                               /* no comma */
		"",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_null(identity_of(bad[i]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_builtin_table_agrees),
		cmocka_unit_test(skips_strings_with_brackets),
		cmocka_unit_test(gives_up_on_what_it_cannot_read),
	};
	int ret;

	snprintf(tmp, sizeof(tmp), "%s/tdperf-identity.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmp))
		return 1;
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	{
		char path[300];

		snprintf(path, sizeof(path), "%s/t.json", tmp);
		unlink(path);
		rmdir(tmp);
	}
	return ret;
}
