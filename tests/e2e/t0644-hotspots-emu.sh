#!/bin/sh
# Top-Down per function through the hardware path, with the emulated PMU
# of tests/pmu-emu: tdperf record --hotspots runs the real perf, whose
# leader-sampled group ({cycles,...}:S) the emulator answers with a real
# cpu-clock underneath and READ values that depend on the function each
# sample falls in (pmu-emu --ip-rates).  The emulator logs what the
# samples perf consumed added per function; each function's Level 1 in
# the report must equal the table's formulas on those true counts.
. "$(dirname "$0")/test-lib.sh"

. "$TD_SRCDIR/tests/e2e/pmu-emu-lib.sh"
emu_require nm tw-hot

LEVEL1="frontend_bound bad_speculation backend_bound retiring"

# hot_record CPU NAME RATES: tdperf record --hotspots -g of tw-hot under
# the emulated CPU with per-function rates; NAME.data, NAME.log (the
# emulator's), NAME.truth (SYMBOL EVENT TRUE SAMPLES), NAME.json (report).
hot_record() {
	cpu=$1 name=$2 rates=$3
	rm -rf "$name.data" "$name.log" &&
	"$EMU/pmu-emu" --cpu "$cpu" --log "$name.log" --ip-rates "$rates" -- \
		"$TDPERF" record --hotspots --assume-pmu -g -o "$name.data" -- "$W/tw-hot" 2 \
		>"$name.out" 2>&1 &&
	! grep "^refused" "$name.log" &&
	"$TDPERF" record --hotspots --dry-run --assume-pmu --cpu "$cpu" --smt on -g -- true >"$name.dry" 2>&1 &&
	"$EMU/emu-hot-truth" "$EMU/cpus/$cpu.cpu" "$name.log" "$name.dry" >"$name.truth" &&
	"$TDPERF" report --hotspots --format json "$name.data" >"$name.json"
}

# hot_evidence NAME: what a failure needs to be understood from CI's log
# alone (the run is gone by then): the truth, the report's samples per
# function, and what perf and the emulator said.
hot_evidence() {
	echo "== report: symbol samples" &&
	jq -r '.hotspots[] | "\(.symbol) \(.samples)"' "$1.json" | head -n 8 | tr '\n' ' ' && echo
	echo "== $1.truth" && cat "$1.truth"
	echo "== $1.out" && tail -n 5 "$1.out"
	echo "== $1.log (not ipcount)" && grep -v "^ipcount" "$1.log" | tail -n 8
}

# level1_matches NAME FUNCTION SMT: the report's Level 1 of FUNCTION and
# its samples equal the formulas on the emulator's true counts (a sample's
# counts are rounded to integers: 1e-6); prints "NODE VALUE" lines.
level1_matches() {
	name=$1 fn=$2 smt=$3
	set -- --var "#smt_on=$smt"
	for kv in $(awk -v f="$fn" '$1 == f { print $2 "=" $3 }' "$name.truth"); do
		set -- "$@" --var "$kv"
	done
	want_samples=$(awk -v f="$fn" '$1 == f { print $4; exit }' "$name.truth")
	got_samples=$(jq --arg f "$fn" '[.hotspots[] | select(.symbol == $f)][0].samples' "$name.json")
	test "$want_samples" = "$got_samples" ||
	{ echo "$fn: $got_samples samples in the report, the emulator gave $want_samples"; hot_evidence "$name"; return 1; }
	for node in $LEVEL1; do
		want=$("$TDPERF" expr --table "$name.data/table.json" "$@" "$node") || return 1
		got=$(jq --arg f "$fn" --arg n "$node" '[.hotspots[] | select(.symbol == $f)][0].topdown.nodes[] |
			select(.id == $n and .level == 1) | .value' "$name.json")
		echo "$node $got" >>"$name.$fn.l1"
		echo "$fn $node: report $got, formulas on the truth $want"
		awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d < 1e-6) }' ||
		{ hot_evidence "$name"; return 1; }
	done
}

# The bottleneck (largest Level 1 node) the report marks for FUNCTION.
bottleneck() {
	jq -r --arg f "$2" '[.hotspots[] | select(.symbol == $f)][0].topdown.nodes[] |
		select(.level == 1 and .bottleneck) | .id' "$1.json"
}

# Skylake-SP with SMT on: the group is {CPU_CLK_UNHALTED.THREAD_ANY,
# IDQ_UOPS_NOT_DELIVERED.CORE, UOPS_ISSUED.ANY, UOPS_RETIRED.RETIRE_SLOTS,
# INT_MISC.RECOVERY_CYCLES_ANY}; rates per core cycle, THREAD_ANY counting
# both threads (2), so Level 1 slots = 4 per cycle.  tw_hot_a is made
# frontend bound (0.5), tw_hot_b retiring (0.8), tw_hot_inl backend bound
# (1 - 0.075 - (1.0 + 0.04) / 4 = 0.665).
cat >sky.rates <<EOF
binary $W/tw-hot
tw_hot_a   0x20003c=2.0 0x19c=2.0 0x10e=1.4 0x2c2=1.2 0x20010d=0.01
tw_hot_b   0x20003c=2.0 0x19c=0.2 0x10e=3.3 0x2c2=3.2 0x20010d=0.01
tw_hot_inl 0x20003c=2.0 0x19c=0.3 0x10e=1.0 0x2c2=0.8 0x20010d=0.02
EOF

test_expect_success 'skylakex: leader-sampled group recorded through the emulator, READ values per function' '
	hot_record skylakex sky sky.rates &&
	grep "^sampler .*config=0x20003c " sky.log &&
	test "$(grep -c "^member .*config=0x19c " sky.log)" -ge 1 &&
	jq -e ".profile.group | length == 5" sky.json &&
	jq -e ".profile.table" sky.json &&
	for f in tw_hot_a tw_hot_b tw_hot_inl; do
		test "$(awk -v f=$f "\$1 == f" sky.truth | wc -l)" = 5 || return 1
	done
'

test_expect_success 'skylakex: each hot function'"'"'s Level 1 equals the formulas on the emulator'"'"'s true counts' '
	level1_matches sky tw_hot_a 1 &&
	level1_matches sky tw_hot_b 1 &&
	level1_matches sky tw_hot_inl 1
'

test_expect_success 'skylakex: the values and bottlenecks are those the rates make' '
	awk "\$1 == \"frontend_bound\" { exit !(\$2 > 0.4999 && \$2 < 0.5001) }" sky.tw_hot_a.l1 &&
	awk "\$1 == \"retiring\" { exit !(\$2 > 0.7999 && \$2 < 0.8001) }" sky.tw_hot_b.l1 &&
	awk "\$1 == \"backend_bound\" { exit !(\$2 > 0.6649 && \$2 < 0.6651) }" sky.tw_hot_inl.l1 &&
	test "$(bottleneck sky tw_hot_a)" = frontend_bound &&
	test "$(bottleneck sky tw_hot_b)" = retiring &&
	test "$(bottleneck sky tw_hot_inl)" = backend_bound &&
	# ordered by frontend bound as the rates order them: a (0.5) > inl (0.075) > b (0.05)
	jq -r "[.hotspots[] | select(.symbol | test(\"^tw_hot_(a|b|inl)$\")) |
		{s: .symbol, v: (.topdown.nodes[] | select(.id == \"frontend_bound\") | .value)}] |
		sort_by(-.v) | map(.s) | join(\" \")" sky.json >order &&
	test "$(cat order)" = "tw_hot_a tw_hot_inl tw_hot_b"
'

# Zen 4 (6 dispatch slots per cycle, Level 1 with SMT contention; no
# fixed counters): event 0x1a0 puts bit 32 in the config.  tw_hot_a
# frontend bound (3 / 6 = 0.5), tw_hot_b retiring (4.8 / 6 = 0.8),
# tw_hot_inl backend bound (3.9 / 6 = 0.65).
cat >zen.rates <<EOF
binary $W/tw-hot
tw_hot_a   0x76=1 0x1000001a0=3.0 0x7aa=2.2 0xc1=2.0 0x100001ea0=0.6  0x1000060a0=0.2
tw_hot_b   0x76=1 0x1000001a0=0.3 0x7aa=4.9 0xc1=4.8 0x100001ea0=0.56 0x1000060a0=0.24
tw_hot_inl 0x76=1 0x1000001a0=0.6 0x7aa=1.5 0xc1=1.2 0x100001ea0=3.9  0x1000060a0=0
EOF

test_expect_success 'zen4: each hot function'"'"'s Level 1 equals the formulas on the true counts, bottlenecks as the rates make them' '
	hot_record zen4 zen zen.rates &&
	LEVEL1="$LEVEL1 smt_contention" &&
	level1_matches zen tw_hot_a 1 &&
	level1_matches zen tw_hot_b 1 &&
	level1_matches zen tw_hot_inl 1 &&
	awk "\$1 == \"frontend_bound\" { exit !(\$2 > 0.4999 && \$2 < 0.5001) }" zen.tw_hot_a.l1 &&
	awk "\$1 == \"retiring\" { exit !(\$2 > 0.7999 && \$2 < 0.8001) }" zen.tw_hot_b.l1 &&
	awk "\$1 == \"backend_bound\" { exit !(\$2 > 0.6499 && \$2 < 0.6501) }" zen.tw_hot_inl.l1 &&
	test "$(bottleneck zen tw_hot_a)" = frontend_bound &&
	test "$(bottleneck zen tw_hot_b)" = retiring &&
	test "$(bottleneck zen tw_hot_inl)" = backend_bound
'

test_expect_success 'the SMT state of the run directory reaches the formulas; --smt off reads other events' '
	"$TDPERF" report --hotspots --smt off --format json sky.data >off.json &&
	jq -e "[.hotspots[] | select(.symbol == \"tw_hot_a\")][0].topdown.nodes == null" off.json &&
	jq -e ".profile.topdown_note | test(\"holds none\")" off.json
'

test_expect_success 'bad --ip-rates files: one line, exit 2' '
	test_exit_code 2 "$EMU/pmu-emu" --cpu skylakex --ip-rates nosuch.rates -- true 2>err &&
	test_line_count = 1 err && test_grep "nosuch.rates: cannot read" err &&
	printf "tw_hot_a 0x19c=2\n" >nobin.rates &&
	test_exit_code 2 "$EMU/pmu-emu" --cpu skylakex --ip-rates nobin.rates -- true 2>err &&
	test_line_count = 1 err && test_grep "no .binary PATH. line" err &&
	printf "binary $W/tw-hot\ntw_hot_a 0x19c\n" >bad.rates &&
	test_exit_code 2 "$EMU/pmu-emu" --cpu skylakex --ip-rates bad.rates -- true 2>err &&
	test_line_count = 1 err && test_grep "bad.rates:2: malformed line" err
'

test_done
