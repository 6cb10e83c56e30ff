# metrics/: see metrics/metrics.h
libtdperf_a_SOURCES += metrics/metrics.h

# threads: per-thread cycle stacks from sched events (metrics/threads.c)
libtdperf_a_SOURCES += metrics/threads.c
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_threads
TESTS += tests/unit/test_threads
tests_unit_test_threads_LDADD = $(UNIT_LIBS)
tests_unit_test_threads_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
endif

# roofline (metrics/metrics.h, roofline section)
libtdperf_a_SOURCES += metrics/roofline-peaks.c
libtdperf_a_SOURCES += metrics/roofline.c
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_roofline
TESTS += tests/unit/test_roofline
tests_unit_test_roofline_LDADD = $(UNIT_LIBS)
tests_unit_test_roofline_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
endif
