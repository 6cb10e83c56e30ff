/*
 * tw-barrier: barrier-heavy.  Many short phases separated by a
 * pthread_barrier_wait; in each phase one thread (rotating) has ten times
 * the work of the others, so all other threads wait at the barrier for
 * most of the phase.  Waiting threads sleep in futex(FUTEX_WAIT) and are
 * woken by the last thread to arrive: the analysis must call it sync.
 */
#include "workload.h"

static pthread_barrier_t barrier;
static int nthreads, phases;
static long light_units;

static void *worker(void *arg)
{
	long id = (long)arg;
	int p;

	for (p = 0; p < phases; p++) {
		tw_spin(p % nthreads == id ? 10 * light_units : light_units);
		pthread_barrier_wait(&barrier);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct tw_args a = tw_parse_args(argc, argv);

	nthreads = a.threads;
	phases = 40;
	light_units = (long)(200 * a.scale);
	tw_check(pthread_barrier_init(&barrier, NULL, (unsigned)nthreads), "pthread_barrier_init");
	tw_run_threads(nthreads, worker, tw_worker_name);
	pthread_barrier_destroy(&barrier);
	return 0;
}
