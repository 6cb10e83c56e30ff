/*
 * Pieces of the self-contained HTML pages (report, diff, job, hotspots):
 * number formats, stacked bars, figures rendered by gnuplot, and the
 * templates they fill (templates/, docs/html-templates.md).
 */
#ifndef TD_RENDER_HTML_H
#define TD_RENDER_HTML_H


#include "report/chart.h"

/* ---- HTML pieces shared by the report and the diff (report/html-parts.c) ---- */
void td_html_pct(struct strbuf *sb, double frac);   /* "41.1%" or "n/a" */
void td_html_num(struct strbuf *sb, double v);      /* "1,234,567", "2.77" or "n/a" */
void td_html_short(struct strbuf *sb, double v);    /* "30.9 G" for big counts */
/* A reason, escaped, with at most three event names; all of them in its title. */
void td_html_reason(struct strbuf *sb, const char *reason);
/* CSS stacked bar of one chart row; scale: value -> % of the bar width. */
extern const char *td_html_not_measured_style;
void td_html_stackbar(struct strbuf *sb, const struct td_chart *c, size_t row, double scale,
		      const char *cls);
void td_html_legend(struct strbuf *sb, const struct td_chart *c, long row);
void td_html_warnings(struct strbuf *sb, json_t *list);
/* record -r: the spread of the nodes over the runs (report/html-repeat.c) */
void td_html_repeat(struct strbuf *sb, json_t *scope);
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
/* record --drilldown: the "drilldown" steps, nothing without them (report/drilldown.c). */
void td_html_drilldown(struct strbuf *sb, json_t *doc);
/* record -e: the totals' extra events, one table per total (report/extra-events.c). */
void td_html_extra_events(struct strbuf *sb, json_t *doc);
/* report/html-tree.c: the collapsible tree, raw events, scope and interval tables. */
void td_html_tree(struct strbuf *sb, json_t *scope);
/*
 * The scope whose warnings the page shows (its first screen): its nodes'
 * out-of-range details leave their likely cause to those warnings.
 */
void td_html_tree_warned_scope(json_t *scope);
/* "What to try" for the scope's bottleneck, under the verdict (report/html-guidance.c). */
void td_html_guidance(struct strbuf *sb, json_t *scope);
/* A file of several sessions: their stacks compared, each different set once (report/stacks-sessions.c). */
void td_html_stacks_sessions(struct strbuf *sb, json_t *doc);
/* The same titled with its core type ("P-core: what to try: ..."), for the
 * hybrid pair's cards, which sit under both columns (report/html-guidance.c). */
void td_html_guidance_of_core(struct strbuf *sb, json_t *scope, const char *core);
/* 'p': the node's value is the one perf printed, 's': its children's sum, 0: from the counts. */
int td_html_node_source(json_t *n);
/* Has any node of the scope a value? */
int td_html_scope_has_values(json_t *scope);
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

/* The diff's counts as HTML tables (report/diff-counts.c). */
void td_diff_render_counts_html(struct strbuf *sb, json_t *diff);

/* The summary's phases of an interval run: sentence and time band (report/phases.c). */
void td_html_phases(struct strbuf *sb, json_t *scope);

#endif /* TD_RENDER_HTML_H */
