#!/bin/sh
# tdperf check: what this machine can measure, compared with what the
# kernel and perf themselves say.
. "$(dirname "$0")/test-lib.sh"

# What perf itself says about hardware counters here (the oracle).
perf_cycles_state() {
	if ! have_prog perf; then
		echo noperf
	elif perf stat -x, -e cycles -- true 2>&1 | grep -q "not supported"; then
		echo nopmu
	else
		echo pmu
	fi
}
state=$(perf_cycles_state)

test_expect_success 'check --json identifies the CPU as /proc/cpuinfo does' '
	test_exit_code_any() { "$@" || true; }
	test_exit_code_any "$TDPERF" check --json >check.json &&
	jq -e . check.json >/dev/null &&
	vendor=$(awk -F": " "/^vendor_id/ { print \$2; exit }" /proc/cpuinfo) &&
	family=$(awk -F": " "/^cpu family/ { print \$2; exit }" /proc/cpuinfo) &&
	model=$(awk -F": " "/^model[[:space:]]*:/ { print \$2; exit }" /proc/cpuinfo) &&
	test "$(jq -r .cpu.vendor check.json)" = "$vendor" &&
	test "$(jq -r .cpu.family check.json)" = "$family" &&
	test "$(jq -r .cpu.model check.json)" = "$model" &&
	hexmodel=$(printf "%X" "$model") &&
	jq -r .cpu.cpuid check.json | grep "^$vendor-$family-$hexmodel"
'

test_expect_success 'check --json lists the PMUs under /sys/bus/event_source/devices' '
	"$TDPERF" check --json >check.json || true
	ls /sys/bus/event_source/devices | sort >expect &&
	jq -r ".pmus[].name" check.json | sort >actual &&
	cmp expect actual
'

test_expect_success 'check --json reads perf_event_paranoid, SMT and the NMI watchdog' '
	"$TDPERF" check --json >check.json || true
	test "$(jq -r .perf_event_paranoid check.json)" = "$(cat /proc/sys/kernel/perf_event_paranoid)" &&
	if test -r /proc/sys/kernel/nmi_watchdog; then
		w=$(cat /proc/sys/kernel/nmi_watchdog) &&
		{ test "$w" = 1 && test "$(jq -r .counters.nmi_watchdog check.json)" = true ||
		  test "$w" = 0 && test "$(jq -r .counters.nmi_watchdog check.json)" = false; }
	fi &&
	if test -r /sys/devices/system/cpu/smt/active; then
		s=$(cat /sys/devices/system/cpu/smt/active) &&
		{ test "$s" = 1 && test "$(jq -r .smt.on check.json)" = true ||
		  test "$s" = 0 && test "$(jq -r .smt.on check.json)" = false; }
	fi
'

if test "$state" = noperf; then
	test_skip 'check reports the perf version' 'perf is not installed'
else
	test_expect_success 'check reports the perf version that perf --version prints' '
		"$TDPERF" check >out || true
		v=$(perf --version | sed "s/^perf version //") &&
		test_grep "perf .*version $v" out
	'
fi

if test "$state" = nopmu; then
	test_expect_success 'without a hardware PMU check says so, what still works, and exits 1' '
		test_exit_code 1 "$TDPERF" check >out &&
		test_grep "No hardware PMU is usable here" out &&
		test_grep "impossible on this machine" out &&
		test_grep "What tdperf can still do here" out &&
		test_grep "task-clock" out &&
		test_grep "^  NO   cycles" out &&
		test_grep "fix: " out &&
		test "$(jq -r .hardware_pmu check.json)" = false
	'
	test_expect_success 'check --quiet-pmu prints nothing and fails without a PMU' '
		test_exit_code 1 "$TDPERF" check --quiet-pmu >out 2>err &&
		test_line_count = 0 out && test_line_count = 0 err
	'
elif test "$state" = pmu; then
	test_expect_success 'with a hardware PMU check says counting works' '
		"$TDPERF" check >out &&
		test_grep "Hardware counting works" out &&
		"$TDPERF" check --quiet-pmu
	'
fi

test_expect_success 'tracefs state matches what the filesystem allows' '
	"$TDPERF" check --json >check.json || true
	if test -r /sys/kernel/tracing/events/sched/sched_switch/id && test "$(id -u)" = 0; then
		test "$(jq -r .tracepoints.ok check.json)" = true
	else
		test "$(jq -r .tracepoints.ok check.json)" = false &&
		jq -r .tracepoints.reason check.json | grep .
	fi
'

test_expect_success 'a missing perf is a problem with the command that fixes it' '
	TDPERF_PERF=/nonexistent/perf "$TDPERF" check >out || true
	test_grep "NO   perf .*not found" out &&
	test_grep "fix: sudo apt-get install linux-perf" out &&
	test_exit_code 1 env TDPERF_PERF=/nonexistent/perf "$TDPERF" check --quiet-pmu
'

test_expect_success 'an unknown option is a usage error' '
	test_exit_code 2 "$TDPERF" check --frobnicate 2>err &&
	test_grep "frobnicate" err
'

test_expect_success 'the manual says when check exits 1 (as it does above without perf)' '
	sed -n "/^\.SH EXIT STATUS/,/^\.SH FILES/p" "$TD_SRCDIR/man/tdperf.1" >exit-status &&
	test_grep -A1 "^\.B tdperf check" exit-status | test_grep "exits 1 when it finds a problem"
'

test_done
