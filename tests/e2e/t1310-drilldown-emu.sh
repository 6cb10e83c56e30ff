#!/bin/sh
# tdperf record --drilldown under the emulated PMU of tests/pmu-emu: the
# real perf counts the tree, tdperf picks the deepest flagged node of the
# bottleneck path and samples its locate-with event (Intel perfmon's
# LocateWith) in a second run.  Two emulated Skylake-SP parts whose
# counting rates make different nodes the bottleneck, and per-function
# rates (pmu-emu --ip-rates) that put each node's events in a known
# function: tw_hot_b is made frontend bound (Fetch Latency), tw_hot_a
# memory bound (DRAM).  An emulated Neoverse V2, whose table gives no
# locate-with events, samples cycles with the node's events: each
# function's own value of the node.  The oracle is the emulator's log of what each
# function's samples added (the ipcount lines), the table's formulas on
# those true counts, and Intel's perfmon data for the events.
. "$(dirname "$0")/test-lib.sh"

. "$TD_SRCDIR/tests/e2e/pmu-emu-lib.sh"
emu_require nm tw-hot

# rates_cpu FILE "CONFIG RATE,...": skylakex.cpu with these counting
# rates; the first rate line of a config wins, so they go first.
rates_cpu() {
	awk -v extra="$2" '{ print } /^  rate 0x3c 1.0$/ {
		n = split(extra, a, ","); for (i = 1; i <= n; i++) print "  rate " a[i] }' \
		"$EMU/cpus/skylakex.cpu" >"$1"
}

# share_truth LOG CONFIG SYMBOL: the percentage of the event CONFIG's true
# count (what the consumed samples added) that fell in SYMBOL.
share_truth() {
	awk -v c="config=$2" -v s="sym=$3" '$1 == "ipcount" && $4 == c {
		split($6, t, "="); all += t[2]; if ($3 == s) mine += t[2] }
		END { if (all > 0) printf "%.9f\n", 100 * mine / all }' "$1"
}

# report_share NAME STEP SYMBOL: the share the report gives SYMBOL.
report_share() {
	jq --argjson s "$2" --arg f "$3" '.drilldown.steps[] | select(.step == $s) |
		[.functions[] | select(.symbol == $f)][0].share' "$1.json"
}

# evidence NAME: what a failure needs to be understood from CI's log alone.
evidence() {
	echo "== $1.out" && tail -n 8 "$1.out"
	echo "== meta drilldown" && jq -c ".drilldown" "$1/meta.json"
	echo "== report" && jq -c ".drilldown.steps[] | [.node, [.functions[0:4][] | [.symbol, .share]]]" "$1.json"
	echo "== $1.log ipcount" && grep "^ipcount" "$1.log" | head -n 20
}

# Frontend bound: Level 1 Frontend 50 % (IDQ_UOPS_NOT_DELIVERED.CORE 2.0
# per core cycle of 4 slots), Fetch Latency 40 % (CYCLES_0_UOPS_DELIV.CORE
# 0.4 per cycle, times 4 slots), so the bottleneck path ends in Fetch
# Latency at -l 2.  Its LocateWith is FRONTEND_RETIRED.LATENCY_GE_16
# (event 0xc6 umask 0x1; config 0x1c6, the latency in config1), which
# Intel marks TakenAlone: sampled with cycles only.  tw_hot_b gets 20
# times tw_hot_a's rate of it.
rates_cpu fe.cpu "0x19c 2.0,0x0400019c 0.4"
cat >fe.rates <<EOF
binary $W/tw-hot
tw_hot_a   0x20003c=2.0 0x19c=0.4 0x0400019c=0.05 0x1c6=0.01
tw_hot_b   0x20003c=2.0 0x19c=3.0 0x0400019c=0.6  0x1c6=0.2
EOF

test_expect_success 'frontend bound: Fetch Latency is drilled into, sampled by its locate-with event' '
	"$EMU/pmu-emu" --cpu ./fe.cpu --log fe.log --ip-rates fe.rates -- \
		"$TDPERF" record --assume-pmu --drilldown -o fe -- "$W/tw-hot" 0.5 >fe.out 2>&1 &&
	! grep "^refused" fe.log &&
	"$TDPERF" report --format json fe >fe.json &&
	jq -e ".scopes[0].bottleneck.path[-1] == \"fetch_latency\"" fe.json &&
	jq -e ".drilldown | length == 1" fe/meta.json &&
	jq -e ".drilldown[0] | .node == \"fetch_latency\" and .file == \"drilldown.data\"" fe/meta.json &&
	# Intel perfmon (skylakex TMA): Fetch_Latency is located with
	# FRONTEND_RETIRED.LATENCY_GE_16, MSR 0x3F7 value 0x401006, TakenAlone
	jq -e ".drilldown[0].sampled | .kind == \"locate_event\" and .precise and
		.event == \"FRONTEND_RETIRED.LATENCY_GE_16\" and
		.events == \"{cpu/event=0xc6,umask=0x1,frontend=0x401006,name=FRONTEND_RETIRED.LATENCY_GE_16/pp,cycles}:S\" and
		(.note | test(\"TakenAlone\"))" fe/meta.json &&
	grep "^sampler .*config=0x1c6 " fe.log &&
	jq -e ".files[] | select(.name == \"drilldown.data\") | .role == \"drilldown\" and .format == \"perf.data\"" fe/meta.json ||
	{ evidence fe; false; }
'

test_expect_success 'frontend bound: tw_hot_b carries the located events, its share as the emulator counted them' '
	test "$(jq -r ".drilldown.steps[0].functions[0].symbol" fe.json)" = tw_hot_b &&
	for f in tw_hot_b tw_hot_a; do
		want=$(share_truth fe.log 0x1c6 $f) && got=$(report_share fe 1 $f) &&
		echo "$f: report $got %, emulator $want %" &&
		approx_eq "$got" "$want" 0.01 || { evidence fe; return 1; }
	done &&
	approx_eq "$(report_share fe 1 tw_hot_b)" 90 5
'

test_expect_success 'frontend bound: text and HTML show the drill-down' '
	"$TDPERF" report fe >fe.txt &&
	test_grep "^Drill-down (record --drilldown)" fe.txt &&
	test_grep "step 1: Fetch Latency (Level 2, 40.0 % in the counting run)" fe.txt &&
	test_grep "sampled: FRONTEND_RETIRED.LATENCY_GE_16 (precise), with cycles only" fe.txt &&
	test_grep "instead: Intel marks FRONTEND_RETIRED.LATENCY_GE_16 TakenAlone" fe.txt &&
	sed -n "/step 1: Fetch Latency/,\$p" fe.txt | grep -m1 " tw_hot_" >first &&
	test_grep "^ *9[0-9].[0-9] % *[0-9]* *tw_hot_b (.*tw-hot.c:[0-9]*)" first &&
	"$TDPERF" report --html fe.html fe 2>/dev/null &&
	test_grep "<section id=\"drilldown\"" fe.html &&
	test_grep "href=\"#drilldown\"" fe.html &&
	test_grep "<code>tw_hot_b</code>" fe.html
'

# Memory bound: Backend 52.5 % of which Memory Bound the larger part
# (stall cycles on memory 0.3 of 1 per cycle, most of them L3 misses).
# This PMU has no precise sampling (no caps/max_precise, as on AMD
# without IBS or on Arm): the events are sampled without :pp.
# Memory Bound has no LocateWith in Intel's data, so step 1 samples
# cycles; --drilldown=2 counts its children, DRAM Bound comes out
# flagged and largest, and its LocateWith MEM_LOAD_RETIRED.L3_MISS
# (event 0xd1 umask 0x20) is sampled; tw_hot_a gets 50 times tw_hot_b's
# rate of it.
rates_cpu mem.cpu "0x19c 0.4,0x02c2 1.2,0x010e 1.3,0x140014a3 0.3,0x0c000ca3 0.28,0x050005a3 0.25,0x060006a3 0.22"
sed -i "/caps max_precise/d" mem.cpu
cat >mem.rates <<EOF
binary $W/tw-hot
tw_hot_a   0x20003c=2.0 0x20d1=0.05
tw_hot_b   0x20003c=2.0 0x20d1=0.001
EOF

test_expect_success 'memory bound, --drilldown=2: Memory Bound by cycles, then its flagged child DRAM Bound by MEM_LOAD_RETIRED.L3_MISS' '
	"$EMU/pmu-emu" --cpu ./mem.cpu --log mem.log --ip-rates mem.rates -- \
		"$TDPERF" record --assume-pmu --drilldown=2 -o mem -- "$W/tw-hot" 0.5 >mem.out 2>&1 &&
	! grep "^refused" mem.log &&
	"$TDPERF" report --format json mem >mem.json &&
	jq -e ".drilldown | length == 2" mem/meta.json &&
	jq -e ".drilldown[0] | .node == \"memory_bound\" and .sampled.kind == \"cycles_group\"" mem/meta.json &&
	test_grep "memory_bound has no locate-with event in table skylakex" mem.out &&
	jq -e ".drilldown[1] | .node == \"dram_bound\" and .step == 2 and .file == \"drilldown-2.data\"" mem/meta.json &&
	jq -e ".drilldown[1].sampled | .event == \"MEM_LOAD_RETIRED.L3_MISS\" and .precise == false and
		(.events | startswith(\"{cpu/event=0xd1,umask=0x20,name=MEM_LOAD_RETIRED.L3_MISS/,\")) and
		(.note | test(\"no precise sampling\"))" mem/meta.json &&
	test_grep "warning: --drilldown: the PMU has no precise sampling" mem.out &&
	# the children were counted in a run of their own, read as a report of its own
	test -f mem/drilldown-count-2.csv &&
	"$TDPERF" report --format json --cpu skylakex mem/drilldown-count-2.csv >count.json &&
	test "$(jq -r "[.scopes[0].nodes[] | select(.parent == \"memory_bound\" and .flagged)] |
		max_by(.value) | .id" count.json)" = dram_bound &&
	# and left out of the run report: its Level 1 is the first run'"'"'s
	test "$(jq "[.scopes[] | select(.session > 1)] | length" mem.json)" = 0 ||
	{ evidence mem; false; }
'

test_expect_success 'memory bound: tw_hot_a carries the L3 misses, its share as the emulator counted them' '
	test "$(jq -r ".drilldown.steps[1].functions[0].symbol" mem.json)" = tw_hot_a &&
	for f in tw_hot_a tw_hot_b; do
		want=$(share_truth mem.log 0x20d1 $f) && got=$(report_share mem 2 $f) &&
		echo "$f: report $got %, emulator $want %" &&
		approx_eq "$got" "$want" 0.01 || { evidence mem; return 1; }
	done &&
	approx_eq "$(report_share mem 2 tw_hot_a)" 85 8
'

test_expect_success 'memory bound: text and HTML say what was sampled instead' '
	"$TDPERF" report mem >mem.txt &&
	test_grep "step 1: Memory Bound (Level 2, 42.3 % in the counting run)" mem.txt &&
	test_grep "instead: memory_bound has no locate-with event in table skylakex" mem.txt &&
	test_grep "step 2: DRAM Bound (Level 3," mem.txt &&
	test_grep "instead: the PMU has no precise sampling" mem.txt &&
	"$TDPERF" report --html mem.html mem 2>/dev/null &&
	test_grep "Instead: the PMU has no precise sampling" mem.html &&
	test_grep "Step 2: DRAM Bound" mem.html
'

# Neoverse V2: 8 slots per cycle, Backend Bound 40 % by the description's
# rates, the bottleneck.  Arm's data gives no locate-with events, so the
# drill-down samples cycles leading Backend Bound's events
# (STALL_SLOT_BACKEND 0x3d, CPU_CYCLES 0x11): tw_hot_a stalls 4 slots of
# 8 per cycle (50 %), tw_hot_b 0.8 (10 %).
cat >arm.rates <<EOF
binary $W/tw-hot
tw_hot_a   0x11=1.0 0x3d=4.0
tw_hot_b   0x11=1.0 0x3d=0.8
EOF

test_expect_success 'neoverse-v2: no locate-with event: cycles with the node'"'"'s events, each function'"'"'s own Backend Bound as its rates make it' '
	"$EMU/pmu-emu" --cpu neoverse-v2 --log arm.log --ip-rates arm.rates -- \
		"$TDPERF" record --assume-pmu --drilldown -o arm -- "$W/tw-hot" 0.5 >arm.out 2>&1 &&
	! grep "^refused" arm.log &&
	"$TDPERF" report --format json arm >arm.json &&
	jq -e ".drilldown[0] | .node == \"backend_bound\" and .sampled.kind == \"cycles_group\" and
		(.sampled.events | test(\"name=STALL_SLOT_BACKEND/\"))" arm/meta.json &&
	test_grep "backend_bound has no locate-with event in table neoverse-v2" arm.out &&
	for fv in tw_hot_a=0.5 tw_hot_b=0.1; do
		got=$(jq --arg f ${fv%=*} "[.drilldown.steps[0].functions[] | select(.symbol == \$f)][0].topdown.backend_bound" arm.json) &&
		echo "${fv%=*}: own Backend Bound $got, the rates make ${fv#*=}" &&
		approx_eq "$got" "${fv#*=}" 1e-6 || { evidence arm; return 1; }
	done &&
	"$TDPERF" report arm >arm.txt &&
	sed -n "/step 1: Backend Bound/,\$p" arm.txt | grep -m1 " tw_hot_a" >first &&
	test_grep "50.0 %  tw_hot_a" first
'

test_done
