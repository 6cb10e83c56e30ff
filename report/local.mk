# report/: see report/report.h
libtdperf_a_SOURCES += report/report.h
