/*
 * analyze/gate.h: the regression gate of 'tdperf diff --check'.
 *
 * Two sides, each a set of report documents (one run directory recorded
 * with -r N holds N sessions; several run directories add theirs), are
 * compared metric by metric: the counts (instructions, cycles,
 * task-clock, ...), IPC, the wall time, Top-Down Levels 1-2 and, where
 * hotspots were recorded, each function's self share; a --regions run
 * gives each region's as region:NAME:METRIC, its root region's as the
 * run's.  Each metric gets
 * Welch's t-test (metrics/stats.h) and a verdict; the rules of --fail-on
 * are then checked on those comparisons (docs/diff-schema.md, "Regression
 * gate").
 *
 * Ownership: td_gate_build returns a new "tdperf-gate" document the
 * caller frees; the sides' documents stay the caller's.
 *
 * Errors: NULL with one line in err, naming the input or rule, for a
 * malformed rule, a rule on a metric nobody knows, or a side with fewer
 * than two runs (no variance, no test).
 */
#ifndef TD_ANALYZE_GATE_H
#define TD_ANALYZE_GATE_H

#include <jansson.h>
#include <stddef.h>

#include "util/util.h"

struct td_gate_side {
	const char *label;    /* "base" or "new" */
	char **paths;         /* what the user named, one per document */
	json_t **docs;        /* report documents (tdperf-report) */
	json_t **hotspots;    /* per document: its hotspots document, or NULL */
	json_t **regions;     /* per document: a --regions report in its stead (docs[i] NULL), or NULL */
	size_t nr;
	const char *scope;    /* a scope id: compare its session only (one document) */
};

/* The rules when --fail-on is not given. */
#define TD_GATE_DEFAULT_RULES "cycles:+5%,instructions:+5%,task-clock:+5%"
#define TD_GATE_DEFAULT_CONFIDENCE 0.95

/* Check the syntax of a --fail-on list; 0, or -1 with the reason in err. */
int td_gate_check_rules(const char *rules, struct strbuf *err);

json_t *td_gate_build(const struct td_gate_side *base, const struct td_gate_side *new_,
		      const char *rules, double confidence, struct strbuf *err);

/* The number of rules the document says are broken (the exit status 1). */
int td_gate_failed(json_t *gate);

#endif /* TD_ANALYZE_GATE_H */
