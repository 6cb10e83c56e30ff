#!/bin/sh
# The first screen of the HTML report tells the truth at a glance (issue 32),
# on published perf outputs: the session with the most complete Level 1 is
# summarised (case-11: session 1 has all four, session 2 two); a hybrid
# CPU's P-core and E-core side by side, every box and chart row named with
# session and core type (case-17, case-45); multiplexing said only of the
# PMU perf scaled (case-45: perf printed running percentages for cpu_atom
# events only); a partial stack carries a "not measured" segment (case-31:
# perf printed Level 1 and no Level 2; diff: a Level-1-only run as B); the
# footer names the schema version of the document it drew.
. "$(dirname "$0")/test-lib.sh"

PUB="$FIXTURES/perf-stat-published"
C11="$PUB/case-11-zen4-ckl-blog-pipelineL1-L2.txt"
C17="$PUB/case-17-adl-hybrid-irogers-topdownL1-4runs.txt"
C45="$PUB/case-45-adl-acme-irogers-topdownL2-hybrid.txt"
C31="$PUB/case-31-arm-v3ae-learningpath-default-metrics-only.txt"

test_expect_success 'case-11: the summary shows session 1, whose Level 1 is complete' '
	"$TDPERF" report --html c11.html "$C11" >/dev/null &&
	test_grep "summary shows the most complete one, session 1 (perf stat chrt -f 50 taskset -c 0 " c11.html &&
	test_grep "with 4 Level-1 nodes and" c11.html &&
	test_grep "session 2 (perf stat chrt -f 50 taskset -c 1 [^)]*): 2 Level-1," c11.html
'

test_expect_success 'case-17: P-core and E-core of session 1 side by side on the summary' '
	"$TDPERF" report --html c17.html "$C17" >/dev/null &&
	tr -d "\n" <c17.html | grep -o "<div class=\"hybrid-pair\".*" | sed "s|<h2.*||" >pair &&
	test "$(grep -o "<h3 class=\"scope-title\">" pair | wc -l)" = 2 &&
	test_grep "session 1 (perf stat system wide, line 20) &middot; <b>P-core</b> (cpu_core)</h3>" pair &&
	test_grep "session 1 (perf stat system wide, line 20) &middot; <b>E-core</b> (cpu_atom)</h3>" pair
'

test_expect_success 'case-17: every folded box names its session and core type' '
	sed "s|<details class=\"scope\"><summary>|\n&|g" c17.html | sed -n "s|^<details class=\"scope\"><summary>\(.*\)</summary>.*|\1|p" |
		sed "s|</summary>.*||" | grep -v "info metrics" | sort -u >boxes &&
	test_line_count = 7 boxes &&
	test "$(grep -c "^session [1-4] (perf stat system wide, line [0-9]*) &middot; <b>[PE]-core</b> (cpu_\(core\|atom\))$" boxes)" = 7
'

test_expect_success 'case-17: chart rows name session and core type (8 different bars)' '
	"$TDPERF" report --plot plots "$C17" >/dev/null &&
	grep -v "^#" plots/topdown-l1.dat | cut -f1 | sort -u >rows &&
	test_line_count = 8 rows &&
	test_grep "^s1 P-core cpu_core$" rows && test_grep "^s4 E-core cpu_atom$" rows
'

test_expect_success 'case-45: multiplexing is said of the E-core only, as perf printed it' '
	"$TDPERF" report --format json "$C45" >c45.json &&
	jq -e "[.scopes[] | select(.derived == null) | {p: .pmu, m: .multiplexed}] ==
		[{p: \"cpu_core\", m: false}, {p: \"cpu_atom\", m: true}]" c45.json &&
	"$TDPERF" report --html c45.html "$C45" >/dev/null &&
	tr -d "\n" <c45.html | sed "s|<section|\n&|g" | grep "id=\"summary\"" >summary &&
	test_grep "no multiplexing: all 13 events counted all the time" summary &&
	! test_grep "counters were multiplexed" summary
'

test_expect_success 'case-45: text marks no P-core node multiplexed, the E-core ones are' '
	"$TDPERF" report "$C45" >c45.txt &&
	sed -n "/PMU cpu_core --/,/PMU cpu_atom --/p" c45.txt >core &&
	! grep "^  [> ] *[A-Z].*%.*m" core &&
	! test_grep "counters were multiplexed" core &&
	sed -n "/PMU cpu_atom --/,\$p" c45.txt | test_grep -q "counters were multiplexed"
'

test_expect_success 'case-31: the Level-2 summary bar marks what was not measured (100 % - Retiring 12.3 %)' '
	"$TDPERF" report --cpu neoverse-v3 --html c31.html "$C31" >/dev/null &&
	test_grep -q "<span class=\"not-measured\" style=\"width:87.7" c31.html &&
	test_grep -q "not measured <b>87.7%</b>" c31.html
'

test_expect_success 'gnuplot: a partial bar gets a hatched not-measured series; whole with it' '
	"$TDPERF" report --cpu neoverse-v3 --plot p31 "$C31" >/dev/null &&
	test_grep "title .not measured. lc rgb \"#8a929e\" fs pattern 4" p31/topdown-l2.gp &&
	grep -v "^#" p31/topdown-l2.dat | awk -F"\t" "{ s = 0; for (i = 2; i <= NF; i++) if (\$i != \"?\") s += \$i;
		if (s < 99.9 || s > 100.1) { print \"row sums to \" s; exit 1 } }"
'

test_expect_success 'diff: compare-l2 B column (Level 1 only) is marked not measured, not drawn empty' '
	"$TDPERF" diff --plot d "$PUB/case-23-cml-multidim-topdownL1-L2-L3.txt" "$PUB/case-05-skl-irogers-topdownL1-systemwide.txt" >/dev/null &&
	grep "^# tab-separated columns: .* | not measured$" d/compare-l2.dat &&
	grep "^B: " d/compare-l2.dat | awk -F"\t" "{ exit !(\$NF != \"?\" && \$NF + 0 > 80) }" &&
	test_grep "not measured" d/compare-l2.gp
'

test_expect_success 'noise: -v does not promise what it already shows; -vv hides nothing' '
	"$TDPERF" report -v "$C45" >v.txt &&
	! test_grep "hidden; -v shows them" v.txt &&
	test_grep "nodes below Level 2 not computable hidden; -vv shows them" v.txt &&
	"$TDPERF" report -vv "$C45" >vv.txt &&
	! test_grep "hidden" vv.txt
'

test_expect_success 'noise: the charts say once which components are not computable, no card of n/a metrics' '
	tr -d "\n" <c31.html | sed "s|<figure|\n&|g" | grep "^<figure class=\"chart\" id=\"fig-topdown-l2\"" >fig &&
	test_grep -q "<details class=\"na-notes\"><summary>5 components not computable, shown as n/a or inside the hatched part: Backend Busy Bound, " fig &&
	! sed "s|<details class=\"na-notes\">.*||" fig | test_grep -q "not computable:" &&
	! test_grep -q "<details class=\"scope na-list\">" c31.html
'

test_expect_success 'the footer names the version of the document drawn' '
	v=$(jq .version c45.json) &&
	test_grep "from a report document (schema v$v)" c45.html
'

test_done
