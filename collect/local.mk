# collect/: see collect/collect.h
libtdperf_a_SOURCES += collect/collect.h
# calibration: micro-benchmarks measuring the roofline's roofs (tdperf calibrate)
libtdperf_a_SOURCES += collect/calibrate.c collect/calibrate-kernels.c collect/calibrate-file.c
TESTS += tests/e2e/t0900-calibrate.sh
EXTRA_DIST += tests/e2e/t0900-calibrate.sh
