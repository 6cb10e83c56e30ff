# parse/: see parse/parse.h
libtdperf_a_SOURCES += parse/parse.h
libtdperf_a_SOURCES += parse/perfdata-stat.c
