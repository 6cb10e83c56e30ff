/*
 * The marked program of the regions tests (tests/e2e/t110*-regions-*.sh):
 * each mode exercises one property of libtdperf.so.
 *
 *   regions-app ratio N       10 passes of A (3N iterations) and B (N)
 *   regions-app nest N        outer { inner } and a recursion of "rec"
 *   regions-app unbalanced N  an end without begin, a begin without end
 *   regions-app threads K N   K threads, each region "T" { "T.inner" }
 *   regions-app fork N        a child process marks "child" and exits
 *   regions-app sample N      "hot" entered 40 times
 *   regions-app work NA NB    10 passes of A (NA iterations) and B (NB)
 *   regions-app _exit N       "quick", then "left-open" still open at _exit(0)
 *   regions-app exec N        "before-exec", then execs itself as "ratio N"
 */
#include <tdperf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile double sink;
static long n;

/* n iterations of dependent floating point work: CPU time proportional to n */
static void work(long iters)
{
	double s = 1;
	long i;

	for (i = 0; i < iters; i++)
		s = s * 1.0000001 + 0.5;
	sink = s;
}

static void rec(int depth)
{
	TDPERF_REGION("rec");
	work(n);
	if (depth > 1)
		rec(depth - 1);
}

static void *thread_main(void *arg)
{
	(void)arg;
	tdperf_region_begin("T");
	work(n);
	tdperf_region_begin("T.inner");
	work(n);
	tdperf_region_end("T.inner");
	tdperf_region_end("T");
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int i;

	n = argc > 2 ? atol(argv[argc - 1]) : 1000000;
	if (!strcmp(mode, "work") && argc > 3) {
		for (i = 0; i < 10; i++) {
			tdperf_region_begin("A");
			work(atol(argv[2]));
			tdperf_region_end("A");
			tdperf_region_begin("B");
			work(atol(argv[3]));
			tdperf_region_end("B");
		}
	} else if (!strcmp(mode, "ratio")) {
		for (i = 0; i < 10; i++) {
			tdperf_region_begin("A");
			work(3 * n);
			tdperf_region_end("A");
			tdperf_region_begin("B");
			work(n);
			tdperf_region_end("B");
		}
	} else if (!strcmp(mode, "nest")) {
		tdperf_region_begin("outer");
		work(n);
		tdperf_region_begin("inner");
		work(2 * n);
		tdperf_region_end("inner");
		tdperf_region_end("outer");
		rec(3);
	} else if (!strcmp(mode, "unbalanced")) {
		tdperf_region_end("never-begun");
		tdperf_region_begin("left-open");
		work(n);
	} else if (!strcmp(mode, "threads")) {
		int k = atoi(argv[2]);
		pthread_t *t = calloc((size_t)k, sizeof(*t));

		for (i = 0; i < k; i++)
			pthread_create(&t[i], NULL, thread_main, NULL);
		for (i = 0; i < k; i++)
			pthread_join(t[i], NULL);
		free(t);
	} else if (!strcmp(mode, "fork")) {
		pid_t pid;

		tdperf_region_begin("parent");
		work(n);
		tdperf_region_end("parent");
		pid = fork();
		if (pid == 0) {
			tdperf_region_begin("child");
			work(n);
			tdperf_region_end("child");
			exit(0);
		}
		waitpid(pid, NULL, 0);
	} else if (!strcmp(mode, "_exit")) {
		tdperf_region_begin("quick");
		work(n);
		tdperf_region_end("quick");
		tdperf_region_begin("left-open");
		work(n);
		_exit(0);
	} else if (!strcmp(mode, "exec")) {
		tdperf_region_begin("before-exec");
		work(n);
		tdperf_region_end("before-exec");
		execl("/proc/self/exe", argv[0], "ratio", argv[argc - 1], (char *)NULL);
		perror("regions-app: exec");
		return 1;
	} else if (!strcmp(mode, "sample")) {
		for (i = 0; i < 40; i++) {
			TDPERF_REGION("hot");
			work(n / 10);
		}
	} else {
		fprintf(stderr, "regions-app: unknown mode '%s'\n", mode);
		return 2;
	}
	return 0;
}
