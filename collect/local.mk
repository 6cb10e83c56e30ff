# collect/: see collect/collect.h
libtdperf_a_SOURCES += collect/collect.h
