/*
 * report/: renders analyses.  A report is first built as one JSON document
 * (schema in docs/report-schema.md); every output format (text tree, JSON,
 * CSV, gnuplot charts, HTML, diff) renders from that document, so all
 * formats always carry the same numbers and the same approximation marks.
 *
 * Name prefix: td_report_.
 */
#ifndef TD_REPORT_H
#define TD_REPORT_H

#include <stdio.h>
#include <jansson.h>

#include "util/util.h"

/* ---- building the document (report/build.c and friends) ---- */

struct td_report_opts {
	const char *cpu;      /* --cpu override, or NULL */
	const char *smt;      /* --smt on|off override, or NULL */
	const char *table;    /* --table FILE override, or NULL */
	int max_level;        /* --level N, 0 = all */
	int argc;             /* the command line, as typed, for the run's */
	char **argv;          /* "command line" of an input imported on the fly */
	char **clusters;      /* big.LITTLE Arm: "PMU=TABLE" per cluster counted, the
	                         detected CPU's (cpu, above) first, NULL-terminated;
	                         or NULL (tdperf record --live gives them) */
	int stream_scopes;    /* leave per-interval/CPU/thread scopes out of the
	                         document: td_report_each_scope builds them one at
	                         a time (text, CSV and JSON of long runs) */
};

/*
 * Load a run directory, or import a perf stat output / perf.data file on
 * the fly, evaluate everything that applies, and return the report
 * document.  NULL with a one-line message in err on failure.
 */
json_t *td_report_load(const char *run_or_file, const struct td_report_opts *opts,
		       struct strbuf *err);
/* The same for a file whose bytes were read already (taken from 'data'). */
json_t *td_report_load_data(const char *file, struct strbuf *data, const struct td_report_opts *opts,
			    struct strbuf *err);
/*
 * Read an input file or stream ("-": stdin) once: binary data is refused at
 * its first NUL byte, text beyond 1 GiB; perf.data is read whole.  -1 with a
 * one-line message in err.
 */
int td_read_input(struct strbuf *sb, const char *path, struct strbuf *err);

/*
 * Call fn on each scope of session 'session' (1-based), in the document's
 * order.  When the document was loaded with stream_scopes, its
 * per-interval/CPU/thread scopes are built one at a time, passed to fn and
 * freed, so memory stays flat in the number of intervals (report/stream.c).
 * td_report_streamed_scopes says how many such scopes a session has
 * outside the document; td_report_stream_release frees what the document
 * kept for them.
 */
void td_report_each_scope(json_t *doc, json_int_t session, void (*fn)(json_t *scope, void *ctx),
			  void *ctx);
size_t td_report_streamed_scopes(json_t *doc, json_int_t session);
void td_report_stream_release(json_t *doc);

/* Version of the document's schema (docs/report-schema.md). */
#define TD_REPORT_SCHEMA_VERSION 1

/* ---- renderers: each takes the document and writes one format ---- */

/* Options of the text renderer (report/text.c). */
struct td_text_opts {
	int verbose;          /* -v: show nodes below threshold and NAN nodes */
	int max_level;        /* --level N, 0 = all */
	int color;            /* 1: ANSI colours */
	int width;            /* bar width in characters (0: default 30) */
	int all_scopes;       /* --scopes all: every interval/CPU/thread section */
	int events;           /* --events: list the raw counts too */
};
/* Render the document as the indented text tree. */
void td_report_render_text(json_t *doc, const struct td_text_opts *o, FILE *out);
/* One row per scope and node (report/csv.c). */
void td_report_render_csv(json_t *doc, FILE *out);
/* The document itself, indented. */
void td_report_render_json(json_t *doc, FILE *out);

/*
 * The live view of perf stat's interval output (report/live.c): feed the
 * bytes as they arrive; each completed interval is reported on its own
 * and drawn on 'out', as a redrawn frame with sparklines when tty is set,
 * else as one line per interval.  Memory stays constant however long the
 * stream.  feed and finish return -1 with err set when the input is not
 * perf stat output or its first interval cannot be reported.
 */
struct td_live;
struct td_live *td_live_new(const struct td_report_opts *opts, FILE *out, int tty);
int td_live_feed(struct td_live *lv, const char *data, size_t len, struct strbuf *err);
int td_live_finish(struct td_live *lv, struct strbuf *err);
size_t td_live_frames(const struct td_live *lv);
void td_live_free(struct td_live *lv);

/* Render the HTML report to 'path' atomically (report/html.c). */
int td_report_render_html(json_t *doc, const char *path, struct strbuf *err);
/*
 * Write gnuplot data + scripts for every chart that applies into 'dir',
 * and run gnuplot to 'format' ("svg" or "png") when it is installed
 * (report/plot.c).  Returns 0, or -1 with err set.  When gnuplot is
 * missing, writes the scripts, warns once and returns 0.
 */
int td_report_plot(json_t *doc, const char *dir, const char *format, struct strbuf *err);

/* ---- charts, HTML report and diff (report/plot*.c, html*.c, diff*.c) ---- */

/*
 * Top-Down components as every chart draws them: a fixed bottom-to-top order
 * (Retiring, Bad Speculation, Frontend Bound, Backend Bound, SMT contention,
 * anything else) and a fixed colour per component, Level-2 nodes in shades of
 * their Level-1 parent's colour (report/plot-palette.c).
 */
enum td_family {
	TD_FAMILY_RETIRING, TD_FAMILY_BAD_SPEC, TD_FAMILY_FRONTEND,
	TD_FAMILY_BACKEND, TD_FAMILY_SMT, TD_FAMILY_OTHER
};
/* The family of a node id ("tma_" prefix and case ignored); parent_id may be NULL. */
enum td_family td_component_family(const char *id, const char *parent_id);
/* "#rrggbb" for a node: its family, its level and its rank among its siblings. */
const char *td_component_colour(const char *id, const char *parent_id, int level, int rank);

/* One chart, independent of gnuplot (report/plot-data.c builds them). */
enum td_chart_kind {
	TD_CHART_STACKED,   /* one stacked bar per row */
	TD_CHART_AREA,      /* stacked areas over rows[].x (interval timeline) */
	TD_CHART_SIGNED,    /* one bar per row, rows coloured, may be negative */
	TD_CHART_LINE       /* one line per series over rows[].x (speedup curve) */
};
struct td_chart_series {
	char *id, *name;
	const char *colour;
	int dashed;         /* TD_CHART_LINE: a reference line (ideal scaling) */
};
struct td_chart_row {
	char *label;
	double x;           /* time in seconds (TD_CHART_AREA) */
	double *values;     /* one per series, NAN where not computable */
	const char *colour; /* TD_CHART_SIGNED: the bar's colour */
};
struct td_chart {
	char *stem;         /* file name stem, e.g. "topdown-l1" */
	char *title, *ylabel, *xlabel;
	enum td_chart_kind kind;
	double ymin, ymax;  /* NAN = let gnuplot choose */
	struct td_chart_series *series;
	size_t nseries, series_alloc;
	struct td_chart_row *rows;
	size_t nrows, rows_alloc;
	struct strbuf notes; /* one line per approximation or missing value */
};
struct td_chart_list {
	struct td_chart **items;
	size_t nr, alloc;
};
struct td_chart *td_chart_new(const char *stem, const char *title, enum td_chart_kind kind);
void td_chart_add_series(struct td_chart *c, const char *id, const char *name, const char *colour);
/* Add a row; its values start as NAN. Returns the row. */
struct td_chart_row *td_chart_add_row(struct td_chart *c, const char *label);
void td_chart_free(struct td_chart *c);
void td_chart_list_add(struct td_chart_list *list, struct td_chart *c);
void td_chart_list_release(struct td_chart_list *list);
/*
 * Every chart the report document supports: Top-Down Level 1 and Level 2
 * bars (one bar per non-interval scope), the CPI stack, and one timeline per
 * group of interval scopes.
 */
void td_charts_for_report(json_t *doc, struct td_chart_list *out);
/*
 * Level-'level' stacked bars, one per non-interval scope of the JSON array
 * 'scopes' that has that level; NULL when none has.  A component missing on
 * one side is NAN there (with a note), never zero.
 */
struct td_chart *td_chart_topdown(json_t *scopes, int level, const char *stem, const char *title);
/* The same for any stack of nodes, values multiplied by 'scale', no y range. */
struct td_chart *td_chart_stack(json_t *scopes, int level, const char *stem, const char *title, double scale);
/* CPI stack bars (td_report_cpi_stack) of each scope whose CPI is known. */
struct td_chart *td_chart_cpi(json_t *scopes, int level, const char *stem, const char *title);
/* "cpu_core CPU3", "app-1234", or the scope id. */
void td_scope_label(struct strbuf *sb, json_t *scope);
int td_scope_is_interval(json_t *scope);

/*
 * The CPI stack of one scope: CPI x each Level-'level' fraction, taken from
 * the scope's stacks.cpi when the stack analyses filled it, else computed
 * from the Top-Down nodes and the CPI info metric (or cycles/instructions).
 * Returns a JSON object {"cpi", "cycles", "instructions", "source",
 * "approximate", "components": [{"id","name","parent","value"}...]} or, when
 * CPI is unknown, {"cpi": null, "reason": "..."}.  Caller decrefs.
 */
json_t *td_report_cpi_stack(json_t *scope, int level);
/*
 * The scope the summary and diff talk about: of the sessions' (first)
 * "total" scopes the one with the most computable Top-Down nodes, the
 * earliest on a tie; else the first non-interval scope, else the first.
 */
json_t *td_report_main_scope(json_t *doc);
/* How many of a scope's Top-Down nodes have a value. */
int td_scope_computable_nodes(json_t *scope);
/* Number in a JSON value, NAN for null/absent/not a number. */
double td_json_num(json_t *v);
const char *td_json_str(json_t *obj, const char *key);
const char *td_json_str_or(json_t *obj, const char *key, const char *fallback);
/* An integer field (a level), 'fallback' when absent, not a number or absurd. */
int td_json_int(json_t *v, int fallback);

/* Width in pixels the chart is drawn at (bars get wider with more rows). */
int td_chart_width(const struct td_chart *c);
/* Write chart data (STEM.dat) and gnuplot script (STEM.gp) into dir. */
int td_chart_write(const struct td_chart *c, const char *dir, const char *format, struct strbuf *err);
/*
 * After a failed chart run, remove what it wrote so nothing is left cut:
 * the directory when the run created it, else each chart's files.
 */
void td_charts_remove(const struct td_chart_list *charts, const char *dir, int created);
/*
 * Run gnuplot on each chart's script in dir (fork/exec, no shell).  Returns
 * 0; 1 when gnuplot is not installed (err says so); -1 on failure.
 */
int td_charts_render(const struct td_chart_list *charts, const char *dir, const char *format,
		     struct strbuf *err);
/* Rewrite a gnuplot SVG for inlining in HTML: no XML prolog, ids prefixed. */
void td_svg_inline(struct strbuf *out, const char *svg, const char *id_prefix);

/*
 * Reasons (report/reason.c).  A reason is the evaluator's "; "-separated
 * list of items, mostly "EVENT not measured".  td_reason_short writes it
 * with at most 'max' event names ("A, B, C and 9 more not measured") and
 * at most 'max' other items; td_reason_missing_count counts the distinct
 * unmeasured events; td_reason_missing_list writes them all, comma-separated.
 */
void td_reason_short(struct strbuf *sb, const char *reason, size_t max);
size_t td_reason_missing_count(const char *reason);
void td_reason_missing_list(struct strbuf *sb, const char *reason);

/* ---- HTML pieces shared by the report and the diff (report/html-parts.c) ---- */
void td_html_pct(struct strbuf *sb, double frac);   /* "41.1%" or "n/a" */
void td_html_num(struct strbuf *sb, double v);      /* "1,234,567", "2.77" or "n/a" */
void td_html_short(struct strbuf *sb, double v);    /* "30.9 G" for big counts */
/* A reason, escaped, with at most three event names; all of them in its title. */
void td_html_reason(struct strbuf *sb, const char *reason);
/* CSS stacked bar of one chart row; scale: value -> % of the bar width. */
void td_html_stackbar(struct strbuf *sb, const struct td_chart *c, size_t row, double scale,
		      const char *cls);
void td_html_legend(struct strbuf *sb, const struct td_chart *c, long row);
void td_html_warnings(struct strbuf *sb, json_t *list);
/* Charts rendered by gnuplot to SVG in a scratch directory, kept inline. */
struct td_html_charts {
	struct td_chart_list list;
	char **svg;           /* inline SVG per chart, NULL where none */
	struct strbuf status; /* why there are no charts, when there are none */
};
void td_html_charts_render(struct td_html_charts *hc);
/* Append chart 'stem' as a <figure> with its notes; returns 0 when it has no SVG. */
int td_html_figure(struct strbuf *sb, const struct td_html_charts *hc, const char *stem);
void td_html_charts_release(struct td_html_charts *hc);
/* report/html-stacks.c: multi-stage, IPC/FLOPS and frontend tables of a scope, with their figures. */
void td_html_stacks(struct strbuf *sb, json_t *stacks, const struct td_html_charts *hc);
/* report/html-threads.c: the thread analysis and sweep (charts, tables) and the roofline. */
void td_html_threads(struct strbuf *sb, json_t *doc, const struct td_html_charts *hc);
void td_html_roofline(struct strbuf *sb, json_t *doc);
/* report/html-tree.c: the collapsible tree, raw events, scope and interval tables. */
void td_html_tree(struct strbuf *sb, json_t *scope);
void td_html_events(struct strbuf *sb, json_t *scope);
void td_html_scope_table(struct strbuf *sb, json_t *doc, struct td_chart *l1);
void td_html_interval_table(struct strbuf *sb, json_t *doc);

/* ---- HTML templates (report/html-template.c, scheme in docs/html-templates.md) ---- */
struct td_template;
/* A template set with the "generator" slot filled ("tdperf VERSION"). */
struct td_template *td_template_new(void);
/* Set a slot to an HTML fragment (inserted verbatim) or to text (escaped). */
void td_template_set_html(struct td_template *t, const char *slot, const char *html);
void td_template_set_text(struct td_template *t, const char *slot, const char *text);
/* Expand templates/NAME into out. Returns 0, or -1 with err naming file and line. */
int td_template_expand(struct td_template *t, const char *name, struct strbuf *out, struct strbuf *err);
/* Expand templates/NAME into the file path, written whole or not at all.
 * Returns 0, or -1 with err set. */
int td_template_write(struct td_template *t, const char *name, const char *path, struct strbuf *err);
void td_template_free(struct td_template *t);

/* ---- tdperf diff (report/diff*.c, JSON documented in docs/diff-schema.md) ---- */
/*
 * Compare two report documents: the common Level-1/2 schema side by side,
 * the absolute CPI stacks and the attribution of the CPI and cycle
 * differences to components, one-sided nodes, approximation and
 * multiplexing changes.  scope_a/scope_b pick scopes by id (NULL = main).
 * Returns the diff document, or NULL with err set.
 */
json_t *td_diff_build(json_t *a, const char *label_a, const char *scope_a,
		      json_t *b, const char *label_b, const char *scope_b, struct strbuf *err);
void td_diff_render_text(json_t *diff, FILE *out);
int td_diff_render_html(json_t *diff, const char *path, struct strbuf *err);
/* The comparison charts of a diff document (report/diff-charts.c). */
void td_charts_for_diff(json_t *diff, struct td_chart_list *out);
/* The CPI stack entry of the deepest level both sides have, or NULL. */
json_t *td_diff_deepest_cpi(json_t *diff);

/*
 * Charts of the thread analysis (report/plot-threads.c): per-thread stacked
 * bars ("threads", or "thread-groups" when there are many threads) and,
 * for a sweep, the 100 % stacked bars per value ("sweep-stacks"), the
 * summed thread time normalized to the baseline ("sweep-time") and the
 * speedup curve against ideal scaling ("sweep-speedup").
 */
void td_charts_threads(json_t *doc, struct td_chart_list *out);
/* "#rrggbb" of a thread-stack component id (running, runnable, sync, ...). */
const char *td_thread_colour(const char *id);

/* ---- the thread analysis: per-thread stacks and sweeps (Heirman et al. 2011) ---- */
struct td_threads_result;
/*
 * Read the sched events of a perf.data file into the thread analysis
 * (report/threads-load.c).  Returns 1 with *out filled, 0 when the file
 * holds no sched:sched_switch events (nothing to analyse), -1 with err set
 * when the file cannot be read.
 */
int td_threads_load(const char *perf_data, struct td_threads_result *out, struct strbuf *err);
/*
 * The document's "threads" object for one result (docs/report-schema.md).
 * 'oncpu_reason' says why on-CPU time is not split into Top-Down components.
 */
json_t *td_threads_json(const struct td_threads_result *r, const char *oncpu_reason);
/*
 * Fill doc's "threads" (and "sweep") members from a run directory (its
 * perf.data with sched events; sweep.json of 'tdperf record --sweep') or
 * from a perf.data file given directly.  Leaves them null when nothing
 * applies.  Returns 0, or -1 with err set on unreadable input.
 */
int td_report_add_threads(json_t *doc, const char *run_or_file, struct strbuf *err);
/*
 * td_report_add_threads() for td_report_load: an unreadable perf.data does
 * not lose the rest of the report; it becomes a warning in doc.
 */
void td_report_threads_or_warn(json_t *doc, const char *run_or_file);
/* True for a 'tdperf record --sweep' directory (it holds sweep.json). */
int td_report_is_sweep(const char *path);
/*
 * The report document of a sweep directory: no counts of its own, its
 * "sweep" and "threads" objects (the per-value runs are reported one by
 * one with 'tdperf report DIR/PARAM-V').  NULL with err set on failure.
 */
json_t *td_report_sweep_doc(const char *dir, struct strbuf *err);
/* Text rendering of doc's "threads" and "sweep" (report/text-threads.c). */
void td_report_text_threads(json_t *doc, struct strbuf *out);
/* The same, written to a stream (for the text renderer). */
void td_report_text_threads_file(json_t *doc, FILE *f);

/* ---- the roofline (report/roofline.c, report/plot-roofline.c; docs/roofline.md) ---- */
/*
 * Fill doc's "roofline" object (docs/report-schema.md) from its scopes'
 * counts and the calibration of the run's CPU (or $TDPERF_CALIBRATION;
 * entry for $TDPERF_ROOFLINE_THREADS threads, default 1).  The report
 * builder calls it once after building the document.  Returns 0, or -1
 * with err set when the built-in formulas cannot be read.
 */
int td_report_add_roofline(json_t *doc, struct strbuf *err);
/*
 * The gnuplot script of the roofline chart (fmt = "svg" or "png" writes
 * roofline.svg/.png in the current directory) into gp; the run's
 * approximation notes into notes (may be NULL), one per line.  -1 when
 * doc has no calibrated roofs to draw.
 */
int td_roofline_script(json_t *doc, struct strbuf *gp, struct strbuf *notes);
/*
 * Write DIR/roofline.gp and run gnuplot on it (DIR/roofline.svg or .png).
 * 0 done; 1 nothing drawn (no roofs, or gnuplot missing: err says which);
 * -1 on failure with err set.
 */
int td_report_plot_roofline(json_t *doc, const char *dir, const char *format, struct strbuf *err);

/* ---- stacks (report/stacks.c, report/text-stacks.c) ---- */

struct td_table;
struct td_env;
struct td_tree_result;
struct td_stacks;

/*
 * Compute the cycle stacks of one scope (metrics/stacks.c) and set the
 * scope's "stacks" object (schema in docs/report-schema.md).  'tree' is
 * the scope's evaluated tree, or NULL to evaluate it.  Returns 0, or -1
 * when the tree cannot be evaluated (the scope is left unchanged).
 */
int td_report_fill_stacks(json_t *scope, const struct td_table *t, const struct td_env *env,
			  const struct td_tree_result *tree);
/* The "stacks" object for already computed stacks (new reference). */
json_t *td_report_stacks_json(const struct td_stacks *s);
/*
 * Append the text rendering of a scope's "stacks" object to sb; the CPI
 * stack's Level-2 rows only when verbose (as the tree hides them).
 */
void td_report_text_stacks(struct strbuf *sb, json_t *stacks, int verbose);
/*
 * Has a multi-stage "stages[]" entry a computed component besides base and
 * the residual "other"?  Every renderer shows a stage only then.
 */
int td_stack_stage_computed(json_t *stage);
/*
 * Charts of the main scope's stacks (report/plot-stacks.c): the multi-stage
 * CPI stacks side by side ("multistage-stack") and the IPC and FLOPS stacks
 * side by side as shares of their peaks ("ipc-flops-stack").
 */
struct td_chart_list;
void td_charts_stacks(json_t *doc, struct td_chart_list *out);

/*
 * A node of t by our id or by perf's name for it ("tma_ms_uops",
 * "retiring_microcode"), or NULL (report/perf-names.c).
 */
struct td_metric;
struct td_table;
const struct td_metric *td_table_find_perf_metric(const struct td_table *t, const char *name);

/* ---- jobs: one run directory per rank of srun/mpirun (report/job*.c) ---- */

/* Is 'path' a job directory (meta.json of format "tdperf-job")? */
int td_report_is_job(const char *path);
/*
 * The merged report of a job directory: the document with "job",
 * "ranks", "nodes" and "imbalance" (docs/report-schema.md).  NULL with
 * err set when no rank can be read.
 */
json_t *td_report_job_doc(const char *dir, const struct td_report_opts *opts, struct strbuf *err);
/*
 * Write RANKDIR/summary.json: what the merge needs of one rank, taken
 * from its report document (report/job-rank.c).  0, or -1 with err set.
 */
int td_report_rank_summary_write(const char *rankdir, const struct td_report_opts *opts,
				 struct strbuf *err);
/* Render a job document (report/job-text.c, job-csv.c, job-html.c). */
void td_report_job_text(json_t *doc, FILE *out);
void td_report_job_csv(json_t *doc, FILE *out);
int td_report_job_html(json_t *doc, const char *path, struct strbuf *err);
/* tdperf diff of two job documents, and its text (report/job-diff.c). */
json_t *td_report_job_diff(json_t *a, const char *name_a, json_t *b, const char *name_b);
void td_report_job_diff_text(json_t *diff, FILE *out);
/* Its self-contained page (report/job-diff-html.c, templates/job-diff.html). */
int td_report_job_diff_html(json_t *diff, const char *path, struct strbuf *err);
/* ---- hotspots: samples per function (report/hotspots-*.c) ---- */
/* The "hotspots" document of a run's perf.data or of a perf.data file;
 * NULL with a one-line message in err.  TD_HOT_CALLPATHS: with the
 * call-path tree (profile.frames, profile.callpaths; JSON and HTML). */
#define TD_HOT_CALLPATHS 1
#define TD_HOT_NO_FILES 2       /* resolve no symbols (fuzzing) */
#define TD_HOT_NO_DEMANGLE 4    /* C++ names left mangled (perf's --no-demangle) */
json_t *td_hotspots_load(const char *run_or_file, const struct td_report_opts *opts,
			 unsigned flags, struct strbuf *err);
/* The same from an open perf.data (path names it in messages). */
struct td_pd;
json_t *td_hotspots_load_pd(struct td_pd *pd, const char *path, const struct td_report_opts *opts,
			    unsigned flags, struct strbuf *err);
/* The top functions (top <= 0: all) and DSOs as text; all functions as CSV. */
void td_hotspots_render_text(json_t *doc, int top, FILE *out);
void td_hotspots_render_csv(json_t *doc, FILE *out);
/* Two hotspot documents compared per function (report/hotspots-diff.c). */
json_t *td_hotspots_diff(json_t *a, const char *name_a, json_t *b, const char *name_b, struct strbuf *err);
void td_hotspots_diff_render_text(json_t *diff, int top, FILE *out);
/* The self-contained flame-graph page (report/hotspots-html.c). */
int td_hotspots_render_html(json_t *doc, const char *path, struct strbuf *err);
/* DIR/hotspots.{dat,gp} (and the image when gnuplot is installed): the top functions. */
int td_hotspots_plot(json_t *doc, const char *dir, const char *format, int top, struct strbuf *err);

#endif /* TD_REPORT_H */
