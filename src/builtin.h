/*
 * src/: the tdperf command line.  tdperf.c dispatches "tdperf NAME ..." to
 * cmd_NAME(argc, argv) with argv[0] == "NAME".  Each subcommand lives in its
 * own file, keeps its usage text at the top, parses its options with
 * getopt_long, and answers -h/--help on stdout with exit 0.
 *
 * Exit codes for every command: 0 success, 1 the analysis ran but found a
 * problem the user asked to fail on (or the workload failed, for record,
 * which forwards the workload's own status), 2 bad usage or bad input.
 */
#ifndef TD_BUILTIN_H
#define TD_BUILTIN_H

int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_expr(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_tables(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_help(int argc, char **argv);

/* Print usage to stdout and return 0 (for --help) ... */
int td_usage_ok(const char *usage);
/* ... or to stderr after an error, returning 2. */
int td_usage_error(const char *usage, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
