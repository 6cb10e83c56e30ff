/*
 * tdperf import: turn perf stat output (or a 'perf stat record' perf.data
 * file) into a run directory that 'tdperf report' and every other command
 * read like a recorded run.
 */
#include "src/builtin.h"
#include "analyze/report.h"
#include "util/parse-options.h"
#include "util/util.h"

#include <stdio.h>
#include <string.h>

static const char *const import_usage[] = {
	"tdperf import [--cpu CPU] [--smt on|off] [-o DIR] FILE",
	"",
	"Read what perf stat printed - text in any locale, -x CSV with any",
	"separator, -j JSON; -I intervals, -r repeats, -A, --per-core/socket/",
	"die/node/thread; hybrid cpu_core/cpu_atom; --no-merge 'EVENT [PMU]'",
	"lines (big.LITTLE Arm clusters get a tree each); pasted into a mail",
	"or a README is fine - or a 'perf stat record' perf.data file, and write a",
	"run directory (docs/run-format.md): the input byte for byte under",
	"input/, meta.json, and the formula table used as table.json.",
	"\nThe CPU is inferred from the event names unless given; meta.json",
	"states how sure the inference is.",
	NULL,
};

int cmd_import(int argc, char **argv)
{
	struct td_report_opts opts = { 0 };
	struct strbuf summary = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	const char *out = TD_RUN_DEFAULT;
	int quiet = 0, ret = 0, i;
	struct strvec typed = STRVEC_INIT; /* meta.json keeps the command line as typed */
	const struct td_option options[] = {
		TD_OPT_STRING(0, "cpu", &opts.cpu, "CPU", "formula table to use (tdperf list), e.g. icelake"),
		TD_OPT_STRING(0, "table", &opts.table, "FILE", "formula table file to use instead of a built-in one"),
		TD_OPT_CHOICE(0, "smt", &opts.smt, "on|off", "SMT state of the measured machine"),
		TD_OPT_STRING('o', "output", &out, "DIR",
			      "run directory to write (default tdperf.data; an existing one is kept as DIR.old)"),
		TD_OPT_BOOL('q', "quiet", &quiet, "print nothing on success"),
		TD_OPT_END(),
	};

	for (i = 0; i < argc; i++)
		strvec_push(&typed, argv[i]);
	argc = td_parse_options(argc, argv, options, import_usage, 0);
	if (argc != 1) {
		ret = td_usage_error(import_usage, "needs exactly one FILE");
		goto out;
	}
	if (td_report_import_run(argv[0], out, &opts, typed.nr, typed.v, &summary, &err) < 0) {
		error("%s", err.buf);
		ret = 2;
		goto out;
	}
	if (!quiet)
		printf("%s\n", td_printable(summary.buf));
out:
	strvec_clear(&typed);
	strbuf_release(&summary);
	strbuf_release(&err);
	return ret;
}
