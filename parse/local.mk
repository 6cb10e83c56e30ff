# parse/: see parse/parse.h
libtdperf_a_SOURCES += parse/parse.h
libtdperf_a_SOURCES += parse/perfdata-internal.h parse/perfdata.c parse/perfdata-read.c \
	parse/perfdata-trace.c parse/perfdata-feature.c parse/perfdata-stat.c parse/perfdata-cpu.c \
	parse/perfdata-symbols.c parse/perfdata-inline.c parse/perfdata-open.c
TESTS += tests/e2e/t0400-perfdata-record.sh
EXTRA_DIST += tests/e2e/t0400-perfdata-record.sh tests/e2e/perfdata-lib.sh
# perf.data that lost a data.N stream or holds only a pipe header (hostile inputs work)
TESTS += tests/e2e/t1510-perfdata-lost-streams.sh
EXTRA_DIST += tests/e2e/t1510-perfdata-lost-streams.sh
# files a perf.data names (binaries, build-id cache, data.N, JIT maps) that another user controls
TESTS += tests/e2e/t1603-perfdata-files.sh
EXTRA_DIST += tests/e2e/t1603-perfdata-files.sh
# perf stat output (text, CSV, JSON) -> count model
libtdperf_a_SOURCES += parse/stat.c parse/stat-lines.c parse/stat-lines.h \
	parse/stat-model.c parse/stat-names.c parse/stat-infer.c
# test tool: prints the parsed count model (used by tests/e2e/t03xx)
check_PROGRAMS += tests/tools/stat-dump
tests_tools_stat_dump_LDADD = $(TD_LIBS)
TESTS += tests/e2e/t0300-stat-parse.sh
EXTRA_DIST += tests/e2e/t0300-stat-parse.sh
# perf's printed values in every form perf 6.1 writes (tests/fixtures/perf-stat-emu)
TESTS += tests/e2e/t0312-perf-printed-values.sh
EXTRA_DIST += tests/e2e/t0312-perf-printed-values.sh
TESTS += tests/e2e/t0401-perfdata-stat.sh
EXTRA_DIST += tests/e2e/t0401-perfdata-stat.sh
# test tool: reads every prefix of a perf.data (tests/e2e/t0402)
check_PROGRAMS += tests/tools/perfdata-truncate
tests_tools_perfdata_truncate_LDADD = $(TD_LIBS)
TESTS += tests/e2e/t0402-perfdata-bad.sh
EXTRA_DIST += tests/e2e/t0402-perfdata-bad.sh
# test tool: synthetic perf.data in either byte order (tests/e2e/t0403)
check_PROGRAMS += tests/tools/perfdata-synth
tests_tools_perfdata_synth_LDADD = $(TD_LIBS)
TESTS += tests/e2e/t0403-perfdata-byteorder.sh
EXTRA_DIST += tests/e2e/t0403-perfdata-byteorder.sh
# perf stat parser fuzz harness and its seeds
EXTRA_DIST += tests/fuzz/fuzz-stat.c tests/fuzz/seed-stat.sh tests/fuzz/stat-inputs
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_stat
TESTS += tests/unit/test_stat
tests_unit_test_stat_LDADD = $(UNIT_LIBS)
tests_unit_test_stat_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
check_PROGRAMS += tests/unit/test_perfdata
TESTS += tests/unit/test_perfdata
tests_unit_test_perfdata_LDADD = $(UNIT_LIBS)
tests_unit_test_perfdata_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
endif
# test tool: tracepoint fields through the API (tests/e2e/t0400)
check_PROGRAMS += tests/tools/perfdata-fields
tests_tools_perfdata_fields_LDADD = $(TD_LIBS)
# perf.data reader fuzz harness, its seeds (recorded by perf) and the runner
EXTRA_DIST += tests/fuzz/fuzz-hotspots.c tests/fuzz/seed-hotspots.sh tests/fuzz/fuzz-perfdata.c tests/fuzz/seed-perfdata.sh tests/fuzz/run-brief \
	tests/fuzz/lsan.supp bench/perfdata-decode.c
