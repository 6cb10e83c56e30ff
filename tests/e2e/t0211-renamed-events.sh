#!/bin/sh
# Events Intel renamed, with one encoding (ILD_STALL.LCP = DECODE.LCP,
# ICACHE_64B.IFTAG_STALL = ICACHE_TAG.STALLS, ICACHE_16B.IFDATA_STALL =
# ICACHE_DATA.STALLS, IDQ.ALL_DSB_CYCLES_* = IDQ.DSB_CYCLES_*,
# ARITH.DIVIDER_ACTIVE = ARITH.DIV_ACTIVE), and the FP_ARITH sum events
# perf 6.1 counts as their single/double classes: the real perf 6.1 printed
# a metric and its counts on emulated Skylake-SP, Comet Lake, Ice Lake-SP
# and Sapphire Rapids (tests/fixtures/perf61-emu-renamed); tdperf must give
# every value perf printed, within perf's print rounding, and not as an
# approximation of its own.
. "$(dirname "$0")/test-lib.sh"

FX=$FIXTURES/perf61-emu-renamed

# table FILE: the table of the CPU a fixture was made on
table() {
	case $(basename "$1") in
	skylakex-*) echo skylakex ;;
	cometlake-*) echo skylake ;;
	icelakex-*) echo icelakex ;;
	sapphirerapids-*) echo sapphirerapids ;;
	esac
}

test_expect_success 'every value perf printed, from the counts under either name' '
	compared=0 bad=0
	for f in "$FX"/*-tma_*.txt; do
		want=$(basename "$f" .txt) want=${want#*-tma_}
		# (the test body runs without set -e: each failure is counted)
		if ! "$TDPERF" report --cpu "$(table "$f")" --smt on --format json "$f" >r.json ||
		   ! jq -r --arg id "$want" ".. | objects | select(.id? == \$id and .perf_value? != null) |
			\"\(.value) \(.perf_value) \(.perf_resolution) \(.approximate) \(.reason // \"\")\"" r.json >got ||
		   ! test -s got; then
			echo "$(basename "$f"): no $want beside perf'\''s value"
			bad=$((bad + 1))
			continue
		fi
		while read -r v p res approx why; do
			compared=$((compared + 1))
			# the only approximation allowed is perf 6.1'\''s own (Level 1
			# without the INT_MISC corrections, taken as 0 as perf did)
			case "$approx $why" in "true "*INT_MISC*"as perf did"*) approx=false ;; esac
			if [ "$v" = null ] || [ "$approx" != false ] ||
			   ! awk -v v="$v" -v p="$p" -v r="$res" "BEGIN { d = v - p; if (d < 0) d = -d
				a = p < 0 ? -p : p; exit !(d <= r / 2 + 1e-4 * a + 1e-9) }"; then
				echo "$(basename "$f"): $want = $v (approximate $approx; $why), perf printed $p"
				bad=$((bad + 1))
			fi
		done <got
	done
	echo "$compared values compared, $bad wrong"
	test "$compared" = 32 && test "$bad" = 0
'

test_expect_success 'the table says which events it counts under which name' '
	jq -e "[.metrics[] | select(.id == \"lcp\") | .alternatives[] |
		select(.note | test(\"DECODE.LCP = ILD_STALL.LCP\"))] | length == 1" \
		"$TD_SRCDIR/metrics/tables/skylakex.json" &&
	jq -e "[.metrics[] | select(.id == \"fp_vector\") | .alternatives[] |
		select(.formula | test(\"512B_PACKED_SINGLE\"))] | length >= 1" \
		"$TD_SRCDIR/metrics/tables/skylakex.json"
'

test_expect_success 'Intel'\''s wrong umask of 8_FLOPS is corrected, not equated with 4_FLOPS' '
	# skylakex_core.json and cascadelakex_core.json list 8_FLOPS with 4_FLOPS'\''s umask 0x18
	for t in skylakex cascadelakex; do
		jq -e ".events[] | select(.name == \"FP_ARITH_INST_RETIRED.8_FLOPS\") |
			.perf_name == \"cpu/event=0xc7,umask=0x60/\"" "$TD_SRCDIR/metrics/tables/$t.json" &&
		! grep -q "4_FLOPS = FP_ARITH_INST_RETIRED.8_FLOPS\|8_FLOPS = FP_ARITH_INST_RETIRED.4_FLOPS" \
			"$TD_SRCDIR/metrics/tables/$t.json" || exit 1
	done
'

test_done
