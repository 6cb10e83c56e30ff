/*
 * src/: the tdperf command line.  tdperf.c dispatches "tdperf NAME ..." to
 * cmd_NAME(argc, argv) with argv[0] == "NAME".  Each subcommand lives in its
 * own file and declares its options in one table, read by
 * td_parse_options() (util/parse-options.h): the table parses the command
 * line and makes the -h/--help text (stdout, exit 0), and every usage error
 * is one line, "tdperf: NAME: what; see 'tdperf help NAME'" (exit 2).
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

/*
 * report --html and diff --html: say on stderr which page was written,
 * and whether the text report was printed with it (with_text: --format
 * or -o asked for it) or not, so that an empty stdout is no surprise.
 */
void td_say_html_written(const char *path, int with_text);

#endif
