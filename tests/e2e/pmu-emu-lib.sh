# Sourced by the tests on the emulated PMU (t0540, t0545, t0853, t0644,
# t1203, t1310, ...) after test-lib.sh: EMU (the emulator's sources),
# PMU_EMU_LIB and PMU_EMU_STAT_DUMP (built), W (the test workloads), and
# emu_missing, the list of what the emulator needs and this machine lacks
# (empty when it can run).
EMU=$TD_SRCDIR/tests/pmu-emu
W=$TD_BUILDDIR/tests/workloads
PMU_EMU_LIB=$TD_BUILDDIR/tests/pmu-emu/libpmu-emu.so
PMU_EMU_STAT_DUMP=$TD_BUILDDIR/tests/tools/stat-dump
export PMU_EMU_LIB PMU_EMU_STAT_DUMP

emu_missing=
test "$(id -u)" = 0 || emu_missing="$emu_missing root (for the mounts of a private namespace)"
have_prog unshare || emu_missing="$emu_missing unshare (util-linux)"
have_prog perf || emu_missing="$emu_missing perf (linux-perf)"
have_prog jq || emu_missing="$emu_missing jq"
test -f "$PMU_EMU_LIB" || emu_missing="$emu_missing $PMU_EMU_LIB (make check builds it)"
test -x "$PMU_EMU_STAT_DUMP" || emu_missing="$emu_missing $PMU_EMU_STAT_DUMP (make check builds it)"

# emu_require [tw-WORKLOAD | PROGRAM]...: no skip: a test file that
# cannot run the emulator, or lacks a workload (built by make check) or a
# program it names (scripts/bootstrap installs them), fails, saying why.
emu_require() {
	for need in "$@"; do
		case $need in
		tw-*) test -x "$W/$need" || emu_missing="$emu_missing $W/$need (make check builds it)" ;;
		*) have_prog "$need" || emu_missing="$emu_missing $need (scripts/bootstrap installs it)" ;;
		esac
	done
	if test -n "$emu_missing"; then
		test_expect_success 'the emulated PMU tests can run' '
			echo "missing:$emu_missing"; false
		'
		test_done
	fi
}
