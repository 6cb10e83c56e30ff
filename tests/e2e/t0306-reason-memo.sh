#!/bin/sh
# Reasons kept between scopes of one layout (analyze/reason-memo.c): a
# scope whose lookups match an earlier one takes that one's reasons, unless
# a division by zero or an 'if' on counts steered its evaluation.  Every
# report must be the one evaluated afresh (TDPERF_REASON_MEMO=0), on real
# outputs and on intervals where a count drops to 0 or is not counted.
. "$(dirname "$0")/test-lib.sh"

PUB=$FIXTURES/perf-stat-published

# intervals N [SED]: case 27's one interval repeated N times with rising
# times; SED edits the rows of interval 20 (times 20.000103288).
intervals() {
	case27_intervals "$1" | sed "/^20\.000103288,/{${2:-}}"
}

# kept_equals_fresh ARGS...: the same report with and without the memo
# (the same exit code; an input refused is refused alike)
kept_equals_fresh() {
	kept_rc=0 fresh_rc=0
	TDPERF_REASON_MEMO=count "$TDPERF" report "$@" >kept 2>kept.err || kept_rc=$?
	TDPERF_REASON_MEMO=0 "$TDPERF" report "$@" >fresh 2>fresh.err || fresh_rc=$?
	test $kept_rc = $fresh_rc &&
	sed "s/\"imported_at\": \".*\"/TIME/" kept >kept.cmp &&
	sed "s/\"imported_at\": \".*\"/TIME/" fresh >fresh.cmp &&
	cmp fresh.cmp kept.cmp &&
	{ test $kept_rc = 0 || test $kept_rc = 2; }
}

# taken FILE: how many evaluations took kept reasons (the last line of the count)
taken() {
	sed -n "s/^tdperf: reason memo: \([0-9]*\) of [0-9]* evaluations.*/\1/p" "$1" | tail -n 1
}

test_expect_success 'setup: case 27 repeated, one interval with zero slots, one with a count not counted' '
	intervals 40 >long.csv &&
	intervals 40 "s/^\([^,]*\),[0-9]*,,TOPDOWN.SLOTS,/\1,0,,TOPDOWN.SLOTS,/" >zero.csv &&
	intervals 40 "s/^\([^,]*\),[0-9]*,,IDQ.MS_UOPS,/\1,<not counted>,,IDQ.MS_UOPS,/" >notcounted.csv &&
	test_line_count = 640 long.csv && ! cmp long.csv zero.csv && ! cmp long.csv notcounted.csv
'

test_expect_success 'CSV and JSON with kept reasons equal those evaluated afresh (40 intervals)' '
	kept_equals_fresh --format csv long.csv &&
	test "$(taken kept.err)" -ge 38 &&
	kept_equals_fresh --format json long.csv &&
	kept_equals_fresh --format json --scopes all long.csv &&
	test "$(taken kept.err)" -ge 38
'

test_expect_success 'an interval with a zero count says so: division by zero there only, as afresh' '
	kept_equals_fresh --format csv zero.csv &&
	grep "^s1/[a-z]*@20\.000103288" kept | grep -q "division by zero" &&
	! grep -v "^s1/[a-z]*@20\.000103288" kept | grep -q "division by zero" &&
	kept_equals_fresh --format json zero.csv &&
	kept_equals_fresh --format json --scopes all zero.csv
'

test_expect_success 'an interval where a count was not counted: its own reasons, as afresh' '
	kept_equals_fresh --format csv notcounted.csv &&
	grep "^s1/[a-z]*@20\.000103288" kept | grep -q "IDQ.MS_UOPS not measured" &&
	! grep "^s1/[a-z]*@21\.000103288" kept | grep -q "IDQ.MS_UOPS not measured" &&
	kept_equals_fresh --format json notcounted.csv
'

test_expect_success 'every published output: kept reasons equal fresh ones (CSV, JSON, text -v)' '
	n=0 &&
	for f in $PUB/case-*.txt; do
		n=$((n + 1)) &&
		kept_equals_fresh --format csv "$f" &&
		kept_equals_fresh --format json "$f" &&
		kept_equals_fresh --format text --scopes all -v "$f" || {
			echo "differs on $f"; exit 1; }
	done &&
	test $n -ge 18
'

test_done
