/*
 * Unit tests for util/: strbuf, number formatting, atomic files and run
 * directories.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

/* Make 'path' a file holding 'text'. */
static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static char *slurp(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(td_read_file(&sb, path), 0);
	return strbuf_detach(&sb, NULL);
}

/* The user the tests play the other local user with. */
#define OTHER_UID 65534

/* A link in the tree to a directory outside it: the link goes, never what it names. */
static void remove_tree_unlinks_links_never_follows(void **state)
{
	char *dir = scratch_dir();
	char *tree = td_path_join(dir, "tree"), *sub = td_path_join(tree, "sub");
	char *outside = td_path_join(dir, "outside"), *kept = td_path_join(outside, "kept");
	char *link = td_path_join(sub, "link"), *toplink = td_path_join(dir, "toplink");

	(void)state;
	assert_int_equal(mkdir(tree, 0755), 0);
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(mkdir(outside, 0755), 0);
	put_file(kept, "kept");
	assert_int_equal(symlink(outside, link), 0);
	assert_int_equal(td_remove_tree(tree), 0);
	assert_false(td_file_exists(tree));
	assert_true(td_file_exists(kept));
	/* the top a link to a directory: only the link is removed */
	assert_int_equal(symlink(outside, toplink), 0);
	assert_int_equal(td_remove_tree(toplink), 0);
	assert_true(td_file_exists(kept));
	td_remove_tree(dir);
	free(toplink);
	free(link);
	free(kept);
	free(outside);
	free(sub);
	free(tree);
	free(dir);
}

/* What another user owns, in a tree of ours or as the tree, stays (needs root: chown). */
static void remove_tree_leaves_other_users_entries(void **state)
{
	char *dir, *tree, *theirs, *their_file, *mine, *their_tree, *inside;

	(void)state;
	if (geteuid() != 0)
		skip();
	dir = scratch_dir();
	tree = td_path_join(dir, "tree");
	theirs = td_path_join(tree, "theirs");
	their_file = td_path_join(theirs, "file");
	mine = td_path_join(tree, "mine");
	assert_int_equal(mkdir(tree, 0755), 0);
	assert_int_equal(mkdir(theirs, 0755), 0);
	assert_int_equal(mkdir(mine, 0755), 0);
	put_file(their_file, "theirs");
	assert_int_equal(chown(their_file, OTHER_UID, OTHER_UID), 0);
	assert_int_equal(chown(theirs, OTHER_UID, OTHER_UID), 0);
	assert_int_equal(td_remove_tree(tree), -1);
	assert_true(td_file_exists(their_file));
	assert_false(td_file_exists(mine));

	/* a tree another user owns is not entered at all, even where we put a file */
	their_tree = td_path_join(dir, "their-tree");
	inside = td_path_join(their_tree, "ours");
	assert_int_equal(mkdir(their_tree, 0755), 0);
	put_file(inside, "ours");
	assert_int_equal(chown(their_tree, OTHER_UID, OTHER_UID), 0);
	assert_int_equal(td_remove_tree(their_tree), -1);
	assert_true(td_file_exists(inside));

	assert_int_equal(chown(theirs, 0, 0), 0);
	assert_int_equal(chown(their_file, 0, 0), 0);
	assert_int_equal(chown(their_tree, 0, 0), 0);
	assert_int_equal(td_remove_tree(dir), 0);
	free(inside);
	free(their_tree);
	free(mine);
	free(their_file);
	free(theirs);
	free(tree);
	free(dir);
}

/*
 * 10,000 levels: paths far beyond PATH_MAX, no recursion, and 64
 * descriptors in all are enough.
 */
static void remove_tree_removes_deep_trees(void **state)
{
	char *dir = scratch_dir(), *tree = td_path_join(dir, "deep");
	struct rlimit old, few;
	int fd, i;

	(void)state;
	assert_int_equal(mkdir(tree, 0755), 0);
	fd = open(tree, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	for (i = 0; i < 10000; i++) {
		int next;

		assert_int_equal(mkdirat(fd, "d", 0755), 0);
		if (i % 100 == 0) /* a sibling directory now and then */
			assert_int_equal(mkdirat(fd, "e", 0755), 0);
		next = openat(fd, "d", O_RDONLY | O_DIRECTORY);
		assert_true(next >= 0);
		close(fd);
		fd = next;
	}
	i = openat(fd, "bottom", O_WRONLY | O_CREAT, 0644);
	assert_true(i >= 0);
	close(i);
	close(fd);
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	few = old;
	few.rlim_cur = 64;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &few), 0);
	i = td_remove_tree(tree);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	assert_int_equal(i, 0);
	assert_false(td_file_exists(tree));
	td_remove_tree(dir);
	free(tree);
	free(dir);
}

/* Write "new" through path in a child process; its exit status (die() exits 2). */
static int status_of_write_through(const char *path)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (!pid) {
		fclose(stderr); /* the refusal's line is the e2e tests' to check */
		_exit(td_write_file_atomic(path, "new", 3) < 0 ? 1 : 0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A link another user made is never written through; one of ours (or root's) is (needs root). */
static void atomic_write_follows_only_our_links(void **state)
{
	char *dir, *target, *link, *text;

	(void)state;
	if (geteuid() != 0)
		skip();
	dir = scratch_dir();
	target = td_path_join(dir, "target");
	link = td_path_join(dir, "link");
	put_file(target, "old");
	assert_int_equal(chmod(target, 0600), 0);
	assert_int_equal(symlink("target", link), 0);
	assert_int_equal(lchown(link, OTHER_UID, OTHER_UID), 0);
	assert_int_equal(status_of_write_through(link), 2);
	text = slurp(target);
	assert_string_equal(text, "old");
	free(text);
	assert_int_equal(lchown(link, 0, 0), 0);
	assert_int_equal(status_of_write_through(link), 0);
	text = slurp(target);
	assert_string_equal(text, "new");
	free(text);
	td_remove_tree(dir);
	free(link);
	free(target);
	free(dir);
}

/* A stale NAME.tmp-PID another user owns is left, and the run goes on (needs root). */
static void rundir_leaves_other_users_stale_tmp(void **state)
{
	char *dir, *run, *stale_file;
	struct strbuf stale = STRBUF_INIT;
	struct td_rundir rd;
	pid_t pid;

	(void)state;
	if (geteuid() != 0)
		skip();
	pid = fork(); /* a process id no process has once it is reaped */
	assert_true(pid >= 0);
	if (!pid)
		_exit(0);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	dir = scratch_dir();
	run = td_path_join(dir, "run");
	strbuf_addf(&stale, "%s.tmp-%ld", run, (long)pid);
	stale_file = td_path_join(stale.buf, "file");
	assert_int_equal(mkdir(stale.buf, 0755), 0);
	put_file(stale_file, "theirs");
	assert_int_equal(chown(stale_file, OTHER_UID, OTHER_UID), 0);
	assert_int_equal(chown(stale.buf, OTHER_UID, OTHER_UID), 0);
	assert_int_equal(td_rundir_begin(&rd, run), 0);
	assert_int_equal(td_rundir_commit(&rd), 0);
	assert_true(td_is_dir(run));
	assert_true(td_file_exists(stale_file));
	assert_int_equal(chown(stale.buf, 0, 0), 0);
	assert_int_equal(chown(stale_file, 0, 0), 0);
	assert_int_equal(td_remove_tree(dir), 0);
	free(stale_file);
	strbuf_release(&stale);
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

/*
 * strvec_pushf formats like printf into a new element, and strvec_pushv
 * copies another argv: both keep the vector NULL-terminated, and the
 * vector owns its copies (the caller's strings may change afterwards).
 */
static void strvec_pushf_formats_and_stays_terminated(void **state)
{
	struct strvec sv = STRVEC_INIT;
	char from[] = "-o";
	char *argv[] = { from, NULL };
	size_t i;

	strvec_pushf(&sv, "-I%d", 100);
	assert_int_equal(sv.nr, 1);
	assert_string_equal(sv.v[0], "-I100");
	assert_null(sv.v[1]);
	strvec_pushv(&sv, argv);
	strvec_pushv(&sv, NULL);
	from[1] = 'x';
	assert_int_equal(sv.nr, 2);
	assert_string_equal(sv.v[1], "-o");
	for (i = 0; i < 200; i++)   /* grows past its first allocation */
		strvec_pushf(&sv, "%s=%zu%c", "n", i, i % 2 ? 'a' : 'b');
	assert_int_equal(sv.nr, 202);
	assert_string_equal(sv.v[2], "n=0b");
	assert_string_equal(sv.v[201], "n=199a");
	assert_null(sv.v[202]);
	strvec_pushf(&sv, "%s", "");   /* an empty string is an element, not the end */
	assert_string_equal(sv.v[202], "");
	assert_null(sv.v[203]);
	strvec_clear(&sv);
	assert_null(sv.v);
	assert_int_equal(sv.nr, 0);
}

/* "Did you mean": swaps, insertions and deletions cost one; far words get no guess. */
static void suggest_finds_the_name_meant(void **state)
{
	static const char *const commands[] = { "record", "report", "diff", "import", "list", NULL };
	struct td_suggest sg;
	size_t i;

	(void)state;
	assert_int_equal(td_edit_distance("recrod", "record"), 1);
	assert_int_equal(td_edit_distance("levle", "level"), 1);
	assert_int_equal(td_edit_distance("", "abc"), 3);
	assert_int_equal(td_edit_distance("kitten", "sitting"), 3);
	td_suggest_init(&sg, "recrod");
	for (i = 0; commands[i]; i++)
		td_suggest_offer(&sg, commands[i], commands[i]);
	assert_string_equal(td_suggest_result(&sg), "record");
	td_suggest_init(&sg, "frobnicate");
	for (i = 0; commands[i]; i++)
		td_suggest_offer(&sg, commands[i], commands[i]);
	assert_null(td_suggest_result(&sg));
	/* "repxrt" is as near to two names: no guess */
	td_suggest_init(&sg, "repxrt");
	td_suggest_offer(&sg, "report", "a");
	td_suggest_offer(&sg, "repart", "b");
	assert_null(td_suggest_result(&sg));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strbuf_grows_and_stays_terminated),
		cmocka_unit_test(strbuf_escapes_html),
		cmocka_unit_test(strbuf_escapes_control_characters),
		cmocka_unit_test(csv_cells_are_no_formulas),
		cmocka_unit_test(strbuf_trims_both_ends),
		cmocka_unit_test(strvec_pushf_formats_and_stays_terminated),
		cmocka_unit_test(counts_get_thousands_separators),
		cmocka_unit_test(atomic_write_replaces_whole_file),
		cmocka_unit_test(rundir_commit_keeps_previous_as_old),
		cmocka_unit_test(rundir_abort_leaves_nothing),
		cmocka_unit_test(cpu_lists_parse_like_perf),
		cmocka_unit_test(remove_tree_unlinks_links_never_follows),
		cmocka_unit_test(remove_tree_leaves_other_users_entries),
		cmocka_unit_test(remove_tree_removes_deep_trees),
		cmocka_unit_test(atomic_write_follows_only_our_links),
		cmocka_unit_test(rundir_leaves_other_users_stale_tmp),
		cmocka_unit_test(suggest_finds_the_name_meant),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
