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
};

/*
 * Load a run directory, or import a perf stat output / perf.data file on
 * the fly, evaluate everything that applies, and return the report
 * document.  NULL with a one-line message in err on failure.
 */
json_t *td_report_load(const char *run_or_file, const struct td_report_opts *opts,
		       struct strbuf *err);

/* ---- renderers: each takes the document and writes one format ---- */

/* Render the HTML report to 'path' atomically (report/html.c). */
int td_report_render_html(json_t *doc, const char *path, struct strbuf *err);
/*
 * Write gnuplot data + scripts for every chart that applies into 'dir',
 * and run gnuplot to 'format' ("svg" or "png") when it is installed
 * (report/plot.c).  Returns 0, or -1 with err set.  When gnuplot is
 * missing, writes the scripts, warns once and returns 0.
 */
int td_report_plot(json_t *doc, const char *dir, const char *format, struct strbuf *err);

#endif /* TD_REPORT_H */
