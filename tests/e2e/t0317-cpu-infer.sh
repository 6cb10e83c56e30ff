#!/bin/sh
# tdperf report without --cpu/--smt on outputs the real perf 6.1 wrote
# under tests/pmu-emu (tests/fixtures/perf-stat-emu-infer/README.md):
# the table and SMT setting are inferred from the events and from the
# tma_* values perf printed, and the nodes then agree with perf's printed
# values, to perf's print rounding (0.05 points).  The oracle is perf's
# own numbers and the emulated CPU each file was made on.
. "$(dirname "$0")/test-lib.sh"

D=$FIXTURES/perf-stat-emu-infer

# check FILE TABLE SMT EQUALLY NODES...
#   EQUALLY: the tables that must be named as fitting equally, comma
#   separated, or '-' for none (the inference is unambiguous); NODES: ids
#   whose value must equal perf's printed one.
check() {
	file=$1 table=$2 smt=$3 equally=$4
	shift 4
	"$TDPERF" report --format json "$D/$file" >out.json 2>err || {
		cat err
		return 1
	}
	got=$(jq -r '.run.cpu.microarchitecture' out.json)
	test "$got" = "$table" || {
		echo "$file: table $got, expected $table: $(jq -r .run.cpu.confidence out.json)"
		return 1
	}
	got=$(jq -r '.run.smt.on' out.json)
	test "$got" = "$smt" || {
		echo "$file: SMT $got, expected $smt: $(jq -r .run.smt.reason out.json)"
		return 1
	}
	jq -r '.run.cpu.confidence' out.json | grep -q "^CPU inferred as $table: " || {
		echo "$file: no reason line: $(jq -r .run.cpu.confidence out.json)"
		return 1
	}
	if test "$equally" = -; then
		test "$(jq -r '.run.cpu.inference.fits_equally | length' out.json)" = 0 || {
			echo "$file: called ambiguous: $(jq -c .run.cpu.inference.fits_equally out.json)"
			return 1
		}
		! jq -r .run.cpu.confidence out.json | grep -q "give --cpu"
	else
		for t in $(echo "$equally" | tr , ' '); do
			jq -e --arg t "$t" '.run.cpu.inference.fits_equally | index($t)' out.json >/dev/null || {
				echo "$file: $t not named as fitting equally: $(jq -r .run.cpu.confidence out.json)"
				return 1
			}
		done
		jq -r .run.cpu.confidence out.json | grep -q "fit.* equally.*give --cpu"
	fi
	for id in "$@"; do
		jq -e --arg id "$id" '.scopes[0].nodes[] | select(.id == $id) |
			select(.value != null and .perf_value != null) |
			select((.value - .perf_value) | fabs <= 0.0005000001)' out.json >/dev/null || {
			echo "$file: $id: ours $(jq -c --arg id "$id" '.scopes[0].nodes[] | select(.id == $id) |
				[.value, .perf_value]' out.json) (ours, perf's)"
			return 1
		}
	done
}

test_expect_success 'Skylake-SP: AVX-512 events rule the client table out' '
	check skylakex-smton-L3.txt skylakex true cascadelakex memory_operations nop_instructions
'

test_expect_success 'Skylake-SP, SMT off: perf asked for INT_MISC.RECOVERY_CYCLES, not the _ANY event' '
	check skylakex-smtoff-L1.txt skylake false skylakex,cascadelakex &&
	jq -r .run.smt.reason out.json | grep -q "RECOVERY_CYCLES" &&
	check skylakex-smtoff-L4.txt skylakex false - dtlb_load split_loads fb_full data_sharing
'

# Since the tables got their same-encoding alternatives (t0211), the
# inference computes 19 of the 21 printed values with the server tables
# (21 with the client's), so it is no longer a tie.  (A report given
# --cpu skylakex computes all 21: the inference's evaluation does not yet
# try every alternative.)
test_expect_success 'Comet Lake: the client table; the server tables reproduce fewer of perf'"'"'s values' '
	check cometlake-smton-L3.txt skylake true - l1_bound l3_bound divider ports_utilization &&
	jq -e "[.run.cpu.inference.candidates[] | {(.table): .printed_reproduced.smt_on}] | add |
		.skylakex < .skylake" out.json
'

test_expect_success 'Ice Lake-SP Levels 3, 4, 6: icelakex (5 slots), not Sapphire Rapids (6)' '
	check icelakex-smton-L3.txt icelakex true - frontend_bound bad_speculation backend_bound retiring mite dsb &&
	check icelakex-smton-L4.txt icelakex true - l3_hit_latency data_sharing mem_latency store_latency lock_latency &&
	jq -e ".run.cpu.inference.candidates[] | select(.table == \"sapphirerapids\") |
		.slots_per_cycle == 6 and .unknown_events > 0" out.json &&
	check icelakex-smton-L4.json icelakex true - dtlb_load split_loads fb_full &&
	check icelakex-smton-L6.txt icelakex true - port_0 port_1 port_5 port_6 slow_pause
'

test_expect_success 'Ice Lake client: perf values tell it from Ice Lake-SP' '
	check icelake-smton-L4.txt icelake true rocketlake contested_accesses dtlb_load split_loads &&
	jq -e "[.run.cpu.inference.candidates[] | {(.table): .printed_reproduced.smt_on}] | add |
		.icelakex < .icelake" out.json &&
	check icelake-smton-L6.txt icelake true tigerlake,rocketlake port_0 port_1 port_5 port_6 slow_pause
'

# Level 4: perf 6.1 counts AMX_OPS_RETIRED.BF16/INT8 (cmask 1) for its
# tma_fp_amx and tma_int_amx, nodes the sapphirerapids table has as perf's
# (t0212) and emeraldrapids lacks, so the events decide it.  Level 6 has
# only port events, which the three tables share.
test_expect_success 'Sapphire Rapids: Level 4 told by perf'"'"'s AMX nodes; Level 6, Emerald and Granite Rapids named as equal' '
	check sapphirerapids-smton-L4.txt sapphirerapids true - ports_utilized_1 ports_utilized_2 sq_full &&
	jq -e ".run.cpu.inference.candidates[] | select(.table == \"emeraldrapids\") |
		.unknown_event_names | test(\"AMX_OPS_RETIRED\")" out.json &&
	check sapphirerapids-smton-L6.csv sapphirerapids true emeraldrapids,graniterapids port_0 port_1 port_6 slow_pause memory_fence
'

test_expect_success 'text report: the reason line and the SMT clause' '
	"$TDPERF" report "$D/icelakex-smton-L4.txt" >out.txt 2>&1 &&
	grep -q "CPU inferred as icelakex: its table knows every counted event and reproduces" out.txt &&
	grep -q "the next best, icelake, lacks 2 of the counted events (OCR" out.txt &&
	grep -q "; SMT on: reproduces perf.s tma_" out.txt &&
	grep -q "^SMT: on \[inferred from perf.s values\]" out.txt
'

test_done
