/*
 * tw-lock: lock-contended.  Every thread repeatedly takes one global
 * mutex and does most of its work inside the critical section, so the
 * threads run one at a time and the others sleep in futex(FUTEX_WAIT)
 * until the holder unlocks and wakes one of them: sync must dominate.
 * The total number of critical sections is fixed and split over the
 * threads, so more threads only add waiting.
 */
#include "workload.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long inside_units, outside_units;
static int rounds;
static double shared_total;

static void *worker(void *arg)
{
	int r;

	for (r = 0; r < rounds; r++) {
		tw_check(pthread_mutex_lock(&lock), "pthread_mutex_lock");
		tw_spin(inside_units);
		shared_total += tw_sink;
		tw_check(pthread_mutex_unlock(&lock), "pthread_mutex_unlock");
		tw_spin(outside_units);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct tw_args a = tw_parse_args(argc, argv);

	rounds = 200 / a.threads;
	inside_units = (long)(400 * a.scale);
	outside_units = inside_units / 10;
	tw_run_threads(a.threads, worker, tw_worker_name);
	return shared_total > 0 ? 0 : 1;
}
