/*
 * gate-work: a known amount of CPU work in two functions, for the
 * regression gate's tests (tests/e2e/t1211-gate-runs.sh and the run
 * directories of tests/fixtures/gate/).
 *
 * usage: gate-work A B   (A and B million iterations of work_a and work_b)
 *
 * The work is proportional to the arguments, so "gate-work 60 30" does
 * 1.5 times the work of "gate-work 40 20", and "gate-work 20 40" moves
 * the time from work_a to work_b without changing the total.
 */
#include <stdint.h>
#include <stdlib.h>

static volatile uint64_t sink;

/* A dependent chain of integer operations the compiler cannot fold away. */
static inline __attribute__((always_inline)) uint64_t spin(uint64_t n, uint64_t x)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	return x;
}

static __attribute__((noinline)) void work_a(uint64_t millions)
{
	sink = spin(millions * 1000000, sink);
}

static __attribute__((noinline)) void work_b(uint64_t millions)
{
	sink = spin(millions * 1000000, sink + 1);
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	work_a(strtoull(argv[1], NULL, 10));
	work_b(strtoull(argv[2], NULL, 10));
	return 0;
}
