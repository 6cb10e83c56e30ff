# analyze/: builds the report document from parsed counts and formula tables (analyze/report.h)
libtdperf_a_SOURCES += analyze/build.c analyze/open.c analyze/count-memo.c analyze/cpu-infer.c analyze/diff-counts.c \
	analyze/diff.c analyze/doc.c analyze/gate.c analyze/gate.h analyze/errorbars.c analyze/events.c analyze/groups.c \
libtdperf_a_SOURCES += analyze/build.c analyze/drilldown.c analyze/extra-events.c analyze/count-memo.c analyze/cpu-infer.c analyze/diff-counts.c \
	analyze/diff.c analyze/doc.c analyze/errorbars.c analyze/events.c analyze/groups.c \
	analyze/hotspots-chains.c analyze/hotspots-diff.c analyze/hotspots-load.c \
	analyze/hotspots-mpi.c analyze/import.c analyze/job-diff.c analyze/job-rank.c analyze/job.c \
	analyze/legacy-topdown.c analyze/perf-names.c analyze/phases.c analyze/reason.c analyze/repeat.c analyze/reason-memo.c analyze/roofline.c \
	analyze/sanity.c analyze/software.c analyze/stacks.c analyze/stream.c analyze/stream-input.c analyze/threads-json.c analyze/threads-spans.c \
	analyze/threads-load.c analyze/analyze-int.h analyze/compare.h analyze/doc.h analyze/model.c analyze/model.h \
	analyze/hotspots-int.h analyze/report.h
# perf's built-in Top-Down values as a tree, where no CPU table applies (--topdown)
libtdperf_a_SOURCES += analyze/perf-topdown.c
TESTS += tests/e2e/t0548-topdown-no-cpu.sh
EXTRA_DIST += tests/e2e/t0548-topdown-no-cpu.sh
# msr/tsc of a node's own perf group, and on hybrid P-cores (analyze/groups.c)
TESTS += tests/e2e/t0549-msr-tsc-group.sh
EXTRA_DIST += tests/e2e/t0549-msr-tsc-group.sh
# text and CSV of long runs stream their scopes (analyze/stream.c), read
# twice from a long interval file (analyze/stream-input.c)
TESTS += tests/e2e/t0304-interval-stream.sh tests/e2e/t0306-reason-memo.sh \
	tests/e2e/t0307-flat-memory.sh tests/e2e/t0308-json-folded.sh
EXTRA_DIST += tests/e2e/t0304-interval-stream.sh tests/e2e/t0306-reason-memo.sh \
	tests/e2e/t0307-flat-memory.sh tests/e2e/t0308-json-folded.sh
# charts (gnuplot), HTML report and diff
# threads: the document's "threads"/"sweep" objects and their text (threads work)
# jobs: the merged report of a job directory (one run directory per rank)
check_PROGRAMS += tests/tools/threads-tool
tests_tools_threads_tool_LDADD = $(TD_LIBS)
# roofline: the document's "roofline" object and its chart (roofline work)
check_PROGRAMS += tests/tools/roofline-tool
tests_tools_roofline_tool_LDADD = $(TD_LIBS)
TESTS += tests/e2e/t0910-roofline.sh
EXTRA_DIST += tests/e2e/t0910-roofline.sh
# stacks: the scopes' "stacks" objects and their text (stacks work)
# import and report of perf stat outputs (the stat work)
TESTS += tests/e2e/t0301-import.sh tests/e2e/t0302-report.sh tests/e2e/t0303-errorbars.sh
EXTRA_DIST += tests/e2e/t0301-import.sh tests/e2e/t0302-report.sh tests/e2e/t0303-errorbars.sh
# perf's printed values where the counts do not give a node (analyze/build.c perf_fill)
TESTS += tests/e2e/t0315-perf-printed-source.sh
EXTRA_DIST += tests/e2e/t0315-perf-printed-source.sh
# each node on its own event group, against perf's printed values (issue 30)
TESTS += tests/e2e/t0316-metric-groups.sh
EXTRA_DIST += tests/e2e/t0316-metric-groups.sh
# the table and SMT setting perf used, from its events and printed values (analyze/cpu-infer.c)
TESTS += tests/e2e/t0317-cpu-infer.sh
EXTRA_DIST += tests/e2e/t0317-cpu-infer.sh
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
# hostile job directories: sizes, numbers, duplicate ranks, links, one host per rank (issue 29)
TESTS += tests/e2e/t1604-job-hostile.sh
EXTRA_DIST += tests/e2e/t1604-job-hostile.sh

# guidance of the flagged nodes and the causes their siblings rule out
libtdperf_a_SOURCES += analyze/guidance.c
TESTS += tests/e2e/t1301-guidance-ruled-out.sh
EXTRA_DIST += tests/e2e/t1301-guidance-ruled-out.sh
# the regression gate of diff --check (analyze/gate.c, metrics/stats.c, report/gate.c)
TESTS += tests/e2e/t1210-gate-stats.sh tests/e2e/t1211-gate-runs.sh tests/e2e/t1212-gate-errors.sh \
	tests/e2e/t1213-gate-docs.sh
EXTRA_DIST += tests/e2e/t1210-gate-stats.sh tests/e2e/t1211-gate-runs.sh tests/e2e/t1212-gate-errors.sh \
	tests/e2e/t1213-gate-docs.sh
# phases of an interval run whose bottleneck changes (analyze/phases.c, issue 32)
TESTS += tests/e2e/t0650-phases.sh
EXTRA_DIST += tests/e2e/t0650-phases.sh
libtdperf_a_SOURCES += analyze/regions.h analyze/regions.c
# regions over the ranks of a job, and two --regions runs compared
libtdperf_a_SOURCES += analyze/regions-merge.c
# the typed model (analyze/model.h) against perf's printed values and Intel's tree
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_model
TESTS += tests/unit/test_model
tests_unit_test_model_LDADD = $(UNIT_LIBS)
tests_unit_test_model_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
endif
