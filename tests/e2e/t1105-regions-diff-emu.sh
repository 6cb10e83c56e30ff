#!/bin/sh
# tdperf diff of two --regions runs compares each region's Level 1.  The
# two runs count under the emulated Tiger Lake (tests/pmu-emu) with the
# rates of two sessions of a published perf stat output (case-10, the
# same program measured four times on a real Tiger Lake), so the oracle
# of the change is what perf printed in those sessions: session 4 less
# session 1, for every Level 1 node.  perf computed its values with its
# legacy topdown formulas and tdperf with the table's, which differ by up
# to a point in each session, but by the same amount in both: the change
# must agree within 0.06 points (as t0540's profile tests) in every
# region (each region's counts keep the profile's ratios).
. "$(dirname "$0")/test-lib.sh"
. "$TD_SRCDIR/tests/e2e/pmu-emu-lib.sh"

emu_require
CC=${TD_CC:-cc}
FIX=$FIXTURES/perf-stat-published/case-10-icl-tgl-ffmpeg-aac-4runs.txt

test_expect_success 'two --regions runs under the rates of sessions 1 and 4 of a real Tiger Lake' '
	$CC -O1 -I"$TD_SRCDIR/regions" -o app "$TD_SRCDIR/tests/regions/regions-app.c" \
		-L"$TD_BUILDDIR" -ltdperf -Wl,-rpath,"$TD_BUILDDIR" -pthread &&
	for s in 1 4; do
		"$EMU/pmu-emu" --cpu tigerlake --profile "$FIX:$s" -- \
			"$TDPERF" record --regions -l 1 -o p$s -- ./app work 1000000 1000000 2>err$s || exit 1
	done &&
	"$TDPERF" diff --format json p1 p4 >d.json &&
	"$TDPERF" report --format json "$FIX" >fix.json
'

test_expect_success 'each region'"'"'s Level 1 change is the change perf printed between the sessions' '
	jq -r "([.scopes[] | select(.id == \"s1/total\") | .nodes[] | select(.perf_value != null and .level == 1) |
		{key: .id, value: .perf_value}] | from_entries) as \$a |
		.scopes[] | select(.id == \"s4/total\") | .nodes[] | select(.perf_value != null and .level == 1) |
		\"\(.id) \(.perf_value - \$a[.id])\"" fix.json >printed &&
	test $(wc -l <printed) = 4 &&
	for r in "(root)" A B; do
		while read -r id want; do
			got=$(jq -r --arg n "$r" --arg id "$id" ".regions[] | select(.name == \$n) | .level1_change[\$id]" d.json) &&
			echo "$r $id: perf printed $want, diff says $got" &&
			awk -v a="$want" -v b="$got" "BEGIN { d = (a - b) * 100; exit !(b != \"null\" && d <= 0.06 && d >= -0.06) }" ||
			exit 1
		done <printed || exit 1
	done
'

test_expect_success 'text: Level 1 per region, A -> B' '
	"$TDPERF" diff p1 p4 >d.txt &&
	test_grep "^Level 1 per region, A -> B" d.txt &&
	test_grep "^    backend_bound .* -> .*(-5\.[0-9] points)" d.txt
'

test_done
