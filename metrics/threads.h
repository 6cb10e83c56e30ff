/*
 * metrics/threads.h: per-thread cycle stacks from scheduler events
 * (Heirman et al. 2011).
 *
 * Each thread's lifetime is split into running, runnable (waiting for a
 * CPU), synchronization, I/O, other sleep and unknown, from the scheduler
 * events perf recorded; imbalance is the part of the region (first start
 * to last end of the working threads) a thread was not alive for.
 * Threads over half their life in synchronization are shown but left out
 * of the aggregate, as Heirman et al. 2011 do.  The rules are in
 * metrics/threads.c.
 *
 * The analysis works on a small event model of its own, not on perf.data
 * directly, so that it can be unit-tested with event sequences built by
 * hand (tests/unit/test_threads.c) and fed from any source: the perf.data
 * reader (report/threads-load.c), or a test.
 *
 * Ownership: the builder (td_threads_new) copies what it needs from each
 * event and is freed by td_threads_finish(); the result owns its strings
 * and arrays (td_threads_result_release()).
 *
 * Errors: none.  Gaps in the events (switch-ins not recorded, switch-outs
 * without a thread state) are inferred or counted as unknown time, and each
 * kind of gap adds a sentence to the result's notes.
 *
 * Name prefix: td_threads_, td_thread_, TD_TEV_ (event kinds), TD_TC_ (components).
 */
#ifndef TD_METRICS_THREADS_H
#define TD_METRICS_THREADS_H

#include <stddef.h>
#include <stdint.h>

/* What happened, as far as the thread analysis cares. */
enum td_thread_event_kind {
	TD_TEV_SWITCH,     /* sched:sched_switch: prev_tid leaves its CPU in
	                        prev_state, next_tid enters it */
	TD_TEV_SWITCH_IN,  /* PERF_RECORD_SWITCH "in": tid enters a CPU
	                        (per-task recordings see no switch-ins otherwise) */
	TD_TEV_SWITCH_OUT, /* PERF_RECORD_SWITCH "out": tid leaves; 'preempt'
	                        set when it was still runnable */
	TD_TEV_WAKEUP,     /* sched_waking / sched_wakeup / sched_wakeup_new:
	                        the current task (pid/tid) wakes target_tid */
	TD_TEV_FORK,       /* sched_process_fork or PERF_RECORD_FORK: the
	                        current task creates target_tid (target_pid when
	                        known, else -1), named 'comm' */
	TD_TEV_EXIT,       /* sched_process_exit or PERF_RECORD_EXIT: tid ends */
	TD_TEV_COMM,       /* PERF_RECORD_COMM: tid is now called 'comm' */
};

/*
 * One event.  pid/tid name the task that was current on the CPU when the
 * event was recorded (the sample's PERF_SAMPLE_TID: pid is the process,
 * tid the thread); for TD_TEV_COMM they name the renamed thread.
 * -1 means unknown; tid 0 is the idle task and is never a workload thread.
 */
struct td_thread_event {
	enum td_thread_event_kind kind;
	uint64_t time;       /* ns, perf clock; 0 = unknown (synthesized records) */
	int cpu;             /* -1 unknown */
	int pid, tid;        /* current task */
	int prev_tid, next_tid; /* TD_TEV_SWITCH */
	char prev_state;     /* TD_TEV_SWITCH: 'R' (preempted), 'S' (sleeping),
	                        'D' (uninterruptible), 'X'/'Z' (dead), 'T', 'I',
	                        'P', ... as perf script prints it; '?' unknown */
	int preempt;         /* TD_TEV_SWITCH_OUT */
	int target_tid;      /* TD_TEV_WAKEUP: woken; TD_TEV_FORK: created */
	int target_pid;      /* TD_TEV_FORK: process of the new task, -1 unknown */
	int wakeup_new;      /* TD_TEV_WAKEUP from sched_wakeup_new */
	int exec;            /* TD_TEV_COMM caused by exec() */
	const char *comm;    /* TD_TEV_FORK, TD_TEV_COMM (copied) */
};

/*
 * Where a thread's time went.  The first six partition the thread's own
 * lifetime; imbalance is its absence from the region (below).
 */
enum td_thread_comp {
	TD_TC_RUNNING = 0, /* on a CPU */
	TD_TC_RUNNABLE,    /* ready but waiting for a CPU: preempted, or woken
	                      and not yet switched in */
	TD_TC_SYNC,        /* sleeping (state S) until woken by another thread of
	                      its own process: futex, mutex, barrier, condvar, join */
	TD_TC_IO,          /* uninterruptible sleep (state D): disk I/O, page-in,
	                      some kernel locks */
	TD_TC_SLEEP,       /* sleeping until woken from outside the process:
	                      timers, other processes, devices, signals */
	TD_TC_UNKNOWN,     /* cannot be told (events lost or not recorded) */
	TD_TC_IMBALANCE,   /* started late or ended early against the region */
	TD_TC_NR
};
/* "running", "runnable", "sync", "io", "sleep", "unknown", "imbalance" */
const char *td_thread_comp_id(enum td_thread_comp c);
/* One-line description for reports and 'tdperf explain'. */
const char *td_thread_comp_description(enum td_thread_comp c);

/* A stretch of a thread's life charged to one component (seconds, trace clock). */
struct td_thread_span {
	double start, end;
	enum td_thread_comp comp;
};

/* One thread's stack.  Times are seconds. */
struct td_thread {
	int tid, pid;
	char *comm;              /* last name seen */
	double start, end;       /* first and last moment known alive (trace clock) */
	double life[TD_TC_NR];   /* seconds over [start, end]; imbalance is 0 */
	double comp[TD_TC_NR];   /* the same clipped to the region, plus imbalance:
	                            sums to the region's span */
	double sync_fraction;    /* life[SYNC] / (end - start); NAN for a zero life */
	unsigned nr_created;     /* threads it created (fork events it made) */
	int excluded;            /* sync_fraction > 0.5 and it created threads: the
	                            parent waiting for its workers, shown, not aggregated */
	unsigned long nr_switch_in;   /* recorded switch-ins */
	unsigned long nr_inferred_in; /* switch-ins inferred from a later event */
	struct td_thread_span *spans; /* its life in time order, as 'life' was summed:
	                                 the timeline of the trace export */
	size_t nr_spans;
};

/* Threads of one name, summed (all members, excluded ones too). */
struct td_thread_group {
	char *name;
	size_t nr_threads, nr_excluded;
	double comp[TD_TC_NR];
};

struct td_threads_result {
	struct td_thread *threads;   /* ordered by start time, then tid */
	size_t nr_threads;
	struct td_thread_group *groups; /* ordered by first start */
	size_t nr_groups;
	double trace_start, trace_end;  /* first and last event */
	double region_start, region_end;/* span of the aggregated threads */
	double aggregate[TD_TC_NR];     /* thread-seconds, aggregated threads only */
	size_t nr_aggregated;
	int all_sync_fallback;          /* every thread was > 50 % sync: all aggregated */
	enum td_thread_comp dominant;   /* largest aggregate component */
	enum td_thread_comp dominant_own; /* largest besides runnable and unknown:
	                                   the workload's own bottleneck when the
	                                   CPUs were oversubscribed */
	unsigned long nr_events;
	char **notes;                   /* approximations and gaps, one sentence each */
	size_t nr_notes;
};

struct td_threads;
struct td_threads *td_threads_new(void);
/* Feed one event; any order (they are sorted by time in td_threads_finish). */
void td_threads_add(struct td_threads *b, const struct td_thread_event *ev);
/* Replay the events, build the stacks into out and free the builder. */
void td_threads_finish(struct td_threads *b, struct td_threads_result *out);
void td_threads_result_release(struct td_threads_result *r);

#endif /* TD_METRICS_THREADS_H */
