/*
 * report/export.h: a report document in the formats of the tools people
 * already view profiles with: pprof's profile.proto, speedscope's JSON,
 * Chrome's trace events (Perfetto, chrome://tracing) and the folded
 * stacks of the flame-graph scripts.
 *
 * The exporters only translate: they read the hotspots document (its
 * "callpaths" tree, built with TD_HOT_CALLPATHS) or a run's document (its
 * "threads" and "intervals"), and repeat no analysis.
 *
 * Output: written to 'out', which the caller owns (report -o renders into
 * memory and writes the file whole).  Errors: -1 with one line in err
 * (a document without what the format needs, an unknown --weight event);
 * nothing useful was written then.
 *
 * Name prefix: td_export_.
 */
#ifndef TD_REPORT_EXPORT_H
#define TD_REPORT_EXPORT_H

#include <jansson.h>
#include <stdio.h>

#include "util/util.h"

/* Folded stacks, "root;...;leaf COUNT" a line, COUNT in samples, or in
 * weight: "period" (the sampled event's) or a group member's count. */
int td_export_folded(json_t *doc, const char *weight, FILE *out, struct strbuf *err);
/* pprof: gzip'd profile.proto. */
int td_export_pprof(json_t *doc, FILE *out, struct strbuf *err);
/* speedscope's file format (https://www.speedscope.app/file-format-schema.json). */
int td_export_speedscope(json_t *doc, FILE *out, struct strbuf *err);
/* Chrome trace-event JSON of a run document: thread states as slices,
 * the intervals' Top-Down Level 1 and CPI as counter tracks. */
int td_export_trace(json_t *doc, FILE *out, struct strbuf *err);
/* The same of a --regions report: each logged region pass a slice on its thread's track. */
int td_export_trace_regions(json_t *doc, FILE *out, struct strbuf *err);

/* What the exporters share (report/export-paths.c): the call-path tree. */
struct td_export_tree {
	json_t *frames, *nodes;         /* profile.frames, profile.callpaths */
	const char **names;             /* per group member, or NULL */
	size_t nr_names;
};
/* The tree of a hotspots document; -1 with err set when it has none. */
int td_export_tree(json_t *doc, struct td_export_tree *t, struct strbuf *err);
void td_export_tree_release(struct td_export_tree *t);
/* The frames of node i, root first, into *path (grown as needed); their
 * number.  The root node (frame -1) is left out. */
size_t td_export_path(const struct td_export_tree *t, size_t i, int **path, size_t *alloc);
/* Node i's self weight: "samples", "period" or a member's count (rounded
 * to the nearest integer: perf's group counts are integers, the deltas
 * of one path summed stay so). */
double td_export_weight(const struct td_export_tree *t, size_t i, const char *weight);
/* 1 when weight names something the tree has. */
int td_export_has_weight(const struct td_export_tree *t, const char *weight);
const char *td_export_symbol(const struct td_export_tree *t, int frame);

#endif /* TD_REPORT_EXPORT_H */
