/*
 * The event scheduler: from what the user asks (Top-Down depth, nodes,
 * info metrics, stacks) to the events each formula needs, to perf event
 * groups that fit the counters.
 *
 * Why groups: perf time-shares (multiplexes) the counters between groups
 * and scales each count by enabled/running time.  A ratio of two events
 * is only sound when both were counted over the same time, so all events
 * of one formula go into one group whenever they fit.  Groups must fit
 * the hardware: general counters (fewer with SMT on, one fewer while the
 * NMI watchdog holds one), per-event counter restrictions, fixed counters
 * (which cost no general counter), one user per extra MSR (offcore
 * response, load latency, frontend) in a group, 'slots' leading the
 * topdown-* metrics events, and one PMU per group on hybrid parts.
 *
 * Placement is first-fit decreasing with best fit: formulas with the most
 * general-counter events first, each into the existing group it adds the
 * fewest events to, a new group when none can take it; then groups whose
 * union fits are merged.  A formula too large for any group is split
 * over groups and reported.
 */
#include "collect/cpu.h"
#include "collect/sched.h"
#include "metrics/expr.h"
#include "metrics/table.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_GROUP_EVENTS 64

/* A set of table events (indices), kept sorted. */
struct evset {
	size_t *ev;
	size_t nr, alloc;
};

static int evset_has(const struct evset *s, size_t e)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (s->ev[i] == e)
			return 1;
	return 0;
}

static void evset_add(struct evset *s, size_t e)
{
	size_t i;

	if (evset_has(s, e))
		return;
	TD_GROW(s->ev, s->alloc, s->nr + 1);
	for (i = s->nr; i > 0 && s->ev[i - 1] > e; i--)
		s->ev[i] = s->ev[i - 1];
	s->ev[i] = e;
	s->nr++;
}

static void evset_release(struct evset *s)
{
	free(s->ev);
	memset(s, 0, sizeof(*s));
}

/* One formula to place: a metric and the events it needs. */
struct unit {
	const struct td_metric *metric;
	struct evset events;
	size_t gp;               /* events needing a general counter */
};

/* A group being built. */
struct group {
	const char *pmu;
	struct evset events;
	int assign[MAX_GROUP_EVENTS]; /* counter per event (parallel to events) */
	const struct td_metric **metrics;
	size_t nr_metrics, alloc_metrics;
};

struct sched_ctx {
	const struct td_table *table;
	const struct td_sched_budget *budget;
	struct unit *units;
	size_t nr_units, alloc_units;
	struct group *groups;
	size_t nr_groups, alloc_groups;
	char **ungrouped;
	size_t nr_ungrouped, alloc_ungrouped;
	char **warnings;
	size_t nr_warnings, alloc_warnings;
	char **split;
	size_t nr_split, alloc_split;
	const struct td_metric **chosen;
	size_t nr_chosen, alloc_chosen;
	size_t leader;           /* table index of the slots event, or (size_t)-1 */
	struct strbuf *err;
	int failed;
};

static void add_string(char ***arr, size_t *nr, size_t *alloc, const char *s)
{
	size_t i;

	for (i = 0; i < *nr; i++)
		if (!strcmp((*arr)[i], s))
			return;
	TD_GROW(*arr, *alloc, *nr + 1);
	(*arr)[(*nr)++] = xstrdup(s);
}

static void warn(struct sched_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct sched_ctx *c, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	add_string(&c->warnings, &c->nr_warnings, &c->alloc_warnings, sb.buf);
	strbuf_release(&sb);
}

static const struct td_event *ev_at(const struct sched_ctx *c, size_t i)
{
	return td_table_event(c->table, i);
}

static int needs_gp(const struct td_event *e)
{
	return e->fixed < 0 && e->resource != TD_RES_PERF_METRICS;
}

/* General counters an event may use under the budget. */
static unsigned long long allowed_counters(const struct sched_ctx *c, const struct td_event *e)
{
	unsigned long long all = c->budget->gp >= 64 ? ~0ULL : (1ULL << c->budget->gp) - 1;

	return e->counters ? e->counters & all : all;
}

/* ---------------- feasibility of a set of events as one group ---------------- */

/* Kuhn's augmenting path: try to give event k a counter. */
static int augment(const struct sched_ctx *c, const size_t *gp, size_t k, int *owner, int *seen,
		   int *assign)
{
	unsigned long long mask = allowed_counters(c, ev_at(c, gp[k]));
	int ctr;

	for (ctr = 0; ctr < 64 && ctr < c->budget->gp; ctr++) {
		if (!(mask & (1ULL << ctr)) || seen[ctr])
			continue;
		seen[ctr] = 1;
		if (owner[ctr] < 0 || augment(c, gp, (size_t)owner[ctr], owner, seen, assign)) {
			owner[ctr] = (int)k;
			assign[k] = ctr;
			return 1;
		}
	}
	return 0;
}

/*
 * Can the events of 's' be one group?  When they can and 'assign' is not
 * NULL, assign[i] gets the counter of s->ev[i] (-1 for fixed / metrics
 * events).  'why' (may be NULL) gets the first reason they cannot.
 */
static int set_fits(const struct sched_ctx *c, const struct evset *s, int *assign,
		    struct strbuf *why)
{
	size_t gp[MAX_GROUP_EVENTS], pos[MAX_GROUP_EVENTS], ngp = 0, i;
	int owner[64], seen[64], res[8] = { 0 }, fixed_owner[64];
	int have_topdown = 0, have_leader = 0, alone = 0;
	const char *pmu = NULL;

	if (s->nr > MAX_GROUP_EVENTS) {
		if (why)
			strbuf_addstr(why, "too many events");
		return 0;
	}
	for (i = 0; i < 64; i++)
		owner[i] = fixed_owner[i] = -1;
	for (i = 0; i < s->nr; i++) {
		const struct td_event *e = ev_at(c, s->ev[i]);

		if (pmu && e->pmu && strcmp(pmu, e->pmu)) {
			if (why)
				strbuf_addf(why, "%s is on PMU %s, not %s", e->name, e->pmu, pmu);
			return 0;
		}
		if (e->pmu)
			pmu = e->pmu;
		alone |= e->taken_alone;
		have_leader |= e->group_leader;
		if (e->resource == TD_RES_PERF_METRICS) {
			have_topdown = 1;
			continue;
		}
		if (e->resource == TD_RES_OFFCORE || e->resource == TD_RES_LDLAT ||
		    e->resource == TD_RES_FRONTEND) {
			if (res[e->resource]++) {
				if (why)
					strbuf_addf(why, "%s shares its MSR with another event", e->name);
				return 0;
			}
		}
		if (e->fixed >= 0) {
			if (e->fixed < 64 && fixed_owner[e->fixed] >= 0) {
				if (why)
					strbuf_addf(why, "%s needs fixed counter %d, already taken",
						    e->name, e->fixed);
				return 0;
			}
			if (e->fixed < 64)
				fixed_owner[e->fixed] = (int)i;
			continue;
		}
		pos[ngp] = i;
		gp[ngp++] = s->ev[i];
	}
	if (alone && s->nr > 1) {
		if (why)
			strbuf_addstr(why, "an event that must be counted alone");
		return 0;
	}
	if (have_topdown && !have_leader && c->leader == (size_t)-1) {
		if (why)
			strbuf_addstr(why, "topdown metrics events without a slots event in the table");
		return 0;
	}
	if ((int)ngp > c->budget->gp) {
		if (why)
			strbuf_addf(why, "%zu events for %d general counters", ngp, c->budget->gp);
		return 0;
	}
	{
		int a[MAX_GROUP_EVENTS];

		for (i = 0; i < ngp; i++) {
			memset(seen, 0, sizeof(seen));
			if (!augment(c, gp, i, owner, seen, a)) {
				if (why)
					strbuf_addf(why, "no counter left that %s may use",
						    ev_at(c, gp[i])->name);
				return 0;
			}
		}
		if (assign) {
			for (i = 0; i < s->nr; i++)
				assign[i] = -1;
			for (i = 0; i < 64 && (int)i < c->budget->gp; i++)
				if (owner[i] >= 0)
					assign[pos[owner[i]]] = (int)i;
		}
	}
	return 1;
}

/* The union of a group and a unit, with slots added for topdown events. */
static void union_set(const struct sched_ctx *c, const struct evset *a, const struct evset *b,
		      struct evset *out)
{
	size_t i;
	int topdown = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < a->nr; i++)
		evset_add(out, a->ev[i]);
	for (i = 0; i < b->nr; i++)
		evset_add(out, b->ev[i]);
	for (i = 0; i < out->nr; i++)
		topdown |= ev_at(c, out->ev[i])->resource == TD_RES_PERF_METRICS;
	if (topdown && c->leader != (size_t)-1)
		evset_add(out, c->leader);
}

static void group_add_metric(struct group *g, const struct td_metric *m)
{
	size_t i;

	for (i = 0; i < g->nr_metrics; i++)
		if (g->metrics[i] == m)
			return;
	TD_GROW(g->metrics, g->alloc_metrics, g->nr_metrics + 1);
	g->metrics[g->nr_metrics++] = m;
}

static struct group *new_group(struct sched_ctx *c, const char *pmu)
{
	struct group *g;

	TD_GROW(c->groups, c->alloc_groups, c->nr_groups + 1);
	g = &c->groups[c->nr_groups++];
	memset(g, 0, sizeof(*g));
	g->pmu = pmu;
	return g;
}

/* ---------------- which metrics, which events ---------------- */

struct names_ctx {
	struct sched_ctx *c;
	struct evset *set;
	const struct td_metric *metric;
	int depth;
};

static int is_metric(void *ctx, const char *name)
{
	struct names_ctx *n = ctx;

	return td_table_find_metric(n->c->table, name) != NULL;
}

static int lookup_literal(void *ctx, const char *name, double *value)
{
	const struct sched_ctx *c = ctx;

	if (!strcasecmp(name, "#smt_on")) {
		*value = c->budget->smt ? 1 : 0;
		return 0;
	}
	return -1;
}

static void collect_events(struct sched_ctx *c, const struct td_metric *m, struct evset *set,
			   int depth);
static void choose(struct sched_ctx *c, const struct td_metric *m);

static void on_name(void *ctx, const char *name, enum td_name_kind kind)
{
	struct names_ctx *n = ctx;
	struct sched_ctx *c = n->c;
	const struct td_event *e;
	size_t i;

	if (kind == TD_NAME_LITERAL)
		return;
	if (kind == TD_NAME_METRIC) {
		const struct td_metric *m = td_table_find_metric(c->table, name);

		if (!m)
			return;
		/*
		 * A Top-Down node used in a formula (Memory Bound = ratio x
		 * Backend Bound) is a fraction measured consistently in its own
		 * group; only the ratio's events must share one.  Info metrics
		 * used as normalizers (CLKS, SLOTS) are part of the ratio.
		 */
		if (m->level >= 1)
			choose(c, m);
		else
			collect_events(c, m, n->set, n->depth + 1);
		return;
	}
	if (!strcasecmp(name, "duration_time")) {
		add_string(&c->ungrouped, &c->nr_ungrouped, &c->alloc_ungrouped, "duration_time");
		return;
	}
	e = td_table_find_event(c->table, name);
	if (e && e->retire_latency) {
		/* sampled, not counted: the evaluator uses the table's default */
		warn(c, "%s: %s is a retire latency (sampled, not counted); the table's default "
		     "value is used", n->metric->id, e->name);
		return;
	}
	if (!e) {
		/* never dropped: counted outside groups, and said so */
		add_string(&c->ungrouped, &c->nr_ungrouped, &c->alloc_ungrouped, name);
		warn(c, "%s: event '%s' is not described in table %s; counted outside groups",
		     n->metric->id, name, td_table_info(c->table)->name);
		return;
	}
	for (i = 0; i < td_table_nr_events(c->table); i++) {
		if (ev_at(c, i) == e) {
			evset_add(n->set, i);
			break;
		}
	}
}

/* Add the events of m's formula (and of the metrics it uses) to set. */
static void collect_events(struct sched_ctx *c, const struct td_metric *m, struct evset *set,
			   int depth)
{
	struct names_ctx n = { c, set, m, depth };
	struct td_env env = { lookup_literal, c };

	if (depth > 32 || !m->expr)
		return;
	td_expr_names(m->expr, &env, is_metric, &n, on_name, &n);
}

static void choose(struct sched_ctx *c, const struct td_metric *m)
{
	size_t i;

	for (i = 0; i < c->nr_chosen; i++)
		if (c->chosen[i] == m)
			return;
	TD_GROW(c->chosen, c->alloc_chosen, c->nr_chosen + 1);
	c->chosen[c->nr_chosen++] = m;
}

/* A node and its ancestors (their thresholds gate it). */
static void choose_with_parents(struct sched_ctx *c, const struct td_metric *m)
{
	int guard = 0;

	while (m && guard++ < 32) {
		choose(c, m);
		m = m->parent ? td_table_find_metric(c->table, m->parent) : NULL;
	}
}

/* Does metric m belong to stack 'stack' (by its groups or area)? */
static int in_stack(const struct td_metric *m, const char *stack)
{
	const char *lists[2] = { m->groups, m->area };
	size_t l;

	for (l = 0; l < 2; l++) {
		const char *p = lists[l];

		while (p && *p) {
			size_t len = strcspn(p, ";, ");
			size_t sl = strlen(stack);

			if (len) {
				/* "cpi", "Stack.cpi", "Stack_CPI", "cpi_stack", "CpiStack" */
				if ((len == sl && !strncasecmp(p, stack, sl)) ||
				    (len == sl + 6 && (!strncasecmp(p, "stack.", 6) ||
						       !strncasecmp(p, "stack_", 6)) &&
				     !strncasecmp(p + 6, stack, sl)) ||
				    (len == sl + 6 && !strncasecmp(p, stack, sl) &&
				     !strncasecmp(p + sl, "_stack", 6)) ||
				    (len == sl + 5 && !strncasecmp(p, stack, sl) &&
				     !strncasecmp(p + sl, "stack", 5)))
					return 1;
			}
			p += len;
			while (*p == ';' || *p == ',' || *p == ' ')
				p++;
		}
	}
	return 0;
}

int td_sched_metric_in_stack(const struct td_metric *m, const char *stack)
{
	return in_stack(m, stack);
}

/* Calls fn for each comma-separated item of list; stops on error. */
static int for_each_item(struct sched_ctx *c, const char *list,
			 int (*fn)(struct sched_ctx *c, const char *item))
{
	char *copy = xstrdup(list), *tok, *save = NULL;
	int ret = 0;

	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		while (isspace((unsigned char)*tok))
			tok++;
		if (*tok)
			ret = fn(c, tok);
	}
	free(copy);
	return ret;
}

static int choose_node(struct sched_ctx *c, const char *id)
{
	const struct td_metric *m = td_table_find_metric(c->table, id);

	if (!m || m->level < 1) {
		strbuf_addf(c->err, "--nodes: table %s has no Top-Down node '%s' (tdperf list --cpu %s "
			    "shows them)", td_table_info(c->table)->name, id,
			    td_table_info(c->table)->name);
		return -1;
	}
	choose_with_parents(c, m);
	return 0;
}

static int choose_metric(struct sched_ctx *c, const char *id)
{
	const struct td_metric *m = td_table_find_metric(c->table, id);

	if (!m) {
		strbuf_addf(c->err, "--metrics: table %s has no metric '%s'",
			    td_table_info(c->table)->name, id);
		return -1;
	}
	choose(c, m);
	return 0;
}

static int choose_stack(struct sched_ctx *c, const char *stack)
{
	size_t i, found = 0;

	for (i = 0; i < td_table_nr_metrics(c->table); i++) {
		const struct td_metric *m = td_table_metric(c->table, i);

		if (in_stack(m, stack)) {
			choose(c, m);
			found++;
		}
	}
	if (!found) {
		strbuf_addf(c->err, "--stacks: table %s has no metric for stack '%s' (stacks: cpi, "
			    "multistage, flops, frontend where the table has them)",
			    td_table_info(c->table)->name, stack);
		return -1;
	}
	return 0;
}

static int choose_metrics(struct sched_ctx *c, const struct td_sched_request *req)
{
	size_t i;

	if (req->level > 0) {
		for (i = 0; i < td_table_nr_metrics(c->table); i++) {
			const struct td_metric *m = td_table_metric(c->table, i);

			if (m->level >= 1 && m->level <= req->level)
				choose(c, m);
		}
	}
	if (req->nodes && for_each_item(c, req->nodes, choose_node) < 0)
		return -1;
	if (req->metrics && for_each_item(c, req->metrics, choose_metric) < 0)
		return -1;
	if (req->stacks && for_each_item(c, req->stacks, choose_stack) < 0)
		return -1;
	if (!c->nr_chosen) {
		if (!td_table_has_tree(c->table))
			strbuf_addf(c->err, "table %s has no Top-Down tree: ask for info metrics with "
				    "--metrics (tdperf list --cpu %s --info shows them)",
				    td_table_info(c->table)->name, td_table_info(c->table)->name);
		else
			strbuf_addf(c->err, "nothing to measure: table %s has no metric for what "
				    "was asked", td_table_info(c->table)->name);
		return -1;
	}
	return 0;
}

static int cmp_units(const void *a, const void *b)
{
	const struct unit *x = a, *y = b;

	if (x->gp != y->gp)
		return x->gp > y->gp ? -1 : 1;
	if (x->events.nr != y->events.nr)
		return x->events.nr > y->events.nr ? -1 : 1;
	return strcmp(x->metric->id, y->metric->id);
}

/* ---------------- placement ---------------- */

static size_t count_gp(const struct sched_ctx *c, const struct evset *s)
{
	size_t i, n = 0;

	for (i = 0; i < s->nr; i++)
		n += needs_gp(ev_at(c, s->ev[i]));
	return n;
}

/* Place single events of a formula that fits no group on its own. */
static void place_split(struct sched_ctx *c, struct unit *u)
{
	size_t i, g;

	add_string(&c->split, &c->nr_split, &c->alloc_split, u->metric->id);
	for (i = 0; i < u->events.nr; i++) {
		struct evset one = { 0 }, uni;
		int placed = 0;

		evset_add(&one, u->events.ev[i]);
		for (g = 0; g < c->nr_groups && !placed; g++) {
			if (evset_has(&c->groups[g].events, u->events.ev[i])) {
				placed = 1;
				break;
			}
			union_set(c, &c->groups[g].events, &one, &uni);
			if (set_fits(c, &uni, NULL, NULL)) {
				evset_release(&c->groups[g].events);
				c->groups[g].events = uni;
				placed = 1;
			} else {
				evset_release(&uni);
			}
		}
		if (!placed) {
			struct strbuf why = STRBUF_INIT;

			union_set(c, &(struct evset){ 0 }, &one, &uni);
			if (set_fits(c, &uni, NULL, &why)) {
				struct group *ng = new_group(c, ev_at(c, u->events.ev[i])->pmu);

				ng->events = uni;
			} else {
				strbuf_addf(c->err, "event %s (of %s) fits no counter: %s",
					    ev_at(c, u->events.ev[i])->name, u->metric->id, why.buf);
				c->failed = 1;
				evset_release(&uni);
			}
			strbuf_release(&why);
		}
		evset_release(&one);
	}
}

static void place_unit(struct sched_ctx *c, struct unit *u)
{
	struct evset best_set = { 0 }, alone;
	size_t g, best = (size_t)-1, best_added = (size_t)-1;
	struct strbuf why = STRBUF_INIT;

	if (!u->events.nr)
		return;
	union_set(c, &(struct evset){ 0 }, &u->events, &alone);
	if (!set_fits(c, &alone, NULL, &why)) {
		warn(c, "%s: its %zu events do not fit one group (%s); split over groups, its "
		     "ratio mixes counting windows", u->metric->id, u->events.nr, why.buf);
		evset_release(&alone);
		strbuf_release(&why);
		place_split(c, u);
		return;
	}
	strbuf_release(&why);
	for (g = 0; g < c->nr_groups; g++) {
		struct evset uni;
		size_t added;

		union_set(c, &c->groups[g].events, &u->events, &uni);
		added = uni.nr - c->groups[g].events.nr;
		if (added < best_added && set_fits(c, &uni, NULL, NULL)) {
			evset_release(&best_set);
			best_set = uni;
			best = g;
			best_added = added;
			if (!added)
				break;
		} else {
			evset_release(&uni);
		}
	}
	if (best == (size_t)-1) {
		struct group *ng = new_group(c, ev_at(c, u->events.ev[0])->pmu);

		ng->events = alone;
		group_add_metric(ng, u->metric);
		return;
	}
	evset_release(&alone);
	evset_release(&c->groups[best].events);
	c->groups[best].events = best_set;
	group_add_metric(&c->groups[best], u->metric);
}

/*
 * Arm: the Level 1 formulas share their events (STALL_SLOT, OP_SPEC,
 * OP_RETIRED, CPU_CYCLES) and one of them can be the remainder of the
 * others (AmpereOne's Frontend Bound, hip08's Backend Bound), so all of
 * Level 1 is placed first as one group when it fits: the four shares
 * then come from one counting window and sum to 100 %.
 */
static void place_level1_together(struct sched_ctx *c)
{
	const char *vendor = td_table_info(c->table)->vendor;
	struct unit all = { 0 };
	struct evset uni;
	size_t i;

	if (!vendor || strcmp(vendor, "ARM"))
		return;
	for (i = 0; i < c->nr_units; i++) {
		if (c->units[i].metric->level != 1)
			continue;
		if (!all.metric)
			all.metric = c->units[i].metric;
		union_set(c, &all.events, &c->units[i].events, &uni);
		evset_release(&all.events);
		all.events = uni;
	}
	if (all.metric && set_fits(c, &all.events, NULL, NULL))
		place_unit(c, &all);
	evset_release(&all.events);
}

/* Merge groups whose union still fits: fewer groups, less multiplexing. */
static void merge_groups(struct sched_ctx *c)
{
	size_t a, b, m;
	int merged = 1;

	while (merged) {
		merged = 0;
		for (a = 0; a < c->nr_groups && !merged; a++) {
			for (b = a + 1; b < c->nr_groups && !merged; b++) {
				struct evset uni;

				union_set(c, &c->groups[a].events, &c->groups[b].events, &uni);
				if (!set_fits(c, &uni, NULL, NULL)) {
					evset_release(&uni);
					continue;
				}
				evset_release(&c->groups[a].events);
				c->groups[a].events = uni;
				for (m = 0; m < c->groups[b].nr_metrics; m++)
					group_add_metric(&c->groups[a], c->groups[b].metrics[m]);
				evset_release(&c->groups[b].events);
				free(c->groups[b].metrics);
				memmove(&c->groups[b], &c->groups[b + 1],
					(c->nr_groups - b - 1) * sizeof(*c->groups));
				c->nr_groups--;
				merged = 1;
			}
		}
	}
}

/* ---------------- output ---------------- */

/* Order inside a group: the leader (slots), fixed, general, metrics events. */
static int event_rank(const struct td_event *e)
{
	if (e->group_leader)
		return 0;
	if (e->fixed >= 0)
		return 1;
	if (e->resource == TD_RES_PERF_METRICS)
		return 3;
	return 2;
}

/*
 * How perf is asked for an event: the table's encoding, with a name= term
 * added to raw encodings so that perf prints the event's own name
 * (INST_RETIRED.ANY, not cpu/event=0xc0,umask=0x0/) and recognizes
 * TOPDOWN.SLOTS as the slots event that leads topdown groups.
 */
/*
 * The name perf is given for a table event with counter modifiers,
 * "cpu@UOPS_DECODED.DEC0,cmask=1@" -> "UOPS_DECODED.DEC0:c1" (PMU prefixed
 * on hybrid PMUs and big.LITTLE clusters): perf prints a quoted name= term
 * as it is, and the stat
 * reader takes :cN/:eN/:iN/:uN back as those terms.  NULL when the name
 * has other terms, which no suffix spells.
 */
static char *modifier_name(const char *escaped, const char *cluster_pmu)
{
	struct strbuf sb = STRBUF_INIT, plain = STRBUF_INIT;
	const char *name, *at, *end, *t;
	size_t len;

	for (t = escaped; *t; t++)  /* the formula dialect escapes ',' and '=' */
		if (*t != '\\')
			strbuf_addch(&plain, *t);
	name = plain.buf;
	len = plain.len;
	at = strchr(name, '@');
	if (!at || len < 4 || name[len - 1] != '@' || at == name + len - 1) {
		strbuf_release(&plain);
		return NULL;
	}
	end = name + len - 1;
	t = at + 1 + strcspn(at + 1, ",@");
	if (!strncmp(name, "cpu_core@", 9) || !strncmp(name, "cpu_atom@", 9))
		strbuf_addf(&sb, "%.8s.", name);
	else if (cluster_pmu)
		strbuf_addf(&sb, "%s.", cluster_pmu);
	strbuf_add(&sb, at + 1, (size_t)(t - at - 1));
	while (t < end) {
		const char *v = t + 1, *next = v + strcspn(v, ",@");
		size_t klen = strcspn(v, "=,@");
		const char *val = v[klen] == '=' ? v + klen + 1 : "1";
		size_t vlen = v[klen] == '=' ? (size_t)(next - val) : 1;
		char c = !strncmp(v, "cmask", klen) ? 'c' : !strncmp(v, "edge", klen) ? 'e' :
			 !strncmp(v, "inv", klen) ? 'i' : !strncmp(v, "umask", klen) ? 'u' : 0;

		if (!c || klen < 3 || !vlen ||
		    strspn(val, "0123456789abcdefABCDEFx") < vlen) {
			strbuf_release(&sb);
			strbuf_release(&plain);
			return NULL;
		}
		strbuf_addf(&sb, ":%c%.*s", c, (int)vlen, val);
		t = next;
	}
	strbuf_release(&plain);
	return strbuf_detach(&sb, NULL);
}

static char *perf_spelling(const struct sched_ctx *c, const struct td_event *e)
{
	const char *p = e->perf_name ? e->perf_name : e->name;
	size_t len = strlen(p), plen = e->pmu ? strlen(e->pmu) : 0;
	struct strbuf sb = STRBUF_INIT, renamed = STRBUF_INIT;
	char *mod;

	/* Arm: the table says armv8_pmuv3_0, this machine may call its PMU otherwise */
	if (c->budget->pmu_name && plen && !strncmp(p, e->pmu, plen) && p[plen] == '/') {
		strbuf_addf(&renamed, "%s%s", c->budget->pmu_name, p + plen);
		p = renamed.buf;
		len = renamed.len;
	}

	if (len > 2 && p[len - 1] == '/' && strchr(p, '=') && !strstr(p, "name=") && e->name &&
	    (mod = modifier_name(e->name, c->budget->name_pmu ? c->budget->pmu_name : NULL))) {
		strbuf_add(&sb, p, len - 1);
		strbuf_addf(&sb, ",name='%s'/", mod);
		free(mod);
		strbuf_release(&renamed);
		return strbuf_detach(&sb, NULL);
	}

	if (len > 2 && p[len - 1] == '/' && strchr(p, '/') < p + len - 1 &&
	    strchr(p, '=') && !strstr(p, "name=") && e->name &&
	    strspn(e->name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.") ==
		    strlen(e->name)) {
		strbuf_add(&sb, p, len - 1);
		/*
		 * Hybrid PMUs have events of the same name (INST_RETIRED.ANY on
		 * both): the name carries the PMU, "cpu_atom.INST_RETIRED.ANY",
		 * which the perf stat parser reads back as PMU + event.
		 */
		if (!strncmp(p, "cpu_core/", 9) || !strncmp(p, "cpu_atom/", 9))
			strbuf_addf(&sb, ",name=%.8s.%s/", p, e->name);
		else if (c->budget->name_pmu && c->budget->pmu_name)
			strbuf_addf(&sb, ",name=%s.%s/", c->budget->pmu_name, e->name);
		else
			strbuf_addf(&sb, ",name=%s/", e->name);
		strbuf_release(&renamed);
		return strbuf_detach(&sb, NULL);
	}
	strbuf_addstr(&sb, p);
	strbuf_release(&renamed);
	return strbuf_detach(&sb, NULL);
}

static void export_group(struct sched_ctx *c, struct group *g, struct td_sched_group *out)
{
	int assign[MAX_GROUP_EVENTS];
	size_t i, n = 0;
	int rank;

	set_fits(c, &g->events, assign, NULL);
	memset(out, 0, sizeof(*out));
	out->pmu = g->pmu ? g->pmu : td_table_info(c->table)->pmu;
	if (c->budget->name_pmu && c->budget->pmu_name)
		out->pmu = c->budget->pmu_name;
	if (!out->pmu)
		out->pmu = "cpu";
	out->events = xcalloc(g->events.nr, sizeof(*out->events));
	for (rank = 0; rank <= 3; rank++) {
		for (i = 0; i < g->events.nr; i++) {
			const struct td_event *e = ev_at(c, g->events.ev[i]);
			struct td_sched_event *o;

			if (event_rank(e) != rank)
				continue;
			o = &out->events[n++];
			o->name = xstrdup(e->name);
			o->perf_name = perf_spelling(c, e);
			o->pmu = e->pmu;
			o->fixed = e->fixed;
			o->counter = assign[i];
			out->gp_used += needs_gp(e);
		}
	}
	out->nr_events = n;
	out->metrics = xcalloc(g->nr_metrics + 1, sizeof(*out->metrics));
	for (i = 0; i < g->nr_metrics; i++)
		out->metrics[i] = xstrdup(g->metrics[i]->id);
	out->nr_metrics = g->nr_metrics;
}

static void ctx_release(struct sched_ctx *c)
{
	size_t i;

	for (i = 0; i < c->nr_units; i++)
		evset_release(&c->units[i].events);
	free(c->units);
	for (i = 0; i < c->nr_groups; i++) {
		evset_release(&c->groups[i].events);
		free(c->groups[i].metrics);
	}
	free(c->groups);
	free(c->chosen);
}

/*
 * Arm: the core PMU is armv8_pmuv3_0 on ACPI servers, armv8_pmuv3 or
 * armv8_<core> (armv8_neoverse_n1, armv8_cortex_a76) where the device
 * tree names it; the table's events are asked for on this machine's
 * one.  On big.LITTLE systems it is the PMU of the cluster of the CPU
 * detected (ci->cpuid); tdperf record counts the other clusters on
 * theirs.  NULL when the names agree or nothing is known.
 */
static const char *arm_pmu_name(const struct td_table_info *ti, const struct td_cpu_info *ci)
{
	size_t i;

	if (!ci || !ti->vendor || strcmp(ti->vendor, "ARM") || !ti->pmu)
		return NULL;
	/* the cluster's PMU first: ACPI names them armv8_pmuv3_0, _1, ... */
	for (i = 0; i < ci->nr_pmus; i++)
		if (ci->cpuid && ci->pmus[i].cpuid && !strcmp(ci->pmus[i].cpuid, ci->cpuid))
			return ci->pmus[i].name;
	for (i = 0; i < ci->nr_pmus; i++)
		if (ci->pmus[i].core && !strcmp(ci->pmus[i].name, ti->pmu))
			return NULL;
	for (i = 0; i < ci->nr_pmus; i++)
		if (ci->pmus[i].core && td_arm_is_core_pmu(ci->pmus[i].name))
			return ci->pmus[i].name;
	return NULL;
}

void td_sched_default_budget(const struct td_table *table, const struct td_cpu_info *ci,
			     struct td_sched_budget *b)
{
	const struct td_table_info *ti = td_table_info(table);

	memset(b, 0, sizeof(*b));
	b->smt = ci && ci->smt != TD_UNKNOWN ? ci->smt : 1;
	b->nmi_watchdog = ci && ci->nmi_watchdog == 1 ? 1 : 0;
	if (ci && ci->gp_counters != TD_UNKNOWN && ci->counters_source &&
	    !strcmp(ci->counters_source, "cpuid")) {
		b->gp = ci->gp_counters;
		b->fixed = ci->fixed_counters;
		b->gp_source = "cpuid";
	} else {
		b->gp = b->smt ? ti->gp_counters_smt : ti->gp_counters;
		b->fixed = ti->fixed_counters;
		b->gp_source = "table";
	}
	if (b->gp <= 0) {
		/*
		 * The table does not say (AMD tables come from pmu-events, which
		 * has no counter counts): every AMD core PMU since family 15h
		 * has 6 general counters and no fixed ones; 4 is the
		 * architectural minimum on Intel.
		 */
		int amd = ti->vendor && !strcmp(ti->vendor, "AuthenticAMD");

		b->gp = amd ? 6 : 4;
		b->fixed = amd ? 0 : 3;
		b->gp_source = amd ? "assumed: 6 on AMD cores, the table has none"
				   : "assumed: 4, the table has none";
	}
	b->gp -= b->nmi_watchdog;
	if (b->gp < 1)
		b->gp = 1;
	b->pmu_name = arm_pmu_name(ti, ci);
}

int td_sched_build(const struct td_table *table, const struct td_sched_request *req,
		   const struct td_sched_budget *budget, struct td_sched *out, struct strbuf *err)
{
	struct sched_ctx c;
	size_t i;

	memset(out, 0, sizeof(*out));
	memset(&c, 0, sizeof(c));
	c.table = table;
	c.budget = budget;
	c.err = err;
	c.leader = (size_t)-1;
	for (i = 0; i < td_table_nr_events(table); i++)
		if (td_table_event(table, i)->group_leader && c.leader == (size_t)-1)
			c.leader = i;

	if (choose_metrics(&c, req) < 0)
		goto fail;
	for (i = 0; i < c.nr_chosen; i++) {
		struct unit *u;

		TD_GROW(c.units, c.alloc_units, c.nr_units + 1);
		u = &c.units[c.nr_units++];
		memset(u, 0, sizeof(*u));
		u->metric = c.chosen[i];
		collect_events(&c, u->metric, &u->events, 0);
		u->gp = count_gp(&c, &u->events);
	}
	qsort(c.units, c.nr_units, sizeof(*c.units), cmp_units);
	place_level1_together(&c);
	for (i = 0; i < c.nr_units && !c.failed; i++)
		place_unit(&c, &c.units[i]);
	if (c.failed)
		goto fail;
	merge_groups(&c);

	out->table = table;
	out->budget = *budget;
	out->groups = xcalloc(c.nr_groups + 1, sizeof(*out->groups));
	for (i = 0; i < c.nr_groups; i++)
		export_group(&c, &c.groups[i], &out->groups[i]);
	out->nr_groups = c.nr_groups;
	out->metrics = xcalloc(c.nr_chosen + 1, sizeof(*out->metrics));
	for (i = 0; i < c.nr_chosen; i++)
		out->metrics[i] = xstrdup(c.chosen[i]->id);
	out->nr_metrics = c.nr_chosen;
	out->ungrouped = c.ungrouped;
	out->nr_ungrouped = c.nr_ungrouped;
	out->split = c.split;
	out->nr_split = c.nr_split;
	out->warnings = c.warnings;
	out->nr_warnings = c.nr_warnings;
	ctx_release(&c);
	return 0;
fail:
	for (i = 0; i < c.nr_ungrouped; i++)
		free(c.ungrouped[i]);
	free(c.ungrouped);
	for (i = 0; i < c.nr_split; i++)
		free(c.split[i]);
	free(c.split);
	for (i = 0; i < c.nr_warnings; i++)
		free(c.warnings[i]);
	free(c.warnings);
	ctx_release(&c);
	return -1;
}

static void free_strings(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void td_sched_release(struct td_sched *s)
{
	size_t g, e;

	for (g = 0; g < s->nr_groups; g++) {
		for (e = 0; e < s->groups[g].nr_events; e++) {
			free(s->groups[g].events[e].name);
			free(s->groups[g].events[e].perf_name);
		}
		free(s->groups[g].events);
		free_strings(s->groups[g].metrics, s->groups[g].nr_metrics);
	}
	free(s->groups);
	free_strings(s->metrics, s->nr_metrics);
	free_strings(s->ungrouped, s->nr_ungrouped);
	free_strings(s->split, s->nr_split);
	free_strings(s->warnings, s->nr_warnings);
	memset(s, 0, sizeof(*s));
}

void td_sched_append(struct td_sched *into, struct td_sched *from)
{
	size_t alloc = into->nr_groups, i, na = 0, ns = 0, nw = 0;
	const char *pmu = from->nr_groups ? from->groups[0].pmu : td_table_info(from->table)->pmu;
	struct strbuf sb = STRBUF_INIT;

	TD_GROW(into->groups, alloc, into->nr_groups + from->nr_groups);
	for (i = 0; i < from->nr_groups; i++)
		into->groups[into->nr_groups++] = from->groups[i];
	free(from->groups);
	from->groups = NULL;
	from->nr_groups = 0;
	na = into->nr_metrics;
	ns = into->nr_split;
	nw = into->nr_warnings;
	for (i = 0; i < from->nr_metrics; i++)
		add_string(&into->metrics, &into->nr_metrics, &na, from->metrics[i]);
	for (i = 0; i < from->nr_split; i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s:%s", pmu ? pmu : "?", from->split[i]);
		add_string(&into->split, &into->nr_split, &ns, sb.buf);
	}
	for (i = 0; i < from->nr_warnings; i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s: %s", pmu ? pmu : "?", from->warnings[i]);
		add_string(&into->warnings, &into->nr_warnings, &nw, sb.buf);
	}
	strbuf_release(&sb);
	td_sched_release(from);
}

void td_sched_group_spec(const struct td_sched *s, long i, struct strbuf *sb)
{
	size_t g, e;

	for (g = 0; g < s->nr_groups; g++) {
		if (i >= 0 && (size_t)i != g)
			continue;
		if (sb->len && sb->buf[sb->len - 1] != ',')
			strbuf_addch(sb, ',');
		strbuf_addch(sb, '{');
		for (e = 0; e < s->groups[g].nr_events; e++)
			strbuf_addf(sb, "%s%s", e ? "," : "", s->groups[g].events[e].perf_name);
		strbuf_addch(sb, '}');
	}
}
