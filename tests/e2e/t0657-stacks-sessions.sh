#!/bin/sh
# The stacks of a file of several sessions, said once per different set
# (issue 32): case-17, a published Alder Lake run of 4 perf stat sessions,
# had the same "Stacks not computable" block under each session and PMU (8
# times).  The oracle is what perf counted in it: no cycles and no
# instructions event on either PMU in any session (grep of the file), so
# the P-core's CPI needs cycles and the E-core's (CPU_CLK_UNHALTED.CORE
# counted) instructions, alike in all 4 sessions: one block per PMU.
. "$(dirname "$0")/test-lib.sh"

C17="$FIXTURES/perf-stat-published/case-17-adl-hybrid-irogers-topdownL1-4runs.txt"

test_expect_success 'setup: the published file and what perf counted in it' '
	test "$(grep -c "Performance counter stats" "$C17")" = 4 &&
	! grep -qi "cycles/\|instructions/\|INST_RETIRED" "$C17" &&
	test "$(grep -c "cpu_atom/CPU_CLK_UNHALTED.CORE/" "$C17")" = 4 &&
	"$TDPERF" report "$C17" >c17.txt
'

test_expect_success 'text: one block per PMU after the sessions, naming all 4 sessions' '
	test "$(grep -c "^Stacks not computable from these counts:" c17.txt)" = 2 &&
	grep -n "^== stacks of the 4 sessions" c17.txt &&
	test "$(grep -n "^== stacks of the 4 sessions" c17.txt | cut -d: -f1)" -gt \
		"$(grep -n "^== session 4" c17.txt | cut -d: -f1)" &&
	sed -n "/^-- sessions 1, 2, 3, 4, PMU cpu_core (P-core) --/,/^\$/p" c17.txt >p &&
	sed -n "/^-- sessions 1, 2, 3, 4, PMU cpu_atom (E-core) --/,/^\$/p" c17.txt >e &&
	test -s p && test -s e &&
	grep -A3 "^Stacks not computable" c17.txt | grep "^  CPI, IPC and FLOPS: cycles not known" &&
	grep -A3 "^Stacks not computable" c17.txt | grep "^  CPI: instructions not known"
'

test_expect_success 'HTML: a row per different set, labelled with its sessions and core type' '
	"$TDPERF" report --html=c17.html "$C17" >/dev/null &&
	sed -n "s/.*<table class=\"data stacks-sessions\">\(.*\)/\1/p" c17.html | sed "s|</table>.*||" >t &&
	test "$(grep -o "<tr><td>" t | wc -l)" = 2 &&
	grep -o "<tr><td>sessions 1, 2, 3, 4, PMU cpu_core (P-core)</td><td class=\"muted\">n/a: cycles not known</td>" t &&
	grep -o "<tr><td>sessions 1, 2, 3, 4, PMU cpu_atom (E-core)</td><td class=\"muted\">n/a: instructions not known</td>" t
'

test_expect_success 'one session: the stacks stay under their scope' '
	"$TDPERF" report "$FIXTURES/perf-stat-published/case-45-adl-acme-irogers-topdownL2-hybrid.txt" >c45.txt &&
	! grep "^== stacks of the" c45.txt &&
	grep "^CPI stack (Top-Down Level 1 x CPI; CPI 2.761" c45.txt
'

test_done
