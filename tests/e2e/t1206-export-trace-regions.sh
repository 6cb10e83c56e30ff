#!/bin/sh
# tdperf report --format trace of a --regions run: each region pass a
# slice on its thread's track, nested as the program's begin/end calls
# were, with the pass's counts and Level 1 as args.  Oracles: the marked
# program's known calls (tests/regions/regions-app.c: nest has one outer
# around one inner and a recursion of rec three deep; ratio ten passes of
# A and B; threads K gives each of K threads one T around one T.inner),
# and the real speedscope viewer (the npm package t1202 uses), which
# imports the Trace Event Format's X slices per thread into a call tree:
# it warns "Tried to end ..." on slices that do not nest, and its Sandwich
# table gives each slice's total and self time (self: less the slices it
# found nested inside).
. "$(dirname "$0")/test-lib.sh"

CC=${TD_CC:-cc}
SS=${TDPERF_SPEEDSCOPE:-/usr/local/share/tdperf-test/speedscope}/node_modules/speedscope/dist/release/index.html
CHECK=$TD_SRCDIR/tests/e2e/browser-check.js
missing=
test -f "$SS" || missing="$missing $SS (scripts/bootstrap installs it with npm)"
have_prog node || missing="$missing node (nodejs)"
test -x "${CHROMIUM:-/usr/bin/chromium}" || missing="$missing chromium"
have_prog jq || missing="$missing jq"
if test -n "$missing"; then
	test_expect_success 'the trace export tests of regions can run' 'echo "missing:$missing"; false'
	test_done
fi

# view FILE OUT: speedscope's Sandwich table of FILE (browser-check's lines, the table last)
view() {
	printf 'speedscope.loadFileFromBase64("%s", "%s")' "$(basename "$1")" "$(base64 -w0 "$1")" >"$1.js" &&
	BROWSER_CHECK_HASH="#localProfilePath=$PWD/$1.js" BROWSER_CHECK_WAIT_MS=1500 BROWSER_CHECK_TIMEOUT_MS=150000 \
	node "$CHECK" "$SS" "$2.png" 'document.title' \
		'for (const t of ["keydown", "keypress", "keyup"]) window.dispatchEvent(new KeyboardEvent(t, { key: "3", bubbles: true }))' \
		'new Promise((r) => setTimeout(() => r(document.body.innerText), 1000))' >"$2.out"
}

# rows OUT NAME: speedscope's "TOTAL SELF" in ms of each row of region NAME
rows() {
	tail -n 1 "$1.out" | sed "s/.* => //" | jq -r . |
	awk -v n="$2" '/^[0-9.]+(ms|µs|s) \(/ { total = $1 } /^\t[0-9.]+(ms|µs|s) \(/ { self = $1 }
		index($0, "\t" n " {") == 1 { print ms(total), ms(self) }
		function ms(v) { if (v ~ /µs$/) return v / 1000; if (v ~ /ms$/) return v + 0; return v * 1000 }'
}

test_expect_success 'three marked programs recorded with --regions and exported' '
	$CC -O1 -I"$TD_SRCDIR/regions" -o app "$TD_SRCDIR/tests/regions/regions-app.c" \
		-L"$TD_BUILDDIR" -ltdperf -Wl,-rpath,"$TD_BUILDDIR" -pthread &&
	"$TDPERF" record --regions -o nest -- ./app nest 1000000 2>err &&
	"$TDPERF" record --regions -o ratio -- ./app ratio 300000 2>err &&
	"$TDPERF" record --regions -o thr -- ./app threads 8 200000 2>err &&
	for r in nest ratio thr; do
		"$TDPERF" report --format json $r >$r.json &&
		"$TDPERF" report --format trace -o $r.trace $r || return 1
	done
'

test_expect_success 'every slice has the fields the Trace Event Format documents' '
	for r in nest ratio thr; do
		jq -e "[.traceEvents[] | .ph] | unique == [\"M\", \"X\"]" $r.trace &&
		jq -e "[.traceEvents[] | select(.ph == \"X\") | .cat == \"region\" and (.name | type) == \"string\"
			and (.pid | type) == \"number\" and (.tid | type) == \"number\" and .ts >= 0 and .dur >= 0
			and (.args.counts[\"task-clock\"] | type) == \"number\" and (.args.estimate | type) == \"boolean\"] | all" $r.trace &&
		jq -e "([.traceEvents[] | select(.ph == \"M\" and .name == \"thread_name\")] | length)
			== ([.traceEvents[] | select(.ph == \"X\") | .tid] | unique | length)" $r.trace || return 1
	done
'

# count TRACE NAME: the slices of region NAME, per thread, "N N ..." sorted
count() {
	jq -r --arg n "$2" "[.traceEvents[] | select(.ph == \"X\")] | group_by(.tid)[]
		| [.[] | select(.name == \$n)] | length" "$1" | sort -n | tr "\n" " "
}

test_expect_success 'one slice per pass the program made, on the thread that made it' '
	test "$(count nest.trace "(root)")" = "1 " && test "$(count nest.trace outer)" = "1 " &&
	test "$(count nest.trace inner)" = "1 " && test "$(count nest.trace rec)" = "3 " &&
	test "$(count ratio.trace A)" = "10 " && test "$(count ratio.trace B)" = "10 " &&
	test "$(count thr.trace T)" = "0 1 1 1 1 1 1 1 1 " &&
	test "$(count thr.trace T.inner)" = "0 1 1 1 1 1 1 1 1 " &&
	test "$(count thr.trace "(root)")" = "1 1 1 1 1 1 1 1 1 " &&
	jq -e "[.regions[] | .calls] | add == 9 + 16" thr.json
'

test_expect_success 'the passes of a region add up to the region'"'"'s counts in the report' '
	for r in A B; do
		jq -e --arg n $r --slurpfile t ratio.trace "([\$t[0].traceEvents[] | select(.name == \$n)
			| .args.counts[\"task-clock\"]] | add) == (.regions[] | select(.name == \$n) | .counts[\"task-clock\"])" ratio.json || return 1
	done
'

test_expect_success 'speedscope imports it with no error and no slice that fails to nest' '
	view nest.trace nest &&
	head -n 3 nest.out &&
	grep "^console-errors 0$" nest.out && grep "^console-warnings 0$" nest.out &&
	grep "^console.log: Importing as Trace Event Format profile$" nest.out &&
	grep "^eval document.title => \"nest.trace - speedscope\"" nest.out &&
	rows nest "(root)" >root.rows && rows nest outer >outer.rows && rows nest inner >inner.rows &&
	rows nest rec >rec.rows && cat root.rows outer.rows inner.rows rec.rows &&
	test_line_count = 1 root.rows && test_line_count = 1 outer.rows &&
	test_line_count = 1 inner.rows && test_line_count = 3 rec.rows
'

# near A B: A and B within 1 % (speedscope prints four digits) or 0.02 ms
near() {
	awk -v a="$1" -v b="$2" "BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.01 * (a > b ? a : b) || d <= 0.02) }" ||
	{ echo "$1 and $2 differ"; false; }
}

test_expect_success 'speedscope nests inner in outer: outer'"'"'s self time is the library'"'"'s exclusive time' '
	near "$(cut -d" " -f2 outer.rows)" "$(jq ".regions[] | select(.name == \"outer\") | .exclusive_time_s * 1000" nest.json)" &&
	near "$(cut -d" " -f1 outer.rows)" "$(jq ".regions[] | select(.name == \"outer\") | .time_s * 1000" nest.json)" &&
	near "$(cut -d" " -f1 inner.rows)" "$(cut -d" " -f2 inner.rows)" &&
	# the recursion: each rec less the one inside it, the deepest alone
	sort -n -r rec.rows >rec.sorted &&
	awk "NR > 1 { if (prev_total - \$1 - prev_self > 0.02 || \$1 + prev_self - prev_total > 0.02) bad = 1 }
		{ prev_total = \$1; prev_self = \$2 } END { exit bad }" rec.sorted
'

test_expect_success 'regions files without logged passes: one line, exit 2, no file' '
	cp -r nest old && for f in old/regions-*.json; do
		jq "del(.threads[].instances)" $f >$f.new && mv $f.new $f || return 1
	done &&
	test_exit_code 2 "$TDPERF" report --format trace -o bad.trace old 2>err &&
	test_line_count = 1 err && grep "nothing to put on a timeline" err && ! test -e bad.trace
'

test_expect_success 'bounded: 3000 passes log the first 1024, the rest counted as not shown' '
	printf "#include <tdperf.h>\nint main(void) { for (int i = 0; i < 3000; i++) { TDPERF_REGION(\"x\"); } return 0; }\n" >many.c &&
	$CC -I"$TD_SRCDIR/regions" -o many many.c -L"$TD_BUILDDIR" -ltdperf -Wl,-rpath,"$TD_BUILDDIR" &&
	"$TDPERF" record --regions -o manyrun -- ./many 2>err &&
	"$TDPERF" report --format trace -o many.trace manyrun &&
	test "$(jq "[.traceEvents[] | select(.name == \"x\")] | length" many.trace)" = 1024 &&
	test "$(jq "[.traceEvents[] | select(.name == \"(root)\")] | length" many.trace)" = 1 &&
	test "$(jq ".otherData.passes_not_shown" many.trace)" = 1976 &&
	test "$(jq ".otherData.passes_shown_per_thread" many.trace)" = 1024
'

# On the emulated Skylake-SP every event counts at a fixed rate per cycle,
# so each pass's Level 1 is the one perf 6.1 prints for any program there.
# perf's run is ten times longer than the regions run: on a short one,
# under load, a multiplexed group of perf's may never run, and perf then
# prints its metric from a "<not counted>" zero (tma_backend_bound 70 %
# beside 40 + 10 + 25): no oracle.  Such a print fails the test by name.
. "$TD_SRCDIR/tests/e2e/pmu-emu-lib.sh"
emu_require

test_expect_success 'emulated Skylake-SP: each pass'"'"'s Level 1 in the args is what perf stat -M TopdownL1 prints' '
	"$EMU/pmu-emu" --cpu skylakex -- sh -c "
		\"$TDPERF\" record --regions -l 1 -o emu -- ./app ratio 100000 &&
		perf stat -M TopdownL1 -x, -o perf.csv -- ./app ratio 3000000" 2>err &&
	{ ! grep "not counted" perf.csv || { echo "perf left a group uncounted: not an oracle"; false; }; } &&
	"$TDPERF" report --format trace -o emu.trace emu &&
	awk -F, "/%  tma_/ { n = \$NF; sub(/^%  tma_/, \"\", n); print n, \$(NF - 1) }" perf.csv | sort >perf.l1 &&
	cat perf.l1 && test_line_count = 4 perf.l1 &&
	test "$(jq "[.traceEvents[] | select(.ph == \"X\")] | length" emu.trace)" = 21 &&
	jq -r ".traceEvents[] | select(.ph == \"X\") | .args[\"Top-Down Level 1\"] | to_entries[]
		| \"\(.key | ascii_downcase | gsub(\" \"; \"_\")) \(.value * 100)\"" emu.trace >ours.l1 &&
	test_line_count = 84 ours.l1 &&
	awk "NR == FNR { want[\$1] = \$2; next } { d = \$2 - want[\$1]; if (d < 0) d = -d;
		if (!(\$1 in want) || d > 0.05) { print \"differs:\", \$0, want[\$1]; bad = 1 } } END { exit bad }" perf.l1 ours.l1
'

test_done
