#!/bin/sh
# tdperf record on every Arm table's core (Neoverse N1, N2, V1, V2, N3,
# V3, AmpereOne, AmpereOneX, Kunpeng 920) through the real perf binary
# against the emulated armv8_pmuv3_0 PMU of tests/pmu-emu: tdperf detects
# the core from the emulated /proc/cpuinfo and sysfs midr_el1, perf parses
# every event string against the PMU's format/ and opens the groups on six
# general counters and the cycle counter, and each Top-Down node equals the
# table's formula on the emulator's true counts (tests/pmu-emu/emu-check).
. "$(dirname "$0")/test-lib.sh"
. "$TD_SRCDIR/tests/e2e/pmu-emu-lib.sh"

emu_require

# arm_record CPU NAME LEVEL: tdperf record -l LEVEL of 'sleep 0.3' under
# the emulated CPU, its dry run, and the check against the truth.
arm_record() {
	cpu=$1 name=$2 level=$3
	rm -rf "$name.data" "$name.log"
	"$EMU/pmu-emu" --cpu "$cpu" --log "$name.log" -- \
		"$TDPERF" record -l "$level" -o "$name.data" -- sleep 0.3 >"$name.out" 2>&1 &&
	"$TDPERF" record --dry-run --cpu "$cpu" -l "$level" -- true >"$name.dry" 2>&1 &&
	! grep "^refused" "$name.log" &&
	! grep "not counted\|not supported" "$name.data"/perf-stat-*.csv &&
	"$EMU/emu-check" "$EMU/cpus/$cpu.cpu" "$name.log" "$name.dry" "$name.data" >"$name.check" ||
	{ cat "$name.out" "$name.check"; false; }
}

test_expect_success 'the namespace shows an Arm core: cpuinfo MIDR fields, sysfs midr_el1, the PMU files' '
	"$EMU/pmu-emu" --cpu neoverse-v2 -- sh -c "grep -m5 \"^CPU \" /proc/cpuinfo; \
		cat /sys/devices/system/cpu/cpu0/regs/identification/midr_el1 \
		    /sys/devices/system/cpu/online \
		    /sys/bus/event_source/devices/armv8_pmuv3_0/format/event \
		    /sys/bus/event_source/devices/armv8_pmuv3_0/caps/slots \
		    /sys/bus/event_source/devices/armv8_pmuv3_0/events/stall_slot" >out &&
	test_grep "^CPU implementer	: 0x41$" out && test_grep "^CPU part	: 0xd4f$" out &&
	test_grep "^CPU revision	: 1$" out && test_grep "^0x00000000410fd4f1$" out &&
	test_grep "^config:0-15$" out && test_grep "^0x00000008$" out && test_grep "^event=0x003f$" out &&
	! grep -q vendor_id out
'

test_expect_success 'perf: named aliases and raw encodings count; the cycle counter takes CPU_CYCLES only' '
	"$EMU/pmu-emu" --cpu neoverse-n3 --log ev.log -- perf stat -x, -o ev.csv -e \
		"{armv8_pmuv3_0/cpu_cycles/,armv8_pmuv3_0/stall_frontend_flush/,armv8_pmuv3_0/event=0x3d/,armv8_pmuv3_0/op_spec/,armv8_pmuv3_0/op_retired/,armv8_pmuv3_0/stall_slot/,armv8_pmuv3_0/event=0x816b/}" \
		-- sleep 0.05 &&
	! grep "not counted\|not supported" ev.csv &&
	test "$(grep -c "^[0-9][0-9]*,,armv8_pmuv3_0/" ev.csv)" = 7 &&
	# seven events besides cycles: six general counters are one too few
	"$EMU/pmu-emu" --cpu neoverse-n3 --log imp.log -- perf stat -x, -o imp.csv -e \
		"{armv8_pmuv3_0/event=0x3a/,armv8_pmuv3_0/event=0x3b/,armv8_pmuv3_0/event=0x3d/,armv8_pmuv3_0/event=0x3e/,armv8_pmuv3_0/event=0x3f/,armv8_pmuv3_0/event=0x23/,armv8_pmuv3_0/event=0x24/}" \
		-- sleep 0.05 >/dev/null 2>&1;
	test_grep "^refused .*config=0x24 .*group does not fit on the counters" imp.log
'

test_expect_success 'neoverse-v2 -l 1: every event counted, report = formulas on the truth, the core named' '
	arm_record neoverse-v2 v2 1 &&
	jq -e ".cpu.cpuid == \"0x00000000410fd4f1\"" v2.data/meta.json &&
	"$TDPERF" report v2.data >v2.txt &&
	test_grep "^CPU: ARM CPU 0x00000000410fd4f1" v2.txt &&
	test_grep "^Table: neoverse-v2 .*8 slots/cycle" v2.txt
'

for level in 1 2 3; do
	test_expect_success "neoverse-n3 -l $level: every event counted, report = formulas on the truth" '
		arm_record neoverse-n3 n3-$level $level &&
		"$TDPERF" report n3-$level.data >n3-$level.txt &&
		test_grep "^CPU: ARM CPU 0x00000000410fd8e0" n3-$level.txt &&
		test_grep "^Table: neoverse-n3 .*5 slots/cycle" n3-$level.txt
	'
done

# The other Arm tables, each at its deepest level: N2, V1 and V3 Level 1
# (V3 with its stall-cycle groups), AmpereOne/OneX Levels 1-4, Kunpeng
# 920 Levels 1-3 on its implementation-defined events.
while read -r cpu level midr slots; do
	test_expect_success "$cpu -l $level: every event counted, report = formulas on the truth, the core named" '
		arm_record $cpu $cpu $level &&
		jq -e --arg t $cpu --arg m $midr ".table.name == \$t and .cpu.cpuid == \$m" $cpu.data/meta.json &&
		"$TDPERF" report $cpu.data >$cpu.txt &&
		test_grep "^CPU: [A-Za-z]* CPU $midr \\[detected\\]" $cpu.txt &&
		test_grep "^Table: $cpu .*$slots slots/cycle" $cpu.txt &&
		"$TDPERF" report --format json $cpu.data >$cpu.json &&
		jq -e "[.scopes[0].nodes[] | select(.level == 1 and .value != null)] | length == 4" $cpu.json
	'
done <<'LIST'
neoverse-n2 1 0x00000000410fd490 5
neoverse-v1 1 0x00000000411fd401 8
neoverse-v3 3 0x00000000410fd830 10
ampereone 4 0x00000000c00fac30 4
ampereonex 4 0x00000000c00fac40 4
hip08 3 0x00000000481fd010 4
LIST

# Neoverse N1 has no slot events: no tree to ask for (record says so and
# what to ask instead), and its stall-cycle view records as info metrics.
test_expect_success 'neoverse-n1: -l 1 is refused with what to ask instead; the stall-cycle view records' '
	test_exit_code 2 "$EMU/pmu-emu" --cpu neoverse-n1 -- "$TDPERF" record -l 1 -o n1x.data -- true 2>err &&
	test_grep "table neoverse-n1 has no Top-Down tree: ask for info metrics with --metrics" err &&
	test ! -e n1x.data &&
	m=frontend_stalled_cycles,backend_stalled_cycles,ipc &&
	"$EMU/pmu-emu" --cpu neoverse-n1 --log n1.log -- "$TDPERF" record --metrics $m -o n1.data -- sleep 0.3 >n1.out 2>&1 &&
	"$TDPERF" record --dry-run --cpu neoverse-n1 --metrics $m -- true >n1.dry 2>&1 &&
	! grep "^refused" n1.log &&
	"$EMU/emu-check" "$EMU/cpus/neoverse-n1.cpu" n1.log n1.dry n1.data >n1.check &&
	"$TDPERF" report --format json n1.data >n1.json &&
	jq -e "[.scopes[0].metrics[] | select(.id == \"frontend_stalled_cycles\" or .id == \"backend_stalled_cycles\") | .value | numbers] | length == 2" n1.json
'

# N3 and V3 count FP operations of every precision (perf's fp_ops_per_cycle:
# FP_FIXED_OPS_SPEC + FP_SCALE_OPS_SPEC, a multiply-add twice per lane):
# their FLOPS stack is drawn against the double-precision peak, the
# precision assumed and said; N2 and V2, whose reference calls the same
# events single-precision counts, say why they have none.
test_expect_success 'neoverse-n3 --stacks flops: FLOPs = FP_FIXED_OPS_SPEC + FP_SCALE_OPS_SPEC against 8 FLOP/cycle' '
	"$EMU/pmu-emu" --cpu neoverse-n3 --log fl.log -- "$TDPERF" record -l 1 --stacks flops -o fl.data -- sleep 0.3 >fl.out 2>&1 &&
	"$TDPERF" record --dry-run --cpu neoverse-n3 -l 1 --stacks flops -- true >fl.dry 2>&1 &&
	! grep "^refused" fl.log &&
	"$EMU/emu-check" "$EMU/cpus/neoverse-n3.cpu" fl.log fl.dry fl.data >fl.check &&
	"$TDPERF" report --format json fl.data >fl.json &&
	jq -e ".scopes[0].stacks.flops | .available == true and .precision == \"dp\" and .peak_per_cycle == 8" fl.json &&
	fixed=$(awk -F, "/FP_FIXED_OPS_SPEC/ { print \$1 }" fl.data/perf-stat-1.csv) &&
	scale=$(awk -F, "/FP_SCALE_OPS_SPEC/ { print \$1 }" fl.data/perf-stat-1.csv) &&
	test -n "$fixed" && test -n "$scale" &&
	jq -e ".scopes[0].stacks.flops | .flops == $(( fixed + scale )) and ((.achieved * .seconds * 1e9 - .flops) | fabs) < 1" fl.json &&
	"$TDPERF" report fl.data >fl.txt &&
	test_grep "FLOPS stack: GFLOP/s, dp peak .* = 8 FLOP/cycle" fl.txt &&
	test_grep "not measurable on this CPU: multiply-adds are not counted apart" fl.txt
'

test_expect_success 'neoverse-n2, v1, v2, n1, AmpereOne, Kunpeng 920: no FLOPS stack, each saying why' '
	for t in neoverse-n2:single-precision neoverse-v2:single-precision neoverse-v1:256 \
		 neoverse-n1:Armv8.2 ampereone:no.FP.operation-count hip08:Armv8.2; do
		jq -e --arg why "${t#*:}" ".params[\"flops.unavailable\"] | test(\$why)" \
			"$TD_SRCDIR/metrics/tables/${t%%:*}.json" >/dev/null || { echo "$t"; return 1; }
	done &&
	"$TDPERF" report v2.data >v2f.txt &&
	test_grep "FLOPS: not measurable on this CPU: the reference describes V2" v2f.txt
'

test_expect_success 'neoverse-n3 -l 3 reaches the stall-cycle children' '
	"$TDPERF" report n3-3.data --format json >n3-3.json &&
	jq -e "[.. | objects | select(.id? == \"backend_busy_bound\" or .id? == \"frontend_core_flow_bound\")] | length > 0" n3-3.json
'

# big.LITTLE: one core PMU per cluster, each counting only on its CPUs.
# Every cluster is counted on its own PMU with the table of its core, and
# the report gives each its tree (its own slots width: N2 5, V2 8).
test_expect_success 'big.LITTLE: each cluster on its own PMU with its core table; each tree = formulas on the truth' '
	"$EMU/pmu-emu" --cpu biglittle --log bl.log -- sh -c \
		"\"$TDPERF\" check >bl.check-out; \"$TDPERF\" record --dry-run -l 1 -- true >bl.dry" &&
	test_grep "hybrid *yes: 2 Arm clusters" bl.check-out &&
	test_grep "cluster *armv9_neoverse_n2: CPUs 0, MIDR 0x00000000410fd490, table neoverse-n2" bl.check-out &&
	test_grep "cluster *armv9_neoverse_v2: CPUs 1, MIDR 0x00000000410fd4f1, table neoverse-v2" bl.check-out &&
	test_grep "^group 1 (armv9_neoverse_n2)" bl.dry && test_grep "^group 2 (armv9_neoverse_v2)" bl.dry &&
	test_grep "name=armv9_neoverse_v2.STALL_SLOT/" bl.dry &&
	rm -f bl.log &&
	"$EMU/pmu-emu" --cpu biglittle --log bl.log -- "$TDPERF" record -l 1 -o bl.data -- sleep 0.3 >bl.out 2>&1 &&
	! grep "^refused" bl.log &&
	"$EMU/emu-check" "$EMU/cpus/biglittle.cpu" bl.log bl.dry bl.data >bl.check &&
	test_grep "nodes 20$" bl.check &&
	jq -e ".table.name == \"neoverse-n2\" and .table.pmu == \"armv9_neoverse_n2\" and
		.table.armv9_neoverse_v2.name == \"neoverse-v2\" and .table.armv9_neoverse_v2.cpus == \"1\"" bl.data/meta.json &&
	cmp bl.data/table-armv9_neoverse_v2.json "$TD_SRCDIR/metrics/tables/neoverse-v2.json" &&
	"$TDPERF" report bl.data >bl.txt &&
	test_grep "^Table: neoverse-n2 .*5 slots/cycle, PMU armv9_neoverse_n2)" bl.txt &&
	test_grep "^Table: neoverse-v2 .*8 slots/cycle, PMU armv9_neoverse_v2)" bl.txt &&
	test_grep "^-- total, PMU armv9_neoverse_n2 --" bl.txt &&
	test_grep "^-- total, PMU armv9_neoverse_v2 --" bl.txt &&
	"$TDPERF" report --format json bl.data >bl.json &&
	jq -e "[.scopes[] | select(.kind == \"total\") | .pmu] == [\"armv9_neoverse_n2\", \"armv9_neoverse_v2\"]" bl.json &&
	jq -e "[.scopes[] | [.nodes[] | select(.level == 1 and .value != null)] | length] == [4, 4]" bl.json
'

test_expect_success 'big.LITTLE, ACPI PMU names, a core tdperf has no table for: that cluster is said and not counted' '
	"$EMU/pmu-emu" --cpu biglittle-a55 --log a55.log -- sh -c \
		"\"$TDPERF\" check >a55.check-out; \"$TDPERF\" record --dry-run -l 1 -- true >a55.dry" &&
	test_grep "cluster *armv8_pmuv3_0: CPUs 0, MIDR 0x00000000411fd050, no table for this core" a55.check-out &&
	test_grep "table neoverse-v2" a55.dry && ! grep "armv8_pmuv3_0/" a55.dry &&
	rm -f a55.log &&
	"$EMU/pmu-emu" --cpu biglittle-a55 --log a55.log -- "$TDPERF" record -l 1 -o a55.data -- sleep 0.3 >a55.out 2>&1 &&
	test_grep "warning: cluster armv8_pmuv3_0 (CPUs 0, MIDR 0x00000000411fd050) not counted" a55.out &&
	"$EMU/emu-check" "$EMU/cpus/biglittle-a55.cpu" a55.log a55.dry a55.data >a55.check &&
	! grep "comm=perf pmu=armv8_pmuv3_0" a55.log &&
	"$TDPERF" report a55.data >a55.txt &&
	test_grep "^CPU: ARM CPU 0x00000000410fd4f1; 2 core types" a55.txt &&
	test_grep "^-- total, PMU armv8_pmuv3_1 --" a55.txt &&
	test_grep "the trees cover the time on the other clusters only" a55.txt
'

# record --live draws each cluster's tree with that cluster's table, as the
# report of the run directory does (the emulator's rates are constant, so
# every interval with counts has the run's fractions).  On a busy machine
# perf may print one more interval after the workload ended, in which
# nothing was counted: that one is drawn as not measured.
test_expect_success 'big.LITTLE record -I --live: each cluster drawn with its own table' '
	"$EMU/pmu-emu" --cpu biglittle -- "$TDPERF" record -l 1 -I 100 --live -o blive.data -- sleep 0.25 >blive.out 2>&1 &&
	"$TDPERF" report --format json blive.data >blive.json &&
	for pmu in armv9_neoverse_n2 armv9_neoverse_v2; do
		want=$(jq -r --arg p $pmu ".scopes[] | select(.pmu == \$p and .kind == \"total\" and (.id | contains(\"@\") | not)) |
			.nodes[] | select(.id == \"backend_bound\") | .value * 100" blive.json | awk "{ printf \"%.1f\", \$1 }") &&
		test -n "$want" &&
		grep "$pmu:" blive.out | grep -v "| Top-Down not measured: no hardware counts in this scope" >drawn &&
		test -s drawn &&
		! grep -v "backend_bound $want %" drawn || { cat blive.out; return 1; }
	done &&
	test "$(grep -c "armv9_neoverse_v2:.*backend_bound 40.0 %" blive.out)" -ge 2
'

# perf stat --no-merge prints each PMU's count of an event apart, its PMU
# after the name ("cpu_cycles [armv9_neoverse_n2]"), in all three formats.
test_expect_success 'perf stat --no-merge on big.LITTLE (text, CSV, JSON): a tree per cluster PMU, said' '
	ev=cpu_cycles,op_retired,op_spec,stall_slot,stall_slot_frontend,stall_slot_backend &&
	"$EMU/pmu-emu" --cpu biglittle -- sh -c "perf stat --no-merge -x, -o nm.csv -e $ev -- sleep 0.1 &&
		perf stat --no-merge -o nm.txt -e $ev -- sleep 0.1 &&
		perf stat --no-merge -j -o nm.json -e $ev -- sleep 0.1" &&
	test_grep "^[0-9]*,,cpu_cycles \[armv9_neoverse_v2\]," nm.csv &&
	test_grep "cpu_cycles \[armv9_neoverse_n2\]" nm.txt &&
	for f in nm.csv nm.txt nm.json; do
		"$TDPERF" report --cpu neoverse-v2 --format json $f >$f.rep &&
		jq -e "[.scopes[] | .pmu] == [\"armv9_neoverse_n2\", \"armv9_neoverse_v2\"]" $f.rep &&
		jq -e "[.warnings[] | .text | select(test(\"counts of 2 Arm core PMUs\"))] | length == 1" $f.rep &&
		for pmu in armv9_neoverse_n2 armv9_neoverse_v2; do
			fe=$(jq --arg p $pmu ".scopes[] | select(.pmu == \$p) | .events[] | select(.name == \"stall_slot_frontend\") | .value" $f.rep) &&
			cyc=$(jq --arg p $pmu ".scopes[] | select(.pmu == \$p) | .events[] | select(.name == \"cpu_cycles\") | .value" $f.rep) &&
			jq -e --arg p $pmu --argjson fe "$fe" --argjson c "$cyc" ".scopes[] | select(.pmu == \$p) | .nodes[] |
				select(.id == \"frontend_bound\") | ((.value - \$fe / (8 * \$c)) | fabs) < 1e-9" $f.rep || return 1
		done || return 1
	done
'

# perf stat record writes each cluster's count of an event under the same
# name; the PMU comes from the attr type and the file's PMU_MAPPINGS.
test_expect_success 'perf stat record on big.LITTLE: each cluster PMU its own scope, its own counts' '
	"$EMU/pmu-emu" --cpu biglittle -- perf stat record -o psr.data \
		-e cpu_cycles,op_retired,op_spec,stall_slot,stall_slot_frontend,stall_slot_backend -- sleep 0.1 2>psr.out &&
	"$TDPERF" report --cpu neoverse-v2 --format json psr.data >psr.json &&
	jq -e "[.scopes[] | .pmu] == [\"armv9_neoverse_n2\", \"armv9_neoverse_v2\"]" psr.json &&
	jq -e "[.scopes[] | [.events[] | select(.name == \"cpu_cycles\") | .pmu] | length] == [1, 1]" psr.json &&
	jq -e "[.scopes[] | .events[] | select(.name == \"cpu_cycles\") | .value] | .[0] != .[1]" psr.json &&
	jq -e "[.warnings[] | .text | select(test(\"counts of 2 Arm core PMUs\"))] | length == 1" psr.json
'

test_expect_success 'a big.LITTLE run directory whose cluster entries are bad: one line, exit 2' '
	cp -r bl.data blbad.data &&
	jq ".table[\"../x\"] = {\"name\": \"neoverse-v2\"}" bl.data/meta.json >blbad.data/meta.json &&
	test_exit_code 2 "$TDPERF" report blbad.data >out 2>err &&
	test_grep "blbad.data/meta.json: table has a cluster entry that is not a PMU name" err &&
	test_line_count = 1 err &&
	cp -r bl.data blgone.data && rm blgone.data/table-armv9_neoverse_v2.json &&
	test_exit_code 2 "$TDPERF" report blgone.data >out 2>err &&
	test_grep "blgone.data/table-armv9_neoverse_v2.json" err && test_line_count = 1 err
'

test_done
