#!/bin/sh
# The cycle stacks end to end: every table carries the stack definitions,
# 'tdperf record --stacks' schedules their events, 'tdperf explain' shows
# their formulas and approximations.
. "$(dirname "$0")/test-lib.sh"

if ! have_prog jq; then
	test_skip 'the stacks end to end' 'jq is not installed'
	test_done
fi

test_expect_success 'record --stacks schedules the stack metrics on every table' '
	for t in $(cd "$TD_SRCDIR/metrics/tables" && ls *.json | sed "s/\.json\$//"); do
		"$TDPERF" record --dry-run --cpu $t --stacks cpi,multistage,flops,frontend \
			-- true >out 2>err || { echo "table $t:"; cat err; exit 1; }
		grep -q "stack_cycles" out || { echo "table $t: stack_cycles not scheduled"; exit 1; }
	done
'

test_expect_success 'each stack asks for its own events (Skylake)' '
	"$TDPERF" record --dry-run --cpu skylake --stacks multistage -- true >ms &&
	grep -q "RS_EVENTS.EMPTY_CYCLES" ms && grep -q "UOPS_RETIRED.STALL_CYCLES" ms &&
	! grep -q "IDQ.DSB_UOPS" ms &&
	"$TDPERF" record --dry-run --cpu skylake --stacks frontend -- true >fe &&
	grep -q "IDQ.DSB_UOPS" fe && grep -q "DSB2MITE_SWITCHES.PENALTY_CYCLES" fe &&
	"$TDPERF" record --dry-run --cpu skylake --stacks flops -- true >fl &&
	grep -q "FP_ARITH_INST_RETIRED.256B_PACKED_DOUBLE" fl &&
	"$TDPERF" record --dry-run --cpu zen4 --stacks multistage -- true >z4 &&
	grep -q "ex_no_retire.empty" z4
'

test_expect_success 'explain shows a stack formula and how it approximates the paper' '
	"$TDPERF" explain --cpu skylake stack_execute_branch >out &&
	grep -q "RS_EVENTS.EMPTY_CYCLES" out &&
	grep -q "split in the allocation stage" out &&
	"$TDPERF" explain --cpu zen4 stack_retire_memory >out &&
	grep -q "ex_no_retire.load_not_complete" out
'

test_expect_success 'a CPU without a counter says so in its table' '
	jq -e ".params[\"stage.execute.unavailable\"] | test(\"AMD\")" "$TD_SRCDIR/metrics/tables/zen4.json" &&
	jq -e ".params[\"flops.unavailable\"] | test(\"FP_ARITH\")" "$TD_SRCDIR/metrics/tables/haswell.json" &&
	jq -e "[.metrics[].id] | index(\"stack_execute_long_latency\") == null" "$TD_SRCDIR/metrics/tables/haswell.json" &&
	jq -e ".params[\"notmeasurable.stack_execute_long_latency\"] | test(\"divider\")" "$TD_SRCDIR/metrics/tables/haswell.json"
'

test_done
