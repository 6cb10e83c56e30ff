/*
 * tdperf: why is my program slow on this CPU?
 *
 * The command dispatcher, in the style of git and perf: "tdperf COMMAND
 * [options]" runs cmd_COMMAND from the table below.
 */
#include "config.h"
#include "src/builtin.h"
#include "util/util.h"

#include <ctype.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "record", cmd_record, "Run a command and record its Top-Down profile into a run directory" },
	{ "report", cmd_report, "Show the Top-Down tree, stacks and metrics of a run (text, JSON, CSV, HTML)" },
	{ "diff", cmd_diff, "Compare two runs, also across CPU generations" },
	{ "import", cmd_import, "Turn perf stat output or a perf.data file into a run directory" },
	{ "list", cmd_list, "List the built-in formula tables and their Top-Down trees" },
	{ "explain", cmd_explain, "Describe a node or metric: meaning, formula, threshold, measured values" },
	{ "check", cmd_check, "Tell what this machine can measure, and how to fix what it cannot" },
	{ "expr", cmd_expr, "Evaluate a perf metric expression" },
	{ "dump", cmd_dump, "Print a perf.data file's header, features and records" },
	{ "tables", cmd_tables, "Build formula tables from Intel perfmon or Linux pmu-events JSON" },
	{ "calibrate", cmd_calibrate, "Measure this machine's compute and bandwidth roofs" },
	{ "help", cmd_help, "Show help for tdperf or one of its commands" },
};

static const char main_usage[] =
	"usage: tdperf [--version] [--help] <command> [<args>]\n";

static void list_commands(FILE *out)
{
	size_t i;

	fputs(main_usage, out);
	fputs("\nThe tdperf commands are:\n", out);
	for (i = 0; i < TD_ARRAY_SIZE(commands); i++)
		fprintf(out, "   %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\nSee 'tdperf help <command>' or 'tdperf <command> --help' for one command.\n", out);
}

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

int td_usage_ok(const char *usage)
{
	fputs(usage, stdout);
	return 0;
}

/* The running command's arguments, for usage errors. */
static char **cmd_argv;
static int cmd_argc;

/* What td_getopt() last refused: the option as typed, and why. */
static struct strbuf bad_option = STRBUF_INIT;
static int bad_option_needs_value;

int td_getopt(int argc, char **argv, const char *optstring, const struct option *longopts)
{
	struct strbuf opts = STRBUF_INIT;
	int c;

	/* a leading ':' (after a '+') makes getopt tell a missing value (':') from an unknown option */
	if (*optstring == '+')
		strbuf_addstr(&opts, "+:");
	else
		strbuf_addch(&opts, ':');
	strbuf_addstr(&opts, optstring + (*optstring == '+'));
	c = getopt_long(argc, argv, opts.buf, longopts, NULL);
	strbuf_release(&opts);
	if (c != '?' && c != ':')
		return c;
	strbuf_reset(&bad_option);
	/* a long option as typed (without any "=value"), else the short option's letter */
	if (optind > 0 && optind - 1 < argc && !strncmp(argv[optind - 1], "--", 2))
		strbuf_add(&bad_option, argv[optind - 1], strcspn(argv[optind - 1], "="));
	else if (optopt > 0 && optopt < 128 && isalnum(optopt))
		strbuf_addf(&bad_option, "-%c", optopt);
	else if (optind > 0 && optind - 1 < argc)
		strbuf_addstr(&bad_option, argv[optind - 1]);
	bad_option_needs_value = c == ':';
	return '?';
}

/*
 * A usage error is one line: the command, what is wrong and where the
 * help is (the whole usage text, 14 to 41 lines, buried the message).
 */
int td_usage_error(const char *usage, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT, cmd = STRBUF_INIT;
	const char *p = strstr(usage, "tdperf ");
	va_list ap;

	if (p) {
		p += 7;
		strbuf_add(&cmd, p, strcspn(p, " \n["));
	}
	if (fmt) {
		va_start(ap, fmt);
		strbuf_vaddf(&sb, fmt, ap);
		va_end(ap);
	} else if (bad_option.len) {
		strbuf_addf(&sb, bad_option_needs_value ? "option '%s' needs a value" :
			    "unknown option '%s'", bad_option.buf);
	} else if (cmd_argv && optind > 1 && optind - 1 < cmd_argc) {
		strbuf_addf(&sb, "unknown option '%s'", cmd_argv[optind - 1]);
	}
	if (cmd.len)
		error("%s: %s%ssee 'tdperf help %s'", cmd.buf, sb.buf, sb.len ? "; " : "", cmd.buf);
	else
		error("%s%ssee 'tdperf help'", sb.buf, sb.len ? "; " : "");
	strbuf_release(&sb);
	strbuf_release(&cmd);
	return 2;
}

int cmd_help(int argc, char **argv)
{
	const struct command *cmd;
	char *help_argv[] = { NULL, "--help", NULL };

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		list_commands(stdout);
		return 0;
	}
	cmd = find_command(argv[1]);
	if (!cmd) {
		error("'%s' is not a tdperf command; see 'tdperf help'", argv[1]);
		return 2;
	}
	if (cmd->fn == cmd_help) {
		list_commands(stdout);
		return 0;
	}
	help_argv[0] = argv[1];
	return cmd->fn(2, help_argv);
}

int main(int argc, char **argv)
{
	const struct command *cmd;

	if (argc < 2) {
		list_commands(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("tdperf version %s\n", PACKAGE_VERSION);
		return td_finish_stdout(0);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		list_commands(stdout);
		return td_finish_stdout(0);
	}
	cmd = find_command(argv[1]);
	if (!cmd) {
		error("'%s' is not a tdperf command; see 'tdperf help'", argv[1]);
		return 2;
	}
	opterr = 0; /* td_usage_error() says what is wrong, in our format */
	cmd_argv = argv + 1;
	cmd_argc = argc - 1;
	return td_finish_stdout(cmd->fn(argc - 1, argv + 1));
}
