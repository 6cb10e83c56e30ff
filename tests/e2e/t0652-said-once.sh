#!/bin/sh
# Less noise (issue 32 item 6): a diagnosis shared by several values is
# said once with the list of places it applies, and stacks that are not
# computable for one cause are named together.  On perf's own published
# outputs: case 44 (pre-Ice Lake topdown-total-slots holding cycles,
# perf printed 1211.9 / 182.9 / -1780.4 / 485.6 %), case 17 (Alder Lake,
# P- and E-core sessions without cycles or instructions).
. "$(dirname "$0")/test-lib.sh"

PUB=$FIXTURES/perf-stat-published
C44=$PUB/case-44-preicl-topdown-events-absurd.txt
C17=$(ls $PUB/case-17-*.txt)

test_expect_success 'setup: case 44 as text and HTML' '
	"$TDPERF" report $C44 >c44.txt &&
	"$TDPERF" report --html=c44.html $C44 >/dev/null
'

test_expect_success 'text: the shared likely cause is said once' '
	test "$(grep -c "it holds cycles, not slots" c44.txt)" = 1 &&
	test "$(grep -c "likely cause: topdown-total-slots" c44.txt)" = 1 &&
	grep -q "warning: 4 checks failed, with one likely cause:" c44.txt
'

test_expect_success 'text: each of the four values perf printed is listed under it' '
	for v in "1211.9" "182.9" "-1780.4" "485.6"; do
		grep -q "^    - [a-z_]*: .* = $v % of slots" c44.txt || return 1
	done
'

test_expect_success 'text: each out-of-range node points to the warnings' '
	test "$(grep -c "(x .*; likely cause: in the warnings below)" c44.txt)" = 4
'

test_expect_success 'HTML: the shared likely cause is said once, the four checks listed' '
	test "$(grep -o "it holds cycles, not slots" c44.html | wc -l)" = 1 &&
	test "$(grep -o "likely cause: in the warnings at the top" c44.html | wc -l)" = 4 &&
	for v in "1211.9" "182.9" "-1780.4" "485.6"; do
		grep -q "<li>[a-z_]*: [^<]* = $v % of slots" c44.html || return 1
	done
'

test_expect_success 'JSON keeps each node its whole message' '
	"$TDPERF" report --format json $C44 >c44.json &&
	jq -e "[.scopes[0].nodes[] | .sanity // empty | test(\"likely cause: topdown-total-slots\")] == [true, true, true, true]" c44.json
'

test_expect_success 'stacks not computable for one cause are named together' '
	"$TDPERF" report $C44 >c44.txt &&
	grep -q "^  CPI, IPC and FLOPS: cycles not known$" c44.txt &&
	grep -q "^  multi-stage CPI, frontend delivery: not measured$" c44.txt &&
	! grep -q "CPI stack: not computable" c44.txt &&
	! grep -q "^Frontend delivery: not computable" c44.txt
'

test_expect_success 'case 17: one stacks block per PMU for its 4 sessions, not four lines' '
	"$TDPERF" report $C17 >c17.txt &&
	scopes=$(grep -c "^-- total" c17.txt) &&
	test "$scopes" -gt 1 &&
	pmus=$(sed -n "s/^-- total, PMU \(.*\) --\$/\1/p" c17.txt | sort -u | wc -l) &&
	test "$pmus" = 2 &&
	test "$(grep -c "^Stacks not computable from these counts:" c17.txt)" = "$pmus" &&
	! grep -q "IPC and FLOPS stacks: not computable" c17.txt &&
	grep -q "^  CPI: instructions not known$" c17.txt
'

test_expect_success 'case 45: a check failed by the four Level-1 nodes at once is said on the first' '
	"$TDPERF" report $PUB/case-45-*.txt >c45.txt &&
	test "$(grep -c "(x Level 1 sums to 101.5 %" c45.txt)" = 1 &&
	test "$(grep -c "(x the same check as Frontend Bound above)" c45.txt)" = 3 &&
	test "$(grep -c "warning: Level 1 sums to 101.5 %" c45.txt)" = 1
'

test_expect_success '-v still shows each stack section on its own' '
	"$TDPERF" report -v $C44 >v.txt &&
	grep -q "CPI stack: not computable" v.txt &&
	! grep -q "Stacks not computable from these counts" v.txt
'

test_done
