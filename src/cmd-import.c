/*
 * tdperf import: turn perf stat output (or a 'perf stat record' perf.data
 * file) into a run directory that 'tdperf report' and every other command
 * read like a recorded run.
 */
#include "src/builtin.h"
#include "analyze/report.h"
#include "util/util.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static const char usage[] =
	"usage: tdperf import [--cpu CPU] [--smt on|off] [-o DIR] FILE\n"
	"\n"
	"Read what perf stat printed - text in any locale, -x CSV with any\n"
	"separator, -j JSON; -I intervals, -r repeats, -A, --per-core/socket/\n"
	"die/node/thread; hybrid cpu_core/cpu_atom; --no-merge 'EVENT [PMU]'\n"
	"lines (big.LITTLE Arm clusters get a tree each); pasted into a mail\n"
	"or a README is fine - or a 'perf stat record' perf.data file, and write a\n"
	"run directory (docs/run-format.md): the input byte for byte under\n"
	"input/, meta.json, and the formula table used as table.json.\n"
	"\n"
	"The CPU is inferred from the event names unless given; meta.json\n"
	"states how sure the inference is.\n"
	"\n"
	"  --cpu CPU        formula table to use (tdperf list), e.g. icelake\n"
	"  --table FILE     formula table file to use instead of a built-in one\n"
	"  --smt on|off     SMT state of the measured machine\n"
	"  -o, --output DIR run directory to write (default tdperf.data; an\n"
	"                   existing one is kept as DIR.old)\n"
	"  -q, --quiet      print nothing on success\n"
	"  -h, --help       this text\n";

int cmd_import(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "table", required_argument, NULL, 'T' },
		{ "smt", required_argument, NULL, 's' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct td_report_opts opts = { 0 };
	struct strbuf summary = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	const char *out = TD_RUN_DEFAULT;
	int c, quiet = 0, ret = 0;

	optind = 1;
	while ((c = td_getopt(argc, argv, "o:qh", longopts)) != -1) {
		switch (c) {
		case 'c': opts.cpu = optarg; break;
		case 'T': opts.table = optarg; break;
		case 's':
			if (strcmp(optarg, "on") && strcmp(optarg, "off"))
				return td_usage_error(usage, "--smt takes 'on' or 'off', not '%s'", optarg);
			opts.smt = optarg;
			break;
		case 'o': out = optarg; break;
		case 'q': quiet = 1; break;
		case 'h': return td_usage_ok(usage);
		default: return td_usage_error(usage, NULL);
		}
	}
	if (optind != argc - 1)
		return td_usage_error(usage, "needs exactly one FILE");
	if (td_report_import_run(argv[optind], out, &opts, argc, argv, &summary, &err) < 0) {
		error("%s", err.buf);
		ret = 2;
		goto out;
	}
	if (!quiet)
		printf("%s\n", summary.buf);
out:
	strbuf_release(&summary);
	strbuf_release(&err);
	return ret;
}
