#!/bin/sh
# An event several groups count (the clocks each group repeats): each
# Top-Down node of a region takes the counts of its own group, the first
# whose counts alone compute it, as perf evaluates a metric on its own
# group's counts (the perf stat path's rule, analyze/build.c), not a mean
# of copies counted in different time slices.  The emulated PMU gives
# every group the same scaled counts, so the copies are made to differ in
# the files (tests/regions/own-group.py: what a region whose groups ran
# in different slices shows).  The oracle: the table's formula ('tdperf
# expr', perf's own formulas) on the counts of the one group the report
# names for the node ("group"), or on each name's first copy where it
# names none; a mean of copies matches neither.
. "$(dirname "$0")/test-lib.sh"

. "$TD_SRCDIR/tests/e2e/pmu-emu-lib.sh"

emu_require
have_prog python3 || { test_expect_success 'python3 is installed' 'false'; test_done; }

CC=${TD_CC:-cc}
OWN="$TD_SRCDIR/tests/regions/own-group.py"

test_expect_success 'record the marked program at -l 2 (five groups), copies made to differ' '
	$CC -O1 -I"$TD_SRCDIR/regions" -o app "$TD_SRCDIR/tests/regions/regions-app.c" \
		-L"$TD_BUILDDIR" -ltdperf -Wl,-rpath,"$TD_BUILDDIR" -pthread &&
	"$EMU/pmu-emu" --cpu skylakex -- \
		"$TDPERF" record --regions -l 2 -o run -- ./app ratio 1000000 2>err &&
	test $(grep -c "^group" run/regions-spec.txt) -ge 3 &&
	python3 "$OWN" perturb run &&
	"$TDPERF" report --format json run >run.json
'

test_expect_success 'every node of every region is its formula on one group'"'"'s counts' '
	jq -r ".regions[] | .name as \$r | .nodes[] | select(.value != null) |
		\"\(\$r)\t\(.id)\t\(.group // \"first\")\t\(.value)\"" run.json >nodes &&
	test $(wc -l <nodes) -ge 30 &&
	test $(cut -f3 nodes | grep -c "^[0-9]") -ge 15 &&
	while IFS="	" read -r region id group value; do
		want=$("$TDPERF" expr --cpu skylakex --var "#smt_on=1" \
			$(python3 "$OWN" vars run "$region" "$group") "$id") &&
		awk -v a=$value -v b=$want -v n="$region $id (group $group)" "BEGIN { d = a - b;
			if (d < 0) d = -d; if (d > 1e-6) { print n, a, \"!=\", b; exit 1 } }" || exit 1
	done <nodes
'

test_expect_success 'the copies differ, so a mean of them would not match' '
	region=A && id=frontend_bound &&
	group=$(jq -r ".regions[] | select(.name == \"A\") | .nodes[] | select(.id == \"$id\") | .group" run.json) &&
	test "$group" != null && test "$group" != 0 &&
	own=$("$TDPERF" expr --cpu skylakex --var "#smt_on=1" $(python3 "$OWN" vars run A "$group") $id) &&
	first=$("$TDPERF" expr --cpu skylakex --var "#smt_on=1" $(python3 "$OWN" vars run A first) $id) &&
	awk -v a=$own -v b=$first "BEGIN { d = a - b; if (d < 0) d = -d; exit !(d > 1e-3) }"
'

test_done
