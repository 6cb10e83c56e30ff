/*
 * tdperf: why is my program slow on this CPU?
 *
 * The command dispatcher, in the style of git and perf: "tdperf COMMAND
 * [options]" runs cmd_COMMAND from the table below.
 */
#include "config.h"
#include "src/builtin.h"
#include "util/util.h"

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

/* "'recrod' is not a tdperf command (did you mean 'record'?)" */
static int unknown_command(const char *name)
{
	struct td_suggest sg;
	const char *best;
	size_t i;

	td_suggest_init(&sg, name);
	for (i = 0; i < TD_ARRAY_SIZE(commands); i++)
		td_suggest_offer(&sg, commands[i].name, &commands[i]);
	best = td_suggest_result(&sg);
	if (best)
		error("'%s' is not a tdperf command (did you mean '%s'?); see 'tdperf help'", name, best);
	else
		error("'%s' is not a tdperf command; see 'tdperf help'", name);
	return 2;
}

int cmd_help(int argc, char **argv)
{
	const struct command *cmd;
	char help[] = "--help";
	char *help_argv[] = { NULL, help, NULL };

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		list_commands(stdout);
		return 0;
	}
	cmd = find_command(argv[1]);
	if (!cmd)
		return unknown_command(argv[1]);
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
	if (!cmd)
		return unknown_command(argv[1]);
	return td_finish_stdout(cmd->fn(argc - 1, argv + 1));
}
