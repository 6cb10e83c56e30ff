#!/bin/sh
# A long 'perf stat -I' file is read twice, not held (analyze/stream-input.c):
# the peak memory of its text, CSV and (folded) JSON reports must not grow with the
# number of intervals.  The inputs repeat case 27's one real interval with
# rising times, as bench/stat-report-bench.sh does; 20,000 intervals held
# whole take eight times the memory of 2,000, read twice they take the same.
. "$(dirname "$0")/test-lib.sh"

# long N: case 27's interval repeated N times into long-N.csv
long() {
	case27_intervals "$1" >long-$1.csv
}

test_expect_success 'setup: case 27 repeated into 2,000 and 20,000 intervals' '
	long 2000 && long 20000 &&
	test_line_count = 32000 long-2000.csv &&
	test_line_count = 320000 long-20000.csv
'

# peak FORMAT N: report long-N.csv in FORMAT into FORMAT-N.out; its peak
# resident memory (KB) into rss-FORMAT-N.  AddressSanitizer holds freed
# memory back (up to 256 MB) to catch use after free: the sanitizer build
# measures with that quarantine off, or it would measure the quarantine.
peak() {
	asan=${ASAN_OPTIONS:-}
	td_sanitized && asan="${asan:+$asan:}quarantine_size_mb=0"
	ASAN_OPTIONS=$asan /usr/bin/time -f %M -o rss-$1-$2 "$TDPERF" report --format $1 long-$2.csv >$1-$2.out
}

# within BOUND_PERCENT FORMAT: the peak at 20,000 is at most BOUND_PERCENT
# of the one at 2,000
within() {
	small=$(tail -n 1 rss-$2-2000) big=$(tail -n 1 rss-$2-20000) &&
	echo "$2: $small KB at 2,000 intervals, $big KB at 20,000" &&
	test "$big" -le $((small * $1 / 100))
}

if [ -x /usr/bin/time ]; then
	test_expect_success 'text, CSV and JSON: peak memory at 20,000 intervals within 1.3x that at 2,000' '
		peak csv 2000 && peak csv 20000 && peak text 2000 && peak text 20000 &&
		peak json 2000 && peak json 20000 &&
		within 130 csv && within 130 text && within 130 json
	'
else
	test_skip 'text, CSV and JSON: peak memory at 20,000 intervals within 1.3x that at 2,000' \
		'/usr/bin/time is not installed (Debian package time)'
fi

# Every interval is in the reports: one CSV scope, one folded text line and one folded JSON scope each.
test_expect_success 'the reports hold every interval' '
	for n in 2000 20000; do
		test -s csv-$n.out || "$TDPERF" report --format csv long-$n.csv >csv-$n.out || return 1
		test -s text-$n.out || "$TDPERF" report --format text long-$n.csv >text-$n.out || return 1
		test $(cut -d, -f1 csv-$n.out | grep -c "^s1/total@") = $((n * 103)) &&
		test $(cut -d, -f1 csv-$n.out | grep "^s1/total@" | uniq | wc -l) = $n &&
		test_grep "^-- total (sum of $n interval scopes) --" text-$n.out &&
		test $(grep -c "^  [0-9]*\.000s  .*> frontend_bound\$" text-$n.out) = $n || return 1
		test -s json-$n.out || "$TDPERF" report --format json long-$n.csv >json-$n.out || return 1
		test $(jq "[.scopes[] | select(.folded == true)] | length" json-$n.out) = $n || return 1
	done
'

test_done
