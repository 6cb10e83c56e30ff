/*
 * report/: draws report documents (analyze/report.h) in each format: the
 * text tree, CSV, JSON, gnuplot charts, HTML, the live view, and the
 * text and pages of diffs, jobs and hotspots.  Renderers read the
 * document only; they include neither parse/ nor metrics/ (a make check
 * test holds them to it).
 */
#ifndef TD_RENDER_H
#define TD_RENDER_H


#include "analyze/report.h"
#include "analyze/compare.h"

/* Options of the text renderer (report/text.c). */
struct td_text_opts {
	int verbose;          /* -v: show nodes below threshold and NAN nodes */
	int max_level;        /* --level N, 0 = all */
	int color;            /* 1: ANSI colours */
	int width;            /* bar width in characters (0: default 30) */
	int all_scopes;       /* --scopes all: every interval/CPU/thread section */
	int events;           /* --events: list the raw counts too */
};
/* Render the report as the indented text tree (reads the typed model only). */
void td_report_render_text(const struct td_model *m, const struct td_text_opts *o, FILE *out);
/*
 * Diagnoses said once (report/causes.c).  td_cause_split returns the
 * "likely cause: ..." tail of an out-of-range message (NULL if it has
 * none, or two), the length of what precedes it in *head_len.
 * td_cause_shared: does a warning of the list carry text's cause?
 * td_warnings_by_cause: a new array of the warnings (strings or
 * {"severity","text"}) in order, those sharing a cause with another
 * replaced, where the cause first appears, by one {"cause": tail,
 * "items": [heads]}; the caller releases it.
 */
const char *td_cause_split(const char *text, size_t *head_len);
int td_cause_shared(json_t *warnings, const char *text);
json_t *td_warnings_by_cause(json_t *list);
/* The same on a typed list: how many of its n warnings end with 'cause'; does one carry text's? */
size_t td_cause_count(const char *const *warnings, size_t n, const char *cause);
int td_cause_shared_in(const char *const *warnings, size_t n, const char *text);
/* One row per scope and node (report/csv.c; reads the typed model only). */
void td_report_render_csv(const struct td_model *m, FILE *out);
/* Its sections after the node rows: guidance and drill-down (report/csv-sections.c). */
void td_report_csv_sections(json_t *doc, FILE *out);
/* CSV rows written with commas, written again with sep between the fields (report -x). */
void td_csv_reseparate(const char *csv, size_t len, char sep, FILE *out);
/*
 * The document itself, indented (report/json.c).  Unless all_scopes, the
 * per-interval/CPU/thread scopes are folded: values and flags as columns,
 * their descriptions and reason texts once in the document's tables.
 */
void td_report_render_json(json_t *doc, int all_scopes, FILE *out);

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

/* ---- diff ---- */
void td_diff_render_text(json_t *diff, FILE *out);
/* The regression gate of diff --check (analyze/gate.h): its table and rules, and JUnit XML. */
void td_gate_render_text(json_t *gate, FILE *out);
void td_gate_render_junit(json_t *gate, FILE *out);
int td_diff_render_html(json_t *diff, const char *path, struct strbuf *err);
/* Elapsed time, common counts and thread fractions of a diff (report/diff-counts.c). */
void td_diff_render_counts_text(json_t *diff, FILE *out);

/* ---- threads and sweeps ---- */
/* Text rendering of doc's "threads" and "sweep" (report/text-threads.c). */
void td_report_text_threads(json_t *doc, struct strbuf *out);
/* The same, written to a stream (for the text renderer). */
void td_report_text_threads_file(json_t *doc, FILE *f);
/* record --drilldown: the "drilldown" steps, nothing without them (report/drilldown.c). */
void td_report_text_drilldown(json_t *doc, FILE *f);
/* record -e: a scope's "extra_events", nothing without them (report/extra-events.c). */
void td_text_extra_events(FILE *f, json_t *scope);

/* ---- stacks ---- */
/*
 * Append the text rendering of a scope's "stacks" object to sb; the CPI
 * stack's Level-2 rows only when verbose (as the tree hides them).
 */
void td_report_text_stacks(struct strbuf *sb, json_t *stacks, int verbose);
/*
 * Why each of the TD_NR_STACKS stacks (td_report_stack_names: CPI,
 * multi-stage CPI, IPC and FLOPS, frontend delivery) is not computable:
 * cause[i] a new string, or NULL when it is; the caller frees them.
 */
#define TD_NR_STACKS 4
extern const char *const td_report_stack_names[TD_NR_STACKS];
void td_report_stack_causes(json_t *stacks, char **cause);
/*
 * A document of several sessions: the scopes whose stacks the text and
 * HTML reports show (totals of the whole run, one per session and PMU),
 * grouped by identical stacks, each group {"text", "label", "scopes": [...]}
 * (report/stacks-sessions.c); NULL for a document of one session.
 */
json_t *td_report_stacks_by_session(json_t *doc, int verbose);
/* Those groups in text, after the sessions: each stack block once. */
void td_report_text_stacks_sessions(FILE *f, json_t *doc, int verbose);
/* Repeated runs (report/text-repeat.c): what the tree's values and spreads are,
 * and each node's spread over the runs (per run with -v). */
void td_report_text_repeat(FILE *f, json_t *doc, json_t *scope, int verbose, int max_level);
/* Did 'tdperf record' give warning w when it measured ("source": "record")? */
int td_report_warning_recorded(json_t *w);
/*
 * Those warnings of 'list' in one line, "recorded with warnings: ...; ...",
 * appended to sb (raw text: the caller escapes it); returns how many.
 */
int td_report_recorded_warnings_line(struct strbuf *sb, json_t *list);

/* ---- guidance (report/text-guidance.c; docs/guidance.md) ---- */
/* The deepest node of the scope's bottleneck path with guidance, or NULL. */
json_t *td_report_guidance_node(json_t *scope);
/* The node of a bottleneck fallback's candidate, when it has guidance; else NULL. */
json_t *td_report_guidance_candidate(json_t *scope, json_t *cand);
/*
 * Append the "What to try" lines of that node to sb (nothing without one);
 * when the bottleneck has a "fallback", why, and each candidate's.
 */
void td_report_text_guidance(struct strbuf *sb, json_t *scope);

/* ---- the roofline (report/plot-roofline.c; docs/roofline.md) ---- */
/*
 * The gnuplot script of the roofline chart (fmt = "svg" or "png" writes
 * roofline.svg/.png in the current directory) into gp; the run's
 * approximation notes into notes (may be NULL), one per line.  -1 when
 * doc has no calibrated roofs to draw.
 */
int td_roofline_script(json_t *doc, struct strbuf *gp, struct strbuf *notes);
/*
 * Draw the roofline in a private directory and publish DIR/roofline.gp and
 * DIR/roofline.svg or .png (td_charts_plot()).
 * 0 done; 1 nothing drawn (no roofs, or gnuplot missing: err says which);
 * -1 on failure with err set.
 */
int td_report_plot_roofline(json_t *doc, const char *dir, const char *format, struct strbuf *err);

/* ---- jobs ---- */
/* Render a job document (report/job-text.c, job-csv.c, job-html.c). */
void td_report_job_text(json_t *doc, FILE *out);
void td_report_job_csv(json_t *doc, FILE *out);
int td_report_job_html(json_t *doc, const char *path, struct strbuf *err);
/* 'report JOB --plot DIR': the job's charts (report/plot-job.c) as gnuplot files and images. */
int td_report_job_plot(json_t *doc, const char *dir, const char *format, struct strbuf *err);
/* The text of a job diff (report/job-diff-text.c) and its self-contained page (templates/job-diff.html). */
void td_report_job_diff_text(json_t *diff, FILE *out);
int td_report_job_diff_html(json_t *diff, const char *path, struct strbuf *err);

/* ---- hotspots ---- */
/* The top functions (top <= 0: all) and DSOs as text; all functions as CSV. */
void td_hotspots_render_text(json_t *doc, int top, FILE *out);
void td_hotspots_render_csv(json_t *doc, FILE *out);
/* The self-contained flame-graph page (report/hotspots-html.c). */
int td_hotspots_render_html(json_t *doc, const char *path, struct strbuf *err);
/* The text of a diff --hotspots comparison (analyze/compare.h's
 * td_hotspots_diff): the top functions (top <= 0: all) that got slower or
 * faster (report/hotspots-diff-text.c). */
void td_hotspots_diff_render_text(json_t *diff, int top, FILE *out);
/* DIR/hotspots.{dat,gp} (and the image when gnuplot is installed): the top functions. */
int td_hotspots_plot(json_t *doc, const char *dir, const char *format, int top, struct strbuf *err);

/*
 * The phases of an interval run (report/phases.c): the sentence
 * "0.0-20.0 s Frontend Bound 54 %; ..." (returns 0 and adds nothing for a
 * scope without phases), the rule that made them, and the text lines.
 */
int td_phases_sentence(struct strbuf *sb, json_t *scope);
extern const char *td_phases_rule;
void td_text_phases(FILE *f, json_t *scope);

#endif /* TD_RENDER_H */
