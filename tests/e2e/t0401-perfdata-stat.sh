#!/bin/sh
# perf stat record files read by tdperf: totals, per-CPU counts and -I
# intervals equal perf stat report's.
. "$(dirname "$0")/test-lib.sh"
. "$TD_SRCDIR/tests/e2e/perfdata-lib.sh"

if ! have_prog "$PERF" || ! "$PERF" stat record -o probe.data -- true >probe.log 2>&1; then
	test_skip 'perf stat record tests' "perf stat record does not work here (perf missing or no permission)"
	test_done
fi

stat_case() {
	# stat_case NAME DESCRIPTION PERF-STAT-RECORD-ARGS...
	name=$1 desc=$2; shift 2
	"$PERF" stat record -o "$name" "$@" -- sh -c 'for i in 1 2 3 4 5; do sleep 0.03; done' >"$name.log" 2>&1
	test_expect_success "$desc: equal perf stat report" "compare_stat $name"
}

stat_case plain.data 'perf stat record'
stat_case all.data 'perf stat record -a' -a
stat_case percpu.data 'perf stat record -a -A' -a -A
stat_case interval.data 'perf stat record -I 50' -I 50
stat_case interval-all.data 'perf stat record -I 50 -a' -I 50 -a
stat_case events.data 'perf stat record -e task-clock,page-faults,cycles' -e task-clock,page-faults,cycles

test_expect_success 'intervals are deltas: they add up to the cumulative count' '
	"$TDPERF" dump --stat interval.data >s &&
	n=$(grep -c "^count [0-9].* page-faults " s) && test "$n" -ge 2
'

test_expect_success 'a sampling file is not a perf stat record file' '
	"$PERF" record -q -e cpu-clock -o rec.data -- true 2>/dev/null &&
	test_exit_code 2 "$TDPERF" dump --stat rec.data 2>err &&
	test_grep "not a .perf stat record. file" err
'

test_done
