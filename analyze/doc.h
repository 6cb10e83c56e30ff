/*
 * The report document (docs/report-schema.md) as analyze/ builds it and
 * report/ reads it: typed access to its fields, the scope a summary talks
 * about, the CPI stack of a scope and the reason strings of its nodes
 * (analyze/doc.c, analyze/reason.c, analyze/stacks.c).  Nothing here
 * needs parse/ or metrics/: renderers include it.
 */
#ifndef TD_ANALYZE_DOC_H
#define TD_ANALYZE_DOC_H

#include <stdio.h>
#include <jansson.h>

#include "util/util.h"
#include "analyze/model.h"

/* Version of the document's schema (docs/report-schema.md). */
#define TD_REPORT_SCHEMA_VERSION 2

/* "P-core cpu_core CPU3", "app-1234", or the scope id. */
void td_scope_label(struct strbuf *sb, json_t *scope);
/* The same after "s2 " when 'scopes' come from several perf stat sessions. */
void td_scope_label_among(struct strbuf *sb, json_t *scopes, json_t *scope);
/* "P-core" for cpu_core, "E-core" for cpu_atom, NULL for other PMUs. */
const char *td_pmu_core_type(const char *pmu);
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
 * "total" scopes the one with the most computable Level-1 nodes, then
 * the most computable Top-Down nodes, the earliest on a tie; else the
 * first non-interval scope, else the first.
 */
json_t *td_report_main_scope(json_t *doc);
/* How many of a scope's Top-Down nodes have a value. */
int td_scope_computable_nodes(json_t *scope);
int td_scope_computable_level1(json_t *scope);
/* Number in a JSON value, NAN for null/absent/not a number. */
double td_json_num(json_t *v);
const char *td_json_str(json_t *obj, const char *key);
const char *td_json_str_or(json_t *obj, const char *key, const char *fallback);
/* An integer field (a level), 'fallback' when absent, not a number or absurd. */
int td_json_int(json_t *v, int fallback);


/*
 * The value a formula name ("cpu_core/slots/", "INT_MISC.CLEARS_COUNT",
 * "#smt_on") had in a scope of the document: its literals, else its
 * events matched as the evaluator matches counts (perf's spellings and
 * aliases folded).  0 with *value set, -1 when the scope has none.
 */
int td_scope_lookup(json_t *scope, const char *name, double *value);
/* A node's "level" (0 when absent or absurd). */
int td_node_level(json_t *node);
/*
 * Does the node belong to the Level-'level' stack: at that level, or above
 * it with no child at or above it (a stack of any level then sums to 1)?
 */
int td_node_in_stack(json_t *nodes, json_t *node, int level);
/*
 * Has a multi-stage "stages[]" entry a computed component besides base and
 * the residual "other"?  Every renderer shows a stage only then.
 */
int td_stack_stage_computed(json_t *stage);

/*
 * Reasons (analyze/reason.c).  A reason is the evaluator's "; "-separated
 * list of items, mostly "EVENT not measured".  td_reason_short writes it
 * with at most 'max' event names ("A, B, C and 9 more not measured") and
 * at most 'max' other items; td_reason_missing_count counts the distinct
 * unmeasured events; td_reason_missing_list writes them all, comma-separated.
 */
void td_reason_short(struct strbuf *sb, const char *reason, size_t max);
size_t td_reason_missing_count(const char *reason);
void td_reason_missing_list(struct strbuf *sb, const char *reason);

/*
 * The memory levels of the document's "roofline" object, closest first
 * ("L1" .. "DRAM"), the keys of its per-level members (analyze/roofline.c).
 */
int td_roofline_nr_levels(void);
const char *td_roofline_level_name(int level);

/*
 * The components of the per-thread stacks in the document's order
 * ("running", "runnable", ...), the keys of its "threads" members
 * (analyze/threads-json.c).
 */
int td_thread_nr_components(void);
const char *td_thread_component_id(int k);

/*
 * A saved document's folded scopes (version 2: values and flags as
 * columns, descriptions and texts in the document's "columns" and
 * "strings") turned back into scopes with nodes[] (or events[]) as
 * readers of version 1 know them, each marked "folded": true: they have
 * no stacks, info metrics or perf metrics.  -1 with err set when a folded
 * scope refers to a columns entry the document lacks.
 */
int td_report_unfold(json_t *doc, struct strbuf *err);
/* The rows of a scope of the document (strings borrowed from it). */
void td_scope_rows_from_json(json_t *scope, struct td_scope_rows *r);
void td_scope_rows_release(struct td_scope_rows *r);
/* record -e: r's extra rows from the scope's "extra_events" (td_scope_rows_release frees them). */
void td_scope_rows_add_extra(struct td_scope_rows *r, json_t *scope);

#endif /* TD_ANALYZE_DOC_H */
