#!/bin/sh
# Counts no perf can print, once dropped or cut without a word: a CSV line
# whose count has 100 digits was skipped (and the file split into two
# sessions), and a text count of more than 78 digits read as 1e+77.  perf
# reads 64-bit counters, so a count above 2^64 - 1 is refused in one line
# naming the file, line and event; one within that range is read.
#
# Nor does perf print a negative count, run time or variance, a running
# percentage above 100 or a count that is no number: a CSV or JSON line
# holding one gave IPC -4e+08 and "CPI -0.000 = -5 cycles" with exit 0,
# and the same text line was skipped as prose.  Each is refused in text,
# CSV and JSON alike, and nothing is written.  What perf does print stays
# read: <not counted>, <not supported>, empty metric fields and negative
# metric values.
. "$(dirname "$0")/test-lib.sh"

PERF=${TDPERF_PERF:-perf}
ICL=$FIXTURES/perf-stat-published/case-10-icl-tgl-ffmpeg-aac-4runs.txt
D100=$(printf '1%.0s' $(seq 100))

one_error() {
	test_line_count = 1 "$1" && test_grep "^tdperf: $2" "$1"
}

# with_count FILE LINE COUNT: FILE with the count of line LINE replaced by COUNT
with_count() {
	awk -v n="$2" -v c="$3" 'NR == n { sub(/^ *[0-9][0-9.,]*/, c) } { print }' "$1"
}

test_expect_success 'a text count of 100 or 20 digits beyond 2^64 is refused' '
	for c in "$D100" 99999999999999999999; do
		with_count "$ICL" 20 "$c" >big.txt &&
		test_exit_code 2 "$TDPERF" report big.txt >/dev/null 2>err &&
		one_error err "big.txt:20: count out of range for context-switches: .*larger than any 64-bit counter" || exit 1
	done
'

test_expect_success 'a text count of 2^64 - 1 is read (to the report'"'"'s 10 digits)' '
	with_count "$ICL" 20 18446744073709551615 >max.txt &&
	"$TDPERF" report --cpu skylake --format json max.txt >max.json &&
	v=$(jq "[.scopes[0].events[] | select(.name == \"context-switches\") | .value][0]" max.json) &&
	approx_eq "$v" 18446744073709551615 1e10
'

if "$PERF" stat -x, -e task-clock,context-switches,page-faults -o s.csv -- true 2>perf.err &&
   "$PERF" stat -j -e task-clock,context-switches,page-faults -o s.json -- true 2>perf.err; then
	test_expect_success 'a CSV or JSON count of 100 digits is refused, not dropped' '
		n=$(grep -n ",context-switches," s.csv | cut -d: -f1) &&
		sed "${n}s/^[0-9.]*,/$D100,/" s.csv >big.csv &&
		test_exit_code 2 "$TDPERF" report big.csv >/dev/null 2>err &&
		one_error err "big.csv:$n: count out of range for context-switches: " &&
		n=$(grep -n "\"context-switches\"" s.json | cut -d: -f1) &&
		sed "${n}s/\"counter-value\" : \"[0-9.]*\"/\"counter-value\" : \"$D100\"/" s.json >big.json &&
		test_exit_code 2 "$TDPERF" report big.json >/dev/null 2>err &&
		one_error err "big.json:$n: count out of range for context-switches: "
	'
else
	test_skip 'CSV and JSON counts of 100 digits' "perf stat cannot count here ($(head -n 1 perf.err))"
fi

# The issue's Skylake counts in perf 6.1's three forms; line 4 of each
# holds the CPU_CLK_UNHALTED.THREAD count, "$1" in place of the count.
skl_text() {
	cat <<-EOF
	# started on Mon Jan  5 10:00:00 2026

	 Performance counter stats for 'system wide':

	$(printf '%17s' "$1")      CPU_CLK_UNHALTED.THREAD
	    2,000,000,000      INST_RETIRED.ANY

	       1.001234567 seconds time elapsed

	EOF
}
skl_csv() {
	cat <<-EOF
	# started on Mon Jan  5 10:00:00 2026

	${2:-}$1,,CPU_CLK_UNHALTED.THREAD,1000000000,100.00,,
	${2:-}2000000000,,INST_RETIRED.ANY,1000000000,100.00,,
	EOF
}
skl_json() {
	cat <<-EOF
	# started on Mon Jan  5 10:00:00 2026

	{"counter-value" : "$1", "unit" : "", "event" : "CPU_CLK_UNHALTED.THREAD", "event-runtime" : 1000000000, "pcnt-running" : 100.00, }
	{"counter-value" : "2000000000.000000", "unit" : "", "event" : "INST_RETIRED.ANY", "event-runtime" : 1000000000, "pcnt-running" : 100.00, }
	EOF
}

# refused FILE LINE MESSAGE: report and report -o refuse FILE in one line, writing nothing
refused() {
	test_exit_code 2 "$TDPERF" report "$1" >out 2>err &&
	one_error err "$1:$2: $3" && test_line_count = 0 out &&
	test_exit_code 2 "$TDPERF" report --cpu skylake --format json -o written.json "$1" >out 2>err &&
	one_error err "$1:$2: $3" && test ! -e written.json && test ! -e written.json.tmp-*
}

NEG="count out of range for CPU_CLK_UNHALTED.THREAD: -5 is negative (perf's counters never go below 0)"

test_expect_success 'a negative count is refused in text, CSV and JSON alike, naming file, line and event' '
	skl_text -5 >neg.txt && refused neg.txt 5 "$NEG" &&
	skl_csv -5 >neg.csv && refused neg.csv 3 "$NEG" &&
	skl_json -5 >neg.json && refused neg.json 3 "$NEG" &&
	skl_json -5.000000 >neg6.json && refused neg6.json 3 "$NEG" &&
	skl_csv -1.5e9 >negexp.csv &&
	refused negexp.csv 3 "count out of range for CPU_CLK_UNHALTED.THREAD: -1500000000 is negative"
'

test_expect_success 'a count that is no finite number, or no number, is refused in CSV and JSON' '
	for c in nan -inf inf; do
		why="$c is not a finite number" &&
		if test $c = inf; then why="larger than any 64-bit counter"; fi &&
		skl_csv $c >nf.csv && refused nf.csv 3 "count out of range for CPU_CLK_UNHALTED.THREAD: $why" &&
		skl_json $c >nf.json && refused nf.json 3 "count out of range for CPU_CLK_UNHALTED.THREAD: $why" ||
		exit 1
	done &&
	skl_csv 12x4 >nan.csv && refused nan.csv 3 "count for CPU_CLK_UNHALTED.THREAD is not a number: \"12x4\"" &&
	skl_json 12x4 >nan.json && refused nan.json 3 "count for CPU_CLK_UNHALTED.THREAD is not a number: \"12x4\""
'

test_expect_success 'run times, running percentages and variances perf cannot print are refused' '
	skl_csv 1000 | sed "3s/,1000000000,100.00,/,-3,100.00,/" >rt.csv &&
	refused rt.csv 3 "run time out of range for CPU_CLK_UNHALTED.THREAD: -3 is negative" &&
	skl_csv 1000 | sed "3s/,100.00,/,150.00,/" >pct.csv &&
	refused pct.csv 3 "running percentage out of range for CPU_CLK_UNHALTED.THREAD: 150 is above 100 %" &&
	skl_csv 1000 | sed "3s/,100.00,/,-0.50,/" >pctn.csv &&
	refused pctn.csv 3 "running percentage out of range for CPU_CLK_UNHALTED.THREAD: -0.5 is negative" &&
	skl_csv 1000 | sed "3s/,1000000000,100.00,/,1000000000,x,/" >pctx.csv &&
	refused pctx.csv 3 "running percentage for CPU_CLK_UNHALTED.THREAD is not a number: \"x\"" &&
	skl_csv 1000 | sed "s/,INST_RETIRED.ANY,/,INST_RETIRED.ANY,-2.00%,/; s/,CPU_CLK_UNHALTED.THREAD,/&1.00%,/" >var.csv &&
	refused var.csv 4 "variance out of range for INST_RETIRED.ANY: -2 is negative" &&
	skl_json 1000 | sed "3s/\"event-runtime\" : 1000000000/\"event-runtime\" : -1/" >rt.json &&
	refused rt.json 3 "run time out of range for CPU_CLK_UNHALTED.THREAD: -1 is negative" &&
	skl_json 1000 | sed "3s/\"pcnt-running\" : 100.00/\"pcnt-running\" : 100.01/" >pct.json &&
	refused pct.json 3 "running percentage out of range for CPU_CLK_UNHALTED.THREAD: 100.01 is above 100 %" &&
	skl_json 1000 | sed "4s/\"pcnt-running\" : 100.00/\"pcnt-running\" : 50.00, \"variance\" : nan/" >var.json &&
	refused var.json 4 "variance out of range for INST_RETIRED.ANY: nan is not a finite number" &&
	skl_json 1000 | sed "3s/^{/{\"interval\" : -1.000000000, /" >int.json &&
	refused int.json 3 "interval time out of range for CPU_CLK_UNHALTED.THREAD: -1 is negative" &&
	skl_text 1,000 | sed "5s/\$/    (150.00%)/" >pct.txt &&
	refused pct.txt 5 "running percentage out of range for CPU_CLK_UNHALTED.THREAD: 150 is above 100 %" &&
	skl_text 1,000 | sed "5s/\$/    ( +- -3.00% )/" >var.txt &&
	refused var.txt 5 "variance out of range for CPU_CLK_UNHALTED.THREAD: -3 is negative" &&
	skl_text 1,000 | sed "s/ 1.001234567 seconds/-1.001234567 seconds/" >el.txt &&
	refused el.txt 8 "elapsed time out of range: -1.001234567 is negative"
'

test_expect_success 'what perf prints stays read: <not counted>, <not supported>, empty and negative metrics' '
	skl_csv "<not counted>" >nc.csv && "$TDPERF" report --cpu skylake --format json nc.csv >nc.out &&
	skl_json "<not supported>" >ns.json && "$TDPERF" report --cpu skylake --format json ns.json >ns.out &&
	skl_text "<not counted>" >nc.txt && "$TDPERF" report --cpu skylake --format json nc.txt >nct.out &&
	{ skl_csv 1000000000 && echo ",,,,,-3.5,%  tma_backend_bound,," &&
	  echo "1000,,page-faults,1000000000,100.00,,"; } >negm.csv &&
	"$TDPERF" report --cpu skylake --format json negm.csv >negm.out &&
	v=$(jq "[.scopes[0].events[] | select(.name == \"page-faults\") | .value][0]" negm.out) &&
	test "$v" = 1000 &&
	skl_text 1,000,000,000 | sed "6s/\$/    #    -3.5 %  tma_backend_bound/" >negm.txt &&
	"$TDPERF" report --cpu skylake --format json negm.txt >negmt.out &&
	skl_csv 1000000000 "1.000103288," >int.csv && "$TDPERF" report --cpu skylake --format json int.csv >int.out
'

test_expect_success 'a line of prose that looks like a negative count is not refused' '
	{ echo "Some notes: the counter wrapped, so we saw"; echo "-5 cycles"; echo; skl_text 1,000; } >prose.txt &&
	"$TDPERF" report --cpu skylake --format json prose.txt >prose.out
'

test_done
