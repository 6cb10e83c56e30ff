#!/bin/sh
# Every chart fills its card (issue 32, item 12): the main Top-Down charts
# were drawn 1,096 px wide, but stacks, threads, sweep and phase charts
# with few bars were 640-900 px, using half to three quarters of the card.
# The oracle is Chromium's layout of the page (tests/e2e/browser-check.js):
# each chart's rendered width against its card's content box, and against
# the SVG's own width (scale 1: its 12 px text is shown at 12 px).
. "$(dirname "$0")/test-lib.sh"

PUB=$FIXTURES/perf-stat-published
CHECK=$TD_SRCDIR/tests/e2e/browser-check.js
TMPDIR=$TEST_DIR; export TMPDIR
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
export CHROMIUM

if ! test -x "$CHROMIUM" || ! have_prog node || ! have_prog gnuplot; then
	test_expect_success 'chromium, node and gnuplot are installed' 'false'
	test_done
fi

# "[id, % of the card's content width, % of the SVG's own width]" per chart
FILL='JSON.stringify([...document.querySelectorAll("svg.chart")].map(s => { const c = s.closest(".card"), cs = getComputedStyle(c); const inner = c.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight); const w = s.getBoundingClientRect().width; return [(s.closest("figure") || {}).id || "chart", Math.round(100 * w / inner), Math.round(100 * w / s.viewBox.baseVal.width)]; }))'

# fills PAGE MIN_CHARTS: every chart of PAGE fills its card at scale 1
fills() {
	node "$CHECK" "$1" "$1.png" "$FILL" >"$1.res" &&
	grep "^eval " "$1.res" | sed "s/.* => //" | tr -d "[]\\\\\"" | tr , "\n" | paste - - - >"$1.charts" &&
	cat "$1.charts" &&
	test "$(wc -l <"$1.charts")" -ge "$2" &&
	awk "\$2 < 99 || \$3 < 99 || \$3 > 101 { print \"not filling its card: \" \$0; bad = 1 } END { exit bad }" \
		"$1.charts"
}

test_expect_success 'hybrid Level 1/2 and CPI stack charts (2 bars each) fill the card' '
	"$TDPERF" report --html c45.html "$PUB/case-45-adl-acme-irogers-topdownL2-hybrid.txt" >/dev/null &&
	fills c45.html 4
'

test_expect_success 'sweep speedup (a line) and its 3-bar stacks fill the card' '
	"$TDPERF" report --html sweep.html "$FIXTURES/sweep-busy" >/dev/null &&
	fills sweep.html 4
'

test_expect_success 'few bars are not walls: a 2-bar chart keeps each bar under a quarter of the plot' '
	"$TDPERF" report --plot charts "$PUB/case-45-adl-acme-irogers-topdownL2-hybrid.txt" >/dev/null &&
	test_grep "^set xrange \[-1.5:2.5\]$" charts/topdown-l1.gp &&
	test_grep "svg size 1096,440" charts/topdown-l1.gp
'

test_done
