/*
 * bench/regions-bench: nanoseconds per tdperf_region_begin/end pair
 * (bench/regions-bench.sh runs it outside and under tdperf record --regions).
 *
 *   regions-bench PAIRS     PAIRS begin/end pairs of one region, with nothing
 *                           inside, timed in the thread's CPU time
 */
#include <tdperf.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* the thread's CPU time: what the marks cost, not what a loaded machine adds */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long pairs = argc > 1 ? atol(argv[1]) : 10000000, i;
	double t0, t1;

	t0 = now();
	for (i = 0; i < pairs; i++) {
		tdperf_region_begin("pair");
		__asm__ volatile("" ::: "memory");   /* keep the loop a loop */
		tdperf_region_end("pair");
	}
	t1 = now();
	printf("%ld pairs, %.1f ns per pair (%s)\n", pairs, (t1 - t0) / pairs,
	       tdperf_regions_active ? "counting" : "not under tdperf");
	return 0;
}
