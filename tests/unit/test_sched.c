/*
 * Unit tests for the event scheduler (collect/sched.c), run against every
 * built-in table at every Top-Down depth, with SMT on and off and with
 * the NMI watchdog on and off.  The checks are made independently of the
 * scheduler's own feasibility code:
 *  - no group is over the general-counter budget, and the counters it
 *    printed respect each event's allowed counters and are distinct;
 *  - fixed counters are distinct, extra MSRs are not shared, topdown-*
 *    events sit behind a slots leader, a group has one PMU;
 *  - no event of a measured formula is dropped;
 *  - each formula's events share a group, unless the formula alone
 *    cannot fit one (then it is listed as split);
 *  - no two groups could have been one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "collect/sched.h"
#include "metrics/expr.h"
#include "metrics/table.h"

static int smt_literal(void *ctx, const char *name, double *v)
{
	if (!strcasecmp(name, "#smt_on")) {
		*v = *(int *)ctx;
		return 0;
	}
	return -1;
}

struct names {
	const struct td_table *t;
	char *list[256];
	size_t nr;
	int smt;
};

static int names_is_metric(void *ctx, const char *name)
{
	struct names *n = ctx;

	return td_table_find_metric(n->t, name) != NULL;
}

static void add_name(struct names *n, const char *name)
{
	size_t i;

	for (i = 0; i < n->nr; i++)
		if (!strcasecmp(n->list[i], name))
			return;
	if (n->nr < 256)
		n->list[n->nr++] = strdup(name);
}

static void collect_direct(struct names *n, const struct td_metric *m, int depth);

static void on_name(void *ctx, const char *name, enum td_name_kind kind)
{
	struct names *n = ctx;
	const struct td_metric *m;
	const struct td_event *e;

	if (kind == TD_NAME_LITERAL)
		return;
	if (kind == TD_NAME_METRIC) {
		m = td_table_find_metric(n->t, name);
		/* info metrics are part of the formula; tree nodes are measured on their own */
		if (m && m->level == 0)
			collect_direct(n, m, 1);
		return;
	}
	e = td_table_find_event(n->t, name);
	if (e && e->retire_latency)
		return;
	add_name(n, e ? e->name : name);
}

/* The events a formula itself needs (our own walk, not the scheduler's). */
static void collect_direct(struct names *n, const struct td_metric *m, int depth)
{
	struct td_env env = { smt_literal, &n->smt };

	if (depth > 16 || !m->expr)
		return;
	td_expr_names(m->expr, &env, names_is_metric, n, on_name, n);
}

static void names_release(struct names *n)
{
	size_t i;

	for (i = 0; i < n->nr; i++)
		free(n->list[i]);
	n->nr = 0;
}

static int group_has(const struct td_sched_group *g, const char *name)
{
	size_t e;

	for (e = 0; e < g->nr_events; e++)
		if (!strcasecmp(g->events[e].name, name))
			return 1;
	return 0;
}

static int in_list(char **list, size_t nr, const char *s)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcasecmp(list[i], s))
			return 1;
	return 0;
}

static int needs_gp(const struct td_event *e)
{
	return e->fixed < 0 && e->resource != TD_RES_PERF_METRICS;
}

/* Check one group against the hardware rules; returns its general events. */
static int check_group(const struct td_table *t, const struct td_sched *s,
		       const struct td_sched_group *g, const char *what)
{
	unsigned long long used = 0, fixed_used = 0;
	int gp = 0, res[8] = { 0 }, topdown = 0;
	size_t e;

	for (e = 0; e < g->nr_events; e++) {
		const struct td_event *ev = td_table_find_event(t, g->events[e].name);

		if (!ev)
			fail_msg("%s: group event %s not in the table", what, g->events[e].name);
		if (ev->pmu && strcmp(ev->pmu, g->pmu))
			fail_msg("%s: %s on PMU %s in a %s group", what, ev->name, ev->pmu, g->pmu);
		if (ev->resource == TD_RES_PERF_METRICS) {
			topdown = 1;
			continue;
		}
		if (ev->resource == TD_RES_OFFCORE || ev->resource == TD_RES_LDLAT ||
		    ev->resource == TD_RES_FRONTEND) {
			if (res[ev->resource]++)
				fail_msg("%s: two events share MSR resource %d", what, ev->resource);
		}
		if (ev->fixed >= 0) {
			if (fixed_used & (1ULL << ev->fixed))
				fail_msg("%s: fixed counter %d twice", what, ev->fixed);
			fixed_used |= 1ULL << ev->fixed;
			continue;
		}
		if (needs_gp(ev)) {
			int c = g->events[e].counter;

			gp++;
			if (c < 0 || c >= s->budget.gp)
				fail_msg("%s: %s on counter %d, budget %d", what, ev->name, c, s->budget.gp);
			if (ev->counters && !(ev->counters & (1ULL << c)))
				fail_msg("%s: %s on counter %d, not allowed (mask %llx)", what, ev->name, c,
					 ev->counters);
			if (used & (1ULL << c))
				fail_msg("%s: counter %d used twice", what, c);
			used |= 1ULL << c;
		}
		if (ev->taken_alone && g->nr_events > 1)
			fail_msg("%s: %s must be alone", what, ev->name);
	}
	if (gp > s->budget.gp)
		fail_msg("%s: %d general events for %d counters", what, gp, s->budget.gp);
	if (gp != g->gp_used)
		fail_msg("%s: gp_used %d, counted %d", what, g->gp_used, gp);
	if (topdown) {
		const struct td_event *lead = td_table_find_event(t, g->events[0].name);

		if (!lead || !lead->group_leader)
			fail_msg("%s: topdown events without slots leading", what);
	}
	return gp;
}

static void check_table(const char *name, int level, int smt, int nmi, size_t *groups_out)
{
	const struct td_table *t;
	struct td_sched_request req = { 0 };
	struct td_sched_budget b;
	struct td_sched s;
	struct strbuf err = STRBUF_INIT;
	struct names n = { 0 };
	char what[128];
	size_t g, m, k;

	t = td_table_find(name, &err);
	assert_non_null(t);
	td_sched_default_budget(t, NULL, &b);
	if (b.smt != smt) {
		const struct td_table_info *ti = td_table_info(t);
		int gp = smt ? ti->gp_counters_smt : ti->gp_counters;

		if (gp > 0)
			b.gp = gp;
		b.smt = smt;
	}
	b.nmi_watchdog = nmi;
	b.gp -= nmi;
	req.level = level;
	if (td_sched_build(t, &req, &b, &s, &err) < 0) {
		/* only tables without a tree may refuse a Top-Down request */
		for (m = 0; m < td_table_nr_metrics(t); m++)
			if (td_table_metric(t, m)->level >= 1 && td_table_metric(t, m)->level <= level)
				fail_msg("%s level %d: %s", name, level, err.buf);
		strbuf_release(&err);
		*groups_out = 0;
		return;
	}
	for (g = 0; g < s.nr_groups; g++) {
		snprintf(what, sizeof(what), "%s L%d smt=%d nmi=%d group %zu", name, level, smt, nmi,
			 g + 1);
		check_group(t, &s, &s.groups[g], what);
	}
	n.t = t;
	n.smt = smt;
	for (m = 0; m < s.nr_metrics; m++) {
		const struct td_metric *mt = td_table_find_metric(t, s.metrics[m]);
		int together = 0;

		assert_non_null(mt);
		names_release(&n);
		collect_direct(&n, mt, 0);
		/* no event dropped */
		for (k = 0; k < n.nr; k++) {
			int found = in_list(s.ungrouped, s.nr_ungrouped, n.list[k]);

			for (g = 0; g < s.nr_groups && !found; g++)
				found = group_has(&s.groups[g], n.list[k]);
			if (!found)
				fail_msg("%s L%d: event %s of %s dropped", name, level, n.list[k], mt->id);
		}
		/* formula events together */
		for (g = 0; g < s.nr_groups && !together; g++) {
			int all = 1;

			for (k = 0; k < n.nr && all; k++) {
				const struct td_event *ev = td_table_find_event(t, n.list[k]);

				if (ev)
					all = group_has(&s.groups[g], n.list[k]);
			}
			together = all;
		}
		if (!together && !in_list(s.split, s.nr_split, mt->id))
			fail_msg("%s L%d: %s split but not reported", name, level, mt->id);
		if (!together) {
			/* it really cannot fit: more general events than counters */
			int gp = 0, restricted = 0;

			for (k = 0; k < n.nr; k++) {
				const struct td_event *ev = td_table_find_event(t, n.list[k]);

				gp += ev && needs_gp(ev);
				restricted |= ev && (ev->counters || ev->resource || ev->taken_alone);
			}
			if (gp <= s.budget.gp && !restricted)
				fail_msg("%s L%d: %s has %d general events for %d counters but was split",
					 name, level, mt->id, gp, s.budget.gp);
		}
	}
	/*
	 * As few groups as possible: two groups without restricted events
	 * (counter masks, MSRs, fixed or topdown clashes) whose general
	 * events together fit the budget should have been merged.
	 */
	for (g = 0; g + 1 < s.nr_groups; g++) {
		for (k = g + 1; k < s.nr_groups; k++) {
			size_t e, gp = 0;
			int simple = !strcmp(s.groups[g].pmu, s.groups[k].pmu);
			const struct td_sched_group *pair[2] = { &s.groups[g], &s.groups[k] };
			size_t p;

			for (p = 0; p < 2 && simple; p++) {
				for (e = 0; e < pair[p]->nr_events && simple; e++) {
					const struct td_event *ev = td_table_find_event(t, pair[p]->events[e].name);

					if (ev->counters || ev->resource || ev->taken_alone || ev->fixed >= 0 ||
					    ev->group_leader)
						simple = 0;
					else if (!p || !group_has(pair[0], ev->name))
						gp++;
				}
			}
			if (simple && (int)gp <= s.budget.gp)
				fail_msg("%s L%d: groups %zu and %zu fit together (%zu events)", name, level,
					 g + 1, k + 1, gp);
		}
	}
	*groups_out = s.nr_groups;
	names_release(&n);
	td_sched_release(&s);
	strbuf_release(&err);
}

static void every_table_every_level(void **state)
{
	const char *const *names = td_table_names();
	size_t i, checked = 0;
	int level, smt, nmi;

	(void)state;
	assert_non_null(names);
	for (i = 0; names[i]; i++) {
		for (level = 1; level <= 4; level++) {
			for (smt = 0; smt <= 1; smt++) {
				for (nmi = 0; nmi <= 1; nmi++) {
					size_t groups;

					check_table(names[i], level, smt, nmi, &groups);
					checked++;
				}
			}
		}
	}
	assert_true(i >= 20);
	assert_true(checked >= 20 * 16);
}

/* More counters never need more groups; the watchdog never fewer. */
static void budget_monotonic(void **state)
{
	const char *const *names = td_table_names();
	size_t i;

	(void)state;
	for (i = 0; names[i]; i++) {
		size_t with, without;

		check_table(names[i], 3, 1, 0, &without);
		check_table(names[i], 3, 1, 1, &with);
		if (with < without)
			fail_msg("%s: %zu groups with the watchdog, %zu without", names[i], with, without);
	}
}

/* Hand-checked: Skylake L1 with SMT on is one group of 4 general + 1 fixed. */
static void skylake_level1_is_one_group(void **state)
{
	struct strbuf err = STRBUF_INIT;
	const struct td_table *t = td_table_find("skylake", &err);
	struct td_sched_request req = { .level = 1 };
	struct td_sched_budget b;
	struct td_sched s;

	(void)state;
	assert_non_null(t);
	td_sched_default_budget(t, NULL, &b);
	assert_int_equal(b.gp, 4);
	assert_int_equal(td_sched_build(t, &req, &b, &s, &err), 0);
	assert_int_equal(s.nr_groups, 1);
	assert_int_equal(s.groups[0].gp_used, 4);
	assert_int_equal(s.nr_split, 0);
	td_sched_release(&s);
	/* with the watchdog there are 3 counters: 4 general events need two groups */
	b.gp = 3;
	b.nmi_watchdog = 1;
	assert_int_equal(td_sched_build(t, &req, &b, &s, &err), 0);
	assert_true(s.nr_groups >= 2);
	td_sched_release(&s);
	strbuf_release(&err);
}

/* Sapphire Rapids L2: slots leads the one group holding the topdown events. */
static void sapphirerapids_slots_leads(void **state)
{
	struct strbuf err = STRBUF_INIT, spec = STRBUF_INIT;
	const struct td_table *t = td_table_find("sapphirerapids", &err);
	struct td_sched_request req = { .level = 2 };
	struct td_sched_budget b;
	struct td_sched s;
	size_t g;

	(void)state;
	assert_non_null(t);
	td_sched_default_budget(t, NULL, &b);
	assert_int_equal(td_sched_build(t, &req, &b, &s, &err), 0);
	for (g = 0; g < s.nr_groups; g++) {
		if (group_has(&s.groups[g], "topdown-fe-bound"))
			assert_true(td_table_find_event(t, s.groups[g].events[0].name)->group_leader);
	}
	td_sched_group_spec(&s, -1, &spec);
	assert_non_null(strstr(spec.buf, "{cpu/event=0x0,umask=0x4,name=TOPDOWN.SLOTS/"));
	td_sched_release(&s);
	strbuf_release(&spec);
	strbuf_release(&err);
}

static void unknown_names_are_errors(void **state)
{
	struct strbuf err = STRBUF_INIT;
	const struct td_table *t = td_table_find("skylake", &err);
	struct td_sched_request req = { .level = 0, .nodes = "no_such_node" };
	struct td_sched_budget b;
	struct td_sched s;

	(void)state;
	td_sched_default_budget(t, NULL, &b);
	assert_int_equal(td_sched_build(t, &req, &b, &s, &err), -1);
	assert_non_null(strstr(err.buf, "no_such_node"));
	strbuf_reset(&err);
	req.nodes = NULL;
	req.metrics = "nope";
	assert_int_equal(td_sched_build(t, &req, &b, &s, &err), -1);
	assert_non_null(strstr(err.buf, "nope"));
	strbuf_reset(&err);
	req.metrics = NULL;
	req.stacks = "nostack";
	assert_int_equal(td_sched_build(t, &req, &b, &s, &err), -1);
	assert_non_null(strstr(err.buf, "nostack"));
	strbuf_release(&err);
}

/* --nodes brings the node's ancestors (their thresholds gate it). */
static void nodes_bring_parents(void **state)
{
	struct strbuf err = STRBUF_INIT;
	const struct td_table *t = td_table_find("skylake", &err);
	struct td_sched_request req = { .level = 0, .nodes = "memory_bound" };
	struct td_sched_budget b;
	struct td_sched s;

	(void)state;
	td_sched_default_budget(t, NULL, &b);
	assert_int_equal(td_sched_build(t, &req, &b, &s, &err), 0);
	assert_true(in_list(s.metrics, s.nr_metrics, "memory_bound"));
	assert_true(in_list(s.metrics, s.nr_metrics, "backend_bound"));
	td_sched_release(&s);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_table_every_level),
		cmocka_unit_test(budget_monotonic),
		cmocka_unit_test(skylake_level1_is_one_group),
		cmocka_unit_test(sapphirerapids_slots_leads),
		cmocka_unit_test(unknown_names_are_errors),
		cmocka_unit_test(nodes_bring_parents),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
