# Sourced by the tests on the emulated PMU (t0540, t0545, t0853) after
# test-lib.sh: EMU (the emulator's sources), PMU_EMU_LIB and
# PMU_EMU_STAT_DUMP (built), and emu_missing, the list of what the
# emulator needs and this machine lacks (empty when it can run).
EMU=$TD_SRCDIR/tests/pmu-emu
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

# No skip: a test file that cannot run the emulator fails, saying why.
emu_require() {
	if test -n "$emu_missing"; then
		test_expect_success 'the emulated PMU tests can run' '
			echo "missing:$emu_missing"; false
		'
		test_done
	fi
}
