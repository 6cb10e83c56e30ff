#!/bin/sh
# The CPI stack per region (text, JSON, HTML).  The oracle: the emulated
# PMU (tests/pmu-emu) counts every event at a fixed rate per cycle, so
# every region of a program has the whole run's ratios; the CPI stack
# that record's perf stat path computes from perf's own counts of the same
# program (-l 2 --stacks cpi) is so each region's too, part by part.
# Each pass of B is given N = 8,000,000 iterations: with 2,000,000, one
# of two ASan runs on a loaded machine left B's parts without values
# (a multiplexed group that, it seems, never ran during B's short passes).
. "$(dirname "$0")/test-lib.sh"

. "$TD_SRCDIR/tests/e2e/pmu-emu-lib.sh"

emu_require

CC=${TD_CC:-cc}

test_expect_success 'record the marked program with --regions, and through perf stat' '
	$CC -O1 -I"$TD_SRCDIR/regions" -o app "$TD_SRCDIR/tests/regions/regions-app.c" \
		-L"$TD_BUILDDIR" -ltdperf -Wl,-rpath,"$TD_BUILDDIR" -pthread &&
	"$EMU/pmu-emu" --cpu skylakex -- sh -c "
		\"$TDPERF\" record --regions -l 2 --stacks cpi -o reg -- ./app ratio 8000000 &&
		\"$TDPERF\" record -l 2 --stacks cpi -o perf -- ./app ratio 8000000" 2>err &&
	"$TDPERF" report --format json reg >reg.json &&
	"$TDPERF" report --format json perf >perf.json
'

test_expect_success 'each region'"'"'s CPI and CPI stack parts are those of perf'"'"'s counts' '
	jq -c "[.. | objects | select(has(\"cpi\") and has(\"multistage\")) | .cpi][0] |
		{cpi: .cpi} + ([.components[] | {key: .id, value: .value}] | from_entries)" perf.json >want &&
	jq -c ".regions[] | [.name, ({cpi: .stacks.cpi.cpi} +
		([.stacks.cpi.components[] | {key: .id, value: .value}] | from_entries))]" reg.json >got &&
	test $(wc -l <got) = 3 &&
	jq -e "length >= 13 and ([.[] | select(. == null)] | length == 0)" want &&
	while read -r line; do
		jq -n --argjson w "$(cat want)" --argjson g "$line" "
			[\$w | to_entries[] | select(((\$g[1][.key] // 1e9) - .value | fabs) > 1e-4 * (.value | fabs) + 1e-9)]
			| if length > 0 then (\"region \" + \$g[0] + \": \" + tostring | halt_error(1)) else true end" ||
			exit 1
	done <got
'

test_expect_success 'text and HTML show each region'"'"'s CPI stack' '
	"$TDPERF" report reg >text &&
	test "$(grep -c "^  CPI stack: CPI 0\.71[0-9] (" text)" = 3 &&
	grep -q "^    Backend Bound  *0\.17[0-9]  *2[0-9]\.[0-9] %$" text &&
	"$TDPERF" report --html=reg.html reg &&
	test "$(grep -c "<th>CPI stack</th>" reg.html)" = 3
'

test_done
