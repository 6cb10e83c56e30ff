#!/bin/sh
# Text, CSV and JSON build the per-interval/CPU/thread scopes one at a
# time (analyze/stream.c); --html makes the report keep the whole document.
# Both paths must print the same report, on a real -I CSV (case 27, its
# one interval repeated with rising times as bench/stat-report-bench.sh
# does) and on real per-CPU and per-interval outputs.
. "$(dirname "$0")/test-lib.sh"

PUB=$FIXTURES/perf-stat-published

test_expect_success 'setup: case 27 repeated into 40 intervals' '
	case27_intervals 40 >long.csv &&
	test_line_count = 640 long.csv
'

# streamed_equals_whole ARGS...: the report printed as it streams equals
# the one printed from the whole document (--html keeps it whole; with
# --html a report is printed only where --format is given)
streamed_equals_whole() {
	"$TDPERF" report "$@" >streamed &&
	"$TDPERF" report --html=whole.html "$@" >whole &&
	test -s whole.html &&
	diff -u whole streamed
}

# The JSON holds the command line (which has --html for the whole one)
# and the time of the import (which may tick between the two runs).
streamed_json_equals_whole() {
	"$TDPERF" report --format json "$@" >streamed &&
	"$TDPERF" report --html=whole.html --format json "$@" >whole &&
	test -s whole.html &&
	grep -v "^      \"--html=whole.html\",\$" whole | sed "s/\"imported_at\": \".*\"/TIME/" >whole.cmp &&
	sed "s/\"imported_at\": \".*\"/TIME/" streamed >streamed.cmp &&
	test $(wc -l <whole) = $(($(wc -l <whole.cmp) + 1)) &&
	cmp whole.cmp streamed.cmp
}

test_expect_success 'CSV: streamed equals the whole document, row for row' '
	streamed_equals_whole --format csv long.csv &&
	"$TDPERF" report --format json --scopes all long.csv >d.json &&
	nodes=$(jq "[.scopes[].nodes[]] | length" d.json) &&
	test $nodes -gt 40 &&
	# the node table ends at the first empty line (the guidance section follows)
	sed "/^\$/,\$d" streamed >table &&
	test_line_count = $((nodes + 1)) table
'

test_expect_success 'text: streamed equals the whole document, folded and unfolded' '
	streamed_equals_whole --format text long.csv &&
	test $(grep -c "> frontend_bound\$" streamed) -eq 40 &&
	streamed_equals_whole --format text --scopes all -v long.csv
'

test_expect_success 'JSON: streamed is byte for byte the whole document' '
	streamed_json_equals_whole long.csv &&
	test "$(jq ".scopes | length" streamed)" = 41 &&
	test "$(jq "[.scopes[] | select(.derived != null)] | length" streamed)" = 1
'

test_expect_success 'the published per-CPU and interval outputs: streamed equals whole' '
	ok=1 &&
	for f in $PUB/case-*.txt; do
		# case 31 printed metrics alone: it needs --cpu (t0302)
		case $f in *case-31-*) continue ;; esac
		streamed_json_equals_whole "$f" || { echo "$f" && ok=0; }
	done &&
	for f in $PUB/case-05-*.txt $PUB/case-27-*.txt $PUB/case-30-*.txt $PUB/case-44-*.txt; do
		streamed_equals_whole --format csv "$f" &&
		streamed_equals_whole --format text --scopes all "$f" || ok=0
	done &&
	test $ok = 1
'

test_done
