/*
 * tdperf report: show a run (or a perf stat output imported on the fly)
 * as a text tree, JSON, CSV, HTML or gnuplot charts.  Every format is
 * rendered from the same report document (docs/report-schema.md).
 */
#include "src/builtin.h"
#include "analyze/report.h"
#include "analyze/compare.h"
#include "report/render.h"
#include "report/html.h"
#include "util/parse-options.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const report_usage[] = {
	"tdperf report [options] [RUN | FILE]",
	"",
	"Show the Top-Down tree, metrics and counts of a run directory (default",
	"tdperf.data) or of a perf stat output / perf.data file, imported on the",
	"fly (see tdperf import).  Values perf printed itself are shown beside",
	"ours.",
	NULL,
};

/* --html[=FILE]; without "=FILE" a following word may still name the file. */
struct html_opt {
	const char *file;
	int named;
};

static int parse_html(const struct td_option *opt, const char *arg, struct strbuf *err)
{
	struct html_opt *html = opt->value;

	html->file = arg ? arg : "tdperf.html";
	html->named = arg != NULL;
	return 0;
}

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

/* What a loaded document is: its kind picks the renderers. */
enum report_kind { KIND_RUN, KIND_JOB, KIND_HOTSPOTS };

/* What every renderer may need: the output, and the options that shape it. */
struct render_ctx {
	FILE *out;                       /* text, JSON and CSV */
	const struct td_text_opts *topts;
	int top;                         /* --hotspots: functions shown */
	const char *html;                /* --html FILE */
	const char *plot, *plotfmt;      /* --plot DIR, --plot-format */
};

static int run_text(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	td_report_render_text(doc, c->topts, c->out);
	return 0;
}

static int any_json(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	td_report_render_json(doc, c->topts->all_scopes, c->out);
	return 0;
}

static int run_csv(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	td_report_render_csv(doc, c->out);
	return 0;
}

static int run_html(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	return td_report_render_html(doc, c->html, err);
}

static int run_plot(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	return td_report_plot(doc, c->plot, c->plotfmt, err);
}

static int job_text(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	td_report_job_text(doc, c->out);
	return 0;
}

static int job_csv(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	td_report_job_csv(doc, c->out);
	return 0;
}

static int job_plot(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	return td_report_job_plot(doc, c->plot, c->plotfmt, err);
}

static int job_html(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	return td_report_job_html(doc, c->html, err);
}

static int hot_text(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	td_hotspots_render_text(doc, c->top, c->out);
	return 0;
}

static int hot_csv(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	td_hotspots_render_csv(doc, c->out);
	return 0;
}

static int hot_html(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	return td_hotspots_render_html(doc, c->html, err);
}

static int hot_plot(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	return td_hotspots_plot(doc, c->plot, c->plotfmt, c->top > 0 ? c->top : 25, err);
}

/*
 * {kind, format} -> renderer.  The formats are --format's (text, json,
 * csv, written to the output) and the files --html and --plot write.  A
 * pair without a renderer says why instead.
 */
static const struct renderer {
	enum report_kind kind;
	const char *format;
	int (*render)(json_t *doc, const struct render_ctx *c, struct strbuf *err);
	const char *missing;
} renderers[] = {
	{ KIND_RUN, "text", run_text, NULL },
	{ KIND_RUN, "json", any_json, NULL },
	{ KIND_RUN, "csv", run_csv, NULL },
	{ KIND_RUN, "html", run_html, NULL },
	{ KIND_RUN, "plot", run_plot, NULL },
	{ KIND_JOB, "text", job_text, NULL },
	{ KIND_JOB, "json", any_json, NULL },
	{ KIND_JOB, "csv", job_csv, NULL },
	{ KIND_JOB, "html", job_html, NULL },
	{ KIND_JOB, "plot", job_plot, NULL },
	{ KIND_HOTSPOTS, "text", hot_text, NULL },
	{ KIND_HOTSPOTS, "json", any_json, NULL },
	{ KIND_HOTSPOTS, "csv", hot_csv, NULL },
	{ KIND_HOTSPOTS, "html", hot_html, NULL },
	{ KIND_HOTSPOTS, "plot", hot_plot, NULL },
};

static const struct renderer *find_renderer(enum report_kind kind, const char *format)
{
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(renderers); i++)
		if (renderers[i].kind == kind && !strcmp(renderers[i].format, format))
			return &renderers[i];
	die("BUG: no renderer for %s", format); /* the table covers every pair */
}

/* Render doc as format; 0, or -1 with the message said. */
static int render(enum report_kind kind, const char *format, json_t *doc,
		  const struct render_ctx *c)
{
	const struct renderer *r = find_renderer(kind, format);
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	if (!r->render)
		ret = error("--%s: %s", format, r->missing);
	else if (r->render(doc, c, &err) < 0)
		ret = error("%s", err.buf);
	strbuf_release(&err);
	return ret;
}

static int report(int argc, char **argv, const struct strvec *typed)
{
	struct td_report_opts opts = { 0 };
	struct td_text_opts topts = { 0 };
	const char *format = NULL, *plot = NULL, *plotfmt = "svg", *color = "auto", *scopes = "fold";
	struct html_opt html = { NULL, 0 };
	const char *input = TD_RUN_DEFAULT, *outpath = NULL;
	struct strbuf err = STRBUF_INIT;
	json_t *doc;
	FILE *out = stdout;
	char *membuf = NULL;
	size_t memlen = 0;
	int ret = 0, format_given, hotspots = 0, top = 25, live = 0, no_demangle = 0;
	enum report_kind kind;
	struct render_ctx ctx = { 0 };
	unsigned hot_flags = 0;
	const struct td_option options[] = {
		TD_OPT_CHOICE(0, "format", &format, "text|json|csv", "output format (default text)"),
		TD_OPT_CALLBACK_F(0, "html", &html, "FILE", "also write the HTML report (default tdperf.html)",
				  TD_OPTION_OPTARG, parse_html),
		TD_OPT_STRING(0, "plot", &plot, "DIR", "also write gnuplot charts into DIR"),
		TD_OPT_CHOICE(0, "plot-format", &plotfmt, "svg|png", "image format of the charts (default svg)"),
		TD_OPT_INT_RANGE(0, "level", &opts.max_level, 1, INT_MAX, "N", "show the tree down to level N"),
		TD_OPT_COUNT('v', "verbose", &topts.verbose, "show nodes below threshold, reasons, info metrics"),
		TD_OPT_BOOL(0, "events", &topts.events, "list the raw counts under each tree"),
		TD_OPT_CHOICE(0, "scopes", &scopes, "fold|all",
			      "per-interval/CPU/thread scopes folded (default: one line each in text, "
			      "values as columns in JSON) or shown as full trees"),
		TD_OPT_CHOICE(0, "color", &color, "auto|always|never", "colours (default auto: only on a terminal)"),
		TD_OPT_CHOICE(0, "colour", &color, "auto|always|never", "the same as --color"),
		TD_OPT_STRING(0, "cpu", &opts.cpu, "CPU", "as for tdperf import"),
		TD_OPT_STRING(0, "table", &opts.table, "FILE", "as for tdperf import"),
		TD_OPT_CHOICE(0, "smt", &opts.smt, "on|off", "as for tdperf import"),
		TD_OPT_BOOL(0, "hotspots", &hotspots,
			    "functions where the samples of the run's perf.data (or of any perf.data) "
			    "fall, self and children"),
		TD_OPT_INT_RANGE(0, "top", &top, 0, INT_MAX, "N",
				 "with --hotspots: show the top N functions (default 25)"),
		TD_OPT_BOOL(0, "no-demangle", &no_demangle,
			    "with --hotspots: C++ names as the symbol table spells them"),
		TD_OPT_BOOL(0, "live", &live,
			    "perf stat -I output as it arrives (FILE or - for a pipe): the tree of each "
			    "interval, redrawn on a terminal with each node's recent values, else one "
			    "line per interval"),
		TD_OPT_STRING('o', "output", &outpath, "FILE", "write the report to FILE instead of stdout"),
		TD_OPT_END(),
	};

	opts.argc = typed->nr; /* the run's command line is this one, --html and all */
	opts.argv = typed->v;
	argc = td_parse_options(argc, argv, options, report_usage, 0);
	format_given = format != NULL;
	if (!format)
		format = "text";
	topts.all_scopes = !strcmp(scopes, "all");
	if (no_demangle)
		hot_flags |= TD_HOT_NO_DEMANGLE;
	/* "--html OUT.html INPUT": --html's optional value given as a separate word */
	if (html.file && !html.named && argc == 2) {
		html.file = *argv++;
		argc--;
	} else if (html.file && !html.named && argc == 1) {
		/* "--html OUT.html" alone: an output name, the run is tdperf.data */
		size_t n = strlen(argv[0]);
		if ((n > 5 && !strcmp(argv[0] + n - 5, ".html")) ||
		    (n > 4 && !strcmp(argv[0] + n - 4, ".htm"))) {
			html.file = *argv++;
			argc--;
		}
	}
	if (argc > 1)
		return td_usage_error(report_usage, "takes one RUN or FILE");
	if (argc == 1)
		input = argv[0];
	if (strcmp(input, "-") && !td_file_exists(input)) {
		error("%s: no such run or file%s", input,
		      !strcmp(input, TD_RUN_DEFAULT) ? " (record one with tdperf record, or give a perf stat output)" : "");
		return 2;
	}
	if (live) {
		if (html.file || plot || hotspots || outpath || format_given)
			return td_usage_error(report_usage, "--live draws on the terminal: it takes no --format, "
					      "--html, --plot, --hotspots or -o");
		return report_live(input, &opts);
	}
	/* text, CSV and JSON alone print each scope once: build the long runs' scopes one
	 * at a time (a job's or a sweep's document is built whole) */
	opts.stream_scopes = !html.file && !plot &&
			     (!strcmp(format, "csv") || !strcmp(format, "text") || !strcmp(format, "json")) &&
			     !td_report_is_job(input) && !td_report_is_sweep(input);
	opts.streamed_nodes_only = !strcmp(format, "csv") ||
				   ((!strcmp(format, "text") || !strcmp(format, "json")) && !topts.all_scopes);
	opts.streamed_no_reasons = !strcmp(format, "text") && !topts.all_scopes;
	if (td_refuse_input_as_output(outpath, input) || td_refuse_input_as_output(html.file, input))
		return 2;
	if (hot_flags && !hotspots)
		return td_usage_error(report_usage, "--no-demangle is an option of --hotspots");
	if (!strcmp(format, "json") || html.file)
		hot_flags |= TD_HOT_CALLPATHS;
	doc = hotspots ? td_hotspots_load(input, &opts, hot_flags, &err)
		       : td_report_load(input, &opts, &err);
	if (!doc) {
		error("%s", err.buf);
		strbuf_release(&err);
		return 2;
	}
	/*
	 * A long run's CSV is hundreds of megabytes: written through stdio's
	 * default 4 KiB buffer it costs a system call every few rows.
	 */
	if (!outpath && !isatty(1))
		setvbuf(stdout, NULL, _IOFBF, 1 << 20);
	/* -o: render in memory, then write atomically (never half a report) */
	if (outpath && !(out = open_memstream(&membuf, &memlen))) {
		error("%s: cannot write: out of memory", outpath);
		ret = 2;
		goto done;
	}
	topts.max_level = opts.max_level;
	topts.color = !strcmp(color, "always") || (!strcmp(color, "auto") && !outpath && isatty(1) &&
						   !getenv("NO_COLOR"));
	if (hotspots)
		kind = KIND_HOTSPOTS;
	else if (json_is_array(json_object_get(doc, "ranks"))) /* a job directory: report/job*.c */
		kind = KIND_JOB;
	else
		kind = KIND_RUN;
	ctx.out = out;
	ctx.topts = &topts;
	ctx.top = top;
	ctx.html = html.file;
	ctx.plot = plot;
	ctx.plotfmt = plotfmt;
	/* with --html or --plot alone, the files are the output: no text as well */
	if (!((html.file || plot) && !format_given && !outpath))
		render(kind, format, doc, &ctx);
	if (out != stdout) {
		fclose(out);
		if (td_write_file_atomic(outpath, membuf, memlen) < 0) {
			error("%s: cannot write: %s", outpath, strerror(errno));
			ret = 2;
		}
		free(membuf);
	}
	if (html.file && render(kind, "html", doc, &ctx) < 0)
		ret = 2;
	else if (html.file)
		fprintf(stderr, "tdperf: wrote %s (one self-contained HTML file)\n", html.file);
	if (plot && render(kind, "plot", doc, &ctx) < 0)
		ret = 2;
	else if (plot)
		fprintf(stderr, "tdperf: wrote the charts into %s/\n", plot);
done:
	td_report_stream_release(doc);
	json_decref(doc);
	strbuf_release(&err);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct strvec typed = STRVEC_INIT;
	int i, ret;

	/* the command line as typed, before parsing gathers the arguments */
	strvec_push(&typed, "tdperf");
	for (i = 0; i < argc; i++)
		strvec_push(&typed, argv[i]);
	ret = report(argc, argv, &typed);
	strvec_clear(&typed);
	return ret;
}
