#!/bin/sh
# tdperf calibrate: measures this machine (quick mode), keeps the result per
# CPU model under $XDG_CACHE_HOME/tdperf/, and the figures are plausible:
# FLOPs per cycle within what the instruction set allows, bandwidth falling
# and latency rising from L1 to DRAM, repeatable within a stated tolerance.
. "$(dirname "$0")/test-lib.sh"

XDG_CACHE_HOME=$TEST_DIR/cache
export XDG_CACHE_HOME

if ! have_prog jq; then
	test_skip 'calibration checks' 'jq not installed (apt-get install jq)'
	test_done
fi

cal() { jq -r "$1" cache/tdperf/calibration-*.json; }

# The theoretical ceiling of double-precision FLOPs per cycle per core is
# lanes x 2 (an FMA) x 2 (FMA ports on the widest current cores): scalar 4,
# 128-bit 8, 256-bit 16, 512-bit 32.  The measurement must stay below it
# (10 % allowed for the clock estimate) and reach a sizeable part of it
# (a quarter: the machine may be busy).
check_flops_bounds() {
	ok=0
	for w in scalar:4 128:8 256:16 512:32; do
		width=${w%%:*} max=${w##*:}
		v=$(cal ".entries[0].flops[] | select(.precision == \"dp\" and .width == \"$width\") | .flops_per_cycle")
		[ -n "$v" ] || continue
		echo "dp $width: $v FLOP/cycle (ceiling $max)"
		awk -v v="$v" -v m="$max" "BEGIN { exit !(v > m / 4 && v <= m * 1.1) }" || return 1
		ok=$((ok + 1))
	done
	test $ok -ge 2
}

# Single precision has twice the lanes of double at each vector width.
check_sp_dp() {
	for width in 128 256 512; do
		sp=$(cal ".entries[0].flops[] | select(.precision == \"sp\" and .width == \"$width\") | .gflops.value")
		dp=$(cal ".entries[0].flops[] | select(.precision == \"dp\" and .width == \"$width\") | .gflops.value")
		[ -n "$sp" ] || continue
		echo "$width: sp $sp dp $dp GFLOP/s"
		awk -v s="$sp" -v d="$dp" "BEGIN { exit !(s / d > 1.4 && s / d < 2.6) }" || return 1
	done
}

check_levels() {
	cal ".entries[0].memory[] | [.level, .load_gbs.value, .latency_ns.value] | @tsv" >levels &&
	cat levels &&
	test_line_count -ge 3 levels &&
	awk -F"\t" "NR > 1 && !(\$2 < bw && \$3 > lat) { bad = 1 } { bw = \$2; lat = \$3 } END { exit bad }" levels
}

# Succeeds when a calibration's warnings (text in $1) say the machine was
# oversubscribed: more than a tenth of the repetitions ran preempted ("N of
# M repetitions ran while a benchmark thread was preempted"), or the load
# average before it exceeded the number of CPUs ("machine busy (load
# average L on C CPUs)"): then other processes compete for the caches and
# memory bandwidth too, which no preemption check can see.
preempted_share() {
	{
		sed -n "s/.* \([0-9][0-9]*\) of \([0-9][0-9]*\) repetitions ran while a benchmark thread was preempted.*/\1 \2/p" "$1"
		sed -n "s/.*machine busy (load average \([0-9.]*\) on \([0-9]*\) CPUs).*/\1 \2/p" "$1" |
			awk "{ print (\$1 > \$2 ? 1 : 0), 1 }"
	} | awk "{ if (\$1 > \$2 / 10) busy = 1 } END { exit !busy }"
}

# Other work on the machine (make check -j, other users) slows benchmarks
# down at random.  A calibration is judged on the first of three attempts
# that passes every check (each attempt is in the log).  When none does and
# every attempt said more than a tenth of its repetitions ran preempted
# (thread CPU time well below wall time, even after retries), the machine is too busy for
# any verdict: the checks are skipped saying so, instead of failing on
# noise.  On a quiet machine a wrong calibration fails them.
# The suite's other tests have just ended (collect/local.mk runs this one
# last): the one-minute load average still counts them for a while, and
# calibrate would call the machine busy.  Wait, up to 90 s, for it to fall
# below the number of CPUs.
ncpu=$(getconf _NPROCESSORS_ONLN)
for i in $(seq 18); do
	awk -v n="$ncpu" '{ exit !($1 < n) }' /proc/loadavg && break
	sleep 5
done

busy=0 plausible=0
for attempt in 1 2 3; do
	rm -rf cache
	"$TDPERF" calibrate --quick >out 2>err || break
	echo "# attempt $attempt:"
	(check_flops_bounds && check_sp_dp && check_levels) >checks.log 2>&1
	status=$?
	sed "s/^/# /" checks.log
	if [ $status = 0 ]; then
		plausible=1
		break
	fi
	if preempted_share out; then
		busy=$((busy + 1))
	fi
done >attempts.log 2>&1
cat attempts.log

test_expect_success 'calibrate --quick runs and saves a calibration' '
	test -f out && ls cache/tdperf/calibration-*.json
'

if [ $plausible = 0 ] && [ $busy = 3 ]; then
	for t in 'the figures are plausible' 'double-precision FLOPs per cycle are within the ISA bounds' \
		 'single precision does twice the FLOPs of double at each vector width' \
		 'load bandwidth falls and latency rises from L1 to DRAM'; do
		test_skip_busy "$t" "machine too busy: all 3 calibrations were preempted or oversubscribed ($(uptime | sed "s/.*load/load/"))"
	done
else
	test_expect_success 'the figures are plausible (first of 3 attempts passing all checks)' '
		test $plausible = 1
	'
	test_expect_success 'double-precision FLOPs per cycle are within the ISA bounds' '
		check_flops_bounds
	'
	test_expect_success 'single precision does twice the FLOPs of double at each vector width' '
		check_sp_dp
	'
	test_expect_success 'load bandwidth falls and latency rises from L1 to DRAM' '
		check_levels
	'
fi

test_expect_success 'it is saved per CPU model under XDG_CACHE_HOME' '
	ls cache/tdperf/calibration-*.json >files &&
	test_line_count = 1 files &&
	test_grep "^Saved to $XDG_CACHE_HOME/tdperf/calibration-" out &&
	test_grep "^Clock: " out && test_grep "^  dp  scalar" out && test_grep "^  DRAM " out
'

test_expect_success 'the file says what CPU, when, how and how repeatable' '
	test "$(cal .format)" = tdperf-calibration &&
	test "$(cal .cpu.vendor)" = "$(sed -n "s/^vendor_id[[:space:]]*: //p" /proc/cpuinfo | head -n 1)" &&
	cal ".entries[0].date" | grep -q "^20[0-9][0-9]-[01][0-9]-[0-3][0-9]T" &&
	test "$(cal ".entries[0].mode")" = quick &&
	test "$(cal ".entries[0].threads")" = 1 &&
	test -n "$(cal ".entries[0].flops_method")" &&
	test -n "$(cal ".entries[0].memory_method")" &&
	test "$(cal "[.entries[0].flops[].gflops.reps] | min")" -ge 3 &&
	test "$(cal "[.entries[0].memory[].load_gbs.spread] | map(select(. == null)) | length")" = 0
'

test_expect_success 'DRAM working set is larger than the last-level cache' '
	ws=$(cal ".entries[0].memory[] | select(.level == \"DRAM\") | .working_set") &&
	l3=$(cal ".entries[0].cache_sizes.L3 // .entries[0].cache_sizes.L2") &&
	awk -v w="$ws" -v c="$l3" "BEGIN { exit !(w >= 2 * c || w >= 64 * 1048576) }"
'

test_expect_success '--show prints the saved calibration without measuring' '
	cp cache/tdperf/calibration-*.json before.json &&
	"$TDPERF" calibrate --show >show &&
	test_grep "^  L1 " show &&
	cmp before.json cache/tdperf/calibration-*.json
'

test_expect_success '--format json prints the calibration document' '
	"$TDPERF" calibrate --show --format json >doc.json &&
	test "$(jq -r .format doc.json)" = tdperf-calibration
'

# Repeatability (another run agreeing within a margin) is a property of the
# machine's timing, not of tdperf: it is measured by bench/calibrate-repeat.sh,
# a benchmark, not asserted here, where the host's noise would decide it.

test_expect_success '--threads 2 adds an entry and keeps the single-thread one' '
	"$TDPERF" calibrate --quick --threads 2 >out2 &&
	test "$(cal "[.entries[].threads] | sort | join(\",\")")" = "1,2" &&
	test_grep "2 thread(s)" out2
'

test_expect_success '--show --threads 3 without such an entry fails clearly' '
	test_exit_code 2 "$TDPERF" calibrate --show --threads 3 2>err &&
	test_grep "no calibration for 3 thread(s)" err
'

test_expect_success 'an uncalibrated CPU: --show says how to calibrate' '
	test_exit_code 2 env XDG_CACHE_HOME="$TEST_DIR/empty" "$TDPERF" calibrate --show 2>err &&
	test_grep "run .tdperf calibrate." err
'

test_expect_success 'a corrupt calibration file is named and left alone' '
	mkdir -p bad/tdperf &&
	name=$(basename cache/tdperf/calibration-*.json) &&
	echo "{ not json" >bad/tdperf/$name &&
	test_exit_code 2 env XDG_CACHE_HOME="$TEST_DIR/bad" "$TDPERF" calibrate --quick 2>err &&
	test_grep "bad/tdperf/$name:1:" err &&
	test "$(cat bad/tdperf/$name)" = "{ not json"
'

test_expect_success 'bad options are usage errors' '
	test_exit_code 2 "$TDPERF" calibrate --threads 0 2>err &&
	test_grep "threads" err &&
	test_exit_code 2 "$TDPERF" calibrate --format xml 2>err &&
	test_grep "xml" err &&
	test_exit_code 2 "$TDPERF" calibrate extra 2>err
'

test_done
