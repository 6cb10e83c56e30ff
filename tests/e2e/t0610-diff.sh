#!/bin/sh
# tdperf diff: Level 1-2 side by side, absolute CPI stacks and the
# attribution of the change, one-sided nodes, approximation and
# multiplexing; across two microarchitectures.
. "$(dirname "$0")/test-lib.sh"

GEN="$TD_SRCDIR/tests/e2e/gen-report-doc.sh"
PUB="$FIXTURES/perf-stat-published"
# SYNTHETIC documents (gen-report-doc.sh): A with L1+L2, CPI 3e9/2e9 = 1.5,
# multiplexed (60 %); B with L1 only, CPI 1e9/1e9 = 1.
sh "$GEN" skylake 4 3e9 2e9 60 0.10 0.05 0.50 0.35 0.06 0.04 0.04 0.01 0.30 0.20 0.30 0.05 >a.json
sh "$GEN" icelake 5 1e9 1e9 100 0.10 0.15 0.30 0.45 >b.json

have_report() { "$TDPERF" report --format json "$PUB/case-10-icl-tgl-ffmpeg-aac-4runs.txt" >/dev/null 2>&1; }

test_expect_success 'text: Level 1 side by side with deltas in points' '
	"$TDPERF" diff a.json b.json >out &&
	test_grep "^  A: a.json" out && test_grep "^  B: b.json" out &&
	test_grep "^  Backend Bound  *50.0%  *30.0%  *-20.0 pts" out &&
	test_grep "^  Bad Speculation  *5.0%  *15.0%  *+10.0 pts" out &&
	test_grep "^    Memory Bound  *30.0%  *n/a   only in A" out
'

test_expect_success 'the CPI change is attributed to components and sums up' '
	# Backend: 1.5 x 0.50 = 0.75 -> 1 x 0.30: -0.45 of a total -0.5 (90 %)
	test_grep "^  Backend Bound  *0.75  *0.3  *-0.45  *90%" out &&
	test_grep "^  total  *1.5  *1  *-0.5" out &&
	! test_grep "not attributed" out
'

test_expect_success 'cycles are attributed too (instructions x CPI stack)' '
	"$TDPERF" diff --format json a.json b.json >diff.json &&
	test_grep "\"schema\": \"tdperf-diff\"" diff.json &&
	awk "/\"cycles\": \{/,0" diff.json | awk "/\"id\": \"backend_bound\"/ { on = 1 } on && /\"delta\"/ { print \$2; exit }" | tr -d , >got &&
	approx_eq "$(cat got)" -1.2e9 1 
'

test_expect_success 'one-sided nodes, multiplexing and different CPUs are reported' '
	test_grep "only in A: fetch_latency (L2)" out &&
	test_grep "A: 1 of 2 events multiplexed, lowest 60.0% of the time" out &&
	test_grep "B: no multiplexing" out &&
	test_grep "warning: different CPUs (skylake, 4 slots/cycle vs icelake, 5 slots/cycle)" out &&
	test_grep "warning: only A was multiplexed" out
'

test_expect_success '--scope-a picks another scope; a wrong one is an error naming it' '
	"$TDPERF" diff --scope-a t1 a.json b.json >out2 &&
	test_grep "scope <b>worker</b> & co" out2 &&
	test_exit_code 2 "$TDPERF" diff --scope-b nope a.json b.json 2>err &&
	test_grep "B: no scope .nope.; scopes are: total t1" err
'

test_expect_success 'bad input: exit 2, one line naming the file, nothing written' '
	test_exit_code 2 "$TDPERF" diff --html x.html a.json missing.txt 2>err &&
	test_grep "missing.txt" err && test_line_count = 1 err && ! test -e x.html &&
	sed "s/\"version\":1,/\"version\":99,/" a.json >v99.json &&
	test_exit_code 2 "$TDPERF" diff v99.json b.json 2>err &&
	test_grep "v99.json: report document version 99 is not supported" err &&
	test_exit_code 2 "$TDPERF" diff a.json 2>err && test_grep "two runs" err &&
	test_exit_code 2 "$TDPERF" diff --format yaml a.json b.json 2>err
'

if have_report; then
	test_expect_success 'Skylake (case 05) vs Ice Lake class (case 10) from the real outputs' '
		"$TDPERF" diff "$PUB/case-05-skl-irogers-topdownL1-systemwide.txt" \
			"$PUB/case-10-icl-tgl-ffmpeg-aac-4runs.txt" >real &&
		test_grep "warning: different CPUs" real &&
		test_grep "^  Frontend Bound  *41.1%  *~7.0%  *-34.1 pts" real &&
		test_grep "^  Retiring  *14.2%  *56.1%  *+41.[89] pts" real &&
		test_grep "A: .* events multiplexed" real
	'
	test_expect_success 'Comet Lake (case 23) vs Ice Lake class (case 10): CPI stacks and attribution' '
		"$TDPERF" diff --format json "$PUB/case-23-cml-multidim-topdownL1-L2-L3.txt" \
			"$PUB/case-10-icl-tgl-ffmpeg-aac-4runs.txt" >real.json &&
		test_grep "\"unit\": \"cycles per instruction\"" real.json &&
		test_grep "\"only_in_a\": \[" real.json
	'
else
	test_skip 'diff of real outputs across microarchitectures' 'tdperf report is not built in this tree yet'
fi

# Two runs without hardware counts (software events only, as on a VM):
# no table of n/a; what both have is compared, each value as perf printed it.
if have_prog perf && perf stat -x, -e task-clock -o probe.csv -- true 2>/dev/null; then
	test_expect_success 'diff of two software-only perf stat outputs: their counts, not rows of n/a' '
		for s in a b; do
			perf stat -x, -e task-clock,context-switches,cpu-migrations,page-faults -o sw-$s.csv \
				-- sh -c "i=0; while [ \$i -lt 20000 ]; do i=\$((i+1)); done" || exit 1
		done &&
		"$TDPERF" diff sw-a.csv sw-b.csv >sw.txt &&
		"$TDPERF" diff --format json sw-a.csv sw-b.csv >sw.json &&
		test_grep "^Top-Down: not measured on either side (no hardware counters); compared instead:" sw.txt &&
		! test_grep "n/a  *n/a$" sw.txt &&
		! test_grep "^  Frontend Bound" sw.txt &&
		jq -e ".topdown_measured == false" sw.json &&
		for e in task-clock context-switches page-faults; do
			a=$(awk -F, -v e=$e "\$3 == e { print \$1 }" sw-a.csv) &&
			b=$(awk -F, -v e=$e "\$3 == e { print \$1 }" sw-b.csv) &&
			jq -e --arg e $e --argjson a "$a" --argjson b "$b" \
				"[.counts[] | select(.name == \$e)] | length == 1 and .[0].a == \$a and .[0].b == \$b" sw.json &&
			test_grep -E "^  $e +$a +$b( |\$)" sw.txt || exit 1
		done &&
		"$TDPERF" diff --html sw.html sw-a.csv sw-b.csv >/dev/null 2>&1 &&
		test_grep -q "Top-Down was not measured on either side" sw.html &&
		test_grep -q "<td>task-clock <span class=\"muted\">msec</span></td>" sw.html
	'
else
	test_skip 'diff of two software-only perf stat outputs' 'perf is not installed or cannot count here'
fi

test_done
