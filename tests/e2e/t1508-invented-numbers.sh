#!/bin/sh
# Numbers that are easy to invent.  Under 'tdperf record -a -- sleep' the
# task-clock covers perf's whole session, which is longer than the
# workload's wall time: dividing one by the other gives more CPUs utilized
# than the machine has, beside a perf that prints the true figure.  And an
# info metric that cannot be computed from an unmodified published file
# must say why in 'explain', not print a raw "nan".
. "$(dirname "$0")/test-lib.sh"

PERF=${TDPERF_PERF:-perf}
SKL=$FIXTURES/perf-stat-published/case-05-skl-irogers-topdownL1-systemwide.txt
ICL=$FIXTURES/perf-stat-published/case-10-icl-tgl-ffmpeg-aac-4runs.txt

if ! have_prog jq; then
	test_skip 'invented numbers' 'jq missing'
	test_done
fi

# cpus_utilized JSON: ours and the value perf printed, one line per total scope
cpus_utilized() {
	jq -r '.scopes[] | select(.kind == "total") | .software[] | select(.id == "cpus_utilized") |
	       "\(.value) \(.perf)"' "$1"
}

# test_cmp_lines A B: A and B hold the same numbers, line by line
test_cmp_lines() {
	paste -d" " "$1" "$2" | while read a b; do approx_eq "$a" "$b" 0 || exit 1; done &&
	test "$(wc -l <"$1")" = "$(wc -l <"$2")"
}

test_expect_success 'CPUs utilized of a published text agrees with the value perf printed' '
	"$TDPERF" report --format json "$ICL" >icl.json &&
	cpus_utilized icl.json >pairs &&
	grep "CPUs utilized" "$ICL" | sed "s/.*# *\\([0-9]*\\),\\([0-9]*\\) CPUs.*/\\1.\\2/" >printed &&
	test_line_count = 4 printed && cut -d" " -f2 pairs >perf && test_cmp_lines printed perf &&
	while read ours perf; do approx_eq "$ours" "$perf" 0.0005 || exit 1; done <pairs
'

if "$PERF" stat -a -e task-clock -o probe.txt -- true 2>perf.err; then
	test_expect_success 'record -a: CPUs utilized is perf'"'"'s, not task-clock over the workload time' '
		ASAN_OPTIONS=detect_leaks=0 "$TDPERF" record -a -o run -- sleep 0.3 2>/dev/null &&
		"$TDPERF" report --format json run >run.json &&
		cpus=$(jq -r .nr_cpus_online run/meta.json) &&
		cpus_utilized run.json >pairs &&
		test_line_count = 1 pairs &&
		read ours perf <pairs &&
		test "$perf" != null &&
		approx_eq "$ours" "$perf" 0.0005 &&
		awk -v v="$ours" -v n="$cpus" "BEGIN { exit !(v <= n + 0.01) }" &&
		"$TDPERF" report run >run.txt &&
		printed=$(grep ",task-clock," run/perf-stat-1.csv | cut -d, -f6) &&
		approx_eq "$perf" "$printed" 0 &&
		test_grep "CPUs utilized  *$printed CPUs" run.txt
	'
else
	test_skip 'record -a: CPUs utilized' "perf stat -a cannot count here ($(head -n 1 perf.err))"
fi

test_expect_success 'explain prints n/a and the reason for an info metric it cannot compute' '
	"$TDPERF" explain backend_bound "$SKL" >out &&
	test_must_fail grep -iw nan out &&
	test_grep "info_thread_clks  *n/a: .*CPU_CLK_UNHALTED.THREAD not measured" out
'

test_expect_success 'expr: out-of-range numbers and a negative zero' '
	test_exit_code 2 "$TDPERF" expr 1e999 2>err && test_grep "out of the range" err &&
	test_exit_code 2 "$TDPERF" expr 1e-400 2>err && test_grep "out of the range" err &&
	test "$("$TDPERF" expr "0*-1")" = 0
'

test_done
