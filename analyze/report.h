/*
 * analyze/: builds the report document from what parse/ read and the
 * formula tables of metrics/: every scope evaluated (tree, bottleneck
 * path, error bars, sanity, stacks), the thread analysis and sweeps, the
 * roofline.  The document (docs/report-schema.md, analyze/doc.h) is what
 * report/ draws, so every format carries the same numbers and marks.
 *
 * Name prefix: td_report_.
 */
#ifndef TD_ANALYZE_REPORT_H
#define TD_ANALYZE_REPORT_H

#include <stdio.h>
#include <jansson.h>

#include "util/util.h"

#include "analyze/doc.h"

/* ---- building the document (analyze/build.c and friends) ---- */

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
	int streamed_nodes_only; /* with stream_scopes: the streamed scopes carry what
	                         text's folded lines and CSV show (nodes, bottleneck,
	                         events where there are no nodes), not the stacks,
	                         info metrics, perf's metrics or software figures */
	int streamed_no_reasons; /* ... and no reasons either (text's folded lines) */
	int keep_runs;        /* the runs of record -r N stay N sessions (diff and its
	                         gate take each run as one measurement), not combined
	                         into one (analyze/repeat.c) */
};

/*
 * What a command was given, whatever it is: a job directory (one run per
 * rank, analyze/job.c), a sweep (analyze/threads-json.c), or one run or
 * file (td_report_load).  Jobs are made of runs, so their loading sits
 * above a run's (analyze/open.c), not inside it.
 */
json_t *td_report_open(const char *path, const struct td_report_opts *opts, struct strbuf *err);
/*
 * Load one run directory, or import a perf stat output / perf.data file on
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
 * tdperf import: read a perf stat output or perf.data file and write it
 * as the run directory 'dir' (docs/run-format.md), atomically.  summary
 * gets one line on what was imported.  -1 with err set on failure.
 */
int td_report_import_run(const char *path, const char *dir, const struct td_report_opts *opts,
			 int argc, char **argv, struct strbuf *summary, struct strbuf *err);

/*
 * The value of 'event' in the first scope of the perf stat output 'path'
 * (any format perf writes), NAN when the file cannot be read or the
 * event was not counted.
 */
double td_report_file_count(const char *path, const char *event);

/*
 * Call fn on each scope of session 'session' (1-based), in the document's
 * order.  When the document was loaded with stream_scopes, its
 * per-interval/CPU/thread scopes are built one at a time, passed to fn and
 * freed, so memory stays flat in the number of intervals (analyze/stream.c).
 * td_report_streamed_scopes says how many such scopes a session has
 * outside the document; td_report_stream_release frees what the document
 * kept for them.
 */
void td_report_each_scope(json_t *doc, json_int_t session, void (*fn)(json_t *scope, void *ctx),
			  void *ctx);
/*
 * The same as typed rows (analyze/doc.h): the streamed scopes of a
 * document loaded with streamed_nodes_only are evaluated straight into
 * rows, the others read from the document.
 */
void td_report_each_scope_rows(json_t *doc, json_int_t session,
			       void (*fn)(const struct td_scope_rows *rows, void *ctx), void *ctx);
size_t td_report_streamed_scopes(json_t *doc, json_int_t session);
void td_report_stream_release(json_t *doc);

/*
 * Every scope of the document in its order, sessions one after the other,
 * the streamed ones built one at a time (the JSON renderer writes them so).
 */
void td_report_each_scope_in_order(json_t *doc, void (*fn)(json_t *scope, void *ctx), void *ctx);
/*
 * The same, but the streamed scopes of a document loaded with
 * streamed_nodes_only go to rows_fn as typed rows (the JSON renderer's
 * folded scopes); the document's own scopes, and every scope of a
 * document kept whole, go to json_fn.
 */
void td_report_each_scope_in_order_rows(json_t *doc, void (*json_fn)(json_t *scope, void *ctx),
					void (*rows_fn)(const struct td_scope_rows *rows, void *ctx), void *ctx);
/* Was doc loaded with stream_scopes (some of its scopes live outside it)? */
int td_report_is_streamed(json_t *doc);

/*
 * Give each flagged node of the document's total scopes its "guidance"
 * (docs/report-schema.md; text from metrics/guidance.h, with the causes
 * its siblings below their thresholds rule out), null on the others.
 * -1 with err set when a guidance file cannot be read (analyze/guidance.c).
 */
int td_report_add_guidance(json_t *doc, struct strbuf *err);

/* ---- the thread analysis: per-thread stacks and sweeps (Heirman et al. 2011) ---- */
struct td_threads_result;
/*
 * Read the sched events of a perf.data file into the thread analysis
 * (analyze/threads-load.c).  Returns 1 with *out filled, 0 when the file
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
/*
 * Add each thread's state timeline to doc's "threads" (threads[].spans:
 * [start, end, component] in the document's seconds), for the trace
 * export; the analysis is replayed from the same perf.data.  0 (also
 * when doc has no threads), or -1 with err set.
 */
int td_report_add_thread_spans(json_t *doc, const char *run_or_file, struct strbuf *err);

/* ---- record --drilldown (analyze/drilldown.c) ---- */
/* The deepest flagged node of the main scope's bottleneck path (an id
 * the document owns), or NULL when nothing on it is flagged. */
const char *td_report_drilldown_node(json_t *doc);
/* The flagged child of 'parent' with the largest value, or NULL. */
const char *td_report_drilldown_child(json_t *doc, const char *parent);
/* The "drilldown" object of a run directory whose meta.json has steps:
 * each step's samples per function; nothing for other inputs.  A step
 * whose samples cannot be read carries its "error".  0 always. */
int td_report_add_drilldown(json_t *doc, const char *rundir, struct strbuf *err);
/*
 * record -e: give each scope of doc "extra_events", the counts of the
 * events its run's meta.json "extra_events" names (analyze/extra-events.c).
 */
void td_report_add_extra_events(json_t *doc);
/* True for a 'tdperf record --sweep' directory (it holds sweep.json). */
int td_report_is_sweep(const char *path);
/*
 * The report document of a sweep directory: no counts of its own, its
 * "sweep" and "threads" objects (the per-value runs are reported one by
 * one with 'tdperf report DIR/PARAM-V').  NULL with err set on failure.
 */
json_t *td_report_sweep_doc(const char *dir, struct strbuf *err);

/* ---- the roofline (analyze/roofline.c; docs/roofline.md) ---- */
/*
 * Fill doc's "roofline" object (docs/report-schema.md) from its scopes'
 * counts and the calibration of the run's CPU (or $TDPERF_CALIBRATION;
 * entry for $TDPERF_ROOFLINE_THREADS threads, default 1).  The report
 * builder calls it once after building the document.  Returns 0, or -1
 * with err set when the built-in formulas cannot be read.
 */
int td_report_add_roofline(json_t *doc, struct strbuf *err);

/*
 * ---- phases (analyze/phases.c) ----
 * Sets "phases" on each whole-run total scope of an interval session
 * whose Level-1 bottleneck changes over time (the rule is in phases.c and
 * docs/report-schema.md).  Leaves the other scopes alone.
 */
void td_report_add_phases(json_t *doc);

/* ---- stacks (analyze/stacks.c) ---- */

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
 * A node of t by our id or by perf's name for it ("tma_ms_uops",
 * "retiring_microcode"), or NULL (analyze/perf-names.c).
 */
struct td_metric;
struct td_table;
const struct td_metric *td_table_find_perf_metric(const struct td_table *t, const char *name);

#endif /* TD_ANALYZE_REPORT_H */
