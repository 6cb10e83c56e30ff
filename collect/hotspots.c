/*
 * What 'tdperf record --hotspots' asks perf record for.
 *
 * With a hardware PMU: one leader-sampled group (perf's ":S", so every
 * sample carries PERF_SAMPLE_READ values of all members) led by a cycles
 * or slots event and holding the events of the table's Level 1 (and Level
 * 2 where one group of counters holds them).  Each sample then tells what
 * the Top-Down events counted since the thread's previous sample, which
 * the report attributes to the sampled function.  On CPUs with topdown
 * metrics the scheduler's group is the slots-led one already.
 *
 * The locate phase samples the precise events the table names for its
 * Level 1-2 nodes (Intel perfmon's LocateWith), one sampled event each,
 * so a report shows which functions cause a node.
 */
#include "config.h"
#include "collect/hotspots.h"
#include "collect/sched.h"
#include "metrics/table.h"
#include "util/util.h"

#include <string.h>
#include <strings.h>

/* A cycles or slots event can lead: its samples are spread in time. */
static int is_time_leader(const char *name)
{
	return strcasestr(name, "SLOTS") || strcasestr(name, "CPU_CLK_UNHALTED") ||
	       strcasestr(name, "cycles") || strcasestr(name, "not_halted_cyc") ||
	       !strcasecmp(name, "CPU_CYCLES");
}

/* The schedule of a level that fits one group, or -1. */
static int one_group_schedule(const struct td_table *t, const struct td_sched_budget *b, int level,
			      struct td_sched *s, struct strbuf *err)
{
	struct td_sched_request req = { 0 };

	req.level = level;
	if (td_sched_build(t, &req, b, s, err) < 0)
		return -1;
	if (s->nr_groups == 1)
		return 0;
	td_sched_release(s);
	return 1;
}

int td_hotspots_events(const struct td_table *t, const struct td_sched_budget *b, int level,
		       struct strbuf *events, struct strbuf *note, struct strbuf *err)
{
	struct td_sched s;
	struct strbuf group = STRBUF_INIT;
	int lv, r;

	if (!t) {
		strbuf_addstr(events, "cpu-clock");
		strbuf_addstr(note, "no hardware PMU: cpu-clock samples; Top-Down per function needs hardware counters");
		return 0;
	}
	for (lv = level > 2 ? 2 : level < 1 ? 1 : level; lv >= 1; lv--) {
		r = one_group_schedule(t, b, lv, &s, err);
		if (r < 0)
			return -1;
		if (!r)
			break;
		if (lv == 1) { /* Level 1 alone needs two groups: sample with the first */
			td_sched_build(t, &(struct td_sched_request){ .level = 1 }, b, &s, err);
			strbuf_addf(note, "Level 1 needs %zu groups of counters; the sampled group holds the first only",
				    s.nr_groups);
			break;
		}
		strbuf_addf(note, "Level %d needs more counters than one group has: sampling Level %d", lv, lv - 1);
	}
	if (lv < 1)
		lv = 1;
	td_sched_group_spec(&s, 0, &group);
	/* "{a,b}" -> "{cycles,a,b}:S" unless a cycles or slots event leads already */
	if (!s.groups[0].nr_events || !is_time_leader(s.groups[0].events[0].name)) {
		strbuf_addstr(events, "{cycles,");
		strbuf_add(events, group.buf + 1, group.len - 1);
	} else {
		strbuf_add(events, group.buf, group.len);
	}
	strbuf_addstr(events, ":S");
	strbuf_release(&group);
	td_sched_release(&s);
	return lv;
}

int td_hotspots_locate_events(const struct td_table *t, int level, struct strbuf *events)
{
	size_t i, n = 0;

	for (i = 0; i < td_table_nr_metrics(t); i++) {
		const struct td_metric *m = td_table_metric(t, i);
		const char *p, *end;

		if (m->level < 1 || m->level > level || !m->locate_with)
			continue;
		for (p = m->locate_with; *p; p = *end ? end + 1 : end) {
			struct strbuf name = STRBUF_INIT;
			const struct td_event *ev;

			end = p + strcspn(p, ";");
			strbuf_add(&name, p, (size_t)(end - p));
			strbuf_trim(&name);
			ev = td_table_find_event(t, name.buf);
			/* each event once; one the table cannot encode is left out */
			if (ev && ev->perf_name && !strstr(events->buf ? events->buf : "", ev->perf_name)) {
				if (n++)
					strbuf_addch(events, ',');
				/* precise: the sample's IP is the instruction itself */
				strbuf_addstr(events, ev->perf_name);
				strbuf_addstr(events, ev->perf_name[strlen(ev->perf_name) - 1] == '/' ? "pp" : ":pp");
			}
			strbuf_release(&name);
		}
	}
	return (int)n;
}
