/*
 * tdperf report: show a run (or a perf stat output imported on the fly)
 * as a text tree, JSON, CSV, HTML or gnuplot charts.  Every format is
 * rendered from the same report document (docs/report-schema.md).
 */
#include "src/builtin.h"
#include "analyze/report.h"
#include "analyze/compare.h"
#include "analyze/regions.h"
#include "report/render.h"
#include "report/html.h"
#include "report/export.h"
#include "report/regions.h"
#include "util/parse-options.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* --html[=FILE] */
static int parse_html(const struct td_option *opt, const char *arg, struct strbuf *err)
{
	*(const char **)opt->value = arg ? arg : "tdperf.html";
	return 0;
}

/*
 * Is the word after --html its file ("--html out.html RUN", "RUN --html
 * out.html")?  Yes when it is named like a page, is an HTML page already
 * (a report written again), is no file at all, so cannot be the input, or
 * is a device or a FIFO ("--html /dev/stdout", a pipe to a browser), which
 * no run lives in; a run directory or a perf output is the input ("--html
 * RUN").  "--html=FILE" is never in doubt.
 */
static int html_file_word(const char *word)
{
	size_t n = strlen(word);
	char head[64];
	struct stat st;
	ssize_t got;
	int fd;

	if ((n > 5 && !strcmp(word + n - 5, ".html")) || (n > 4 && !strcmp(word + n - 4, ".htm")))
		return 1;
	if (!td_file_exists(word))
		return 1;
	if (!stat(word, &st) && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))
		return 1;
	if (!td_is_regular_file(word) || (fd = open(word, O_RDONLY | O_NONBLOCK)) < 0)
		return 0;
	got = read(fd, head, sizeof(head) - 1);
	close(fd);
	if (got <= 0)
		return 0;
	head[got] = '\0';
	return !strncasecmp(head, "<!doctype html", 14) || !strncasecmp(head, "<html", 5);
}

/* -x SEP: perf stat's CSV separator, one character that needs no quoting of its own */
static int parse_separator(const struct td_option *opt, const char *arg, struct strbuf *err)
{
	if (strlen(arg) != 1 || strchr("\"\r\n", *arg)) {
		strbuf_addf(err, "-x takes one character as the CSV separator, not '%s'", arg);
		return -1;
	}
	*(char *)opt->value = *arg;
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
enum report_kind { KIND_RUN, KIND_JOB, KIND_HOTSPOTS, KIND_REGIONS };

/* What every renderer may need: the output, and the options that shape it. */
struct render_ctx {
	FILE *out;                       /* text, JSON and CSV */
	const struct td_text_opts *topts;
	int top;                         /* --hotspots: functions shown */
	const char *html;                /* --html FILE */
	const char *plot, *plotfmt;      /* --plot DIR, --plot-format */
	const char *weight;              /* --weight EVENT of --format folded */
};

static int run_text(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	struct td_model *m = td_model_new(doc);

	td_report_render_text(m, c->topts, c->out);
	td_model_free(m);
	return 0;
}

static int any_json(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	td_report_render_json(doc, c->topts->all_scopes, c->out);
	return 0;
}

static int run_csv(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	struct td_model *m = td_model_new(doc);

	td_report_render_csv(m, c->out);
	td_model_free(m);
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

static int reg_text(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	td_regions_render_text(doc, c->topts, c->out);
	return 0;
}

static int reg_json(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	td_regions_render_json(doc, c->out);
	return 0;
}

static int reg_csv(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	td_regions_render_csv(doc, c->out);
	return 0;
}

static int reg_html(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	return td_regions_render_html(doc, c->html, err);
}

static int reg_trace(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	return td_export_trace_regions(doc, c->out, err);
}

static int hot_plot(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	return td_hotspots_plot(doc, c->plot, c->plotfmt, c->top > 0 ? c->top : 25, err);
}

static int hot_folded(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	return td_export_folded(doc, c->weight, c->out, err);
}

static int hot_pprof(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	return td_export_pprof(doc, c->out, err);
}

static int hot_speedscope(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	return td_export_speedscope(doc, c->out, err);
}

static int run_trace(json_t *doc, const struct render_ctx *c, struct strbuf *err)
{
	return td_export_trace(doc, c->out, err);
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
	{ KIND_HOTSPOTS, "folded", hot_folded, NULL },
	{ KIND_HOTSPOTS, "pprof", hot_pprof, NULL },
	{ KIND_HOTSPOTS, "speedscope", hot_speedscope, NULL },
	{ KIND_HOTSPOTS, "trace", NULL, "a trace shows a run's threads and intervals over time: "
					"report the run without --hotspots" },
	{ KIND_RUN, "folded", NULL, "the folded stacks are the samples of a perf.data: add --hotspots" },
	{ KIND_RUN, "pprof", NULL, "a pprof profile is the samples of a perf.data: add --hotspots" },
	{ KIND_RUN, "speedscope", NULL, "a speedscope profile is the samples of a perf.data: add --hotspots" },
	{ KIND_RUN, "trace", run_trace, NULL },
	{ KIND_JOB, "folded", NULL, "report one rank's directory with --hotspots" },
	{ KIND_JOB, "pprof", NULL, "report one rank's directory with --hotspots" },
	{ KIND_JOB, "speedscope", NULL, "report one rank's directory with --hotspots" },
	{ KIND_JOB, "trace", NULL, "report one rank's directory" },
	{ KIND_REGIONS, "text", reg_text, NULL },
	{ KIND_REGIONS, "json", reg_json, NULL },
	{ KIND_REGIONS, "csv", reg_csv, NULL },
	{ KIND_REGIONS, "html", reg_html, NULL },
	{ KIND_REGIONS, "plot", NULL, "the regions of a --regions run have no charts yet" },
	{ KIND_REGIONS, "trace", reg_trace, NULL },
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
		ret = error("--format %s: %s", format, r->missing);
	else if (r->render(doc, c, &err) < 0)
		ret = error("%s", err.buf);
	strbuf_release(&err);
	return ret;
}

/* The formats that export a perf.data's samples (and imply --hotspots). */
static int is_sample_export(const char *format)
{
	return !strcmp(format, "pprof") || !strcmp(format, "speedscope") || !strcmp(format, "folded");
}

void td_say_html_written(const char *path, int with_text)
{
	if (with_text)
		fprintf(stderr, "tdperf: wrote %s (one self-contained HTML file)\n", path);
	else
		fprintf(stderr, "tdperf: wrote %s (one self-contained HTML file); the text report is "
			"not printed with --html: add --format text to have both\n", path);
}

/* render, with -x's separator in place of CSV's commas */
static int render_separated(enum report_kind kind, const char *format, json_t *doc,
			    const struct render_ctx *c, char sep)
{
	struct render_ctx mem = *c;
	char *buf = NULL;
	size_t len = 0;
	int ret;

	if (!sep || sep == ',' || strcmp(format, "csv"))
		return render(kind, format, doc, c);
	if (!(mem.out = open_memstream(&buf, &len)))
		return error("cannot write the CSV: out of memory");
	ret = render(kind, format, doc, &mem);
	fclose(mem.out);
	if (!ret)
		td_csv_reseparate(buf, len, sep, c->out);
	free(buf);
	return ret;
}

static int report(int argc, char **argv, const struct strvec *typed)
{
	struct td_report_opts opts = { 0 };
	struct td_text_opts topts = { 0 };
	const char *format = NULL, *plot = NULL, *plotfmt = "svg", *color = "auto", *scopes = "fold";
	const char *html_file = NULL;
	char sep = 0;
	const char *input = TD_RUN_DEFAULT, *outpath = NULL, *weight = NULL;
	struct strbuf err = STRBUF_INIT;
	json_t *doc;
	FILE *out = stdout;
	char *membuf = NULL;
	size_t memlen = 0;
	int ret = 0, format_given, hotspots = 0, regions, top = 25, live = 0, no_demangle = 0;
	enum report_kind kind;
	struct render_ctx ctx = { 0 };
	unsigned hot_flags = 0;
	const struct td_option options[] = {
		TD_OPT_CHOICE(0, "format", &format, "text|json|csv|pprof|speedscope|folded|trace",
			      "output format (default text); pprof, speedscope and folded export the "
			      "samples of --hotspots (implied), trace a run's threads and intervals "
			      "(of a --regions run: its region passes)"),
		TD_OPT_STRING(0, "weight", &weight, "EVENT",
			      "with --format folded: count each stack in EVENT (period, or a member "
			      "of the sampled group) instead of samples"),
		TD_OPT_CALLBACK('x', "field-separator", &sep, "SEP",
				"CSV with SEP between the fields, as perf stat -x SEP (implies --format csv)",
				parse_separator),
		TD_OPT_CALLBACK_WORD(0, "html", &html_file, "FILE",
				     "write the HTML report to FILE (default tdperf.html) instead of the text "
				     "report; with --format or -o, as well as it",
				     parse_html, html_file_word),
		TD_OPT_STRING(0, "plot", &plot, "DIR", "also write gnuplot charts into DIR"),
		TD_OPT_CHOICE(0, "plot-format", &plotfmt, "svg|png", "image format of the charts (default svg)"),
		TD_OPT_INT_RANGE('l', "level", &opts.max_level, 1, INT_MAX, "N", "show the tree down to level N"),
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
	if (sep && format && strcmp(format, "csv"))
		return td_usage_error(report_usage, "-x is the CSV separator: it goes with --format csv only");
	if (sep)
		format = "csv";
	format_given = format != NULL;
	if (!format)
		format = "text";
	topts.all_scopes = !strcmp(scopes, "all");
	if (no_demangle)
		hot_flags |= TD_HOT_NO_DEMANGLE;
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
		if (html_file || plot || hotspots || outpath || format_given)
			return td_usage_error(report_usage, "--live draws on the terminal: it takes no --format, "
					      "--html, --plot, --hotspots or -o");
		return report_live(input, &opts);
	}
	/* text, CSV and JSON alone print each scope once: build the long runs' scopes one
	 * at a time (a job's or a sweep's document is built whole) */
	opts.stream_scopes = !html_file && !plot &&
			     (!strcmp(format, "csv") || !strcmp(format, "text") || !strcmp(format, "json")) &&
			     !td_report_is_job(input) && !td_report_is_sweep(input);
	opts.streamed_nodes_only = !strcmp(format, "csv") ||
				   ((!strcmp(format, "text") || !strcmp(format, "json")) && !topts.all_scopes);
	opts.streamed_no_reasons = !strcmp(format, "text") && !topts.all_scopes;
	if (td_refuse_input_as_output(outpath, input) || td_refuse_input_as_output(html_file, input))
		return 2;
	if (is_sample_export(format))
		hotspots = 1;
	if (weight && strcmp(format, "folded"))
		return td_usage_error(report_usage, "--weight is an option of --format folded");
	if (hot_flags && !hotspots)
		return td_usage_error(report_usage, "--no-demangle is an option of --hotspots");
	if (!strcmp(format, "pprof") && !outpath && isatty(1))
		return td_usage_error(report_usage, "--format pprof is gzip'd binary: give -o FILE");
	if (!strcmp(format, "json") || html_file || is_sample_export(format))
		hot_flags |= TD_HOT_CALLPATHS;
	regions = !hotspots && td_regions_is_run(input);
	doc = hotspots ? td_hotspots_load(input, &opts, hot_flags, &err)
	      : regions ? td_regions_load(input, &opts, &err)
		       : td_report_open(input, &opts, &err);
	if (doc && !hotspots && !regions && !strcmp(format, "trace") &&
	    td_report_add_thread_spans(doc, input, &err) < 0) {
		json_decref(doc);
		doc = NULL;
	}
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
	else if (regions) /* a --regions run: analyze/regions.c, report/regions.c */
		kind = KIND_REGIONS;
	else if (json_is_array(json_object_get(doc, "ranks"))) /* a job directory: report/job*.c */
		kind = KIND_JOB;
	else
		kind = KIND_RUN;
	ctx.out = out;
	ctx.topts = &topts;
	ctx.top = top;
	ctx.html = html_file;
	ctx.plot = plot;
	ctx.plotfmt = plotfmt;
	ctx.weight = weight;
	/* with --html or --plot alone, the files are the output: no text as well */
	/* an export that cannot be made writes nothing (-o) and fails */
	if (!((html_file || plot) && !format_given && !outpath) &&
	    render_separated(kind, format, doc, &ctx, sep) < 0)
		ret = 2;
	if (out != stdout) {
		fclose(out);
		if (!ret && td_write_file_atomic(outpath, membuf, memlen) < 0) {
			error("%s: cannot write: %s", outpath, strerror(errno));
			ret = 2;
		}
		free(membuf);
	}
	if (html_file && render(kind, "html", doc, &ctx) < 0)
		ret = 2;
	else if (html_file)
		td_say_html_written(html_file, format_given || outpath);
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
