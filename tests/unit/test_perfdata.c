/*
 * Unit tests for the perf.data header reader: the strings it hands out
 * belong to the file they came from.  td_pd_cpu() points into the td_pd
 * (CPUID, CPUDESC); when those copies lived in one process-wide buffer, a
 * second file's header overwrote what the first file's caller held, and
 * tdperf diff of two perf.data files from two CPUs would have named one
 * CPU twice.  The input is a real recording (tests/fixtures/perf-data) and
 * a copy whose CPUID differs in one digit.
 */
#define _GNU_SOURCE /* memmem */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "parse/parse.h"
#include "util/util.h"

static void fixture(struct strbuf *sb)
{
	const char *src = getenv("TD_SRCDIR");
	struct strbuf path = STRBUF_INIT;

	strbuf_addf(&path, "%s/tests/fixtures/perf-data/threads-fork-stamped-late.data", src ? src : ".");
	assert_int_equal(td_read_file(sb, path.buf), 0);
	strbuf_release(&path);
}

static void two_files_keep_their_own_cpu_strings(void **state)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, err = STRBUF_INIT;
	struct td_pd *pa, *pb;
	struct td_pd_cpu ca, cb;
	char *at, *id_a;

	(void)state;
	fixture(&a);
	pa = td_pd_open_mem(a.buf, a.len, "a.data", 0, &err);
	assert_non_null(pa);
	td_pd_cpu(pa, &ca);
	assert_non_null(ca.raw_cpuid);
	id_a = strdup(ca.raw_cpuid);

	/* B: the same recording, its CPUID's last character changed */
	strbuf_add(&b, a.buf, a.len);
	at = memmem(b.buf, b.len, id_a, strlen(id_a));
	assert_non_null(at);
	at[strlen(id_a) - 1] = at[strlen(id_a) - 1] == '9' ? '8' : at[strlen(id_a) - 1] + 1;
	pb = td_pd_open_mem(b.buf, b.len, "b.data", 0, &err);
	assert_non_null(pb);
	td_pd_cpu(pb, &cb);

	assert_non_null(cb.raw_cpuid);
	assert_string_equal(ca.raw_cpuid, id_a);  /* A's string survived B */
	assert_string_not_equal(ca.raw_cpuid, cb.raw_cpuid);
	if (ca.desc && cb.desc)
		assert_ptr_not_equal(ca.desc, cb.desc);

	td_pd_close(pb);
	td_pd_close(pa);
	free(id_a);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_files_keep_their_own_cpu_strings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
