/*
 * The count model of parse.h: building it and freeing it.
 */
#include "parse/parse.h"
#include "parse/stat-lines.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *td_scope_kind_name(enum td_scope_kind kind)
{
	switch (kind) {
	case TD_SCOPE_TOTAL: return "total";
	case TD_SCOPE_CPU: return "cpu";
	case TD_SCOPE_CORE: return "core";
	case TD_SCOPE_DIE: return "die";
	case TD_SCOPE_SOCKET: return "socket";
	case TD_SCOPE_NODE: return "node";
	case TD_SCOPE_THREAD: return "thread";
	}
	return "unknown";
}

struct td_stat *td_stat_add_session(struct td_stat_file *f, const char *source,
				    const char *format)
{
	struct td_stat *st;

	TD_GROW(f->sessions, f->alloc_sessions, f->nr_sessions + 1);
	st = &f->sessions[f->nr_sessions++];
	memset(st, 0, sizeof(*st));
	st->source = xstrdup(source ? source : "-");
	st->format = xstrdup(format ? format : "text");
	st->elapsed_s = st->user_s = st->sys_s = NAN;
	st->repeats = 1;
	return st;
}

static int same_time(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	return a == b;
}

/*
 * Find the scope (kind, label, time) or append it.  Scopes of one
 * interval are adjacent, so the search walks back only over the scopes
 * of the same time.
 */
struct td_scope *td_stat_scope(struct td_stat *st, enum td_scope_kind kind,
			       const char *label, double time)
{
	struct td_scope *s;
	size_t i = st->nr_scopes;

	while (i > 0) {
		s = &st->scopes[--i];
		if (!same_time(s->time, time))
			break;
		if (s->kind == kind && td_str_same(s->label, label))
			return s;
	}
	TD_GROW(st->scopes, st->alloc_scopes, st->nr_scopes + 1);
	s = &st->scopes[st->nr_scopes++];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->label = label ? xstrdup(label) : NULL;
	s->time = time;
	if (!isnan(time))
		st->interval = 1;
	return s;
}

/*
 * Split what perf printed into pmu, event and modifiers:
 * "cpu_core/TOPDOWN.SLOTS/u" -> cpu_core, TOPDOWN.SLOTS, "u";
 * "cycles:u" -> NULL, cycles, ":u".  Forms with terms
 * ("cpu/UOPS_DECODED.DEC0,cmask=1/") keep the whole text as the event.
 */
static void split_printed(const char *printed, struct td_count *c, const char *key_pmu)
{
	const char *first = printed, *last = strrchr(printed, '/');
	const char *colon;

	while (*first && (isalnum((unsigned char)*first) || *first == '_'))
		first++;
	if (first > printed && *first == '/' && last > first &&
	    strspn(last + 1, "ukhIGHpPSDWebR") == strlen(last + 1)) {
		if (memchr(first + 1, ',', last - first - 1) || memchr(first + 1, '=', last - first - 1))
			c->event = xstrdup(printed);
		else
			c->event = xstrndup(first + 1, last - first - 1);
		if (last[1])
			c->modifiers = xstrdup(last + 1);
	} else {
		colon = strrchr(printed, ':');
		if (colon && colon[1] && strspn(colon + 1, "ukhIGHpPSDWebR") == strlen(colon + 1)) {
			c->event = xstrndup(printed, colon - printed);
			c->modifiers = xstrdup(colon);
		} else {
			c->event = xstrdup(printed);
		}
	}
	c->pmu = key_pmu && *key_pmu ? xstrdup(key_pmu) : NULL;
}

/*
 * td_event_key of the names perf printed, remembered: a long interval
 * run prints the same few names in every interval, and normalizing one
 * is string work.  The key depends on the name alone.
 */
#define KEY_MEMO 256
static struct key_memo {
	char *printed, *pmu, *key;
} key_memo[KEY_MEMO];

static void printed_key(const char *printed, struct strbuf *pmu, struct strbuf *key)
{
	uint32_t h = 2166136261u;
	const char *p;
	struct key_memo *m;

	for (p = printed; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	m = &key_memo[h % KEY_MEMO];
	if (m->printed && !strcmp(m->printed, printed)) {
		strbuf_reset(pmu);
		strbuf_addstr(pmu, m->pmu);
		strbuf_reset(key);
		strbuf_addstr(key, m->key);
		return;
	}
	td_event_key(printed, pmu, key);
	free(m->printed);
	free(m->pmu);
	free(m->key);
	m->printed = xstrdup(printed);
	m->pmu = xstrdup(pmu->buf);
	m->key = xstrdup(key->buf);
}

struct td_count *td_scope_add_count(struct td_scope *s, const char *printed_event)
{
	struct strbuf pmu = STRBUF_INIT, key = STRBUF_INIT;
	struct td_count *c;
	size_t i;
	int group;

	printed_key(printed_event, &pmu, &key);
	/*
	 * A repeated event starts the next group.  Groups are per PMU: on
	 * hybrid CPUs the cpu_core and cpu_atom events are scheduled apart.
	 */
	group = 0;
	for (i = s->nr_counts; i-- > 0;) {
		const struct td_count *o = &s->counts[i];
		if (!strcmp(o->pmu ? o->pmu : "", pmu.buf)) {
			group = o->group;
			break;
		}
	}
	for (i = 0; i < s->nr_counts; i++) {
		const struct td_count *o = &s->counts[i];
		if (o->group == group && o->key && !strcmp(o->key, key.buf) &&
		    !strcmp(o->pmu ? o->pmu : "", pmu.buf)) {
			group++;
			break;
		}
	}
	if (group + 1 > s->nr_groups)
		s->nr_groups = group + 1;
	TD_GROW(s->counts, s->alloc_counts, s->nr_counts + 1);
	c = &s->counts[s->nr_counts++];
	memset(c, 0, sizeof(*c));
	split_printed(printed_event, c, pmu.buf);
	c->key = strbuf_detach(&key, NULL);
	c->value = NAN;
	c->running_pct = c->enabled_ns = c->running_ns = c->variance_pct = NAN;
	c->group = group;
	strbuf_release(&pmu);
	return c;
}

/*
 * The names perf's own Top-Down code prints (tools/perf/util/stat-shadow.c:
 * lower case up to perf 5.x's pre-Ice Lake printing, capitalised since),
 * Level 1 and the Level-2 pairs.
 */
static const char *const builtin_names[] = {
	"retiring", "bad speculation", "frontend bound", "backend bound",
	"heavy operations", "light operations", "branch mispredict", "machine clears",
	"fetch latency", "fetch bandwidth", "memory bound", "core bound",
};

int td_perf_metric_is_builtin(const char *name)
{
	size_t i;

	for (i = 0; name && i < TD_ARRAY_SIZE(builtin_names); i++)
		if (!strcasecmp(name, builtin_names[i]))
			return 1;
	return 0;
}

/* A name of perf's event tables: one identifier with an '_' (tma_retiring, frontend_bound). */
static int is_table_metric_name(const char *name)
{
	const char *p;

	if (!*name || !strchr(name, '_'))
		return 0;
	for (p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return 0;
	return 1;
}

/*
 * A built-in name is perf's built-in value when printed as a percentage;
 * perf 5.x's table metric "Retiring" is a bare ratio (unit = name).
 */
static enum td_perf_metric_kind metric_kind(const char *name, const char *unit)
{
	if (td_perf_metric_is_builtin(name))
		return unit && !strcmp(unit, name) ? TD_PM_TMA : TD_PM_BUILTIN;
	return is_table_metric_name(name) ? TD_PM_TMA : TD_PM_OTHER;
}

void td_perf_metric_classify(struct td_perf_metric *m)
{
	m->kind = metric_kind(m->name, m->unit);
}

/* perf 5.x's Level 1 as a bare 0..1 ratio: no unit, the name where the unit goes. */
static int is_bare_ratio(const struct td_perf_metric *m)
{
	return m->unit && m->kind == TD_PM_TMA && !strcmp(m->unit, m->name) &&
	       m->value >= -10 && m->value <= 10;
}

double td_perf_metric_share(const struct td_perf_metric *m, double *resolution)
{
	double scale;

	if (resolution)
		*resolution = NAN;
	if (!m->unit || isnan(m->value))
		return NAN;
	if (!strcmp(m->unit, "%") || !strncmp(m->unit, "percent of ", 11))
		scale = 0.01;
	else if (is_bare_ratio(m))
		scale = 1;
	else
		return NAN;
	if (resolution)
		*resolution = m->resolution * scale;
	return m->value * scale;
}

struct td_perf_metric *td_scope_add_perf_metric(struct td_scope *s, const char *name,
						const char *unit, double value)
{
	struct td_perf_metric *m;

	TD_GROW(s->perf_metrics, s->alloc_perf_metrics, s->nr_perf_metrics + 1);
	m = &s->perf_metrics[s->nr_perf_metrics++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name ? name : "");
	m->unit = unit && *unit ? xstrdup(unit) : NULL;
	m->value = value;
	m->group = -1;
	m->kind = metric_kind(m->name, m->unit);
	m->resolution = NAN;
	m->blank = isnan(value);
	return m;
}

void td_scope_release(struct td_scope *s)
{
	size_t i;

	for (i = 0; i < s->nr_counts; i++) {
		free(s->counts[i].event);
		free(s->counts[i].pmu);
		free(s->counts[i].modifiers);
		free(s->counts[i].unit);
		free(s->counts[i].key);
	}
	free(s->counts);
	for (i = 0; i < s->nr_perf_metrics; i++) {
		free(s->perf_metrics[i].name);
		free(s->perf_metrics[i].pmu);
		free(s->perf_metrics[i].unit);
		free(s->perf_metrics[i].threshold);
	}
	free(s->perf_metrics);
	free(s->label);
}

static void session_release(struct td_stat *st)
{
	size_t j;

	for (j = 0; j < st->nr_scopes; j++)
		td_scope_release(&st->scopes[j]);
	free(st->scopes);
	free(st->source);
	free(st->format);
	free(st->target);
	free(st->perf_version);
	free(st->cpuid);
	memset(st, 0, sizeof(*st));
}

void td_stat_file_drop_last(struct td_stat_file *f)
{
	if (f->nr_sessions)
		session_release(&f->sessions[--f->nr_sessions]);
}

void td_stat_file_free(struct td_stat_file *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->nr_sessions; i++)
		session_release(&f->sessions[i]);
	free(f->sessions);
	free(f);
}

void td_scope_normalize(struct td_scope *s)
{
	struct strbuf pmu = STRBUF_INIT, key = STRBUF_INIT;
	size_t k;

	for (k = 0; k < s->nr_counts; k++) {
		struct td_count *c = &s->counts[k];
		if (!c->key) {
			td_event_key(c->event, &pmu, &key);
			c->key = xstrdup(key.buf);
			if (!c->pmu && pmu.len)
				c->pmu = xstrdup(pmu.buf);
		}
		if (c->group < 0)
			c->group = 0;
		if (c->group + 1 > s->nr_groups)
			s->nr_groups = c->group + 1;
	}
	strbuf_release(&pmu);
	strbuf_release(&key);
}

void td_stat_file_normalize(struct td_stat_file *f)
{
	size_t i, j;

	for (i = 0; i < f->nr_sessions; i++)
		for (j = 0; j < f->sessions[i].nr_scopes; j++)
			td_scope_normalize(&f->sessions[i].scopes[j]);
}
