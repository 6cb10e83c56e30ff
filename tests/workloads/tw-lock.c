/*
 * tw-lock: lock-contended.  Every thread repeatedly takes one global lock
 * and does most of its work inside the critical section, so the threads
 * run one at a time and the others sleep in futex(FUTEX_WAIT) until the
 * holder hands the lock on and wakes the next one: sync must dominate.
 * The lock is fair (handed round-robin, each thread waiting on its own
 * condition variable): an unfair mutex lets one thread take it again and
 * again and finish early, which would turn part of the waiting into
 * imbalance and make the workload's profile depend on the scheduler.
 * The total number of critical sections is fixed and split over the
 * threads, so more threads only add waiting.
 */
#include "workload.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t turn_changed[TW_MAX_THREADS];
static int turn, nthreads;
static long inside_units, outside_units;
static int rounds;
static double shared_total;

static void *worker(void *arg)
{
	int id = (int)(long)arg;
	int r;

	for (r = 0; r < rounds; r++) {
		tw_check(pthread_mutex_lock(&lock), "pthread_mutex_lock");
		while (turn != id)
			tw_check(pthread_cond_wait(&turn_changed[id], &lock), "pthread_cond_wait");
		tw_check(pthread_mutex_unlock(&lock), "pthread_mutex_unlock");
		tw_spin(inside_units); /* the critical section: only the turn holder runs it */
		shared_total += tw_sink;
		tw_check(pthread_mutex_lock(&lock), "pthread_mutex_lock");
		turn = (turn + 1) % nthreads;
		tw_check(pthread_cond_signal(&turn_changed[turn]), "pthread_cond_signal");
		tw_check(pthread_mutex_unlock(&lock), "pthread_mutex_unlock");
		tw_spin(outside_units);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct tw_args a = tw_parse_args(argc, argv);
	int i;

	nthreads = a.threads;
	for (i = 0; i < nthreads; i++)
		tw_check(pthread_cond_init(&turn_changed[i], NULL), "pthread_cond_init");
	rounds = 200 / a.threads;
	inside_units = (long)(400 * a.scale);
	outside_units = inside_units / 10;
	tw_run_threads(a.threads, worker, tw_worker_name);
	return shared_total > 0 ? 0 : 1;
}
