#!/bin/sh
# perf's own metric engine as the oracle (issue 30).  The real perf 6.1,
# run under tests/pmu-emu for every emulated CPU it has Top-Down metrics
# for, printed its tma_* values (-M TopdownL1..L6 in one run), its default
# output and --topdown, each as text, -x, and --json: the outputs are in
# tests/fixtures/perf-oracle (README there: how they were made).
# tdperf report, without --cpu or --smt, must give every value perf printed
# within perf's print rounding (tests/pmu-emu/perf-oracle compare).  Today's
# disagreements are listed, with their cause, in
# tests/fixtures/perf-oracle/expected-differences; a new one fails, and so
# does a listed one that no longer happens, so that the list only shrinks.
# A live run checks that the fixtures still come out of the emulator and
# perf as they are, and that the runs of one perf stat have one enabled time.
. "$(dirname "$0")/test-lib.sh"

. "$TD_SRCDIR/tests/e2e/pmu-emu-lib.sh"

emu_require

ORACLE=$FIXTURES/perf-oracle
CPUS="alderlake cometlake icelake icelakex rocketlake sapphirerapids skylake skylakex tigerlake"

# printed CPU FMT: the values perf printed in the -M runs of one CPU and
# format (all levels in one file, or one file per level where perf 6.1
# could not do them all at once).
printed() {
	for f in "$ORACLE/$1/all.$2" "$ORACLE/$1"/L[1-6].$2; do
		test -f "$f" && "$EMU/perf-oracle" values "$f" $2 all
	done
	return 0
}

test_expect_success 'the fixtures: every CPU, level file and format is there and holds perf values' '
	for cpu in $CPUS; do
		test -s "$ORACLE/$cpu/levels" &&
		for fmt in txt csv json; do
			printed $cpu $fmt >v &&
			n=$(grep -c " tma_" v) &&
			{ test "$n" -ge 40 || { echo "$cpu $fmt: only $n tma_ values"; false; }; } &&
			{ test ! -f "$ORACLE/$cpu/all.$fmt" || ! grep -q "not counted" "$ORACLE/$cpu/all.$fmt"; } ||
			return 1
		done
	done
'

# The emulator's rates obey the identities of the formulas, so perf's
# values are plausible: Level 1 sums to 100 %, every fraction is in
# [0, 100] %, but for tma_mixing_vectors (perf 6.1's formula multiplies by
# CLKS where Intel's divides: 10^9 % and more) and two Sapphire Rapids
# nodes whose events the rates do not tune yet (l2_bound -1.1 %, dsb -0.06 %).
test_expect_success 'the emulator: Level 1 sums to 100 % and every value perf printed is in [0, 100] %' '
	for cpu in $CPUS; do
		printed $cpu json >v &&
		awk -v cpu=$cpu "FNR == NR { lv[\$2] = \$3; next }
			\$2 == \"tma_mixing_vectors\" { next }
			cpu == \"sapphirerapids\" && \$2 ~ /^tma_(l2_bound|dsb)\$/ { next }
			\$2 ~ /^tma_/ && (\$3 < 0 || \$3 > 100) {
				print cpu, \$1, \$2, \$3, \"outside [0, 100]\"; bad = 1 }
			\$2 ~ /^tma_(retiring|bad_speculation|frontend_bound|backend_bound)\$/ { s[\$1] += \$3 }
			END { for (p in s) if (s[p] < 99.999 || s[p] > 100.001) {
				print cpu, p, \"Level 1 sums to\", s[p]; bad = 1 }
			      exit bad }" "$ORACLE/$cpu/levels" v || return 1
	done
'

# tdperf report takes about half a second of CPU on an all-levels file:
# every format of the three server parts the issue names, and --json (the
# finest print resolution) of the others, keep the test within seconds;
# bench/perf-oracle.sh compares every file.
CHECKED="skylakex icelakex sapphirerapids icelake:json alderlake:json cometlake:json
	skylake:json tigerlake:json rocketlake:json"

test_expect_success 'tdperf report gives every value perf printed, but for the listed known differences' '
	"$EMU/perf-oracle" check "$ORACLE" "$ORACLE/expected-differences" $CHECKED >check.out 2>&1 ||
	{ cat check.out; false; } &&
	sed "s/^/# /" check.out
'

# The live part: perf 6.1 under the emulator now.  Level 1 of Ice Lake-SP
# must print what the fixture holds (the rates are constant, so the values
# do not depend on the time the workload ran or on multiplexing).
test_expect_success 'live: perf -M TopdownL1 on icelakex prints the values of the fixture' '
	"$EMU/pmu-emu" --cpu icelakex -- perf stat -M TopdownL1 -x, -o live.csv -- sleep 0.1 &&
	"$EMU/perf-oracle" values live.csv csv all | grep " tma_" >live.v &&
	test_line_count = 4 live.v &&
	"$EMU/perf-oracle" values "$ORACLE/icelakex/all.csv" csv all >fix.v &&
	awk "FNR == NR { want[\$2] = \$3; next }
		!(\$2 in want) || want[\$2] != \$3 { print \"live\", \$0, \"fixture\", want[\$2]; bad = 1 }
		END { exit bad }" fix.v live.v
'

# perf 6.1 opens each -M group as a weak group; a group that does not fit
# is closed and reopened ungrouped before the workload execs.  Every event
# that counted the workload (enabled at least its 0.1 s; the members of a
# closed group count a few microseconds as singletons before perf closes
# them too, as the kernel's would) must start at the exec: one enabled
# time for the whole run.
test_expect_success 'live: a weak group reopened before the exec leaves the run one enabled time' '
	"$EMU/pmu-emu" --cpu skylakex --log ev.log -- \
		perf stat -M TopdownL3 -x, -o l3.csv -- sleep 0.1 &&
	test_grep "^refused .*group does not fit" ev.log &&
	sed -n "s/^event .* enabled_ns=\([0-9]*\) .*/\1/p" ev.log |
		awk "\$1 >= 100000000" | sort -u >times &&
	test_line_count = 1 times
'

test_done
