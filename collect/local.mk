# collect/: one header per subject (docs/layout.md)
libtdperf_a_SOURCES += collect/calibrate.h collect/cpu.h collect/sched.h collect/run.h collect/plan.h \
	collect/sweep.h collect/job.h collect/hotspots.h collect/drilldown.h
# calibration: micro-benchmarks measuring the roofline's roofs (tdperf calibrate)
libtdperf_a_SOURCES += collect/calibrate.c collect/calibrate-kernels.c collect/calibrate-file.c
TESTS += tests/e2e/t0900-calibrate.sh
# calibrate measures the machine itself (FLOPs and bandwidth per core), so
# under 'make -j check' it runs after every other test, with nothing beside
# it: its checks then hold on any idle machine, and a busy verdict fails.
tests/e2e/t0900-calibrate.log: $(filter-out tests/e2e/t0900-calibrate.log,$(TEST_LOGS))
EXTRA_DIST += tests/e2e/t0900-calibrate.sh
libtdperf_a_SOURCES += collect/cpu.c collect/cpu-arm.c collect/meta.c collect/run.c collect/sched.c collect/sched-extra.c
TESTS += tests/e2e/t0500-check.sh tests/e2e/t0510-record-nopmu.sh tests/e2e/t1311-drilldown-nopmu.sh
EXTRA_DIST += tests/e2e/t0500-check.sh tests/e2e/t0510-record-nopmu.sh tests/e2e/t1311-drilldown-nopmu.sh
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_sched
TESTS += tests/unit/test_sched
tests_unit_test_sched_LDADD = $(UNIT_LIBS)
tests_unit_test_sched_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
endif
# Arm CPU identification (collect/cpu-arm.c)
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_cpu_arm
TESTS += tests/unit/test_cpu_arm
tests_unit_test_cpu_arm_LDADD = $(UNIT_LIBS)
tests_unit_test_cpu_arm_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
endif
# sweeps: tdperf record --sweep PARAM=V1,V2,... (threads work)
libtdperf_a_SOURCES += collect/sweep.c
TESTS += tests/e2e/t0804-record-sweep.sh
EXTRA_DIST += tests/e2e/t0804-record-sweep.sh
# jobs: one rank of srun/mpirun per run directory (collect/job.c)
libtdperf_a_SOURCES += collect/job.c
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_job
TESTS += tests/unit/test_job
tests_unit_test_job_LDADD = $(UNIT_LIBS)
tests_unit_test_job_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
endif
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_sweep
TESTS += tests/unit/test_sweep
tests_unit_test_sweep_LDADD = $(UNIT_LIBS)
tests_unit_test_sweep_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
endif
# the perf test double for the hardware path (tests/e2e/t0530-record-replay.sh)
check_PROGRAMS += tests/replay-perf
tests_replay_perf_SOURCES = tests/replay-perf.c
tests_replay_perf_LDADD = $(TD_LIBS)
TESTS += tests/e2e/t0520-record-dryrun.sh tests/e2e/t0530-record-replay.sh
EXTRA_DIST += tests/e2e/t0520-record-dryrun.sh tests/e2e/t0530-record-replay.sh
libtdperf_a_SOURCES += collect/hotspots.c collect/drilldown.c
# the plan of tdperf record: runs x perf jobs, and the dry run
libtdperf_a_SOURCES += collect/plan.c
# record --per-core and -A on the emulated PMU (issue 32)
TESTS += tests/e2e/t0034-per-core.sh
EXTRA_DIST += tests/e2e/t0034-per-core.sh
libtdperf_a_SOURCES += collect/regions.h collect/regions.c
