/*
 * tdperf report: show a run (or a perf stat output imported on the fly)
 * as a text tree, JSON, CSV, HTML or gnuplot charts.  Every format is
 * rendered from the same report document (docs/report-schema.md).
 */
#include "src/builtin.h"
#include "analyze/report.h"
#include "analyze/compare.h"
#include "render/render.h"
#include "render/html.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
	"usage: tdperf report [options] [RUN | FILE]\n"
	"\n"
	"Show the Top-Down tree, metrics and counts of a run directory (default\n"
	"tdperf.data) or of a perf stat output / perf.data file, imported on the\n"
	"fly (see tdperf import).  Values perf printed itself are shown beside\n"
	"ours.\n"
	"\n"
	"  --format text|json|csv  output format (default text)\n"
	"  --html [FILE]           also write the HTML report (default tdperf.html)\n"
	"  --plot DIR              also write gnuplot charts into DIR\n"
	"  --plot-format svg|png   image format of the charts (default svg)\n"
	"  --level N               show the tree down to level N\n"
	"  -v, --verbose           show nodes below threshold, reasons, info metrics\n"
	"  --events                list the raw counts under each tree\n"
	"  --scopes fold|all       per-interval/CPU/thread scopes folded to one line\n"
	"                          each (default) or shown as full trees\n"
	"  --color auto|always|never  colours (default auto: only on a terminal)\n"
	"  --cpu CPU, --table FILE, --smt on|off   as for tdperf import\n"
	"  --hotspots              functions where the samples of the run's perf.data\n"
	"                          (or of any perf.data) fall, self and children\n"
	"  --top N                 with --hotspots: show the top N functions (default 25)\n"
	"  --no-demangle           with --hotspots: C++ names as the symbol table spells them\n"
	"  --live                  perf stat -I output as it arrives (FILE or - for a pipe):\n"
	"                          the tree of each interval, redrawn on a terminal with\n"
	"                          each node's recent values, else one line per interval\n"
	"  -o FILE                 write the report to FILE instead of stdout\n"
	"  -h, --help              this text\n";

static volatile sig_atomic_t live_interrupts;

static void on_live_interrupt(int sig)
{
	(void)sig;
	live_interrupts++;
}

/*
 * report --live: read the input as it grows and draw each interval.  On
 * Ctrl-C perf (in the same pipeline) prints its last interval and exits:
 * the first SIGINT lets the view read to that end; a second stops it.
 */
static int report_live(const char *input, const struct td_report_opts *opts)
{
	struct strbuf err = STRBUF_INIT;
	struct sigaction sa;
	struct td_live *lv;
	char buf[65536];
	int fd = strcmp(input, "-") ? open(input, O_RDONLY) : 0, ret = 0;
	ssize_t n;

	if (fd < 0) {
		error("%s: cannot open: %s", input, strerror(errno));
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_live_interrupt;
	sigaction(SIGINT, &sa, NULL);   /* no SA_RESTART: a second Ctrl-C ends read() */
	lv = td_live_new(opts, stdout, isatty(1));
	while (live_interrupts < 2) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			strbuf_addf(&err, "cannot read: %s", strerror(errno));
			ret = -1;
			break;
		}
		if (n == 0)
			break;
		if ((ret = td_live_feed(lv, buf, (size_t)n, &err)) < 0)
			break;
	}
	if (!ret)
		ret = td_live_finish(lv, &err);
	if (ret < 0)
		error("%s: %s", strcmp(input, "-") ? input : "<stdin>", err.buf);
	td_live_free(lv);
	strbuf_release(&err);
	if (fd > 0)
		close(fd);
	return ret < 0 ? 2 : 0;
}

int cmd_report(int argc, char **argv)
{
	enum { O_FORMAT = 256, O_HTML, O_PLOT, O_PLOTFMT, O_LEVEL, O_COLOR, O_CPU, O_TABLE, O_SMT,
	       O_SCOPES, O_EVENTS, O_HOTSPOTS, O_TOP, O_NO_DEMANGLE, O_LIVE };
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, O_FORMAT },
		{ "html", optional_argument, NULL, O_HTML },
		{ "plot", required_argument, NULL, O_PLOT },
		{ "plot-format", required_argument, NULL, O_PLOTFMT },
		{ "level", required_argument, NULL, O_LEVEL },
		{ "color", required_argument, NULL, O_COLOR },
		{ "colour", required_argument, NULL, O_COLOR },
		{ "cpu", required_argument, NULL, O_CPU },
		{ "table", required_argument, NULL, O_TABLE },
		{ "smt", required_argument, NULL, O_SMT },
		{ "scopes", required_argument, NULL, O_SCOPES },
		{ "events", no_argument, NULL, O_EVENTS },
		{ "hotspots", no_argument, NULL, O_HOTSPOTS },
		{ "top", required_argument, NULL, O_TOP },
		{ "no-demangle", no_argument, NULL, O_NO_DEMANGLE },
		{ "live", no_argument, NULL, O_LIVE },
		{ "verbose", no_argument, NULL, 'v' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct td_report_opts opts = { 0 };
	struct td_text_opts topts = { 0 };
	const char *format = "text", *html = NULL, *plot = NULL, *plotfmt = "svg", *color = "auto";
	const char *input = TD_RUN_DEFAULT, *outpath = NULL;
	struct strbuf err = STRBUF_INIT;
	json_t *doc;
	FILE *out = stdout;
	char *membuf = NULL;
	size_t memlen = 0;
	int c, ret = 0, html_default = 0, format_given = 0, is_job = 0, hotspots = 0, top = 25, live = 0;
	unsigned hot_flags = 0;
	char *end;
	char *typed[argc + 2];

	/* the command line as typed, before getopt reorders argv */
	typed[0] = "tdperf";
	memcpy(typed + 1, argv, argc * sizeof(*argv));
	typed[argc + 1] = NULL;
	optind = 1;
	while ((c = td_getopt(argc, argv, "vo:h", longopts)) != -1) {
		switch (c) {
		case O_FORMAT:
			if (strcmp(optarg, "text") && strcmp(optarg, "json") && strcmp(optarg, "csv"))
				return td_usage_error(usage, "--format takes text, json or csv, not '%s'", optarg);
			format = optarg;
			format_given = 1;
			break;
		case O_HTML:
			html = optarg ? optarg : "tdperf.html";
			html_default = !optarg;
			break;
		case O_PLOT: plot = optarg; break;
		case O_PLOTFMT:
			/* refused before the report is printed, not after */
			if (strcmp(optarg, "svg") && strcmp(optarg, "png"))
				return td_usage_error(usage, "--plot-format takes svg or png, not '%s'", optarg);
			plotfmt = optarg;
			break;
		case O_LEVEL:
			opts.max_level = (int)strtol(optarg, &end, 10);
			if (*end || opts.max_level < 1)
				return td_usage_error(usage, "--level takes a level number (1, 2, ...), not '%s'", optarg);
			break;
		case O_COLOR:
			if (strcmp(optarg, "auto") && strcmp(optarg, "always") && strcmp(optarg, "never"))
				return td_usage_error(usage, "--color takes auto, always or never, not '%s'", optarg);
			color = optarg;
			break;
		case O_CPU: opts.cpu = optarg; break;
		case O_TABLE: opts.table = optarg; break;
		case O_SMT:
			if (strcmp(optarg, "on") && strcmp(optarg, "off"))
				return td_usage_error(usage, "--smt takes 'on' or 'off', not '%s'", optarg);
			opts.smt = optarg;
			break;
		case O_SCOPES:
			if (strcmp(optarg, "fold") && strcmp(optarg, "all"))
				return td_usage_error(usage, "--scopes takes fold or all, not '%s'", optarg);
			topts.all_scopes = !strcmp(optarg, "all");
			break;
		case O_EVENTS: topts.events = 1; break;
		case O_HOTSPOTS: hotspots = 1; break;
		case O_NO_DEMANGLE: hot_flags |= TD_HOT_NO_DEMANGLE; break;
		case O_LIVE: live = 1; break;
		case O_TOP:
			top = (int)strtol(optarg, &end, 10);
			if (*end || top < 0)
				return td_usage_error(usage, "--top takes a number of functions, not '%s'", optarg);
			break;
		case 'v': topts.verbose++; break;
		case 'o': outpath = optarg; break;
		case 'h': return td_usage_ok(usage);
		default: return td_usage_error(usage, NULL);
		}
	}
	/* "--html OUT.html INPUT": --html's optional value given as a separate word */
	if (html && html_default && optind == argc - 2) {
		html = argv[optind++];
	} else if (html && html_default && optind == argc - 1) {
		/* "--html OUT.html" alone: an output name, the run is tdperf.data */
		size_t n = strlen(argv[optind]);
		if ((n > 5 && !strcmp(argv[optind] + n - 5, ".html")) ||
		    (n > 4 && !strcmp(argv[optind] + n - 4, ".htm")))
			html = argv[optind++];
	}
	if (optind < argc - 1)
		return td_usage_error(usage, "takes one RUN or FILE");
	if (optind == argc - 1)
		input = argv[optind];
	if (strcmp(input, "-") && !td_file_exists(input)) {
		error("%s: no such run or file%s", input,
		      !strcmp(input, TD_RUN_DEFAULT) ? " (record one with tdperf record, or give a perf stat output)" : "");
		return 2;
	}
	if (live) {
		if (html || plot || hotspots || outpath || format_given)
			return td_usage_error(usage, "--live draws on the terminal: it takes no --format, "
					      "--html, --plot, --hotspots or -o");
		return report_live(input, &opts);
	}
	/* text, CSV and JSON alone print each scope once: build the long runs' scopes one
	 * at a time (a job's or a sweep's document is built whole) */
	opts.stream_scopes = !html && !plot &&
			     (!strcmp(format, "csv") || !strcmp(format, "text") || !strcmp(format, "json")) &&
			     !td_report_is_job(input) && !td_report_is_sweep(input);
	opts.streamed_nodes_only = !strcmp(format, "csv") || (!strcmp(format, "text") && !topts.all_scopes);
	opts.streamed_no_reasons = !strcmp(format, "text") && !topts.all_scopes;
	opts.argc = argc + 1; /* the run's command line is this one, --html and all */
	opts.argv = typed;
	if (td_refuse_input_as_output(outpath, input) || td_refuse_input_as_output(html, input))
		return 2;
	if (hot_flags && !hotspots)
		return td_usage_error(usage, "--no-demangle is an option of --hotspots");
	if (!strcmp(format, "json") || html)
		hot_flags |= TD_HOT_CALLPATHS;
	doc = hotspots ? td_hotspots_load(input, &opts, hot_flags, &err)
		       : td_report_load(input, &opts, &err);
	if (!doc) {
		error("%s", err.buf);
		strbuf_release(&err);
		return 2;
	}
	/* -o: render in memory, then write atomically (never half a report) */
	if (outpath && !(out = open_memstream(&membuf, &memlen))) {
		error("%s: cannot write: out of memory", outpath);
		ret = 2;
		goto done;
	}
	topts.max_level = opts.max_level;
	topts.color = !strcmp(color, "always") || (!strcmp(color, "auto") && !outpath && isatty(1) &&
						   !getenv("NO_COLOR"));
	is_job = json_is_array(json_object_get(doc, "ranks")); /* a job directory: report/job*.c */
	/* with --html or --plot alone, the files are the output: no text as well */
	if (!((html || plot) && !format_given && !outpath)) {
		if (hotspots && !strcmp(format, "csv"))
			td_hotspots_render_csv(doc, out);
		else if (hotspots && !strcmp(format, "text"))
			td_hotspots_render_text(doc, top, out);
		else if (!strcmp(format, "json"))
			td_report_render_json(doc, out);
		else if (!strcmp(format, "csv"))
			is_job ? td_report_job_csv(doc, out) : td_report_render_csv(doc, out);
		else if (is_job)
			td_report_job_text(doc, out);
		else
			td_report_render_text(doc, &topts, out);
	}
	if (out != stdout) {
		fclose(out);
		if (td_write_file_atomic(outpath, membuf, memlen) < 0) {
			error("%s: cannot write: %s", outpath, strerror(errno));
			ret = 2;
		}
		free(membuf);
	}
	if (html && (hotspots ? td_hotspots_render_html(doc, html, &err)
		     : is_job ? td_report_job_html(doc, html, &err)
			      : td_report_render_html(doc, html, &err)) < 0) {
		error("%s", err.buf);
		ret = 2;
	} else if (html) {
		fprintf(stderr, "tdperf: wrote %s (one self-contained HTML file)\n", html);
	}
	strbuf_reset(&err);
	if (plot && is_job) {
		error("--plot: a job has no charts of its own yet: use --html, or report one rank's directory");
		ret = 2;
	} else if (plot && (hotspots ? td_hotspots_plot(doc, plot, plotfmt, top > 0 ? top : 25, &err)
				     : td_report_plot(doc, plot, plotfmt, &err)) < 0) {
		error("%s", err.buf);
		ret = 2;
	} else if (plot) {
		fprintf(stderr, "tdperf: wrote the charts into %s/\n", plot);
	}
done:
	td_report_stream_release(doc);
	json_decref(doc);
	strbuf_release(&err);
	return ret;
}
