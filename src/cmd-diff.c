/*
 * tdperf diff: compare two runs, on the same CPU or across generations.
 */
#include "config.h"
#include "src/builtin.h"
#include "analyze/report.h"
#include "analyze/compare.h"
#include "analyze/gate.h"
#include "report/render.h"
#include "report/html.h"
#include "report/regions.h"
#include "analyze/regions.h"
#include "util/parse-options.h"
#include "util/util.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

static const char *const diff_usage[] = {
	"tdperf diff [options] A B",
	"tdperf diff --check [--fail-on RULES] [--junit FILE] A... [-- B...]",
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
	"",
	"Two runs recorded with --regions (or their saved JSON reports) are compared",
	"region by region, by name: calls, wall and CPU time, share, Level 1, B over A",
	"(text or JSON).",
	"",
	"--check is a regression gate for CI: A and B are runs recorded with -r N, or",
	"sets of runs (A1 A2 A3 -- B1 B2 B3).  Each metric (counts, IPC, wall time,",
	"Top-Down Levels 1-2, self shares of functions) is compared with Welch's",
	"t-test; exit 1 when a rule of --fail-on is broken with the confidence asked,",
	"else 0 (docs/ci.md).",
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
	opts.keep_runs = 1; /* each run of record -r is one measurement to the gate */
	doc = td_is_dir(path) ? td_report_open(path, &opts, err) : td_report_load_data(path, &data, &opts, err);
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

/*
 * A --regions side: a run recorded with --regions, or its saved 'report
 * --format json' document; NULL (err empty) when path is neither.
 */
static json_t *load_regions_side(const char *path, struct strbuf *err)
{
	struct td_report_opts opts = { 0 };
	struct stat st;
	json_t *doc;

	if (td_is_dir(path))
		return td_regions_is_run(path) ? td_regions_load(path, &opts, err) : NULL;
	/* a regular file only: a pipe is read once, by load_side */
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || !(doc = json_load_file(path, 0, NULL)))
		return NULL;
	if (td_json_str(doc, "format") && !strcmp(td_json_str(doc, "format"), "tdperf-regions-report"))
		return doc;
	json_decref(doc);
	return NULL;
}

/* Two --regions runs, region by region (analyze/regions-merge.c); the exit status. */
static int diff_regions(json_t *a, json_t *b, char **argv, const char *format, const char *output)
{
	char *name_a = side_name(argv[0]), *name_b = side_name(argv[1]), *text = NULL;
	json_t *diff = td_regions_diff(a, name_a, b, name_b);
	FILE *out = stdout;
	size_t len = 0;
	int ret = 0;

	if (output)
		out = open_memstream(&text, &len);
	if (!strcmp(format, "json")) {
		json_dumpf(diff, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
		fputc('\n', out);
	} else {
		td_regions_diff_text(diff, out);
	}
	if (output) {
		fclose(out);
		if (td_write_file_atomic(output, text, len) < 0) {
			error("%s: cannot write: %s", output, strerror(errno));
			ret = 2;
		}
		free(text);
	}
	json_decref(diff);
	free(name_a);
	free(name_b);
	return ret;
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

struct gate_opts {
	const char *rules, *junit, *format, *output, *confidence;
	const char *scope_a, *scope_b;
};

static void release_side(struct td_gate_side *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++) {
		json_decref(s->docs[i]);
		json_decref(s->hotspots[i]);
		json_decref(s->regions[i]);
	}
	free(s->docs);
	free(s->hotspots);
	free(s->regions);
}

/* A side's documents, and the hotspots of the run directories that recorded them. */
static int load_gate_side(struct td_gate_side *s, const char *label, char **paths, int nr,
			  struct strbuf *err)
{
	int i;

	s->label = label;
	s->paths = paths;
	s->nr = 0;
	s->docs = xcalloc(nr, sizeof(*s->docs));
	s->hotspots = xcalloc(nr, sizeof(*s->hotspots));
	s->regions = xcalloc(nr, sizeof(*s->regions));
	for (i = 0; i < nr; i++) {
		char *hot = td_is_dir(paths[i]) ? td_path_join(paths[i], "hotspots.data") : NULL;

		/* a --regions run (or its saved report) is measured by its regions */
		s->regions[i] = load_regions_side(paths[i], err);
		s->nr = i + 1;
		if (s->regions[i] || err->len) {
			free(hot);
			if (!s->regions[i])
				return -1;
			continue;
		}
		s->docs[i] = load_side(paths[i], NULL, err);
		if (s->docs[i] && hot && td_file_exists(hot))
			s->hotspots[i] = td_hotspots_load(paths[i], NULL, 0, err);
		free(hot);
		s->nr = i + 1;
		if (!s->docs[i] || (hot && !s->hotspots[i] && err->len))
			return -1;
	}
	return 0;
}

/* "0.95" or "95" (percent). */
static int parse_confidence(const char *text, double *out)
{
	char *end;
	double c = strtod(text, &end);

	if (end != text && !*end && c >= 1 && c < 100)
		c /= 100;
	if (end == text || *end || !(c >= 0.5 && c < 1))
		return -1;
	*out = c;
	return 0;
}

static int write_gate(json_t *gate, const struct gate_opts *o)
{
	FILE *out = stdout;
	char *text = NULL;
	size_t len = 0;

	if (o->junit) {
		FILE *j = open_memstream(&text, &len);

		td_gate_render_junit(gate, j);
		fclose(j);
		if (td_write_file_atomic(o->junit, text, len) < 0)
			return error("%s: cannot write: %s", o->junit, strerror(errno));
		free(text);
		text = NULL;
	}
	if (o->output)
		out = open_memstream(&text, &len);
	if (!strcmp(o->format, "json")) {
		json_dumpf(gate, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
		fputc('\n', out);
	} else {
		td_gate_render_text(gate, out);
	}
	if (o->output) {
		fclose(out);
		if (td_write_file_atomic(o->output, text, len) < 0) {
			free(text);
			return error("%s: cannot write: %s", o->output, strerror(errno));
		}
		free(text);
	}
	return 0;
}

/* diff --check: exit 0 (no rule broken), 1 (one is), 2 (usage or input). */
static int run_gate(char **a, int nr_a, char **b, int nr_b, const struct gate_opts *o)
{
	struct td_gate_side base = { 0 }, new_ = { 0 };
	struct strbuf err = STRBUF_INIT;
	double confidence = TD_GATE_DEFAULT_CONFIDENCE;
	json_t *gate = NULL;
	int ret = 2, i;

	if (o->confidence && parse_confidence(o->confidence, &confidence) < 0)
		return td_usage_error(diff_usage, "--confidence %s: a level of at least 0.5 and below 1 (0.95, or 95 in percent)",
				      o->confidence);
	if (o->rules && td_gate_check_rules(o->rules, &err) < 0) {
		error("%s", err.buf);
		strbuf_release(&err);
		return 2;
	}
	for (i = 0; i < nr_a + nr_b; i++)
		if (td_refuse_input_as_output(o->output, i < nr_a ? a[i] : b[i - nr_a]) ||
		    td_refuse_input_as_output(o->junit, i < nr_a ? a[i] : b[i - nr_a]))
			return 2;
	if (load_gate_side(&base, "base", a, nr_a, &err) < 0 ||
	    load_gate_side(&new_, "new", b, nr_b, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	base.scope = o->scope_a;
	new_.scope = o->scope_b;
	gate = td_gate_build(&base, &new_, o->rules, confidence, &err);
	if (!gate) {
		error("%s", err.buf);
		goto out;
	}
	if (write_gate(gate, o) < 0)
		goto out;
	ret = td_gate_failed(gate) ? 1 : 0;
out:
	json_decref(gate);
	release_side(&base);
	release_side(&new_);
	strbuf_release(&err);
	return ret;
}

/* The first "--" that has arguments on both sides splits two sets of runs. */
static int find_set_split(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--"))
			return i + 1 < argc ? i : 0;
	return 0;
}

int cmd_diff(int argc, char **argv)
{
	const char *format = NULL, *output = NULL, *html = NULL, *plot = NULL;
	int hotspots = 0;
	const char *scope_a = NULL, *scope_b = NULL, *cpu_a = NULL, *cpu_b = NULL;
	struct strbuf err = STRBUF_INIT;
	json_t *a = NULL, *b = NULL, *diff = NULL;
	char *name_a = NULL, *name_b = NULL;
	int c, ret = 2, jobs = 0, check = 0, split, nr_b = 0, with_text;
	char **set_b = NULL;
	struct gate_opts gate = { NULL, NULL, NULL, NULL, NULL, NULL, NULL };
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
		TD_OPT_GROUP("Regression gate (docs/ci.md)"),
		TD_OPT_BOOL(0, "check", &check,
			    "test each metric's change for significance (Welch's t-test) and exit 1 "
			    "when a --fail-on rule is broken; A and B: runs recorded with -r N, or "
			    "sets of runs A1 A2 ... -- B1 B2 ..."),
		TD_OPT_STRING(0, "fail-on", &gate.rules, "RULES",
			      "--check: METRIC:+N% or METRIC:-Npt, comma-separated: fail when the metric "
			      "rose (+) or fell (-) by more than N, its whole confidence interval beyond "
			      "(default " TD_GATE_DEFAULT_RULES "); region:NAME:METRIC for a region of "
			      "--regions runs"),
		TD_OPT_STRING(0, "junit", &gate.junit, "FILE", "--check: also write JUnit XML, one test case per rule"),
		TD_OPT_STRING(0, "confidence", &gate.confidence, "C",
			      "--check: the confidence level (default 0.95; 0.99 or 99 also work)"),
		TD_OPT_END(),
	};

	split = find_set_split(argc, argv);
	if (split) {
		set_b = argv + split + 1;
		nr_b = argc - split - 1;
		argc = split;
	}
	argc = td_parse_options(argc, argv, options, diff_usage, 0);
	if (split && argc == 0) {
		/* "tdperf diff [options] -- A B": the old meaning of "--" */
		argv = set_b;
		argc = nr_b;
		split = 0;
	}
	if ((gate.rules || gate.junit || gate.confidence) && !check)
		return td_usage_error(diff_usage, "--fail-on, --junit and --confidence go with --check");
	if (check) {
		if (hotspots || html || plot || cpu_a || cpu_b)
			return td_usage_error(diff_usage, "--check takes no --hotspots, --html, --plot or --cpu "
					      "(it compares self shares where the runs recorded hotspots)");
		gate.format = format ? format : "text";
		gate.output = output;
		gate.scope_a = scope_a;
		gate.scope_b = scope_b;
		if (split && (scope_a || scope_b))
			return td_usage_error(diff_usage, "--scope-a and --scope-b pick a session of one input a side, "
					      "not of sets of runs");
		if (split)
			return run_gate(argv, argc, set_b, nr_b, &gate);
		if (argc != 2)
			return td_usage_error(diff_usage, "--check takes two runs A B, or sets A1 A2 ... -- B1 B2 ...");
		return run_gate(argv, 1, argv + 1, 1, &gate);
	}
	if (split) {
		if (argc != 1 || nr_b != 1)
			return td_usage_error(diff_usage, "sets of runs (A1 A2 -- B1 B2) go with --check");
		argv[1] = set_b[0];
		argc = 2;
	}
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
	if (!hotspots) {
		json_t *ra = load_regions_side(argv[0], &err), *rb = err.len ? NULL : load_regions_side(argv[1], &err);

		if (err.len) {
			error("%s", err.buf);
			json_decref(ra);
			goto out;
		}
		if (ra || rb) {
			if (!ra || !rb)
				error("%s is a --regions run and %s is not: diff compares regions of two --regions runs",
				      ra ? argv[0] : argv[1], ra ? argv[1] : argv[0]);
			else if (html || plot || scope_a || scope_b || cpu_a || cpu_b)
				error("diff of two --regions runs: text or JSON, no --html, --plot, --scope or --cpu");
			else
				ret = diff_regions(ra, rb, argv, format, output);
			json_decref(ra);
			json_decref(rb);
			goto out;
		}
	}
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
