# collect/: see collect/collect.h
libtdperf_a_SOURCES += collect/collect.h
# calibration: micro-benchmarks measuring the roofline's roofs (tdperf calibrate)
libtdperf_a_SOURCES += collect/calibrate.c collect/calibrate-kernels.c collect/calibrate-file.c
TESTS += tests/e2e/t0900-calibrate.sh
EXTRA_DIST += tests/e2e/t0900-calibrate.sh
libtdperf_a_SOURCES += collect/cpu.c collect/meta.c collect/run.c collect/sched.c
TESTS += tests/e2e/t0500-check.sh tests/e2e/t0510-record-nopmu.sh
EXTRA_DIST += tests/e2e/t0500-check.sh tests/e2e/t0510-record-nopmu.sh
