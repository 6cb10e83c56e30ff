/*
 * What 'tdperf record --drilldown' samples for one Top-Down node
 * (collect/drilldown.h).
 *
 * Intel's Top-Down method pairs each node with a precise event that
 * "locates" it in the code (perfmon's Locate-with column, Yasin, "A
 * Top-Down Method for Performance Analysis and Counters Architecture",
 * ISPASS 2014, section IV); toplev prints it as a --run-sample hint.
 * Sampling that event as the leader of a group holding the node's own
 * events (perf's ":S") gives both the functions where the node's events
 * happen and the node's value in each of them.
 */
#include "config.h"
#include "collect/drilldown.h"
#include "collect/sched.h"
#include "metrics/table.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

const char *td_drilldown_kind_name(enum td_drilldown_kind k)
{
	switch (k) {
	case TD_DRILL_LOCATE_GROUP: return "locate_group";
	case TD_DRILL_LOCATE_ALONE: return "locate_event";
	case TD_DRILL_CYCLES_GROUP: return "cycles_group";
	case TD_DRILL_CPU_CLOCK: break;
	}
	return "cpu_clock";
}

int td_drilldown_max_precise(const char *pmu)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	int v = 0;

	strbuf_addf(&path, "/sys/bus/event_source/devices/%s/caps/max_precise", pmu ? pmu : "cpu");
	if (td_read_file(&sb, path.buf) >= 0)
		v = atoi(sb.buf);
	strbuf_release(&path);
	strbuf_release(&sb);
	return v;
}

/* "pmu/terms/" -> "pmu/terms,name=NAME/" */
static void add_name_term(struct strbuf *sb, const char *name)
{
	strbuf_setlen(sb, sb->len - 1);
	strbuf_addf(sb, ",name=%s/", name);
}

/* The first event of the node's LocateWith list the table can encode, or NULL. */
static const struct td_event *locate_event(const struct td_table *t, const struct td_metric *m)
{
	const char *p, *end;

	for (p = m->locate_with; p && *p; p = *end ? end + 1 : end) {
		struct strbuf name = STRBUF_INIT;
		const struct td_event *ev;

		end = p + strcspn(p, ";");
		strbuf_add(&name, p, (size_t)(end - p));
		strbuf_trim(&name);
		ev = td_table_find_event(t, name.buf);
		strbuf_release(&name);
		if (ev && ev->perf_name)
			return ev;
	}
	return NULL;
}

/*
 * Does the group hold topdown metric events (PERF_METRICS, Ice Lake and
 * later), which count only in a group led by slots?  Another leader,
 * the locate event or cycles, cannot lead them.
 */
static int needs_slots_leader(const struct td_table *t, const struct td_sched_group *g)
{
	size_t i;

	for (i = 0; i < g->nr_events; i++) {
		const struct td_event *ev = td_table_find_event(t, g->events[i].name);

		if (ev && (ev->resource == TD_RES_PERF_METRICS || ev->group_leader))
			return 1;
	}
	return 0;
}

/*
 * Take a general counter among those 'mask' allows (0: any of the gp),
 * lowest first, into 'used'; -1 when none is free.
 */
static int take_counter(unsigned long long mask, int gp, unsigned long long *used)
{
	int c;

	for (c = 0; c < gp && c < 64; c++)
		if ((!mask || (mask >> c) & 1) && !((*used >> c) & 1)) {
			*used |= 1ULL << c;
			return c;
		}
	return -1;
}

/*
 * Place the general-counter events of the schedule (each once; restricted
 * ones first, pass 0, then the others) beside a leader that took its
 * counter already; append each placed event to 'group'.  -1 when one
 * finds no counter: the scheduler checked each of its groups alone, not
 * their union.
 */
static int place_events(const struct td_table *t, const struct td_sched *s, int gp,
			unsigned long long *used, struct strvec *seen, struct strbuf *group)
{
	size_t g, i, k;
	int pass;

	for (pass = 0; pass < 2; pass++)
		for (g = 0; g < s->nr_groups; g++)
			for (i = 0; i < s->groups[g].nr_events; i++) {
				const struct td_sched_event *e = &s->groups[g].events[i];
				const struct td_event *ev = td_table_find_event(t, e->name);
				unsigned long long mask = ev ? ev->counters : 0;

				for (k = 0; k < seen->nr && strcmp(seen->v[k], e->name); k++)
					;
				if (k < seen->nr || (e->fixed < 0 && (mask != 0) == pass) ||
				    (e->fixed >= 0 && pass == 0))
					continue;
				if (e->fixed < 0 && take_counter(mask, gp, used) < 0)
					return -1;
				strvec_push(seen, e->name);
				strbuf_addf(group, ",%s", e->perf_name);
			}
	return 0;
}

/*
 * The events of the nodes 'ids' behind the leader 'lead' (a table event;
 * NULL: cycles, given a general counter too: the group may hold the
 * fixed cycles event already) as one
 * group ",a,b" in 'group'.  The scheduler gives each formula a group of
 * its own; sampled, they must all be in the leader's, so the union is
 * placed on the counters here.  -1 when it does not fit, or when it holds
 * topdown metric events (only a slots leader may lead those).
 */
static int one_group(const struct td_table *t, const char *ids, const struct td_sched_budget *b,
		     const struct td_event *lead, struct strbuf *group)
{
	struct td_sched_request req = { 0 };
	struct strbuf err = STRBUF_INIT;
	struct strvec seen = STRVEC_INIT;
	unsigned long long used = 0;
	struct td_sched s;
	size_t g;
	int ret = -1;

	req.nodes = ids;
	if (td_sched_build(t, &req, b, &s, &err) < 0) {
		strbuf_release(&err);
		return -1;
	}
	for (g = 0; g < s.nr_groups; g++)
		if (needs_slots_leader(t, &s.groups[g]))
			goto out;
	if (take_counter(lead ? lead->counters : 0, b->gp, &used) < 0)
		goto out;
	if (lead)
		strvec_push(&seen, lead->name); /* the leader counts itself */
	ret = place_events(t, &s, b->gp, &used, &seen, group);
out:
	td_sched_release(&s);
	strvec_clear(&seen);
	strbuf_release(&err);
	return ret;
}

/* "ancestor,...,parent,node": the path from Level 1, whose values the node's flag needs. */
static void node_path(const struct td_table *t, const struct td_metric *m, struct strbuf *ids)
{
	if (m->parent && td_table_find_metric(t, m->parent))
		node_path(t, td_table_find_metric(t, m->parent), ids);
	if (ids->len)
		strbuf_addch(ids, ',');
	strbuf_addstr(ids, m->id);
}

/*
 * "{LEADER,a,b}:S" from the members ",a,b"; without them the leader with
 * cycles, still a group read at each sample (perf reads no group of
 * one), so that a sample weighs what the leader counted since the
 * previous one, as analyze/hotspots-load.c weighs group samples, and
 * each function gets its cycles too.  A cycles leader alone is plain.
 */
static void leader_spec(struct strbuf *events, const char *leader, const struct strbuf *group)
{
	if (!group->len) {
		if (!strcmp(leader, "cycles"))
			strbuf_addstr(events, leader);
		else
			strbuf_addf(events, "{%s,cycles}:S", leader);
		return;
	}
	strbuf_addf(events, "{%s%s}:S", leader, group->buf);
}

/* The node's events in one group: with its path from Level 1 where that fits, else alone. */
static int node_group(const struct td_table *t, const struct td_metric *m, const struct td_sched_budget *b,
		      const struct td_event *lead, struct strbuf *group)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	node_path(t, m, &path);
	ret = one_group(t, path.buf, b, lead, group);
	if (ret < 0) {
		strbuf_reset(group);
		ret = one_group(t, m->id, b, lead, group);
	}
	strbuf_release(&path);
	return ret;
}

void td_drilldown_plan(const struct td_table *t, const char *node_id, const struct td_sched_budget *b,
		       int max_precise, const char *why, struct td_drilldown *out)
{
	struct strbuf group = STRBUF_INIT, leader = STRBUF_INIT;
	const struct td_event *ev;

	memset(out, 0, sizeof(*out));
	strbuf_init(&out->events, 0);
	strbuf_init(&out->note, 0);
	out->node = t && node_id ? td_table_find_metric(t, node_id) : NULL;
	if (!out->node) {
		out->kind = TD_DRILL_CPU_CLOCK;
		out->leader = xstrdup("cpu-clock");
		strbuf_addstr(&out->events, "cpu-clock");
		strbuf_addf(&out->note, "cpu-clock samples instead of a node's events: %s",
			    why ? why : "no Top-Down node to drill into");
		return;
	}
	ev = locate_event(t, out->node);
	if (!ev) {
		/* no event locates it: cycles samples, each carrying the node's counts */
		out->kind = TD_DRILL_CYCLES_GROUP;
		out->leader = xstrdup("cycles");
		if (node_group(t, out->node, b, NULL, &group) < 0)
			strbuf_reset(&group);
		leader_spec(&out->events, "cycles", &group);
		if (out->node->locate_with)
			strbuf_addf(&out->note, "table %s cannot encode %s's locate-with events (%s)",
				    td_table_info(t)->name, out->node->id, out->node->locate_with);
		else
			strbuf_addf(&out->note, "%s has no locate-with event in table %s",
				    out->node->id, td_table_info(t)->name);
		strbuf_addf(&out->note, ": sampled cycles%s, so functions are ranked by cycles, not by the "
			    "node's events", group.len ? " with its events" : " alone (its events cannot join one group behind it)");
		strbuf_release(&group);
		return;
	}
	out->leader = xstrdup(ev->name);
	out->precise = max_precise > 0;
	strbuf_addstr(&leader, ev->perf_name);
	/* named as the table names it, as the scheduler names the members */
	if (leader.buf[leader.len - 1] == '/' && !strstr(leader.buf, "name="))
		add_name_term(&leader, ev->name);
	if (out->precise)
		strbuf_addstr(&leader, ev->perf_name[strlen(ev->perf_name) - 1] == '/' ? "pp" : ":pp");
	else
		strbuf_addf(&out->note, "the PMU has no precise sampling (caps/max_precise 0): %s sampled "
			    "without :pp, so a sample's IP may lie a few instructions past the event",
			    ev->name);
	if (ev->taken_alone) {
		/*
		 * Intel perfmon's TakenAlone: while it is collected the other
		 * programmable counters are unavailable, so none of the node's
		 * events may count beside it; cycles take a fixed counter.
		 */
		out->kind = TD_DRILL_LOCATE_ALONE;
		strbuf_addf(&out->note, "%sIntel marks %s TakenAlone (no other programmable counter may "
			    "count beside it): sampled with cycles only, without the node's value per function",
			    out->note.len ? "; " : "", ev->name);
	} else if (node_group(t, out->node, b, ev, &group) == 0) {
		out->kind = TD_DRILL_LOCATE_GROUP;
	} else {
		out->kind = TD_DRILL_LOCATE_ALONE;
		strbuf_reset(&group);
		strbuf_addf(&out->note, "%s%s's events and %s do not fit one group of counters: %s sampled "
			    "with cycles only, without the node's value per function", out->note.len ? "; " : "",
			    out->node->id, ev->name, ev->name);
	}
	leader_spec(&out->events, leader.buf, &group);
	strbuf_release(&group);
	strbuf_release(&leader);
}

void td_drilldown_release(struct td_drilldown *d)
{
	free(d->leader);
	strbuf_release(&d->events);
	strbuf_release(&d->note);
}

int td_drilldown_count_nodes(const struct td_table *t, const char *node_id, struct strbuf *ids)
{
	const struct td_metric *node = td_table_find_metric(t, node_id);
	size_t i;
	int n = 0;

	if (!node)
		return 0;
	node_path(t, node, ids);
	for (i = 0; i < td_table_nr_metrics(t); i++) {
		const struct td_metric *m = td_table_metric(t, i);

		if (m->level < 1 || !m->parent || strcmp(m->parent, node_id))
			continue;
		strbuf_addf(ids, ",%s", m->id);
		n++;
	}
	return n;
}
