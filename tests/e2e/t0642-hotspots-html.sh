#!/bin/sh
# The hotspots page and chart on a recording made here: headless Chromium
# (tests/e2e/browser-check.js) loads the flame graph with no console error
# and no network request; search finds a function and sums its share as
# the JSON says; click zooms; the table sorts; a hostile JIT symbol name
# stays text.  The gnuplot chart of the top functions is well-formed.
. "$(dirname "$0")/test-lib.sh"
. "$TD_SRCDIR/tests/e2e/perfdata-lib.sh"
. "$TD_SRCDIR/tests/e2e/hotspots-lib.sh"

CHECK="$TD_SRCDIR/tests/e2e/browser-check.js"
TMPDIR=$TEST_DIR; export TMPDIR
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
export CHROMIUM
have_browser() { test -x "$CHROMIUM" && have_prog node; }
value() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
evald() { grep -F "eval $1 => " "$2" | sed 's/.* => //'; }

missing() {
	if [ "${CI:-}" = true ]; then
		test_expect_success "$1 (required under CI)" "echo '$2'; false"
	else
		test_skip "$1" "$2"
	fi
}

require_cpu_clock_record 'hotspots page'
# the JIT code gets a name that would break out of a script or an attribute
HOSTILE='</script><img src=x onerror=alert(1)>"q\x'
TW_JIT_NAME=$HOSTILE "$PERF" record -q -e cpu-clock -g -o hot.data -- "$W/tw-hot" 1 "$W/libtwhot.so" >rec.log 2>&1

test_expect_success 'report --hotspots --html writes one self-contained page' '
	"$TDPERF" report --hotspots --html=hot.html hot.data >/dev/null &&
	test -s hot.html &&
	! grep -E -i "(src|href)=\"(https?:)?//|@import|url\((https?:)?//" hot.html &&
	test "$(grep -c "<script" hot.html)" = 2 &&
	! grep -q "<img" hot.html
'
"$TDPERF" report --hotspots --format json hot.data >hot.json
A_SHARE=$(jq -r "[.hotspots[] | select(.symbol == \"tw_hot_a\")][0].children_percent * 100 | round / 100" hot.json)

if have_browser; then
	test_expect_success 'the page renders in Chromium: flame graph, table, no error, no request' '
		node "$CHECK" hot.html hot.png \
			"document.querySelectorAll(\"#flame g\").length" \
			"tdSearch(\"tw_hot_a\")" \
			"document.getElementById(\"matched\").textContent" \
			"tdSearch(\"onerror\")" \
			"document.querySelectorAll(\"img\").length" \
			"[...document.querySelectorAll(\"#hot tbody td\")].some((td) => td.textContent.includes(\"<img src=x\"))" \
			"(document.querySelector(\"#hot th:nth-child(5)\").click(), document.querySelector(\"#hot th:nth-child(5)\").click(), document.querySelector(\"#hot tbody tr td\").textContent)" \
			"(tdSearch(\"\"), [...document.querySelectorAll(\"#flame g\")].find((g) => g.textContent.startsWith(\"tw_hot_b\")).dispatchEvent(new MouseEvent(\"click\")), document.querySelectorAll(\"#flame g\").length)" \
			"document.querySelector(\"#flame g title\").textContent" >res &&
		cat res &&
		test "$(value console-errors res)" = 0 &&
		test "$(value requests res)" = 0 &&
		test "$(evald "document.querySelectorAll(\"#flame g\").length" res)" -ge 10 &&
		test "$(evald "tdSearch(\"tw_hot_a\")" res)" -ge 1 &&
		evald "document.getElementById(\"matched\").textContent" res | test_grep -q "matched: $(printf %.2f "$A_SHARE")% of samples" &&
		test "$(evald "tdSearch(\"onerror\")" res)" -ge 1 &&
		test "$(evald "document.querySelectorAll(\"img\").length" res)" = 0 &&
		test "$(evald "[...document.querySelectorAll(\"#hot tbody td\")].some((td) => td.textContent.includes(\"<img src=x\"))" res)" = true &&
		test "$(value colours res)" -ge 10
	'
	test_expect_success 'sorting by samples ascending puts a function with the fewest samples (of those listed: one or more) first' '
		first=$(evald "(document.querySelector(\"#hot th:nth-child(5)\").click(), document.querySelector(\"#hot th:nth-child(5)\").click(), document.querySelector(\"#hot tbody tr td\").textContent)" res | tr -d \") &&
		min=$(jq "[.hotspots[].samples | select(. > 0)] | min" hot.json) && # the table lists functions with samples of their own
		jq -e --arg f "$first" --argjson min "$min" "any(.hotspots[]; (.symbol == \$f or (.offset != null and (\$f | startswith(\"[unknown]\")))) and .samples == \$min)" hot.json
	'
	test_expect_success 'a click zooms into a frame: fewer frames, tw_hot_b at the base' '
		n=$(evald "(tdSearch(\"\"), [...document.querySelectorAll(\"#flame g\")].find((g) => g.textContent.startsWith(\"tw_hot_b\")).dispatchEvent(new MouseEvent(\"click\")), document.querySelectorAll(\"#flame g\").length)" res) &&
		test "$n" -ge 1 &&
		test "$n" -lt "$(evald "document.querySelectorAll(\"#flame g\").length" res)"
	'
else
	missing 'the hotspots page in Chromium' 'chromium or node not installed'
fi

if have_prog gnuplot; then
	test_expect_success '--plot: a bar chart of the top functions, well-formed SVG' '
		"$TDPERF" report --hotspots --plot charts --top 8 hot.data >/dev/null &&
		test_grep -q "^tw_hot_a	" charts/hotspots.dat &&
		test "$(grep -vc "^#" charts/hotspots.dat)" = 8 &&
		xmllint --noout charts/hotspots.svg && test_grep -q "tw_hot_a" charts/hotspots.svg
	'
	test_expect_success '--plot: the hostile name is data, never gnuplot code' '
		"$TDPERF" report --hotspots --plot charts2 hot.data >/dev/null &&
		test_grep -q "onerror" charts2/hotspots.dat &&
		! grep -q "onerror" charts2/hotspots.gp &&
		xmllint --noout charts2/hotspots.svg
	'
else
	missing 'hotspots chart' 'gnuplot not installed'
fi
test_done
