# tests/workloads/: multi-threaded programs with a known bottleneck, built
# for the t08xx thread-analysis tests (see tests/workloads/workload.h).
TW_WORKLOADS = tests/workloads/tw-parallel tests/workloads/tw-barrier \
	tests/workloads/tw-lock tests/workloads/tw-imbalance
check_PROGRAMS += $(TW_WORKLOADS)
EXTRA_DIST += tests/workloads/workload.h
tests_workloads_tw_parallel_SOURCES = tests/workloads/tw-parallel.c
tests_workloads_tw_barrier_SOURCES = tests/workloads/tw-barrier.c
tests_workloads_tw_lock_SOURCES = tests/workloads/tw-lock.c
tests_workloads_tw_imbalance_SOURCES = tests/workloads/tw-imbalance.c
# -O2 whatever the user's CFLAGS say, so the work per unit stays comparable;
# each workload sets its own CFLAGS and LDFLAGS, so a sanitizer build
# (AM_CFLAGS, AM_LDFLAGS) leaves them as a user's program would be.
TW_COMPILE = -O2 -pthread
TW_LINK = -pthread
tests_workloads_tw_parallel_CFLAGS = $(TW_COMPILE)
tests_workloads_tw_barrier_CFLAGS = $(TW_COMPILE)
tests_workloads_tw_lock_CFLAGS = $(TW_COMPILE)
tests_workloads_tw_imbalance_CFLAGS = $(TW_COMPILE)
tests_workloads_tw_parallel_LDFLAGS = $(TW_LINK)
tests_workloads_tw_barrier_LDFLAGS = $(TW_LINK)
tests_workloads_tw_lock_LDFLAGS = $(TW_LINK)
tests_workloads_tw_imbalance_LDFLAGS = $(TW_LINK)
# end-to-end tests of the thread analysis (they run the workloads above)
TESTS += tests/e2e/t0800-threads-workloads.sh tests/e2e/t0801-threads-sweep.sh \
	tests/e2e/t0802-threads-record.sh tests/e2e/t0803-threads-systemwide.sh tests/e2e/t0630-threads-charts.sh
EXTRA_DIST += tests/e2e/t0800-threads-workloads.sh tests/e2e/t0801-threads-sweep.sh \
	tests/e2e/t0802-threads-record.sh tests/e2e/t0803-threads-systemwide.sh tests/e2e/t0630-threads-charts.sh
# the job tests' MPI program (rank 3 does 3x the work), built with mpicc's flags
if HAVE_MPI
check_PROGRAMS += tests/workloads/mpi-imbalance
tests_workloads_mpi_imbalance_SOURCES = tests/workloads/mpi-imbalance.c
tests_workloads_mpi_imbalance_CFLAGS = -O2 $(MPI_CFLAGS)
tests_workloads_mpi_imbalance_LDFLAGS =
tests_workloads_mpi_imbalance_LDADD = $(MPI_LIBS)
endif
EXTRA_DIST += tests/workloads/mpi-imbalance.c
TESTS += tests/e2e/t0850-job-mpirun.sh tests/e2e/t0851-job-slurm.sh tests/e2e/t0852-job-topdown.sh
EXTRA_DIST += tests/e2e/t0850-job-mpirun.sh tests/e2e/t0851-job-slurm.sh tests/e2e/t0852-job-topdown.sh tests/e2e/job-lib.sh
# tw-hot: known hot functions in the executable, a shared library, the
# kernel and JIT code, for the hotspot tests (debug info and frame
# pointers so perf record -g and the symbolizer both have what they need)
check_PROGRAMS += tests/workloads/tw-hot tests/workloads/libtwhot.so
tests_workloads_tw_hot_SOURCES = tests/workloads/tw-hot.c
tests_workloads_tw_hot_CFLAGS = -O2 -g -fno-omit-frame-pointer -fno-inline
tests_workloads_tw_hot_LDFLAGS =
tests_workloads_tw_hot_LDADD = -ldl
tests_workloads_libtwhot_so_SOURCES = tests/workloads/tw-hot-lib.c
tests_workloads_libtwhot_so_CFLAGS = -O2 -g -fPIC -fno-omit-frame-pointer
tests_workloads_libtwhot_so_LDFLAGS = -shared
# hot-cxx: C++ names for the demangling tests, built by t0640 itself
# (the project has no C++ to configure a compiler for)
EXTRA_DIST += tests/workloads/hot-cxx.cc
# gate-work: a known amount of work in two functions (diff --check tests, tests/fixtures/gate/)
check_PROGRAMS += tests/workloads/gate-work
tests_workloads_gate_work_SOURCES = tests/workloads/gate-work.c
tests_workloads_gate_work_CFLAGS = -O2
