/*
 * report/regions.h: drawing the regions document of a --regions run
 * (analyze/regions.h): the region table and each region's Top-Down tree
 * as text, one row per region and value as CSV, the document as JSON, a
 * self-contained HTML page.
 *
 * Ownership: the document is borrowed.  Errors: none (what cannot be
 * drawn is said in place).
 *
 * Name prefix: td_regions_render_.
 */
#ifndef TD_REPORT_REGIONS_H
#define TD_REPORT_REGIONS_H

#include <stdio.h>
#include <jansson.h>

#include "report/render.h"
#include "util/util.h"

void td_regions_render_text(json_t *doc, const struct td_text_opts *o, FILE *out);
void td_regions_render_csv(json_t *doc, FILE *out);
void td_regions_render_json(json_t *doc, FILE *out);
/* One self-contained page at path: the table, a tree per region; -1 with err. */
int td_regions_render_html(json_t *doc, const char *path, struct strbuf *err);

/* report/regions-merge.c: two region reports compared (td_regions_diff), and a job's regions over its ranks. */
void td_regions_diff_text(json_t *diff, FILE *out);
void td_job_regions_text(json_t *doc, FILE *out);
/*
 * report/regions-job.c: the same in the job's CSV (rows 'region' per rank,
 * 'region_min|mean|median|max' and 'region_outlier[_imbalanced]', metric
 * REGION:STAT) and as the job page's section (nothing without regions).
 */
void td_job_regions_csv(json_t *doc, FILE *out);
void td_job_regions_html(struct strbuf *sb, json_t *doc);

#endif /* TD_REPORT_REGIONS_H */
