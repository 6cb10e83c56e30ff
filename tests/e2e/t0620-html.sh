#!/bin/sh
# The HTML report and the HTML diff in a real browser: headless Chromium
# (driven by tests/e2e/browser-check.js over the DevTools pipe) loads them
# with no console error and no network request, the DOM holds the key
# content, and a screenshot of the whole page is not blank.
. "$(dirname "$0")/test-lib.sh"

GEN="$TD_SRCDIR/tests/e2e/gen-report-doc.sh"
PUB="$FIXTURES/perf-stat-published"
CHECK="$TD_SRCDIR/tests/e2e/browser-check.js"
# the browser profile goes under this test's scratch directory, removed with it
TMPDIR=$TEST_DIR; export TMPDIR
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
export CHROMIUM
sh "$GEN" skylake 4 3e9 2e9 60 0.10 0.05 0.50 0.35 0.06 0.04 0.04 0.01 0.30 0.20 0.30 0.05 >a.json
sh "$GEN" icelake 5 1e9 1e9 100 0.10 0.15 0.30 0.45 0.05 0.05 0.12 0.03 0.20 0.10 0.40 0.05 >b.json

have_report() { "$TDPERF" report --format json "$PUB/case-23-cml-multidim-topdownL1-L2-L3.txt" >/dev/null 2>&1; }
have_browser() { test -x "$CHROMIUM" && have_prog node; }
# value NAME FILE: what browser-check printed for NAME
value() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
evald() { grep -F "eval $1 => " "$2" | sed 's/.* => //'; }

# self_contained FILE: nothing in it would reach the network
self_contained() {
	! grep -E -i '(src|href)="(https?:)?//|@import|url\((https?:)?//' "$1"
}

test_expect_success 'diff --html writes one self-contained file' '
	"$TDPERF" diff --html diff.html a.json b.json >/dev/null &&
	test -s diff.html && self_contained diff.html &&
	test_grep "<style>" diff.html && ! test_grep "<script" diff.html
'

if have_browser; then
	test_expect_success 'the diff page loads in Chromium without errors and shows the comparison' '
		node "$CHECK" diff.html diff.png \
			"document.querySelector(\".verdict\").textContent" \
			"document.querySelectorAll(\".sidecard\").length" \
			"document.querySelectorAll(\"svg.chart\").length" \
			"document.querySelectorAll(\"#levels tbody tr\").length" >res &&
		cat res &&
		test "$(value console-errors res)" = 0 &&
		test "$(value requests res)" = 0 &&
		evald "document.querySelector(\".verdict\").textContent" res | test_grep "B takes 1.000 cycles per instruction against 1.500 for A" &&
		test "$(evald "document.querySelectorAll(\".sidecard\").length" res)" = 2 &&
		test "$(evald "document.querySelectorAll(\"#levels tbody tr\").length" res)" = 12 &&
		if have_prog gnuplot; then test "$(evald "document.querySelectorAll(\"svg.chart\").length" res)" -ge 4; fi &&
		test "$(value colours res)" -ge 20 && test -s diff.png
	'
else
	test_skip 'the diff page loads in Chromium' 'chromium or node not installed'
fi

if have_report && have_prog gnuplot; then
	test_expect_success 'diff --html of real outputs: the chart notes give each side its reason' '
		"$TDPERF" diff --html real-diff.html "$PUB/case-05-skl-irogers-topdownL1-systemwide.txt" \
			"$PUB/case-10-icl-tgl-ffmpeg-aac-4runs.txt" >/dev/null &&
		! test_grep "no reason given" real-diff.html &&
		test_grep "A: skylake: Fetch Latency not computable: IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE not measured" real-diff.html &&
		test_grep "B: icelake: Branch Mispredicts not computable: [A-Z_.]* not measured" real-diff.html
	'
else
	test_skip 'diff --html chart notes of real outputs' 'gnuplot not installed'
fi

if have_report; then
	test_expect_success 'report --html on a real perf output (the README demo, case 23)' '
		"$TDPERF" report --html demo.html "$PUB/case-23-cml-multidim-topdownL1-L2-L3.txt" >out 2>err &&
		test -s demo.html && self_contained demo.html && ! test_grep "<script" demo.html &&
		test_grep "^tdperf: wrote demo.html (one self-contained HTML file); the text report is not printed with --html: add --format text to have both$" err &&
		test_line_count = 0 out
	'
	test_expect_success 'case 23: the raw events table says an event perf gave no share for was counted all the time' '
		tr -d "\n" <demo.html | grep -o "<table class=\"data events\">.*" | sed "s|</table>.*||" >events &&
		! test_grep "not reported" events &&
		test_grep -o "IDQ_UOPS_NOT_DELIVERED.CORE</td><td></td><td class=\"num\">[^<]*</td><td><span class=\"badge ok\">ok</span></td><td><span class=\"runbar\"><i class=\"full\" style=\"width:100%\"></i></span>all the time" events
	'
	test_expect_success 'case 23 Run section: the command line as typed, --html kept; only the file that exists' '
		tr -d "\n" <demo.html | grep -o "<dl class=\"meta\">.*</dl>" | sed "s|</dl>.*||; s|</dd>|&\n|g" >meta &&
		test_grep "<dt>command line</dt><dd>tdperf report --html demo.html $PUB/case-23-cml-multidim-topdownL1-L2-L3.txt</dd>" meta &&
		grep -o "<dt>files</dt>.*" meta >files-rows &&
		test_line_count = 1 files-rows &&
		test_grep "<dd>$PUB/case-23-cml-multidim-topdownL1-L2-L3.txt (input)</dd>" files-rows &&
		! test_grep "meta.json\|table.json" meta
	'
	test_expect_success 'report --html with --format: the text is printed as asked, beside the file' '
		"$TDPERF" report --format text --html demo2.html "$PUB/case-23-cml-multidim-topdownL1-L2-L3.txt" >out &&
		test_grep "^== session 2: perf stat" out &&
		test_grep -q "<dd>tdperf report --format text --html demo2.html " demo2.html
	'
	test_expect_success 'case 23: the summary shows session 2 (L1+L2), the most complete, and names the others' '
		test_grep "summary shows the most complete one, session 2 (perf stat ./benchmark, line 35)" demo.html &&
		test_grep "session 1 (line 15): 4 Level-1, 7 in all; session 3 (perf stat ./benchmark, line 66): 0 Level-1, 7 in all" demo.html
	'
	test_expect_success 'case 23: key metric cards are computed ones; the n/a ones are listed apart, collapsed' '
		sed -n "s/.*<div class=\"metrics\">\(.*\)<\/div><details class=\"scope\"><summary>All .*/\1/p" demo.html >cards &&
		test_grep ">IPC<" cards && test_grep ">CPI<" cards && test_grep ">Branch MPKI<" cards &&
		! test_grep "n/a" cards && ! test_grep "not measured" cards &&
		test_grep "<details class=\"na-list\"[^>]*><summary>[0-9]* info metrics not computable from these events</summary>" demo.html &&
		test_grep "<summary>n/a: needs [0-9]* events that were not measured</summary>" demo.html
	'
	test_expect_success 'case 23: every reason in the HTML names at most four events' '
		# (the CPU provenance, "CPU known from", is prose about the
		# inference, not a node reason listing events)
		grep -o ">[^<>]*not measured[^<>]*<" demo.html | grep -v "CPU inferred as" >reasons &&
		test -s reasons &&
		awk -F", " "NF > 4 || gsub(/ not measured/, \"&\") > 2 { print; bad = 1 } END { exit bad }" reasons
	'
	test_expect_success 'case 23: a reason names each unmeasured event once (json), the text shows a few' '
		"$TDPERF" report --format json "$PUB/case-23-cml-multidim-topdownL1-L2-L3.txt" >doc.json &&
		grep -o "\"reason\": \"[^\"]*\"" doc.json >json-reasons &&
		test_grep "not measured; " json-reasons &&
		awk -F"; " "{ split(\"\", seen); for (i = 1; i <= NF; i++) if (seen[\$i]++) { print; bad = 1 } } END { exit bad }" json-reasons &&
		"$TDPERF" report -v "$PUB/case-23-cml-multidim-topdownL1-L2-L3.txt" >text &&
		test_grep "and [0-9]* more not measured)" text &&
		! test_grep "not measured; [^)]*not measured; [^)]*not measured; [^)]*not measured; [^)]*not measured" text
	'
	if have_browser; then
		test_expect_success 'the report loads in Chromium without errors; key content is there' '
			node "$CHECK" demo.html demo.png \
				"document.querySelector(\".verdict\").textContent" \
				"document.querySelectorAll(\"details.node\").length" \
				"document.querySelectorAll(\"#events tbody tr\").length" \
				"document.querySelectorAll(\"svg.chart\").length" \
				"document.querySelector(\"h1\").textContent" >res &&
			cat res &&
			test "$(value console-errors res)" = 0 &&
			test "$(value requests res)" = 0 &&
			evald "document.querySelector(\".verdict\").textContent" res | test_grep "Backend Bound" &&
			test "$(evald "document.querySelectorAll(\"details.node\").length" res)" -ge 12 &&
			test "$(evald "document.querySelectorAll(\"#events tbody tr\").length" res)" -ge 11 &&
			if have_prog gnuplot; then test "$(evald "document.querySelectorAll(\"svg.chart\").length" res)" -ge 3; fi &&
			test "$(value colours res)" -ge 20 && test "$(value height res)" -ge 1500
		'
	fi
else
	test_skip 'report --html on a real perf output' 'tdperf report is not built in this tree yet'
fi

test_done
