/*
 * collect/hotspots.h: what 'tdperf record --hotspots' asks perf record for.
 *
 * With a hardware PMU, one leader-sampled group led by a cycles or slots
 * event with the events of the table's top Top-Down levels, so that each
 * sample tells what those events counted since the thread's previous
 * sample (metrics/hotspots.h attributes it to the sampled function);
 * without one, cpu-clock.  The locate phase samples the precise events the
 * table names for its nodes.
 *
 * Ownership: the table and budget are only read; the event lists and
 * notes are appended to the caller's strbufs.
 *
 * Errors: -1 with one line in 'err'; what had to be given up to fit one
 * group goes into 'note'.
 *
 * Name prefix: td_hotspots_.
 */
#ifndef TD_COLLECT_HOTSPOTS_H
#define TD_COLLECT_HOTSPOTS_H

#include "collect/sched.h"
#include "metrics/table.h"
#include "util/util.h"

/*
 * The -e argument of 'perf record' for hotspots: without a table (no
 * PMU) cpu-clock; else one leader-sampled group "{cycles-or-slots,...}:S"
 * with the events of Top-Down Level 1..level that fit one group.  Returns
 * the level sampled (0 without a table), -1 with err set; note says what
 * was given up.
 */
int td_hotspots_events(const struct td_table *t, const struct td_sched_budget *b, int level,
		       struct strbuf *events, struct strbuf *note, struct strbuf *err);
/* The precise events the table locates its Level 1..level nodes with
 * (LocateWith), comma-separated into events; returns how many. */
int td_hotspots_locate_events(const struct td_table *t, int level, struct strbuf *events);

#endif /* TD_COLLECT_HOTSPOTS_H */
