#!/bin/sh
# 'tdperf record --threads' and 'tdperf record --sweep threads=...' on the
# real workloads: the run directories they write feed the thread analysis.
. "$(dirname "$0")/test-lib.sh"

TOOL=$TD_BUILDDIR/tests/tools/threads-tool
W=$TD_BUILDDIR/tests/workloads

if ! ASAN_OPTIONS=detect_leaks=0 "$TDPERF" record --threads -o probe -- true >out 2>err || ! test -f probe/perf.data; then
	test_skip 'record --threads and --sweep' "tdperf record cannot record sched tracepoints here ($(tail -n 1 err))"
	test_done
fi

# The verdicts on each workload are t0800's; here: what record writes is
# complete (switch-ins recorded, so none is inferred) and analysable.
test_expect_success 'record --threads: complete scheduler data for the barrier workload' '
	ASAN_OPTIONS=detect_leaks=0 "$TDPERF" record --threads -o barrier -- "$W/tw-barrier" 4 2>err &&
	"$TOOL" json barrier >barrier.json &&
	jq -e "[.threads.threads[].inferred_switch_ins] | add == 0" barrier.json &&
	jq -e "[.threads.threads[] | select(.name == \"tw-worker\")] | length == 4" barrier.json &&
	jq -e ".threads.aggregate.fractions.sync > 0" barrier.json
'

test_expect_success 'record --sweep threads=1,2: one run directory per value and sweep.json' '
	ASAN_OPTIONS=detect_leaks=0 "$TDPERF" record --sweep threads=1,2 -o sweep -- "$W/tw-lock" "{threads}" 2>err &&
	test -f sweep/threads-1/perf.data && test -f sweep/threads-2/perf.data &&
	jq -e ".kind == \"sweep\"" sweep/meta.json &&
	jq -e "[.runs[].workload[1]] == [\"1\", \"2\"]" sweep/sweep.json &&
	"$TOOL" json sweep >sweep.json &&
	jq -c "[.sweep.runs[] | {aggregated_threads, sync: .fractions.sync}]" sweep.json &&
	jq -e "[.sweep.runs[].aggregated_threads] == [1, 2]" sweep.json &&
	jq -e ".sweep.runs[0].fractions.sync < 0.01" sweep.json
'

test_expect_success 'record --sweep sets OMP_NUM_THREADS for threads' '
	ASAN_OPTIONS=detect_leaks=0 "$TDPERF" record --sweep threads=2 -o omp -- "$W/tw-parallel" 2>err &&
	"$TOOL" json omp >omp.json &&
	jq -e "[.threads.threads[] | select(.name == \"tw-worker\")] | length == 2" omp.json
'

test_expect_success 'tdperf report shows the per-thread stacks of a run, with the no-PMU note' '
	"$TDPERF" report barrier >report.txt &&
	test_grep "^Threads (per-thread stacks from sched tracepoints)" report.txt &&
	test_grep "^  tw-worker (4) " report.txt &&
	"$TDPERF" report --format json barrier >report.json &&
	jq -e ".threads.aggregate.threads >= 1" report.json &&
	if jq -e ".run.hardware_pmu == false" report.json >/dev/null; then
		test_grep "no hardware PMU in this recording" report.txt
	fi
'

test_expect_success 'tdperf report on a sweep directory shows the scaling table' '
	"$TDPERF" report sweep >sweep.txt &&
	test_grep "^Scaling over threads" sweep.txt &&
	test_grep "^  Growing: " sweep.txt &&
	"$TDPERF" report --format json sweep | jq -e "[.sweep.runs[].value] == [1, 2]"
'

test_expect_success 'record --sweep with a bad list is a usage error and writes nothing' '
	test_exit_code 2 "$TDPERF" record --sweep threads=1,0 -o bad -- true 2>err &&
	test_grep "not a positive number" err &&
	! test -e bad
'

test_expect_success 'diff of two thread recordings: the per-thread stacks side by side, each as its report gives it' '
	ASAN_OPTIONS=detect_leaks=0 "$TDPERF" record --threads -o lock -- "$W/tw-lock" 4 2>err &&
	"$TDPERF" diff barrier lock >diff.txt &&
	"$TDPERF" diff --format json barrier lock >diff.json &&
	"$TDPERF" report --format json barrier >a.json && "$TDPERF" report --format json lock >b.json &&
	test_grep "^Per-thread stacks, time share" diff.txt &&
	test_grep "^  sync  *[0-9.]*%  *[0-9.]*%  *[-+][0-9.]* pts$" diff.txt &&
	for c in running sync; do
		jq -e --arg c $c --slurpfile a a.json --slurpfile b b.json "
			.thread_fractions[] | select(.name == \$c) |
			.a == \$a[0].threads.aggregate.fractions[\$c] and .b == \$b[0].threads.aggregate.fractions[\$c]" diff.json || exit 1
	done &&
	jq -e --slurpfile a a.json ".elapsed.a == \$a[0].sessions[0].elapsed_s" diff.json
'

test_done
