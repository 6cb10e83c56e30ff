#!/bin/sh
# record -r N --threads (issue 32, item 3, in part): the scheduler is
# recorded in one of the N runs, so the threads section says which run it
# is from (the run meta.json gives the sched file), in text, JSON and HTML,
# rather than reading as the runs' mean.
. "$(dirname "$0")/test-lib.sh"

if ! have_prog jq; then
	test_expect_success 'jq is installed' 'false'
	test_done
fi
if ! ASAN_OPTIONS=detect_leaks=0 "$TDPERF" record --threads -o probe -- true >out 2>err || ! test -f probe/perf.data; then
	test_expect_success "record --threads works here ($(tail -n 1 err))" 'false'
	test_done
fi

test_expect_success 'record -r 3 --threads: the threads section names its run, of 3' '
	ASAN_OPTIONS=detect_leaks=0 "$TDPERF" record -r 3 --threads -o r3 -- sh -c "exit 0" 2>err &&
	run=$(jq ".files[] | select(.role == \"sched\") | .run" r3/meta.json) && test -n "$run" &&
	"$TDPERF" report --format json r3 >r3.json &&
	jq -e --argjson r "$run" ".threads.recorded_run == \$r and .threads.runs == 3" r3.json &&
	"$TDPERF" report r3 >r3.txt &&
	grep "^Threads (per-thread stacks from sched tracepoints, run $run of 3: the scheduler was recorded in that run only)$" r3.txt &&
	"$TDPERF" report --html r3.html r3 2>/dev/null &&
	grep "<p class=\"muted recorded-run\">From run $run of 3: the scheduler was recorded in that run only.</p>" r3.html
'

test_expect_success 'one run: nothing to say' '
	ASAN_OPTIONS=detect_leaks=0 "$TDPERF" record --threads -o r1 -- sh -c "exit 0" 2>err &&
	"$TDPERF" report --format json r1 | jq -e ".threads.recorded_run == null" &&
	! "$TDPERF" report r1 | grep "of 1:"
'

test_done
