#!/bin/sh
# tdperf report --format speedscope: loaded by the real speedscope viewer
# (the npm package tests/tools/speedscope pins, installed by
# scripts/bootstrap) in headless Chromium, as its command line loads a
# file (#localProfilePath=).  The viewer reports no error, names the
# profiles, and its Sandwich table lists the hot functions with the self
# shares tdperf report --hotspots gives them.
. "$(dirname "$0")/test-lib.sh"
. "$TD_SRCDIR/tests/e2e/perfdata-lib.sh"
. "$TD_SRCDIR/tests/e2e/hotspots-lib.sh"

SS=${TDPERF_SPEEDSCOPE:-/usr/local/share/tdperf-test/speedscope}/node_modules/speedscope/dist/release/index.html
CHECK=$TD_SRCDIR/tests/e2e/browser-check.js
missing=
test -f "$SS" || missing="$missing $SS (scripts/bootstrap installs it with npm)"
have_prog node || missing="$missing node (nodejs)"
test -x "${CHROMIUM:-/usr/bin/chromium}" || missing="$missing chromium"
have_prog jq || missing="$missing jq"
if test -n "$missing"; then
	test_expect_success 'the speedscope export tests can run' 'echo "missing:$missing"; false'
	test_expect_success 'one profile per thread: its weights add up to what perf script gives the thread' '
	"$PERF" record -q -e cpu-clock -g -o par.data -- "$W/tw-parallel" 4 >rec.log 2>&1 &&
	"$TDPERF" report --format speedscope -o par.ss par.data &&
	"$PERF" script -F tid,period -i par.data 2>/dev/null |
		awk "{ p[\$1] += \$2 } END { for (t in p) print t, p[t] }" | sort >perf.threads &&
	jq -r ".profiles[2:][] | \"\(.name | split(\" \") | last) \(.weights | add)\"" par.ss | sort >ours.threads &&
	cat ours.threads &&
	test "$(wc -l <ours.threads)" -ge 5 &&
	diff -u perf.threads ours.threads
'

test_done
fi
require_cpu_clock_record 'speedscope export'

# view FILE.json OUT: load FILE.json in speedscope, switch to the Sandwich
# view (key 3) and print browser-check's lines (the table's text last)
view() {
	printf 'speedscope.loadFileFromBase64("%s", "%s")' "$(basename "$1")" "$(base64 -w0 "$1")" >"$1.js" &&
	BROWSER_CHECK_HASH="#localProfilePath=$PWD/$1.js" BROWSER_CHECK_WAIT_MS=1500 \
	node "$CHECK" "$SS" "$2.png" 'document.title' \
		'for (const t of ["keydown", "keypress", "keyup"]) window.dispatchEvent(new KeyboardEvent(t, { key: "3", bubbles: true }))' \
		'new Promise((r) => setTimeout(() => r(document.body.innerText), 1000))' >"$2.out"
}

test_expect_success 'a cpu-clock recording exported as speedscope JSON' '
	"$PERF" record -q -e cpu-clock -g -o hot.data -- "$W/tw-hot" 1 >rec.log 2>&1 &&
	"$TDPERF" report --hotspots --format json hot.data >hot.json &&
	"$TDPERF" report --format speedscope -o hot.json.ss hot.data &&
	jq -e ".\"\$schema\" == \"https://www.speedscope.app/file-format-schema.json\"" hot.json.ss &&
	jq -e "[.profiles[] | .type == \"sampled\" and (.samples | length) == (.weights | length)] | all" hot.json.ss &&
	jq -e "(.profiles[0].weights | add) == $(jq .profile.period hot.json)" hot.json.ss &&
	jq -e "(.profiles[1].weights | add) == $(jq .profile.samples hot.json)" hot.json.ss
'

test_expect_success 'speedscope loads it with no error and shows both profiles' '
	view hot.json.ss hot &&
	cat hot.out | head -n 12 &&
	grep "^console-errors 0$" hot.out &&
	grep "^eval document.title => \"hot.data - speedscope\"" hot.out &&
	grep -F "cpu-clock (CPU time) (1/2)" hot.out
'

test_expect_success 'its Sandwich table lists the hot functions with --hotspots'"'"' self shares' '
	tail -n 1 hot.out | sed "s/.* => //" | jq -r . >table.txt &&
	for fn in $(jq -r ".hotspots[] | select(.percent >= 2) | .symbol" hot.json); do
		pct=$(jq -r --arg f "$fn" "[.hotspots[] | select(.symbol == \$f)][0].percent" hot.json) &&
		got=$(grep -B1 -x "	$fn" table.txt | head -n 1 | sed -n "s/.*(\([0-9.]*\)%)$/\1/p") &&
		echo "$fn: --hotspots self $pct %, speedscope ($got%)" &&
		# speedscope prints 2 significant digits: "(48%)", "(7.1%)"
		awk -v p="$pct" -v g="$got" "BEGIN { d = p - g; if (d < 0) d = -d; exit !(g != \"\" && d <= (p >= 10 ? 0.5 : 0.05)) }" || return 1
	done
'

test_expect_success 'one profile per thread: its weights add up to what perf script gives the thread' '
	"$PERF" record -q -e cpu-clock -g -o par.data -- "$W/tw-parallel" 4 >rec.log 2>&1 &&
	"$TDPERF" report --format speedscope -o par.ss par.data &&
	"$PERF" script -F tid,period -i par.data 2>/dev/null |
		awk "{ p[\$1] += \$2 } END { for (t in p) print t, p[t] }" | sort >perf.threads &&
	jq -r ".profiles[2:][] | \"\(.name | split(\" \") | last) \(.weights | add)\"" par.ss | sort >ours.threads &&
	cat ours.threads &&
	test "$(wc -l <ours.threads)" -ge 5 &&
	diff -u perf.threads ours.threads
'

test_done
