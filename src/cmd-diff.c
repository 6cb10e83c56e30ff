/*
 * tdperf diff: compare two runs, on the same CPU or across generations.
 */
#include "config.h"
#include "src/builtin.h"
#include "analyze/report.h"
#include "analyze/compare.h"
#include "report/render.h"
#include "report/html.h"
#include "util/parse-options.h"
#include "util/util.h"

#include <errno.h>
#include <string.h>

static const char *const diff_usage[] = {
	"tdperf diff [options] A B",
	"",
	"Compare two runs: run directories, perf stat output files (text, -x, --json),",
	"or report documents saved with 'tdperf report --format json'.  The runs may",
	"come from different CPUs: Level 1 and 2 of the Top-Down tree are the common",
	"schema, shown side by side with their deltas; the absolute CPI stack of each",
	"run (CPI x fraction) shows where the cycles per instruction changed, and the",
	"change in CPI and in cycles is attributed to components.  Nodes on one side",
	"only, changed approximations and multiplexing are listed.",
	"",
	"Two job directories (srun/mpirun ranks) are compared metric by metric across",
	"their ranks: mean, max and max over mean in each (text, JSON, --html).",
	NULL,
};

/* A hotspots side: a saved hotspots document, else a run or perf.data. */
static json_t *load_hotspots_side(const char *path, struct strbuf *err)
{
	json_t *doc = json_load_file(path, 0, NULL);

	if (doc && json_is_array(json_object_get(doc, "hotspots")))
		return doc;
	json_decref(doc);
	return td_hotspots_load(path, NULL, 0, err);
}

/*
 * A saved report document is used as is; anything else goes through
 * td_report_load (run directory or perf output, imported on the fly).
 */
static json_t *load_side(const char *path, const char *cpu, struct strbuf *err)
{
	struct td_report_opts opts = { 0 };
	struct strbuf data = STRBUF_INIT, why = STRBUF_INIT;
	json_t *doc = NULL;
	const char *schema;

	/* a file is read once (a FIFO or pipe has no second reading) */
	if (!td_is_dir(path)) {
		if (td_read_input(&data, path, err) < 0) {
			strbuf_release(&data);
			return NULL;
		}
		doc = json_loadb(data.buf, data.len, 0, NULL);
	}
	schema = doc ? td_json_str(doc, "schema") : NULL;

	if (schema && !strcmp(schema, "tdperf-report")) {
		double v = td_json_num(json_object_get(doc, "version"));

		if (!(v >= 1 && v <= TD_REPORT_SCHEMA_VERSION)) {
			strbuf_addf(err, "%s: report document version %g is not supported (this tdperf reads 1 to %d)",
				    path, v, TD_REPORT_SCHEMA_VERSION);
			json_decref(doc);
			strbuf_release(&data);
			return NULL;
		}
		strbuf_release(&data);
		if (td_report_unfold(doc, &why) < 0) {
			strbuf_addf(err, "%s: %s", path, why.buf);
			strbuf_release(&why);
			json_decref(doc);
			return NULL;
		}
		return doc;
	}
	json_decref(doc);
	opts.cpu = cpu;
	doc = td_is_dir(path) ? td_report_load(path, &opts, err) : td_report_load_data(path, &data, &opts, err);
	strbuf_release(&data);
	if (!doc && !strstr(err->buf, path)) {
		/* every message names the input it is about */
		struct strbuf msg = STRBUF_INIT;

		strbuf_addf(&msg, "%s: %s", path, err->len ? err->buf : "cannot load");
		strbuf_reset(err);
		strbuf_addstr(err, msg.buf);
		strbuf_release(&msg);
	}
	return doc;
}

/* A side's name: the path without directories or a trailing slash. */
static char *side_name(const char *path)
{
	char *copy = xstrdup(path), *slash;
	size_t len = strlen(copy);

	while (len > 1 && copy[len - 1] == '/')
		copy[--len] = '\0';
	slash = strrchr(copy, '/');
	if (slash && slash[1]) {
		char *name = xstrdup(slash + 1);

		free(copy);
		return name;
	}
	return copy;
}

static int write_plots(json_t *diff, const char *dir)
{
	struct td_chart_list charts = { 0 };
	struct strbuf err = STRBUF_INIT;
	int ret = 0, r;

	td_charts_for_diff(diff, &charts);
	r = td_charts_plot(&charts, dir, "svg", &err);
	if (r == 1)
		warning("%s: wrote chart data and gnuplot scripts only", err.buf);
	else if (r < 0)
		ret = error("%s", err.buf);
	else
		fprintf(stderr, "tdperf: wrote the charts into %s/\n", dir);
	td_chart_list_release(&charts);
	strbuf_release(&err);
	return ret;
}

int cmd_diff(int argc, char **argv)
{
	const char *format = NULL, *output = NULL, *html = NULL, *plot = NULL;
	int hotspots = 0;
	const char *scope_a = NULL, *scope_b = NULL, *cpu_a = NULL, *cpu_b = NULL;
	struct strbuf err = STRBUF_INIT;
	json_t *a = NULL, *b = NULL, *diff = NULL;
	char *name_a = NULL, *name_b = NULL;
	int c, ret = 2, jobs = 0, with_text;
	const struct td_option options[] = {
		TD_OPT_CHOICE(0, "format", &format, "text|json",
			      "output on stdout (default text; JSON: docs/diff-schema.md)"),
		TD_OPT_STRING('o', "output", &output, "FILE", "write that output to FILE instead"),
		TD_OPT_STRING(0, "html", &html, "FILE", "write a self-contained HTML comparison with charts instead of the text; with --format or -o, as well as it"),
		TD_OPT_STRING(0, "plot", &plot, "DIR",
			      "also write the comparison charts (gnuplot data + scripts, SVG)"),
		TD_OPT_STRING(0, "scope-a", &scope_a, "ID", "the scope of A to compare (default: the whole run)"),
		TD_OPT_STRING(0, "scope-b", &scope_b, "ID", "the scope of B to compare"),
		TD_OPT_STRING(0, "cpu-a", &cpu_a, "X", "the CPU of an imported perf stat file A, when not inferable"),
		TD_OPT_STRING(0, "cpu-b", &cpu_b, "X", "the same for B"),
		TD_OPT_BOOL(0, "hotspots", &hotspots,
			    "compare the functions of two hotspot recordings (run directories, perf.data "
			    "files or saved 'report --hotspots --format json' documents): which got "
			    "slower or faster"),
		TD_OPT_END(),
	};

	argc = td_parse_options(argc, argv, options, diff_usage, 0);
	with_text = format || output || !(html || plot);
	if (!format)
		format = "text";
	if (argc != 2)
		return td_usage_error(diff_usage, "takes two runs, A and B");

	if (hotspots && (html || plot || scope_a || scope_b))
		return td_usage_error(diff_usage, "--hotspots compares as text or JSON only");
	for (c = 0; c < 2; c++)
		if (td_refuse_input_as_output(output, argv[c]) ||
		    td_refuse_input_as_output(html, argv[c]))
			return 2;
	a = hotspots ? load_hotspots_side(argv[0], &err) : load_side(argv[0], cpu_a, &err);
	if (!a) {
		error("%s", err.buf);
		goto out;
	}
	b = hotspots ? load_hotspots_side(argv[1], &err) : load_side(argv[1], cpu_b, &err);
	if (!b) {
		error("%s", err.buf);
		goto out;
	}
	name_a = side_name(argv[0]);
	name_b = side_name(argv[1]);
	jobs = json_is_array(json_object_get(a, "ranks")) + json_is_array(json_object_get(b, "ranks"));
	if (jobs == 1) {
		error("%s is a job directory and %s is not: diff compares two jobs or two runs",
		      json_is_array(json_object_get(a, "ranks")) ? argv[0] : argv[1],
		      json_is_array(json_object_get(a, "ranks")) ? argv[1] : argv[0]);
		goto out;
	}
	if (jobs == 2 && plot) {
		error("diff of two jobs: no --plot (text, JSON and --html)");
		goto out;
	}
	if (hotspots)
		diff = td_hotspots_diff(a, name_a, b, name_b, &err);
	else if (jobs == 2)
		diff = td_report_job_diff(a, name_a, b, name_b); /* analyze/job-diff.c */
	else
		diff = td_diff_build(a, name_a, scope_a, b, name_b, scope_b, &err);
	if (!diff) {
		error("%s", err.buf);
		goto out;
	}
	if (html && (jobs == 2 ? td_report_job_diff_html(diff, html, &err)
			       : td_diff_render_html(diff, html, &err)) < 0) {
		error("%s", err.buf);
		goto out;
	}
	if (plot && write_plots(diff, plot) < 0)
		goto out;
	if (html)
		td_say_html_written(html, with_text);
	/* with --html or --plot alone, the files are the output, as for report */
	if (with_text) {
		FILE *out = stdout;
		char *text = NULL;
		size_t len = 0;

		if (output)
			out = open_memstream(&text, &len);
		if (!strcmp(format, "json"))
			json_dumpf(diff, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
		else if (jobs == 2)
			td_report_job_diff_text(diff, out);
		else if (hotspots)
			td_hotspots_diff_render_text(diff, 30, out);
		else
			td_diff_render_text(diff, out);
		if (!strcmp(format, "json"))
			fputc('\n', out);
		if (output) {
			fclose(out);
			if (td_write_file_atomic(output, text, len) < 0) {
				error("%s: cannot write: %s", output, strerror(errno));
				free(text);
				goto out;
			}
			free(text);
		}
	}
	ret = 0;
out:
	json_decref(a);
	json_decref(b);
	json_decref(diff);
	free(name_a);
	free(name_b);
	strbuf_release(&err);
	return ret;
}
