/*
 * tw-parallel: perfectly parallel work.  Every thread computes the same
 * amount on its own with no sharing and no synchronization until the final
 * join, so its threads should spend their time running (or, on a machine
 * with fewer free CPUs than threads, runnable).
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

	work_units = (long)(40000 * a.scale);
	tw_run_threads(a.threads, worker, tw_worker_name);
	return 0;
}
