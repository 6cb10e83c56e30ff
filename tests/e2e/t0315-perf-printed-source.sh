#!/bin/sh
# perf's printed values as a source.  perf >= 6.5's default perf stat
# prints TopdownL1/L2 without the counts (case-01 session 2, case-31): a
# node the counts do not give takes the value perf printed, marked as
# such in JSON, text, CSV and HTML, and the bottleneck path, thresholds
# and CPI stack use it.  The oracle is the published output itself: the
# numbers perf printed, and its cycles and instructions counts.
. "$(dirname "$0")/test-lib.sh"

PUB=$FIXTURES/perf-stat-published
SPR=$PUB/case-01-spr-kanliang-default-metricgroup.txt
V3=$PUB/case-31-arm-v3ae-learningpath-default-metrics-only.txt
ADL=$PUB/case-45-adl-acme-irogers-topdownL2-hybrid.txt

if ! have_prog jq; then
	test_skip 'perf printed values' 'jq missing'
	test_done
fi

# printed FILE [FROM]: "id percent" for each "N %  tma_id" (or "N percent of
# slots  id") perf printed after the line matching FROM
printed() {
	awk -v from="${2:-.}" '
	  !on && $0 ~ from { on = 1 }
	  on && match($0, /# +[0-9.]+ (%|percent of slots) +(tma_)?[a-z_]+/) {
	    s = substr($0, RSTART, RLENGTH); sub(/^# +/, "", s)
	    n = split(s, w, / +/); id = w[n]; sub(/^tma_/, "", id); print id, w[1]
	  }' "$1" | sort
}

test_expect_success 'case-01 session 2: each node is the value perf printed, source perf, error bar half a digit' '
	"$TDPERF" report --format json "$SPR" >spr.json &&
	printed "$SPR" "^After:" >want &&
	test_line_count = 12 want &&
	jq -r ".scopes[] | select(.id == \"s2/total\") | .nodes[] | select(.value != null) |
	       \"\\(.id) \\(.value * 1000 | round / 10) \\(.source) \\(.uncertainty * 10000 | round)\"" spr.json |
		sort >got &&
	awk "{ print \$1, \$2 + 0, \"perf\", 5 }" want >want.full &&
	awk "{ print \$1, \$2 + 0, \$3, \$4 }" got >got.full &&
	diff -u want.full got.full &&
	jq -e "[.scopes[] | select(.id == \"s2/total\") | .nodes[] | select(.value != null) | .approximate] | all(. == false)" spr.json
'

test_expect_success 'case-01 session 1: counts given, so ours stays computed and perf stands beside it' '
	jq -r ".scopes[] | select(.id == \"s1/total\") | .nodes[] | select(.level == 1) | \"\\(.id) \\(.source) \\(.perf_value != null)\"" spr.json >got &&
	printf "frontend_bound counts true\nbad_speculation counts true\nbackend_bound counts true\nretiring counts true\n" >want &&
	diff -u want got
'

# SPR thresholds: frontend_bound > 0.15, fetch_latency > 0.1 (and its
# parent's), fetch_bandwidth > 0.2; Frontend Bound 42.7 leads Bad
# Speculation 22.6 by more than 5 points.
test_expect_success 'case-01 session 2: the bottleneck path follows perf'"'"'s values through the thresholds' '
	jq -e ".scopes[] | select(.id == \"s2/total\") | .bottleneck.path == [\"frontend_bound\", \"fetch_latency\"]" spr.json &&
	jq -e ".scopes[] | select(.id == \"s2/total\") | .bottleneck.sentence | test(\"29.3 % of slots\")" spr.json &&
	jq -e "[.scopes[] | select(.id == \"s2/total\") | .nodes[] | select(.flagged) | .id] | sort ==
	       [\"bad_speculation\", \"branch_mispredicts\", \"fetch_latency\", \"frontend_bound\"]" spr.json
'

test_expect_success 'case-01 session 2: the CPI stack is the printed fractions x cycles / instructions' '
	cyc=$(sed -n "/^After:/,\$p" "$SPR" | awk "/ cycles:u/ { gsub(\",\", \"\", \$1); print \$1 }") &&
	ins=$(sed -n "/^After:/,\$p" "$SPR" | awk "/ instructions:u/ { gsub(\",\", \"\", \$1); print \$1 }") &&
	test "$cyc" = 545228 && test "$ins" = 555509 &&
	cpi=$(jq ".scopes[] | select(.id == \"s2/total\") | .stacks.cpi.cpi" spr.json) &&
	approx_eq "$cpi" "$(calc "$cyc / $ins")" 1e-9 &&
	for n in frontend_bound:42.7 bad_speculation:22.6 backend_bound:17.5 retiring:17.1; do
		id=${n%%:*} pct=${n#*:}
		v=$(jq ".scopes[] | select(.id == \"s2/total\") | .stacks.cpi.components[] | select(.id == \"$id\") | .value" spr.json) &&
		approx_eq "$v" "$(calc "$pct / 100 * $cyc / $ins")" 1e-9 &&
		jq -e ".scopes[] | select(.id == \"s2/total\") | .stacks.cpi.components[] | select(.id == \"$id\") | .source == \"perf\"" spr.json ||
			{ echo "CPI component $id"; exit 1; }
	done
'

test_expect_success 'case-01: text marks perf'"'"'s values p, with the legend, and names the path' '
	"$TDPERF" report "$SPR" >spr.txt &&
	sed -n "/== session 2/,\$p" spr.txt >s2.txt &&
	test_grep "^  > Frontend Bound  *42.7 % .* !p  *42.7" s2.txt &&
	test_grep "^    Retiring  *17.1 % .* p  *17.1" s2.txt &&
	test_grep "Bottleneck: Frontend Bound > Fetch Latency: 29.3 % of slots" s2.txt &&
	test_grep "^  Frontend Bound  *0.419  *42.7%  p\$" s2.txt &&
	test_grep "p the value perf printed, taken where the counts do not give it" spr.txt &&
	! grep -q "no node above its threshold" spr.txt
'

test_expect_success 'case-01: CSV carries the value and source perf' '
	"$TDPERF" report --format csv "$SPR" >spr.csv &&
	head -1 spr.csv | grep -q ",sanity,source,repeat_runs,repeat_mean,repeat_stddev,repeat_min,repeat_max\$" &&
	grep "^s2/total,.*,frontend_bound,Frontend Bound," spr.csv >row &&
	test_line_count = 1 row &&
	test_grep ",0.427,slots," row && test_grep ",perf,,,,,\$" row &&
	grep "^s1/total,.*,frontend_bound," spr.csv | grep -q ",counts,,,,,\$"
'

test_expect_success 'case-01: HTML marks the values printed by perf and names the bottleneck' '
	"$TDPERF" report --html=spr.html "$SPR" >/dev/null 2>&1 &&
	test_grep "badge src" spr.html >/dev/null &&
	test_grep "printed by perf" spr.html >/dev/null &&
	test_grep "<sup class=\"src\" title=\"printed by perf\">p</sup>" spr.html >/dev/null &&
	! grep -q "verdict none" spr.html
'

test_expect_success 'case-31 (Neoverse V3): Level 1 is perf'"'"'s, Backend Bound the bottleneck, CPI stack from cycles' '
	"$TDPERF" report --cpu neoverse-v3 --format json "$V3" >v3.json &&
	printed "$V3" "^ +TopdownL1" >want && test_line_count = 4 want &&
	jq -r ".scopes[0].nodes[] | select(.value != null) | \"\\(.id) \\(.value * 1000 | round / 10) \\(.source)\"" v3.json |
		sort >got &&
	awk "{ print \$1, \$2 + 0, \"perf\" }" want >want.full && diff -u want.full got &&
	jq -e ".scopes[0].bottleneck.path == [\"backend_bound\"]" v3.json &&
	cpi=$(jq ".scopes[0].stacks.cpi.cpi" v3.json) &&
	approx_eq "$cpi" "$(calc "30931997598 / 40846002727")" 1e-9 &&
	be=$(jq ".scopes[0].stacks.cpi.components[] | select(.id == \"backend_bound\") | .value" v3.json) &&
	approx_eq "$be" "$(calc "0.858 * 30931997598 / 40846002727")" 1e-9 &&
	"$TDPERF" report --cpu neoverse-v3 --html=v3.html "$V3" >/dev/null 2>&1 &&
	! grep -q "verdict none" v3.html && test_grep "printed by perf" v3.html >/dev/null
'

# Alder Lake E-core (case 45): perf's TopdownL2 group left out
# TOPDOWN_FE_BOUND.ALL, so Frontend Bound and Bad Speculation are the sums
# of their Level-2 children (27.7 + 11.5, 18.7 + 0.3 as perf printed them);
# the E-core CPI bar grows from 3.14 (Backend + Retiring only) to the four
# components, CPI x 101.5 %.
test_expect_success 'case-45 E-core: Level 1 from its Level-2 children, source children, in the CPI stack' '
	"$TDPERF" report --format json "$ADL" >adl.json &&
	S=".scopes[] | select(.id == \"s1/total#cpu_atom\")" &&
	fe=$(jq "$S | .nodes[] | select(.id == \"frontend_bound\") | .value" adl.json) &&
	approx_eq "$fe" 0.392 0.001 &&
	bs=$(jq "$S | .nodes[] | select(.id == \"bad_speculation\") | .value" adl.json) &&
	approx_eq "$bs" 0.190 0.001 &&
	jq -e "[$S | .nodes[] | select(.level == 1 and .source == \"children\") | .id] == [\"frontend_bound\", \"bad_speculation\"]" adl.json &&
	jq -e "[$S | .nodes[] | select(.source == \"children\") | .approximate] | all" adl.json &&
	cpi=$(calc "117323055 / 16191486") &&
	sum=$(jq "[$S | .stacks.cpi.components[] | select(.level == 1) | .value] | add" adl.json) &&
	approx_eq "$sum" "$(calc "$cpi * (0.392 + 0.190 + 0.379 + 0.054)")" 0.02 &&
	jq -e "[$S | .stacks.cpi.components[] | select(.source == \"children\") | .id] == [\"frontend_bound\", \"bad_speculation\"]" adl.json
'

test_expect_success 'tdperf diff marks the side whose value perf printed' '
	"$TDPERF" diff "$SPR" "$ADL" >diff.txt &&
	test_grep "^  Frontend Bound  *42.7%p  *48.2% " diff.txt
'


# perf 6.1's own outputs under the emulated PMU (tests/fixtures/perf-stat-emu):
# metric-only and --topdown forms print the values without the counts, so
# every node perf printed takes it, within half its print resolution.
EMU=$FIXTURES/perf-stat-emu

# emu_nodes FILE CPU: "scope id value*1000 source uncertainty*1e4 approximate" per valued node of every
# scope perf printed (the sum of a file's scopes has no printed value: percentages do not add)
emu_nodes() {
	"$TDPERF" report --cpu "$2" --scopes all --format json "$1" >r.json &&
	jq -r ".scopes[] | select(.derived == null) | .id as \$s | .nodes[] | select(.value != null) |
	       \"\\(\$s) \\(.id) \\(.value * 1000 | round) \\(.source) \\(.uncertainty * 10000 | round) \\(.approximate)\"" r.json
}

# The oracle: the tma_ values perf printed in the text --metric-only output (header, then the row).
test_expect_success 'metric-only text, -x :, -A, --per-core, -I: every scope'"'"'s Level 1 is perf'"'"'s tma_ value' '
	awk "/tma_retiring/ { n = split(\$0, h, /%  tma_/); getline; split(\$0, v, / +/);
	     for (i = 2; i <= n; i++) { sub(/ .*/, \"\", h[i]); print h[i], v[i] * 10 } }" \
		$EMU/icelakex-metric-only.txt | sort >want &&
	test_line_count = 4 want &&
	for f in icelakex-metric-only.txt icelakex-metric-only-A.txt icelakex-metric-only-A-colon.csv \
		 icelakex-metric-only-per-core-colon.csv icelakex-metric-only-I.txt icelakex-metric-only-I.csv; do
		emu_nodes $EMU/$f icelakex >got &&
		scopes=$(cut -d" " -f1 got | sort -u | wc -l) &&
		test "$scopes" -ge 1 &&
		test $(wc -l <got) = $((4 * scopes)) &&
		for s in $(cut -d" " -f1 got | sort -u); do
			grep "^$s " got | awk "{ print \$2, \$3 }" | sort >g &&
			diff -u want g &&
			grep "^$s " got | awk "\$4 != \"perf\" || \$5 != 5 || \$6 != \"false\"" >bad &&
			test_line_count = 0 bad || { echo "$f $s"; return 1; }
		done &&
		jq -e "[.scopes[] | select(.derived != null) | .bottleneck.sentence |
			test(\"percentages of different scopes do not add\")] | all" r.json || return 1
	done
'

# perf prints --topdown values under no header; the oracle is perf's own
# labelled printing of the same emulated rates beside the topdown events.
test_expect_success '--topdown text, CSV, JSON: nodes are perf'"'"'s built-in values, approximate, half a digit' '
	for spec in icelakex-topdown.txt:icelakex:sapphirerapids-topdown-events.txt:4 \
		    icelakex-topdown.csv:icelakex:sapphirerapids-topdown-events.txt:4 \
		    icelakex-topdown.json:icelakex:sapphirerapids-topdown-events.txt:4 \
		    sapphirerapids-topdown-l2.txt:sapphirerapids:sapphirerapids-topdown-events.txt:12 \
		    sapphirerapids-topdown-l2.csv:sapphirerapids:sapphirerapids-topdown-events.txt:12 \
		    skylakex-topdown-a.txt:skylakex:skylakex-topdown-events-a.txt:4 \
		    skylakex-topdown-a.csv:skylakex:skylakex-topdown-events-a.txt:4 \
		    skylakex-topdown-a.json:skylakex:skylakex-topdown-events-a.txt:4; do
		IFS=: read f cpu named n <<-EOF
		$spec
		EOF
		grep -o "# *[0-9.]*% [A-Za-z ]*[a-z]" $EMU/$named | sed "s/^# *//; s/%//" |
			awk "{ v = \$1; \$1 = \"\"; sub(/^ /, \"\"); print tolower(\$0), v * 10 }" | sort -u >want &&
		emu_nodes $EMU/$f $cpu >got &&
		jq -r ".scopes[] | select(.derived == null) | .nodes[] | select(.value != null) |
		       \"\\(.perf_name | ascii_downcase) \\(.value * 1000 | round)\"" r.json | sort -u >g &&
		test $(wc -l <g) = $n &&
		comm -23 g want >bad && test_line_count = 0 bad &&
		awk "\$4 != \"perf\" || \$5 != 5 || \$6 != \"true\"" got >bad &&
		test_line_count = 0 bad &&
		jq -e "[.scopes[] | select(.derived == null) | .nodes[] | select(.value != null) |
			.perf_kind == \"builtin\" and (.reason | test(\"built-in Top-Down\"))] | all" r.json ||
			{ echo "$f"; return 1; }
	done
'

# Beside counts, perf's built-in values stand in the perf column as
# percentages (never 1000.0), labelled b; JSON %f gives a 1e-6 % step; a
# blank CSV field (perf 6.1 prints no negative value) is no number, not 0;
# where perf printed both, the column shows the table's metric.
test_expect_success 'perf column: built-in values as perf printed them, labelled built-in, their own resolution' '
	"$TDPERF" report --cpu icelakex --format json $EMU/icelakex-topdownL3.csv >l3.json &&
	jq -r ".scopes[0].nodes[] | select(.level == 1) | \"\\(.id) \\(.perf_value * 1000 | round) \\(.perf_kind) \\(.perf_resolution * 1e4 | round)\"" l3.json >got &&
	printf "frontend_bound 250 builtin 10\nbad_speculation 100 builtin 10\nbackend_bound 350 builtin 10\nretiring 300 builtin 10\n" >want &&
	diff -u want got &&
	jq -e "[.scopes[].nodes[] | select(.perf_kind == \"builtin\") | .perf_value <= 1] | all" l3.json &&
	"$TDPERF" report --cpu icelakex $EMU/icelakex-topdownL3.csv >l3.txt &&
	test_grep "^    Frontend Bound  .*  25.0 b\$" l3.txt &&
	test_grep "b perf.s built-in Top-Down number" l3.txt &&
	! grep -q "1000\.0" l3.txt &&
	"$TDPERF" report --cpu sapphirerapids --format json $EMU/sapphirerapids-topdownL3.json >j.json &&
	jq -e "[.scopes[0].nodes[] | select(.level == 1) | .perf_resolution == 1e-8 and .perf_kind == \"builtin\"] | all" j.json &&
	"$TDPERF" report --cpu skylakex --format json $EMU/skylakex-topdownL3.csv >blank.json &&
	jq -e ".scopes[0].nodes[] | select(.id == \"non_fused_branches\") |
	       .perf_value == null and .perf_name == \"tma_non_fused_branches\" and .source == \"counts\"" blank.json &&
	"$TDPERF" report --cpu icelakex --format json $EMU/icelakex-metric-only.txt >mo.json &&
	jq -e ".scopes[0].nodes[] | select(.id == \"frontend_bound\") |
	       .perf_name == \"tma_frontend_bound\" and .perf_kind == \"table\" and .value == 0.232" mo.json
'

test_done
