/*
 * collect/drilldown.h: what 'tdperf record --drilldown' samples for one
 * Top-Down node, after a first run counted the tree and analyze/ chose
 * the node (td_report_drilldown_node).
 *
 * The node's locate-with event (Intel perfmon's "Locate-with" field,
 * carried into the formula tables as locate_with) leads a leader-sampled
 * group ("{EVENT:pp,...}:S") holding the events of the node's formula,
 * so each sample tells both where the node's events happen and what the
 * node measured there.  Where that group does not fit the counters the
 * event is sampled alone; a node the table gives no event to locate it
 * with is sampled by cycles with its events, so each function still gets
 * its own value of the node; without hardware counters, cpu-clock.  On a
 * PMU without precise sampling (caps/max_precise 0 or missing) the event
 * is sampled without :pp, and the plan says the IPs may skid.
 *
 * Ownership: the table and budget are only read; a struct td_drilldown
 * owns its strings (td_drilldown_release).
 *
 * Errors: none; every fallback is described in 'note' for the caller to
 * warn with and to keep in meta.json.
 *
 * Name prefix: td_drilldown_.
 */
#ifndef TD_COLLECT_DRILLDOWN_H
#define TD_COLLECT_DRILLDOWN_H

#include "collect/sched.h"
#include "metrics/table.h"
#include "util/util.h"

/* How the node is sampled, from the best to the last resort. */
enum td_drilldown_kind {
	TD_DRILL_LOCATE_GROUP,  /* its locate event leading a group with its events */
	TD_DRILL_LOCATE_ALONE,  /* its locate event alone: the group did not fit */
	TD_DRILL_CYCLES_GROUP,  /* no locate event: cycles leading its events */
	TD_DRILL_CPU_CLOCK,     /* no hardware counters (or nothing encodable) */
};

struct td_drilldown {
	enum td_drilldown_kind kind;
	const struct td_metric *node;   /* NULL for cpu-clock without a table */
	char *leader;                   /* table name of the sampled event, "cycles" or "cpu-clock" */
	int precise;                    /* sampled with :pp */
	struct strbuf events;           /* the -e argument of perf record */
	struct strbuf note;             /* what was sampled instead, and why; empty when as asked */
};

/* The name of enum td_drilldown_kind in meta.json and the report. */
const char *td_drilldown_kind_name(enum td_drilldown_kind k);
/*
 * Plan the samples for node 'node_id' of 't' (NULL: no hardware PMU,
 * 'why' says what is missing) under budget 'b'; max_precise is the core
 * PMU's caps/max_precise (td_drilldown_max_precise).
 */
void td_drilldown_plan(const struct td_table *t, const char *node_id, const struct td_sched_budget *b,
		       int max_precise, const char *why, struct td_drilldown *out);
void td_drilldown_release(struct td_drilldown *d);
/* caps/max_precise of the core PMU named, 0 when it has none or it is unreadable. */
int td_drilldown_max_precise(const char *pmu);
/*
 * The nodes the counting run one level further down counts: the path of
 * 'node_id' from Level 1 (their values decide the children's flags) and
 * its children, comma-separated into 'ids'.  Returns how many children.
 */
int td_drilldown_count_nodes(const struct td_table *t, const char *node_id, struct strbuf *ids);

#endif /* TD_COLLECT_DRILLDOWN_H */
