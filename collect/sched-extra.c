/*
 * collect/sched-extra.c: record -e, the events a user counts beside the
 * Top-Down tree.
 *
 * perf multiplexes groups, so a lone event packed into a formula group
 * with a counter to spare costs no counting time; a {...} group the user
 * wrote is kept whole, since the user asked for its events to be counted
 * over the same time window.
 */
#include "collect/sched.h"

#include <stdlib.h>
#include <string.h>

/*
 * Split perf's event list at its top-level commas: a {...} group and a
 * pmu/term,term/ event stay whole.  -1 with err set for unbalanced
 * braces or an empty item.
 */
static int split_event_list(const char *spec, struct strvec *out, struct strbuf *err)
{
	const char *start = spec, *p;
	int braces = 0, slashes = 0;

	for (p = spec;; p++) {
		if (*p == '{')
			braces++;
		else if (*p == '}' && --braces < 0)
			break;
		else if (*p == '/')
			slashes ^= 1;
		else if (*p && (*p != ',' || braces || slashes))
			continue;
		if (*p == '{' || *p == '}' || *p == '/')
			continue;
		if (p == start) {
			strbuf_addf(err, "-e %s: an empty event name", spec);
			return -1;
		}
		strvec_pushf(out, "%.*s", (int)(p - start), start);
		if (!*p)
			break;
		start = p + 1;
	}
	if (braces || slashes) {
		strbuf_addf(err, "-e %s: unbalanced %s", spec, slashes ? "'/'" : "braces");
		return -1;
	}
	return 0;
}

static void add_event(struct td_sched_group *g, const char *name)
{
	struct td_sched_event *e;

	g->events = xrealloc(g->events, (g->nr_events + 1) * sizeof(*g->events));
	e = &g->events[g->nr_events++];
	memset(e, 0, sizeof(*e));
	e->name = xstrdup(name);
	e->perf_name = xstrdup(name);
	e->pmu = g->pmu;
	e->fixed = -1;
	e->counter = -1; /* perf's kernel driver picks it: its constraints are not in the table */
	e->extra = 1;
	g->gp_used++;
}

static struct td_sched_group *new_group(struct td_sched *s)
{
	struct td_sched_group *g;

	s->groups = xrealloc(s->groups, (s->nr_groups + 1) * sizeof(*s->groups));
	g = &s->groups[s->nr_groups++];
	memset(g, 0, sizeof(*g));
	g->pmu = s->nr_groups > 1 ? s->groups[0].pmu : "cpu";
	return g;
}

/* The first group of the core PMU (the first group's) with a general counter free. */
static struct td_sched_group *group_with_room(struct td_sched *s)
{
	size_t g;

	for (g = 0; g < s->nr_groups; g++)
		if (!strcmp(s->groups[g].pmu, s->groups[0].pmu) && s->groups[g].gp_used < s->budget.gp)
			return &s->groups[g];
	return NULL;
}

static int add_user_group(struct td_sched *s, const char *item, struct strbuf *err)
{
	size_t len = strlen(item), i;
	struct strvec inner = STRVEC_INIT;
	struct td_sched_group *g;
	char *body;

	if (item[len - 1] != '}') {
		strbuf_addf(err, "-e %s: modifiers of a whole group are not supported: "
			    "put them on each event", item);
		return -1;
	}
	body = xstrndup(item + 1, len - 2);
	if (strchr(body, '{') || split_event_list(body, &inner, err) < 0) {
		if (!err->len)
			strbuf_addf(err, "-e %s: a group inside a group", item);
		free(body);
		strvec_clear(&inner);
		return -1;
	}
	g = new_group(s);
	for (i = 0; i < inner.nr; i++)
		add_event(g, inner.v[i]);
	free(body);
	strvec_clear(&inner);
	return 0;
}

int td_sched_add_extra(struct td_sched *s, const char *spec, struct strbuf *err)
{
	struct strvec items = STRVEC_INIT;
	size_t i;
	int ret = 0;

	if (split_event_list(spec, &items, err) < 0) {
		strvec_clear(&items);
		return -1;
	}
	for (i = 0; i < items.nr && !ret; i++) {
		struct td_sched_group *g;

		if (items.v[i][0] == '{') {
			ret = add_user_group(s, items.v[i], err);
			continue;
		}
		g = group_with_room(s);
		add_event(g ? g : new_group(s), items.v[i]);
	}
	strvec_clear(&items);
	return ret;
}

void td_sched_extra_names(const char *spec, struct strvec *out)
{
	struct strbuf bare = STRBUF_INIT, err = STRBUF_INIT;
	const char *p;

	for (p = spec; *p; p++)
		if (*p != '{' && *p != '}')
			strbuf_addch(&bare, *p);
	split_event_list(bare.buf, out, &err); /* td_sched_add_extra checked it */
	strbuf_release(&bare);
	strbuf_release(&err);
}
