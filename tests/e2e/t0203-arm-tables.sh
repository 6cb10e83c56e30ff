#!/bin/sh
# Arm tables: 'tables import --arm-core' on perf's arch/arm64 layout
# (ArchStdEvent references into sbsa.json and the common event lists,
# percent formulas, deeper levels), the built-in Neoverse, AmpereOne and
# hip08 tables (Level 1 values against perf's own formulas, computed here
# independently with awk), Arm CPUIDs, 'tdperf list' and dry runs.
. "$(dirname "$0")/test-lib.sh"

TABLES=$TD_SRCDIR/metrics/tables
ARM_TABLES="neoverse-n1 neoverse-n2 neoverse-v2 neoverse-v1 neoverse-n3 neoverse-v3 ampereone ampereonex hip08"

# A miniature arch/arm64 tree in perf's layout: the architecture files
# and one core directory that refers into them, as the real ones do.
mkdir -p arm64/vendor/core
cat >arm64/sbsa.json <<'EOF'
[
 {"MetricExpr": "stall_slot_frontend / (#slots * cpu_cycles)", "MetricGroup": "Default;TopdownL1",
  "MetricName": "frontend_bound", "ScaleUnit": "100%"},
 {"MetricExpr": "(1 - op_retired / op_spec) * (1 - stall_slot / (#slots * cpu_cycles))",
  "MetricGroup": "Default;TopdownL1", "MetricName": "bad_speculation", "ScaleUnit": "100%"},
 {"MetricExpr": "(op_retired / op_spec) * (1 - stall_slot / (#slots * cpu_cycles))",
  "MetricGroup": "Default;TopdownL1", "MetricName": "retiring", "ScaleUnit": "100%"},
 {"MetricExpr": "stall_slot_backend / (#slots * cpu_cycles)", "MetricGroup": "Default;TopdownL1",
  "MetricName": "backend_bound", "ScaleUnit": "100%"}
]
EOF
cat >arm64/common-and-microarch.json <<'EOF'
[
 {"EventCode": "0x08", "EventName": "INST_RETIRED"}, {"EventCode": "0x11", "EventName": "CPU_CYCLES"},
 {"EventCode": "0x23", "EventName": "STALL_FRONTEND"}, {"EventCode": "0x24", "EventName": "STALL_BACKEND"},
 {"EventCode": "0x3A", "EventName": "OP_RETIRED"}, {"EventCode": "0x3B", "EventName": "OP_SPEC"},
 {"EventCode": "0x3D", "EventName": "STALL_SLOT_BACKEND"}, {"EventCode": "0x3E", "EventName": "STALL_SLOT_FRONTEND"},
 {"EventCode": "0x3F", "EventName": "STALL_SLOT"}, {"EventCode": "0x10", "EventName": "BR_MIS_PRED"}
]
EOF
echo '[]' >arm64/recommended.json
cat >arm64/vendor/core/stall.json <<'EOF'
[ {"ArchStdEvent": "STALL_FRONTEND"}, {"ArchStdEvent": "STALL_BACKEND"}, {"ArchStdEvent": "CPU_CYCLES"},
  {"EventCode": "0x2013", "EventName": "IMPDEF_FLUSH"} ]
EOF
cat >arm64/vendor/core/metrics.json <<'EOF'
[
 {"ArchStdEvent": "frontend_bound",
  "MetricExpr": "(100 * ((STALL_SLOT_FRONTEND / (CPU_CYCLES * 8)) - ((BR_MIS_PRED * 4) / CPU_CYCLES)))"},
 {"ArchStdEvent": "backend_bound"},
 {"ArchStdEvent": "retiring"},
 {"ArchStdEvent": "bad_speculation"},
 {"MetricName": "frontend_mem_bound", "MetricExpr": "STALL_FRONTEND / CPU_CYCLES * 100",
  "ScaleUnit": "1percent of cycles", "MetricGroup": "Topdown_Frontend"},
 {"MetricName": "impdef_flush_rate", "MetricExpr": "armv8_pmuv3_0@event\\=0x2013@ * 5 / CPU_CYCLES", "MetricGroup": "TopdownL3"},
 {"MetricName": "backend_stalled_cycles", "MetricExpr": "((STALL_BACKEND / CPU_CYCLES) * 100)",
  "ScaleUnit": "1percent of cycles", "MetricGroup": "Cycle_Accounting"}
]
EOF
printf '0x00000000410fd400,v1,vendor/core,core\n' >arm64/mapfile.csv

test_expect_success 'import resolves ArchStdEvent references of events and metrics' '
	"$TDPERF" tables import -o t.json --name mini --vendor ARM --pmu armv8_pmuv3_0 \
		--arm-core arm64/vendor/core --slots 8 --counters 6,6,1 \
		--mapfile arm64/mapfile.csv --map-key vendor/core &&
	jq -r ".metrics[] | select(.level == 1) | .id" t.json | sort >ids &&
	printf "backend_bound\nbad_speculation\nfrontend_bound\nretiring\n" >want &&
	diff -u want ids &&
	jq -e ".events[] | select(.name == \"STALL_SLOT_BACKEND\") | .perf_name == \"armv8_pmuv3_0/event=0x3d/\"" t.json &&
	jq -e ".events[] | select(.name == \"CPU_CYCLES\") | .fixed == 0" t.json &&
	jq -e "[.events[] | has(\"umask\")] | any | not" t.json
'

test_expect_success 'a percent override becomes the fraction it is of; sbsa formulas stay' '
	jq -r ".metrics[] | select(.id == \"frontend_bound\") | .formula" t.json >f &&
	test_grep "^STALL_SLOT_FRONTEND / (CPU_CYCLES \* 8) - BR_MIS_PRED \* 4 / CPU_CYCLES\$" f &&
	"$TDPERF" expr --table t.json --var CPU_CYCLES=1000 --var STALL_SLOT_FRONTEND=2400 \
		--var BR_MIS_PRED=10 frontend_bound >v &&
	echo 0.26 >want && diff -u want v &&
	jq -r ".metrics[] | select(.id == \"backend_bound\") | .formula" t.json >f &&
	test_grep "^STALL_SLOT_BACKEND / (#slots \* CPU_CYCLES)\$" f
'

test_expect_success 'deeper nodes get parent, level and their stall-cycle domain' '
	jq -e ".metrics[] | select(.id == \"frontend_mem_bound\") |
		.parent == \"frontend_bound\" and .level == 2 and .domain == \"frontend stall cycles\" and
		.formula == \"STALL_FRONTEND / CPU_CYCLES\"" t.json &&
	jq -e ".metrics[] | select(.id == \"backend_stalled_cycles\") | .level == 0 and .unit == \"percent of cycles\"" t.json
'

test_expect_success 'raw event=N terms and events the core files lack are said' '
	jq -e ".events[] | select(.name == \"armv8_pmuv3_0@event=0x2013@\") | .perf_name == \"armv8_pmuv3_0/event=0x2013/\"" t.json &&
	jq -r .source t.json >src &&
	test_grep "taken from the architecture" src &&
	test_grep "STALL_SLOT_FRONTEND" src
'

test_expect_success 'mapfile MIDRs match any variant and revision' '
	jq -r ".cpuid[0]" t.json >re &&
	echo "0x0000000041[[:xdigit:]]fd40[[:xdigit:]]" >want && diff -u want re
'

test_expect_success 'an ArchStdEvent naming nothing is a one-line error, exit 2, nothing written' '
	cp -r arm64 bad && echo "[{\"ArchStdEvent\": \"NO_SUCH_EVENT\"}]" >bad/vendor/core/stall.json &&
	test_exit_code 2 "$TDPERF" tables import -o bad.json --name bad --arm-core bad/vendor/core --slots 8 2>err &&
	test_line_count = 1 err && test_grep "NO_SUCH_EVENT" err && ! test -e bad.json
'

test_expect_success 'every Arm table is built in, listed, and says what it lacks' '
	"$TDPERF" list >list &&
	for t in $ARM_TABLES; do
		test -f "$TABLES/$t.json" || { echo "missing $t"; exit 1; }
		grep -q "^$t " list || { echo "not listed: $t"; exit 1; }
		jq -e ".vendor != null and (.missing | length) > 20" "$TABLES/$t.json" >/dev/null ||
			{ echo "$t: says nothing about what it lacks"; exit 1; }
	done &&
	jq -e "([.metrics[] | select(.level >= 1)] | length) == 0 and (.missing | test(\"no slot events\"))" \
		"$TABLES/neoverse-n1.json"
'

test_expect_success 'levels: AmpereOne 1-4, hip08 1-3, N3/V3 stall-cycle children, N2/V2/V1 Level 1' '
	lv() { jq -r "[.metrics[] | select(.level >= 1) | .level] | max" "$TABLES/$1.json"; } &&
	test "$(lv ampereone)" = 4 && test "$(lv ampereonex)" = 4 && test "$(lv hip08)" = 3 &&
	test "$(lv neoverse-n3)" = 4 && test "$(lv neoverse-v3)" = 4 &&
	test "$(lv neoverse-n2)" = 1 && test "$(lv neoverse-v2)" = 1 && test "$(lv neoverse-v1)" = 1 &&
	for t in ampereone hip08; do
		for id in fetch_latency fetch_bandwidth branch_mispredicts machine_clears memory_bound core_bound; do
			jq -e --arg id $id "any(.metrics[]; .id == \$id and .level == 2)" "$TABLES/$t.json" >/dev/null ||
				{ echo "$t: no Level 2 $id"; exit 1; }
		done
	done &&
	jq -e ".metrics[] | select(.id == \"backend_cache_l1d_bound\") | .domain | test(\"stall cycles\")" \
		"$TABLES/neoverse-n3.json"
'

# perf's published Level 1 formulas (arch/arm64 sbsa.json and the core
# metrics.json files), written out here in awk with the counts below;
# tdperf's fractions must equal them / 100 (perf prints percent).
CY=1000000 FE=1500000 BE=2500000 SL=4000000 OS=3200000 OR=3000000 BM=5000 FF=20000
VARS="--var CPU_CYCLES=$CY --var STALL_SLOT_FRONTEND=$FE --var STALL_SLOT_BACKEND=$BE --var STALL_SLOT=$SL
	--var OP_SPEC=$OS --var OP_RETIRED=$OR --var BR_MIS_PRED=$BM --var STALL_FRONTEND_FLUSH=$FF"
perf_l1() {
	awk -v t="$1" -v w="$2" -v cy=$CY -v fe=$FE -v be=$BE -v sl=$SL -v os=$OS -v orr=$OR -v bm=$BM -v ff=$FF 'BEGIN {
		if (t == "n2") { s = (w == 5) ? sl - cy : sl; f = (w == 5) ? fe - cy : fe
			FEB = f / (w * cy); BAD = (1 - orr / os) * (1 - s / (w * cy))
			RET = (orr / os) * (1 - s / (w * cy)); BEB = be / (w * cy) }
		if (t == "v1") { FEB = fe / (cy * 8) - bm * 4 / cy
			BAD = (1 - orr / os) * (1 - sl / (cy * 8)) + bm * 4 / cy
			RET = (orr / os) * (1 - sl / (w * cy)); BEB = be / (w * cy) }
		if (t == "n3") { FEB = fe / (w * cy) - ff / cy
			BAD = (1 - sl / (w * cy)) * (1 - orr / os) + ff / cy
			RET = (orr / os) * (1 - sl / (w * cy)); BEB = be / (w * cy) }
		if (t == "amp") { RET = 100 * orr / (cy * w); BAD = 100 * (os - orr) / (cy * w)
			BEB = 100 * be / (w * cy); FEB = 100 - (RET + BAD + BEB)
			RET /= 100; BAD /= 100; BEB /= 100; FEB /= 100 }
		printf "%.6f %.6f %.6f %.6f\n", FEB, BAD, RET, BEB }'
}
ours_l1() {
	for n in frontend_bound bad_speculation retiring backend_bound; do
		# shellcheck disable=SC2086
		"$TDPERF" expr --cpu "$1" $VARS "$n" || return 1
	done | awk '{ printf "%s%.6f", (NR > 1 ? " " : ""), $1 } END { print "" }'
}

while read -r table kind width; do
	test_expect_success "$table Level 1 equals perf's formula ($kind, $width slots)" "
		perf_l1 $kind $width >want && ours_l1 $table >got && diff -u want got
	"
done <<'LIST'
neoverse-n2 n2 5
neoverse-v2 n2 8
neoverse-v1 v1 8
neoverse-n3 n3 5
neoverse-v3 n3 10
ampereone amp 4
ampereonex amp 4
LIST

test_expect_success 'hip08 Level 1: fixed width 4, Backend Bound the remainder' '
	for n in frontend_bound bad_speculation retiring backend_bound; do
		"$TDPERF" expr --cpu hip08 --var CPU_CYCLES=1000 --var FETCH_BUBBLE=800 --var INST_SPEC=2200 \
			--var INST_RETIRED=2000 $n || exit 1
	done >got &&
	printf "0.2\n0.05\n0.5\n0.25\n" >want && diff -u want got
'

while read -r midr table; do
	test_expect_success "MIDR $midr maps to $table" "
		\"\$TDPERF\" tables path $midr >out && test_grep '/$table.json\$' out
	"
done <<'LIST'
0x00000000413fd0c1 neoverse-n1
0x00000000410fd490 neoverse-n2
0x00000000410fd4f0 neoverse-v2
0x00000000411fd401 neoverse-v1
0x00000000410fd8e0 neoverse-n3
0x00000000410fd830 neoverse-v3
0x00000000c00fac30 ampereone
0x00000000c00fac40 ampereonex
0x00000000480fd010 hip08
LIST

test_expect_success 'dry runs: every Arm table, Level 1 counted in one group on the Arm PMU' '
	for t in $ARM_TABLES; do
		if [ $t = neoverse-n1 ]; then
			test_must_fail "$TDPERF" record --dry-run --cpu $t -l 1 -- true 2>err &&
			test_grep "no Top-Down tree" err &&
			"$TDPERF" record --dry-run --cpu $t -- true >out 2>err &&
			test_grep "measuring its [0-9]* info metrics instead" err &&
			"$TDPERF" record --dry-run --cpu $t --metrics frontend_stalled_cycles,ipc -- true >out ||
				exit 1
			test_grep "armv8_pmuv3_0/event=0x23" out || exit 1
			continue
		fi
		"$TDPERF" record --dry-run --cpu $t -l 1 -- true >out || { echo "$t"; exit 1; }
		test "$(grep -c "^group [0-9]* (armv8_pmuv3_0)" out)" = 1 || { echo "$t: not one group"; cat out; exit 1; }
		test_grep "^run 1: perf stat .*armv8_pmuv3_0/event=0x11,name=CPU_CYCLES/" out || exit 1
		"$TDPERF" record --dry-run --cpu $t -l 4 -- true >out || { echo "$t -l 4"; exit 1; }
		! grep -q "umask" out || { echo "$t: umask on an Arm PMU"; exit 1; }
	done
'

# A published real output (Neoverse N2, LKML 2023, case 30): tdperf
# tells the core from perf's printed backend_bound and reproduces the
# values perf printed, Level 1 and info metrics, within perf's rounding.
N2=$FIXTURES/perf-stat-published/case-30-arm-n2-jingzhang-topdownL1-tlb-branch.txt

test_expect_success 'case 30: the core is inferred as Neoverse N2 from the width perf used' '
	"$TDPERF" report --format json "$N2" >n2.json &&
	jq -e ".scopes[1].table == \"neoverse-n2\"" n2.json &&
	"$TDPERF" report "$N2" >n2.txt &&
	test_grep "implies 5 slots per cycle: Neoverse N2" n2.txt
'

test_expect_success 'case 30: Level 1 equals the 4 values perf printed (within 0.05 points)' '
	jq -r "[.scopes[] | .nodes[] | select(.perf_value != null and .value != null)
		| (.value - .perf_value) | fabs] | \"\\(length) \\([.[] | select(. > 0.0005)] | length)\"" n2.json >cmp &&
	echo "4 0" >want && diff -u want cmp
'

test_expect_success 'case 30: every info metric perf printed is reproduced to its printed digits' '
	jq -r ".scopes[] | . as \$s | .perf_metrics[] | . as \$p
		| (\$s.metrics[] | select(.id == \$p.name and .value != null)) | \"\\(\$p.name) \\(\$p.value) \\(.value)\"" \
		n2.json >pairs &&
	test_line_count = 10 pairs &&
	awk "{ d = \$2 - \$3; if (d < 0) d = -d; if (d > 0.05) { print \"differs: \" \$0; bad = 1 } } END { exit bad }" pairs
'

# A published real output of perf 6.5+ on Neoverse V3AE (case 31): metric
# values only ("1.8 percent of slots  frontend_bound"), no slot counts.
V3=$FIXTURES/perf-stat-published/case-31-arm-v3ae-learningpath-default-metrics-only.txt

test_expect_success 'case 31: perf 6.5 "unit  name" metric lines are read as unit and name' '
	"$TDPERF" report --cpu neoverse-v3 --format json "$V3" >v3.json &&
	jq -r ".scopes[0].perf_metrics[] | \"\\(.name)|\\(.unit)|\\(.value)\"" v3.json >pm &&
	test_grep "^frontend_bound|percent of slots|1.8\$" pm &&
	test_grep "^backend_bound|percent of slots|85.8\$" pm &&
	test_grep "^cycles_frequency|GHz|2.8\$" pm &&
	test_grep "^insn_per_cycle|instructions|1.3\$" pm
'

test_expect_success 'case 31: no counts, so each node takes the value perf printed, marked as perf'"'"'s' '
	jq -r "[.scopes[0].nodes[] | select(.perf_value != null) | \"\\(.id) \\(.perf_value) \\(.value) \\(.source)\"] | sort | .[]" v3.json >got &&
	printf "backend_bound 0.858 0.858 perf\nbad_speculation 0 0 perf\nfrontend_bound 0.018 0.018 perf\nretiring 0.123 0.123 perf\n" >want &&
	diff -u want got &&
	jq -e "[.scopes[0].nodes[] | select(.source == \"counts\") | .value] | all(. == null)" v3.json
'

test_expect_success 'case 31 without --cpu: a one-line error asking for it, exit 2' '
	test_exit_code 2 "$TDPERF" report "$V3" >out 2>err &&
	test_line_count = 1 err && test_grep "give --cpu NAME" err
'

# tdperf record on Neoverse N2 through tests/replay-perf (a perf test
# double answering with case 30's counts): the perf command asks the Arm
# PMU for Level 1 in one group, and the run's report computes Level 1
# from the counts perf wrote, with N2's #slots correction.
test_expect_success 'record on N2 through the replay perf: one Arm group, Level 1 from its counts' '
	TDPERF_PERF=$TD_BUILDDIR/tests/replay-perf TDPERF_REPLAY_FIXTURE=$N2 TDPERF_REPLAY_SESSION=2 \
	TDPERF_REPLAY_LOG=$PWD/replay.log \
		"$TDPERF" record --cpu neoverse-n2 --assume-pmu -l 1 -o n2run -- sh -c "exit 0" &&
	grep " stat " replay.log >cmd && test_line_count = 1 cmd &&
	test "$(tr -cd "{" <cmd)" = "{" &&
	for e in "0x11,name=CPU_CYCLES" "0x3e,name=STALL_SLOT_FRONTEND" "0x3d,name=STALL_SLOT_BACKEND" \
		 "0x3f,name=STALL_SLOT" "0x3a,name=OP_RETIRED" "0x3b,name=OP_SPEC"; do
		test_grep "armv8_pmuv3_0/event=$e/" cmd >/dev/null || { echo "not asked: $e"; exit 1; }
	done &&
	awk -F, "/^[0-9]/ { v[\$3] = \$1 } END { c = v[\"CPU_CYCLES\"]; s = v[\"STALL_SLOT\"] - c; r = v[\"OP_RETIRED\"] / v[\"OP_SPEC\"]
		printf \"frontend_bound %.10f\\n\", (v[\"STALL_SLOT_FRONTEND\"] - c) / (5 * c)
		printf \"bad_speculation %.10f\\n\", (1 - r) * (1 - s / (5 * c))
		printf \"retiring %.10f\\n\", r * (1 - s / (5 * c))
		printf \"backend_bound %.10f\\n\", v[\"STALL_SLOT_BACKEND\"] / (5 * c) }" n2run/perf-stat-1.csv >want &&
	"$TDPERF" report --format json n2run >run.json &&
	jq -r ".scopes[0].nodes[] | \"\\(.id) \\(.value)\"" run.json >got &&
	awk "NR == FNR { w[\$1] = \$2; next } { d = w[\$1] - \$2; if (d < 0) d = -d; if (!(\$1 in w) || d > 1e-9) bad = 1 } END { exit bad }" want got &&
	test_line_count = 4 got
'

test_expect_success 'the run'"'"'s caps/slots is #slots: 0x00000008 turns N2'"'"'s formula into the 8-wide one' '
	jq ".pmus = [{\"name\": \"armv8_pmuv3_0\", \"type\": 8, \"hybrid\": false, \"core\": true,
		\"caps\": {\"slots\": \"0x00000008\"}}]" n2run/meta.json >m.json && cp m.json n2run/meta.json &&
	"$TDPERF" report --format json n2run >run8.json &&
	jq -e ".scopes[0].literals[\"#slots\"] == 8" run8.json &&
	awk -F, "/^[0-9]/ { v[\$3] = \$1 } END { printf \"%.10f\\n\", v[\"STALL_SLOT_FRONTEND\"] / (8 * v[\"CPU_CYCLES\"]) }" \
		n2run/perf-stat-1.csv >want &&
	jq -r ".scopes[0].nodes[] | select(.id == \"frontend_bound\") | .value" run8.json >got &&
	awk "NR == FNR { w = \$1; next } { d = w - \$1; if (d < 0) d = -d; exit d > 1e-9 }" want got
'

# perf accepts Arm events by name, as r<hex> and as pmu/event=N/, and
# prints them back as typed: all spellings find the table's events.
test_expect_success 'raw spellings r3e, armv8_pmuv3_0/event=0x11/ and pmu/name/ are the table events' '
	cat >raw.csv <<-\EOF &&
	3406548064,,armv8_pmuv3_0/event=0x11/,455229807,100.00,,
	7961814801,,r3e,455229807,100.00,,
	11746647747,,armv8_pmuv3_0/event=0x3d/,455229807,100.00,,
	19576079610,,r003f,455229807,100.00,,
	877673452,,r3b,455229807,100.00,,
	876324270,,armv8_pmuv3_0/op_retired/,455229807,100.00,,
	EOF
	"$TDPERF" report --cpu neoverse-n2 --format json raw.csv >raw.json &&
	jq -r ".scopes[0].nodes[] | \"\\(.id) \\(.value)\"" raw.json >got &&
	awk "BEGIN { c = 3406548064; s = 19576079610 - c
		printf \"frontend_bound %.10f\\n\", (7961814801 - c) / (5 * c)
		printf \"bad_speculation %.10f\\n\", (1 - 876324270 / 877673452) * (1 - s / (5 * c))
		printf \"retiring %.10f\\n\", 876324270 / 877673452 * (1 - s / (5 * c))
		printf \"backend_bound %.10f\\n\", 11746647747 / (5 * c) }" >want &&
	awk "NR == FNR { w[\$1] = \$2; next } { d = w[\$1] - \$2; if (d < 0) d = -d; if (!(\$1 in w) || d > 1e-9) bad = 1 } END { exit bad }" want got
'

# One tree across vendors: Intel (case 5, Skylake), AMD (case 11, Zen 4)
# and Arm (case 30, N2) diffs line up on the canonical ids and say how
# each CPU defines them where the methods differ.
test_expect_success 'diff Intel / AMD / Arm: same ids compared, each side says how Level 1 is defined' '
	P=$FIXTURES/perf-stat-published &&
	for a in "$P"/case-05-*.txt "$P"/case-11-*.txt; do
		"$TDPERF" diff --format json "$a" "$N2" >d.json || exit 1
		jq -e "[.nodes[] | select(.id == \"frontend_bound\" and .a != null and .b != null)] | length == 1" d.json ||
			{ echo "frontend_bound not compared: $a"; exit 1; }
		jq -e "[.warnings[] | select(test(\"^B \\\\(neoverse-n2\\\\): Arm \\\\(SBSA\\\\)\"))] | length == 1" d.json ||
			{ echo "no Arm definition: $a"; exit 1; }
	done &&
	"$TDPERF" diff "$P"/case-05-*.txt "$N2" >d.txt &&
	test_grep "A (skylake): Intel TMA: .*recovering" d.txt &&
	"$TDPERF" diff "$P"/case-11-*.txt "$N2" >d.txt &&
	test_grep "A (zen4): AMD: fractions of the dispatch slots" d.txt &&
	test_grep "with no recovery slots" d.txt
'

test_done
