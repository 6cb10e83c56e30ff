#!/bin/sh
# perf's printed values in every form perf 6.1 writes them, read from what
# perf itself wrote under the emulated PMU (tests/fixtures/perf-stat-emu):
# each value tdperf reads is checked against the same value perf printed
# in another form, or against the number in the file itself.
. "$(dirname "$0")/test-lib.sh"

DUMP=$TD_BUILDDIR/tests/tools/stat-dump
EMU=$FIXTURES/perf-stat-emu
PUB=$FIXTURES/perf-stat-published

# metric NAME VALUE FILE: the dump has metric NAME with that value (all of them)
metric() {
	grep "^  metric '$1' " "$3" >m.$$ && test -s m.$$ &&
	! grep -v " value=$2 " m.$$
}

test_expect_success 'CSV blank values: one session, every printed metric kept (skylakex L3)' '
	"$DUMP" $EMU/skylakex-topdownL3.csv >d &&
	test $(grep -c "^session" d) = 1 &&
	printed=$(grep -c "%  tma_" $EMU/skylakex-topdownL3.csv) &&
	test $(grep -c "^  metric .tma_" d) = $printed &&
	grep "metric .tma_non_fused_branches. .*value=nan unit=% .*kind=tma blank" d
'

test_expect_success 'CSV: empty metric rows and blanks beside counts (icelakex, sapphirerapids L3)' '
	for cpu in icelakex sapphirerapids; do
		"$DUMP" $EMU/$cpu-topdownL3.csv >d &&
		test $(grep -c "^session" d) = 1 &&
		printed=$(grep -c "%  tma_" $EMU/$cpu-topdownL3.csv) &&
		test $(grep -c "^  metric .tma_" d) = $printed || return 1
	done &&
	"$DUMP" $EMU/icelakex-topdownL3.csv >d &&
	grep "metric .tma_dram_bound. .*value=nan unit=% .*blank line=31" d
'

test_expect_success 'built-in Top-Down values in CSV and JSON are percentages, kind builtin' '
	"$DUMP" $EMU/icelakex-topdownL3.csv >d &&
	grep "metric .Bad Speculation. .*value=10 unit=% .*kind=builtin res=0.1 share=0.1 " d &&
	grep "metric .Retiring. .*value=30 unit=% .*kind=builtin" d &&
	grep "metric .Frontend Bound. .*value=25 unit=% .*kind=builtin" d &&
	grep "metric .Backend Bound. .*value=35 unit=% .*kind=builtin" d &&
	"$DUMP" $EMU/sapphirerapids-topdownL3.json >j &&
	grep "metric .Bad Speculation. .*value=10 unit=% .*kind=builtin res=1e-06 share=0.1 " j &&
	! grep "metric .(null)." j &&
	grep "metric .tma_non_fused_branches. .*value=-4.300804 .*res=1e-06" j
'

test_expect_success 'the Level-2 pair on one CSV row, as perf printed it in text' '
	"$DUMP" $EMU/sapphirerapids-topdownL3.csv >d &&
	"$DUMP" $EMU/sapphirerapids-topdown-events.txt >t &&
	metric "Heavy Operations" 10 d && metric "Light Operations" 20 d &&
	metric "Heavy Operations" 10 t && metric "Light Operations" 20 t
'

# perf names the --topdown columns nowhere: the names come from their
# order, checked against perf's own names for the same emulated rates.
test_expect_success '--topdown text, CSV, JSON: perf values under perf names (icelakex)' '
	"$DUMP" $EMU/icelakex-topdownL3.csv >named &&
	for f in icelakex-topdown.txt icelakex-topdown.csv icelakex-topdown.json; do
		"$DUMP" $EMU/$f >d &&
		grep "metric_only=1" d &&
		for n in "Retiring" "Bad Speculation" "Frontend Bound" "Backend Bound"; do
			v=$(grep -m1 "metric .$n. " named | sed "s/.* value=\([^ ]*\) .*/\1/") &&
			metric "$n" $v d || return 1
		done
	done
'

test_expect_success '--topdown -I: one scope of four values per interval (text, CSV, JSON)' '
	for f in icelakex-topdown-I.txt icelakex-topdown-I.csv icelakex-topdown-I.json; do
		rows=$(grep -c "^ *[0-9]*\.[0-9]\{9\}[ ,]\|\"interval\"" $EMU/$f) &&
		"$DUMP" $EMU/$f >d &&
		test $(grep -c "^ scope total .*time=" d) = $rows &&
		test $(grep -c "^  metric" d) = $((4 * rows)) &&
		metric "Bad Speculation" 10 d && metric "Backend Bound" 35 d || return 1
	done
'

test_expect_success '--topdown --td-level 2: 12 columns, Level-2 pairs in perf order (sapphirerapids)' '
	"$DUMP" $EMU/sapphirerapids-topdown-events.txt >named &&
	for f in sapphirerapids-topdown-l2.txt sapphirerapids-topdown-l2.csv; do
		"$DUMP" $EMU/$f >d &&
		test $(grep -c "^  metric" d) = 12 &&
		for n in Retiring "Bad Speculation" "Frontend Bound" "Backend Bound" "Heavy Operations" \
			 "Light Operations" "Branch Mispredict" "Machine Clears" "Fetch Latency" \
			 "Fetch Bandwidth" "Memory Bound" "Core Bound"; do
			v=$(grep -m1 "metric .$n. " named | sed "s/.* value=\([^ ]*\) .*/\1/") &&
			metric "$n" $v d || return 1
		done
	done
'

test_expect_success '--topdown -a on Skylake-SP: per-core rows, names from perf (text, CSV, JSON)' '
	"$DUMP" $EMU/skylakex-topdown-events-a.txt >named &&
	for f in skylakex-topdown-a.txt skylakex-topdown-a.csv skylakex-topdown-a.json; do
		"$DUMP" $EMU/$f >d &&
		test $(grep -c "^ scope core label=S0-D0-C[01] cpus=1" d) = 2 &&
		for n in retiring "bad speculation" "frontend bound" "backend bound"; do
			v=$(grep -m1 "metric .$n. " named | sed "s/.* value=\([^ ]*\) .*/\1/") &&
			N=$(echo "$n" | sed "s/\(^\| \)\(.\)/\1\u\2/g") &&
			metric "$N" $v d || return 1
		done
	done
'

# The metric-only forms give the values perf printed beside the counts
# for the same emulated rates (icelakex-topdownL1-r3.txt).
test_expect_success '--metric-only text, -x :, -A, --per-core, -I: the values perf printed' '
	"$DUMP" $EMU/icelakex-topdownL1-r3.txt >named &&
	for f in icelakex-metric-only.txt icelakex-metric-only-A.txt icelakex-metric-only-A-colon.csv \
		 icelakex-metric-only-per-core-colon.csv icelakex-metric-only-I.txt icelakex-metric-only-I.csv; do
		"$DUMP" $EMU/$f >d &&
		test $(grep -c "^session" d) = 1 &&
		for n in tma_retiring tma_backend_bound tma_frontend_bound tma_bad_speculation; do
			v=$(grep -m1 "metric .$n. " named | sed "s/.* value=\([^ ]*\) .*/\1/") &&
			metric $n $v d || return 1
		done &&
		grep -q "metric .tma_retiring. .*unit=% .*kind=tma res=0.1 share=0.3 " d || return 1
	done &&
	"$DUMP" $EMU/icelakex-metric-only-A-colon.csv >d &&
	test $(grep -c "^ scope cpu label=CPU[01] " d) = 2 &&
	metric "Bad Speculation" 10 d &&
	"$DUMP" $EMU/icelakex-metric-only-I.csv >d &&
	test $(grep -c "^ scope total .*time=" d) = 5
'

test_expect_success 'duration_time in CSV and JSON is the elapsed time, in seconds' '
	for f in icelakex-duration-time.csv icelakex-duration-time.json; do
		ns=$(grep -o "^[0-9]*,ns,duration_time\|\"[0-9.]*\", \"unit\" : \"ns\", \"event\" : \"duration_time\"" \
			$EMU/$f | grep -o "^[0-9]*\|[0-9][0-9.]*" | head -1) &&
		s=$(awk -v ns="$ns" "BEGIN { printf \"%.15g\", ns / 1e9 }") &&
		"$DUMP" $EMU/$f >d &&
		grep "elapsed_from=duration_time elapsed=$s\$" d || return 1
	done
'

# perf 6.1 adds duration_time for its own formulas (skylakex L4); the
# nodes that need it are computed, and explain shows it in seconds.
test_expect_success 'duration_time of a CSV output: nodes computed, explain in seconds' '
	ns=$(grep -m1 ",ns,duration_time," $EMU/skylakex-topdownL4.csv | cut -d, -f1) &&
	s=$(awk -v ns="$ns" "BEGIN { printf \"%.15g\", ns / 1e9 }") &&
	"$TDPERF" report --format json $EMU/skylakex-topdownL4.csv >r.json &&
	jq -e "[.scopes[0].nodes[] | select(.id == \"data_sharing\" or .id == \"contested_accesses\") |
		(.reason // \"\") | test(\"duration_time\") | not] == [true, true]" r.json &&
	jq -e ".sessions[0].elapsed_s == $s" r.json &&
	"$TDPERF" explain --cpu skylakex data_sharing $EMU/skylakex-topdownL4.csv >x &&
	grep -E "^  duration_time += $s\$" x
'

test_expect_success 'print resolution: two decimals, one, a decimal comma, JSON %f' '
	"$DUMP" $PUB/case-47-*.txt >d &&
	grep "metric .Backend_Bound. .*value=0.96 unit=Backend_Bound .*kind=tma res=0.01 share=0.96 " d &&
	grep "metric .Retiring. .*value=0.04 unit=Retiring .*kind=tma res=0.01 " d &&
	"$DUMP" $PUB/case-10-*.txt >d &&
	grep "metric .retiring. .*value=56.1 unit=% .*kind=builtin res=0.1 " d &&
	"$DUMP" $PUB/case-31-*.txt >d &&
	grep "metric .backend_bound. .*unit=percent of slots .*kind=tma res=0.1 " d &&
	grep "metric .retiring. .*value=12.3 unit=percent of slots .*kind=tma " d &&
	"$DUMP" $PUB/case-26-*.txt >d &&
	grep "metric .tma_retiring. .*value=20.422759 .*res=1e-06 " d
'

test_expect_success 'numbers alone in prose are no perf output' '
	printf "Results\n\n 1.5  2.5\n\nthat is all\n" >prose.txt &&
	test_must_fail "$DUMP" prose.txt 2>err &&
	test_grep "no perf stat output found" err
'

test_done
