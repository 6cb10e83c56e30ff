# render/: draws report documents in every format (render/render.h)
libtdperf_a_SOURCES += render/csv.c render/diff-charts.c render/diff-counts.c \
	render/diff-html.c render/diff-text.c render/hotspots-html.c render/hotspots-text.c \
	render/html-parts.c render/html-stacks.c render/html-template.c render/html-threads.c \
	render/html-tree.c render/html.c render/job-diff-html.c render/job-diff-text.c \
	render/job-html.c render/job-text.c render/json.c render/live.c render/plot-data.c \
	render/plot-palette.c render/plot-roofline.c render/plot-run.c render/plot-stacks.c \
	render/plot-threads.c render/plot.c render/text-stacks.c render/text-threads.c render/text.c \
	render/chart.h render/html.h render/render.h
# the live view of perf stat -I output (render/live.c)
TESTS += tests/e2e/t0305-live.sh
EXTRA_DIST += tests/e2e/t0305-live.sh tests/fuzz/fuzz-live.c tests/fuzz/seed-live.sh
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
# labels from the input never reach gnuplot as commands (hostile inputs work)
TESTS += tests/e2e/t1501-hostile-labels.sh
EXTRA_DIST += tests/e2e/t1501-hostile-labels.sh
# gnuplot draws in a private directory: another user's --plot DIR runs nothing as root
TESTS += tests/e2e/t1601-plot-private.sh
EXTRA_DIST += tests/e2e/t1601-plot-private.sh
# control bytes from the input are escaped in text output; CSV cells are no formulas
TESTS += tests/e2e/t1602-escapes.sh
EXTRA_DIST += tests/e2e/t1602-escapes.sh
# fuzz harnesses: gnuplot scripts from hostile strings, run directories (tests/fuzz/run-brief)
EXTRA_DIST += tests/fuzz/fuzz-chart-strings.c tests/fuzz/fuzz-rundir.c tests/fuzz/seed-rundir.sh
# hotspots: samples per function and call path (analyze/hotspots-*.c)
TESTS += tests/e2e/t0640-hotspots.sh
EXTRA_DIST += tests/e2e/t0640-hotspots.sh tests/e2e/hotspots-lib.sh
TESTS += tests/e2e/t0641-hotspots-record.sh
EXTRA_DIST += tests/e2e/t0641-hotspots-record.sh
TESTS += tests/e2e/t0642-hotspots-html.sh
EXTRA_DIST += tests/e2e/t0642-hotspots-html.sh
TESTS += tests/e2e/t0643-hotspots-diff.sh
EXTRA_DIST += tests/e2e/t0643-hotspots-diff.sh
