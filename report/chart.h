/*
 * Charts independent of gnuplot: which charts a document supports, their
 * rows and series (report/plot-data.c and friends), writing them as
 * gnuplot data and scripts (report/plot.c) and drawing them with gnuplot
 * in a private directory (report/plot-run.c).
 */
#ifndef TD_RENDER_CHART_H
#define TD_RENDER_CHART_H


#include "analyze/doc.h"

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
	double total;       /* TD_CHART_STACKED: the whole bar (100 %, the CPI), NAN if not known */
};
/* The series of a stacked chart that stands for its rows' components not measured. */
#define TD_CHART_NOT_MEASURED "_not_measured"
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
	char *script;       /* a whole script with its data inline (the roofline's); NULL: built from the rows */
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
/* Width in pixels the chart is drawn at (bars get wider with more rows). */
int td_chart_width(const struct td_chart *c);
/*
 * The HTML report's card width less its padding (templates/report.css):
 * charts up to it are drawn to be shown at their own size; wider ones
 * (many bars) scroll in their card instead of shrinking their text.
 */
#define TD_CHART_CARD_WIDTH 1096
/*
 * The chart's data file (STEM.dat; nothing for a chart with its own
 * script) and gnuplot script (STEM.gp) for the image format 'format'.
 */
void td_chart_text(const struct td_chart *c, const char *format, struct strbuf *data, struct strbuf *script);
/* Write STEM.dat and STEM.gp into dir (td_write_file_atomic()). */
int td_chart_write(const struct td_chart *c, const char *dir, const char *format, struct strbuf *err);
/*
 * Draw each chart with gnuplot into images[i] (charts->nr buffers), in a
 * directory this process made for it alone and removes after: gnuplot
 * never reads a file another user could replace.  Returns 0; 1 when gnuplot
 * is not installed (err says so); -1 on failure (err says why).
 */
int td_charts_draw(const struct td_chart_list *charts, const char *format, struct strbuf *images,
		   struct strbuf *err);
/*
 * The charts' files in dir, made when missing: draw them all
 * (td_charts_draw()), then publish STEM.dat, STEM.gp and STEM.FORMAT of
 * each.  Returns 0; 1 when gnuplot is not installed (the data and scripts
 * are written, err says why); -1 on failure, with nothing of the charts
 * left in dir and dir removed when this call made it.
 */
int td_charts_plot(const struct td_chart_list *charts, const char *dir, const char *format,
		   struct strbuf *err);
/* The roofline chart of the document (report/plot-roofline.c), or NULL when it has no roofs. */
struct td_chart *td_chart_roofline(json_t *doc);
/* Rewrite a gnuplot SVG for inlining in HTML: no XML prolog, ids prefixed. */
void td_svg_inline(struct strbuf *out, const char *svg, const char *id_prefix);

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
/* What a reader calls a thread-stack component ("sync (waiting for another thread)"). */
const char *td_thread_component_name(const char *id);
/*
 * Charts of a job (report/plot-job.c): CPU time ("job-cpu"), the thread
 * components ("job-sched", seconds) and Top-Down Level 1 ("job-topdown")
 * of each rank, or of each node (its ranks' mean) past
 * TD_JOB_CHART_MAX_RANKS ranks; a chart only when some rank has its values.
 */
#define TD_JOB_CHART_MAX_RANKS 256
void td_charts_job(json_t *doc, struct td_chart_list *out);
/* Whether the job's charts and heat map have one row per node rather than per rank. */
int td_job_chart_by_node(json_t *doc);
/*
 * Charts of the main scope's stacks (report/plot-stacks.c): the multi-stage
 * CPI stacks side by side ("multistage-stack") and the IPC and FLOPS stacks
 * side by side as shares of their peaks ("ipc-flops-stack").
 */
void td_charts_stacks(json_t *doc, struct td_chart_list *out);

/* gnuplot script text from input strings (report/plot.c): a string
 * expression that gnuplot never interprets, holding text an SVG may hold. */
void td_gp_string(struct strbuf *sb, const char *s);

#endif /* TD_RENDER_CHART_H */
