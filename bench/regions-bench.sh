#!/bin/sh
# bench/regions-bench.sh: what a region costs (bench/README.md, "Regions").
# Run from the build directory after 'make'; the emulated cases need root
# (tests/pmu-emu) and 'make check' to have built the emulator once.
#
#   outside tdperf           10,000,000 pairs
#   record --regions         software group only (this machine without a PMU)
#   ... on pmu-emu skylakex  -l 1 (software + 1 hardware group), -l 3 (software + 10 groups)
#   ... --region-sample 100  10,000,000 pairs, one in 100 counted
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${TD_BUILDDIR:-$top}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/regions-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O2 -I"$top/regions" -o "$tmp/rb" "$top/bench/regions-bench.c" \
	-L"$build" -ltdperf -Wl,-rpath,"$build"
cd "$tmp"
echo "outside tdperf:"; ./rb 10000000
echo "record --regions (software group):"
"$build/tdperf" record --regions -o sw -- ./rb 200000 2>/dev/null
echo "record --regions --region-sample 100 (software group):"
"$build/tdperf" record --regions --region-sample 100 -o sws -- ./rb 10000000 2>/dev/null
if [ -f "$build/tests/pmu-emu/libpmu-emu.so" ] && [ "$(id -u)" = 0 ]; then
	for l in 1 3; do
		echo "record --regions -l $l on pmu-emu skylakex:"
		PMU_EMU_LIB=$build/tests/pmu-emu/libpmu-emu.so "$top/tests/pmu-emu/pmu-emu" --cpu skylakex -- \
			"$build/tdperf" record --regions -l $l -o emu$l -- ./rb 200000 2>/dev/null
		echo "  groups: $(grep -c '^group' emu$l/regions-spec.txt)"
	done
fi
