#!/bin/sh
# Privilege modifiers in formulas (":k", ":u") only match counts of that
# privilege level; unmodified formula events match any count.
. "$(dirname "$0")/test-lib.sh"

cml=$FIXTURES/perf-stat-published/case-23-cml-multidim-topdownL1-L2-L3.txt
spr=$FIXTURES/perf-stat-published/case-01-spr-kanliang-default-metricgroup.txt


test_expect_success 'a :k formula event is not computed from an unmodified count' '
	"$TDPERF" report --format json "$cml" >out.json 2>/dev/null &&
	tr -d "\n" <out.json | grep -o "\"id\": *\"info_system_kernel_utilization\"[^}]*" >ku &&
	test_grep "\"value\": *null" ku &&
	test_grep "THREAD_P:k not measured" ku
'

test_expect_success 'unmodified formula events use :u counts, as perf does (SPR case-01)' '
	"$TDPERF" report --format json "$spr" >spr.json 2>/dev/null &&
	v=$(jq "[.scopes[0].nodes[] | select(.id == \"frontend_bound\")][0].value" spr.json) &&
	p=$(jq "[.scopes[0].nodes[] | select(.id == \"frontend_bound\")][0].perf_value" spr.json) &&
	test -n "$v" && test -n "$p" &&
	approx_eq "$v" "$p" 0.0006
'

test_expect_success 'explain NODE RUN substitutes the literals the report used (case-05: 41.1 %)' '
	skl=$FIXTURES/perf-stat-published/case-05-skl-irogers-topdownL1-systemwide.txt &&
	"$TDPERF" import -o skl.data "$skl" &&
	"$TDPERF" explain frontend_bound skl.data >ex &&
	test_grep "#smt_on *= 1" ex &&
	test_grep "^value: *41.1 % of slots" ex
'

test_done
