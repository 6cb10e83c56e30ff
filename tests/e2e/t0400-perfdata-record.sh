#!/bin/sh
# perf.data written by perf here, read by tdperf: record counts per type
# equal perf report -D's, tracepoint fields equal perf script's.
. "$(dirname "$0")/test-lib.sh"
. "$TD_SRCDIR/tests/e2e/perfdata-lib.sh"

if ! perf_can_record; then
	test_skip 'perf.data tests' "$skip_reason"
	test_done
fi

# The workload's sleeps run as "tw sleeper" (comm holds 15 characters): task names may hold
# blanks (GLib's "dconf worker", "gmain"), and every recording here has
# some by construction, not only when such a program happens to run.
cp "$(command -v sleep)" "./tw sleeper"

check_file() {
	# check_file NAME DESCRIPTION PERF-RECORD-ARGS...
	name=$1 desc=$2; shift 2
	"$PERF" record -q "$@" -- sh -c 'for i in 1 2 3 4 5 6 7 8; do "./tw sleeper" 0.01; done' >"$name.log" 2>&1
	test_expect_success "$desc: record counts equal perf report -D" "
		compare_counts $name
	"
}

check_file sw.data 'sched_switch -a' -e sched:sched_switch -a -o sw.data
test_expect_success 'sched_switch -a: fields equal perf script' 'compare_trace sw.data'

check_file swg.data 'sched_switch+wakeup -g' -e sched:sched_switch -e sched:sched_wakeup -g -a -o swg.data
test_expect_success 'sched_switch+wakeup -g: fields equal perf script' 'compare_trace swg.data'
test_expect_success 'sched_switch+wakeup -g: fields read through the API equal perf script' '
	compare_fields swg.data
'
test_expect_success 'task names with spaces are compared whole' '
	test_grep -q "prev_comm=tw sleeper prev_pid=" perf.fields &&
	test_grep -q "prev_comm=tw sleeper prev_pid=" td.fields
'
test_expect_success 'sched_switch+wakeup -g: samples carry callchains' '
	"$TDPERF" dump swg.data >dump &&
	test_grep -q "^  callchain: nr=[1-9]" dump
'

check_file sww.data 'sched_switch+wakeup' -e sched:sched_switch -e sched:sched_wakeup -a -o sww.data
test_expect_success 'sched_switch+wakeup: fields equal perf script' 'compare_trace sww.data'

check_file z.data '-z compressed' -z -e sched:sched_switch -a -o z.data
test_expect_success '-z: fields equal perf script' 'compare_trace z.data'
test_expect_success '-z: fields through the API equal perf script' 'compare_fields z.data'
test_expect_success '-z: the file really holds COMPRESSED records' '
	"$TDPERF" dump --summary z.data >s && test_grep -q "^summary: COMPRESSED [1-9]" s
'

check_file group.data '{cpu-clock,task-clock}:S' -e '{cpu-clock,task-clock}:S' -o group.data
test_expect_success '{cpu-clock,task-clock}:S: group READ values equal perf report -D' 'compare_reads group.data'

check_file grouprt.data '{cpu-clock,task-clock}:S --running-time' -e '{cpu-clock,task-clock}:S' --running-time -o grouprt.data
test_expect_success '--running-time: READ values with enabled/running equal perf report -D' '
	compare_reads grouprt.data && grep -q " ena=[0-9]* run=[0-9]*" td.reads
'

"$PERF" record -q -e sched:sched_switch -a -o - -- sh -c 'sleep 0.02; sleep 0.02' >pipe.data 2>pipe.log
test_expect_success 'pipe mode (-o -): record counts equal perf report -D' 'compare_counts pipe.data'
test_expect_success 'pipe mode: fields equal perf script' 'compare_trace pipe.data'
test_expect_success 'pipe mode: fields through the API equal perf script' 'compare_fields pipe.data'
test_expect_success 'pipe mode read from a real pipe equals reading the file' '
	"$TDPERF" dump pipe.data >from-file &&
	cat pipe.data | "$TDPERF" dump - >from-pipe &&
	sed 1d from-file >a && sed 1d from-pipe >b && diff a b
'

check_file dir.data '--threads directory' --threads -e sched:sched_switch -a -o dir.data
test_expect_success '--threads directory: fields equal perf script' 'compare_trace dir.data'
test_expect_success '--threads directory: fields through the API equal perf script' 'compare_fields dir.data'

test_done
