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

test_expect_success 'explain shows a stack formula and how it approximates Eyerman et al. 2018' '
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

# Comet Lake (Skylake table), perf stat -M TopdownL2, a real published output:
# 30,958,604,463 cycles, 49,512,005,695 instructions (CPI 0.6253);
# CYCLE_ACTIVITY.STALLS_MEM_ANY 16,521,345,428 + EXE_ACTIVITY.BOUND_ON_STORES
# 406,136,936 = 16,927,482,364 execute-stage memory cycles = 0.3419 CPI;
# allocation memory = Memory Bound 48.8 % x CPI = 0.3051.
CML=$FIXTURES/perf-stat-published/case-23-cml-multidim-topdownL1-L2-L3.txt
part() { # part STAGE COMPONENT FIELD: of the session-2 total scope
	jq -r --arg s "$1" --arg c "$2" ".scopes[] | select(.session == 2 and .kind == \"total\") |
		.stacks.multistage.stages[] | select(.id == \$s) | .parts[] | select(.id == \$c) | .$3" doc.json
}

test_expect_success 'report: stacks of a real Comet Lake perf stat output' '
	"$TDPERF" report --format json "$CML" >doc.json &&
	cpi=$(jq ".scopes[] | select(.session == 2 and .kind == \"total\") | .stacks.cpi.cpi" doc.json) &&
	approx_eq "$cpi" 0.62527 0.00001 &&
	approx_eq "$(part execute memory value)" 0.341886 0.000001 &&
	approx_eq "$(part execute memory cycles)" 16927482364 10 && # JSON prints 10 digits
	approx_eq "$(part alloc memory value)" 0.3051 0.0005 &&
	test "$(part execute frontend value)" = null &&
	part execute frontend reason | grep -q "RS_EVENTS.EMPTY_CYCLES not measured" &&
	test "$(part alloc dependence approximate)" = true
'

test_expect_success 'report text: no stage complete on imported case 23, so one line saying what to record' '
	"$TDPERF" report "$CML" >short.txt &&
	test "$(grep -c "^Multi-stage CPI stacks: no stage complete from these counts (tdperf record --stacks multistage measures them; -v shows the partial table)$" short.txt)" = 2 &&
	! grep -q "Data cache / memory" short.txt
'

test_expect_success 'report -v text: the stages side by side, what is missing said once' '
	"$TDPERF" report -v "$CML" >out.txt &&
	grep -q "Data cache / memory          0.305      0.342           -    0.305 -   0.342" out.txt &&
	grep -q "retire stage: not computable from these counts: UOPS_RETIRED.STALL_CYCLES, RS_EVENTS.EMPTY_CYCLES, ARITH.DIVIDER_ACTIVE not measured" out.txt &&
	grep -q "execute frontend, execute branch: RS_EVENTS.EMPTY_CYCLES not measured" out.txt
'

test_expect_success 'report --html: the stages side by side as a table, the missing stage said once' '
	"$TDPERF" report --html out.html "$CML" >/dev/null 2>err &&
	tr -d "\n" <out.html | grep -o "<h3>Multi-stage CPI stacks</h3><div class=\"tablewrap\"><table.*" |
		sed "s|</table>.*||" >ms.html &&
	test "$(grep -o "<tr><td>" ms.html | wc -l)" = 7 &&
	grep -q "<tr><td>Data cache / memory</td><td class=\"num\">0.305</td><td class=\"num\">0.342</td><td class=\"num muted\">&ndash;</td><td class=\"num\">0.305 &ndash; 0.342</td></tr>" ms.html &&
	test "$(grep -o "Retire stage: not computable from these counts" out.html | wc -l)" = 1 &&
	grep -q "<h3>IPC and FLOPS stacks</h3>" out.html &&
	! grep -q "<dt>vocabulary</dt>" out.html
'

test_expect_success 'report --plot writes the stack charts' '
	"$TDPERF" report --plot charts "$CML" >/dev/null 2>err &&
	test -f charts/multistage-stack.gp && test -f charts/multistage-stack.dat &&
	grep -q "Multi-stage CPI stacks" charts/multistage-stack.gp
'

REPLAY=$TD_BUILDDIR/tests/replay-perf
if test -x "$REPLAY"; then
	test_expect_success 'record --stacks through the replay perf, then report: the same stacks' '
		TDPERF_PERF=$REPLAY TDPERF_REPLAY_FIXTURE=$CML TDPERF_REPLAY_SESSION=2 \
			"$TDPERF" record --cpu skylake --assume-pmu --smt on --stacks cpi,multistage \
			-o s.data -- sh -c "exit 0" 2>err &&
		"$TDPERF" report --format json s.data >rec.json &&
		cpi=$(jq "[.scopes[] | select(.kind == \"total\")][0].stacks.cpi.cpi" rec.json) &&
		approx_eq "$cpi" 0.62527 0.00001 &&
		mem=$(jq "[.scopes[] | select(.kind == \"total\")][0].stacks.multistage.stages[] |
			select(.id == \"execute\") | .parts[] | select(.id == \"memory\") | .value" rec.json) &&
		approx_eq "$mem" 0.341886 0.000001
	'
else
	test_skip 'record --stacks through the replay perf' 'tests/replay-perf not built'
fi

test_done
