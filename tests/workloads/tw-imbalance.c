/*
 * tw-imbalance: load imbalance without synchronization.  Thread 0
 * ("tw-heavy") has eight times the work of every other thread; the others
 * finish early and are gone while it still runs, so the analysis must
 * charge their absence from the parallel region as imbalance.
 */
#include "workload.h"

static long light_units;

static void *worker(void *arg)
{
	long id = (long)arg;

	tw_spin(id == 0 ? 8 * light_units : light_units);
	return NULL;
}

static const char *name_of(long i)
{
	return i == 0 ? "tw-heavy" : "tw-worker";
}

int main(int argc, char **argv)
{
	struct tw_args a = tw_parse_args(argc, argv);

	light_units = (long)(10000 * a.scale);
	tw_run_threads(a.threads, worker, name_of);
	return 0;
}
