#!/bin/sh
# Guidance shown: JSON ("guidance" on each flagged node of the totals),
# text and HTML ("What to try" under the bottleneck) and tdperf explain.
# The texts must be the ones of metrics/guidance/*.json for the node and
# vendor, the ruled-out siblings the ones the JSON lists.
. "$(dirname "$0")/test-lib.sh"

ICX=$FIXTURES/perf-oracle/icelakex/all.txt
PUB=$FIXTURES/perf-stat-published
G=$TD_SRCDIR/metrics/guidance

test_expect_success 'JSON: flagged nodes carry guidance, the others null' '
	"$TDPERF" report "$ICX" --format json >d.json &&
	jq -e ".scopes[0].nodes | map(select(.flagged)) | length > 3" d.json &&
	jq -e ".scopes[0].nodes | map(select(.flagged) | .guidance
		| (.meaning | type == \"string\") and (.causes | length > 0) and (.try | length > 0)
		  and (.next | length > 0) and (.refs | length > 0) and (.ruled_out | type == \"array\")
		  and .from == \"metrics/guidance/intel.json\") | all" d.json &&
	jq -e ".scopes[0].nodes | map(select(.flagged | not) | .guidance == null) | all" d.json &&
	jq -r ".scopes[0].nodes[] | select(.id == \"core_bound\") | .guidance.meaning" d.json >got &&
	jq -r ".nodes.core_bound.meaning" "$G/intel.json" >want &&
	diff -u want got &&
	jq -e ".scopes[0].nodes[] | select(.id == \"core_bound\") | .guidance.refs
		| any(test(\"Yasin 2014\"))" d.json
'

test_expect_success 'JSON: AMD and Arm runs take their own family text' '
	"$TDPERF" report "$PUB/case-42-zen4-kinematics-pipelineL2-pid.txt" --format json >z.json &&
	jq -e "[.scopes[] | .nodes[]? | select(.guidance) | .guidance.from] | unique
		== [\"metrics/guidance/amd.json\"]" z.json &&
	"$TDPERF" report "$PUB/case-30-arm-n2-jingzhang-topdownL1-tlb-branch.txt" --format json >a.json &&
	jq -e "[.scopes[] | .nodes[]? | select(.guidance) | .guidance.from] | unique
		== [\"metrics/guidance/arm.json\"]" a.json
'

test_expect_success 'text: What to try under the bottleneck, with the ruled-out sibling' '
	"$TDPERF" report "$ICX" >out &&
	grep -A1 "Bottleneck: Backend Bound > Core Bound" out | tail -n 1 >next &&
	grep "^  What to try (Core Bound):\$" next &&
	sed -n "/What to try (Core Bound)/,/Sources:/p" out >wt &&
	grep "^    Means: *The backend stalled on the execution core" wt &&
	grep "^    Try: *- break dependency chains" wt &&
	grep "^    Ruled out: *- Memory Bound 11.5 %, below its threshold (memory_bound > 0.2" wt &&
	grep "^    Sources: *Yasin 2014" wt
'

test_expect_success 'text: without a bottleneck path, the two candidates, not one node' '
	"$TDPERF" report "$FIXTURES/perf-oracle/skylakex/all.txt" >sk &&
	grep "Bottleneck: no clear bottleneck" sk &&
	grep "^  What to try: Frontend Bound 25.0 % and Backend Bound 25.0 % are both above their thresholds" sk &&
	test "$(grep -c "^  What to try (.*, candidate [12] of 2):" sk)" = 2
'

test_expect_success 'HTML: a What to try section under the verdict' '
	"$TDPERF" report "$ICX" --html=r.html >/dev/null &&
	grep -o "<div class=\"guidance\" id=\"what-to-try\"><h3>What to try: Core Bound</h3>" r.html &&
	grep -o "Ruled out (siblings below their thresholds)</h4><ul><li><b>Memory Bound</b> 11.5%" r.html &&
	awk "/class=\"verdict\"/ { v = NR } /id=\"what-to-try\"/ { w = NR } END { exit !(v && w >= v) }" r.html
'

test_expect_success 'explain NODE: the guidance of its family, and with a run what is ruled out' '
	"$TDPERF" explain --cpu zen4 smt_contention >z &&
	grep "^guidance: *metrics/guidance/amd.json\$" z &&
	grep "^means: *Dispatch slots the core gave to the other hardware thread" z &&
	"$TDPERF" explain --cpu neoverse-n3 backend_mem_tlb_bound >n3 &&
	grep "^guidance: *metrics/guidance/arm.json\$" n3 &&
	grep "^what to try: *- huge pages" n3 &&
	"$TDPERF" explain core_bound "$ICX" >e &&
	grep "^ruled out: *- Memory Bound 11.5 %, below its threshold" e &&
	"$TDPERF" explain memory_bound "$ICX" >m &&
	grep "^ruled out: *- (the node is not flagged in this scope)" m
'

test_done
