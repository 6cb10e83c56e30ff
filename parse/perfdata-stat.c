/*
 * 'perf stat record' files -> the count model of parse.h, as 'perf stat
 * report' shows them.
 *
 * The file holds, per round, the cumulative (val, ena, run) of every
 * (event id, cpu, thread); a STAT_ROUND closes the round.  Totals come
 * from the FINAL round; with -I each INTERVAL round becomes one scope
 * holding the difference to the previous round (the last batch, which has
 * no STAT_ROUND after it, is dropped as perf does).  Scaling for
 * multiplexing is done per cpu and thread (val * ena / run), then summed.
 */
#include "parse/perfdata-internal.h"

#include <math.h>
#include <stdlib.h>

enum { AGGR_NONE = 0, AGGR_GLOBAL = 1, AGGR_THREAD_61 = 5 };
enum { STAT_TAG_AGGR_MODE = 0, STAT_TAG_INTERVAL = 1, STAT_TAG_SCALE = 2 };

/* The latest reading of one (event, cpu, thread), and the one before. */
struct reading {
	int event;
	uint32_t cpu, thread;
	uint64_t val, ena, run;             /* cumulative, as recorded */
	uint64_t pval, pena, prun;          /* at the previous round */
	int fresh;                          /* updated in this round */
};

struct stat_state {
	struct reading *r;
	size_t nr, alloc;
	int aggr_mode, scale;
	uint64_t interval_ms;
	int have_config;
	/* THREAD_MAP: pid and comm by index */
	uint64_t *thread_pid;
	char (*thread_comm)[17];
	size_t nr_threads;
	/* per event index: the Arm core PMU it was opened on, or NULL */
	char **arm_pmu;
};

static struct reading *find_reading(struct stat_state *s, int event, uint32_t cpu,
				    uint32_t thread)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (s->r[i].event == event && s->r[i].cpu == cpu && s->r[i].thread == thread)
			return &s->r[i];
	TD_GROW(s->r, s->alloc, s->nr + 1);
	memset(&s->r[s->nr], 0, sizeof(s->r[0]));
	s->r[s->nr].event = event;
	s->r[s->nr].cpu = cpu;
	s->r[s->nr].thread = thread;
	return &s->r[s->nr++];
}

/* The scope of a reading under the aggregation mode, as a label. */
static void scope_label(const struct stat_state *s, const struct reading *r, struct strbuf *sb,
			enum td_scope_kind *kind)
{
	strbuf_reset(sb);
	if (s->aggr_mode == AGGR_NONE) {
		*kind = TD_SCOPE_CPU;
		strbuf_addf(sb, "CPU%d", (int)r->cpu);
	} else if (s->aggr_mode == AGGR_THREAD_61) {
		*kind = TD_SCOPE_THREAD;
		if (r->thread < s->nr_threads)
			strbuf_addf(sb, "%s-%llu", s->thread_comm[r->thread],
				    (unsigned long long)s->thread_pid[r->thread]);
		else
			strbuf_addf(sb, "thread%u", r->thread);
	} else {
		*kind = TD_SCOPE_TOTAL;
	}
}

static struct td_scope *get_scope(struct td_stat *st, enum td_scope_kind kind, const char *label,
				  double time, size_t first)
{
	size_t i;
	struct td_scope *sc;

	for (i = first; i < st->nr_scopes; i++) {
		sc = &st->scopes[i];
		if (sc->kind == kind && ((!label && !sc->label) ||
					 (label && sc->label && !strcmp(label, sc->label))))
			return sc;
	}
	TD_GROW(st->scopes, st->alloc_scopes, st->nr_scopes + 1);
	sc = &st->scopes[st->nr_scopes++];
	memset(sc, 0, sizeof(*sc));
	sc->kind = kind;
	sc->label = label ? xstrdup(label) : NULL;
	sc->time = time;
	return sc;
}

/* Sums of one event in one scope while a round is being turned into counts. */
struct acc {
	double value;
	double ena, run;
	int counted, seen;
};

/*
 * The Arm core PMU each event was opened on ("armv8_pmuv3_0", one per
 * cluster on big.LITTLE systems, where perf names each cluster's count of
 * an event alike): the PMU_MAPPINGS name of its attr type, looked up once
 * for every round and scope.
 */
static char **arm_core_pmus(struct td_pd *pd)
{
	size_t n = td_pd_nr_events(pd), e;
	char **pmus = xcalloc(n + 1, sizeof(*pmus));
	struct strbuf name = STRBUF_INIT;

	for (e = 0; e < n; e++) {
		const struct td_pd_event *ev = td_pd_event(pd, e);

		/* types 0-5 are perf's generic ones (hardware, software, ...) */
		if (ev->type > 5 && !td_pd_pmu_name(pd, ev->type, &name) && td_arm_is_core_pmu(name.buf))
			pmus[e] = strbuf_detach(&name, NULL);
	}
	strbuf_release(&name);
	return pmus;
}

/*
 * Turn the readings into scopes: one pass per round.  'delta' subtracts
 * the previous round (intervals).  Events with no reading at all are
 * "<not supported>" (perf opened nothing for them); run == 0 is
 * "<not counted>".
 */
static void emit_round(struct td_pd *pd, struct stat_state *s, struct td_stat *st, int delta,
		       double time)
{
	struct strbuf label = STRBUF_INIT;
	size_t first = st->nr_scopes, nr_ev = td_pd_nr_events(pd), e, i, k;
	struct acc *acc;
	size_t nr_scopes_before;
	enum td_scope_kind kind;

	/* make the scopes in a stable order: by first reading */
	for (i = 0; i < s->nr; i++) {
		scope_label(s, &s->r[i], &label, &kind);
		get_scope(st, kind, label.len ? label.buf : NULL, time, first);
	}
	if (st->nr_scopes == first) {
		scope_label(s, &(struct reading){ 0 }, &label, &kind);
		if (kind == TD_SCOPE_TOTAL)
			get_scope(st, kind, NULL, time, first);
	}
	nr_scopes_before = st->nr_scopes - first;
	acc = xcalloc(nr_scopes_before * (nr_ev ? nr_ev : 1), sizeof(*acc));
	for (i = 0; i < s->nr; i++) {
		struct reading *r = &s->r[i];
		double val, ena, run;
		struct acc *a;

		scope_label(s, r, &label, &kind);
		for (k = first; k < st->nr_scopes; k++)
			if (st->scopes[k].kind == kind &&
			    ((!label.len && !st->scopes[k].label) ||
			     (label.len && st->scopes[k].label && !strcmp(label.buf, st->scopes[k].label))))
				break;
		a = &acc[(k - first) * nr_ev + (size_t)r->event];
		val = (double)(r->val - (delta ? r->pval : 0));
		ena = (double)(r->ena - (delta ? r->pena : 0));
		run = (double)(r->run - (delta ? r->prun : 0));
		a->seen = 1;
		a->ena += ena;
		a->run += run;
		if (run > 0) {
			a->counted = 1;
			a->value += (s->scale && run < ena) ? val * ena / run : val;
		}
	}
	for (k = first; k < st->nr_scopes; k++) {
		struct td_scope *sc = &st->scopes[k];

		for (e = 0; e < nr_ev; e++) {
			const struct td_pd_event *ev = td_pd_event(pd, e);
			struct acc *a = &acc[(k - first) * nr_ev + e];
			struct td_count *c;

			TD_GROW(sc->counts, sc->alloc_counts, sc->nr_counts + 1);
			c = &sc->counts[sc->nr_counts++];
			memset(c, 0, sizeof(*c));
			c->event = xstrdup(ev->name);
			c->pmu = s->arm_pmu[e] ? xstrdup(s->arm_pmu[e]) : NULL;
			c->unit = ev->unit && *ev->unit ? xstrdup(ev->unit) : NULL;
			c->group = -1;
			c->variance_pct = NAN;
			c->enabled_ns = a->seen ? a->ena : NAN;
			c->running_ns = a->seen ? a->run : NAN;
			if (!a->seen) {
				c->status = TD_COUNT_NOT_SUPPORTED;
				c->value = NAN;
				c->running_pct = NAN;
			} else if (!a->counted) {
				c->status = TD_COUNT_NOT_COUNTED;
				c->value = NAN;
				c->running_pct = 0;
			} else {
				c->status = TD_COUNT_OK;
				c->value = a->value * ev->scale;
				c->running_pct = a->ena > 0 ? 100.0 * a->run / a->ena : 100.0;
			}
		}
	}
	free(acc);
	strbuf_release(&label);
	for (i = 0; i < s->nr; i++) {
		s->r[i].pval = s->r[i].val;
		s->r[i].pena = s->r[i].ena;
		s->r[i].prun = s->r[i].run;
	}
}

/* STAT_CONFIG: u64 nr, then {tag, value} pairs; unknown tags ignored. */
static int read_config(struct td_pd *pd, struct stat_state *s, const struct td_pd_record *r)
{
	uint64_t nr, i;
	int sw = td_pd_needs_swap(pd);

	if (r->size < 16)
		return pd_fail(pd, r->offset, "STAT_CONFIG record too short");
	nr = pd_get64(r->data + 8, sw);
	if (nr > (r->size - 16) / 16)
		return pd_fail(pd, r->offset, "STAT_CONFIG holds %llu entries, more than its size",
			       (unsigned long long)nr);
	for (i = 0; i < nr; i++) {
		uint64_t tag = pd_get64(r->data + 16 + 16 * i, sw);
		uint64_t val = pd_get64(r->data + 24 + 16 * i, sw);

		if (tag == STAT_TAG_AGGR_MODE)
			s->aggr_mode = (int)val;
		else if (tag == STAT_TAG_INTERVAL)
			s->interval_ms = val;
		else if (tag == STAT_TAG_SCALE)
			s->scale = !!val;
	}
	s->have_config = 1;
	return 0;
}

/* THREAD_MAP: u64 nr; {u64 pid; char comm[16]}. */
static int read_thread_map(struct td_pd *pd, struct stat_state *s, const struct td_pd_record *r)
{
	uint64_t nr, i;
	int sw = td_pd_needs_swap(pd);

	if (r->size < 16)
		return pd_fail(pd, r->offset, "THREAD_MAP record too short");
	nr = pd_get64(r->data + 8, sw);
	if (nr > (r->size - 16) / 24)
		return pd_fail(pd, r->offset, "THREAD_MAP holds %llu threads, more than its size",
			       (unsigned long long)nr);
	free(s->thread_pid);
	free(s->thread_comm);
	s->nr_threads = (size_t)nr;
	s->thread_pid = xcalloc(nr + 1, sizeof(*s->thread_pid));
	s->thread_comm = xcalloc(nr + 1, sizeof(*s->thread_comm));
	for (i = 0; i < nr; i++) {
		s->thread_pid[i] = pd_get64(r->data + 16 + 24 * i, sw);
		memcpy(s->thread_comm[i], r->data + 24 + 24 * i, 16);
	}
	return 0;
}

/* The counts of the open perf.data 'pd' (named 'path' in the model); closes pd. */
static struct td_stat_file *read_stat(struct td_pd *pd, const char *path, struct strbuf *err)
{
	struct stat_state s;
	struct td_stat_file *f;
	struct td_stat *st;
	const struct td_pd_record *r;
	int ret, rounds = 0, stats = 0;
	const char *v;
	size_t i;

	if (!pd)
		return NULL;
	memset(&s, 0, sizeof(s));
	s.aggr_mode = AGGR_GLOBAL;
	s.scale = 1;
	s.arm_pmu = arm_core_pmus(pd);
	f = xcalloc(1, sizeof(*f));
	f->sessions = xcalloc(1, sizeof(*f->sessions));
	f->nr_sessions = f->alloc_sessions = 1;
	st = &f->sessions[0];
	st->source = xstrdup(path);
	st->format = xstrdup("perf.data");
	st->elapsed_s = st->user_s = st->sys_s = NAN;
	st->repeats = 1;
	v = td_pd_feature_string(pd, TD_PD_FEAT_VERSION);
	st->perf_version = v ? xstrdup(v) : NULL;
	v = td_pd_feature_string(pd, TD_PD_FEAT_CPUID);
	st->cpuid = v && *v ? xstrdup(v) : NULL;
	v = td_pd_cmdline(pd);
	st->target = v ? xstrdup(v) : NULL;

	while ((ret = td_pd_next(pd, &r)) > 0) {
		switch (r->type) {
		case TD_PD_STAT_CONFIG:
			ret = read_config(pd, &s, r);
			break;
		case TD_PD_THREAD_MAP:
			ret = read_thread_map(pd, &s, r);
			break;
		case TD_PD_STAT: {
			const struct td_pd_event *ev = td_pd_event_by_id(pd, r->u.stat.id);
			struct reading *rd;

			if (!ev) {
				ret = pd_fail(pd, r->offset, "STAT record for unknown id %llu",
					      (unsigned long long)r->u.stat.id);
				break;
			}
			rd = find_reading(&s, ev->index, r->u.stat.cpu, r->u.stat.thread);
			rd->val = r->u.stat.val;
			rd->ena = r->u.stat.ena;
			rd->run = r->u.stat.run;
			rd->fresh = 1;
			stats++;
			break;
		}
		case TD_PD_STAT_ROUND:
			if (s.aggr_mode != AGGR_NONE && s.aggr_mode != AGGR_GLOBAL &&
			    s.aggr_mode != AGGR_THREAD_61) {
				ret = pd_fail(pd, r->offset,
					      "aggregation mode %d (per socket/die/core/node) is not supported; record with -a or -A",
					      s.aggr_mode);
				break;
			}
			if (r->u.stat_round.type == 0 && s.interval_ms) {
				emit_round(pd, &s, st, 1, (double)r->u.stat_round.time / 1e9);
				st->interval = 1;
			} else if (r->u.stat_round.type == 1 && !s.interval_ms) {
				emit_round(pd, &s, st, 0, NAN);
				st->elapsed_s = (double)r->u.stat_round.time / 1e9;
			}
			rounds++;
			break;
		default:
			break;
		}
		if (ret < 0)
			break;
	}
	if (ret >= 0 && (!s.have_config || !rounds)) {
		ret = pd_fail(pd, 0, "not a 'perf stat record' file (no %s)",
			      !s.have_config ? "STAT_CONFIG record" : "STAT_ROUND record");
	}
	free(s.r);
	free(s.thread_pid);
	free(s.thread_comm);
	for (i = 0; i < td_pd_nr_events(pd); i++)
		free(s.arm_pmu[i]);
	free(s.arm_pmu);
	if (ret < 0) {
		strbuf_addstr(err, td_pd_error(pd));
		td_stat_file_free(f);
		f = NULL;
	}
	td_pd_close(pd);
	return f;
}

struct td_stat_file *td_pd_read_stat(const char *path, struct strbuf *err)
{
	return read_stat(td_pd_open(path, TD_PD_FILE_ORDER, err), path, err);
}

struct td_stat_file *td_pd_read_stat_mem(const void *data, size_t len, const char *name,
					 struct strbuf *err)
{
	return read_stat(td_pd_open_mem(data, len, name, TD_PD_FILE_ORDER, err), name, err);
}
