# metrics/: see metrics/metrics.h
libtdperf_a_SOURCES += metrics/metrics.h
