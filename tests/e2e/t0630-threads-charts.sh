#!/bin/sh
# Charts and HTML of the thread analysis (Heirman et al. 2011): per-thread stacked
# bars, and for a sweep the scaling bars and the speedup curve, on real
# recordings made here ('tdperf record --threads' and '--sweep' of the
# test workloads; no PMU needed).  The gnuplot output is valid SVG with the
# expected series; the HTML report shows them and the tables behind them,
# and loads in headless Chromium with no error.
. "$(dirname "$0")/test-lib.sh"

W=$TD_BUILDDIR/tests/workloads
CHECK="$TD_SRCDIR/tests/e2e/browser-check.js"
TMPDIR=$TEST_DIR; export TMPDIR
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
export CHROMIUM
value() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
evald() { grep -F "eval $1 => " "$2" | sed 's/.* => //'; }

if ! have_prog perf || ! have_prog jq ||
   ! perf record -q -e sched:sched_switch -o probe.data -- true 2>/dev/null; then
	test_skip 'thread charts' 'perf cannot record sched tracepoints here (or jq is missing)'
	test_done
fi

test_expect_success 'record a threaded run and a thread-count sweep' '
	ASAN_OPTIONS=detect_leaks=0 "$TDPERF" record --threads -o bar.data -- "$W/tw-barrier" 2 >/dev/null 2>err &&
	ASAN_OPTIONS=detect_leaks=0 "$TDPERF" record --sweep threads=1,2 -o sw -- "$W/tw-parallel" {threads} \
		>/dev/null 2>err &&
	"$TDPERF" report --format json bar.data >bar.json &&
	"$TDPERF" report --format json sw >sw.json &&
	jq -e ".threads.threads | length == 3" bar.json &&
	jq -e "[.sweep.runs[] | select(.analysed)] | length == 2" sw.json
'

if have_prog gnuplot && have_prog xmllint; then
	test_expect_success 'report --plot: one stacked bar per thread, valid SVG, the components as series' '
		"$TDPERF" report --plot charts bar.data >/dev/null &&
		xmllint --noout charts/threads.svg &&
		test "$(grep -vc "^#" charts/threads.dat)" = 3 &&
		for s in "running" "runnable (waiting for a CPU)" "sync (waiting for another thread)" \
			 "imbalance (not started / ended)" "Time of each thread"; do
			grep -q "$s" charts/threads.svg || { echo "missing in the SVG: $s"; exit 1; }
		done &&
		# each row: the thread'"'"'s fractions of the document, in percent
		tid=$(jq -r "[.threads.threads[] | select(.name == \"tw-worker\")][0].tid" bar.json) &&
		want=$(jq -r ".threads.threads[] | select(.tid == $tid) | .fractions.sync * 100" bar.json) &&
		got=$(awk -F"\t" -v t="tw-worker $tid" "\$1 == t { print \$4 }" charts/threads.dat) &&
		awk -v a="$want" -v b="$got" "BEGIN { d = a - b; exit !(d < 0.001 && d > -0.001) }"
	'

	test_expect_success 'report --plot of a sweep: scaling bars and the speedup curve against ideal' '
		"$TDPERF" report --plot swc sw >/dev/null &&
		for c in sweep-stacks sweep-time sweep-speedup threads; do
			xmllint --noout swc/$c.svg || { echo "bad SVG: $c"; exit 1; }
		done &&
		grep -v "^#" swc/sweep-speedup.dat >rows && test_line_count = 2 rows &&
		test "$(awk -F"\t" "NR == 1 { print \$1, \$2, \$3 }" rows)" = "1 1 1" &&
		test "$(awk -F"\t" "NR == 2 { print \$1, \$3 }" rows)" = "2 2" &&
		s2=$(jq -r ".sweep.runs[] | select(.value == 2) | .speedup" sw.json) &&
		awk -F"\t" -v s="$s2" "NR == 2 { d = \$2 - s; exit !(d < 1e-5 && d > -1e-5) }" rows &&
		grep -q "measured" swc/sweep-speedup.svg && grep -q "ideal" swc/sweep-speedup.svg &&
		test "$(grep -vc "^#" swc/sweep-stacks.dat)" = 2
	'
else
	test_skip 'thread charts' 'gnuplot or xmllint not installed'
fi

test_expect_success 'the HTML report: a row and a bar per thread, the excluded one marked' '
	"$TDPERF" report --html bar.html bar.data >/dev/null &&
	tr -d "\n" <bar.html | grep -o "<table class=\"data threads\">.*" | sed "s|</table>.*||" >table &&
	test "$(grep -o "<tr[ >]" table | wc -l)" = 4 &&
	test "$(grep -o "class=\"stackbar small\"" table | wc -l)" = 3 &&
	test_grep "excluded, [0-9]*% sync" bar.html &&
	! grep -q "<dt>oncpu_split</dt>" bar.html
'

test_expect_success 'the HTML report of a sweep: per-value table, figures, no empty tree' '
	"$TDPERF" report --html sw.html sw >/dev/null &&
	test_grep "<h3>Scaling: threads</h3>" sw.html &&
	test_grep "This sweep has no counts of its own" sw.html &&
	! grep -q "<section id=\"tree\"" sw.html &&
	if have_prog gnuplot; then
		for f in fig-sweep-speedup fig-sweep-stacks fig-sweep-time fig-threads; do
			grep -q "id=\"$f\"" sw.html || { echo "no figure $f"; exit 1; }
		done
	fi
'

if test -x "$CHROMIUM" && have_prog node; then
	test_expect_success 'the sweep report loads in Chromium without errors; the tables are there' '
		node "$CHECK" sw.html sw.png \
			"document.querySelectorAll(\"table.threads tbody tr\").length" \
			"document.querySelectorAll(\"#threads .stackbar\").length" \
			"document.querySelectorAll(\"#threads svg\").length" >res &&
		cat res &&
		test "$(value console-errors res)" = 0 &&
		test "$(value requests res)" = 0 &&
		test "$(evald "document.querySelectorAll(\"table.threads tbody tr\").length" res)" = 3 &&
		test "$(evald "document.querySelectorAll(\"#threads .stackbar\").length" res)" -ge 5 &&
		if have_prog gnuplot; then test "$(evald "document.querySelectorAll(\"#threads svg\").length" res)" -ge 4; fi &&
		test "$(value colours res)" -ge 10
	'
else
	test_skip 'the sweep report loads in Chromium' 'chromium or node not installed'
fi

test_done
