#!/bin/sh
# The scaling view (Heirman et al. 2011): the same workload at several thread counts.
# The sweep directory is laid out by hand here as 'tdperf record --sweep'
# lays it out (docs/run-format.md: sweep.json plus one run directory per
# value, each with its perf.data), so that the report side is tested on
# real recordings of the lock-contended workload.
. "$(dirname "$0")/test-lib.sh"

TOOL=$TD_BUILDDIR/tests/tools/threads-tool
W=$TD_BUILDDIR/tests/workloads
PERF=${TDPERF_PERF:-perf}
EVENTS=sched:sched_switch,sched:sched_waking,sched:sched_wakeup,sched:sched_wakeup_new,sched:sched_process_fork,sched:sched_process_exit

if ! have_prog "$PERF" ||
   ! "$PERF" record -q --switch-events -e "$EVENTS" -o probe.data -- true 2>perf.err; then
	test_skip 'thread-count sweep' "perf cannot record sched tracepoints here ($(head -n 1 perf.err 2>/dev/null))"
	test_done
fi

test_expect_success 'record the lock workload at 1, 2 and 4 threads into a sweep directory' '
	mkdir sweep &&
	for t in 1 2 4; do
		mkdir sweep/threads-$t &&
		ASAN_OPTIONS=detect_leaks=0 "$PERF" record -q --switch-events -e "$EVENTS" -o sweep/threads-$t/perf.data \
			-- "$W/tw-lock" $t 2>/dev/null || exit 1
	done &&
	cat >sweep/sweep.json <<-\EOT
	{ "format": "tdperf-sweep", "version": 1, "parameter": "threads",
	  "runs": [ { "value": 1, "dir": "threads-1" }, { "value": 2, "dir": "threads-2" },
	            { "value": 4, "dir": "threads-4" } ] }
	EOT
	"$TOOL" json sweep >sweep.json.out
'

test_expect_success 'one stack per thread count, the baseline normalized to 1' '
	jq -e ".sweep.parameter == \"threads\" and .sweep.baseline == 1" sweep.json.out &&
	jq -e "[.sweep.runs[].value] == [1, 2, 4]" sweep.json.out &&
	jq -e "[.sweep.runs[0].normalized[]] | add | . > 0.999999 and . < 1.000001" sweep.json.out &&
	jq -e "[.sweep.runs[] | [.fractions[]] | add | . > 0.999999 and . < 1.000001] | all" sweep.json.out &&
	jq -e ".sweep.runs[0].speedup == 1" sweep.json.out
'

test_expect_success 'speedup and efficiency follow from the elapsed times' '
	jq -e "[.sweep.runs[] | (.speedup - (\$b / .elapsed) | fabs < 1e-6) and
		(.efficiency - .speedup / .value | fabs < 1e-6)] | all" \
		--argjson b "$(jq .sweep.runs[0].elapsed sweep.json.out)" sweep.json.out
'

test_expect_success 'the single-thread run has no sync' '
	jq -e ".sweep.runs[0].fractions.sync < 0.01" sweep.json.out &&
	jq -e ".sweep.growing.component_own | type == \"string\"" sweep.json.out
'

# Which component grows is a verdict on the workload: the lock workload
# takes turns, so each added thread adds waiting for its turn (sync) by
# construction, loaded machine or not (runnable time, which load adds, is
# not an "own" component).  Compared with the single thread, which never
# waits for a turn: between 2 and 4 threads the summed sync also depends
# on how long each turn holder was preempted, which load decides (a run
# at load 12 on 2 CPUs had more sync at 2 threads than at 4).
test_expect_success 'sync is what grows with threads' '
	cat /proc/loadavg &&
	jq .sweep.growing sweep.json.out &&
	jq -e ".sweep.growing.component_own == \"sync\"" sweep.json.out &&
	jq -e ".sweep.runs[2].normalized.sync > .sweep.runs[0].normalized.sync + 0.05" sweep.json.out &&
	jq -e ".sweep.runs[1].normalized.sync > .sweep.runs[0].normalized.sync" sweep.json.out
'

test_expect_success 'the per-thread detail is the largest run' '
	jq -e ".threads.run == \"threads-4\"" sweep.json.out &&
	jq -e "[.threads.threads[] | select(.name == \"tw-worker\")] | length == 4" sweep.json.out
'

test_expect_success 'text shows the scaling table and names the growing component' '
	"$TOOL" text sweep >sweep.txt &&
	test_grep "^Scaling over threads" sweep.txt &&
	test_grep "^  Growing: .* grows most" sweep.txt &&
	test_grep "^         4 " sweep.txt
'

test_expect_success 'a sweep.json that is not one is an error naming it' '
	mkdir bad && echo "{\"runs\": 3}" >bad/sweep.json &&
	test_exit_code 2 "$TOOL" json bad 2>err &&
	test_grep "bad/sweep.json" err
'

test_expect_success 'a sweep run directory escaping the sweep is refused' '
	mkdir esc && echo "{\"parameter\": \"threads\", \"runs\": [{\"value\": 1, \"dir\": \"../sweep/threads-1\"}]}" >esc/sweep.json &&
	test_exit_code 2 "$TOOL" json esc 2>err &&
	test_grep "esc/sweep.json" err
'

test_done
