# parse/: see parse/parse.h
libtdperf_a_SOURCES += parse/parse.h
libtdperf_a_SOURCES += parse/perfdata-internal.h parse/perfdata.c parse/perfdata-read.c \
	parse/perfdata-trace.c parse/perfdata-feature.c parse/perfdata-stat.c
TESTS += tests/e2e/t0400-perfdata-record.sh
EXTRA_DIST += tests/e2e/t0400-perfdata-record.sh tests/e2e/perfdata-lib.sh
