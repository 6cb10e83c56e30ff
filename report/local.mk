# report/: draws report documents in every format (report/render.h)
libtdperf_a_SOURCES += report/csv.c report/gate.c report/diff-charts.c report/diff-counts.c \
	report/diff-html.c report/diff-text.c report/hotspots-diff-text.c report/hotspots-html.c report/hotspots-text.c \
libtdperf_a_SOURCES += report/causes.c report/csv.c report/csv-sections.c report/drilldown.c report/stacks-sessions.c report/extra-events.c report/diff-charts.c report/diff-counts.c \
	report/diff-html.c report/diff-text.c report/hotspots-html.c report/hotspots-text.c \
	report/html-parts.c report/html-stacks.c report/html-template.c report/html-threads.c \
	report/html-tree.c report/html.c report/job-diff-html.c report/job-diff-text.c \
	report/job-html.c report/job-text.c report/json.c report/live.c report/phases.c report/plot-data.c \
	report/plot-palette.c report/plot-roofline.c report/plot-run.c report/plot-stacks.c \
	report/plot-job.c report/plot-threads.c report/plot.c report/text-repeat.c report/html-repeat.c report/text-stacks.c report/text-threads.c report/text.c \
	report/export-folded.c report/export-paths.c report/export-pprof.c \
	report/export-speedscope.c report/export-trace.c \
	report/chart.h report/export.h report/html.h report/render.h
# the live view of perf stat -I output (report/live.c)
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
TESTS += tests/e2e/t0600-charts.sh tests/e2e/t0610-diff.sh tests/e2e/t0620-html.sh tests/e2e/t0652-said-once.sh tests/e2e/t0653-chart-width.sh tests/e2e/t0654-chart-fill.sh tests/e2e/t0655-recorded-warnings-html.sh tests/e2e/t0656-bottleneck-fallback.sh tests/e2e/t0657-stacks-sessions.sh
EXTRA_DIST += tests/e2e/browser-check.js tests/e2e/gen-report-doc.sh \
	tests/fuzz/fuzz-report-render.c tests/fuzz/seed-report-render.sh \
	tests/e2e/t0600-charts.sh tests/e2e/t0610-diff.sh tests/e2e/t0620-html.sh tests/e2e/t0652-said-once.sh tests/e2e/t0653-chart-width.sh tests/e2e/t0654-chart-fill.sh tests/e2e/t0655-recorded-warnings-html.sh tests/e2e/t0656-bottleneck-fallback.sh tests/e2e/t0657-stacks-sessions.sh
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
# exports: pprof, speedscope, Chrome trace events, folded stacks (report/export-*.c)
TESTS += tests/e2e/t1200-export-folded.sh tests/e2e/t1201-export-pprof.sh \
	tests/e2e/t1202-export-speedscope.sh tests/e2e/t1203-export-trace.sh \
	tests/e2e/t1204-export-pprof-lines.sh tests/e2e/t1205-export-pprof-slots.sh
EXTRA_DIST += tests/e2e/t1200-export-folded.sh tests/e2e/t1201-export-pprof.sh \
	tests/e2e/t1202-export-speedscope.sh tests/e2e/t1203-export-trace.sh \
	tests/e2e/t1204-export-pprof-lines.sh tests/e2e/t1205-export-pprof-slots.sh
EXTRA_DIST += tests/e2e/t0640-hotspots.sh tests/e2e/hotspots-lib.sh
TESTS += tests/e2e/t0641-hotspots-record.sh
EXTRA_DIST += tests/e2e/t0641-hotspots-record.sh
TESTS += tests/e2e/t0642-hotspots-html.sh
EXTRA_DIST += tests/e2e/t0642-hotspots-html.sh
TESTS += tests/e2e/t0643-hotspots-diff.sh
EXTRA_DIST += tests/e2e/t0643-hotspots-diff.sh

# guidance: "What to try" under the bottleneck in text and HTML (docs/guidance.md)
libtdperf_a_SOURCES += report/text-guidance.c report/html-guidance.c
TESTS += tests/e2e/t1302-guidance-render.sh
EXTRA_DIST += tests/e2e/t1302-guidance-render.sh
# report -x SEP: perf stat's CSV separator (issue 32)
TESTS += tests/e2e/t0033-csv-separator.sh tests/e2e/t1303-csv-guidance-drilldown.sh
EXTRA_DIST += tests/e2e/t0033-csv-separator.sh tests/e2e/t1303-csv-guidance-drilldown.sh
# the first screen: session choice, hybrid labels, partial stacks, contradictions (issue 32)
TESTS += tests/e2e/t0651-first-screen.sh
EXTRA_DIST += tests/e2e/t0651-first-screen.sh
# the regions of a --regions run (analyze/regions.c builds the document)
libtdperf_a_SOURCES += report/regions.h report/regions.c report/regions-merge.c report/regions-job.c
TESTS += tests/e2e/t0670-job-page.sh
EXTRA_DIST += tests/e2e/t0670-job-page.sh
TESTS += tests/e2e/t0671-sweep-report.sh
EXTRA_DIST += tests/e2e/t0671-sweep-report.sh
TESTS += tests/e2e/t0672-hotspots-page.sh
EXTRA_DIST += tests/e2e/t0672-hotspots-page.sh
TESTS += tests/e2e/t0673-repeat-threads.sh tests/e2e/t0674-repeat-runs.sh
EXTRA_DIST += tests/e2e/t0673-repeat-threads.sh tests/e2e/t0674-repeat-runs.sh
