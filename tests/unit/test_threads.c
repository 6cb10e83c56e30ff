/*
 * Unit tests for metrics/threads.c: per-thread stacks from scheduler
 * events.  Every test builds an event sequence by hand, in the shape the
 * perf.data feeder produces (struct td_thread_event, metrics/threads.h),
 * with times in whole milliseconds so that the expected components can be
 * worked out on paper; each test states that arithmetic in its comments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "metrics/threads.h"

#define MS 1000000ull

static struct td_thread_event ev(enum td_thread_event_kind kind, uint64_t ms, int pid, int tid)
{
	struct td_thread_event e;

	memset(&e, 0, sizeof(e));
	e.kind = kind;
	e.time = ms * MS;
	e.cpu = 0;
	e.pid = pid;
	e.tid = tid;
	e.prev_tid = e.next_tid = e.target_tid = e.target_pid = -1;
	e.prev_state = '?';
	return e;
}

static void exec_comm(struct td_threads *b, uint64_t ms, int pid, const char *comm)
{
	struct td_thread_event e = ev(TD_TEV_COMM, ms, pid, pid);

	e.exec = 1;
	e.comm = comm;
	td_threads_add(b, &e);
}

/* tid (of pid) switched out in 'state' by a sched_switch tracepoint to next. */
static void switch_out(struct td_threads *b, uint64_t ms, int pid, int tid, char state, int next)
{
	struct td_thread_event e = ev(TD_TEV_SWITCH, ms, pid, tid);

	e.prev_tid = tid;
	e.prev_state = state;
	e.next_tid = next;
	td_threads_add(b, &e);
}

static void switch_in(struct td_threads *b, uint64_t ms, int pid, int tid)
{
	struct td_thread_event e = ev(TD_TEV_SWITCH_IN, ms, pid, tid);

	td_threads_add(b, &e);
}

static void wake(struct td_threads *b, uint64_t ms, int pid, int tid, int target)
{
	struct td_thread_event e = ev(TD_TEV_WAKEUP, ms, pid, tid);

	e.target_tid = target;
	td_threads_add(b, &e);
}

static void fork_thread(struct td_threads *b, uint64_t ms, int pid, int tid, int child,
			const char *comm)
{
	struct td_thread_event e = ev(TD_TEV_FORK, ms, pid, tid);

	e.target_tid = child;
	e.target_pid = pid;
	e.comm = comm;
	td_threads_add(b, &e);
}

static void exit_thread(struct td_threads *b, uint64_t ms, int pid, int tid)
{
	struct td_thread_event e = ev(TD_TEV_EXIT, ms, pid, tid);

	td_threads_add(b, &e);
}

static const struct td_thread *find(const struct td_threads_result *r, int tid)
{
	size_t i;

	for (i = 0; i < r->nr_threads; i++)
		if (r->threads[i].tid == tid)
			return &r->threads[i];
	fail_msg("thread %d not in the result", tid);
	return NULL;
}

#define assert_ms(got, ms) assert_true(fabs((got) - (ms) / 1e3) < 1e-9)

/*
 * One thread: runs 1-2, preempted 2-3, runs 3-5, sleeps 5-8 until a task of
 * another process wakes it, waits for a CPU 8-9, runs 9-10 and exits.
 * running 1+2+1 = 4 ms, runnable 1+1 = 2 ms, sleep 3 ms.
 */
static void one_thread_states_partition_its_life(void **state)
{
	struct td_threads *b = td_threads_new();
	struct td_threads_result r;
	const struct td_thread *t;

	exec_comm(b, 1, 100, "app");
	switch_out(b, 2, 100, 100, 'R', 7);
	switch_in(b, 3, 100, 100);
	switch_out(b, 5, 100, 100, 'S', 0);
	wake(b, 8, 300, 300, 100);
	switch_in(b, 9, 100, 100);
	exit_thread(b, 10, 100, 100);
	td_threads_finish(b, &r);

	/* the waker of another process is a task of its own in the result */
	t = find(&r, 100);
	assert_string_equal(t->comm, "app");
	assert_ms(t->start, 1);
	assert_ms(t->end, 10);
	assert_ms(t->life[TD_TC_RUNNING], 4);
	assert_ms(t->life[TD_TC_RUNNABLE], 2);
	assert_ms(t->life[TD_TC_SLEEP], 3);
	assert_ms(t->life[TD_TC_SYNC], 0);
	assert_int_equal(t->nr_switch_in, 2);
	assert_int_equal(t->nr_inferred_in, 0);
	td_threads_result_release(&r);
}

/*
 * Two threads of process 100.  Thread 101 sleeps in S at 4 and is woken by
 * 102 (same process) at 7: sync 3 ms.  Thread 102 sleeps in D 8-10 and is
 * woken by an interrupt (no waker recorded), switched in at 11: io 3 ms
 * (the D sleep lasts until the switch-in when the wakeup is unseen).
 */
static void sync_needs_a_waker_of_the_same_process(void **state)
{
	struct td_threads *b = td_threads_new();
	struct td_threads_result r;
	const struct td_thread *a, *c;

	exec_comm(b, 0 + 1, 100, "app");
	fork_thread(b, 2, 100, 100, 101, "app");
	fork_thread(b, 2, 100, 100, 102, "app");
	switch_in(b, 3, 100, 101);
	switch_in(b, 3, 100, 102);
	switch_out(b, 4, 100, 101, 'S', 0);
	wake(b, 7, 100, 102, 101);
	switch_in(b, 7, 100, 101);
	switch_out(b, 8, 100, 102, 'D', 0);
	switch_in(b, 11, 100, 102);
	exit_thread(b, 12, 100, 101);
	exit_thread(b, 12, 100, 102);
	exit_thread(b, 13, 100, 100);
	td_threads_finish(b, &r);

	a = find(&r, 101);
	assert_ms(a->life[TD_TC_RUNNABLE], 1); /* fork at 2, first switch-in at 3 */
	assert_ms(a->life[TD_TC_SYNC], 3);
	assert_ms(a->life[TD_TC_RUNNING], 1 + 5);
	c = find(&r, 102);
	assert_ms(c->life[TD_TC_IO], 3);
	assert_ms(c->life[TD_TC_SYNC], 0);
	assert_ms(c->life[TD_TC_RUNNING], 5 + 1);
	td_threads_result_release(&r);
}

/*
 * A thread woken by itself cannot be in sync; a sleeper woken by a task of
 * another process is asleep, not in sync.
 */
static void waker_of_another_process_is_sleep(void **state)
{
	struct td_threads *b = td_threads_new();
	struct td_threads_result r;

	exec_comm(b, 1, 100, "app");
	exec_comm(b, 1, 200, "other");
	switch_out(b, 2, 100, 100, 'S', 200);
	wake(b, 6, 200, 200, 100);
	switch_out(b, 6, 200, 200, 'S', 100);
	exit_thread(b, 8, 100, 100);
	td_threads_finish(b, &r);

	/* 100: runs 1-2, sleeps 2-6 (woken by process 200), runs 6-8 */
	assert_ms(find(&r, 100)->life[TD_TC_SLEEP], 4);
	assert_ms(find(&r, 100)->life[TD_TC_SYNC], 0);
	assert_ms(find(&r, 100)->life[TD_TC_RUNNING], 1 + 2);
	assert_int_equal(find(&r, 100)->nr_switch_in, 1); /* via sched_switch next */
	td_threads_result_release(&r);
}

/*
 * The main-thread case of Heirman et al. 2011.  Main (100) forks three
 * workers at 1 and waits in pthread_join from 1 to 20; the workers run
 * 1-5, 1-5 and 1-20.
 * Main is 19/19 sync: excluded.  Region = workers' span [1, 20] = 19 ms.
 * Light workers: running 4, imbalance 15 each; heavy: running 19.
 * Aggregate: running 27, imbalance 30: imbalance dominates.
 */
static void main_waiting_in_join_is_excluded_and_imbalance_counted(void **state)
{
	struct td_threads *b = td_threads_new();
	struct td_threads_result r;
	const struct td_thread *m, *l, *h;
	int tid;

	exec_comm(b, 1, 100, "app");
	for (tid = 101; tid <= 103; tid++) {
		fork_thread(b, 1, 100, 100, tid, "app");
		switch_in(b, 1, 100, tid);
	}
	switch_out(b, 1, 100, 100, 'S', 101);
	exit_thread(b, 5, 100, 101);
	exit_thread(b, 5, 100, 102);
	wake(b, 20, 100, 103, 100); /* the kernel's join wake, in 103's context */
	exit_thread(b, 20, 100, 103);
	switch_in(b, 20, 100, 100);
	exit_thread(b, 20, 100, 100);
	td_threads_finish(b, &r);

	m = find(&r, 100);
	assert_true(m->excluded);
	assert_ms(m->life[TD_TC_SYNC], 19);
	l = find(&r, 101);
	h = find(&r, 103);
	assert_false(l->excluded);
	assert_false(h->excluded);
	assert_ms(r.region_start, 1);
	assert_ms(r.region_end, 20);
	assert_ms(l->comp[TD_TC_RUNNING], 4);
	assert_ms(l->comp[TD_TC_IMBALANCE], 15);
	assert_ms(h->comp[TD_TC_RUNNING], 19);
	assert_ms(h->comp[TD_TC_IMBALANCE], 0);
	assert_int_equal(r.nr_aggregated, 3);
	assert_ms(r.aggregate[TD_TC_RUNNING], 27);
	assert_ms(r.aggregate[TD_TC_IMBALANCE], 30);
	assert_ms(r.aggregate[TD_TC_SYNC], 0);
	assert_int_equal(r.dominant, TD_TC_IMBALANCE);
	assert_false(r.all_sync_fallback);
	assert_int_equal(r.nr_groups, 1);
	assert_int_equal(r.groups[0].nr_threads, 4);
	assert_int_equal(r.groups[0].nr_excluded, 1);
	assert_true(r.nr_notes >= 1);
	td_threads_result_release(&r);
}

/*
 * A lock handed around: two threads of process 100 take turns.  100 runs
 * 1-5, sleeps 5-9 until 101 wakes it, runs 9-10: sync 4 of 9, kept.
 * 101 (forked at 1) runs 1-2, sleeps 2-4 until 100 wakes it, runs 4-10.
 */
static void lock_handoff_is_sync_and_kept_below_half(void **state)
{
	struct td_threads *b = td_threads_new();
	struct td_threads_result r;

	exec_comm(b, 1, 100, "a");
	fork_thread(b, 1, 100, 100, 101, "b");
	switch_in(b, 1, 100, 101);
	switch_out(b, 2, 100, 101, 'S', 0);
	wake(b, 4, 100, 100, 101);
	switch_in(b, 4, 100, 101);
	switch_out(b, 5, 100, 100, 'S', 0);
	wake(b, 9, 100, 101, 100);
	switch_in(b, 9, 100, 100);
	exit_thread(b, 10, 100, 101);
	exit_thread(b, 10, 100, 100);
	td_threads_finish(b, &r);

	assert_ms(find(&r, 100)->life[TD_TC_SYNC], 4);
	assert_ms(find(&r, 100)->life[TD_TC_RUNNING], 5);
	assert_ms(find(&r, 101)->life[TD_TC_SYNC], 2);
	assert_ms(find(&r, 101)->life[TD_TC_RUNNING], 7);
	assert_false(find(&r, 100)->excluded);
	assert_false(find(&r, 101)->excluded);
	assert_false(r.all_sync_fallback);
	assert_int_equal(r.dominant, TD_TC_RUNNING);
	assert_int_equal(r.nr_groups, 2); /* named "a" and "b" */
	td_threads_result_release(&r);
}

/*
 * Four threads of one process pass a lock round-robin, one running at a
 * time: thread k runs [s, s+1) for s = 1 + 4c + k (cycles c = 0..2), then
 * wakes thread k+1 and sleeps.  Every thread is more than half in sync,
 * so none would remain: all are aggregated and a note says so.
 *   100: run 3, sync 9 ([2,5) [6,9) [10,13)), 75 %
 *   101: sync [1,2) [3,6) [7,10) = 7, run 3, asleep at the end [11,13) = sleep 2
 *   102: sync [1,3) [4,7) [8,11) = 8, run 3, sleep [12,13) = 1
 *   103: sync [1,4) [5,8) [9,12) = 9, run 3
 * Aggregate: sync 33, running 12, sleep 3.
 */
static void all_sync_threads_fall_back_to_aggregating_all(void **state)
{
	struct td_threads *b = td_threads_new();
	struct td_threads_result r;
	int c, k, tid;
	size_t i;
	int noted = 0;

	exec_comm(b, 1, 100, "w");
	for (tid = 101; tid <= 103; tid++) {
		fork_thread(b, 1, 100, 100, tid, "w");
		switch_in(b, 1, 100, tid);
		switch_out(b, 1, 100, tid, 'S', 0);
	}
	for (c = 0; c < 3; c++) {
		for (k = 0; k < 4; k++) {
			uint64_t s = 1 + 4 * c + k;
			tid = 100 + k;
			if (c || k)
				switch_in(b, s, 100, tid);
			wake(b, s + 1, 100, tid, 100 + (k + 1) % 4);
			switch_out(b, s + 1, 100, tid, 'S', 0);
		}
	}
	td_threads_finish(b, &r);

	assert_ms(find(&r, 100)->life[TD_TC_SYNC], 9);
	assert_ms(find(&r, 101)->life[TD_TC_SYNC], 7);
	assert_ms(find(&r, 101)->life[TD_TC_SLEEP], 2);
	assert_ms(find(&r, 102)->life[TD_TC_SYNC], 8);
	assert_ms(find(&r, 103)->life[TD_TC_SYNC], 9);
	assert_true(r.all_sync_fallback);
	assert_int_equal(r.nr_aggregated, 4);
	assert_ms(r.aggregate[TD_TC_SYNC], 33);
	assert_ms(r.aggregate[TD_TC_RUNNING], 12);
	assert_ms(r.aggregate[TD_TC_SLEEP], 3);
	assert_int_equal(r.dominant, TD_TC_SYNC);
	assert_int_equal(r.dominant_own, TD_TC_SYNC);
	for (i = 0; i < r.nr_notes; i++)
		noted |= strstr(r.notes[i], "more than half") != NULL;
	assert_true(noted);
	td_threads_result_release(&r);
}

/* Events fed out of order are replayed in time order. */
static void events_are_sorted_by_time(void **state)
{
	struct td_threads *b = td_threads_new();
	struct td_threads_result r;

	exit_thread(b, 10, 100, 100);
	switch_in(b, 6, 100, 100);
	switch_out(b, 2, 100, 100, 'R', 0);
	exec_comm(b, 1, 100, "app");
	td_threads_finish(b, &r);
	assert_ms(find(&r, 100)->life[TD_TC_RUNNING], 1 + 4);
	assert_ms(find(&r, 100)->life[TD_TC_RUNNABLE], 4);
	assert_int_equal(r.nr_events, 4);
	/* runnable 4 of 9 leads, but the workload's own bottleneck is running */
	assert_int_equal(r.dominant, TD_TC_RUNNING);
	assert_int_equal(r.dominant_own, TD_TC_RUNNING);
	td_threads_result_release(&r);
}

/*
 * Without switch-in records, a thread seen in its own context again must
 * have been switched in: the switch-in is inferred and said so in a note.
 * 100: runs 1-2, sleeps 2-5 (no wakeup seen), seen waking 101 at 5.
 */
static void missing_switch_ins_are_inferred_and_noted(void **state)
{
	struct td_threads *b = td_threads_new();
	struct td_threads_result r;
	size_t i;
	int noted = 0;

	exec_comm(b, 1, 100, "app");
	switch_out(b, 2, 100, 100, 'S', 0);
	wake(b, 5, 100, 100, 999);
	exit_thread(b, 6, 100, 100);
	td_threads_finish(b, &r);
	assert_int_equal(find(&r, 100)->nr_inferred_in, 1);
	assert_ms(find(&r, 100)->life[TD_TC_SLEEP], 3);
	for (i = 0; i < r.nr_notes; i++)
		noted |= strstr(r.notes[i], "inferred") != NULL || strstr(r.notes[i], "not recorded") != NULL;
	assert_true(noted);
	td_threads_result_release(&r);
}

/* A switch-out record without a state: preempted is runnable, else unknown. */
static void switch_out_records_without_state(void **state)
{
	struct td_threads *b = td_threads_new();
	struct td_threads_result r;
	struct td_thread_event e;

	exec_comm(b, 1, 100, "app");
	e = ev(TD_TEV_SWITCH_OUT, 2, 100, 100);
	e.preempt = 1;
	td_threads_add(b, &e);
	switch_in(b, 3, 100, 100);
	e = ev(TD_TEV_SWITCH_OUT, 4, 100, 100);
	td_threads_add(b, &e);
	switch_in(b, 7, 100, 100);
	exit_thread(b, 8, 100, 100);
	td_threads_finish(b, &r);
	assert_ms(find(&r, 100)->life[TD_TC_RUNNABLE], 1);
	assert_ms(find(&r, 100)->life[TD_TC_UNKNOWN], 3);
	assert_ms(find(&r, 100)->life[TD_TC_RUNNING], 1 + 1 + 1);
	td_threads_result_release(&r);
}

/*
 * perf writes a PERF_RECORD_SWITCH "out" right after the sched_switch
 * tracepoint of the same switch: it must not count as the thread being
 * back on a CPU.  100 sleeps 2-6 in S until 101 of its process wakes it.
 */
static void switch_out_record_after_the_tracepoint_changes_nothing(void **state)
{
	struct td_threads *b = td_threads_new();
	struct td_threads_result r;
	struct td_thread_event e;

	exec_comm(b, 1, 100, "app");
	fork_thread(b, 1, 100, 100, 101, "app");
	switch_in(b, 1, 100, 101);
	switch_out(b, 2, 100, 100, 'S', 0);
	e = ev(TD_TEV_SWITCH_OUT, 2, 100, 100);
	td_threads_add(b, &e);
	wake(b, 6, 100, 101, 100);
	switch_in(b, 7, 100, 100);
	exit_thread(b, 8, 100, 100);
	exit_thread(b, 8, 100, 101);
	td_threads_finish(b, &r);
	assert_int_equal(find(&r, 100)->nr_inferred_in, 0);
	assert_ms(find(&r, 100)->life[TD_TC_SYNC], 4);
	assert_ms(find(&r, 100)->life[TD_TC_RUNNABLE], 1);
	assert_ms(find(&r, 100)->life[TD_TC_UNKNOWN], 0);
	td_threads_result_release(&r);
}

/*
 * An exiting thread wakes its joiner after perf stopped tracing it, so the
 * wakeup is missing.  Main (100) sleeps 2-9 with no wakeup recorded; its
 * worker 101 exits at 7; main is switched in at 9: sync 2-7, runnable 7-9.
 * A sleep with no exit of the process inside it stays "sleep".
 */
static void join_wakeup_is_inferred_from_the_exit(void **state)
{
	struct td_threads *b = td_threads_new();
	struct td_threads_result r;

	exec_comm(b, 1, 100, "app");
	fork_thread(b, 1, 100, 100, 101, "app");
	switch_in(b, 1, 100, 101);
	switch_out(b, 2, 100, 100, 'S', 0);
	exit_thread(b, 7, 100, 101);
	switch_in(b, 9, 100, 100);
	switch_out(b, 10, 100, 100, 'S', 0);
	switch_in(b, 12, 100, 100);
	exit_thread(b, 13, 100, 100);
	td_threads_finish(b, &r);
	assert_ms(find(&r, 100)->life[TD_TC_SYNC], 5);
	assert_ms(find(&r, 100)->life[TD_TC_RUNNABLE], 2);
	assert_ms(find(&r, 100)->life[TD_TC_SLEEP], 2);
	td_threads_result_release(&r);
}

/* No events at all: an empty, well-formed result. */
static void no_events_give_an_empty_result(void **state)
{
	struct td_threads_result r;

	td_threads_finish(td_threads_new(), &r);
	assert_int_equal(r.nr_threads, 0);
	assert_int_equal(r.nr_groups, 0);
	assert_int_equal(r.nr_aggregated, 0);
	td_threads_result_release(&r);
}

/* Component ids are stable: the report schema names them. */
static void component_ids_are_the_documented_ones(void **state)
{
	assert_string_equal(td_thread_comp_id(TD_TC_RUNNING), "running");
	assert_string_equal(td_thread_comp_id(TD_TC_RUNNABLE), "runnable");
	assert_string_equal(td_thread_comp_id(TD_TC_SYNC), "sync");
	assert_string_equal(td_thread_comp_id(TD_TC_IO), "io");
	assert_string_equal(td_thread_comp_id(TD_TC_SLEEP), "sleep");
	assert_string_equal(td_thread_comp_id(TD_TC_UNKNOWN), "unknown");
	assert_string_equal(td_thread_comp_id(TD_TC_IMBALANCE), "imbalance");
	assert_non_null(strstr(td_thread_comp_description(TD_TC_SYNC), "futex"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_thread_states_partition_its_life),
		cmocka_unit_test(sync_needs_a_waker_of_the_same_process),
		cmocka_unit_test(waker_of_another_process_is_sleep),
		cmocka_unit_test(main_waiting_in_join_is_excluded_and_imbalance_counted),
		cmocka_unit_test(lock_handoff_is_sync_and_kept_below_half),
		cmocka_unit_test(all_sync_threads_fall_back_to_aggregating_all),
		cmocka_unit_test(events_are_sorted_by_time),
		cmocka_unit_test(missing_switch_ins_are_inferred_and_noted),
		cmocka_unit_test(switch_out_records_without_state),
		cmocka_unit_test(switch_out_record_after_the_tracepoint_changes_nothing),
		cmocka_unit_test(join_wakeup_is_inferred_from_the_exit),
		cmocka_unit_test(no_events_give_an_empty_result),
		cmocka_unit_test(component_ids_are_the_documented_ones),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
