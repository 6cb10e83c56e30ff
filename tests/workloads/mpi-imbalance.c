/*
 * mpi-imbalance: an MPI program whose ranks do unequal work, by
 * construction, for the job tests (tests/e2e/t0850-job-mpirun.sh).
 *
 *     mpi-imbalance [UNITS [SLOW_RANK [FACTOR [spin]]]]
 *
 * Every rank computes UNITS units of work (default 1: about 0.15 s of CPU
 * time on a current core), except rank SLOW_RANK (default 3), which
 * computes FACTOR times as many (default 3).  Then all ranks wait for each
 * other at a barrier.  The wait polls a non-blocking barrier and sleeps
 * 1 ms between polls, so that a waiting rank uses no CPU: Open MPI's
 * blocking MPI_Barrier spins, which would give every rank the same CPU
 * time and hide the imbalance that a profile should show as waiting.
 * With "spin" the ranks wait in MPI_Barrier instead, as most programs do:
 * the waiting ranks' time then lies in the MPI library, which is what the
 * per-rank MPI share of a hotspots recording shows.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* One unit of work: a dependent floating-point chain the compiler cannot drop. */
static double work(long units)
{
	volatile double x = 1.0;
	long i;

	for (i = 0; i < units * 20000000L; i++)
		x = x * 1.0000001 + 1e-9;
	return x;
}

/* Wait at a barrier without spinning (see above). */
static void polite_barrier(void)
{
	struct timespec ms = { 0, 1000000 };
	MPI_Request req;
	int done = 0;

	MPI_Ibarrier(MPI_COMM_WORLD, &req);
	for (;;) {
		MPI_Test(&req, &done, MPI_STATUS_IGNORE);
		if (done)
			break;
		nanosleep(&ms, NULL);
	}
}

int main(int argc, char **argv)
{
	long units = argc > 1 ? atol(argv[1]) : 1;
	int slow = argc > 2 ? atoi(argv[2]) : 3;
	long factor = argc > 3 ? atol(argv[3]) : 3;
	int spin = argc > 4 && !strcmp(argv[4], "spin");
	int rank, size;
	double x;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (units < 1 || factor < 1) {
		if (rank == 0)
			fprintf(stderr, "usage: mpi-imbalance [UNITS [SLOW_RANK [FACTOR [spin]]]]\n");
		MPI_Finalize();
		return 2;
	}
	x = work(rank == slow ? units * factor : units);
	if (spin)
		MPI_Barrier(MPI_COMM_WORLD);
	else
		polite_barrier();
	if (x < 0) /* never: keeps x alive */
		printf("%g\n", x);
	MPI_Finalize();
	return 0;
}
