/*
 * Unit tests for util/: strbuf, number formatting, atomic files and run
 * directories.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

static void strbuf_grows_and_stays_terminated(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	assert_string_equal(sb.buf, "");
	for (i = 0; i < 1000; i++)
		strbuf_addch(&sb, 'a' + i % 26);
	assert_int_equal(sb.len, 1000);
	assert_int_equal(sb.buf[1000], '\0');
	strbuf_addf(&sb, "%d-%s", 42, "x");
	assert_string_equal(sb.buf + 1000, "42-x");
	strbuf_release(&sb);
	assert_int_equal(sb.len, 0);
}

static void strbuf_escapes_html(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_html(&sb, "<a href=\"x\">&'</a>");
	assert_string_equal(sb.buf, "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
	strbuf_release(&sb);
}

static void strbuf_escapes_control_characters(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	/* ESC ] 0 ; ... BEL, a newline, DEL, C1 CSI (U+009B), a lone 0xff: \xNN */
	strbuf_add_printable(&sb, "a\033]0;t\007b\nc\177d\xc2\x9b e\xff");
	assert_string_equal(sb.buf, "a\\x1b]0;t\\x07b\\x0ac\\x7fd\\xc2\\x9b e\\xff");
	strbuf_reset(&sb);
	/* printable UTF-8 and the backslash itself pass unchanged */
	strbuf_add_printable(&sb, "\xc2\xb1 caf\xc3\xa9 \\x41");
	assert_string_equal(sb.buf, "\xc2\xb1 caf\xc3\xa9 \\x41");
	strbuf_reset(&sb);
	/* a truncated sequence at the end of a length-bounded buffer */
	strbuf_add_printable_mem(&sb, "x\xc3\xa9", 2);
	assert_string_equal(sb.buf, "x\\xc3");
	strbuf_reset(&sb);
	/* a UTF-16 surrogate (U+D800) and U+FFFF encoded in UTF-8 are no characters */
	strbuf_add_printable(&sb, "\xed\xa0\x80|\xef\xbf\xbf|\xef\xbf\xbd");
	assert_string_equal(sb.buf, "\\xed\\xa0\\x80|\\xef\\xbf\\xbf|\xef\xbf\xbd");
	strbuf_release(&sb);
	assert_string_equal(td_printable("plain"), "plain");
	assert_string_equal(td_printable("t\033c"), "t\\x1bc");
	assert_null(td_printable(NULL));
}

static void csv_cells_are_no_formulas(void **state)
{
	static const char *const cases[][2] = {
		{ "plain", "plain" },
		{ "a,b", "\"a,b\"" },
		{ "say \"hi\"", "\"say \"\"hi\"\"\"" },
		{ "=cmd|' /C calc'!A0", "\"'=cmd|' /C calc'!A0\"" },
		{ "+1", "\"'+1\"" },
		{ "-1+2", "\"'-1+2\"" },
		{ "@SUM(1)", "\"'@SUM(1)\"" },
		{ "=HYPERLINK(\"x\")", "\"'=HYPERLINK(\"\"x\"\")\"" },
		{ "\tx", "\"'\\x09x\"" },
		{ "\rx", "\"'\\x0dx\"" },
		{ "a\nb\033c", "a\\x0ab\\x1bc" },
		{ "x=1", "x=1" },
		{ "", "" },
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strbuf_reset(&sb);
		strbuf_add_csv(&sb, cases[i][0]);
		assert_string_equal(sb.buf, cases[i][1]);
	}
	strbuf_reset(&sb);
	strbuf_add_csv(&sb, NULL);
	assert_string_equal(sb.buf, "");
	strbuf_release(&sb);
}

static void strbuf_trims_both_ends(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, " \t value \n");
	strbuf_trim(&sb);
	assert_string_equal(sb.buf, "value");
	strbuf_release(&sb);
}

static void counts_get_thousands_separators(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	td_format_count(&sb, 1234567);
	assert_string_equal(sb.buf, "1,234,567");
	strbuf_reset(&sb);
	td_format_count(&sb, 999);
	assert_string_equal(sb.buf, "999");
	strbuf_reset(&sb);
	td_format_count(&sb, 1000);
	assert_string_equal(sb.buf, "1,000");
	strbuf_release(&sb);
}

static char *scratch_dir(void)
{
	char tmpl[] = "/tmp/td-unit-XXXXXX";
	char *d = mkdtemp(tmpl);

	assert_non_null(d);
	return xstrdup(d);
}

static void atomic_write_replaces_whole_file(void **state)
{
	char *dir = scratch_dir();
	char *path = td_path_join(dir, "f.txt");
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(td_write_file_atomic(path, "first", 5), 0);
	assert_int_equal(td_write_file_atomic(path, "second", 6), 0);
	assert_int_equal(td_read_file(&sb, path), 0);
	assert_string_equal(sb.buf, "second");
	strbuf_release(&sb);
	td_remove_tree(dir);
	free(path);
	free(dir);
}

static void rundir_commit_keeps_previous_as_old(void **state)
{
	char *dir = scratch_dir();
	char *run = td_path_join(dir, "tdperf.data");
	char *old = td_path_join(dir, "tdperf.data.old");
	struct td_rundir rd;
	char *f;

	assert_int_equal(td_rundir_begin(&rd, run), 0);
	assert_false(td_file_exists(run)); /* nothing visible before commit */
	f = td_rundir_file(&rd, "meta.json");
	assert_int_equal(td_write_file_atomic(f, "{}", 2), 0);
	free(f);
	assert_int_equal(td_rundir_commit(&rd), 0);
	assert_true(td_is_dir(run));

	assert_int_equal(td_rundir_begin(&rd, run), 0);
	assert_int_equal(td_rundir_commit(&rd), 0);
	assert_true(td_is_dir(old));
	f = td_path_join(old, "meta.json");
	assert_true(td_file_exists(f));
	free(f);

	td_remove_tree(dir);
	free(run);
	free(old);
	free(dir);
}

static void rundir_abort_leaves_nothing(void **state)
{
	char *dir = scratch_dir();
	char *run = td_path_join(dir, "r");
	struct td_rundir rd;
	char *tmp;

	assert_int_equal(td_rundir_begin(&rd, run), 0);
	tmp = xstrdup(rd.tmp_path);
	td_rundir_abort(&rd);
	assert_false(td_file_exists(tmp));
	assert_false(td_file_exists(run));
	td_remove_tree(dir);
	free(tmp);
	free(run);
	free(dir);
}

/* CPU lists as perf's -C and sysfs write them; anything else is refused. */
static void cpu_lists_parse_like_perf(void **state)
{
	unsigned char set[64 / 8];
	static const char *bad[] = { "", "--", "x", "1-", "-1", "3-1", "0,,1", "0,x", "64", "0-64", "0 1" };
	size_t i;

	(void)state;
	memset(set, 0, sizeof(set));
	assert_int_equal(td_cpu_list_parse("0-3,8,10-11", set, 64), 7);
	assert_int_equal(set[0], 0x0f);
	assert_int_equal(set[1], 0x0d);
	memset(set, 0, sizeof(set));
	assert_int_equal(td_cpu_list_parse("1,1,0-1", set, 64), 2);   /* each CPU once */
	memset(set, 0, sizeof(set));
	assert_int_equal(td_cpu_list_parse("0-1\n", set, 64), 2);     /* sysfs's online file */
	for (i = 0; i < TD_ARRAY_SIZE(bad); i++) {
		memset(set, 0, sizeof(set));
		assert_int_equal(td_cpu_list_parse(bad[i], set, 64), -1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strbuf_grows_and_stays_terminated),
		cmocka_unit_test(strbuf_escapes_html),
		cmocka_unit_test(strbuf_escapes_control_characters),
		cmocka_unit_test(csv_cells_are_no_formulas),
		cmocka_unit_test(strbuf_trims_both_ends),
		cmocka_unit_test(counts_get_thousands_separators),
		cmocka_unit_test(atomic_write_replaces_whole_file),
		cmocka_unit_test(rundir_commit_keeps_previous_as_old),
		cmocka_unit_test(rundir_abort_leaves_nothing),
		cmocka_unit_test(cpu_lists_parse_like_perf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
