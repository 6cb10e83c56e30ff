/*
 * report/regions.h: drawing the regions document of a --regions run
 * (analyze/regions.h): the region table and each region's Top-Down tree
 * as text, one row per region and value as CSV, the document as JSON.
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

void td_regions_render_text(json_t *doc, const struct td_text_opts *o, FILE *out);
void td_regions_render_csv(json_t *doc, FILE *out);
void td_regions_render_json(json_t *doc, FILE *out);

#endif /* TD_REPORT_REGIONS_H */
