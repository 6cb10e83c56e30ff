# util/: strbuf, option parsing, messages, files, run directories (util/util.h)
libtdperf_a_SOURCES += util/util.h util/parse-options.h util/parse-options.c util/strbuf.c util/message.c util/file.c util/remove-tree.c util/rundir.c util/datadir.c util/cpulist.c util/suggest.c
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_util
TESTS += tests/unit/test_util
tests_unit_test_util_LDADD = $(UNIT_LIBS)
tests_unit_test_util_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
endif
# outputs onto devices, FIFOs, symbolic links and inputs (hostile inputs work)
TESTS += tests/e2e/t1503-output-paths.sh
EXTRA_DIST += tests/e2e/t1503-output-paths.sh
# write errors: stdout on /dev/full, a full or read-only disk (hostile inputs work)
TESTS += tests/e2e/t1504-write-errors.sh
EXTRA_DIST += tests/e2e/t1504-write-errors.sh
# fault injection: cut fixtures, killed and concurrent records (hostile inputs work)
TESTS += tests/e2e/t1500-faults.sh
EXTRA_DIST += tests/e2e/t1500-faults.sh
# messages and numbers of the hostile-inputs probe
TESTS += tests/e2e/t1507-messages.sh
EXTRA_DIST += tests/e2e/t1507-messages.sh
# the option parser of every command (util/parse-options.c)
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_parse_options
TESTS += tests/unit/test_parse_options
tests_unit_test_parse_options_LDADD = $(UNIT_LIBS)
tests_unit_test_parse_options_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
endif
# another local user against root: planted trees, links and directories (issue 29)
TESTS += tests/e2e/t1600-other-users-dirs.sh
EXTRA_DIST += tests/e2e/t1600-other-users-dirs.sh
