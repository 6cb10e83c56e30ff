/*
 * Unit tests for util/parse-options.c: the forms an option may take on
 * the command line, the one-line message of each usage error (read back
 * from stderr), the help made from the table, and td_options_filter().
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/parse-options.h"
#include "util/util.h"

static const char *out, *mode;
static int verbose, dry_run, level, count, mode_check;
static struct strvec pairs;

static int parse_pair(const struct td_option *opt, const char *arg, struct strbuf *err)
{
	if (!strchr(arg, '=')) {
		strbuf_addf(err, "--pair takes K=V, not '%s'", arg);
		return -1;
	}
	strvec_push(opt->value, arg);
	return 0;
}

static const struct td_option options[] = {
	TD_OPT_GROUP("Things:"),
	TD_OPT_STRING('o', "output", &out, "DIR", "write to DIR"),
	TD_OPT_COUNT('v', "verbose", &verbose, "say more"),
	TD_OPT_SET_INT(0, "no-verbose", &verbose, 0, "say less"),
	TD_OPT_BOOL('n', "dry-run", &dry_run, "run nothing"),
	TD_OPT_INT_RANGE('l', "level", &level, 0, 9, "N", "how deep"),
	TD_OPT_GROUP("Others:"),
	TD_OPT_INT(0, "count", &count, "N", "any whole number, which this help text describes at such "
		   "a length that it has to be wrapped onto a second line"),
	TD_OPT_CHOICE(0, "mode", &mode, "fast|slow|careful", "how"),
	TD_OPT_BOOL(0, "mode-check", &mode_check, "check the mode"),
	TD_OPT_CALLBACK(0, "pair", &pairs, "K=V", "a pair (repeatable)", parse_pair),
	TD_OPT_END(),
};

static const char *const usage[] = {
	"tdperf test [options] FILE",
	"tdperf test --dry-run",
	"",
	"Test the parser.",
	"",
	"Exit status: 0.",
	NULL,
};

static const char expected_help[] =
	"usage: tdperf test [options] FILE\n"
	"   or: tdperf test --dry-run\n"
	"\n"
	"Test the parser.\n"
	"\n"
	"Things:\n"
	"  -o, --output DIR  write to DIR\n"
	"  -v, --verbose     say more\n"
	"      --no-verbose  say less\n"
	"  -n, --dry-run     run nothing\n"
	"  -l, --level N     how deep\n"
	"\n"
	"Others:\n"
	"      --count N     any whole number, which this help text describes at such a\n"
	"                    length that it has to be wrapped onto a second line\n"
	"      --mode fast|slow|careful\n"
	"                    how\n"
	"      --mode-check  check the mode\n"
	"      --pair K=V    a pair (repeatable)\n"
	"  -h, --help        this text\n"
	"\n"
	"Exit status: 0.\n";

/* What a file descriptor received while it was redirected to a file. */
struct capture {
	int fd, saved;
	FILE *file;
};

static void capture_begin(struct capture *c, int fd)
{
	fflush(stdout);
	fflush(stderr);
	c->fd = fd;
	c->file = tmpfile();
	assert_non_null(c->file);
	c->saved = dup(fd);
	assert_true(dup2(fileno(c->file), fd) >= 0);
}

static char *capture_end(struct capture *c)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	size_t n;

	fflush(stdout);
	fflush(stderr);
	dup2(c->saved, c->fd);
	close(c->saved);
	rewind(c->file);
	while ((n = fread(buf, 1, sizeof(buf), c->file)) > 0)
		strbuf_add(&sb, buf, n);
	fclose(c->file);
	return strbuf_detach(&sb, NULL);
}

static char *args[32];
static char *printed_out, *printed_err;

/* Parse "test WORDS..." (NULL-terminated) with the table above. */
static int parse(unsigned flags, ...)
{
	struct capture co, ce;
	va_list ap;
	int argc = 0, ret;
	char *w;
	static char prog[] = "test";

	args[argc++] = prog;
	va_start(ap, flags);
	while ((w = va_arg(ap, char *)) != NULL)
		args[argc++] = w;
	va_end(ap);
	args[argc] = NULL;
	free(printed_out);
	free(printed_err);
	capture_begin(&co, 1);
	capture_begin(&ce, 2);
	ret = td_parse_options(argc, args, options, usage, flags | TD_PARSE_NO_EXIT);
	printed_err = capture_end(&ce);
	printed_out = capture_end(&co);
	return ret;
}

static int reset(void **state)
{
	out = mode = NULL;
	verbose = dry_run = level = count = mode_check = 0;
	strvec_clear(&pairs);
	return 0;
}

static int cleanup(void **state)
{
	strvec_clear(&pairs);
	free(printed_out);
	free(printed_err);
	printed_out = printed_err = NULL;
	return 0;
}

static void bundled_short_options(void **state)
{
	assert_int_equal(parse(0, "-nvv", "-l3", "-ofile", NULL), 0);
	assert_int_equal(dry_run, 1);
	assert_int_equal(verbose, 2);
	assert_int_equal(level, 3);
	assert_string_equal(out, "file");
	/* the last of a bundle may take the next word as its value */
	assert_int_equal(parse(0, "-vl", "4", "-no", "dir", NULL), 0);
	assert_int_equal(level, 4);
	assert_string_equal(out, "dir");
	assert_int_equal(verbose, 3);
	assert_string_equal(printed_err, "");
}

static void long_options_and_values(void **state)
{
	assert_int_equal(parse(0, "--output=a", "--level", "5", "--pair", "k=v", "--pair=x=y", NULL), 0);
	assert_string_equal(out, "a");
	assert_int_equal(level, 5);
	assert_int_equal(pairs.nr, 2);
	assert_string_equal(pairs.v[0], "k=v");
	assert_string_equal(pairs.v[1], "x=y");
	/* the value is the next word whatever it looks like */
	assert_int_equal(parse(0, "--output", "--", "-o", "-v", NULL), 0);
	assert_string_equal(out, "-v");
	assert_int_equal(verbose, 0);
	assert_int_equal(parse(0, "--output=", "--count=-7", "--mode", "slow", "--no-verbose", NULL), 0);
	assert_string_equal(out, "");
	assert_int_equal(count, -7);
	assert_string_equal(mode, "slow");
}

static void unique_abbreviations_and_exact_names(void **state)
{
	assert_int_equal(parse(0, "--out", "b", "--verb", "--dry", "--mode-", NULL), 0);
	assert_string_equal(out, "b");
	assert_int_equal(verbose, 1);
	assert_int_equal(dry_run, 1);
	assert_int_equal(mode_check, 1);
	/* "--mode" is a name of its own, not a prefix of --mode-check */
	assert_int_equal(parse(0, "--mode=fast", NULL), 0);
	assert_string_equal(mode, "fast");
	assert_int_equal(mode_check, 1);
}

static void arguments_are_gathered_in_order(void **state)
{
	assert_int_equal(parse(0, "a", "-v", "-", "b", "--", "-n", "--level", NULL), 5);
	assert_string_equal(args[0], "a");
	assert_string_equal(args[1], "-");
	assert_string_equal(args[2], "b");
	assert_string_equal(args[3], "-n");
	assert_string_equal(args[4], "--level");
	assert_null(args[5]);
	assert_int_equal(verbose, 1);
	assert_int_equal(dry_run, 0);
	assert_int_equal(parse(0, NULL), 0);
	assert_null(args[0]);
}

static void stop_at_the_first_argument(void **state)
{
	assert_int_equal(parse(TD_PARSE_STOP_AT_NON_OPTION, "-v", "cmd", "-n", "--", NULL), 3);
	assert_string_equal(args[0], "cmd");
	assert_string_equal(args[1], "-n");
	assert_string_equal(args[2], "--");
	assert_int_equal(dry_run, 0);
	assert_int_equal(parse(TD_PARSE_STOP_AT_NON_OPTION, "-n", "--", "--level", NULL), 1);
	assert_string_equal(args[0], "--level");
}

/* Each usage error is this one line on stderr, and nothing on stdout. */
static void assert_error(const char *what, int ret)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "tdperf: test: %s; see 'tdperf help test'\n", what);
	assert_int_equal(ret, TD_PARSE_ERROR);
	assert_string_equal(printed_err, sb.buf);
	assert_string_equal(printed_out, "");
	strbuf_release(&sb);
}

static void unknown_options(void **state)
{
	assert_error("unknown option '--bogus'", parse(0, "--bogus=1", "x", NULL));
	assert_error("unknown option '-x'", parse(0, "-vx", NULL));
	assert_error("unknown option '--'", parse(0, "--=x", NULL));
	/* a near name is suggested, as git does; --no-verbose and --verbose are not both near */
	assert_error("unknown option '--levle' (did you mean '--level'?)", parse(0, "--levle", "2", NULL));
	assert_error("unknown option '--dyr-run' (did you mean '--dry-run'?)", parse(0, "--dyr-run", NULL));
	assert_error("unknown option '--xyzzy'", parse(0, "--xyzzy", NULL));
}

static void missing_and_unwanted_values(void **state)
{
	assert_error("option '--output' needs a value", parse(0, "--output", NULL));
	assert_error("option '--output' needs a value", parse(0, "--out", NULL));
	assert_error("option '-o' needs a value", parse(0, "-o", NULL));
	assert_error("option '-o' needs a value", parse(0, "-vo", NULL));
	assert_error("option '--dry-run' takes no value", parse(0, "--dry-run=1", NULL));
}

static void ambiguous_abbreviations(void **state)
{
	assert_error("option '--mo' is ambiguous: it could be --mode, --mode-check", parse(0, "--mo", NULL));
	assert_error("option '--m' is ambiguous: it could be --mode, --mode-check", parse(0, "--m=fast", NULL));
	/* two names of one option are not ambiguous */
	assert_int_equal(parse(0, "--verbose", "--no", NULL), 0);
	assert_int_equal(verbose, 0);
}

static void integers_out_of_range(void **state)
{
	assert_error("--level takes a number from 0 to 9, not '10'", parse(0, "--level=10", NULL));
	assert_error("--level takes a number from 0 to 9, not 'x'", parse(0, "-lx", NULL));
	assert_error("--level takes a number from 0 to 9, not '-1'", parse(0, "-l", "-1", NULL));
	assert_error("--count takes a number, not '12x'", parse(0, "--count=12x", NULL));
	assert_error("--count takes a number, not ' 1'", parse(0, "--count= 1", NULL));
	assert_error("--count takes a number <= 2147483647, not '99999999999'",
		     parse(0, "--count", "99999999999", NULL));
	assert_error("--count takes a number >= -2147483648, not '-99999999999'",
		     parse(0, "--count=-99999999999", NULL));
}

static void choices_and_callbacks(void **state)
{
	assert_error("--mode takes fast, slow or careful, not 'medium'", parse(0, "--mode=medium", NULL));
	assert_error("--pair takes K=V, not 'x'", parse(0, "--pair", "x", NULL));
}

static void help_is_made_from_the_table(void **state)
{
	const struct td_option *o;
	struct strbuf name = STRBUF_INIT;

	assert_int_equal(parse(0, "-v", "--help", "--bogus", NULL), TD_PARSE_HELP);
	assert_string_equal(printed_out, expected_help);
	assert_string_equal(printed_err, "");
	for (o = options; o->type != TD_OPTION_END; o++) {
		if (!o->long_name)
			continue;
		strbuf_reset(&name);
		strbuf_addf(&name, "--%s", o->long_name);
		assert_non_null(strstr(printed_out, name.buf));
	}
	strbuf_release(&name);
	assert_int_equal(parse(0, "-nh", NULL), TD_PARSE_HELP);
	assert_string_equal(printed_out, expected_help);
	assert_int_equal(parse(0, "--he", NULL), TD_PARSE_HELP);
}

static int drop_output(const struct td_option *opt, void *data)
{
	return opt->value == &out || opt->value == data;
}

static void filter_leaves_out_the_dropped_options(void **state)
{
	char w[][12] = { "test", "-vno", "dir", "-l2", "--output=x", "--out", "y", "--count", "3",
			 "-nol", "--", "cmd", "-o" };
	char *argv[TD_ARRAY_SIZE(w) + 1];
	struct strvec kept = STRVEC_INIT;
	int argc = TD_ARRAY_SIZE(w), i;

	for (i = 0; i < argc; i++)
		argv[i] = w[i];
	argv[argc] = NULL;

	assert_int_equal(td_options_filter(argc, argv, options, TD_PARSE_STOP_AT_NON_OPTION,
					   drop_output, &count, &kept), 11);
	assert_int_equal(kept.nr, 3);
	assert_string_equal(kept.v[0], "-vn");
	assert_string_equal(kept.v[1], "-l2");
	assert_string_equal(kept.v[2], "-n");
	assert_null(kept.v[3]);
	strvec_clear(&kept);
	/* without "--": the options end at the first other word */
	argv[10] = w[11]; /* "cmd" */
	assert_int_equal(td_options_filter(11, argv, options, TD_PARSE_STOP_AT_NON_OPTION,
					   drop_output, NULL, &kept), 10);
	assert_int_equal(kept.nr, 5);
	assert_string_equal(kept.v[2], "--count");
	assert_string_equal(kept.v[3], "3");
	assert_string_equal(kept.v[4], "-n");
	strvec_clear(&kept);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(bundled_short_options, reset, cleanup),
		cmocka_unit_test_setup_teardown(long_options_and_values, reset, cleanup),
		cmocka_unit_test_setup_teardown(unique_abbreviations_and_exact_names, reset, cleanup),
		cmocka_unit_test_setup_teardown(arguments_are_gathered_in_order, reset, cleanup),
		cmocka_unit_test_setup_teardown(stop_at_the_first_argument, reset, cleanup),
		cmocka_unit_test_setup_teardown(unknown_options, reset, cleanup),
		cmocka_unit_test_setup_teardown(missing_and_unwanted_values, reset, cleanup),
		cmocka_unit_test_setup_teardown(ambiguous_abbreviations, reset, cleanup),
		cmocka_unit_test_setup_teardown(integers_out_of_range, reset, cleanup),
		cmocka_unit_test_setup_teardown(choices_and_callbacks, reset, cleanup),
		cmocka_unit_test_setup_teardown(help_is_made_from_the_table, reset, cleanup),
		cmocka_unit_test_setup_teardown(filter_leaves_out_the_dropped_options, reset, cleanup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
