#!/bin/sh
# tdperf diff of two --regions runs compares regions by name.  Run B gives
# region A twice the iterations of run A and region B the same
# (tests/regions/regions-app.c, mode work), so the diff must name region A
# as the largest change, with a ratio near 2 relative to region B's.  The
# oracle of every number is the kernel's task-clock and the monotonic
# clock per region as each run's own region report gives them.
. "$(dirname "$0")/test-lib.sh"

CC=${TD_CC:-cc}

# field RUNJSON REGION EXPR
field() {
	jq -r --arg n "$2" ".regions[] | select(.name == \$n) | $3" "$1"
}

# close_to A B: A and B agree to 1e-8, relative (the JSON holds 10 digits)
close_to() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; s = b < 0 ? -b : b; exit !(d <= 1e-8 * s + 1e-12) }'
}

test_expect_success 'two --regions runs: region A does twice the work in the second' '
	$CC -O1 -I"$TD_SRCDIR/regions" -o app "$TD_SRCDIR/tests/regions/regions-app.c" \
		-L"$TD_BUILDDIR" -ltdperf -Wl,-rpath,"$TD_BUILDDIR" -pthread &&
	"$TDPERF" record --regions -o one -- ./app work 3000000 3000000 2>err &&
	"$TDPERF" record --regions -o two -- ./app work 6000000 3000000 2>err &&
	"$TDPERF" report --format json one >one.json &&
	"$TDPERF" report --format json two >two.json
'

test_expect_success 'the JSON diff: every region by name, B over A as the runs report them' '
	"$TDPERF" diff --format json one two >d.json &&
	jq -e ".schema == \"tdperf-regions-diff\" and ([.regions[].name] | sort) == [\"(root)\", \"A\", \"B\"]" d.json &&
	for r in "(root)" A B; do
		for k in time_s calls; do
			want=$(awk -v a=$(field one.json "$r" .$k) -v b=$(field two.json "$r" .$k) "BEGIN { printf \"%.12g\", b / a }") &&
			got=$(field d.json "$r" .ratio.$k) &&
			close_to $got $want ||
			{ echo "$r $k: $got, want $want"; exit 1; }
		done &&
		want=$(awk -v a=$(field one.json "$r" ".counts[\"task-clock\"]") \
			   -v b=$(field two.json "$r" ".counts[\"task-clock\"]") "BEGIN { printf \"%.12g\", b / a }") &&
		got=$(field d.json "$r" .ratio.cpu_s) &&
		close_to $got $want ||
		{ echo "$r cpu_s: $got, want $want"; exit 1; }
	done
'

test_expect_success 'region A is the largest change, about twice relative to region B' '
	jq -c .largest_change d.json &&
	jq -e ".largest_change.region == \"A\" and .largest_change.metric == \"cpu_s\"" d.json &&
	a=$(field d.json A .ratio.cpu_s) && b=$(field d.json B .ratio.cpu_s) &&
	echo "A x$a, B x$b" &&
	awk -v a=$a -v b=$b "BEGIN { r = a / b; exit !(r > 1.5 && r < 2.7) }"
'

test_expect_success 'text: the table and the named region, also from a saved JSON report' '
	"$TDPERF" diff one two >d.txt &&
	test_grep "^Regions: A = one (.*), B = two" d.txt &&
	test_grep "^A  *10  *10 " d.txt &&
	want=$(printf "%.2f" $(jq .largest_change.ratio d.json)) &&
	test_grep "^Largest change: region A, CPU time x$want (B over A)" d.txt &&
	"$TDPERF" diff one.json two >d2.txt &&
	tail -n +2 d.txt >t1 && tail -n +2 d2.txt >t2 && cmp t1 t2
'

test_expect_success 'a --regions run against an ordinary run, or with --html: refused' '
	"$TDPERF" record -o plain -- true 2>/dev/null &&
	test_exit_code 2 "$TDPERF" diff one plain 2>err &&
	test_grep "^tdperf: one is a --regions run and plain is not" err &&
	test $(wc -l <err) = 1 &&
	test_exit_code 2 "$TDPERF" diff --html d.html one two 2>err &&
	test_grep "diff of two --regions runs: text or JSON" err &&
	test ! -e d.html
'

test_done
