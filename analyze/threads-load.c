/*
 * Feeding the thread analysis (metrics/threads.c) from a perf.data file:
 * sched tracepoints and PERF_RECORD_SWITCH/COMM/FORK/EXIT records, read
 * with our perf.data reader (parse/parse.h), become struct td_thread_event.
 *
 * What is used, and why:
 *   sched:sched_switch      prev_state tells preempted (R) from sleeping (S)
 *                           and uninterruptible (D); next_pid gives the
 *                           switch-in in system-wide recordings.
 *   sched:sched_waking      fires in the waker's context, so the sample's
 *                           pid/tid is the waker (sched_wakeup may fire on
 *                           the target CPU from an IPI, in whatever task
 *                           runs there; it is used only when sched_waking
 *                           was not recorded).
 *   sched:sched_wakeup_new  a new thread becomes runnable.
 *   sched:sched_process_fork / _exit, PERF_RECORD_FORK / EXIT: lifetimes.
 *   PERF_RECORD_SWITCH      (perf record --switch-events) the switch-in of
 *                           a per-task recording, which sched_switch cannot
 *                           show: it fires in the context of the task
 *                           leaving the CPU, which is not traced.
 *   PERF_RECORD_SWITCH_CPU_WIDE  the same in system-wide (-a) recordings,
 *                           written in the context of the task switched in.
 *                           sched_switch's next_pid is not enough there
 *                           either: a switch away from the idle task is
 *                           often not traced (the CPU was idle, tracing was
 *                           off), so the switch-in of a thread woken on an
 *                           idle CPU only shows as this record.
 *   PERF_RECORD_COMM        thread names, and exec as the main thread's start.
 */
#include "analyze/analyze-int.h"
#include "metrics/threads.h"
#include "parse/parse.h"

#include <stdlib.h>
#include <string.h>

#define MISC_SWITCH_OUT (1u << 13)
#define MISC_SWITCH_OUT_PREEMPT (1u << 14)
#define TP_EVENT_TYPE 2 /* PERF_TYPE_TRACEPOINT */

/* The tracepoints we decode, resolved once per file. */
enum tp_kind { TP_NONE, TP_SWITCH, TP_WAKING, TP_WAKEUP, TP_WAKEUP_NEW, TP_FORK, TP_EXIT };

struct state_letter {
	int64_t value;
	char letter;
};

struct feeder {
	struct td_threads *b;
	struct td_pd *pd;
	int have_waking;
	int have_switch_records;
	unsigned long nr_sched;
	/* prev_state value -> letter, learned from the file's own print format */
	struct state_letter states[32];
	size_t nr_states;
	struct strbuf tmp;
};

static enum tp_kind tp_kind_of(const struct td_pd_event *ev)
{
	if (!ev || !ev->name || !ev->tp)
		return TP_NONE;
	if (!strcmp(ev->name, "sched:sched_switch"))
		return TP_SWITCH;
	if (!strcmp(ev->name, "sched:sched_waking"))
		return TP_WAKING;
	if (!strcmp(ev->name, "sched:sched_wakeup"))
		return TP_WAKEUP;
	if (!strcmp(ev->name, "sched:sched_wakeup_new"))
		return TP_WAKEUP_NEW;
	if (!strcmp(ev->name, "sched:sched_process_fork"))
		return TP_FORK;
	if (!strcmp(ev->name, "sched:sched_process_exit"))
		return TP_EXIT;
	return TP_NONE;
}

/*
 * The letter perf prints for a sched_switch prev_state value.  The bit
 * layout changed across kernel versions, so it is read from the event's
 * print format stored in the file (the printed "prev_state=S"), once per
 * distinct value.  '?' when it cannot be printed.
 */
static char prev_state_letter(struct feeder *f, const struct td_pd_sample *s)
{
	int64_t v;
	const char *p;
	char letter = '?';
	size_t i;

	if (td_pd_tp_num(s, "prev_state", &v) < 0)
		return '?';
	for (i = 0; i < f->nr_states; i++)
		if (f->states[i].value == v)
			return f->states[i].letter;
	strbuf_reset(&f->tmp);
	if (td_pd_tp_print(s, &f->tmp) == 0 && (p = strstr(f->tmp.buf, "prev_state=")) != NULL) {
		p += strlen("prev_state=");
		if (*p && *p != ' ')
			letter = *p; /* "R+" is still R: preempted */
	} else if (v == 0) {
		letter = 'R';
	}
	if (f->nr_states < TD_ARRAY_SIZE(f->states)) {
		f->states[f->nr_states].value = v;
		f->states[f->nr_states].letter = letter;
		f->nr_states++;
	}
	return letter;
}

static int tp_int(const struct td_pd_sample *s, const char *name)
{
	int64_t v;

	if (td_pd_tp_num(s, name, &v) < 0)
		return -1;
	return (int)v;
}

static struct td_thread_event base_event(enum td_thread_event_kind kind, const struct td_pd_sample *s)
{
	struct td_thread_event e;

	memset(&e, 0, sizeof(e));
	e.kind = kind;
	e.time = s->time;
	e.cpu = (s->fields & TD_PD_S_CPU) ? (int)s->cpu : -1;
	e.pid = (s->fields & TD_PD_S_TID) ? (int)s->pid : -1;
	e.tid = (s->fields & TD_PD_S_TID) ? (int)s->tid : -1;
	e.prev_tid = e.next_tid = e.target_tid = e.target_pid = -1;
	e.prev_state = '?';
	return e;
}

static void feed_tracepoint(struct feeder *f, enum tp_kind kind, const struct td_pd_sample *s)
{
	struct td_thread_event e;

	f->nr_sched++;
	switch (kind) {
	case TP_SWITCH:
		e = base_event(TD_TEV_SWITCH, s);
		e.prev_tid = tp_int(s, "prev_pid");
		e.next_tid = tp_int(s, "next_pid");
		e.prev_state = prev_state_letter(f, s);
		break;
	case TP_WAKING:
	case TP_WAKEUP:
	case TP_WAKEUP_NEW:
		if (kind == TP_WAKEUP && f->have_waking)
			return; /* the waking event already told, from the right context */
		e = base_event(TD_TEV_WAKEUP, s);
		e.target_tid = tp_int(s, "pid");
		e.wakeup_new = kind == TP_WAKEUP_NEW;
		break;
	case TP_FORK:
		e = base_event(TD_TEV_FORK, s);
		e.target_tid = tp_int(s, "child_pid");
		strbuf_reset(&f->tmp);
		if (td_pd_tp_str(s, "child_comm", &f->tmp) == 0)
			e.comm = f->tmp.buf;
		break;
	case TP_EXIT:
		e = base_event(TD_TEV_EXIT, s);
		break;
	default:
		return;
	}
	td_threads_add(f->b, &e);
}

static void feed_record(struct feeder *f, const struct td_pd_record *r)
{
	struct td_thread_event e;
	struct td_pd_sample none;
	const struct td_pd_sample *s;

	memset(&none, 0, sizeof(none));
	s = r->has_sample ? &r->sample : &none;
	switch (r->type) {
	case TD_PD_SAMPLE:
		feed_tracepoint(f, tp_kind_of(r->sample.event), &r->sample);
		return;
	case TD_PD_SWITCH:
	case TD_PD_SWITCH_CPU_WIDE:
		f->have_switch_records = 1;
		e = base_event((r->misc & MISC_SWITCH_OUT) ? TD_TEV_SWITCH_OUT : TD_TEV_SWITCH_IN, s);
		e.preempt = !!(r->misc & MISC_SWITCH_OUT_PREEMPT);
		break;
	case TD_PD_COMM:
		e = base_event(TD_TEV_COMM, s);
		e.pid = (int)r->u.comm.pid;
		e.tid = (int)r->u.comm.tid;
		e.exec = r->u.comm.exec;
		e.comm = r->u.comm.comm;
		break;
	case TD_PD_FORK:
		e = base_event(TD_TEV_FORK, s);
		/*
		 * The kernel stamps the record's sample_id before it fills in
		 * the body, whose own time field can be tens of microseconds
		 * later on a loaded machine.  perf orders and prints records
		 * by the sample_id time; the body's is only the fallback.
		 */
		if (!(s->fields & TD_PD_S_TIME) || !e.time)
			e.time = r->u.fork.time;
		e.pid = (int)r->u.fork.ppid;
		e.tid = (int)r->u.fork.ptid;
		e.target_tid = (int)r->u.fork.tid;
		e.target_pid = (int)r->u.fork.pid;
		break;
	default:
		/*
		 * PERF_RECORD_EXIT is left out on purpose: perf writes it
		 * when the task is reaped, which can be long after it ran
		 * for the last time; sched_process_exit marks the end.
		 */
		return;
	}
	td_threads_add(f->b, &e);
}

/* Does the file hold anything the thread analysis can use? */
static int has_sched_events(struct td_pd *pd, int *have_waking)
{
	size_t i;
	int found = 0;

	*have_waking = 0;
	for (i = 0; i < td_pd_nr_events(pd); i++) {
		enum tp_kind k = tp_kind_of(td_pd_event(pd, i));
		if (k == TP_SWITCH)
			found = 1;
		if (k == TP_WAKING)
			*have_waking = 1;
	}
	return found;
}

int td_threads_load(const char *path, struct td_threads_result *out, struct strbuf *err)
{
	struct feeder f;
	const struct td_pd_record *r;
	int ret;

	memset(&f, 0, sizeof(f));
	strbuf_init(&f.tmp, 64);
	f.pd = td_pd_open(path, 0, err);
	if (!f.pd) {
		strbuf_release(&f.tmp);
		return -1;
	}
	if (!has_sched_events(f.pd, &f.have_waking)) {
		td_pd_close(f.pd);
		strbuf_release(&f.tmp);
		return 0;
	}
	f.b = td_threads_new();
	while ((ret = td_pd_next(f.pd, &r)) > 0)
		feed_record(&f, r);
	if (ret < 0) {
		strbuf_addstr(err, td_pd_error(f.pd));
		td_threads_finish(f.b, out); /* frees the builder */
		td_threads_result_release(out);
		td_pd_close(f.pd);
		strbuf_release(&f.tmp);
		return -1;
	}
	td_threads_finish(f.b, out);
	td_pd_close(f.pd);
	strbuf_release(&f.tmp);
	return 1;
}
