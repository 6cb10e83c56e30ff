#!/bin/sh
# No single bottleneck, the guidance of both candidates (issue 35): when
# two flagged siblings are within 5 points, or within their error bars of
# each other, or the path ends at an approximate node, the reports say so
# and give both candidates' "What to try" in text, JSON, HTML and CSV.
# Oracles: the Level-1 values perf printed in a published Alder Lake run of
# four sessions (case-17: which scopes have two flagged nodes within 5
# points), and the per-interval spread of a synthetic perf stat -I file,
# computed here from its counts.
. "$(dirname "$0")/test-lib.sh"

if ! have_prog jq; then
	test_expect_success 'jq is installed' 'false'
	test_expect_success 'a path ending at an approximate value (case-26: Backend Bound ~): it and its runner-up' '
	"$TDPERF" report --format json "$FIXTURES/perf-stat-published/case-26-intel-namhyung-v613-json-topdownL1.txt" >c26.json &&
	jq -e ".scopes[0] | .bottleneck.path[-1] as \$last |
		(.nodes[] | select(.id == \$last) | .approximate) and
		.bottleneck.fallback.reason == \"approximate\" and .bottleneck.fallback.candidates[0].id == \$last and
		(.bottleneck.fallback.candidates | length == 2)" c26.json
'

test_done
fi
C17="$FIXTURES/perf-stat-published/case-17-adl-hybrid-irogers-topdownL1-4runs.txt"

test_expect_success 'case-17: a tie wherever perf printed two flagged Level-1 nodes within 5 points' '
	"$TDPERF" report --format json "$C17" >c17.json &&
	# from perf printed values: the two largest flagged Level-1 nodes, and their gap
	jq -r ".scopes[] | select(.kind == \"total\") |
		[.nodes[] | select(.level == 1 and .flagged)] | sort_by(-.perf_value) |
		\"\(.[0].id) \(.[1].id) \(if (.[0].perf_value - .[1].perf_value) < 0.05 then \"tie\" else \"-\" end)\"" \
		c17.json >want &&
	jq -r ".scopes[] | select(.kind == \"total\") | .bottleneck.fallback |
		if . == null then \"-\" else \"\(.candidates[0].id) \(.candidates[1].id) \(.reason)\" end" c17.json >got &&
	awk "NR == FNR { w[FNR] = \$0; next } { split(w[FNR], a, \" \")
		want = a[3] == \"tie\" ? w[FNR] : \"-\"
		if (\$0 != want) { print \"scope \" FNR \": \" \$0 \" want \" want; bad = 1 } } END { exit bad }" want got &&
	test "$(grep -c tie got)" = 3
'

test_expect_success 'text: why, and each candidate with its guidance (session 1, E-core: 38.4 and 34.2)' '
	"$TDPERF" report "$C17" >c17.txt &&
	sed -n "/^-- total, PMU cpu_atom --/,/^-- /p" c17.txt | sed -n "1,/^== session 2/p" >s1atom &&
	grep "^  What to try: Backend Bound 38.4 % and Frontend Bound 34.2 % are both above their thresholds" s1atom &&
	grep "^  What to try (Backend Bound, candidate 1 of 2):" s1atom &&
	grep "^  What to try (Frontend Bound, candidate 2 of 2):" s1atom &&
	test "$(grep -c "^    Means: " s1atom)" = 2 &&
	# each part is that node s own guidance
	m=$(jq -r "[.scopes[] | select(.session == 1 and .pmu == \"cpu_atom\" and .kind == \"total\")][0].nodes[] |
		select(.id == \"frontend_bound\") | .guidance.meaning" c17.json | cut -c1-60) &&
	test -n "$m" && grep -F "$m" s1atom
'

test_expect_success 'HTML: one "no single bottleneck" card with a part per candidate' '
	"$TDPERF" report --html=c17.html "$C17" >/dev/null &&
	grep -o "<div class=\"guidance fallback\" id=\"what-to-try-E-core\"><h3>E-core: what to try: no single bottleneck</h3>" c17.html &&
	test "$(grep -o "<div class=\"candidate\"><h4>Candidate [12] of 2: " c17.html | wc -l)" = 2
'

test_expect_success 'CSV: the fallback row and the candidates rows' '
	"$TDPERF" report --format csv "$C17" >c17.csv &&
	grep "^guidance,s1/total#cpu_atom,1,cpu_atom,,,fallback,tie,1,," c17.csv &&
	grep -q "^guidance,s1/total#cpu_atom,1,cpu_atom,backend_bound,Backend Bound,candidate,meaning,1,0.38" c17.csv &&
	grep -q "^guidance,s1/total#cpu_atom,1,cpu_atom,frontend_bound,Frontend Bound,candidate,meaning,1,0.34" c17.csv
'

# interval FILE ALTERNATE: a perf stat -I 1000 -x, file (icelakex, perf 6.1's
# columns) of 10 intervals, Frontend 42 % and Backend 35 % on average; with
# ALTERNATE=1 the intervals swing between 62/15 and 22/55.
interval() {
	awk -v alt="$2" "BEGIN { slots = 4000000000
		for (k = 1; k <= 10; k++) {
			fe = 0.42; be = 0.35
			if (alt) { if (k % 2) { fe = 0.62; be = 0.15 } else { fe = 0.22; be = 0.55 } }
			bs = 0.08; ret = 1 - fe - be - bs; t = sprintf(\"%12.9f\", k * 1.000105123); rt = 1000105123
			printf \"%s,%.0f,,TOPDOWN.SLOTS,%d,100.00,,\\n\", t, slots, rt
			printf \"%s,%.0f,,topdown-retiring,%d,100.00,,\\n\", t, ret * slots, rt
			printf \"%s,%.0f,,topdown-fe-bound,%d,100.00,,\\n\", t, fe * slots, rt
			printf \"%s,%.0f,,INT_MISC.UOP_DROPPING,%d,100.00,,\\n\", t, 0.002 * slots, rt
			printf \"%s,%.0f,,topdown-be-bound,%d,100.00,,\\n\", t, be * slots, rt
			printf \"%s,%.0f,,cpu/INT_MISC.RECOVERY_CYCLES,cmask=1,edge/,%d,100.00,,\\n\", t, 0.0005 * slots, rt
			printf \"%s,%.0f,,topdown-bad-spec,%d,100.00,,\\n\", t, bs * slots, rt
			printf \"%s,%.0f,,CPU_CLK_UNHALTED.THREAD,%d,100.00,,\\n\", t, slots / 5, rt
			printf \"%s,%.0f,,INST_RETIRED.ANY,%d,100.00,,\\n\", t, (ret * slots) * 0.9, rt } }" >"$1"
}

# mean_sem FILE EVENT: the mean of EVENT/TOPDOWN.SLOTS over the intervals and its standard error
mean_sem() {
	awk -F, -v e="$2" "\$4 == \"TOPDOWN.SLOTS\" { s[\$1] = \$2 } \$4 == e { v[\$1] = \$2 }
		END { for (t in v) { x = v[t] / s[t]; n++; sum += x; sq += x * x }
		      m = sum / n; printf \"%.6f %.6f\\n\", m, sqrt((sq - n * m * m) / (n - 1) / n) }" "$1"
}

test_expect_success 'error bars: Frontend 7 points above Backend, their intervals spread 20 points' '
	interval swing.csv 1 &&
	set -- $(mean_sem swing.csv topdown-fe-bound) $(mean_sem swing.csv topdown-be-bound) &&
	echo "fe $1 +- $2, be $3 +- $4" &&
	# not a tie (over 5 points), but within the error bars (one standard error each)
	awk "BEGIN { d = $1 - $3; exit !(d > 0.05 && d < $2 + $4) }" &&
	"$TDPERF" report --cpu icelakex --format json swing.csv >swing.json &&
	jq -e ".scopes[0].bottleneck.fallback | .reason == \"error_bars\" and
		([.candidates[].id] == [\"frontend_bound\", \"backend_bound\"])" swing.json &&
	"$TDPERF" report --cpu icelakex swing.csv >swing.txt &&
	grep "^  What to try: Frontend Bound .* and Backend Bound" swing.txt &&
	tr "\n" " " <swing.txt | tr -s " " | grep -q "are within their error bars of each other" &&
	test "$(grep -c "^  What to try (.*, candidate [12] of 2):" swing.txt)" = 2
'

test_expect_success 'the same means without the swing: one bottleneck, one node s guidance' '
	interval steady.csv 0 &&
	"$TDPERF" report --cpu icelakex --format json steady.csv >steady.json &&
	jq -e ".scopes[0].bottleneck | .path == [\"frontend_bound\"] and .fallback == null" steady.json
'

test_expect_success 'a path ending at an approximate value (case-26: Backend Bound ~): it and its runner-up' '
	"$TDPERF" report --format json "$FIXTURES/perf-stat-published/case-26-intel-namhyung-v613-json-topdownL1.txt" >c26.json &&
	jq -e ".scopes[0] | .bottleneck.path[-1] as \$last |
		(.nodes[] | select(.id == \$last) | .approximate) and
		.bottleneck.fallback.reason == \"approximate\" and .bottleneck.fallback.candidates[0].id == \$last and
		(.bottleneck.fallback.candidates | length == 2)" c26.json
'

test_done
