/*
 * Shared helpers of the multi-threaded test workloads (tests/workloads/).
 *
 * Each workload is a small pthread program with one known scaling
 * bottleneck, used by the t08xx tests to check that 'tdperf report' names
 * it.  Usage of every workload:
 *
 *     tw-NAME [THREADS [SCALE]]
 *
 * THREADS defaults to $OMP_NUM_THREADS, else 2, so that 'tdperf record
 * --sweep threads=...' can drive them either way.  SCALE multiplies the
 * amount of work (default 1: each workload runs for roughly 0.1 to 0.4 s
 * of CPU time on a current core).  Worker threads name themselves
 * "tw-worker"/"tw-heavy" with pthread_setname_np before they start working,
 * so that the analysis can group them by name.
 */
#ifndef TW_WORKLOAD_H
#define TW_WORKLOAD_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pthread_setname_np */
#endif

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TW_MAX_THREADS 256

struct tw_args {
	int threads;
	double scale;
};

/* Parse "THREADS [SCALE]"; exits with status 2 on bad arguments. */
static inline struct tw_args tw_parse_args(int argc, char **argv)
{
	struct tw_args a = { 2, 1.0 };
	const char *t = argc > 1 ? argv[1] : getenv("OMP_NUM_THREADS");
	char *end;

	if (t && *t) {
		long n = strtol(t, &end, 10);
		if (*end || n < 1 || n > TW_MAX_THREADS) {
			fprintf(stderr, "%s: thread count must be 1..%d, not '%s'\n",
				argv[0], TW_MAX_THREADS, t);
			exit(2);
		}
		a.threads = (int)n;
	}
	if (argc > 2) {
		a.scale = strtod(argv[2], &end);
		if (*end || !(a.scale > 0)) {
			fprintf(stderr, "%s: scale must be a positive number, not '%s'\n",
				argv[0], argv[2]);
			exit(2);
		}
	}
	return a;
}

/*
 * Burn CPU for 'units' units of pure computation (one unit is 1000
 * dependent floating-point multiply-adds, 2 to 3 microseconds).  The result
 * goes to a volatile sink so the compiler cannot drop the loop.
 */
static volatile double tw_sink;
static inline void tw_spin(long units)
{
	double x = 1.0;
	long i;

	for (i = 0; i < units * 1000; i++)
		x = x * 1.0000001 + 1e-9;
	tw_sink = x;
}

static inline void tw_check(int rc, const char *what)
{
	if (rc) {
		fprintf(stderr, "tw: %s: %s\n", what, strerror(rc));
		exit(1);
	}
}

struct tw_start {
	void *(*fn)(void *);
	const char *(*name)(long);
	long index;
};

/* Thread trampoline: name the thread, then run the workload function. */
static inline void *tw_thread_main(void *arg)
{
	struct tw_start *s = arg;

	pthread_setname_np(pthread_self(), s->name(s->index));
	return s->fn((void *)s->index);
}

/* Start 'n' threads running fn(index), each named name(index); join them all. */
static inline void tw_run_threads(int n, void *(*fn)(void *), const char *(*name)(long))
{
	static struct tw_start starts[TW_MAX_THREADS];
	pthread_t t[TW_MAX_THREADS];
	long i;

	for (i = 0; i < n; i++) {
		starts[i].fn = fn;
		starts[i].name = name;
		starts[i].index = i;
		tw_check(pthread_create(&t[i], NULL, tw_thread_main, &starts[i]), "pthread_create");
	}
	for (i = 0; i < n; i++)
		tw_check(pthread_join(t[i], NULL), "pthread_join");
}

static inline const char *tw_worker_name(long i)
{
	(void)i;
	return "tw-worker";
}

#endif /* TW_WORKLOAD_H */
