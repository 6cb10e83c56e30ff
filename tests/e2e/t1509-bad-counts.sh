#!/bin/sh
# Counts no perf can print, once dropped or cut without a word: a CSV line
# whose count has 100 digits was skipped (and the file split into two
# sessions), and a text count of more than 78 digits read as 1e+77.  perf
# reads 64-bit counters, so a count above 2^64 - 1 is refused in one line
# naming the file and line; one within that range is read.
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
		one_error err "big.txt:20: count out of range: larger than any 64-bit counter" || exit 1
	done
'

test_expect_success 'a text count of 2^64 - 1 is read (to the report'"'"'s 10 digits)' '
	with_count "$ICL" 20 18446744073709551615 >max.txt &&
	"$TDPERF" report --format json max.txt >max.json &&
	v=$(jq "[.scopes[0].events[] | select(.name == \"context-switches\") | .value][0]" max.json) &&
	approx_eq "$v" 18446744073709551615 1e10
'

if "$PERF" stat -x, -e task-clock,context-switches,page-faults -o s.csv -- true 2>perf.err &&
   "$PERF" stat -j -e task-clock,context-switches,page-faults -o s.json -- true 2>perf.err; then
	test_expect_success 'a CSV or JSON count of 100 digits is refused, not dropped' '
		n=$(grep -n ",context-switches," s.csv | cut -d: -f1) &&
		sed "${n}s/^[0-9.]*,/$D100,/" s.csv >big.csv &&
		test_exit_code 2 "$TDPERF" report big.csv >/dev/null 2>err &&
		one_error err "big.csv:$n: count out of range" &&
		n=$(grep -n "\"context-switches\"" s.json | cut -d: -f1) &&
		sed "${n}s/\"counter-value\" : \"[0-9.]*\"/\"counter-value\" : \"$D100\"/" s.json >big.json &&
		test_exit_code 2 "$TDPERF" report big.json >/dev/null 2>err &&
		one_error err "big.json:$n: count out of range"
	'
else
	test_skip 'CSV and JSON counts of 100 digits' "perf stat cannot count here ($(head -n 1 perf.err))"
fi

test_done
