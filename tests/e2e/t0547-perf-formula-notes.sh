#!/bin/sh
# Nodes whose formula is not perf 6.1's say so (issue 30 item 9).  tdperf
# takes Intel's newer TMA data (5.x); perf 6.1 carries older expressions
# for some nodes.  metrics/compat/perf-6.1/<table>.json names, per table,
# perf 6.1's expression and what changed; the report carries it as the
# node's "perf_formula" (JSON) and a -v line (text).
#
# The oracle is perf 6.1 itself: its values printed in
# tests/fixtures/perf-oracle (the --json files, the most digits) and its
# own expressions (`perf list --details metric` under tests/pmu-emu).
# Alder Lake is left out: its cpu_atom table is perf's own pmu-events, so
# the expressions are perf's and its disagreements have other causes.
. "$(dirname "$0")/test-lib.sh"

. "$TD_SRCDIR/tests/e2e/pmu-emu-lib.sh"

emu_require

ORACLE=$FIXTURES/perf-oracle
CPUS="cometlake icelake icelakex rocketlake sapphirerapids skylake skylakex tigerlake"

# notes CPU: "ID NOTE SOURCE" for each node of the run's total scope, NOTE
# yes when the node carries perf_formula, perf when that says the node is
# perf 6.1's own (perf_only: computed with perf's expression, t0212).
notes() {
	"$TDPERF" report --format json "$ORACLE/$1/all.json" >report.json &&
	jq -r '[.. | objects | select(has("perf_formula") and has("id"))] | unique_by(.id)[] |
		"\(.id) \(if .perf_formula == null then "no" elif .perf_formula.perf_only then "perf" else "yes" end) \(.source)"' report.json
}

# A value that differs by less than a thousandth of itself is not a formula
# of another shape: the latency nodes of Skylake to Tiger Lake have perf
# 6.1's expressions and constants (16.5 = 20 - 3.5 cycles, ...) and differ
# by about 1e-4 of themselves in one format only, from the inputs of the
# frequency (Average_Frequency), not from the formula.  Tiger Lake's Ports_Utilized_0
# agrees though perf 6.1 adds a serializing-operation term: the emulated
# counts make that term zero.
test_expect_success 'perf 6.1 oracle: a node that differs names its formula difference, one that agrees does not' '
	for cpu in $CPUS; do
		notes $cpu >notes.$cpu &&
		test -s notes.$cpu &&
		"$EMU/perf-oracle" compare "$ORACLE" $cpu:json >rows.$cpu 2>/dev/null &&
		grep -q "^row $cpu all.json .* tma_" rows.$cpu || return 1
	done &&
	for cpu in $CPUS; do
		awk -v cpu=$cpu "FNR == NR { note[\$1] = \$2; src[\$1] = \$3; next }
			\$1 != \"row\" || \$6 !~ /^tma_/ || \$7 == \"n/a\" { next }
			{ id = substr(\$6, 5); p = \$8; v = \$9; d = p - v; if (d < 0) d = -d
			  a = p < 0 ? -p : p; n = note[id] }
			\$7 == \"differ\" && d >= a / 1000 && n != \"yes\" && n != \"perf\" {
				print cpu, id, \"differs from perf (\" p \" vs \" v \") without a perf_formula\"; bad = 1 }
			\$7 == \"differ\" && d >= a / 1000 && n == \"perf\" {
				print cpu, id, \"is perf 6.1'\''s node yet differs from perf (\" p \" vs \" v \")\"; bad = 1 }
			\$7 == \"differ\" && d < a / 1000 && n == \"yes\" {
				print cpu, id, \"differs by less than 0.1 % yet carries perf_formula\"; bad = 1 }
			\$7 == \"agree\" && n == \"yes\" && src[id] == \"counts\" &&
			!(cpu == \"tigerlake\" && id == \"ports_utilized_0\") {
				print cpu, id, \"agrees with perf yet carries perf_formula\"; bad = 1 }
			END { exit bad }" notes.$cpu rows.$cpu || return 1
	done
'

test_expect_success 'the formula differences the fixtures show are all named' '
	for want in "skylake assists" "skylake decoder0_alone" "skylake ports_utilized_0" \
		"skylake mixing_vectors" "icelake assists" "icelake ports_utilized_0" \
		"sapphirerapids int_operations" "sapphirerapids fp_arith" \
		"sapphirerapids l3_hit_latency" "sapphirerapids remote_cache"; do
		set -- $want &&
		grep -q "^$2 yes " notes.$1 || { echo "$want: no perf_formula"; return 1; }
	done
'

# perf 6.1's expression in each note is the one perf prints for that CPU.
test_expect_success 'each perf_formula expression is perf 6.1'"'"'s own (perf list --details metric)' '
	for f in "$TD_SRCDIR"/metrics/compat/perf-6.1/*.json; do
		cpu=$(basename "$f" .json) &&
		"$EMU/pmu-emu" --cpu $cpu -- perf list --details metric >list.$cpu 2>/dev/null &&
		jq -r ".metrics[] | \"\(.id)\t\(.perf_formula.perf_version)\t\(.perf_formula.expr)\"" "$f" >want.$cpu &&
		test -s want.$cpu &&
		while IFS="	" read -r id ver expr; do
			test "$ver" = 6.1 &&
			M="  tma_$id" E="[$expr]" awk "
				\$0 == ENVIRON[\"M\"] { on = 1; next }
				on && /^       \\[/ { sub(/^ +/, \"\"); last = \$0; next }
				on { if (last == ENVIRON[\"E\"]) found = 1; on = 0 }
				END { exit !found }" list.$cpu ||
			{ echo "$cpu $id: perf 6.1 does not print [$expr]"; return 1; }
		done <want.$cpu || return 1
	done
'

test_expect_success 'text -v shows the note under the node, the default output does not' '
	"$TDPERF" report -v "$ORACLE/skylake/all.json" >v.txt &&
	grep -A3 "^ *Assists " v.txt >assists.txt &&
	grep -F "(perf 6.1 computes this with an older formula: 100 * (FP_ASSIST.ANY + OTHER_ASSISTS.ANY) / SLOTS; ours follows Intel" assists.txt &&
	"$TDPERF" report "$ORACLE/skylake/all.json" >plain.txt &&
	! grep -q "older formula" plain.txt
'

test_done
