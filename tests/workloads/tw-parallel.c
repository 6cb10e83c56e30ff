/*
 * tw-parallel: perfectly parallel work.  A fixed total amount of
 * computation is split evenly over the threads (strong scaling: with enough
 * CPUs, twice the threads take half the time), with no sharing and no
 * synchronization until the final join, so its threads should spend their
 * time running (or, on a machine with fewer free CPUs than threads,
 * runnable).
 */
#include "workload.h"

static long work_units;

static void *worker(void *arg)
{
	tw_spin(work_units);
	return NULL;
}

int main(int argc, char **argv)
{
	struct tw_args a = tw_parse_args(argc, argv);

	work_units = (long)(80000 * a.scale) / a.threads;
	tw_run_threads(a.threads, worker, tw_worker_name);
	return 0;
}
