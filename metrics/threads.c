/*
 * Per-thread cycle stacks from scheduler events, after Heirman et al. 2011
 * (docs/references.md).
 *
 * The paper measures its stacks in a simulator.  Here the off-CPU part of
 * every thread's time comes from what the scheduler tells perf:
 *
 *   - a thread is RUNNING from the moment it is switched in until it is
 *     switched out;
 *   - switched out in state R (preempted) it is RUNNABLE until switched in;
 *   - switched out in state S it sleeps until somebody wakes it: when the
 *     waker is another thread of the same process (futex wake from
 *     pthread_mutex_unlock, pthread_barrier_wait, pthread_cond_signal, or
 *     the kernel's wake of a pthread_join on thread exit) the sleep was
 *     SYNC, otherwise (timer, another process, a device) it was SLEEP;
 *   - switched out in state D it waits uninterruptibly: IO;
 *   - from its wakeup until it is switched in it is RUNNABLE again.
 *
 * Imbalance is the part of the "region" a thread was not alive for: the
 * region spans the threads that do the work (first start to last end), so
 * a thread starting late or ending early is charged the difference, as in
 * Heirman et al. 2011.  Following them, a thread that spent more than half of
 * its life in sync and created threads (a main thread waiting in
 * pthread_join for its workers) is shown but left out of the aggregate and
 * of the region.  A worker over half in sync, which created no thread, is
 * kept: it waits for other workers (a contended lock, a barrier), and
 * leaving it out would hide exactly that.
 *
 * The module is written against struct td_thread_event (metrics/threads.h),
 * not against perf.data, so that tests/unit/test_threads.c can drive it
 * with event sequences built by hand; report/threads-load.c feeds it from
 * the perf.data reader.
 */
#include "metrics/threads.h"
#include "util/util.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* What a thread is doing between two events. */
enum thread_state {
	ST_UNSEEN = 0, /* no event yet: its life has not started for us */
	ST_RUNNING,
	ST_RUNNABLE,
	ST_SLEEP_S,    /* switched out in state S (or T, I, P ...) */
	ST_SLEEP_D,    /* switched out in state D */
	ST_SLEEP_ANY,  /* switched out asleep, state not recorded */
	ST_DEAD,
};

struct interval {
	uint64_t t0, t1;
	enum td_thread_comp comp;
};

struct tstate {
	int tid, pid;
	char *comm;
	enum thread_state state;
	uint64_t since;          /* start of the current state */
	uint64_t start, end;
	uint64_t exit_time;      /* sched_process_exit seen, else 0 */
	int have_start;
	struct interval *iv;
	size_t nr_iv, alloc_iv;
	unsigned long nr_switch_in, nr_inferred_in;
	unsigned nr_created;     /* threads it forked */
	int creator;             /* the tid that forked it, 0 unknown */
};

struct td_threads {
	struct td_thread_event *ev;
	size_t nr_ev, alloc_ev;
	/* threads, found by tid through an open-addressing index */
	struct tstate *th;
	size_t nr_th, alloc_th;
	int *index;              /* slot -> thread number + 1, 0 empty */
	size_t index_size;       /* power of two */
	uint64_t first, last;    /* first and last timestamp seen */
	unsigned long nr_missing_state; /* switch-outs without a recorded state */
	int have_switch_in;      /* PERF_RECORD_SWITCH "in" records were given */
};

static const char *const comp_ids[TD_TC_NR] = {
	"running", "runnable", "sync", "io", "sleep", "unknown", "imbalance",
};

static const char *const comp_descriptions[TD_TC_NR] = {
	"on a CPU",
	"ready to run but waiting for a CPU (preempted, or woken and not yet scheduled)",
	"blocked until woken by another thread of the same process (futex: mutex, barrier, condition variable, join)",
	"uninterruptible wait (state D): disk I/O, page-in, some kernel locks",
	"asleep until woken from outside the process (timer, other process, device, signal)",
	"not attributable: the events that would tell were not recorded",
	"absent from the parallel region: started late or ended early",
};

const char *td_thread_comp_id(enum td_thread_comp c)
{
	return c < TD_TC_NR ? comp_ids[c] : "?";
}

const char *td_thread_comp_description(enum td_thread_comp c)
{
	return c < TD_TC_NR ? comp_descriptions[c] : "?";
}

struct td_threads *td_threads_new(void)
{
	struct td_threads *b = xcalloc(1, sizeof(*b));

	b->index_size = 64;
	b->index = xcalloc(b->index_size, sizeof(*b->index));
	return b;
}

void td_threads_add(struct td_threads *b, const struct td_thread_event *ev)
{
	struct td_thread_event *e;

	TD_GROW(b->ev, b->alloc_ev, b->nr_ev + 1);
	e = &b->ev[b->nr_ev++];
	*e = *ev;
	e->comm = ev->comm ? xstrdup(ev->comm) : NULL;
	if (ev->kind == TD_TEV_SWITCH_IN)
		b->have_switch_in = 1;
}

static size_t hash_tid(int tid, size_t size)
{
	return ((unsigned)tid * 2654435761u) & (size - 1);
}

/* Double the tid index and re-insert every thread. */
static void grow_index(struct td_threads *b)
{
	size_t i;

	free(b->index);
	b->index_size *= 2;
	b->index = xcalloc(b->index_size, sizeof(*b->index));
	for (i = 0; i < b->nr_th; i++) {
		size_t h = hash_tid(b->th[i].tid, b->index_size);
		while (b->index[h])
			h = (h + 1) & (b->index_size - 1);
		b->index[h] = (int)i + 1;
	}
}

/* The thread with this tid, created (unseen) when 'create' is set; else NULL. */
static struct tstate *thread(struct td_threads *b, int tid, int create)
{
	size_t h = hash_tid(tid, b->index_size);
	struct tstate *t;

	while (b->index[h]) {
		t = &b->th[b->index[h] - 1];
		if (t->tid == tid)
			return t;
		h = (h + 1) & (b->index_size - 1);
	}
	if (!create)
		return NULL;
	TD_GROW(b->th, b->alloc_th, b->nr_th + 1);
	t = &b->th[b->nr_th++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->pid = -1;
	b->index[h] = (int)b->nr_th;
	if (b->nr_th * 2 > b->index_size)
		grow_index(b);
	return thread(b, tid, 0); /* the array may have moved */
}

static void add_interval(struct tstate *t, uint64_t t0, uint64_t t1, enum td_thread_comp c)
{
	if (t1 <= t0)
		return;
	if (t->nr_iv && t->iv[t->nr_iv - 1].comp == c && t->iv[t->nr_iv - 1].t1 == t0) {
		t->iv[t->nr_iv - 1].t1 = t1; /* extend: keeps the list short */
		return;
	}
	TD_GROW(t->iv, t->alloc_iv, t->nr_iv + 1);
	t->iv[t->nr_iv].t0 = t0;
	t->iv[t->nr_iv].t1 = t1;
	t->iv[t->nr_iv].comp = c;
	t->nr_iv++;
}

/* The component a state is charged to when nothing better is known. */
static enum td_thread_comp default_comp(enum thread_state s)
{
	switch (s) {
	case ST_RUNNING: return TD_TC_RUNNING;
	case ST_RUNNABLE: return TD_TC_RUNNABLE;
	case ST_SLEEP_S: return TD_TC_SLEEP;
	case ST_SLEEP_D: return TD_TC_IO;
	default: return TD_TC_UNKNOWN;
	}
}

/*
 * Move thread t into state s at time 'now', charging the time spent in the
 * previous state to 'comp' (or to the state's default when comp < 0).  An
 * unseen thread starts its life here.  Returns nonzero when the state
 * actually changed.
 */
static int move(struct tstate *t, enum thread_state s, uint64_t now, int comp)
{
	if (t->state == ST_DEAD)
		return 0;
	if (t->state == s)
		return 0;
	if (t->state == ST_UNSEEN) {
		t->start = now;
		t->have_start = 1;
	} else {
		add_interval(t, t->since, now,
			     comp >= 0 ? (enum td_thread_comp)comp : default_comp(t->state));
	}
	t->state = s;
	t->since = now;
	if (s == ST_DEAD)
		t->end = now;
	return 1;
}

/*
 * A thread asleep with no recorded wakeup is about to run again.  A
 * thread that exits wakes its joiner (the kernel's futex wake on the
 * CLONE_CHILD_CLEARTID address) after perf has stopped tracing it, so that
 * wakeup is never recorded: when another thread of the same process exited
 * during the sleep, the sleep was a pthread_join, i.e. sync until that
 * exit, and runnable from then on.
 */
static void resolve_unseen_wakeup(struct td_threads *b, struct tstate *t, uint64_t now)
{
	uint64_t woken = 0;
	size_t i;

	if ((t->state != ST_SLEEP_S && t->state != ST_SLEEP_ANY) || t->pid <= 0)
		return;
	for (i = 0; i < b->nr_th; i++) {
		struct tstate *o = &b->th[i];
		if (o != t && o->pid == t->pid && o->exit_time > t->since &&
		    o->exit_time <= now && o->exit_time > woken)
			woken = o->exit_time;
	}
	if (woken)
		move(t, ST_RUNNABLE, woken, TD_TC_SYNC);
}

/*
 * An event recorded in the context of 'tid' proves the thread was on a CPU
 * at that moment.  If we believed it off-CPU (its switch-in was not
 * recorded, as in per-task recordings without switch events), it must have
 * been switched in since: count that as an inferred switch-in.
 */
static struct tstate *current_task(struct td_threads *b, int pid, int tid, uint64_t now)
{
	struct tstate *t;

	if (tid <= 0)
		return NULL;
	t = thread(b, tid, 1);
	if (pid > 0)
		t->pid = pid;
	if (t->state != ST_RUNNING && t->state != ST_DEAD) {
		if (t->state != ST_UNSEEN)
			t->nr_inferred_in++;
		resolve_unseen_wakeup(b, t, now);
		move(t, ST_RUNNING, now, -1);
	}
	return t;
}

static void set_comm(struct tstate *t, const char *comm)
{
	if (!comm || !*comm)
		return;
	free(t->comm);
	t->comm = xstrdup(comm);
}

/* The state a thread is left in after being switched out in 'state'. */
static enum thread_state state_after_switch_out(char state)
{
	switch (state) {
	case 'R': return ST_RUNNABLE;
	case 'D': return ST_SLEEP_D;
	case 'X': case 'Z': case 'x': return ST_DEAD;
	case '?': return ST_SLEEP_ANY;
	default: return ST_SLEEP_S; /* S, T, t, I, P, W, K ... */
	}
}

static void on_switch(struct td_threads *b, const struct td_thread_event *e)
{
	struct tstate *prev = current_task(b, e->pid, e->prev_tid > 0 ? e->prev_tid : e->tid,
					   e->time);
	struct tstate *next;

	if (prev) {
		if (e->prev_state == '?')
			b->nr_missing_state++;
		move(prev, state_after_switch_out(e->prev_state), e->time, -1);
	}
	/*
	 * With switch records, the switch-in is the record (written once the
	 * thread is on the CPU); sched_switch's next_pid fires a few
	 * microseconds earlier, before the context switch itself.  Use it
	 * only when there are no switch records (system-wide recordings).
	 */
	if (e->next_tid > 0 && !b->have_switch_in) {
		/*
		 * In a per-task recording only the workload's own threads are
		 * worth tracking; an unknown next task (another program, a
		 * kernel thread) becomes a thread here only if it later shows
		 * up in its own context.
		 */
		next = thread(b, e->next_tid, 0);
		if (next) {
			resolve_unseen_wakeup(b, next, e->time);
			if (move(next, ST_RUNNING, e->time, -1))
				next->nr_switch_in++;
		}
	}
}

/*
 * A wakeup ends a sleep.  The sleep was synchronization when the waker is
 * another thread of the sleeper's own process.  Returns nothing: wakeups of
 * threads that are not asleep (the second of sched_waking + sched_wakeup,
 * or a wakeup racing with the switch-out) change nothing.
 */
static void on_wakeup(struct td_threads *b, const struct td_thread_event *e)
{
	struct tstate *waker = current_task(b, e->pid, e->tid, e->time);
	struct tstate *t = thread(b, e->target_tid, 0);
	int same_process;
	int comp;

	if (!t)
		return;
	if (t->state == ST_UNSEEN) {
		if (e->wakeup_new)
			move(t, ST_RUNNABLE, e->time, -1);
		return;
	}
	if (t->state != ST_SLEEP_S && t->state != ST_SLEEP_D && t->state != ST_SLEEP_ANY)
		return;
	same_process = waker && waker != t && waker->pid > 0 && waker->pid == t->pid;
	if (t->state == ST_SLEEP_D)
		comp = TD_TC_IO;
	else if (t->state == ST_SLEEP_S)
		comp = same_process ? TD_TC_SYNC : TD_TC_SLEEP;
	else
		comp = same_process ? TD_TC_SYNC : TD_TC_UNKNOWN;
	move(t, ST_RUNNABLE, e->time, comp);
}

static void replay(struct td_threads *b, const struct td_thread_event *e)
{
	struct tstate *t;

	if (!e->time && e->kind != TD_TEV_COMM && e->kind != TD_TEV_FORK)
		return; /* synthesized or untimed: says nothing about when */
	switch (e->kind) {
	case TD_TEV_SWITCH:
		on_switch(b, e);
		break;
	case TD_TEV_SWITCH_IN:
		if (e->tid <= 0)
			break;
		t = thread(b, e->tid, 1);
		if (e->pid > 0)
			t->pid = e->pid;
		resolve_unseen_wakeup(b, t, e->time);
		if (move(t, ST_RUNNING, e->time, -1))
			t->nr_switch_in++;
		break;
	case TD_TEV_SWITCH_OUT:
		/*
		 * perf writes the record just after the sched_switch
		 * tracepoint, which has already taken the thread off the CPU
		 * with its exact state; the record only matters when the
		 * tracepoint was not recorded.
		 */
		if (e->tid <= 0)
			break;
		t = thread(b, e->tid, 1);
		if (t->state != ST_RUNNING && t->state != ST_UNSEEN)
			break;
		t = current_task(b, e->pid, e->tid, e->time);
		move(t, e->preempt ? ST_RUNNABLE : ST_SLEEP_ANY, e->time, -1);
		break;
	case TD_TEV_WAKEUP:
		on_wakeup(b, e);
		break;
	case TD_TEV_FORK:
		if (e->time)
			current_task(b, e->pid, e->tid, e->time);
		if (e->target_tid <= 0)
			break;
		t = thread(b, e->target_tid, 1);
		/* perf may give both the tracepoint and its FORK record: count a child once */
		if (!t->creator && e->tid > 0 && e->tid != e->target_tid) {
			t->creator = e->tid;
			thread(b, e->tid, 1)->nr_created++;
			t = thread(b, e->target_tid, 0); /* the array may have moved */
		}
		if (e->target_pid > 0)
			t->pid = e->target_pid;
		set_comm(t, e->comm);
		if (t->state == ST_UNSEEN && e->time)
			move(t, ST_RUNNABLE, e->time, -1); /* until its first switch-in */
		break;
	case TD_TEV_EXIT:
		t = current_task(b, e->pid, e->tid, e->time);
		if (t) {
			t->exit_time = e->time;
			move(t, ST_DEAD, e->time, -1);
		}
		break;
	case TD_TEV_COMM:
		if (e->tid <= 0)
			break;
		if (e->time) {
			t = current_task(b, e->pid, e->tid, e->time);
		} else {
			/* synthesized at the start of the recording: a name, no time */
			t = thread(b, e->tid, 1);
			if (e->pid > 0)
				t->pid = e->pid;
		}
		set_comm(t, e->comm);
		break;
	}
}

/* Sort events by time; events at the same time keep their input order. */
static int cmp_event(const void *a, const void *b)
{
	const struct td_thread_event *x = *(const struct td_thread_event *const *)a;
	const struct td_thread_event *y = *(const struct td_thread_event *const *)b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x < y ? -1 : x > y;
}

static double seconds(uint64_t ns)
{
	return (double)ns / 1e9;
}

static void add_note(struct td_threads_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void add_note(struct td_threads_result *r, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	r->notes = xrealloc(r->notes, (r->nr_notes + 1) * sizeof(*r->notes));
	r->notes[r->nr_notes++] = strbuf_detach(&sb, NULL);
}

static int cmp_thread(const void *a, const void *b)
{
	const struct td_thread *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* Seconds of [t0, t1) that fall inside [r0, r1). */
static double overlap(uint64_t t0, uint64_t t1, double r0, double r1)
{
	double a = seconds(t0), z = seconds(t1);

	if (a < r0)
		a = r0;
	if (z > r1)
		z = r1;
	return z > a ? z - a : 0.0;
}

/* Fill the per-thread results from the replayed states (before the region). */
static void collect_threads(struct td_threads *b, struct td_threads_result *r)
{
	size_t i, n = 0;
	int c;

	r->threads = xcalloc(b->nr_th ? b->nr_th : 1, sizeof(*r->threads));
	for (i = 0; i < b->nr_th; i++) {
		struct tstate *s = &b->th[i];
		struct td_thread *t;
		double lifetime;
		size_t k;

		if (!s->have_start)
			continue; /* named or forked but never seen alive */
		/* close the state the recording ended in */
		if (s->state != ST_DEAD) {
			add_interval(s, s->since, b->last, default_comp(s->state));
			s->end = b->last;
		}
		t = &r->threads[n++];
		t->tid = s->tid;
		t->pid = s->pid;
		t->comm = xstrdup(s->comm ? s->comm : "?");
		t->start = seconds(s->start);
		t->end = seconds(s->end);
		t->nr_switch_in = s->nr_switch_in;
		t->nr_inferred_in = s->nr_inferred_in;
		t->spans = xcalloc(s->nr_iv ? s->nr_iv : 1, sizeof(*t->spans));
		t->nr_spans = s->nr_iv;
		for (k = 0; k < s->nr_iv; k++) {
			t->life[s->iv[k].comp] += seconds(s->iv[k].t1) - seconds(s->iv[k].t0);
			t->spans[k].start = seconds(s->iv[k].t0);
			t->spans[k].end = seconds(s->iv[k].t1);
			t->spans[k].comp = s->iv[k].comp;
		}
		lifetime = 0;
		for (c = 0; c < TD_TC_NR; c++)
			lifetime += t->life[c];
		t->sync_fraction = lifetime > 0 ? t->life[TD_TC_SYNC] / lifetime : NAN;
		t->nr_created = s->nr_created;
		t->excluded = lifetime > 0 && t->sync_fraction > 0.5 && s->nr_created > 0;
	}
	r->nr_threads = n;
}

/*
 * Decide the aggregated set and the region, then clip every thread's
 * intervals to the region and charge its absence as imbalance.  The
 * thread results and the replay states are in the same order (collect
 * keeps b->th order), which this relies on.
 */
static void build_region(struct td_threads *b, struct td_threads_result *r)
{
	size_t i, j, n_in = 0, n_half = 0;
	double r0 = INFINITY, r1 = -INFINITY, span;
	int c;

	for (i = 0; i < r->nr_threads; i++) {
		if (!r->threads[i].excluded && r->threads[i].end > r->threads[i].start)
			n_in++;
		n_half += r->threads[i].sync_fraction > 0.5;
	}
	/* every thread over half in sync, the creator too: they all wait for each other */
	if ((!n_in || n_half == r->nr_threads) && r->nr_threads) {
		r->all_sync_fallback = 1;
		for (i = 0; i < r->nr_threads; i++)
			r->threads[i].excluded = 0;
	}
	for (i = 0; i < r->nr_threads; i++) {
		struct td_thread *t = &r->threads[i];
		if (t->excluded)
			continue;
		if (t->start < r0)
			r0 = t->start;
		if (t->end > r1)
			r1 = t->end;
	}
	if (!(r1 > r0)) {
		r0 = r1 = r->trace_start;
	}
	r->region_start = r0;
	r->region_end = r1;
	span = r1 - r0;

	for (i = 0, j = 0; i < b->nr_th && j < r->nr_threads; i++) {
		struct tstate *s = &b->th[i];
		struct td_thread *t;
		double inside = 0;
		size_t k;

		if (!s->have_start)
			continue;
		t = &r->threads[j++];
		for (k = 0; k < s->nr_iv; k++) {
			double o = overlap(s->iv[k].t0, s->iv[k].t1, r0, r1);
			t->comp[s->iv[k].comp] += o;
			inside += o;
		}
		t->comp[TD_TC_IMBALANCE] = span - inside > 0 ? span - inside : 0;
		if (t->excluded)
			continue;
		r->nr_aggregated++;
		for (c = 0; c < TD_TC_NR; c++)
			r->aggregate[c] += t->comp[c];
	}
	r->dominant = r->dominant_own = TD_TC_RUNNING;
	for (c = 0; c < TD_TC_NR; c++) {
		if (r->aggregate[c] > r->aggregate[r->dominant])
			r->dominant = (enum td_thread_comp)c;
		if (c != TD_TC_RUNNABLE && c != TD_TC_UNKNOWN &&
		    r->aggregate[c] > r->aggregate[r->dominant_own])
			r->dominant_own = (enum td_thread_comp)c;
	}
}

static void build_groups(struct td_threads_result *r)
{
	size_t i, g;
	int c;

	r->groups = xcalloc(r->nr_threads ? r->nr_threads : 1, sizeof(*r->groups));
	for (i = 0; i < r->nr_threads; i++) {
		struct td_thread *t = &r->threads[i];
		for (g = 0; g < r->nr_groups; g++)
			if (!strcmp(r->groups[g].name, t->comm))
				break;
		if (g == r->nr_groups)
			r->groups[r->nr_groups++].name = xstrdup(t->comm);
		r->groups[g].nr_threads++;
		r->groups[g].nr_excluded += t->excluded;
		for (c = 0; c < TD_TC_NR; c++)
			r->groups[g].comp[c] += t->comp[c];
	}
}

static void add_notes(struct td_threads *b, struct td_threads_result *r)
{
	unsigned long inferred = 0, switch_in = 0;
	size_t i, excluded = 0, waiting_workers = 0;

	for (i = 0; i < r->nr_threads; i++) {
		inferred += r->threads[i].nr_inferred_in;
		switch_in += r->threads[i].nr_switch_in;
		excluded += r->threads[i].excluded;
		waiting_workers += !r->threads[i].excluded && !r->threads[i].nr_created &&
				   r->threads[i].sync_fraction > 0.5;
	}
	if (inferred)
		add_note(r, "%lu of %lu switch-ins were not recorded and were placed at the thread's "
			 "next event: running time is underestimated and waiting time overestimated "
			 "(record with context-switch events, as 'tdperf record' does)",
			 inferred, inferred + switch_in);
	if (b->nr_missing_state)
		add_note(r, "%lu switch-outs carry no thread state: their sleeps are counted as "
			 "unknown unless a wakeup from the same process shows them to be sync",
			 b->nr_missing_state);
	if (r->all_sync_fallback)
		add_note(r, "every thread spent more than half of its time in sync, so none was "
			 "left out of the aggregate");
	else if (excluded)
		add_note(r, "%zu thread%s that created the others spent more than half of %s time in "
			 "sync, waiting for them, and %s left out of the aggregate and the region (as in "
			 "Heirman et al. 2011)", excluded,
			 excluded == 1 ? "" : "s", excluded == 1 ? "its" : "their",
			 excluded == 1 ? "is" : "are");
	if (waiting_workers && !r->all_sync_fallback)
		add_note(r, "%zu worker%s spent more than half of %s time in sync, waiting for other "
			 "workers (a contended lock or a barrier): kept in the aggregate, where that "
			 "waiting shows as sync", waiting_workers, waiting_workers == 1 ? "" : "s",
			 waiting_workers == 1 ? "its" : "their");
}

void td_threads_finish(struct td_threads *b, struct td_threads_result *r)
{
	struct td_thread_event **order;
	size_t i;

	memset(r, 0, sizeof(*r));
	order = xcalloc(b->nr_ev ? b->nr_ev : 1, sizeof(*order));
	for (i = 0; i < b->nr_ev; i++)
		order[i] = &b->ev[i];
	qsort(order, b->nr_ev, sizeof(*order), cmp_event);
	for (i = 0; i < b->nr_ev; i++) {
		if (order[i]->time) {
			if (!b->first)
				b->first = order[i]->time;
			b->last = order[i]->time;
		}
		replay(b, order[i]);
	}
	free(order);
	r->nr_events = b->nr_ev;
	r->trace_start = seconds(b->first);
	r->trace_end = seconds(b->last);

	collect_threads(b, r);
	build_region(b, r);
	build_groups(r);
	add_notes(b, r);
	qsort(r->threads, r->nr_threads, sizeof(*r->threads), cmp_thread);

	for (i = 0; i < b->nr_ev; i++)
		free((char *)b->ev[i].comm);
	for (i = 0; i < b->nr_th; i++) {
		free(b->th[i].comm);
		free(b->th[i].iv);
	}
	free(b->ev);
	free(b->th);
	free(b->index);
	free(b);
}

void td_threads_result_release(struct td_threads_result *r)
{
	size_t i;

	for (i = 0; i < r->nr_threads; i++) {
		free(r->threads[i].comm);
		free(r->threads[i].spans);
	}
	for (i = 0; i < r->nr_groups; i++)
		free(r->groups[i].name);
	for (i = 0; i < r->nr_notes; i++)
		free(r->notes[i]);
	free(r->threads);
	free(r->groups);
	free(r->notes);
	memset(r, 0, sizeof(*r));
}
