# report/: the report document and its renderers (report/report.h)
libtdperf_a_SOURCES += report/report.h report/report-int.h report/build.c report/import.c \
	report/events.c report/software.c report/reason.c report/text.c report/csv.c \
	report/errorbars.c report/sanity.c report/groups.c report/legacy-topdown.c \
	report/perf-names.c report/count-memo.c report/stream.c report/live.c
# text and CSV of long runs stream their scopes (report/stream.c)
TESTS += tests/e2e/t0304-interval-stream.sh
EXTRA_DIST += tests/e2e/t0304-interval-stream.sh
# the live view of perf stat -I output (report/live.c)
TESTS += tests/e2e/t0305-live.sh
EXTRA_DIST += tests/e2e/t0305-live.sh tests/fuzz/fuzz-live.c tests/fuzz/seed-live.sh
# charts (gnuplot), HTML report and diff
libtdperf_a_SOURCES += report/plot.c report/plot-data.c report/plot-palette.c report/plot-run.c \
	report/html.c report/html-template.c report/html-parts.c report/html-tree.c report/html-threads.c report/html-stacks.c \
	report/diff.c report/diff-text.c report/diff-html.c report/diff-charts.c \
	report/diff-counts.c
# threads: the document's "threads"/"sweep" objects and their text (threads work)
libtdperf_a_SOURCES += report/threads-load.c report/threads-json.c report/text-threads.c
# jobs: the merged report of a job directory (one run directory per rank)
libtdperf_a_SOURCES += report/job.c report/job-rank.c report/job-text.c report/job-html.c report/job-diff.c report/job-diff-html.c
check_PROGRAMS += tests/tools/threads-tool
tests_tools_threads_tool_LDADD = $(TD_LIBS)
# charts, HTML and diff tests
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_sanity
TESTS += tests/unit/test_sanity
tests_unit_test_sanity_LDADD = $(UNIT_LIBS)
tests_unit_test_sanity_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
check_PROGRAMS += tests/unit/test_report_html
TESTS += tests/unit/test_report_html
tests_unit_test_report_html_LDADD = $(UNIT_LIBS)
tests_unit_test_report_html_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
endif
TESTS += tests/e2e/t0600-charts.sh tests/e2e/t0610-diff.sh tests/e2e/t0620-html.sh
EXTRA_DIST += tests/e2e/browser-check.js tests/e2e/gen-report-doc.sh \
	tests/fuzz/fuzz-report-render.c tests/fuzz/seed-report-render.sh \
	tests/e2e/t0600-charts.sh tests/e2e/t0610-diff.sh tests/e2e/t0620-html.sh
# roofline: the document's "roofline" object and its chart (roofline work)
libtdperf_a_SOURCES += report/roofline.c report/plot-roofline.c
check_PROGRAMS += tests/tools/roofline-tool
tests_tools_roofline_tool_LDADD = $(TD_LIBS)
TESTS += tests/e2e/t0910-roofline.sh
EXTRA_DIST += tests/e2e/t0910-roofline.sh
# stacks: the scopes' "stacks" objects and their text (stacks work)
libtdperf_a_SOURCES += report/stacks.c report/text-stacks.c report/plot-stacks.c report/plot-threads.c
# import and report of perf stat outputs (the stat work)
TESTS += tests/e2e/t0301-import.sh tests/e2e/t0302-report.sh tests/e2e/t0303-errorbars.sh
EXTRA_DIST += tests/e2e/t0301-import.sh tests/e2e/t0302-report.sh tests/e2e/t0303-errorbars.sh
# labels from the input never reach gnuplot as commands (hostile inputs work)
TESTS += tests/e2e/t1501-hostile-labels.sh
EXTRA_DIST += tests/e2e/t1501-hostile-labels.sh
# endless, binary and piped inputs (hostile inputs work)
TESTS += tests/e2e/t1505-endless-inputs.sh
EXTRA_DIST += tests/e2e/t1505-endless-inputs.sh
# cut perf stat texts and spoiled run directories (hostile inputs work)
TESTS += tests/e2e/t1506-bad-runs.sh
EXTRA_DIST += tests/e2e/t1506-bad-runs.sh
# CPUs utilized on perf's time base, n/a for info metrics (hostile inputs work)
TESTS += tests/e2e/t1508-invented-numbers.sh
EXTRA_DIST += tests/e2e/t1508-invented-numbers.sh
# counts beyond perf's 64-bit counters are refused, not dropped or cut (hostile inputs work)
TESTS += tests/e2e/t1509-bad-counts.sh
EXTRA_DIST += tests/e2e/t1509-bad-counts.sh
# fuzz harnesses: gnuplot scripts from hostile strings, run directories (tests/fuzz/run-brief)
EXTRA_DIST += tests/fuzz/fuzz-chart-strings.c tests/fuzz/fuzz-rundir.c tests/fuzz/seed-rundir.sh
# hotspots: samples per function and call path (report/hotspots-*.c)
libtdperf_a_SOURCES += report/hotspots-load.c report/hotspots-text.c report/hotspots-html.c \
	report/hotspots-diff.c report/hotspots-chains.c report/hotspots-mpi.c report/hotspots-int.h
TESTS += tests/e2e/t0640-hotspots.sh
EXTRA_DIST += tests/e2e/t0640-hotspots.sh tests/e2e/hotspots-lib.sh
TESTS += tests/e2e/t0641-hotspots-record.sh
EXTRA_DIST += tests/e2e/t0641-hotspots-record.sh
TESTS += tests/e2e/t0642-hotspots-html.sh
EXTRA_DIST += tests/e2e/t0642-hotspots-html.sh
TESTS += tests/e2e/t0643-hotspots-diff.sh
EXTRA_DIST += tests/e2e/t0643-hotspots-diff.sh
