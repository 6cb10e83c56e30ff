/*
 * The report as typed C structs (issue 31 item 1): the run's facts, its
 * sessions, and each scope with its Top-Down nodes, the way the text and
 * CSV renderers read them.  A misspelled field is a compile error here,
 * not a NULL read back from a JSON key.
 *
 * One opaque handle, struct td_model, is built once from the report
 * document (td_model_new): the document the builder returns and the one
 * the reader of a saved JSON file returns (after td_report_unfold) are the
 * same kind of object, so both give the same structs.  The scopes of a
 * long run that the builder streams (analyze/stream.c) are not in the
 * document; td_model_each_scope hands them over one at a time, built
 * straight from the evaluation, so memory stays flat.
 *
 * Ownership: every pointer an accessor returns, and every string in the
 * structs, is borrowed: it lives as long as the handle (and the document
 * it was built from, which must outlive it).  A scope passed to a
 * td_model_each_* callback lives until the callback returns.
 *
 * NAN: no value; NULL: no string.
 */
#ifndef TD_ANALYZE_MODEL_H
#define TD_ANALYZE_MODEL_H

#include <stddef.h>
#include <jansson.h>

/* A Top-Down node of a scope (docs/report-schema.md, nodes[]). */
struct td_node_row {
	const char *id, *name, *parent, *unit;
	int level;
	long parent_index;           /* the parent in the scope's nodes[], -1 at Level 1 or
					when the scope lacks it (td_scope_rows_link) */
	double value;                /* NAN: not computable, reason says why (n/a) */
	const char *source;          /* "counts", "perf", "children" (nodes[].source) */
	int flagged, bottleneck, approximate;
	const char *reason;          /* why value is NAN, or what is approximate */
	const char *threshold;       /* the table's threshold expression; total scopes only */
	double perf_value, perf_resolution;
	const char *perf_name;
	const char *perf_kind;       /* "table" (tma_frontend_bound), "builtin" (perf's own
					"Frontend Bound"), NULL where perf printed none */
	const char *perf_formula_version, *perf_formula_expr, *perf_formula_why;
				     /* the older formula perf computes it with, or NULLs */
	int perf_only;               /* a node of perf's alone, computed with its formula */
	int group;                   /* -1: computed on all groups */
	double uncertainty;          /* the error bar: one standard error, a fraction */
	int undecided;
	double counted_pct;
	const char *estimate, *sanity;
	int repeat_runs;             /* record -r: runs with a value (nodes[].repeat), 0 none */
	double repeat_mean, repeat_stddev, repeat_min, repeat_max;
};

/* A raw count (events[], or record -e's extra_events[]). */
struct td_event_row {
	const char *name, *unit, *status, *pmu;
	double value, running_pct, variance_pct;
	int scaled;
};

/* An info metric (metrics[]), in its displayed unit. */
struct td_model_metric {
	const char *name, *unit, *perf_name;
	double value, uncertainty, perf_value;
	int approximate;
};

/* One of perf stat's derived software figures (software[]). */
struct td_model_software {
	const char *name, *unit, *basis;
	double value;
};

/*
 * A scope.  The streamed scopes of a long run (td_model_each_scope on a
 * document loaded with streamed_nodes_only) carry only what CSV and the
 * folded text line show: the header, the nodes' values, flags and
 * reasons, events where there are no nodes, and bottleneck_leaf.
 */
struct td_scope_rows {
	const char *id, *kind, *label, *pmu;
	long session;
	double time;
	int multiplexed;
	const char *derived;          /* "sum of 8 cpu scopes", or NULL */
	const char *table;            /* the formula table's name, NULL: counts only */
	int hardware_counts;          /* 0: software events and tracepoints only */
	struct td_node_row *nodes;
	size_t nr_nodes;
	struct td_event_row *events;  /* from the document: all; streamed: when there are no nodes */
	size_t nr_events;
	struct td_event_row *extra;   /* record -e: the scope's "extra_events" (name: as given) */
	size_t nr_extra;
	struct td_model_metric *metrics;
	size_t nr_metrics;
	struct td_model_software *software;
	size_t nr_software;
	const char **warnings;        /* the scope's warnings, in order */
	size_t nr_warnings;
	int has_bottleneck;
	const char *bottleneck_sentence;
	const char *bottleneck_leaf;  /* the path's last node id, or NULL */
	json_t *json;                 /* the document's scope it was read from, for the
					 renderers not converted yet; NULL when streamed */
	json_t *stacks_json;          /* its "stacks" (report/text-stacks.c reads them still) */
	char **owned;                 /* strings to free with the rows */
	size_t nr_owned, alloc_owned;
};

/* Set each node's parent_index from its parent id (nodes in table pre-order). */
void td_scope_rows_link(struct td_scope_rows *r);
/* The node's parent, or NULL at Level 1. */
const struct td_node_row *td_node_parent(const struct td_scope_rows *r, const struct td_node_row *n);

/* The run's CPU and SMT, as found (run.cpu, run.smt). */
struct td_model_run {
	const char *cpu_name, *cpu_source, *cpu_confidence;
	int has_smt;                  /* run.smt is an object */
	int smt_on;                   /* 1, 0, -1: unknown */
	const char *smt_source;
};

/* A formula table the report used (tables[]). */
struct td_model_table {
	const char *name, *display, *pmu;
	double slots_per_cycle;
};

/* A perf stat session of the input (sessions[]). */
struct td_model_session {
	long index;                   /* 1-based, what scopes' session refers to */
	const char *target, *format, *elapsed_source;
	long repeats, line;
	double elapsed_s;
	int legacy_topdown;
};

/* A warning on the input as a whole (warnings[]). */
struct td_model_warning {
	const char *text;
	int recorded;                 /* meta.json says record gave it ("source": "record") */
};

struct td_model;

/* The model of a report document; td_model_free releases it (not doc). */
struct td_model *td_model_new(json_t *doc);
void td_model_free(struct td_model *m);

const struct td_model_run *td_model_run(const struct td_model *m);
size_t td_model_nr_tables(const struct td_model *m);
const struct td_model_table *td_model_table(const struct td_model *m, size_t i);
size_t td_model_nr_sessions(const struct td_model *m);
const struct td_model_session *td_model_session(const struct td_model *m, size_t i);
size_t td_model_nr_warnings(const struct td_model *m);
const struct td_model_warning *td_model_warning(const struct td_model *m, size_t i);
/* The document's own scopes (not the streamed ones), in its order. */
size_t td_model_nr_scopes(const struct td_model *m);
const struct td_scope_rows *td_model_scope(const struct td_model *m, size_t i);

/*
 * Every scope of a session, in the document's order, the streamed ones
 * built one at a time; with 'full' each carries everything a document's
 * scope has (text --scopes all), else streamed ones may carry only what
 * CSV and the folded line show (see struct td_scope_rows).
 */
void td_model_each_scope(const struct td_model *m, long session, int full,
			 void (*fn)(const struct td_scope_rows *s, void *ctx), void *ctx);
/* How many scopes of the session live outside the document (streamed). */
size_t td_model_streamed_scopes(const struct td_model *m, long session);
/* The document, for the renderers not converted yet (borrowed). */
json_t *td_model_doc(const struct td_model *m);

#endif /* TD_ANALYZE_MODEL_H */
