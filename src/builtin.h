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
/*
 * ... or say in one line what is wrong, "tdperf: CMD: what; see 'tdperf
 * help CMD'", returning 2.  With fmt NULL, after td_getopt() returned '?',
 * the message names the option that is unknown or lacks its value.
 */
int td_usage_error(const char *usage, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

struct option;
/*
 * getopt_long() for every command: the same optstring and options, but
 * an unknown option and an option missing its value both return '?',
 * and td_usage_error(usage, NULL) then tells which it was.
 */
int td_getopt(int argc, char **argv, const char *optstring, const struct option *longopts);

#endif
